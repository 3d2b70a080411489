// Embark's portable kernel runtime: the API that generated model.cpp files call. Standalone
// C++17 (standard library only, no intrinsics), vectorized by GCC/Clang for the target.
#pragma once

// ---------------------------------------------------------------------------------------
// Conventions (read this before emitting calls)
//
// * Activations are float32 NHWC: element (n, y, x, c) of a tensor of shape [N][H][W][C] is at
//   ((n * H + y) * W + x) * C + c. Batch N >= 1 is supported everywhere.
// * Weights arrive in ONNX layout and are packed ONCE at start-up by a pack_* function into an
//   aligned buffer owned by the returned operator object (Conv2D, FullyConnected). Keep the
//   objects alive (e.g. static objects in model.cpp); the source weights may be freed after
//   packing.
// * Operator objects remember an indirection buffer built for the input pointer of the last
//   call (rebuilt only when the pointer changes, as it never does with a fixed arena). Hence
//   one object must not run concurrently from two threads; the kernels themselves may use a
//   ThreadPool internally.
// * Output buffers must not overlap inputs, except for the element-wise ops (binary/unary),
//   which accept out == a (or b) when that input has the output's full shape.
// * Bad shapes are programming errors of the emitter: pack_* throws std::invalid_argument
//   with a message, kernels do not check again (the hot path stays branch-free).
// * Compile with -O3 and the target's -march (e.g. -march=x86-64-v3, -march=rv64gcv,
//   -mcpu=cortex-a76); never -ffast-math (it makes Clang's vector code many times slower). Tile
//   sizes come from config.h (EMBARK_MR / EMBARK_NR / EMBARK_VLEN_BITS). riscv64: build with
//   clang-19 --target=riscv64-linux-gnu -march=rv64gcv -DEMBARK_VLEN_BITS=<board VLEN>, and
//   -march=rv64gcv_zvl256b for a VLEN-256 board (its 6 x 32 tile, config.h) (GCC 12 does not
//   vectorize for RVV); runtime/tests/cross_check.sh shows the commands.
// * Files: portable.h (this API), config.h (tiles), gemm_ukernel.h (the register tile),
//   runtime.cpp, conv.cpp, depthwise.cpp, bottleneck.cpp, winograd.cpp, pool.cpp,
//   elementwise.cpp, softmax.cpp, affine.cpp, vmath.h (vectorized exp/sigmoid/tanh/erf), quant.h,
//   quant_kernels.h, quant.cpp, quant_conv.cpp and quant_depthwise.cpp (int8 kernels), with
//   quant_x86.h (x86-64 AVX2 / AVX-512 VNNI int8 tiles), quant_gemm_neon.h, quant_depthwise_neon.h
//   and quant_add_neon.h (their aarch64 NEON versions). Copy all of them.
// * Threading: pass a ThreadPool* (nullptr or a 1-thread pool = run on the caller, no
//   overhead). Convolutions split over pixel tiles (or over output-channel panels when there
//   are few pixels); bench/bench_portable.sh measures the gain of 2 threads per layer.
// ---------------------------------------------------------------------------------------

#include "config.h"

#include <array>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace embark::portable {

// ----- Fused activation: applied by producers (conv, fc, binary ops) in their store loop --
// Sigmoid, Tanh, Swish (SiLU, x * sigmoid(x)) and Gelu (erf form) use the branch-free vectorized functions of
// vmath.h (their accuracy is stated there); producers apply them after their store.
enum class Act { None, Relu, Clamp, LeakyRelu, HardSwish, Sigmoid, Tanh, Swish, Gelu };

// True for the activations a GEMM tile applies to its stored output rather than in registers.
constexpr bool act_after_store(Act kind) {
    return kind == Act::Sigmoid || kind == Act::Tanh || kind == Act::Swish || kind == Act::Gelu;
}

struct Activation {
    Act kind = Act::None;
    float min = -INFINITY; // Clamp lower bound (ONNX Clip min)
    float max = INFINITY;  // Clamp upper bound (ONNX Clip max)
    float alpha = 0.01f;   // LeakyRelu slope
};

// Applies `act` in place to `count` contiguous floats (vectorizable per kind).
void apply_activation(const Activation& act, float* data, size_t count);

// ----- Memory --------------------------------------------------------------------------
// A 64-byte aligned float buffer (packed weights, zero rows). Move-only.
class AlignedBuffer {
public:
    AlignedBuffer() = default;
    explicit AlignedBuffer(size_t count); // zero-filled
    AlignedBuffer(AlignedBuffer&& other) noexcept;
    AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;
    ~AlignedBuffer();

    float* data() { return data_; }
    const float* data() const { return data_; }
    size_t size() const { return size_; }

private:
    float* data_ = nullptr;
    size_t size_ = 0;
};

// ----- Threads ---------------------------------------------------------------------------
// A fixed set of worker threads created once. parallel_for(n, fn, parts_per_thread) calls
// fn(begin, end) on disjoint contiguous sub-ranges ("parts") covering [0, n) and returns when
// all are done. Each thread owns an equal run of consecutive parts (the caller is thread 0 and
// owns the first) and takes them in order, so consecutive layers split the same way find
// their data in the same core's cache. A thread that has finished its own parts takes the
// last unclaimed part of another's run: with several parts per thread, a slower core (a
// board's little core, a virtual CPU sharing its core) costs a fraction of a part instead of
// the difference in speed over half the layer. Kernels choose parts_per_thread by what a
// part costs them beyond its share of the work (weights streamed again, a repeated
// transform). With threads == 1 it calls fn(0, n) directly. Results never depend on which
// thread ran a part.
class ThreadPool {
public:
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    static constexpr int kMaxParts = 128;
    int threads() const { return static_cast<int>(workers_.size()) + 1; }
    void parallel_for(int64_t n, const std::function<void(int64_t begin, int64_t end)>& fn, int parts_per_thread = 1);

private:
    void worker_loop(int index);

    // Claims and runs parts of job `generation`, thread `self`'s own ones first, until none is
    // left; then adds the number it ran to done_parts_.
    void run_parts(uint64_t generation, int self);

    // A job is split into at most kMaxParts parts. Workers spin briefly on `generation_` before
    // they sleep on `wake_`: consecutive layers hand over work in about a microsecond instead
    // of a futex round trip each. Spins are short (tens of microseconds): on a loaded machine a
    // spinning thread takes the core that the thread it waits for needs.
    //
    // Each thread's run of parts is one word on a cache line of its own, (generation mod 2^24)
    // << 40 | next << 16 | end: the owner claims `next` there (a core-local atomic while nobody
    // steals), a thief claims `end - 1`, and each thread adds its count of finished parts to
    // done_parts_ once, when nothing is left to claim. Between cores far apart (two virtual
    // CPUs on different dies: ~250 ns per cache-line transfer) a job then moves a handful of
    // lines instead of one contended word per part claimed and finished.
    struct alignas(64) Run {
        std::atomic<uint64_t> word{0};
    };
    std::vector<std::thread> workers_;
    std::unique_ptr<Run[]> runs_;
    std::mutex mutex_;
    std::condition_variable wake_;
    // Read by spinning workers, written once per job (and at shutdown): the job's fields share
    // the line of its generation, so a worker that sees a new job has it in the same transfer.
    alignas(64) std::atomic<uint64_t> generation_{0};
    const std::function<void(int64_t, int64_t)>* job_ = nullptr;
    int64_t job_size_ = 0;
    int parts_ = 0;
    std::atomic<int> sleepers_{0};
    std::atomic<bool> stop_{false};
    alignas(64) std::atomic<int> done_parts_{0};
    // The caller sleeps on `done_` once it has spun for a while on an unfinished job: a worker
    // that lost its CPU (more runnable threads than cores) then gets the caller's core instead
    // of waiting behind a spinning caller for the next time slice.
    std::atomic<bool> caller_waiting_{false};
    std::mutex done_mutex_;
    std::condition_variable done_;
};

// Parts per thread for work whose parts cost nothing beyond their share (element-wise ops,
// pooling, depthwise, layers whose weights stay in cache): enough that a thread 10% slower than
// the others leaves unclaimed parts for them to take.
constexpr int kFineParts = 16;

// Runs fn over [0, n) on `pool` when it has several threads and n > 1, else inline.
void parallel_for(ThreadPool* pool, int64_t n, const std::function<void(int64_t begin, int64_t end)>& fn,
                  int parts_per_thread = 1);

// ----- 2-D convolution ---------------------------------------------------------------------
// Field order matters for aggregate initialisation from generated code:
//   Conv2DShape{batch, in_h, in_w, in_c, out_c, kernel_h, kernel_w, stride_h, stride_w,
//               dilation_h, dilation_w, pad_top, pad_left, pad_bottom, pad_right, groups}
// in_c and out_c are the TOTAL channel counts (ONNX: C of X, M of W); both must be
// multiples of groups. For ConvTranspose set out_h/out_w explicitly (see below).
struct Conv2DShape {
    int batch = 1;
    int in_h = 1, in_w = 1, in_c = 1;
    int out_c = 1;
    int kernel_h = 1, kernel_w = 1;
    int stride_h = 1, stride_w = 1;
    int dilation_h = 1, dilation_w = 1;
    int pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
    int groups = 1;

    int out_h() const { return (in_h + pad_top + pad_bottom - dilation_h * (kernel_h - 1) - 1) / stride_h + 1; }
    int out_w() const { return (in_w + pad_left + pad_right - dilation_w * (kernel_w - 1) - 1) / stride_w + 1; }
};

// Which specialisation pack_conv2d chose (visible for tests and benchmarks).
enum class ConvPath {
    Pointwise,  // 1x1, stride 1, no pads, groups 1: a GEMM straight over the input rows
    Depthwise,  // groups == in_c == out_c: per-channel taps (3x3 and 5x5 unrolled at compile time)
    Indirect,   // everything else, grouped included: packed panels + indirection buffer
    Rows,       // few input channels (an image's 3), groups 1, dilation_w 1: the kernel_w taps of
                // a kernel row are contiguous in a horizontally padded input, so one pointer
                // per kernel row reads kernel_w * in_c values (7x fewer pointers for a 7x7 stem)
    Transposed, // ConvTranspose through an indirection buffer on the output grid
    Winograd,   // 3x3, stride 1, dilation 1, groups 1: F(2x2, 3x3), 2.25x fewer multiply-adds
    Regions,    // most taps in the padding (a large dilation on a small image): the output split
                // into rectangles whose pixels see the same kernel rows and columns, each an
                // Indirect convolution over only those taps (the Indirect path multiplies the
                // padding taps by a zero row), into a scratch, then copied to its place
    Blocks,     // ConvTranspose, groups 1: each input pixel one GEMM row of kernel_h * kernel_w *
                // out_c values, each added to the output pixel its tap reaches (col2im), copied
                // when kernel == stride without pads (no overlap). The Transposed gather multiplies
                // the zero taps too: (kernel / stride)^2 - 1 of every kernel_h * kernel_w
    // groups == in_c > 1, out_c = m * in_c (m > 1): the input's channels repeated m times into
    // `padded`, then the Depthwise kernels over out_c channels.
    DepthwiseMultiplier,
    // One input channel, groups 1 (RVV builds only): output pixels on the vector lanes, per
    // output channel and tap one load of the row's input values and one multiply-add.
    SingleChannel,
    // One input channel, groups 1, stride_w 1, output channels-first (pack_conv2d_planar and
    // conv2d_planar only): output pixels on the vector lanes, each output row of a channel
    // stored contiguously into its plane.
    Planar,
};

struct Conv2D {
    Conv2DShape shape;
    Activation act;
    ConvPath path = ConvPath::Indirect;
    int out_h = 0, out_w = 0;
    // Floats from one output pixel to the next: out_c (0 = unset) unless the output is a channel
    // range of a wider tensor, a concatenation that the layer writes into in place (the
    // emitter sets it after packing). Every path honours it; the fused bottleneck does not.
    int out_stride = 0;
    int out_pixel_stride() const { return out_stride > 0 ? out_stride : shape.out_c; }
    // Indirect/Pointwise/Transposed: per group, ceil(out_c/groups / NR) panels of
    // [taps][in_c/groups][NR] floats (zero-padded past the group's last channel), then per
    // group and panel NR bias values (Pointwise on RVV: panels of 2 * NR, gemm_rows_rvv.h).
    // Depthwise: [taps][C] weights, then C bias values.
    AlignedBuffer packed;
    size_t bias_offset = 0;
    AlignedBuffer zero; // in_c zeros (Rows: kernel_w * in_c): the row that padding taps point to
    // Rows with horizontal pads (or conv2d_nchw): the input copied with pad_left/pad_right zero
    // pixels per row.
    mutable AlignedBuffer padded;
    // Winograd F(MxM, 3x3), M = winograd_tile (2 or 4): packed is [(M+2)^2 positions][panels]
    // [in_c][NR], then the bias; zero_bias is NR zeros.
    AlignedBuffer zero_bias; // Blocks with overlapping taps: the out_c bias values instead
    int winograd_tile = 0;

    // Indirection: for each tile of MR output pixels and each tap, MR input-row pointers
    // ([tile][tap][MR], the last tile padded by repeating its last pixel). Depthwise uses
    // [pixel][tap]. Built for `indirection_input`.
    mutable std::vector<const float*> indirection;
    mutable const float* indirection_input = nullptr;

    // Regions: one sub-convolution per output rectangle (its out_h x out_w, its own packed taps
    // and indirection) and its box {first output row, first output column, first kernel row,
    // first kernel column, kernel rows, kernel columns}. zero_bias holds the bias for
    // rectangles that no tap reaches; `padded` is the scratch the rectangles are computed into.
    std::vector<Conv2D> regions;
    std::vector<std::array<int, 6>> region_box;
};

// Packs ONNX Conv weights [out_c][in_c/groups][kernel_h][kernel_w] and bias [out_c]
// (bias may be nullptr = zeros) and chooses the kernel path. 3x3 stride-1 layers take the
// Winograd path unless the runtime is compiled with -DEMBARK_WINOGRAD=0 (its packed weights
// are 16/9 the size of the direct kernel's with F(2x2), 4x with F(4x4); see winograd.cpp).
Conv2D pack_conv2d(const Conv2DShape& shape, const float* weights, const float* bias, Activation act = {});

// ConvTranspose: ONNX weights [in_c][out_c/groups][kernel_h][kernel_w]; out_h/out_w are the
// ONNX output size (they depend on output_padding/output_shape, which the emitter resolves).
// Pads, strides and dilations have the ONNX ConvTranspose meaning.
Conv2D pack_conv_transpose2d(const Conv2DShape& shape, int out_h, int out_w, const float* weights, const float* bias,
                             Activation act = {});

// input: [batch][in_h][in_w][in_c]; output: [batch][out_h][out_w][out_c].
void conv2d(const Conv2D& op, const float* input, float* output, ThreadPool* pool = nullptr);

// The same with the input in NCHW (a model's image): the Rows path copies its input into padded
// rows anyway, so it transposes while it copies, and the separate layout conversion of the
// input is saved (a 224x224 image: one 600 KB pass and one parallel job fewer). Only for
// ops where conv2d_reads_nchw() (the Rows path); output NHWC as conv2d's.
bool conv2d_reads_nchw(const Conv2D& op);
void conv2d_nchw(const Conv2D& op, const float* input, float* output, ThreadPool* pool = nullptr);

// A convolution whose activations stay channels-first ([batch][C][in_h * in_w], the model's layout
// of a 1-D convolution seen as in_h = 1): the input transposed to NHWC into `scratch` (unless the
// Rows path reads it as it is), conv2d, and its output transposed back, so a 1-D convolution runs
// on the same register tiles as a 2-D one. `scratch` holds channels_first_scratch_floats(op).
void conv2d_channels_first(const Conv2D& op, const float* input, float* output, float* scratch,
                           ThreadPool* pool = nullptr);
size_t channels_first_scratch_floats(const Conv2DShape& shape, int out_h, int out_w);

// A convolution of one input channel that writes its output channels-first
// ([batch][out_c][out_h][out_w], the model's layout), so that a layer whose output leaves the
// model needs no layout conversion after it (with one input channel, its input is the same in
// either layout): per output row and channel, runs of output pixels on the vector lanes, for
// each tap one load of contiguous input values and one multiply-add. Needs
// conv2d_planar_applies(shape): in_c 1, groups 1, stride_w 1 (any kernel, stride_h, dilations
// and pads). Weights are ONNX's [out_c][1][kernel_h][kernel_w].
bool conv2d_planar_applies(const Conv2DShape& shape);
Conv2D pack_conv2d_planar(const Conv2DShape& shape, const float* weights, const float* bias, Activation act = {});
// input: [batch][in_h][in_w] (one channel); output: [batch][out_c][out_h][out_w].
void conv2d_planar(const Conv2D& op, const float* input, float* output, ThreadPool* pool = nullptr);

// A 3-D convolution, activations [batch][C][D][H][W] (the model's layout), as 2-D ones: output
// depth od reads kernel_d input planes, stacked as kernel_d * in_c channels of one H x W image
// (per group: [kd][channel]) and convolved by `plane` (conv2d_channels_first), whose weights are
// the 3-D ones [out_c][in_c/groups][kd][kh][kw] reordered to [out_c][kd * in_c/groups][kh][kw].
struct Conv3D {
    Conv2D plane; // shape: batch 1, in_c = kernel_d * in_c, the H and W geometry, groups
    int batch = 1, in_c = 1, out_c = 1, groups = 1;
    int in_d = 1, out_d = 1, kernel_d = 1, stride_d = 1, dilation_d = 1, pad_front = 0;
    mutable AlignedBuffer scratch; // the stacked planes, conv2d_channels_first's scratch, one output depth
};
// shape3: in_c/out_c/groups and H, W geometry of the layer (batch and depth given beside).
Conv3D pack_conv3d(const Conv2DShape& shape_hw, int batch, int in_d, int out_d, int kernel_d, int stride_d,
                   int dilation_d, int pad_front, const float* weights, const float* bias, Activation act = {});
void conv3d(const Conv3D& op, const float* input, float* output, ThreadPool* pool = nullptr);

// ----- Inverted bottleneck (MobileNet-V2's block) -------------------------------------------
// A 1x1 expansion (optional), a depthwise convolution and a 1x1 projection (then, optionally,
// the block's residual Add) computed output row by output row: each thread keeps the kernel_h
// expanded input rows that its current output row needs in a ring of its own, so the expanded
// and filtered tensors (6x the block's width) are never written out, and the threads share only
// the block's input and output. Without an expansion (a depthwise-separable pair), the
// depthwise layer reads the input rows in place. Results are bit-identical to the conv2d calls
// (and binary Add): every output value is the same sums in the same order.
//
// bottleneck_fusable: the ops chain (Pointwise, Depthwise with dilation 1, Pointwise; matching
// shapes) and their weights are small enough that streaming them once per output row costs
// less than the round trips of the intermediate tensors through memory. When it is false,
// run the layers.
bool bottleneck_fusable(const Conv2D* expand, const Conv2D& depthwise, const Conv2D& project);

// output = project(depthwise(expand(input))) (expand may be nullptr), or with `residual` (the
// output's shape) residual_act(project(...) + residual). `output` must not overlap `input` or
// `residual`.
void inverted_bottleneck(const Conv2D* expand, const Conv2D& depthwise, const Conv2D& project, const float* input,
                         float* output, const float* residual = nullptr, Activation residual_act = {},
                         ThreadPool* pool = nullptr);

// ----- Fully connected / GEMM ----------------------------------------------------------------
// y[m][n] = act(sum_k x[m][k] * W(n, k) + bias[n]) for x [rows][k] row-major.
// transposed_weights == true (ONNX Gemm transB=1, the usual FC): W is [n][k].
// transposed_weights == false (transB=0 / MatMul with constant B): W is [k][n].
// Gemm alpha/beta are folded into W and bias by the emitter.
struct FullyConnected {
    int k = 0, n = 0;
    Activation act;
    AlignedBuffer packed; // ceil(n/NR) panels of [k][NR], then ceil(n/NR)*NR bias values
    size_t bias_offset = 0;
};

FullyConnected pack_fully_connected(int k, int n, const float* weights, bool transposed_weights, const float* bias,
                                    Activation act = {});

void fully_connected(const FullyConnected& op, int rows, const float* x, float* y, ThreadPool* pool = nullptr);

// y[m][n] = a[m][k] x b[k][n] with b computed at run time (attention's Q.K^T and A.V per head):
// b is packed into NR-wide panels (a buffer of the calling thread's), then the product runs
// as a fully-connected layer with the register tile, its pixel tiles split over the pool.
void matmul_runtime(const float* a, const float* b, float* y, int m, int k, int n, ThreadPool* pool);

// ----- Pooling (NHWC) ------------------------------------------------------------------
// out_h/out_w are given by the emitter (they depend on ceil_mode). Taps outside the input
// are skipped by max pooling; average pooling divides by the number of taps inside the
// input (count_include_pad == false) or inside the padded input (== true, ONNX semantics:
// taps beyond the pads that ceil_mode adds are never counted).
struct Pool2DShape {
    int batch = 1;
    int in_h = 1, in_w = 1, channels = 1;
    int out_h = 1, out_w = 1;
    int kernel_h = 1, kernel_w = 1;
    int stride_h = 1, stride_w = 1;
    int dilation_h = 1, dilation_w = 1;
    int pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
    int out_stride = 0; // floats between output pixels: channels (0) or a wider concatenation's
    int out_pixel_stride() const { return out_stride > 0 ? out_stride : channels; }
};

void max_pool2d(const Pool2DShape& s, const float* input, float* output, ThreadPool* pool = nullptr);
void average_pool2d(const Pool2DShape& s, bool count_include_pad, const float* input, float* output,
                    ThreadPool* pool = nullptr);
// A pool of a channels-first input [batch][channels][in_h * in_w] into a channels-first output
// (a 1-D pool of the model's [N][C][W] as a 1 x W image): transposed to channels-last into
// `scratch`, pooled by max_pool2d / average_pool2d, transposed back. scratch holds batch *
// (in_h * in_w + out_h * out_w) * channels floats; s.out_stride must be 0.
void pool2d_channels_first(const Pool2DShape& s, bool is_max, bool count_include_pad, const float* input, float* output,
                           float* scratch, ThreadPool* pool = nullptr);
// input [batch][pixels][channels] -> output [batch][channels] (pixels = H * W).
void global_average_pool(int batch, int pixels, int channels, const float* input, float* output);
void global_max_pool(int batch, int pixels, int channels, const float* input, float* output);

// ----- Element-wise ----------------------------------------------------------------------
// Up to 8 dimensions, given in the tensor's memory order (NHWC order for 4-D activations:
// the emitter permutes ONNX shapes before passing them). Shorter shapes are right-aligned
// (numpy broadcasting); the output shape is the broadcast of both.
struct Dims {
    int rank = 0;
    int64_t d[8] = {};
    Dims() = default;
    Dims(std::initializer_list<int64_t> dims);
    Dims(const int64_t* dims, int rank);
    int64_t count() const;
};

enum class BinaryOp { Add, Sub, Mul, Div, Min, Max, Pow };

void binary(BinaryOp op, const float* a, const Dims& a_dims, const float* b, const Dims& b_dims, float* out,
            Activation act = {}, ThreadPool* pool = nullptr);

enum class UnaryOp {
    Relu,
    Clip,
    LeakyRelu,
    Sigmoid,
    Tanh,
    HardSwish,
    HardSigmoid,
    Elu,
    Gelu,
    Erf,
    Exp,
    Neg,
    Abs,
    Sqrt,
    Swish,
    GeluTanh,
};

// Parameters in ONNX meaning: Clip min/max; LeakyRelu alpha; HardSigmoid alpha/beta
// (y = clamp(alpha * x + beta, 0, 1)); Elu alpha; Swish alpha (y = x * sigmoid(alpha * x)).
// Gelu is the exact (erf) form, GeluTanh ONNX's approximate='tanh'. Sigmoid, Tanh, Swish, Gelu,
// GeluTanh, Erf, Exp and Elu are branch-free vector loops (vmath.h states their accuracy).
struct UnaryParams {
    float min = -INFINITY, max = INFINITY;
    float alpha = 0.01f, beta = 0.5f;
};

// y may equal x.
void unary(UnaryOp op, const float* x, float* y, size_t count, UnaryParams params = {});

// y = act(x * scale[c] + shift[c]) for x [outer][channels][inner] (NHWC: inner = 1; NCHW:
// outer = N, inner = H * W): a BatchNormalization with its activation in one pass. y may equal x.
// With inner == 1, x_stride / y_stride (0 = channels) are the floats between pixels of x and y:
// a channel range of a concatenation read or written in place.
void channel_affine(const float* x, int64_t outer, int64_t channels, int64_t inner, const float* scale,
                    const float* shift, float* y, Activation act = {}, ThreadPool* pool = nullptr, int64_t x_stride = 0,
                    int64_t y_stride = 0);

// Softmax over the last axis of [rows][n] (y may equal x), with vmath.h's exp: within 4 ulp
// of a double-precision softmax plus the float rounding of the row's sum.
void softmax(const float* x, int64_t rows, int64_t n, float* y, ThreadPool* pool = nullptr);

// ----- Data movement ---------------------------------------------------------------------
// out[n][c][r] = in[n][r][c] for batch matrices of rows x cols: a layout conversion (NCHW ->
// NHWC is [N][C][H*W] -> [N][H*W][C]) in cache-sized blocks, split over the pool when large.
void transpose_matrices(const float* in, int64_t batch, int64_t rows, int64_t cols, float* out,
                        ThreadPool* pool = nullptr);

// One input of a concatenation that its producer did not write in place: `rows` rows of `len`
// floats, `src_stride` floats apart in src, into rows `dst_stride` floats apart in dst, split
// over the pool when large.
void copy_rows(const float* src, int64_t rows, int64_t len, int64_t src_stride, float* dst, int64_t dst_stride,
               ThreadPool* pool = nullptr);

} // namespace embark::portable

// Int8 kernels for quantized models (quant.cpp, quant_conv.cpp, quant_depthwise.cpp).
#include "quant.h"

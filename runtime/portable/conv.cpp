// Convolution (general/grouped through an indirection buffer, pointwise as a GEMM,
// transposed) and fully-connected layers, all on the gemm_ukernel.h register tile.
#include "gemm_rows_rvv.h"
#include "gemm_ukernel.h"
#include "portable.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#if defined(__clang__) && defined(__riscv_vector)
#  include <riscv_vector.h>
#  define EMBARK_SINGLE_CHANNEL 1
#else
#  define EMBARK_SINGLE_CHANNEL 0
#endif

namespace embark::portable {

using detail::ceil_div;
constexpr int MR = kTilePixels;
constexpr int NR = kTileChannels;
// Convolutions with fewer input channels take the Rows path (ConvPath::Rows) when they can:
// below this, a per-tap pointer loads too few values to pay for itself.
constexpr int kRowsMaxChannels = 16;
// One input channel takes the SingleChannel path (RVV) up to this kernel width.
constexpr int kSingleChannelMaxWidth = 16;

// Defined in depthwise.cpp.
namespace detail {
void pack_depthwise(Conv2D& op, const float* weights, const float* bias);
void run_depthwise(const Conv2D& op, const float* input, float* output, ThreadPool* pool);
// Defined in winograd.cpp.
bool winograd_applies(const Conv2DShape& shape);
void pack_winograd(Conv2D& op, const float* weights, const float* bias);
void run_winograd(const Conv2D& op, const float* input, float* output, ThreadPool* pool);
} // namespace detail

#ifndef EMBARK_WINOGRAD
#  define EMBARK_WINOGRAD 1
#endif

namespace {

void check_shape(const Conv2DShape& s, int out_h, int out_w) {
    auto fail = [](const std::string& what) { throw std::invalid_argument("embark portable conv2d: " + what); };
    if (s.batch < 1 || s.in_h < 1 || s.in_w < 1 || s.in_c < 1 || s.out_c < 1)
        fail("batch, input size and channel counts must be positive");
    if (s.kernel_h < 1 || s.kernel_w < 1 || s.stride_h < 1 || s.stride_w < 1 || s.dilation_h < 1 || s.dilation_w < 1)
        fail("kernel, strides and dilations must be positive");
    if (s.pad_top < 0 || s.pad_left < 0 || s.pad_bottom < 0 || s.pad_right < 0) fail("pads must not be negative");
    if (s.groups < 1 || s.in_c % s.groups != 0 || s.out_c % s.groups != 0)
        fail("in_c " + std::to_string(s.in_c) + " and out_c " + std::to_string(s.out_c) +
             " must be multiples of groups " + std::to_string(s.groups));
    if (out_h < 1 || out_w < 1)
        fail("the output would be empty (" + std::to_string(out_h) + "x" + std::to_string(out_w) +
             "): the kernel is larger than the padded input");
}

// Panels of W (NR) output channels per group: [group][panel][taps][cin_g][W], then the bias as
// [group][panel][W]. weight_at(g, co_in_group, ci_in_group, tap) reads the ONNX layout.
template <int W = NR, typename WeightAt>
void pack_panels(Conv2D& op, int taps, int cin_g, int cout_g, const float* bias, WeightAt weight_at) {
    const int groups = op.shape.groups;
    const int panels = ceil_div(cout_g, W);
    const size_t panel_size = static_cast<size_t>(taps) * cin_g * W;
    op.bias_offset = static_cast<size_t>(groups) * panels * panel_size;
    op.packed = AlignedBuffer(op.bias_offset + static_cast<size_t>(groups) * panels * W);
    float* out = op.packed.data();
    for (int g = 0; g < groups; ++g)
        for (int p = 0; p < panels; ++p) {
            float* panel = out + (static_cast<size_t>(g) * panels + p) * panel_size;
            float* panel_bias = out + op.bias_offset + (static_cast<size_t>(g) * panels + p) * W;
            const int n_valid = std::min(W, cout_g - p * W);
            for (int n = 0; n < n_valid; ++n) {
                const int co = p * W + n;
                panel_bias[n] = bias ? bias[g * cout_g + co] : 0.f;
                for (int t = 0; t < taps; ++t)
                    for (int k = 0; k < cin_g; ++k)
                        panel[(static_cast<size_t>(t) * cin_g + k) * W + n] = weight_at(g, co, k, t);
            }
        }
}

// Input-row pointers in the [tile][tap][MR] layout of gemm_tile. `source(p, tap)` returns
// the row of output pixel p for a tap, or nullptr for padding (mapped to the zero row).
template <typename Source>
void build_tiled_indirection(const Conv2D& op, int taps, const float* zero, Source source) {
    const int64_t pixels = static_cast<int64_t>(op.shape.batch) * op.out_h * op.out_w;
    const int64_t tiles = (pixels + MR - 1) / MR;
    op.indirection.assign(static_cast<size_t>(tiles * taps * MR), zero);
    for (int64_t p = 0; p < pixels; ++p) {
        const int64_t tile = p / MR, slot = p % MR;
        for (int t = 0; t < taps; ++t) {
            const float* row = source(p, t);
            op.indirection[static_cast<size_t>((tile * taps + t) * MR + slot)] = row ? row : zero;
        }
    }
}

void build_conv_indirection(const Conv2D& op, const float* input) {
    const Conv2DShape& s = op.shape;
    const int taps = s.kernel_h * s.kernel_w;
    build_tiled_indirection(op, taps, op.zero.data(), [&](int64_t p, int t) -> const float* {
        const int64_t n = p / (op.out_h * op.out_w);
        const int oy = static_cast<int>(p / op.out_w % op.out_h), ox = static_cast<int>(p % op.out_w);
        const int iy = oy * s.stride_h - s.pad_top + (t / s.kernel_w) * s.dilation_h;
        const int ix = ox * s.stride_w - s.pad_left + (t % s.kernel_w) * s.dilation_w;
        if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) return nullptr;
        return input + ((n * s.in_h + iy) * s.in_w + ix) * s.in_c;
    });
}

// Rows: the input width as the Rows path reads it (pad_left + in_w + pad_right pixels per row
// when the input is copied into op.padded, in_w when it is read in place).
bool rows_in_place(const Conv2DShape& s) { return s.pad_left == 0 && s.pad_right == 0; }

// Rows: one pointer per kernel row, to the first of its kernel_w contiguous input pixels.
void build_rows_indirection(const Conv2D& op, const float* rows_base) {
    const Conv2DShape& s = op.shape;
    const int width = rows_in_place(s) ? s.in_w : s.pad_left + s.in_w + s.pad_right;
    const int shift = rows_in_place(s) ? 0 : s.pad_left; // padded x = input x + pad_left
    build_tiled_indirection(op, s.kernel_h, op.zero.data(), [&](int64_t p, int ky) -> const float* {
        const int64_t n = p / (op.out_h * op.out_w);
        const int oy = static_cast<int>(p / op.out_w % op.out_h), ox = static_cast<int>(p % op.out_w);
        const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
        if (iy < 0 || iy >= s.in_h) return nullptr;
        const int x0 = ox * s.stride_w - s.pad_left + shift;
        return rows_base + ((n * s.in_h + iy) * width + x0) * s.in_c;
    });
}

// Copies the input rows into op.padded, between the zero margins that stay from allocation.
void pad_rows(const Conv2D& op, const float* input, ThreadPool* pool) {
    const Conv2DShape& s = op.shape;
    const size_t row = static_cast<size_t>(s.in_w) * s.in_c;
    const size_t padded_row = static_cast<size_t>(s.pad_left + s.in_w + s.pad_right) * s.in_c;
    const size_t left = static_cast<size_t>(s.pad_left) * s.in_c;
    float* padded = op.padded.data();
    parallel_for(
        pool, static_cast<int64_t>(s.batch) * s.in_h,
        [&](int64_t begin, int64_t end) {
            for (int64_t r = begin; r < end; ++r)
                std::memcpy(padded + r * padded_row + left, input + r * row, row * sizeof(float));
        },
        kFineParts);
}

#if EMBARK_SINGLE_CHANNEL
// SingleChannel (RVV): one input channel, so a kernel row's taps read contiguous input values
// (every stride_w-th one) of the horizontally padded row. Output pixels go on the lanes: per
// output row, chunks of up to one LMUL-8 vector of pixels (32 at VLEN 128), and for each output
// channel the bias splatted, then per tap one (strided) load of the chunk's input values and
// one vfmacc.vf by the tap's weight, and one strided store into the NHWC output. The channel
// tile of the GEMM paths does a whole tile's set-up (bias rows, indirection pointers, stores)
// for the 1 to kernel_h * kernel_w multiply-adds a pixel and channel needs here.
// Kernel rows in the vertical padding are skipped. Relu and Clamp are applied in registers
// (the tile's comparisons, so NaN comes out as there); the other activations on the stored rows.
//
// The rows are computed by a function of plain values (SingleChannelRows, copied to locals):
// read through the layer's references, every value would be reloaded after each store.
struct SingleChannelRows {
    const float* base; // input rows, horizontally padded (or in place), pixel stride 1
    const float* w;    // [out_c][kernel_h][kernel_w]
    const float* bias;
    float* output;
    int64_t out_stride; // floats between output pixels
    int width, in_h, out_h, out_w, out_c;
    int kernel_h, kernel_w, stride_h, stride_w, dilation_h, dilation_w, pad_top;
    Act act;
    float lo, hi;
};

template <bool kUnitStride>
[[gnu::noinline]] void single_channel_rows(const SingleChannelRows& a, int64_t begin, int64_t end) {
    // Locals: the stores through `out` may alias `a` for the compiler.
    const float* const base = a.base;
    const float* const w = a.w;
    const float* const bias = a.bias;
    float* const output = a.output;
    const int64_t out_stride = a.out_stride;
    const int width = a.width, in_h = a.in_h, out_h = a.out_h, out_w = a.out_w, out_c = a.out_c;
    const int kernel_h = a.kernel_h, kernel_w = a.kernel_w, stride_h = a.stride_h, stride_w = a.stride_w;
    const int dilation_h = a.dilation_h, dilation_w = a.dilation_w, pad_top = a.pad_top;
    const bool relu = a.act == Act::Relu, clamp = a.act == Act::Clamp;
    const float lo = a.lo, hi = a.hi;
    const ptrdiff_t store_stride = static_cast<ptrdiff_t>(out_stride * static_cast<int64_t>(sizeof(float)));
    const ptrdiff_t load_stride = static_cast<ptrdiff_t>(stride_w * sizeof(float));
    const int taps = kernel_h * kernel_w;
    const int64_t row_step = static_cast<int64_t>(dilation_h) * width;
    for (int64_t r = begin; r < end; ++r) {
        const int64_t n = r / out_h;
        const int oy = static_cast<int>(r % out_h);
        // Kernel rows [ky0, ky1) read input rows iy = iy0 + ky * dilation_h inside the image.
        const int iy0 = oy * stride_h - pad_top;
        int ky0 = 0, ky1 = kernel_h;
        while (ky0 < ky1 && iy0 + ky0 * dilation_h < 0) ++ky0;
        while (ky1 > ky0 && iy0 + (ky1 - 1) * dilation_h >= in_h) --ky1;
        const float* first_row = base + (n * in_h + iy0 + ky0 * dilation_h) * width;
        float* out_row = output + r * out_w * out_stride;
        for (int ox0 = 0; ox0 < out_w;) {
            const size_t vl = __riscv_vsetvl_e32m8(static_cast<size_t>(out_w - ox0));
            const float* x0 = first_row + static_cast<int64_t>(ox0) * stride_w;
            float* out = out_row + ox0 * out_stride;
            const float* wc = w + ky0 * kernel_w;
            for (int co = 0; co < out_c; ++co, wc += taps, ++out) {
                vfloat32m8_t acc = __riscv_vfmv_v_f_f32m8(bias[co], vl);
                const float* row = x0;
                const float* wr = wc;
                for (int ky = ky0; ky < ky1; ++ky, row += row_step, wr += kernel_w) {
                    const float* x = row;
                    for (int kx = 0; kx < kernel_w; ++kx, x += dilation_w) {
                        const vfloat32m8_t v =
                            kUnitStride ? __riscv_vle32_v_f32m8(x, vl) : __riscv_vlse32_v_f32m8(x, load_stride, vl);
                        acc = __riscv_vfmacc_vf_f32m8(acc, wr[kx], v, vl);
                    }
                }
                if (relu) {
                    // v > 0 ? v : 0
                    acc = __riscv_vfmerge_vfm_f32m8(
                        acc, 0.f, __riscv_vmnot_m_b4(__riscv_vmfgt_vf_f32m8_b4(acc, 0.f, vl), vl), vl);
                } else if (clamp) {
                    // v = v < lo ? lo : v; v = v > hi ? hi : v
                    acc = __riscv_vfmerge_vfm_f32m8(acc, lo, __riscv_vmflt_vf_f32m8_b4(acc, lo, vl), vl);
                    acc = __riscv_vfmerge_vfm_f32m8(acc, hi, __riscv_vmfgt_vf_f32m8_b4(acc, hi, vl), vl);
                }
                __riscv_vsse32_v_f32m8(out, store_stride, acc, vl);
            }
            ox0 += static_cast<int>(vl);
        }
    }
}

void run_single_channel(const Conv2D& op, const float* input, float* output, ThreadPool* pool) {
    const Conv2DShape& s = op.shape;
    const float* base = input;
    if (!rows_in_place(s)) {
        pad_rows(op, input, pool);
        base = op.padded.data();
    }
    const Act act = op.act.kind;
    const bool in_registers = act == Act::None || act == Act::Relu || act == Act::Clamp;
    const SingleChannelRows a{base,
                              op.packed.data(),
                              op.packed.data() + op.bias_offset,
                              output,
                              op.out_pixel_stride(),
                              rows_in_place(s) ? s.in_w : s.pad_left + s.in_w + s.pad_right,
                              s.in_h,
                              op.out_h,
                              op.out_w,
                              s.out_c,
                              s.kernel_h,
                              s.kernel_w,
                              s.stride_h,
                              s.stride_w,
                              s.dilation_h,
                              s.dilation_w,
                              s.pad_top,
                              act,
                              op.act.min,
                              op.act.max};
    parallel_for(
        pool, static_cast<int64_t>(s.batch) * op.out_h,
        [&](int64_t begin, int64_t end) {
            if (s.stride_w == 1)
                single_channel_rows<true>(a, begin, end);
            else
                single_channel_rows<false>(a, begin, end);
            if (!in_registers)
                for (int64_t p = begin * op.out_w; p < end * op.out_w; ++p)
                    apply_activation(op.act, output + p * a.out_stride, static_cast<size_t>(s.out_c));
        },
        kFineParts);
}
#endif

// Planar (conv2d_planar): one input channel, stride_w 1, channels-first output. Per output row
// and channel, chunks of kPlanarVecs vectors of kPlanarLanes output pixels (GCC/Clang vector
// extensions: one zmm each with AVX-512, two ymm with AVX2), the bias splatted, then per tap one
// load of the chunk's contiguous input values and one multiply-add by the tap's weight, and the
// chunk stored into the channel's plane. A tail of less than one vector is scalar. Kernel rows
// in the vertical padding are skipped; horizontal pads come from the padded rows (pad_rows).
// The activation is applied on each stored row while it is in L1.
typedef float PlanarVec __attribute__((vector_size(64)));
constexpr int kPlanarLanes = 16;
constexpr int kPlanarVecs = 4;

[[gnu::always_inline]] inline void planar_splat(PlanarVec& v, float x) {
    v = PlanarVec{x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
}

// The scalar tail's multiply-add, fused as the vector lanes' are where the CPU has FMA (written
// as a * b + c, GCC may vectorize the tap loop into separate multiplies and adds).
[[gnu::always_inline]] inline float planar_fma(float a, float b, float c) {
#if defined(__FMA__) || defined(__aarch64__) || defined(__riscv)
    return __builtin_fmaf(a, b, c);
#else
    return a * b + c;
#endif
}

struct PlanarRows {
    const float* base; // input rows, horizontally padded (or in place)
    const float* w;    // [out_c][kernel_h][kernel_w]
    const float* bias;
    float* output; // [batch][out_c][out_h][out_w]
    int width, in_h, out_h, out_w, out_c;
    int kernel_h, kernel_w, stride_h, dilation_h, dilation_w, pad_top;
};

template <int kVecs>
[[gnu::always_inline]] inline void planar_chunk(const float* x0, const float* w, int kernel_w, int rows,
                                                int64_t row_step, int dilation_w, float bias, float* out) {
    PlanarVec acc[kVecs];
#pragma GCC unroll 4
    for (int i = 0; i < kVecs; ++i) planar_splat(acc[i], bias);
    for (int ky = 0; ky < rows; ++ky, x0 += row_step, w += kernel_w) {
        const float* x = x0;
        for (int kx = 0; kx < kernel_w; ++kx, x += dilation_w) {
            PlanarVec wv;
            planar_splat(wv, w[kx]);
#pragma GCC unroll 4
            for (int i = 0; i < kVecs; ++i) {
                PlanarVec v;
                __builtin_memcpy(&v, x + i * kPlanarLanes, sizeof v);
                acc[i] += wv * v;
            }
        }
    }
#pragma GCC unroll 4
    for (int i = 0; i < kVecs; ++i) __builtin_memcpy(out + i * kPlanarLanes, &acc[i], sizeof acc[i]);
}

[[gnu::noinline]] void planar_rows(const PlanarRows& a, const Activation& act, int64_t begin, int64_t end) {
    // Locals: the stores through `out` may alias `a` for the compiler.
    const float* const base = a.base;
    const float* const w = a.w;
    const float* const bias = a.bias;
    float* const output = a.output;
    const int width = a.width, in_h = a.in_h, out_h = a.out_h, out_w = a.out_w, out_c = a.out_c;
    const int kernel_h = a.kernel_h, kernel_w = a.kernel_w, stride_h = a.stride_h;
    const int dilation_h = a.dilation_h, dilation_w = a.dilation_w, pad_top = a.pad_top;
    const int taps = kernel_h * kernel_w;
    const int64_t row_step = static_cast<int64_t>(dilation_h) * width;
    const int64_t plane = static_cast<int64_t>(out_h) * out_w;
    constexpr int kChunk = kPlanarVecs * kPlanarLanes;
    for (int64_t r = begin; r < end; ++r) {
        const int64_t n = r / out_h;
        const int oy = static_cast<int>(r % out_h);
        // Kernel rows [ky0, ky1) read input rows iy = iy0 + ky * dilation_h inside the image.
        const int iy0 = oy * stride_h - pad_top;
        int ky0 = 0, ky1 = kernel_h;
        while (ky0 < ky1 && iy0 + ky0 * dilation_h < 0) ++ky0;
        while (ky1 > ky0 && iy0 + (ky1 - 1) * dilation_h >= in_h) --ky1;
        const int rows = ky1 - ky0;
        const float* first_row = base + (n * in_h + iy0 + ky0 * dilation_h) * width;
        for (int co = 0; co < out_c; ++co) {
            float* out = output + (n * out_c + co) * plane + static_cast<int64_t>(oy) * out_w;
            const float* wc = w + static_cast<int64_t>(co) * taps + ky0 * kernel_w;
            const float b = bias[co];
            int ox = 0;
            for (; ox + kChunk <= out_w; ox += kChunk)
                planar_chunk<kPlanarVecs>(first_row + ox, wc, kernel_w, rows, row_step, dilation_w, b, out + ox);
            for (; ox + kPlanarLanes <= out_w; ox += kPlanarLanes)
                planar_chunk<1>(first_row + ox, wc, kernel_w, rows, row_step, dilation_w, b, out + ox);
            for (; ox < out_w; ++ox) {
                float sum = b;
                const float* x0 = first_row + ox;
                const float* wr = wc;
                for (int ky = 0; ky < rows; ++ky, x0 += row_step, wr += kernel_w)
                    for (int kx = 0; kx < kernel_w; ++kx) sum = planar_fma(wr[kx], x0[kx * dilation_w], sum);
                out[ox] = sum;
            }
            if (act.kind != Act::None) apply_activation(act, out, static_cast<size_t>(out_w));
        }
    }
}

// ConvTranspose as a gather: output (oy, ox) receives input (iy, ix) through tap (ky, kx)
// when oy = iy * stride + ky * dilation - pad_top (same for x).
void build_transposed_indirection(const Conv2D& op, const float* input) {
    const Conv2DShape& s = op.shape;
    const int taps = s.kernel_h * s.kernel_w;
    auto source_index = [](int o, int pad, int k, int dilation, int stride, int size) {
        const int num = o + pad - k * dilation;
        if (num < 0 || num % stride != 0) return -1;
        const int i = num / stride;
        return i < size ? i : -1;
    };
    build_tiled_indirection(op, taps, op.zero.data(), [&](int64_t p, int t) -> const float* {
        const int64_t n = p / (op.out_h * op.out_w);
        const int oy = static_cast<int>(p / op.out_w % op.out_h), ox = static_cast<int>(p % op.out_w);
        const int iy = source_index(oy, s.pad_top, t / s.kernel_w, s.dilation_h, s.stride_h, s.in_h);
        const int ix = source_index(ox, s.pad_left, t % s.kernel_w, s.dilation_w, s.stride_w, s.in_w);
        if (iy < 0 || ix < 0) return nullptr;
        return input + ((n * s.in_h + iy) * s.in_w + ix) * s.in_c;
    });
}

// Packed weights up to this size are "small" for run_tiles: well inside L1 with the tile's rows.
constexpr size_t kSmallWeightsBytes = 16 * 1024;
// Packed weights up to this size stay in a core's L2 between the parts of a layer.
constexpr size_t kCachedWeightsBytes = 512 * 1024;

// Splits (group, panel) x pixel-tile work: over tiles when there are enough of them to keep
// every thread busy, else over panels (fully-connected layers with one row). Inside a part
// the panel loop stays outermost, so a panel's weights stay in cache, unless all the weights
// fit in kSmallWeightsBytes (a 1x1 16->96 expansion: 6 KB): then each tile does every panel
// while its input rows are in L1, and the output is written row by row in one pass instead of
// one pass per panel (which pays on large images with small weights, such as MobileNet-V2's
// 112x112 expansions). A tile part streams all
// the weights, so there are many parts (for load balance) only when the weights stay in
// cache, or when each part has many tiles; a panel part streams only its own panels.
// tiles_all(begin, end) does what tile(gp, t) does for every gp and every t in [begin, end),
// tile by tile, in one pass over each tile's rows (gemm_tile_panels_any).
template <typename Tile, typename TilesAll>
void run_tiles(ThreadPool* pool, int64_t tiles, int group_panels, size_t weight_bytes, Tile tile, TilesAll tiles_all) {
    const int threads = pool ? pool->threads() : 1;
    const bool small_weights = weight_bytes <= kSmallWeightsBytes;
    auto range = [&](int64_t begin, int64_t end) {
        if (small_weights) {
            tiles_all(begin, end);
        } else {
            for (int gp = 0; gp < group_panels; ++gp)
                for (int64_t t = begin; t < end; ++t) tile(gp, t);
        }
    };
    if (threads <= 1) {
        range(0, tiles);
    } else if (tiles >= 4 * threads || tiles >= group_panels) {
        pool->parallel_for(tiles, range,
                           detail::streamed_weight_parts(weight_bytes, kCachedWeightsBytes, tiles, 32, threads));
    } else {
        pool->parallel_for(
            group_panels,
            [&](int64_t begin, int64_t end) {
                for (int64_t gp = begin; gp < end; ++gp)
                    for (int64_t t = 0; t < tiles; ++t) tile(static_cast<int>(gp), t);
            },
            kFineParts);
    }
}

// On several threads, the first panel's pass over a tile asks for the output rows of the tile
// kPrefetchedTilesAhead further (every channel: their stores follow in this or the next panel
// passes), see prefetch_for_write. It pays where the output is large and the threads sit on
// cores far apart (MobileNet-V2's 112x112 and 56x56 expansions, 2 threads across two dies).
constexpr int64_t kPrefetchedTilesAhead = 2;

void prefetch_output_tile(const float* output, int64_t tile, int64_t tiles, int64_t pixels, int channels) {
    const int64_t ahead = tile + kPrefetchedTilesAhead;
    if (ahead >= tiles) return;
    const int64_t first = ahead * MR, count = std::min<int64_t>(MR, pixels - first);
    detail::prefetch_for_write(output + first * channels, static_cast<size_t>(count * channels) * sizeof(float));
}

void run_indirect(const Conv2D& op, int taps, int cin_g, float* output, ThreadPool* pool) {
    const Conv2DShape& s = op.shape;
    const int cout_g = s.out_c / s.groups;
    const int panels = ceil_div(cout_g, NR);
    const int64_t pixels = static_cast<int64_t>(s.batch) * op.out_h * op.out_w;
    const int64_t tiles = (pixels + MR - 1) / MR;
    const size_t panel_size = static_cast<size_t>(taps) * cin_g * NR;
    const float* packed = op.packed.data();
    const float* const* ind = op.indirection.data();
    const bool prefetch = pool && pool->threads() > 1;
    const int ldc = op.out_pixel_stride();
    auto tile_of = [&](int64_t tile) { return static_cast<int>(std::min<int64_t>(MR, pixels - tile * MR)); };
    auto tile_all = [&](int64_t tile) {
        if (prefetch) prefetch_output_tile(output, tile, tiles, pixels, ldc);
        for (int g = 0; g < s.groups; ++g) {
            const size_t gp = static_cast<size_t>(g) * panels;
            detail::gemm_tile_panels_any<NR>(tile_of(tile), taps, cin_g, ind + tile * taps * MR, MR,
                                             static_cast<size_t>(g) * cin_g, packed + gp * panel_size, panel_size,
                                             packed + op.bias_offset + gp * NR, output + tile * MR * ldc + g * cout_g,
                                             ldc, cout_g, op.act);
        }
    };
    run_tiles(
        pool, tiles, s.groups * panels, op.packed.size() * sizeof(float),
        [&](int gp, int64_t tile) {
            if (prefetch && gp == 0) prefetch_output_tile(output, tile, tiles, pixels, ldc);
            const int g = gp / panels, p = gp % panels;
            float* c = output + tile * MR * ldc + g * cout_g + p * NR;
            detail::gemm_tile_any<NR>(tile_of(tile), taps, cin_g, ind + tile * taps * MR, MR,
                                      static_cast<size_t>(g) * cin_g, packed + gp * panel_size,
                                      packed + op.bias_offset + static_cast<size_t>(gp) * NR, c, ldc,
                                      std::min(NR, cout_g - p * NR), op.act);
        },
        [&](int64_t begin, int64_t end) {
#if EMBARK_NARROW_TILE
            // Whole tiles into whole panels, dispatched once for the range (gemm_whole_tiles_x86).
            if (!prefetch && s.groups == 1 && cout_g % NR == 0) {
                const int64_t whole_end = std::min(end, pixels / MR);
                if (begin < whole_end && detail::gemm_whole_tiles_x86<NR>(begin, whole_end, taps, cin_g, ind, packed,
                                                                          panel_size, packed + op.bias_offset, output,
                                                                          static_cast<size_t>(ldc), panels, op.act))
                    begin = whole_end;
            }
#endif
            for (int64_t tile = begin; tile < end; ++tile) tile_all(tile);
        });
}

// The MR row pointers of a GEMM tile from its first row: rows past m_valid repeat the last one
// (an add and a select each, instead of a multiply per row).
inline void tile_rows(const float* (&a)[MR], const float* first, int k, int m_valid) {
    a[0] = first;
    for (int m = 1; m < MR; ++m) a[m] = m < m_valid ? a[m - 1] + k : a[m - 1];
}

// Tile `tile` of panel p of a plain GEMM over `rows` rows of length k (row stride k) into rows of
// y `ldy` floats apart: shared by pointwise, FC and the fused bottleneck's rows.
inline void gemm_rows_tile(int64_t rows, int k, int n, const float* x, const float* packed, size_t bias_offset,
                           float* y, int ldy, const Activation& act, int p, int64_t tile) {
    const float* a[MR];
    const int m_valid = static_cast<int>(std::min<int64_t>(MR, rows - tile * MR));
    tile_rows(a, x + tile * MR * k, k, m_valid);
    detail::gemm_tile_any<NR>(m_valid, 1, k, a, MR, 0, packed + p * static_cast<size_t>(k) * NR,
                              packed + bias_offset + static_cast<size_t>(p) * NR, y + tile * MR * ldy + p * NR, ldy,
                              std::min(NR, n - p * NR), act);
}

// Tile `tile` of every panel of the same GEMM (gemm_tile_panels_any).
inline void gemm_rows_tile_all(int64_t rows, int k, int n, const float* x, const float* packed, size_t bias_offset,
                               float* y, int ldy, const Activation& act, int64_t tile) {
    const float* a[MR];
    const int m_valid = static_cast<int>(std::min<int64_t>(MR, rows - tile * MR));
    tile_rows(a, x + tile * MR * k, k, m_valid);
    detail::gemm_tile_panels_any<NR>(m_valid, 1, k, a, MR, 0, packed, static_cast<size_t>(k) * NR, packed + bias_offset,
                                     y + tile * MR * ldy, ldy, n, act);
}

#if EMBARK_NARROW_TILE
// Pointwise layers of at most kSmallK input channels into 8, 16, 24 or 32 output channels (a 1x1
// layer on an image's or a spectrogram's 1-3 channels): per pixel the bias and k multiply-adds
// into n / 8 vectors of 8, stored once, the weights held in registers. The GEMM tiles' set-up per
// tile of MR pixels (row pointers, the panel walk, the activation switch, a partial panel's
// stores) cost more than a pixel's k multiply-adds: a 1x1 layer from one channel to 16 ran 2.3x
// ONNX Runtime's time. Same fused multiply-adds in the same order as the tiles (the bias, then
// k = 0, 1, ...).
constexpr int kSmallK = 4;

bool pointwise_small_k_applies(int k, int n) { return k <= kSmallK && n <= 32 && n <= NR && n % 8 == 0; }

template <int V, Act kAct>
[[gnu::noinline]] void pointwise_small_k(int64_t begin, int64_t end, int k, const float* x, const float* panel,
                                         const float* bias, float* y, int ldy, float lo, float hi) {
    using detail::V8;
    V8 b[V], w[kSmallK][V];
    for (int j = 0; j < V; ++j) {
        detail::vload_into(b[j], bias + 8 * j);
        for (int kk = 0; kk < k; ++kk) detail::vload_into(w[kk][j], panel + static_cast<size_t>(kk) * NR + 8 * j);
    }
    const V8 l = V8{} + lo, h = V8{} + hi;
    for (int64_t p = begin; p < end; ++p) {
        const float* xp = x + p * k;
        float* yp = y + p * ldy;
        V8 acc[V];
        for (int j = 0; j < V; ++j) acc[j] = b[j];
        for (int kk = 0; kk < k; ++kk)
            for (int j = 0; j < V; ++j) acc[j] = detail::fma_x86(acc[j], xp[kk], w[kk][j]);
        for (int j = 0; j < V; ++j) {
            detail::activate_vector<V8, kAct>(acc[j], l, h);
            detail::vstore(yp + 8 * j, acc[j]);
        }
    }
}

template <int V>
void pointwise_small_k(int64_t begin, int64_t end, int k, const float* x, const float* panel, const float* bias,
                       float* y, int ldy, const Activation& act) {
    const float lo = act.kind == Act::Relu ? 0.f : act.min, hi = act.max;
    detail::with_register_activation(act.kind, [&](auto a) {
        pointwise_small_k<V, decltype(a)::value>(begin, end, k, x, panel, bias, y, ldy, lo, hi);
    });
    // Any other activation once over each pixel's stored channels.
    if (act.kind != Act::None && act.kind != Act::Relu && act.kind != Act::Clamp)
        for (int64_t p = begin; p < end; ++p) apply_activation(act, y + p * ldy, static_cast<size_t>(V) * 8);
}

void run_pointwise_small_k(int64_t rows, int k, int n, const float* x, const float* packed, size_t bias_offset,
                           float* y, int ldy, const Activation& act, ThreadPool* pool) {
    parallel_for(
        pool, rows,
        [&](int64_t begin, int64_t end) {
            const float* bias = packed + bias_offset;
            switch (n / 8) {
            case 1: pointwise_small_k<1>(begin, end, k, x, packed, bias, y, ldy, act); return;
            case 2: pointwise_small_k<2>(begin, end, k, x, packed, bias, y, ldy, act); return;
            case 3: pointwise_small_k<3>(begin, end, k, x, packed, bias, y, ldy, act); return;
            default: pointwise_small_k<4>(begin, end, k, x, packed, bias, y, ldy, act); return;
            }
        },
        kFineParts);
}
#endif

void run_gemm(int64_t rows, int k, int n, const float* x, const float* packed, size_t bias_offset, float* y, int ldy,
              const Activation& act, ThreadPool* pool) {
    const int panels = ceil_div(n, NR);
    const int64_t tiles = (rows + MR - 1) / MR;
    const size_t panel_size = static_cast<size_t>(k) * NR;
    const bool prefetch = pool && pool->threads() > 1;
    run_tiles(
        pool, tiles, panels, static_cast<size_t>(panels) * panel_size * sizeof(float),
        [&](int p, int64_t tile) {
            if (prefetch && p == 0) prefetch_output_tile(y, tile, tiles, rows, ldy);
            gemm_rows_tile(rows, k, n, x, packed, bias_offset, y, ldy, act, p, tile);
        },
        [&](int64_t begin, int64_t end) {
            for (int64_t tile = begin; tile < end; ++tile) {
                if (prefetch) prefetch_output_tile(y, tile, tiles, rows, ldy);
                gemm_rows_tile_all(rows, k, n, x, packed, bias_offset, y, ldy, act, tile);
            }
        });
}

// ConvTranspose's Blocks path copies each input pixel's block when the blocks tile the output:
// kernel == stride, no dilation or pads, and the output exactly in_size * stride.
bool blocks_tile_output(const Conv2DShape& s, int out_h, int out_w) {
    return s.kernel_h == s.stride_h && s.kernel_w == s.stride_w && s.dilation_h == 1 && s.dilation_w == 1 &&
           s.pad_top == 0 && s.pad_left == 0 && s.pad_bottom == 0 && s.pad_right == 0 && out_h == s.in_h * s.stride_h &&
           out_w == s.in_w * s.stride_w;
}

// Overlapping blocks: output = bias, plus every (input pixel, tap) value of `rows` that lands in
// the output (oy = iy * stride + ky * dilation - pad_top, same for x), then the activation. Split
// by output rows: each output row gathers from the input rows whose taps reach it, so threads never
// write the same row.
void col2im_add(const Conv2D& op, const float* rows, float* output, ThreadPool* pool) {
    const Conv2DShape& s = op.shape;
    const int taps = s.kernel_h * s.kernel_w;
    const int64_t row = static_cast<int64_t>(taps) * s.out_c;
    const int64_t stride = op.out_pixel_stride();
    const float* bias = op.zero_bias.data();
    parallel_for(
        pool, static_cast<int64_t>(s.batch) * op.out_h,
        [&](int64_t begin, int64_t end) {
            for (int64_t r = begin; r < end; ++r) {
                const int64_t n = r / op.out_h, oy = r % op.out_h;
                float* out_row = output + r * op.out_w * stride;
                for (int ox = 0; ox < op.out_w; ++ox) std::memcpy(out_row + ox * stride, bias, sizeof(float) * s.out_c);
                for (int ky = 0; ky < s.kernel_h; ++ky) {
                    const int64_t ny = oy + s.pad_top - static_cast<int64_t>(ky) * s.dilation_h;
                    if (ny < 0 || ny % s.stride_h) continue;
                    const int64_t iy = ny / s.stride_h;
                    if (iy >= s.in_h) continue;
                    for (int ix = 0; ix < s.in_w; ++ix) {
                        const float* src = rows + ((n * s.in_h + iy) * s.in_w + ix) * row +
                                           static_cast<int64_t>(ky) * s.kernel_w * s.out_c;
                        for (int kx = 0; kx < s.kernel_w; ++kx) {
                            const int64_t ox = static_cast<int64_t>(ix) * s.stride_w +
                                               static_cast<int64_t>(kx) * s.dilation_w - s.pad_left;
                            if (ox < 0 || ox >= op.out_w) continue;
                            float* __restrict d = out_row + ox * stride;
                            const float* __restrict v = src + kx * s.out_c;
                            for (int c = 0; c < s.out_c; ++c) d[c] += v[c];
                        }
                    }
                }
                if (op.act.kind != Act::None)
                    for (int ox = 0; ox < op.out_w; ++ox)
                        apply_activation(op.act, out_row + ox * stride, static_cast<size_t>(s.out_c));
            }
        },
        kFineParts);
}

// Regions: along one axis, the output coordinates in bands of consecutive outputs that read the
// same kernel taps [k0, k1) (empty when k1 == k0: every tap in the padding). The taps an output
// reads are contiguous: its input coordinate grows with the tap.
struct TapBand {
    int o0, o1, k0, k1;
};

std::vector<TapBand> tap_bands(int out, int in, int kernel, int stride, int dilation, int pad) {
    std::vector<TapBand> bands;
    for (int o = 0; o < out; ++o) {
        int k0 = kernel, k1 = 0;
        for (int k = 0; k < kernel; ++k) {
            const int i = o * stride - pad + k * dilation;
            if (i >= 0 && i < in) {
                k0 = std::min(k0, k);
                k1 = k + 1;
            }
        }
        if (k1 <= k0) k0 = k1 = 0;
        if (!bands.empty() && bands.back().k0 == k0 && bands.back().k1 == k1)
            bands.back().o1 = o + 1;
        else
            bands.push_back({o, o + 1, k0, k1});
    }
    return bands;
}

// The Regions path pays (a scratch pass and smaller GEMMs) when at most this share of the
// multiply-adds of the Indirect path reads the input, the rest being padding taps.
constexpr double kRegionsMaxReadShare = 0.6;

// Chooses and packs the Regions path when the padding taps are most of the convolution.
bool pack_regions(Conv2D& op, const float* weights, const float* bias) {
    const Conv2DShape& s = op.shape;
    const int taps = s.kernel_h * s.kernel_w;
    if (taps < 2) return false;
    const auto by = tap_bands(op.out_h, s.in_h, s.kernel_h, s.stride_h, s.dilation_h, s.pad_top);
    const auto bx = tap_bands(op.out_w, s.in_w, s.kernel_w, s.stride_w, s.dilation_w, s.pad_left);
    double read_y = 0, read_x = 0;
    for (const TapBand& b : by) read_y += double(b.o1 - b.o0) * (b.k1 - b.k0);
    for (const TapBand& b : bx) read_x += double(b.o1 - b.o0) * (b.k1 - b.k0);
    if (read_y * read_x > kRegionsMaxReadShare * double(op.out_h) * s.kernel_h * double(op.out_w) * s.kernel_w)
        return false;
    op.path = ConvPath::Regions;
    const int cin_g = s.in_c / s.groups, cout_g = s.out_c / s.groups;
    op.zero_bias = AlignedBuffer(static_cast<size_t>(s.out_c));
    for (int co = 0; co < s.out_c && bias; ++co) op.zero_bias.data()[co] = bias[co];
    op.regions.reserve(by.size() * bx.size());
    for (const TapBand& y : by)
        for (const TapBand& x : bx) {
            Conv2D r;
            r.shape = s;
            r.act = op.act;
            r.out_h = y.o1 - y.o0;
            r.out_w = x.o1 - x.o0;
            r.zero = AlignedBuffer(static_cast<size_t>(s.in_c));
            const int rows = y.k1 - y.k0, cols = x.k1 - x.k0;
            if (rows * cols > 0)
                pack_panels(r, rows * cols, cin_g, cout_g, bias, [&](int g, int co, int k, int t) {
                    const int tap = (y.k0 + t / cols) * s.kernel_w + x.k0 + t % cols;
                    return weights[((static_cast<size_t>(g) * cout_g + co) * cin_g + k) * taps + tap];
                });
            op.regions.push_back(std::move(r));
            op.region_box.push_back({y.o0, x.o0, y.k0, x.k0, rows, cols});
        }
    return true;
}

// Regions: each rectangle as an Indirect convolution over its taps into op.padded, then copied
// to its place in the output (rectangles that no tap reaches: the bias and the activation).
void run_regions(const Conv2D& op, const float* input, float* output, ThreadPool* pool) {
    const Conv2DShape& s = op.shape;
    const size_t total = static_cast<size_t>(s.batch) * op.out_h * op.out_w * s.out_c;
    if (op.padded.size() < total) op.padded = AlignedBuffer(total);
    float* scratch = op.padded.data();
    const int64_t stride = op.out_pixel_stride();
    const size_t pixel_bytes = sizeof(float) * static_cast<size_t>(s.out_c);
    for (size_t i = 0; i < op.regions.size(); ++i) {
        const Conv2D& r = op.regions[i];
        const std::array<int, 6>& b = op.region_box[i];
        const int taps = b[4] * b[5];
        const int64_t pixels = static_cast<int64_t>(s.batch) * r.out_h * r.out_w;
        // One rectangle (a dilation that only the centre tap survives) is the whole output:
        // computed in place unless the output is a channel range of a wider tensor.
        const bool direct = op.regions.size() == 1 && stride == s.out_c;
        float* dst = direct ? output : scratch;
        if (taps == 0) {
            for (int64_t p = 0; p < pixels; ++p) {
                std::memcpy(dst + p * s.out_c, op.zero_bias.data(), pixel_bytes);
                apply_activation(op.act, dst + p * s.out_c, static_cast<size_t>(s.out_c));
            }
        } else {
            if (r.indirection_input != input || r.indirection.empty()) {
                build_tiled_indirection(r, taps, r.zero.data(), [&](int64_t p, int t) -> const float* {
                    const int64_t n = p / (static_cast<int64_t>(r.out_h) * r.out_w);
                    const int oy = b[0] + static_cast<int>(p / r.out_w % r.out_h);
                    const int ox = b[1] + static_cast<int>(p % r.out_w);
                    const int iy = oy * s.stride_h - s.pad_top + (b[2] + t / b[5]) * s.dilation_h;
                    const int ix = ox * s.stride_w - s.pad_left + (b[3] + t % b[5]) * s.dilation_w;
                    if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) return nullptr;
                    return input + ((n * s.in_h + iy) * s.in_w + ix) * s.in_c;
                });
                r.indirection_input = input;
            }
            run_indirect(r, taps, s.in_c / s.groups, dst, pool);
        }
        if (direct) continue;
        parallel_for(
            pool, static_cast<int64_t>(s.batch) * r.out_h,
            [&](int64_t begin, int64_t end) {
                for (int64_t row = begin; row < end; ++row) {
                    const int64_t n = row / r.out_h, y = b[0] + row % r.out_h;
                    float* dst = output + ((n * op.out_h + y) * op.out_w + b[1]) * stride;
                    const float* src = scratch + row * r.out_w * s.out_c;
                    if (stride == s.out_c)
                        std::memcpy(dst, src, pixel_bytes * static_cast<size_t>(r.out_w));
                    else
                        for (int x = 0; x < r.out_w; ++x) std::memcpy(dst + x * stride, src + x * s.out_c, pixel_bytes);
                }
            },
            kFineParts);
    }
}

} // namespace

Conv2D pack_conv2d(const Conv2DShape& shape, const float* weights, const float* bias, Activation act) {
    Conv2D op;
    op.shape = shape;
    op.act = act;
    op.out_h = shape.out_h();
    op.out_w = shape.out_w();
    check_shape(shape, op.out_h, op.out_w);
    op.zero = AlignedBuffer(static_cast<size_t>(shape.in_c));

    const int taps = shape.kernel_h * shape.kernel_w;
    const int cin_g = shape.in_c / shape.groups, cout_g = shape.out_c / shape.groups;
    if (shape.groups == shape.in_c && shape.out_c == shape.in_c && shape.groups > 1) {
        op.path = ConvPath::Depthwise;
        detail::pack_depthwise(op, weights, bias);
        return op;
    }
    if (shape.groups == shape.in_c && shape.groups > 1 && shape.out_c % shape.in_c == 0) {
        // A channel multiplier: ONNX's [out_c][1][kh][kw] weights are those of a depthwise layer
        // of out_c channels over the input with each channel repeated out_c / in_c times.
        op.path = ConvPath::DepthwiseMultiplier;
        op.zero = AlignedBuffer(static_cast<size_t>(shape.out_c));
        detail::pack_depthwise(op, weights, bias);
        return op;
    }
    // Kernel rows longer than kSingleChannelMaxWidth keep the Rows path: its k loop over a whole
    // kernel row costs less per tap than SingleChannel's load, weight load and adds.
    if (EMBARK_SINGLE_CHANNEL && shape.in_c == 1 && shape.groups == 1 && shape.kernel_w <= kSingleChannelMaxWidth) {
        // [out_c][taps] weights (ONNX's layout with one input channel), then out_c bias values.
        op.path = ConvPath::SingleChannel;
        op.bias_offset = static_cast<size_t>(shape.out_c) * taps;
        op.packed = AlignedBuffer(op.bias_offset + shape.out_c);
        std::memcpy(op.packed.data(), weights, op.bias_offset * sizeof(float));
        if (bias) std::memcpy(op.packed.data() + op.bias_offset, bias, shape.out_c * sizeof(float));
        if (!rows_in_place(shape))
            op.padded = AlignedBuffer(static_cast<size_t>(shape.batch) * shape.in_h *
                                      (shape.pad_left + shape.in_w + shape.pad_right));
        return op;
    }
    if (EMBARK_WINOGRAD && detail::winograd_applies(shape)) {
        op.path = ConvPath::Winograd;
        detail::pack_winograd(op, weights, bias);
        return op;
    }
    const bool pointwise = taps == 1 && shape.stride_h == 1 && shape.stride_w == 1 && shape.pad_top == 0 &&
                           shape.pad_left == 0 && shape.pad_bottom == 0 && shape.pad_right == 0 && shape.groups == 1;
    const bool rows = shape.groups == 1 && shape.kernel_w > 1 && shape.dilation_w == 1 && shape.in_c < kRowsMaxChannels;
    if (!pointwise && !rows && pack_regions(op, weights, bias)) return op;
    op.path = pointwise ? ConvPath::Pointwise : rows ? ConvPath::Rows : ConvPath::Indirect;
    if (rows) {
        // The Rows path's panels [kernel_h][kernel_w][in_c][NR] are the Indirect layout.
        op.zero = AlignedBuffer(static_cast<size_t>(shape.kernel_w) * shape.in_c);
        if (!rows_in_place(shape))
            op.padded = AlignedBuffer(static_cast<size_t>(shape.batch) * shape.in_h *
                                      (shape.pad_left + shape.in_w + shape.pad_right) * shape.in_c);
    }
    auto weight_at = [&](int g, int co, int k, int t) {
        return weights[((static_cast<size_t>(g) * cout_g + co) * cin_g + k) * taps + t];
    };
#if EMBARK_GEMM_ROWS_RVV
    // RVV: the Pointwise path's panels are gemm_rows_rvv's, 2 * NR channels wide.
    if (pointwise) {
        pack_panels<detail::kRowsPanel>(op, taps, cin_g, cout_g, bias, weight_at);
        return op;
    }
#endif
    pack_panels(op, taps, cin_g, cout_g, bias, weight_at);
    return op;
}

Conv2D pack_conv_transpose2d(const Conv2DShape& shape, int out_h, int out_w, const float* weights, const float* bias,
                             Activation act) {
    Conv2D op;
    op.shape = shape;
    op.act = act;
    op.out_h = out_h;
    op.out_w = out_w;
    check_shape(shape, out_h, out_w);
    op.zero = AlignedBuffer(static_cast<size_t>(shape.in_c));
    const int taps = shape.kernel_h * shape.kernel_w;
    const int cin_g = shape.in_c / shape.groups, cout_g = shape.out_c / shape.groups;
    if (shape.groups == 1 && taps > 1) {
        // One GEMM of in_c -> taps * out_c (column tap * out_c + co), then each row scattered.
        // Without overlap the GEMM adds the bias and the activation; with it, they come after the sums.
        op.path = ConvPath::Blocks;
        const bool overlap = !blocks_tile_output(shape, out_h, out_w);
        std::vector<float> block_bias(static_cast<size_t>(taps) * shape.out_c, 0.f);
        for (int t = 0; t < taps && !overlap; ++t)
            for (int co = 0; co < shape.out_c && bias; ++co)
                block_bias[static_cast<size_t>(t) * shape.out_c + co] = bias[co];
        if (overlap) {
            op.zero_bias = AlignedBuffer(static_cast<size_t>(shape.out_c));
            for (int co = 0; co < shape.out_c && bias; ++co) op.zero_bias.data()[co] = bias[co];
        }
        const int out_c = shape.out_c;
        pack_panels(op, 1, shape.in_c, taps * out_c, block_bias.data(), [&](int, int j, int k, int) {
            return weights[(static_cast<size_t>(k) * out_c + j % out_c) * taps + j / out_c];
        });
        return op;
    }
    op.path = ConvPath::Transposed;
    pack_panels(op, taps, cin_g, cout_g, bias, [&](int g, int co, int k, int t) {
        return weights[((static_cast<size_t>(g) * cin_g + k) * cout_g + co) * taps + t];
    });
    return op;
}

void conv2d(const Conv2D& op, const float* input, float* output, ThreadPool* pool) {
    const Conv2DShape& s = op.shape;
    switch (op.path) {
    case ConvPath::Pointwise:
#if EMBARK_NARROW_TILE
        if (pointwise_small_k_applies(s.in_c, s.out_c)) {
            run_pointwise_small_k(static_cast<int64_t>(s.batch) * s.in_h * s.in_w, s.in_c, s.out_c, input,
                                  op.packed.data(), op.bias_offset, output, op.out_pixel_stride(), op.act, pool);
            return;
        }
#endif
#if EMBARK_GEMM_ROWS_RVV
        {
            const int64_t rows = static_cast<int64_t>(s.batch) * s.in_h * s.in_w;
            const bool small_weights = op.packed.size() * sizeof(float) <= kSmallWeightsBytes;
            parallel_for(
                pool, (rows + detail::kRowsTileRows - 1) / detail::kRowsTileRows,
                [&](int64_t begin, int64_t end) {
                    detail::gemm_rows_rvv(begin * detail::kRowsTileRows, std::min(rows, end * detail::kRowsTileRows),
                                          s.in_c, s.out_c, input, op.packed.data(), op.bias_offset, output,
                                          static_cast<size_t>(op.out_pixel_stride()), op.act, small_weights);
                },
                kFineParts);
            return;
        }
#else
        run_gemm(static_cast<int64_t>(s.batch) * s.in_h * s.in_w, s.in_c, s.out_c, input, op.packed.data(),
                 op.bias_offset, output, op.out_pixel_stride(), op.act, pool);
        return;
#endif
    case ConvPath::Depthwise:
    case ConvPath::DepthwiseMultiplier: detail::run_depthwise(op, input, output, pool); return;
    case ConvPath::Winograd: detail::run_winograd(op, input, output, pool); return;
    case ConvPath::Rows: {
        const float* rows_base = input;
        if (!rows_in_place(s)) {
            pad_rows(op, input, pool);
            rows_base = op.padded.data();
        }
        if (op.indirection_input != rows_base || op.indirection.empty()) {
            build_rows_indirection(op, rows_base);
            op.indirection_input = rows_base;
        }
        run_indirect(op, s.kernel_h, s.kernel_w * s.in_c, output, pool);
        return;
    }
    case ConvPath::Blocks: {
        // The GEMM's rows into op.padded, then each pixel's kernel_h x kernel_w block of out_c
        // values to its place in the output.
        const int64_t pixels = static_cast<int64_t>(s.batch) * s.in_h * s.in_w;
        const int taps = s.kernel_h * s.kernel_w;
        const int64_t row = static_cast<int64_t>(taps) * s.out_c;
        if (op.padded.size() < static_cast<size_t>(pixels * row))
            op.padded = AlignedBuffer(static_cast<size_t>(pixels * row));
        float* rows = op.padded.data();
        const int64_t stride = op.out_pixel_stride();
        if (!blocks_tile_output(s, op.out_h, op.out_w)) {
            run_gemm(pixels, s.in_c, static_cast<int>(row), input, op.packed.data(), op.bias_offset, rows,
                     static_cast<int>(row), Activation{}, pool);
            col2im_add(op, rows, output, pool);
            return;
        }
        run_gemm(pixels, s.in_c, static_cast<int>(row), input, op.packed.data(), op.bias_offset, rows,
                 static_cast<int>(row), op.act, pool);
        parallel_for(
            pool, static_cast<int64_t>(s.batch) * s.in_h,
            [&](int64_t begin, int64_t end) {
                for (int64_t r = begin; r < end; ++r) {
                    const int64_t n = r / s.in_h, iy = r % s.in_h;
                    for (int ky = 0; ky < s.kernel_h; ++ky) {
                        float* out_row = output + ((n * op.out_h + iy * s.kernel_h + ky) * op.out_w) * stride;
                        for (int ix = 0; ix < s.in_w; ++ix) {
                            const float* src =
                                rows + (r * s.in_w + ix) * row + static_cast<int64_t>(ky) * s.kernel_w * s.out_c;
                            float* dst = out_row + static_cast<int64_t>(ix) * s.kernel_w * stride;
                            if (stride == s.out_c) {
                                std::memcpy(dst, src, sizeof(float) * s.kernel_w * s.out_c);
                            } else {
                                for (int kx = 0; kx < s.kernel_w; ++kx)
                                    std::memcpy(dst + kx * stride, src + kx * s.out_c, sizeof(float) * s.out_c);
                            }
                        }
                    }
                }
            },
            kFineParts);
        return;
    }
    case ConvPath::Regions: run_regions(op, input, output, pool); return;
    case ConvPath::SingleChannel:
#if EMBARK_SINGLE_CHANNEL
        run_single_channel(op, input, output, pool);
        return;
#else
        break;
#endif
    case ConvPath::Planar:
        throw std::invalid_argument("embark portable conv2d: a Planar convolution writes channels-first output: "
                                    "run it with conv2d_planar");
    case ConvPath::Indirect:
    case ConvPath::Transposed:
        if (op.indirection_input != input || op.indirection.empty()) {
            if (op.path == ConvPath::Indirect)
                build_conv_indirection(op, input);
            else
                build_transposed_indirection(op, input);
            op.indirection_input = input;
        }
        run_indirect(op, s.kernel_h * s.kernel_w, s.in_c / s.groups, output, pool);
        return;
    }
}

bool conv2d_reads_nchw(const Conv2D& op) { return op.path == ConvPath::Rows; }

void conv2d_nchw(const Conv2D& op, const float* input, float* output, ThreadPool* pool) {
    const Conv2DShape& s = op.shape;
    const int width = s.pad_left + s.in_w + s.pad_right; // in_w when the Rows path reads in place
    const size_t padded = static_cast<size_t>(s.batch) * s.in_h * width * s.in_c;
    if (op.padded.size() < padded) op.padded = AlignedBuffer(padded); // zero margins from here on
    float* rows = op.padded.data();
    const int64_t plane = static_cast<int64_t>(s.in_h) * s.in_w;
    // Row r of image n: channel c of pixel x comes from input[n][c][y][x]; the margins stay zero.
    parallel_for(
        pool, static_cast<int64_t>(s.batch) * s.in_h,
        [&](int64_t begin, int64_t end) {
            for (int64_t r = begin; r < end; ++r) {
                const int64_t n = r / s.in_h, y = r % s.in_h;
                const float* src = input + n * s.in_c * plane + y * s.in_w;
                float* __restrict dst = rows + (r * width + s.pad_left) * s.in_c;
                for (int x = 0; x < s.in_w; ++x)
                    for (int c = 0; c < s.in_c; ++c) dst[x * s.in_c + c] = src[c * plane + x];
            }
        },
        kFineParts);
    if (op.indirection_input != rows || op.indirection.empty()) {
        build_rows_indirection(op, rows);
        op.indirection_input = rows;
    }
    run_indirect(op, s.kernel_h, s.kernel_w * s.in_c, output, pool);
}

size_t channels_first_scratch_floats(const Conv2DShape& s, int out_h, int out_w) {
    return static_cast<size_t>(s.batch) *
           (static_cast<size_t>(s.in_h) * s.in_w * s.in_c + static_cast<size_t>(out_h) * out_w * s.out_c);
}

void conv2d_channels_first(const Conv2D& op, const float* input, float* output, float* scratch, ThreadPool* pool) {
    const Conv2DShape& s = op.shape;
    const int64_t in_pixels = static_cast<int64_t>(s.in_h) * s.in_w;
    const int64_t out_pixels = static_cast<int64_t>(op.out_h) * op.out_w;
    float* nhwc_out = scratch + s.batch * in_pixels * s.in_c;
    if (conv2d_reads_nchw(op)) {
        conv2d_nchw(op, input, nhwc_out, pool);
    } else {
        transpose_matrices(input, s.batch, s.in_c, in_pixels, scratch, pool);
        conv2d(op, scratch, nhwc_out, pool);
    }
    transpose_matrices(nhwc_out, s.batch, out_pixels, op.out_pixel_stride(), output, pool);
}

bool conv2d_planar_applies(const Conv2DShape& s) { return s.in_c == 1 && s.groups == 1 && s.stride_w == 1; }

Conv2D pack_conv2d_planar(const Conv2DShape& shape, const float* weights, const float* bias, Activation act) {
    if (!conv2d_planar_applies(shape))
        throw std::invalid_argument("embark portable conv2d_planar: needs one input channel, groups 1 and stride_w 1 "
                                    "(got in_c " +
                                    std::to_string(shape.in_c) + ", groups " + std::to_string(shape.groups) +
                                    ", stride_w " + std::to_string(shape.stride_w) + "): use pack_conv2d");
    Conv2D op;
    op.shape = shape;
    op.act = act;
    op.out_h = shape.out_h();
    op.out_w = shape.out_w();
    check_shape(shape, op.out_h, op.out_w);
    op.path = ConvPath::Planar;
    // [out_c][taps] weights (ONNX's layout with one input channel), then out_c bias values.
    const size_t taps = static_cast<size_t>(shape.kernel_h) * shape.kernel_w;
    op.bias_offset = static_cast<size_t>(shape.out_c) * taps;
    op.packed = AlignedBuffer(op.bias_offset + shape.out_c);
    std::memcpy(op.packed.data(), weights, op.bias_offset * sizeof(float));
    if (bias) std::memcpy(op.packed.data() + op.bias_offset, bias, shape.out_c * sizeof(float));
    if (!rows_in_place(shape))
        op.padded = AlignedBuffer(static_cast<size_t>(shape.batch) * shape.in_h *
                                  (shape.pad_left + shape.in_w + shape.pad_right));
    return op;
}

void conv2d_planar(const Conv2D& op, const float* input, float* output, ThreadPool* pool) {
    if (op.path != ConvPath::Planar)
        throw std::invalid_argument("embark portable conv2d_planar: the layer was not packed by pack_conv2d_planar");
    const Conv2DShape& s = op.shape;
    const float* base = input;
    if (!rows_in_place(s)) {
        pad_rows(op, input, pool);
        base = op.padded.data();
    }
    const PlanarRows a{base,
                       op.packed.data(),
                       op.packed.data() + op.bias_offset,
                       output,
                       rows_in_place(s) ? s.in_w : s.pad_left + s.in_w + s.pad_right,
                       s.in_h,
                       op.out_h,
                       op.out_w,
                       s.out_c,
                       s.kernel_h,
                       s.kernel_w,
                       s.stride_h,
                       s.dilation_h,
                       s.dilation_w,
                       s.pad_top};
    parallel_for(
        pool, static_cast<int64_t>(s.batch) * op.out_h,
        [&](int64_t begin, int64_t end) { planar_rows(a, op.act, begin, end); }, kFineParts);
}

Conv3D pack_conv3d(const Conv2DShape& shape_hw, int batch, int in_d, int out_d, int kernel_d, int stride_d,
                   int dilation_d, int pad_front, const float* weights, const float* bias, Activation act) {
    Conv3D op;
    op.batch = batch;
    op.in_c = shape_hw.in_c;
    op.out_c = shape_hw.out_c;
    op.groups = shape_hw.groups;
    op.in_d = in_d;
    op.out_d = out_d;
    op.kernel_d = kernel_d;
    op.stride_d = stride_d;
    op.dilation_d = dilation_d;
    op.pad_front = pad_front;
    Conv2DShape plane = shape_hw;
    plane.batch = 1;
    plane.in_c = kernel_d * shape_hw.in_c;
    const int cin_g = shape_hw.in_c / shape_hw.groups;
    const size_t plane_taps = static_cast<size_t>(shape_hw.kernel_h) * shape_hw.kernel_w;
    std::vector<float> w2(static_cast<size_t>(shape_hw.out_c) * kernel_d * cin_g * plane_taps);
    for (int co = 0; co < shape_hw.out_c; ++co)
        for (int ci = 0; ci < cin_g; ++ci)
            for (int kd = 0; kd < kernel_d; ++kd)
                std::memcpy(&w2[((static_cast<size_t>(co) * kernel_d + kd) * cin_g + ci) * plane_taps],
                            &weights[((static_cast<size_t>(co) * cin_g + ci) * kernel_d + kd) * plane_taps],
                            plane_taps * sizeof(float));
    op.plane = pack_conv2d(plane, w2.data(), bias, act);
    const size_t in_plane = static_cast<size_t>(plane.in_h) * plane.in_w;
    const size_t out_plane = static_cast<size_t>(op.plane.out_h) * op.plane.out_w;
    op.scratch = AlignedBuffer(static_cast<size_t>(plane.in_c) * in_plane +
                               channels_first_scratch_floats(plane, op.plane.out_h, op.plane.out_w) +
                               static_cast<size_t>(op.out_c) * out_plane);
    return op;
}

void conv3d(const Conv3D& op, const float* input, float* output, ThreadPool* pool) {
    const Conv2DShape& s = op.plane.shape;
    const int64_t in_plane = static_cast<int64_t>(s.in_h) * s.in_w;
    const int64_t out_plane = static_cast<int64_t>(op.plane.out_h) * op.plane.out_w;
    const int cin_g = op.in_c / op.groups;
    float* stacked = op.scratch.data();
    float* conv_scratch = stacked + static_cast<int64_t>(s.in_c) * in_plane;
    float* depth_out = conv_scratch + channels_first_scratch_floats(s, op.plane.out_h, op.plane.out_w);
    for (int n = 0; n < op.batch; ++n)
        for (int od = 0; od < op.out_d; ++od) {
            // Stacked channel (g, kd, ci) = input channel g * cin_g + ci at depth od * stride + kd * dilation - pad.
            for (int g = 0; g < op.groups; ++g)
                for (int kd = 0; kd < op.kernel_d; ++kd) {
                    const int id = od * op.stride_d + kd * op.dilation_d - op.pad_front;
                    float* dst = stacked + ((static_cast<int64_t>(g) * op.kernel_d + kd) * cin_g) * in_plane;
                    if (id < 0 || id >= op.in_d) {
                        std::memset(dst, 0, sizeof(float) * cin_g * in_plane);
                        continue;
                    }
                    for (int ci = 0; ci < cin_g; ++ci)
                        std::memcpy(dst + ci * in_plane,
                                    input + ((static_cast<int64_t>(n) * op.in_c + g * cin_g + ci) * op.in_d + id) *
                                                in_plane,
                                    sizeof(float) * in_plane);
                }
            conv2d_channels_first(op.plane, stacked, depth_out, conv_scratch, pool);
            for (int co = 0; co < op.out_c; ++co)
                std::memcpy(output + ((static_cast<int64_t>(n) * op.out_c + co) * op.out_d + od) * out_plane,
                            depth_out + co * out_plane, sizeof(float) * out_plane);
        }
}

FullyConnected pack_fully_connected(int k, int n, const float* weights, bool transposed_weights, const float* bias,
                                    Activation act) {
    if (k < 1 || n < 1)
        throw std::invalid_argument("embark portable fully_connected: k " + std::to_string(k) + " and n " +
                                    std::to_string(n) + " must be positive");
    FullyConnected op;
    op.k = k;
    op.n = n;
    op.act = act;
    const int panels = ceil_div(n, NR);
    op.bias_offset = static_cast<size_t>(panels) * k * NR;
    op.packed = AlignedBuffer(op.bias_offset + static_cast<size_t>(panels) * NR);
    float* out = op.packed.data();
    for (int j = 0; j < n; ++j) {
        float* panel = out + static_cast<size_t>(j / NR) * k * NR + j % NR;
        for (int i = 0; i < k; ++i)
            panel[static_cast<size_t>(i) * NR] =
                transposed_weights ? weights[static_cast<size_t>(j) * k + i] : weights[static_cast<size_t>(i) * n + j];
        out[op.bias_offset + j] = bias ? bias[j] : 0.f;
    }
    return op;
}

void fully_connected(const FullyConnected& op, int rows, const float* x, float* y, ThreadPool* pool) {
    run_gemm(rows, op.k, op.n, x, op.packed.data(), op.bias_offset, y, op.n, op.act, pool);
}

void matmul_runtime(const float* a, const float* b, float* y, int m, int k, int n, ThreadPool* pool) {
    const int panels = ceil_div(n, NR);
    const size_t bias_offset = static_cast<size_t>(panels) * k * NR;
    thread_local AlignedBuffer packed;
    if (packed.size() < bias_offset + static_cast<size_t>(panels) * NR)
        packed = AlignedBuffer(bias_offset + static_cast<size_t>(panels) * NR);
    float* w = packed.data();
    for (int p = 0; p < panels; ++p) {
        const int n0 = p * NR, width = std::min(NR, n - n0);
        float* panel = w + static_cast<size_t>(p) * k * NR;
        for (int i = 0; i < k; ++i) {
            const float* src = b + static_cast<size_t>(i) * n + n0;
            float* dst = panel + static_cast<size_t>(i) * NR;
            std::copy(src, src + width, dst);
            std::fill(dst + width, dst + NR, 0.f); // lanes past n: computed, never stored
        }
    }
    std::fill(w + bias_offset, w + bias_offset + static_cast<size_t>(panels) * NR, 0.f);
    run_gemm(m, k, n, a, w, bias_offset, y, n, Activation{}, pool);
}

namespace detail {
void pointwise_rows(const Conv2D& op, const float* x, int64_t rows, float* y, bool prefetch) {
    const int k = op.shape.in_c, n = op.shape.out_c;
#if EMBARK_GEMM_ROWS_RVV
    (void)prefetch;
    gemm_rows_rvv(0, rows, k, n, x, op.packed.data(), op.bias_offset, y, static_cast<size_t>(n), op.act,
                  op.packed.size() * sizeof(float) <= kSmallWeightsBytes);
    return;
#endif
    const int panels = ceil_div(n, NR);
    const int64_t tiles = (rows + MR - 1) / MR;
    const float* packed = op.packed.data();
    auto tile = [&](int p, int64_t t) {
        if (prefetch && p == 0) prefetch_output_tile(y, t, tiles, rows, n);
        gemm_rows_tile(rows, k, n, x, packed, op.bias_offset, y, n, op.act, p, t);
    };
    // As run_tiles: every panel per tile while the weights stay in L1, else panel by panel.
    if (op.packed.size() * sizeof(float) <= kSmallWeightsBytes) {
        for (int64_t t = 0; t < tiles; ++t) {
            if (prefetch) prefetch_output_tile(y, t, tiles, rows, n);
            gemm_rows_tile_all(rows, k, n, x, packed, op.bias_offset, y, n, op.act, t);
        }
    } else {
        for (int p = 0; p < panels; ++p)
            for (int64_t t = 0; t < tiles; ++t) tile(p, t);
    }
}
} // namespace detail

} // namespace embark::portable

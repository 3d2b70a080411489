// Embark's XNNPACK wrappers: the API that generated model.cpp files call for layers assigned
// to the "xnnpack" library. Standalone C++17 (no Qt, no Embark headers, no xnnpack.h here).
#pragma once

// ---------------------------------------------------------------------------------------
// Conventions (read this before emitting calls)
//
// * One object per layer, created ONCE at start-up (model init()), kept alive, run in
//   forward(). Creation validates the parameters, packs the weights into XNNPACK's own buffer
//   (the caller's weight pointers may be freed afterwards) and fixes every shape. forward()
//   binds the data pointers (only when they differ from the previous call, which they never
//   do with a fixed arena) and runs the operator: no allocation, no shape work.
// * Activations are float32 NHWC: element (n, y, x, c) of [N][H][W][C] is at
//   ((n * H + y) * W + x) * C + c. Other ops take flat or N-D row-major shapes.
// * Every INPUT buffer must be followed by at least kExtraBytes readable bytes: XNNPACK reads
//   (never writes) up to 16 bytes past the end of its inputs. The memory planner adds this
//   slack after each tensor (or once at the end of the arena and of each input buffer).
// * Outputs must not overlap inputs, except Unary (in-place out == in is fine) and Binary
//   (out == a or b when that input has the output's full shape).
// * Errors throw embark_xnn::Error (a std::runtime_error) whose message names the layer, the
//   XNNPACK call and its status, e.g.
//     XNNPACK layer 'conv1' (convolution 2-D): xnn_create_convolution2d_nhwc_f32 failed
//     with xnn_status_unsupported_parameter; ...
//   model init() catches it and returns false with what(); forward() never throws once the
//   layer has run once with the same pointers.
// * A Context (XNNPACK initialisation + pthreadpool with the requested thread count) must be
//   created before any layer and outlive all of them. One object must not run concurrently
//   from two threads; the thread pool parallelises inside each operator.
//
// Two XNNPACK APIs, chosen when the export is configured (xnnpack.cmake checks for
// xnn_reshape_convolution2d_nhwc_f32 and defines EMBARK_XNN_API_UPSTREAM when it exists):
//   legacy   - Debian 12's 2022-02 snapshot: create + setup(shapes and pointers) + run.
//   upstream - current XNNPACK: create + reshape(shapes) + setup(pointers) + run, with
//              add/multiply/clamp/sigmoid/... as binary/unary elementwise operators and
//              global average pooling as a mean reduction.
// The API below is the same for both; what one API lacks runs as a plain loop in this
// runtime (single-threaded), listed here so the adaptation knows the cost:
//   legacy:   Unary Tanh, Transpose.
//   upstream: nothing (fused output clamps of Binary and GlobalAveragePool run as a
//             second, in-place clamp operator).
// Not wrapped (assign these to portable): AveragePool with count_include_pad=1 and non-zero
// pads (XNNPACK divides by the number of valid pixels, i.e. ONNX's default
// count_include_pad=0), AveragePool with dilations, ConvTranspose with an output longer than
// its natural size (negative pads) or output_padding >= stride, Resize, Gather, Reduce*
// other than global average pooling.
// ceil_mode=1 pooling: pass the extra bottom/right padding it implies (padding is -inf for
// max pooling and excluded from the count for average pooling, which matches ONNX).
// ---------------------------------------------------------------------------------------

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct xnn_operator;
struct pthreadpool;

namespace embark_xnn {

// XNNPACK may read this many bytes past the end of any input buffer (XNN_EXTRA_BYTES).
constexpr size_t kExtraBytes = 16;

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// "legacy" or "upstream": the API this runtime was compiled against (for the run's meta line).
const char* apiName();

// Fused output clamp (ONNX Relu / Clip / Relu6 folded into the layer). Default: none.
struct OutputRange {
    float min = -std::numeric_limits<float>::infinity();
    float max = std::numeric_limits<float>::infinity();
    static OutputRange none() { return {}; }
    static OutputRange relu() { return {0.0f, std::numeric_limits<float>::infinity()}; }
    static OutputRange clip(float lo, float hi) { return {lo, hi}; }
    bool isNone() const;
};

// XNNPACK initialisation and the thread pool. threads <= 1: no pool, operators run on the
// calling thread with no synchronisation at all.
class Context {
public:
    explicit Context(size_t threads = 1);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    size_t threads() const { return m_threads; }
    pthreadpool* pool() const { return m_pool; }

private:
    size_t m_threads = 1;
    pthreadpool* m_pool = nullptr;
};

namespace detail {
struct OperatorDeleter {
    void operator()(xnn_operator* op) const noexcept;
};
using Operator = std::unique_ptr<xnn_operator, OperatorDeleter>;
struct AlignedDeleter {
    void operator()(void* p) const noexcept;
};
using Workspace = std::unique_ptr<void, AlignedDeleter>;

// What every layer shares: its name for messages, the pool, its operator(s), and the data
// pointers the operator was last set up with.
class Layer {
public:
    const std::string& name() const { return m_name; }

protected:
    Layer(const Context& context, std::string name, const char* kind);
    [[noreturn]] void fail(const std::string& problem) const;
    void failIf(const std::string& problem) const;     // fail(problem) unless it is empty
    void check(int xnnStatus, const char* call) const; // throws unless xnn_status_success
    void runOperator();                                // runs m_op (set up before)
    // True (and remembers them) when the pointers differ from the last bound ones.
    bool rebind(const void* a, const void* b, const void* out);
    void allocateWorkspace(size_t bytes);
    // An in-place clamp of `count` floats run after the operator, for ops whose API has no
    // fused output range (defined per API; does nothing when range.isNone()).
    void addTrailingClamp(OutputRange range, size_t count);
    void runTrailingClamp(float* output);

    pthreadpool* m_pool;
    std::string m_name;
    const char* m_kind;
    Operator m_op;
    Operator m_clamp; // a trailing in-place clamp where the API has no fused one
    Workspace m_workspace;
    size_t m_clampCount = 0;
    float* m_clampBound = nullptr;
    bool m_bound = false;
    const void* m_boundA = nullptr;
    const void* m_boundB = nullptr;
    const void* m_boundOut = nullptr;
};
} // namespace detail

// ---- Convolution 2-D (incl. depthwise and grouped) -------------------------------------
struct Conv2dParams {
    size_t batch = 1;
    size_t inputHeight = 0, inputWidth = 0;
    size_t inputChannels = 0, outputChannels = 0; // totals over all groups
    uint32_t kernelHeight = 1, kernelWidth = 1;
    uint32_t strideHeight = 1, strideWidth = 1;
    uint32_t dilationHeight = 1, dilationWidth = 1;
    uint32_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0; // asymmetric is fine
    uint32_t groups = 1; // depthwise: groups == inputChannels (outputChannels a multiple)
};

enum class FilterLayout {
    OIHW, // ONNX: [Cout][Cin/groups][kh][kw], as stored in the model (repacked at creation)
    OHWI, // XNNPACK's own: [Cout][kh][kw][Cin/groups], e.g. pre-transposed at export time
};

class Convolution2d : public detail::Layer {
public:
    // bias: outputChannels floats, or nullptr for none.
    Convolution2d(const Context& context, std::string name, const Conv2dParams& params, const float* filter,
                  const float* bias, FilterLayout layout = FilterLayout::OIHW, OutputRange range = {});
    size_t outputHeight() const { return m_outputHeight; }
    size_t outputWidth() const { return m_outputWidth; }
    // input [N][H][W][Cin] -> output [N][outH][outW][Cout]
    void forward(const float* input, float* output);

private:
    Conv2dParams m_params;
    size_t m_outputHeight = 0, m_outputWidth = 0;
};

// ---- Deconvolution 2-D (ONNX ConvTranspose, incl. grouped) --------------------------------
// params describe the INPUT (inputHeight/Width, channels) and the window; pads are the
// ONNX ConvTranspose pads (cropped from the full output). Output size per side:
//   stride * (in - 1) + adjustment + dilation * (kernel - 1) + 1 - padBefore - padAfter
// with adjustment = ONNX output_padding (must be < stride).
class Deconvolution2d : public detail::Layer {
public:
    // filter: XNNPACK's layout [groups][Cout/groups][kh][kw][Cin/groups] (= [Cout][kh][kw]
    // [Cin/groups], groups being contiguous output blocks); the exporter repacks ONNX's
    // [Cin][Cout/groups][kh][kw] at export time. bias: outputChannels floats or nullptr.
    Deconvolution2d(const Context& context, std::string name, const Conv2dParams& params, uint32_t adjustmentHeight,
                    uint32_t adjustmentWidth, const float* filter, const float* bias, OutputRange range = {});
    size_t outputHeight() const { return m_outputHeight; }
    size_t outputWidth() const { return m_outputWidth; }
    // input [N][H][W][Cin] -> output [N][outH][outW][Cout]
    void forward(const float* input, float* output);

private:
    Conv2dParams m_params;
    uint32_t m_adjustmentHeight, m_adjustmentWidth;
    size_t m_outputHeight = 0, m_outputWidth = 0;
};

// ---- Fully connected (Gemm / MatMul with a constant right-hand side) ---------------------
enum class WeightLayout {
    OutIn, // [outputChannels][inputChannels]: Gemm transB=1 (PyTorch Linear)
    InOut, // [inputChannels][outputChannels]: MatMul, Gemm transB=0
};

class FullyConnected : public detail::Layer {
public:
    // input [rows][inputChannels] -> output [rows][outputChannels]; bias may be nullptr.
    FullyConnected(const Context& context, std::string name, size_t rows, size_t inputChannels, size_t outputChannels,
                   const float* weights, const float* bias, WeightLayout layout = WeightLayout::OutIn,
                   OutputRange range = {});
    void forward(const float* input, float* output);

private:
    size_t m_rows, m_inputChannels, m_outputChannels;
};

// ---- Pooling ------------------------------------------------------------------------------
struct Pool2dParams {
    size_t batch = 1;
    size_t inputHeight = 0, inputWidth = 0, channels = 0;
    uint32_t kernelHeight = 1, kernelWidth = 1;
    uint32_t strideHeight = 1, strideWidth = 1;
    uint32_t dilationHeight = 1, dilationWidth = 1; // max pooling only
    uint32_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
};

class MaxPool2d : public detail::Layer {
public:
    MaxPool2d(const Context& context, std::string name, const Pool2dParams& params, OutputRange range = {});
    size_t outputHeight() const { return m_outputHeight; }
    size_t outputWidth() const { return m_outputWidth; }
    void forward(const float* input, float* output);

private:
    Pool2dParams m_params;
    size_t m_outputHeight = 0, m_outputWidth = 0;
};

// Padding is excluded from the divisor (ONNX count_include_pad=0).
class AveragePool2d : public detail::Layer {
public:
    AveragePool2d(const Context& context, std::string name, const Pool2dParams& params, OutputRange range = {});
    size_t outputHeight() const { return m_outputHeight; }
    size_t outputWidth() const { return m_outputWidth; }
    void forward(const float* input, float* output);

private:
    Pool2dParams m_params;
    size_t m_outputHeight = 0, m_outputWidth = 0;
};

// [N][H][W][C] -> [N][C] (= [N][1][1][C]).
class GlobalAveragePool : public detail::Layer {
public:
    GlobalAveragePool(const Context& context, std::string name, size_t batch, size_t height, size_t width,
                      size_t channels, OutputRange range = {});
    void forward(const float* input, float* output);

private:
    size_t m_batch, m_pixels, m_channels;
};

// ---- Element-wise -------------------------------------------------------------------------
enum class BinaryOp { Add, Subtract, Multiply, Divide, Maximum, Minimum };

// NumPy (ONNX multidirectional) broadcasting between shapes of rank <= 6, row-major; give
// the shapes in the layout the data is in (NHWC for activations, so a per-channel constant
// of an NCHW model becomes [1][1][1][C]).
class Binary : public detail::Layer {
public:
    Binary(const Context& context, std::string name, BinaryOp op, std::vector<size_t> shapeA,
           std::vector<size_t> shapeB, OutputRange range = {});
    const std::vector<size_t>& outputShape() const { return m_outputShape; }
    void forward(const float* a, const float* b, float* output);

private:
    BinaryOp m_binaryOp;
    std::vector<size_t> m_shapeA, m_shapeB, m_outputShape;
};

enum class UnaryOp {
    Clamp, // params.min, params.max (Relu: 0, +inf; Relu6: 0, 6)
    Sigmoid,
    HardSwish, // x * relu6(x + 3) / 6
    LeakyRelu, // params.alpha = negative slope
    Elu,       // params.alpha
    Tanh,      // legacy API: plain loop
    Abs,
    Negate,
    Square,
    SquareRoot,
};

struct UnaryParams {
    float min = -std::numeric_limits<float>::infinity();
    float max = std::numeric_limits<float>::infinity();
    float alpha = 0.01f;
};

// Applies op to `count` contiguous floats; in-place (output == input) is allowed.
class Unary : public detail::Layer {
public:
    Unary(const Context& context, std::string name, UnaryOp op, size_t count, UnaryParams params = {});
    void forward(const float* input, float* output);

private:
    UnaryOp m_unaryOp;
    size_t m_count;
    UnaryParams m_params;
    bool m_loop = false; // true when this API has no operator for m_op
};

// Softmax over the last axis: input [rows][channels] (an NCHW model's axis=1 is the NHWC
// channel axis, rows = N*H*W).
class Softmax : public detail::Layer {
public:
    Softmax(const Context& context, std::string name, size_t rows, size_t channels);
    void forward(const float* input, float* output);

private:
    size_t m_rows, m_channels;
};

// ---- Int8 (qs8) operators -----------------------------------------------------------------
// Quantized models after Embark's fuse_qdq pass (XNNPACK's qs8-qc8w contract): activations
// int8 with a per-tensor scale and zero point, weights int8 and symmetric (no zero point) with
// one scale per output channel (a per-tensor scale repeated), biases int32 in units of
// inputScale * kernelScale[c]. Convolution and fully connected requantize in float32:
// float(acc) * float32(float32(inputScale * kernelScale[c]) / outputScale), clamped to
// [min - zeroPoint, max - zeroPoint] and rounded half to even (XNNPACK's "fp32" requantization,
// the arithmetic of Embark's reference). Add requantizes with XNNPACK's fixed-point
// multipliers (20-bit), which can differ from the reference's float32 sum by one quantum.
// Both APIs: legacy (Debian's 2022 snapshot) runs them as convolution2d_nhwc_qc8 (fully
// connected as a 1x1 convolution over the rows) and add_nd_qs8; upstream as
// convolution2d_nhwc_qs8_qc8w, fully_connected_nc_qs8_qc8w and the binary add on qint8.
struct QuantParams {
    int zeroPoint = 0; // int8 range
    float scale = 1.0f;
};

struct QuantOutput {
    int zeroPoint = 0;
    float scale = 1.0f;
    int min = -128, max = 127; // a fused Relu / Clip narrows them (already quantized)
};

// filter: [Cout][kh][kw][Cin/groups] int8 (OHWI, as the export's adaptation stores it);
// kernelScales: outputChannels floats; bias: outputChannels int32 or nullptr.
// input [N][H][W][Cin] int8 -> output [N][outH][outW][Cout] int8.
class QConvolution2d : public detail::Layer {
public:
    QConvolution2d(const Context& context, std::string name, const Conv2dParams& params, QuantParams input,
                   const int8_t* filter, const float* kernelScales, const int32_t* bias, QuantOutput output);
    size_t outputHeight() const { return m_outputHeight; }
    size_t outputWidth() const { return m_outputWidth; }
    void forward(const int8_t* input, int8_t* output);

private:
    Conv2dParams m_params;
    size_t m_outputHeight = 0, m_outputWidth = 0;
};

// weights [outputChannels][inputChannels] int8; input [rows][inputChannels] int8.
class QFullyConnected : public detail::Layer {
public:
    QFullyConnected(const Context& context, std::string name, size_t rows, size_t inputChannels, size_t outputChannels,
                    QuantParams input, const int8_t* weights, const float* kernelScales, const int32_t* bias,
                    QuantOutput output);
    void forward(const int8_t* input, int8_t* output);

private:
    [[maybe_unused]] size_t m_rows; // legacy: the 1x1 convolution's width
};

// y = requantized (a - za) * sa + (b - zb) * sb of `count` elements each (same shapes).
// XNNPACK asserts (upstream) or refuses (legacy) sa / sy and sb / sy outside [2^-10, 2^8).
class QAdd : public detail::Layer {
public:
    QAdd(const Context& context, std::string name, size_t count, QuantParams a, QuantParams b, QuantOutput output);
    void forward(const int8_t* a, const int8_t* b, int8_t* output);

private:
    [[maybe_unused]] size_t m_count;
    [[maybe_unused]] int8_t* m_clampBoundS8 = nullptr; // upstream: the trailing clamp's pointer
};

// Max pooling of int8 data (no requantization: max commutes with the monotone quantization,
// so the input's scale and zero point carry over). Upstream and legacy max_pooling2d_nhwc_s8.
class QMaxPool2d : public detail::Layer {
public:
    QMaxPool2d(const Context& context, std::string name, const Pool2dParams& params);
    size_t outputHeight() const { return m_outputHeight; }
    size_t outputWidth() const { return m_outputWidth; }
    void forward(const int8_t* input, int8_t* output);

private:
    Pool2dParams m_params;
    size_t m_outputHeight = 0, m_outputWidth = 0;
};

// ---- Data movement ------------------------------------------------------------------------
// output[i_perm[0]]... = permute(input, perm): output dim d is input dim perm[d]. Rank <= 6.
// NCHW -> NHWC is perm {0, 2, 3, 1}; NHWC -> NCHW is {0, 3, 1, 2}.
class Transpose : public detail::Layer {
public:
    Transpose(const Context& context, std::string name, std::vector<size_t> inputShape, std::vector<size_t> perm);
    const std::vector<size_t>& outputShape() const { return m_outputShape; }
    void forward(const float* input, float* output);

private:
    std::vector<size_t> m_inputShape, m_perm, m_outputShape;
};

// Concatenation along one axis of row-major tensors: rows = product of the dims before the
// axis (N*H*W for an NHWC channel concat), innerSizes[i] = product of input i's dims from the
// axis on (its channel count). Output rows are sum(innerSizes) wide.
class Concat : public detail::Layer {
public:
    Concat(const Context& context, std::string name, size_t rows, std::vector<size_t> innerSizes);
    // inputs: innerSizes.size() pointers.
    void forward(const float* const* inputs, float* output);

private:
    // True (and remembers them) when the pointers differ from the last bound ones.
    bool rebindInputs(const float* const* inputs, float* output);

    size_t m_rows, m_outputStride;
    std::vector<size_t> m_innerSizes;
    std::vector<detail::Operator> m_copies; // one strided copy per input
    std::vector<const void*> m_boundInputs;
};

} // namespace embark_xnn

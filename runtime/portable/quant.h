// Int8 kernels of the portable runtime (quantized models): included by portable.h. Tensors
// are int8 (NHWC for 4-D activations), weights int8 and symmetric, biases int32. The
// arithmetic is the one Embark's reference defines (core/reference/quantized_fused.cpp), so
// the results are equal byte for byte:
//
//  * requantize(acc, m, zp, lo, hi): v = float(acc) * m (float32); v is clamped to
//    [lo - zp, hi - zp] and rounded half to even ((v + 1.5*2^23) - 1.5*2^23, exact for the
//    clamped range), then zp is added. m = float32(float32(x_scale * w_scale) / y_scale) is
//    computed at export time. [lo, hi] is the int8 range narrowed by a fused Relu or Clip.
//  * QuantizeLinear/DequantizeLinear: ONNX's float32 arithmetic (division by the scale, round
//    half to even, saturation; (q - zp) * scale).
//  * The file is compiled without floating-point contraction (no fused multiply-add), so a
//    product and a sum round separately, as in the reference.
#pragma once

#include <cstddef>
#include <cstdint>

namespace embark::portable {

struct Conv2DShape;
struct Pool2DShape;
class ThreadPool;

// ----- Conversions at the float boundaries (per tensor) ------------------------------------
void quantize_s8(const float* x, int8_t* y, size_t count, float scale, int zero_point);
void quantize_u8(const float* x, uint8_t* y, size_t count, float scale, int zero_point);
void dequantize_s8(const int8_t* x, float* y, size_t count, float scale, int zero_point);
void dequantize_u8(const uint8_t* x, float* y, size_t count, float scale, int zero_point);

// Output parameters of a requantizing kernel.
struct Requantization {
    int zero_point = 0;
    int out_min = -128, out_max = 127; // a fused Relu / Clip narrows them
};

// ----- Convolution: NHWC int8 input, ONNX weights [M][C/groups][kH][kW] int8 ---------------
// Any groups; depthwise (groups == C == M) has its own loop. Pads count as x_zero_point (a
// real zero). multipliers[M], bias[M] (int32, may be null).
//
// How it runs (quant_conv.cpp, quant_depthwise.cpp): the zero point is folded into the bias
// at pack time (bias - x_zero_point * sum of the channel's weights) and padded taps read a row
// of x_zero_point bytes, so the kernels multiply the raw int8 inputs; integer sums are exact,
// so the result is the reference's. Depthwise: an indirection of [pixel][tap] input rows (built on first use,
// as the float Conv2D), channels vectorized. Others: a register tile of output pixels x
// output channels over each pixel's patch ([group][tap][C/groups], copied for kernels larger
// than 1x1, read in place for 1x1). RVV (Clang, quant_gemm_rvv.h): 3 pixels x VLEN/4
// channels of int32 (or 6 pixels on narrower layers), int16 weights, one widening
// multiply-accumulate (vwmacc.vx) per pixel and k, kernel rows read in place; 3x3 stride-1
// convolutions by integer Winograd F(2x2, 3x3) (quant_winograd_rvv.h, exact). x86-64 with AVX2
// (quant_x86.h, intrinsics): 4 pixels x 16 channels of vpmaddwd on int16 pairs (AVX-512 VNNI:
// 8 x 16 of vpdpbusd), the depthwise as vpmaddwd on tap pairs. aarch64 with the dot product
// extension (__ARM_FEATURE_DOTPROD, e.g. -mcpu=cortex-a76) runs NEON intrinsics:
// quant_gemm_neon.h (4 pixels x 16 channels, sdot by lane over weights packed [k/4][16][4], k
// padded to 4; 1x1 rows read in place whenever C % 4 == 0) and quant_depthwise_neon.h (4 taps
// per sdot after zips), requantized 16 lanes at a time. Elsewhere: 4 x 4 int8 dot products
// over k (padded to 16), which GCC vectorizes.
struct QConv2D {
    int batch = 1, in_h = 1, in_w = 1, in_c = 1, out_h = 1, out_w = 1, out_c = 1;
    int kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
    int pad_top = 0, pad_left = 0, groups = 1;
    int x_zero_point = 0;
    bool depthwise = false;
    bool direct = false;   // 1x1 inside the input: rows read in place
    bool winograd = false; // RVV: integer F(2x2, 3x3) (quant_winograd_rvv.h)
    // RVV, few output channels a group: output pixels on the vector lanes (quant_pixels_rvv.h),
    // reading a copy of the input widened to int16 and padded to padded_h x padded_w with zero points
    bool pixel_lanes = false;
    int padded_h = 0, padded_w = 0;
    const uint32_t* pixel_offsets = nullptr; // [pixel]: its first tap's byte in the widened input
    const int32_t* tap_offsets = nullptr;    // [tap * C/groups + channel]: from a pixel's first tap (int16s)
    int kp = 0;                              // a group's patch length (taps * C/groups, padded for the kernel)
    int panels = 0;                          // panels of output channels per group
    Requantization out;
    // Packed weights (depthwise: [kH*kW][M] int16, x86: [(kH*kW+1)/2][M][2]; otherwise per group and
    // panel, see quant_conv.cpp and quant_x86.h)
    void* weights = nullptr;
    int32_t* bias = nullptr;                      // bias - x_zero_point * sum of weights, per packed channel
    float* multipliers = nullptr;                 // per packed channel
    int8_t* zero = nullptr;                       // in_c bytes of x_zero_point (the padding)
    mutable const int8_t** indirection = nullptr; // [pixel][tap] (depthwise; x86 VNNI taps path); built on first use
    mutable const int8_t* indirection_input = nullptr;
    void* storage = nullptr; // owns the arrays above
    QConv2D() = default;
    QConv2D(QConv2D&& o) noexcept;
    QConv2D& operator=(QConv2D&& o) noexcept;
    QConv2D(const QConv2D&) = delete;
    QConv2D& operator=(const QConv2D&) = delete;
    ~QConv2D();
};
// out_h/out_w are the ONNX output size; pads right/bottom follow from it.
QConv2D pack_qconv2d(const Conv2DShape& shape, int out_h, int out_w, const int8_t* weights_onnx, const int32_t* bias,
                     const float* multipliers, int x_zero_point, Requantization out);
void qconv2d(const QConv2D& op, const int8_t* input, int8_t* output, ThreadPool* pool = nullptr);

// ----- Fully connected: x [rows][K] int8, weights [N][K] int8 -------------------------------
// (The exports run QGemm as a QConv2D of 1x1 over `rows` pixels, which packs the weights; this
// unpacked form stays for callers that cannot keep a packed copy.)
struct QFullyConnected {
    int k = 0, n = 0;
    int x_zero_point = 0;
    Requantization out;
    const int8_t* weights = nullptr; // [N][K], not copied: the weights blob outlives the model
    const int32_t* bias = nullptr;   // [N] or null
    const float* multipliers = nullptr;
};
void qfully_connected(const QFullyConnected& op, int64_t rows, const int8_t* x, int8_t* y, ThreadPool* pool = nullptr);

// ----- Element-wise and pooling -----------------------------------------------------------
// y = requantized float32((a - za) * sa + (b - zb) * sb) / sy, a and b of `count` elements.
struct QAddParams {
    float a_scale = 1.f, b_scale = 1.f, y_scale = 1.f;
    int a_zero_point = 0, b_zero_point = 0;
    Requantization out;
};
void qadd(const QAddParams& p, const int8_t* a, const int8_t* b, int8_t* y, size_t count, ThreadPool* pool = nullptr);
// y[i] = table[x[i] + 128]; y may equal x.
void qlookup(const int8_t* table, const int8_t* x, int8_t* y, size_t count);
// NHWC max pooling of int8 (dilations and pads as the float kernel).
void max_pool2d_s8(const Pool2DShape& s, const int8_t* input, int8_t* output, ThreadPool* pool = nullptr);
// NHWC average pooling: sum of (x - x_zero_point) over the counted taps, then
// (float(sum) / float(count)) * multiplier requantized (multiplier = x_scale / y_scale).
void average_pool2d_s8(const Pool2DShape& s, bool count_include_pad, int x_zero_point, float multiplier,
                       Requantization out, const int8_t* input, int8_t* output, ThreadPool* pool = nullptr);

// ----- Data movement of int8 (any byte-sized type) ------------------------------------------
// Generic transpose of a tensor of `rank` <= 8 dims: out dim k = in dim perm[k].
void transpose_bytes(const void* in, const int64_t* dims, int rank, const int* perm, void* out);
// Concatenation along an axis: input i is [outer][sizes[i]][inner] bytes.
void concat_bytes(const void* const* inputs, const int64_t* sizes, int count, int64_t outer, int64_t inner, void* out);

} // namespace embark::portable

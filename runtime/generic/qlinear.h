// Generic kernels of ONNX's QOperator ops and of run-time quantization parameters: QuantizeLinear
// and DequantizeLinear per axis (or with scales read at run time), and the requantization of
// QLinearConv and QLinearMatMul after the integer sums of convInteger and matmulInteger
// (typed.h). The arithmetic is ONNX's reference: float32 scales, round half to even, saturation.
#pragma once

#include "typed.h"

#include <cstdint>

namespace embark::generic {

// Quantization parameters of one operand: `count` scales (any float type) and, unless null,
// `count` zero points of `zeroType` (count 1 is per tensor). Element i of a tensor uses entry
// (i / inner) % channels, or entry 0 when count is 1.
struct QuantAxis {
    const void* scale = nullptr;
    ElemType scaleType = ElemType::Float32;
    const void* zero = nullptr;
    ElemType zeroType = ElemType::UInt8;
    int64_t count = 1;
};

// y = saturate(round_half_even(x / scale) + zero) in yType (int8 or uint8); the scale and zero
// point of element i are entry (i / inner) % q.count.
void quantizeLinear(const float* x, int64_t n, int64_t inner, const QuantAxis& q, void* y, ElemType yType);

// y = (x - zero) * scale in float32, x of type xType (int8, uint8 or int32).
void dequantizeLinear(const void* x, ElemType xType, int64_t n, int64_t inner, const QuantAxis& q, float* y);

// QLinearConv's output from convInteger's sums acc [batches][channels][plane]: the int32 bias
// (one per channel, or null) added, multiplied by x_scale * w_scale[c] / y_scale (computed in
// float32), rounded half to even, plus y's zero point, saturated to yType.
void qlinearConvRequantize(const int32_t* acc, const int32_t* bias, int64_t batches, int64_t channels, int64_t plane,
                           const QuantAxis& x, const QuantAxis& w, const QuantAxis& y, void* out, ElemType yType);

// QLinearMatMul's output from matmulInteger's sums acc ([...][rows][cols], n elements): the
// factor a_scale[row] * b_scale[col] / y_scale[row], y's zero point per row (or per tensor).
void qlinearMatMulRequantize(const int32_t* acc, int64_t n, int64_t rows, int64_t cols, const QuantAxis& a,
                             const QuantAxis& b, const QuantAxis& y, void* out, ElemType yType);

} // namespace embark::generic

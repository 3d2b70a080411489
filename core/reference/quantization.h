// Internal to the reference interpreter: the quantization parameters (scale and zero point,
// per tensor or per axis) that QuantizeLinear, DequantizeLinear and the QLinear*/…Integer
// kernels read, checked once, and the rounding and saturation they share.
#pragma once

#include "kernels.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace embark::reference::detail {

// Scales and zero points of one quantized tensor. One entry each when per tensor; one per
// index of `axis` of the data otherwise.
struct QuantParams {
    std::vector<float> scale;
    std::vector<int64_t> zeroPoint;
    int64_t axis = -1; // -1: per tensor
    int64_t inner = 1; // elements after `axis` in the data (per axis only)
    int64_t count = 1; // size of `axis`

    bool perTensor() const { return axis < 0; }
    // The parameter index of flat element i of the data.
    int64_t channelOf(int64_t i) const { return perTensor() ? 0 : (i / inner) % count; }
};

// Reads `scale` (float, > 0 and finite) and the optional `zeroPoint` (same element count) of
// data shaped `dataShape`; a 1-D scale with more than one element is per axis `axis` and
// must have shape[axis] elements. `what` names the operand in messages ("x", "w").
// Bad values are InvalidInput errors (exit 4) naming the node.
Expected<QuantParams> readQuantParams(const ir::Node& node, const std::string& what, const ir::Tensor& scale,
                                      const ir::Tensor* zeroPoint, const ir::Shape& dataShape, int64_t axis);

// The quantized integer types Embark's reference computes with.
bool isQuantizedType(ir::DType t); // int8, uint8, int16, uint16, int32
// Unsupported error naming the node, `what` and the dtype, unless `t` is one of `allowed`.
Status requireType(const ir::Node& node, const std::string& what, ir::DType t,
                   std::initializer_list<ir::DType> allowed);

// Clamps to the range of integer dtype `t` (NaN becomes 0).
double saturate(double v, ir::DType t);
// Round half to even (the current rounding mode, round-to-nearest, which the process never changes).
double roundHalfEven(double v);

// q - zeroPoint[channel] as float32 (exact: |q - zp| < 2^24), for the shared accumulators.
ir::Tensor centered(const ir::Tensor& q, const std::vector<int64_t>& zeroPoint,
                    const std::function<int64_t(int64_t)>& channelOf);

} // namespace embark::reference::detail

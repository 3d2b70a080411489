// Internal to the fuse_qdq pass (fuse_qdq.cpp): reading the operands of a QDQ pattern (the
// DequantizeLinear/QuantizeLinear parameters, constant int8 weights, the int32 bias) and the
// values a fused node carries (output range, requantization multipliers, lookup tables).
// Defined in fuse_qdq_operands.cpp.
#pragma once

#include "ir/graph.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace embark::passes::detail {

struct QParams {
    float scale = 1.f;
    int64_t zeroPoint = 0;
    bool operator==(const QParams& o) const { return scale == o.scale && zeroPoint == o.zeroPoint; }
};

// The scalar scale and int8 zero point of a QuantizeLinear or DequantizeLinear (inputs 1, 2).
std::optional<QParams> scalarParams(const ir::Node& n);

// A DequantizeLinear of a run-time int8 tensor per tensor, producing `v`.
ir::Node* activationDq(const ir::Value* v);

// The QuantizeLinear (int8, per tensor) that alone reads `v`.
ir::Node* soleQuantize(const ir::Value* v);

// table[q + 128] = Q(middle(DQ(q))) through the reference's own kernels (middle may be null).
std::optional<std::vector<int64_t>> lookupTable(const ir::Node& dq, const ir::Node* middle, const ir::Node& q);

// The Relu or Clip (constant bounds) that alone reads `v`, if any.
ir::Node* clampAfter(const ir::Value* v);

// Output range [out_min, out_max] in int8 of an optional Relu/Clip before QuantizeLinear q.
std::pair<int64_t, int64_t> outputRange(const ir::Node* act, const ir::Node& q, const QParams& y);

// Weights behind a DequantizeLinear of a constant int8 tensor, symmetric: per tensor or per
// index of `axis`.
struct Weights {
    ir::Node* dq = nullptr;
    ir::Tensor q;              // int8
    std::vector<float> scales; // 1 or one per index of axis
};
std::optional<Weights> constantWeights(const ir::Value* v, int64_t axis);

// The int32 bias in units of x_scale * w_scale[c]: an int32 DequantizeLinear whose scales are
// those (bit for bit, as `quantize` and ONNX Runtime write them) is taken as is; another scale,
// or a float bias, is quantized here (round half to even).
struct Bias {
    ir::Node* dq = nullptr; // absorbed DequantizeLinear, if any
    std::vector<int32_t> values;
};
std::optional<Bias> quantizedBias(const ir::Value* v, float xScale, const std::vector<float>& wScales,
                                  int64_t channels);

ir::Tensor int32Tensor(const std::vector<int32_t>& v);

// The requantization multipliers x_scale * w_scale[c] / y_scale (float32, per channel).
std::vector<float> multipliers(float xScale, const std::vector<float>& wScales, float yScale, int64_t channels);

} // namespace embark::passes::detail

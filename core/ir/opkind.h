// The operators Embark knows, as an enum generated from the one op list, ops.inc (with the
// names and categories in opkind.cpp and the ONNX op types in core/onnx/op_table.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace embark::ir {

// Semantics follow the newest ONNX opset (13..17): parameters that older opsets carried as
// attributes and newer ones as inputs (Clip min/max, Pad pads, Squeeze/Unsqueeze/Reduce*
// axes, Split sizes, Slice starts/ends, Resize scales/sizes) are inputs here; the importer
// normalises older forms (Upsample becomes Resize, Softmax before 13 becomes
// Flatten-style Reshape + Softmax + Reshape).
enum class OpKind : uint16_t {
#define EMBARK_OP(name, category) name,
#include "ops.inc"
#undef EMBARK_OP
    Count_
};

enum class OpCategory : uint8_t {
    Conv,
    Linear,
    Normalization,
    Activation,
    Elementwise,
    Pooling,
    Reduction,
    Shape,
    Data
};

std::string_view opName(OpKind op);
std::optional<OpKind> opFromName(std::string_view name);
OpCategory opCategory(OpKind op);
std::string_view categoryName(OpCategory c);
std::vector<OpKind> allOps();
// The int8 operators the fuse_qdq pass makes (QConv, QGemm, QAdd, QAveragePool, QLookup).
bool isFusedQuantized(OpKind op);
// The ten Reduce* operators (ReduceMean, ReduceSum, ... ReduceLogSumExp).
bool isReduceOp(OpKind op);

} // namespace embark::ir

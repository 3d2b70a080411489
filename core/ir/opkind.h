// The operators Embark knows, as an enum. The display-name table in opkind.cpp is pinned to
// the enum with a static_assert; ONNX op-type strings are mapped only in core/onnx.
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
    // convolution and linear
    Conv, ConvTranspose, Gemm, MatMul,
    // normalization
    BatchNormalization, InstanceNormalization, LRN, LayerNormalization,
    // activations
    Relu, LeakyRelu, PRelu, Clip, Sigmoid, Tanh, HardSigmoid, HardSwish, Elu, Selu, Softplus,
    Softsign, Gelu, Mish, Swish,
    // element-wise unary
    Sqrt, Exp, Log, Neg, Abs, Reciprocal, Floor, Ceil, Round, Sign, Erf, Sin, Cos, Not,
    // element-wise binary / variadic, with broadcasting
    Add, Sub, Mul, Div, Pow, Min, Max, Sum, Mean, Mod, Equal, Less, Greater, LessOrEqual,
    GreaterOrEqual, And, Or, Xor, Where,
    // pooling
    MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool,
    // softmax and reductions
    Softmax, LogSoftmax, ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceProd, ArgMax, ArgMin,
    // shape and data movement
    Flatten, Reshape, Transpose, Concat, Split, Slice, Squeeze, Unsqueeze, Gather, Shape, Size,
    Expand, Tile, Pad, Resize, DepthToSpace, SpaceToDepth,
    // data creation and plumbing
    Constant, ConstantOfShape, Range, Identity, Dropout, Cast,
    // quantization (ONNX's QDQ and QOperator forms; integer tensors in and out)
    QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearConv, QLinearMatMul,
    ConvInteger, MatMulInteger,
    Count_
};

enum class OpCategory : uint8_t { Conv, Linear, Normalization, Activation, Elementwise, Pooling,
                                  Reduction, Shape, Data };

std::string_view opName(OpKind op);
std::optional<OpKind> opFromName(std::string_view name);
OpCategory opCategory(OpKind op);
std::string_view categoryName(OpCategory c);
std::vector<OpKind> allOps();

} // namespace embark::ir

#include "opkind.h"

#include <array>

namespace embark::ir {
namespace {
struct OpInfo {
    std::string_view name;
    OpCategory category;
};
using C = OpCategory;
constexpr std::array kOps{
    OpInfo{"Conv", C::Conv}, OpInfo{"ConvTranspose", C::Conv}, OpInfo{"Gemm", C::Linear},
    OpInfo{"MatMul", C::Linear},
    OpInfo{"BatchNormalization", C::Normalization}, OpInfo{"InstanceNormalization", C::Normalization},
    OpInfo{"LRN", C::Normalization}, OpInfo{"LayerNormalization", C::Normalization},
    OpInfo{"Relu", C::Activation}, OpInfo{"LeakyRelu", C::Activation}, OpInfo{"PRelu", C::Activation},
    OpInfo{"Clip", C::Activation}, OpInfo{"Sigmoid", C::Activation}, OpInfo{"Tanh", C::Activation},
    OpInfo{"HardSigmoid", C::Activation}, OpInfo{"HardSwish", C::Activation},
    OpInfo{"Elu", C::Activation}, OpInfo{"Selu", C::Activation}, OpInfo{"Softplus", C::Activation},
    OpInfo{"Softsign", C::Activation}, OpInfo{"Gelu", C::Activation}, OpInfo{"Mish", C::Activation},
    OpInfo{"Swish", C::Activation},
    OpInfo{"Sqrt", C::Elementwise}, OpInfo{"Exp", C::Elementwise}, OpInfo{"Log", C::Elementwise},
    OpInfo{"Neg", C::Elementwise}, OpInfo{"Abs", C::Elementwise}, OpInfo{"Reciprocal", C::Elementwise},
    OpInfo{"Floor", C::Elementwise}, OpInfo{"Ceil", C::Elementwise}, OpInfo{"Round", C::Elementwise},
    OpInfo{"Sign", C::Elementwise}, OpInfo{"Erf", C::Elementwise}, OpInfo{"Sin", C::Elementwise},
    OpInfo{"Cos", C::Elementwise}, OpInfo{"Not", C::Elementwise},
    OpInfo{"Add", C::Elementwise}, OpInfo{"Sub", C::Elementwise}, OpInfo{"Mul", C::Elementwise},
    OpInfo{"Div", C::Elementwise}, OpInfo{"Pow", C::Elementwise}, OpInfo{"Min", C::Elementwise},
    OpInfo{"Max", C::Elementwise}, OpInfo{"Sum", C::Elementwise}, OpInfo{"Mean", C::Elementwise},
    OpInfo{"Mod", C::Elementwise}, OpInfo{"Equal", C::Elementwise}, OpInfo{"Less", C::Elementwise},
    OpInfo{"Greater", C::Elementwise}, OpInfo{"LessOrEqual", C::Elementwise},
    OpInfo{"GreaterOrEqual", C::Elementwise}, OpInfo{"And", C::Elementwise},
    OpInfo{"Or", C::Elementwise}, OpInfo{"Xor", C::Elementwise}, OpInfo{"Where", C::Elementwise},
    OpInfo{"MaxPool", C::Pooling}, OpInfo{"AveragePool", C::Pooling},
    OpInfo{"GlobalAveragePool", C::Pooling}, OpInfo{"GlobalMaxPool", C::Pooling},
    OpInfo{"Softmax", C::Reduction}, OpInfo{"LogSoftmax", C::Reduction},
    OpInfo{"ReduceMean", C::Reduction}, OpInfo{"ReduceSum", C::Reduction},
    OpInfo{"ReduceMax", C::Reduction}, OpInfo{"ReduceMin", C::Reduction},
    OpInfo{"ReduceProd", C::Reduction}, OpInfo{"ArgMax", C::Reduction}, OpInfo{"ArgMin", C::Reduction},
    OpInfo{"Flatten", C::Shape}, OpInfo{"Reshape", C::Shape}, OpInfo{"Transpose", C::Shape},
    OpInfo{"Concat", C::Shape}, OpInfo{"Split", C::Shape}, OpInfo{"Slice", C::Shape},
    OpInfo{"Squeeze", C::Shape}, OpInfo{"Unsqueeze", C::Shape}, OpInfo{"Gather", C::Shape},
    OpInfo{"Shape", C::Shape}, OpInfo{"Size", C::Shape}, OpInfo{"Expand", C::Shape},
    OpInfo{"Tile", C::Shape}, OpInfo{"Pad", C::Shape}, OpInfo{"Resize", C::Shape},
    OpInfo{"DepthToSpace", C::Shape}, OpInfo{"SpaceToDepth", C::Shape},
    OpInfo{"Constant", C::Data}, OpInfo{"ConstantOfShape", C::Data}, OpInfo{"Range", C::Data},
    OpInfo{"Identity", C::Data}, OpInfo{"Dropout", C::Data}, OpInfo{"Cast", C::Data},
    OpInfo{"QuantizeLinear", C::Data}, OpInfo{"DequantizeLinear", C::Data},
    OpInfo{"DynamicQuantizeLinear", C::Data}, OpInfo{"QLinearConv", C::Conv},
    OpInfo{"QLinearMatMul", C::Linear}, OpInfo{"ConvInteger", C::Conv},
    OpInfo{"MatMulInteger", C::Linear},
};
static_assert(kOps.size() == static_cast<size_t>(OpKind::Count_),
              "the op name table must list every OpKind, in enum order");

constexpr std::array<std::string_view, 9> kCategories{
    "conv", "linear", "normalization", "activation", "elementwise", "pooling", "reduction",
    "shape", "data"};
} // namespace

std::string_view opName(OpKind op) { return kOps[static_cast<size_t>(op)].name; }

std::optional<OpKind> opFromName(std::string_view name) {
    for (size_t i = 0; i < kOps.size(); ++i)
        if (kOps[i].name == name) return static_cast<OpKind>(i);
    return std::nullopt;
}

OpCategory opCategory(OpKind op) { return kOps[static_cast<size_t>(op)].category; }
std::string_view categoryName(OpCategory c) { return kCategories[static_cast<size_t>(c)]; }

std::vector<OpKind> allOps() {
    std::vector<OpKind> v;
    for (size_t i = 0; i < kOps.size(); ++i) v.push_back(static_cast<OpKind>(i));
    return v;
}

} // namespace embark::ir

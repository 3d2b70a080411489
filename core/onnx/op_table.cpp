#include "op_table.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <array>

namespace embark::onnx {
namespace {
using ir::OpKind;

struct OpRow {
    std::string_view onnx;
    OpKind op;
};

// Every OpKind appears once with its current ONNX name; legacy aliases follow at the end.
constexpr std::array kOpRows{
    OpRow{"Conv", OpKind::Conv}, OpRow{"ConvTranspose", OpKind::ConvTranspose},
    OpRow{"Gemm", OpKind::Gemm}, OpRow{"MatMul", OpKind::MatMul},
    OpRow{"BatchNormalization", OpKind::BatchNormalization},
    OpRow{"InstanceNormalization", OpKind::InstanceNormalization}, OpRow{"LRN", OpKind::LRN},
    OpRow{"LayerNormalization", OpKind::LayerNormalization},
    OpRow{"Relu", OpKind::Relu}, OpRow{"LeakyRelu", OpKind::LeakyRelu}, OpRow{"PRelu", OpKind::PRelu},
    OpRow{"Clip", OpKind::Clip}, OpRow{"Sigmoid", OpKind::Sigmoid}, OpRow{"Tanh", OpKind::Tanh},
    OpRow{"HardSigmoid", OpKind::HardSigmoid}, OpRow{"HardSwish", OpKind::HardSwish},
    OpRow{"Elu", OpKind::Elu}, OpRow{"Selu", OpKind::Selu}, OpRow{"Softplus", OpKind::Softplus},
    OpRow{"Softsign", OpKind::Softsign}, OpRow{"Gelu", OpKind::Gelu}, OpRow{"Mish", OpKind::Mish},
    OpRow{"Swish", OpKind::Swish},
    OpRow{"Sqrt", OpKind::Sqrt}, OpRow{"Exp", OpKind::Exp}, OpRow{"Log", OpKind::Log},
    OpRow{"Neg", OpKind::Neg}, OpRow{"Abs", OpKind::Abs}, OpRow{"Reciprocal", OpKind::Reciprocal},
    OpRow{"Floor", OpKind::Floor}, OpRow{"Ceil", OpKind::Ceil}, OpRow{"Round", OpKind::Round},
    OpRow{"Sign", OpKind::Sign}, OpRow{"Erf", OpKind::Erf}, OpRow{"Sin", OpKind::Sin},
    OpRow{"Cos", OpKind::Cos}, OpRow{"Not", OpKind::Not},
    OpRow{"Add", OpKind::Add}, OpRow{"Sub", OpKind::Sub}, OpRow{"Mul", OpKind::Mul},
    OpRow{"Div", OpKind::Div}, OpRow{"Pow", OpKind::Pow}, OpRow{"Min", OpKind::Min},
    OpRow{"Max", OpKind::Max}, OpRow{"Sum", OpKind::Sum}, OpRow{"Mean", OpKind::Mean},
    OpRow{"Mod", OpKind::Mod}, OpRow{"Equal", OpKind::Equal}, OpRow{"Less", OpKind::Less},
    OpRow{"Greater", OpKind::Greater}, OpRow{"LessOrEqual", OpKind::LessOrEqual},
    OpRow{"GreaterOrEqual", OpKind::GreaterOrEqual}, OpRow{"And", OpKind::And},
    OpRow{"Or", OpKind::Or}, OpRow{"Xor", OpKind::Xor}, OpRow{"Where", OpKind::Where},
    OpRow{"MaxPool", OpKind::MaxPool}, OpRow{"AveragePool", OpKind::AveragePool},
    OpRow{"GlobalAveragePool", OpKind::GlobalAveragePool},
    OpRow{"GlobalMaxPool", OpKind::GlobalMaxPool},
    OpRow{"Softmax", OpKind::Softmax}, OpRow{"LogSoftmax", OpKind::LogSoftmax},
    OpRow{"ReduceMean", OpKind::ReduceMean}, OpRow{"ReduceSum", OpKind::ReduceSum},
    OpRow{"ReduceMax", OpKind::ReduceMax}, OpRow{"ReduceMin", OpKind::ReduceMin},
    OpRow{"ReduceProd", OpKind::ReduceProd}, OpRow{"ArgMax", OpKind::ArgMax},
    OpRow{"ArgMin", OpKind::ArgMin},
    OpRow{"Flatten", OpKind::Flatten}, OpRow{"Reshape", OpKind::Reshape},
    OpRow{"Transpose", OpKind::Transpose}, OpRow{"Concat", OpKind::Concat},
    OpRow{"Split", OpKind::Split}, OpRow{"Slice", OpKind::Slice}, OpRow{"Squeeze", OpKind::Squeeze},
    OpRow{"Unsqueeze", OpKind::Unsqueeze}, OpRow{"Gather", OpKind::Gather},
    OpRow{"Shape", OpKind::Shape}, OpRow{"Size", OpKind::Size}, OpRow{"Expand", OpKind::Expand},
    OpRow{"Tile", OpKind::Tile}, OpRow{"Pad", OpKind::Pad}, OpRow{"Resize", OpKind::Resize},
    OpRow{"DepthToSpace", OpKind::DepthToSpace}, OpRow{"SpaceToDepth", OpKind::SpaceToDepth},
    OpRow{"Constant", OpKind::Constant}, OpRow{"ConstantOfShape", OpKind::ConstantOfShape},
    OpRow{"Range", OpKind::Range}, OpRow{"Identity", OpKind::Identity},
    OpRow{"Dropout", OpKind::Dropout}, OpRow{"Cast", OpKind::Cast},
    OpRow{"QuantizeLinear", OpKind::QuantizeLinear}, OpRow{"DequantizeLinear", OpKind::DequantizeLinear},
    OpRow{"DynamicQuantizeLinear", OpKind::DynamicQuantizeLinear},
    OpRow{"QLinearConv", OpKind::QLinearConv}, OpRow{"QLinearMatMul", OpKind::QLinearMatMul},
    OpRow{"ConvInteger", OpKind::ConvInteger}, OpRow{"MatMulInteger", OpKind::MatMulInteger},
    // legacy names, normalised by the importer
    OpRow{"Upsample", OpKind::Resize},
};
constexpr size_t kLegacyRows = 1;
static_assert(kOpRows.size() == static_cast<size_t>(OpKind::Count_) + kLegacyRows,
              "every OpKind needs exactly one ONNX row (plus the legacy aliases)");

struct DTypeRow {
    int onnx;
    ir::DType dtype;
};
using P = ::onnx::TensorProto;
constexpr std::array kDTypeRows{
    DTypeRow{P::FLOAT, ir::DType::Float32}, DTypeRow{P::DOUBLE, ir::DType::Float64},
    DTypeRow{P::FLOAT16, ir::DType::Float16}, DTypeRow{P::INT8, ir::DType::Int8},
    DTypeRow{P::INT16, ir::DType::Int16}, DTypeRow{P::INT32, ir::DType::Int32},
    DTypeRow{P::INT64, ir::DType::Int64}, DTypeRow{P::UINT8, ir::DType::UInt8},
    DTypeRow{P::UINT16, ir::DType::UInt16}, DTypeRow{P::UINT32, ir::DType::UInt32},
    DTypeRow{P::UINT64, ir::DType::UInt64}, DTypeRow{P::BOOL, ir::DType::Bool},
};
} // namespace

std::optional<ir::OpKind> opFromOnnx(std::string_view opType) {
    for (const OpRow& row : kOpRows)
        if (row.onnx == opType) return row.op;
    return std::nullopt;
}

std::string onnxOpType(ir::OpKind op) {
    for (const OpRow& row : kOpRows)
        if (row.op == op) return std::string(row.onnx);
    return std::string(ir::opName(op));
}

std::vector<std::string> onnxOpTypes() {
    std::vector<std::string> names;
    for (const OpRow& row : kOpRows) names.emplace_back(row.onnx);
    std::sort(names.begin(), names.end());
    return names;
}

std::optional<ir::DType> dtypeFromOnnx(int onnxType) {
    for (const DTypeRow& row : kDTypeRows)
        if (row.onnx == onnxType) return row.dtype;
    return std::nullopt;
}

int onnxDType(ir::DType dtype) {
    for (const DTypeRow& row : kDTypeRows)
        if (row.dtype == dtype) return row.onnx;
    return P::UNDEFINED;
}

std::string onnxDTypeName(int onnxType) {
    // Types newer than the ONNX library Embark is built with (1.12), by their ONNX numbers.
    static constexpr std::array<std::string_view, 6> kNewer{"float8e4m3fn", "float8e4m3fnuz", "float8e5m2",
                                                            "float8e5m2fnuz", "uint4", "int4"};
    if (onnxType >= 17 && onnxType <= 22) return std::string(kNewer[static_cast<size_t>(onnxType - 17)]);
    if (!P::DataType_IsValid(onnxType)) return "type #" + std::to_string(onnxType);
    std::string name = P::DataType_Name(static_cast<P::DataType>(onnxType));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name;
}

} // namespace embark::onnx

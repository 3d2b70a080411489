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

// Every OpKind with its current ONNX op type (its name in the op list, ir/ops.inc); legacy
// aliases follow at the end.
constexpr std::array kOpRows{
#define EMBARK_OP(name, category) OpRow{#name, OpKind::name},
#include "ir/ops.inc"
#undef EMBARK_OP
    // legacy names, normalised by the importer
    OpRow{"Upsample", OpKind::Resize}, OpRow{"Scatter", OpKind::ScatterElements}, // opset 9-10
    // opset 18 ops the importer writes with others (opset_normalize.cpp)
    OpRow{"GroupNormalization", OpKind::InstanceNormalization}, OpRow{"CenterCropPad", OpKind::Pad},
    // opset 18's bitwise ops: And, Or, Xor and Not on integer tensors (logical on bools)
    OpRow{"BitwiseAnd", OpKind::And}, OpRow{"BitwiseOr", OpKind::Or}, OpRow{"BitwiseXor", OpKind::Xor},
    OpRow{"BitwiseNot", OpKind::Not}, OpRow{"AffineGrid", OpKind::GridSample}, // opset 20, the grid GridSample reads
};
constexpr size_t kLegacyRows = 9;
static_assert(kOpRows.size() == static_cast<size_t>(OpKind::Count_) + kLegacyRows,
              "every OpKind needs exactly one ONNX row (plus the legacy aliases)");

struct DTypeRow {
    int onnx;
    ir::DType dtype;
};
using P = ::onnx::TensorProto;
constexpr std::array kDTypeRows{
    DTypeRow{P::FLOAT, ir::DType::Float32},   DTypeRow{P::DOUBLE, ir::DType::Float64},
    DTypeRow{P::FLOAT16, ir::DType::Float16}, DTypeRow{P::INT8, ir::DType::Int8},
    DTypeRow{P::INT16, ir::DType::Int16},     DTypeRow{P::INT32, ir::DType::Int32},
    DTypeRow{P::INT64, ir::DType::Int64},     DTypeRow{P::UINT8, ir::DType::UInt8},
    DTypeRow{P::UINT16, ir::DType::UInt16},   DTypeRow{P::UINT32, ir::DType::UInt32},
    DTypeRow{P::UINT64, ir::DType::UInt64},   DTypeRow{P::BOOL, ir::DType::Bool},
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
    static constexpr std::array<std::string_view, 6> kNewer{"float8e4m3fn",   "float8e4m3fnuz", "float8e5m2",
                                                            "float8e5m2fnuz", "uint4",          "int4"};
    if (onnxType >= 17 && onnxType <= 22) return std::string(kNewer[static_cast<size_t>(onnxType - 17)]);
    if (!P::DataType_IsValid(onnxType)) return "type #" + std::to_string(onnxType);
    std::string name = P::DataType_Name(static_cast<P::DataType>(onnxType));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name;
}

} // namespace embark::onnx

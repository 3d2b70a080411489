// The one place where ONNX op-type strings and ONNX element-type numbers meet the IR: the
// importer and the writer both go through these lookups, so adding an op is one table row.
#pragma once

#include "ir/dtype.h"
#include "ir/opkind.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace embark::onnx {

// The domain of Embark's own nodes (fused activations), written with opset version 1.
inline constexpr const char* kEmbarkDomain = "embark";
inline constexpr const char* kFusedPrefix = "Fused";

// ONNX op type (default domain) -> IR op, including legacy names that the importer
// normalises (Upsample -> Resize).
std::optional<ir::OpKind> opFromOnnx(std::string_view opType);
// IR op -> ONNX op type of the newest opset.
std::string onnxOpType(ir::OpKind op);
// Sorted ONNX op types the importer accepts.
std::vector<std::string> onnxOpTypes();

// TensorProto::DataType number <-> IR dtype; nullopt for types Embark lacks (string,
// complex, bfloat16, float8...).
std::optional<ir::DType> dtypeFromOnnx(int onnxType);
int onnxDType(ir::DType dtype);
// "string", "complex64", ... for messages about unsupported element types.
std::string onnxDTypeName(int onnxType);

} // namespace embark::onnx

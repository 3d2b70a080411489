// Conversion between ONNX TensorProto and ir::Tensor (raw_data and every typed field), and
// loading of external data confined to the model's folder. Shared by the importer, the
// writer and the tensor-file readers.
#pragma once

#include "ir/error.h"
#include "ir/tensor.h"

#include <onnx/onnx_pb.h>

#include <string>

namespace embark::onnx {

// `what` names the tensor in messages ("initializer 'conv1.weight' in model.onnx").
// External data must have been inlined first (see inlineExternalData).
Expected<ir::Tensor> tensorFromProto(const ::onnx::TensorProto& proto, const std::string& what);
// Writes dims, data_type and raw_data (little-endian).
void tensorToProto(const ir::Tensor& tensor, const std::string& name, ::onnx::TensorProto* proto);

// Replaces a tensor's EXTERNAL location/offset/length by the bytes it points to, read from
// a file inside `baseDir`. Refuses absolute paths, `..` escapes and symlinks leaving the
// folder. `displayName` names the model in messages.
Status inlineExternalData(::onnx::TensorProto* proto, const std::string& baseDir, const std::string& displayName);
// Every initializer and Constant-node tensor of the model.
Status inlineExternalData(::onnx::ModelProto* model, const std::string& baseDir, const std::string& displayName);

} // namespace embark::onnx

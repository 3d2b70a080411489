#include "model_inputs.h"

#include "op_table.h"

#include <onnx/onnx_pb.h>

#include <fstream>
#include <sstream>
#include <unordered_set>

namespace embark::onnx {

bool DeclaredInput::hasFreeDims() const {
    if (!hasShape) return true;
    for (const DeclaredDim& d : dims)
        if (d.isFree()) return true;
    return false;
}

Expected<std::vector<DeclaredInput>> declaredInputs(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(ErrorKind::InvalidInput, path + ": cannot read the file");
    std::stringstream bytes;
    bytes << in.rdbuf();
    ::onnx::ModelProto model;
    if (!model.ParseFromString(bytes.str()) || !model.has_graph())
        return makeError(ErrorKind::InvalidInput, path + ": not a valid ONNX model");
    const auto& graph = model.graph();
    std::unordered_set<std::string> initializers;
    for (const auto& init : graph.initializer()) initializers.insert(init.name());
    std::vector<DeclaredInput> inputs;
    for (const auto& value : graph.input()) {
        if (initializers.count(value.name())) continue;
        DeclaredInput d;
        d.name = value.name();
        const auto& type = value.type().tensor_type();
        d.elementType = onnxDTypeName(type.elem_type());
        d.hasShape = value.type().has_tensor_type() && type.has_shape();
        for (const auto& dim : type.shape().dim()) {
            DeclaredDim out;
            if (dim.has_dim_value() && dim.dim_value() >= 0) out.value = dim.dim_value();
            if (dim.has_dim_param()) out.param = dim.dim_param();
            d.dims.push_back(out);
        }
        inputs.push_back(std::move(d));
    }
    return inputs;
}

} // namespace embark::onnx

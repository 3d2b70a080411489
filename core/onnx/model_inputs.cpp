#include "model_inputs.h"

#include "op_table.h"
#include "tensor_io.h"

#include <QDir>
#include <QFileInfo>

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
            out.negative = dim.has_dim_value() && dim.dim_value() < 0;
            if (dim.has_dim_param()) out.param = dim.dim_param();
            d.dims.push_back(out);
        }
        inputs.push_back(std::move(d));
    }
    return inputs;
}

std::map<std::string, const ir::Tensor*> pairTensors(const std::vector<DeclaredInput>& inputs,
                                                     const std::vector<NamedTensor>& tensors, bool named) {
    std::map<std::string, const ir::Tensor*> out;
    for (size_t k = 0; k < inputs.size(); ++k) {
        const DeclaredInput& in = inputs[k];
        const NamedTensor* match = nullptr;
        for (const NamedTensor& t : tensors)
            if (!t.name.empty() && t.name == in.name) match = &t;
        if (!match && !named && k < tensors.size()) { // by index, unless that tensor names another input
            bool namesAnother = false;
            for (const DeclaredInput& other : inputs) namesAnother = namesAnother || other.name == tensors[k].name;
            if (!namesAnother) match = &tensors[k];
        }
        if (match) out[in.name] = &match->tensor;
    }
    return out;
}

std::map<std::string, ir::Shape> shapesFromTensors(const std::vector<DeclaredInput>& inputs,
                                                   const std::vector<NamedTensor>& tensors, bool named) {
    std::map<std::string, ir::Shape> out;
    const auto paired = pairTensors(inputs, tensors, named);
    for (const DeclaredInput& in : inputs) {
        const auto match = paired.find(in.name);
        if (!in.hasFreeDims() || match == paired.end()) continue;
        const ir::Shape& shape = match->second->shape();
        if (in.hasShape && shape.rank() != in.dims.size()) continue;
        bool agrees = true;
        for (size_t i = 0; in.hasShape && i < in.dims.size(); ++i)
            agrees = agrees && (in.dims[i].isFree() || in.dims[i].value == shape[i]);
        if (agrees) out[in.name] = shape;
    }
    return out;
}

QString testDataBeside(const std::string& modelPath) {
    const QFileInfo model(QString::fromStdString(modelPath));
    for (const QString& dir : {model.absolutePath() + QStringLiteral("/test_data_set_0"),
                               model.absolutePath() + "/" + model.completeBaseName() + "/test_data_set_0"})
        if (QFileInfo::exists(dir + QStringLiteral("/input_0.pb"))) return dir;
    return {};
}

std::vector<NamedTensor> testDataBesideInputs(const std::string& modelPath) {
    const QString dir = testDataBeside(modelPath);
    std::vector<NamedTensor> tensors;
    for (size_t k = 0; !dir.isEmpty(); ++k) {
        const QString file = dir + QStringLiteral("/input_%1.pb").arg(k);
        if (!QFileInfo::exists(file)) break;
        auto t = readTensorFile(file.toStdString());
        if (!t) break;
        tensors.push_back(std::move(*t));
    }
    return tensors;
}

std::map<std::string, ir::Shape> testDataShapes(const std::string& modelPath,
                                                const std::vector<DeclaredInput>& inputs) {
    return shapesFromTensors(inputs, testDataBesideInputs(modelPath));
}

std::string shapeOption(const DeclaredInput& input) {
    std::string dims;
    for (size_t i = 0; i < input.dims.size(); ++i)
        dims += (i ? "x" : "") + (input.dims[i].isFree() ? std::string("1") : std::to_string(input.dims[i].value));
    return "--shape " + input.name + "=" + (input.hasShape ? dims : std::string("DIMS"));
}

std::string freeDimsText(const DeclaredInput& input) {
    if (!input.hasShape) return "no declared shape";
    std::vector<std::string> names;
    int unnamed = 0;
    for (const DeclaredDim& d : input.dims) {
        if (!d.isFree()) continue;
        if (d.param.empty())
            ++unnamed;
        else
            names.push_back("'" + d.param + "'");
    }
    if (unnamed)
        names.push_back(unnamed == 1 ? "an unnamed dimension" : std::to_string(unnamed) + " unnamed dimensions");
    std::string text = names.size() > 1 || (unnamed == 0 && names.size() == 1)
                           ? (names.size() > 1 ? "symbolic dimensions " : "symbolic dimension ")
                           : "";
    for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return text;
}

} // namespace embark::onnx

// The graph inputs a model declares, read without importing it: names, element types and
// dimensions, fixed or free (symbolic like "batch", or unknown). The studio asks the user for
// the free ones and imports with ImportOptions::shapeOverrides, as `--shape` does on the CLI.
#pragma once

#include "tensor_io.h"

#include "ir/error.h"
#include "ir/shape.h"

#include <QString>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace embark::onnx {

struct DeclaredDim {
    int64_t value = -1;    // -1 when free
    std::string param;     // the symbolic name of a free dimension ("batch"), empty when unnamed
    bool negative = false; // a declared negative size: the model is broken (the importer says so)
    bool isFree() const { return value < 0 && !negative; }
};

struct DeclaredInput {
    std::string name;
    std::string elementType; // "float32", ...
    bool hasShape = true;    // false: the model declares no shape at all (rank unknown)
    std::vector<DeclaredDim> dims;
    bool hasFreeDims() const;
};

// The model's graph inputs that are not initializers, in order. Errors name the file.
Expected<std::vector<DeclaredInput>> declaredInputs(const std::string& path);

// The tensors given for a model's inputs, paired with them by TensorProto name, else by index
// (`named`: only by name, for tensors the user named an input for); pointers into `tensors`.
std::map<std::string, const ir::Tensor*> pairTensors(const std::vector<DeclaredInput>& inputs,
                                                     const std::vector<NamedTensor>& tensors, bool named = false);

// Shapes for the inputs with free dimensions from tensors given for them (pairTensors). An input
// whose tensor is missing or of another rank, or disagrees with a fixed dimension, is left out
// (it stays free).
std::map<std::string, ir::Shape> shapesFromTensors(const std::vector<DeclaredInput>& inputs,
                                                   const std::vector<NamedTensor>& tensors, bool named = false);

// The test data beside a model: <model's folder>/test_data_set_0 (ONNX's test bundles:
// model.onnx beside it), else <model's folder>/<model's base name>/test_data_set_0 (a folder of
// models, each with its data: resnet18.onnx beside resnet18/test_data_set_0). Empty when neither
// has an input_0.pb.
QString testDataBeside(const std::string& modelPath);

// The input_K.pb tensors of testDataBeside(modelPath), in index order (empty without).
std::vector<NamedTensor> testDataBesideInputs(const std::string& modelPath);
// shapesFromTensors of testDataBesideInputs(modelPath).
std::map<std::string, ir::Shape> testDataShapes(const std::string& modelPath, const std::vector<DeclaredInput>& inputs);

// The `--shape NAME=DIMS` that fixes an input: its fixed dims as declared, free ones 1.
std::string shapeOption(const DeclaredInput& input);
// The free dims of an input as a phrase: "'batch' and 'sequence'", "an unnamed dimension".
std::string freeDimsText(const DeclaredInput& input);

} // namespace embark::onnx

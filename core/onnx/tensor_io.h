// Tensor files: ONNX TensorProto .pb (the test_data_set_N/input_0.pb layout), NumPy .npy,
// and raw little-endian .bin with a shape and dtype given by the caller.
#pragma once

#include "ir/error.h"
#include "ir/graph.h"
#include "ir/tensor.h"

#include <map>
#include <string>
#include <vector>

namespace embark::onnx {

struct NamedTensor {
    std::string name; // TensorProto name; empty for .npy/.bin
    ir::Tensor tensor;
};

Expected<NamedTensor> readTensorProto(const std::string& path);
Status writeTensorProto(const std::string& path, const ir::Tensor& tensor, const std::string& name);
Expected<ir::Tensor> readNpy(const std::string& path);
Status writeNpy(const std::string& path, const ir::Tensor& tensor);
Expected<ir::Tensor> readRaw(const std::string& path, ir::DType dtype, const ir::Shape& shape);
Status writeRaw(const std::string& path, const ir::Tensor& tensor);

// Picks the reader by extension (.pb, .npy, .bin/.raw); for raw files dtype and shape are
// required and come from the model's input.
Expected<NamedTensor> readTensorFile(const std::string& path, ir::DType rawDType = ir::DType::Float32,
                                     const ir::Shape& rawShape = {});

// A test_data_set_N folder: inputs input_K.pb and outputs output_K.pb in index order.
struct TestDataSet {
    std::vector<NamedTensor> inputs;
    std::vector<NamedTensor> outputs;
};
Expected<TestDataSet> readTestDataSet(const std::string& dir);
// The inputs of a test_data_set_N folder paired with the graph's inputs: by TensorProto name
// when one matches, else by index; inputs past the set's end are left out.
std::map<std::string, ir::Tensor> pairTestSetInputs(const ir::Graph& graph, const std::vector<NamedTensor>& set);

Status writeTestDataSet(const std::string& dir, const std::vector<NamedTensor>& inputs,
                        const std::vector<NamedTensor>& outputs);

} // namespace embark::onnx

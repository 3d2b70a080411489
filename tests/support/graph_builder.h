// Builds small IR graphs in code for tests (ONNX Runtime's graph_transform_test_builder in
// spirit): inputs, constants, ops; build() propagates shapes with the reference interpreter.
#pragma once

#include "ir/graph.h"

#include <map>
#include <random>
#include <string>

namespace embark::test {

class GraphBuilder {
public:
    explicit GraphBuilder(const std::string& name = "test");

    ir::Value* input(const std::string& name, ir::Shape shape, ir::DType dtype = ir::DType::Float32);
    ir::Value* constant(const std::string& name, ir::Tensor tensor);
    // Uniform random float32 in [-scale, scale], deterministic per builder.
    ir::Value* weights(const std::string& name, ir::Shape shape, float scale = 0.5f);
    ir::Value* ints(const std::string& name, const std::vector<int64_t>& values);
    ir::Value* floats(const std::string& name, const std::vector<float>& values);
    // A node with one output (or `outputs` outputs, returned by opN).
    ir::Value* op(ir::OpKind kind, const std::vector<ir::Value*>& inputs, ir::Attributes attrs = {},
                  const std::string& name = "");
    std::vector<ir::Value*> opN(ir::OpKind kind, const std::vector<ir::Value*>& inputs, size_t outputs,
                                ir::Attributes attrs = {}, const std::string& name = "");
    void output(ir::Value* v);

    // Shapes are propagated with reference::propagateShapes; QFAIL-worthy errors abort.
    ir::Graph build();
    ir::Graph& graph() { return m_graph; }

private:
    ir::Graph m_graph;
    std::mt19937 m_rng{1234};
    int m_counter = 0;
};

// Deterministic random inputs for every graph input (float32 uniform in [-1, 1]).
std::map<std::string, ir::Tensor> randomInputs(const ir::Graph& graph, unsigned seed = 42);
ir::Tensor randomTensor(ir::Shape shape, unsigned seed, float lo = -1.f, float hi = 1.f);

// max |a-b| / max(max |b|, tiny)
double relativeMaxDiff(const ir::Tensor& a, const ir::Tensor& b);

} // namespace embark::test

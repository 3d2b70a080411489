#include "graph_builder.h"

#include "reference/interpreter.h"

#include <cmath>
#include <stdexcept>

namespace embark::test {

GraphBuilder::GraphBuilder(const std::string& name) { m_graph.name = name; }

ir::Value* GraphBuilder::input(const std::string& name, ir::Shape shape, ir::DType dtype) {
    ir::Value* v = m_graph.addValue(name, dtype, std::move(shape));
    m_graph.addInput(v);
    return v;
}

ir::Value* GraphBuilder::constant(const std::string& name, ir::Tensor tensor) {
    return m_graph.addConstant(name, std::move(tensor));
}

ir::Value* GraphBuilder::weights(const std::string& name, ir::Shape shape, float scale) {
    std::uniform_real_distribution<float> dist(-scale, scale);
    std::vector<float> data(static_cast<size_t>(shape.numel()));
    for (float& x : data) x = dist(m_rng);
    return constant(name, ir::Tensor::fromFloats(std::move(shape), data));
}

ir::Value* GraphBuilder::ints(const std::string& name, const std::vector<int64_t>& values) {
    return constant(name, ir::Tensor::fromInt64s(ir::Shape{static_cast<int64_t>(values.size())}, values));
}

ir::Value* GraphBuilder::floats(const std::string& name, const std::vector<float>& values) {
    return constant(name, ir::Tensor::fromFloats(ir::Shape{static_cast<int64_t>(values.size())}, values));
}

ir::Value* GraphBuilder::op(ir::OpKind kind, const std::vector<ir::Value*>& inputs, ir::Attributes attrs,
                            const std::string& name) {
    return opN(kind, inputs, 1, std::move(attrs), name).front();
}

std::vector<ir::Value*> GraphBuilder::opN(ir::OpKind kind, const std::vector<ir::Value*>& inputs, size_t outputs,
                                          ir::Attributes attrs, const std::string& name) {
    const std::string nodeName =
        name.empty() ? std::string(ir::opName(kind)) + "_" + std::to_string(m_counter++) : name;
    std::vector<ir::Value*> outs;
    for (size_t i = 0; i < outputs; ++i)
        outs.push_back(m_graph.addValue(nodeName + (outputs > 1 ? "_out" + std::to_string(i) : "_out"),
                                        ir::DType::Float32, ir::Shape{}));
    ir::Node* n = m_graph.addNode(kind, nodeName, inputs, outs);
    n->attrs = std::move(attrs);
    return outs;
}

void GraphBuilder::output(ir::Value* v) { m_graph.addOutput(v); }

ir::Graph GraphBuilder::build() {
    Status s = reference::propagateShapes(m_graph);
    if (!s.ok()) throw std::runtime_error("GraphBuilder: " + s.error().message);
    return std::move(m_graph);
}

ir::Tensor randomTensor(ir::Shape shape, unsigned seed, float lo, float hi) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> data(static_cast<size_t>(shape.numel()));
    for (float& x : data) x = dist(rng);
    return ir::Tensor::fromFloats(std::move(shape), data);
}

std::map<std::string, ir::Tensor> randomInputs(const ir::Graph& graph, unsigned seed) {
    std::map<std::string, ir::Tensor> out;
    for (ir::Value* v : graph.inputs()) {
        if (v->isConstant()) continue;
        out[v->name] = randomTensor(v->shape, seed++).castTo(v->dtype);
    }
    return out;
}

double relativeMaxDiff(const ir::Tensor& a, const ir::Tensor& b) {
    double maxDiff = 0, maxRef = 0;
    for (int64_t i = 0; i < b.numel(); ++i) {
        maxDiff = std::fmax(maxDiff, std::fabs(a.at(i) - b.at(i)));
        maxRef = std::fmax(maxRef, std::fabs(b.at(i)));
    }
    return maxDiff / std::fmax(maxRef, 1e-12);
}

} // namespace embark::test

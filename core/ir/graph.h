// The graph IR: values (tensors flowing between nodes, possibly constant), nodes (an op
// with inputs, outputs, attributes and provenance) and the graph that owns them. All edge
// edits go through Graph so that each value's list of uses stays exact.
#pragma once

#include "attribute.h"
#include "error.h"
#include "opkind.h"
#include "shape.h"
#include "tensor.h"

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace embark::ir {

class Graph;
class Node;

struct Use {
    Node* node = nullptr;
    int index = 0; // which input of node
    bool operator==(const Use& o) const { return node == o.node && index == o.index; }
};

class Value {
public:
    std::string name;
    DType dtype = DType::Float32;
    Shape shape;
    Tensor constant; // non-null for initializers and folded constants

    bool isConstant() const { return !constant.isNull(); }
    Node* producer() const { return m_producer; }
    const std::vector<Use>& uses() const { return m_uses; }
    bool isGraphInput() const { return m_graphInput; }
    bool isGraphOutput() const { return m_graphOutput; }
    // A value of a body graph (If/Loop/Scan) that stands for a value of an enclosing graph
    // with the same name; the owning node reads that outer value as an implicit input.
    bool isOuterScope() const { return m_outerScope; }
    size_t byteSize() const { return static_cast<size_t>(shape.numel()) * dtypeSize(dtype); }

private:
    friend class Graph;
    Node* m_producer = nullptr;
    std::vector<Use> m_uses;
    bool m_graphInput = false;
    bool m_graphOutput = false;
    bool m_outerScope = false;
};

// A body graph owned by a control-flow node, under its ONNX attribute name (then_branch,
// else_branch, body).
struct Subgraph {
    std::string attr;
    std::shared_ptr<Graph> graph;
};

class Node {
public:
    std::string name;
    OpKind op = OpKind::Identity;
    Attributes attrs;
    // Names of the original ONNX nodes this node stands for, in graph order.
    std::vector<std::string> provenance;
    // Body graphs (If, Loop, Scan). Passes leave them alone (see passes/pass_manager.cpp).
    std::vector<Subgraph> subgraphs;
    // The outer-scope values the bodies read, by the name the bodies use: the last
    // outerNames.size() inputs of the node are those values (implicit inputs), so uses,
    // dead-code elimination and renames of the enclosing graph see them. Bodies bind them by
    // position, never by the outer value's current name.
    std::vector<std::string> outerNames;

    const std::vector<Value*>& inputs() const { return m_inputs; }
    const std::vector<Value*>& outputs() const { return m_outputs; }
    // Input i, or nullptr when absent (optional input omitted or index past the end).
    Value* input(size_t i) const { return i < m_inputs.size() ? m_inputs[i] : nullptr; }
    Value* output(size_t i) const { return i < m_outputs.size() ? m_outputs[i] : nullptr; }

    bool has(const std::string& attr) const { return attrs.count(attr) != 0; }
    int64_t attrInt(const std::string& attr, int64_t fallback) const;
    float attrFloat(const std::string& attr, float fallback) const;
    std::string attrString(const std::string& attr, const std::string& fallback) const;
    std::vector<int64_t> attrInts(const std::string& attr, const std::vector<int64_t>& fallback = {}) const;
    std::vector<float> attrFloats(const std::string& attr, const std::vector<float>& fallback = {}) const;
    const Tensor* attrTensor(const std::string& attr) const;
    const Graph* subgraph(const std::string& attr) const; // nullptr when absent
    // Inputs that are the op's own (not the implicit outer-scope inputs).
    size_t explicitInputCount() const { return m_inputs.size() - outerNames.size(); }

    // "Conv 'conv1'" for messages.
    std::string describe() const;

private:
    friend class Graph;
    std::vector<Value*> m_inputs;
    std::vector<Value*> m_outputs;
};

class Graph {
public:
    Graph() = default;
    Graph(Graph&&) = default;
    Graph& operator=(Graph&&) = default;
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;

    std::string name;
    // Model-level facts kept for display and export (producer, opset, source path, ...).
    std::map<std::string, std::string> metadata;

    // --- values
    Value* addValue(const std::string& name, DType dtype, Shape shape);
    Value* addConstant(const std::string& name, Tensor tensor);
    Value* findValue(const std::string& name) const;
    // A name not used by any value or node yet, derived from base.
    std::string uniqueName(const std::string& base);
    void renameValue(Value* v, const std::string& newName);

    const std::vector<Value*>& inputs() const { return m_inputs; }
    const std::vector<Value*>& outputs() const { return m_outputs; }
    void addInput(Value* v);
    void addOutput(Value* v);
    void setOutput(size_t i, Value* v);
    void removeInput(Value* v);
    // Body graphs: marks v (a value of this graph) as standing for the enclosing graph's
    // value of the same name.
    void addOuterScopeValue(Value* v);
    std::vector<Value*> outerScopeValues() const;

    // --- nodes (kept in execution order; call topoSort after out-of-order inserts)
    Node* addNode(OpKind op, const std::string& name, const std::vector<Value*>& inputs,
                  const std::vector<Value*>& outputs);
    // Inserts before `pos` (nullptr appends).
    Node* insertNode(Node* pos, OpKind op, const std::string& name, const std::vector<Value*>& inputs,
                     const std::vector<Value*>& outputs);
    Node* findNode(const std::string& name) const;
    std::vector<Node*> nodes() const;
    size_t nodeCount() const { return m_nodes.size(); }
    size_t valueCount() const { return m_values.size(); }
    std::vector<Value*> values() const;

    void setInput(Node* n, size_t index, Value* v); // v may be nullptr (absent)
    void appendInput(Node* n, Value* v);
    void setOutput(Node* n, size_t index, Value* v);
    // Every use of `from` (and graph-output slots) now reads `to`.
    void replaceAllUses(Value* from, Value* to);
    // Removes the node; its inputs lose a use, its outputs lose their producer.
    void removeNode(Node* n);
    // Drops values that nothing produces, uses or exposes (and that are not graph inputs).
    size_t removeDeadValues();
    // Removes nodes whose outputs reach no graph output; returns how many.
    size_t removeDeadNodes();

    // Orders nodes so that producers come before consumers (stable for already sorted
    // graphs). Fails on a cycle, naming a node on it.
    Status topoSort();
    // Checks internal consistency (uses lists, producers, unique names); for tests.
    Status validate() const;

    Graph clone() const;

private:
    std::vector<std::unique_ptr<Node>> m_nodes;
    std::vector<std::unique_ptr<Value>> m_values;
    std::unordered_map<std::string, Value*> m_valueByName;
    std::vector<Value*> m_inputs;
    std::vector<Value*> m_outputs;
    uint64_t m_nameCounter = 0;

    void detachInput(Node* n, size_t index);
};

} // namespace embark::ir

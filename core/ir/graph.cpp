#include "graph.h"

#include <algorithm>
#include <cassert>
#include <unordered_set>

namespace embark::ir {

// ---------------------------------------------------------------- Node

int64_t Node::attrInt(const std::string& attr, int64_t fallback) const {
    auto it = attrs.find(attr);
    if (it == attrs.end()) return fallback;
    if (auto p = std::get_if<int64_t>(&it->second)) return *p;
    if (auto p = std::get_if<float>(&it->second)) return static_cast<int64_t>(*p);
    return fallback;
}

float Node::attrFloat(const std::string& attr, float fallback) const {
    auto it = attrs.find(attr);
    if (it == attrs.end()) return fallback;
    if (auto p = std::get_if<float>(&it->second)) return *p;
    if (auto p = std::get_if<int64_t>(&it->second)) return static_cast<float>(*p);
    return fallback;
}

std::string Node::attrString(const std::string& attr, const std::string& fallback) const {
    auto it = attrs.find(attr);
    if (it == attrs.end()) return fallback;
    if (auto p = std::get_if<std::string>(&it->second)) return *p;
    return fallback;
}

std::vector<int64_t> Node::attrInts(const std::string& attr, const std::vector<int64_t>& fallback) const {
    auto it = attrs.find(attr);
    if (it == attrs.end()) return fallback;
    if (auto p = std::get_if<std::vector<int64_t>>(&it->second)) return *p;
    if (auto p = std::get_if<int64_t>(&it->second)) return {*p};
    return fallback;
}

std::vector<float> Node::attrFloats(const std::string& attr, const std::vector<float>& fallback) const {
    auto it = attrs.find(attr);
    if (it == attrs.end()) return fallback;
    if (auto p = std::get_if<std::vector<float>>(&it->second)) return *p;
    if (auto p = std::get_if<float>(&it->second)) return {*p};
    return fallback;
}

const Tensor* Node::attrTensor(const std::string& attr) const {
    auto it = attrs.find(attr);
    if (it == attrs.end()) return nullptr;
    return std::get_if<Tensor>(&it->second);
}

const Graph* Node::subgraph(const std::string& attr) const {
    for (const Subgraph& s : subgraphs)
        if (s.attr == attr) return s.graph.get();
    return nullptr;
}

std::string Node::describe() const { return std::string(opName(op)) + " '" + name + "'"; }

// ---------------------------------------------------------------- Graph: values

Value* Graph::addValue(const std::string& valueName, DType dtype, Shape shape) {
    auto v = std::make_unique<Value>();
    v->name = valueName.empty() || m_valueByName.count(valueName) ? uniqueName(valueName.empty() ? "v" : valueName)
                                                                  : valueName;
    v->dtype = dtype;
    v->shape = std::move(shape);
    Value* raw = v.get();
    m_valueByName[raw->name] = raw;
    m_values.push_back(std::move(v));
    return raw;
}

Value* Graph::addConstant(const std::string& valueName, Tensor tensor) {
    Value* v = addValue(valueName, tensor.dtype(), tensor.shape());
    v->constant = std::move(tensor);
    return v;
}

Value* Graph::findValue(const std::string& valueName) const {
    auto it = m_valueByName.find(valueName);
    return it == m_valueByName.end() ? nullptr : it->second;
}

std::string Graph::uniqueName(const std::string& base) {
    if (!base.empty() && !m_valueByName.count(base) && !findNode(base)) return base;
    for (;;) {
        std::string candidate = base + "_" + std::to_string(++m_nameCounter);
        if (!m_valueByName.count(candidate) && !findNode(candidate)) return candidate;
    }
}

void Graph::renameValue(Value* v, const std::string& newName) {
    m_valueByName.erase(v->name);
    v->name = newName;
    m_valueByName[newName] = v;
}

void Graph::addInput(Value* v) {
    v->m_graphInput = true;
    m_inputs.push_back(v);
}

void Graph::addOutput(Value* v) {
    v->m_graphOutput = true;
    m_outputs.push_back(v);
}

void Graph::setOutput(size_t i, Value* v) {
    Value* old = m_outputs[i];
    m_outputs[i] = v;
    old->m_graphOutput = std::find(m_outputs.begin(), m_outputs.end(), old) != m_outputs.end();
    v->m_graphOutput = true;
}

void Graph::removeInput(Value* v) {
    m_inputs.erase(std::remove(m_inputs.begin(), m_inputs.end(), v), m_inputs.end());
    v->m_graphInput = false;
}

void Graph::addOuterScopeValue(Value* v) { v->m_outerScope = true; }

std::vector<Value*> Graph::outerScopeValues() const {
    std::vector<Value*> out;
    for (auto& v : m_values)
        if (v->m_outerScope) out.push_back(v.get());
    return out;
}

std::vector<Value*> Graph::values() const {
    std::vector<Value*> out;
    out.reserve(m_values.size());
    for (auto& v : m_values) out.push_back(v.get());
    return out;
}

// ---------------------------------------------------------------- Graph: nodes

Node* Graph::addNode(OpKind op, const std::string& nodeName, const std::vector<Value*>& ins,
                     const std::vector<Value*>& outs) {
    return insertNode(nullptr, op, nodeName, ins, outs);
}

Node* Graph::insertNode(Node* pos, OpKind op, const std::string& nodeName, const std::vector<Value*>& ins,
                        const std::vector<Value*>& outs) {
    auto n = std::make_unique<Node>();
    n->op = op;
    n->name = nodeName;
    n->provenance = {nodeName};
    Node* raw = n.get();
    for (Value* v : ins) appendInput(raw, v);
    for (Value* v : outs) {
        assert(v && !v->m_producer && "a value has exactly one producer");
        v->m_producer = raw;
        raw->m_outputs.push_back(v);
    }
    if (!pos) {
        m_nodes.push_back(std::move(n));
    } else {
        auto it = std::find_if(m_nodes.begin(), m_nodes.end(), [pos](auto& p) { return p.get() == pos; });
        m_nodes.insert(it, std::move(n));
    }
    return raw;
}

Node* Graph::findNode(const std::string& nodeName) const {
    for (auto& n : m_nodes)
        if (n->name == nodeName) return n.get();
    return nullptr;
}

std::vector<Node*> Graph::nodes() const {
    std::vector<Node*> out;
    out.reserve(m_nodes.size());
    for (auto& n : m_nodes) out.push_back(n.get());
    return out;
}

void Graph::detachInput(Node* n, size_t index) {
    Value* old = n->m_inputs[index];
    if (!old) return;
    auto& uses = old->m_uses;
    uses.erase(std::remove(uses.begin(), uses.end(), Use{n, static_cast<int>(index)}), uses.end());
}

void Graph::setInput(Node* n, size_t index, Value* v) {
    if (index >= n->m_inputs.size()) n->m_inputs.resize(index + 1, nullptr);
    detachInput(n, index);
    n->m_inputs[index] = v;
    if (v) v->m_uses.push_back(Use{n, static_cast<int>(index)});
}

void Graph::appendInput(Node* n, Value* v) {
    n->m_inputs.push_back(v);
    if (v) v->m_uses.push_back(Use{n, static_cast<int>(n->m_inputs.size() - 1)});
}

void Graph::setOutput(Node* n, size_t index, Value* v) {
    if (index >= n->m_outputs.size()) n->m_outputs.resize(index + 1, nullptr);
    if (Value* old = n->m_outputs[index]) old->m_producer = nullptr;
    n->m_outputs[index] = v;
    if (v) {
        assert(!v->m_producer && "a value has exactly one producer");
        v->m_producer = n;
    }
}

void Graph::replaceAllUses(Value* from, Value* to) {
    if (from == to) return;
    const std::vector<Use> uses = from->m_uses;
    for (const Use& u : uses) setInput(u.node, static_cast<size_t>(u.index), to);
    for (size_t i = 0; i < m_outputs.size(); ++i)
        if (m_outputs[i] == from) setOutput(i, to);
}

void Graph::removeNode(Node* n) {
    for (size_t i = 0; i < n->m_inputs.size(); ++i) detachInput(n, i);
    for (Value* v : n->m_outputs)
        if (v) v->m_producer = nullptr;
    m_nodes.erase(std::remove_if(m_nodes.begin(), m_nodes.end(), [n](auto& p) { return p.get() == n; }), m_nodes.end());
}

size_t Graph::removeDeadValues() {
    size_t removed = 0;
    for (auto it = m_values.begin(); it != m_values.end();) {
        Value* v = it->get();
        if (!v->m_producer && v->m_uses.empty() && !v->m_graphInput && !v->m_graphOutput) {
            m_valueByName.erase(v->name);
            it = m_values.erase(it);
            ++removed;
        } else {
            ++it;
        }
    }
    return removed;
}

size_t Graph::removeDeadNodes() {
    std::unordered_set<const Node*> live;
    std::vector<const Node*> stack;
    for (Value* out : m_outputs)
        if (out->m_producer && live.insert(out->m_producer).second) stack.push_back(out->m_producer);
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        for (Value* in : n->m_inputs)
            if (in && in->m_producer && live.insert(in->m_producer).second) stack.push_back(in->m_producer);
    }
    std::vector<Node*> dead;
    for (auto& n : m_nodes)
        if (!live.count(n.get())) dead.push_back(n.get());
    for (Node* n : dead) removeNode(n);
    return dead.size();
}

Status Graph::topoSort() {
    // Kahn's algorithm, picking ready nodes in their current order so sorted graphs keep it.
    std::unordered_map<const Node*, size_t> pending;
    std::unordered_map<const Node*, size_t> position;
    for (size_t i = 0; i < m_nodes.size(); ++i) position[m_nodes[i].get()] = i;
    for (auto& n : m_nodes) {
        size_t count = 0;
        for (Value* in : n->m_inputs)
            if (in && in->m_producer) ++count;
        pending[n.get()] = count;
    }
    std::vector<size_t> ready; // min-heap on original position
    auto cmp = [](size_t a, size_t b) { return a > b; };
    for (auto& n : m_nodes)
        if (pending[n.get()] == 0) ready.push_back(position[n.get()]);
    std::make_heap(ready.begin(), ready.end(), cmp);
    std::vector<std::unique_ptr<Node>> order;
    order.reserve(m_nodes.size());
    std::vector<bool> taken(m_nodes.size(), false);
    while (!ready.empty()) {
        std::pop_heap(ready.begin(), ready.end(), cmp);
        const size_t idx = ready.back();
        ready.pop_back();
        Node* n = m_nodes[idx].get();
        taken[idx] = true;
        for (Value* out : n->m_outputs) {
            if (!out) continue;
            for (const Use& u : out->m_uses) {
                // A node reading the same value twice has one pending count per input slot.
                if (--pending[u.node] == 0) {
                    ready.push_back(position[u.node]);
                    std::push_heap(ready.begin(), ready.end(), cmp);
                }
            }
        }
        order.emplace_back(m_nodes[idx].release());
    }
    if (order.size() != m_nodes.size()) {
        std::string culprit;
        for (size_t i = 0; i < m_nodes.size(); ++i)
            if (!taken[i]) {
                culprit = m_nodes[i]->describe();
                break;
            }
        // Give the nodes back (sorted part first) before failing.
        std::vector<std::unique_ptr<Node>> restored;
        for (auto& n : order) restored.push_back(std::move(n));
        for (auto& n : m_nodes)
            if (n) restored.push_back(std::move(n));
        m_nodes = std::move(restored);
        return makeError(ErrorKind::InvalidInput, "the graph has a cycle through node " + culprit +
                                                      ": ONNX graphs must be acyclic; re-export the model");
    }
    m_nodes = std::move(order);
    return {};
}

Status Graph::validate() const {
    std::unordered_set<const Node*> nodeSet;
    for (auto& n : m_nodes) nodeSet.insert(n.get());
    for (auto& n : m_nodes) {
        for (size_t i = 0; i < n->m_inputs.size(); ++i) {
            Value* v = n->m_inputs[i];
            if (!v) continue;
            if (std::find(v->m_uses.begin(), v->m_uses.end(), Use{n.get(), static_cast<int>(i)}) == v->m_uses.end())
                return makeError(ErrorKind::InvalidInput,
                                 "value '" + v->name + "' does not list its use by " + n->describe());
        }
        for (Value* v : n->m_outputs)
            if (v && v->m_producer != n.get())
                return makeError(ErrorKind::InvalidInput,
                                 "value '" + v->name + "' does not name " + n->describe() + " as producer");
    }
    for (auto& v : m_values) {
        if (v->m_producer && !nodeSet.count(v->m_producer))
            return makeError(ErrorKind::InvalidInput, "value '" + v->name + "' has a removed producer");
        for (const Use& u : v->m_uses)
            if (!nodeSet.count(u.node) || u.node->input(static_cast<size_t>(u.index)) != v.get())
                return makeError(ErrorKind::InvalidInput, "value '" + v->name + "' has a stale use");
    }
    return {};
}

Graph Graph::clone() const {
    Graph g;
    g.name = name;
    g.metadata = metadata;
    g.m_nameCounter = m_nameCounter;
    std::unordered_map<const Value*, Value*> vmap;
    for (auto& v : m_values) {
        auto c = std::make_unique<Value>();
        c->name = v->name;
        c->dtype = v->dtype;
        c->shape = v->shape;
        c->constant = v->constant; // shares immutable storage
        c->m_graphInput = v->m_graphInput;
        c->m_graphOutput = v->m_graphOutput;
        c->m_outerScope = v->m_outerScope;
        vmap[v.get()] = c.get();
        g.m_valueByName[c->name] = c.get();
        g.m_values.push_back(std::move(c));
    }
    for (auto& n : m_nodes) {
        auto c = std::make_unique<Node>();
        c->name = n->name;
        c->op = n->op;
        c->attrs = n->attrs;
        c->provenance = n->provenance;
        c->outerNames = n->outerNames;
        for (const Subgraph& s : n->subgraphs)
            c->subgraphs.push_back(Subgraph{s.attr, std::make_shared<Graph>(s.graph->clone())});
        for (size_t i = 0; i < n->m_inputs.size(); ++i) {
            Value* in = n->m_inputs[i] ? vmap[n->m_inputs[i]] : nullptr;
            c->m_inputs.push_back(in);
            if (in) in->m_uses.push_back(Use{c.get(), static_cast<int>(i)});
        }
        for (Value* out : n->m_outputs) {
            Value* o = out ? vmap[out] : nullptr;
            if (o) o->m_producer = c.get();
            c->m_outputs.push_back(o);
        }
        g.m_nodes.push_back(std::move(c));
    }
    for (Value* v : m_inputs) g.m_inputs.push_back(vmap[v]);
    for (Value* v : m_outputs) g.m_outputs.push_back(vmap[v]);
    return g;
}

} // namespace embark::ir

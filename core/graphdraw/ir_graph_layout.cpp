#include "ir_graph_layout.h"

#include <unordered_map>

namespace embark::graphdraw {

namespace {

NodeSize defaultSize(const IrLayoutItem& item) {
    return item.kind == IrLayoutItem::Kind::Node ? NodeSize{120, 36} : NodeSize{80, 24};
}

} // namespace

IrGraphLayoutInput buildLayoutInput(const ir::Graph& graph, const MeasureFn& measure) {
    IrGraphLayoutInput in;
    auto add = [&](IrLayoutItem item) {
        const NodeSize size = measure ? measure(item) : defaultSize(item);
        in.items.push_back(item);
        return in.graph.addNode(size.width, size.height);
    };

    std::unordered_map<const ir::Value*, int> inputNode;
    for (const ir::Value* v : graph.inputs()) {
        if (v->isConstant()) continue; // initializers listed as inputs by old exporters
        inputNode[v] = add({IrLayoutItem::Kind::GraphInput, nullptr, v});
    }
    std::unordered_map<const ir::Node*, int> nodeIndex;
    const std::vector<ir::Node*> nodes = graph.nodes();
    for (const ir::Node* n : nodes) nodeIndex[n] = add({IrLayoutItem::Kind::Node, n, nullptr});

    auto sourceOf = [&](const ir::Value* v) -> int {
        if (v->producer()) {
            auto it = nodeIndex.find(v->producer());
            return it == nodeIndex.end() ? -1 : it->second;
        }
        auto it = inputNode.find(v);
        return it == inputNode.end() ? -1 : it->second;
    };
    auto addEdge = [&](int from, int to, const ir::Value* v) {
        in.graph.addEdge(from, to);
        in.edgeValue.push_back(v);
    };

    for (const ir::Node* n : nodes) {
        for (const ir::Value* v : n->inputs()) {
            if (!v || v->isConstant()) continue;
            const int from = sourceOf(v);
            if (from >= 0) addEdge(from, nodeIndex[n], v);
        }
    }
    for (const ir::Value* v : graph.outputs()) {
        const int out = add({IrLayoutItem::Kind::GraphOutput, nullptr, v});
        const int from = v ? sourceOf(v) : -1;
        if (from >= 0) addEdge(from, out, v);
    }
    return in;
}

} // namespace embark::graphdraw

// Builds the layout's abstract graph from an IR graph: one layout node per IR node, a small
// node per graph input and output, an edge per (producer, consumer) pair of each non-constant
// value. Keeps the mapping back to IR objects so views can label and select.
#pragma once

#include "layered_layout.h"

#include "ir/graph.h"

#include <functional>

namespace embark::graphdraw {

struct IrLayoutItem {
    enum class Kind { Node, GraphInput, GraphOutput };
    Kind kind = Kind::Node;
    const ir::Node* node = nullptr;   // Kind::Node
    const ir::Value* value = nullptr; // Kind::GraphInput / GraphOutput
};

struct IrGraphLayoutInput {
    LayoutGraph graph;
    std::vector<IrLayoutItem> items;         // per layout node
    std::vector<const ir::Value*> edgeValue; // per layout edge: the tensor it carries
};

struct NodeSize {
    double width = 0;
    double height = 0;
};

// The view measures labels with its font; without a measure, nodes are 120x36 and graph
// inputs/outputs 80x24.
using MeasureFn = std::function<NodeSize(const IrLayoutItem&)>;

IrGraphLayoutInput buildLayoutInput(const ir::Graph& graph, const MeasureFn& measure = {});

} // namespace embark::graphdraw

// Brings one imported ONNX node to the IR's newest-opset semantics (ir/opkind.h): parameters
// that older opsets carried as attributes become constant inputs, Upsample becomes Resize,
// and Softmax/LogSoftmax before opset 13 become Reshape + Softmax + Reshape.
#pragma once

#include "ir/error.h"
#include "ir/graph.h"

#include <functional>
#include <string>
#include <vector>

namespace embark::onnx {

// An ONNX node on its way into the IR (inputs already resolved; absent inputs are null).
struct PendingNode {
    std::string onnxType; // as written in the model (e.g. "Upsample")
    ir::OpKind op = ir::OpKind::Identity;
    std::string name;
    std::vector<ir::Value*> inputs;
    std::vector<ir::Value*> outputs;
    ir::Attributes attrs;
    std::vector<std::string> provenance;
};

// Adds `node` to `graph`, rewritten for `opset` (the model's default-domain opset). May add
// constants and helper nodes (named after the node, with the node's provenance).
// `shapeKnown` says whether a value's shape came from shape inference.
Status addNormalizedNode(ir::Graph& graph, PendingNode node, int opset,
                         const std::function<bool(const ir::Value*)>& shapeKnown);

} // namespace embark::onnx

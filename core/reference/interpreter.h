// The host reference interpreter: plain, obviously-correct kernels (float32 data, double
// accumulation) that share no code with the export kernels. It is the oracle every export
// is compared with, and the engine of constant folding.
#pragma once

#include "ir/error.h"
#include "ir/graph.h"

#include <map>
#include <string>
#include <vector>

namespace embark::reference {

struct RunOptions {
    bool captureAll = false; // keep every intermediate value (for dumps and per-layer accuracy)
};

struct RunResult {
    // Graph outputs in graph order.
    std::vector<std::string> outputNames;
    std::vector<ir::Tensor> outputs;
    // Every value by name when RunOptions::captureAll (inputs and constants excluded).
    std::map<std::string, ir::Tensor> values;
};

// Runs the graph. Inputs are keyed by graph-input name; a missing input, or one whose dtype
// or shape differs from the graph's, is an InvalidInput error naming the input and both
// shapes. A node whose op or attribute is unsupported is an Unsupported error naming it.
Expected<RunResult> run(const ir::Graph& graph, const std::map<std::string, ir::Tensor>& inputs,
                        const RunOptions& options = {});

// Every value the graph computes, by name, its outputs included (run with captureAll): what
// per-layer comparisons of two models read.
Expected<std::map<std::string, ir::Tensor>> runAllValues(const ir::Graph& graph,
                                                         const std::map<std::string, ir::Tensor>& inputs);

// Evaluates one node on given input tensors (nullptr-free; absent optional inputs are null
// Tensors). Used by constant folding and shape propagation.
Expected<std::vector<ir::Tensor>> evalNode(const ir::Node& node, const std::vector<ir::Tensor>& inputs);

bool supports(ir::OpKind op);
std::vector<ir::OpKind> supportedOps();

// Fills in the shape and dtype of every non-constant value by running the graph once (used when
// ONNX shape inference leaves values without a static shape): on `sample` values for the
// inputs it names (of the input's dtype and shape; others are ignored), zeros for the rest. A
// model whose shapes follow its data (an If on a sample rate, a Loop's trip count) gets the
// shapes of that run.
Status propagateShapes(ir::Graph& graph, const std::map<std::string, ir::Tensor>& sample = {});

} // namespace embark::reference

// Static facts about a graph for `inspect` and the studio: multiply-accumulates per node,
// parameter counts and bytes, activation sizes.
#pragma once

#include "graph.h"

#include <cstdint>
#include <map>
#include <string>

namespace embark::ir {

// Multiply-accumulate operations of one node (Conv, ConvTranspose, Gemm, MatMul); 0 for ops
// that are not dominated by MACs.
int64_t nodeMacs(const Node& node);

// Parameters a node reads: elements and bytes of its constant float inputs.
struct ParamCount {
    int64_t count = 0;
    int64_t bytes = 0;
};
ParamCount nodeParams(const Node& node);

struct ModelStats {
    int64_t macs = 0;
    ParamCount params;             // unique constants, counted once
    int64_t activationBytes = 0;   // sum of every non-constant node output
    int64_t largestActivation = 0; // bytes of the largest one
    std::map<std::string, int> opHistogram;
};
ModelStats modelStats(const Graph& graph);

} // namespace embark::ir

// Shared helpers for passes: match chains of nodes, rewire through ir::Graph, and keep
// provenance exact. Passes never edit edges by hand; they go through these functions.
#pragma once

#include "ir/graph.h"

#include <optional>
#include <string>
#include <vector>

namespace embark::passes {

// The only node reading `v`, when v has exactly one use and is not a graph output.
ir::Node* soleConsumer(const ir::Value* v);
// The node producing input `i` of `n` when that input feeds nothing else (no other use,
// not a graph output): the head of a fusable chain.
ir::Node* exclusiveProducer(const ir::Node* n, size_t i);
// Follows single-consumer edges from `start` through nodes of the given ops (output 0 each),
// returning the whole chain including start, or nullopt when it does not match.
std::optional<std::vector<ir::Node*>> matchChain(ir::Node* start, const std::vector<ir::OpKind>& ops);

// The constant behind input i, or null.
const ir::Tensor* constantInput(const ir::Node* n, size_t i);

// Appends `from`'s provenance to `into` (names `into` lacks, keeping order): use when `from`
// comes after `into` in the graph. prependProvenance for one that comes before.
void appendProvenance(ir::Node* into, const ir::Node* from);
void prependProvenance(ir::Node* into, const std::vector<std::string>& earlier);

// `consumer` (reading `producer`'s only output) is absorbed: the producer now writes the
// consumer's output value (so graph output names survive), inherits its provenance, and the
// consumer is removed.
void absorbConsumer(ir::Graph& g, ir::Node* producer, ir::Node* consumer);

// Removes a node whose output 0 equals its input 0 (Identity, Dropout, no-op Flatten...),
// handing its provenance to a neighbour: the producer of its input when that producer has no
// other consumer, else the first consumer of its output. Graph output names are kept. Returns
// false (graph untouched) when the node must stay: its input is a graph input or constant and
// its output is a graph output.
bool bypassNode(ir::Graph& g, ir::Node* n);

// Records names of nodes folded into constants that no remaining node stands for (e.g. a
// constant graph output), in graph.metadata[kFoldedNodesKey], one name per line.
inline constexpr const char* kFoldedNodesKey = "embark.folded_nodes";
void recordFolded(ir::Graph& g, const std::vector<std::string>& names);
std::vector<std::string> foldedNodes(const ir::Graph& g);

} // namespace embark::passes

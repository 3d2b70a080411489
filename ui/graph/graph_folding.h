// Folding by module prefix: the nodes whose ONNX names share a path prefix
// ("/features/denseblock3/...") collapse into one box named by the prefix, so a 400-node graph
// reads as its blocks. The box stands for its nodes (their provenance), so linked selection,
// the diff and the per-layer colours reach it; expanding restores them.
#pragma once

#include "ir/graph.h"
#include "ir/error.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace embark::ui {

// The attribute a folded box carries: how many nodes it stands for.
inline constexpr const char* kFoldedAttr = "embark.folded_nodes";

// The module prefixes of a node name, outermost first: "/features/denseblock3/denselayer1/
// conv1/Conv" -> "/features", "/features/denseblock3", ".../denselayer1", ".../conv1" (never
// the whole name).
QStringList modulePrefixes(const QString& nodeName);

// `graph` with the nodes under each prefix folded into one node (named by the prefix, op
// Identity, attribute kFoldedAttr), keeping graph order. A prefix that would make a cycle
// (another node runs between its nodes, reading one and feeding another) is an error naming
// it; a prefix with fewer than two nodes is left as it is.
Expected<std::shared_ptr<const ir::Graph>> foldGraph(const ir::Graph& graph, const QStringList& prefixes);

// True when `node` of a folded graph is a folded box.
bool isFoldedNode(const ir::Node& node);

} // namespace embark::ui

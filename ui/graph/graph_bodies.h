// The bodies of control-flow nodes (If branches, Loop and Scan bodies) as the graph view steps
// into them: a path of (node, body attribute) steps from a stage's graph down to one body.
#pragma once

#include "ir/graph.h"

#include <QList>
#include <QString>

#include <memory>

namespace embark::ui {

struct BodyStep {
    QString node; // the If/Loop/Scan node in the enclosing graph
    QString attr; // its body: then_branch, else_branch, body
    bool operator==(const BodyStep&) const = default;
};
using BodyPath = QList<BodyStep>;

// The body graph `path` leads to from `graph` (`graph` itself for an empty path); null when a
// step names a node or body that is not there (another stage renamed it).
std::shared_ptr<const ir::Graph> bodyGraph(const std::shared_ptr<const ir::Graph>& graph, const BodyPath& path);

// The bodies of `node`, the branch a double-click opens first (then_branch before
// else_branch), as attribute names.
QStringList bodyNames(const ir::Node& node);

// The node named `name` inside a body of `graph`, at any depth (not `graph`'s own nodes), and
// the path to the body holding it; null when none has that name.
const ir::Node* findNodeInBodies(const ir::Graph& graph, const std::string& name, BodyPath* path = nullptr);

// "Loop 'recur' › body › If 'body_if' › then_branch", for the breadcrumb and Properties.
QString bodyPathText(const ir::Graph& graph, const BodyPath& path);

} // namespace embark::ui

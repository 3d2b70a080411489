#include "graph_bodies.h"

#include "session/qt_text.h"

namespace embark::ui {

std::shared_ptr<const ir::Graph> bodyGraph(const std::shared_ptr<const ir::Graph>& graph, const BodyPath& path) {
    std::shared_ptr<const ir::Graph> g = graph;
    for (const BodyStep& step : path) {
        if (!g) return nullptr;
        const ir::Node* node = g->findNode(step.node.toStdString());
        if (!node) return nullptr;
        std::shared_ptr<const ir::Graph> next;
        for (const ir::Subgraph& s : node->subgraphs)
            if (s.attr == step.attr.toStdString()) next = s.graph;
        g = next;
    }
    return g;
}

QStringList bodyNames(const ir::Node& node) {
    QStringList names;
    for (const ir::Subgraph& s : node.subgraphs)
        if (s.graph) names << QString::fromStdString(s.attr);
    // A double-click opens the first: the branch taken when the condition holds.
    if (names.removeAll(QStringLiteral("then_branch")) > 0) names.prepend(QStringLiteral("then_branch"));
    return names;
}

const ir::Node* findNodeInBodies(const ir::Graph& graph, const std::string& name, BodyPath* path) {
    for (const ir::Node* n : graph.nodes())
        for (const ir::Subgraph& s : n->subgraphs) {
            if (!s.graph) continue;
            BodyPath inner;
            const ir::Node* found = s.graph->findNode(name);
            if (!found) found = findNodeInBodies(*s.graph, name, &inner);
            if (!found) continue;
            if (path) {
                *path = BodyPath{{QString::fromStdString(n->name), QString::fromStdString(s.attr)}};
                *path += inner;
            }
            return found;
        }
    return nullptr;
}

QString bodyPathText(const ir::Graph& graph, const BodyPath& path) {
    QStringList parts;
    const ir::Graph* g = &graph;
    for (const BodyStep& step : path) {
        const ir::Node* node = g ? g->findNode(step.node.toStdString()) : nullptr;
        parts << (node ? QStringLiteral("%1 '%2'").arg(toQString(ir::opName(node->op)), step.node) : step.node)
              << step.attr;
        g = node ? node->subgraph(step.attr.toStdString()) : nullptr;
    }
    return parts.join(QStringLiteral(" \u203A "));
}

} // namespace embark::ui

#include "graph_folding.h"

#include <QCoreApplication>

#include <map>
#include <set>
#include <unordered_map>

namespace embark::ui {

QStringList modulePrefixes(const QString& nodeName) {
    QStringList out;
    for (qsizetype slash = nodeName.indexOf(QLatin1Char('/'), 1); slash > 0;
         slash = nodeName.indexOf(QLatin1Char('/'), slash + 1))
        out << nodeName.left(slash);
    return out;
}

bool isFoldedNode(const ir::Node& node) { return node.has(kFoldedAttr); }

Expected<std::shared_ptr<const ir::Graph>> foldGraph(const ir::Graph& graph, const QStringList& prefixes) {
    // Each node goes to the outermost listed prefix it is under.
    std::vector<std::string> sorted;
    for (const QString& p : prefixes) sorted.push_back(p.toStdString());
    std::sort(sorted.begin(), sorted.end(),
              [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
    std::unordered_map<const ir::Node*, std::string> groupOf;
    std::map<std::string, std::vector<const ir::Node*>> members;
    for (const ir::Node* n : graph.nodes())
        for (const std::string& p : sorted)
            if (n->name.size() > p.size() + 1 && n->name.compare(0, p.size(), p) == 0 && n->name[p.size()] == '/') {
                groupOf[n] = p;
                members[p].push_back(n);
                break;
            }
    // A node outside every module that only turns weights into a module's input (ONNX's
    // "Identity_12" of a BatchNorm scale) goes into that module's box too.
    for (const ir::Node* n : graph.nodes()) {
        if (groupOf.count(n)) continue;
        bool weightsOnly = !n->inputs().empty();
        for (const ir::Value* v : n->inputs()) weightsOnly = weightsOnly && (!v || v->isConstant());
        std::set<std::string> readers;
        bool used = false;
        for (const ir::Value* v : n->outputs()) {
            if (!v) continue;
            if (v->isGraphOutput()) readers.insert(std::string());
            for (const ir::Use& u : v->uses()) {
                used = true;
                auto g = groupOf.find(u.node);
                readers.insert(g == groupOf.end() ? std::string() : g->second);
            }
        }
        if (weightsOnly && used && readers.size() == 1 && !readers.begin()->empty()) {
            groupOf[n] = *readers.begin();
            members[*readers.begin()].push_back(n);
        }
    }
    for (auto it = members.begin(); it != members.end();) { // one node is no fold
        if (it->second.size() < 2) {
            groupOf.erase(it->second.front());
            it = members.erase(it);
        } else {
            ++it;
        }
    }

    auto out = std::make_shared<ir::Graph>();
    out->name = graph.name;
    std::unordered_map<const ir::Value*, ir::Value*> mapped;
    auto map = [&](const ir::Value* v) -> ir::Value* {
        if (!v) return nullptr;
        if (auto it = mapped.find(v); it != mapped.end()) return it->second;
        ir::Value* copy =
            v->isConstant() ? out->addConstant(v->name, v->constant) : out->addValue(v->name, v->dtype, v->shape);
        mapped[v] = copy;
        return copy;
    };
    for (const ir::Value* v : graph.inputs()) out->addInput(map(v));
    std::set<std::string> emitted;
    for (const ir::Node* n : graph.nodes()) {
        auto g = groupOf.find(n);
        if (g == groupOf.end()) {
            std::vector<ir::Value*> ins, outs;
            for (const ir::Value* v : n->inputs()) ins.push_back(map(v));
            for (const ir::Value* v : n->outputs()) outs.push_back(map(v));
            ir::Node* copy = out->addNode(n->op, n->name, ins, outs);
            copy->attrs = n->attrs;
            copy->provenance = n->provenance;
            continue;
        }
        if (!emitted.insert(g->second).second) continue;
        // The box: the values its nodes read from outside (not weights) and those read outside.
        const std::vector<const ir::Node*>& group = members.at(g->second);
        std::set<const ir::Node*> inGroup(group.begin(), group.end());
        std::vector<ir::Value*> ins, outs;
        std::set<const ir::Value*> seenIn, seenOut;
        std::vector<std::string> provenance;
        for (const ir::Node* m : group) {
            for (const ir::Value* v : m->inputs()) {
                if (!v || v->isConstant() || (v->producer() && inGroup.count(v->producer()))) continue;
                if (seenIn.insert(v).second) ins.push_back(map(v));
            }
            for (const ir::Value* v : m->outputs()) {
                if (!v) continue;
                bool outside = v->isGraphOutput();
                for (const ir::Use& u : v->uses()) outside = outside || !inGroup.count(u.node);
                if (outside && seenOut.insert(v).second) outs.push_back(map(v));
            }
            if (m->provenance.empty()) provenance.push_back(m->name);
            provenance.insert(provenance.end(), m->provenance.begin(), m->provenance.end());
        }
        ir::Node* box = out->addNode(ir::OpKind::Identity, g->second, ins, outs);
        box->attrs[kFoldedAttr] = int64_t(group.size());
        box->provenance = std::move(provenance);
    }
    for (const ir::Value* v : graph.outputs()) out->addOutput(map(v));
    if (Status sorted = out->topoSort(); !sorted.ok())
        return makeError(ErrorKind::InvalidInput,
                         QCoreApplication::translate("GraphFolding",
                                                     "Cannot fold these modules: another node runs between their nodes "
                                                     "(%1). Expand one of them first.")
                             .arg(QString::fromStdString(sorted.error().message))
                             .toStdString());
    return std::shared_ptr<const ir::Graph>(std::move(out));
}

} // namespace embark::ui

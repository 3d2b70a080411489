#include "graph_partitions.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <set>

namespace embark::ui {

RunPartitions partitionsFromExtra(const QJsonObject& extra) {
    RunPartitions p;
    if (!extra.value(QStringLiteral("subgraphs")).isArray()) return p;
    const QJsonArray subgraphs = extra.value(QStringLiteral("subgraphs")).toArray();
    const QJsonValue dump =
        extra.value(QStringLiteral("ep_options")).toObject().value(QStringLiteral("SPACEMIT_EP_DUMP_SUBGRAPHS"));
    const bool dumped = dump.toString() == QLatin1String("1") || dump.toInt() == 1 || dump.toBool();
    // A run that asked for the subgraphs and got none ran everything on the CPU provider.
    if (subgraphs.isEmpty() && !dumped) return p;
    p.valid = true;
    p.ep = extra.value(QStringLiteral("ep")).toString();
    for (const QJsonValue& v : subgraphs) {
        const QJsonObject s = v.toObject();
        const int k = int(p.files.size());
        p.files << s.value(QStringLiteral("file")).toString();
        for (const QJsonValue& n : s.value(QStringLiteral("nodes")).toArray())
            if (!p.subgraphOf.contains(n.toString())) p.subgraphOf.insert(n.toString(), k);
    }
    return p;
}

int partitionOfNode(const RunPartitions& partitions, const ir::Node& node, const QSet<QString>& modelNodes) {
    std::set<int> where;
    auto add = [&](const QString& origin) {
        if (!modelNodes.contains(origin) && !partitions.subgraphOf.contains(origin)) return; // not an ONNX node
        where.insert(partitions.subgraphOf.value(origin, kCpuFallback));
    };
    for (const std::string& p : node.provenance) add(QString::fromStdString(p));
    if (node.provenance.empty()) add(QString::fromStdString(node.name));
    if (where.empty()) return kNotInModel;
    return where.size() == 1 ? *where.begin() : kSplitPartitions;
}

QString partitionLabel(const RunPartitions& partitions, int partition) {
    switch (partition) {
    case kCpuFallback: return QCoreApplication::translate("GraphPartitions", "CPU provider (fallback)");
    case kSplitPartitions: return QCoreApplication::translate("GraphPartitions", "split between partitions");
    case kNotInModel: return QCoreApplication::translate("GraphPartitions", "not an ONNX node (added by Embark)");
    default: break;
    }
    if (partitions.ep.isEmpty())
        return QCoreApplication::translate("GraphPartitions", "EP subgraph %1").arg(partition + 1);
    return QCoreApplication::translate("GraphPartitions", "EP subgraph %1 (%2)").arg(partition + 1).arg(partitions.ep);
}

int fallbackNodeCount(const RunPartitions& partitions, const QSet<QString>& modelNodes) {
    int n = 0;
    for (const QString& name : modelNodes) n += partitions.subgraphOf.contains(name) ? 0 : 1;
    return n;
}

QSet<QString> nodeNames(const ir::Graph& graph) {
    QSet<QString> names;
    for (const ir::Node* n : graph.nodes()) names.insert(QString::fromStdString(n->name));
    return names;
}

} // namespace embark::ui

// ONNX Runtime's partitions of a run (issue 17): with SPACEMIT_EP_DUMP_SUBGRAPHS=1 the EP
// dumps the subgraph models it compiled, and the run stores the nodes each holds ("subgraphs":
// [{"file", "nodes"}] in its extra data); every other node of the model fell back to ORT's CPU
// provider. The graph view colours nodes by partition and Properties names a node's.
#pragma once

#include "ir/graph.h"

#include <QHash>
#include <QJsonObject>
#include <QSet>
#include <QString>
#include <QStringList>

namespace embark::ui {

struct RunPartitions {
    bool valid = false;             // the run dumped its subgraphs (SPACEMIT_EP_DUMP_SUBGRAPHS=1)
    QString ep;                     // the execution provider ("spacemit")
    QStringList files;              // the subgraph models, in the order the run stored them
    QHash<QString, int> subgraphOf; // ONNX node name -> subgraph index (0-based)
    int subgraphCount() const { return int(files.size()); }
};

// From a stored run's extra data; not valid for runs without subgraph information (exports,
// host ONNX Runtime runs, SpacemiT runs without SPACEMIT_EP_DUMP_SUBGRAPHS=1).
RunPartitions partitionsFromExtra(const QJsonObject& extra);

// Where a node ran: subgraph k (>= 0), or one of these.
enum PartitionKind : int { kCpuFallback = -1, kSplitPartitions = -2, kNotInModel = -3 };
// A node of any stage, through its original ONNX nodes (provenance; itself when it has none):
// all in subgraph k, all on the CPU provider, split between partitions, or none of them in
// the model (`modelNodes`: the imported graph's node names; a layout conversion Embark added).
int partitionOfNode(const RunPartitions& partitions, const ir::Node& node, const QSet<QString>& modelNodes);
// "EP subgraph 2 (spacemit)", "CPU provider (fallback)", "split between partitions", ...
QString partitionLabel(const RunPartitions& partitions, int partition);
// The model's nodes that fell back to the CPU provider.
int fallbackNodeCount(const RunPartitions& partitions, const QSet<QString>& modelNodes);
QSet<QString> nodeNames(const ir::Graph& graph);

} // namespace embark::ui

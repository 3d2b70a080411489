// The properties of the selected node: op, attributes, input/output shapes, weight
// statistics, the kernel library that runs it and why, and its ONNX provenance.
#pragma once

#include "graph_partitions.h"

#include <QHash>
#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace embark::ui {

class StudioSession;

class PropertiesPanel : public QWidget {
    Q_OBJECT
public:
    explicit PropertiesPanel(StudioSession* session, QWidget* parent = nullptr);
    QTreeWidget* tree() const { return m_tree; }
    // A run's per-layer figure (time, error) keyed by node names of the last stage, as given
    // to StagesView::setNodeMetric; shown for the selected node (an original node shows the
    // figure of the fused node it became). An empty map removes the section.
    void setNodeMetric(const QHash<QString, double>& values, const QString& label);
    // Several figures at once (time, error, memory in use), each shown for the selected node.
    struct Figure {
        QString label;
        QHash<QString, double> values; // by node name of the last stage
        bool bytes = false;            // written as a data size
    };
    void setNodeFigures(const QList<Figure>& figures);
    // The partitions of the ONNX Runtime run shown: the selected node's partition (EP
    // subgraph k, or the CPU provider it fell back to) in its own section. Not valid: none.
    void setPartitions(const RunPartitions& partitions);
    // A folded module of `stage` selected: its name, how many nodes of which ops it holds,
    // their MACs, and the nodes (instead of the first node's properties).
    void showModule(int stage, const QString& prefix, const QStringList& nodes);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showNode(int stage, const QString& node);
    void fill(int stage, const QString& node);
    void fitKeyColumn();
    QTreeWidgetItem* section(const QString& title);

    StudioSession* m_session;
    QTreeWidget* m_tree;
    QList<Figure> m_figures;
    QString m_metricModel; // the model the figures are for
    RunPartitions m_partitions;
    QString m_partitionModel; // the model the partitions are for
};

} // namespace embark::ui

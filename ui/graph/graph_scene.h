// A QGraphicsScene showing one ir::Graph: node and edge items placed by core/graphdraw, the
// layout computed on a worker thread so large models never freeze the window.
#pragma once

#include "session/library_assignment.h"

#include "ir/graph.h"

#include <QColor>
#include <QFutureWatcher>
#include <QGraphicsScene>
#include <QHash>
#include <QSet>

#include <memory>
#include <optional>

namespace embark::graphdraw {
struct LayoutResult;
}

namespace embark::ui {

class NodeItem;

// How a per-node figure is scaled and written: errors span decades (a log scale), memory is
// in bytes (written as "1.2 MiB").
// An error with a tolerance (> 0) is coloured against it, not against the figures' own
// range: green shades up to the tolerance, orange to deep red for 1 to 100 times above it.
struct MetricStyle {
    bool logScale = false;
    bool bytes = false;
    double tolerance = 0;
};

// What the node colours of a scene mean, for the legend beside it.
struct GraphLegend {
    struct Entry {
        QColor color;
        QString label;
        int count = 0; // nodes with this colour (0 for the steps of a metric scale)
    };
    QString title; // "Colour: op category", "Colour: kernel library", "Colour: time (ms)"
    QList<Entry> entries;
};

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    // Starts the layout; layoutReady() fires when the items are in place. A graph set while
    // an older layout runs supersedes it. `origin` (the imported graph) names the ops a fused
    // node absorbed, from its provenance; without it the badge lists the original node names.
    void setGraph(std::shared_ptr<const ir::Graph> graph, std::shared_ptr<const ir::Graph> origin = {});
    const ir::Graph* graph() const { return m_graph.get(); }
    bool isLayoutPending() const { return m_pending; }
    QString layoutError() const { return m_layoutError; }

    // Colour by library when assignments are given (empty: by op category).
    void setAssignments(const LibraryAssignments& assignments);
    // Colour by a per-node figure (a run's per-layer time or error) instead, on a light-to-
    // dark scale; nodes without a figure are grey. An empty map goes back to category or
    // library colours. `label` names the figure and its unit for the legend ("time (ms)").
    void setNodeMetric(const QHash<QString, double>& values, const QString& label, MetricStyle style = {});
    // Colour by classes (a graph diff: added, removed, fused, rewritten) instead: `classOf`
    // gives a node's index into `classes`; other nodes get the last class. An empty map goes
    // back to the other colours. Takes precedence over a metric.
    struct NodeClass {
        QString label;
        QColor color;
    };
    void setNodeClasses(const QHash<QString, int>& classOf, const QList<NodeClass>& classes, const QString& title);
    int nodeClass(const QString& name) const { return m_classOf.value(name, -1); }
    // The figure as the legend and the node badges write it.
    QString formatMetric(double value) const;
    MetricStyle metricStyle() const { return m_metricStyle; }
    bool hasNodeMetric() const { return !m_metric.isEmpty(); }
    std::optional<double> nodeMetric(const QString& name) const;
    QString nodeMetricLabel() const { return m_metricLabel; }
    const GraphLegend& legend() const { return m_legend; }

    NodeItem* nodeItem(const QString& name) const { return m_items.value(name); }
    QStringList nodeNames() const; // IR nodes shown, in graph order
    int edgeCount() const { return m_edgeCount; }
    // The ops (or original node names) a fused node absorbed; empty for others.
    QStringList absorbedOps(const QString& name) const { return m_absorbed.value(name); }
    // The scene rectangle around the named nodes (null when none is shown).
    QRectF nodesRect(const QStringList& names) const;

    // Selects one node (clears the selection for an empty name) without echoing it back.
    void selectNode(const QString& name);
    QString selectedNode() const;
    void setLinkedNodes(const QStringList& names);
    QStringList linkedNodes() const;
    // Nodes whose name or op contains `text` (case-insensitive), in graph order; marks them.
    QStringList findNodes(const QString& text);

signals:
    void layoutReady();
    // The user selected a node (empty: cleared the selection).
    void nodeSelected(const QString& name);
    // The colours changed meaning or value (new graph, assignments, metric, palette).
    void legendChanged();

protected:
    bool event(QEvent* e) override;

private:
    struct Pending;
    void onLayoutFinished();
    void recolor();
    // Removes every item without reporting a selection change (see the .cpp).
    void clearItems();

    std::shared_ptr<const ir::Graph> m_graph;
    std::unique_ptr<Pending> m_pendingData;
    QFutureWatcher<void>* m_watcher = nullptr;
    int m_generation = 0;
    bool m_pending = false;
    bool m_applyingSelection = false;
    QString m_layoutError;
    QHash<QString, NodeItem*> m_items;
    QHash<QString, ir::OpCategory> m_categories;
    QSet<QString> m_folded; // folded module nodes
    QHash<QString, QStringList> m_absorbed;
    QStringList m_order;
    int m_edgeCount = 0;
    LibraryAssignments m_assignments;
    QHash<QString, double> m_metric;
    QString m_metricLabel;
    MetricStyle m_metricStyle;
    QHash<QString, int> m_classOf;
    QList<NodeClass> m_classes;
    QString m_classTitle;
    GraphLegend m_legend;
};

} // namespace embark::ui

// A QGraphicsScene showing one ir::Graph: node and edge items placed by core/layout, the
// layout computed on a worker thread so large models never freeze the window.
#pragma once

#include "session/library_assignment.h"

#include "ir/graph.h"

#include <QFutureWatcher>
#include <QGraphicsScene>
#include <QHash>

#include <memory>

namespace embark::layout {
struct LayoutResult;
}

namespace embark::ui {

class NodeItem;

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    // Starts the layout; layoutReady() fires when the items are in place. A graph set while
    // an older layout runs supersedes it.
    void setGraph(std::shared_ptr<const ir::Graph> graph);
    const ir::Graph* graph() const { return m_graph.get(); }
    bool isLayoutPending() const { return m_pending; }
    QString layoutError() const { return m_layoutError; }

    // Colour by library when assignments are given (empty: by op category).
    void setAssignments(const LibraryAssignments& assignments);

    NodeItem* nodeItem(const QString& name) const { return m_items.value(name); }
    QStringList nodeNames() const; // IR nodes shown, in graph order
    int edgeCount() const { return m_edgeCount; }

    // Selects one node (clears the selection for an empty name) without echoing it back.
    void selectNode(const QString& name);
    QString selectedNode() const;
    void setLinkedNodes(const QStringList& names);
    // Nodes whose name or op contains `text` (case-insensitive), in graph order; marks them.
    QStringList findNodes(const QString& text);

signals:
    void layoutReady();
    // The user selected a node (empty: cleared the selection).
    void nodeSelected(const QString& name);

protected:
    bool event(QEvent* e) override;

private:
    struct Pending;
    void onLayoutFinished();
    void recolor();

    std::shared_ptr<const ir::Graph> m_graph;
    std::unique_ptr<Pending> m_pendingData;
    QFutureWatcher<void>* m_watcher = nullptr;
    int m_generation = 0;
    bool m_pending = false;
    bool m_applyingSelection = false;
    QString m_layoutError;
    QHash<QString, NodeItem*> m_items;
    QStringList m_order;
    int m_edgeCount = 0;
    LibraryAssignments m_assignments;
};

} // namespace embark::ui

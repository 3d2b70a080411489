// The graph canvas and its search bar: pan by dragging, zoom with the wheel, fit, find nodes
// by name or op, and a context menu on nodes for kernel-library overrides.
#pragma once

#include <QGraphicsView>
#include <QWidget>

class QLineEdit;
class QLabel;

namespace embark::ui {

class GraphScene;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(GraphScene* scene, QWidget* parent = nullptr);
    GraphScene* graphScene() const { return m_scene; }
    void fitAll();
    void zoomBy(double factor);
    void centerOnNode(const QString& name);

signals:
    void nodeContextMenuRequested(const QString& node, const QPoint& globalPos);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    GraphScene* m_scene;
};

// A view with a search bar above it (Ctrl+F focuses it; Enter jumps to the next match).
class GraphPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphPanel(QWidget* parent = nullptr);
    GraphScene* scene() const { return m_scene; }
    GraphView* view() const { return m_view; }
    QLineEdit* searchField() const { return m_search; }
    void focusSearch();
    // Selects and centres the next match of the search text; returns the matches.
    QStringList findNext();

private:
    GraphScene* m_scene;
    GraphView* m_view;
    QLineEdit* m_search;
    QLabel* m_matches;
    QStringList m_found;
    int m_foundIndex = -1;
};

} // namespace embark::ui

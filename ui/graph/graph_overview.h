// The overview (minimap) in a corner of a graph view: every node as a small box in its
// colour, the visible area as a frame; clicking or dragging moves the view there.
#pragma once

#include <QWidget>

namespace embark::ui {

class GraphView;

class GraphOverview : public QWidget {
    Q_OBJECT
public:
    explicit GraphOverview(GraphView* view);
    // Follows the view's size and hides itself when the whole graph is already in view.
    void reposition();
    // Scene to overview coordinates (for tests and painting).
    QTransform sceneToOverview() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    void moveViewTo(const QPointF& pos);
    GraphView* m_view;
};

} // namespace embark::ui

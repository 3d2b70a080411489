// The graph canvas and its search bar: pan by dragging, zoom with the wheel (anchored under
// the cursor), fit, zoom to the selection, an overview in the corner, a legend of the node
// colours, find nodes by name or op and step through the matches, and a context menu on
// nodes for kernel-library overrides.
#pragma once

#include <QGraphicsView>
#include <QWidget>

#include <functional>

class QLineEdit;
class QLabel;
class QToolButton;

namespace embark::ui {

class GraphOverview;
class GraphScene;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(GraphScene* scene, QWidget* parent = nullptr);
    GraphScene* graphScene() const { return m_scene; }

    // The whole graph in view.
    void fitAll();
    // What a freshly opened graph shows: fitted when that stays readable, else its top
    // (the graph inputs) at a readable zoom. Re-applied on resize until the user moves.
    void showInitial();
    // Zoom about the viewport centre, or keeping the scene point under `viewPos` in place.
    void zoomBy(double factor);
    void zoomAt(double factor, const QPointF& viewPos);
    // The scale of the view (1 = scene units are pixels), and its bounds: the smallest
    // always lets the whole graph fit with room to spare.
    double zoom() const;
    double minZoom() const;
    static constexpr double kMaxZoom = 8;
    static constexpr double kReadableZoom = 0.55;
    void centerOnNode(const QString& name);
    void centerOnScenePoint(const QPointF& point);
    // Frames the named nodes (a selection, a rewrite's nodes), zooming out if they do not fit
    // and in no further than 1:1. Returns false when none is shown.
    bool zoomToNodes(const QStringList& names);
    // The selected node and the nodes linked to it.
    bool zoomToSelection();

    GraphOverview* overview() const { return m_overview; }
    void setOverviewEnabled(bool on);
    bool isOverviewEnabled() const { return m_overviewEnabled; }
    // The part of the scene on screen.
    QRectF visibleSceneRect() const;

signals:
    void nodeContextMenuRequested(const QString& node, const QPoint& globalPos);
    // A node was double-clicked (a folded module expands, a control-flow node opens its body).
    void nodeDoubleClicked(const QString& node);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

public:
    void setZoom(double zoom);

private:
    void userMoved() { m_autoView = false; }

    GraphScene* m_scene;
    GraphOverview* m_overview;
    bool m_autoView = true; // no user zoom/pan since the graph arrived: resizes re-apply it
    bool m_overviewEnabled = true;
};

// A view with a search bar above it (Ctrl+F focuses it; Enter jumps to the next match,
// Shift+Enter to the previous one) and a legend of what the node colours mean.
class GraphPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphPanel(QWidget* parent = nullptr);
    GraphScene* scene() const { return m_scene; }
    GraphView* view() const { return m_view; }
    QLineEdit* searchField() const { return m_search; }
    QLabel* matchLabel() const { return m_matches; }
    QLabel* legendLabel() const { return m_legend; }
    void focusSearch();
    // Selects and centres the next (previous) match of the search text; returns the matches.
    QStringList findNext();
    QStringList findPrevious();
    int currentMatch() const { return m_foundIndex; } // -1 before the first step
    // Search also reaches nodes the scene does not show (inside a folded module): `find`
    // returns those matching a text. Stepping onto one emits revealRequested() for the owner
    // to show it (expand its module) and select it.
    void setHiddenNodeSearch(std::function<QStringList(const QString&)> find) { m_findHidden = std::move(find); }

signals:
    void revealRequested(const QString& node);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QStringList step(int delta);
    QStringList matches() const;
    void updateMatchLabel();
    void updateLegend();

    GraphScene* m_scene;
    GraphView* m_view;
    QLineEdit* m_search;
    QLabel* m_matches;
    QLabel* m_legend;
    QStringList m_found;
    int m_foundIndex = -1;
    std::function<QStringList(const QString&)> m_findHidden;
};

} // namespace embark::ui

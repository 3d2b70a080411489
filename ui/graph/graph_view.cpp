#include "graph_view.h"

#include "graph_overview.h"
#include "graph_scene.h"
#include "node_item.h"

#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace embark::ui {

GraphView::GraphView(GraphScene* scene, QWidget* parent) : QGraphicsView(scene, parent), m_scene(scene) {
    setDragMode(ScrollHandDrag);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    // Zooming anchors itself (zoomAt): Qt's AnchorUnderMouse uses the last mouse-move point,
    // which a wheel over a still pointer or a scroll in between makes stale.
    setTransformationAnchor(NoAnchor);
    setResizeAnchor(AnchorViewCenter);
    setViewportUpdateMode(SmartViewportUpdate);
    setBackgroundRole(QPalette::Base);
    m_overview = new GraphOverview(this);
    connect(scene, &GraphScene::layoutReady, this, [this] {
        m_autoView = true;
        showInitial();
    });
}

double GraphView::zoom() const { return transform().m11(); }

double GraphView::minZoom() const {
    const QRectF r = sceneRect();
    const QSize port = viewport()->size();
    if (r.isEmpty() || port.isEmpty()) return 0.05;
    const double fit = std::min(port.width() / r.width(), port.height() / r.height());
    return std::min(0.05, fit * 0.5);
}

void GraphView::setZoom(double zoom) { setTransform(QTransform::fromScale(zoom, zoom)); }

QRectF GraphView::visibleSceneRect() const { return mapToScene(viewport()->rect()).boundingRect(); }

void GraphView::fitAll() {
    if (!scene() || m_scene->nodeNames().isEmpty()) return;
    const QRectF r = sceneRect();
    const QSize port = viewport()->size();
    if (r.isEmpty() || port.width() < 2 || port.height() < 2) return;
    // fitInView() keeps a margin that grows with the scale; compute the scale ourselves so
    // the whole rectangle is in view at any size.
    const double fit = std::min((port.width() - 4) / r.width(), (port.height() - 4) / r.height());
    setZoom(std::clamp(fit, minZoom(), kMaxZoom));
    centerOn(r.center());
    m_overview->reposition();
}

void GraphView::showInitial() {
    const QRectF r = sceneRect();
    const QSize port = viewport()->size();
    if (!scene() || m_scene->nodeNames().isEmpty() || r.isEmpty() || port.width() < 2 || port.height() < 2) return;
    const double fit = std::min((port.width() - 4) / r.width(), (port.height() - 4) / r.height());
    if (fit >= kReadableZoom) {
        setZoom(std::min(fit, 1.0)); // a small graph is shown at 1:1, not blown up
        centerOn(r.center());
    } else {
        // Too big to read fitted: its top at a readable zoom, centred on the topmost node
        // (a graph input) so the first thing shown is where the data enters, never blank.
        setZoom(kReadableZoom);
        const QGraphicsItem* top = nullptr;
        for (QGraphicsItem* item : items()) {
            if (!dynamic_cast<NodeItem*>(item)) continue;
            if (!top || item->sceneBoundingRect().top() < top->sceneBoundingRect().top() - 1 ||
                (std::abs(item->sceneBoundingRect().top() - top->sceneBoundingRect().top()) <= 1 &&
                 item->x() < top->x()))
                top = item;
        }
        const double halfHeight = port.height() / 2.0 / kReadableZoom;
        centerOn(top ? top->x() : r.center().x(), r.top() + halfHeight);
    }
    m_autoView = true;
    m_overview->reposition();
}

void GraphView::zoomBy(double factor) { zoomAt(factor, QRectF(viewport()->rect()).center()); }

void GraphView::zoomAt(double factor, const QPointF& viewPos) {
    const double target = std::clamp(zoom() * factor, minZoom(), kMaxZoom);
    if (std::abs(target - zoom()) < 1e-9) return;
    userMoved();
    const QPointF anchor = viewportTransform().inverted().map(viewPos);
    setZoom(target);
    // Scroll so the anchor's scene point is back under viewPos (as far as the scroll range
    // allows: a graph smaller than the view is centred by Qt).
    const QPointF drift = viewportTransform().map(anchor) - viewPos;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + int(std::lround(drift.x())));
    verticalScrollBar()->setValue(verticalScrollBar()->value() + int(std::lround(drift.y())));
    m_overview->reposition();
}

void GraphView::centerOnNode(const QString& name) {
    if (NodeItem* item = m_scene->nodeItem(name)) {
        userMoved();
        centerOn(item);
    }
}

void GraphView::centerOnScenePoint(const QPointF& point) {
    userMoved();
    centerOn(point);
}

bool GraphView::zoomToNodes(const QStringList& names) {
    const QRectF r = m_scene->nodesRect(names).adjusted(-30, -30, 30, 30);
    if (r.isNull()) return false;
    userMoved();
    const QSize port = viewport()->size();
    const double fit = std::min(port.width() / r.width(), port.height() / r.height());
    setZoom(std::clamp(std::min(fit, 1.0), minZoom(), kMaxZoom));
    centerOn(r.center());
    m_overview->reposition();
    return true;
}

bool GraphView::zoomToSelection() {
    QStringList names = m_scene->linkedNodes();
    const QString selected = m_scene->selectedNode();
    if (!selected.isEmpty()) names.prepend(selected);
    return zoomToNodes(names);
}

void GraphView::setOverviewEnabled(bool on) {
    m_overviewEnabled = on;
    m_overview->reposition();
}

void GraphView::wheelEvent(QWheelEvent* event) {
    if (event->angleDelta().y() == 0) return QGraphicsView::wheelEvent(event);
    // 120 per notch; touchpads send smaller steps.
    zoomAt(std::pow(1.15, event->angleDelta().y() / 120.0), event->position());
    event->accept();
}

void GraphView::mousePressEvent(QMouseEvent* event) {
    userMoved();
    QGraphicsView::mousePressEvent(event);
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    if (m_autoView) showInitial();
    m_overview->reposition();
}

void GraphView::showEvent(QShowEvent* event) {
    QGraphicsView::showEvent(event);
    if (m_autoView) showInitial();
}

void GraphView::scrollContentsBy(int dx, int dy) {
    QGraphicsView::scrollContentsBy(dx, dy);
    // Scrolling the viewport moves its child widgets too: put the overview back in its corner
    // (a click in it scrolls, and would otherwise carry it off screen).
    m_overview->reposition();
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
    for (QGraphicsItem* item = itemAt(event->position().toPoint()); item; item = item->parentItem()) {
        auto* node = dynamic_cast<NodeItem*>(item);
        if (!node || node->kind() != NodeItem::Kind::Node) continue;
        event->accept();
        emit nodeDoubleClicked(node->name());
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphView::contextMenuEvent(QContextMenuEvent* event) {
    for (QGraphicsItem* item = itemAt(event->pos()); item; item = item->parentItem()) {
        auto* node = dynamic_cast<NodeItem*>(item);
        if (!node || node->kind() != NodeItem::Kind::Node) continue;
        m_scene->selectNode(node->name());
        emit m_scene->nodeSelected(node->name());
        emit nodeContextMenuRequested(node->name(), event->globalPos());
        return;
    }
}

GraphPanel::GraphPanel(QWidget* parent) : QWidget(parent) {
    m_scene = new GraphScene(this);
    m_view = new GraphView(m_scene, this);
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Find node by name or op (Ctrl+F)"));
    m_search->setToolTip(tr("Enter: next match, Shift+Enter: previous match"));
    m_search->setClearButtonEnabled(true);
    m_search->installEventFilter(this);
    m_matches = new QLabel(this);
    auto button = [this](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    QToolButton* previous = button(QStringLiteral("\u25B2"), tr("Previous match (Shift+Enter)"));
    QToolButton* next = button(QStringLiteral("\u25BC"), tr("Next match (Enter)"));
    QToolButton* toSelection = button(tr("Selection"), tr("Zoom to the selected and linked nodes"));
    QToolButton* fit = button(tr("Fit"), tr("Show the whole graph"));
    QToolButton* overview = button(tr("Overview"), tr("Show or hide the overview of the graph"));
    overview->setCheckable(true);
    overview->setChecked(true);
    m_legend = new QLabel(this);
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->setSpacing(2);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_matches);
    bar->addWidget(previous);
    bar->addWidget(next);
    bar->addWidget(toSelection);
    bar->addWidget(fit);
    bar->addWidget(overview);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    connect(m_search, &QLineEdit::textChanged, this, [this] {
        m_foundIndex = -1;
        m_found = matches();
        updateMatchLabel();
    });
    connect(m_search, &QLineEdit::returnPressed, this, &GraphPanel::findNext);
    connect(previous, &QToolButton::clicked, this, &GraphPanel::findPrevious);
    connect(next, &QToolButton::clicked, this, &GraphPanel::findNext);
    connect(toSelection, &QToolButton::clicked, m_view, &GraphView::zoomToSelection);
    connect(fit, &QToolButton::clicked, m_view, &GraphView::fitAll);
    connect(overview, &QToolButton::toggled, m_view, &GraphView::setOverviewEnabled);
    connect(m_scene, &GraphScene::layoutReady, this, [this] {
        // A new layout after a reveal keeps the step it was at.
        const QString current =
            m_foundIndex >= 0 && m_foundIndex < m_found.size() ? m_found.at(m_foundIndex) : QString();
        m_found = matches();
        m_foundIndex = current.isEmpty() ? -1 : int(m_found.indexOf(current));
        updateMatchLabel();
    });
    connect(m_scene, &GraphScene::legendChanged, this, &GraphPanel::updateLegend);
    updateLegend();
}

void GraphPanel::focusSearch() {
    m_search->setFocus();
    m_search->selectAll();
}

bool GraphPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && (key->modifiers() & Qt::ShiftModifier)) {
            findPrevious();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QStringList GraphPanel::findNext() { return step(+1); }
QStringList GraphPanel::findPrevious() { return step(-1); }

QStringList GraphPanel::matches() const {
    QStringList found = m_scene->findNodes(m_search->text());
    if (m_findHidden && !m_search->text().isEmpty())
        for (const QString& name : m_findHidden(m_search->text()))
            if (!found.contains(name)) found << name;
    return found;
}

QStringList GraphPanel::step(int delta) {
    m_found = matches();
    if (m_found.isEmpty()) {
        m_foundIndex = -1;
        updateMatchLabel();
        return m_found;
    }
    const int n = int(m_found.size());
    m_foundIndex = m_foundIndex < 0 ? (delta > 0 ? 0 : n - 1) : ((m_foundIndex + delta) % n + n) % n;
    const QString name = m_found.at(m_foundIndex);
    if (!m_scene->nodeItem(name)) { // inside a folded module: its owner shows it
        updateMatchLabel();
        emit revealRequested(name);
        return m_found;
    }
    m_scene->selectNode(name);
    emit m_scene->nodeSelected(name);
    m_view->centerOnNode(name);
    updateMatchLabel();
    return m_found;
}

void GraphPanel::updateMatchLabel() {
    if (m_search->text().isEmpty())
        m_matches->clear();
    else if (m_found.isEmpty())
        m_matches->setText(tr("no match"));
    else if (m_foundIndex < 0)
        m_matches->setText(tr("%n match(es)", nullptr, int(m_found.size())));
    else
        m_matches->setText(tr("%1 of %2").arg(m_foundIndex + 1).arg(m_found.size()));
}

void GraphPanel::updateLegend() {
    const GraphLegend& legend = m_scene->legend();
    if (legend.entries.isEmpty()) {
        m_legend->clear();
        m_legend->setToolTip({});
        return;
    }
    QString html = QStringLiteral("<b>%1</b>").arg(legend.title.toHtmlEscaped());
    for (const GraphLegend::Entry& e : legend.entries) {
        html += QStringLiteral(" &nbsp;<span style=\"background-color:%1; color:%1\">&#9632;&#9632;</span>&nbsp;%2")
                    .arg(e.color.name(), e.label.toHtmlEscaped());
        if (e.count > 0) html += QStringLiteral("&nbsp;(%1)").arg(e.count);
    }
    m_legend->setText(html);
    m_legend->setToolTip(tr("What the node colours mean. A folded corner and a \"+ ...\" line mark a fused node "
                            "and the ops it absorbed."));
}

} // namespace embark::ui

#include "graph_overview.h"

#include "graph_scene.h"
#include "graph_view.h"
#include "node_item.h"

#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

namespace embark::ui {

namespace {
constexpr int kMaxSide = 170; // px: the overview's longer side
constexpr int kMargin = 8;
} // namespace

GraphOverview::GraphOverview(GraphView* view) : QWidget(view->viewport()), m_view(view) {
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
    setAttribute(Qt::WA_NoMousePropagation);
    for (QScrollBar* bar : {view->horizontalScrollBar(), view->verticalScrollBar()})
        connect(bar, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    connect(view->graphScene(), &GraphScene::legendChanged, this, qOverload<>(&QWidget::update));
    hide();
}

QTransform GraphOverview::sceneToOverview() const {
    const QRectF scene = m_view->sceneRect();
    if (scene.isEmpty()) return {};
    const double s = std::min((width() - 4) / scene.width(), (height() - 4) / scene.height());
    return QTransform::fromTranslate(-scene.left(), -scene.top()) * QTransform::fromScale(s, s) *
           QTransform::fromTranslate(2, 2);
}

void GraphOverview::reposition() {
    const QRectF scene = m_view->sceneRect();
    const QRect port = m_view->viewport()->rect();
    const QRectF visible = m_view->mapToScene(port).boundingRect();
    const bool needed = !scene.isEmpty() && !m_view->graphScene()->nodeNames().isEmpty() &&
                        !visible.contains(scene.adjusted(30, 30, -30, -30)) && m_view->isOverviewEnabled();
    if (!needed) {
        hide();
        return;
    }
    // At most a fifth of the view wide and a third tall, keeping the scene's proportions.
    const double s = std::min({double(kMaxSide) / std::max(scene.width(), scene.height()),
                               port.width() / 5.0 / scene.width(), port.height() / 3.0 / scene.height()});
    const QSize size(std::max(24, int(scene.width() * s) + 4), std::max(24, int(scene.height() * s) + 4));
    setGeometry(port.width() - size.width() - kMargin, port.height() - size.height() - kMargin, size.width(),
                size.height());
    show();
    raise();
    update();
}

void GraphOverview::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QPalette pal = palette();
    QColor back = pal.color(QPalette::Window);
    back.setAlpha(225);
    p.fillRect(rect(), back);
    p.setPen(pal.color(QPalette::Mid));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    const QTransform t = sceneToOverview();
    GraphScene* scene = m_view->graphScene();
    p.setPen(Qt::NoPen);
    // Boxes only, no text or edges: cheap for a thousand nodes on every scroll.
    for (const QString& name : scene->nodeNames()) {
        NodeItem* item = scene->nodeItem(name);
        if (!item) continue;
        QRectF r = t.mapRect(item->sceneBoundingRect());
        if (r.width() < 2) r.setWidth(2);
        if (r.height() < 1.5) r.setHeight(1.5);
        p.setBrush(item->isSelected() || item->isLinked() ? pal.color(QPalette::Highlight) : item->fill().darker(115));
        p.drawRect(r);
    }
    const QRectF visible = t.mapRect(m_view->mapToScene(m_view->viewport()->rect()).boundingRect());
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(pal.color(QPalette::Highlight), 1.5));
    p.drawRect(visible.intersected(QRectF(rect()).adjusted(1, 1, -1, -1)));
}

void GraphOverview::moveViewTo(const QPointF& pos) {
    bool invertible = false;
    const QTransform back = sceneToOverview().inverted(&invertible);
    if (invertible) m_view->centerOnScenePoint(back.map(pos));
}

void GraphOverview::mousePressEvent(QMouseEvent* event) {
    moveViewTo(event->position());
    event->accept();
}

void GraphOverview::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & Qt::LeftButton) moveViewTo(event->position());
    event->accept();
}

} // namespace embark::ui

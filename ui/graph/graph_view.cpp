#include "graph_view.h"

#include "graph_scene.h"
#include "node_item.h"

#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>
#include <QWheelEvent>

namespace embark::ui {

GraphView::GraphView(GraphScene* scene, QWidget* parent) : QGraphicsView(scene, parent), m_scene(scene) {
    setDragMode(ScrollHandDrag);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setTransformationAnchor(AnchorUnderMouse);
    setViewportUpdateMode(SmartViewportUpdate);
    setBackgroundRole(QPalette::Base);
    connect(scene, &GraphScene::layoutReady, this, &GraphView::fitAll);
}

void GraphView::fitAll() {
    if (!scene() || scene()->items().isEmpty()) return;
    fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    // A tall model fitted whole would be unreadable: never shrink labels below 60%.
    if (transform().m11() < 0.6) {
        setTransform(QTransform::fromScale(0.6, 0.6));
        centerOn(scene()->sceneRect().center().x(), scene()->sceneRect().top());
    }
}

void GraphView::zoomBy(double factor) {
    const double scale = transform().m11() * factor;
    if (scale < 0.05 || scale > 8) return;
    this->scale(factor, factor);
}

void GraphView::centerOnNode(const QString& name) {
    if (NodeItem* item = m_scene->nodeItem(name)) centerOn(item);
}

void GraphView::wheelEvent(QWheelEvent* event) {
    if (event->angleDelta().y() == 0) return QGraphicsView::wheelEvent(event);
    zoomBy(event->angleDelta().y() > 0 ? 1.15 : 1 / 1.15);
    event->accept();
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
    m_search->setClearButtonEnabled(true);
    m_matches = new QLabel(this);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_matches);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    connect(m_search, &QLineEdit::textChanged, this, [this] {
        m_foundIndex = -1;
        m_found = m_scene->findNodes(m_search->text());
        m_matches->setText(m_search->text().isEmpty() ? QString() : tr("%n match(es)", nullptr, int(m_found.size())));
    });
    connect(m_search, &QLineEdit::returnPressed, this, &GraphPanel::findNext);
    connect(m_scene, &GraphScene::layoutReady, this, [this] {
        if (!m_search->text().isEmpty()) m_found = m_scene->findNodes(m_search->text());
    });
}

void GraphPanel::focusSearch() {
    m_search->setFocus();
    m_search->selectAll();
}

QStringList GraphPanel::findNext() {
    m_found = m_scene->findNodes(m_search->text());
    if (m_found.isEmpty()) return m_found;
    m_foundIndex = (m_foundIndex + 1) % int(m_found.size());
    const QString name = m_found.at(m_foundIndex);
    m_scene->selectNode(name);
    emit m_scene->nodeSelected(name);
    m_view->centerOnNode(name);
    return m_found;
}

} // namespace embark::ui

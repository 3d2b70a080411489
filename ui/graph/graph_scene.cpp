#include "graph_scene.h"

#include "graph_colors.h"
#include "node_item.h"
#include "session/qt_text.h"

#include "layout/ir_graph_layout.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QPainterPath>
#include <QtConcurrent>

#include <utility>

namespace embark::ui {

namespace {

QString shapeText(const ir::Value* v) {
    if (!v) return {};
    return QString::fromStdString(v->shape.str());
}

QString outputShapes(const ir::Node* n) {
    QStringList shapes;
    for (const ir::Value* v : n->outputs()) shapes << shapeText(v);
    return shapes.join(QStringLiteral(", "));
}

} // namespace

// What the worker computes and the UI thread turns into items.
struct GraphScene::Pending {
    int generation = 0;
    layout::IrGraphLayoutInput input;
    std::vector<QString> titles, subtitles;
    Expected<layout::LayoutResult> result = Error{};
};

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
    m_watcher = new QFutureWatcher<void>(this);
    connect(m_watcher, &QFutureWatcher<void>::finished, this, &GraphScene::onLayoutFinished);
    connect(this, &QGraphicsScene::selectionChanged, this, [this] {
        if (!m_applyingSelection) emit nodeSelected(selectedNode());
    });
}

GraphScene::~GraphScene() {
    // The worker writes into m_pendingData: wait for it before that goes away. Removing the
    // items changes the selection; listeners (the session) may already be gone, so be quiet.
    m_watcher->waitForFinished();
    blockSignals(true);
    clear();
}

void GraphScene::setGraph(std::shared_ptr<const ir::Graph> graph) {
    m_watcher->waitForFinished();
    clear();
    m_items.clear();
    m_order.clear();
    m_edgeCount = 0;
    m_layoutError.clear();
    m_graph = std::move(graph);
    if (!m_graph) {
        m_pending = false;
        return;
    }
    auto pending = std::make_unique<Pending>();
    pending->generation = ++m_generation;
    // Labels are measured here with the GUI font; only the layout itself runs on the worker.
    const QFont font = QApplication::font();
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF metrics(font), boldMetrics(bold);
    Pending* p = pending.get();
    p->input = layout::buildLayoutInput(*m_graph, [&](const layout::IrLayoutItem& item) {
        QString title, subtitle;
        if (item.kind == layout::IrLayoutItem::Kind::Node) {
            title = toQString(ir::opName(item.node->op));
            subtitle = outputShapes(item.node);
        } else {
            title = QString::fromStdString(item.value->name);
            subtitle = shapeText(item.value);
        }
        p->titles.push_back(title);
        p->subtitles.push_back(subtitle);
        const double w = std::max(boldMetrics.horizontalAdvance(title), metrics.horizontalAdvance(subtitle) * 0.9);
        return layout::NodeSize{std::max(90.0, w + 24), metrics.height() * 2 + 14};
    });
    m_pendingData = std::move(pending);
    m_pending = true;
    m_watcher->setFuture(QtConcurrent::run([p] { p->result = layout::computeLayout(p->input.graph); }));
}

void GraphScene::onLayoutFinished() {
    if (!m_pendingData || m_pendingData->generation != m_generation) return;
    std::unique_ptr<Pending> p = std::move(m_pendingData);
    m_pending = false;
    if (!p->result.ok()) {
        m_layoutError = QString::fromStdString(p->result.error().message);
        emit layoutReady();
        return;
    }
    const layout::LayoutResult& r = *p->result;
    const QPalette palette = QApplication::palette();

    QPen edgePen(palette.color(QPalette::Text), 1.2);
    for (size_t e = 0; e < r.edges.size(); ++e) {
        const auto& pts = r.edges[e].points;
        if (pts.size() < 2) continue;
        QPainterPath path(QPointF(pts[0].x, pts[0].y));
        // Smooth the bends through long-edge dummies with a quadratic through midpoints.
        for (size_t i = 1; i + 1 < pts.size(); ++i) {
            const QPointF c(pts[i].x, pts[i].y), next(pts[i + 1].x, pts[i + 1].y);
            path.quadTo(c, (c + next) / 2);
        }
        const QPointF end(pts.back().x, pts.back().y);
        path.lineTo(end);
        auto* edge = addPath(path, edgePen);
        edge->setZValue(-1);
        const ir::Value* v = p->input.edgeValue[e];
        edge->setToolTip(tr("%1\n%2 %3").arg(QString::fromStdString(v->name), shapeText(v),
                                             toQString(ir::dtypeName(v->dtype))));
        QPolygonF arrow;
        arrow << end << end + QPointF(-4, -8) << end + QPointF(4, -8);
        auto* head = addPolygon(arrow, edgePen, palette.color(QPalette::Text));
        head->setZValue(-1);
        ++m_edgeCount;
    }

    for (size_t i = 0; i < p->input.items.size(); ++i) {
        const layout::IrLayoutItem& item = p->input.items[i];
        const auto& place = r.nodes[i];
        const auto& size = p->input.graph.nodes[i];
        NodeItem::Kind kind = NodeItem::Kind::Node;
        QString name;
        if (item.kind == layout::IrLayoutItem::Kind::Node) {
            name = QString::fromStdString(item.node->name);
        } else {
            kind = item.kind == layout::IrLayoutItem::Kind::GraphInput ? NodeItem::Kind::GraphInput
                                                                         : NodeItem::Kind::GraphOutput;
            name = QString::fromStdString(item.value->name);
        }
        auto* node = new NodeItem(kind, name, p->titles[i], p->subtitles[i], QSizeF(size.width, size.height));
        node->setPos(place.x, place.y);
        if (kind == NodeItem::Kind::Node) {
            node->setToolTip(tr("%1 '%2'").arg(p->titles[i], name));
            m_items.insert(name, node);
            m_order << name;
        } else {
            node->setFlag(QGraphicsItem::ItemIsSelectable, false);
            node->setToolTip(kind == NodeItem::Kind::GraphInput ? tr("graph input %1").arg(name)
                                                                : tr("graph output %1").arg(name));
        }
        addItem(node);
    }
    setSceneRect(itemsBoundingRect().adjusted(-40, -40, 40, 40));
    recolor();
    emit layoutReady();
}

void GraphScene::setAssignments(const LibraryAssignments& assignments) {
    m_assignments = assignments;
    recolor();
}

void GraphScene::recolor() {
    const QPalette palette = QApplication::palette();
    for (QGraphicsItem* item : items()) {
        auto* node = dynamic_cast<NodeItem*>(item);
        if (!node) continue;
        if (node->kind() != NodeItem::Kind::Node) {
            node->setFill(terminalColor(palette));
            continue;
        }
        const ir::Node* n = m_graph ? m_graph->findNode(node->name().toStdString()) : nullptr;
        auto it = m_assignments.find(node->name().toStdString());
        if (it != m_assignments.end()) node->setFill(libraryColor(it->second.library, palette));
        else if (n) node->setFill(categoryColor(ir::opCategory(n->op), palette));
    }
}

bool GraphScene::event(QEvent* e) {
    if (e->type() == QEvent::PaletteChange) recolor();
    return QGraphicsScene::event(e);
}

QStringList GraphScene::nodeNames() const { return m_order; }

void GraphScene::selectNode(const QString& name) {
    m_applyingSelection = true;
    clearSelection();
    if (NodeItem* item = m_items.value(name)) item->setSelected(true);
    m_applyingSelection = false;
}

QString GraphScene::selectedNode() const {
    for (QGraphicsItem* item : selectedItems())
        if (auto* node = dynamic_cast<NodeItem*>(item)) return node->name();
    return {};
}

void GraphScene::setLinkedNodes(const QStringList& names) {
    for (NodeItem* item : std::as_const(m_items)) item->setLinked(names.contains(item->name()));
}

QStringList GraphScene::findNodes(const QString& text) {
    QStringList found;
    for (const QString& name : std::as_const(m_order)) {
        NodeItem* item = m_items.value(name);
        const bool match = !text.isEmpty() && (name.contains(text, Qt::CaseInsensitive) ||
                                               item->title().contains(text, Qt::CaseInsensitive));
        item->setMatched(match);
        if (match) found << name;
    }
    return found;
}

} // namespace embark::ui

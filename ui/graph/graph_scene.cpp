#include "graph_scene.h"

#include "graph_bodies.h"
#include "graph_colors.h"
#include "graph_folding.h"
#include "node_item.h"
#include "session/qt_text.h"

#include "graphdraw/ir_graph_layout.h"
#include "onnx/importer.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QLocale>
#include <QMap>
#include <QPainterPath>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
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

// The third line of a fused node: "+ BatchNormalization + Relu".
QString fusedBadge(const QStringList& absorbed) {
    if (absorbed.isEmpty()) return {};
    return QStringLiteral("+ ") + absorbed.join(QStringLiteral(" + "));
}

// A control-flow node's bodies, opened by a double-click: "▸ then_branch (3) · else_branch (8)".
QString bodiesBadge(const ir::Node& node) {
    QStringList parts;
    for (const QString& body : bodyNames(node))
        if (const ir::Graph* g = node.subgraph(body.toStdString()))
            parts << QStringLiteral("%1 (%2)").arg(body).arg(g->nodeCount());
    return parts.isEmpty() ? QString() : QStringLiteral("\u25B8 ") + parts.join(QStringLiteral(" \u00B7 "));
}

QString formatFigure(double v) { return QLocale().toString(v, 'g', 3); }

} // namespace

// What the worker computes and the UI thread turns into items.
struct GraphScene::Pending {
    int generation = 0;
    graphdraw::IrGraphLayoutInput input;
    std::vector<QString> titles, subtitles, badges;
    Expected<graphdraw::LayoutResult> result = Error{};
};

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
    // The BSP index is built on the first paint after the items arrive, on the UI thread: for a
    // 900-node graph that alone would use up the 100 ms stall budget (tst_graph_view). A few
    // thousand static items are culled fast enough without.
    setItemIndexMethod(NoIndex);
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
    clearItems();
}

void GraphScene::clearItems() {
    // QGraphicsScene::clear() deletes items one by one and emits selectionChanged in the middle
    // when a selected one goes; a listener reaching back into m_items would then touch deleted
    // items (tst_stages: search + Enter, then open another model). So forget the
    // pointers first and drop the selection without echoing it: the session keeps its own
    // selection and the stages view reapplies it once the new layout is ready.
    m_items.clear();
    m_order.clear();
    const bool applying = std::exchange(m_applyingSelection, true);
    clearSelection();
    clear();
    m_applyingSelection = applying;
}

void GraphScene::setGraph(std::shared_ptr<const ir::Graph> graph, std::shared_ptr<const ir::Graph> origin) {
    m_watcher->waitForFinished();
    clearItems();
    m_categories.clear();
    m_folded.clear();
    m_absorbed.clear();
    m_edgeCount = 0;
    m_layoutError.clear();
    m_graph = std::move(graph);
    if (!m_graph) {
        m_pending = false;
        recolor();
        return;
    }
    for (const ir::Node* n : m_graph->nodes()) {
        const QString name = QString::fromStdString(n->name);
        m_categories.insert(name, ir::opCategory(n->op));
        if (isFoldedNode(*n)) m_folded.insert(name);
        if (n->provenance.size() < 2) continue;
        // A fused node: list what it absorbed, i.e. its provenance minus its own original op
        // (the first original of the same op, else the first original).
        QStringList absorbed;
        bool ownSkipped = false;
        std::vector<std::pair<std::string, const ir::Node*>> originals;
        for (const std::string& p : n->provenance) originals.emplace_back(p, origin ? origin->findNode(p) : nullptr);
        size_t own = 0;
        for (size_t i = 0; i < originals.size(); ++i)
            if (originals[i].second && originals[i].second->op == n->op) {
                own = i;
                break;
            }
        for (size_t i = 0; i < originals.size(); ++i) {
            if (i == own && !ownSkipped) {
                ownSkipped = true;
                continue;
            }
            // Identity and Dropout removed on the way are no-ops, not worth a word on the node
            // (the tooltip still lists every original node).
            const ir::Node* o = originals[i].second;
            if (o && (o->op == ir::OpKind::Identity || o->op == ir::OpKind::Dropout)) continue;
            absorbed << (o ? toQString(ir::opName(o->op)) : QString::fromStdString(originals[i].first));
        }
        if (!absorbed.isEmpty()) m_absorbed.insert(name, absorbed);
    }
    auto pending = std::make_unique<Pending>();
    pending->generation = ++m_generation;
    // Labels are measured here with the GUI font; only the layout itself runs on the worker.
    const QFont font = QApplication::font();
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF metrics(font), boldMetrics(bold);
    Pending* p = pending.get();
    p->input = graphdraw::buildLayoutInput(*m_graph, [&](const graphdraw::IrLayoutItem& item) {
        QString title, subtitle;
        QString badge;
        if (item.kind == graphdraw::IrLayoutItem::Kind::Node && isFoldedNode(*item.node)) {
            // A folded module: its name, how many nodes it holds (expand it from its menu).
            title = QString::fromStdString(item.node->name);
            subtitle = tr("%n nodes folded", nullptr, int(item.node->attrInt(kFoldedAttr, 0)));
        } else if (item.kind == graphdraw::IrLayoutItem::Kind::Node && item.node->has(onnx::kUnsupportedOpAttr)) {
            // A placeholder of the preview import: the op it stands for, said to be unsupported.
            const QString op = QString::fromStdString(item.node->attrString(onnx::kUnsupportedOpAttr, "?"));
            title = op.section(QLatin1Char(' '), 0, 0);
            subtitle = tr("unsupported: %1").arg(op.section(QLatin1Char(' '), 1));
        } else if (item.kind == graphdraw::IrLayoutItem::Kind::Node) {
            title = toQString(ir::opName(item.node->op));
            subtitle = outputShapes(item.node);
            badge = fusedBadge(m_absorbed.value(QString::fromStdString(item.node->name)));
            if (badge.isEmpty()) badge = bodiesBadge(*item.node);
        } else {
            title = QString::fromStdString(item.value->name);
            subtitle = shapeText(item.value);
        }
        p->titles.push_back(title);
        p->subtitles.push_back(subtitle);
        p->badges.push_back(badge);
        double w = std::max(boldMetrics.horizontalAdvance(title), metrics.horizontalAdvance(subtitle) * 0.9);
        w = std::max(w, metrics.horizontalAdvance(badge) * 0.85);
        const double lines = badge.isEmpty() ? 2 : 2.85;
        return graphdraw::NodeSize{std::max(90.0, w + 24), metrics.height() * lines + 14};
    });
    m_pendingData = std::move(pending);
    m_pending = true;
    m_watcher->setFuture(QtConcurrent::run([p] { p->result = graphdraw::computeLayout(p->input.graph); }));
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
    const graphdraw::LayoutResult& r = *p->result;
    const QPalette palette = QApplication::palette();

    // A cosmetic 1-pixel pen (width 0): path and polygon items then take their bounding rect
    // from the control points; with a wider pen Qt strokes every curve to find it, on the UI
    // thread, which stalls a 900-node graph's first paint. One pixel also stays visible when
    // a big graph is zoomed out.
    QPen edgePen(palette.color(QPalette::Text), 0);
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
        edge->setToolTip(
            tr("%1\n%2 %3").arg(QString::fromStdString(v->name), shapeText(v), toQString(ir::dtypeName(v->dtype))));
        QPolygonF arrow;
        arrow << end << end + QPointF(-4, -8) << end + QPointF(4, -8);
        auto* head = addPolygon(arrow, edgePen, palette.color(QPalette::Text));
        head->setZValue(-1);
        ++m_edgeCount;
    }

    for (size_t i = 0; i < p->input.items.size(); ++i) {
        const graphdraw::IrLayoutItem& item = p->input.items[i];
        const auto& place = r.nodes[i];
        const auto& size = p->input.graph.nodes[i];
        NodeItem::Kind kind = NodeItem::Kind::Node;
        QString name;
        if (item.kind == graphdraw::IrLayoutItem::Kind::Node) {
            name = QString::fromStdString(item.node->name);
        } else {
            kind = item.kind == graphdraw::IrLayoutItem::Kind::GraphInput ? NodeItem::Kind::GraphInput
                                                                          : NodeItem::Kind::GraphOutput;
            name = QString::fromStdString(item.value->name);
        }
        auto* node = new NodeItem(kind, name, p->titles[i], p->subtitles[i], QSizeF(size.width, size.height));
        node->setPos(place.x, place.y);
        if (kind == NodeItem::Kind::Node) {
            node->setBadge(p->badges[i]);
            QString tip = tr("%1 '%2'").arg(p->titles[i], name);
            if (!p->badges[i].isEmpty()) {
                QStringList from;
                for (const std::string& o : item.node->provenance) from << QString::fromStdString(o);
                tip +=
                    QLatin1Char('\n') + tr("fused: absorbed %1").arg(m_absorbed.value(name).join(QStringLiteral(", ")));
                tip += QLatin1Char('\n') + tr("from the original nodes %1").arg(from.join(QStringLiteral(", ")));
            }
            node->setToolTip(tip);
            m_items.insert(name, node);
            m_order << name;
        } else {
            node->setFlag(QGraphicsItem::ItemIsSelectable, false);
            node->setToolTip(kind == NodeItem::Kind::GraphInput ? tr("graph input %1").arg(name)
                                                                : tr("graph output %1").arg(name));
        }
        addItem(node);
    }
    // From the layout's own coordinates: itemsBoundingRect() over a thousand curved edge
    // paths stalls the UI thread for a 900-node graph.
    QRectF bounds;
    for (size_t i = 0; i < r.nodes.size(); ++i) {
        const auto& size = p->input.graph.nodes[i];
        bounds |= QRectF(r.nodes[i].x - size.width / 2, r.nodes[i].y - size.height / 2, size.width, size.height);
    }
    for (const auto& route : r.edges)
        for (const auto& pt : route.points) bounds |= QRectF(pt.x - 5, pt.y - 9, 10, 10);
    setSceneRect(bounds.adjusted(-40, -40, 40, 40));
    recolor();
    emit layoutReady();
}

void GraphScene::setAssignments(const LibraryAssignments& assignments) {
    m_assignments = assignments;
    recolor();
}

void GraphScene::setNodeMetric(const QHash<QString, double>& values, const QString& label, MetricStyle style) {
    m_metric = values;
    m_metricLabel = values.isEmpty() ? QString() : label;
    m_metricStyle = style;
    recolor();
}

void GraphScene::setNodeClasses(const QHash<QString, int>& classOf, const QList<NodeClass>& classes,
                                const QString& title) {
    m_classOf = classes.isEmpty() ? QHash<QString, int>() : classOf;
    m_classes = classOf.isEmpty() ? QList<NodeClass>() : classes;
    m_classTitle = title;
    recolor();
}

QString GraphScene::formatMetric(double v) const {
    if (m_metricStyle.bytes) return QLocale().formattedDataSize(qint64(std::llround(v)), 1);
    return formatFigure(v);
}

std::optional<double> GraphScene::nodeMetric(const QString& name) const {
    auto it = m_metric.constFind(name);
    if (it == m_metric.constEnd()) return std::nullopt;
    return *it;
}

void GraphScene::recolor() {
    const QPalette palette = QApplication::palette();
    GraphLegend legend;
    if (!m_classes.isEmpty()) {
        legend.title = m_classTitle;
        for (const NodeClass& c : std::as_const(m_classes)) legend.entries.append({c.color, c.label, 0});
        for (auto it = m_items.constBegin(); it != m_items.constEnd(); ++it) {
            const int c =
                std::clamp(m_classOf.value(it.key(), int(m_classes.size()) - 1), 0, int(m_classes.size()) - 1);
            it.value()->setFill(m_classes.at(c).color);
            it.value()->setFigure({});
            ++legend.entries[c].count;
        }
        // Classes no node has stay out of the legend.
        legend.entries.erase(std::remove_if(legend.entries.begin(), legend.entries.end(),
                                            [](const GraphLegend::Entry& e) { return e.count == 0; }),
                             legend.entries.end());
    } else if (!m_metric.isEmpty() && m_metricStyle.tolerance > 0) {
        // Against the tolerance: a layer far below it is as fine as one just below it, so the
        // figures' own min/max never paints agreeing layers red.
        const double tol = m_metricStyle.tolerance;
        const auto colour = [&](double v) {
            if (!std::isfinite(v)) return metricColor(1.0, palette);
            if (v <= tol) {
                // Pale to mid green over the six decades below the tolerance.
                const double t = std::clamp((std::log10(std::max(v, tol * 1e-6)) - std::log10(tol) + 6) / 6, 0.0, 1.0);
                return isDarkPalette(palette) ? QColor::fromHsl(120, 120, int(std::lround(60 + 40 * t)))
                                              : QColor::fromHsl(120, 140, int(std::lround(220 - 50 * t)));
            }
            return metricColor(0.35 + 0.65 * std::clamp(std::log10(v / tol) / 2, 0.0, 1.0), palette);
        };
        for (auto it = m_items.constBegin(); it != m_items.constEnd(); ++it) {
            auto m = m_metric.constFind(it.key());
            it.value()->setFill(m == m_metric.constEnd() ? noFigureColor(palette) : colour(*m));
            it.value()->setFigure(m == m_metric.constEnd() ? QString() : formatMetric(*m));
        }
        legend.title = tr("Colour: %1 against the tolerance %2").arg(m_metricLabel, formatMetric(tol));
        legend.entries.append({colour(tol * 1e-6), tr("\u2264 %1").arg(formatMetric(tol * 1e-6)), 0});
        legend.entries.append({colour(tol), tr("\u2264 %1 (within tolerance)").arg(formatMetric(tol)), 0});
        legend.entries.append({colour(tol * 1.0001), tr("> %1 (above tolerance)").arg(formatMetric(tol)), 0});
        legend.entries.append({colour(tol * 10), formatMetric(tol * 10), 0});
        legend.entries.append({colour(tol * 100), tr("\u2265 %1").arg(formatMetric(tol * 100)), 0});
        legend.entries.append({noFigureColor(palette), tr("no figure"), 0});
    } else if (!m_metric.isEmpty()) {
        // A per-node figure: one sequential scale from the smallest to the largest figure.
        // On a log scale (errors over decades) zeros sit at the smallest positive figure.
        const bool log = m_metricStyle.logScale;
        double lo = INFINITY, hi = -INFINITY, floor = INFINITY;
        for (double v : std::as_const(m_metric)) {
            if (!std::isfinite(v)) continue;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            if (v > 0) floor = std::min(floor, v);
        }
        if (!std::isfinite(floor)) floor = 1e-12;
        const auto scaled = [&](double v) { return log ? std::log10(std::max(v, floor)) : v; };
        const double slo = std::isfinite(lo) ? scaled(lo) : 0, shi = std::isfinite(hi) ? scaled(hi) : 0;
        const auto at = [&](double v) {
            if (!std::isfinite(v)) return 1.0; // an infinite or NaN error is the worst
            return shi > slo ? (scaled(v) - slo) / (shi - slo) : 1.0;
        };
        for (auto it = m_items.constBegin(); it != m_items.constEnd(); ++it) {
            auto m = m_metric.constFind(it.key());
            it.value()->setFill(m == m_metric.constEnd() ? noFigureColor(palette) : metricColor(at(*m), palette));
            it.value()->setFigure(m == m_metric.constEnd() ? QString() : formatMetric(*m));
        }
        legend.title = log ? tr("Colour: %1, log scale").arg(m_metricLabel) : tr("Colour: %1").arg(m_metricLabel);
        constexpr int kSteps = 5;
        for (int i = 0; i < kSteps; ++i) {
            const double s = slo + (shi - slo) * i / (kSteps - 1);
            const double v = log ? std::pow(10.0, s) : s;
            legend.entries.append({metricColor(double(i) / (kSteps - 1), palette), formatMetric(v), 0});
        }
        legend.entries.append({noFigureColor(palette), tr("no figure"), 0});
    } else {
        const bool byLibrary = !m_assignments.empty();
        legend.title = byLibrary ? tr("Colour: kernel library") : tr("Colour: op category");
        QMap<QString, GraphLegend::Entry> used; // by label, sorted
        for (auto it = m_items.constBegin(); it != m_items.constEnd(); ++it) {
            NodeItem* node = it.value();
            node->setFigure({});
            QColor fill;
            QString label;
            auto a = m_assignments.find(it.key().toStdString());
            const ir::Node* n = m_graph ? m_graph->findNode(it.key().toStdString()) : nullptr;
            if (n && n->has(onnx::kUnsupportedOpAttr)) {
                // Shown for a preview; nothing runs it (the target panel says so).
                label = tr("unsupported op");
                fill = isDarkPalette(palette) ? QColor(150, 40, 40) : QColor(240, 150, 150);
            } else if (m_folded.contains(it.key())) {
                // Neither an op category nor one library: the module's nodes may differ.
                label = tr("folded module");
                fill = foldedColor(palette);
            } else if (byLibrary && a != m_assignments.end()) {
                label = a->second.library;
                fill = libraryColor(label, palette);
            } else if (byLibrary) {
                label = tr("not assigned");
                fill = noFigureColor(palette);
            } else {
                const ir::OpCategory c = m_categories.value(it.key(), ir::OpCategory::Data);
                label = toQString(ir::categoryName(c));
                fill = categoryColor(c, palette);
            }
            node->setFill(fill);
            GraphLegend::Entry& e = used[label];
            e.color = fill;
            e.label = label;
            ++e.count;
        }
        legend.entries = used.values();
    }
    for (QGraphicsItem* item : items())
        if (auto* node = dynamic_cast<NodeItem*>(item); node && node->kind() != NodeItem::Kind::Node)
            node->setFill(terminalColor(palette));
    m_legend = legend;
    emit legendChanged();
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

QStringList GraphScene::linkedNodes() const {
    QStringList names;
    for (const QString& name : m_order)
        if (m_items.value(name)->isLinked()) names << name;
    return names;
}

QRectF GraphScene::nodesRect(const QStringList& names) const {
    QRectF r;
    for (const QString& name : names)
        if (NodeItem* item = m_items.value(name)) r = r.united(item->sceneBoundingRect());
    return r;
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

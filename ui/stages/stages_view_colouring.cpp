// The stages view's colourings (stages_view.h): layer figures, the diff between the stages and
// an ONNX Runtime run's partitions, on both panes and merged over folded boxes.
#include "stages_view.h"

#include "graph/graph_colors.h"
#include "graph/graph_folding.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "session/studio_session.h"

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QRegularExpression>
#include <QSplitter>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <optional>
#include <set>
#include <unordered_map>

namespace embark::ui {

QString StagesView::figureLabel(Colouring kind) {
    switch (kind) {
    case Colouring::Time: return tr("time (ms)");
    case Colouring::Error: return tr("error (max_rel)");
    case Colouring::Memory: return tr("memory in use");
    case Colouring::Default:
    case Colouring::Diff:
    case Colouring::Partition: break;
    }
    return {};
}

StagesView::Colouring StagesView::colouring() const { return Colouring(m_colouring->currentData().toInt()); }

void StagesView::setColouring(Colouring colouring) {
    m_colouring->setCurrentIndex(m_colouring->findData(int(colouring)));
}

const QHash<QString, double>& StagesView::figures(Colouring kind) const { return m_figures[int(kind)]; }

void StagesView::setPartitions(const RunPartitions& partitions) {
    m_partitions = partitions;
    if (partitions.valid) m_metricModel = m_session->modelPath();
    updateColouringChoices();
    if (colouring() == Colouring::Partition) {
        applyMetric(m_before);
        applyMetric(m_after);
    }
}

int StagesView::partitionOf(int stage, const QString& node) const {
    auto graph = m_session->stageGraph(stage), model = m_session->stageGraph(0);
    const ir::Node* n = graph ? graph->findNode(node.toStdString()) : nullptr;
    if (!m_partitions.valid || !n || !model) return kNotInModel;
    return partitionOfNode(m_partitions, *n, nodeNames(*model));
}

void StagesView::setFigures(Colouring kind, const QHash<QString, double>& values) {
    if (kind == Colouring::Default) return;
    m_figures[int(kind)] = values;
    if (kind != Colouring::Memory) m_metricModel = m_session->modelPath();
    if (kind == Colouring::Time) m_metricLabel.clear();
    updateColouringChoices();
    if (colouring() == kind) {
        applyMetric(m_before);
        applyMetric(m_after);
    }
}
template <typename T, typename Merge>
void StagesView::foldValues(const GraphPanel* panel, QHash<QString, T>& values, Merge merge) const {
    if (m_folded[panel == m_after].isEmpty()) return;
    QHash<QString, T> boxes;
    for (auto it = values.constBegin(); it != values.constEnd(); ++it) {
        const QString box = shownName(panel, it.key());
        if (box == it.key()) continue;
        auto b = boxes.find(box);
        if (b == boxes.end())
            boxes.insert(box, it.value());
        else
            *b = merge(*b, it.value());
    }
    for (auto it = boxes.constBegin(); it != boxes.constEnd(); ++it) values.insert(it.key(), it.value());
}
QHash<QString, StagesView::Change> StagesView::changes(const GraphPanel* panel) const {
    QHash<QString, Change> out;
    const GraphPanel* other = panel == m_before ? m_after : m_before;
    auto mine = m_session->stageGraph(stageOf(panel)), theirs = m_session->stageGraph(stageOf(other));
    if (!mine || !theirs) return out;
    // A node stands for its original ONNX nodes (provenance), or for itself when it has none;
    // two nodes of different stages are linked when one's originals name the other or one
    // of its originals (as StudioSession::linkedNodes links them for the selection).
    auto origins = [](const ir::Node* n) {
        std::vector<std::string> o(n->provenance.begin(), n->provenance.end());
        if (o.empty()) o.push_back(n->name);
        return o;
    };
    auto index = [](const ir::Graph& g) {
        std::unordered_map<std::string, std::vector<const ir::Node*>> by;
        for (const ir::Node* n : g.nodes()) {
            by[n->name].push_back(n);
            for (const std::string& p : n->provenance)
                if (p != n->name) by[p].push_back(n);
        }
        return by;
    };
    const auto theirIndex = index(*theirs), myIndex = index(*mine);
    auto linked = [&](const ir::Node* n, const std::unordered_map<std::string, std::vector<const ir::Node*>>& in) {
        std::set<const ir::Node*> to;
        for (const std::string& o : origins(n))
            if (auto it = in.find(o); it != in.end()) to.insert(it->second.begin(), it->second.end());
        return to;
    };
    const bool isBefore = panel == m_before;
    for (const ir::Node* n : mine->nodes()) {
        const QString name = QString::fromStdString(n->name);
        const std::set<const ir::Node*> to = linked(n, theirIndex);
        Change c = Change::Unchanged;
        if (to.empty()) {
            c = isBefore ? Change::Removed : Change::Added;
        } else if (isBefore) {
            // Part of a block: the node it became stands for more of this stage's nodes.
            for (const ir::Node* m : to)
                if (linked(m, myIndex).size() > 1) c = Change::Fused;
            if (c == Change::Unchanged && (to.size() > 1 || (*to.begin())->op != n->op)) c = Change::Rewritten;
        } else {
            // A block: it stands for several nodes of the "before" stage.
            if (to.size() > 1)
                c = Change::Fused;
            else if ((*to.begin())->op != n->op)
                c = Change::Rewritten;
        }
        out.insert(name, c);
    }
    return out;
}

void StagesView::updateColouringChoices() {
    // A kind without figures cannot be chosen (its item says how to get them); choosing it
    // falls back to the default colours.
    auto* model = qobject_cast<QStandardItemModel*>(m_colouring->model());
    for (int i = 0; i < m_colouring->count(); ++i) {
        const auto kind = Colouring(m_colouring->itemData(i).toInt());
        const bool has = kind == Colouring::Default || kind == Colouring::Diff ||
                         (kind == Colouring::Partition ? m_partitions.valid : !m_figures[int(kind)].isEmpty());
        if (QStandardItem* item = model ? model->item(i) : nullptr) {
            item->setEnabled(has);
            item->setToolTip(
                has                         ? QString()
                : kind == Colouring::Memory ? tr("Needs a memory plan (choose a board and library)")
                : kind == Colouring::Partition
                    ? tr("Needs an ONNX Runtime run with SPACEMIT_EP_DUMP_SUBGRAPHS=1: open it in Run history")
                    : tr("Needs a run: benchmark the model, or open a run in Run history"));
        }
    }
    if (colouring() == Colouring::Partition ? !m_partitions.valid
                                            : colouring() != Colouring::Default && colouring() != Colouring::Diff &&
                                                  m_figures[int(colouring())].isEmpty())
        setColouring(Colouring::Default);
}

void StagesView::setNodeMetric(const QHash<QString, double>& values, const QString& label) {
    setFigures(Colouring::Time, values);
    m_metricLabel = label;
    setColouring(values.isEmpty() ? Colouring::Default : Colouring::Time);
    applyMetric(m_before);
    applyMetric(m_after);
}

void StagesView::applyMetric(GraphPanel* panel) {
    const Colouring kind = colouring();
    const QHash<QString, double>& metric = m_figures[int(kind)];
    const QString label = kind == Colouring::Time && !m_metricLabel.isEmpty() ? m_metricLabel : figureLabel(kind);
    MetricStyle style;
    style.logScale = kind == Colouring::Error;
    if (kind == Colouring::Error) style.tolerance = kErrorTolerance;
    style.bytes = kind == Colouring::Memory;
    if (kind == Colouring::Diff) {
        const QHash<QString, Change> change = changes(panel);
        const QPalette palette = QApplication::palette();
        const bool dark = isDarkPalette(palette);
        auto tone = [dark](int hue) { return QColor::fromHsl(hue, 170, dark ? 90 : 185); };
        const QList<GraphScene::NodeClass> classes{{tr("added"), tone(120)},
                                                   {tr("removed"), tone(0)},
                                                   {tr("fused into a block"), tone(280)},
                                                   {tr("rewritten (other op)"), tone(210)},
                                                   {tr("unchanged"), noFigureColor(palette)}};
        QHash<QString, int> classOf;
        for (auto it = change.constBegin(); it != change.constEnd(); ++it) classOf.insert(it.key(), int(it.value()));
        // A folded box shows the first change among its nodes.
        foldValues(panel, classOf, [](int a, int b) { return a != int(Change::Unchanged) ? a : b; });
        panel->scene()->setNodeMetric({}, {});
        panel->scene()->setNodeClasses(classOf, classes,
                                       panel == m_before
                                           ? tr("Changes made by the \"after\" stage (to this stage's nodes)")
                                           : tr("Changes from the \"before\" stage"));
        return;
    }
    if (kind == Colouring::Partition && m_partitions.valid) {
        applyPartitions(panel);
        return;
    }
    panel->scene()->setNodeClasses({}, {}, {});
    const int shown = stageOf(panel), last = m_session->lastStage();
    auto graph = m_session->stageGraph(shown), fused = m_session->stageGraph(last);
    if (kind == Colouring::Default || metric.isEmpty() || !graph || !fused) {
        panel->scene()->setNodeMetric({}, {});
        return;
    }
    // A folded box: its nodes' total time, worst error, largest memory.
    auto merge = [kind](double a, double b) { return kind == Colouring::Time ? a + b : std::max(a, b); };
    if (shown == last) {
        QHash<QString, double> values = metric;
        foldValues(panel, values, merge);
        panel->scene()->setNodeMetric(values, label, style);
        return;
    }
    // Through provenance: an original node carries the figure of the fused node it is part of.
    QHash<QString, double> byOrigin;
    for (const ir::Node* m : fused->nodes()) {
        auto v = metric.constFind(QString::fromStdString(m->name));
        if (v == metric.constEnd()) continue;
        byOrigin.insert(QString::fromStdString(m->name), *v);
        for (const std::string& p : m->provenance) byOrigin.insert(QString::fromStdString(p), *v);
    }
    QHash<QString, double> values;
    for (const ir::Node* n : graph->nodes()) {
        const QString name = QString::fromStdString(n->name);
        std::optional<double> v;
        if (byOrigin.contains(name)) v = byOrigin.value(name);
        for (const std::string& p : n->provenance)
            if (!v && byOrigin.contains(QString::fromStdString(p))) v = byOrigin.value(QString::fromStdString(p));
        if (v) values.insert(name, *v);
    }
    foldValues(panel, values, merge);
    panel->scene()->setNodeMetric(values, label, style);
}

void StagesView::applyPartitions(GraphPanel* panel) {
    auto graph = m_session->stageGraph(stageOf(panel)), model = m_session->stageGraph(0);
    if (!graph || !model) return;
    const QSet<QString> modelNodes = nodeNames(*model);
    const int k = m_partitions.subgraphCount();
    // Classes: the subgraphs, then split, not in the model, and the CPU fallback (the last
    // class, which nodes without a class get).
    const QPalette palette = QApplication::palette();
    const bool dark = isDarkPalette(palette);
    auto tone = [dark](int hue, int saturation) { return QColor::fromHsl(hue, saturation, dark ? 90 : 180); };
    QList<GraphScene::NodeClass> classes;
    for (int i = 0; i < k; ++i) // greens, cyans, blues, violets: never the fallback's red
        classes.append({partitionLabel(m_partitions, i), tone(100 + (i * 53) % 180, 150 + (i / 4 % 2) * 60)});
    const int split = k, outside = k + 1, cpu = k + 2;
    classes.append({partitionLabel(m_partitions, kSplitPartitions), tone(45, 200)});
    classes.append({partitionLabel(m_partitions, kNotInModel), noFigureColor(palette)});
    classes.append({partitionLabel(m_partitions, kCpuFallback), tone(0, 200)});
    QHash<QString, int> classOf;
    for (const ir::Node* n : graph->nodes()) {
        const int p = partitionOfNode(m_partitions, *n, modelNodes);
        classOf.insert(QString::fromStdString(n->name), p >= 0                  ? p
                                                        : p == kSplitPartitions ? split
                                                        : p == kNotInModel      ? outside
                                                                                : cpu);
    }
    // A folded box: its nodes' partition when they agree, else split.
    foldValues(panel, classOf, [outside, split](int a, int b) {
        return a == b || b == outside ? a : a == outside ? b : split;
    });
    const QString title =
        tr("Colour: ONNX Runtime partitions (EP subgraphs: %1, nodes that fell back to the CPU provider: %2)")
            .arg(k)
            .arg(fallbackNodeCount(m_partitions, modelNodes));
    panel->scene()->setNodeMetric({}, {});
    panel->scene()->setNodeClasses(classOf, classes, title);
}

} // namespace embark::ui

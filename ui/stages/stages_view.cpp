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

namespace {

QWidget* titled(QComboBox* combo, const QString& label, GraphPanel* panel, QWidget* parent, QWidget* extra = nullptr) {
    auto* box = new QWidget(parent);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(label, box));
    top->addWidget(combo, 1);
    if (extra) top->addWidget(extra);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(panel, 1);
    return box;
}

} // namespace

StagesView::StagesView(StudioSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_before = new GraphPanel(this);
    m_after = new GraphPanel(this);
    m_beforeStage = new QComboBox(this);
    m_afterStage = new QComboBox(this);
    m_log = new QListWidget(this);
    m_log->setAlternatingRowColors(true);
    m_colouring = new QComboBox(this);
    m_colouring->setObjectName(QStringLiteral("colouring"));
    m_colouring->addItem(tr("Colour: op category / library"), int(Colouring::Default));
    m_colouring->addItem(tr("Colour: layer time"), int(Colouring::Time));
    m_colouring->addItem(tr("Colour: layer error (max_rel)"), int(Colouring::Error));
    m_colouring->addItem(tr("Colour: memory in use"), int(Colouring::Memory));
    m_colouring->addItem(tr("Colour: changes between the stages"), int(Colouring::Diff));
    m_colouring->addItem(tr("Colour: ONNX Runtime partitions"), int(Colouring::Partition));
    m_colouring->setToolTip(tr("What the node colours of both graphs show: the op category (the kernel library in the "
                               "fused stage), the run shown's time or error per layer, or the bytes of the memory plan "
                               "in use while each node runs (fused nodes carry their block's figure); or what the \"after\" stage "
                               "changed: nodes added, removed, fused into a block or rewritten to another op; or, for an "
                               "ONNX Runtime run with SPACEMIT_EP_DUMP_SUBGRAPHS=1, the EP subgraph each node ran in or the "
                               "CPU provider it fell back to."));
    m_colouring->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    updateColouringChoices();
    connect(m_colouring, &QComboBox::currentIndexChanged, this, [this] {
        applyMetric(m_before);
        applyMetric(m_after);
        emit colouringChanged(colouring());
    });

    auto* graphs = new QSplitter(Qt::Horizontal, this);
    m_beforeBox = titled(m_beforeStage, tr("Before:"), m_before, graphs);
    graphs->addWidget(m_beforeBox);
    graphs->addWidget(titled(m_afterStage, tr("After:"), m_after, graphs, m_colouring));
    auto* vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(graphs);
    m_logBox = new QWidget(vertical);
    auto* logLayout = new QVBoxLayout(m_logBox);
    logLayout->setContentsMargins(0, 0, 0, 0);
    logLayout->addWidget(new QLabel(tr("Rewrites made by the \"after\" stage:"), m_logBox));
    logLayout->addWidget(m_log);
    vertical->addWidget(m_logBox);
    vertical->setStretchFactor(0, 5);
    vertical->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(vertical);
    m_log->setToolTip(tr("Click a rewrite to highlight its nodes in both graphs"));
    connect(m_log, &QListWidget::currentRowChanged, this, &StagesView::showRewrite);
    connect(m_log, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) { showRewrite(m_log->row(item)); });

    connect(session, &StudioSession::modelChanged, this, &StagesView::reloadStages);
    connect(session, &StudioSession::selectionChanged, this, &StagesView::applySelection);
    connect(session, &StudioSession::targetChanged, this, [this] {
        m_after->scene()->setAssignments(stageOf(m_after) == m_session->lastStage() ? m_session->assignments()
                                                                                   : LibraryAssignments{});
    });
    for (GraphPanel* panel : {m_before, m_after}) {
        QComboBox* combo = panel == m_before ? m_beforeStage : m_afterStage;
        connect(combo, &QComboBox::currentIndexChanged, this, [this, panel](int stage) { showStage(panel, stage); });
        connect(panel->scene(), &GraphScene::nodeSelected, this, [this, panel](const QString& node) {
            // A folded box stands for its nodes: the first one is selected (Properties, links).
            QString name = node;
            if (m_folded[panel == m_after].contains(node))
                if (auto g = m_session->stageGraph(stageOf(panel)))
                    for (const ir::Node* n : g->nodes())
                        if (shownName(panel, QString::fromStdString(n->name)) == node) {
                            name = QString::fromStdString(n->name);
                            break;
                        }
            m_session->select(stageOf(panel), name);
        });
        connect(panel->scene(), &GraphScene::layoutReady, this,
                [this] { applySelection(m_session->selectedStage(), m_session->selectedNode()); });
        connect(panel->view(), &GraphView::nodeContextMenuRequested, this, [this, panel](const QString& node, const QPoint& pos) {
            m_menuPanel = panel;
            emit nodeContextMenuRequested(node, pos);
        });
    }
}

GraphPanel* StagesView::activePanel() const {
    if (m_before->isVisible() && m_before->isAncestorOf(QApplication::focusWidget())) return m_before;
    return m_after;
}

QWidget* StagesView::takeRewritePanel() {
    if (!m_logBox || m_logBox->parentWidget() == nullptr || !isAncestorOf(m_logBox)) return nullptr;
    m_logBox->setParent(nullptr); // leaves the splitter; the caller reparents it
    return m_logBox;
}

void StagesView::setSideBySide(bool on) { m_beforeBox->setVisible(on); }
bool StagesView::isSideBySide() const { return !m_beforeBox->isHidden(); }

int StagesView::stageOf(const GraphPanel* panel) const {
    return (panel == m_before ? m_beforeStage : m_afterStage)->currentIndex();
}

void StagesView::reloadStages() {
    if (m_session->modelPath() != m_metricModel) { // a run's figures name its model's nodes
        m_figures[int(Colouring::Time)].clear();
        m_figures[int(Colouring::Error)].clear();
        m_partitions = {};
        m_metricLabel.clear();
        updateColouringChoices();
    }
    m_folded[0].clear();
    m_folded[1].clear();
    for (QComboBox* combo : {m_beforeStage, m_afterStage}) {
        const QSignalBlocker block(combo);
        combo->clear();
        for (int s = 0; s < m_session->stageCount(); ++s)
            combo->addItem(tr("%1 (%2 nodes, %3 rewrites)")
                               .arg(m_session->stageName(s))
                               .arg(m_session->stageGraph(s)->nodeCount())
                               .arg(m_session->stageLog(s).size()));
    }
    m_beforeStage->setCurrentIndex(0);
    m_afterStage->setCurrentIndex(m_session->lastStage());
    showStage(m_before, 0);
    showStage(m_after, m_session->lastStage());
}

void StagesView::showStage(GraphPanel* panel, int stage) {
    std::shared_ptr<const ir::Graph> graph = m_session->stageGraph(stage);
    QStringList& folded = m_folded[panel == m_after];
    if (graph && !folded.isEmpty()) {
        auto shown = foldGraph(*graph, folded);
        if (shown.ok()) graph = *shown;
        else folded.clear(); // another stage's nodes do not fold the same way
    }
    panel->scene()->setGraph(graph, m_session->stageGraph(0));
    panel->scene()->setAssignments(stage == m_session->lastStage() ? m_session->assignments() : LibraryAssignments{});
    applyMetric(panel);
    // The changes of each pane depend on both stages.
    if (colouring() == Colouring::Diff) applyMetric(panel == m_before ? m_after : m_before);
    if (panel != m_after) return;
    const QSignalBlocker block(m_log);
    m_log->clear();
    const QStringList lines = m_session->stageLog(stage);
    m_log->addItems(lines);
    if (lines.isEmpty()) m_log->addItem(tr("(no rewrites in this stage)"));
}

void StagesView::applySelection(int stage, const QString& node) {
    for (GraphPanel* panel : {m_before, m_after}) {
        GraphScene* scene = panel->scene();
        GraphView* view = panel->view();
        const int shown = stageOf(panel);
        if (shown == stage) {
            const QString name = shownName(panel, node);
            scene->selectNode(name);
            scene->setLinkedNodes({});
            // A selection made elsewhere (a chart bar, the other pane's search) may be off
            // screen here; one clicked in this pane is on screen and must not jump.
            if (!name.isEmpty() && !view->visibleSceneRect().contains(scene->nodesRect({name})))
                view->centerOnNode(name);
            continue;
        }
        // The other view shows the same original nodes under their names in its stage.
        const QStringList linked =
            node.isEmpty() ? QStringList() : shownNames(panel, m_session->linkedNodes(stage, node, shown));
        scene->selectNode({});
        scene->setLinkedNodes(linked);
        if (!linked.isEmpty()) view->centerOnScenePoint(scene->nodesRect(linked).center());
    }
}

void StagesView::revealNode(const QString& node) {
    const int last = m_session->lastStage();
    if (last < 0) return;
    m_session->select(last, node);
    // select() is silent when the node was already selected: centre anyway.
    for (GraphPanel* panel : {m_before, m_after}) {
        const int shown = stageOf(panel);
        const QStringList names = shownNames(panel, shown == last ? QStringList{node} : m_session->linkedNodes(last, node, shown));
        if (!names.isEmpty()) panel->view()->centerOnScenePoint(panel->scene()->nodesRect(names).center());
    }
}

QStringList StagesView::rewriteNodes(int row, const GraphPanel* panel) const {
    const int stage = stageOf(m_after);
    const QStringList lines = m_session->stageLog(stage);
    if (row < 0 || row >= lines.size()) return {};
    // Passes name nodes as Op 'name' (ir::Node::describe()).
    static const QRegularExpression quoted(QStringLiteral("'([^']+)'"));
    std::set<std::string> names;
    for (auto it = quoted.globalMatch(lines.at(row)); it.hasNext();) names.insert(it.next().captured(1).toStdString());
    auto graph = m_session->stageGraph(stageOf(panel));
    QStringList out;
    if (!graph) return out;
    for (const ir::Node* n : graph->nodes()) {
        bool hit = names.count(n->name) != 0;
        for (const std::string& p : n->provenance) hit = hit || names.count(p) != 0;
        if (hit) out << QString::fromStdString(n->name);
    }
    return out;
}

void StagesView::showRewrite(int row) {
    for (GraphPanel* panel : {m_before, m_after}) {
        const QStringList nodes = shownNames(panel, rewriteNodes(row, panel));
        if (nodes.isEmpty()) continue;
        panel->scene()->selectNode({});
        panel->scene()->setLinkedNodes(nodes);
        panel->view()->zoomToNodes(nodes);
    }
}

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

void StagesView::setColouring(Colouring colouring) { m_colouring->setCurrentIndex(m_colouring->findData(int(colouring))); }

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

QString StagesView::shownName(const GraphPanel* panel, const QString& node) const {
    // The outermost folded prefix the node is under.
    QString box;
    for (const QString& p : m_folded[panel == m_after])
        if (node.startsWith(p + QLatin1Char('/')) && (box.isEmpty() || p.size() < box.size())) box = p;
    return box.isEmpty() ? node : box;
}

QStringList StagesView::shownNames(const GraphPanel* panel, const QStringList& nodes) const {
    QStringList out;
    for (const QString& n : nodes) {
        const QString s = shownName(panel, n);
        if (!out.contains(s)) out << s;
    }
    return out;
}

template <typename T, typename Merge>
void StagesView::foldValues(const GraphPanel* panel, QHash<QString, T>& values, Merge merge) const {
    if (m_folded[panel == m_after].isEmpty()) return;
    QHash<QString, T> boxes;
    for (auto it = values.constBegin(); it != values.constEnd(); ++it) {
        const QString box = shownName(panel, it.key());
        if (box == it.key()) continue;
        auto b = boxes.find(box);
        if (b == boxes.end()) boxes.insert(box, it.value());
        else *b = merge(*b, it.value());
    }
    for (auto it = boxes.constBegin(); it != boxes.constEnd(); ++it) values.insert(it.key(), it.value());
}

QString StagesView::foldModule(GraphPanel* panel, const QString& prefix) {
    QStringList& folded = m_folded[panel == m_after];
    if (prefix.isEmpty() || folded.contains(prefix)) return {};
    auto graph = m_session->stageGraph(stageOf(panel));
    if (!graph) return tr("No graph to fold");
    QStringList next = folded;
    next << prefix;
    auto shown = foldGraph(*graph, next);
    if (!shown.ok()) return QString::fromStdString(shown.error().message);
    folded = next;
    showStage(panel, stageOf(panel));
    return {};
}

void StagesView::expandModule(GraphPanel* panel, const QString& prefix) {
    if (m_folded[panel == m_after].removeAll(prefix) > 0) showStage(panel, stageOf(panel));
}

void StagesView::expandAll(GraphPanel* panel) {
    if (m_folded[panel == m_after].isEmpty()) return;
    m_folded[panel == m_after].clear();
    showStage(panel, stageOf(panel));
}

QStringList StagesView::foldedModules(const GraphPanel* panel) const { return m_folded[panel == m_after]; }

void StagesView::addFoldActions(QMenu* menu, const QString& node) {
    GraphPanel* panel = m_menuPanel ? m_menuPanel : m_after;
    const QStringList& folded = m_folded[panel == m_after];
    menu->addSeparator();
    if (folded.contains(node)) {
        menu->addAction(tr("Expand '%1'").arg(node), this, [this, panel, node] { expandModule(panel, node); });
    } else {
        for (const QString& prefix : modulePrefixes(node))
            menu->addAction(tr("Fold '%1'").arg(prefix), this, [this, panel, prefix] {
                const QString error = foldModule(panel, prefix);
                if (!error.isEmpty()) emit foldFailed(error);
            });
    }
    if (!folded.isEmpty()) menu->addAction(tr("Expand all modules"), this, [this, panel] { expandAll(panel); });
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
            if (to.size() > 1) c = Change::Fused;
            else if ((*to.begin())->op != n->op) c = Change::Rewritten;
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
            item->setToolTip(has ? QString()
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
                                       panel == m_before ? tr("Changes made by the \"after\" stage (to this stage's nodes)")
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
        classOf.insert(QString::fromStdString(n->name), p >= 0 ? p : p == kSplitPartitions ? split : p == kNotInModel ? outside : cpu);
    }
    // A folded box: its nodes' partition when they agree, else split.
    foldValues(panel, classOf, [outside, split](int a, int b) { return a == b || b == outside ? a : a == outside ? b : split; });
    const QString title = tr("Colour: ONNX Runtime partitions (EP subgraphs: %1, nodes that fell back to the CPU provider: %2)")
                              .arg(k)
                              .arg(fallbackNodeCount(m_partitions, modelNodes));
    panel->scene()->setNodeMetric({}, {});
    panel->scene()->setNodeClasses(classOf, classes, title);
}

} // namespace embark::ui

// The compiler stages view (stages_view.h): its panels, the stages they show, the selection
// linked across them and the rewrite list (colourings: stages_view_colouring.cpp; folding by
// module prefix: stages_view_folding.cpp).
#include "stages_view.h"

#include "graph/graph_colors.h"
#include "graph/graph_folding.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "session/qt_text.h"
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
#include <QToolButton>
#include <QVBoxLayout>

#include <optional>
#include <set>
#include <unordered_map>

namespace embark::ui {

namespace {

QWidget* titled(QComboBox* combo, const QString& label, GraphPanel* panel, QWidget* crumbs, QWidget* parent,
                QWidget* extra = nullptr) {
    auto* box = new QWidget(parent);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(label, box));
    top->addWidget(combo, 1);
    if (extra) top->addWidget(extra);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(crumbs);
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
    m_colouring->setToolTip(
        tr("What the node colours of both graphs show: the op category (the kernel library in the "
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

    // Inside a control-flow body: Back and the path to it.
    for (GraphPanel* panel : {m_before, m_after}) {
        auto* bar = new QWidget(this);
        auto* row = new QHBoxLayout(bar);
        row->setContentsMargins(0, 0, 0, 0);
        auto* back = new QToolButton(bar);
        back->setText(tr("Back"));
        back->setToolTip(tr("Back to the enclosing graph"));
        auto* label = new QLabel(bar);
        label->setTextFormat(Qt::RichText);
        label->setWordWrap(true);
        label->setToolTip(tr("The body shown; click a step to go back to it"));
        row->addWidget(back);
        row->addWidget(label, 1);
        bar->hide();
        connect(back, &QToolButton::clicked, this, [this, panel] { leaveBody(panel); });
        connect(label, &QLabel::linkActivated, this,
                [this, panel](const QString& depth) { leaveBody(panel, depth.toInt()); });
        m_crumbBar[panel == m_after] = bar;
        m_crumbLabel[panel == m_after] = label;
    }
    auto* graphs = new QSplitter(Qt::Horizontal, this);
    m_beforeBox = titled(m_beforeStage, tr("Before:"), m_before, m_crumbBar[0], graphs);
    graphs->addWidget(m_beforeBox);
    graphs->addWidget(titled(m_afterStage, tr("After:"), m_after, m_crumbBar[1], graphs, m_colouring));
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
            // A folded box stands for its nodes: the first one is selected (for the links), and
            // Properties shows the module.
            QString name = node;
            QStringList members;
            if (m_folded[panel == m_after].contains(node))
                if (auto g = shownGraph(panel))
                    for (const ir::Node* n : g->nodes())
                        if (shownName(panel, QString::fromStdString(n->name)) == node)
                            members << QString::fromStdString(n->name);
            if (!members.isEmpty()) name = members.first();
            m_session->select(stageOf(panel), name);
            if (!members.isEmpty()) emit moduleSelected(stageOf(panel), node, members);
        });
        connect(panel->scene(), &GraphScene::layoutReady, this,
                [this] { applySelection(m_session->selectedStage(), m_session->selectedNode()); });
        // A double-click expands a folded module one level, or opens a control-flow body.
        connect(panel->view(), &GraphView::nodeDoubleClicked, this, [this, panel](const QString& node) {
            if (m_folded[panel == m_after].contains(node))
                expandModule(panel, node);
            else
                openBody(panel, node);
        });
        // Search reaches the nodes inside folded modules; stepping onto one opens its module.
        panel->setHiddenNodeSearch([this, panel](const QString& text) {
            QStringList found;
            if (m_folded[panel == m_after].isEmpty()) return found;
            if (auto g = shownGraph(panel))
                for (const ir::Node* n : g->nodes()) {
                    const QString name = QString::fromStdString(n->name);
                    if (shownName(panel, name) != name &&
                        (name.contains(text, Qt::CaseInsensitive) ||
                         toQString(ir::opName(n->op)).contains(text, Qt::CaseInsensitive)))
                        found << name;
                }
            return found;
        });
        connect(panel, &GraphPanel::revealRequested, this,
                [this, panel](const QString& node) { revealMatch(panel, node); });
        connect(panel->view(), &GraphView::nodeContextMenuRequested, this,
                [this, panel](const QString& node, const QPoint& pos) {
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
    m_bodies[0].clear();
    m_bodies[1].clear();
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
    BodyPath& body = m_bodies[panel == m_after];
    if (!body.isEmpty()) {
        if (auto inner = bodyGraph(graph, body))
            graph = inner;
        else
            body.clear(); // this stage has no such body (renamed): its graph instead
    }
    updateBreadcrumb(panel);
    QStringList& folded = m_folded[panel == m_after];
    if (graph && !folded.isEmpty()) {
        auto shown = foldGraph(*graph, folded);
        if (shown.ok())
            graph = *shown;
        else
            folded.clear(); // another stage's nodes do not fold the same way
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
        const QStringList names =
            shownNames(panel, shown == last ? QStringList{node} : m_session->linkedNodes(last, node, shown));
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

} // namespace embark::ui

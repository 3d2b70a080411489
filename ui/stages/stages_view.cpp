#include "stages_view.h"

#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "session/studio_session.h"

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QVBoxLayout>

namespace embark::ui {

namespace {

QWidget* titled(QComboBox* combo, const QString& label, GraphPanel* panel, QWidget* parent) {
    auto* box = new QWidget(parent);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(label, box));
    top->addWidget(combo, 1);
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

    auto* graphs = new QSplitter(Qt::Horizontal, this);
    m_beforeBox = titled(m_beforeStage, tr("Before:"), m_before, graphs);
    graphs->addWidget(m_beforeBox);
    graphs->addWidget(titled(m_afterStage, tr("After:"), m_after, graphs));
    auto* vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(graphs);
    auto* logBox = new QWidget(vertical);
    auto* logLayout = new QVBoxLayout(logBox);
    logLayout->setContentsMargins(0, 0, 0, 0);
    logLayout->addWidget(new QLabel(tr("Rewrites made by the \"after\" stage:"), logBox));
    logLayout->addWidget(m_log);
    vertical->addWidget(logBox);
    vertical->setStretchFactor(0, 5);
    vertical->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(vertical);

    connect(session, &StudioSession::modelChanged, this, &StagesView::reloadStages);
    connect(session, &StudioSession::selectionChanged, this, &StagesView::applySelection);
    connect(session, &StudioSession::targetChanged, this, [this] {
        m_after->scene()->setAssignments(stageOf(m_after) == m_session->lastStage() ? m_session->assignments()
                                                                                   : LibraryAssignments{});
    });
    for (GraphPanel* panel : {m_before, m_after}) {
        QComboBox* combo = panel == m_before ? m_beforeStage : m_afterStage;
        connect(combo, &QComboBox::currentIndexChanged, this, [this, panel](int stage) { showStage(panel, stage); });
        connect(panel->scene(), &GraphScene::nodeSelected, this,
                [this, panel](const QString& node) { m_session->select(stageOf(panel), node); });
        connect(panel->scene(), &GraphScene::layoutReady, this,
                [this] { applySelection(m_session->selectedStage(), m_session->selectedNode()); });
        connect(panel->view(), &GraphView::nodeContextMenuRequested, this, &StagesView::nodeContextMenuRequested);
    }
}

GraphPanel* StagesView::activePanel() const {
    if (m_before->isVisible() && m_before->isAncestorOf(QApplication::focusWidget())) return m_before;
    return m_after;
}

void StagesView::setSideBySide(bool on) { m_beforeBox->setVisible(on); }
bool StagesView::isSideBySide() const { return !m_beforeBox->isHidden(); }

int StagesView::stageOf(const GraphPanel* panel) const {
    return (panel == m_before ? m_beforeStage : m_afterStage)->currentIndex();
}

void StagesView::reloadStages() {
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
    panel->scene()->setGraph(m_session->stageGraph(stage));
    panel->scene()->setAssignments(stage == m_session->lastStage() ? m_session->assignments() : LibraryAssignments{});
    if (panel != m_after) return;
    m_log->clear();
    const QStringList lines = m_session->stageLog(stage);
    m_log->addItems(lines);
    if (lines.isEmpty()) m_log->addItem(tr("(no rewrites in this stage)"));
}

void StagesView::applySelection(int stage, const QString& node) {
    for (GraphPanel* panel : {m_before, m_after}) {
        GraphScene* scene = panel->scene();
        const int shown = stageOf(panel);
        if (shown == stage) {
            scene->selectNode(node);
            scene->setLinkedNodes({});
            continue;
        }
        // The other view shows the same original nodes under their names in its stage.
        const QStringList linked = node.isEmpty() ? QStringList() : m_session->linkedNodes(stage, node, shown);
        scene->selectNode({});
        scene->setLinkedNodes(linked);
        if (!linked.isEmpty()) panel->view()->centerOnNode(linked.first());
    }
}

} // namespace embark::ui

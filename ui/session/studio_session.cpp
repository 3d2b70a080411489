#include "studio_session.h"

#include "onnx/importer.h"

#include <QFutureWatcher>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <set>

namespace embark::ui {

StudioSession::StudioSession(QObject* parent) : QObject(parent), m_undoStack(new QUndoStack(this)) {
    reloadBoards();
}

Expected<std::shared_ptr<passes::PassRun>> StudioSession::prepareModel(const QString& path, const std::string& library) {
    auto graph = onnx::importModel(path.toStdString());
    if (!graph.ok()) return graph.error();
    passes::PassOptions options;
    options.library = targets::findKernelLibrary(library);
    auto run = passes::PassManager::run(*graph, "default", options);
    if (!run.ok()) return run.error();
    return std::make_shared<passes::PassRun>(std::move(*run));
}

Status StudioSession::openModel(const QString& path) {
    auto run = prepareModel(path, m_request.library);
    if (!run.ok()) return run.error();
    ++m_openSerial; // a background open still running is superseded
    adoptModel(path, std::move(*run));
    return {};
}

void StudioSession::openModelInBackground(const QString& path) {
    const quint64 serial = ++m_openSerial;
    ++m_opening;
    auto* watcher = new QFutureWatcher<std::shared_ptr<Expected<std::shared_ptr<passes::PassRun>>>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path, serial] {
        watcher->deleteLater();
        --m_opening;
        const auto result = watcher->result();
        if (serial != m_openSerial) return; // a newer open replaced this one
        if (!result->ok()) {
            emit modelOpenFinished(path, QString::fromStdString(result->error().message));
            return;
        }
        adoptModel(path, std::move(result->value()));
        emit modelOpenFinished(path, {});
    });
    watcher->setFuture(QtConcurrent::run([path, library = m_request.library] {
        return std::make_shared<Expected<std::shared_ptr<passes::PassRun>>>(prepareModel(path, library));
    }));
}

void StudioSession::adoptModel(const QString& path, std::shared_ptr<passes::PassRun> run) {
    m_path = path;
    m_run = std::move(run);
    m_graphs.clear();
    // Views keep the graphs alive while a layout is computed, so they hold shared pointers
    // into the run rather than copies.
    for (const passes::StageSnapshot& s : m_run->stages)
        m_graphs.push_back(std::shared_ptr<const ir::Graph>(m_run, &s.graph));
    m_selStage = -1;
    m_selNode.clear();
    m_undoStack->clear();
    updateAssignments();
    emit modelChanged();
    emit targetChanged();
}

int StudioSession::stageCount() const { return m_run ? static_cast<int>(m_run->stages.size()) : 0; }

QString StudioSession::stageName(int stage) const {
    if (stage < 0 || stage >= stageCount()) return {};
    return QString::fromStdString(m_run->stages[stage].name);
}

std::shared_ptr<const ir::Graph> StudioSession::stageGraph(int stage) const {
    if (stage < 0 || stage >= stageCount()) return {};
    return m_graphs[stage];
}

QStringList StudioSession::stageLog(int stage) const {
    QStringList lines;
    if (stage < 0 || stage >= stageCount()) return lines;
    for (const std::string& l : m_run->stages[stage].log) lines << QString::fromStdString(l);
    return lines;
}

QStringList StudioSession::linkedNodes(int from, const QString& node, int to) const {
    QStringList out;
    auto fromGraph = stageGraph(from), toGraph = stageGraph(to);
    if (!fromGraph || !toGraph) return out;
    const ir::Node* n = fromGraph->findNode(node.toStdString());
    if (!n) return out;
    // A node with no provenance (a fresh name) stands for itself.
    std::set<std::string> origins(n->provenance.begin(), n->provenance.end());
    if (origins.empty()) origins.insert(n->name);
    for (const ir::Node* m : toGraph->nodes()) {
        bool linked = origins.count(m->name) != 0;
        for (const std::string& p : m->provenance) linked = linked || origins.count(p) != 0;
        if (linked) out << QString::fromStdString(m->name);
    }
    return out;
}

void StudioSession::reloadBoards() {
    m_boards = targets::loadBoards();
    if (!m_boards.find(m_boardId) && !m_boards.boards.empty())
        m_boardId = m_boards.find(QStringLiteral("sim-k230")) ? QStringLiteral("sim-k230")
                                                               : m_boards.boards.front().id;
}

void StudioSession::setBoard(const QString& id) {
    if (id == m_boardId || !m_boards.find(id)) return;
    m_boardId = id;
    // The architecture decides which libraries are available (and so what fuses).
    if (updateAssignments()) emit modelChanged();
    emit targetChanged();
}

void StudioSession::setLibrary(const QString& id) {
    if (id.toStdString() == m_request.library || !targets::findKernelLibrary(id.toStdString())) return;
    m_request.library = id.toStdString();
    if (updateAssignments()) emit modelChanged();
    emit targetChanged();
}

void StudioSession::setNodeOverride(const QString& node, const QString& library) {
    if (library.isEmpty()) m_request.nodeOverrides.erase(node.toStdString());
    else m_request.nodeOverrides[node.toStdString()] = library.toStdString();
    updateAssignments();
    emit targetChanged();
}

void StudioSession::setOpOverride(const QString& op, const QString& library) {
    if (library.isEmpty()) m_request.opOverrides.erase(op.toStdString());
    else m_request.opOverrides[op.toStdString()] = library.toStdString();
    updateAssignments();
    emit targetChanged();
}

void StudioSession::select(int stage, const QString& node) {
    if (stage == m_selStage && node == m_selNode) return;
    m_selStage = stage;
    m_selNode = node;
    emit selectionChanged(stage, node);
}

bool StudioSession::updateAssignments() {
    m_assignments.clear();
    m_assignmentError.clear();
    m_plan.reset();
    m_planError.clear();
    m_deployment.reset();
    auto imported = stageGraph(0);
    if (!imported) return false;
    auto plan = planForStudio(*imported, m_request, board() ? board()->arch : QString());
    if (!plan.ok()) {
        m_assignmentError = QString::fromStdString(plan.error().message);
        m_planError = m_assignmentError;
        return false;
    }
    m_deployment = std::shared_ptr<exporter::DeploymentPlan>(std::move(*plan));
    m_assignments = assignmentsOf(m_deployment->adaptation);
    m_plan = m_deployment->memory;
    // The passes depend on the library (its fusion patterns): when they rewrote differently
    // from the stages on screen, the plan's stages become the model's, so every view follows.
    const passes::PassRun& run = m_deployment->passes;
    bool same = run.stages.size() == m_run->stages.size();
    for (size_t i = 0; same && i < run.stages.size(); ++i)
        same = run.stages[i].log == m_run->stages[i].log && run.stages[i].name == m_run->stages[i].name;
    if (same) return false;
    m_run = std::shared_ptr<passes::PassRun>(m_deployment, &m_deployment->passes);
    m_graphs.clear();
    for (const passes::StageSnapshot& s : m_run->stages)
        m_graphs.push_back(std::shared_ptr<const ir::Graph>(m_run, &s.graph));
    return true;
}

} // namespace embark::ui

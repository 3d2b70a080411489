#include "studio_session.h"

#include "onnx/importer.h"
#include "export/kernel_libraries.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <set>

namespace embark::ui {

namespace {

// A model shown for a preview (onnx::ImportOptions::keepUnsupportedOps) is never planned.
bool hasPlaceholders(const ir::Graph& graph) {
    for (const ir::Node* n : graph.nodes())
        if (n->has(onnx::kUnsupportedOpAttr)) return true;
    return false;
}

// A model refused for an op Embark lacks, imported for display with that op's nodes as
// marked placeholders: its one stage, and why it cannot run anywhere (naming the nodes).
// Nothing when it does not import even so (an unsupported dtype is refused as before).
struct Preview {
    std::shared_ptr<passes::PassRun> run;
    QString error;
};
std::optional<Preview> previewImport(const QString& path, onnx::ImportOptions import) {
    // The checker would refuse an unknown default-domain op; the first import already ran it
    // on everything else.
    import.keepUnsupportedOps = true;
    import.runChecker = false;
    auto preview = onnx::importModel(path.toStdString(), import);
    if (!preview.ok()) return std::nullopt;
    QStringList nodes;
    for (const ir::Node* n : preview->nodes())
        if (n->has(onnx::kUnsupportedOpAttr))
            nodes << QCoreApplication::translate("embark::ui::StudioSession", "'%1' (%2)")
                         .arg(QString::fromStdString(n->name),
                              QString::fromStdString(n->attrString(onnx::kUnsupportedOpAttr, "")));
    if (nodes.isEmpty()) return std::nullopt;
    // Only the imported graph: no pass, plan or library sees the placeholders.
    Preview out;
    out.run = std::make_shared<passes::PassRun>();
    out.run->graph = preview->clone();
    out.run->stages.push_back(passes::StageSnapshot{"imported", std::move(*preview), {}, 0});
    out.error = QCoreApplication::translate(
                    "embark::ui::StudioSession",
                    "Cannot run on any board or kernel library: %n node(s) use an op Embark does not support "
                    "(marked red in the graph): %1. Replace them in the model (or export it without them) to "
                    "deploy it.",
                    nullptr, int(nodes.size()))
                    .arg(nodes.join(QStringLiteral(", ")));
    return out;
}

} // namespace

StudioSession::StudioSession(QObject* parent) : QObject(parent), m_undoStack(new QUndoStack(this)) { reloadBoards(); }

namespace {

// The stages a model shows when no plan could be built (the plan's error says why): the passes
// alone, as the export would have run them.
Expected<std::shared_ptr<passes::PassRun>> stagesWithoutPlan(const ir::Graph& imported, const std::string& library) {
    passes::PassOptions options;
    options.library = exporter::findKernelLibrary(library);
    auto run = passes::PassManager::run(imported, "default", options);
    if (!run.ok()) return run.error();
    return std::make_shared<passes::PassRun>(std::move(*run));
}

} // namespace

StudioSession::Planned StudioSession::planModel(std::shared_ptr<const ir::Graph> imported,
                                                const AssignmentRequest& request, const targets::Board& board) {
    Planned out;
    auto plan = planForStudio(*imported, request, board);
    if (plan.ok()) {
        out.plan = std::shared_ptr<exporter::DeploymentPlan>(std::move(*plan));
        out.run = std::shared_ptr<passes::PassRun>(out.plan, &out.plan->passes);
        return out;
    }
    out.planError = QString::fromStdString(plan.error().message);
    auto stages = stagesWithoutPlan(*imported, request.library);
    if (stages.ok())
        out.run = std::move(*stages);
    else
        out.openError = QString::fromStdString(stages.error().message);
    return out;
}

StudioSession::Planned StudioSession::prepareModel(const QString& path, const std::map<std::string, ir::Shape>& shapes,
                                                   const AssignmentRequest& request, const targets::Board& board) {
    onnx::ImportOptions import;
    import.shapeOverrides = shapes;
    auto graph = onnx::importModel(path.toStdString(), import);
    if (!graph.ok() && graph.error().kind == ErrorKind::Unsupported)
        if (std::optional<Preview> preview = previewImport(path, import)) {
            Planned out;
            out.run = std::move(preview->run);
            out.planError = preview->error;
            return out;
        }
    if (!graph.ok()) {
        Planned failed;
        failed.openError = QString::fromStdString(graph.error().message);
        return failed;
    }
    AssignmentRequest fresh = request;
    fresh.measured.reset(); // a measurement names the previous model's nodes
    return planModel(std::make_shared<const ir::Graph>(std::move(*graph)), fresh, board);
}

targets::Board StudioSession::targetBoard() const { return board() ? *board() : targets::Board{}; }

Status StudioSession::openModel(const QString& path, const std::map<std::string, ir::Shape>& shapes) {
    Planned prepared = prepareModel(path, shapes, m_request, targetBoard());
    if (!prepared.openError.isEmpty()) return makeError(ErrorKind::InvalidInput, prepared.openError.toStdString());
    ++m_openSerial; // a background open still running is superseded
    m_shapes = shapes;
    adoptModel(path, std::move(prepared));
    return {};
}

void StudioSession::openModelInBackground(const QString& path, const std::map<std::string, ir::Shape>& shapes) {
    const quint64 serial = ++m_openSerial;
    ++m_opening;
    auto* watcher = new QFutureWatcher<Planned>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path, serial, shapes] {
        watcher->deleteLater();
        --m_opening;
        Planned result = watcher->result();
        if (serial != m_openSerial) return; // a newer open replaced this one
        if (!result.openError.isEmpty()) {
            emit modelOpenFinished(path, result.openError);
            return;
        }
        m_shapes = shapes;
        adoptModel(path, std::move(result));
        emit modelOpenFinished(path, {});
    });
    watcher->setFuture(QtConcurrent::run(&StudioSession::prepareModel, path, shapes, m_request, targetBoard()));
}

void StudioSession::adoptModel(const QString& path, Planned prepared) {
    m_path = path;
    m_request.measured.reset(); // of the previous model
    ++m_planSerial;             // a plan of the previous model still being built is dropped
    m_selStage = -1;
    m_selNode.clear();
    m_undoStack->clear();
    adoptPlan(std::move(prepared), /*keepStagesIfSame=*/false);
    emit modelChanged();
    emit targetChanged();
}

bool StudioSession::adoptPlan(Planned planned, bool keepStagesIfSame) {
    m_deployment = planned.plan;
    m_assignmentError = planned.planError;
    m_planError = planned.planError;
    m_assignments = m_deployment ? assignmentsOf(m_deployment->adaptation) : LibraryAssignments{};
    m_plan = m_deployment ? std::optional<exporter::MemoryPlan>(m_deployment->memory) : std::nullopt;
    if (!planned.run) return false;
    // The passes depend on the library (its fusion patterns): when they rewrote the same way
    // as the stages on screen, the views keep theirs; otherwise the plan's stages become the
    // model's, so every view follows.
    if (keepStagesIfSame && m_run) {
        bool same = planned.run->stages.size() == m_run->stages.size();
        for (size_t i = 0; same && i < m_run->stages.size(); ++i)
            same = planned.run->stages[i].log == m_run->stages[i].log &&
                   planned.run->stages[i].name == m_run->stages[i].name;
        if (same) return false;
    }
    // Views keep the graphs alive while a layout is computed, so they hold shared pointers
    // into the run rather than copies.
    m_run = std::move(planned.run);
    m_graphs.clear();
    for (const passes::StageSnapshot& st : m_run->stages)
        m_graphs.push_back(std::shared_ptr<const ir::Graph>(m_run, &st.graph));
    return true;
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
        m_boardId = m_boards.find(QStringLiteral("sim-k230")) ? QStringLiteral("sim-k230") : m_boards.boards.front().id;
}

void StudioSession::setBoard(const QString& id) {
    if (id == m_boardId || !m_boards.find(id)) return;
    m_boardId = id;
    m_request.measured.reset(); // measured on another board
    // The architecture decides which libraries are available (and so what fuses).
    updateAssignments();
}

void StudioSession::setLibrary(const QString& id) {
    const bool known = id == QLatin1String("auto") || exporter::findKernelLibrary(id.toStdString());
    if (id.toStdString() == m_request.library || !known) return;
    m_request.library = id.toStdString();
    m_request.measured.reset();
    updateAssignments();
}

void StudioSession::setMeasurementFailed(const QString& key, const QString& error) {
    m_measureErrorKey = key;
    m_measureError = error;
    emit targetChanged();
}

bool StudioSession::needsMeasurement() const {
    auto imported = stageGraph(0);
    return isAutoLibrary() && !m_request.measured && imported && !hasPlaceholders(*imported) && board();
}

QString StudioSession::measurementKey() const {
    QStringList parts{m_path, m_boardId};
    for (const auto& [node, lib] : m_request.nodeOverrides) parts << QString::fromStdString("node:" + node + "=" + lib);
    for (const auto& [op, lib] : m_request.opOverrides) parts << QString::fromStdString("op:" + op + "=" + lib);
    return parts.join(QLatin1Char('|'));
}

void StudioSession::setMeasuredChoice(const QString& key, std::shared_ptr<const exporter::MeasuredChoice> choice) {
    if (!isAutoLibrary() || key != measurementKey()) return; // the model, board or overrides changed since
    m_request.measured = std::move(choice);
    updateAssignments();
}

QString StudioSession::runtime() const {
    const targets::Board* b = board();
    return m_runtime == QLatin1String("onnxruntime") && b && b->onnxruntime ? m_runtime : QStringLiteral("export");
}

void StudioSession::setRuntime(const QString& id) {
    if (id == m_runtime || !targets::knownRuntimes().contains(id)) return;
    m_runtime = id;
    emit targetChanged();
}

void StudioSession::setEpOptions(const QStringList& options) {
    if (options == m_epOptions) return;
    m_epOptions = options;
    emit targetChanged();
}

void StudioSession::setNodeOverride(const QString& node, const QString& library) {
    if (library.isEmpty())
        m_request.nodeOverrides.erase(node.toStdString());
    else
        m_request.nodeOverrides[node.toStdString()] = library.toStdString();
    m_request.measured.reset(); // the measurement skipped the overridden nodes
    updateAssignments();
}

void StudioSession::setOpOverride(const QString& op, const QString& library) {
    if (library.isEmpty())
        m_request.opOverrides.erase(op.toStdString());
    else
        m_request.opOverrides[op.toStdString()] = library.toStdString();
    m_request.measured.reset(); // the measurement skipped the overridden nodes
    updateAssignments();
}

void StudioSession::select(int stage, const QString& node) {
    if (stage == m_selStage && node == m_selNode) return;
    m_selStage = stage;
    m_selNode = node;
    emit selectionChanged(stage, node);
}

void StudioSession::updateAssignments() {
    auto imported = stageGraph(0);
    const quint64 serial = ++m_planSerial;
    if (!imported || hasPlaceholders(*imported)) { // a preview: "cannot run" on every target
        emit targetChanged();
        return;
    }
    if (static_cast<int>(imported->nodes().size()) < m_asyncPlanNodes) {
        if (adoptPlan(planModel(imported, m_request, targetBoard()), true)) emit modelChanged();
        emit targetChanged();
        return;
    }
    // A big model: the plan is built on a worker thread and swapped in when it is ready (a
    // newer edit supersedes it); the window stays responsive meanwhile.
    ++m_planning;
    emit planningChanged(true);
    auto* watcher = new QFutureWatcher<Planned>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, serial] {
        watcher->deleteLater();
        --m_planning;
        if (serial == m_planSerial) {
            if (adoptPlan(watcher->result(), true)) emit modelChanged();
            emit targetChanged();
        }
        if (m_planning == 0) emit planningChanged(false);
    });
    watcher->setFuture(QtConcurrent::run(&StudioSession::planModel, imported, m_request, targetBoard()));
}

} // namespace embark::ui

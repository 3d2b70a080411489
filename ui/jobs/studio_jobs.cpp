#include "studio_jobs.h"
#include "targets/source_tree.h"

#include "charts/charts_panel.h"
#include "job_toast.h"
#include "jobs_panel.h"
#include "run_charts.h"
#include "session/studio_session.h"

#include "jobs/job_recipes.h"
#include "jobs/measure_libraries.h"
#include "jobs/resolve_target.h"
#include "jobs/quantize_job.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

#include <algorithm>

namespace embark::ui {

StudioJobs::StudioJobs(QMainWindow* window, StudioSession* session, ChartsPanel* charts, QMenu* viewMenu)
    : QObject(window), m_window(window), m_session(session), m_charts(charts) {
    m_queue = new jobs::JobQueue(this);
    m_panel = new JobsPanel(m_queue, window);
    m_toast = new JobToast(window);
    m_dock = new QDockWidget(tr("Jobs"), window);
    m_dock->setObjectName(QStringLiteral("jobsDock")); // saveState() needs a stable name
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    // Jobs and the charts of their runs share the bottom area as tabs, so both get its width.
    if (QDockWidget* charts = chartsDock()) window->tabifyDockWidget(charts, m_dock);
    m_dock->toggleViewAction()->setShortcut(QKeySequence(Qt::ALT | Qt::Key_5));
    viewMenu->addAction(m_dock->toggleViewAction());

    QSettings settings;
    m_benchDefaults.iterations = settings.value(QStringLiteral("bench/iterations"), 10).toInt();
    m_benchDefaults.warmup = settings.value(QStringLiteral("bench/warmup"), 2).toInt();
    createActions(window);
    connect(m_queue, &jobs::JobQueue::finished, this, &StudioJobs::onFinished);
    connect(m_queue, &jobs::JobQueue::queued, this, &StudioJobs::showJobsDock);
    auto targetChanged = [this] {
        // An export or a build belongs to one model, board and library.
        m_lastExport.clear();
        m_lastBinary.clear();
        const bool haveModel = m_session->hasModel();
        m_export->setEnabled(haveModel);
        m_build->setEnabled(haveModel);
        m_bench->setEnabled(haveModel);
    };
    connect(m_session, &StudioSession::modelChanged, this, targetChanged);
    connect(m_session, &StudioSession::targetChanged, this, targetChanged);
    targetChanged();
    // Library "auto" picked, or its model, board or overrides changed: measure (again).
    connect(m_session, &StudioSession::targetChanged, this, [this] {
        if (m_session->needsMeasurement() && m_session->measurementKey() != m_measureFailed) measureLibraries();
    });
}

namespace {

// What a measurement job leaves: the choice and what it is of (StudioSession::measurementKey).
struct MeasureResult {
    QString key;
    std::shared_ptr<const exporter::MeasuredChoice> choice;
};

} // namespace

int StudioJobs::measureLibraries() {
    if (!m_session->needsMeasurement()) return -1;
    const QString key = m_session->measurementKey();
    if (key == m_measuring) return -1;
    const targets::Board* board = m_session->board();
    jobs::TargetRequest request;
    request.board = board->id;
    request.library = "auto";
    request.opOverrides = m_session->request().opOverrides;
    request.nodeOverrides = m_session->request().nodeOverrides;
    targets::BoardCatalog one;
    one.boards.push_back(*board);
    auto target = jobs::resolveTarget(request, one);
    if (!target) {
        notify(tr("Cannot measure the kernel libraries: %1").arg(QString::fromStdString(target.error().message)), true);
        return -1;
    }
    jobs::MeasureOptions options;
    options.ssh = sshOptions(board->id);
    auto graph = m_session->stageGraph(0);
    const QString model = QFileInfo(m_session->modelPath()).completeBaseName();
    auto job = std::make_shared<jobs::Job>(
        tr("Measure kernel libraries: %1 on %2").arg(model, board->id), jobs::JobKind::Build,
        [graph, resolved = *target, options, key](jobs::JobContext& ctx) mutable -> Status {
            options.cancel = ctx.cancelFlag();
            options.log = [&ctx](const QString& line) { ctx.log(line); };
            ctx.progress(QStringLiteral("measure"), 0, 0);
            EMBARK_TRY(jobs::chooseLibrariesByMeasurement(*graph, resolved, options));
            const exporter::MeasuredChoice& c = *resolved.measured;
            ctx.setResult(MeasureResult{key, resolved.measured},
                          QStringLiteral("%1 node(s) chosen (%2 measured, %3 cached)")
                              .arg(c.nodes.size())
                              .arg(c.measuredCount)
                              .arg(c.cachedCount));
            return {};
        });
    m_measuring = key;
    m_measureFailed.clear();
    m_measureJob = m_queue->enqueue(job);
    return m_measureJob;
}

void StudioJobs::createActions(QMainWindow* window) {
    auto* menu = new QMenu(tr("&Run"), window);
    m_runMenu = menu;
    const QList<QAction*> menus = window->menuBar()->actions();
    window->menuBar()->insertMenu(menus.isEmpty() ? nullptr : menus.last(), menu); // before Help
    QStyle* style = window->style();
    m_export = menu->addAction(style->standardIcon(QStyle::SP_DialogSaveButton), tr("&Export..."), this,
                               &StudioJobs::exportWithDialog);
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_export->setToolTip(tr("Write the standalone C++ export for the chosen board and kernel library"));
    m_build =
        menu->addAction(style->standardIcon(QStyle::SP_BrowserReload), tr("&Build"), this, &StudioJobs::buildCurrent);
    m_build->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    m_build->setToolTip(tr("Cross-compile the last export (exports the model first when needed)"));
    m_deploy = menu->addAction(style->standardIcon(QStyle::SP_ArrowUp), tr("&Deploy and run once"), this,
                               &StudioJobs::deployCurrent);
    m_deploy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    m_deploy->setToolTip(tr("Upload the last build to the board and run it once"));
    menu->addSeparator();
    m_bench = menu->addAction(style->standardIcon(QStyle::SP_MediaPlay), tr("Run &benchmark"), this,
                              [this] { runBenchmark(); });
    m_bench->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    m_bench->setToolTip(tr("Export, build, deploy and run on the chosen board, then show timings and accuracy (F5)"));
    menu->addSeparator();
    QAction* cancelAll = menu->addAction(tr("&Cancel all jobs"), m_queue, &jobs::JobQueue::cancelAll);
    cancelAll->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));

    QToolBar* bar = window->addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("runToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_export);
    bar->addAction(m_build);
    bar->addAction(m_bench);
}

QString StudioJobs::defaultExportDir() const {
    const QString name =
        QStringLiteral("%1-%2-%3")
            .arg(QFileInfo(m_session->modelPath()).completeBaseName(), m_session->boardId(), m_session->library());
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/exports/") + name;
}

void StudioJobs::setSshOptionsProvider(std::function<deploy::SshOptions(const QString&)> provider) {
    m_sshProvider = std::move(provider);
}

deploy::SshOptions StudioJobs::sshOptions(const QString& boardId) const {
    return m_sshProvider ? m_sshProvider(boardId) : m_benchDefaults.ssh;
}

QString StudioJobs::exportDialogStartDir() const {
    const QString fallback = QFileInfo(defaultExportDir()).absolutePath();
    QString start = QSettings().value(QStringLiteral("exportParent"), fallback).toString();
    if (!QFileInfo(start).isDir()) start = fallback; // a remembered folder since removed
    QDir().mkpath(start);
    return start;
}

void StudioJobs::exportWithDialog() {
    if (!m_session->hasModel()) return notify(tr("Open a model before exporting it."), true);
    QSettings settings;
    const QString parent =
        QFileDialog::getExistingDirectory(m_window, tr("Folder to write the export into"), exportDialogStartDir());
    if (parent.isEmpty()) return;
    settings.setValue(QStringLiteral("exportParent"), parent);
    const QString dir = QDir(parent).filePath(QFileInfo(defaultExportDir()).fileName());
    bool replace = false;
    if (QDir(dir).exists() && !QDir(dir).isEmpty()) {
        if (QMessageBox::question(m_window, tr("Replace export"),
                                  tr("%1 is not empty. Replace it with the new export?").arg(dir)) != QMessageBox::Yes)
            return;
        replace = true;
    }
    exportTo(dir, replace);
}

jobs::ExportRequest StudioJobs::exportRequest(const QString& dir, bool replace) const {
    jobs::ExportRequest r;
    r.modelPath = m_session->modelPath();
    r.graph = m_session->stageGraph(0);
    // The plan the views show is the one written (none while a newer one is being built).
    // Library "auto" still measuring: the export measures (or reads the cache) itself.
    if (!m_session->isPlanning() && !m_session->needsMeasurement()) r.plan = m_session->deploymentPlan();
    r.boardId = m_session->boardId();
    r.library = m_session->library().toStdString();
    r.opOverrides = m_session->request().opOverrides;
    r.nodeOverrides = m_session->request().nodeOverrides;
    r.outDir = dir;
    r.force = replace;
    return r;
}

int StudioJobs::exportTo(const QString& dir, bool replace) {
    if (!m_session->hasModel()) return notify(tr("Open a model before exporting it."), true), -1;
    jobs::ExportRequest r = exportRequest(dir, replace);
    const QString title =
        tr("Export %1 for %2 (%3)").arg(QFileInfo(r.modelPath).completeBaseName(), r.boardId, m_session->library());
    return m_queue->enqueue(jobs::makeExportJob(std::move(r), title));
}

void StudioJobs::buildXnnpackWithDialog(const QString& arch) {
    QSettings settings;
    const QString shared = targets::sourceTree() + "/../shared/xnnpack/src";
    const QString start =
        settings.value(QStringLiteral("xnnpackTarballs"), QDir(shared).exists() ? shared : QDir::homePath()).toString();
    const QString dir = QFileDialog::getExistingDirectory(
        m_window, tr("Folder with the XNNPACK, cpuinfo, pthreadpool and FXdiv tarballs"), start);
    if (dir.isEmpty()) return;
    settings.setValue(QStringLiteral("xnnpackTarballs"), dir);
    buildXnnpack(arch, dir);
}

int StudioJobs::buildXnnpack(const QString& arch, const QString& tarballsDir) {
    xnnpack::XnnpackBuildOptions o;
    o.arch = arch;
    o.tarballsDir = tarballsDir;
    return m_queue->enqueue(jobs::makeXnnpackBuildJob(std::move(o), tr("Build XNNPACK for %1").arg(arch)));
}

void StudioJobs::buildCurrent() {
    if (m_lastExport.isEmpty()) {
        // A newcomer's Build: export into the default folder and build it, as one job (a
        // failed export builds nothing).
        if (!m_session->hasModel()) return notify(tr("Open a model before building it."), true);
        jobs::ExportRequest r = exportRequest(defaultExportDir(), true);
        r.build = true;
        m_queue->enqueue(jobs::makeExportJob(
            std::move(r), tr("Export and build %1 for %2")
                              .arg(QFileInfo(m_session->modelPath()).completeBaseName(), m_session->boardId())));
        return;
    }
    buildExport(m_lastExport);
}

int StudioJobs::buildExport(const QString& exportDir) {
    jobs::BuildRequest r;
    r.exportDir = exportDir;
    const QString title = tr("Build %1").arg(QFileInfo(exportDir).fileName());
    return m_queue->enqueue(jobs::makeBuildJob(std::move(r), title));
}

void StudioJobs::deployCurrent() {
    if (!m_lastBinary.isEmpty()) return void(deployBinary(m_lastBinary));
    // Like the benchmark, deploy builds what it needs: the last export, or a new one.
    if (!m_lastExport.isEmpty() || m_session->hasModel()) {
        jobs::DeployRequest r;
        r.boardId = m_session->boardId();
        r.ssh = sshOptions(r.boardId);
        if (!m_lastExport.isEmpty())
            r.exportDir = m_lastExport;
        else
            r.exportFirst = exportRequest(defaultExportDir(), true);
        m_queue->enqueue(jobs::makeDeployJob(std::move(r), tr("Build and deploy to %1").arg(r.boardId)));
        return;
    }
    notify(tr("Open a model before deploying it."), true);
}

int StudioJobs::deployBinary(const QString& binary) {
    jobs::DeployRequest r;
    r.binary = binary;
    r.boardId = m_session->boardId();
    r.ssh = sshOptions(r.boardId);
    const QString title = tr("Deploy to %1").arg(r.boardId);
    return m_queue->enqueue(jobs::makeDeployJob(std::move(r), title));
}

QString StudioJobs::benchmarkKey(const jobs::BenchOptions& o) {
    QStringList parts{QFileInfo(o.modelPath).absoluteFilePath(), o.boardId, QString::fromStdString(o.library),
                      o.runtime, o.epOptions.join(QLatin1Char(','))};
    for (const auto& [name, shape] : o.shapeOverrides) parts << QString::fromStdString(name + "=" + shape.str());
    for (const auto& [op, lib] : o.opOverrides) parts << QString::fromStdString("op:" + op + "=" + lib);
    for (const auto& [node, lib] : o.nodeOverrides) parts << QString::fromStdString("node:" + node + "=" + lib);
    return parts.join(QLatin1Char('\n'));
}

int StudioJobs::runBenchmark() {
    if (!m_session->hasModel()) return notify(tr("Open a model before running a benchmark."), true), -1;
    jobs::BenchOptions o = m_benchDefaults;
    o.modelPath = m_session->modelPath();
    o.shapeOverrides = m_session->shapeOverrides(); // the input shapes the user chose when opening it
    o.boardId = m_session->boardId();
    o.library = m_session->library().toStdString();
    o.opOverrides = m_session->request().opOverrides;
    o.nodeOverrides = m_session->request().nodeOverrides;
    o.runtime = m_session->runtime(); // "onnxruntime": the board's ONNX Runtime instead of an export
    if (o.runtime == QLatin1String("onnxruntime") && m_session->board() && m_session->board()->onnxruntime &&
        m_session->board()->onnxruntime->ep == QLatin1String("spacemit"))
        o.epOptions = m_session->epOptions();
    o.layers = true;
    o.accuracyLayers = true;
    o.ssh = sshOptions(o.boardId);
    const QString title =
        tr("Benchmark %1 on %2 (%3)")
            .arg(QFileInfo(o.modelPath).completeBaseName(), o.boardId,
                 o.runtime == QLatin1String("onnxruntime") ? tr("ONNX Runtime") : m_session->library());
    // F5 pressed again while the same benchmark is queued or running: show that one.
    const QString key = benchmarkKey(o);
    for (auto it = m_benchKeys.cbegin(); it != m_benchKeys.cend(); ++it) {
        auto job = m_queue->job(it.key());
        if (it.value() != key || !job) continue;
        if (job->state() != jobs::JobState::Queued && job->state() != jobs::JobState::Running) continue;
        showJobsDock();
        m_panel->selectJob(it.key());
        notify(tr("%1 is already running.").arg(job->title()), false);
        return it.key();
    }
    const int id = m_queue->enqueue(jobs::makeBenchmarkJob(std::move(o), title));
    m_benchKeys.insert(id, key);
    return id;
}

void StudioJobs::onFinished(int id, jobs::JobState state, const QString& message) {
    auto job = m_queue->job(id);
    if (!job) return;
    const std::any result = job->result();
    if (state == jobs::JobState::Succeeded && job->kind() == jobs::JobKind::Export)
        if (auto* r = std::any_cast<exporter::ExportResult>(&result)) m_lastExport = r->dir;
    if (state == jobs::JobState::Succeeded && job->kind() == jobs::JobKind::Build)
        if (auto* r = std::any_cast<build::BuildResult>(&result)) {
            m_lastBinary = r->binary;
            // <export>/build/run_export: an export-and-build job made that export too.
            QDir exportDir = QFileInfo(r->binary).dir();
            if (exportDir.cdUp() && QFileInfo::exists(exportDir.filePath(QStringLiteral("export.json"))))
                m_lastExport = exportDir.absolutePath();
        }
    if (state == jobs::JobState::Succeeded && std::any_cast<xnnpack::XnnpackBuildResult>(&result)) {
        // A new tree makes XNNPACK available on its architecture: re-choose the library so the
        // session adapts the model again (the session has no other way to be told).
        const QString library = m_session->library();
        m_session->setLibrary(QStringLiteral("portable"));
        m_session->setLibrary(library);
    }
    if (id == m_measureJob) {
        m_measureJob = -1;
        const QString key = m_measuring;
        m_measuring.clear();
        if (state == jobs::JobState::Failed || state == jobs::JobState::Cancelled) {
            m_measureFailed = key; // not started again by itself: the user picks auto again
            m_session->setMeasurementFailed(key, state == jobs::JobState::Cancelled ? tr("cancelled") : message);
        }
        if (auto* r = std::any_cast<MeasureResult>(&result); r && state == jobs::JobState::Succeeded)
            m_session->setMeasuredChoice(r->key, r->choice); // ignored when the model or board changed since
        else if (m_session->needsMeasurement() && m_session->measurementKey() != m_measureFailed)
            measureLibraries(); // the model, board or overrides changed while it ran
    }
    QString notShown; // a run of a model no longer open
    if (job->kind() == jobs::JobKind::Benchmark)
        if (auto* r = std::any_cast<jobs::BenchResult>(&result)) {
            if (r->record.id > 0) m_panel->setJobNote(id, tr("run #%1").arg(r->record.id));
            // The run's charts and colours only over its own model: the user may have opened
            // another one while it ran (the run stays one click away in the history).
            const RunCharts run = runChartsFromBench(*r);
            const bool ofOpenModel = run.modelPath.isEmpty() || sameModelPath(run.modelPath, m_session->modelPath());
            if (state == jobs::JobState::Succeeded && ofOpenModel) {
                m_charts->showRun(run);
                reveal(chartsDock());
            } else if (state == jobs::JobState::Succeeded) {
                notShown =
                    tr("%1 is no longer open: its run is in Run history").arg(QFileInfo(run.modelPath).fileName());
            }
            emit benchmarkFinished(r->record.id); // a failed run is stored too: the history shows it
        }
    m_benchKeys.remove(id);
    switch (state) {
    case jobs::JobState::Succeeded:
        notify(notShown.isEmpty() ? tr("%1 finished: %2").arg(job->title(), resultSummary(*job))
                                  : tr("%1 finished: %2 (%3)").arg(job->title(), resultSummary(*job), notShown),
               false);
        break;
    case jobs::JobState::Failed: notify(tr("%1 failed: %2").arg(job->title(), message), true); break;
    case jobs::JobState::Cancelled: notify(tr("%1 was cancelled.").arg(job->title()), false); break;
    default: break;
    }
}

QString StudioJobs::resultSummary(const jobs::Job& job) {
    // Built here from the result's figures, so the whole notice is in the user's language;
    // core's own summary (English) is the fallback.
    const std::any result = job.result();
    const QLocale locale;
    if (auto* r = std::any_cast<jobs::BenchResult>(&result)) {
        const store::RunRecord& rec = r->record;
        const int count = int(rec.latencyNs.size());
        double medianNs = rec.latency.medianNs;
        if (medianNs <= 0 && count > 0) {
            std::vector<int64_t> sorted = rec.latencyNs;
            std::sort(sorted.begin(), sorted.end());
            medianNs = count % 2 ? double(sorted[count / 2]) : (sorted[count / 2 - 1] + sorted[count / 2]) / 2.0;
        }
        const QString median = locale.toString(medianNs / 1e6, 'f', 3);
        return rec.id > 0 ? tr("run #%1, median %2 ms over %n iteration(s)", nullptr, count).arg(rec.id).arg(median)
                          : tr("median %1 ms over %n iteration(s)", nullptr, count).arg(median);
    }
    if (auto* r = std::any_cast<exporter::ExportResult>(&result))
        return tr("%n layer(s) written to %1", nullptr, r->layers).arg(r->dir);
    if (auto* r = std::any_cast<MeasureResult>(&result); r && r->choice) {
        int moved = 0;
        for (const auto& [name, node] : r->choice->nodes) moved += node.chosen != "portable";
        return tr("%n node(s) measured (%1 now, %2 from the cache), %3 not on portable", nullptr,
                  int(r->choice->nodes.size()))
            .arg(r->choice->measuredCount)
            .arg(r->choice->cachedCount)
            .arg(moved);
    }
    if (auto* out = std::any_cast<QString>(&result); out && job.kind() == jobs::JobKind::Deploy) {
        // Deploy and run once: what the model predicted, for a classifier.
        QStringList predictions;
        for (const QString& line : out->split(QLatin1Char('\n')))
            if (const QString p = JobsPanel::predictionText(line.trimmed()); !p.isEmpty()) predictions << p;
        if (!predictions.isEmpty()) return tr("ran once: %1").arg(predictions.join(QStringLiteral("; ")));
    }
    if (auto* r = std::any_cast<build::BuildResult>(&result))
        return tr("%1 (%2, %3)").arg(r->binary, r->elfMachine, locale.formattedDataSize(r->binaryBytes));
    if (auto* r = std::any_cast<jobs::QuantizeResult>(&result))
        return tr("%n layer(s) int8, %1 kept in float, written to %2", nullptr, r->report.quantizedNodes)
            .arg(r->report.excluded)
            .arg(r->request.outPath);
    return job.message();
}

void StudioJobs::notify(const QString& text, bool error) {
    m_window->statusBar()->showMessage(text, 15000);
    m_toast->showMessage(text, error);
}

void StudioJobs::showJobsDock() { reveal(m_dock); }

void StudioJobs::reveal(QDockWidget* dock) {
    if (!dock) return;
    if (m_revealer) return m_revealer(dock);
    dock->show();
    dock->raise();
}

QDockWidget* StudioJobs::chartsDock() const {
    for (QWidget* w = m_charts; w; w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w)) return dock;
    return nullptr;
}

} // namespace embark::ui

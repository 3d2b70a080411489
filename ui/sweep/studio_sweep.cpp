#include "studio_sweep.h"

#include "jobs/studio_jobs.h"
#include "session/studio_session.h"
#include "sweep_dialog.h"
#include "sweep_view.h"

#include "targets/board.h"

#include <QAction>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

#include <mutex>

namespace embark::ui {

struct StudioSweep::Live {
    std::mutex mutex;
    jobs::SweepResult sweep; // sweepId empty until the first cell reports
};

StudioSweep::StudioSweep(QMainWindow* window, StudioSession* session, StudioJobs* jobs, QMenu* runMenu)
    : QObject(window), m_window(window), m_session(session), m_jobs(jobs) {
    m_action = new QAction(tr("S&weep..."), this);
    m_action->setObjectName(QStringLiteral("sweepAction"));
    m_action->setToolTip(tr("Benchmark models on every matching board with every chosen library, as one job: "
                            "a table and a chart with the best library per board"));
    if (runMenu) {
        // After "Run benchmark".
        QAction* before = nullptr;
        const QList<QAction*> actions = runMenu->actions();
        const int bench = actions.indexOf(m_jobs->benchmarkAction());
        if (bench >= 0 && bench + 1 < actions.size()) before = actions[bench + 1];
        runMenu->insertAction(before, m_action);
    }
    connect(m_action, &QAction::triggered, this, &StudioSweep::sweepWithDialog);
    jobs::JobQueue* queue = m_jobs->queue();
    connect(queue, &jobs::JobQueue::progressChanged, this, [this](int id) { showProgress(id); });
    connect(queue, &jobs::JobQueue::finished, this, [this](int id) { onFinished(id); });
}

SweepView* StudioSweep::view(int jobId) const { return m_views.value(jobId); }

void StudioSweep::sweepWithDialog() {
    QStringList models;
    if (m_session->hasModel()) models << m_session->modelPath();
    SweepDialog dialog(models, m_session->boardId(), m_window);
    if (dialog.exec() != QDialog::Accepted) return;
    runSweep(dialog.options());
}

int StudioSweep::runSweep(jobs::SweepOptions o) {
    const jobs::BenchOptions& defaults = m_jobs->benchDefaults();
    if (o.base.workDir.isEmpty()) o.base.workDir = defaults.workDir;
    if (o.base.storePath.isEmpty()) o.base.storePath = defaults.storePath;
    auto boards = jobs::matchBoards(targets::loadBoards(), o.boardPatterns);
    if (o.models.isEmpty() || o.libraries.empty() || !boards) {
        const QString why = !boards ? QString::fromStdString(boards.error().message)
                                    : tr("A sweep needs at least one model and one library.");
        if (m_window->statusBar()) m_window->statusBar()->showMessage(why, 10000);
        return -1;
    }
    o.base.ssh = defaults.ssh;
    // The cells in runSweep's order, pending until each reports.
    auto live = std::make_shared<Live>();
    for (const QString& model : o.models)
        for (const targets::Board& board : *boards)
            for (const bool quantized : o.quantized ? std::vector<bool>{false, true} : std::vector<bool>{false})
                for (const std::string& lib : o.libraries) {
                    jobs::SweepCell c;
                    c.model = model;
                    c.boardId = board.id;
                    c.library = lib;
                    c.quantized = quantized;
                    live->sweep.cells.push_back(c);
                }
    QStringList names;
    for (const QString& m : o.models) names << QFileInfo(m).completeBaseName();
    const QString title =
        tr("Sweep %1 on %2").arg(names.join(QStringLiteral(", ")), o.boardPatterns.join(QStringLiteral(", ")));
    auto job = std::make_shared<jobs::Job>(title, jobs::JobKind::Benchmark, [o, live](jobs::JobContext& ctx) -> Status {
        jobs::SweepOptions options = o;
        options.base.cancel = ctx.cancelFlag();
        options.base.log = [&ctx](const QString& line) { ctx.log(line); };
        int done = 0;
        options.cellChanged = [&](const jobs::SweepCell& c, int index, int count) {
            using S = jobs::SweepCell::State;
            if (c.state != S::Pending && c.state != S::Running) ++done;
            {
                std::lock_guard lock(live->mutex);
                if (int(live->sweep.cells.size()) != count) live->sweep.cells.resize(size_t(count));
                live->sweep.cells[size_t(index)] = c;
            }
            const QString line = QStringLiteral("[%1/%2] %3 %4 %5%6: %7")
                                     .arg(index + 1)
                                     .arg(count)
                                     .arg(QFileInfo(c.model).completeBaseName(), c.boardId,
                                          QString::fromStdString(c.library), QLatin1String(c.quantized ? " int8" : ""),
                                          QString::fromLatin1(jobs::sweepCellStateName(c.state)));
            ctx.log(c.message.empty() || c.state == S::Ok ? line
                                                          : line + " (" + QString::fromStdString(c.message) + ")");
            ctx.progress(QStringLiteral("cell %1 of %2").arg(index + 1).arg(count), done, count);
        };
        auto r = jobs::runSweep(options);
        if (!r) return r.error();
        {
            std::lock_guard lock(live->mutex);
            live->sweep = *r;
        }
        ctx.setResult(
            *r, QStringLiteral("sweep %1: %2 cells, %3 failed").arg(r->sweepId).arg(r->cells.size()).arg(r->failed()));
        if (ctx.cancelled()) return makeError(ErrorKind::External, "sweep cancelled");
        if (r->failed())
            return makeError(ErrorKind::External, QStringLiteral("%1 of %2 cells of sweep %3 failed")
                                                      .arg(r->failed())
                                                      .arg(r->cells.size())
                                                      .arg(r->sweepId)
                                                      .toStdString());
        return {};
    });
    const int id = m_jobs->queue()->enqueue(job);
    m_live.insert(id, live);
    auto* view = new SweepView(m_window);
    view->setWindowFlag(Qt::Window);
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->setWindowTitle(title);
    view->setCells(live->sweep, false);
    connect(view, &SweepView::cancelRequested, this, [this, id] { m_jobs->queue()->cancel(id); });
    connect(view, &SweepView::runOpened, this, &StudioSweep::runOpened);
    m_views.insert(id, view);
    view->show();
    return id;
}

void StudioSweep::showProgress(int jobId) {
    auto live = m_live.value(jobId);
    SweepView* view = m_views.value(jobId);
    if (!live || !view) return;
    jobs::SweepResult copy;
    {
        std::lock_guard lock(live->mutex);
        copy = live->sweep;
    }
    view->setCells(copy, false);
}

void StudioSweep::onFinished(int jobId) {
    auto live = m_live.take(jobId);
    if (!live) return;
    auto job = m_jobs->queue()->job(jobId);
    const jobs::JobState state = job ? job->state() : jobs::JobState::Failed;
    jobs::SweepResult copy;
    {
        std::lock_guard lock(live->mutex);
        copy = live->sweep;
    }
    if (state != jobs::JobState::Succeeded)
        for (jobs::SweepCell& c : copy.cells) // a sweep cancelled or refused before these cells ran
            if (c.state == jobs::SweepCell::State::Pending || c.state == jobs::SweepCell::State::Running) {
                c.state = state == jobs::JobState::Cancelled ? jobs::SweepCell::State::Cancelled
                                                             : jobs::SweepCell::State::Failed;
                if (c.message.empty() && job) c.message = job->message().toStdString();
            }
    if (SweepView* view = m_views.value(jobId)) {
        QString message;
        if (state == jobs::JobState::Cancelled)
            message = tr("cancelled");
        else if (copy.sweepId.isEmpty() && job)
            message = job->message(); // refused before any cell ran
        view->setCells(copy, true, message);
    }
    emit sweepFinished(jobId, state == jobs::JobState::Succeeded);
}

} // namespace embark::ui

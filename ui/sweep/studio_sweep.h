// Run > Sweep...: the studio's `embark-cli sweep` (core/jobs/sweep.h) as one background job.
// The Jobs dock shows it with its progress per cell and cancels it as a whole; a Sweep window
// shows the cells as they finish, then the result table and chart. Every cell is a normal
// stored run, so the Run history lists them (and refreshes when the sweep ends).
#pragma once

#include "jobs/sweep.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <memory>

class QAction;
class QMainWindow;
class QMenu;

namespace embark::ui {

class StudioJobs;
class StudioSession;
class SweepView;

class StudioSweep : public QObject {
    Q_OBJECT
public:
    // Adds "Sweep..." to `runMenu`.
    StudioSweep(QMainWindow* window, StudioSession* session, StudioJobs* jobs, QMenu* runMenu);

    QAction* sweepAction() const { return m_action; }

    // Queues the sweep (work folder, store and SSH options from the studio's benchmark
    // settings unless set) and opens its window; returns the job id, or -1 after telling the
    // user why not.
    int runSweep(jobs::SweepOptions options);
    // The window of a sweep job (null once closed).
    SweepView* view(int jobId) const;

signals:
    // A sweep job ended (any state); its cells are stored runs.
    void sweepFinished(int jobId, bool succeeded);
    // A cell's stored run was double-clicked in a sweep's window.
    void runOpened(qint64 runId);

private:
    struct Live; // the cells as the job's threads report them
    void sweepWithDialog();
    void showProgress(int jobId);
    void onFinished(int jobId);

    QMainWindow* m_window;
    StudioSession* m_session;
    StudioJobs* m_jobs;
    QAction* m_action;
    QHash<int, std::shared_ptr<Live>> m_live;
    QHash<int, QPointer<SweepView>> m_views;
};

} // namespace embark::ui

// The studio's background work: owns the job queue, the Jobs dock and the Run menu/toolbar
// (Export..., Build, Deploy, Run benchmark). Actions read the session (model, board, library,
// overrides) and enqueue core job recipes; a finished benchmark fills the charts. MainWindow
// creates one and is otherwise unaware of jobs.
#pragma once

#include "jobs/bench_pipeline.h"
#include "jobs/job_queue.h"
#include "jobs/job_recipes.h"

#include <QHash>
#include <QObject>

#include <functional>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace embark::ui {

class ChartsPanel;
class JobToast;
class JobsPanel;
class StudioSession;

class StudioJobs : public QObject {
    Q_OBJECT
public:
    // Adds the Jobs dock (its toggle in `viewMenu`), a Run menu before Help and a Run toolbar.
    StudioJobs(QMainWindow* window, StudioSession* session, ChartsPanel* charts, QMenu* viewMenu);

    jobs::JobQueue* queue() const { return m_queue; }
    JobsPanel* panel() const { return m_panel; }
    QDockWidget* dock() const { return m_dock; }
    QDockWidget* chartsDock() const; // the dock holding the charts panel
    QAction* exportAction() const { return m_export; }
    QAction* buildAction() const { return m_build; }
    QAction* deployAction() const { return m_deploy; }
    QAction* benchmarkAction() const { return m_bench; }
    QMenu* runMenu() const { return m_runMenu; }

    // What the actions do, without dialogs. Each returns the job id, or -1 after telling the
    // user why nothing was queued (no model, no export yet, ...).
    int exportTo(const QString& dir, bool replace);
    // The export of the open model for the session's board, library and overrides.
    jobs::ExportRequest exportRequest(const QString& dir, bool replace) const;
    int buildExport(const QString& exportDir);
    int deployBinary(const QString& binary);
    int runBenchmark();
    // Builds XNNPACK for `arch` into the per-user cache from a folder of the four source
    // tarballs (XNNPACK, cpuinfo, pthreadpool, FXdiv); the session re-plans when it is done.
    int buildXnnpack(const QString& arch, const QString& tarballsDir);
    // Asks for the tarball folder, then buildXnnpack() (the target panel's button).
    void buildXnnpackWithDialog(const QString& arch);
    // Library "auto": measures each node of the open model on the candidate libraries on the
    // session's board (jobs::chooseLibrariesByMeasurement; cached measurements are reused) and
    // hands the choice to the session. Queued by itself when the session needs one; -1 when
    // nothing needs measuring or one of the same model, board and overrides is already queued.
    int measureLibraries();
    bool isMeasuring() const { return !m_measuring.isEmpty(); }

    // The benchmark's settings besides model, board and library (iterations, work folder,
    // store, ...). The studio always asks for per-layer timings and accuracy.
    jobs::BenchOptions& benchDefaults() { return m_benchDefaults; }
    // How a dock of this object (Jobs, the charts' dock) is brought into view: the main
    // window switches to the workspace that holds it. Unset: shown and raised where it is.
    void setDockRevealer(std::function<void(QDockWidget*)> revealer) { m_revealer = std::move(revealer); }
    void reveal(QDockWidget* dock);
    // Per-board SSH options (key, known hosts, host-key prompt) for deploy and benchmark.
    void setSshOptionsProvider(std::function<deploy::SshOptions(const QString& boardId)> provider);

    // The folder the Export dialog starts in: the parent of defaultExportDir(), created when
    // missing (a dialog started on a folder that does not exist cannot choose it).
    QString exportDialogStartDir() const;

    QString lastExportDir() const { return m_lastExport; }
    QString lastBinary() const { return m_lastBinary; }
    // The default export folder of the open model for the chosen board and library.
    QString defaultExportDir() const;

signals:
    // A benchmark finished, succeeded or failed on the board, and stored run `runId` (0 when not stored).
    void benchmarkFinished(qint64 runId);

private:
    void createActions(QMainWindow* window);
    void exportWithDialog();
    void buildCurrent();
    void deployCurrent();
    void onFinished(int id, jobs::JobState state, const QString& message);
    void notify(const QString& text, bool error);
    // What a finished job produced, in the user's language ("run #5, median 10.947 ms over 10 iterations").
    static QString resultSummary(const jobs::Job& job);
    void showJobsDock();
    deploy::SshOptions sshOptions(const QString& boardId) const;

    // What makes two benchmarks the same (model, shapes, board, library, runtime, overrides).
    static QString benchmarkKey(const jobs::BenchOptions& o);

    QMainWindow* m_window;
    QHash<int, QString> m_benchKeys; // benchmark job id -> benchmarkKey()
    StudioSession* m_session;
    ChartsPanel* m_charts;
    jobs::JobQueue* m_queue;
    JobsPanel* m_panel;
    QDockWidget* m_dock;
    JobToast* m_toast;
    QAction* m_export = nullptr;
    QAction* m_build = nullptr;
    QAction* m_deploy = nullptr;
    QAction* m_bench = nullptr;
    QMenu* m_runMenu = nullptr;
    jobs::BenchOptions m_benchDefaults;
    std::function<deploy::SshOptions(const QString&)> m_sshProvider;
    std::function<void(QDockWidget*)> m_revealer;
    QString m_measuring;     // the session's measurementKey() of the queued measurement
    QString m_measureFailed; // ... of the last one that failed (not retried by itself)
    int m_measureJob = -1;
    QString m_lastExport;
    QString m_lastBinary;
};

} // namespace embark::ui

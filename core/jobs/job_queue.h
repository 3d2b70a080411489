// Runs jobs on worker threads, a few at a time (one by default), in the order they were
// queued. Its signals are emitted on the thread the queue lives in (the UI thread in the
// studio): workers post to it through queued calls, so views never see a worker thread.
#pragma once

#include "job.h"

#include <QObject>
#include <QThreadPool>

#include <deque>
#include <memory>
#include <vector>

namespace embark::jobs {

class JobQueue : public QObject {
    Q_OBJECT
public:
    explicit JobQueue(QObject* parent = nullptr);
    // Cancels every job and waits for the running ones to stop.
    ~JobQueue() override;

    // How many jobs run at once (>= 1).
    void setMaxConcurrent(int n);
    int maxConcurrent() const { return m_maxConcurrent; }

    // Queues a job (it starts when a worker is free); returns its id.
    int enqueue(std::shared_ptr<Job> job);

    std::shared_ptr<Job> job(int id) const;
    const std::vector<std::shared_ptr<Job>>& jobs() const { return m_jobs; } // in queue order
    int runningCount() const { return m_running; }
    bool isIdle() const { return m_running == 0 && m_pending.empty(); }

    // A queued job ends Cancelled at once; a running one when its work returns.
    void cancel(int id);
    void cancelAll();
    // Forgets finished jobs (emits removed for each); returns how many.
    int clearFinished();

    // Runs the event loop until no job is queued or running, or `timeoutMs` passes (tests,
    // scripts). Returns true when idle.
    bool waitForIdle(int timeoutMs);

signals:
    void queued(int id);
    void started(int id);
    void progressChanged(int id, const QString& step, int done, int total);
    void logLine(int id, const QString& line);
    void finished(int id, embark::jobs::JobState state, const QString& message);
    void removed(int id);
    void idle();

private:
    void schedule();
    void run(const std::shared_ptr<Job>& job);
    void onWorkDone(int id, JobState state, const QString& message);

    QThreadPool m_pool;
    int m_maxConcurrent = 1;
    int m_running = 0;
    std::vector<std::shared_ptr<Job>> m_jobs;
    std::deque<std::shared_ptr<Job>> m_pending;
};

} // namespace embark::jobs

Q_DECLARE_METATYPE(embark::jobs::JobState)

#include "job_queue.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QTimer>

#include <exception>

namespace embark::jobs {

// The context a work function runs with: records on the job (thread-safe) and posts the
// matching signal to the queue's thread.
class JobRunContext : public JobContext {
public:
    JobRunContext(JobQueue* queue, Job* job) : m_queue(queue), m_job(job) {}

    void log(const QString& line) override {
        m_job->appendLog(line);
        QMetaObject::invokeMethod(
            m_queue, [q = m_queue, id = m_job->id(), line] { emit q->logLine(id, line); }, Qt::QueuedConnection);
    }
    void progress(const QString& step, int done, int total) override {
        m_job->setProgress({step, done, total, m_stepIndex, m_stepCount});
        QMetaObject::invokeMethod(
            m_queue,
            [q = m_queue, id = m_job->id(), step, done, total] { emit q->progressChanged(id, step, done, total); },
            Qt::QueuedConnection);
    }
    void stepStarted(const QString& step, int index, int count) override {
        m_stepIndex = index;
        m_stepCount = count;
        progress(step, 0, 0);
    }
    const std::atomic_bool* cancelFlag() const override { return &m_job->m_cancel; }
    void setResult(std::any value, const QString& message) override { m_job->setResult(std::move(value), message); }

private:
    JobQueue* m_queue;
    Job* m_job;
    int m_stepIndex = -1, m_stepCount = 0;
};

JobQueue::JobQueue(QObject* parent) : QObject(parent) {
    qRegisterMetaType<embark::jobs::JobState>("embark::jobs::JobState");
    m_pool.setMaxThreadCount(m_maxConcurrent);
}

JobQueue::~JobQueue() {
    for (const auto& j : m_jobs) j->cancel();
    m_pool.waitForDone();
}

void JobQueue::setMaxConcurrent(int n) {
    m_maxConcurrent = std::max(1, n);
    m_pool.setMaxThreadCount(m_maxConcurrent);
    schedule();
}

int JobQueue::enqueue(std::shared_ptr<Job> job) {
    const int id = job->id();
    m_jobs.push_back(job);
    m_pending.push_back(std::move(job));
    emit queued(id);
    // Started from the event loop, so a caller can connect to `started` after enqueueing.
    QMetaObject::invokeMethod(this, &JobQueue::schedule, Qt::QueuedConnection);
    return id;
}

std::shared_ptr<Job> JobQueue::job(int id) const {
    for (const auto& j : m_jobs)
        if (j->id() == id) return j;
    return nullptr;
}

void JobQueue::cancel(int id) {
    auto j = job(id);
    if (!j) return;
    j->cancel();
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
        if ((*it)->id() != id) continue;
        m_pending.erase(it);
        j->markFinished(JobState::Cancelled, QStringLiteral("cancelled before it started"));
        emit finished(id, JobState::Cancelled, j->message());
        if (isIdle()) emit idle();
        return;
    }
}

void JobQueue::cancelAll() {
    std::vector<int> ids;
    for (const auto& j : m_jobs)
        if (!isFinished(j->state())) ids.push_back(j->id());
    for (int id : ids) cancel(id);
}

int JobQueue::clearFinished() {
    std::vector<int> gone;
    std::erase_if(m_jobs, [&](const std::shared_ptr<Job>& j) {
        if (!isFinished(j->state())) return false;
        gone.push_back(j->id());
        return true;
    });
    for (int id : gone) emit removed(id);
    return int(gone.size());
}

bool JobQueue::waitForIdle(int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (!isIdle() && !deadline.hasExpired()) {
        QEventLoop loop;
        connect(this, &JobQueue::idle, &loop, &QEventLoop::quit);
        QTimer::singleShot(std::min<qint64>(100, std::max<qint64>(1, deadline.remainingTime())), &loop,
                           &QEventLoop::quit);
        loop.exec();
    }
    return isIdle();
}

void JobQueue::schedule() {
    while (m_running < m_maxConcurrent && !m_pending.empty()) {
        std::shared_ptr<Job> next = m_pending.front();
        m_pending.pop_front();
        run(next);
    }
}

void JobQueue::run(const std::shared_ptr<Job>& job) {
    ++m_running;
    job->markRunning();
    emit started(job->id());
    // The worker holds the job alive; the queue outlives every worker (its destructor waits).
    m_pool.start([this, job] {
        JobRunContext context(this, job.get());
        JobState state = JobState::Succeeded;
        QString message;
        try {
            const Status s = job->m_work(context);
            if (!s.ok()) {
                state = job->cancelRequested() ? JobState::Cancelled : JobState::Failed;
                message = QString::fromStdString(s.error().message);
            } // a job that finished before it saw the cancel keeps its result
        } catch (const std::exception& e) {
            state = JobState::Failed;
            message = QStringLiteral("internal error: %1").arg(QString::fromLocal8Bit(e.what()));
        }
        QMetaObject::invokeMethod(
            this, [this, id = job->id(), state, message] { onWorkDone(id, state, message); }, Qt::QueuedConnection);
    });
}

void JobQueue::onWorkDone(int id, JobState state, const QString& message) {
    --m_running;
    if (auto j = job(id)) {
        j->markFinished(state, message);
        emit finished(id, state, j->message());
    } else {
        emit finished(id, state, message);
    }
    schedule();
    if (isIdle()) emit idle();
}

} // namespace embark::jobs

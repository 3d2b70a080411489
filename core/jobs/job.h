// One background job of the studio (export, build, deploy, benchmark, quantize): a title, a state, the
// current step, a live log and a result, with cancel. The work itself is a function over core
// calls; a JobQueue runs it on a worker thread. Every accessor is thread-safe.
#pragma once

#include "ir/error.h"

#include <QElapsedTimer>
#include <QString>
#include <QStringList>

#include <any>
#include <atomic>
#include <functional>
#include <mutex>

namespace embark::jobs {

enum class JobKind { Export, Build, Deploy, Benchmark, Quantize };
enum class JobState { Queued, Running, Succeeded, Failed, Cancelled };

const char* jobKindName(JobKind kind);    // "export", "build", ...
const char* jobStateName(JobState state); // "queued", "running", ...
inline bool isFinished(JobState s) { return s != JobState::Queued && s != JobState::Running; }

struct JobProgress {
    QString step; // "build", "run", ... (what the job does now)
    int done = 0; // of `total`: the step's own progress; total 0 = unknown
    int total = 0;
    int stepIndex = -1; // the step's place in its recipe (0-based), -1 = a one-step job
    int stepCount = 0;
};

class Job;

// What the work function sees: report progress and log lines, poll cancel, leave a result.
// A work function returns an error (Failed, or Cancelled once cancel was requested) or
// success (Succeeded, with the result message it set).
class JobContext {
public:
    virtual ~JobContext() = default;
    virtual void log(const QString& line) = 0;
    virtual void progress(const QString& step, int done, int total) = 0;
    // A recipe's step begins (index of count): progress then reports that step's own figures.
    virtual void stepStarted(const QString& step, int index, int count) {
        (void)index, (void)count;
        progress(step, 0, 0);
    }
    virtual const std::atomic_bool* cancelFlag() const = 0;
    bool cancelled() const { return cancelFlag()->load(); }
    virtual void setResult(std::any value, const QString& message) = 0;
};

class Job {
public:
    using Work = std::function<Status(JobContext& context)>;

    Job(QString title, JobKind kind, Work work);
    Job(const Job&) = delete;
    Job& operator=(const Job&) = delete;

    int id() const { return m_id; }
    QString title() const { return m_title; }
    JobKind kind() const { return m_kind; }

    JobState state() const { return m_state.load(); }
    JobProgress progress() const;
    QStringList log() const;              // every line so far
    QStringList logFrom(int first) const; // lines [first, end)
    int logLineCount() const;
    QString message() const;  // the result's summary or the error
    std::any result() const;  // set by the work function on success
    qint64 elapsedMs() const; // running time (frozen once finished); 0 while queued

    // Asks the job to stop. A queued job never starts; a running one sees the flag (a build
    // kills its process tree) and ends Cancelled.
    void cancel() { m_cancel.store(true); }
    bool cancelRequested() const { return m_cancel.load(); }

private:
    friend class JobQueue;
    friend class JobRunContext;

    void markRunning();
    void markFinished(JobState state, const QString& message);
    void appendLog(const QString& line);
    void setProgress(const JobProgress& progress);
    void setResult(std::any value, const QString& message);

    const int m_id;
    const QString m_title;
    const JobKind m_kind;
    const Work m_work;
    std::atomic<JobState> m_state{JobState::Queued};
    std::atomic_bool m_cancel{false};

    mutable std::mutex m_mutex; // guards everything below
    QStringList m_log;
    JobProgress m_progress;
    QString m_message;
    std::any m_result;
    QElapsedTimer m_timer;
    qint64 m_finishedMs = -1;
};

} // namespace embark::jobs

#include "job.h"

namespace embark::jobs {

namespace {
std::atomic_int g_nextId{1};
} // namespace

const char* jobKindName(JobKind kind) {
    switch (kind) {
    case JobKind::Export: return "export";
    case JobKind::Build: return "build";
    case JobKind::Deploy: return "deploy";
    case JobKind::Benchmark: return "benchmark";
    case JobKind::Quantize: return "quantize";
    }
    return "?";
}

const char* jobStateName(JobState state) {
    switch (state) {
    case JobState::Queued: return "queued";
    case JobState::Running: return "running";
    case JobState::Succeeded: return "succeeded";
    case JobState::Failed: return "failed";
    case JobState::Cancelled: return "cancelled";
    }
    return "?";
}

Job::Job(QString title, JobKind kind, Work work)
    : m_id(g_nextId.fetch_add(1)), m_title(std::move(title)), m_kind(kind), m_work(std::move(work)) {}

JobProgress Job::progress() const {
    std::lock_guard lock(m_mutex);
    return m_progress;
}

QStringList Job::log() const {
    std::lock_guard lock(m_mutex);
    return m_log;
}

QStringList Job::logFrom(int first) const {
    std::lock_guard lock(m_mutex);
    return first <= 0 ? m_log : m_log.mid(first);
}

int Job::logLineCount() const {
    std::lock_guard lock(m_mutex);
    return int(m_log.size());
}

QString Job::message() const {
    std::lock_guard lock(m_mutex);
    return m_message;
}

std::any Job::result() const {
    std::lock_guard lock(m_mutex);
    return m_result;
}

qint64 Job::elapsedMs() const {
    std::lock_guard lock(m_mutex);
    if (m_finishedMs >= 0) return m_finishedMs;
    return m_timer.isValid() ? m_timer.elapsed() : 0;
}

void Job::markRunning() {
    std::lock_guard lock(m_mutex);
    m_timer.start();
    m_state.store(JobState::Running);
}

void Job::markFinished(JobState state, const QString& message) {
    std::lock_guard lock(m_mutex);
    m_finishedMs = m_timer.isValid() ? m_timer.elapsed() : 0;
    if (!message.isEmpty() || state != JobState::Succeeded) m_message = message;
    m_state.store(state);
}

void Job::appendLog(const QString& line) {
    std::lock_guard lock(m_mutex);
    m_log << line;
}

void Job::setProgress(const JobProgress& progress) {
    std::lock_guard lock(m_mutex);
    m_progress = progress;
}

void Job::setResult(std::any value, const QString& message) {
    std::lock_guard lock(m_mutex);
    m_result = std::move(value);
    m_message = message;
}

} // namespace embark::jobs

// How Embark reaches a board: upload files, run a command with streamed output, download
// results, in a fresh per-run folder. All calls block on the caller's (job) thread, honour
// timeouts and a cancel flag, and return errors naming the board and what to do.
#pragma once

#include "ir/error.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <functional>

namespace embark::deploy {

// Progress of a transfer; returning false cancels it (the partial file is removed).
using ProgressFn = std::function<bool(qint64 done, qint64 total)>;
using OutputFn = std::function<void(const QByteArray& chunk)>;

struct ExecRequest {
    QStringList argv;                     // program and arguments: data, never parsed by a shell
    QString workdir;                      // where to run; empty = the current run folder
    QStringList environment;              // extra "NAME=value" entries
    std::chrono::milliseconds timeout{0}; // 0 = no limit
    const std::atomic_bool* cancel = nullptr;
    OutputFn onStdout; // called as output arrives, on the caller's thread
    OutputFn onStderr;
    // The transport's own status lines (a farm board's LAVA job: submitted, queued, running).
    std::function<void(const QString& line)> onStatus;
    bool usePrefix = true; // run through the board's exec prefix (qemu-user for a simulated board)
};

struct ExecResult {
    enum class Outcome { Exited, Signalled, TimedOut, Cancelled };
    Outcome outcome = Outcome::Exited;
    int exitCode = 0;      // Exited: the status
    QString signal;        // Signalled: "SEGV", "KILL", ...
    QByteArray stdoutData; // everything printed (capped at kOutputCap, the tail kept)
    QByteArray stderrData;

    static constexpr qsizetype kOutputCap = 64 * 1024 * 1024;
    bool succeeded() const { return outcome == Outcome::Exited && exitCode == 0; }
};

// Turns a non-successful result into an error naming the board and the command, with the
// exit status or signal and the tail of stderr ("run_export crashed with SIGSEGV: ...").
Status requireSuccess(const ExecResult& result, const QString& boardId, const QString& what);

class Transport {
public:
    virtual ~Transport() = default;

    const QString& boardId() const { return m_boardId; }

    // Opens the connection (SSH) or checks the runner (local). Idempotent.
    virtual Status connect() = 0;

    // Creates a fresh, empty folder for one run (named after `label`) and makes it current.
    virtual Expected<QString> makeRunDir(const QString& label) = 0;
    // Removes a folder made by makeRunDir (never anything else).
    virtual Status removeRunDir(const QString& dir) = 0;
    QString runDir() const { return m_runDir; }

    // Copies a local file or folder to `remotePath` (absolute, or relative to the run
    // folder). A file is written under a temporary name and renamed when complete, so a
    // half-uploaded binary never exists under its final name. Executable bits are kept.
    virtual Status upload(const QString& localPath, const QString& remotePath, const ProgressFn& progress = {}) = 0;
    virtual Status download(const QString& remotePath, const QString& localPath) = 0;

    // Runs a command. An Error means the transport failed (connection lost, program not
    // startable); a command that exits non-zero, crashes, times out or is cancelled is a
    // result (see requireSuccess). Timeout and cancel leave no process behind.
    virtual Expected<ExecResult> exec(const ExecRequest& request) = 0;

    // A human-readable target for messages: "board 'k230' (ssh k230)".
    virtual QString describe() const = 0;

    // What the last exec ran on, for the run's record: a farm board's LAVA job id, device
    // and job page ({"lava_job": ..., "lava_device": ..., "lava_url": ...}); empty otherwise.
    virtual QJsonObject runInfo() const { return {}; }

protected:
    explicit Transport(QString boardId) : m_boardId(std::move(boardId)) {}
    QString resolve(const QString& path) const; // relative paths are inside the run folder
    QString m_boardId;
    QString m_runDir;
};

// Keeps the last kOutputCap bytes of a stream.
void appendCapped(QByteArray& buffer, const QByteArray& chunk);

} // namespace embark::deploy

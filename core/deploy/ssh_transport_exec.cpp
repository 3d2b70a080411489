// SshTransport's commands: exec with streamed output, exit status or signal, cancel and
// timeouts that kill the remote process group, lost connections detected by probing, and the
// per-board list of commands orphaned by a lost connection, stopped at the next connect().
#include "ssh_transport.h"

#include "shell_quote.h"
#include "ssh_transport_detail.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <cstring>
#include <optional>
#include <utility>

namespace embark::deploy {
using detail::kChunk;
using detail::randomSuffix;
namespace {

struct ExecState {
    QString signal; // set by the server's exit-signal message
};

void onExitSignal(ssh_session, ssh_channel, const char* signal, int, const char*, const char*, void* userdata) {
    static_cast<ExecState*>(userdata)->signal = QString::fromLatin1(signal ? signal : "?");
}

// An open exec channel with its callbacks; closes and frees itself.
class ExecChannel {
public:
    explicit ExecChannel(ssh_session session) : m_channel(ssh_channel_new(session)) {
        std::memset(&m_callbacks, 0, sizeof m_callbacks);
        m_callbacks.userdata = &state;
        m_callbacks.channel_exit_signal_function = onExitSignal;
        ssh_callbacks_init(&m_callbacks);
    }
    ~ExecChannel() {
        if (!m_channel) return;
        // libssh keeps a channel freed before the server closed it, and would still call
        // back into this object's state (a leak found by LeakSanitizer).
        ssh_remove_channel_callbacks(m_channel, &m_callbacks);
        if (ssh_channel_is_open(m_channel)) ssh_channel_close(m_channel);
        ssh_channel_free(m_channel);
    }
    bool start(const QByteArray& command) {
        if (!m_channel || ssh_channel_open_session(m_channel) != SSH_OK) return false;
        ssh_set_channel_callbacks(m_channel, &m_callbacks);
        if (ssh_channel_request_exec(m_channel, command.constData()) != SSH_OK) return false;
        ssh_channel_send_eof(m_channel); // no stdin: a program reading it sees end of file
        return true;
    }
    ssh_channel get() const { return m_channel; }
    ExecState state;

private:
    ssh_channel m_channel;
    ssh_channel_callbacks_struct m_callbacks;
};

// Commands orphaned by a lost connection are remembered on the host, per board, so the next
// connection to that board stops them whichever transport or process makes it (the benchmark
// pipeline opens a fresh transport per run). One pid-file path per line.
QString orphanListPath(const QString& boardId) {
    QString safe = boardId;
    safe.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    return QFileInfo(targets::userBoardsDir()).path() + "/orphans/" + safe + ".txt";
}

QStringList loadOrphans(const QString& boardId) {
    QFile f(orphanListPath(boardId));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
}

void saveOrphans(const QString& boardId, const QStringList& pidFiles) {
    const QString path = orphanListPath(boardId);
    if (pidFiles.isEmpty()) {
        QFile::remove(path);
        return;
    }
    QDir().mkpath(QFileInfo(path).path());
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return; // best effort: the in-memory list still works
    f.write(pidFiles.join('\n').toUtf8() + '\n');
    if (f.flush()) f.commit();
}

} // namespace

Status SshTransport::connect() {
    if (m_connection.isOpen()) return {};
    if (m_sftp) { // left over from a session that died: start both afresh
        sftp_free(m_sftp);
        m_sftp = nullptr;
    }
    EMBARK_TRY(m_connection.open());
    // Commands orphaned by a lost connection (this transport's, or an earlier one's recorded
    // on the host) may still run on the board: stop them now.
    QStringList orphans = std::exchange(m_orphans, {});
    for (const QString& pidFile : loadOrphans(m_board.id))
        if (!orphans.contains(pidFile)) orphans << pidFile;
    if (orphans.isEmpty()) return {};
    for (const QString& pidFile : orphans)
        if (!killRemoteGroup(pidFile)) m_orphans << pidFile;
    saveOrphans(m_board.id, m_orphans);
    return {};
}

void SshTransport::dropConnection(const QString& orphanPidFile) {
    if (!orphanPidFile.isEmpty() && !m_orphans.contains(orphanPidFile)) {
        m_orphans << orphanPidFile;
        QStringList recorded = loadOrphans(m_board.id);
        if (!recorded.contains(orphanPidFile)) saveOrphans(m_board.id, recorded << orphanPidFile);
    }
    if (m_sftp) {
        sftp_free(m_sftp);
        m_sftp = nullptr;
    }
    m_connection.close();
}

bool SshTransport::connectionAnswers() {
    // Opening a channel is a round trip to the server, bounded by the I/O timeout.
    ssh_channel probe = ssh_channel_new(m_connection.session());
    if (!probe) return false;
    const bool ok = ssh_channel_open_session(probe) == SSH_OK;
    if (ok) ssh_channel_close(probe);
    ssh_channel_free(probe);
    return ok;
}

bool SshTransport::killRemoteGroup(const QString& pidFile) {
    // The pid file may not be written yet when cancel comes right after start: wait for it
    // briefly. The group goes first (everything the command spawned), then the pid itself
    // in case the server did not make it a group leader.
    const QString q = shellQuote(pidFile);
    const QString cmd =
        QStringLiteral("i=0; while [ ! -s %1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; "
                       "pid=$(cat %1 2>/dev/null) || exit 0; [ -n \"$pid\" ] || exit 0; "
                       "kill -s KILL -- -\"$pid\" 2>/dev/null; kill -s KILL \"$pid\" 2>/dev/null; rm -f %1; exit 0")
            .arg(q);
    auto r = runShell(cmd, std::chrono::seconds(20));
    return r.ok() && r->outcome == ExecResult::Outcome::Exited;
}

Expected<ExecResult> SshTransport::runShell(const QString& commandLine, std::chrono::milliseconds timeout) {
    ExecRequest req;
    req.timeout = timeout;
    EMBARK_TRY(connect());
    ExecChannel channel(m_connection.session());
    if (!channel.start(commandLine.toUtf8()))
        return fail(
            QStringLiteral("cannot run a command on %1: %2").arg(m_connection.target(), m_connection.lastError()));
    ExecResult result;
    QElapsedTimer clock;
    clock.start();
    char buf[kChunk];
    while (!ssh_channel_is_eof(channel.get())) {
        const int n = ssh_channel_read_timeout(channel.get(), buf, sizeof buf, 0, 100);
        if (n == SSH_ERROR)
            return fail("connection to " + m_connection.target() + " lost: " + m_connection.lastError());
        if (n > 0) appendCapped(result.stdoutData, QByteArray(buf, n));
        const int m = ssh_channel_read_nonblocking(channel.get(), buf, sizeof buf, 1);
        if (m > 0) appendCapped(result.stderrData, QByteArray(buf, m));
        if (timeout.count() > 0 && clock.elapsed() > timeout.count()) {
            result.outcome = ExecResult::Outcome::TimedOut;
            return result;
        }
    }
    const int status = ssh_channel_get_exit_status(channel.get());
    if (!channel.state.signal.isEmpty()) {
        result.outcome = ExecResult::Outcome::Signalled;
        result.signal = channel.state.signal;
    } else {
        result.exitCode = status;
    }
    return result;
}

Expected<ExecResult> SshTransport::exec(const ExecRequest& request) {
    if (request.argv.isEmpty()) return makeError(ErrorKind::Usage, "exec: no command given");
    EMBARK_TRY(connect());
    const QString workdir = request.workdir.isEmpty() ? m_runDir : resolve(request.workdir);
    const QString pidFile =
        (workdir.isEmpty() ? QStringLiteral("/tmp") : workdir) + "/.embark-exec-" + randomSuffix() + ".pid";

    // sshd starts each command in a new session, so the shell's pid is also its process
    // group id; `exec` keeps that pid for the program. Every word is quoted data.
    QString command;
    if (!workdir.isEmpty()) command += "cd " + shellQuote(workdir) + " || exit 126; ";
    command += "echo $$ > " + shellQuote(pidFile) + " || exit 126; exec ";
    if (!request.environment.isEmpty()) command += "env " + shellJoin(request.environment) + " ";
    command += shellJoin((request.usePrefix ? m_board.runner.execPrefix : QStringList{}) + request.argv);

    std::optional<ExecChannel> channel(std::in_place, m_connection.session());
    if (!channel->start(command.toUtf8()))
        return fail(QStringLiteral("cannot run %1 on %2: %3")
                        .arg(request.argv.first(), m_connection.target(), m_connection.lastError()));
    // The command may still run on the board: close this channel, then the connection, and
    // remember its process group for the next connection.
    auto lost = [&](const QString& why) -> Error {
        channel.reset();
        dropConnection(pidFile);
        return fail(QStringLiteral("connection to %1 lost while running %2 (%3). The command may still "
                                   "run on the board: it is stopped when Embark connects again; check "
                                   "the board and the network and retry")
                        .arg(m_connection.target(), request.argv.first(), why));
    };
    const auto probeAfter = std::max<qint64>(1000, std::chrono::milliseconds(m_connection.options().ioTimeout).count());
    ExecResult result;
    QElapsedTimer clock, quiet;
    clock.start();
    quiet.start();
    char buf[kChunk];
    bool stopped = false;
    for (;;) {
        const bool cancelled = request.cancel && request.cancel->load();
        const bool timedOut = request.timeout.count() > 0 && clock.elapsed() >= request.timeout.count();
        if (cancelled || timedOut) {
            if (!killRemoteGroup(pidFile))
                return lost(
                    QStringLiteral("it was %1 but could not be killed").arg(cancelled ? "cancelled" : "timed out"));
            result.outcome = cancelled ? ExecResult::Outcome::Cancelled : ExecResult::Outcome::TimedOut;
            stopped = true;
            break;
        }
        int n = ssh_channel_read_timeout(channel->get(), buf, sizeof buf, 0, 100);
        if (n == SSH_ERROR) return lost(m_connection.lastError());
        if (n > 0) {
            const QByteArray chunk(buf, n);
            if (request.onStdout) request.onStdout(chunk);
            appendCapped(result.stdoutData, chunk);
        }
        const int m = ssh_channel_read_nonblocking(channel->get(), buf, sizeof buf, 1);
        if (m > 0) {
            const QByteArray chunk(buf, m);
            if (request.onStderr) request.onStderr(chunk);
            appendCapped(result.stderrData, chunk);
        }
        if (n <= 0 && m <= 0 && ssh_channel_is_eof(channel->get())) break;
        if (n > 0 || m > 0) {
            quiet.restart();
        } else if (quiet.elapsed() >= probeAfter) {
            // A silent command, or a link that drops every packet: ask the server.
            if (!connectionAnswers())
                return lost(QStringLiteral("no answer from the board for %1 s: packets dropped, network down "
                                           "or board hung")
                                .arg(2 * probeAfter / 1000));
            quiet.restart();
        }
    }
    if (!stopped) {
        const int status = ssh_channel_get_exit_status(channel->get());
        if (!channel->state.signal.isEmpty()) {
            result.outcome = ExecResult::Outcome::Signalled;
            result.signal = channel->state.signal;
        } else if (status < 0) {
            return lost(QStringLiteral("before %1 reported its exit status: %2")
                            .arg(request.argv.first(), m_connection.lastError()));
        } else {
            result.exitCode = status;
        }
        channel.reset();
        if (m_sftp)
            sftp_unlink(m_sftp, pidFile.toUtf8().constData());
        else
            (void)runShell("rm -f -- " + shellQuote(pidFile), std::chrono::seconds(10));
    }
    return result;
}

} // namespace embark::deploy

// SshTransport's files on boards without an SFTP subsystem (Dropbear, BusyBox images): each
// transfer is one exec channel running a POSIX shell command, every path shell-quoted. An
// upload streams into `cat` under a temporary name, and the board itself checks the byte
// count before chmod and mv: a cancelled or cut-off upload never appears under its final
// name and its temporary file is removed on the board even when the connection is gone.
#include "ssh_transport.h"

#include "shell_quote.h"
#include "ssh_transport_detail.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <libssh/libssh.h>

namespace embark::deploy {
using detail::kChunk;
using detail::modeOf;
using detail::parentOf;
using detail::permissionsOf;
using detail::randomSuffix;

// How runShellStreamed feeds a command's stdin and where its stdout goes.
struct SshTransport::ShellStream {
    QIODevice* input = nullptr; // `inputBytes` of it are sent as stdin, then end of file
    qint64 inputBytes = 0;
    ProgressFn progress;         // after each chunk sent; false stops sending
    QIODevice* output = nullptr; // receives stdout (else ExecResult::stdoutData)
    qint64 sent = 0;             // out: bytes sent
    bool stopped = false;        // out: progress returned false
    bool outputFailed = false;   // out: a write into `output` failed
    QString lost;                // out: why the connection died, when it did
};

namespace {

// An exec channel whose stdin stays open for the caller; closes and frees itself.
class ShellChannel {
public:
    explicit ShellChannel(ssh_session session) : m_channel(ssh_channel_new(session)) {}
    ~ShellChannel() {
        if (!m_channel) return;
        if (ssh_channel_is_open(m_channel)) ssh_channel_close(m_channel);
        ssh_channel_free(m_channel);
    }
    ShellChannel(const ShellChannel&) = delete;
    ShellChannel& operator=(const ShellChannel&) = delete;
    bool start(const QByteArray& command) {
        return m_channel && ssh_channel_open_session(m_channel) == SSH_OK &&
               ssh_channel_request_exec(m_channel, command.constData()) == SSH_OK;
    }
    ssh_channel get() const { return m_channel; }

private:
    ssh_channel m_channel;
};

QString stderrOf(const ExecResult& r) {
    const QString text = QString::fromUtf8(r.stderrData.right(2000)).trimmed();
    return text.isEmpty() ? QStringLiteral("exit status %1").arg(r.exitCode) : text;
}

} // namespace

Expected<ExecResult> SshTransport::runShellStreamed(const QString& commandLine, ShellStream& s) {
    EMBARK_TRY(connect());
    ShellChannel channel(m_connection.session());
    auto lost = [&](const QString& why) -> Error {
        s.lost = why.isEmpty() ? QStringLiteral("connection closed") : why;
        return fail(QStringLiteral("connection to %1 lost: %2").arg(m_connection.target(), s.lost));
    };
    if (!channel.start(commandLine.toUtf8()))
        return m_connection.isOpen() ? fail(QStringLiteral("cannot run a command on %1: %2")
                                                .arg(m_connection.target(), m_connection.lastError()))
                                     : lost(m_connection.lastError());
    ExecResult result;
    char buf[kChunk];
    while (s.input && s.sent < s.inputBytes) {
        const QByteArray chunk = s.input->read(std::min<qint64>(kChunk, s.inputBytes - s.sent));
        if (chunk.isEmpty()) break; // the local file shrank: the board's byte count check fails
        // A refused write is the command gone (a full disk) or the connection: read on to know.
        if (ssh_channel_write(channel.get(), chunk.constData(), static_cast<uint32_t>(chunk.size())) != chunk.size())
            break;
        s.sent += chunk.size();
        if (s.progress && !s.progress(s.sent, s.inputBytes)) {
            s.stopped = true;
            break;
        }
    }
    if (!m_connection.isOpen()) return lost(m_connection.lastError());
    if (ssh_channel_is_open(channel.get())) ssh_channel_send_eof(channel.get());

    const qint64 probeAfter =
        std::max<qint64>(1000, std::chrono::milliseconds(m_connection.options().ioTimeout).count());
    QElapsedTimer quiet;
    quiet.start();
    while (!ssh_channel_is_eof(channel.get()) && !ssh_channel_is_closed(channel.get())) {
        const int n = ssh_channel_read_timeout(channel.get(), buf, sizeof buf, 0, 100);
        if (n == SSH_ERROR && (!m_connection.isOpen() || !ssh_channel_is_closed(channel.get())))
            return lost(m_connection.lastError());
        if (n > 0) {
            if (!s.output)
                appendCapped(result.stdoutData, QByteArray(buf, n));
            else if (s.output->write(buf, n) != n)
                s.outputFailed = true;
        }
        const int m = ssh_channel_read_nonblocking(channel.get(), buf, sizeof buf, 1);
        if (m > 0) appendCapped(result.stderrData, QByteArray(buf, m));
        if (n > 0 || m > 0)
            quiet.restart();
        else if (quiet.elapsed() >= probeAfter && !connectionAnswers())
            return lost(QStringLiteral("no answer from the board for %1 s").arg(probeAfter / 1000));
        else if (quiet.elapsed() >= probeAfter)
            quiet.restart();
    }
    for (int m; (m = ssh_channel_read_nonblocking(channel.get(), buf, sizeof buf, 1)) > 0;)
        appendCapped(result.stderrData, QByteArray(buf, m));
    const int status = ssh_channel_get_exit_status(channel.get());
    if (status < 0) {
        if (!m_connection.isOpen()) return lost(m_connection.lastError());
        result.outcome = ExecResult::Outcome::Signalled; // the shell died without a status
        result.signal = QStringLiteral("?");
    } else {
        result.exitCode = status;
    }
    return result;
}

Status SshTransport::shellMakeRunDir(const QString& base, const QString& dir) {
    ShellStream none;
    // mkdir (without -p) fails if the name exists, so the folder is new and ours.
    auto r = runShellStreamed(
        QStringLiteral("[ -d %1 ] || exit 3; umask 077; mkdir -- %2").arg(shellQuote(base), shellQuote(dir)), none);
    EMBARK_TRY(r);
    if (r->outcome == ExecResult::Outcome::Exited && r->exitCode == 3)
        return fail(QStringLiteral("the work folder '%1' (runner.workdir) does not exist on %2: create it "
                                   "or change the board file")
                        .arg(base, m_connection.target()));
    if (!r->succeeded())
        return fail(QStringLiteral("cannot create the run folder '%1' on %2: %3")
                        .arg(dir, m_connection.target(), stderrOf(*r)));
    return {};
}

Status SshTransport::shellMakeDirs(const QString& remoteDir) {
    ShellStream none;
    auto r = runShellStreamed("mkdir -p -- " + shellQuote(remoteDir), none);
    EMBARK_TRY(r);
    if (!r->succeeded())
        return fail(QStringLiteral("cannot create the folder '%1' on %2: %3")
                        .arg(remoteDir, m_connection.target(), stderrOf(*r)));
    return {};
}

Status SshTransport::shellUploadFile(const QString& localPath, const QString& remotePath, const ProgressFn& progress) {
    QFile in(localPath);
    if (!in.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1 for upload: %2").arg(localPath, in.errorString()));
    EMBARK_TRY(shellMakeDirs(parentOf(remotePath)));
    const QString temp = shellQuote(remotePath + ".embark-part-" + randomSuffix());
    ShellStream s;
    s.input = &in;
    s.inputBytes = in.size();
    s.progress = progress;
    // The temporary file is private (umask) and new (set -C); it is installed only when the
    // board received every byte, and removed on any failure, end of file too early included.
    const QString command = QStringLiteral("umask 077; set -C; cat > %1 && [ $(wc -c < %1) -eq %2 ] && "
                                           "chmod %3 %1 && mv -f -- %1 %4 || { rm -f -- %1; exit 1; }")
                                .arg(temp)
                                .arg(s.inputBytes)
                                .arg(QString::number(modeOf(in.permissions()), 8), shellQuote(remotePath));
    auto r = runShellStreamed(command, s);
    const QString sent = QStringLiteral("%1 of %2 bytes sent").arg(s.sent).arg(s.inputBytes);
    if (!r && !s.lost.isEmpty())
        return fail(QStringLiteral("connection to %1 lost while uploading %2 to '%3' (%4): %5. Nothing was "
                                   "installed under that name; check the board and retry")
                        .arg(m_connection.target(), localPath, remotePath, sent, s.lost));
    EMBARK_TRY(r);
    if (s.stopped) return fail(QStringLiteral("upload of %1 cancelled").arg(localPath));
    if (r->succeeded()) return {};
    const QString why = stderrOf(*r);
    if (why.contains(QStringLiteral("No space left"), Qt::CaseInsensitive))
        return fail(QStringLiteral("no space left on device while uploading %1 to '%2' (%3): free space on the "
                                   "board or point runner.workdir at a bigger file system (%4)")
                        .arg(localPath, remotePath, sent, why));
    return fail(QStringLiteral("uploading %1 to '%2' on %3 failed (%4): %5")
                    .arg(localPath, remotePath, m_connection.target(), sent, why));
}

Status SshTransport::shellDownload(const QString& remotePath, const QString& localPath) {
    const QString p = shellQuote(remotePath);
    ShellStream probe;
    // d: folder (with its entries, NUL-separated, each prefixed d, x or f); x, f: file.
    auto r = runShellStreamed(
        QStringLiteral("if [ -d %1 ]; then cd -- %1 || exit 1; printf 'd\\000'; for f in * .[!.]* ..?*; do "
                       "if [ -d \"$f\" ]; then printf 'd%s\\000' \"$f\"; elif [ -f \"$f\" ]; then "
                       "if [ -x \"$f\" ]; then printf 'x%s\\000' \"$f\"; else printf 'f%s\\000' \"$f\"; fi; "
                       "fi; done; "
                       "elif [ -f %1 ]; then if [ -x %1 ]; then printf 'x\\000'; else printf 'f\\000'; fi; "
                       "else exit 3; fi")
            .arg(p),
        probe);
    EMBARK_TRY(r);
    if (r->outcome == ExecResult::Outcome::Exited && r->exitCode == 3)
        return fail(QStringLiteral("'%1' does not exist on %2").arg(remotePath, m_connection.target()));
    const QList<QByteArray> entries = r->stdoutData.split('\0');
    if (!r->succeeded() || entries.isEmpty())
        return fail(QStringLiteral("cannot list '%1' on %2: %3").arg(remotePath, m_connection.target(), stderrOf(*r)));
    if (entries.first() != "d") return shellDownloadFile(remotePath, localPath, entries.first() == "x");
    if (!QDir().mkpath(localPath)) return fail(QStringLiteral("cannot create %1").arg(localPath));
    for (qsizetype i = 1; i < entries.size(); ++i) {
        if (entries[i].size() < 2) continue; // the empty tail after the last NUL
        const QString name = QString::fromUtf8(entries[i].mid(1));
        const QString src = remotePath + "/" + name, dst = localPath + "/" + name;
        EMBARK_TRY(entries[i][0] == 'd' ? shellDownload(src, dst) : shellDownloadFile(src, dst, entries[i][0] == 'x'));
    }
    return {};
}

Status SshTransport::shellDownloadFile(const QString& remotePath, const QString& localPath, bool executable) {
    QDir().mkpath(QFileInfo(localPath).absolutePath());
    QSaveFile out(localPath); // the local copy appears only when complete
    if (!out.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("cannot write %1: %2").arg(localPath, out.errorString()));
    ShellStream s;
    s.output = &out;
    auto r = runShellStreamed("cat -- " + shellQuote(remotePath), s);
    if (!r && !s.lost.isEmpty())
        return fail(QStringLiteral("connection to %1 lost while downloading '%2': %3")
                        .arg(m_connection.target(), remotePath, s.lost));
    EMBARK_TRY(r);
    if (!r->succeeded())
        return fail(
            QStringLiteral("downloading '%1' from %2 failed: %3").arg(remotePath, m_connection.target(), stderrOf(*r)));
    // flush() first: Qt 6.4's commit() ignores an error of the final buffered write.
    if (s.outputFailed || !out.flush() || !out.commit())
        return fail(QStringLiteral("cannot save %1: %2").arg(localPath, out.errorString()));
    QFile::setPermissions(localPath, permissionsOf((executable ? 0755 : 0644) | 0600));
    return {};
}

} // namespace embark::deploy

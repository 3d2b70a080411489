#include "ssh_transport.h"

#include "shell_quote.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QUuid>

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <fcntl.h>

#include <cstring>
#include <optional>
#include <utility>

namespace embark::deploy {
namespace {

constexpr int kChunk = 32 * 1024; // below every SFTP server's packet limit

QString randomSuffix() { return QUuid::createUuid().toString(QUuid::Id128).left(10); }

QString parentOf(const QString& remotePath) {
    const int slash = remotePath.lastIndexOf('/');
    return slash <= 0 ? QStringLiteral("/") : remotePath.left(slash);
}

QFileDevice::Permissions permissionsOf(uint32_t mode) {
    QFileDevice::Permissions p;
    if (mode & 0400) p |= QFileDevice::ReadOwner | QFileDevice::ReadUser;
    if (mode & 0200) p |= QFileDevice::WriteOwner | QFileDevice::WriteUser;
    if (mode & 0100) p |= QFileDevice::ExeOwner | QFileDevice::ExeUser;
    if (mode & 0040) p |= QFileDevice::ReadGroup;
    if (mode & 0010) p |= QFileDevice::ExeGroup;
    if (mode & 0004) p |= QFileDevice::ReadOther;
    if (mode & 0001) p |= QFileDevice::ExeOther;
    return p;
}

mode_t modeOf(QFileDevice::Permissions p) {
    mode_t m = 0;
    if (p & QFileDevice::ReadOwner) m |= 0400;
    if (p & QFileDevice::WriteOwner) m |= 0200;
    if (p & QFileDevice::ExeOwner) m |= 0100;
    if (p & QFileDevice::ReadGroup) m |= 0040;
    if (p & QFileDevice::ExeGroup) m |= 0010;
    if (p & QFileDevice::ReadOther) m |= 0004;
    if (p & QFileDevice::ExeOther) m |= 0001;
    return m;
}

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

SshTransport::SshTransport(targets::Board board, SshOptions options)
    : Transport(board.id), m_board(std::move(board)),
      m_connection(m_board.id, m_board.runner.host, m_board.runner.user, m_board.runner.port,
                   m_board.runner.key, std::move(options)) {}

SshTransport::~SshTransport() {
    if (m_sftp) sftp_free(m_sftp);
}

QString SshTransport::describe() const {
    return QStringLiteral("board '%1' (%2)").arg(m_board.id, m_board.runnerSummary());
}

Error SshTransport::fail(const QString& what) const {
    return makeError(ErrorKind::External, QStringLiteral("board '%1': %2").arg(m_board.id, what).toStdString());
}

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

Status SshTransport::ensureSftp() {
    EMBARK_TRY(connect());
    if (m_sftp) return {};
    m_sftp = sftp_new(m_connection.session());
    if (!m_sftp || sftp_init(m_sftp) != SSH_OK) {
        const QString why = m_connection.lastError();
        if (m_sftp) sftp_free(m_sftp);
        m_sftp = nullptr;
        return fail(QStringLiteral("cannot start SFTP on %1: %2 (is the sftp subsystem enabled in the "
                                   "board's sshd_config?)").arg(m_connection.target(), why));
    }
    return {};
}

Expected<QString> SshTransport::makeRunDir(const QString& label) {
    EMBARK_TRY(ensureSftp());
    const QString base = m_board.runner.workdir.isEmpty() ? QStringLiteral("/tmp") : m_board.runner.workdir;
    sftp_attributes attrs = sftp_stat(m_sftp, base.toUtf8().constData());
    const bool isDir = attrs && attrs->type == SSH_FILEXFER_TYPE_DIRECTORY;
    if (attrs) sftp_attributes_free(attrs);
    if (!isDir)
        return fail(QStringLiteral("the work folder '%1' (runner.workdir) does not exist on %2: create it "
                                   "or change the board file").arg(base, m_connection.target()));
    QString safe = label;
    safe.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    const QString dir = base + (base.endsWith('/') ? "" : "/") + "embark-" + safe.left(40) + "-" + randomSuffix();
    // mkdir fails if the name exists, so the folder is new and ours.
    if (sftp_mkdir(m_sftp, dir.toUtf8().constData(), 0700) != SSH_OK)
        return fail(QStringLiteral("cannot create the run folder '%1' on %2: %3")
                        .arg(dir, m_connection.target(), m_connection.lastError()));
    m_runDir = dir;
    m_ownDirs.insert(dir);
    return dir;
}

Status SshTransport::removeRunDir(const QString& dir) {
    if (!m_ownDirs.contains(dir))
        return makeError(ErrorKind::Usage, QStringLiteral("board '%1': refusing to remove '%2', which this "
                                                          "transport did not create").arg(m_board.id, dir).toStdString());
    auto r = runShell("rm -rf -- " + shellQuote(dir), std::chrono::seconds(60));
    EMBARK_TRY(r);
    EMBARK_TRY(requireSuccess(*r, m_board.id, "removing the run folder '" + dir + "'"));
    m_ownDirs.remove(dir);
    if (m_runDir == dir) m_runDir.clear();
    return {};
}

Status SshTransport::makeRemoteDirs(const QString& remoteDir) {
    QString path;
    for (const QString& part : remoteDir.split('/', Qt::SkipEmptyParts)) {
        path += "/" + part;
        const QByteArray p = path.toUtf8();
        sftp_attributes attrs = sftp_stat(m_sftp, p.constData());
        if (attrs) {
            const bool isDir = attrs->type == SSH_FILEXFER_TYPE_DIRECTORY;
            sftp_attributes_free(attrs);
            if (isDir) continue;
            return fail(QStringLiteral("'%1' on %2 exists and is not a folder").arg(path, m_connection.target()));
        }
        if (sftp_mkdir(m_sftp, p.constData(), 0755) != SSH_OK)
            return fail(QStringLiteral("cannot create the folder '%1' on %2: %3")
                            .arg(path, m_connection.target(), m_connection.lastError()));
    }
    return {};
}

Error SshTransport::uploadFailure(const QString& localPath, const QString& remotePath, qint64 done, qint64 total) {
    const ssh_session s = m_connection.session();
    const bool lost = !s || !ssh_is_connected(s) || (ssh_get_status(s) & (SSH_CLOSED | SSH_CLOSED_ERROR)) ||
                      sftp_get_error(m_sftp) == SSH_FX_CONNECTION_LOST || sftp_get_error(m_sftp) == SSH_FX_NO_CONNECTION;
    const QString sent = QStringLiteral("%1 of %2 bytes sent").arg(done).arg(total);
    if (lost)
        return fail(QStringLiteral("connection to %1 lost while uploading %2 to '%3' (%4): %5. Nothing was "
                                   "installed under that name; check the board and retry")
                        .arg(m_connection.target(), localPath, remotePath, sent, m_connection.lastError()));
    // SFTP v3 reports a full disk as a generic failure: ask the file system how much is left.
    if (sftp_statvfs_t st = sftp_statvfs(m_sftp, parentOf(remotePath).toUtf8().constData())) {
        const quint64 freeBytes = st->f_bavail * st->f_frsize;
        sftp_statvfs_free(st);
        if (freeBytes < static_cast<quint64>(total - done) + 4096)
            return fail(QStringLiteral("no space left on device while uploading %1 to '%2' (%3, %4 bytes free "
                                       "in '%5'): free space on the board or point runner.workdir at a "
                                       "bigger file system")
                            .arg(localPath, remotePath, sent).arg(freeBytes).arg(parentOf(remotePath)));
    }
    return fail(QStringLiteral("uploading %1 to '%2' on %3 failed (%4): %5")
                    .arg(localPath, remotePath, m_connection.target(), sent, m_connection.lastError()));
}

Status SshTransport::uploadFile(const QString& localPath, const QString& remotePath, const ProgressFn& progress) {
    QFile in(localPath);
    if (!in.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1 for upload: %2").arg(localPath, in.errorString()));
    EMBARK_TRY(makeRemoteDirs(parentOf(remotePath)));
    const QString temp = remotePath + ".embark-part-" + randomSuffix();
    const QByteArray tempName = temp.toUtf8();
    sftp_file out = sftp_open(m_sftp, tempName.constData(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (!out)
        return fail(QStringLiteral("cannot create '%1' on %2: %3").arg(temp, m_connection.target(), m_connection.lastError()));
    const qint64 total = in.size();
    qint64 done = 0;
    auto abandon = [&](Error error) -> Error {
        sftp_close(out);
        if (m_connection.isOpen()) sftp_unlink(m_sftp, tempName.constData());
        return error;
    };
    QByteArray chunk;
    while (!(chunk = in.read(kChunk)).isEmpty()) {
        const ssize_t n = sftp_write(out, chunk.constData(), static_cast<size_t>(chunk.size()));
        if (n != chunk.size()) return abandon(uploadFailure(localPath, remotePath, done, total));
        done += n;
        if (progress && !progress(done, total))
            return abandon(fail(QStringLiteral("upload of %1 cancelled").arg(localPath)));
    }
    if (sftp_close(out) != SSH_OK) { // the server may report a deferred write error here
        if (m_connection.isOpen()) sftp_unlink(m_sftp, tempName.constData());
        return uploadFailure(localPath, remotePath, done, total);
    }
    const QByteArray finalName = remotePath.toUtf8();
    if (sftp_chmod(m_sftp, tempName.constData(), modeOf(in.permissions())) != SSH_OK ||
        (sftp_rename(m_sftp, tempName.constData(), finalName.constData()) != SSH_OK &&
         // Plain SFTP v3 rename refuses to replace a file: remove the old one and retry.
         (sftp_unlink(m_sftp, finalName.constData()),
          sftp_rename(m_sftp, tempName.constData(), finalName.constData()) != SSH_OK))) {
        const QString why = m_connection.lastError();
        if (m_connection.isOpen()) sftp_unlink(m_sftp, tempName.constData());
        return fail(QStringLiteral("cannot install '%1' on %2: %3").arg(remotePath, m_connection.target(), why));
    }
    return {};
}

Status SshTransport::upload(const QString& localPath, const QString& remotePath, const ProgressFn& progress) {
    EMBARK_TRY(ensureSftp());
    const QString dest = resolve(remotePath);
    const QFileInfo info(localPath);
    if (info.isFile()) return uploadFile(localPath, dest, progress);
    if (!info.isDir()) return fail(QStringLiteral("cannot upload %1: no such file or folder").arg(localPath));
    EMBARK_TRY(makeRemoteDirs(dest));
    const QDir root(localPath);
    for (const QFileInfo& entry : root.entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name))
        EMBARK_TRY(upload(entry.filePath(), dest + "/" + entry.fileName(), progress));
    return {};
}

Status SshTransport::downloadFile(const QString& remotePath, const QString& localPath, uint32_t mode) {
    sftp_file in = sftp_open(m_sftp, remotePath.toUtf8().constData(), O_RDONLY, 0);
    if (!in)
        return fail(QStringLiteral("cannot open '%1' on %2 for download: %3")
                        .arg(remotePath, m_connection.target(), m_connection.lastError()));
    QDir().mkpath(QFileInfo(localPath).absolutePath());
    QSaveFile out(localPath); // the local copy appears only when complete
    if (!out.open(QIODevice::WriteOnly)) {
        sftp_close(in);
        return fail(QStringLiteral("cannot write %1: %2").arg(localPath, out.errorString()));
    }
    char buf[kChunk];
    for (;;) {
        const ssize_t n = sftp_read(in, buf, sizeof buf);
        if (n == 0) break;
        if (n < 0) {
            sftp_close(in);
            return fail(QStringLiteral("downloading '%1' from %2 failed: %3")
                            .arg(remotePath, m_connection.target(), m_connection.lastError()));
        }
        if (out.write(buf, n) != n) break; // the error is reported below
    }
    sftp_close(in);
    // flush() first: Qt 6.4's commit() ignores an error of the final buffered write.
    if (!out.flush() || !out.commit()) return fail(QStringLiteral("cannot save %1: %2").arg(localPath, out.errorString()));
    // Keep the board's executable bits; the local owner can always read and write the copy.
    QFile::setPermissions(localPath, permissionsOf(mode | 0600));
    return {};
}

Status SshTransport::download(const QString& remotePath, const QString& localPath) {
    EMBARK_TRY(ensureSftp());
    const QString src = resolve(remotePath);
    const QByteArray srcName = src.toUtf8();
    sftp_attributes attrs = sftp_stat(m_sftp, srcName.constData());
    if (!attrs)
        return fail(QStringLiteral("'%1' does not exist on %2").arg(src, m_connection.target()));
    const bool isDir = attrs->type == SSH_FILEXFER_TYPE_DIRECTORY;
    const uint32_t mode = attrs->permissions & 0777;
    sftp_attributes_free(attrs);
    if (!isDir) return downloadFile(src, localPath, mode);

    sftp_dir dir = sftp_opendir(m_sftp, srcName.constData());
    if (!dir) return fail(QStringLiteral("cannot list '%1' on %2: %3").arg(src, m_connection.target(), m_connection.lastError()));
    QStringList names;
    while (sftp_attributes entry = sftp_readdir(m_sftp, dir)) {
        const QString name = QString::fromUtf8(entry->name);
        sftp_attributes_free(entry);
        if (name != "." && name != "..") names << name;
    }
    sftp_closedir(dir);
    if (!QDir().mkpath(localPath)) return fail(QStringLiteral("cannot create %1").arg(localPath));
    for (const QString& name : names)
        EMBARK_TRY(download(src + "/" + name, localPath + "/" + name));
    return {};
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
        return fail(QStringLiteral("cannot run a command on %1: %2").arg(m_connection.target(), m_connection.lastError()));
    ExecResult result;
    QElapsedTimer clock;
    clock.start();
    char buf[kChunk];
    while (!ssh_channel_is_eof(channel.get())) {
        const int n = ssh_channel_read_timeout(channel.get(), buf, sizeof buf, 0, 100);
        if (n == SSH_ERROR) return fail("connection to " + m_connection.target() + " lost: " + m_connection.lastError());
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
    const QString pidFile = (workdir.isEmpty() ? QStringLiteral("/tmp") : workdir) + "/.embark-exec-" + randomSuffix() + ".pid";

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
                return lost(QStringLiteral("it was %1 but could not be killed").arg(cancelled ? "cancelled" : "timed out"));
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
                                           "or board hung").arg(2 * probeAfter / 1000));
            quiet.restart();
        }
    }
    if (!stopped) {
        const int status = ssh_channel_get_exit_status(channel->get());
        if (!channel->state.signal.isEmpty()) {
            result.outcome = ExecResult::Outcome::Signalled;
            result.signal = channel->state.signal;
        } else if (status < 0) {
            return lost(QStringLiteral("before %1 reported its exit status: %2").arg(request.argv.first(), m_connection.lastError()));
        } else {
            result.exitCode = status;
        }
        channel.reset();
        if (m_sftp) sftp_unlink(m_sftp, pidFile.toUtf8().constData());
        else (void)runShell("rm -f -- " + shellQuote(pidFile), std::chrono::seconds(10));
    }
    return result;
}

} // namespace embark::deploy

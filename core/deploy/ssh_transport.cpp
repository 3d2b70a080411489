// SshTransport's files: SFTP upload under a temporary name then rename, download, run folders,
// remote directories. Connecting and commands: ssh_transport_exec.cpp.
#include "ssh_transport.h"

#include "shell_quote.h"
#include "ssh_transport_detail.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <fcntl.h>

#include <cstring>
#include <utility>

namespace embark::deploy {
using detail::kChunk;
using detail::modeOf;
using detail::parentOf;
using detail::permissionsOf;
using detail::randomSuffix;
SshTransport::SshTransport(targets::Board board, SshOptions options)
    : Transport(board.id),
      m_board(std::move(board)),
      m_connection(m_board.id, m_board.runner.host, m_board.runner.user, m_board.runner.port, m_board.runner.key,
                   std::move(options)) {}

SshTransport::~SshTransport() {
    if (m_sftp) sftp_free(m_sftp);
}

QString SshTransport::describe() const {
    return QStringLiteral("board '%1' (%2)").arg(m_board.id, m_board.runnerSummary());
}

Error SshTransport::fail(const QString& what) const {
    return makeError(ErrorKind::External, QStringLiteral("board '%1': %2").arg(m_board.id, what).toStdString());
}

void SshTransport::note(const QString& line) const {
    if (m_connection.options().log)
        m_connection.options().log(line);
    else
        qInfo("%s", qPrintable(line));
}

Status SshTransport::ensureFileAccess() {
    EMBARK_TRY(connect());
    if (m_sftp || m_noSftp) return {};
    m_sftp = sftp_new(m_connection.session());
    if (m_sftp && sftp_init(m_sftp) == SSH_OK) return {};
    const QString why = m_connection.lastError();
    if (m_sftp) sftp_free(m_sftp);
    m_sftp = nullptr;
    // A server without the subsystem ("Channel request subsystem failed": Dropbear, BusyBox
    // images) still runs commands: files then go over exec channels. Only a session that
    // still answers is such a server; a dead one is an error.
    if (!m_connection.isOpen() || !connectionAnswers())
        return fail(QStringLiteral("cannot start SFTP on %1: %2 (the connection was lost; check the board "
                                   "and retry)")
                        .arg(m_connection.target(), why));
    m_noSftp = true;
    note(QStringLiteral("board '%1': %2 has no SFTP subsystem (%3): files are copied over exec channels "
                        "with cat, mkdir -p and mv instead")
             .arg(m_board.id, m_connection.target(), why));
    return {};
}

Expected<QString> SshTransport::makeRunDir(const QString& label) {
    EMBARK_TRY(ensureFileAccess());
    const QString base = m_board.runner.workdir.isEmpty() ? QStringLiteral("/tmp") : m_board.runner.workdir;
    QString safe = label;
    safe.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    const QString dir = base + (base.endsWith('/') ? "" : "/") + "embark-" + safe.left(40) + "-" + randomSuffix();
    if (m_noSftp) {
        EMBARK_TRY(shellMakeRunDir(base, dir));
        m_runDir = dir;
        m_ownDirs.insert(dir);
        return dir;
    }
    sftp_attributes attrs = sftp_stat(m_sftp, base.toUtf8().constData());
    const bool isDir = attrs && attrs->type == SSH_FILEXFER_TYPE_DIRECTORY;
    if (attrs) sftp_attributes_free(attrs);
    if (!isDir)
        return fail(QStringLiteral("the work folder '%1' (runner.workdir) does not exist on %2: create it "
                                   "or change the board file")
                        .arg(base, m_connection.target()));
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
                                                          "transport did not create")
                                               .arg(m_board.id, dir)
                                               .toStdString());
    auto r = runShell("rm -rf -- " + shellQuote(dir), std::chrono::seconds(60));
    EMBARK_TRY(r);
    EMBARK_TRY(requireSuccess(*r, m_board.id, "removing the run folder '" + dir + "'"));
    m_ownDirs.remove(dir);
    if (m_runDir == dir) m_runDir.clear();
    return {};
}

Status SshTransport::makeRemoteDirs(const QString& remoteDir) {
    if (m_noSftp) return shellMakeDirs(remoteDir);
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
                      sftp_get_error(m_sftp) == SSH_FX_CONNECTION_LOST ||
                      sftp_get_error(m_sftp) == SSH_FX_NO_CONNECTION;
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
                            .arg(localPath, remotePath, sent)
                            .arg(freeBytes)
                            .arg(parentOf(remotePath)));
    }
    return fail(QStringLiteral("uploading %1 to '%2' on %3 failed (%4): %5")
                    .arg(localPath, remotePath, m_connection.target(), sent, m_connection.lastError()));
}

Status SshTransport::uploadFile(const QString& localPath, const QString& remotePath, const ProgressFn& progress) {
    if (m_noSftp) return shellUploadFile(localPath, remotePath, progress);
    QFile in(localPath);
    if (!in.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1 for upload: %2").arg(localPath, in.errorString()));
    EMBARK_TRY(makeRemoteDirs(parentOf(remotePath)));
    const QString temp = remotePath + ".embark-part-" + randomSuffix();
    const QByteArray tempName = temp.toUtf8();
    sftp_file out = sftp_open(m_sftp, tempName.constData(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (!out)
        return fail(
            QStringLiteral("cannot create '%1' on %2: %3").arg(temp, m_connection.target(), m_connection.lastError()));
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
    EMBARK_TRY(ensureFileAccess());
    const QString dest = resolve(remotePath);
    const QFileInfo info(localPath);
    if (info.isFile()) return uploadFile(localPath, dest, progress);
    if (!info.isDir()) return fail(QStringLiteral("cannot upload %1: no such file or folder").arg(localPath));
    EMBARK_TRY(makeRemoteDirs(dest));
    const QDir root(localPath);
    for (const QFileInfo& entry :
         root.entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name))
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
    if (!out.flush() || !out.commit())
        return fail(QStringLiteral("cannot save %1: %2").arg(localPath, out.errorString()));
    // Keep the board's executable bits; the local owner can always read and write the copy.
    QFile::setPermissions(localPath, permissionsOf(mode | 0600));
    return {};
}

Status SshTransport::download(const QString& remotePath, const QString& localPath) {
    EMBARK_TRY(ensureFileAccess());
    const QString src = resolve(remotePath);
    if (m_noSftp) return shellDownload(src, localPath);
    const QByteArray srcName = src.toUtf8();
    sftp_attributes attrs = sftp_stat(m_sftp, srcName.constData());
    if (!attrs) return fail(QStringLiteral("'%1' does not exist on %2").arg(src, m_connection.target()));
    const bool isDir = attrs->type == SSH_FILEXFER_TYPE_DIRECTORY;
    const uint32_t mode = attrs->permissions & 0777;
    sftp_attributes_free(attrs);
    if (!isDir) return downloadFile(src, localPath, mode);

    sftp_dir dir = sftp_opendir(m_sftp, srcName.constData());
    if (!dir)
        return fail(
            QStringLiteral("cannot list '%1' on %2: %3").arg(src, m_connection.target(), m_connection.lastError()));
    QStringList names;
    while (sftp_attributes entry = sftp_readdir(m_sftp, dir)) {
        const QString name = QString::fromUtf8(entry->name);
        sftp_attributes_free(entry);
        if (name != "." && name != "..") names << name;
    }
    sftp_closedir(dir);
    if (!QDir().mkpath(localPath)) return fail(QStringLiteral("cannot create %1").arg(localPath));
    for (const QString& name : names) EMBARK_TRY(download(src + "/" + name, localPath + "/" + name));
    return {};
}

} // namespace embark::deploy

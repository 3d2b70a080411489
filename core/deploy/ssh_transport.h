// A Transport over SSH (libssh + SFTP): uploads go to a temporary name and are renamed when
// complete; commands run in their own process group whose id is written to a file, so a
// timeout or cancel kills everything they started on the board. A connection that stops
// answering (packets dropped, board hung) is detected by a probe after ioTimeout of silence.
// Boards without an SFTP subsystem (Dropbear, BusyBox images) get files over exec channels
// (cat, mkdir -p, mv) with the same guarantees: ssh_transport_shell.cpp.
#pragma once

#include "ssh_connection.h"
#include "transport.h"

#include "targets/board.h"

#include <QSet>

#include <memory>

struct sftp_session_struct;

namespace embark::deploy {

class SshTransport : public Transport {
public:
    SshTransport(targets::Board board, SshOptions options = {});
    ~SshTransport() override;

    Status connect() override;
    Expected<QString> makeRunDir(const QString& label) override;
    Status removeRunDir(const QString& dir) override;
    Status upload(const QString& localPath, const QString& remotePath, const ProgressFn& progress = {}) override;
    Status download(const QString& remotePath, const QString& localPath) override;
    Expected<ExecResult> exec(const ExecRequest& request) override;
    QString describe() const override;

    // Runs a shell command line as is (callers quote with shellQuote): for housekeeping such
    // as kill and rm, outside any run folder and without the exec prefix.
    Expected<ExecResult> runShell(const QString& commandLine, std::chrono::milliseconds timeout);

private:
    struct ShellStream;

    // Opens SFTP, or notes that the board refuses it and files go over exec channels.
    Status ensureFileAccess();
    Status uploadFile(const QString& localPath, const QString& remotePath, const ProgressFn& progress);
    Status downloadFile(const QString& remotePath, const QString& localPath, uint32_t mode);
    Status makeRemoteDirs(const QString& remoteDir);
    Error uploadFailure(const QString& localPath, const QString& remotePath, qint64 done, qint64 total);
    Error fail(const QString& what) const;
    void note(const QString& line) const;
    // The fallback without SFTP (ssh_transport_shell.cpp): every path is shell-quoted data.
    Expected<ExecResult> runShellStreamed(const QString& commandLine, ShellStream& stream);
    Status shellMakeRunDir(const QString& base, const QString& dir);
    Status shellMakeDirs(const QString& remoteDir);
    Status shellUploadFile(const QString& localPath, const QString& remotePath, const ProgressFn& progress);
    Status shellDownload(const QString& remotePath, const QString& localPath);
    Status shellDownloadFile(const QString& remotePath, const QString& localPath, bool executable);
    bool killRemoteGroup(const QString& pidFile);
    bool connectionAnswers();
    void dropConnection(const QString& orphanPidFile);

    targets::Board m_board;
    SshConnection m_connection;
    sftp_session_struct* m_sftp = nullptr;
    bool m_noSftp = false; // the board refused the sftp subsystem: use the exec fallback
    QSet<QString> m_ownDirs;
    // Pid files of commands that could not be killed because the connection was lost: their
    // process groups are killed as soon as a connection is open again.
    QStringList m_orphans;
};

} // namespace embark::deploy

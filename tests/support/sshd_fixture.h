// A real OpenSSH server for the deployment tests: temp host and client keys, an sshd_config on
// 127.0.0.1 and a free port, a known_hosts and an ssh config with an alias, stopped on exit.
#pragma once

#include <QString>
#include <QTemporaryDir>

#include <sys/types.h>

namespace embark::test {

class SshdFixture {
public:
    SshdFixture();
    ~SshdFixture();
    SshdFixture(const SshdFixture&) = delete;
    SshdFixture& operator=(const SshdFixture&) = delete;

    // Generates keys and files and starts sshd; false with `error` set when that fails
    // (no sshd or ssh-keygen installed, no free port).
    bool start(QString* error);
    // Before start(): also accept password logins (for accounts with a password set).
    void setPasswordAuthentication(bool on) { m_passwordAuth = on; }
    // Before start(): false writes no `Subsystem sftp` line, so the server refuses SFTP as
    // Dropbear and BusyBox boards do ("Channel request subsystem failed").
    void setSftpSubsystem(bool on) { m_sftp = on; }
    // Also forgets this server's key in the account's own known_hosts (the passwd home's, which
    // libssh reads), where a test with --accept-new-host-key recorded it: a later server given
    // the same port has another key.
    void stop();
    void forgetInUserKnownHosts() const;
    // SIGKILL the server and every connection it serves: a board that vanishes mid-transfer.
    void killHard();
    bool isRunning() const { return m_pid > 0; }

    QString dir() const { return m_dir.path(); }
    QString alias() const { return QStringLiteral("embark-test-board"); }
    int port() const { return m_port; }
    QString user() const;
    QString clientKey() const { return dir() + "/client_key"; }
    QString hostKeyPub() const { return dir() + "/host_key.pub"; }
    QString hostFingerprint() const { return m_fingerprint; } // SHA256:...
    QString sshConfig() const { return dir() + "/ssh_config"; }
    QString knownHosts() const { return dir() + "/known_hosts"; }
    QString sshdLog() const { return dir() + "/sshd.log"; }

    // known_hosts with the server's real key (trusted), with another key (changed), or empty.
    bool writeKnownHosts(bool withRealKey, bool hashed = false);
    bool writeKnownHostsWithOtherKey();
    // A fresh key pair the server does not know, for the wrong-key case.
    QString makeStrangerKey();

private:
    bool keygen(const QString& path, QString* error);

    QTemporaryDir m_dir;
    int m_port = 0;
    pid_t m_pid = 0;
    QString m_fingerprint;
    bool m_passwordAuth = false;
    bool m_sftp = true;
};

// Compiles a tiny static riscv64 program (riscv64-linux-gnu-gcc) into `dir` and returns its
// path. It prints its arguments one a line ("arg[1]=..."), writes result.txt, prints
// "to stderr" on stderr; `status N` makes it exit with N, `crash` makes it segfault.
QString buildRiscvTestProgram(const QString& dir, QString* error);

} // namespace embark::test

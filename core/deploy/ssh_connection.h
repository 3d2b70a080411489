// One authenticated libssh session to a board: ~/.ssh/config aliases, known_hosts checking
// (an unknown key needs the caller's confirmation, a changed key is always refused), agent,
// key-file and prompted-password authentication. Passwords are never stored or logged.
#pragma once

#include "ir/error.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <functional>
#include <optional>

struct ssh_session_struct;

namespace embark::deploy {

struct HostKeyInfo {
    QString host; // as connected to (after ~/.ssh/config), e.g. "127.0.0.1"
    int port = 22;
    QString keyType;        // "ssh-ed25519"
    QString fingerprint;    // "SHA256:..." as ssh-keygen -l prints it
    QString knownHostsFile; // where it will be recorded when confirmed
};

struct SshOptions {
    QString configFile;     // empty = ~/.ssh/config and /etc/ssh/ssh_config
    QString knownHostsFile; // empty = as configured (~/.ssh/known_hosts)
    std::chrono::seconds connectTimeout{15};
    std::chrono::seconds ioTimeout{60}; // any single blocking SSH/SFTP operation
    // Asked when the host's key is not in known_hosts: true trusts and records it.
    // Without a callback an unknown key is refused.
    std::function<bool(const HostKeyInfo&)> confirmHostKey;
    // Asked for a password or key passphrase; the returned bytes are wiped after use.
    std::function<std::optional<QByteArray>(const QString& prompt)> askSecret;
    // Notes on how the board is reached (e.g. that it has no SFTP and files go over exec
    // channels). Without a callback they go to qInfo().
    std::function<void(const QString& line)> log;
};

// Lines (1-based) of `knownHostsFile` that name host (port 22: "host", else "[host]:port"),
// plain or hashed (|1|salt|hash) entries alike.
std::vector<int> knownHostsLines(const QString& knownHostsFile, const QString& host, int port);

class SshConnection {
public:
    SshConnection(QString boardId, QString host, QString user, int port, QString keyFile, SshOptions options);
    ~SshConnection();
    SshConnection(const SshConnection&) = delete;
    SshConnection& operator=(const SshConnection&) = delete;

    Status open(); // connect, verify the host key, authenticate
    void close();
    bool isOpen() const;

    ssh_session_struct* session() const { return m_session; }
    // "k230 (127.0.0.1:2222)" for messages.
    QString target() const;
    // The libssh error text of the session, for messages.
    QString lastError() const;
    const SshOptions& options() const { return m_options; }

private:
    Status verifyHostKey();
    Status authenticate();
    Error fail(const QString& what) const;

    QString m_boardId;
    QString m_alias;
    QString m_user;
    int m_port;
    QString m_keyFile;
    SshOptions m_options;
    ssh_session_struct* m_session = nullptr;
    QString m_resolvedHost;
    int m_resolvedPort = 22;
};

} // namespace embark::deploy

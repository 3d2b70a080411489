#include "ssh_connection.h"

#include <QFile>
#include <QMessageAuthenticationCode>

#include <libssh/libssh.h>

#include <cstring>

namespace embark::deploy {
namespace {

QString takeSshString(char* s) {
    const QString out = s ? QString::fromUtf8(s) : QString();
    if (s) ssh_string_free_char(s);
    return out;
}

// Overwrites secret bytes before they are freed, so they do not linger in the heap.
void wipe(QByteArray& secret) {
    if (!secret.isEmpty()) std::memset(secret.data(), 0, static_cast<size_t>(secret.size()));
    secret.clear();
}

struct PassphraseContext {
    const SshOptions* options;
    QString keyFile;
};

// libssh's passphrase callback for an encrypted key file.
int passphraseCallback(const char*, char* buf, size_t len, int, int, void* userdata) {
    auto* ctx = static_cast<PassphraseContext*>(userdata);
    if (!ctx->options->askSecret || len == 0) return -1;
    std::optional<QByteArray> secret = ctx->options->askSecret("Passphrase for key " + ctx->keyFile + ": ");
    if (!secret) return -1;
    const size_t n = std::min(len - 1, static_cast<size_t>(secret->size()));
    std::memcpy(buf, secret->constData(), n);
    buf[n] = '\0';
    wipe(*secret);
    return 0;
}

// The command a user can paste to try the same connection: "ssh -p 2222 root@127.0.0.1".
QString sshCommand(const QString& program, const QString& alias, const QString& user, int port) {
    QString cmd = program;
    if (port > 0 && port != 22) cmd += QStringLiteral(" -p %1").arg(port);
    return cmd + QLatin1Char(' ') + (user.isEmpty() ? alias : user + QLatin1Char('@') + alias);
}

} // namespace

std::vector<int> knownHostsLines(const QString& knownHostsFile, const QString& host, int port) {
    std::vector<int> lines;
    QFile f(knownHostsFile);
    if (!f.open(QIODevice::ReadOnly)) return lines;
    const QByteArray name = (port == 22 ? host : QStringLiteral("[%1]:%2").arg(host).arg(port)).toUtf8();
    int lineNo = 0;
    for (const QByteArray& raw : f.readAll().split('\n')) {
        ++lineNo;
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#')) continue;
        QByteArray hosts = line.split(' ').first();
        if (hosts.startsWith('@')) { // @cert-authority / @revoked markers precede the hosts
            const QList<QByteArray> parts = line.simplified().split(' ');
            if (parts.size() < 2) continue;
            hosts = parts[1];
        }
        for (const QByteArray& pattern : hosts.split(',')) {
            bool match = pattern == name;
            if (pattern.startsWith("|1|")) {
                const QList<QByteArray> parts = pattern.split('|'); // "", "1", salt, hash
                if (parts.size() == 4) {
                    const QByteArray salt = QByteArray::fromBase64(parts[2]);
                    match =
                        QMessageAuthenticationCode::hash(name, salt, QCryptographicHash::Sha1).toBase64() == parts[3];
                }
            }
            if (match) {
                lines.push_back(lineNo);
                break;
            }
        }
    }
    return lines;
}

SshConnection::SshConnection(QString boardId, QString host, QString user, int port, QString keyFile, SshOptions options)
    : m_boardId(std::move(boardId)),
      m_alias(std::move(host)),
      m_user(std::move(user)),
      m_port(port),
      m_keyFile(std::move(keyFile)),
      m_options(std::move(options)) {}

SshConnection::~SshConnection() { close(); }

bool SshConnection::isOpen() const { return m_session && ssh_is_connected(m_session); }

void SshConnection::close() {
    if (!m_session) return;
    if (ssh_is_connected(m_session)) ssh_disconnect(m_session);
    ssh_free(m_session);
    m_session = nullptr;
}

QString SshConnection::target() const {
    if (m_resolvedHost.isEmpty() || (m_resolvedHost == m_alias && m_resolvedPort == 22)) return m_alias;
    return QStringLiteral("%1 (%2:%3)").arg(m_alias, m_resolvedHost).arg(m_resolvedPort);
}

QString SshConnection::lastError() const {
    return m_session ? QString::fromUtf8(ssh_get_error(m_session)) : QStringLiteral("no session");
}

Error SshConnection::fail(const QString& what) const {
    return makeError(ErrorKind::External, QStringLiteral("board '%1': %2").arg(m_boardId, what).toStdString());
}

Status SshConnection::open() {
    if (isOpen()) return {};
    close();
    m_session = ssh_new();
    if (!m_session) return fail("cannot create an SSH session (out of memory?)");

    const QByteArray alias = m_alias.toUtf8();
    ssh_options_set(m_session, SSH_OPTIONS_HOST, alias.constData());
    // The alias must be set first: ssh_config's Host blocks match it.
    const QByteArray config = m_options.configFile.toUtf8();
    if (ssh_options_parse_config(m_session, m_options.configFile.isEmpty() ? nullptr : config.constData()) != 0)
        return fail(QStringLiteral("cannot read the SSH config %1: %2")
                        .arg(m_options.configFile.isEmpty() ? "~/.ssh/config" : m_options.configFile, lastError()));
    // Values from the board file win over ~/.ssh/config, as ssh's command line does.
    if (!m_user.isEmpty()) ssh_options_set(m_session, SSH_OPTIONS_USER, m_user.toUtf8().constData());
    if (m_port > 0) {
        const unsigned int port = static_cast<unsigned int>(m_port);
        ssh_options_set(m_session, SSH_OPTIONS_PORT, &port);
    }
    if (!m_options.knownHostsFile.isEmpty())
        ssh_options_set(m_session, SSH_OPTIONS_KNOWNHOSTS, m_options.knownHostsFile.toUtf8().constData());
    // SFTP and exec traffic is many small request/reply packets: Nagle's algorithm against
    // delayed ACKs would add tens of milliseconds to each.
    const int noDelay = 1;
    ssh_options_set(m_session, SSH_OPTIONS_NODELAY, &noDelay);
    long timeout = static_cast<long>(m_options.connectTimeout.count());
    ssh_options_set(m_session, SSH_OPTIONS_TIMEOUT, &timeout);

    char* resolved = nullptr;
    if (ssh_options_get(m_session, SSH_OPTIONS_HOST, &resolved) == SSH_OK) m_resolvedHost = takeSshString(resolved);
    unsigned int port = 22;
    if (ssh_options_get_port(m_session, &port) == SSH_OK) m_resolvedPort = static_cast<int>(port);

    if (ssh_connect(m_session) != SSH_OK) {
        const QString why = lastError();
        close();
        return fail(QStringLiteral("cannot connect to %1: %2. Check that the board is on and reachable "
                                   "(try '%3') and that the board file's runner.host is right")
                        .arg(target(), why, sshCommand(QStringLiteral("ssh"), m_alias, m_user, m_port)));
    }
    // Transfers and commands get the (longer) I/O timeout from here on.
    timeout = static_cast<long>(m_options.ioTimeout.count());
    ssh_options_set(m_session, SSH_OPTIONS_TIMEOUT, &timeout);

    if (Status s = verifyHostKey(); !s) {
        close();
        return s;
    }
    if (Status s = authenticate(); !s) {
        close();
        return s;
    }
    return {};
}

Status SshConnection::verifyHostKey() {
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(m_session, &key) != SSH_OK)
        return fail(QStringLiteral("%1 sent no host key: %2").arg(target(), lastError()));
    unsigned char* hash = nullptr;
    size_t hashLen = 0;
    HostKeyInfo info;
    info.host = m_resolvedHost;
    info.port = m_resolvedPort;
    info.keyType = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key)));
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hashLen) == SSH_OK) {
        info.fingerprint = takeSshString(ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hashLen));
        ssh_clean_pubkey_hash(&hash);
    }
    ssh_key_free(key);
    char* khFile = nullptr;
    if (ssh_options_get(m_session, SSH_OPTIONS_KNOWNHOSTS, &khFile) == SSH_OK)
        info.knownHostsFile = takeSshString(khFile);

    switch (ssh_session_is_known_server(m_session)) {
    case SSH_KNOWN_HOSTS_OK: return {};
    case SSH_KNOWN_HOSTS_CHANGED:
    case SSH_KNOWN_HOSTS_OTHER: {
        QStringList where;
        for (int line : knownHostsLines(info.knownHostsFile, info.host, info.port))
            where << QStringLiteral("%1:%2").arg(info.knownHostsFile).arg(line);
        const QString name = info.port == 22 ? info.host : QStringLiteral("[%1]:%2").arg(info.host).arg(info.port);
        return fail(QStringLiteral("REFUSED: the host key of %1 changed (it now presents %2 %3), which does "
                                   "not match %4. If the board was reinstalled, remove the old entry "
                                   "(ssh-keygen -R '%5' -f '%6') and connect again; otherwise someone may "
                                   "be intercepting the connection")
                        .arg(target(), info.keyType, info.fingerprint,
                             where.isEmpty() ? info.knownHostsFile : where.join(", "), name, info.knownHostsFile));
    }
    case SSH_KNOWN_HOSTS_NOT_FOUND:
    case SSH_KNOWN_HOSTS_UNKNOWN:
        if (!m_options.confirmHostKey || !m_options.confirmHostKey(info))
            return fail(QStringLiteral("the host key of %1 (%2 %3) is not in %4 and was not confirmed: "
                                       "check the fingerprint on the board, then accept it "
                                       "(embark-cli --accept-new-host-key, or '%5' once)")
                            .arg(target(), info.keyType, info.fingerprint, info.knownHostsFile,
                                 sshCommand(QStringLiteral("ssh"), m_alias, m_user, m_port)));
        if (ssh_session_update_known_hosts(m_session) != SSH_OK)
            return fail(QStringLiteral("cannot record the host key of %1 in %2: %3")
                            .arg(target(), info.knownHostsFile, lastError()));
        return {};
    case SSH_KNOWN_HOSTS_ERROR: break;
    }
    return fail(QStringLiteral("cannot check the host key of %1 against %2: %3")
                    .arg(target(), info.knownHostsFile, lastError()));
}

Status SshConnection::authenticate() {
    if (ssh_userauth_none(m_session, nullptr) == SSH_AUTH_SUCCESS) return {};
    QString tried;
    int rc = SSH_AUTH_DENIED;
    if (!m_keyFile.isEmpty()) {
        PassphraseContext ctx{&m_options, m_keyFile};
        ssh_key key = nullptr;
        if (ssh_pki_import_privkey_file(m_keyFile.toUtf8().constData(), nullptr, passphraseCallback, &ctx, &key) !=
            SSH_OK)
            return fail(QStringLiteral("cannot read the private key %1 (runner.key): missing, unreadable or "
                                       "wrong passphrase")
                            .arg(m_keyFile));
        rc = ssh_userauth_publickey(m_session, nullptr, key);
        ssh_key_free(key);
        tried = "the key " + m_keyFile;
    } else {
        rc = ssh_userauth_publickey_auto(m_session, nullptr, nullptr);
        tried = QStringLiteral("the SSH agent and default keys");
    }
    if (rc == SSH_AUTH_ERROR)
        return fail(QStringLiteral("authentication with %1 failed: %2").arg(target(), lastError()));
    if (rc == SSH_AUTH_SUCCESS) return {};

    const int methods = ssh_userauth_list(m_session, nullptr);
    if ((methods & SSH_AUTH_METHOD_PASSWORD) && m_options.askSecret) {
        char* user = nullptr;
        ssh_options_get(m_session, SSH_OPTIONS_USER, &user);
        std::optional<QByteArray> password =
            m_options.askSecret(QStringLiteral("Password for %1@%2: ").arg(takeSshString(user), m_alias));
        if (password) {
            rc = ssh_userauth_password(m_session, nullptr, password->constData());
            wipe(*password);
            if (rc == SSH_AUTH_SUCCESS) return {};
            tried += QStringLiteral(" and a password");
        }
    }
    char* user = nullptr;
    ssh_options_get(m_session, SSH_OPTIONS_USER, &user);
    return fail(QStringLiteral("authentication as '%1' on %2 failed (tried %3). Install your public key on "
                               "the board (%4) or set runner.key in the board file")
                    .arg(takeSshString(user), target(), tried,
                         sshCommand(QStringLiteral("ssh-copy-id"), m_alias, m_user, m_port)));
}

} // namespace embark::deploy

#include "sshd_fixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

#include <csignal>
#include <fcntl.h>
#include <sys/prctl.h>
#include <QThread>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace embark::test {
namespace {

int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return 0;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

bool portAccepts(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

bool writeFile(const QString& path, const QByteArray& data) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

SshdFixture::SshdFixture() = default;

SshdFixture::~SshdFixture() { stop(); }

QString SshdFixture::user() const {
    const passwd* pw = ::getpwuid(::getuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QStringLiteral("root");
}

bool SshdFixture::keygen(const QString& path, QString* error) {
    QFile::remove(path);
    QFile::remove(path + ".pub");
    QProcess p;
    p.start("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-C", "embark-test", "-f", path});
    if (!p.waitForFinished(30000) || p.exitCode() != 0) {
        if (error)
            *error = "ssh-keygen failed (install openssh-client): " + p.errorString() +
                     QString::fromLocal8Bit(p.readAllStandardError());
        return false;
    }
    return true;
}

bool SshdFixture::start(QString* error) {
    if (!m_dir.isValid() || !QFileInfo::exists("/usr/sbin/sshd")) {
        if (error) *error = "/usr/sbin/sshd is not installed (Debian package openssh-server)";
        return false;
    }
    if (!keygen(dir() + "/host_key", error) || !keygen(clientKey(), error)) return false;
    QDir().mkpath("/run/sshd"); // sshd's privilege separation folder
    m_port = freePort();
    if (!m_port) {
        if (error) *error = "no free TCP port on 127.0.0.1";
        return false;
    }
    forgetInUserKnownHosts(); // a key an earlier server on this port left there
    QFile::copy(clientKey() + ".pub", dir() + "/authorized_keys");

    QProcess fp;
    fp.start("ssh-keygen", {"-l", "-E", "sha256", "-f", hostKeyPub()});
    fp.waitForFinished(30000);
    m_fingerprint = QString::fromLatin1(fp.readAllStandardOutput()).section(' ', 1, 1);

    const QByteArray config =
        QStringLiteral("ListenAddress 127.0.0.1\n"
                       "Port %1\n"
                       "HostKey %2/host_key\n"
                       "PidFile %2/sshd.pid\n"
                       "AuthorizedKeysFile %2/authorized_keys\n"
                       "StrictModes no\n"
                       "UsePAM no\n"
                       "PermitRootLogin yes\n"
                       "PubkeyAuthentication yes\n"
                       "PasswordAuthentication %3\n"
                       "KbdInteractiveAuthentication no\n"
                       "%4"
                       "LogLevel VERBOSE\n")
            .arg(m_port)
            .arg(dir(), m_passwordAuth ? QStringLiteral("yes") : QStringLiteral("no"),
                 m_sftp ? QStringLiteral("Subsystem sftp /usr/lib/openssh/sftp-server\n") : QString())
            .toUtf8();
    writeFile(dir() + "/sshd_config", config);
    writeFile(sshConfig(), QStringLiteral("Host %1\n"
                                          "  HostName 127.0.0.1\n"
                                          "  Port %2\n"
                                          "  User %3\n"
                                          "  IdentityFile %4\n"
                                          "  IdentitiesOnly yes\n")
                               .arg(alias())
                               .arg(m_port)
                               .arg(user(), clientKey())
                               .toUtf8());
    writeKnownHosts(true);

    // Started with fork/exec rather than QProcess so that killHard() can SIGKILL it without a
    // QProcess noticing from another thread.
    const QByteArray sshd = "/usr/sbin/sshd", cfg = (dir() + "/sshd_config").toLocal8Bit(),
                     log = sshdLog().toLocal8Bit();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);
        // Dies with the test (even when it aborts), and holds none of its output pipes, so a
        // crashed test never leaves a listener behind nor keeps ctest waiting on a pipe.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        const int devnull = ::open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            ::dup2(devnull, 0);
            ::dup2(devnull, 1);
            ::dup2(devnull, 2);
        }
        ::execl(sshd.constData(), sshd.constData(), "-D", "-e", "-f", cfg.constData(), "-E", log.constData(),
                static_cast<char*>(nullptr));
        ::_exit(127);
    }
    if (pid < 0) {
        if (error) *error = "fork failed";
        return false;
    }
    m_pid = pid;
    for (int i = 0; i < 200; ++i) {
        if (portAccepts(m_port)) return true;
        int status = 0;
        if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
            m_pid = 0;
            if (error) *error = "sshd exited at start: " + QString::fromLocal8Bit(readFile(sshdLog()));
            return false;
        }
        QThread::msleep(50);
    }
    if (error) *error = "sshd did not accept connections on port " + QString::number(m_port);
    stop();
    return false;
}

void SshdFixture::killHard() {
    if (m_pid <= 0) return;
    // Each connection is a child of the listener (in its own session), so kill children first.
    QProcess::execute("pkill", {"-KILL", "-P", QString::number(m_pid)});
    ::kill(m_pid, SIGKILL);
    ::waitpid(m_pid, nullptr, 0);
    m_pid = 0;
}

void SshdFixture::stop() {
    if (m_pid <= 0) return;
    QProcess::execute("pkill", {"-TERM", "-P", QString::number(m_pid)});
    ::kill(m_pid, SIGTERM);
    ::waitpid(m_pid, nullptr, 0);
    m_pid = 0;
    forgetInUserKnownHosts();
}

void SshdFixture::forgetInUserKnownHosts() const {
    if (m_port <= 0) return;
    const passwd* pw = ::getpwuid(::getuid());
    if (!pw || !pw->pw_dir) return;
    const QString file = QString::fromLocal8Bit(pw->pw_dir) + "/.ssh/known_hosts";
    if (!QFileInfo::exists(file)) return;
    QProcess keygen;
    keygen.start("ssh-keygen", {"-R", QStringLiteral("[127.0.0.1]:%1").arg(m_port), "-f", file});
    keygen.waitForFinished(10000);
    QFile::remove(file + ".old");
}

bool SshdFixture::writeKnownHosts(bool withRealKey, bool hashed) {
    if (!withRealKey) return writeFile(knownHosts(), "");
    const QByteArray key = readFile(hostKeyPub()).trimmed();
    const QList<QByteArray> parts = key.split(' ');
    if (parts.size() < 2) return false;
    const QByteArray line = QStringLiteral("[127.0.0.1]:%1 ").arg(m_port).toUtf8() + parts[0] + " " + parts[1] + "\n";
    if (!writeFile(knownHosts(), "# test known_hosts\n" + line)) return false;
    if (!hashed) return true;
    QProcess hash; // ssh-keygen -H chats on stderr and keeps a .old copy: both unwanted here
    hash.start("ssh-keygen", {"-q", "-H", "-f", knownHosts()});
    const bool ok = hash.waitForFinished(30000) && hash.exitCode() == 0;
    QFile::remove(knownHosts() + ".old");
    return ok;
}

bool SshdFixture::writeKnownHostsWithOtherKey() {
    QString error;
    const QString other = dir() + "/other_host_key";
    if (!keygen(other, &error)) return false;
    const QList<QByteArray> parts = readFile(other + ".pub").trimmed().split(' ');
    const QByteArray line = QStringLiteral("[127.0.0.1]:%1 ").arg(m_port).toUtf8() + parts[0] + " " + parts[1] + "\n";
    // The stale entry is on line 3, after a comment and another host's entry.
    return writeFile(knownHosts(), "# first line\nsomehost " + parts[0] + " " + parts[1] + "\n" + line);
}

QString SshdFixture::makeStrangerKey() {
    QString error;
    const QString path = dir() + "/stranger_key";
    return keygen(path, &error) ? path : QString();
}

QString buildRiscvTestProgram(const QString& dir, QString* error) {
    const QString source = dir + "/probe.c";
    writeFile(source, R"(#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
    if (argc > 1 && strcmp(argv[1], "crash") == 0) { volatile int* p = 0; *p = 1; }
    for (int i = 1; i < argc; ++i) printf("arg[%d]=%s\n", i, argv[i]);
    FILE* f = fopen("result.txt", "w");
    if (f) { fprintf(f, "argc=%d\n", argc); fclose(f); }
    fprintf(stderr, "to stderr\n");
    if (argc > 2 && strcmp(argv[1], "status") == 0) return atoi(argv[2]);
    return 0;
}
)");
    const QString binary = dir + "/probe";
    QProcess cc;
    cc.start("riscv64-linux-gnu-gcc", {"-static", "-O1", "-o", binary, source});
    if (!cc.waitForFinished(120000) || cc.exitStatus() != QProcess::NormalExit || cc.exitCode() != 0) {
        if (error)
            *error = "riscv64-linux-gnu-gcc failed (install gcc-riscv64-linux-gnu): " + cc.errorString() +
                     QString::fromLocal8Bit(cc.readAllStandardError());
        return {};
    }
    return binary;
}

} // namespace embark::test

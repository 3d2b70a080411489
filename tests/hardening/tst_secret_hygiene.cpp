// A password login writes the password nowhere: a throwaway account with a random password
// (useradd + chpasswd, root only) on the sshd fixture with password authentication, a whole
// bench run through it (new host key recorded, upload, run, download, run stored), then every
// file Embark could have written (HOME, XDG config/cache/data, the boards folder, known_hosts,
// the run store, the export and results) and every log line are searched for the password.
// A wrong password's error names the user and host but not the password.
#include "support/host_board.h"
#include "deploy/ssh_transport.h"
#include "jobs/bench_pipeline.h"
#include "support/sshd_fixture.h"
#include "support/test_paths.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace embark;

namespace {

using test::hostArch;

QByteArray randomPassword() {
    static const char kAlphabet[] = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    QByteArray p = "Emb-";
    for (int i = 0; i < 24; ++i) p += kAlphabet[QRandomGenerator::global()->bounded(int(sizeof kAlphabet - 1))];
    return p;
}

// Files under `root` holding `secret` (as UTF-8, UTF-16 or base64).
QStringList filesContaining(const QString& root, const QByteArray& secret) {
    const QByteArray utf16(reinterpret_cast<const char*>(QString::fromLatin1(secret).utf16()), secret.size() * 2);
    QStringList hits;
    for (QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
         it.hasNext();) {
        QFile f(it.next());
        if (!f.open(QIODevice::ReadOnly)) continue;
        const QByteArray data = f.readAll();
        if (data.contains(secret) || data.contains(utf16) || data.contains(secret.toBase64())) hits << f.fileName();
    }
    return hits;
}

} // namespace

class TestSecretHygiene : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    test::SshdFixture m_sshd;
    QString m_user;
    QByteArray m_password;

    deploy::SshOptions options(const QByteArray& password, int* asked) const {
        deploy::SshOptions o;
        o.configFile = m_tmp.path() + "/empty_ssh_config"; // no IdentityFile: only the password can work
        o.knownHostsFile = m_tmp.path() + "/home/.ssh/known_hosts";
        o.connectTimeout = std::chrono::seconds(10);
        o.ioTimeout = std::chrono::seconds(30);
        o.confirmHostKey = [](const deploy::HostKeyInfo&) { return true; };
        o.askSecret = [password, asked](const QString&) -> std::optional<QByteArray> {
            ++*asked;
            return password;
        };
        return o;
    }

private slots:
    void initTestCase() {
        if (::geteuid() != 0) QSKIP("creating a throwaway account with a password needs root: runs in CI only");
        if (QProcess::execute("sh", {"-c", "command -v useradd && command -v chpasswd && command -v userdel"}) != 0)
            QSKIP("useradd/chpasswd (Debian package passwd) missing");
        m_user = QStringLiteral("embarkpw%1").arg(::getpid());
        m_password = randomPassword();
        QVERIFY(QProcess::execute("useradd", {"-M", "-d", "/nonexistent", "-s", "/bin/sh", m_user}) == 0);
        QProcess chpasswd; // the password goes through stdin, never on a command line
        chpasswd.start("chpasswd", QStringList{});
        QVERIFY(chpasswd.waitForStarted());
        chpasswd.write(m_user.toUtf8() + ":" + m_password + "\n");
        chpasswd.closeWriteChannel();
        QVERIFY(chpasswd.waitForFinished() && chpasswd.exitCode() == 0);

        // Everything Embark may write lands under m_tmp.
        for (const char* d : {"home/.ssh", "config/boards", "xdg-config", "xdg-cache", "xdg-data"})
            QVERIFY(QDir().mkpath(m_tmp.path() + "/" + d));
        qputenv("HOME", (m_tmp.path() + "/home").toUtf8());
        qputenv("XDG_CONFIG_HOME", (m_tmp.path() + "/xdg-config").toUtf8());
        qputenv("XDG_CACHE_HOME", (m_tmp.path() + "/xdg-cache").toUtf8());
        qputenv("XDG_DATA_HOME", (m_tmp.path() + "/xdg-data").toUtf8());
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());
        qunsetenv("SSH_AUTH_SOCK");
        QFile(m_tmp.path() + "/empty_ssh_config").open(QIODevice::WriteOnly);

        m_sshd.setPasswordAuthentication(true);
        QString error;
        QVERIFY2(m_sshd.start(&error), qPrintable(error));
        const QJsonObject runner{{"kind", "ssh"}, {"host", "127.0.0.1"}, {"port", m_sshd.port()}, {"user", m_user}};
        const QJsonObject board{{"id", "pw-board"},
                                {"name", "password login"},
                                {"arch", hostArch()},
                                {"isa", hostArch()},
                                {"cflags", QJsonArray{}},
                                {"cores", 1},
                                {"memory_bytes", qint64(8) << 30},
                                {"xnnpack", false},
                                {"runner", runner}};
        QFile f(m_tmp.path() + "/config/boards/pw-board.json");
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(board).toJson()) > 0);
    }

    void passwordLoginWritesThePasswordNowhere() {
        int asked = 0;
        QStringList log;
        jobs::BenchOptions o;
        o.modelPath = test::sourceDir() + "/resources/models/digits_cnn.onnx";
        o.boardId = "pw-board";
        o.iterations = 2;
        o.warmup = 0;
        o.workDir = m_tmp.path() + "/work";
        o.storePath = m_tmp.path() + "/xdg-data/runs.db";
        o.ssh = options(m_password, &asked);
        o.log = [&](const QString& line) { log << line; };
        auto r = jobs::runBenchmark(o);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY2(r->record.status == store::RunStatus::Ok, r->record.message.c_str());
        QVERIFY(asked >= 1);
        QVERIFY(QFileInfo(o.ssh.knownHostsFile).size() > 0); // the new host key was recorded
        QVERIFY(!log.join('\n').toUtf8().contains(m_password));
        QVERIFY(!QByteArray(r->record.message.c_str()).contains(m_password));
        const QStringList hits = filesContaining(m_tmp.path(), m_password);
        QVERIFY2(hits.isEmpty(), qPrintable(hits.join(", ")));
        qInfo("password login: %d prompt(s), %d log lines and every file under the test's HOME/XDG/config/work clean",
              asked, int(log.size()));
    }

    void wrongPasswordErrorDoesNotEchoIt() {
        int asked = 0;
        const QByteArray wrong = randomPassword();
        targets::Board b;
        b.id = "pw-board";
        b.runner.kind = targets::BoardRunner::Kind::Ssh;
        b.runner.host = "127.0.0.1";
        b.runner.port = m_sshd.port();
        b.runner.user = m_user;
        const Status s = deploy::SshTransport(b, options(wrong, &asked)).connect();
        QVERIFY(!s.ok());
        const QString message = QString::fromStdString(s.error().message);
        QVERIFY2(message.contains("authentication as '" + m_user + "'") && message.contains("a password"),
                 qPrintable(message));
        QVERIFY(!message.toUtf8().contains(wrong));
        QVERIFY(filesContaining(m_tmp.path(), wrong).isEmpty());
    }

    void cleanupTestCase() {
        m_sshd.stop();
        if (m_user.isEmpty()) return;
        QProcess::execute("pkill", {"-KILL", "-u", m_user});
        QProcess::execute("userdel", {m_user});
    }
};

QTEST_GUILESS_MAIN(TestSecretHygiene)
#include "tst_secret_hygiene.moc"

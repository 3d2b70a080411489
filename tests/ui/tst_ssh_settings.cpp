// The SSH settings dialog against a real OpenSSH server (tests/support/sshd_fixture): "Test
// connection" runs on a worker thread and succeeds, a closed port gives a clear error, an
// unknown host key shows the host-key dialog with the fingerprint ssh-keygen prints (Reject
// refuses, Accept records it), the fields are saved as the user board's runner, and a password
// login (a throwaway user, root only) leaves the password in no settings file, board or log.
#include "support/when_shown.h"
#include "ssh/host_key_dialog.h"
#include "ssh/secret_prompt.h"
#include "ssh/ssh_settings_dialog.h"
#include "ssh/studio_ssh_options.h"
#include "support/sshd_fixture.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace embark;

namespace {

QStringList g_messages; // every Qt message the test process printed: the "logs"
QtMessageHandler g_previous = nullptr;
void captureMessage(QtMsgType type, const QMessageLogContext& context, const QString& text) {
    g_messages << text;
    g_previous(type, context, text);
}

// A TCP port on 127.0.0.1 with nothing listening.
int closedPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool run(const QString& program, const QStringList& args, const QByteArray& input = {}) {
    QProcess p;
    p.start(program, args);
    if (!input.isEmpty()) p.write(input);
    p.closeWriteChannel();
    return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

using test::whenShown;

} // namespace

class TestSshSettings : public QObject {
    Q_OBJECT

    test::SshdFixture m_sshd;
    QTemporaryDir m_tmp;
    QString m_skip; // why the sshd cases cannot run here

    // The built-in host board (this machine) reached over SSH through the fixture's alias.
    targets::Board fixtureBoard() const {
        auto host = targets::findBoard(QStringLiteral("host"));
        targets::Board b = host.ok() ? *host : targets::Board{};
        b.id = QStringLiteral("fixture-board");
        b.name = QStringLiteral("the test sshd");
        b.runner = {};
        b.runner.kind = targets::BoardRunner::Kind::Ssh;
        b.runner.host = m_sshd.alias();
        return b;
    }

    // The dialog reads ssh config and known_hosts from the settings, as the studio does.
    void useSshFiles(const QString& config, const QString& knownHosts) {
        QSettings settings;
        settings.setValue(QLatin1String(ui::kSshConfigKey), config);
        settings.setValue(QLatin1String(ui::kKnownHostsKey), knownHosts);
    }

    static ui::ConnectionTestResult testConnection(ui::SshSettingsDialog& dialog) {
        QSignalSpy finished(&dialog, &ui::SshSettingsDialog::testFinished);
        dialog.testButton()->click();
        // click() returned before the result came: the connection runs on a worker thread.
        if (dialog.testButton()->isEnabled() || finished.count() != 0)
            return {false, QStringLiteral("the test did not run in the background")};
        if (!finished.wait(60000)) return {false, QStringLiteral("no result within 60 s")};
        return {finished.at(0).at(0).toBool(), finished.at(0).at(1).toString()};
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("EmbarkTest"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_tmp.filePath(QStringLiteral("settings")));
        qputenv("EMBARK_CONFIG_DIR", m_tmp.filePath(QStringLiteral("config")).toUtf8());
        g_previous = qInstallMessageHandler(captureMessage);
        QString error;
        if (!m_sshd.start(&error)) m_skip = QStringLiteral("no test sshd: ") + error;
    }

    void init() {
        const QByteArray name(QTest::currentTestFunction());
        if (name == "savesTheUserBoardsRunner" || name == "connectionErrorIsShownWhole") return; // needs no server
        if (!m_skip.isEmpty()) QSKIP(qPrintable(m_skip));
        useSshFiles(m_sshd.sshConfig(), m_sshd.knownHosts());
        QVERIFY(m_sshd.writeKnownHosts(true));
    }

    void testConnectionSucceeds() {
        ui::SshSettingsDialog dialog(fixtureBoard());
        QVERIFY2(dialog.board().ok(), qPrintable(dialog.resultText()));
        // The host board's ONNX Runtime from npm runs on this computer only: reached over SSH the
        // board keeps no runtime rather than one the board file would refuse.
        QVERIFY(!dialog.board()->onnxruntime);
        QCOMPARE(dialog.hostEdit()->text(), m_sshd.alias());
        const auto r = testConnection(dialog);
        QVERIFY2(r.ok, qPrintable(r.message));
        QVERIFY2(r.message.contains(QStringLiteral("Linux")), qPrintable(r.message)); // uname -snrm on the "board"
        QVERIFY2(dialog.resultText().startsWith(QStringLiteral("Connected")), qPrintable(dialog.resultText()));
        QVERIFY(dialog.testButton()->isEnabled());
    }

    void closedPortGivesAClearError() {
        ui::SshSettingsDialog dialog(fixtureBoard());
        dialog.hostEdit()->setText(QStringLiteral("127.0.0.1"));
        const int port = closedPort();
        dialog.portEdit()->setValue(port);
        const auto r = testConnection(dialog);
        QVERIFY(!r.ok);
        // Names the board and the address and says what to check.
        QVERIFY2(r.message.contains(QStringLiteral("fixture-board")) &&
                     r.message.contains(QStringLiteral("cannot connect")) &&
                     r.message.contains(QStringLiteral("127.0.0.1:%1").arg(port)) &&
                     r.message.contains(QStringLiteral("reachable")),
                 qPrintable(r.message));
        QVERIFY(dialog.resultText().contains(r.message));
    }

    // Issue #19 defect 11: the result was cut off, and its advice "try 'ssh 127.0.0.1'" left
    // out the port (and user) the board uses.
    void connectionErrorIsShownWhole() {
        ui::SshSettingsDialog dialog(fixtureBoard());
        dialog.hostEdit()->setText(QStringLiteral("127.0.0.1"));
        dialog.userEdit()->setText(QStringLiteral("root"));
        const int port = closedPort();
        dialog.portEdit()->setValue(port);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const auto r = testConnection(dialog);
        QVERIFY(!r.ok);
        QVERIFY2(r.message.contains(QStringLiteral("'ssh -p %1 root@127.0.0.1'").arg(port)), qPrintable(r.message));
        auto* label = dialog.findChild<QLabel*>(QStringLiteral("connectionResult"));
        QVERIFY(label);
        QApplication::processEvents();
        QVERIFY(label->textInteractionFlags() & Qt::TextSelectableByMouse);
        QVERIFY(label->wordWrap());
        // Every line of the wrapped text is inside the label, and the label inside the dialog.
        QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                 qPrintable(QStringLiteral("%1 < %2").arg(label->height()).arg(label->heightForWidth(label->width()))));
        QVERIFY2(dialog.rect().contains(label->geometry()),
                 qPrintable(QStringLiteral("label bottom %1, dialog height %2")
                                .arg(label->geometry().bottom())
                                .arg(dialog.height())));
    }

    void unknownHostKeyIsConfirmedWithItsFingerprint() {
        // The fingerprint as ssh-keygen prints it for the server's public key.
        QProcess keygen;
        keygen.start(QStringLiteral("ssh-keygen"), {QStringLiteral("-lf"), m_sshd.hostKeyPub()});
        QVERIFY(keygen.waitForFinished(30000));
        const QString expected = QString::fromLatin1(keygen.readAllStandardOutput()).section(QLatin1Char(' '), 1, 1);
        QVERIFY(expected.startsWith(QStringLiteral("SHA256:")));

        QVERIFY(m_sshd.writeKnownHosts(false));
        ui::SshSettingsDialog dialog(fixtureBoard());
        deploy::HostKeyInfo asked;
        QString shown;
        whenShown<ui::HostKeyDialog>([&](ui::HostKeyDialog* d) {
            asked = d->info();
            shown = d->fingerprintShown();
            d->reject();
        });
        auto r = testConnection(dialog);
        QVERIFY(!r.ok);
        QCOMPARE(shown, expected);
        QCOMPARE(asked.fingerprint, expected);
        QCOMPARE(asked.host, QStringLiteral("127.0.0.1"));
        QCOMPARE(asked.port, m_sshd.port());
        QCOMPARE(asked.keyType, QStringLiteral("ssh-ed25519"));
        QVERIFY2(r.message.contains(QStringLiteral("not confirmed")), qPrintable(r.message));
        QVERIFY(readAll(m_sshd.knownHosts()).isEmpty()); // rejected: nothing recorded

        whenShown<ui::HostKeyDialog>([](ui::HostKeyDialog* d) { d->accept(); });
        r = testConnection(dialog);
        QVERIFY2(r.ok, qPrintable(r.message));
        QVERIFY(!deploy::knownHostsLines(m_sshd.knownHosts(), QStringLiteral("127.0.0.1"), m_sshd.port()).empty());

        bool askedAgain = false; // recorded: no question the next time
        QTimer* watch = whenShown<ui::HostKeyDialog>([&](ui::HostKeyDialog* d) {
            askedAgain = true;
            d->reject();
        });
        r = testConnection(dialog);
        delete watch;
        QVERIFY2(r.ok, qPrintable(r.message));
        QVERIFY(!askedAgain);
    }

    void savesTheUserBoardsRunner() {
        targets::Board start = fixtureBoard();
        start.id = QStringLiteral("my-ssh-board");
        start.runner.kind = targets::BoardRunner::Kind::Local; // a local board becomes an SSH one
        start.runner.execPrefix = {QStringLiteral("qemu-riscv64-static")};
        ui::SshSettingsDialog dialog(start);
        QVERIFY(dialog.hostEdit()->text().isEmpty());
        QVERIFY(!dialog.board().ok()); // no host yet
        dialog.hostEdit()->setText(QStringLiteral("k230"));
        dialog.userEdit()->setText(QStringLiteral("canaan"));
        dialog.portEdit()->setValue(2222);
        dialog.keyEdit()->setText(m_tmp.filePath(QStringLiteral("id_k230")));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        auto saved = targets::loadBoardFile(targets::userBoardsDir() + QStringLiteral("/my-ssh-board.json"));
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().message.c_str());
        QCOMPARE(saved->runner.kind, targets::BoardRunner::Kind::Ssh);
        QCOMPARE(saved->runner.host, QStringLiteral("k230"));
        QCOMPARE(saved->runner.user, QStringLiteral("canaan"));
        QCOMPARE(saved->runner.port, 2222);
        QCOMPARE(saved->runner.key, m_tmp.filePath(QStringLiteral("id_k230")));
        QCOMPARE(saved->runner.execPrefix, QStringList{QStringLiteral("qemu-riscv64-static")});
        QCOMPARE(saved->name, start.name);
        QVERIFY(QDir(targets::userBoardsDir()).entryList(QDir::Files | QDir::Hidden).size() == 1); // no temp file left
    }

    void passwordLoginStoresNothing() {
        if (::geteuid() != 0) QSKIP("the password login needs root to create a throwaway user (runs in CI as root)");
        if (!QFileInfo::exists(QStringLiteral("/usr/sbin/useradd")) ||
            !QFileInfo::exists(QStringLiteral("/usr/sbin/chpasswd")))
            QSKIP("useradd/chpasswd are not installed (Debian package passwd)");
        const QString user = QStringLiteral("embarkpw%1").arg(QRandomGenerator::global()->bounded(100000, 999999));
        const QString password =
            QStringLiteral("Pw-%1-%2").arg(QRandomGenerator::global()->generate64(), 0, 16).arg(user);
        QVERIFY(run(QStringLiteral("useradd"), {QStringLiteral("-M"), QStringLiteral("-d"), m_tmp.path(),
                                                QStringLiteral("-s"), QStringLiteral("/bin/sh"), user}));
        auto removeUser = qScopeGuard([&] { run(QStringLiteral("userdel"), {QStringLiteral("-f"), user}); });
        QVERIFY(run(QStringLiteral("chpasswd"), {}, (user + QLatin1Char(':') + password + QLatin1Char('\n')).toUtf8()));

        // A second sshd from the fixture's config, on another port, that also takes passwords.
        const int port = closedPort();
        QString config = QString::fromUtf8(readAll(m_sshd.dir() + QStringLiteral("/sshd_config")));
        config.replace(QRegularExpression(QStringLiteral("^Port \\d+$"), QRegularExpression::MultilineOption),
                       QStringLiteral("Port %1").arg(port));
        config.replace(QStringLiteral("PasswordAuthentication no"), QStringLiteral("PasswordAuthentication yes"));
        config.replace(QStringLiteral("/sshd.pid"), QStringLiteral("/sshd-password.pid"));
        QVERIFY(config.contains(QStringLiteral("Port %1").arg(port)) &&
                config.contains(QStringLiteral("PasswordAuthentication yes")));
        const QString configPath = m_sshd.dir() + QStringLiteral("/sshd_password_config");
        QFile configFile(configPath);
        QVERIFY(configFile.open(QIODevice::WriteOnly));
        configFile.write(config.toUtf8());
        configFile.close();
        QProcess sshd;
        sshd.start(QStringLiteral("/usr/sbin/sshd"),
                   {QStringLiteral("-D"), QStringLiteral("-f"), configPath, QStringLiteral("-E"),
                    m_sshd.dir() + QStringLiteral("/sshd-password.log")});
        auto stopSshd = qScopeGuard([&] {
            sshd.terminate();
            sshd.waitForFinished(10000);
        });
        QVERIFY(sshd.waitForStarted(10000));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(m_sshd.dir() + QStringLiteral("/sshd-password.pid")), 10000);
        // Its host key is trusted; no ssh config, so only the password can log in.
        const QList<QByteArray> key = readAll(m_sshd.hostKeyPub()).trimmed().split(' ');
        QFile known(m_tmp.filePath(QStringLiteral("known_hosts_password")));
        QVERIFY(known.open(QIODevice::WriteOnly));
        known.write(QStringLiteral("[127.0.0.1]:%1 ").arg(port).toUtf8() + key.at(0) + ' ' + key.at(1) + '\n');
        known.close();
        QFile emptyConfig(m_tmp.filePath(QStringLiteral("ssh_config_empty")));
        QVERIFY(emptyConfig.open(QIODevice::WriteOnly));
        emptyConfig.close();
        useSshFiles(emptyConfig.fileName(), known.fileName());

        targets::Board board = fixtureBoard();
        board.id = QStringLiteral("password-board");
        board.runner.host = QStringLiteral("127.0.0.1");
        board.runner.port = port;
        board.runner.user = user;
        g_messages.clear();
        {
            ui::SshSettingsDialog dialog(board);
            QString prompt;
            bool hidden = false;
            whenShown<ui::SecretPrompt>([&](ui::SecretPrompt* p) {
                prompt = p->findChild<QLabel*>()->text();
                hidden = p->field()->echoMode() == QLineEdit::Password;
                p->field()->setText(password);
                p->accept();
            });
            const auto r = testConnection(dialog);
            QVERIFY2(r.ok,
                     qPrintable(r.message + QStringLiteral("\nsshd log:\n") +
                                QString::fromLocal8Bit(readAll(m_sshd.dir() + QStringLiteral("/sshd-password.log")))));
            QVERIFY2(prompt.contains(user + QStringLiteral("@127.0.0.1")), qPrintable(prompt));
            QVERIFY(hidden);
            QVERIFY(!dialog.resultText().contains(password));
            dialog.accept(); // saves the board: user, host, port, never the password
        }
        QSettings().sync();
        QStringList checked;
        for (const QString& dir : {m_tmp.filePath(QStringLiteral("settings")), targets::userBoardsDir()}) {
            for (QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();) {
                const QString path = it.next();
                QVERIFY2(!readAll(path).contains(password.toUtf8()),
                         qPrintable(path + QStringLiteral(" holds the password")));
                checked << path;
            }
        }
        QVERIFY2(checked.size() >= 2, qPrintable(checked.join(QLatin1Char(' ')))); // the settings file and the board
        for (const QString& m : std::as_const(g_messages))
            QVERIFY2(!m.contains(password), "a log message holds the password");
    }
};

QTEST_MAIN(TestSshSettings)
#include "tst_ssh_settings.moc"

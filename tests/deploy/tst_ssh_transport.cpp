// SshTransport against a real OpenSSH server on 127.0.0.1 (tests/support/sshd_fixture): a
// riscv64 binary deployed and run through a qemu exec prefix, host-key and authentication
// refusals, exit statuses and signals, cancel leaving no process, a full disk, a server
// killed mid-upload and names full of shell syntax; a server without the sftp subsystem
// (Dropbear, BusyBox boards) served over exec channels with the same guarantees.
#include "deploy/shell_quote.h"
#include "deploy/ssh_transport.h"
#include "support/sshd_fixture.h"
#include "targets/board.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;
using namespace embark::deploy;

namespace {

bool processAlive(const QString& pattern) { return QProcess::execute("pgrep", {"-f", pattern}) == 0; }

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString uniqueSleep() { return QStringLiteral("86398.%1").arg(QRandomGenerator::global()->bounded(100000)); }

QString messageOf(const Status& s) { return s.ok() ? QString() : QString::fromStdString(s.error().message); }

} // namespace

class TestSshTransport : public QObject {
    Q_OBJECT

    test::SshdFixture m_sshd;
    test::SshdFixture m_noSftp; // no `Subsystem sftp` line
    QTemporaryDir m_tmp;
    QString m_probe;

    targets::Board board(const QString& workdir = {}) const {
        targets::Board b;
        b.id = "test-board";
        b.name = "sshd fixture running riscv64 through qemu";
        b.arch = "riscv64";
        b.runner.kind = targets::BoardRunner::Kind::Ssh;
        b.runner.host = m_sshd.alias();
        b.runner.workdir = workdir;
        b.runner.execPrefix = {"qemu-riscv64-static", "-cpu", "rv64,v=true,vlen=128,vext_spec=v1.0"};
        return b;
    }

    SshOptions options(const test::SshdFixture* server = nullptr) const {
        if (!server) server = &m_sshd;
        SshOptions o;
        o.configFile = server->sshConfig();
        o.knownHostsFile = server->knownHosts();
        o.connectTimeout = std::chrono::seconds(10);
        o.ioTimeout = std::chrono::seconds(30);
        return o;
    }

private slots:
    void initTestCase() {
        QString error;
        QVERIFY2(m_sshd.start(&error), qPrintable(error));
        m_noSftp.setSftpSubsystem(false);
        QVERIFY2(m_noSftp.start(&error), qPrintable(error));
        m_probe = test::buildRiscvTestProgram(m_tmp.path(), &error);
        QVERIFY2(!m_probe.isEmpty(), qPrintable(error));
    }

    void init() { QVERIFY(m_sshd.writeKnownHosts(true)); }

    void shellQuoteRoundTrips_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("plain") << "run_export";
        QTest::newRow("empty") << "";
        QTest::newRow("spaces") << "my model dir";
        QTest::newRow("single quotes") << "it's 'quoted'";
        QTest::newRow("double quotes") << "say \"hi\"";
        QTest::newRow("semicolon") << "x; touch /tmp/pwned";
        QTest::newRow("expansions") << "$HOME $(id) `id` ${PATH} !! * ?";
        QTest::newRow("newline") << "line1\nline2";
        QTest::newRow("backslash") << "a\\b'\\''c";
    }

    void shellQuoteRoundTrips() {
        QFETCH(QString, text);
        QProcess sh;
        sh.start("sh", {"-c", "printf %s " + shellQuote(text)});
        QVERIFY(sh.waitForFinished());
        QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()), text);
    }

    void deploysAndRunsRiscvBinaryThroughQemuPrefix() {
        SshTransport transport(board(), options());
        QVERIFY2(transport.connect().ok(), qPrintable(messageOf(transport.connect())));
        auto dir = transport.makeRunDir("resnet18");
        QVERIFY2(dir.ok(), dir.ok() ? "" : dir.error().message.c_str());
        QVERIFY(dir->startsWith("/tmp/embark-resnet18-"));
        QVERIFY(transport.upload(m_probe, "bin/run_export").ok());
        QVERIFY(QFileInfo(*dir + "/bin/run_export").isExecutable());
        QVERIFY(QDir(*dir + "/bin").entryList(QDir::Files | QDir::Hidden).size() == 1); // no temp left

        QByteArray streamed, streamedErr;
        ExecRequest req;
        req.argv = {"./bin/run_export", "status", "3"};
        req.onStdout = [&](const QByteArray& c) { streamed += c; };
        req.onStderr = [&](const QByteArray& c) { streamedErr += c; };
        auto r = transport.exec(req);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->outcome, ExecResult::Outcome::Exited);
        QCOMPARE(r->exitCode, 3);
        QCOMPARE(streamed, QByteArray("arg[1]=status\narg[2]=3\n"));
        QCOMPARE(streamedErr, QByteArray("to stderr\n"));

        QVERIFY(transport.download("result.txt", m_tmp.filePath("downloaded/result.txt")).ok());
        QCOMPARE(readAll(m_tmp.filePath("downloaded/result.txt")), QByteArray("argc=3\n"));
        QVERIFY(transport.download(".", m_tmp.filePath("whole")).ok());
        QVERIFY(QFileInfo(m_tmp.filePath("whole/bin/run_export")).isExecutable());

        QVERIFY(transport.removeRunDir(*dir).ok());
        QVERIFY(!QFileInfo::exists(*dir));
        QVERIFY(!transport.removeRunDir("/tmp").ok()); // never anything it did not create
    }

    void exitStatusAndSignalsAreSurfaced_data() {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<bool>("prefix");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("signal");
        QTest::newRow("exit 3") << QStringList{"sh", "-c", "echo oops >&2; exit 3"} << false << 3 << "";
        QTest::newRow("kill SEGV") << QStringList{"sh", "-c", "kill -SEGV $$"} << false << 0 << "SEGV";
        QTest::newRow("riscv crash") << QStringList{"./probe", "crash"} << true << 0 << "SEGV";
        QTest::newRow("not found") << QStringList{"./no-such-program"} << false << 127 << "";
    }

    void exitStatusAndSignalsAreSurfaced() {
        QFETCH(QStringList, argv);
        QFETCH(bool, prefix);
        QFETCH(int, status);
        QFETCH(QString, signal);
        SshTransport transport(board(), options());
        QVERIFY(transport.makeRunDir("status").ok());
        QVERIFY(transport.upload(m_probe, "probe").ok());
        ExecRequest req;
        req.argv = argv;
        req.usePrefix = prefix;
        auto r = transport.exec(req);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        if (signal.isEmpty()) {
            QCOMPARE(r->outcome, ExecResult::Outcome::Exited);
            QCOMPARE(r->exitCode, status);
        } else {
            QCOMPARE(r->outcome, ExecResult::Outcome::Signalled);
            QCOMPARE(r->signal, signal);
            QVERIFY(messageOf(requireSuccess(*r, "test-board", "run_export")).contains("SIG" + signal));
        }
        QVERIFY(transport.removeRunDir(transport.runDir()).ok());
    }

    void cancelAndTimeoutLeaveNoProcess_data() {
        QTest::addColumn<bool>("cancel");
        QTest::newRow("cancel") << true;
        QTest::newRow("timeout") << false;
    }

    void cancelAndTimeoutLeaveNoProcess() {
        QFETCH(bool, cancel);
        SshTransport transport(board(), options());
        QVERIFY(transport.makeRunDir("cancel").ok());
        const QString marker = uniqueSleep();
        std::atomic_bool stop{false};
        ExecRequest req;
        req.usePrefix = false;
        req.argv = {"sh", "-c", "sleep " + marker + " & echo started; sleep " + marker + "; echo never"};
        req.cancel = &stop;
        if (cancel)
            req.onStdout = [&](const QByteArray& c) {
                if (c.contains("started")) stop = true;
            };
        else
            req.timeout = std::chrono::milliseconds(1500);
        auto r = transport.exec(req);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->outcome, cancel ? ExecResult::Outcome::Cancelled : ExecResult::Outcome::TimedOut);
        // The "board" is this machine: nothing may be left running.
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive("sleep " + marker), 5000);
        // The session is still usable after a cancel.
        ExecRequest again;
        again.usePrefix = false;
        again.argv = {"true"};
        auto r2 = transport.exec(again);
        QVERIFY(r2.ok() && r2->succeeded());
        QVERIFY(transport.removeRunDir(transport.runDir()).ok());
    }

    void hostileWorkdirAndNamesAreData() {
        QTemporaryDir parent;
        const QString base = parent.path() + "/it's a \"board\"; touch pwned-ssh $(id) `id`";
        QVERIFY(QDir().mkpath(base));
        SshTransport transport(board(base), options());
        auto dir = transport.makeRunDir("model'; rm -rf ~ #");
        QVERIFY2(dir.ok(), dir.ok() ? "" : dir.error().message.c_str());
        QVERIFY(dir->startsWith(base + "/embark-model_"));
        const QString name = "run export;'\"$HOME";
        QVERIFY(transport.upload(m_probe, name).ok());
        ExecRequest req;
        req.argv = {"./" + name, "a b", "'; touch pwned-ssh2 #", "$(id)"};
        req.environment = {"EMBARK_NOTE=x; touch pwned-ssh3"};
        auto r = transport.exec(req);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->exitCode, 0);
        QCOMPARE(r->stdoutData, QByteArray("arg[1]=a b\narg[2]='; touch pwned-ssh2 #\narg[3]=$(id)\n"));
        QVERIFY(QFileInfo::exists(*dir + "/result.txt"));
        for (const QString pwned : {"pwned-ssh", "pwned-ssh2", "pwned-ssh3"}) {
            QVERIFY(!QFileInfo::exists(base + "/" + pwned));
            QVERIFY(!QFileInfo::exists(*dir + "/" + pwned));
            QVERIFY(!QFileInfo::exists(QDir::homePath() + "/" + pwned));
        }
        QVERIFY(transport.removeRunDir(*dir).ok());
        QVERIFY(!QFileInfo::exists(*dir));
        QVERIFY(QFileInfo::exists(base));
    }

    void noSftpBoardGetsFilesOverExecChannels() {
        QStringList notes;
        SshOptions o = options(&m_noSftp);
        o.log = [&](const QString& line) { notes << line; };
        SshTransport transport(board(), o);
        auto dir = transport.makeRunDir("resnet18");
        QVERIFY2(dir.ok(), dir.ok() ? "" : dir.error().message.c_str());
        QVERIFY(dir->startsWith("/tmp/embark-resnet18-"));
        QCOMPARE(QFileInfo(*dir).permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup),
                 QFileDevice::Permissions());
        const Status up = transport.upload(m_probe, "bin/run_export");
        QVERIFY2(up.ok(), qPrintable(messageOf(up)));
        QVERIFY(QFileInfo(*dir + "/bin/run_export").isExecutable());
        QCOMPARE(readAll(*dir + "/bin/run_export"), readAll(m_probe));
        QCOMPARE(QDir(*dir + "/bin").entryList(QDir::Files | QDir::Hidden).size(), 1); // no temp left

        ExecRequest req;
        req.argv = {"./bin/run_export", "status", "3"};
        auto r = transport.exec(req);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->exitCode, 3);
        QCOMPARE(r->stdoutData, QByteArray("arg[1]=status\narg[2]=3\n"));
        QCOMPARE(r->stderrData, QByteArray("to stderr\n"));
        QVERIFY(QDir(*dir).entryList(QDir::Files | QDir::Hidden).contains("result.txt")); // pid file removed

        // Names full of shell syntax are data, both ways.
        const QString name = "it's a \"file\"; touch pwned $(id) `id`\n.txt";
        QVERIFY(transport.upload(m_probe, "sub dir/" + name).ok());
        QVERIFY(QFileInfo::exists(*dir + "/sub dir/" + name));
        QVERIFY(transport.download("result.txt", m_tmp.filePath("plain/result.txt")).ok());
        QCOMPARE(readAll(m_tmp.filePath("plain/result.txt")), QByteArray("argc=3\n"));
        const Status whole = transport.download(".", m_tmp.filePath("plain/whole"));
        QVERIFY2(whole.ok(), qPrintable(messageOf(whole)));
        QVERIFY(QFileInfo(m_tmp.filePath("plain/whole/bin/run_export")).isExecutable());
        QVERIFY(!QFileInfo(m_tmp.filePath("plain/whole/result.txt")).isExecutable());
        QCOMPARE(readAll(m_tmp.filePath("plain/whole/sub dir/" + name)), readAll(m_probe));
        QVERIFY(!QFileInfo::exists(*dir + "/pwned") && !QFileInfo::exists(*dir + "/sub dir/pwned"));
        const Status missing = transport.download("no-such-file", m_tmp.filePath("plain/missing"));
        QVERIFY2(messageOf(missing).contains("does not exist"), qPrintable(messageOf(missing)));
        QVERIFY(!QFileInfo::exists(m_tmp.filePath("plain/missing")));

        QCOMPARE(notes.size(), 1); // said once, however many transfers
        QVERIFY2(notes.first().contains("no SFTP") && notes.first().contains("test-board"), qPrintable(notes.first()));
        QVERIFY(transport.removeRunDir(*dir).ok());
        QVERIFY(!QFileInfo::exists(*dir));
    }

    void noSftpFailedUploadLeavesNothing() {
        const QString big = m_tmp.filePath("four-mib.bin");
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4 << 20, 'c'));
        }
        SshOptions o = options(&m_noSftp);
        o.log = [](const QString&) {};
        SshTransport transport(board(), o);
        auto dir = transport.makeRunDir("failed");
        QVERIFY(dir.ok());
        // Cancelled after the first MiB: the board got part of the bytes and an end of file.
        const Status cancelled =
            transport.upload(big, "weights.bin", [](qint64 done, qint64) { return done < (1 << 20); });
        QVERIFY2(messageOf(cancelled).contains("cancelled"), qPrintable(messageOf(cancelled)));
        QVERIFY2(QDir(*dir).entryList(QDir::Files | QDir::Hidden).isEmpty(),
                 qPrintable(QDir(*dir).entryList(QDir::Files | QDir::Hidden).join(", ")));
        // A file where a folder is needed.
        QVERIFY(transport.upload(m_probe, "blocker").ok());
        const Status blocked = transport.upload(m_probe, "blocker/run_export");
        QVERIFY2(messageOf(blocked).contains("cannot create the folder") && messageOf(blocked).contains("blocker"),
                 qPrintable(messageOf(blocked)));
        QCOMPARE(QDir(*dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"blocker"});
        // The session still works after both.
        ExecRequest req;
        req.argv = {"true"};
        req.usePrefix = false;
        auto r = transport.exec(req);
        QVERIFY(r.ok() && r->succeeded());
        QVERIFY(transport.removeRunDir(*dir).ok());

        QTemporaryDir mountPoint;
        if (QProcess::execute("mount", {"-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path()}) != 0)
            QSKIP("cannot mount a tmpfs here (needs root): the full-disk case runs in CI only");
        Status full;
        QStringList left;
        {
            SshTransport onSmallDisk(board(mountPoint.path()), o);
            auto small = onSmallDisk.makeRunDir("full");
            QVERIFY(small.ok());
            full = onSmallDisk.upload(big, "weights.bin");
            left = QDir(*small).entryList(QDir::Files | QDir::Hidden);
        }
        QProcess::execute("umount", {mountPoint.path()});
        QVERIFY2(messageOf(full).contains("no space left on device while uploading") &&
                     messageOf(full).contains("test-board"),
                 qPrintable(messageOf(full)));
        QVERIFY2(left.isEmpty(), qPrintable(left.join(", ")));
    }

    void unknownHostKeyNeedsConfirmation() {
        QVERIFY(m_sshd.writeKnownHosts(false));
        {
            SshTransport refused(board(), options());
            const Status s = refused.connect();
            QVERIFY(!s.ok());
            QVERIFY2(messageOf(s).contains("not confirmed") && messageOf(s).contains(m_sshd.hostFingerprint()),
                     qPrintable(messageOf(s)));
        }
        QString asked;
        SshOptions declined = options();
        declined.confirmHostKey = [&](const HostKeyInfo& info) {
            asked = info.fingerprint;
            return false;
        };
        QVERIFY(!SshTransport(board(), declined).connect().ok());
        QCOMPARE(asked, m_sshd.hostFingerprint());
        QVERIFY(readAll(m_sshd.knownHosts()).isEmpty());

        SshOptions accepted = options();
        accepted.confirmHostKey = [](const HostKeyInfo&) { return true; };
        QVERIFY(SshTransport(board(), accepted).connect().ok());
        QVERIFY(!readAll(m_sshd.knownHosts()).isEmpty());
        QVERIFY(SshTransport(board(), options()).connect().ok()); // recorded: no question now
    }

    void changedHostKeyIsAlwaysRefused() {
        QVERIFY(m_sshd.writeKnownHostsWithOtherKey());
        SshOptions o = options();
        bool asked = false;
        o.confirmHostKey = [&](const HostKeyInfo&) {
            asked = true;
            return true;
        };
        const Status s = SshTransport(board(), o).connect();
        QVERIFY(!s.ok());
        QVERIFY(!asked);
        QVERIFY2(messageOf(s).contains("REFUSED") && messageOf(s).contains(m_sshd.knownHosts() + ":3"),
                 qPrintable(messageOf(s)));
    }

    void hashedKnownHostsWork() {
        QVERIFY(m_sshd.writeKnownHosts(true, true));
        QVERIFY(!readAll(m_sshd.knownHosts()).contains("127.0.0.1"));
        QCOMPARE(knownHostsLines(m_sshd.knownHosts(), "127.0.0.1", m_sshd.port()).size(), size_t(1));
        QVERIFY(SshTransport(board(), options()).connect().ok());
    }

    void wrongKeyIsAnAuthError() {
        targets::Board b = board();
        b.runner.key = m_sshd.makeStrangerKey();
        QVERIFY(!b.runner.key.isEmpty());
        const Status s = SshTransport(b, options()).connect();
        QVERIFY(!s.ok());
        QVERIFY2(messageOf(s).contains("authentication as '" + m_sshd.user() + "'") &&
                     messageOf(s).contains(b.runner.key),
                 qPrintable(messageOf(s)));
    }

    void unreachableHostNamesTheHost() {
        targets::Board b = board();
        b.runner.host = "127.0.0.1";
        b.runner.port = 1; // nothing listens there
        const Status s = SshTransport(b, options()).connect();
        QVERIFY(!s.ok());
        QCOMPARE(s.error().kind, ErrorKind::External);
        QVERIFY2(messageOf(s).contains("cannot connect to 127.0.0.1"), qPrintable(messageOf(s)));
    }

    void fullBoardDiskIsReportedAndCleanedUp() {
        QTemporaryDir mountPoint;
        // A 1 MiB tmpfs is the board's disk; needs CAP_SYS_ADMIN (root in the CI container).
        if (QProcess::execute("mount", {"-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path()}) != 0)
            QSKIP("cannot mount a tmpfs here (needs root): the full-disk case runs in CI only");
        const QString big = m_tmp.filePath("three-mib.bin");
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(3 << 20, 'w'));
        }
        Status s;
        QStringList left;
        {
            SshTransport transport(board(mountPoint.path()), options());
            auto dir = transport.makeRunDir("full");
            QVERIFY(dir.ok());
            s = transport.upload(big, "weights.bin");
            left = QDir(*dir).entryList(QDir::Files | QDir::Hidden);
        }
        QProcess::execute("umount", {mountPoint.path()});
        QVERIFY(!s.ok());
        QVERIFY2(messageOf(s).contains("no space left on device while uploading") &&
                     messageOf(s).contains("test-board"),
                 qPrintable(messageOf(s)));
        QVERIFY2(left.isEmpty(), qPrintable(left.join(", "))); // neither final nor temporary file
    }

    // Last: it kills the shared server.
    void serverKilledMidUploadLeavesNothingInstalled() {
        const QString big = m_tmp.filePath("big.bin");
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray block(1 << 20, 'x');
            for (int i = 0; i < 48; ++i) f.write(block);
        }
        SshTransport transport(board(), options());
        auto dir = transport.makeRunDir("killed");
        QVERIFY(dir.ok());
        bool killed = false;
        const Status s = transport.upload(big, "weights.bin", [&](qint64 done, qint64) {
            if (!killed && done > (2 << 20)) {
                m_sshd.killHard();
                killed = true;
            }
            return true;
        });
        QVERIFY(killed);
        QVERIFY(!s.ok());
        QVERIFY2(messageOf(s).contains("lost while uploading") && messageOf(s).contains("weights.bin"),
                 qPrintable(messageOf(s)));
        QVERIFY(!QFileInfo::exists(*dir + "/weights.bin"));
        // A later command fails cleanly rather than hanging.
        ExecRequest req;
        req.argv = {"true"};
        QVERIFY(!transport.exec(req).ok());
        QDir(*dir).removeRecursively();
    }

    // Last too: it kills the server without SFTP.
    void noSftpServerKilledMidUploadLeavesNothing() {
        const QString big = m_tmp.filePath("big.bin");
        QVERIFY(QFileInfo(big).size() > (8 << 20)); // written by serverKilledMidUploadLeavesNothingInstalled
        SshOptions o = options(&m_noSftp);
        o.log = [](const QString&) {};
        SshTransport transport(board(), o);
        auto dir = transport.makeRunDir("killed");
        QVERIFY(dir.ok());
        bool killed = false;
        const Status s = transport.upload(big, "weights.bin", [&](qint64 done, qint64) {
            if (!killed && done > (2 << 20)) {
                m_noSftp.killHard();
                killed = true;
            }
            return true;
        });
        QVERIFY(killed);
        QVERIFY2(messageOf(s).contains("lost while uploading") && messageOf(s).contains("weights.bin"),
                 qPrintable(messageOf(s)));
        QVERIFY(!QFileInfo::exists(*dir + "/weights.bin"));
        // The board's shell saw the stream end early and removed the temporary file.
        QTRY_VERIFY_WITH_TIMEOUT(QDir(*dir).entryList(QDir::Files | QDir::Hidden).isEmpty(), 10000);
        QDir(*dir).removeRecursively();
    }
};

QTEST_GUILESS_MAIN(TestSshTransport)
#include "tst_ssh_transport.moc"

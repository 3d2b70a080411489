// LocalTransport against real programs: a static riscv64 binary run through the sim-k230
// qemu prefix, exit statuses and signals surfaced, cancel and timeout leaving no process,
// and names full of shell syntax handled as data.
#include "deploy/local_transport.h"
#include "deploy/transport_factory.h"
#include "support/sshd_fixture.h"
#include "targets/board.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QRandomGenerator>

using namespace embark;
using namespace embark::deploy;

namespace {

targets::Board builtIn(const QString& id) {
    auto b = targets::findBoard(targets::loadBoards(targets::builtInBoardsDir(), QString()), id);
    return b.ok() ? *b : targets::Board{};
}

bool processAlive(const QString& pattern) { return QProcess::execute("pgrep", {"-f", pattern}) == 0; }

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestLocalTransport : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_probe;

private slots:
    void initTestCase() {
        QString error;
        m_probe = test::buildRiscvTestProgram(m_tmp.path(), &error);
        QVERIFY2(!m_probe.isEmpty(), qPrintable(error));
    }

    void runsRiscvProgramOnSimulatedBoard() {
        targets::Board board = builtIn("sim-k230");
        board.runner.workdir = m_tmp.filePath("runs");
        auto transport = makeTransport(board);
        QVERIFY(transport->connect().ok());
        auto dir = transport->makeRunDir("probe");
        QVERIFY(dir.ok());
        QVERIFY(QDir(*dir).isEmpty());
        QVERIFY(transport->upload(m_probe, "bin/probe").ok());
        QVERIFY(QFileInfo(*dir + "/bin/probe").isExecutable());

        QByteArray streamed;
        ExecRequest req;
        req.argv = {"./bin/probe", "status", "3"};
        req.onStdout = [&](const QByteArray& chunk) { streamed += chunk; };
        auto r = transport->exec(req);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->outcome, ExecResult::Outcome::Exited);
        QCOMPARE(r->exitCode, 3);
        QCOMPARE(streamed, QByteArray("arg[1]=status\narg[2]=3\n"));
        QCOMPARE(r->stderrData, QByteArray("to stderr\n"));
        const Status s = requireSuccess(*r, board.id, "probe");
        QVERIFY(!s.ok());
        QVERIFY2(QString::fromStdString(s.error().message).contains("exited with status 3: to stderr"),
                 s.error().message.c_str());

        const QString local = m_tmp.filePath("result-copy.txt");
        QVERIFY(transport->download("result.txt", local).ok());
        QCOMPARE(readAll(local), QByteArray("argc=3\n"));
        QVERIFY(transport->removeRunDir(*dir).ok());
        QVERIFY(!QFileInfo::exists(*dir));
    }

    void crashIsSurfacedWithSignal() {
        targets::Board board = builtIn("sim-k230");
        LocalTransport transport(board);
        QVERIFY(transport.makeRunDir("crash").ok());
        QVERIFY(transport.upload(m_probe, "probe").ok());
        ExecRequest req;
        req.argv = {"./probe", "crash"};
        auto r = transport.exec(req);
        QVERIFY(r.ok());
        QCOMPARE(r->outcome, ExecResult::Outcome::Signalled);
        QCOMPARE(r->signal, QStringLiteral("SEGV"));
        const Status s = requireSuccess(*r, board.id, "run_export");
        QVERIFY(QString::fromStdString(s.error().message).contains("crashed with signal SIGSEGV"));
        QVERIFY(transport.removeRunDir(transport.runDir()).ok());
    }

    void cancelAndTimeoutKillTheWholeGroup_data() {
        QTest::addColumn<bool>("cancel");
        QTest::newRow("cancel") << true;
        QTest::newRow("timeout") << false;
    }

    void cancelAndTimeoutKillTheWholeGroup() {
        QFETCH(bool, cancel);
        LocalTransport transport(builtIn("host"));
        QVERIFY(transport.makeRunDir("cancel").ok());
        // A unique duration names our sleeps for pgrep; one runs in the background (a child
        // of the command) and must die too.
        const QString marker = QStringLiteral("86399.%1").arg(QRandomGenerator::global()->bounded(100000));
        std::atomic_bool stop{false};
        ExecRequest req;
        req.argv = {"sh", "-c", "sleep " + marker + " & echo started; sleep " + marker + "; echo never"};
        req.cancel = &stop;
        if (cancel)
            req.onStdout = [&](const QByteArray& chunk) {
                if (chunk.contains("started")) stop = true;
            };
        else
            req.timeout = std::chrono::milliseconds(1500);
        auto r = transport.exec(req);
        QVERIFY(r.ok());
        QCOMPARE(r->outcome, cancel ? ExecResult::Outcome::Cancelled : ExecResult::Outcome::TimedOut);
        QVERIFY(!r->stdoutData.contains("never"));
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive("sleep " + marker), 5000);
        QVERIFY(transport.removeRunDir(transport.runDir()).ok());
    }

    void hostileNamesAreData() {
        const QString base = m_tmp.filePath("it's a \"dir\"; touch pwned-local $(id) `id`");
        targets::Board board = builtIn("sim-k230");
        board.runner.workdir = base;
        LocalTransport transport(board);
        auto dir = transport.makeRunDir("x'; rm -rf / #");
        QVERIFY(dir.ok());
        QVERIFY(dir->startsWith(base));
        const QString name = "pro be;'\"$HOME";
        QVERIFY(transport.upload(m_probe, name).ok());
        ExecRequest req;
        req.argv = {"./" + name, "a b", "'; touch pwned-local2 #", "$(id)"};
        auto r = transport.exec(req);
        QVERIFY(r.ok());
        QCOMPARE(r->exitCode, 0);
        QCOMPARE(r->stdoutData, QByteArray("arg[1]=a b\narg[2]='; touch pwned-local2 #\narg[3]=$(id)\n"));
        QVERIFY(!QFileInfo::exists(m_tmp.filePath("pwned-local")));
        QVERIFY(!QFileInfo::exists(*dir + "/pwned-local2"));
        QVERIFY(transport.removeRunDir(*dir).ok());
    }

    void refusesToRemoveForeignFolders() {
        LocalTransport transport(builtIn("host"));
        QTemporaryDir other;
        QVERIFY(!transport.removeRunDir(other.path()).ok());
        QVERIFY(QFileInfo::exists(other.path()));
    }

    void missingRunnerNamesThePackage() {
        targets::Board board = builtIn("sim-k230");
        board.runner.execPrefix[0] = "qemu-riscv64-static-not-installed";
        LocalTransport transport(board);
        const Status s = transport.connect();
        QVERIFY(!s.ok());
        QVERIFY(QString::fromStdString(s.error().message).contains("qemu-riscv64-static-not-installed"));
        QVERIFY(transport.makeRunDir("x").ok());
        ExecRequest req;
        req.argv = {"./probe"};
        auto r = transport.exec(req);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ErrorKind::External);
        QVERIFY(transport.removeRunDir(transport.runDir()).ok());
    }
};

QTEST_GUILESS_MAIN(TestLocalTransport)
#include "tst_local_transport.moc"

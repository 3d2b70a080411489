// Fault injection on deployment through the whole bench pipeline, against a real OpenSSH
// server on 127.0.0.1 (tests/support/sshd_fixture) acting as an x86_64 board: the server
// killed mid-upload of a large binary and mid-run, the board's disk full (a 1 MiB tmpfs
// workdir, needs root) and run_export killed by a signal from the side. Each must give a
// clear error naming the board, a run stored as Failed, nothing half-deployed under its
// final name, and no run_export process left behind. Packet loss is tst_network_faults.
#include "support/host_board.h"
#include "jobs/bench_pipeline.h"
#include "onnx/writer.h"
#include "store/run_store.h"
#include "support/graph_builder.h"
#include "support/sshd_fixture.h"
#include "support/test_paths.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <csignal>
#include <memory>
#include <thread>

using namespace embark;

namespace {

using test::hostArch;

// A distinctive iteration count: the long runs are found by it with pgrep.
constexpr int kLongRun = 99999937;

QString digits() { return test::sourceDir() + "/resources/models/digits_cnn.onnx"; }

bool runExportAlive() { return test::runExportAlive(kLongRun); }

// Files under `dir` whose name contains `part`, with their sizes.
QList<QPair<QString, qint64>> filesNamed(const QString& dir, const QString& part) {
    QList<QPair<QString, qint64>> out;
    for (QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();) {
        const QFileInfo fi(it.next());
        if (fi.fileName().contains(part)) out.append({fi.filePath(), fi.size()});
    }
    return out;
}

} // namespace

class TestSshFaults : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::unique_ptr<test::SshdFixture> m_sshd;
    QString m_bigModel;

    QString storePath() const { return m_tmp.path() + "/runs.db"; }
    // The board's work folder, one per test function and row (faults leave things behind).
    QString boardWork() const {
        return m_tmp.path() + "/board-" + QTest::currentTestFunction() +
               (QTest::currentDataTag() ? QStringLiteral("-") + QTest::currentDataTag() : QString());
    }

    // A fresh server for each fault (most of them kill it) and the board file naming its port.
    void startBoard(const QString& workdir) {
        QVERIFY(QDir().mkpath(workdir));
        m_sshd = std::make_unique<test::SshdFixture>();
        QString error;
        if (!m_sshd->start(&error)) QSKIP(qPrintable("no sshd fixture: " + error));
        QVERIFY(m_sshd->writeKnownHosts(true));
        const QJsonObject runner{{"kind", "ssh"},          {"host", "127.0.0.1"},        {"port", m_sshd->port()},
                                 {"user", m_sshd->user()}, {"key", m_sshd->clientKey()}, {"workdir", workdir}};
        QVERIFY(test::writeHostBoard(m_tmp.path() + "/config/boards", "ssh-host", "this machine over SSH", runner));
    }

    jobs::BenchOptions options(const QString& model, QStringList* log) const {
        jobs::BenchOptions o;
        o.modelPath = model;
        o.boardId = "ssh-host";
        o.iterations = 3;
        o.warmup = 0;
        o.workDir = m_tmp.path() + "/work";
        o.storePath = storePath();
        o.runTimeoutSeconds = 600;
        o.ssh.configFile = m_sshd->sshConfig();
        o.ssh.knownHostsFile = m_sshd->knownHosts();
        o.ssh.connectTimeout = std::chrono::seconds(10);
        o.ssh.ioTimeout = std::chrono::seconds(20);
        o.log = [log](const QString& line) { log->append(line); };
        return o;
    }

    // The run failed with a message containing every word of `expected`, and is stored so.
    void checkFailedRun(const Expected<jobs::BenchResult>& r, const QStringList& expected) {
        QVERIFY2(r, r ? "" : r.error().message.c_str()); // a failure on the board is a result
        const QString message = QString::fromStdString(r->record.message);
        QVERIFY(r->record.status == store::RunStatus::Failed);
        for (const QString& word : expected) QVERIFY2(message.contains(word), qPrintable(word + " not in: " + message));
        auto st = store::RunStore::open(storePath());
        QVERIFY(st);
        auto stored = (*st)->getRun(r->record.id);
        QVERIFY(stored);
        QVERIFY(stored->status == store::RunStatus::Failed);
        QCOMPARE(stored->message, r->record.message);
        QVERIFY(stored->latency.empty());
        qInfo("outcome: %s", qPrintable(message.left(400)));
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QVERIFY(QDir().mkpath(m_tmp.path() + "/config/boards"));
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());
        // A model whose binary is ~24 MiB (weights linked in), so an upload takes a while.
        test::GraphBuilder b("big_weights");
        ir::Value* x = b.input("x", ir::Shape({1, 1536}));
        b.output(b.op(ir::OpKind::MatMul, {x, b.weights("w", ir::Shape({1536, 4096}))}, {}, "matmul"));
        m_bigModel = m_tmp.path() + "/big_weights.onnx";
        const Status written = onnx::writeModel(b.build(), m_bigModel.toStdString());
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
    }

    void serverKilledMidUpload() {
        const QString work = boardWork();
        startBoard(work);
        // Watches the board's disk: once the temporary file holds 2 MiB, the board vanishes.
        std::atomic_bool stop{false}, killed{false};
        std::thread watcher([&] {
            while (!stop && !killed) {
                for (const auto& [path, size] : filesNamed(work, ".embark-part-"))
                    if (size > (2 << 20)) {
                        m_sshd->killHard();
                        killed = true;
                    }
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
        });
        QStringList log;
        auto r = jobs::runBenchmark(options(m_bigModel, &log));
        stop = true;
        watcher.join();
        QVERIFY2(killed, "the upload ended before the server could be killed");
        checkFailedRun(r, {"board 'ssh-host'", "lost while uploading", "run_export", "retry"});
        // Nothing under the final name, and what was sent is not executable.
        for (const auto& [path, size] : filesNamed(boardWork(), "run_export")) {
            QVERIFY2(path.contains(".embark-part-"), qPrintable(path));
            QVERIFY(!QFileInfo(path).isExecutable());
        }
        QVERIFY(!log.join('\n').contains("\"type\":\"meta\"")); // it never ran
    }

    void serverKilledMidRun() {
        startBoard(boardWork());
        QStringList log;
        jobs::BenchOptions o = options(digits(), &log);
        o.iterations = kLongRun;
        bool killed = false;
        o.log = [&](const QString& line) {
            log.append(line);
            if (!killed && line.contains("\"type\":\"latency\"")) {
                m_sshd->killHard();
                killed = true;
            }
        };
        auto r = jobs::runBenchmark(o);
        QVERIFY(killed);
        checkFailedRun(r, {"board 'ssh-host'", "lost while running ./run_export", "retry"});
        // Its output has nowhere to go: it dies of SIGPIPE rather than running on.
        QTRY_VERIFY_WITH_TIMEOUT(!runExportAlive(), 20000);
    }

    void fullBoardDisk() {
        QTemporaryDir mountPoint;
        if (QProcess::execute("mount", {"-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path()}) != 0)
            QSKIP("cannot mount a 1 MiB tmpfs here (needs root): the full-disk fault runs in CI only");
        startBoard(mountPoint.path());
        QStringList log;
        auto r = jobs::runBenchmark(options(m_bigModel, &log));
        const QStringList left =
            QDir(mountPoint.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
        QProcess::execute("umount", {mountPoint.path()});
        checkFailedRun(r, {"board 'ssh-host'", "no space left on device while uploading", "runner.workdir"});
        QVERIFY2(left.isEmpty(), qPrintable(left.join(", "))); // partial file and run folder removed
    }

    void runExportKilledBySignal_data() {
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("name");
        QTest::newRow("SIGKILL") << int(SIGKILL) << "SIGKILL (by the board's out-of-memory killer";
        QTest::newRow("SIGSEGV") << int(SIGSEGV) << "SIGSEGV";
    }

    void runExportKilledBySignal() {
        QFETCH(int, signal);
        QFETCH(QString, name);
        startBoard(boardWork());
        QStringList log;
        jobs::BenchOptions o = options(digits(), &log);
        o.iterations = kLongRun;
        bool sent = false;
        o.log = [&](const QString& line) {
            log.append(line);
            if (sent || !line.contains("\"type\":\"latency\"")) return;
            // The transport records the remote pid in the run folder: kill exactly that one.
            if (const qint64 pid = test::remoteExecPid(boardWork());
                pid > 0 && ::kill(static_cast<pid_t>(pid), signal) == 0)
                sent = true;
        };
        auto r = jobs::runBenchmark(o);
        QVERIFY(sent);
        checkFailedRun(r, {"board 'ssh-host'", "run_export", "with signal " + name});
        QVERIFY(!runExportAlive());
        QVERIFY(m_sshd->isRunning());                             // the board itself is fine
        QVERIFY(filesNamed(boardWork(), "run_export").isEmpty()); // the run folder was removed
    }

    void cleanupTestCase() {
        if (m_sshd) m_sshd->stop();
    }
};

QTEST_GUILESS_MAIN(TestSshFaults)
#include "tst_ssh_faults.moc"

// Packet loss between Embark and a board: the sshd fixture runs in a private network
// namespace (ip netns, root) whose loopback gets a "blackhole" qdisc (tc) that drops every
// packet, so the connect and I/O timeouts must fire: a connection attempt, a command that is
// running when the link goes silent, and a bench run whose deploy step cannot connect. A
// command orphaned on the board is killed when the link is back and Embark connects to the
// board again (from any transport: the orphan is recorded on the host).
// Skipped with a message when not root or when ip/tc or the blackhole qdisc are missing.
#include "support/host_board.h"
#include "deploy/ssh_transport.h"
#include "jobs/bench_pipeline.h"
#include "store/run_store.h"
#include "support/sshd_fixture.h"
#include "support/test_paths.h"
#include "targets/board.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

using namespace embark;
using namespace embark::deploy;

namespace {

using test::hostArch;

bool run(const QString& program, const QStringList& args, QString* output = nullptr) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    const bool ok = p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (output) *output = QString::fromLocal8Bit(p.readAll()).trimmed();
    return ok;
}

bool processAlive(const QString& pattern) {
    QProcess p; // not QProcess::execute: pgrep's output would clutter the test log
    p.start("pgrep", {"-f", pattern});
    return p.waitForFinished(10000) && p.exitCode() == 0;
}

QString messageOf(const Status& s) { return s.ok() ? QString() : QString::fromStdString(s.error().message); }

} // namespace

class TestNetworkFaults : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_netns;
    int m_hostNs = -1; // this thread's own network namespace, to return to
    test::SshdFixture m_sshd;

    // Every packet on the namespace's loopback is dropped (true) or delivered (false).
    bool dropPackets(bool drop) {
        QString out;
        const bool ok = drop ? run("tc", {"qdisc", "replace", "dev", "lo", "root", "blackhole"}, &out)
                             : run("tc", {"qdisc", "del", "dev", "lo", "root"}, &out);
        if (!ok) qWarning("tc: %s", qPrintable(out));
        return ok;
    }

    targets::Board board() const {
        targets::Board b;
        b.id = "netns-board";
        b.arch = "x86_64";
        b.runner.kind = targets::BoardRunner::Kind::Ssh;
        b.runner.host = m_sshd.alias();
        return b;
    }

    SshOptions options() const {
        SshOptions o;
        o.configFile = m_sshd.sshConfig();
        o.knownHostsFile = m_sshd.knownHosts();
        o.connectTimeout = std::chrono::seconds(2);
        o.ioTimeout = std::chrono::seconds(2);
        return o;
    }

private slots:
    void initTestCase() {
        if (::geteuid() != 0) QSKIP("network namespaces need root: the packet-loss faults run in CI (root) only");
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8()); // orphan lists, boards
        QString out;
        if (!run("ip", {"-V"}, &out) || !run("tc", {"-V"}, &out))
            QSKIP("ip or tc (Debian package iproute2) is missing: cannot drop packets");
        m_netns = QStringLiteral("embark-faults-%1").arg(::getpid());
        if (!run("ip", {"netns", "add", m_netns}, &out)) QSKIP(qPrintable("cannot create a network namespace: " + out));
        // Only this (main) thread enters it: sockets it opens, and processes it forks, live there.
        m_hostNs = ::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
        const int ns = ::open(QFile::encodeName("/run/netns/" + m_netns).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(m_hostNs >= 0 && ns >= 0);
        QVERIFY(::setns(ns, CLONE_NEWNET) == 0);
        ::close(ns);
        QVERIFY(run("ip", {"link", "set", "lo", "up"}));
        if (!dropPackets(true)) QSKIP("the kernel has no blackhole qdisc: cannot drop packets");
        QVERIFY(dropPackets(false));
        QString error;
        QVERIFY2(m_sshd.start(&error), qPrintable(error));
        QVERIFY(m_sshd.writeKnownHosts(true));
    }

    void connectTimesOut() {
        QVERIFY(dropPackets(true));
        QElapsedTimer clock;
        clock.start();
        const Status s = SshTransport(board(), options()).connect();
        const qint64 ms = clock.elapsed();
        QVERIFY(dropPackets(false));
        QVERIFY(!s.ok());
        QVERIFY2(messageOf(s).contains("board 'netns-board'") && messageOf(s).contains("cannot connect to") &&
                     messageOf(s).contains("reachable"),
                 qPrintable(messageOf(s)));
        QVERIFY2(ms < 30000, qPrintable(QString::number(ms))); // the 2 s timeout fired, no TCP-level wait
        qInfo("connect with packets dropped failed after %lld ms: %s", ms, qPrintable(messageOf(s)));
    }

    void silentLinkDuringRunTimesOutAndTheOrphanIsKilledLater() {
        SshTransport transport(board(), options());
        QVERIFY2(transport.makeRunDir("netns").ok(), "makeRunDir");
        const QString marker = QStringLiteral("86397.%1").arg(QRandomGenerator::global()->bounded(100000));
        ExecRequest req;
        req.usePrefix = false;
        req.argv = {"sh", "-c", "echo started; sleep " + marker};
        req.onStdout = [&](const QByteArray& c) {
            if (c.contains("started")) QVERIFY(dropPackets(true));
        };
        QElapsedTimer clock;
        clock.start();
        auto r = transport.exec(req);
        const qint64 ms = clock.elapsed();
        QVERIFY(dropPackets(false));
        QVERIFY(!r.ok());
        const QString message = QString::fromStdString(r.error().message);
        QVERIFY2(message.contains("board 'netns-board'") && message.contains("lost while running sh") &&
                     message.contains("no answer from the board") &&
                     message.contains("stopped when Embark connects again"),
                 qPrintable(message));
        QVERIFY2(ms < 60000, qPrintable(QString::number(ms)));
        qInfo("a run with packets dropped failed after %lld ms: %s", ms, qPrintable(message));
        // The board never heard of it: the command still runs there until Embark is back.
        QVERIFY(processAlive("sleep " + marker));
        // A later connection to the board (a new transport, as the next benchmark run makes)
        // stops it: the orphan was recorded on the host.
        SshTransport later(board(), options());
        QVERIFY2(later.connect().ok(), "reconnect");
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive("sleep " + marker), 10000);
        QVERIFY(transport.removeRunDir(transport.runDir()).ok());
    }

    void benchRunThatCannotConnectIsStoredAsFailed() {
        QVERIFY(QDir().mkpath(m_tmp.path() + "/config/boards"));
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());
        const QJsonObject runner{{"kind", "ssh"},
                                 {"host", "127.0.0.1"},
                                 {"port", m_sshd.port()},
                                 {"user", m_sshd.user()},
                                 {"key", m_sshd.clientKey()}};
        const QJsonObject b{{"id", "netns-board"},
                            {"name", "this machine behind a dead link"},
                            {"arch", hostArch()},
                            {"isa", hostArch()},
                            {"cflags", QJsonArray{}},
                            {"cores", 1},
                            {"memory_bytes", qint64(8) << 30},
                            {"xnnpack", false},
                            {"runner", runner}};
        QFile f(m_tmp.path() + "/config/boards/netns-board.json");
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(b).toJson()) > 0);
        f.close();
        jobs::BenchOptions o;
        o.modelPath = test::sourceDir() + "/resources/models/digits_cnn.onnx";
        o.boardId = "netns-board";
        o.iterations = 2;
        o.warmup = 0;
        o.workDir = m_tmp.path() + "/work";
        o.storePath = m_tmp.path() + "/runs.db";
        o.ssh = options();
        o.progress = [&](const QString& step, int, int) {
            if (step == "deploy") QVERIFY(dropPackets(true)); // built fine; the board went silent
        };
        auto r = jobs::runBenchmark(o);
        QVERIFY(dropPackets(false));
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        const QString message = QString::fromStdString(r->record.message);
        QVERIFY(r->record.status == store::RunStatus::Failed);
        QVERIFY2(message.contains("board 'netns-board'") && message.contains("cannot connect to"), qPrintable(message));
        auto st = store::RunStore::open(o.storePath);
        QVERIFY(st);
        auto stored = (*st)->getRun(r->record.id);
        QVERIFY(stored && stored->status == store::RunStatus::Failed);
        qInfo("bench with packets dropped: %s", qPrintable(message));
    }

    void cleanupTestCase() {
        m_sshd.stop();
        if (m_hostNs >= 0) {
            ::setns(m_hostNs, CLONE_NEWNET);
            ::close(m_hostNs);
        }
        if (!m_netns.isEmpty()) run("ip", {"netns", "del", m_netns});
    }
};

QTEST_GUILESS_MAIN(TestNetworkFaults)
#include "tst_network_faults.moc"

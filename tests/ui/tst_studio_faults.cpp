// The studio stays usable through deployment faults. One window, as a user keeps it open, runs
// Run benchmark (F5) against a real OpenSSH server on 127.0.0.1 acting as an x86_64 board
// (tests/support/sshd_fixture), and the board fails in turn: run_export killed by SIGSEGV
// mid-run, the server killed mid-run, the server gone before the run. Each time the job ends
// Failed with a message naming the board, the status bar says so, the failed run appears in
// the run history, no run_export is left on the board, the GUI event loop never stalls, and
// the Run actions stay enabled. Then the board comes back and the same window's next benchmark
// succeeds and fills the charts.
#include "charts/charts_panel.h"
#include "charts/layer_timing_chart.h"
#include "history/run_history_panel.h"
#include "jobs/studio_jobs.h"
#include "mainwindow/mainwindow.h"
#include "session/studio_session.h"
#include "support/event_loop_probe.h"
#include "support/host_board.h"
#include "support/sshd_fixture.h"
#include "support/test_paths.h"

#include <QAction>
#include <QDir>
#include <QJsonObject>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <functional>
#include <memory>

using namespace embark;

namespace {

// A distinctive iteration count: the long runs are found by it with pgrep.
constexpr int kLongRun = 99999941;

bool runExportAlive() { return test::runExportAlive(kLongRun); }

} // namespace

class TestStudioFaults : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::unique_ptr<test::SshdFixture> m_sshd;
    std::unique_ptr<ui::MainWindow> m_window; // one window for every fault, as a user keeps it
    int m_failedRuns = 0;
    qint64 m_lastWorstMs = 0; // the last benchmark's worst event-loop latency of the studio's making

    QString boardWork() const { return m_tmp.path() + "/board"; }

    // A fresh server (the faults kill it) and the board file naming its port.
    bool startBoard(QString* error) {
        m_sshd = std::make_unique<test::SshdFixture>();
        if (!m_sshd->start(error)) return false;
        if (!m_sshd->writeKnownHosts(true)) return *error = "cannot write known_hosts", false;
        const QJsonObject runner{{"kind", "ssh"},          {"host", "127.0.0.1"},        {"port", m_sshd->port()},
                                 {"user", m_sshd->user()}, {"key", m_sshd->clientKey()}, {"workdir", boardWork()}};
        if (!test::writeHostBoard(m_tmp.path() + "/config/boards", "ssh-host", "this machine over SSH", runner))
            return *error = "cannot write the board file", false;
        return true;
    }

    // Presses F5's action and waits for the job, calling `whileRunning` with each new log line;
    // checks the event loop stayed responsive and the Run actions are enabled again after.
    std::shared_ptr<jobs::Job> runBenchmark(const std::function<void(const QString&)>& whileRunning = {}) {
        ui::StudioJobs* studioJobs = m_window->jobs();
        if (!studioJobs->benchmarkAction()->isEnabled()) return nullptr;
        test::EventLoopProbe probe;
        probe.start();
        studioJobs->benchmarkAction()->trigger();
        auto job = studioJobs->queue()->jobs().back();
        int seen = 0;
        test::runEventLoopUntil([&] { return jobs::isFinished(job->state()); }, 600000,
                                [&] {
                                    const QStringList log = job->log();
                                    for (; seen < log.size(); ++seen)
                                        if (whileRunning) probe.excluding([&] { whileRunning(log[seen]); });
                                });
        probe.stop();
        if (!jobs::isFinished(job->state())) {
            studioJobs->queue()->cancelAll();
            studioJobs->queue()->waitForIdle(60000);
        }
        qInfo("%s: %s; event loop worst latency %lld ms of its own (%lld ms of it on a CPU; %lld ms with waiting "
              "for a CPU) over %d ticks",
              qPrintable(job->title()), qPrintable(job->message().left(300)), probe.worstMs(), probe.worstOnCpuMs(),
              probe.worstWallMs(), probe.ticks());
        m_lastWorstMs = probe.worstMs();
        return job;
    }

    // What the user sees after a failed run: the job, the status bar, the history, the actions.
    void checkFailedInTheStudio(const std::shared_ptr<jobs::Job>& job, const QStringList& words) {
        QVERIFY(job);
        QVERIFY2(job->state() == jobs::JobState::Failed, qPrintable(job->message()));
        for (const QString& w : words)
            QVERIFY2(job->message().contains(w), qPrintable(w + " not in: " + job->message()));
        const QString status = m_window->statusBar()->currentMessage();
        QVERIFY2(status.contains("failed") && status.contains("ssh-host"), qPrintable(status));
        ++m_failedRuns;
        ui::RunHistoryPanel* history = m_window->history();
        QCOMPARE(int(history->shownRunIds().size()), m_failedRuns);
        int failedRows = 0;
        for (int row = 0; row < history->table()->rowCount(); ++row)
            if (history->table()->item(row, history->table()->columnCount() - 1)->text() == "failed") ++failedRows;
        QCOMPARE(failedRows, m_failedRuns);
        QVERIFY(m_window->jobs()->benchmarkAction()->isEnabled());
        QVERIFY(m_window->jobs()->exportAction()->isEnabled());
        QVERIFY2(m_lastWorstMs < 200,
                 qPrintable(QStringLiteral("the event loop stalled for %1 ms").arg(m_lastWorstMs)));
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(QDir().mkpath(m_tmp.path() + "/config/boards"));
        QVERIFY(QDir().mkpath(boardWork()));
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());
        qputenv("EMBARK_DATA_DIR", (m_tmp.path() + "/data").toUtf8());
        QString error;
        if (!startBoard(&error)) QSKIP(qPrintable("no sshd fixture: " + error));

        m_window = std::make_unique<ui::MainWindow>();
        QVERIFY(m_window->openModel(test::sourceDir() + "/resources/models/digits_cnn.onnx", true));
        m_window->session()->setBoard("ssh-host");
        QCOMPARE(m_window->session()->boardId(), QStringLiteral("ssh-host"));
        m_window->session()->setLibrary("portable");
        jobs::BenchOptions& o = m_window->jobs()->benchDefaults();
        o.warmup = 0;
        o.workDir = m_tmp.path() + "/bench";
        o.runTimeoutSeconds = 600;
        // The fixture's keys and known_hosts, read when each job starts (the server changes).
        m_window->jobs()->setSshOptionsProvider([this](const QString&) {
            deploy::SshOptions ssh;
            ssh.configFile = m_sshd->sshConfig();
            ssh.knownHostsFile = m_sshd->knownHosts();
            ssh.connectTimeout = std::chrono::seconds(10);
            ssh.ioTimeout = std::chrono::seconds(20);
            return ssh;
        });
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void runExportKilledBySignal() {
        m_window->jobs()->benchDefaults().iterations = kLongRun;
        bool sent = false;
        auto job = runBenchmark([&](const QString& line) {
            if (sent || !line.contains("\"type\":\"latency\"")) return;
            if (const qint64 pid = test::remoteExecPid(boardWork()); pid > 0) sent = ::kill(pid_t(pid), SIGSEGV) == 0;
        });
        QVERIFY2(sent, "run_export never reported a latency");
        checkFailedInTheStudio(job, {"board 'ssh-host'", "run_export", "SIGSEGV"});
        QVERIFY(!runExportAlive());
        QVERIFY(m_sshd->isRunning());
    }

    void serverKilledMidRun() {
        m_window->jobs()->benchDefaults().iterations = kLongRun;
        bool killed = false;
        auto job = runBenchmark([&](const QString& line) {
            if (!killed && line.contains("\"type\":\"latency\"")) {
                m_sshd->killHard();
                killed = true;
            }
        });
        QVERIFY(killed);
        checkFailedInTheStudio(job, {"board 'ssh-host'", "lost while running", "retry"});
        // Its output has nowhere to go: it dies of SIGPIPE rather than running on.
        QTRY_VERIFY_WITH_TIMEOUT(!runExportAlive(), 20000);
    }

    void boardUnreachable() {
        QVERIFY(!m_sshd->isRunning()); // still down from the previous fault
        m_window->jobs()->benchDefaults().iterations = 3;
        auto job = runBenchmark();
        checkFailedInTheStudio(job, {"board 'ssh-host'"});
    }

    void sameWindowRunsAgainWhenTheBoardIsBack() {
        QString error;
        QVERIFY2(startBoard(&error), qPrintable(error)); // a new server on a new port
        m_window->jobs()->benchDefaults().iterations = 3;
        auto job = runBenchmark();
        QVERIFY(job);
        QVERIFY2(job->state() == jobs::JobState::Succeeded, qPrintable(job->message()));
        QVERIFY(m_window->statusBar()->currentMessage().contains("finished"));
        QVERIFY(m_window->charts()->timing()->hasData());
        QCOMPARE(int(m_window->history()->shownRunIds().size()), m_failedRuns + 1);
        QVERIFY(!runExportAlive());
        QVERIFY2(m_lastWorstMs < 200,
                 qPrintable(QStringLiteral("the event loop stalled for %1 ms").arg(m_lastWorstMs)));
    }

    void cleanupTestCase() {
        if (m_window) m_window->jobs()->queue()->cancelAll();
        m_window.reset();
        if (m_sshd) m_sshd->stop();
    }
};

QTEST_MAIN(TestStudioFaults)
#include "tst_studio_faults.moc"

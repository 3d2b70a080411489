// The studio's jobs on real tools (clang-19 for RISC-V and qemu-riscv64-static, from
// scripts/install-deps.sh): the Run benchmark action on sim-k230 with the bundled digits model
// fills the timing, accuracy and latency charts; a running build is cancelled (the job ends
// Cancelled, no compiler survives, the export folder is as it was); and the UI event loop
// stays under 100 ms of latency while a build runs. Skipped with the reason when a tool is absent.
#include "charts/charts_panel.h"
#include "charts/latency_chart.h"
#include "charts/layer_accuracy_chart.h"
#include "charts/layer_timing_chart.h"
#include "jobs/jobs_panel.h"
#include "jobs/studio_jobs.h"
#include "mainwindow/mainwindow.h"
#include "session/studio_session.h"
#include "support/event_loop_probe.h"
#include "support/test_paths.h"

#include "targets/board.h"
#include "targets/toolchain.h"

#include <QAction>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <map>
#include <set>

#include <unistd.h>

using namespace embark;

namespace {

QString digitsModel() { return test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"); }

// Every file under `dir` with a hash of its contents.
std::map<QString, QByteArray> snapshot(const QString& dir) {
    std::map<QString, QByteArray> files;
    for (QDirIterator it(dir, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden,
                         QDirIterator::Subdirectories);
         it.hasNext();) {
        const QString path = it.next();
        QByteArray hash = "dir";
        QFile f(path);
        if (it.fileInfo().isFile() && f.open(QIODevice::ReadOnly))
            hash = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
        files[QDir(dir).relativeFilePath(path)] = hash;
    }
    return files;
}

struct Proc {
    int pid = 0, ppid = 0, pgid = 0;
    QString comm;
};

// Every process (from /proc/<pid>/stat).
std::vector<Proc> processes() {
    std::vector<Proc> out;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool isPid = false;
        const int pid = entry.toInt(&isPid);
        if (!isPid) continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly)) continue;
        const QByteArray s = stat.readAll();
        const qsizetype open = s.indexOf('('), close = s.lastIndexOf(')');
        if (open < 0 || close < 0) continue;
        const QList<QByteArray> rest = s.mid(close + 2).split(' '); // state ppid pgrp ...
        if (rest.size() < 3 || rest[0] == "Z") continue;            // zombies are gone already
        out.push_back({pid, rest[1].toInt(), rest[2].toInt(), QString::fromUtf8(s.mid(open + 1, close - open - 1))});
    }
    return out;
}

// The processes descending from this test (the build's cmake, ninja, compilers).
std::vector<Proc> descendants() {
    const std::vector<Proc> all = processes();
    std::set<int> family{int(::getpid())};
    std::vector<Proc> out;
    for (bool grew = true; grew;) {
        grew = false;
        for (const Proc& p : all)
            if (family.count(p.ppid) && !family.count(p.pid)) {
                family.insert(p.pid);
                out.push_back(p);
                grew = true;
            }
    }
    return out;
}

bool isCompiler(const QString& comm) {
    return comm.contains(QLatin1String("clang")) || comm.startsWith(QLatin1String("cc1")) ||
           comm.contains(QLatin1String("g++")) || comm.contains(QLatin1String("c++"));
}

} // namespace

class TestStudioJobsPipeline : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_skip; // why the real-tool tests cannot run here

    // A window with the digits model open, its benchmark writing under the temporary folder.
    std::unique_ptr<ui::MainWindow> window() {
        auto w = std::make_unique<ui::MainWindow>();
        if (!w->openModel(digitsModel(), true)) return nullptr;
        w->session()->setBoard(QStringLiteral("sim-k230"));
        w->session()->setLibrary(QStringLiteral("portable"));
        jobs::BenchOptions& o = w->jobs()->benchDefaults();
        o.iterations = 3;
        o.warmup = 0;
        o.workDir = m_tmp.path() + QStringLiteral("/bench");
        o.storePath = m_tmp.path() + QStringLiteral("/runs.sqlite");
        return w;
    }

    // Exports digits for sim-k230 through the studio into `dir`; returns false on failure.
    bool exportDigits(ui::MainWindow& w, const QString& dir) {
        const int id = w.jobs()->exportTo(dir, false);
        if (id < 0 || !w.jobs()->queue()->waitForIdle(120000)) return false;
        return w.jobs()->queue()->job(id)->state() == jobs::JobState::Succeeded;
    }

    // Waits until the build of `jobId` runs a compiler; returns the compilers seen.
    std::vector<Proc> waitForCompiler(ui::MainWindow& w, int jobId) {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 600000) {
            std::vector<Proc> compilers;
            for (const Proc& p : descendants())
                if (isCompiler(p.comm)) compilers.push_back(p);
            if (!compilers.empty()) return compilers;
            if (jobs::isFinished(w.jobs()->queue()->job(jobId)->state())) return {};
            QTest::qWait(20);
        }
        return {};
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());
        qputenv("EMBARK_DATA_DIR", (m_tmp.path() + "/data").toUtf8());
        auto board = targets::findBoard(QStringLiteral("sim-k230"));
        QVERIFY2(board.ok(), board.ok() ? "" : board.error().message.c_str());
        auto toolchain = targets::toolchainFor(*board);
        Status ready = toolchain.ok() ? targets::checkAvailable(*toolchain) : Status(toolchain.error());
        if (ready.ok()) ready = targets::checkRunnerAvailable(*board);
        if (!ready.ok()) m_skip = QString::fromStdString(ready.error().message);
    }

    void benchmarkActionFillsTheCharts() {
        if (!m_skip.isEmpty()) QSKIP(qPrintable("sim-k230 cannot run here: " + m_skip));
        auto w = window();
        QVERIFY(w);
        ui::StudioJobs* studioJobs = w->jobs();
        QVERIFY(studioJobs->benchmarkAction()->isEnabled());
        studioJobs->benchmarkAction()->trigger(); // the newcomer's one button
        QCOMPARE(studioJobs->queue()->jobs().size(), size_t(1));
        auto job = studioJobs->queue()->jobs().front();
        QCOMPARE(job->kind(), jobs::JobKind::Benchmark);
        QVERIFY(studioJobs->queue()->waitForIdle(1800000));
        QVERIFY2(job->state() == jobs::JobState::Succeeded, qPrintable(job->message()));

        // The log streamed in: pipeline steps and the compiler's output.
        const QStringList log = job->log();
        QVERIFY(log.contains(QStringLiteral("== build")));
        QVERIFY(log.filter(QStringLiteral("Building CXX object")).size() > 0);
        QCOMPARE(studioJobs->panel()->selectedJob(), job->id());
        QVERIFY(studioJobs->panel()->logView()->toPlainText().contains(QStringLiteral("== run")));

        ui::ChartsPanel* charts = w->charts();
        QVERIFY(charts->isVisibleTo(w.get()));
        const std::any stored = job->result();
        const auto& result = std::any_cast<const jobs::BenchResult&>(stored);
        QVERIFY(charts->timing()->hasData());
        QCOMPARE(charts->timing()->drawnOrder().size(), qsizetype(result.medianLayers.size()));
        QCOMPARE(charts->timing()->drawnOrder().first(), QString::fromStdString(result.medianLayers.front().node));
        QVERIFY(charts->accuracy()->hasData());
        QCOMPARE(charts->accuracy()->firstDivergent(), -1); // portable matches the reference
        QVERIFY(charts->latency()->hasData());
        int counted = 0;
        for (int c : charts->latency()->binCounts()) counted += c;
        QCOMPARE(counted, 3);
        QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("finished")));
    }

    void cancelRunningBuild() {
        if (!m_skip.isEmpty()) QSKIP(qPrintable("sim-k230 cannot run here: " + m_skip));
        auto w = window();
        QVERIFY(w);
        const QString dir = m_tmp.path() + QStringLiteral("/cancelled-export");
        QVERIFY(exportDigits(*w, dir));
        QCOMPARE(w->jobs()->lastExportDir(), dir);
        const auto before = snapshot(dir);
        QVERIFY(before.count(QStringLiteral("export.json")));

        w->jobs()->buildAction()->trigger();
        auto build = w->jobs()->queue()->jobs().back();
        QCOMPARE(build->kind(), jobs::JobKind::Build);
        const std::vector<Proc> compilers = waitForCompiler(*w, build->id());
        QVERIFY2(!compilers.empty(), qPrintable("no compiler started: " + build->message()));
        QCOMPARE(build->state(), jobs::JobState::Running);

        w->jobs()->panel()->selectJob(build->id());
        QVERIFY(w->jobs()->panel()->cancelButton()->isEnabled());
        w->jobs()->panel()->cancelButton()->click();
        QVERIFY(w->jobs()->queue()->waitForIdle(60000));
        QCOMPARE(build->state(), jobs::JobState::Cancelled);
        QVERIFY2(build->message().contains(QStringLiteral("cancelled")), qPrintable(build->message()));

        // No compiler (nor anything else of the build's process group) survives.
        const std::vector<Proc> left = descendants();
        QVERIFY2(left.empty(), qPrintable(QStringLiteral("%1 process(es) left, first: %2")
                                              .arg(left.size())
                                              .arg(left.empty() ? QString() : left.front().comm)));
        for (const Proc& c : compilers) {
            for (const Proc& p : processes()) {
                QVERIFY2(p.pid != c.pid,
                         qPrintable(QStringLiteral("compiler %1 (%2) still runs").arg(c.pid).arg(c.comm)));
                QVERIFY2(p.pgid != c.pgid,
                         qPrintable(QStringLiteral("%1 of the build's group still runs").arg(p.comm)));
            }
        }
        QCOMPARE(snapshot(dir), before);
        QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("cancelled")));
    }

    void eventLoopStaysResponsiveDuringBuild() {
        if (!m_skip.isEmpty()) QSKIP(qPrintable("sim-k230 cannot run here: " + m_skip));
        auto w = window();
        QVERIFY(w);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(exportDigits(*w, m_tmp.path() + QStringLiteral("/responsive-export")));
        w->jobs()->buildAction()->trigger();
        auto build = w->jobs()->queue()->jobs().back();
        w->jobs()->panel()->selectJob(build->id()); // its log streams into the view

        test::EventLoopProbe probe;
        QElapsedTimer span;
        span.start();
        probe.start();
        // Measure while the build runs: the whole build, or its first 60 s, waiting in the event
        // loop as the studio does.
        test::runEventLoopUntil([&] { return jobs::isFinished(build->state()); }, 60000);
        probe.stop();
        const bool stillRunning = !jobs::isFinished(build->state());
        w->jobs()->queue()->cancelAll();
        QVERIFY(w->jobs()->queue()->waitForIdle(60000));
        QVERIFY2(build->logLineCount() > 0, "the build printed nothing");
        QVERIFY2(stillRunning || build->state() == jobs::JobState::Succeeded, qPrintable(build->message()));
        qInfo("event loop: %d ticks over %lld ms of build (%d log lines); worst latency %lld ms, of which %lld ms "
              "waiting for a CPU; worst latency of the studio's own making %lld ms (%lld ms of it on a CPU)",
              probe.ticks(), span.elapsed(), build->logLineCount(), probe.worstWallMs(), probe.worstWallWaitMs(),
              probe.worstMs(), probe.worstOnCpuMs());
        QVERIFY(probe.ticks() > 100);
        QVERIFY2(probe.worstMs() < 100,
                 qPrintable(QStringLiteral("the UI event loop stalled for %1 ms").arg(probe.worstMs())));
    }
};

QTEST_MAIN(TestStudioJobsPipeline)
#include "tst_studio_jobs_pipeline.moc"

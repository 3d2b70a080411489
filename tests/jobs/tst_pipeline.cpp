// The pipeline as steps (issue 18): the recipe runner's rules on synthetic steps (a failed step
// skips what needs it, with its error; an `always` step still runs; cancel stops the rest; one
// progress start per step), then the real recipes on the bundled model: export only, a build of
// a folder from another Embark refused, deploy-and-run building first when asked, a failed
// export that queues no build, and a benchmark cancelled on the board stored as "cancelled".
#include "jobs/job_queue.h"
#include "jobs/job_recipes.h"
#include "jobs/pipeline.h"
#include "store/run_store.h"
#include "support/test_paths.h"
#include "targets/board.h"
#include "targets/toolchain.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

#include <signal.h>

using namespace embark;
using namespace embark::jobs;

namespace {

// Synthetic steps record their order in the state's log.
QStringList g_ran;
Status okStep(PipelineState&, StepContext& c) {
    g_ran << QStringLiteral("ok");
    c.progress(1, 1);
    return {};
}
Status failStep(PipelineState&, StepContext&) {
    g_ran << QStringLiteral("fail");
    return makeError(ErrorKind::InvalidInput, "bad model 'm.onnx'");
}
Status cancelStep(PipelineState& s, StepContext&) {
    g_ran << QStringLiteral("cancel");
    const_cast<std::atomic_bool*>(s.options.cancel)->store(true);
    return makeError(ErrorKind::External, "cancelled");
}
Status finallyStep(PipelineState&, StepContext& c) {
    g_ran << QStringLiteral("finally");
    // It sees how the others ended.
    for (const StepOutcome& o : c.run->steps)
        if (o.name == QLatin1String("store"))
            break;
        else
            g_ran << o.name + ":" + stepStateName(o.state);
    return {};
}

QString digits() { return test::sourceDir() + "/resources/models/digits_cnn.onnx"; }

bool haveSimK230() {
    auto board = targets::findBoard("sim-k230");
    if (!board) return false;
    auto tc = targets::toolchainFor(*board);
    return tc && targets::checkAvailable(*tc) && targets::checkRunnerAvailable(*board);
}

} // namespace

class TestPipeline : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void failedStepSkipsWhatNeedsIt() {
        g_ran.clear();
        PipelineState state;
        const Recipe recipe{{"a", {}, okStep},
                            {"b", {"a"}, failStep},
                            {"c", {"b"}, okStep},
                            {"d", {"a"}, okStep},
                            {"store", {"a"}, finallyStep, true}};
        QStringList started;
        RecipeObserver observer;
        observer.stepStarted = [&](const QString& step, int index, int count) {
            started << QStringLiteral("%1 %2/%3").arg(step).arg(index + 1).arg(count);
        };
        const RecipeRun run = runRecipe(recipe, state, observer);
        QCOMPARE(started, QStringList({"a 1/5", "b 2/5", "d 4/5", "store 5/5"}));
        QCOMPARE(run.outcome("b")->state, StepState::Failed);
        QCOMPARE(run.outcome("c")->state, StepState::Skipped);
        QVERIFY(QString::fromStdString(run.outcome("c")->message).contains("'b' failed (bad model 'm.onnx')"));
        QCOMPARE(run.outcome("d")->state, StepState::Succeeded);
        QVERIFY(run.firstError && run.firstError->kind == ErrorKind::InvalidInput);
        QCOMPARE(g_ran,
                 QStringList({"ok", "fail", "ok", "finally", "a:succeeded", "b:failed", "c:skipped", "d:succeeded"}));
    }

    void cancelStopsTheRestButNotAlwaysSteps() {
        g_ran.clear();
        std::atomic_bool cancel{false};
        PipelineState state;
        state.options.cancel = &cancel;
        const Recipe recipe{{"a", {}, okStep},
                            {"run", {"a"}, cancelStep},
                            {"compare", {"run"}, okStep},
                            {"other", {"a"}, okStep},
                            {"store", {"a"}, finallyStep, true}};
        const RecipeRun run = runRecipe(recipe, state, {});
        QCOMPARE(run.outcome("run")->state, StepState::Cancelled);
        QCOMPARE(run.outcome("compare")->state, StepState::Cancelled);
        QCOMPARE(run.outcome("other")->state, StepState::Cancelled);
        QCOMPARE(run.outcome("store")->state, StepState::Succeeded);
        QCOMPARE(g_ran.first(2), QStringList({"ok", "cancel"}));
    }

    void everyStepIsShortAndNamed() {
        // The recipes are made of the named steps; a newcomer finds each by its name.
        QStringList names;
        for (const Step& s : benchRecipe()) names << s.name;
        QCOMPARE(names, QStringList({"resolve", "tools", "import", "plan", "export", "fits", "build", "deploy", "run",
                                     "compare", "store"}));
        for (const Recipe& r : {exportRecipe(), buildRecipe(), deployRunRecipe(true), deployRunRecipe(false)})
            for (const Step& s : r) QVERIFY(s.run);
        // Each step function stays under ~60 lines.
        QFile f(test::sourceDir() + "/core/jobs/pipeline_steps.cpp");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
        for (int i = 0; i < lines.size(); ++i) {
            if (!lines[i].startsWith("Status ") || !lines[i].endsWith("{")) continue;
            int end = i;
            while (end < lines.size() && lines[end] != "}") ++end;
            QVERIFY2(end - i <= 60, qPrintable(lines[i] + QStringLiteral(": %1 lines").arg(end - i)));
        }
    }

    void exportRecipeWritesTheFolder() {
        PipelineState state;
        state.options.modelPath = digits();
        state.options.boardId = "host";
        state.exportDir = m_tmp.path() + "/export-only";
        const RecipeRun run = runRecipe(exportRecipe(), state, {});
        QVERIFY2(!run.firstError, run.firstError ? run.firstError->message.c_str() : "");
        auto folder = exporter::ExportFolder::open(state.exportDir);
        QVERIFY2(folder, folder ? "" : folder.error().message.c_str());
        QCOMPARE(folder->arenaBytes, static_cast<qint64>(state.plan->memory.arenaBytes)); // the plan it wrote
    }

    void buildRefusesAnotherEmbarksFolder() {
        const QString dir = m_tmp.path() + "/other-embark";
        QVERIFY(QDir().mkpath(dir));
        QFile manifest(dir + "/export.json");
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{\"format\": \"embark-export/99\", \"embark_version\": \"9.0\"}");
        manifest.close();
        QFile cm(dir + "/CMakeLists.txt");
        QVERIFY(cm.open(QIODevice::WriteOnly));
        cm.close();
        PipelineState state;
        state.exportDir = dir;
        const RecipeRun run = runRecipe(buildRecipe(), state, {});
        QVERIFY(run.firstError);
        QCOMPARE(run.firstError->kind, ErrorKind::InvalidInput);
        QVERIFY2(QString::fromStdString(run.firstError->message).contains("embark-export/99"),
                 run.firstError->message.c_str());
    }

    void failedExportQueuesNoBuild() {
        // The bench recipe on a model that does not import: nothing after import runs.
        PipelineState state;
        state.options.modelPath = m_tmp.path() + "/missing.onnx";
        state.options.boardId = "host";
        state.options.storePath = "-";
        const RecipeRun run = runRecipe(benchRecipe(), state, {});
        QCOMPARE(run.outcome("import")->state, StepState::Failed);
        for (const char* step : {"plan", "export", "fits", "build", "deploy", "run", "compare", "store"})
            QVERIFY2(run.outcome(step)->state == StepState::Skipped, step);
        QVERIFY(QString::fromStdString(run.firstError->message).contains("missing.onnx"));
    }

    void deployJobBuildsWhenNeeded() {
        if (!haveSimK230())
            QSKIP("sim-k230 needs clang-19 (or riscv64 g++) and qemu-riscv64-static: run scripts/install-deps.sh");
        // Export only; then "deploy and run once" with the export folder builds it first.
        PipelineState exportState;
        exportState.options.modelPath = digits();
        exportState.options.boardId = "sim-k230";
        exportState.exportDir = m_tmp.path() + "/deploy-me";
        const RecipeRun exported = runRecipe(exportRecipe(), exportState, {});
        QVERIFY2(!exported.firstError, exported.firstError ? exported.firstError->message.c_str() : "");

        JobQueue queue;
        DeployRequest r;
        r.exportDir = exportState.exportDir;
        r.boardId = "sim-k230";
        auto job = makeDeployJob(r);
        QStringList steps;
        connect(&queue, &JobQueue::progressChanged, this, [&](int, const QString& step, int, int) {
            if (steps.isEmpty() || steps.last() != step) steps << step;
        });
        queue.enqueue(job);
        QTRY_VERIFY_WITH_TIMEOUT(isFinished(job->state()), 1500000);
        QVERIFY2(job->state() == JobState::Succeeded, qPrintable(job->message()));
        QCOMPARE(steps, QStringList({"resolve", "build", "deploy", "run"}));
        QVERIFY(QFileInfo(exportState.exportDir + "/build/run_export").isFile());
        QVERIFY(job->progress().stepCount == 4 && job->progress().stepIndex == 3);
    }

    void benchCancelledOnTheBoardIsStoredAsCancelled() {
        if (!haveSimK230())
            QSKIP("sim-k230 needs clang-19 (or riscv64 g++) and qemu-riscv64-static: run scripts/install-deps.sh");
        std::atomic_bool cancel{false};
        BenchOptions o;
        o.modelPath = digits();
        o.boardId = "sim-k230";
        o.iterations = 100000; // long enough to be cancelled while it runs
        o.warmup = 0;
        o.workDir = m_tmp.path() + "/work";
        o.storePath = m_tmp.path() + "/runs.db";
        o.cancel = &cancel;
        std::thread canceller;
        o.stepStarted = [&](const QString& step, int, int) {
            if (step != "run") return;
            // Cancel a moment after run_export started on the board.
            canceller = std::thread([&cancel] {
                std::this_thread::sleep_for(std::chrono::milliseconds(1500));
                cancel.store(true);
            });
        };
        auto r = runBenchmark(o);
        if (canceller.joinable()) canceller.join();
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY2(r->record.status == store::RunStatus::Cancelled, r->record.message.c_str());
        QVERIFY(QString::fromStdString(r->record.message).contains("cancelled during run"));
        auto st = store::RunStore::open(o.storePath);
        QVERIFY(st);
        auto stored = (*st)->getRun(r->record.id);
        QVERIFY(stored && stored->status == store::RunStatus::Cancelled);
    }

    void ctrlCCancelsTheCliBenchmark() {
        if (!haveSimK230())
            QSKIP("sim-k230 needs clang-19 (or riscv64 g++) and qemu-riscv64-static: run scripts/install-deps.sh");
        const QString db = m_tmp.path() + "/cli-runs.db";
        const QString work = m_tmp.path() + "/cli-work";
        QProcess cli;
        cli.start(test::cliPath(), {"bench", digits(), "--board", "sim-k230", "--lib", "portable", "--iterations",
                                    "100000", "--warmup", "0", "--db", db, "--work-dir", work});
        QVERIFY(cli.waitForStarted());
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT(
            (err += cli.readAllStandardError()).contains("] run\n") || cli.state() == QProcess::NotRunning, 1500000);
        QVERIFY2(cli.state() == QProcess::Running, err.constData());
        // Interrupt only once run_export runs on the board (under qemu-user here).
        const auto runExportAlive = [] {
            QProcess pgrep;
            pgrep.start("pgrep", {"-f", "run_export --warmup 0 --iterations 100000"});
            return pgrep.waitForFinished() && !pgrep.readAllStandardOutput().trimmed().isEmpty();
        };
        QTRY_VERIFY_WITH_TIMEOUT(runExportAlive() || cli.state() == QProcess::NotRunning, 120000);
        QVERIFY2(cli.state() == QProcess::Running, (err + cli.readAllStandardError()).constData());
        ::kill(static_cast<pid_t>(cli.processId()), SIGINT);
        QVERIFY(cli.waitForFinished(120000));
        err += cli.readAllStandardError();
        const QByteArray out = cli.readAllStandardOutput();
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 5);
        QVERIFY2(out.contains("CANCELLED") && out.contains("cancelled during run"), (out + err).constData());
        // Stored as cancelled; nothing of it still runs.
        auto st = store::RunStore::open(db);
        QVERIFY(st);
        auto runs = (*st)->listRuns({});
        QVERIFY(runs && runs->size() == 1);
        QVERIFY(runs->front().status == store::RunStatus::Cancelled);
        QProcess pgrep;
        pgrep.start("pgrep", {"-f", "run_export --warmup 0 --iterations 100000"});
        QVERIFY(pgrep.waitForFinished());
        QVERIFY2(pgrep.readAllStandardOutput().trimmed().isEmpty(), "a process of the cancelled run is still alive");
    }
};

QTEST_GUILESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"

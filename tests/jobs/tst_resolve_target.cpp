// One target, resolved once (jobs::resolveTarget): the default board, --arch alone, an
// architecture or compiler that does not fit, the options the plan and the export derive from
// it, the request a stored run and a benchmark make, and the pipeline's resolve step.
#include "export/deployment_target.h"
#include "jobs/pipeline.h"
#include "jobs/resolve_target.h"
#include "support/test_paths.h"
#include "xnnpack/xnnpack_resolve.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

class TestResolveTarget : public QObject {
    Q_OBJECT
    QTemporaryDir m_config; // no user boards

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", m_config.path().toUtf8());
    }

    void defaultsToTheHost() {
        auto t = jobs::resolveTarget({});
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(t->board.id, QStringLiteral("host"));
        QCOMPARE(QString::fromStdString(t->arch), t->board.arch);
        QCOMPARE(t->library, std::string("portable"));
        QCOMPARE(t->recipe, std::string("default"));
        QVERIFY(!t->toolchain.isCross());
    }

    void boardsAndArchitectures_data() {
        QTest::addColumn<QString>("board");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("expected"); // board id, or the start of the error
        QTest::newRow("board") << "sim-k230"
                               << ""
                               << "sim-k230";
        QTest::newRow("board and its arch") << "sim-k230"
                                            << "riscv64"
                                            << "sim-k230";
        QTest::newRow("arch alone: a simulated board") << ""
                                                       << "riscv64"
                                                       << "sim-k1";
        QTest::newRow("arch alone: aarch64") << ""
                                             << "aarch64"
                                             << "sim-rpi5";
        QTest::newRow("arch of another board") << "sim-k230"
                                               << "aarch64"
                                               << "error: --arch aarch64 does not match board 'sim-k230'";
        QTest::newRow("unknown arch") << ""
                                      << "mips"
                                      << "error: --arch 'mips'";
        QTest::newRow("unknown board") << "nope"
                                       << ""
                                       << "error: ";
    }

    void boardsAndArchitectures() {
        QFETCH(QString, board);
        QFETCH(QString, arch);
        QFETCH(QString, expected);
        jobs::TargetRequest r;
        r.board = board;
        r.arch = arch;
        auto t = jobs::resolveTarget(r);
        if (expected.startsWith("error: ")) {
            QVERIFY(!t);
            QCOMPARE(t.error().kind, ErrorKind::Usage);
            QVERIFY2(QString::fromStdString(t.error().message).startsWith(expected.mid(7)), t.error().message.c_str());
            return;
        }
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(t->board.id, expected);
    }

    void hostArchAloneIsTheHost() {
        jobs::TargetRequest r;
        r.arch = QString::fromStdString(exporter::hostArch());
        auto t = jobs::resolveTarget(r);
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(t->board.id, QStringLiteral("host"));
    }

    void compilerIsChecked() {
        jobs::TargetRequest r;
        r.board = "sim-k230";
        r.compiler = "gcc";
        auto t = jobs::resolveTarget(r);
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(t->toolchain.compiler, QStringLiteral("gcc"));
        r.compiler = "icc";
        auto bad = jobs::resolveTarget(r);
        QVERIFY(!bad);
        QCOMPARE(bad.error().kind, ErrorKind::Usage);
    }

    // The plan's and the export's options come from the target, XNNPACK's availability
    // included: the answer xnnpack::resolveXnnpackFor gives for the board.
    void optionsDeriveFromTheTarget() {
        jobs::TargetRequest r;
        r.board = "sim-k230";
        r.library = "xnnpack";
        r.opOverrides = {{"Conv", "portable"}};
        r.nodeOverrides = {{"fc", "portable"}};
        r.recipe = "cleanup";
        r.concatInPlace = exporter::ConcatInPlace::Off;
        r.threadsMax = 2;
        auto t = jobs::resolveTarget(r);
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        const bool xnnpack = xnnpack::resolveXnnpackFor(t->board).found();
        QCOMPARE(t->xnnpackAvailable(), xnnpack);
        const exporter::ExportOptions e = exporter::exportOptions(*t);
        QCOMPARE(e.board, std::string("sim-k230"));
        QCOMPARE(e.arch, std::string("riscv64"));
        QCOMPARE(QString::fromStdString(e.targetFlags), t->board.cflags.join(' '));
        QCOMPARE(e.toolchainFile, t->toolchain.file);
        QVERIFY(!e.toolchainFile.isEmpty());
        QCOMPARE(e.library, std::string("xnnpack"));
        QCOMPARE(e.recipe, std::string("cleanup"));
        QCOMPARE(e.threadsMax, 2);
        QCOMPARE(e.havePrebuiltXnnpack, xnnpack);
        QCOMPARE(e.xnnpack.kind, xnnpack ? e.xnnpack.kind : std::string("none"));
        const exporter::PlanOptions p = exporter::planOptions(*t);
        QCOMPARE(p.library, e.library);
        QCOMPARE(p.arch, e.arch);
        QCOMPARE(p.recipe, e.recipe);
        QCOMPARE(p.opOverrides, r.opOverrides);
        QCOMPARE(p.nodeOverrides, r.nodeOverrides);
        QCOMPARE(p.havePrebuiltXnnpack, xnnpack);
        QVERIFY(p.concatInPlace == exporter::ConcatInPlace::Off);
    }

    void requestsFromARunAndABenchmark() {
        store::RunRecord run;
        run.fingerprint.boardId = "sim-k1";
        run.fingerprint.kernelLibrary = "xnnpack";
        run.fingerprint.compiler = "gcc (riscv64-gcc)";
        jobs::TargetRequest r = jobs::targetRequest(run);
        QCOMPARE(r.board, QStringLiteral("sim-k1"));
        QCOMPARE(r.library, std::string("xnnpack"));
        QCOMPARE(r.compiler, QStringLiteral("gcc"));
        auto t = jobs::resolveTarget(r);
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(t->toolchain.compiler, QStringLiteral("gcc"));

        jobs::BenchOptions o;
        o.boardId = "sim-k230";
        o.library = "xnnpack";
        o.compiler = "clang";
        o.threadsMax = 3;
        o.recipe = "none";
        r = jobs::targetRequest(o);
        QCOMPARE(r.board, QStringLiteral("sim-k230"));
        QCOMPARE(r.library, std::string("xnnpack"));
        QCOMPARE(r.compiler, QStringLiteral("clang"));
        QCOMPARE(r.threadsMax, 3);
        QCOMPARE(r.recipe, std::string("none"));
    }

    // The pipeline's resolve step holds the target; its board and toolchain are the target's.
    void theResolveStepHoldsTheTarget() {
        jobs::PipelineState state;
        state.options.boardId = "sim-k230";
        state.options.compiler = "gcc";
        state.options.threadsMax = 4;
        const jobs::RecipeRun run = jobs::runRecipe({{"resolve", {}, jobs::resolveTargetStep}}, state, {});
        QVERIFY(!run.firstError);
        QVERIFY(state.target && state.board && state.toolchain);
        QCOMPARE(state.target->board.id, QStringLiteral("sim-k230"));
        QCOMPARE(state.toolchain->compiler, QStringLiteral("gcc"));
        QCOMPARE(state.target->threadsMax, 4);
        jobs::PipelineState bad;
        bad.options.compiler = "icc";
        QVERIFY(jobs::runRecipe({{"resolve", {}, jobs::resolveTargetStep}}, bad, {}).firstError);
    }
};

QTEST_GUILESS_MAIN(TestResolveTarget)
#include "tst_resolve_target.moc"

// The target panel: the board dialog refuses what the engine's parser refuses, overrides
// from the session change which library runs a node, and the memory plan chart holds the plan.
#include "charts/memory_chart.h"
#include "export/adaptation.h"
#include "export/deployment_plan.h"
#include "onnx/writer.h"
#include "support/graph_builder.h"
#include "session/studio_session.h"
#include "support/test_paths.h"
#include "xnnpack/xnnpack_resolve.h"
#include "targetpanel/board_dialog.h"
#include "targetpanel/target_panel.h"

#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QTest>

using namespace embark;

class TestTarget : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_config;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", m_config.path().toUtf8()); // user boards land here
    }

    void boardDialogValidates_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("problem"); // a fragment of the message, empty = valid
        QTest::newRow("valid copy") << ""
                                    << ""
                                    << "";
        QTest::newRow("upper-case id") << "id"
                                       << "My Board"
                                       << "Id";
        QTest::newRow("empty name") << "name"
                                    << ""
                                    << "name";
    }
    void boardDialogValidates() {
        QFETCH(QString, field);
        QFETCH(QString, text);
        QFETCH(QString, problem);
        auto board = targets::findBoard(QStringLiteral("sim-k230"));
        QVERIFY(board.ok());
        board->id = QStringLiteral("my-board");
        ui::BoardDialog dialog(*board);
        if (!field.isEmpty()) {
            auto* edit = dialog.findChildren<QLineEdit*>().at(field == "id" ? 0 : 1);
            edit->setText(text);
        }
        if (problem.isEmpty())
            QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
        else
            QVERIFY2(dialog.problem().contains(problem, Qt::CaseInsensitive), qPrintable(dialog.problem()));
    }

    void savedUserBoardAppearsInThePicker() {
        auto board = targets::findBoard(QStringLiteral("sim-k230"));
        QVERIFY(board.ok());
        board->id = QStringLiteral("sim-k230-mine");
        ui::BoardDialog dialog(*board);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        ui::StudioSession session;
        ui::TargetPanel panel(&session);
        QVERIFY(panel.boardPicker()->findData(QStringLiteral("sim-k230-mine")) >= 0);
        QCOMPARE(session.boardId(), QStringLiteral("sim-k230")); // the default stays
    }

    // The studio shows the export's plan: the memory plan of its session equals the export.json
    // of `embark-cli export` with the same library, byte offsets included; and a library whose
    // fusion patterns differ re-runs the passes, so the stages on screen follow.
    void sessionPlanIsTheExportPlan_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("library");
        const QString bundled = test::sourceDir() + "/resources/models/digits_cnn.onnx";
        QTest::newRow("digits portable") << bundled << "portable";
        QTest::newRow("digits xnnpack") << bundled << "xnnpack";
        const QStringList shared = test::sharedModelNames(); // every shared model, both libraries
        if (shared.isEmpty()) QTest::newRow("shared models") << QString("shared:") << "portable";
        for (const QString& name : shared)
            for (const char* lib : {"portable", "xnnpack"})
                QTest::newRow(qPrintable(QString("%1 %2").arg(name, lib))) << QString("shared:") + name << lib;
    }
    void sessionPlanIsTheExportPlan() {
        QFETCH(QString, model);
        QFETCH(QString, library);
        if (model.startsWith("shared:")) {
            EMBARK_REQUIRE_SHARED_MODELS();
            model = test::sharedModel(model.mid(7));
        }
        ui::StudioSession session;
        session.setBoard(QStringLiteral("host"));
        session.setLibrary(library);
        QVERIFY(session.openModel(model).ok());
        auto plan = session.deploymentPlan();
        QVERIFY2(plan, qPrintable(session.memoryPlanError()));
        QTemporaryDir out;
        QProcess p;
        p.start(test::cliPath(), {"export", model, "--lib", library, "-o", out.path() + "/e", "--force"});
        QVERIFY(p.waitForFinished(10 * 60 * 1000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QFile f(out.path() + "/e/export.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject e = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(exporter::memoryPlanJson(plan->memory), e["memory"].toObject());
        QCOMPARE(exporter::fusedBlocksJson(plan->fusedBlocks), e["fused_blocks"].toArray());
        QCOMPARE(session.memoryPlan()->arenaBytes, plan->memory.arenaBytes);
    }

    void libraryChangeRerunsTheFusion() {
        // Conv -> Sigmoid: the portable kernels fuse the Sigmoid, XNNPACK keeps it separate.
        QTemporaryDir dir;
        const QString path = dir.path() + "/conv_sigmoid.onnx";
        {
            test::GraphBuilder b("conv_sigmoid");
            auto* x = b.input("x", {1, 3, 8, 8});
            auto* y = b.op(ir::OpKind::Conv, {x, b.weights("w", {4, 3, 3, 3})},
                           {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "conv");
            b.output(b.op(ir::OpKind::Sigmoid, {y}, {}, "sigmoid"));
            QVERIFY(onnx::writeModel(b.build(), path.toStdString()).ok());
        }
        ui::StudioSession session;
        session.setBoard(QStringLiteral("host"));
        session.setLibrary(QStringLiteral("portable"));
        QVERIFY(session.openModel(path).ok());
        QCOMPARE(session.stageGraph(session.lastStage())->nodeCount(), size_t(1));
        QSignalSpy changed(&session, &ui::StudioSession::modelChanged);
        session.setLibrary(QStringLiteral("xnnpack"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(session.stageGraph(session.lastStage())->nodeCount(), size_t(2));
        QCOMPARE(session.deploymentPlan()->passes.graph.nodeCount(), size_t(2));
        session.setLibrary(QStringLiteral("portable"));
        QCOMPARE(session.stageGraph(session.lastStage())->nodeCount(), size_t(1));
    }

    // Opening a model builds its deployment plan once: the stages on screen are the plan's own
    // pass stages (no second pass run on the UI thread).
    void openingBuildsThePlanOnce() {
        ui::StudioSession session;
        session.setBoard(QStringLiteral("host"));
        QSignalSpy opened(&session, &ui::StudioSession::modelOpenFinished);
        session.openModelInBackground(test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 120000);
        QCOMPARE(opened.first().at(1).toString(), QString());
        auto plan = session.deploymentPlan();
        QVERIFY(plan);
        QCOMPARE(size_t(session.stageCount()), plan->passes.stages.size());
        for (int i = 0; i < session.stageCount(); ++i)
            QCOMPARE(session.stageGraph(i).get(), &plan->passes.stages[size_t(i)].graph);
    }

    // Edits of a big model re-plan on a worker thread: the call returns at once, the window
    // keeps its event loop, and the plan that arrives is the one a synchronous plan gives.
    void bigModelsPlanOffTheUiThread() {
        const QString model = test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx");
        ui::StudioSession session;
        session.setAsyncPlanNodes(1); // every model counts as big
        session.setBoard(QStringLiteral("host"));
        QVERIFY(session.openModel(model).ok());
        QSignalSpy planning(&session, &ui::StudioSession::planningChanged);
        QSignalSpy target(&session, &ui::StudioSession::targetChanged);
        session.setLibrary(QStringLiteral("xnnpack"));
        QVERIFY(session.isPlanning());
        QCOMPARE(target.count(), 0);
        session.setOpOverride(QStringLiteral("Relu"), QStringLiteral("portable")); // supersedes the first
        QTRY_VERIFY_WITH_TIMEOUT(!session.isPlanning(), 120000);
        QCOMPARE(planning.first().at(0).toBool(), true);
        QCOMPARE(planning.last().at(0).toBool(), false);
        QCOMPARE(target.count(), 1); // only the newest plan was taken in

        ui::StudioSession sync;
        sync.setBoard(QStringLiteral("host"));
        sync.setLibrary(QStringLiteral("xnnpack"));
        sync.setOpOverride(QStringLiteral("Relu"), QStringLiteral("portable"));
        QVERIFY(sync.openModel(model).ok());
        QCOMPARE(exporter::memoryPlanJson(session.deploymentPlan()->memory),
                 exporter::memoryPlanJson(sync.deploymentPlan()->memory));
        QCOMPARE(session.assignments().size(), sync.assignments().size());
        for (const auto& [node, a] : sync.assignments()) QCOMPARE(session.assignments().at(node).library, a.library);
    }

    void overridesChangeAssignments() {
        ui::StudioSession session;
        ui::TargetPanel panel(&session);
        QVERIFY(session.openModel(test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx")).ok());
        session.setBoard(QStringLiteral("host")); // xnnpack runs here without a prebuilt tree
        session.setLibrary(QStringLiteral("xnnpack"));
        const auto fused = session.stageGraph(session.lastStage());
        const ir::Node* conv = nullptr;
        for (const ir::Node* n : fused->nodes())
            if (n->op == ir::OpKind::Conv) conv = n;
        QVERIFY(conv);
        QCOMPARE(session.assignments().at(conv->name).library, QStringLiteral("xnnpack"));
        session.setNodeOverride(QString::fromStdString(conv->name), QStringLiteral("portable"));
        QCOMPARE(session.assignments().at(conv->name).library, QStringLiteral("portable"));
        QCOMPARE(panel.overrides()->topLevelItemCount(), 1);
        session.setNodeOverride(QString::fromStdString(conv->name), {});
        session.setOpOverride(QStringLiteral("Conv"), QStringLiteral("portable"));
        for (const ir::Node* n : fused->nodes())
            if (n->op == ir::OpKind::Conv)
                QCOMPARE(session.assignments().at(n->name).library, QStringLiteral("portable"));
        QVERIFY(panel.memoryChart()->hasData());
        QCOMPARE(panel.memoryChart()->timeline().arenaBytes, qint64(session.memoryPlan()->arenaBytes));
    }

    // The studio shows what exporter::adapt() decides for the board's architecture, errors too.
    void assignmentsAreTheExportsAdaptation() {
        ui::StudioSession session;
        QVERIFY(session.openModel(test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx")).ok());
        session.setLibrary(QStringLiteral("xnnpack"));
        session.setBoard(QStringLiteral("sim-k230"));
        if (!xnnpack::haveXnnpackFor("riscv64")) { // riscv64 needs a tree (XNNPACK_ROOT or the cache)
            QVERIFY(session.assignments().empty());
            QVERIFY2(session.assignmentError().contains(QStringLiteral("XNNPACK_ROOT")),
                     qPrintable(session.assignmentError()));
        }
        session.setBoard(QStringLiteral("host"));
        QVERIFY2(session.assignmentError().isEmpty(), qPrintable(session.assignmentError()));
        exporter::AdaptationOptions options;
        options.library = "xnnpack";
        options.arch = session.board()->arch.toStdString();
        auto adapted = exporter::adapt(*session.stageGraph(session.lastStage()), options);
        QVERIFY(adapted.ok());
        int compared = 0;
        for (const auto& [name, a] : adapted->nodes) {
            if (a.rule == exporter::AssignmentRule::Conversion) continue;
            QCOMPARE(session.assignments().at(name).library, QString::fromStdString(a.library));
            QCOMPARE(session.assignments().at(name).why, QString::fromStdString(a.reason));
            ++compared;
        }
        QCOMPARE(compared, int(session.assignments().size()));
    }
};

QTEST_MAIN(TestTarget)
#include "tst_target.moc"

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
#include "mainwindow/mainwindow.h"
#include "jobs/job_queue.h"
#include "jobs/studio_jobs.h"
#include "graph/graph_colors.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/node_item.h"
#include "graph/properties_panel.h"
#include "stages/stages_view.h"
#include "jobs/measure_libraries.h"
#include "jobs/resolve_target.h"
#include "export/kernel_libraries.h"
#include "export/measured_choice.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QScopeGuard>
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

    // Issue 32: the target panel offers the library "auto"; picking it measures each node on
    // the board (a job; here every measurement comes from a cache written beforehand, as a
    // second model with the same layers would find it), the fused graph is coloured by the
    // library measured fastest per node, and Properties shows the numbers behind the choice.
    void autoLibraryIsChosenByMeasurement() {
        QTemporaryDir dir;
        const QString cachePath = dir.path() + QStringLiteral("/lib-auto.json");
        qputenv("EMBARK_LIB_AUTO_CACHE", cachePath.toUtf8());
        const auto unset = qScopeGuard([] { qunsetenv("EMBARK_LIB_AUTO_CACHE"); });
        ui::MainWindow w;
        ui::StudioSession& session = *w.session();
        if (!session.boards().find(QStringLiteral("host"))) QSKIP("no host board");
        session.setBoard(QStringLiteral("host"));
        session.setLibrary(QStringLiteral("portable"));
        QVERIFY(w.openModel(test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"), true));
        QVERIFY(session.deploymentPlan());
        QComboBox* picker = w.target()->libraryPicker();
        QVERIFY(picker->findText(QStringLiteral("auto")) >= 0);

        // The cache: portable 2 µs a node; XNNPACK (where the host links one) 0.5 µs on each
        // Conv, 8 µs on everything else, so the Convs move and nothing else does.
        jobs::TargetRequest request;
        request.board = QStringLiteral("host");
        request.library = "auto";
        auto target = jobs::resolveTarget(request);
        QVERIFY2(target.ok(), target.ok() ? "" : target.error().message.c_str());
        const bool xnnpack =
            target->xnnpackAvailable() && exporter::resolveKernelLibrary("xnnpack", target->arch, true).ok();
        const ir::Graph& fused = session.deploymentPlan()->passes.graph;
        QJsonObject entries;
        QStringList convs;
        for (const ir::Node* n : fused.nodes()) {
            const std::string sig = exporter::nodeSignature(*n);
            entries[jobs::measurementCacheKey(*target, "portable", sig)] =
                QJsonObject{{"cost", 2000.0}, {"unit", "ns"}, {"signature", QString::fromStdString(sig)}};
            const bool conv = std::string(ir::opName(n->op)).find("Conv") != std::string::npos;
            if (xnnpack && exporter::findKernelLibrary("xnnpack")->whyUnsupported(*n).empty()) {
                entries[jobs::measurementCacheKey(*target, "xnnpack", sig)] = QJsonObject{
                    {"cost", conv ? 500.0 : 8000.0}, {"unit", "ns"}, {"signature", QString::fromStdString(sig)}};
                if (conv) convs << QString::fromStdString(n->name);
            }
        }
        {
            QFile cache(cachePath);
            QVERIFY(cache.open(QIODevice::WriteOnly));
            cache.write(QJsonDocument(QJsonObject{{"format", "embark-lib-auto-2"}, {"entries", entries}}).toJson());
        }

        picker->setCurrentText(QStringLiteral("auto")); // as the user picks it: an undoable edit
        QCOMPARE(session.library(), QStringLiteral("auto"));
        QVERIFY(w.jobs()->isMeasuring());
        QVERIFY(w.target()->autoLine()->isVisibleTo(w.target()));
        QVERIFY(w.jobs()->queue()->waitForIdle(60000));
        QApplication::processEvents();
        auto choice = session.measuredChoice();
        QVERIFY2(choice, qPrintable(w.target()->autoLine()->text()));
        QCOMPARE(choice->measuredCount, 0); // all from the cache: nothing was built
        QVERIFY(choice->cachedCount >= int(fused.nodes().size()));
        QCOMPARE(session.deploymentPlan()->measured, choice); // the plan an export writes records it
        QVERIFY2(w.target()->autoLine()->text().contains(QStringLiteral("cached")),
                 qPrintable(w.target()->autoLine()->text()));

        // The fused pane: each node in its library's colour, the Convs on XNNPACK.
        ui::GraphScene* scene = w.stages()->afterPanel()->scene();
        QVERIFY(!convs.isEmpty() || !xnnpack);
        for (const ir::Node* n : session.deploymentPlan()->passes.graph.nodes()) {
            const QString name = QString::fromStdString(n->name);
            const auto a = session.assignments().find(n->name);
            QVERIFY2(a != session.assignments().end(), qPrintable(name));
            const QString expected = convs.contains(name) ? QStringLiteral("xnnpack") : QStringLiteral("portable");
            QCOMPARE(a->second.library, expected);
            if (ui::NodeItem* item = scene->nodeItem(name))
                QCOMPARE(item->fill(), ui::libraryColor(expected, QApplication::palette()));
        }

        // Properties: the candidates with their costs and where they came from, the chosen one.
        const QString node = QString::fromStdString(fused.nodes().front()->name);
        session.select(session.lastStage(), node);
        QApplication::processEvents();
        QTreeWidget* tree = w.properties()->tree();
        QTreeWidgetItem* measurement = nullptr;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            if (tree->topLevelItem(i)->text(0).startsWith(QStringLiteral("Measurement")))
                measurement = tree->topLevelItem(i);
        QVERIFY(measurement);
        QStringList rows;
        for (int i = 0; i < measurement->childCount(); ++i)
            rows << measurement->child(i)->text(0) + QLatin1Char('=') + measurement->child(i)->text(1);
        const QString text = rows.join(QLatin1Char('\n'));
        QVERIFY2(text.contains(QStringLiteral("portable=2.0 \u00b5s (cached)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Chosen=")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("wall clock")), qPrintable(text));

        // Back to one library: the measurement and its line go.
        picker->setCurrentText(QStringLiteral("portable"));
        QVERIFY(!session.measuredChoice());
        QVERIFY(!w.target()->autoLine()->isVisibleTo(w.target()));
        QVERIFY(!session.deploymentPlan()->measured);
    }
};

QTEST_MAIN(TestTarget)
#include "tst_target.moc"

// The studio's undo stack: board, library, node- and op-override edits made through the target
// panel (or pushed as commands) undo back to the same plan and views, and redo to the edited one.
#include "mainwindow/mainwindow.h"
#include "onnx/writer.h"
#include "session/session_commands.h"
#include "session/studio_session.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"
#include "targetpanel/target_panel.h"

#include "charts/memory_chart.h"

#include <QAction>
#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

using namespace embark;

namespace {

QString digits() { return test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"); }

// Everything an edit can change, as one text so a failing comparison shows the difference:
// the request, the assignments, the deployment plan (library per node, arena) and the views.
QString planState(const ui::StudioSession& s, const ui::TargetPanel& panel) {
    QStringList out;
    out << "board " + s.boardId() << "library " + s.library();
    for (const auto& [node, lib] : s.request().nodeOverrides)
        out << QString::fromStdString("node override " + node + " " + lib);
    for (const auto& [op, lib] : s.request().opOverrides)
        out << QString::fromStdString("op override " + op + " " + lib);
    for (const auto& [node, a] : s.assignments()) out << QString::fromStdString("assigned " + node + " ") + a.library;
    out << "assignment error " + s.assignmentError();
    if (auto plan = s.deploymentPlan()) {
        out << QStringLiteral("arena %1").arg(plan->memory.arenaBytes);
        for (const auto& [node, a] : plan->adaptation.nodes)
            out << QString::fromStdString("plan " + node + " " + a.library);
    } else {
        out << "no plan";
    }
    out << QStringLiteral("fused nodes %1").arg(s.stageGraph(s.lastStage())->nodeCount());
    out << "picker " + panel.boardPicker()->currentData().toString() + " " + panel.libraryPicker()->currentText();
    out << QStringLiteral("override rows %1").arg(panel.overrides()->topLevelItemCount());
    out << QStringLiteral("chart arena %1")
               .arg(panel.memoryChart()->hasData() ? panel.memoryChart()->timeline().arenaBytes : -1);
    return out.join('\n');
}

QString firstConv(const ui::StudioSession& s) {
    for (const ir::Node* n : s.stageGraph(s.lastStage())->nodes())
        if (n->op == ir::OpKind::Conv) return QString::fromStdString(n->name);
    return {};
}

QString planLibraryOf(const ui::StudioSession& s, const QString& node) {
    auto plan = s.deploymentPlan();
    if (!plan) return {};
    auto it = plan->adaptation.nodes.find(node.toStdString());
    return it == plan->adaptation.nodes.end() ? QString() : QString::fromStdString(it->second.library);
}

// Conv -> Sigmoid: the portable kernels fuse the Sigmoid, XNNPACK keeps it apart.
QString writeConvSigmoid(const QString& dir) {
    const QString path = dir + "/conv_sigmoid.onnx";
    test::GraphBuilder b("conv_sigmoid");
    auto* x = b.input("x", {1, 3, 8, 8});
    auto* y =
        b.op(ir::OpKind::Conv, {x, b.weights("w", {4, 3, 3, 3})}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "conv");
    b.output(b.op(ir::OpKind::Sigmoid, {y}, {}, "sigmoid"));
    return onnx::writeModel(b.build(), path.toStdString()).ok() ? path : QString();
}

QPushButton* button(QWidget* parent, const QString& text) {
    for (auto* b : parent->findChildren<QPushButton*>())
        if (b->text() == text) return b;
    return nullptr;
}

} // namespace

class TestUndo : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_config;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", m_config.path().toUtf8());
    }

    // One edit of each kind on digits_cnn (host board, XNNPACK, which runs here without a tree).
    void editUndoesAndRedoes_data() {
        QTest::addColumn<QString>("edit");
        QTest::newRow("board picker") << "board";
        QTest::newRow("library picker") << "library";
        QTest::newRow("node override") << "node";
        QTest::newRow("op override") << "op";
        QTest::newRow("remove node override button") << "remove node";
        QTest::newRow("remove op override button") << "remove op";
    }
    void editUndoesAndRedoes() {
        QFETCH(QString, edit);
        ui::StudioSession session;
        ui::TargetPanel panel(&session);
        session.setBoard(QStringLiteral("host"));
        session.setLibrary(QStringLiteral("xnnpack"));
        QVERIFY(session.openModel(digits()).ok());
        const QString conv = firstConv(session);
        QVERIFY(!conv.isEmpty());
        QCOMPARE(planLibraryOf(session, conv), QStringLiteral("xnnpack"));
        // The starting point of the removals is set without the stack: only the removal is undone.
        if (edit == "remove node") session.setNodeOverride(conv, QStringLiteral("portable"));
        if (edit == "remove op") session.setOpOverride(QStringLiteral("Conv"), QStringLiteral("portable"));
        QCOMPARE(session.undoStack()->count(), 0);
        const QString before = planState(session, panel);

        if (edit == "board") {
            panel.boardPicker()->setCurrentIndex(panel.boardPicker()->findData(QStringLiteral("sim-rpi5")));
            QCOMPARE(session.boardId(), QStringLiteral("sim-rpi5"));
        } else if (edit == "library") {
            panel.libraryPicker()->setCurrentText(QStringLiteral("portable"));
        } else if (edit == "node") {
            QVERIFY(ui::pushEdit(&session, std::make_unique<ui::SetNodeOverrideCommand>(&session, conv, "portable")));
        } else if (edit == "op") {
            QVERIFY(ui::pushEdit(&session, std::make_unique<ui::SetOpOverrideCommand>(&session, "Conv", "portable")));
        } else {
            QCOMPARE(panel.overrides()->topLevelItemCount(), 1);
            panel.overrides()->setCurrentItem(panel.overrides()->topLevelItem(0));
            QPushButton* remove = button(&panel, QStringLiteral("Remove override"));
            QVERIFY(remove);
            remove->click();
            QCOMPARE(panel.overrides()->topLevelItemCount(), 0);
        }
        QCOMPARE(session.undoStack()->count(), 1);
        const QString after = planState(session, panel);
        QVERIFY2(after != before, qPrintable(after));
        if (edit != "board") { // the plan itself runs the conv elsewhere
            const QString expected = edit.startsWith("remove") ? "xnnpack" : "portable";
            QCOMPARE(planLibraryOf(session, conv), expected);
        }

        session.undoStack()->undo();
        QCOMPARE(planState(session, panel), before);
        QCOMPARE(session.undoStack()->count(), 1); // the views' refresh pushed nothing
        QVERIFY(session.undoStack()->canRedo());
        session.undoStack()->redo();
        QCOMPARE(planState(session, panel), after);
        session.undoStack()->undo();
        QCOMPARE(planState(session, panel), before);
    }

    // Several edits undo in reverse order, each back to the plan before it.
    void editsUndoInReverseOrder() {
        ui::StudioSession session;
        ui::TargetPanel panel(&session);
        session.setBoard(QStringLiteral("host"));
        session.setLibrary(QStringLiteral("portable"));
        QVERIFY(session.openModel(digits()).ok());
        const QString conv = firstConv(session);
        QStringList states{planState(session, panel)};
        panel.libraryPicker()->setCurrentText(QStringLiteral("xnnpack"));
        states << planState(session, panel);
        QVERIFY(ui::pushEdit(&session, std::make_unique<ui::SetNodeOverrideCommand>(&session, conv, "portable")));
        states << planState(session, panel);
        QVERIFY(ui::pushEdit(&session, std::make_unique<ui::SetOpOverrideCommand>(&session, "MaxPool", "portable")));
        states << planState(session, panel);
        panel.boardPicker()->setCurrentIndex(panel.boardPicker()->findData(QStringLiteral("sim-k230")));
        states << planState(session, panel);
        QCOMPARE(session.undoStack()->count(), 4);
        QCOMPARE(session.undoStack()->undoText(), QStringLiteral("Set board to sim-k230"));
        for (int i = states.size() - 2; i >= 0; --i) {
            session.undoStack()->undo();
            QCOMPARE(planState(session, panel), states[i]);
        }
        QVERIFY(!session.undoStack()->canUndo());
        for (int i = 1; i < states.size(); ++i) {
            session.undoStack()->redo();
            QCOMPARE(planState(session, panel), states[i]);
        }
    }

    // A pick that changes nothing (the views re-selecting the session's value during an undo,
    // or the same library again) pushes nothing, so the redo history survives it.
    void noOpEditKeepsTheRedoHistory() {
        ui::StudioSession session;
        ui::TargetPanel panel(&session);
        session.setBoard(QStringLiteral("host"));
        session.setLibrary(QStringLiteral("portable"));
        QVERIFY(session.openModel(digits()).ok());
        panel.libraryPicker()->setCurrentText(QStringLiteral("xnnpack"));
        session.undoStack()->undo();
        QCOMPARE(session.library(), QStringLiteral("portable"));
        QVERIFY(!ui::pushEdit(&session, std::make_unique<ui::SetLibraryCommand>(&session, "portable")));
        QVERIFY(!ui::pushEdit(&session, std::make_unique<ui::SetBoardCommand>(&session, "no-such-board")));
        QVERIFY(
            !ui::pushEdit(&session, std::make_unique<ui::SetNodeOverrideCommand>(&session, firstConv(session), "")));
        QVERIFY(session.undoStack()->canRedo());
        QCOMPARE(session.undoStack()->redoText(), QStringLiteral("Set library to xnnpack"));
    }

    // A library whose fusion patterns differ re-runs the passes; undoing it brings back the
    // stages (and says so with modelChanged), redoing it the other ones.
    void undoOfALibraryChangeRestoresTheStages() {
        QTemporaryDir dir;
        const QString path = writeConvSigmoid(dir.path());
        QVERIFY(!path.isEmpty());
        ui::StudioSession session;
        session.setBoard(QStringLiteral("host"));
        session.setLibrary(QStringLiteral("portable"));
        QVERIFY(session.openModel(path).ok());
        QCOMPARE(session.stageGraph(session.lastStage())->nodeCount(), size_t(1));
        const qint64 arena = qint64(session.deploymentPlan()->memory.arenaBytes);
        QSignalSpy changed(&session, &ui::StudioSession::modelChanged);
        QVERIFY(ui::pushEdit(&session, std::make_unique<ui::SetLibraryCommand>(&session, "xnnpack")));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(session.stageGraph(session.lastStage())->nodeCount(), size_t(2));
        const qint64 xnnpackArena = qint64(session.deploymentPlan()->memory.arenaBytes);
        session.undoStack()->undo();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(session.library(), QStringLiteral("portable"));
        QCOMPARE(session.stageGraph(session.lastStage())->nodeCount(), size_t(1));
        QCOMPARE(session.deploymentPlan()->passes.graph.nodeCount(), size_t(1));
        QCOMPARE(qint64(session.deploymentPlan()->memory.arenaBytes), arena);
        QCOMPARE(planLibraryOf(session, "conv"), QStringLiteral("portable"));
        session.undoStack()->redo();
        QCOMPARE(changed.count(), 3);
        QCOMPARE(session.stageGraph(session.lastStage())->nodeCount(), size_t(2));
        QCOMPARE(qint64(session.deploymentPlan()->memory.arenaBytes), xnnpackArena);
    }

    // The Edit menu's actions name the edit, carry the standard shortcuts and undo through the
    // window; opening another model empties the stack (its edits named the old model's nodes).
    void editMenuAndOpeningAnotherModel() {
        QTemporaryDir dir;
        const QString other = writeConvSigmoid(dir.path());
        QVERIFY(!other.isEmpty());
        ui::MainWindow window;
        QVERIFY(window.openModel(digits(), true));
        window.session()->setBoard(QStringLiteral("host"));
        window.session()->setLibrary(QStringLiteral("portable"));
        QAction* undo = nullptr;
        QAction* redo = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu() && menu->text() == QStringLiteral("&Edit"))
                for (QAction* a : menu->menu()->actions()) {
                    if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_Z)) undo = a;
                    if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)) redo = a;
                }
        QVERIFY(undo && redo);
        QVERIFY(!undo->isEnabled());
        window.target()->libraryPicker()->setCurrentText(QStringLiteral("xnnpack"));
        QCOMPARE(undo->text(), QStringLiteral("Undo Set library to xnnpack"));
        QVERIFY(undo->isEnabled());
        undo->trigger();
        QCOMPARE(window.session()->library(), QStringLiteral("portable"));
        QCOMPARE(window.target()->libraryPicker()->currentText(), QStringLiteral("portable"));
        QCOMPARE(redo->text(), QStringLiteral("Redo Set library to xnnpack"));
        redo->trigger();
        QCOMPARE(window.session()->library(), QStringLiteral("xnnpack"));

        const QString conv = firstConv(*window.session());
        QVERIFY(ui::pushEdit(window.session(),
                             std::make_unique<ui::SetNodeOverrideCommand>(window.session(), conv, "portable")));
        QCOMPARE(undo->text(), QStringLiteral("Undo Run node %1 on portable").arg(conv));
        QCOMPARE(window.session()->undoStack()->count(), 2);
        QVERIFY(window.openModel(other, true));
        QCOMPARE(window.session()->undoStack()->count(), 0);
        QVERIFY(!undo->isEnabled());
        QVERIFY(!redo->isEnabled());
        QCOMPARE(window.session()->library(), QStringLiteral("xnnpack")); // the target stays
    }
};

QTEST_MAIN(TestUndo)
#include "tst_undo.moc"

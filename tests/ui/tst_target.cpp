// The target panel: the board dialog refuses what the engine's parser refuses, overrides
// from the session change which library runs a node, and the memory plan chart holds the plan.
#include "charts/memory_chart.h"
#include "export/adaptation.h"
#include "session/studio_session.h"
#include "support/test_paths.h"
#include "xnnpack/xnnpack_resolve.h"
#include "target/board_dialog.h"
#include "target/target_panel.h"

#include <QComboBox>
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
        QTest::newRow("valid copy") << "" << "" << "";
        QTest::newRow("upper-case id") << "id" << "My Board" << "Id";
        QTest::newRow("empty name") << "name" << "" << "name";
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
        if (problem.isEmpty()) QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
        else QVERIFY2(dialog.problem().contains(problem, Qt::CaseInsensitive), qPrintable(dialog.problem()));
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
            if (n->op == ir::OpKind::Conv) QCOMPARE(session.assignments().at(n->name).library, QStringLiteral("portable"));
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
            QVERIFY2(session.assignmentError().contains(QStringLiteral("XNNPACK_ROOT")), qPrintable(session.assignmentError()));
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

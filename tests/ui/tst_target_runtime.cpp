// The target panel's runtime picker (issue 17): Embark's export or the board's ONNX Runtime,
// offered only on a board whose file says where ONNX Runtime lives; the session's runtime is
// what a benchmark job runs; the board dialog keeps a board's "onnxruntime" object.
#include "session/studio_session.h"
#include "target/board_dialog.h"
#include "target/target_panel.h"

#include <QComboBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

class TestTargetRuntime : public QObject {
    Q_OBJECT
    QTemporaryDir m_config;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", m_config.path().toUtf8());
    }

    void pickerFollowsTheBoard() {
        ui::StudioSession session;
        ui::TargetPanel panel(&session);
        QComboBox* runtime = panel.runtimePicker();
        QCOMPARE(runtime->count(), 2);
        session.setBoard(QStringLiteral("sim-k230")); // no ONNX Runtime there
        QVERIFY(!runtime->isEnabled());
        QCOMPARE(runtime->currentData().toString(), QStringLiteral("export"));
        QCOMPARE(session.runtime(), QStringLiteral("export"));

        session.setBoard(QStringLiteral("host"));
        QVERIFY(runtime->isEnabled());
        QVERIFY(runtime->toolTip().contains(QStringLiteral("onnxruntime-node")));
        runtime->setCurrentIndex(runtime->findData(QStringLiteral("onnxruntime")));
        QCOMPARE(session.runtime(), QStringLiteral("onnxruntime"));
        QVERIFY(!panel.libraryPicker()->isEnabled()); // the kernel library is an export's

        // A board without ONNX Runtime runs exports; back on the host the choice returns.
        session.setBoard(QStringLiteral("sim-k230"));
        QCOMPARE(session.runtime(), QStringLiteral("export"));
        QCOMPARE(runtime->currentData().toString(), QStringLiteral("export"));
        QVERIFY(panel.libraryPicker()->isEnabled());
        session.setBoard(QStringLiteral("spacemit-k1"));
        QCOMPARE(session.runtime(), QStringLiteral("onnxruntime"));
        QVERIFY(runtime->toolTip().contains(QStringLiteral("SpacemiT-ORT")));
        session.setRuntime(QStringLiteral("tvm")); // not a runtime: ignored
        QCOMPARE(session.runtime(), QStringLiteral("onnxruntime"));
    }

    void boardDialogKeepsOnnxRuntime() {
        auto k1 = targets::findBoard(QStringLiteral("spacemit-k1"));
        QVERIFY(k1.ok() && k1->onnxruntime);
        k1->id = QStringLiteral("my-k1");
        ui::BoardDialog dialog(*k1);
        auto edited = dialog.board();
        QVERIFY2(edited.ok(), edited.ok() ? "" : edited.error().message.c_str());
        QVERIFY(edited->onnxruntime);
        QCOMPARE(edited->onnxruntime->root, k1->onnxruntime->root);
        QCOMPARE(edited->onnxruntime->ep, QStringLiteral("spacemit"));
    }
};

QTEST_MAIN(TestTargetRuntime)
#include "tst_target_runtime.moc"

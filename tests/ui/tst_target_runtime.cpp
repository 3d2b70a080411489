// The target panel's runtime picker (issue 17): Embark's export or the board's ONNX Runtime,
// offered only on a board whose file says where ONNX Runtime lives; the session's runtime is
// what a benchmark job runs; the board dialog keeps a board's "onnxruntime" object.
#include "session/studio_session.h"
#include "targetpanel/board_dialog.h"
#include "targetpanel/ep_options_dialog.h"
#include "targetpanel/target_panel.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
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

    // One typed field per option of SpacemiT's guide; the result is what --ep-option takes.
    void epOptionsDialog() {
        ui::EpOptionsDialog dialog(
            {QStringLiteral("DUMP_SUBGRAPHS=1"), QStringLiteral("SPACEMIT_EP_DENSE_ACCURACY_LEVEL=2")}, 1);
        QCOMPARE(dialog.options(), (QStringList{QStringLiteral("SPACEMIT_EP_DUMP_SUBGRAPHS=1"),
                                                QStringLiteral("SPACEMIT_EP_DENSE_ACCURACY_LEVEL=2")}));
        QVERIFY(dialog.problem().isEmpty());
        auto* threads = qobject_cast<QSpinBox*>(dialog.field(QStringLiteral("SPACEMIT_EP_INTRA_THREAD_NUM")));
        auto* affinity = qobject_cast<QLineEdit*>(dialog.field(QStringLiteral("SPACEMIT_EP_INTRA_THREAD_AFFINITY")));
        auto* dumps = qobject_cast<QComboBox*>(dialog.field(QStringLiteral("SPACEMIT_EP_DUMP_TENSORS")));
        QVERIFY(threads && affinity && dumps);
        QVERIFY(qobject_cast<QSpinBox*>(dialog.field(QStringLiteral("SPACEMIT_EP_INTER_THREAD_NUM"))));
        QVERIFY(qobject_cast<QLineEdit*>(dialog.field(QStringLiteral("SPACEMIT_EP_DISABLE_OP_TYPE_FILTER"))));
        QPushButton* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        // An affinity naming fewer CPUs than the EP's threads is refused, naming both.
        threads->setValue(4);
        affinity->setText(QStringLiteral("0,1"));
        QVERIFY2(dialog.problem().contains(QStringLiteral("names 2 CPU(s) but the EP runs 4 thread(s)")),
                 qPrintable(dialog.problem()));
        QVERIFY(!ok->isEnabled());
        affinity->setText(QStringLiteral("0,1,2,3"));
        QVERIFY(dialog.problem().isEmpty());
        QVERIFY(ok->isEnabled());
        dumps->setCurrentIndex(dumps->findData(QStringLiteral("1")));
        QVERIFY(dialog.options().contains(QStringLiteral("SPACEMIT_EP_INTRA_THREAD_AFFINITY=0,1,2,3")));
        QVERIFY(dialog.options().contains(QStringLiteral("SPACEMIT_EP_INTRA_THREAD_NUM=4")));
        QVERIFY(dialog.options().contains(QStringLiteral("SPACEMIT_EP_DUMP_TENSORS=1")));
        threads->setValue(threads->minimum()); // back to "(default)"
        QVERIFY(!dialog.options().join(' ').contains(QStringLiteral("INTRA_THREAD_NUM")));

        // The panel offers the dialog on a SpacemiT board running ONNX Runtime only.
        ui::StudioSession session;
        ui::TargetPanel panel(&session);
        session.setBoard(QStringLiteral("host"));
        session.setRuntime(QStringLiteral("onnxruntime"));
        QVERIFY(panel.epOptionsButton()->isHidden());
        session.setBoard(QStringLiteral("spacemit-k1"));
        QVERIFY(!panel.epOptionsButton()->isHidden());
        session.setEpOptions({QStringLiteral("SPACEMIT_EP_DUMP_SUBGRAPHS=1")});
        QCOMPARE(session.epOptions(), QStringList{QStringLiteral("SPACEMIT_EP_DUMP_SUBGRAPHS=1")});
        session.setRuntime(QStringLiteral("export"));
        QVERIFY(panel.epOptionsButton()->isHidden());
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

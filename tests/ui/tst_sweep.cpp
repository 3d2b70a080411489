// The studio's sweep (issue 35): Run > Sweep... asks for models, a board pattern, libraries
// (auto included) and int8 cells, refusing what runSweep would; the sweep runs as one job of
// the Jobs dock (progress per cell, cancelled as a whole) on the same core as embark-cli sweep;
// its window shows the table and chart with the best library per board highlighted, and
// every cell is a stored run the Run history lists. Two cells on two simulated K230 boards of
// one target (one build, run twice under qemu).
#include "history/run_history_panel.h"
#include "jobs/studio_jobs.h"
#include "mainwindow/mainwindow.h"
#include "support/test_paths.h"
#include "sweep/studio_sweep.h"
#include "sweep/sweep_dialog.h"
#include "sweep/sweep_view.h"

#include "store/run_store.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

class TestSweepStudio : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    QString model() const { return test::sourceDir() + "/resources/models/digits_cnn.onnx"; }

    static bool simK230Tools() {
        return !QStandardPaths::findExecutable("qemu-riscv64-static").isEmpty() &&
               !QStandardPaths::findExecutable("riscv64-linux-gnu-g++").isEmpty();
    }

    jobs::SweepOptions twoCells(const QString& name) const {
        jobs::SweepOptions o;
        o.models = {model()};
        o.boardPatterns = {"sim-k230", "sim-k230-twin"};
        o.libraries = {"portable"};
        o.base.iterations = 2;
        o.base.warmup = 0;
        o.base.workDir = m_tmp.path() + "/work-" + name;
        o.base.storePath = m_tmp.path() + "/runs.db";
        return o;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("EmbarkSweepStudioTest"));
        QVERIFY(QDir().mkpath(m_tmp.path() + "/config/boards"));
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());
        // A second simulated K230: the same target under another id, as two boards of a kind.
        QFile k230(test::sourceDir() + "/boards/sim-k230.json");
        QVERIFY(k230.open(QIODevice::ReadOnly));
        QJsonObject twin = QJsonDocument::fromJson(k230.readAll()).object();
        twin["id"] = "sim-k230-twin";
        twin["name"] = "Simulated K230, the second one";
        QFile f(m_tmp.path() + "/config/boards/sim-k230-twin.json");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(twin).toJson());
    }

    // The dialog only accepts what runSweep accepts, and says what is missing.
    void dialogAsksForAValidSweep() {
        ui::SweepDialog dialog({model()}, QStringLiteral("sim-k230"));
        QPushButton* ok = dialog.buttons()->button(QDialogButtonBox::Ok);
        QVERIFY2(ok->isEnabled(), qPrintable(dialog.problem()));
        QVERIFY2(dialog.matchedBoards()->text().contains("sim-k230"), qPrintable(dialog.matchedBoards()->text()));

        dialog.boardPattern()->setText(QStringLiteral("no-such-board*"));
        QVERIFY(!ok->isEnabled());
        QVERIFY2(dialog.problem().contains("no-such-board*"), qPrintable(dialog.problem()));

        dialog.boardPattern()->setText(QStringLiteral("sim-k230*"));
        QVERIFY(ok->isEnabled());
        QVERIFY2(dialog.matchedBoards()->text().contains("sim-k230-twin"), qPrintable(dialog.matchedBoards()->text()));
        dialog.libraryBox("portable")->setChecked(false);
        QVERIFY(!ok->isEnabled());
        dialog.libraryBox("xnnpack")->setChecked(true);
        dialog.libraryBox("auto")->setChecked(true);
        QVERIFY(ok->isEnabled());
        dialog.quantizedBox()->setChecked(true);
        const jobs::SweepOptions o = dialog.options();
        QCOMPARE(o.models, QStringList{model()});
        QCOMPARE(o.boardPatterns, QStringList{"sim-k230*"});
        QVERIFY(o.libraries == (std::vector<std::string>{"xnnpack", "auto"}));
        QVERIFY(o.quantized);

        dialog.modelList()->selectAll();
        const auto items = dialog.modelList()->selectedItems();
        QCOMPARE(items.size(), 1);
        qDeleteAll(items);
        QVERIFY(!ok->isEnabled());
        QVERIFY2(dialog.problem().contains("model"), qPrintable(dialog.problem()));
    }

    // Run > Sweep... sits after Run benchmark.
    void sweepIsInTheRunMenu() {
        ui::MainWindow w;
        QVERIFY(w.sweep());
        QMenu* run = w.jobs()->runMenu();
        QVERIFY(run);
        QVERIFY(run->actions().contains(w.sweep()->sweepAction()));
        QCOMPARE(run->actions().indexOf(w.sweep()->sweepAction()),
                 run->actions().indexOf(w.jobs()->benchmarkAction()) + 1);
    }

    void sweepRunsAsOneJob() {
        if (!simK230Tools()) QSKIP("qemu-riscv64-static or riscv64-linux-gnu-g++ is missing: no simulated K230");
        ui::MainWindow w;
        jobs::JobQueue* queue = w.jobs()->queue();
        QSignalSpy progress(queue, &jobs::JobQueue::progressChanged);
        QSignalSpy finished(w.sweep(), &ui::StudioSweep::sweepFinished);
        const int id = w.sweep()->runSweep(twoCells("run"));
        QVERIFY(id >= 0);
        QCOMPARE(int(queue->jobs().size()), 1); // one job in the Jobs dock for the whole sweep
        QPointer<ui::SweepView> view = w.sweep()->view(id);
        QVERIFY(view && view->isVisible());
        QCOMPARE(view->table()->rowCount(), 2); // both cells listed, pending, from the start
        QCOMPARE(view->table()->item(1, 1)->text(), QString("sim-k230-twin"));
        QVERIFY(finished.wait(240000));
        const auto job = queue->job(id);
        QVERIFY(job);
        QVERIFY2(job->state() == jobs::JobState::Succeeded, qPrintable(job->message() + "\n" + job->log().join('\n')));
        // Progress per cell: each cell started and ended, as the job's progress and log say.
        QVERIFY2(progress.size() >= 4, qPrintable(QString::number(progress.size())));
        QCOMPARE(progress.last().at(2).toInt(), 2);
        QCOMPARE(progress.last().at(3).toInt(), 2);
        QVERIFY(job->log().join('\n').contains("[2/2] digits_cnn sim-k230-twin portable: ok"));

        const jobs::SweepResult& sweep = view->sweep();
        QCOMPARE(int(sweep.cells.size()), 2);
        QCOMPARE(sweep.builds, 1); // one export for the target, run on both boards
        for (const jobs::SweepCell& c : sweep.cells) {
            QCOMPARE(c.state, jobs::SweepCell::State::Ok);
            QVERIFY(c.runId > 0);
            QVERIFY(c.medianNs > 0);
        }
        // The best library of each board is highlighted (one library: each board's only cell).
        QCOMPARE(view->bestRows(), (QList<int>{0, 1}));
        QVERIFY(view->table()->item(0, 2)->font().bold());
        QCOMPARE(view->table()->item(0, 4)->text(), QString("ok"));
        QVERIFY(!view->cancelButton()->isEnabled());
        QVERIFY(view->chart()->height() >= view->chart()->sizeHint().height());
        const QString png = m_tmp.path() + "/sweep.png";
        QVERIFY(view->exportChart(png).ok());
        QVERIFY(!QImage(png).isNull());

        // Every cell is a normal stored run carrying the sweep's id.
        auto store = store::RunStore::open(m_tmp.path() + "/runs.db");
        QVERIFY2(store, store ? "" : store.error().message.c_str());
        auto back = jobs::loadSweep(**store, sweep.sweepId);
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        QCOMPARE(int(back->cells.size()), 2);
    }

    // Cancel in the sweep's window stops the whole sweep: the job ends cancelled, no cell is
    // left pending or running.
    void cancelStopsTheWholeSweep() {
        if (!simK230Tools()) QSKIP("qemu-riscv64-static or riscv64-linux-gnu-g++ is missing: no simulated K230");
        ui::MainWindow w;
        QSignalSpy finished(w.sweep(), &ui::StudioSweep::sweepFinished);
        const int id = w.sweep()->runSweep(twoCells("cancel"));
        QVERIFY(id >= 0);
        QPointer<ui::SweepView> view = w.sweep()->view(id);
        QVERIFY(view);
        view->cancelButton()->click(); // a job not started yet ends at once, a running one soon
        QVERIFY(!finished.isEmpty() || finished.wait(120000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QCOMPARE(w.jobs()->queue()->job(id)->state(), jobs::JobState::Cancelled);
        QCOMPARE(int(view->sweep().cells.size()), 2);
        for (const jobs::SweepCell& c : view->sweep().cells)
            QVERIFY2(c.state == jobs::SweepCell::State::Cancelled || c.state == jobs::SweepCell::State::Ok,
                     jobs::sweepCellStateName(c.state));
        QVERIFY(view->status()->text().contains("cancelled"));
        QVERIFY(w.jobs()->queue()->isIdle());
    }
};

QTEST_MAIN(TestSweepStudio)
#include "tst_sweep.moc"

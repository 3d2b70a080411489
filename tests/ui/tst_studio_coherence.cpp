// What is on screen belongs together (issue #33): a run's charts and colours never land on
// another model (a finished benchmark of a model no longer open, a stored run of another
// model), a banner says which run they show with a way back to the live model, F5 on a
// running identical benchmark focuses it, closing during a job asks, a cancelled run reads
// "cancelled", Export's start folder exists, and no two actions share a shortcut.
#include "charts/charts_panel.h"
#include "charts/layer_timing_chart.h"
#include "charts/run_banner.h"
#include "history/run_history_panel.h"
#include "jobs/jobs_panel.h"
#include "jobs/studio_jobs.h"
#include "mainwindow/mainwindow.h"
#include "mainwindow/welcome_page.h"
#include "mainwindow/workspaces.h"
#include "session/engine_text.h"
#include "session/studio_session.h"
#include "settings/language.h"
#include "stages/stages_view.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/node_item.h"
#include "graph/properties_panel.h"
#include "support/test_paths.h"
#include "targetpanel/target_panel.h"
#include "support/when_shown.h"

#include "jobs/bench_pipeline.h"
#include "export/exporter.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QDialogButtonBox>
#include <QFile>
#include <QTranslator>
#include <QLabel>
#include <QListWidget>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QUndoStack>

using namespace embark;

namespace {

QString digitsModel() { return test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"); }

// A finished benchmark's result as the pipeline returns it, for `model` (no board involved).
std::shared_ptr<jobs::Job> finishedBenchmark(const QString& model, qint64 runId) {
    return std::make_shared<jobs::Job>(QStringLiteral("Benchmark"), jobs::JobKind::Benchmark,
                                       [model, runId](jobs::JobContext& ctx) -> Status {
                                           jobs::BenchResult r;
                                           r.record.id = runId;
                                           r.record.fingerprint.modelPath = model.toStdString();
                                           r.record.fingerprint.boardId = "sim-k230";
                                           r.record.fingerprint.kernelLibrary = "portable";
                                           r.record.latencyNs = {1000000, 1100000};
                                           r.record.layers.push_back({"conv1", "portable", 500000});
                                           ctx.setResult(r, QStringLiteral("done"));
                                           return {};
                                       });
}

std::shared_ptr<jobs::Job> endless(const QString& title) {
    return std::make_shared<jobs::Job>(title, jobs::JobKind::Build, [](jobs::JobContext& ctx) -> Status {
        while (!ctx.cancelled()) QThread::msleep(5);
        return makeError(ErrorKind::External, "cancelled");
    });
}

ui::RunCharts runOf(const QString& model, qint64 id, const QString& board) {
    ui::RunCharts run;
    run.modelPath = model;
    run.runId = id;
    run.boardId = board;
    run.library = QStringLiteral("portable");
    run.date = QDateTime(QDate(2026, 12, 6), QTime(10, 42));
    run.latenciesMs = {1.0, 1.1};
    run.layers.push_back({QStringLiteral("conv1"), QStringLiteral("portable"), 0.5, QString()});
    return run;
}

} // namespace

class TestStudioCoherence : public QObject {
    Q_OBJECT
    QTemporaryDir m_config;
    QTemporaryDir m_models;
    QString m_other; // a second model file (a copy of digits under another name)

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", m_config.path().toUtf8());
        qputenv("EMBARK_DATA_DIR", m_config.path().toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("EmbarkCoherenceTest"));
        m_other = m_models.filePath(QStringLiteral("other_model.onnx"));
        QVERIFY(QFile::copy(digitsModel(), m_other));
    }

    // Defect 1: a benchmark of ResNet-18 finished while digits was open drew ResNet-18's
    // layers and greyed every digits node.
    void finishedRunOfAnotherModelStaysOffScreen() {
        ui::MainWindow w;
        QVERIFY(w.openModel(digitsModel(), true));
        jobs::JobQueue* queue = w.jobs()->queue();
        queue->enqueue(finishedBenchmark(m_other, 41));
        QVERIFY(queue->waitForIdle(10000));
        QVERIFY(w.charts()->shownRun() == nullptr);
        QVERIFY(w.charts()->timing()->layers().empty());
        QCOMPARE(w.stages()->colouring(), ui::StagesView::Colouring::Default);
        QVERIFY(w.stages()->figures(ui::StagesView::Colouring::Time).isEmpty());
        QVERIFY(!w.runBanner()->isVisibleTo(&w));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("other_model.onnx")),
                 qPrintable(w.statusBar()->currentMessage()));

        // The same model's run is shown, and the banner says which run it is.
        queue->enqueue(finishedBenchmark(digitsModel(), 42));
        QVERIFY(queue->waitForIdle(10000));
        QVERIFY(w.charts()->shownRun());
        QCOMPARE(w.charts()->shownRun()->runId, qint64(42));
        QVERIFY(w.runBanner()->isVisibleTo(&w));
        QVERIFY2(
            w.runBanner()->text().contains(QStringLiteral("run #42 \u00b7 digits_cnn \u00b7 sim-k230 \u00b7 portable")),
            qPrintable(w.runBanner()->text()));
        // Opening another model drops the run, its colours and the banner.
        QVERIFY(w.openModel(m_other, true));
        QVERIFY(w.charts()->shownRun() == nullptr);
        QVERIFY(!w.runBanner()->isVisibleTo(&w));
        QVERIFY(w.stages()->figures(ui::StagesView::Colouring::Time).isEmpty());
    }

    // Defect 2: Run history -> Open drew another model's charts over the open graph, and the
    // board selector did not follow.
    void storedRunOpensItsOwnModel() {
        ui::MainWindow w;
        QVERIFY(w.openModel(digitsModel(), true));
        const QString board = w.session()->boardId();
        QVERIFY(board != QStringLiteral("host"));
        QSignalSpy opened(w.session(), &ui::StudioSession::modelOpenFinished);
        w.showRun(runOf(m_other, 7, QStringLiteral("host")));
        QTRY_VERIFY_WITH_TIMEOUT(w.charts()->shownRun() != nullptr, 20000);
        QCOMPARE(opened.count(), 1);
        QVERIFY(ui::sameModelPath(w.session()->modelPath(), m_other));
        QCOMPARE(w.session()->boardId(), QStringLiteral("host")); // the selector follows the run
        QCOMPARE(w.charts()->shownRun()->runId, qint64(7));
        QVERIFY(w.windowTitle().contains(QStringLiteral("other_model.onnx")));
        QVERIFY2(
            w.runBanner()->text().contains(QStringLiteral("run #7 \u00b7 other_model \u00b7 host \u00b7 portable")),
            qPrintable(w.runBanner()->text()));
        // The board change is an edit like any other: undo brings the previous board back.
        w.session()->undoStack()->undo();
        QCOMPARE(w.session()->boardId(), board);
        w.session()->undoStack()->redo();
        QCOMPARE(w.session()->boardId(), QStringLiteral("host"));
        // Back to the live model: no run, no banner, the open model's own colours.
        w.runBanner()->backButton()->click();
        QVERIFY(w.charts()->shownRun() == nullptr);
        QVERIFY(!w.runBanner()->isVisibleTo(&w));
        QCOMPARE(w.stages()->colouring(), ui::StagesView::Colouring::Default);

        // A run whose model is gone: its charts, said so by the banner, never on this graph.
        w.showRun(runOf(m_models.filePath(QStringLiteral("gone.onnx")), 8, QStringLiteral("sim-k230")));
        QVERIFY(w.charts()->shownRun() != nullptr);
        QVERIFY(ui::sameModelPath(w.session()->modelPath(), m_other));
        QCOMPARE(w.session()->boardId(), QStringLiteral("host"));
        QVERIFY(w.stages()->figures(ui::StagesView::Colouring::Time).isEmpty());
        QVERIFY2(w.runBanner()->text().contains(QStringLiteral("not open")), qPrintable(w.runBanner()->text()));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("gone.onnx")),
                 qPrintable(w.statusBar()->currentMessage()));
    }

    // Defect 16: five quick F5 presses started five identical benchmarks.
    void f5OnARunningBenchmarkFocusesIt() {
        ui::MainWindow w;
        QVERIFY(w.openModel(digitsModel(), true));
        ui::StudioJobs* jobs = w.jobs();
        QTemporaryDir work;
        jobs->benchDefaults().workDir = work.path();
        jobs->benchDefaults().storePath = QStringLiteral("-");
        // Something else runs first, so the benchmark stays queued while F5 is pressed again.
        auto blocker = endless(QStringLiteral("blocker"));
        jobs->queue()->enqueue(blocker);
        const int first = jobs->runBenchmark();
        QVERIFY(first > 0);
        for (int i = 0; i < 4; ++i) QCOMPARE(jobs->runBenchmark(), first);
        QCOMPARE(int(jobs->queue()->jobs().size()), 2);
        QCOMPARE(jobs->panel()->selectedJob(), first);
        // Another library is another benchmark.
        w.session()->setLibrary(QStringLiteral("xnnpack"));
        if (w.session()->library() == QStringLiteral("xnnpack")) {
            const int second = jobs->runBenchmark();
            QVERIFY(second != first);
        }
        jobs->queue()->cancelAll();
        QVERIFY(jobs->queue()->waitForIdle(60000));
    }

    // Defect 6: closing the window during a job asked nothing and killed the job.
    void closingDuringAJobAsks() {
        ui::MainWindow w;
        w.show();
        auto job = endless(QStringLiteral("long build"));
        w.jobs()->queue()->enqueue(job);
        QTRY_COMPARE(job->state(), jobs::JobState::Running);
        QString question;
        test::whenShown<QMessageBox>([&](QMessageBox* box) {
            question = box->text();
            for (QAbstractButton* b : box->buttons())
                if (box->buttonRole(b) == QMessageBox::RejectRole) b->click();
        });
        QVERIFY(!w.close()); // "Keep working"
        QVERIFY2(question.contains(QStringLiteral("1 job")), qPrintable(question));
        QVERIFY(w.isVisible());
        QCOMPARE(job->state(), jobs::JobState::Running);
        test::whenShown<QMessageBox>([](QMessageBox* box) {
            for (QAbstractButton* b : box->buttons())
                if (box->buttonRole(b) == QMessageBox::DestructiveRole) b->click();
        });
        QVERIFY(w.close());
        QCOMPARE(job->state(), jobs::JobState::Cancelled); // cancelled and ended, not killed
        // Nothing running: no question.
        w.show();
        QVERIFY(w.close());
    }

    // Defect 7: a cancelled run was listed as "failed".
    void cancelledRunReadsCancelled() {
        QCOMPARE(ui::RunHistoryPanel::statusName(store::RunStatus::Cancelled), QStringLiteral("cancelled"));
        QCOMPARE(ui::RunHistoryPanel::statusName(store::RunStatus::Failed), QStringLiteral("failed"));
        QCOMPARE(ui::RunHistoryPanel::statusName(store::RunStatus::Ok), QStringLiteral("ok"));
    }

    // Defect 4: Ctrl+E, Enter said "Directory not found": the dialog started on a folder that
    // did not exist yet.
    void exportDialogStartsInAnExistingFolder() {
        ui::MainWindow w;
        QVERIFY(w.openModel(digitsModel(), true));
        const QString start = w.jobs()->exportDialogStartDir();
        QVERIFY(!start.isEmpty());
        QVERIFY2(QFileInfo(start).isDir(), qPrintable(start));
        QCOMPARE(QFileInfo(w.jobs()->defaultExportDir()).absolutePath(), QFileInfo(start).absoluteFilePath());
    }

    // Defect 10: layers all <= 1.2e-5 against a 1e-3 tolerance were painted red (the scale
    // ran from the figures' own min to max). Colours are relative to the tolerance.
    void errorColoursAreRelativeToTheTolerance() {
        ui::MainWindow w;
        QVERIFY(w.openModel(digitsModel(), true));
        ui::StagesView* stages = w.stages();
        QTRY_VERIFY(!stages->afterPanel()->scene()->isLayoutPending());
        auto fused = w.session()->stageGraph(w.session()->lastStage());
        QHash<QString, double> error;
        double e = 1e-7;
        for (const ir::Node* n : fused->nodes()) {
            error.insert(QString::fromStdString(n->name), std::min(e, 1.2e-5));
            e *= 3;
        }
        stages->setFigures(ui::StagesView::Colouring::Error, error);
        stages->setColouring(ui::StagesView::Colouring::Error);
        ui::GraphScene* after = stages->afterPanel()->scene();
        for (auto it = error.constBegin(); it != error.constEnd(); ++it) {
            QVERIFY(after->nodeItem(it.key()));
            QCOMPARE(after->nodeItem(it.key())->fill().hslHue(), 120); // green: within tolerance
        }
        QVERIFY2(after->legend().title.contains(QStringLiteral("tolerance")), qPrintable(after->legend().title));
        const QString worst = error.constBegin().key();
        error.insert(worst, 0.05); // 50 times the tolerance
        stages->setFigures(ui::StagesView::Colouring::Error, error);
        const QColor red = after->nodeItem(worst)->fill();
        QVERIFY2(red.hslHue() >= 0 && red.hslHue() < 30, qPrintable(red.name()));
    }

    // Defect 15: clicking a folded module left Properties on another node.
    void foldedModuleShowsInProperties() {
        ui::MainWindow w;
        QVERIFY(w.openModel(digitsModel(), true));
        ui::StagesView* stages = w.stages();
        ui::GraphPanel* after = stages->afterPanel();
        QTRY_VERIFY(!after->scene()->isLayoutPending());
        QVERIFY(stages->foldModule(after, QStringLiteral("/features")).isEmpty());
        QTRY_VERIFY(!after->scene()->isLayoutPending() && after->scene()->nodeItem(QStringLiteral("/features")));
        w.session()->select(0, QStringLiteral("/fc/Gemm")); // another node first
        emit after->scene()->nodeSelected(QStringLiteral("/features"));
        QTreeWidget* tree = w.properties()->tree();
        QVERIFY(tree->topLevelItemCount() >= 1);
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("Folded module"));
        QTreeWidgetItem* general = tree->topLevelItem(0);
        QStringList rows;
        for (int i = 0; i < general->childCount(); ++i)
            rows << general->child(i)->text(0) + QLatin1Char('=') + general->child(i)->text(1);
        QVERIFY2(rows.contains(QStringLiteral("Name=/features")), qPrintable(rows.join('|')));
        QVERIFY2(rows.filter(QStringLiteral("Ops=")).value(0).contains(QStringLiteral("Conv")),
                 qPrintable(rows.join('|')));
    }

    // Expectation: a finished job's output folder opens from the Jobs dock.
    void jobsOpenTheirOutputFolder() {
        jobs::JobQueue queue;
        ui::JobsPanel panel(&queue);
        QTemporaryDir out;
        auto job = std::make_shared<jobs::Job>(QStringLiteral("Export"), jobs::JobKind::Export,
                                               [&out](jobs::JobContext& ctx) -> Status {
                                                   exporter::ExportResult r;
                                                   r.dir = out.path();
                                                   ctx.setResult(r, QStringLiteral("written"));
                                                   return {};
                                               });
        auto none = endless(QStringLiteral("build"));
        queue.enqueue(job);
        QVERIFY(queue.waitForIdle(10000));
        panel.selectJob(job->id());
        QCOMPARE(ui::JobsPanel::outputFolder(*job), out.path());
        QVERIFY(panel.openFolderButton()->isEnabled());
        queue.enqueue(none);
        QTRY_COMPARE(none->state(), jobs::JobState::Running);
        panel.selectJob(none->id());
        QVERIFY(!panel.openFolderButton()->isEnabled());
        queue.cancelAll();
        QVERIFY(queue.waitForIdle(10000));
    }

    // Expectation: after "Deploy and run once", the predicted class (top 5), not only
    // "written to out/logits.bin".
    void deployShowsThePrediction() {
        const QString line =
            QStringLiteral("{\"type\":\"output\",\"name\":\"logits\",\"shape\":[1,10],\"file\":\"out/logits.bin\","
                           "\"head\":[0.1,-2,3.5,0.2,7.25,1,0,-1,2,0.5]}");
        QCOMPARE(ui::JobsPanel::predictionText(line),
                 QStringLiteral("predicted class 4 (score 7.25); top 5: 4, 2, 8, 5, 9"));
        QVERIFY(ui::JobsPanel::displayLine(line).contains(QStringLiteral("predicted class 4")));
        // Only part of the values (an ImageNet model's first 10 of 1000): no guess.
        const QString partial = QStringLiteral("{\"type\":\"output\",\"name\":\"logits\",\"shape\":[1,1000],\"file\":"
                                               "null,\"head\":[1,2,3,4,5,6,7,8,9,10]}");
        QVERIFY(ui::JobsPanel::predictionText(partial).isEmpty());
        ui::MainWindow w;
        auto deploy = std::make_shared<jobs::Job>(
            QStringLiteral("Deploy"), jobs::JobKind::Deploy, [line](jobs::JobContext& ctx) -> Status {
                ctx.setResult(QStringLiteral("{\"type\":\"meta\"}\n") + line + QLatin1Char('\n'),
                              QStringLiteral("ran once"));
                return {};
            });
        w.jobs()->queue()->enqueue(deploy);
        QVERIFY(w.jobs()->queue()->waitForIdle(10000));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("predicted class 4")),
                 qPrintable(w.statusBar()->currentMessage()));
    }

    // Expectation: a welcome page with the recent models and runs while no model is open.
    void welcomePageListsRecentModels() {
        {
            ui::MainWindow first;
            QVERIFY(first.openModel(m_other, true)); // remembered as recent
        }
        ui::MainWindow w;
        QVERIFY(w.isWelcomeShown());
        QListWidget* models = w.welcome()->recentModels();
        QVERIFY(models->count() >= 1);
        QVERIFY2(models->item(0)->text().startsWith(QStringLiteral("other_model.onnx")),
                 qPrintable(models->item(0)->text()));
        QVERIFY(w.welcome()->sampleLink()->text().contains(QStringLiteral("digits_cnn.onnx")));
        QVERIFY(w.welcome()->recentRuns()->count() >= 1); // a run, or how to make one
        // A click on a recent model opens it, and the graphs replace the page.
        emit models->itemClicked(models->item(0));
        QTRY_VERIFY_WITH_TIMEOUT(w.session()->hasModel(), 20000);
        QVERIFY(!w.isWelcomeShown());
        w.showWelcome(true);
        QVERIFY(w.isWelcomeShown());
        w.workspaces()->action(ui::Workspaces::Mode::Run)->trigger();
        QVERIFY(!w.isWelcomeShown());
    }

    // Defect 14: "Cancel"/"Save" in English in the French dialogs (Qt's own translations are
    // not installed everywhere), engine strings in English ("This computer", "chosen
    // library: ...", "connected to board").
    void frenchButtonsAndEngineStrings() {
        QTranslator fr;
        QVERIFY(fr.load(QStringLiteral(":/i18n/embark_fr.qm")));
        QCoreApplication::installTranslator(&fr);
        QDialogButtonBox box(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
        const QString cancel = box.button(QDialogButtonBox::Cancel)->text().remove(QLatin1Char('&'));
        const QString save = box.button(QDialogButtonBox::Save)->text().remove(QLatin1Char('&'));
        const QString computer = ui::engineText(QStringLiteral("This computer"));
        const QString reason = ui::engineText(QStringLiteral("chosen library: xnnpack runs Conv"));
        const QString log = ui::JobsPanel::displayLine(QStringLiteral("connected to k230 (ssh)"));
        const QString other = ui::engineText(QStringLiteral("something the engine says"));
        QCoreApplication::removeTranslator(&fr);
        QCOMPARE(cancel, QStringLiteral("Annuler"));
        QCOMPARE(save, QStringLiteral("Enregistrer"));
        QCOMPARE(computer, QStringLiteral("Cet ordinateur"));
        QCOMPARE(reason, QStringLiteral("biblioth\u00e8que choisie : xnnpack ex\u00e9cute Conv"));
        QCOMPARE(log, QStringLiteral("connect\u00e9 \u00e0 k230 (ssh)"));
        QCOMPARE(other, QStringLiteral("something the engine says"));
        QCOMPARE(ui::standardButtonTexts().size(), 23);
    }

    // Defect 5: Alt+5 was bound to View > Jobs and View > Rewrites, so it did nothing.
    void everyShortcutIsUnique() {
        ui::MainWindow w;
        QHash<QString, QString> seen;
        QStringList clashes;
        for (QAction* a : w.findChildren<QAction*>()) {
            for (const QKeySequence& k : a->shortcuts()) {
                const QString key = k.toString();
                const QString name = a->text().remove(QLatin1Char('&'));
                if (seen.contains(key) && seen.value(key) != name)
                    clashes << key + QStringLiteral(": ") + seen.value(key) + QStringLiteral(" / ") + name;
                seen.insert(key, name);
            }
        }
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QStringLiteral("; "))));
        QVERIFY(seen.contains(QStringLiteral("Alt+5")));
    }

    // Issue 31: a model with an op Embark does not support still opens: the graph shows with
    // that node marked, and the target panel says it cannot run anywhere (on every board).
    void unsupportedOpStillOpens() {
        const QString path = test::sourceDir() + QStringLiteral("/tests/data/unsupported/custom_op.onnx");
        ui::MainWindow w;
        QVERIFY(w.openModel(path, /*quiet=*/true));
        ui::StudioSession* session = w.session();
        QVERIFY(session->hasModel());
        QVERIFY(!session->deploymentPlan()); // shown, never planned
        QCOMPARE(session->stageCount(), 1);
        QCOMPARE(session->stageGraph(0)->nodeCount(), size_t(3));
        ui::GraphScene* scene = w.stages()->afterPanel()->scene();
        QTRY_VERIFY_WITH_TIMEOUT(!scene->isLayoutPending() && scene->nodeItem(QStringLiteral("fancy")), 10000);
        QCOMPARE(scene->nodeItem(QStringLiteral("fancy"))->title(), QStringLiteral("FancyOp"));
        QCOMPARE(scene->nodeItem(QStringLiteral("relu"))->title(), QStringLiteral("Relu"));
        int marked = 0;
        for (const ui::GraphLegend::Entry& e : scene->legend().entries)
            if (e.label == QStringLiteral("unsupported op")) marked = e.count;
        QCOMPARE(marked, 1);
        auto targetSays = [&w](const QString& text) {
            for (QLabel* l : w.target()->findChildren<QLabel*>())
                if (l->text().contains(text)) return l->text();
            return QString();
        };
        const QString summary = targetSays(QStringLiteral("Cannot run on any board"));
        QVERIFY2(summary.contains(QStringLiteral("Cannot run on any board")) &&
                     summary.contains(QStringLiteral("'fancy'")) &&
                     summary.contains(QStringLiteral("FancyOp from domain 'com.example'")),
                 qPrintable(summary));
        // Another board or library plans nothing for it: the message stays.
        const int boards = w.target()->boardPicker()->count();
        QVERIFY(boards > 1);
        w.target()->boardPicker()->setCurrentIndex((w.target()->boardPicker()->currentIndex() + 1) % boards);
        QVERIFY(!session->deploymentPlan());
        QVERIFY(targetSays(QStringLiteral("Cannot run on any board")).contains(QStringLiteral("'fancy'")));
        // Properties of the marked node work.
        session->select(0, QStringLiteral("fancy"));
        QTreeWidget* tree = w.findChild<ui::PropertiesPanel*>()->tree();
        QVERIFY(tree->topLevelItemCount() > 0);
    }
};

QTEST_MAIN(TestStudioCoherence)
#include "tst_studio_coherence.moc"

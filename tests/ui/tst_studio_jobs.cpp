// The studio's jobs without external tools: the Jobs dock lists queued, running and finished
// jobs with their state and progress, streams the selected job's log, cancels, clears finished
// jobs and notifies in the status bar; the Run actions exist with shortcuts and need a model;
// a benchmark run from the store fills the charts through the same converter.
#include "charts/charts_panel.h"
#include "charts/latency_chart.h"
#include "charts/layer_accuracy_chart.h"
#include "charts/layer_timing_chart.h"
#include "jobs/jobs_panel.h"
#include "jobs/source_viewer.h"
#include "jobs/run_charts.h"
#include "jobs/studio_jobs.h"
#include "mainwindow/workspaces.h"
#include "mainwindow/mainwindow.h"
#include "session/studio_session.h"
#include "support/test_paths.h"

#include "store/run_record.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QThread>
#include <QTreeWidget>

using namespace embark;

namespace {

// Logs one line every `stepMs` until `lines` or cancel.
std::shared_ptr<jobs::Job> ticker(const QString& title, int lines, int stepMs) {
    return std::make_shared<jobs::Job>(title, jobs::JobKind::Build, [=](jobs::JobContext& ctx) -> Status {
        for (int i = 0; i < lines; ++i) {
            if (ctx.cancelled()) return makeError(ErrorKind::External, "cancelled");
            ctx.log(QStringLiteral("[%1/%2] compiling unit %1").arg(i + 1).arg(lines));
            ctx.progress(QStringLiteral("build"), i + 1, lines);
            QThread::msleep(stepMs);
        }
        ctx.setResult({}, QStringLiteral("built"));
        return {};
    });
}

QString stateOf(QTreeWidget* list, int row) { return list->topLevelItem(row)->text(1); }

} // namespace

class TestStudioJobs : public QObject {
    Q_OBJECT
    QTemporaryDir m_config;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", m_config.path().toUtf8());
    }

    void panelFollowsTheQueue() {
        jobs::JobQueue queue;
        ui::JobsPanel panel(&queue);
        auto slow = ticker("slow build", 100000, 2);
        auto quick = ticker("quick build", 5, 1);
        queue.enqueue(slow);
        queue.enqueue(quick);
        QTreeWidget* list = panel.list();
        QCOMPARE(list->topLevelItemCount(), 2);
        QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("slow build"));
        QCOMPARE(stateOf(list, 1), ui::JobsPanel::stateText(jobs::JobState::Queued));
        // The first started job is selected and its log streams in.
        QTRY_COMPARE_WITH_TIMEOUT(panel.selectedJob(), slow->id(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(panel.logView()->blockCount() > 20, 5000);
        QVERIFY(panel.logView()->toPlainText().startsWith(QStringLiteral("[1/100000] compiling unit 1\n[2/100000]")));
        QCOMPARE(stateOf(list, 0), ui::JobsPanel::stateText(jobs::JobState::Running));
        auto* bar = qobject_cast<QProgressBar*>(list->itemWidget(list->topLevelItem(0), 2));
        QVERIFY(bar);
        QCOMPARE(bar->maximum(), 100000);
        QTRY_VERIFY_WITH_TIMEOUT(bar->value() > 0, 5000);

        QVERIFY(panel.cancelButton()->isEnabled());
        panel.cancelButton()->click();
        QVERIFY(queue.waitForIdle(10000));
        QCOMPARE(stateOf(list, 0), ui::JobsPanel::stateText(jobs::JobState::Cancelled));
        QCOMPARE(stateOf(list, 1), ui::JobsPanel::stateText(jobs::JobState::Succeeded));
        QVERIFY(!panel.cancelButton()->isEnabled());
        // No line shown twice: the view holds exactly the job's log.
        QCOMPARE(panel.logView()->toPlainText(), slow->log().join('\n'));
        panel.selectJob(quick->id());
        QCOMPARE(panel.logView()->toPlainText().split('\n').size(), 5);

        auto* clear = panel.findChildren<QPushButton*>().at(1);
        clear->click();
        QCOMPARE(list->topLevelItemCount(), 0);
        QVERIFY(queue.jobs().empty());
    }

    void mainWindowHasTheRunActionsAndDock() {
        ui::MainWindow window;
        ui::StudioJobs* studioJobs = window.jobs();
        QVERIFY(studioJobs);
        QCOMPARE(studioJobs->dock()->objectName(), QStringLiteral("jobsDock"));
        QCOMPARE(window.dockWidgetArea(studioJobs->dock()), Qt::BottomDockWidgetArea);
        QCOMPARE(studioJobs->benchmarkAction()->shortcut(), QKeySequence(Qt::Key_F5));
        QCOMPARE(studioJobs->exportAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
        QVERIFY(!studioJobs->buildAction()->shortcut().isEmpty());
        QStringList menus;
        for (QAction* a : window.menuBar()->actions()) menus << a->text();
        QVERIFY2(menus.indexOf(QStringLiteral("&Run")) >= 0 && menus.indexOf(QStringLiteral("&Run")) < menus.size() - 1,
                 qPrintable(menus.join(',')));
        // Without a model nothing can be queued, and the user is told why.
        QVERIFY(!studioJobs->benchmarkAction()->isEnabled());
        QCOMPARE(studioJobs->runBenchmark(), -1);
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Open a model")));
        QVERIFY(window.openModel(test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"), true));
        QVERIFY(studioJobs->benchmarkAction()->isEnabled());
        QVERIFY(studioJobs->defaultExportDir().endsWith(QStringLiteral("digits_cnn-sim-k230-portable")));
    }

    // The Jobs dock belongs to the Run workspace, whose layout is remembered with the window.
    void jobsDockIsRememberedInTheWindowState() {
        using Mode = ui::Workspaces::Mode;
        {
            ui::MainWindow first;
            first.show();
            QVERIFY(QTest::qWaitForWindowExposed(&first));
            first.workspaces()->setMode(Mode::Run);
            QVERIFY(first.jobs()->dock()->isVisible());
            first.jobs()->dock()->hide();
            first.close(); // saves the layout
        }
        ui::MainWindow second;
        second.show();
        QVERIFY(QTest::qWaitForWindowExposed(&second));
        second.workspaces()->setMode(Mode::Run);
        QVERIFY(!second.jobs()->dock()->isVisible());
        second.jobs()->dock()->show();
        second.close();
        ui::MainWindow third;
        third.workspaces()->setMode(Mode::Run);
        QVERIFY(third.jobs()->dock()->isVisibleTo(&third));
    }

    void finishedJobIsAnnounced() {
        ui::MainWindow window;
        ui::StudioJobs* studioJobs = window.jobs();
        studioJobs->queue()->enqueue(ticker("tiny job", 2, 1));
        studioJobs->queue()->enqueue(
            std::make_shared<jobs::Job>("doomed job", jobs::JobKind::Deploy, [](jobs::JobContext&) -> Status {
                return makeError(ErrorKind::External, "board 'k230' is unreachable: check the cable");
            }));
        QVERIFY(studioJobs->queue()->waitForIdle(10000));
        QVERIFY(studioJobs->dock()->isVisibleTo(&window));
        const QString message = window.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("doomed job")) && message.contains(QStringLiteral("unreachable")),
                 qPrintable(message));
        auto* toast = window.findChild<QLabel*>(QStringLiteral("jobToast"));
        QVERIFY(toast);
        QCOMPARE(toast->text(), message);
    }

    void modelOpensOffTheUiThread() {
        ui::MainWindow window;
        ui::StudioSession* session = window.session();
        QSignalSpy finished(session, &ui::StudioSession::modelOpenFinished);
        const QString digits = test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx");
        window.loadModel(digits, true);
        // loadModel returned before the import: the worker parses, the window keeps running.
        QVERIFY(session->isOpening());
        QVERIFY(!session->hasModel());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().at(1).toString(), QString());
        QVERIFY(!session->isOpening());
        QVERIFY(session->hasModel());
        QCOMPARE(session->modelPath(), digits);
        QVERIFY(window.statusBar()->currentMessage().startsWith(QStringLiteral("Opened")));

        // A file that is no model: the error names it and the open model stays.
        const QString readme = test::sourceDir() + QStringLiteral("/README.md");
        window.loadModel(readme, true);
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.last().at(1).toString().contains(QStringLiteral("README.md")),
                 qPrintable(finished.last().at(1).toString()));
        QCOMPARE(session->modelPath(), digits);

        // Two opens in a row: the newer one wins, the older result is dropped.
        window.loadModel(readme, true);
        window.loadModel(digits, true);
        QTRY_VERIFY_WITH_TIMEOUT(!session->isOpening(), 60000);
        QCOMPARE(session->modelPath(), digits);
        QCOMPARE(finished.last().at(0).toString(), digits);
    }

    void storedRunConvertsForTheCharts() {
        store::RunRecord rec;
        rec.id = 7;
        rec.fingerprint.modelPath = "/models/digits_cnn.onnx";
        rec.fingerprint.boardId = "sim-k230";
        rec.fingerprint.kernelLibrary = "portable";
        rec.latencyNs = {2000000, 2500000, 3000000};
        rec.layers = {{"conv1", "portable", 1500000}, {"fc", "xnnpack", 500000}};
        rec.layerAccuracy = {{"conv1", 1e-6, 1e-7, 1e-7, 1.0, 130}, {"fc", 1e-6, 2e-6, 1e-7, 1.0, 120}};
        rec.extra[QStringLiteral("first_divergent_layer")] = QStringLiteral("fc");
        const ui::RunCharts run = ui::runChartsFromRecord(rec);
        QCOMPARE(run.label, QStringLiteral("#7 digits_cnn on sim-k230 (portable)"));
        QCOMPARE(run.latenciesMs, (std::vector<double>{2.0, 2.5, 3.0}));
        QCOMPARE(run.layers.size(), size_t(2));
        QCOMPARE(run.layers[1].library, QStringLiteral("xnnpack"));
        QCOMPARE(run.layers[0].ms, 1.5);
        QCOMPARE(run.accuracy[1].snrDb, 120.0);
        ui::ChartsPanel panel;
        panel.showRun(run);
        QCOMPARE(panel.accuracy()->firstDivergent(), 1); // the pipeline's verdict (the chart's own rule finds none)
        QCOMPARE(panel.timing()->drawnOrder(), (QStringList{"conv1", "fc"}));
        QVERIFY(panel.latency()->hasData());
    }

    void compilerLocations_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("lineNumber");
        QTest::addColumn<int>("column");
        QTest::newRow("gcc error") << "../src/model.cpp:12:5: error: 'x' was not declared"
                                   << "../src/model.cpp" << 12 << 5;
        QTest::newRow("no column") << "/e/src/model.cpp:7: warning: unused"
                                   << "/e/src/model.cpp" << 7 << 0;
        QTest::newRow("fatal") << "kernels/conv.h:3:10: fatal error: arm_neon.h: No such file"
                               << "kernels/conv.h" << 3 << 10;
        QTest::newRow("progress") << "[3/12] Building CXX object model.cpp.o"
                                  << "" << 0 << 0;
        QTest::newRow("sentence") << "built run_export (RISC-V, 123 bytes)"
                                  << "" << 0 << 0;
    }
    void compilerLocations() {
        QFETCH(QString, line);
        QFETCH(QString, file);
        QFETCH(int, lineNumber);
        QFETCH(int, column);
        const ui::JobsPanel::SourceLocation at = ui::JobsPanel::compilerLocation(line);
        QCOMPARE(at.line, lineNumber);
        if (lineNumber == 0) return;
        QCOMPARE(at.file, file);
        QCOMPARE(at.column, column);
    }

    // Issue 33: the log wraps, and a click on a compiler error opens the file at its line in
    // a read-only viewer (a relative path is found under the build folder CMake named).
    void compilerErrorOpensTheSourceAtItsLine() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("export/src")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("export/build")));
        QFile source(dir.filePath(QStringLiteral("export/src/model.cpp")));
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write("#include \"model.hpp\"\n\nvoid forward() {\n    undeclared(1);\n}\n");
        source.close();
        const QString build = dir.filePath(QStringLiteral("export/build"));
        const QStringList lines{QStringLiteral("-- Build files have been written to: ") + build,
                                QStringLiteral("[1/2] Building CXX object CMakeFiles/run_export.dir/src/model.cpp.o"),
                                QStringLiteral("../src/model.cpp:4:5: error: 'undeclared' was not declared in this "
                                               "scope; a long line that wraps in a narrow dock instead of scrolling"),
                                QStringLiteral("ninja: build stopped: subcommand failed.")};
        jobs::JobQueue queue;
        ui::JobsPanel panel(&queue);
        panel.resize(700, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.logView()->lineWrapMode(), QPlainTextEdit::WidgetWidth);
        auto job = std::make_shared<jobs::Job>(QStringLiteral("Build"), jobs::JobKind::Build,
                                               [lines](jobs::JobContext& ctx) -> Status {
                                                   for (const QString& l : lines) ctx.log(l);
                                                   return makeError(ErrorKind::External, "the build failed");
                                               });
        queue.enqueue(job);
        QVERIFY(queue.waitForIdle(10000));
        panel.selectJob(job->id());
        QTRY_COMPARE(panel.logView()->blockCount(), 4);
        // A click on the progress line opens nothing.
        QPlainTextEdit* log = panel.logView();
        auto lineCentre = [log](int block) {
            QTextCursor c(log->document()->findBlockByNumber(block));
            return log->cursorRect(c).center() + QPoint(20, 0);
        };
        QTest::mouseClick(log->viewport(), Qt::LeftButton, {}, lineCentre(1));
        QVERIFY(!panel.sourceViewer() || !panel.sourceViewer()->isVisible());
        QTest::mouseClick(log->viewport(), Qt::LeftButton, {}, lineCentre(2));
        ui::SourceViewer* viewer = panel.sourceViewer();
        QVERIFY(viewer);
        QVERIFY(viewer->isVisible());
        QCOMPARE(viewer->file(), QDir::cleanPath(dir.filePath(QStringLiteral("export/src/model.cpp"))));
        QCOMPARE(viewer->highlightedLine(), 4);
        QCOMPARE(viewer->text()->textCursor().blockNumber(), 3);
        QCOMPARE(viewer->text()->textCursor().positionInBlock(), 4);
        QVERIFY(viewer->text()->isReadOnly());
        QCOMPARE(viewer->text()->extraSelections().size(), 1);
        // A file that is gone: nothing opens, the line says why in its tooltip.
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("export/src/model.cpp"))));
        viewer->hide();
        QVERIFY(!panel.openLogLine(2));
        QVERIFY(!viewer->isVisible());
    }
};

QTEST_MAIN(TestStudioJobs)
#include "tst_studio_jobs.moc"

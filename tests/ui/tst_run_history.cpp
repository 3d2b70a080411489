// The run history dock over a real SQLite run store (core/store) in a temp folder: the table
// lists the stored runs, each filter narrows it, Open fills a run's charts, Compare puts two
// runs in the comparison chart (also through the main window, whose finished benchmarks refresh
// the dock), Delete asks first and removes the run from the file, and refresh() picks up a run
// another connection stored.
#include "support/when_shown.h"
#include "charts/charts_panel.h"
#include "charts/latency_chart.h"
#include "charts/layer_accuracy_chart.h"
#include "charts/layer_timing_chart.h"
#include "charts/run_comparison_chart.h"
#include "history/plan_diff_dialog.h"
#include "history/run_history_panel.h"
#include "history/run_report_writer.h"
#include "jobs/studio_jobs.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/properties_panel.h"
#include "mainwindow/mainwindow.h"
#include "session/studio_session.h"
#include "stages/stages_view.h"
#include "support/test_paths.h"

#include "ir/graph.h"
#include "store/run_plan.h"
#include "store/run_store.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDesktopServices>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QTextFrame>
#include <QTextDocument>
#include <QTextBlock>
#include <QTimeZone>
#include <QTimer>
#include <QTranslator>
#include <QHeaderView>
#include <QScrollBar>
#include <QScreen>
#include <QImage>
#include <QFile>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QTreeWidget>

#include <numeric>

using namespace embark;

namespace {

store::RunRecord makeRun(const std::string& model, const std::string& board, const std::string& lib, const QDate& day,
                         double baseMs, bool ok = true) {
    store::RunRecord r;
    r.fingerprint.modelPath = model;
    r.fingerprint.modelSha256 = std::string(64, 'a');
    r.fingerprint.boardId = board;
    r.fingerprint.kernelLibrary = lib;
    r.fingerprint.threads = 1;
    r.fingerprint.date = QDateTime(day, QTime(12, 0), QTimeZone::utc());
    r.fingerprint.embarkVersion = "test";
    r.status = ok ? store::RunStatus::Ok : store::RunStatus::Failed;
    if (!ok) {
        r.message = "run_export crashed with SIGSEGV";
        return r;
    }
    for (int i = 0; i < 40; ++i) r.latencyNs.push_back(int64_t((baseMs + (i % 7) * 0.01) * 1e6));
    r.layers = {{"conv1", lib, baseMs * 0.6e6}, {"pool1", "portable", baseMs * 0.1e6}, {"fc", lib, baseMs * 0.3e6}};
    r.layerAccuracy = {{"conv1", 1e-6, 1e-6, 1e-7, 0.99999, 110}, {"fc", 1e-5, 1e-4, 1e-6, 0.9999, 90}};
    return r;
}

using test::whenShown;

int barsIn(QCustomPlot* plot) {
    int bars = 0;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(plot->plottable(i))) bars += b->dataCount();
    return bars;
}

} // namespace

// Stands in for the browser: QDesktopServices hands it the URLs it would open.
class UrlCatcher : public QObject {
    Q_OBJECT
public:
    QList<QUrl> urls;
public slots:
    void open(const QUrl& url) { urls << url; }
};

class TestRunHistory : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    int64_t m_portable = 0, m_xnnpack = 0, m_failed = 0;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        qputenv("EMBARK_CONFIG_DIR", m_dir.filePath("config").toUtf8());
    }

    // A fresh store with three runs before each test.
    void init() {
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(' ', '_');
        m_path =
            m_dir.filePath(QStringLiteral("runs-%1-%2.sqlite").arg(QLatin1String(QTest::currentTestFunction()), tag));
        QFile::remove(m_path);
        auto store = store::RunStore::open(m_path);
        QVERIFY2(store.ok(), store.ok() ? "" : store.error().message.c_str());
        auto add = [&](const store::RunRecord& r) {
            auto id = (*store)->addRun(r);
            return id.ok() ? *id : int64_t(-1);
        };
        m_portable = add(makeRun("/models/digits_cnn.onnx", "sim-k230", "portable", QDate(2024, 1, 10), 4.0));
        m_xnnpack = add(makeRun("/models/digits_cnn.onnx", "sim-k230", "xnnpack", QDate(2024, 3, 5), 2.5));
        m_failed = add(makeRun("/models/resnet18.onnx", "host", "xnnpack", QDate(2024, 5, 1), 0, false));
        QVERIFY(m_portable > 0 && m_xnnpack > 0 && m_failed > 0);
    }

    void tableListsStoredRuns() {
        ui::RunHistoryPanel panel(m_path);
        QCOMPARE(panel.table()->rowCount(), 3);
        QCOMPARE(panel.shownRunIds(), (std::vector<int64_t>{m_failed, m_xnnpack, m_portable})); // newest first
        // Defect 6: the table had no run id; the comparison and the CLI speak in run ids.
        QCOMPARE(panel.table()->horizontalHeaderItem(0)->text(), QStringLiteral("Run"));
        QCOMPARE(panel.table()->item(1, 0)->text(), QStringLiteral("#%1").arg(m_xnnpack));
        QCOMPARE(panel.table()->item(1, 2)->text(), QStringLiteral("digits_cnn.onnx"));
        QCOMPARE(panel.table()->item(1, 3)->text(), QStringLiteral("sim-k230"));
        QCOMPARE(panel.table()->item(1, 4)->text(), QStringLiteral("xnnpack"));
        QCOMPARE(panel.table()->item(1, 5)->text(), QStringLiteral("1"));
        QCOMPARE(panel.table()->item(1, 6)->text(), QStringLiteral("2.530")); // the median of 2.50..2.56 ms
        QCOMPARE(panel.table()->item(0, 7)->toolTip(), QStringLiteral("run_export crashed with SIGSEGV"));
        QCOMPARE(panel.boardFilter()->count(), 3); // all, host, sim-k230
        QVERIFY(panel.statusText().contains(m_path));
    }

    void filtersNarrowTheTable_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("board");
        QTest::addColumn<QString>("library");
        QTest::addColumn<QDate>("from");
        QTest::addColumn<QDate>("to");
        QTest::addColumn<int>("rows");
        QTest::newRow("no filter") << ""
                                   << ""
                                   << "" << QDate() << QDate() << 3;
        QTest::newRow("model") << "digits"
                               << ""
                               << "" << QDate() << QDate() << 2;
        QTest::newRow("model nowhere") << "mobilenet"
                                       << ""
                                       << "" << QDate() << QDate() << 0;
        QTest::newRow("board") << ""
                               << "host"
                               << "" << QDate() << QDate() << 1;
        QTest::newRow("library") << ""
                                 << ""
                                 << "xnnpack" << QDate() << QDate() << 2;
        QTest::newRow("model and library") << "digits"
                                           << ""
                                           << "xnnpack" << QDate() << QDate() << 1;
        QTest::newRow("from") << ""
                              << ""
                              << "" << QDate(2024, 2, 1) << QDate() << 2;
        QTest::newRow("to") << ""
                            << ""
                            << "" << QDate() << QDate(2024, 3, 5) << 2;
        QTest::newRow("from and to") << ""
                                     << ""
                                     << "" << QDate(2024, 2, 1) << QDate(2024, 4, 30) << 1;
    }
    void filtersNarrowTheTable() {
        QFETCH(QString, model);
        QFETCH(QString, board);
        QFETCH(QString, library);
        QFETCH(QDate, from);
        QFETCH(QDate, to);
        QFETCH(int, rows);
        ui::RunHistoryPanel panel(m_path);
        panel.modelFilter()->setText(model);
        if (!board.isEmpty()) panel.boardFilter()->setCurrentIndex(panel.boardFilter()->findData(board));
        if (!library.isEmpty()) panel.libraryFilter()->setCurrentIndex(panel.libraryFilter()->findData(library));
        if (from.isValid()) {
            panel.fromDate()->setDate(from);
            panel.fromEnabled()->setChecked(true);
        }
        if (to.isValid()) {
            panel.toDate()->setDate(to);
            panel.toEnabled()->setChecked(true);
        }
        QCOMPARE(panel.table()->rowCount(), rows);
        for (int row = 0; row < rows; ++row) {
            if (!board.isEmpty()) QCOMPARE(panel.table()->item(row, 3)->text(), board);
            if (!library.isEmpty()) QCOMPARE(panel.table()->item(row, 4)->text(), library);
            if (!model.isEmpty()) QVERIFY(panel.table()->item(row, 2)->text().contains(model));
        }
    }

    void openShowsTheRunsCharts() {
        ui::RunHistoryPanel panel(m_path);
        ui::ChartsPanel charts;
        panel.setCharts(&charts);
        panel.selectRuns({m_xnnpack});
        QVERIFY(panel.openAction()->isEnabled());
        QVERIFY(!panel.compareAction()->isEnabled());
        panel.openAction()->trigger();
        QVERIFY(charts.timing()->hasData());
        QCOMPARE(charts.timing()->drawnOrder().size(), 3);
        QVERIFY(charts.accuracy()->hasData());
        std::vector<int> bins = charts.latency()->binCounts();
        QCOMPARE(std::accumulate(bins.begin(), bins.end(), 0), 40);
    }

    void compareShowsBothRuns() {
        ui::RunHistoryPanel panel(m_path);
        ui::ChartsPanel charts;
        panel.setCharts(&charts);
        panel.selectRuns({m_portable, m_xnnpack});
        QVERIFY(panel.compareAction()->isEnabled());
        panel.compareAction()->trigger();
        ui::RunComparisonChart* chart = charts.comparison();
        QCOMPARE(chart->runCount(), 2);
        chart->setMode(ui::RunComparisonChart::Mode::Totals);
        QCOMPARE(barsIn(chart->plot()), 2);
        const QString csv = chart->toCsv();
        QVERIFY2(csv.contains(QStringLiteral("#%1 digits_cnn").arg(m_portable)) &&
                     csv.contains(QStringLiteral("#%1 digits_cnn").arg(m_xnnpack)),
                 qPrintable(csv));
        chart->setMode(ui::RunComparisonChart::Mode::LayerDeltas);
        QCOMPARE(barsIn(chart->plot()), 3); // conv1, pool1, fc of the second run against the first
        // The store's comparison: 4 ms against 2.5 ms with 40 samples each is a real difference.
        QVERIFY2(panel.statusText().contains(QStringLiteral("real difference")), qPrintable(panel.statusText()));
    }

    // Defect 6: "#1 against #2: 1.375 ms -> 10.934 ms" while #1 was the 10.934 ms run. The
    // oldest selected run is the baseline and each figure is named by its run.
    void compareNamesEachFigureByItsRun() {
        ui::RunHistoryPanel panel(m_path);
        ui::ChartsPanel charts;
        panel.setCharts(&charts);
        panel.selectRuns({m_portable, m_xnnpack}); // table order: newest (xnnpack) first
        panel.compareAction()->trigger();
        const QString expected =
            QStringLiteral("#%1 against #%2 (baseline): median #%2 4.030 ms -> #%1 2.530 ms (x0.628)")
                .arg(m_xnnpack)
                .arg(m_portable);
        QVERIFY2(panel.statusText().contains(expected), qPrintable(panel.statusText() + "\nexpected: " + expected));
        ui::RunComparisonChart* chart = charts.comparison();
        QVERIFY(chart->runs().front().label.startsWith(QStringLiteral("#%1 ").arg(m_portable))); // the baseline first
        QVERIFY(chart->warning().isEmpty());
        QVERIFY(!panel.statusText().contains(QStringLiteral("Warning")));
    }

    // Defect 6: comparing runs of two different models gave no warning.
    void compareWarnsAboutDifferentModels() {
        auto writer = store::RunStore::open(m_path);
        QVERIFY(writer.ok());
        store::RunRecord other = makeRun("/models/resnet18.onnx", "sim-k230", "xnnpack", QDate(2024, 6, 1), 30.0);
        other.fingerprint.modelSha256 = std::string(64, 'b');
        auto id = (*writer)->addRun(other);
        QVERIFY(id.ok());
        ui::RunHistoryPanel panel(m_path);
        ui::ChartsPanel charts;
        panel.setCharts(&charts);
        panel.selectRuns({m_portable, *id});
        panel.compareAction()->trigger();
        QVERIFY2(panel.statusText().contains(QStringLiteral("different models (digits_cnn.onnx, resnet18.onnx)")),
                 qPrintable(panel.statusText()));
        QVERIFY2(charts.comparison()->warning().contains(QStringLiteral("different models")),
                 qPrintable(charts.comparison()->warning()));
    }

    // Issue 17: the comparison says what ran each run (an export, or ONNX Runtime and its
    // provider) and which SpacemiT EP options differ.
    void compareShowsRuntimeAndEpOptions() {
        auto writer = store::RunStore::open(m_path);
        QVERIFY(writer.ok());
        store::RunRecord k1 = makeRun("/models/digits_cnn.onnx", "spacemit-k1", "onnxruntime", QDate(2024, 6, 1), 3.0);
        k1.extra = QJsonObject{
            {"runtime", "onnxruntime"},
            {"ep", "spacemit"},
            {"ep_options", QJsonObject{{"SPACEMIT_EP_INTRA_THREAD_NUM", "1"}, {"SPACEMIT_EP_DUMP_SUBGRAPHS", "1"}}}};
        store::RunRecord k1b = k1;
        k1b.fingerprint.date = k1b.fingerprint.date.addDays(1);
        k1b.extra["ep_options"] =
            QJsonObject{{"SPACEMIT_EP_INTRA_THREAD_NUM", "4"}, {"SPACEMIT_EP_DUMP_SUBGRAPHS", "1"}};
        auto a = (*writer)->addRun(k1);
        auto b = (*writer)->addRun(k1b);
        QVERIFY(a.ok() && b.ok());
        ui::RunHistoryPanel panel(m_path);
        ui::ChartsPanel charts;
        panel.setCharts(&charts);
        panel.selectRuns({*a, *b});
        panel.compareAction()->trigger();
        QCOMPARE(panel.runtimeDifferences(),
                 QStringList{QStringLiteral("EP options that differ, #%1 -> #%2: SPACEMIT_EP_INTRA_THREAD_NUM 1 -> 4")
                                 .arg(*a)
                                 .arg(*b)});
        QVERIFY2(panel.statusText().contains(QStringLiteral("SPACEMIT_EP_INTRA_THREAD_NUM 1 -> 4")),
                 qPrintable(panel.statusText()));
        // An export (the baseline) against ONNX Runtime: the runtimes, and the options only B set.
        panel.selectRuns({m_portable, *a});
        panel.compareAction()->trigger();
        const QStringList lines = panel.runtimeDifferences();
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0],
                 QStringLiteral("Runtime: #%1 Embark export, #%2 ONNX Runtime (ep spacemit)").arg(m_portable).arg(*a));
        QVERIFY2(lines[1].contains(QStringLiteral("SPACEMIT_EP_DUMP_SUBGRAPHS (not set) -> 1")), qPrintable(lines[1]));
        // Two exports: nothing about runtimes.
        panel.selectRuns({m_portable, m_xnnpack});
        panel.compareAction()->trigger();
        QVERIFY(panel.runtimeDifferences().isEmpty());
        QVERIFY(!panel.statusText().contains(QStringLiteral("Runtime")));
    }

    void mainWindowComparesRunsFromItsHistoryDock() {
        qputenv("EMBARK_DATA_DIR", m_dir.path().toUtf8());
        QFile::remove(store::RunStore::defaultPath());
        QVERIFY(QFile::copy(m_path, store::RunStore::defaultPath()));
        ui::MainWindow window;
        QCOMPARE(window.history()->storePath(), store::RunStore::defaultPath());
        QCOMPARE(window.history()->table()->rowCount(), 3);
        window.history()->selectRuns({m_portable, m_xnnpack});
        window.history()->compareSelected();
        QCOMPARE(window.charts()->comparison()->runCount(), 2);
        QCOMPARE(window.charts()->tabs()->currentWidget(), static_cast<QWidget*>(window.charts()->comparison()));
        // A benchmark that stored a run refreshes the dock.
        auto writer = store::RunStore::open(store::RunStore::defaultPath());
        QVERIFY(writer.ok());
        auto id = (*writer)->addRun(makeRun("/models/digits_cnn.onnx", "sim-rpi5", "xnnpack", QDate(2024, 7, 1), 1.5));
        QVERIFY(id.ok());
        emit window.jobs()->benchmarkFinished(*id);
        QCOMPARE(window.history()->table()->rowCount(), 4);
        qunsetenv("EMBARK_DATA_DIR");
    }

    // Issue 17: a stored ONNX Runtime run with the EP's subgraphs, opened from the history,
    // colours the open model's graph by partition and Properties names a node's partition.
    void openingAnOrtRunShowsItsPartitions() {
        qputenv("EMBARK_DATA_DIR", m_dir.path().toUtf8());
        QFile::remove(store::RunStore::defaultPath());
        QVERIFY(QFile::copy(m_path, store::RunStore::defaultPath()));
        ui::MainWindow window;
        const QString modelPath = test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx");
        QVERIFY(window.openModel(modelPath, true));
        QStringList names;
        for (const ir::Node* n : window.session()->stageGraph(0)->nodes()) names << QString::fromStdString(n->name);
        QVERIFY(names.size() >= 6);
        store::RunRecord k1 = makeRun(modelPath.toStdString(), "spacemit-k1", "onnxruntime", QDate(2024, 6, 1), 3.0);
        k1.extra =
            QJsonObject{{"runtime", "onnxruntime"},
                        {"ep", "spacemit"},
                        {"ep_options", QJsonObject{{"SPACEMIT_EP_DUMP_SUBGRAPHS", "1"}}},
                        {"subgraphs", QJsonArray{QJsonObject{{"file", "/tmp/run/subgraph_0.onnx"},
                                                             {"nodes", QJsonArray::fromStringList(names.mid(0, 4))}}}},
                        {"subgraph_count", 1}};
        auto writer = store::RunStore::open(store::RunStore::defaultPath());
        QVERIFY(writer.ok());
        auto id = (*writer)->addRun(k1);
        QVERIFY(id.ok());
        window.history()->refresh();
        window.history()->selectRuns({*id});
        window.history()->openSelected();
        QCOMPARE(window.stages()->colouring(), ui::StagesView::Colouring::Partition);
        QTRY_VERIFY(!window.stages()->beforePanel()->scene()->isLayoutPending());
        const QString title = window.stages()->beforePanel()->scene()->legend().title;
        QVERIFY2(title.contains(QStringLiteral("EP subgraphs: 1,")) &&
                     title.contains(QStringLiteral("CPU provider: %1)").arg(names.size() - 4)),
                 qPrintable(title));
        QCOMPARE(window.stages()->beforePanel()->scene()->nodeClass(names[0]), 0);
        auto propertyValue = [&](const QString& key) {
            const QList<QTreeWidgetItem*> found =
                window.properties()->tree()->findItems(key, Qt::MatchExactly | Qt::MatchRecursive);
            return found.isEmpty() ? QString() : found.first()->text(1);
        };
        window.session()->select(0, names[1]);
        QCOMPARE(propertyValue(QStringLiteral("Ran in")), QStringLiteral("EP subgraph 1 (spacemit)"));
        window.session()->select(0, names[5]);
        QCOMPARE(propertyValue(QStringLiteral("Ran in")), QStringLiteral("CPU provider (fallback)"));
        QCOMPARE(propertyValue(QStringLiteral("Subgraphs in the run")), QStringLiteral("1"));
        // An export's run: no partitions, the colours go back to the layer times.
        window.history()->selectRuns({m_portable});
        window.history()->openSelected();
        QVERIFY(!window.stages()->partitions().valid);
        QVERIFY(window.stages()->colouring() != ui::StagesView::Colouring::Partition);
        window.session()->select(0, names[1]);
        QVERIFY(propertyValue(QStringLiteral("Ran in")).isEmpty());
        qunsetenv("EMBARK_DATA_DIR");
    }

    // Issue 19: two runs' plans side by side from the history, with nodes re-assigned to
    // another library or layout, fused differently, added and removed marked in both.
    void diffPlansShowsTwoRunsSideBySide() {
        auto node = [](const std::string& name, const std::string& op, const std::string& lib,
                       const std::string& layout, std::vector<std::string> in, std::vector<std::string> out,
                       std::vector<std::string> from) {
            return store::PlanNode{name,           op, lib, layout, std::move(in), std::move(out), {{1, 4, 8, 8}},
                                   std::move(from)};
        };
        const std::vector<store::PlanNode> xnn{
            node("x_to_nhwc", "Transpose", "portable", "NCHW", {"x"}, {"xn"}, {}),
            node("conv1", "Conv", "xnnpack", "NHWC", {"xn"}, {"c1"}, {"conv1", "relu1"}),
            node("pool1", "MaxPool", "xnnpack", "NHWC", {"c1"}, {"p1"}, {"pool1"}),
            node("p1_to_nchw", "Transpose", "portable", "NCHW", {"p1"}, {"y"}, {})};
        const std::vector<store::PlanNode> portable{
            node("conv1", "Conv", "portable", "NCHW", {"x"}, {"c1"}, {"conv1"}),
            node("relu1", "Relu", "portable", "NCHW", {"c1"}, {"r1"}, {"relu1"}),
            node("pool1", "MaxPool", "portable", "NCHW", {"r1"}, {"y"}, {"pool1"})};
        auto writer = store::RunStore::open(m_path);
        QVERIFY(writer.ok());
        store::RunRecord a = makeRun("/models/digits_cnn.onnx", "sim-k230", "portable", QDate(2024, 6, 1), 4.0);
        a.extra["plan"] = store::planToJson(portable);
        store::RunRecord b = makeRun("/models/digits_cnn.onnx", "sim-k230", "xnnpack", QDate(2024, 6, 2), 2.0);
        b.extra["plan"] = store::planToJson(xnn);
        auto idA = (*writer)->addRun(a);
        auto idB = (*writer)->addRun(b);
        QVERIFY(idA.ok() && idB.ok());
        ui::RunHistoryPanel panel(m_path);
        panel.selectRuns({*idB, *idA});
        QVERIFY(panel.diffPlansAction()->isEnabled());
        ui::PlanDiffDialog* dialog = panel.diffPlans();
        QVERIFY2(dialog, qPrintable(panel.statusText()));
        QVERIFY(dialog->drawError().isEmpty());
        QTRY_VERIFY(!dialog->panelA()->scene()->isLayoutPending() && !dialog->panelB()->scene()->isLayoutPending());
        // The older run is the baseline (A).
        QCOMPARE(dialog->panelA()->scene()->nodeNames(), (QStringList{"conv1", "relu1", "pool1"}));
        using C = store::PlanChange;
        QCOMPARE(dialog->panelA()->scene()->nodeClass(QStringLiteral("pool1")), int(C::Reassigned));
        QCOMPARE(dialog->panelB()->scene()->nodeClass(QStringLiteral("pool1")), int(C::Reassigned));
        QCOMPARE(dialog->panelA()->scene()->nodeClass(QStringLiteral("relu1")), int(C::Fused));
        QCOMPARE(dialog->panelB()->scene()->nodeClass(QStringLiteral("conv1")), int(C::Fused));
        QCOMPARE(dialog->panelB()->scene()->nodeClass(QStringLiteral("x_to_nhwc")), int(C::Added));
        QVERIFY(dialog->panelB()->legendLabel()->text().contains(QStringLiteral("re-assigned (library or layout)")));
        QVERIFY2(dialog->summary().contains(QStringLiteral("1 re-assigned")) &&
                     dialog->summary().contains(QStringLiteral("2 added")),
                 qPrintable(dialog->summary()));
        QCOMPARE(panel.statusText(), dialog->summary());
        // Selecting a node lights up its counterparts in the other plan and says what changed.
        dialog->selectNode(true, QStringLiteral("pool1"));
        QCOMPARE(dialog->panelB()->scene()->linkedNodes(), QStringList{QStringLiteral("pool1")});
        QVERIFY2(dialog->details().contains(QStringLiteral("portable NCHW")) &&
                     dialog->details().contains(QStringLiteral("xnnpack NHWC")),
                 qPrintable(dialog->details()));
        dialog->selectNode(false, QStringLiteral("conv1"));
        QStringList linked = dialog->panelA()->scene()->linkedNodes();
        linked.sort();
        QCOMPARE(linked, (QStringList{"conv1", "relu1"}));
        dialog->close();
        // A run without a stored plan: no window, the status says why.
        panel.selectRuns({m_portable, *idA});
        QVERIFY(!panel.diffPlans());
        QVERIFY2(panel.statusText().contains(QStringLiteral("Run #%1 has no stored plan").arg(m_portable)),
                 qPrintable(panel.statusText()));
        panel.selectRuns({m_portable});
        QVERIFY(!panel.diffPlansAction()->isEnabled());
    }

    // Issue #33 defect 8: Diff plans drew the model's input as "image scalar" (a stored plan
    // names the values it reads, not their shapes); the run's model declares 1x1x16x16.
    void diffPlansShowsTheInputShapes() {
        const std::string model =
            (test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx")).toStdString();
        const std::vector<store::PlanNode> plan{
            store::PlanNode{"conv1", "Conv", "portable", "NCHW", {"image"}, {"c1"}, {{1, 8, 16, 16}}, {"conv1"}}};
        auto writer = store::RunStore::open(m_path);
        QVERIFY(writer.ok());
        store::RunRecord a = makeRun(model, "sim-k230", "portable", QDate(2024, 7, 1), 4.0);
        a.extra["plan"] = store::planToJson(plan);
        store::RunRecord b = makeRun(model, "sim-k230", "xnnpack", QDate(2024, 7, 2), 2.0);
        b.extra["plan"] = store::planToJson(plan);
        auto idA = (*writer)->addRun(a);
        auto idB = (*writer)->addRun(b);
        QVERIFY(idA.ok() && idB.ok());
        ui::RunHistoryPanel panel(m_path);
        panel.selectRuns({*idA, *idB});
        ui::PlanDiffDialog* dialog = panel.diffPlans();
        QVERIFY2(dialog, qPrintable(panel.statusText()));
        const ir::Value* image = dialog->panelA()->scene()->graph()->findValue("image");
        QVERIFY(image);
        QCOMPARE(QString::fromStdString(image->shape.str()), QStringLiteral("1x1x16x16"));
        QVERIFY(dialog->height() <= 768 * 9 / 10 || dialog->screen()->availableGeometry().height() > 768);
        dialog->close();
    }

    void deleteAsksThenRemovesTheRunFromTheFile() {
        ui::RunHistoryPanel panel(m_path);
        panel.selectRuns({m_failed});
        QString question;
        whenShown<QMessageBox>([&](QMessageBox* box) {
            question = box->text();
            box->button(QMessageBox::No)->click();
        });
        panel.deleteAction()->trigger();
        QVERIFY2(question.contains(m_path), qPrintable(question));
        QCOMPARE(panel.table()->rowCount(), 3); // "No" keeps it

        panel.selectRuns({m_failed});
        whenShown<QMessageBox>([](QMessageBox* box) { box->button(QMessageBox::Yes)->click(); });
        panel.deleteAction()->trigger();
        QCOMPARE(panel.table()->rowCount(), 2);
        QCOMPARE(panel.shownRunIds(), (std::vector<int64_t>{m_xnnpack, m_portable}));

        auto fresh = store::RunStore::open(m_path); // another connection reads the file itself
        QVERIFY(fresh.ok());
        auto runs = (*fresh)->listRuns();
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), size_t(2));
        QVERIFY(!(*fresh)->getRun(m_failed).ok());
        QCOMPARE(panel.boardFilter()->findData(QStringLiteral("host")), -1); // no run on it now
    }

    void refreshShowsARunStoredElsewhere() {
        ui::RunHistoryPanel panel(m_path);
        panel.selectRuns({m_portable});
        auto writer = store::RunStore::open(m_path);
        QVERIFY(writer.ok());
        auto id = (*writer)->addRun(makeRun("/models/digits_cnn.onnx", "rpi5", "xnnpack", QDate(2024, 6, 1), 1.0));
        QVERIFY(id.ok());
        QCOMPARE(panel.table()->rowCount(), 3);
        panel.refreshAction()->trigger();
        QCOMPARE(panel.table()->rowCount(), 4);
        QCOMPARE(panel.shownRunIds().front(), *id);
        QCOMPARE(panel.selectedRunIds(), std::vector<int64_t>{m_portable}); // selection kept
    }

    // Issue #35: a run on a farm board links to its LAVA job's page, one click away; other
    // runs (and two selected runs) have no link.
    void lavaJobOpensTheJobPage() {
        store::RunRecord farm = makeRun("/models/digits_cnn.onnx", "k1-farm", "portable", QDate(2024, 6, 1), 3.0);
        farm.extra["lava_job"] = 42;
        farm.extra["lava_device"] = "k1-b";
        farm.extra["lava_url"] = "http://lab.example:8000/scheduler/job/42";
        auto writer = store::RunStore::open(m_path);
        QVERIFY(writer.ok());
        auto id = (*writer)->addRun(farm);
        QVERIFY(id.ok());
        ui::RunHistoryPanel panel(m_path);
        UrlCatcher catcher;
        QDesktopServices::setUrlHandler("http", &catcher, "open");
        const auto unset = qScopeGuard([] { QDesktopServices::unsetUrlHandler("http"); });
        panel.selectRuns({m_portable});
        QVERIFY(!panel.lavaJobAction()->isEnabled());
        QVERIFY(panel.selectedLavaJobUrl().isEmpty());
        panel.selectRuns({*id, m_portable});
        QVERIFY(!panel.lavaJobAction()->isEnabled());
        panel.selectRuns({*id});
        QVERIFY(panel.lavaJobAction()->isEnabled());
        QCOMPARE(panel.selectedLavaJobUrl(), QUrl("http://lab.example:8000/scheduler/job/42"));
        panel.lavaJobAction()->trigger();
        QCOMPARE(catcher.urls, QList<QUrl>{QUrl("http://lab.example:8000/scheduler/job/42")});
    }

    // Issue #19: a run's report (and two runs' comparison) from the history, as one
    // self-contained HTML file with the studio's charts as PNG images, or as PDF.
    void exportReportWritesHtmlAndPdf() {
        ui::RunHistoryPanel panel(m_path);
        panel.selectRuns({m_portable});
        QVERIFY(panel.reportAction()->isEnabled());
        const QString html = m_dir.filePath(QStringLiteral("report.html"));
        QVERIFY2(panel.exportReport(html), qPrintable(panel.statusText()));
        QFile file(html);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY(text.contains(QStringLiteral("run #%1").arg(m_portable)));
        QVERIFY(text.contains(QStringLiteral("digits_cnn.onnx")));
        QVERIFY(text.contains(QStringLiteral("sim-k230")));
        QVERIFY(text.contains(QStringLiteral("Accuracy of run")));
        // Charts as embedded PNG images (at least timing, by op type, accuracy, latency), no SVG.
        QVERIFY2(text.count(QStringLiteral("<img src=\"data:image/png;base64,")) >= 4, qPrintable(text.left(400)));
        QVERIFY(!text.contains(QStringLiteral("<svg")));
        const int at = text.indexOf(QStringLiteral("base64,")) + 7;
        const QByteArray png = QByteArray::fromBase64(text.mid(at, text.indexOf(QLatin1Char('"'), at) - at).toLatin1());
        QImage image;
        QVERIFY(image.loadFromData(png, "PNG"));
        QVERIFY2(image.width() >= 900 && image.height() >= 400,
                 qPrintable(QStringLiteral("%1x%2").arg(image.width()).arg(image.height())));
        QVERIFY(panel.statusText().contains(QStringLiteral("report.html")));

        // Two runs: the newer against the older (the baseline), as PDF.
        panel.selectRuns({m_xnnpack, m_portable});
        QVERIFY(panel.reportAction()->isEnabled());
        const QString pdf = m_dir.filePath(QStringLiteral("compare.pdf"));
        QVERIFY2(panel.exportReport(pdf), qPrintable(panel.statusText()));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        const QByteArray bytes = pdfFile.readAll();
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY2(bytes.size() > 20000, qPrintable(QString::number(bytes.size()))); // the charts are in it
        const QString compareHtml = m_dir.filePath(QStringLiteral("compare.html"));
        QVERIFY(panel.exportReport(compareHtml));
        QFile cmp(compareHtml);
        QVERIFY(cmp.open(QIODevice::ReadOnly));
        const QString cmpText = QString::fromUtf8(cmp.readAll());
        QVERIFY(cmpText.contains(QStringLiteral("run #%1").arg(m_xnnpack) + QStringLiteral(": digits_cnn.onnx")));
        QVERIFY(cmpText.contains(QStringLiteral("Run #%1 / run #%2 (median)").arg(m_xnnpack).arg(m_portable)));

        // EMBARK_REPORT_SAMPLES=DIR keeps the reports to look at.
        if (const QString keep = qEnvironmentVariable("EMBARK_REPORT_SAMPLES"); !keep.isEmpty())
            for (const QString& f : {html, pdf, compareHtml})
                QFile::copy(f, QDir(keep).filePath(QFileInfo(f).fileName()));
        // A name that is neither .html nor .pdf writes nothing and says why; three runs: no report.
        QVERIFY(!panel.exportReport(m_dir.filePath(QStringLiteral("report.txt"))));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("report.txt"))));
        QVERIFY(panel.statusText().contains(QStringLiteral(".pdf")));
        panel.selectRuns({m_xnnpack, m_portable, m_failed});
        QVERIFY(!panel.reportAction()->isEnabled());
    }

    // Issue 33, defect 3: in the PDF the charts ran off the right edge of the page (the axis
    // stopped at layer 28 of 31). Every chart is laid out within the page's text width, drawn
    // whole and scaled down, never cropped.
    void pdfReportChartsFitThePage() {
        store::RunRecord run = makeRun("/models/resnet18.onnx", "sim-k230", "portable", QDate(2024, 2, 1), 6.0);
        run.id = 12;
        run.layers.clear();
        run.layerAccuracy.clear();
        for (int i = 0; i < 31; ++i) {
            const std::string name = "/layer" + std::to_string(i / 8 + 1) + "/block" + std::to_string(i) + "/conv/Conv";
            run.layers.push_back({name, "portable", 5923.75e3 / (i + 1)});
            run.layerAccuracy.push_back({name, 1e-6 * (i + 1), 1e-5, 1e-7, 0.99999, 100});
        }
        const std::unique_ptr<QTextDocument> doc = ui::runReportPdfDocument(run, nullptr);
        QVERIFY(doc->pageSize().isValid());
        const double pageWidth = doc->pageSize().width();
        const QRectF paint = ui::runReportPageLayout().paintRect(QPageLayout::Point);
        QCOMPARE(qRound(pageWidth), qRound(paint.width() * 96 / 72));
        int images = 0;
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
            for (auto it = b.begin(); !it.atEnd(); ++it) {
                const QTextImageFormat f = it.fragment().charFormat().toImageFormat();
                if (!f.isValid()) continue;
                ++images;
                QVERIFY2(f.width() > 0 && f.width() <= pageWidth - 2 * doc->rootFrame()->frameFormat().margin(),
                         qPrintable(QStringLiteral("%1 wide on a %2 page").arg(f.width()).arg(pageWidth)));
                const QImage drawn = doc->resource(QTextDocument::ImageResource, QUrl(f.name())).value<QImage>();
                QVERIFY(drawn.width() >= 900); // the whole chart, scaled on the page
            }
        QVERIFY2(images >= 4, qPrintable(QString::number(images)));
        QVERIFY2(doc->idealWidth() <= pageWidth,
                 qPrintable(QStringLiteral("%1 > %2").arg(doc->idealWidth()).arg(pageWidth)));
        QVERIFY(ui::writeRunReport(m_dir.filePath(QStringLiteral("wide.pdf")), run).isEmpty());
    }

    // Defect 14's last part: French column titles are longer and were cut off. Every title and
    // cell stays whole at a laptop's dock width (no room kept for sort arrows that only the
    // sorted column shows), the model column shrinks first.
    void frenchColumnsFit() {
        QTranslator fr;
        QVERIFY(fr.load(QStringLiteral(":/i18n/embark_fr.qm")));
        QCoreApplication::installTranslator(&fr);
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::French, QLocale::France));
        {
            ui::RunHistoryPanel panel(m_path);
            panel.resize(700, 300); // the bottom dock beside a wide right column on a 1366-wide screen
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QTableWidget* table = panel.table();
            QCOMPARE(table->horizontalHeaderItem(1)->text(), QStringLiteral("Date"));
            QVERIFY(table->horizontalHeaderItem(4)->text() != QStringLiteral("Library")); // translated
            QHeaderView* header = table->horizontalHeader();
            const QFontMetrics fm(header->font());
            int total = 0;
            for (int c = 0; c < table->columnCount(); ++c) {
                total += header->sectionSize(c);
                const QString title = table->horizontalHeaderItem(c)->text();
                QVERIFY2(header->sectionSize(c) >= fm.horizontalAdvance(title) + 8,
                         qPrintable(QStringLiteral("%1: %2 px for %3 px")
                                        .arg(title)
                                        .arg(header->sectionSize(c))
                                        .arg(fm.horizontalAdvance(title))));
                for (int r = 0; r < table->rowCount(); ++r) {
                    if (c == 2) continue; // the model: elided in the middle, its tooltip has the path
                    const QString cell = table->item(r, c)->text();
                    QVERIFY2(
                        header->sectionSize(c) >= QFontMetrics(table->font()).horizontalAdvance(cell) + 6,
                        qPrintable(QStringLiteral("%1 in %2: %3 px").arg(cell, title).arg(header->sectionSize(c))));
                }
            }
            QVERIFY2(total <= table->viewport()->width(),
                     qPrintable(QStringLiteral("%1 > %2").arg(total).arg(table->viewport()->width())));
            QVERIFY(!table->horizontalScrollBar()->isVisible());
            QVERIFY2(header->sectionSize(2) >= 100,
                     qPrintable(QString::number(header->sectionSize(2)))); // the model stays readable
            // Sorting by another column makes room for its arrow.
            table->sortByColumn(4, Qt::AscendingOrder);
            QVERIFY(header->sectionSize(4) >= fm.horizontalAdvance(table->horizontalHeaderItem(4)->text()) + 20);
        }
        QCoreApplication::removeTranslator(&fr);
        QLocale::setDefault(before);
    }
};

QTEST_MAIN(TestRunHistory)
#include "tst_run_history.moc"

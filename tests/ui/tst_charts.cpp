// Charts fed with synthetic runs hold their data, order and mark it as documented, turn a
// click into a node selection, and export PNG, PDF, SVG and CSV files.
#include "charts/charts_panel.h"
#include "charts/latency_chart.h"
#include "charts/layer_accuracy_chart.h"
#include "charts/layer_timing_chart.h"
#include "charts/memory_chart.h"
#include "charts/run_comparison_chart.h"
#include "support/graph_builder.h"

#include "export/memory_planner.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

namespace {

ui::RunCharts syntheticRun() {
    ui::RunCharts run;
    run.label = "synthetic";
    run.layers = {{"conv1", "xnnpack", 1.5}, {"pool1", "portable", 0.2}, {"conv2", "xnnpack", 2.5}, {"fc", "portable", 0.4}};
    run.accuracy = {{"conv1", 1.0, 120, 1e-7}, {"pool1", 0.99999, 100, 1e-6}, {"conv2", 0.95, 12, 0.2}, {"fc", 0.9, 9, 0.3}};
    for (int i = 0; i < 50; ++i) run.latenciesMs.push_back(4.0 + (i % 10) * 0.1);
    return run;
}

int barCount(QCustomPlot* plot) {
    int bars = 0;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(plot->plottable(i))) bars += b->dataCount();
    return bars;
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT
private slots:
    void timingBarsByLibrary() {
        ui::ChartsPanel panel;
        panel.showRun(syntheticRun());
        ui::LayerTimingChart* timing = panel.timing();
        QVERIFY(timing->hasData());
        QCOMPARE(barCount(timing->plot()), 4);
        QCOMPARE(timing->plot()->plottableCount(), 2); // one series per library
        QCOMPARE(timing->drawnOrder(), (QStringList{"conv1", "pool1", "conv2", "fc"}));
        timing->setSorted(true);
        QCOMPARE(timing->drawnOrder(), (QStringList{"conv2", "conv1", "fc", "pool1"}));
        QSignalSpy clicked(&panel, &ui::ChartsPanel::nodeClicked);
        timing->clickBar(0);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.first().first().toString(), QStringLiteral("conv2"));
        timing->clickBar(99); // outside: nothing
        QCOMPARE(clicked.count(), 1);
    }

    void accuracyMarksFirstDivergentLayer_data() {
        QTest::addColumn<int>("metric");
        QTest::newRow("cosine") << int(ui::LayerAccuracyChart::Metric::Cosine);
        QTest::newRow("snr") << int(ui::LayerAccuracyChart::Metric::Snr);
        QTest::newRow("max rel") << int(ui::LayerAccuracyChart::Metric::MaxRel);
    }
    void accuracyMarksFirstDivergentLayer() {
        QFETCH(int, metric);
        ui::LayerAccuracyChart chart;
        chart.setMetric(ui::LayerAccuracyChart::Metric(metric));
        chart.setLayers(syntheticRun().accuracy);
        QCOMPARE(chart.firstDivergent(), 2);
        QCOMPARE(chart.plot()->graph(0)->dataCount(), 4);
        QCOMPARE(chart.plot()->itemCount(), 2); // the marker line and its label
    }

    void latencyHistogramCountsEverySample() {
        ui::LatencyChart chart;
        chart.setSamples(syntheticRun().latenciesMs);
        int total = 0;
        for (int c : chart.binCounts()) total += c;
        QCOMPARE(total, 50);
        QCOMPARE(ui::percentile({1, 2, 3, 4, 5}, 0.5), 3.0);
    }

    void comparisonShowsEveryRun() {
        ui::RunSeries a{"portable", {10, 11, 10.5, 10.2}, {{"conv1", "portable", 3}, {"fc", "portable", 1}}};
        ui::RunSeries b{"xnnpack", {6, 6.5, 6.2, 6.1}, {{"conv1", "xnnpack", 1}, {"fc", "portable", 1}}};
        ui::RunComparisonChart chart;
        chart.setRuns({a, b});
        QCOMPARE(chart.runCount(), 2);
        QCOMPARE(barCount(chart.plot()), 2);
        const QString csv = chart.toCsv();
        QVERIFY(csv.contains("portable,4,") && csv.contains("xnnpack,4,"));
        chart.setMode(ui::RunComparisonChart::Mode::LayerDeltas);
        QCOMPARE(barCount(chart.plot()), 2); // conv1 and fc deltas of the second run
        const ui::MeanInterval m = ui::meanInterval({1, 1, 1});
        QCOMPARE(m.mean, 1.0);
        QCOMPARE(m.halfWidth, 0.0);
    }

    void memoryChartFromAPlan() {
        test::GraphBuilder b("chain");
        ir::Value* x = b.input("x", ir::Shape{1, 8, 16, 16});
        ir::Value* r = b.op(ir::OpKind::Relu, {x}, {}, "relu");
        ir::Value* p = b.op(ir::OpKind::MaxPool, {r}, {{"kernel_shape", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}}, "pool");
        ir::Value* s = b.op(ir::OpKind::Sigmoid, {p}, {}, "sig");
        b.output(s);
        const ir::Graph g = b.build();
        auto plan = exporter::planMemory(g);
        QVERIFY(plan.ok());
        ui::MemoryChart chart;
        chart.setTimeline(ui::memoryTimeline(*plan));
        QVERIFY(chart.hasData());
        QCOMPARE(chart.timeline().schedule.size(), qsizetype(3));
        QCOMPARE(chart.plot()->itemCount(), int(chart.timeline().buffers.size()));
        QCOMPARE(chart.timeline().arenaBytes, qint64(plan->arenaBytes));
        QVERIFY(chart.timeline().lowerBoundBytes <= chart.timeline().arenaBytes);
    }

    void exports_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("ok");
        QTest::newRow("png") << "timing.png" << true;
        QTest::newRow("pdf") << "timing.pdf" << true;
        QTest::newRow("svg") << "timing.svg" << true;
        QTest::newRow("csv") << "timing.csv" << true;
        QTest::newRow("unknown suffix") << "timing.bmpx" << false;
        QTest::newRow("missing folder") << "no/such/folder/timing.csv" << false;
    }
    void exports() {
        QFETCH(QString, file);
        QFETCH(bool, ok);
        QTemporaryDir dir;
        ui::LayerTimingChart chart;
        chart.resize(800, 500);
        chart.setLayers(syntheticRun().layers);
        const QString path = dir.filePath(file);
        QString error;
        QCOMPARE(chart.exportTo(path, &error), ok);
        if (!ok) {
            QVERIFY(error.contains(path));
            return;
        }
        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray bytes = written.readAll();
        QVERIFY(bytes.size() > 100 || file.endsWith("csv"));
        if (file.endsWith("csv")) QVERIFY(bytes.startsWith("node,library,ms\nconv1,xnnpack,1.5\n"));
        if (file.endsWith("svg")) QVERIFY(bytes.contains("<svg"));
        if (file.endsWith("pdf")) QVERIFY(bytes.startsWith("%PDF"));
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"

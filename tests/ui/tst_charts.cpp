// Charts fed with synthetic runs hold their data, order and mark it as documented, turn a
// click into a node selection, and export PNG, PDF, SVG and CSV files. Issue #19: the timing
// chart stays readable on a 439-layer model (rows, middle-elided names, tooltips, totals by op
// type), empty charts say how to fill them, the memory and comparison legends stay off the
// data, the accuracy chart has a tolerance line, a highlighted worst layer and ticks that do
// not overlap.
// The charts' test data is written as brace lists that leave the optional members out.
#if defined(__GNUC__)
#  pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include "charts/chart_data.h"
#include "charts/chart_widget.h"
#include "charts/charts_panel.h"
#include "charts/latency_chart.h"
#include "charts/layer_accuracy_chart.h"
#include "charts/layer_timing_chart.h"
#include "charts/memory_chart.h"
#include "charts/run_comparison_chart.h"
#include "history/run_report_writer.h"
#include "support/graph_builder.h"

#include "export/memory_planner.h"

#include <qcustomplot.h>

#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cmath>
#include <QTest>
#include <QTranslator>
#include <QPushButton>

using namespace embark;

namespace {

ui::RunCharts syntheticRun() {
    ui::RunCharts run;
    run.label = "synthetic";
    run.layers = {
        {"conv1", "xnnpack", 1.5}, {"pool1", "portable", 0.2}, {"conv2", "xnnpack", 2.5}, {"fc", "portable", 0.4}};
    run.accuracy = {
        {"conv1", 1.0, 120, 1e-7}, {"pool1", 0.99999, 100, 1e-6}, {"conv2", 0.95, 12, 0.2}, {"fc", 0.9, 9, 0.3}};
    for (int i = 0; i < 50; ++i) run.latenciesMs.push_back(4.0 + (i % 10) * 0.1);
    return run;
}

int barCount(QCustomPlot* plot) {
    int bars = 0;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(plot->plottable(i))) bars += b->dataCount();
    return bars;
}

// A densenet121-sized run: 439 layers named as torch.onnx names them, three of them
// "downsample.0/Conv" in different blocks, and 126 layout conversions taking 7.6 of 57 ms.
std::vector<ui::LayerTiming> bigRun() {
    std::vector<ui::LayerTiming> layers;
    layers.push_back({"/layer2/layer2.0/downsample/downsample.0/Conv", "xnnpack", 0.20});
    layers.push_back({"/layer3/layer3.0/downsample/downsample.0/Conv", "xnnpack", 0.21});
    layers.push_back({"/layer4/layer4.0/downsample/downsample.0/Conv", "xnnpack", 0.22});
    for (int i = 0; i < 126; ++i)
        layers.push_back(
            {QStringLiteral("/features/denseblock%1/denselayer%2/Concat_output_0_to_nhwc").arg(i % 4 + 1).arg(i),
             "portable", 7.6 / 126});
    double rest = 57.0 - 7.6 - 0.63;
    for (int i = 0; layers.size() < 439; ++i)
        layers.push_back(
            {QStringLiteral("/features/denseblock%1/denselayer%2/conv%3/Conv").arg(i % 4 + 1).arg(i / 2).arg(i % 2 + 1),
             "xnnpack", rest / 310});
    return layers;
}

// Shows `w` offscreen at a size and lets queued layout updates run.
void showAt(QWidget* w, int width, int height) {
    w->resize(width, height);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
    QTest::qWait(50);
}

// With EMBARK_TEST_SHOTS=DIR, saves what the test shows as DIR/<name>.png to look at.
void shot(QWidget* w, const QString& name) {
    const QString dir = qEnvironmentVariable("EMBARK_TEST_SHOTS");
    if (!dir.isEmpty()) w->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

QPointF barCentre(QCustomPlot* plot, int row, double value) {
    return {plot->xAxis->coordToPixel(value / 2), plot->yAxis->coordToPixel(row)};
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
        QCOMPARE(timing->plot()->plottableCount(), 2);                    // one series per library
        QCOMPARE(timing->view(), ui::LayerTimingChart::View::GraphOrder); // a small model: graph order
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

    // Issue #33 defect 12: "0.000 ms (10.8%)" and "median 0.004 / p90 0.004" (overlapping): a
    // tiny model's times switch to µs, axes included, and the two marks never share a line.
    void tinyTimesSwitchToMicroseconds() {
        QCOMPARE(ui::formatTime(0.0043), QStringLiteral("4.300 \u00b5s"));
        QCOMPARE(ui::formatTime(0.25), QStringLiteral("250.0 \u00b5s"));
        QCOMPARE(ui::formatTime(12.5), QStringLiteral("12.50 ms"));
        QCOMPARE(ui::formatTime(12500), QStringLiteral("12.50 s"));
        ui::LayerTimingChart timing;
        timing.setLayers({{"conv1", "portable", 0.0004, QString()}, {"fc", "portable", 0.0033, QString()}});
        timing.setView(ui::LayerTimingChart::View::Slowest);
        QVERIFY2(timing.plot()->xAxis->label().contains(QStringLiteral("\u00b5s")),
                 qPrintable(timing.plot()->xAxis->label()));
        QStringList labels;
        for (int i = 0; i < timing.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(timing.plot()->item(i))) labels << t->text();
        QVERIFY2(labels.contains(QStringLiteral(" 3.300 \u00b5s (89.2%)")) &&
                     labels.contains(QStringLiteral(" 0.400 \u00b5s (10.8%)")),
                 qPrintable(labels.join('|')));
        ui::LatencyChart latency;
        latency.setSamples({0.0040, 0.0041, 0.0042, 0.0043, 0.0044, 0.0045, 0.0046, 0.0047, 0.0048, 0.0049});
        QVERIFY(latency.plot()->xAxis->label().contains(QStringLiteral("\u00b5s")));
        std::vector<QCPItemText*> marks;
        for (int i = 0; i < latency.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(latency.plot()->item(i))) marks.push_back(t);
        QCOMPARE(int(marks.size()), 2);
        QVERIFY2(marks[0]->text().contains(QStringLiteral("median 4.450 \u00b5s")), qPrintable(marks[0]->text()));
        QVERIFY2(marks[1]->text().contains(QStringLiteral("p90 4.810 \u00b5s")), qPrintable(marks[1]->text()));
        QVERIFY(marks[0]->position->coords().y() != marks[1]->position->coords().y());
    }

    // Issue #33 defect 3: "The 25 slowest layers" drew 18 bars (the rest scrolled away).
    void reportChartHoldsEveryRow() {
        ui::LayerTimingChart timing;
        std::vector<ui::LayerTiming> layers;
        for (int i = 0; i < 40; ++i)
            layers.push_back({QStringLiteral("/block%1/conv/Conv").arg(i), "portable", 1.0 + i, QString()});
        timing.setLayers(layers);
        timing.setView(ui::LayerTimingChart::View::Slowest);
        timing.setTopCount(25);
        const QImage image = ui::renderChartForReport(&timing);
        QCOMPARE(timing.rowCount(), 25);
        QVERIFY2(timing.visibleRowCount() >= 25, qPrintable(QString::number(timing.visibleRowCount())));
        QCOMPARE(timing.firstVisibleRow(), 0);
        QVERIFY(image.height() > 300);
    }

    void comparisonShowsEveryRun() {
        ui::RunSeries a{"portable", {10, 11, 10.5, 10.2}, {{"conv1", "portable", 3}, {"fc", "portable", 1}}};
        ui::RunSeries b{"xnnpack", {6, 6.5, 6.2, 6.1}, {{"conv1", "xnnpack", 1}, {"fc", "portable", 1}}};
        ui::RunComparisonChart chart;
        chart.setRuns({a, b});
        QCOMPARE(chart.runCount(), 2);
        QCOMPARE(barCount(chart.plot()), 2);
        // Issue #33: the comparison says the speed-up (10.425 / 6.2 ms).
        QVERIFY(std::abs(chart.speedUp(1) - 10.425 / 6.2) < 1e-9);
        QCOMPARE(chart.speedUpText(1), QStringLiteral("1.68\u00d7 faster"));
        QStringList texts;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(chart.plot()->item(i))) texts << t->text();
        QVERIFY2(texts.join('|').contains(QStringLiteral("1.68\u00d7 faster")), qPrintable(texts.join('|')));
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
        ir::Value* p =
            b.op(ir::OpKind::MaxPool, {r},
                 {{"kernel_shape", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}}, "pool");
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
        QVERIFY(!chart.placeholderVisible());
        QCOMPARE(chart.timeline().arenaBytes, qint64(plan->arenaBytes));
        QVERIFY(chart.timeline().lowerBoundBytes <= chart.timeline().arenaBytes);
    }

    // Defect 3: on a 439-layer model the chart was ~35 px of plot under slanted labels, a
    // black smear of bars, names cut to "downsample.0/Conv" and no tooltips.
    void timingChartIsReadableOnABigModel() {
        ui::LayerTimingChart chart;
        chart.setLayers(bigRun());
        showAt(&chart, 900, 330);
        QCustomPlot* plot = chart.plot();
        QVERIFY2(plot->axisRect()->height() >= 150, qPrintable(QString::number(plot->axisRect()->height())));
        // A big model starts with its slowest layers, one readable row each.
        QCOMPARE(chart.view(), ui::LayerTimingChart::View::Slowest);
        QCOMPARE(chart.drawnOrder().size(), 25);
        shot(&chart, QStringLiteral("timing-slowest"));
        const int lineHeight = QFontMetrics(plot->yAxis->tickLabelFont()).height();
        QVERIFY(chart.visibleRowCount() * lineHeight <= plot->axisRect()->height());
        QCOMPARE(plot->yAxis->tickLabelRotation(), 0.0);
        // Every layer in graph order scrolls instead of squeezing 439 bars.
        chart.setView(ui::LayerTimingChart::View::GraphOrder);
        QTest::qWait(20);
        QCOMPARE(chart.rowCount(), 439);
        QVERIFY(chart.visibleRowCount() < 439 && chart.visibleRowCount() >= 5);
        QVERIFY(chart.visibleRowCount() * lineHeight <= plot->axisRect()->height());
        QVERIFY(chart.rowScrollBar()->isVisible());
        QCOMPARE(plot->yAxis->range().size(), double(chart.visibleRowCount()));
        shot(&chart, QStringLiteral("timing-graph-order"));
        chart.scrollToRow(200);
        QCOMPARE(chart.firstVisibleRow(), 200);
        QCOMPARE(plot->yAxis->range().lower, 199.5);
        chart.scrollToRow(0);
        // Middle elision keeps which block: the three downsample convolutions read apart.
        const QStringList labels = chart.rowTickLabels();
        QCOMPARE(labels.size(), 439);
        QVERIFY2(labels[0] != labels[1] && labels[1] != labels[2] && labels[0] != labels[2],
                 qPrintable(labels.mid(0, 3).join(" | ")));
        for (int i = 0; i < 3; ++i) {
            QVERIFY2(labels[i].contains(QStringLiteral("layer%1").arg(i + 2)), qPrintable(labels[i]));
            QVERIFY2(labels[i].endsWith(QStringLiteral("Conv")), qPrintable(labels[i]));
        }
        // Hovering a bar names the layer in full with its op, library, time and share.
        const QString tip = chart.toolTipAt(barCentre(plot, 1, 0.21));
        QVERIFY2(tip.contains(QStringLiteral("/layer3/layer3.0/downsample/downsample.0/Conv")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("op: Conv")) && tip.contains(QStringLiteral("xnnpack")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("210.0 \u00b5s")) && tip.contains(QStringLiteral("0.4%")),
                 qPrintable(tip));
        // Clicking a row selects its node.
        QSignalSpy clicked(&chart, &ui::LayerTimingChart::nodeClicked);
        QTest::mouseClick(plot, Qt::LeftButton, {}, barCentre(plot, 2, 0.22).toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.first().first().toString(), QStringLiteral("/layer4/layer4.0/downsample/downsample.0/Conv"));
        // At the smallest dock height the plot keeps a readable minimum.
        chart.resize(600, 120);
        QTest::qWait(20);
        QVERIFY(plot->height() >= 180);
    }

    // Defect 3 / big graphs: densenet121's 126 layout conversions take 7.6 of 57 ms; a view
    // must show it.
    void timingTotalsByOpType() {
        ui::LayerTimingChart chart;
        chart.setLayers(bigRun());
        showAt(&chart, 900, 330);
        chart.setView(ui::LayerTimingChart::View::ByOpType);
        const QStringList ops = chart.drawnOrder();
        QCOMPARE(ops, (QStringList{"Conv", "layout conversion"}));
        shot(&chart, QStringLiteral("timing-by-op"));
        QCOMPARE(chart.rowTickLabels().at(1), QStringLiteral("layout conversion ×126"));
        const QString tip = chart.rowToolTip(1);
        QVERIFY2(tip.contains(QStringLiteral("126 layers")) &&
                     tip.contains(QStringLiteral("7.600 ms of 57.00 ms (13.3%)")),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("portable")), qPrintable(tip));
        QSignalSpy clicked(&chart, &ui::LayerTimingChart::nodeClicked);
        chart.clickBar(0); // an op type is no node
        QCOMPARE(clicked.count(), 0);
        // The op the export names wins over the name.
        QCOMPARE(ui::layerOpType({"stem", "xnnpack", 1, "Conv"}), QStringLiteral("Conv"));
        QCOMPARE(ui::layerOpType({"/Relu_3", "xnnpack", 1}), QStringLiteral("Relu"));
        QCOMPARE(ui::layerOpType({"input_to_nchw_2", "portable", 1, "Transpose"}), QStringLiteral("layout conversion"));
    }

    // Defect 13: at first start the charts were empty with no hint.
    void emptyChartsSayHowToFillThem() {
        ui::ChartsPanel panel;
        showAt(&panel, 800, 300);
        for (ui::ChartWidget* chart :
             std::initializer_list<ui::ChartWidget*>{panel.timing(), panel.accuracy(), panel.latency()}) {
            QVERIFY(chart->placeholderVisible() || !chart->isVisible());
            QVERIFY2(chart->placeholderText().contains(QStringLiteral("F5")), qPrintable(chart->placeholderText()));
        }
        QVERIFY(panel.timing()->placeholderVisible());
        // Issue #33 defect 13: no squashed axis with overlapping labels behind the hint.
        QVERIFY(!panel.timing()->plot()->xAxis->visible() && !panel.timing()->plot()->yAxis->visible());
        QVERIFY(!panel.timing()->plot()->legend->visible());
        shot(&panel, QStringLiteral("empty-timing"));
        QVERIFY(panel.comparison()->placeholderText().contains(QStringLiteral("Compare")));
        ui::MemoryChart memory;
        QVERIFY(!memory.placeholderText().isEmpty());
        panel.showRun(syntheticRun());
        QVERIFY(!panel.timing()->placeholderVisible());
        QVERIFY(panel.timing()->plot()->xAxis->visible() && panel.timing()->plot()->yAxis->visible());
        QVERIFY(panel.timing()->plot()->legend->visible());
    }

    // A chart filled while its tab was hidden picks names or layer numbers for the width it
    // gets when shown (the studio's accuracy tab showed numbers for 8 layers).
    void accuracyNamesLayersWhenTheyFit() {
        ui::ChartsPanel panel;
        showAt(&panel, 1000, 320);
        panel.showRun(syntheticRun());
        panel.tabs()->setCurrentWidget(panel.accuracy());
        QTest::qWait(50);
        QCustomPlot* plot = panel.accuracy()->plot();
        auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(2), QStringLiteral("conv2"));
        QVERIFY(plot->xAxis->label().isEmpty());
    }

    // Defect 13: after opening another model the previous model's charts and comparison stayed.
    void clearForModelDropsAnotherModelsCharts() {
        ui::ChartsPanel panel;
        ui::RunCharts run = syntheticRun();
        run.modelPath = "/models/resnet18.onnx";
        panel.showRun(run);
        panel.compareRuns({{"#1", {1, 2}, {}, "/models/resnet18.onnx"}, {"#2", {1, 2}, {}, "/models/resnet18.onnx"}});
        panel.clearForModel("/models/resnet18.onnx"); // the same model: kept
        QVERIFY(panel.timing()->hasData() && panel.comparison()->hasData());
        panel.clearForModel("/models/densenet121.onnx");
        QVERIFY(!panel.timing()->hasData());
        QVERIFY(!panel.accuracy()->hasData());
        QVERIFY(!panel.latency()->hasData());
        QVERIFY(!panel.comparison()->hasData());
        QVERIFY(panel.timing()->placeholderText().contains(QStringLiteral("F5")));
    }

    // Defect 6: comparing runs of two models gave no warning; the delta legend covered the
    // tallest bar.
    void comparisonWarnsAndKeepsItsLegendOffTheBars() {
        ui::RunSeries a{"#1 digits", {10, 11}, {{"conv1", "portable", 3}, {"fc", "portable", 1}}, "/m/digits_cnn.onnx"};
        ui::RunSeries b{"#2 resnet18", {6, 6.5}, {{"conv1", "xnnpack", 1}, {"fc", "portable", 9}}, "/m/resnet18.onnx"};
        ui::RunComparisonChart chart;
        chart.setRuns({a, b});
        QVERIFY2(chart.warning().contains(QStringLiteral("different models")), qPrintable(chart.warning()));
        chart.setRuns({a, a});
        QVERIFY(chart.warning().isEmpty());
        chart.setRuns({a, b});
        chart.setMode(ui::RunComparisonChart::Mode::LayerDeltas);
        showAt(&chart, 700, 300);
        QCustomPlot* plot = chart.plot();
        QVERIFY(plot->legend->visible());
        shot(&chart, QStringLiteral("comparison-deltas"));
        QVERIFY2(!plot->legend->outerRect().intersects(plot->axisRect()->rect()), "the legend is over the plot");
        QCOMPARE(chart.deltaRows(), (QStringList{"conv1", "fc"}));
        const QString tip = chart.toolTipAt(QPointF(plot->xAxis->coordToPixel(4), plot->yAxis->coordToPixel(1)));
        QVERIFY2(tip.contains(QStringLiteral("fc")) && tip.contains(QStringLiteral("+8.000 ms")), qPrintable(tip));
    }

    // Defect 16: overlapping log ticks, no tolerance line, the worst layer not highlighted.
    void accuracyShowsToleranceAndWorstLayer() {
        ui::LayerAccuracyChart chart;
        std::vector<ui::LayerAccuracy> layers;
        for (int i = 0; i < 120; ++i)
            layers.push_back({QStringLiteral("/blocks/b%1/Conv").arg(i), 1.0, 120, std::pow(10.0, -12 + i / 10.0)});
        layers[77].cosine = 0.98;
        chart.setLayers(layers);
        showAt(&chart, 800, 260);
        chart.setMetric(ui::LayerAccuracyChart::Metric::MaxRel);
        QTest::qWait(20);
        QCustomPlot* plot = chart.plot();
        plot->replot();
        QCOMPARE(chart.worstLayer(), 119);
        shot(&chart, QStringLiteral("accuracy-maxrel"));
        // Tick labels one per >= 1.5 lines of text at most: none overlap.
        const int ticks = int(plot->yAxis->tickVector().size());
        const int lineHeight = QFontMetrics(plot->yAxis->tickLabelFont()).height();
        QVERIFY2(ticks >= 2 && ticks * lineHeight * 3 / 2 <= plot->axisRect()->height(),
                 qPrintable(QStringLiteral("%1 ticks in %2 px").arg(ticks).arg(plot->axisRect()->height())));
        QStringList legend;
        for (int i = 0; i < plot->graphCount(); ++i) legend << plot->graph(i)->name();
        QVERIFY2(legend.filter(QStringLiteral("tolerance 0.001")).size() == 1, qPrintable(legend.join(" | ")));
        QVERIFY2(legend.filter(QStringLiteral("worst: ")).size() == 1, qPrintable(legend.join(" | ")));
        QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->rect()));
        chart.setMetric(ui::LayerAccuracyChart::Metric::Cosine);
        QCOMPARE(chart.worstLayer(), 77);
        QCOMPARE(chart.tolerance(), 0.999);
        // 120 names cannot sit side by side: layer numbers, and the tooltip names the layer.
        QVERIFY(plot->xAxis->label().contains(QStringLiteral("hover")));
        const QString tip = chart.toolTipAt(QPointF(plot->xAxis->coordToPixel(77), plot->yAxis->coordToPixel(0.99)));
        QVERIFY2(tip.contains(QStringLiteral("/blocks/b77/Conv")) && tip.contains(QStringLiteral("worst layer")),
                 qPrintable(tip));
    }

    // Defect 8: the legend covered 40% of the plot, the arena line hid under the lower-bound
    // line, no tooltips on buffers.
    void memoryChartLegendArenaAndTooltips() {
        ui::MemoryTimeline t;
        t.schedule = {"conv1", "relu1", "pool1"};
        t.buffers = {{0, 0, 4096, 0, 1, "conv1_out"}, {1, 4096, 2048, 1, 2, "relu1_out"}};
        t.liveBytes = {4096, 6144, 2048};
        t.arenaBytes = 6144;
        t.lowerBoundBytes = 6144;
        ui::MemoryChart chart;
        chart.setTimeline(t);
        showAt(&chart, 500, 300);
        QCustomPlot* plot = chart.plot();
        QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->rect()));
        shot(&chart, QStringLiteral("memory"));
        for (int i = 0; i < plot->legend->itemCount(); ++i) // no entry clipped by the chart's width
            if (QCPAbstractLegendItem* item = plot->legend->item(i))
                QVERIFY(item->outerRect().right() <= plot->width());
        // The arena is drawn after (over) the bound, thicker, and says when it equals it.
        QCPGraph* bound = nullptr;
        QCPGraph* arena = nullptr;
        for (int i = 0; i < plot->graphCount(); ++i) {
            if (plot->graph(i)->name().startsWith(QStringLiteral("lower bound"))) bound = plot->graph(i);
            if (plot->graph(i)->name().startsWith(QStringLiteral("arena"))) arena = plot->graph(i);
        }
        QVERIFY(bound && arena);
        QVERIFY(plot->graph(plot->graphCount() - 1) == arena);
        QVERIFY(arena->pen().widthF() > bound->pen().widthF());
        QVERIFY2(arena->name().contains(QStringLiteral("optimal")), qPrintable(arena->name()));
        const QString tip = chart.toolTipAt(QPointF(plot->xAxis->coordToPixel(1.5), plot->yAxis->coordToPixel(5.0)));
        QVERIFY2(tip.contains(QStringLiteral("relu1_out")) && tip.contains(QStringLiteral("048 bytes")) &&
                     tip.contains(QStringLiteral("pool1")),
                 qPrintable(tip));
        QVERIFY(chart.toolTipAt(QPointF(plot->xAxis->coordToPixel(2), plot->yAxis->coordToPixel(1.0))).isEmpty());
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

    // Issue 33, defect 14: "Export" read "Exporte" in French at 1366x768: the timing chart's
    // summary and the long view names made the chart wider than its dock. In French, a
    // chart fits a narrow dock (460 px) with its whole Export button inside.
    void frenchChartsFitANarrowDock() {
        QTranslator fr;
        QVERIFY(fr.load(QStringLiteral(":/i18n/embark_fr.qm")));
        QCoreApplication::installTranslator(&fr);
        ui::LayerTimingChart timing;
        timing.setLayers(bigRun());
        ui::RunComparisonChart comparison;
        const ui::RunCharts run = syntheticRun();
        comparison.setRuns({ui::RunSeries{QStringLiteral("run #3"), run.latenciesMs, run.layers, {}},
                            ui::RunSeries{QStringLiteral("run #7"), run.latenciesMs, run.layers, {}}});
        for (ui::ChartWidget* chart : std::initializer_list<ui::ChartWidget*>{&timing, &comparison}) {
            QStringList parts;
            for (QWidget* c : chart->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
                parts << QStringLiteral("%1:%2")
                             .arg(QString::fromLatin1(c->metaObject()->className()))
                             .arg(c->minimumSizeHint().width());
            // (Before: ~790 px for the timing chart, its French summary on one line.)
            QVERIFY2(
                chart->minimumSizeHint().width() <= 460,
                qPrintable(QString::number(chart->minimumSizeHint().width()) + QLatin1Char(' ') + parts.join(' ')));
            showAt(chart, 460, 300);
            QPushButton* exportButton = nullptr;
            for (QPushButton* b : chart->findChildren<QPushButton*>())
                if (b->text() == QStringLiteral("Exporter\u2026")) exportButton = b;
            QVERIFY(exportButton);
            QVERIFY(exportButton->width() >= exportButton->sizeHint().width());
            QVERIFY(exportButton->geometry().right() < chart->width());
        }
        QCoreApplication::removeTranslator(&fr);
    }

    // Issue 33: an exported chart carries a title naming the model, board, library and run;
    // the chart on screen keeps its layout.
    void exportedChartsSayWhichRun() {
        QTemporaryDir dir;
        ui::ChartsPanel panel;
        ui::RunCharts run = syntheticRun();
        run.runId = 7;
        run.modelPath = QStringLiteral("/models/resnet18.onnx");
        run.boardId = QStringLiteral("sim-k230");
        run.library = QStringLiteral("portable");
        panel.showRun(run);
        panel.compareRuns({ui::RunSeries{QStringLiteral("run #3"), run.latenciesMs, run.layers, run.modelPath},
                           ui::RunSeries{QStringLiteral("run #7"), run.latenciesMs, run.layers, run.modelPath}});
        QCOMPARE(panel.comparison()->exportTitle(), QStringLiteral("Run comparison \u00b7 run #3 vs run #7"));
        for (ui::ChartWidget* chart :
             std::initializer_list<ui::ChartWidget*>{panel.timing(), panel.accuracy(), panel.latency()}) {
            const QString title = chart->exportTitle();
            for (const char* part : {"run #7", "resnet18", "sim-k230", "portable"})
                QVERIFY2(title.contains(QLatin1String(part)), qPrintable(title));
            chart->resize(800, 500);
            const int rows = chart->plot()->plotLayout()->rowCount();
            const QString path = dir.filePath(QStringLiteral("chart.svg"));
            QVERIFY(chart->exportTo(path));
            QFile svg(path);
            QVERIFY(svg.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(svg.readAll());
            for (const char* part : {"run #7", "resnet18", "sim-k230", "portable"})
                QVERIFY2(text.contains(QLatin1String(part)), part);
            QCOMPARE(chart->plot()->plotLayout()->rowCount(), rows);
            QVERIFY(chart->exportTo(dir.filePath(QStringLiteral("chart.png"))));
        }
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"

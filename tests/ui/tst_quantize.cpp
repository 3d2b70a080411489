// The studio's quantization loop on the bundled digits model: the Quantize dialog refuses
// what cannot work (no calibration data, unknown op or node), a quantize job on the model's
// test_data_set folders completes in the Jobs queue and fills the Quantization chart with one
// bar per quantized layer, clicking a bar selects its node in the graph, "keep in float"
// quantizes again with the node excluded and shows both series, Model > Quantize... runs the
// dialog's request, PNG images calibrate as the CLI's do, and a cancelled job writes nothing.
#include "charts/charts_panel.h"
#include "jobs/studio_jobs.h"
#include "mainwindow/mainwindow.h"
#include "quantize/quant_error_chart.h"
#include "quantize/quantize_dialog.h"
#include "quantize/studio_quantize.h"
#include "session/studio_session.h"
#include "support/test_paths.h"

#include "image_decoder.h"

#include "onnx/importer.h"
#include "onnx/tensor_io.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace embark;

namespace {

QString digitsModel() { return test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"); }
QString digitsSets() { return test::sourceDir() + QStringLiteral("/resources/models/digits_cnn"); }

// The nodes quantize makes int8 in the float model: Conv, Gemm, MatMul with constant weights.
QStringList quantizableNodes() {
    auto g = onnx::importModel(digitsModel().toStdString());
    if (!g) return {};
    QStringList out;
    for (const ir::Node* n : g->nodes())
        if (jobs::keepInFloatTarget(*g, n->name) == n->name) out << QString::fromStdString(n->name);
    return out;
}

// Waits until `spy` (on StudioQuantize::quantizeFinished) saw job `id` end; returns whether
// it succeeded.
bool waitFor(QSignalSpy& spy, int id) {
    for (int waited = 0; waited < 300000; waited += 50) {
        for (const QList<QVariant>& args : spy)
            if (args.at(0).toInt() == id) return args.at(1).toBool();
        QTest::qWait(50);
    }
    return false;
}

} // namespace

class TestQuantize : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    jobs::QuantizeRequest request(const QString& out) const {
        jobs::QuantizeRequest r;
        r.modelPath = digitsModel();
        r.calibration = {digitsSets()};
        r.outPath = m_tmp.filePath(out);
        return r;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());
        qputenv("EMBARK_DATA_DIR", (m_tmp.path() + "/data").toUtf8());
        jobs::installImageDecoder(&imageio::decodeImage); // as the studio's main does
    }

    void dialogValidatesInput() {
        auto graph = onnx::importModel(digitsModel().toStdString());
        QVERIFY(graph);
        ui::QuantizeDialog dialog(digitsModel(), std::make_shared<const ir::Graph>(std::move(*graph)));
        // The model's own test_data_set folders are proposed, the output goes beside the model.
        QCOMPARE(dialog.calibrationList()->count(), 1);
        QCOMPARE(dialog.validationError(), QString());
        QVERIFY(dialog.outputEdit()->text().endsWith(QLatin1String("digits_cnn.int8.onnx")));

        dialog.calibrationList()->clear();
        dialog.show();
        dialog.accept();
        QVERIFY(dialog.isVisible()); // not accepted
        QVERIFY(dialog.errorLabel()->isVisible());
        QVERIFY2(dialog.errorLabel()->text().contains(QLatin1String("calibration data")),
                 qPrintable(dialog.errorLabel()->text()));

        dialog.calibrationList()->addItem(m_tmp.filePath("no_such_folder"));
        QVERIFY(dialog.validationError().contains(QLatin1String("does not exist")));
        dialog.calibrationList()->clear();
        dialog.calibrationList()->addItem(digitsSets());
        dialog.excludeOpsEdit()->setText(QStringLiteral("Gemm, Convolution"));
        QVERIFY(dialog.validationError().contains(QLatin1String("'Convolution'")));
        dialog.excludeOpsEdit()->setText(QStringLiteral("Gemm"));
        dialog.excludeNodesEdit()->setText(QStringLiteral("no_such_node"));
        QVERIFY(dialog.validationError().contains(QLatin1String("'no_such_node'")));
        dialog.excludeNodesEdit()->clear();
        dialog.outputEdit()->setText(digitsModel());
        QVERIFY(dialog.validationError().contains(QLatin1String("float model")));
        dialog.outputEdit()->setText(m_tmp.filePath("d.onnx"));
        dialog.resizeEdit()->setText(QStringLiteral("16x0"));
        QVERIFY(dialog.validationError().contains(QLatin1String("WxH")));
        dialog.resizeEdit()->setText(QStringLiteral("16x16"));
        dialog.stdEdit()->setText(QStringLiteral("0.5,0"));
        QVERIFY(dialog.validationError().contains(QLatin1String("greater than 0")));
        dialog.stdEdit()->setText(QStringLiteral("0.5"));
        dialog.methodBox()->setCurrentIndex(dialog.methodBox()->findData(QStringLiteral("percentile")));
        QCOMPARE(dialog.validationError(), QString());
        const jobs::QuantizeRequest r = dialog.request();
        QCOMPARE(r.options.method, passes::CalibrationMethod::Percentile);
        QCOMPARE(r.excludeOps, QStringList{QStringLiteral("Gemm")});
        QCOMPARE(r.image.resizeWidth, 16);
        QCOMPARE(r.image.std, std::vector<double>{0.5});
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    void quantizeShowsPerLayerErrorLinkedToTheGraph() {
        const QStringList expected = quantizableNodes();
        QVERIFY(expected.size() >= 2);
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openModel(digitsModel(), true));
        ui::StudioQuantize* q = w.quantize();
        QSignalSpy spy(q, &ui::StudioQuantize::quantizeFinished);
        QVERIFY(q->quantizeAction()->isEnabled());
        QVERIFY(!q->openQuantizedAction()->isEnabled());
        bool inModelMenu = false;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu() && a->menu()->actions().contains(q->quantizeAction())) inModelMenu = true;
        QVERIFY(inModelMenu);

        const int id = q->quantize(request("digits.int8.onnx"));
        QVERIFY(id > 0);
        QCOMPARE(w.jobs()->queue()->job(id)->kind(), jobs::JobKind::Quantize);
        QVERIFY(waitFor(spy, id));
        auto job = w.jobs()->queue()->job(id);
        QVERIFY2(job->state() == jobs::JobState::Succeeded, qPrintable(job->message()));
        QVERIFY(QFileInfo::exists(m_tmp.filePath("digits.int8.onnx")));
        QVERIFY(q->openQuantizedAction()->isEnabled());
        QVERIFY2(w.statusBar()->currentMessage().contains(
                     QStringLiteral("%1 layer(s) int8, 0 kept in float").arg(expected.size())),
                 qPrintable(w.statusBar()->currentMessage()));

        // One bar per quantized layer, in the float model's order, shown in the Charts dock.
        ui::QuantErrorChart* chart = q->chart();
        QCOMPARE(w.charts()->tabs()->currentWidget(), static_cast<QWidget*>(chart));
        QCOMPARE(chart->series().size(), size_t(1));
        QCOMPARE(chart->rowNodes(), expected);
        QCOMPARE(chart->rowCount(), int(expected.size()));
        QCOMPARE(q->lastResult()->quantizedNodes, expected);
        QVERIFY(chart->worstRow() >= 0);
        for (const ui::QuantLayerError& l : chart->series()[0].layers) {
            QVERIFY(l.quantized);
            QVERIFY2(l.snrDb > 10 && l.snrDb < 80, qPrintable(QStringLiteral("%1: %2 dB").arg(l.node).arg(l.snrDb)));
        }
        QVERIFY(chart->summary()->text().contains(chart->rowNodes().at(chart->worstRow())));

        // A click on the last bar selects its node in the graph.
        w.chartsDock()->show();
        w.chartsDock()->raise();
        chart->resize(900, 500);
        QTest::qWait(50);
        const int row = chart->rowCount() - 1;
        chart->scrollToRow(0);
        QCustomPlot* plot = chart->plot();
        const QPoint at(int(plot->xAxis->coordToPixel(1)), int(plot->yAxis->coordToPixel(row)));
        QCOMPARE(chart->rowAt(at), row);
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        QTRY_COMPARE(w.session()->selectedNode(), expected.at(row));

        // The graph's context menu offers "keep in float" for a quantized node.
        QMenu menu;
        q->addNodeActions(&menu, expected.first());
        bool offered = false;
        for (QAction* a : menu.actions()) offered = offered || a->text().contains(QLatin1String("in float"));
        QVERIFY(offered);

        // Keep the worst layer in float: a second job, and its error beside the first.
        // (Through the bar's context menu, as a right-click shows it.)
        const QString worst = chart->rowNodes().at(chart->worstRow());
        QMenu barMenu;
        chart->fillRowMenu(&barMenu, chart->worstRow());
        QAction* keepAction = nullptr;
        for (QAction* a : barMenu.actions())
            if (a->text().contains(QLatin1String("in float"))) keepAction = a;
        QVERIFY(keepAction && keepAction->isEnabled());
        const size_t jobsBefore = w.jobs()->queue()->jobs().size();
        keepAction->trigger();
        QCOMPARE(w.jobs()->queue()->jobs().size(), jobsBefore + 1);
        const int keep = w.jobs()->queue()->jobs().back()->id();
        QVERIFY(waitFor(spy, keep));
        QCOMPARE(chart->series().size(), size_t(2));
        QCOMPARE(chart->rowNodes(), expected); // the kept node keeps its row
        QVERIFY(chart->series()[1].label.contains(worst));
        bool keptFloat = false;
        for (const ui::QuantLayerError& l : chart->series()[1].layers)
            if (l.node == worst) keptFloat = !l.quantized;
        QVERIFY(keptFloat);
        QVERIFY(q->lastResult()->request.excludeNodes.contains(worst));
        // The model written has that node in float, the others int8.
        auto written = onnx::importModel(m_tmp.filePath("digits.int8.onnx").toStdString());
        QVERIFY(written);
        const QStringList int8 = jobs::quantizedNodeNames(*written);
        QVERIFY(!int8.contains(worst));
        QCOMPARE(int8.size(), expected.size() - 1);
        // Keeping it again is refused without a job.
        QCOMPARE(q->keepInFloat(worst), -1);

        // The quantized model opens as the studio's model; the chart stays (same nodes).
        q->openQuantizedAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(w.session()->modelPath(), m_tmp.filePath("digits.int8.onnx"), 30000);
        QCOMPARE(chart->series().size(), size_t(2));
        // It is not quantized again (it would be compared with itself); keep in float still
        // re-quantizes the float model.
        jobs::QuantizeRequest again = request("again.onnx");
        again.modelPath.clear(); // the open model
        QCOMPARE(q->quantize(again), -1);
        QVERIFY(w.statusBar()->currentMessage().contains(QLatin1String("already quantized")));
        const int third = q->keepInFloat(expected.first());
        QVERIFY(third > 0);
        QVERIFY(waitFor(spy, third));
        QCOMPARE(q->lastResult()->request.modelPath, digitsModel());
        QCOMPARE(q->lastResult()->request.excludeNodes, (QStringList{worst, expected.first()}));
        QCOMPARE(q->lastResult()->quantizedNodes.size(), expected.size() - 2);
    }

    // Issue #33 defect 11: a node kept in float was still flagged "lowest SNR" in red after
    // requantizing (its float output still differs a little from the float model's).
    void keptInFloatIsNeverTheLowestSnr() {
        ui::QuantErrorSeries before{QStringLiteral("minmax"), {}, 10};
        before.layers = {{"conv1", "Conv", "a", true, false, 40, 1, 0},
                         {"conv2", "Conv", "b", true, true, 12, 1, 0},
                         {"fc", "Gemm", "c", true, false, 30, 1, 0}};
        ui::QuantErrorSeries after = before;
        after.label = QStringLiteral("with 'conv2' in float");
        after.layers[1].quantized = false;
        after.layers[1].snrDb = 20; // float, but still below fc's 30 dB after the int8 conv1
        after.layers[2].snrDb = 25;
        ui::QuantErrorChart chart;
        chart.setSeries({before});
        QCOMPARE(chart.rowNodes().at(chart.worstRow()), QStringLiteral("conv2"));
        chart.setSeries({before, after});
        QCOMPARE(chart.rowNodes().at(chart.worstRow()), QStringLiteral("fc"));
        QVERIFY(!chart.rowToolTip(1).contains(QStringLiteral("lowest SNR")));
        QVERIFY(chart.summary()->text().contains(QStringLiteral("at fc")));
    }

    void menuActionOpensTheDialogAndQueuesTheJob() {
        ui::MainWindow w;
        QVERIFY(w.openModel(digitsModel(), true));
        ui::StudioQuantize* q = w.quantize();
        QSignalSpy spy(q, &ui::StudioQuantize::quantizeFinished);
        bool sawDialog = false;
        QTimer::singleShot(0, &w, [&] {
            auto* dialog = qobject_cast<ui::QuantizeDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            sawDialog = true;
            // The model's test_data_set folders are proposed; entropy into the temporary folder.
            dialog->methodBox()->setCurrentIndex(dialog->methodBox()->findData(QStringLiteral("entropy")));
            dialog->outputEdit()->setText(m_tmp.filePath("from_dialog.onnx"));
            dialog->accept();
        });
        q->quantizeAction()->trigger(); // returns when the dialog closes
        QVERIFY(sawDialog);
        QCOMPARE(w.jobs()->queue()->jobs().size(), size_t(1));
        const int id = w.jobs()->queue()->jobs().front()->id();
        QVERIFY(waitFor(spy, id));
        QCOMPARE(q->lastResult()->request.options.method, passes::CalibrationMethod::Entropy);
        QCOMPARE(q->lastResult()->report.samples, 10);
        QVERIFY(QFileInfo::exists(m_tmp.filePath("from_dialog.onnx")));
    }

    void imagesCalibrateTheModel() {
        // The digits test sets as 16x16 grayscale PNGs (pixels in [0,1] -> 0..255).
        QDir(m_tmp.path()).mkpath("png/sub");
        for (int k = 0; k < 10; ++k) {
            auto set =
                onnx::readTestDataSet(QStringLiteral("%1/test_data_set_%2").arg(digitsSets()).arg(k).toStdString());
            QVERIFY(set);
            const ir::Tensor& t = set->inputs[0].tensor;
            QCOMPARE(t.numel(), int64_t(16 * 16));
            QImage image(16, 16, QImage::Format_Grayscale8);
            for (int y = 0; y < 16; ++y)
                for (int x = 0; x < 16; ++x)
                    image.scanLine(y)[x] = uchar(std::clamp(std::lround(t.as<float>()[y * 16 + x] * 255.f), 0L, 255L));
            QVERIFY(image.save(m_tmp.filePath(QStringLiteral("png/%1digit%2.png").arg(k % 2 ? "sub/" : "").arg(k))));
        }
        ui::MainWindow w;
        QVERIFY(w.openModel(digitsModel(), true));
        ui::StudioQuantize* q = w.quantize();
        QSignalSpy spy(q, &ui::StudioQuantize::quantizeFinished);
        jobs::QuantizeRequest r = request("from_png.onnx");
        r.calibration = {m_tmp.filePath("png")};
        const int id = q->quantize(r);
        QVERIFY(waitFor(spy, id));
        QCOMPARE(q->lastResult()->report.samples, 10);
        QCOMPARE(q->chart()->rowCount(), int(quantizableNodes().size()));
        for (const ui::QuantLayerError& l : q->chart()->series()[0].layers) QVERIFY2(l.snrDb > 10, qPrintable(l.node));
    }

    void cancelledJobWritesNothing() {
        // Enough .npy samples that the job is still reading them when cancel arrives.
        auto set = onnx::readTestDataSet((digitsSets() + "/test_data_set_0").toStdString());
        QVERIFY(set);
        QDir(m_tmp.path()).mkdir("npy");
        for (int i = 0; i < 400; ++i)
            QVERIFY(onnx::writeNpy(m_tmp.filePath(QStringLiteral("npy/s%1.npy").arg(i)).toStdString(),
                                   set->inputs[0].tensor));
        ui::MainWindow w;
        QVERIFY(w.openModel(digitsModel(), true));
        ui::StudioQuantize* q = w.quantize();
        QSignalSpy spy(q, &ui::StudioQuantize::quantizeFinished);
        jobs::QuantizeRequest r = request("cancelled.onnx");
        r.calibration = {m_tmp.filePath("npy")};
        // Cancel once calibration has run a sample: the job stops inside quantizeStatic.
        int cancelledAt = -1, total = 0;
        connect(w.jobs()->queue(), &jobs::JobQueue::progressChanged, this,
                [&](int job, const QString& step, int done, int all) {
                    if (step != QLatin1String("quantize") || done < 1 || cancelledAt >= 0) return;
                    cancelledAt = done;
                    total = all;
                    w.jobs()->queue()->cancel(job);
                });
        const int id = q->quantize(r);
        QVERIFY(id > 0);
        QVERIFY(!waitFor(spy, id));
        QCOMPARE(w.jobs()->queue()->job(id)->state(), jobs::JobState::Cancelled);
        QCOMPARE(total, 400);
        QVERIFY2(cancelledAt >= 1 && w.jobs()->queue()->job(id)->progress().done < total,
                 qPrintable(QStringLiteral("cancelled at %1, stopped at %2 of %3")
                                .arg(cancelledAt)
                                .arg(w.jobs()->queue()->job(id)->progress().done)
                                .arg(total)));
        qInfo("cancel asked after %d of %d sample runs, the job stopped at %d", cancelledAt, total,
              w.jobs()->queue()->job(id)->progress().done);
        disconnect(w.jobs()->queue(), &jobs::JobQueue::progressChanged, this, nullptr);
        QVERIFY(!QFileInfo::exists(m_tmp.filePath("cancelled.onnx")));
        QVERIFY(!q->lastResult());

        // The same .npy folder, not cancelled: 400 samples calibrate the model.
        const int again = q->quantize(r);
        QVERIFY(waitFor(spy, again));
        QCOMPARE(q->lastResult()->report.samples, 400);
    }

    void badCalibrationFailsWithTheReason() {
        ui::MainWindow w;
        QVERIFY(w.openModel(digitsModel(), true));
        jobs::QuantizeRequest r = request("bad.onnx");
        QDir(m_tmp.path()).mkdir("empty");
        r.calibration = {m_tmp.filePath("empty")};
        QSignalSpy spy(w.quantize(), &ui::StudioQuantize::quantizeFinished);
        const int id = w.quantize()->quantize(r);
        QVERIFY(!waitFor(spy, id));
        auto job = w.jobs()->queue()->job(id);
        QCOMPARE(job->state(), jobs::JobState::Failed);
        QVERIFY2(job->message().contains(m_tmp.filePath("empty")), qPrintable(job->message()));
        QVERIFY(!QFileInfo::exists(m_tmp.filePath("bad.onnx")));
    }
};

QTEST_MAIN(TestQuantize)
#include "tst_quantize.moc"

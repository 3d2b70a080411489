// The studio's quantize job without widgets, on the bundled digits model and its test sets:
// the result names the int8 nodes and gives each quantizable node the error of the activation
// it produces (after its Relu), the first steep SNR drop flagged on one node, exclusions by op
// and by node keep nodes in float, "keep in float" maps a Relu to the convolution feeding it,
// and bad requests fail naming what is wrong with nothing written.
#include "support/test_paths.h"

#include "jobs/job_queue.h"
#include "jobs/quantize_job.h"
#include "onnx/importer.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

namespace {

QString digitsModel() { return test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx"); }

// Runs one quantize job to its end; returns it.
std::shared_ptr<jobs::Job> run(jobs::QuantizeRequest r) {
    jobs::JobQueue queue;
    auto job = jobs::makeQuantizeJob(std::move(r));
    queue.enqueue(job);
    queue.waitForIdle(600000);
    return job;
}

} // namespace

class TestQuantizeJob : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    jobs::QuantizeRequest request(const QString& out) const {
        jobs::QuantizeRequest r;
        r.modelPath = digitsModel();
        r.calibration = {test::sourceDir() + QStringLiteral("/resources/models/digits_cnn")};
        r.outPath = m_tmp.filePath(out);
        return r;
    }

private slots:
    void keepInFloatTargets() {
        auto g = onnx::importModel(digitsModel().toStdString());
        QVERIFY(g);
        int convs = 0;
        for (const ir::Node* n : g->nodes()) {
            const std::string target = jobs::keepInFloatTarget(*g, n->name);
            switch (n->op) {
            case ir::OpKind::Conv:
            case ir::OpKind::Gemm:
                QCOMPARE(target, n->name);
                ++convs;
                break;
            case ir::OpKind::Relu: // the convolution whose activation it carries
                QVERIFY(!target.empty());
                QCOMPARE(g->findNode(target)->op, ir::OpKind::Conv);
                QCOMPARE(n->input(0)->producer()->name, target);
                break;
            default: QVERIFY2(target.empty(), n->name.c_str());
            }
        }
        QCOMPARE(convs, 4);
        QVERIFY(jobs::keepInFloatTarget(*g, "no such node").empty());
    }

    void resultNamesEachQuantizedLayer() {
        auto job = run(request("digits.int8.onnx"));
        QVERIFY2(job->state() == jobs::JobState::Succeeded, qPrintable(job->message()));
        QCOMPARE(job->kind(), jobs::JobKind::Quantize);
        const std::any any = job->result();
        const auto* r = std::any_cast<jobs::QuantizeResult>(&any);
        QVERIFY(r);
        QCOMPARE(r->report.samples, 10);
        QCOMPARE(r->report.quantizedNodes, 4);
        QCOMPARE(r->quantizedNodes.size(), 4);
        QCOMPARE(r->nodes.size(), size_t(4));
        QVERIFY(!r->diff.layers.empty());
        for (const jobs::NodeError& n : r->nodes) {
            QVERIFY(n.quantized);
            QVERIFY2(n.error.accuracy.snrDb > 20 && n.error.accuracy.snrDb < 80, n.node.c_str());
            // A convolution's row is its Relu's output (where its Q/DQ pair sits); the Gemm's its own.
            QCOMPARE(n.error.value.find("Relu") != std::string::npos, n.op == "Conv");
        }
        const QStringList log = job->log();
        QVERIFY2(log.join('\n').contains(QLatin1String("calibrating on 10 sample(s), method minmax")),
                 qPrintable(log.join('\n')));
        QCOMPARE(job->progress().stepCount, 4);
    }

    void exclusionsKeepNodesInFloat() {
        jobs::QuantizeRequest r = request("no_gemm.onnx");
        r.excludeOps = {QStringLiteral("Gemm")};
        r.excludeNodes = {QStringLiteral("/features/features.0/Conv")};
        r.options.method = passes::CalibrationMethod::Percentile;
        auto job = run(r);
        QVERIFY2(job->state() == jobs::JobState::Succeeded, qPrintable(job->message()));
        const std::any any = job->result();
        const auto* result = std::any_cast<jobs::QuantizeResult>(&any);
        QCOMPARE(result->report.excluded, 2);
        QCOMPARE(result->quantizedNodes.size(), 2);
        for (const jobs::NodeError& n : result->nodes)
            QCOMPARE(n.quantized, n.op != "Gemm" && n.node != "/features/features.0/Conv");
        auto written = onnx::importModel(r.outPath.toStdString());
        QVERIFY(written);
        QCOMPARE(jobs::quantizedNodeNames(*written), result->quantizedNodes);
    }

    void firstSnrDropIsFlaggedOnce() {
        for (double drop : {0.0, 1000.0}) {
            jobs::QuantizeRequest r = request("drop.onnx");
            r.snrDropDb = drop;
            auto job = run(r);
            QVERIFY2(job->state() == jobs::JobState::Succeeded, qPrintable(job->message()));
            const std::any any = job->result();
            const auto* result = std::any_cast<jobs::QuantizeResult>(&any);
            int flagged = 0;
            for (const jobs::NodeError& n : result->nodes) flagged += n.firstDrop;
            QCOMPARE(result->diff.firstDrop >= 0, drop == 0.0);
            QCOMPARE(flagged, drop == 0.0 ? 1 : 0);
        }
    }

    // The shared tier: a real network's every convolution gets its row.
    void mobileNetV2() {
        EMBARK_REQUIRE_SHARED_MODELS();
        const QString model = test::sharedModel(QStringLiteral("mobilenet_v2"));
        if (model.isEmpty() || !QFileInfo::exists(test::sharedModelsDir() + "/mobilenet_v2/test_data_set_0"))
            QSKIP("../shared/models/mobilenet_v2 with its test_data_set_0 is absent");
        jobs::QuantizeRequest r;
        r.modelPath = model;
        r.calibration = {test::sharedModelsDir() + "/mobilenet_v2/test_data_set_0"};
        r.outPath = m_tmp.filePath("mobilenet_v2.int8.onnx");
        QElapsedTimer timer;
        timer.start();
        auto job = run(r);
        QVERIFY2(job->state() == jobs::JobState::Succeeded, qPrintable(job->message()));
        const std::any any = job->result();
        const auto* result = std::any_cast<jobs::QuantizeResult>(&any);
        QCOMPARE(int(result->nodes.size()), result->report.quantizedNodes);
        QVERIFY(result->report.quantizedNodes > 50);
        // Every row is a node of the float model (selectable in the graph, excludable), and
        // keep in float on an activation finds its convolution (through a BatchNormalization).
        auto fp = onnx::importModel(model.toStdString());
        QVERIFY(fp);
        for (const jobs::NodeError& n : result->nodes) {
            QVERIFY2(fp->findNode(n.node), n.node.c_str());
            QCOMPARE(jobs::keepInFloatTarget(*fp, n.node), n.node);
        }
        int activations = 0;
        for (const ir::Node* n : fp->nodes())
            if (n->op == ir::OpKind::Clip || n->op == ir::OpKind::Relu) {
                QVERIFY2(!jobs::keepInFloatTarget(*fp, n->name).empty(), n->name.c_str());
                ++activations;
            }
        QVERIFY(activations > 30);
        double lowest = 1e9;
        for (const jobs::NodeError& n : result->nodes) lowest = std::min(lowest, n.error.accuracy.snrDb);
        qInfo("MobileNet-V2, 1 sample: %d int8 layers, lowest SNR %.1f dB, job %lld ms", result->report.quantizedNodes,
              lowest, timer.elapsed());
    }

    void badRequestsFailNamingTheProblem_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no calibration") << "none"
                                        << "";
        QTest::newRow("missing folder") << "missing"
                                        << "does not exist";
        QTest::newRow("unknown op") << "op"
                                    << "'Convolution'";
        QTest::newRow("unknown node") << "node"
                                      << "'nope'";
    }
    void badRequestsFailNamingTheProblem() {
        QFETCH(QString, what);
        QFETCH(QString, expected);
        jobs::QuantizeRequest r = request("bad_" + what + ".onnx");
        if (what == "none") r.calibration.clear();
        if (what == "missing") r.calibration = {m_tmp.filePath("missing")};
        if (what == "op") r.excludeOps = {QStringLiteral("Convolution")};
        if (what == "node") r.excludeNodes = {QStringLiteral("nope")};
        auto job = run(r);
        QCOMPARE(job->state(), jobs::JobState::Failed);
        QVERIFY2(!job->message().isEmpty() && job->message().contains(expected), qPrintable(job->message()));
        QVERIFY(!QFileInfo::exists(r.outPath));
    }
};

QTEST_GUILESS_MAIN(TestQuantizeJob)
#include "tst_quantize_job.moc"

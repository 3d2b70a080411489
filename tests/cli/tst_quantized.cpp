// Quantized models through embark-cli: the 17 quantization node tests of the ONNX backend
// data (QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearConv, QLinearMatMul,
// ConvInteger, MatMulInteger) run with exact results; int4, float8 and blocked quantization
// refused with exit 3 naming the node, op and dtype; broken quantization parameters refused
// with exit 4; int8 tensors through inspect and tensor files; QDQ and QOperator models export.
// GCC 12 reports a false -Wrestrict inside protobuf's inlined NodeProto::set_input (GCC bug
// 105329); this file builds ONNX protos by hand.
#if defined(__GNUC__) && !defined(__clang__)
#  pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "onnx/importer.h"
#include "onnx/onnx_models.h"
#include "support/cli_process.h"
#include "support/test_paths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace embark;
using namespace embark::test;

namespace {
using Result = CliResult;
Result cli(const QStringList& args) { return runCli(args); }

ir::Tensor int8s(ir::Shape shape, const std::vector<int8_t>& v) {
    return ir::Tensor::fromBytes(ir::DType::Int8, std::move(shape), v.data(), v.size());
}
ir::Tensor uint8s(ir::Shape shape, const std::vector<uint8_t>& v) {
    return ir::Tensor::fromBytes(ir::DType::UInt8, std::move(shape), v.data(), v.size());
}

// x float [1,3,4,4] -> QuantizeLinear 'q_x' (int8) -> DequantizeLinear 'dq_x' -> Conv 'conv'
// (weights int8 through DequantizeLinear 'dq_w', per output channel) -> y.
ProtoModel qdqConvModel() {
    ProtoModel m(13);
    m.input("x", {1, 3, 4, 4});
    m.initializer("x_scale", ir::Tensor::scalarFloat(0.05f));
    m.initializer("x_zp", int8s(ir::Shape{}, {0}));
    std::vector<int8_t> w(2 * 3 * 3 * 3);
    for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(static_cast<int>(i * 37 % 255) - 127);
    m.initializer("w_q", int8s(ir::Shape{2, 3, 3, 3}, w));
    m.initializer("w_scale", ir::Tensor::fromFloats(ir::Shape{2}, {0.01f, 0.02f}));
    m.initializer("w_zp", int8s(ir::Shape{2}, {0, 0}));
    m.node("QuantizeLinear", {"x", "x_scale", "x_zp"}, {"xq"}, "q_x");
    m.node("DequantizeLinear", {"xq", "x_scale", "x_zp"}, {"xd"}, "dq_x");
    attrInt(m.node("DequantizeLinear", {"w_q", "w_scale", "w_zp"}, {"w"}, "dq_w"), "axis", 0);
    attrInts(m.node("Conv", {"xd", "w"}, {"y"}, "conv"), "pads", {1, 1, 1, 1});
    m.output("y", 4);
    return m;
}

QString save(const QTemporaryDir& dir, const ProtoModel& m, const QString& name) {
    const QString path = dir.filePath(name);
    return m.save(path) ? path : QString();
}
} // namespace

class TestQuantized : public QObject {
    Q_OBJECT
private slots:
    // Each ONNX backend quantization test through `run --expect`: exit 0 and every output
    // identical to ONNX's (integers compare with ==; run compares integer outputs exactly).
    void onnxQuantizationTests_data() {
        QTest::addColumn<QString>("test");
        for (const char* t :
             {"test_basic_convinteger", "test_convinteger_with_padding", "test_convinteger_without_padding",
              "test_dequantizelinear", "test_dequantizelinear_axis", "test_dynamicquantizelinear",
              "test_dynamicquantizelinear_expanded", "test_dynamicquantizelinear_max_adjusted",
              "test_dynamicquantizelinear_max_adjusted_expanded", "test_dynamicquantizelinear_min_adjusted",
              "test_dynamicquantizelinear_min_adjusted_expanded", "test_matmulinteger", "test_qlinearconv",
              "test_qlinearmatmul_2D", "test_qlinearmatmul_3D", "test_quantizelinear", "test_quantizelinear_axis"})
            QTest::newRow(t) << QString(t);
    }
    void onnxQuantizationTests() {
        QFETCH(QString, test);
        if (onnxTestDataDir().isEmpty()) QSKIP("libonnx-testdata is not installed (Debian package libonnx-testdata)");
        const QString dir = onnxTestDataDir() + "/node/" + test;
        const Result r = cli({"run", dir + "/model.onnx", "--expect", dir + "/test_data_set_0", "--json"});
        QVERIFY2(r.code == 0, (r.err + r.out).constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray comparison = o["accuracy"].toObject()["outputs"].toArray();
        QVERIFY(!comparison.isEmpty());
        for (const auto& c : comparison) {
            QVERIFY(c.toObject()["ok"].toBool());
            QCOMPARE(c.toObject()["max_abs"].toDouble(), 0.0);
        }
    }

    // An integer output one quantum off is a mismatch (exit 1), whatever its magnitude.
    void integerOutputsCompareExactly() {
        if (onnxTestDataDir().isEmpty()) QSKIP("libonnx-testdata is not installed (Debian package libonnx-testdata)");
        const QString dir = onnxTestDataDir() + "/node/test_matmulinteger";
        QTemporaryDir tmp;
        ProtoModel m(10);
        m.input("A", {4, 3}, pb::TensorProto::UINT8);
        m.input("B", {3, 2}, pb::TensorProto::UINT8);
        m.initializer("a_zp", uint8s(ir::Shape{}, {12}));
        m.initializer("b_zp", uint8s(ir::Shape{}, {1})); // test data's is 0: every sum changes
        m.node("MatMulInteger", {"A", "B", "a_zp", "b_zp"}, {"Y"}, "mmi");
        m.output("Y", 2, pb::TensorProto::INT32);
        const QString model = save(tmp, m, "mmi.onnx");
        const Result r = cli({"run", model, "--expect", dir + "/test_data_set_0", "--json"});
        QCOMPARE(r.code, 1);
        const QJsonObject c =
            QJsonDocument::fromJson(r.out).object()["accuracy"].toObject()["outputs"].toArray().first().toObject();
        QVERIFY(!c["ok"].toBool());
        QVERIFY(c["exact"].toBool());
    }

    // Unsupported quantization: exit 3, the message names the node, the op and the dtype.
    void unsupportedQuantizationIsRefused_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("what");
        QTest::newRow("int4 zero point") << "int4"
                                         << "q4"
                                         << "QuantizeLinear"
                                         << "int4";
        QTest::newRow("uint4 zero point") << "uint4"
                                          << "q4"
                                          << "QuantizeLinear"
                                          << "uint4";
        QTest::newRow("float8 input") << "float8"
                                      << "dq8"
                                      << "DequantizeLinear"
                                      << "float8e4m3fn";
        QTest::newRow("float8 output_dtype") << "output_dtype"
                                             << "q8"
                                             << "QuantizeLinear"
                                             << "float8e5m2";
        QTest::newRow("blocked") << "blocked"
                                 << "qb"
                                 << "DequantizeLinear"
                                 << "block_size 2";
    }
    void unsupportedQuantizationIsRefused() {
        QFETCH(QString, kind);
        QFETCH(QString, node);
        QFETCH(QString, op);
        QFETCH(QString, what);
        ProtoModel m(kind == "int4" || kind == "uint4" || kind == "blocked" ? 21 : 19);
        if (kind == "int4" || kind == "uint4") {
            m.input("x", {1, 4});
            m.initializer("s", ir::Tensor::scalarFloat(0.1f));
            auto* zp = m.m.mutable_graph()->add_initializer();
            zp->set_name("zp");
            zp->set_data_type(kind == "int4" ? 22 : 21); // TensorProto INT4 / UINT4 (ONNX 1.16)
            zp->set_raw_data(std::string(1, '\0'));
            m.node("QuantizeLinear", {"x", "s", "zp"}, {"y"}, node.toStdString());
            m.output("y", 2, kind == "int4" ? 22 : 21);
        } else if (kind == "float8") {
            m.input("x", {1, 4}, 17); // FLOAT8E4M3FN
            m.initializer("s", ir::Tensor::scalarFloat(0.1f));
            m.node("DequantizeLinear", {"x", "s"}, {"y"}, node.toStdString());
            m.output("y", 2);
        } else if (kind == "output_dtype") {
            m.input("x", {1, 4});
            m.initializer("s", ir::Tensor::scalarFloat(0.1f));
            attrInt(m.node("QuantizeLinear", {"x", "s"}, {"y"}, node.toStdString()), "output_dtype", 19);
            m.output("y", 2, 19);
        } else {
            m.input("x", {2, 4}, pb::TensorProto::INT8);
            m.initializer("s", ir::Tensor::fromFloats(ir::Shape{2, 2}, {0.1f, 0.2f, 0.3f, 0.4f}));
            auto* n = m.node("DequantizeLinear", {"x", "s"}, {"y"}, node.toStdString());
            attrInt(n, "axis", 1);
            attrInt(n, "block_size", 2);
            m.output("y", 2);
        }
        QTemporaryDir dir;
        const QString model = save(dir, m, "model.onnx");
        for (const char* command : {"inspect", "run"}) {
            const Result r = cli({command, model});
            QCOMPARE(r.code, 3);
            QVERIFY2(r.err.contains(("node '" + node + "' (" + op + ")").toUtf8()) && r.err.contains(what.toUtf8()),
                     r.err.constData());
        }
    }

    // Broken quantization parameters: exit 4 naming the node and what is wrong, at import.
    void badQuantizationParametersAreRefused_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero scale") << "zero"
                                    << "scales must be positive";
        QTest::newRow("negative scale") << "negative"
                                        << "scales must be positive";
        QTest::newRow("per-axis length") << "axis"
                                         << "one value per index of the axis";
    }
    void badQuantizationParametersAreRefused() {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        ProtoModel m(13);
        m.input("x", {2, 3});
        if (kind == "axis")
            m.initializer("s", ir::Tensor::fromFloats(ir::Shape{2}, {0.1f, 0.2f}));
        else
            m.initializer("s", ir::Tensor::scalarFloat(kind == "zero" ? 0.f : -0.5f));
        attrInt(m.node("QuantizeLinear", {"x", "s"}, {"y"}, "quant"), "axis", 1);
        m.output("y", 2, pb::TensorProto::UINT8);
        QTemporaryDir dir;
        const QString model = save(dir, m, "bad.onnx");
        for (const char* command : {"inspect", "run"}) { // refused at import, by every command
            const Result r = cli({command, model});
            QCOMPARE(r.code, 4);
            QVERIFY2(r.err.contains("node 'quant' (QuantizeLinear)") && r.err.contains(message.toUtf8()),
                     r.err.constData());
        }
    }

    // int8 tensors through inspect, run, .pb and .npy files.
    void int8TensorsFlowThroughTheCli() {
        QTemporaryDir dir;
        const QString model = save(dir, qdqConvModel(), "qdq.onnx");
        const Result inspect = cli({"inspect", model, "--json"});
        QVERIFY2(inspect.code == 0, inspect.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(inspect.out).object();
        QCOMPARE(o["ops"].toObject()["QuantizeLinear"].toInt(), 1);
        QCOMPARE(o["ops"].toObject()["DequantizeLinear"].toInt(), 2);
        // int8 weights are parameters (54 x 1 byte) beside the float scales (3 x 4); zero points are not.
        QCOMPARE(o["parameters"].toObject()["count"].toInt(), 57);
        QCOMPARE(o["parameters"].toObject()["bytes"].toInt(), 66);
        QCOMPARE(o["macs"].toInt(), 2 * 16 * 27);
        QCOMPARE(o["inputs"].toArray().first().toObject()["dtype"].toString(), QString("float32"));

        // The quantized activation, dumped, is int8 (.npy '|i1').
        const Result run = cli({"run", model, "--dump", dir.filePath("dump"), "--json"});
        QVERIFY2(run.code == 0, run.err.constData());
        QFile manifest(dir.filePath("dump/manifest.json"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        bool sawInt8 = false;
        for (const auto& v : QJsonDocument::fromJson(manifest.readAll()).array())
            sawInt8 = sawInt8 || v.toObject()["dtype"].toString() == "int8";
        QVERIFY2(sawInt8, "no int8 value in the dump manifest");

        // An int8 model input read from .pb and from .npy gives the same result.
        ProtoModel dq(13);
        dq.input("xq", {1, 4}, pb::TensorProto::INT8);
        dq.initializer("s", ir::Tensor::scalarFloat(0.5f));
        dq.initializer("zp", int8s(ir::Shape{}, {-3}));
        dq.node("DequantizeLinear", {"xq", "s", "zp"}, {"y"}, "dq");
        dq.output("y", 2);
        const QString dqModel = save(dir, dq, "dq.onnx");
        const ir::Tensor xq = int8s(ir::Shape{1, 4}, {-128, -3, 0, 127});
        pb::TensorProto proto;
        ProtoModel::toProto(xq, "xq", &proto);
        QFile pbFile(dir.filePath("xq.pb"));
        QVERIFY(pbFile.open(QIODevice::WriteOnly));
        pbFile.write(QByteArray::fromStdString(proto.SerializeAsString()));
        pbFile.close();
        QFile npy(dir.filePath("xq.npy"));
        QVERIFY(npy.open(QIODevice::WriteOnly));
        QByteArray header = "{'descr': '|i1', 'fortran_order': False, 'shape': (1, 4), }";
        while ((10 + header.size() + 1) % 64) header += ' ';
        header += '\n';
        npy.write(QByteArray("\x93NUMPY\x01\x00", 8));
        const quint16 len = static_cast<quint16>(header.size());
        npy.write(reinterpret_cast<const char*>(&len), 2);
        npy.write(header);
        npy.write(static_cast<const char*>(xq.data()), 4);
        npy.close();
        for (const QString& file : {pbFile.fileName(), npy.fileName()}) {
            const Result r = cli({"run", dqModel, "--input", "xq=" + file, "--json"});
            QVERIFY2(r.code == 0, r.err.constData());
            const QJsonArray head =
                QJsonDocument::fromJson(r.out).object()["outputs"].toArray().first().toObject()["head"].toArray();
            QCOMPARE(head, (QJsonArray{-62.5, 0.0, 1.5, 65.0}));
        }
    }

    // A QDQ model exports: here the Conv's float output is not quantized, so nothing fuses and
    // the QuantizeLinear/DequantizeLinear pair runs as explicit int8 conversions on the portable
    // kernels (the export's check against the reference passes at 0 tolerance: same float32
    // arithmetic). XNNPACK runs no QuantizeLinear/DequantizeLinear: the pair falls back to
    // portable (its int8 operators are tests/export/tst_export_quantized_xnnpack's).
    void exportOfQdqModelRuns() {
        QTemporaryDir dir;
        const QString model = save(dir, qdqConvModel(), "qdq.onnx");
        for (const QString& lib : {QStringLiteral("portable"), QStringLiteral("xnnpack")}) {
            const QString out = dir.filePath("export_" + lib);
            const Result r = cli({"export", model, "--lib", lib, "-o", out});
            QVERIFY2(r.code == 0, r.err.constData());
            QVERIFY(QFileInfo::exists(out + "/export.json"));
            const Result p = cli({"plan", model, "--lib", lib, "--json"});
            QVERIFY2(p.code == 0, p.err.constData());
            QVERIFY2(p.out.contains("\"q_x\"") && p.out.contains("QuantizeLinear"), p.out.constData());
        }
    }

    // ONNX's QOperator form exports (integer ops on the generic kernels).
    void exportOfQOperatorModelExports() {
        QTemporaryDir dir;
        ProtoModel m(10);
        m.input("A", {4, 3}, pb::TensorProto::FLOAT);
        m.initializer("a_scale", ir::Tensor::scalarFloat(0.1f));
        m.initializer("a_zp", uint8s(ir::Shape{}, {0}));
        m.initializer("B", uint8s(ir::Shape{3, 2}, {1, 2, 3, 4, 5, 6}));
        m.node("QuantizeLinear", {"A", "a_scale", "a_zp"}, {"Aq"}, "qa");
        m.node("MatMulInteger", {"Aq", "B"}, {"Y32"}, "mmi");
        attrInt(m.node("Cast", {"Y32"}, {"Y"}, "cast"), "to", pb::TensorProto::FLOAT);
        m.output("Y", 2);
        const QString model = save(dir, m, "qop.onnx");
        const Result r = cli({"export", model, "--lib", "portable", "-o", dir.filePath("export")});
        // Issue 31: what the reference runs also exports (MatMulInteger by the generic kernels).
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFileInfo::exists(dir.filePath("export/export.json")));
    }

    // Weights-only quantization (int8 constants through DequantizeLinear into a float Conv)
    // exports: constant folding turns the weights into float32.
    void weightsOnlyQuantizationExports() {
        ProtoModel m = qdqConvModel();
        auto* nodes = m.m.mutable_graph()->mutable_node();
        nodes->DeleteSubrange(0, 2); // drop q_x and dq_x
        nodes->Mutable(1)->mutable_input(0)->assign(1, 'x');
        QTemporaryDir dir;
        const QString model = save(dir, m, "weights_only.onnx");
        const Result r = cli({"export", model, "--lib", "portable", "-o", dir.filePath("export")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFileInfo::exists(dir.filePath("export/export.json")));
    }

    // quantize: minmax over the digits model's 10 test sets. The QDQ model runs on the
    // reference with the float model's top-1 on every set and outputs close to the float
    // model's; the same inputs give the same bytes.
    void quantizeDigits() {
        QTemporaryDir dir;
        const QString digits = sourceDir() + "/resources/models/digits_cnn.onnx";
        const QString sets = sourceDir() + "/resources/models/digits_cnn";
        const QString out = dir.filePath("digits_int8.onnx");
        const Result r = cli({"quantize", digits, "-o", out, "--calib", sets, "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(summary["samples"].toInt(), 10);
        QCOMPARE(summary["quantized_nodes"].toInt(), 4); // 3 Conv + 1 Gemm

        const QJsonObject ops = QJsonDocument::fromJson(cli({"inspect", out, "--json"}).out).object()["ops"].toObject();
        QCOMPARE(ops["QuantizeLinear"].toInt(), summary["quantized_activations"].toInt());
        QCOMPARE(ops["DequantizeLinear"].toInt(),
                 summary["quantized_activations"].toInt() + 4 + 4); // + weights, biases
        QCOMPARE(ops["Conv"].toInt(), 3);

        for (int k = 0; k < 10; ++k) {
            const QString set = sets + QStringLiteral("/test_data_set_%1").arg(k);
            const Result run = cli({"run", out, "--expect", set, "--json"});
            QVERIFY2(run.code == 0 || run.code == 1, run.err.constData()); // 1: outside the float tolerance
            const QJsonObject o = QJsonDocument::fromJson(run.out).object();
            QCOMPARE(o["outputs"].toArray().first().toObject()["top5"].toArray().first().toObject()["index"].toInt(),
                     k);
            const QJsonObject c = o["accuracy"].toObject()["outputs"].toArray().first().toObject();
            QVERIFY2(c["cosine"].toDouble() > 0.999 && c["snr_db"].toDouble() > 25,
                     qPrintable(QString::number(c["snr_db"].toDouble())));
        }

        const QString again = dir.filePath("again.onnx");
        QCOMPARE(cli({"quantize", digits, "-o", again, "--calib", sets}).code, 0);
        QFile a(out), b(again);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QVERIFY(a.readAll() == b.readAll());
    }

    // bench of a quantized model: pass/fail against the int8 arithmetic the export computes
    // (exactly equal, every output and layer), and the quantization error against the QDQ
    // model's float reference reported beside it.
    void benchOfQuantizedModelChecksTheInt8Arithmetic() {
        QTemporaryDir dir;
        const QString digits = sourceDir() + "/resources/models/digits_cnn.onnx";
        const QString out = dir.filePath("digits_int8.onnx");
        QCOMPARE(cli({"quantize", digits, "-o", out, "--calib", sourceDir() + "/resources/models/digits_cnn"}).code, 0);
        const Result r =
            cli({"bench", out, "--board", "host", "--lib", "portable", "--iterations", "1", "--warmup", "0",
                 "--accuracy-layers", "--json", "--db", dir.filePath("runs.db"), "--work-dir", dir.filePath("work")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject acc = QJsonDocument::fromJson(r.out).object()["accuracy"].toObject();
        QVERIFY(!acc["outputs"].toArray().isEmpty() && !acc["layers"].toArray().isEmpty());
        // int8 layers (dumped dequantized) equal exactly; the float Gemm at the end within float
        // rounding of the reference's summation order.
        for (const QString& key : {QStringLiteral("outputs"), QStringLiteral("layers")})
            for (const QJsonValue v : acc[key].toArray())
                QVERIFY2(v.toObject()["max_rel"].toDouble() <= 1e-5, qPrintable(v.toObject()["name"].toString()));
        int exact = 0;
        for (const QJsonValue v : acc["layers"].toArray()) exact += v.toObject()["max_abs"].toDouble() == 0.0;
        QVERIFY2(exact >= 5, qPrintable(QString::number(exact))); // the quantize, convolutions, pools
        QVERIFY(!acc.contains("first_divergent_layer"));
        const QJsonArray q = acc["quantization_error"].toArray();
        QCOMPARE(q.size(), 1);
        const QJsonObject e = q.first().toObject();
        QVERIFY2(e["max_abs"].toDouble() > 0 && e["cosine"].toDouble() > 0.99,
                 qPrintable(QString::number(e["cosine"].toDouble())));

        // A float model has no quantization error to report.
        const Result f = cli({"bench", digits, "--board", "host", "--lib", "portable", "--iterations", "1", "--warmup",
                              "0", "--json", "--db", "-", "--work-dir", dir.filePath("work")});
        QVERIFY2(f.code == 0, f.err.constData());
        QVERIFY(!QJsonDocument::fromJson(f.out).object()["accuracy"].toObject().contains("quantization_error"));
    }

    // compare: per-layer error of the quantized digits model against its float model, matched
    // by value name, worst first, with the first layer whose SNR falls past --snr-drop; and
    // quantize --report gives the same on the first calibration sample.
    void compareReportsPerLayerError() {
        QTemporaryDir dir;
        const QString digits = sourceDir() + "/resources/models/digits_cnn.onnx";
        const QString set0 = sourceDir() + "/resources/models/digits_cnn/test_data_set_0";
        const QString out = dir.filePath("digits_int8.onnx");
        const Result q = cli({"quantize", digits, "-o", out, "--calib", set0, "--report", "--json"});
        QVERIFY2(q.code == 0, q.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(q.out).object()["report"].toObject();
        QVERIFY(report["layers"].toArray().size() >= 8);

        const Result r = cli({"compare", digits, out, "--input", set0, "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["layers"].toArray(), report["layers"].toArray()); // the same sample, the same figures
        const QJsonArray layers = o["layers"].toArray();
        bool sawLogits = false;
        for (const QJsonValue v : layers) {
            const QJsonObject l = v.toObject();
            QVERIFY2(l["cosine"].toDouble() > 0.99 && l["snr_db"].toDouble() > 20, qPrintable(l["value"].toString()));
            sawLogits = sawLogits || l["value"].toString() == "logits";
        }
        QVERIFY(sawLogits);
        // worst first
        const QJsonArray worst = o["worst"].toArray();
        QCOMPARE(worst.size(), std::min(10, int(layers.size())));
        double previous = -1e9;
        for (const QJsonValue w : worst)
            for (const QJsonValue v : layers)
                if (v.toObject()["value"] == w) {
                    QVERIFY(v.toObject()["snr_db"].toDouble() >= previous);
                    previous = v.toObject()["snr_db"].toDouble();
                }
        QVERIFY(o["first_drop"].isNull()); // no 10 dB fall on digits
        const Result flagged = cli({"compare", digits, out, "--input", set0, "--snr-drop", "0", "--top", "3"});
        QVERIFY2(flagged.code == 0 && flagged.out.contains("First layer whose SNR fell by more than 0 dB"),
                 flagged.out.constData());

        // A model with other inputs, a bad option, an unrelated model.
        QCOMPARE(cli({"compare", digits, out, "--snr-drop", "-1"}).code, 2);
        const Result other = cli({"compare", digits, save(dir, qdqConvModel(), "qdq.onnx")});
        QCOMPARE(other.code, 4);
        QVERIFY2(other.err.contains("input") && other.err.contains("same inputs"), other.err.constData());
    }

    // percentile and entropy: valid QDQ models that keep digits' top-1, with activation ranges
    // no wider than minmax's (they clip outliers); bad options are usage errors.
    void quantizeCalibrationMethods() {
        QTemporaryDir dir;
        const QString digits = sourceDir() + "/resources/models/digits_cnn.onnx";
        const QString sets = sourceDir() + "/resources/models/digits_cnn";
        // The activation scales of a QDQ model (QuantizeLinear scale inputs), by node name.
        const auto scales = [&](const QString& model) {
            std::map<QString, float> s;
            auto g = embark::onnx::importModel(model.toStdString());
            if (!g) return s;
            for (const ir::Node* n : g->nodes())
                if (n->op == ir::OpKind::QuantizeLinear && n->input(1) && n->input(1)->isConstant())
                    s[QString::fromStdString(n->name)] = n->input(1)->constant.as<float>()[0];
            return s;
        };
        const QString minmax = dir.filePath("minmax.onnx");
        QCOMPARE(cli({"quantize", digits, "-o", minmax, "--calib", sets}).code, 0);
        const auto base = scales(minmax);
        QVERIFY(!base.empty());
        for (const QStringList& extra :
             {QStringList{"--method", "percentile", "--percentile", "99.9"}, QStringList{"--method", "entropy"}}) {
            const QString out = dir.filePath(extra[1] + ".onnx");
            const Result r = cli(QStringList{"quantize", digits, "-o", out, "--calib", sets, "--json"} + extra);
            QVERIFY2(r.code == 0, r.err.constData());
            QCOMPARE(QJsonDocument::fromJson(r.out).object()["method"].toString(), extra[1]);
            const auto s = scales(out);
            QCOMPARE(s.size(), base.size());
            bool narrower = false;
            for (const auto& [name, scale] : s) {
                QVERIFY2(scale <= base.at(name) * 1.0001f, qPrintable(name));
                narrower = narrower || scale < base.at(name) * 0.999f;
            }
            QVERIFY2(narrower, qPrintable(extra[1])); // something was clipped
            for (int k = 0; k < 10; ++k) {
                const Result run =
                    cli({"run", out, "--expect", sets + QStringLiteral("/test_data_set_%1").arg(k), "--json"});
                const QJsonObject o = QJsonDocument::fromJson(run.out).object();
                QCOMPARE(
                    o["outputs"].toArray().first().toObject()["top5"].toArray().first().toObject()["index"].toInt(), k);
            }
        }
        QCOMPARE(cli({"quantize", digits, "-o", dir.filePath("x.onnx"), "--calib", sets, "--method", "kl"}).code, 2);
        QCOMPARE(cli({"quantize", digits, "-o", dir.filePath("x.onnx"), "--calib", sets, "--method", "percentile",
                      "--percentile", "0"})
                     .code,
                 2);
        QVERIFY(!QFileInfo::exists(dir.filePath("x.onnx")));
    }

    // --exclude-op and --exclude-node keep nodes in float; a tensor file is one sample.
    void quantizeExclusionsAndFiles() {
        QTemporaryDir dir;
        const QString digits = sourceDir() + "/resources/models/digits_cnn.onnx";
        const QString set0 = sourceDir() + "/resources/models/digits_cnn/test_data_set_0";
        const auto summary = [&](const QStringList& extra) {
            const Result r = cli(QStringList{"quantize", digits, "-o", dir.filePath("q.onnx"), "--json"} + extra);
            return std::make_pair(r.code, QJsonDocument::fromJson(r.out).object());
        };
        auto [code, o] = summary({"--calib", set0 + "/input_0.pb", "--exclude-op", "Gemm"});
        QCOMPARE(code, 0);
        QCOMPARE(o["samples"].toInt(), 1);
        QCOMPARE(o["quantized_nodes"].toInt(), 3);
        QCOMPARE(o["excluded_nodes"].toInt(), 1);
        std::tie(code, o) = summary({"--calib", set0, "--exclude-node", "/features/features.0/Conv"});
        QCOMPARE(code, 0);
        QCOMPARE(o["quantized_nodes"].toInt(), 3);
        QCOMPARE(summary({"--calib", set0, "--exclude-node", "nope"}).first, 2);
        QCOMPARE(summary({"--calib", set0, "--exclude-op", "NotAnOp"}).first, 2);
    }

    void quantizeBadCalibration_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("code");
        QTest::newRow("no --calib") << "none" << 2;
        QTest::newRow("empty folder") << "empty" << 4;
        QTest::newRow("inputs that do not fit") << "misfit" << 4;
        QTest::newRow("NaN") << "nan" << 4;
    }
    void quantizeBadCalibration() {
        QFETCH(QString, kind);
        QFETCH(int, code);
        QTemporaryDir dir;
        const QString digits = sourceDir() + "/resources/models/digits_cnn.onnx";
        const QString calib = dir.filePath("calib");
        QVERIFY(QDir().mkpath(calib));
        if (kind == "misfit" || kind == "nan") {
            std::vector<float> v(kind == "nan" ? 256 : 64, 0.5f);
            if (kind == "nan") v[17] = NAN;
            const ir::Tensor t =
                ir::Tensor::fromFloats(kind == "nan" ? ir::Shape{1, 1, 16, 16} : ir::Shape{1, 1, 8, 8}, v);
            pb::TensorProto proto;
            ProtoModel::toProto(t, "image", &proto);
            QFile f(calib + "/input_0.pb");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(proto.SerializeAsString()));
        }
        QStringList args{"quantize", digits, "-o", dir.filePath("out.onnx")};
        if (kind != "none") args << "--calib" << calib;
        const Result r = cli(args);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.startsWith("embark-cli"), r.err.constData());
        if (kind == "nan") QVERIFY2(r.err.contains("NaN"), r.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath("out.onnx")));
    }
};

QTEST_GUILESS_MAIN(TestQuantized)
#include "tst_quantized.moc"

// Models of opsets 18 to 21 (issue 31): the bundles of tests/data/opset18_21 (made by its
// make.py, expected outputs from ONNX Runtime 1.30) import, keep their opset, get their
// shapes, and run in the reference interpreter to ONNX Runtime's outputs; the same through
// `embark-cli run --expect`. The models of opset18_21/refused are refused at import with a
// message naming the node or value and what to do.
#include "onnx/importer.h"
#include "onnx/opset_view.h"
#include "onnx/tensor_io.h"
#include "reference/interpreter.h"
#include "support/test_paths.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <cmath>

using namespace embark;

namespace {
constexpr double kRtol = 1e-4;
constexpr double kAtol = 1e-5;

QString dataDir() { return test::testDataDir() + "/opset18_21"; }

QStringList bundles() {
    return QDir(dataDir()).entryList({"*_1[89]", "*_2[01]"}, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

// Empty when `actual` matches `expected` (integers and bools exactly), else why not.
std::string compareTensors(const ir::Tensor& actual, const ir::Tensor& expected) {
    if (actual.dtype() != expected.dtype())
        return "dtype " + std::string(ir::dtypeName(actual.dtype())) + ", expected " +
               std::string(ir::dtypeName(expected.dtype()));
    if (actual.shape() != expected.shape())
        return "shape " + actual.shape().str() + ", expected " + expected.shape().str();
    const bool exact = !ir::isFloating(expected.dtype());
    for (int64_t i = 0; i < expected.numel(); ++i) {
        if (exact && actual.intAt(i) != expected.intAt(i))
            return "element " + std::to_string(i) + " is " + std::to_string(actual.intAt(i)) + ", expected " +
                   std::to_string(expected.intAt(i));
        const double a = actual.at(i), b = expected.at(i);
        if (a == b || (std::isnan(a) && std::isnan(b))) continue;
        if (!(std::fabs(a - b) <= kAtol + kRtol * std::fabs(b)))
            return "element " + std::to_string(i) + " is " + std::to_string(a) + ", expected " + std::to_string(b);
    }
    return {};
}
} // namespace

class TestOpsetNewer : public QObject {
    Q_OBJECT

private slots:
    void referenceMatchesOnnxRuntime_data() {
        QTest::addColumn<QString>("name");
        for (const QString& name : bundles()) QTest::newRow(qPrintable(name)) << name;
    }

    void referenceMatchesOnnxRuntime() {
        QFETCH(QString, name);
        const QString dir = dataDir() + "/" + name;
        auto graph = embark::onnx::importModel((dir + "/model.onnx").toStdString());
        QVERIFY2(graph, graph ? "" : graph.error().message.c_str());
        QCOMPARE(QString::fromStdString(graph->metadata.at("opset")), name.right(2));
        auto set = embark::onnx::readTestDataSet((dir + "/test_data_set_0").toStdString());
        QVERIFY2(set, set ? "" : set.error().message.c_str());
        std::map<std::string, ir::Tensor> inputs;
        for (const embark::onnx::NamedTensor& t : set->inputs) inputs[t.name] = t.tensor;
        auto result = reference::run(*graph, inputs);
        QVERIFY2(result, result ? "" : result.error().message.c_str());
        QCOMPARE(result->outputs.size(), set->outputs.size());
        for (size_t k = 0; k < set->outputs.size(); ++k) {
            const std::string why = compareTensors(result->outputs[k], set->outputs[k].tensor);
            QVERIFY2(why.empty(), (result->outputNames[k] + ": " + why).c_str());
            // The shape the importer gave the output (before any run) is the computed one.
            const ir::Value* v = graph->findValue(result->outputNames[k]);
            QVERIFY(v);
            QCOMPARE(QString::fromStdString(v->shape.str()),
                     QString::fromStdString(set->outputs[k].tensor.shape().str()));
        }
    }

    // What libonnx (opset 17 at most) checks and infers: nodes whose opset-18+ form has an
    // opset-17 equivalent are written in it, so ONNX's shape inference goes through them; the
    // others are set aside (their shapes come from the reference's propagation).
    void libonnxViewKeepsShapeInference() {
        ::onnx::ModelProto model;
        QFile file(dataDir() + "/reduce_axes_input_18/model.onnx");
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(model.ParseFromString(file.readAll().toStdString()));
        ::onnx::ModelProto view = embark::onnx::libonnxView(model);
        QCOMPARE(view.ir_version(), int64_t{8});
        const auto& mean = view.graph().node(0);
        QCOMPARE(mean.op_type(), std::string("ReduceMean"));
        QCOMPARE(mean.input_size(), 1);
        QCOMPARE(mean.attribute(mean.attribute_size() - 1).name(), std::string("axes"));
        QCOMPARE(view.graph().node(2).op_type(), std::string("Identity")); // noop_with_empty_axes
        ::onnx::checker::check_model(view);
        ::onnx::ShapeInferenceOptions options{true, 0, true};
        ::onnx::shape_inference::InferShapes(view, ::onnx::OpSchemaRegistry::Instance(), options);
        std::map<std::string, std::string> shapes;
        for (const auto* list : {&view.graph().value_info(), &view.graph().output()})
            for (const auto& vi : *list) {
                std::string dims;
                for (const auto& d : vi.type().tensor_type().shape().dim()) dims += std::to_string(d.dim_value()) + ",";
                shapes[vi.name()] = dims;
            }
        QCOMPARE(shapes["mean"], std::string("2,1,4,"));
        QCOMPARE(shapes["l2"], std::string("3,"));
        QCOMPARE(shapes["prod"], std::string("2,4,"));
        // Pad with axes (opset 18) is set aside, and the importer still gives every shape
        QFile padded(dataDir() + "/pad_axes_18/model.onnx");
        QVERIFY(padded.open(QIODevice::ReadOnly));
        QVERIFY(model.ParseFromString(padded.readAll().toStdString()));
        QVERIFY(embark::onnx::libonnxView(model).graph().node(0).domain() != "");
        auto graph = embark::onnx::importModel((dataDir() + "/pad_axes_18/model.onnx").toStdString());
        QVERIFY2(graph, graph ? "" : graph.error().message.c_str());
        QCOMPARE(QString::fromStdString(graph->findValue("z")->shape.str()), QStringLiteral("1x2x6x8"));
    }

    void cliRunsNewerOpsets() {
        const QString cli = test::cliPath();
        if (!QFileInfo::exists(cli)) QSKIP("embark-cli is not built");
        for (const char* name : {"group_norm_21", "pad_axes_18", "bitwise_18"}) {
            const QString dir = dataDir() + "/" + name;
            QProcess p;
            p.start(cli, {"run", dir + "/model.onnx", "--expect", dir + "/test_data_set_0", "--json"});
            QVERIFY(p.waitForFinished(60000));
            QVERIFY2(p.exitCode() == 0, qPrintable(name + QString(": ") + p.readAllStandardError()));
            const QJsonObject json = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
            QVERIFY2(json.value("ok").toBool(), name);
        }
    }

    void refusedClearly_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("antialias") << "resize_antialias_18" << QStringList{"Resize", "antialias=1", "antialias=0"};
        QTest::newRow("opset 22") << "opset_22" << QStringList{"opset 22", "opsets 6 to 21", "convert_version"};
        QTest::newRow("string op") << "string_split_20" << QStringList{"StringSplit", "opset 20", "does not support"};
        QTest::newRow("block_size") << "quantize_block_size_21" << QStringList{"QuantizeLinear", "block_size 2"};
        QTest::newRow("float8") << "cast_float8_19" << QStringList{"'y'", "float8e4m3fn", "does not support"};
        QTest::newRow("int4") << "int4_initializer_21" << QStringList{"initializer 'w'", "int4", "int8"};
        QTest::newRow("Col2Im") << "col2im_18" << QStringList{"Col2Im", "opset 18"};
    }

    void refusedClearly() {
        QFETCH(QString, file);
        QFETCH(QStringList, words);
        auto graph = embark::onnx::importModel((dataDir() + "/refused/" + file + ".onnx").toStdString());
        QVERIFY2(!graph, qPrintable(file + " imports"));
        QCOMPARE(graph.error().kind, ErrorKind::Unsupported);
        const QString message = QString::fromStdString(graph.error().message);
        for (const QString& w : words) QVERIFY2(message.contains(w), qPrintable(message + " lacks " + w));
    }
};

QTEST_GUILESS_MAIN(TestOpsetNewer)
#include "tst_opset_newer.moc"

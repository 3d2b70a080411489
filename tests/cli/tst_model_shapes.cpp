// Shapes through the real embark-cli: a declared shape that disagrees with its op is reported
// (a warning naming the value and both shapes) and the computed shape is used by inspect,
// plan, export and run alike; symbolic input dimensions are fixed by the test data beside the
// model or by --shape, and without either the CLI exits 2 naming the exact --shape to pass;
// the same model exports for two shapes.
#include "onnx/onnx_models.h"
#include "onnx/tensor_io.h"
#include "support/cli_process.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;
namespace pb = ::onnx;

namespace {

// dims: a value >= 0 is fixed, a name in `params` (same index) is symbolic.
void setShape(pb::ValueInfoProto* vi, const std::string& name, const std::vector<int64_t>& dims,
              const std::vector<std::string>& params = {}, int elem = pb::TensorProto::FLOAT) {
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem);
    auto* shape = tt->mutable_shape();
    for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] >= 0)
            shape->add_dim()->set_dim_value(dims[i]);
        else
            shape->add_dim()->set_dim_param(params.at(i));
    }
}

// x[1,4,55,55] -> AveragePool(3x3, stride 2, ceil_mode 1) -> pooled -> Relu -> y, which the
// file declares 1x4x28x28 (value_info and graph output); the op computes 27x27.
test::ProtoModel ceilPoolModel() {
    test::ProtoModel p(13);
    p.input("x", {1, 4, 55, 55});
    auto* pool = p.node("AveragePool", {"x"}, {"pooled"}, "pool");
    test::attrInts(pool, "kernel_shape", {3, 3});
    test::attrInts(pool, "strides", {2, 2});
    test::attrInt(pool, "ceil_mode", 1);
    p.node("Relu", {"pooled"}, {"y"}, "relu");
    setShape(p.m.mutable_graph()->add_value_info(), "pooled", {1, 4, 28, 28});
    setShape(p.m.mutable_graph()->add_output(), "y", {1, 4, 28, 28});
    return p;
}

// audio[batch, 3, samples] -> Relu -> y[batch, 3, samples].
test::ProtoModel symbolicModel() {
    test::ProtoModel p(13);
    setShape(p.m.mutable_graph()->add_input(), "audio", {-1, 3, -1}, {"batch", "", "samples"});
    p.node("Relu", {"audio"}, {"y"}, "relu");
    setShape(p.m.mutable_graph()->add_output(), "y", {-1, 3, -1}, {"batch", "", "samples"});
    return p;
}

// audio[1, samples] cut into frames of sr / 1000 samples: Reshape(audio, [-1, sr / 1000]) ->
// ReduceMax over each frame -> y[frames]. Its shapes follow the value of `sr`: on zeros the
// Reshape has no answer (frames of 0 samples), with the test data's 16000 they are 16 a frame.
test::ProtoModel framesByRateModel() {
    test::ProtoModel p(13);
    setShape(p.m.mutable_graph()->add_input(), "audio", {1, -1}, {"", "samples"});
    setShape(p.m.mutable_graph()->add_input(), "sr", {}, {}, pb::TensorProto::INT64);
    p.initializer("per_ms", ir::Tensor::fromInt64s(ir::Shape{}, {1000}));
    p.initializer("axis0", ir::Tensor::fromInt64s(ir::Shape{1}, {0}));
    p.initializer("minus1", ir::Tensor::fromInt64s(ir::Shape{1}, {-1}));
    p.node("Div", {"sr", "per_ms"}, {"frame"}, "frame_length");
    p.node("Unsqueeze", {"frame", "axis0"}, {"frame1"}, "frame_1d");
    test::attrInt(p.node("Concat", {"minus1", "frame1"}, {"frames_shape"}, "frames_shape"), "axis", 0);
    p.node("Reshape", {"audio", "frames_shape"}, {"frames"}, "frames");
    auto* r = p.node("ReduceMax", {"frames"}, {"y"}, "frame_peak");
    test::attrInts(r, "axes", {1});
    test::attrInt(r, "keepdims", 0);
    p.output("y", 1);
    return p;
}

QJsonObject json(const QByteArray& out) { return QJsonDocument::fromJson(out).object(); }
QJsonArray dims(std::initializer_list<int> d) {
    QJsonArray a;
    for (int x : d) a.append(x);
    return a;
}
QByteArray describe(const test::CliResult& r) {
    return "exit " + QByteArray::number(r.code) + "\nstdout: " + r.out.right(1500) + "\nstderr: " + r.err.right(1500);
}

} // namespace

class TestModelShapes : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

private slots:
    void declaredShapeIsCheckedEverywhere() {
        const QString model = m_tmp.path() + "/ceil_pool.onnx";
        QVERIFY(ceilPoolModel().save(model));
        const QByteArray warning = "value 'pooled' is declared 1x4x28x28 but its op computes 1x4x27x27";

        test::CliResult inspect = test::runCli({"inspect", model, "--json"});
        QVERIFY2(inspect.code == 0 && inspect.err.contains(warning) && inspect.err.contains("value 'y'"),
                 describe(inspect));
        QCOMPARE(json(inspect.out)["outputs"].toArray()[0].toObject()["shape"].toArray(), dims({1, 4, 27, 27}));

        test::CliResult plan = test::runCli({"plan", model, "--json"});
        QVERIFY2(plan.code == 0 && plan.err.contains(warning), describe(plan));
        // Buffers of 4x27x27 floats (11664 bytes), none of 4x28x28 (12544).
        QVERIFY2(plan.out.contains("11664") && !plan.out.contains("12544"), plan.out.left(3000));

        test::CliResult run = test::runCli({"run", model, "--json"});
        QVERIFY2(run.code == 0 && run.err.contains(warning), describe(run));
        QCOMPARE(json(run.out)["outputs"].toArray()[0].toObject()["shape"].toArray(), dims({1, 4, 27, 27}));

        const QString out = m_tmp.path() + "/ceil_pool_export";
        test::CliResult exp = test::runCli({"export", model, "--lib", "portable", "-o", out});
        QVERIFY2(exp.code == 0 && exp.err.contains(warning), describe(exp));
        QFile manifest(out + "/export.json");
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        const QJsonObject m = json(manifest.readAll());
        QCOMPARE(m["outputs"].toArray()[0].toObject()["shape"].toArray(), dims({1, 4, 27, 27}));
        QCOMPARE(QFileInfo(out + "/data/expected_0.bin").size(), qint64(4 * 4 * 27 * 27));
    }

    void symbolicDimensionsNeedAShape() {
        const QString dir = m_tmp.path() + "/no_data";
        QVERIFY(QDir().mkpath(dir));
        const QString model = dir + "/model.onnx";
        QVERIFY(symbolicModel().save(model));
        for (const char* command : {"inspect", "plan", "export", "run"}) {
            QStringList args{command, model};
            if (QByteArray(command) == "export") args << "-o" << m_tmp.path() + "/never";
            test::CliResult r = test::runCli(args);
            QVERIFY2(r.code == 2 && r.err.contains("input 'audio' has symbolic dimensions 'batch' and 'samples'") &&
                         r.err.contains("pass --shape audio=1x3x1 "),
                     describe(r));
        }
        test::CliResult ok = test::runCli({"inspect", model, "--json", "--shape", "audio=2x3x160"});
        QVERIFY2(ok.code == 0, describe(ok));
        QCOMPARE(json(ok.out)["outputs"].toArray()[0].toObject()["shape"].toArray(), dims({2, 3, 160}));
    }

    void testDataFixesSymbolicDimensions() {
        const QString dir = m_tmp.path() + "/with_data";
        QVERIFY(QDir().mkpath(dir + "/test_data_set_0"));
        const QString model = dir + "/model.onnx";
        QVERIFY(symbolicModel().save(model));
        const ir::Tensor sample = ir::Tensor::fromFloats(ir::Shape{1, 3, 16}, std::vector<float>(48, 0.5f));
        QVERIFY(embark::onnx::writeTensorProto((dir + "/test_data_set_0/input_0.pb").toStdString(), sample, "audio"));
        test::CliResult r = test::runCli({"inspect", model, "--json"});
        QVERIFY2(r.code == 0, describe(r));
        QCOMPARE(json(r.out)["inputs"].toArray()[0].toObject()["shape"].toArray(), dims({1, 3, 16}));
        // --shape still wins over the test data.
        test::CliResult given = test::runCli({"inspect", model, "--json", "--shape", "audio=1x3x8"});
        QVERIFY2(given.code == 0, describe(given));
        QCOMPARE(json(given.out)["inputs"].toArray()[0].toObject()["shape"].toArray(), dims({1, 3, 8}));
    }

    // A folder of models, each with its data in a folder of its name (resnet18.onnx beside
    // resnet18/test_data_set_0), and the tensors given with --input, fix the free dimensions too.
    void inputsAndDataFolderFixSymbolicDimensions() {
        const QString dir = m_tmp.path() + "/zoo";
        QVERIFY(QDir().mkpath(dir + "/vad/test_data_set_0"));
        const QString model = dir + "/vad.onnx";
        QVERIFY(symbolicModel().save(model));
        const ir::Tensor sample = ir::Tensor::fromFloats(ir::Shape{1, 3, 16}, std::vector<float>(48, 0.5f));
        QVERIFY(
            embark::onnx::writeTensorProto((dir + "/vad/test_data_set_0/input_0.pb").toStdString(), sample, "audio"));
        test::CliResult beside = test::runCli({"inspect", model, "--json"});
        QVERIFY2(beside.code == 0, describe(beside));
        QCOMPARE(json(beside.out)["inputs"].toArray()[0].toObject()["shape"].toArray(), dims({1, 3, 16}));

        const QString lone = m_tmp.path() + "/lone";
        QVERIFY(QDir().mkpath(lone + "/set"));
        const QString bare = lone + "/model.onnx";
        QVERIFY(symbolicModel().save(bare));
        const ir::Tensor other = ir::Tensor::fromFloats(ir::Shape{2, 3, 24}, std::vector<float>(144, -1.f));
        QVERIFY(embark::onnx::writeTensorProto((lone + "/set/input_0.pb").toStdString(), other, "audio"));
        QVERIFY(embark::onnx::writeNpy((lone + "/audio.npy").toStdString(), other));
        for (const QStringList& input :
             {QStringList{"--input", lone + "/set"}, QStringList{"--input", "audio=" + lone + "/audio.npy"},
              QStringList{"--input", lone + "/audio.npy"}}) {
            test::CliResult r = test::runCli(QStringList{"run", bare, "--json"} + input);
            QVERIFY2(r.code == 0, describe(r));
            QCOMPARE(json(r.out)["outputs"].toArray()[0].toObject()["shape"].toArray(), dims({2, 3, 24}));
        }
        const QString out = m_tmp.path() + "/lone_export";
        test::CliResult exp = test::runCli(
            {"export", bare, "--lib", "portable", "-o", out, "--input", "audio=" + lone + "/set/input_0.pb"});
        QVERIFY2(exp.code == 0, describe(exp));
        QFile manifest(out + "/export.json");
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QCOMPARE(json(manifest.readAll())["inputs"].toArray()[0].toObject()["shape"].toArray(), dims({2, 3, 24}));
    }

    // Shapes that follow an input's value are computed on the test data, not on zeros.
    void shapesFollowTheTestData() {
        const QString dir = m_tmp.path() + "/by_rate";
        QVERIFY(QDir().mkpath(dir + "/set"));
        const QString model = dir + "/frames.onnx";
        QVERIFY(framesByRateModel().save(model));
        std::vector<float> samples(64);
        for (size_t i = 0; i < samples.size(); ++i) samples[i] = float(i % 16);
        QVERIFY(embark::onnx::writeTensorProto((dir + "/set/input_0.pb").toStdString(),
                                               ir::Tensor::fromFloats(ir::Shape{1, 64}, samples), "audio"));
        QVERIFY(embark::onnx::writeTensorProto((dir + "/set/input_1.pb").toStdString(),
                                               ir::Tensor::fromInt64s(ir::Shape{}, {16000}), "sr"));
        test::CliResult r = test::runCli({"run", model, "--input", dir + "/set", "--json"});
        QVERIFY2(r.code == 0, describe(r));
        QCOMPARE(json(r.out)["outputs"].toArray()[0].toObject()["shape"].toArray(), dims({4}));
    }

    void oneModelExportsForSeveralShapes() {
        const QString dir = m_tmp.path() + "/several";
        QVERIFY(QDir().mkpath(dir));
        const QString model = dir + "/model.onnx";
        QVERIFY(symbolicModel().save(model));
        for (const QString& shape : {QStringLiteral("1x3x16"), QStringLiteral("2x3x40")}) {
            const QString out = m_tmp.path() + "/several_" + shape;
            test::CliResult r =
                test::runCli({"export", model, "--lib", "portable", "--shape", "audio=" + shape, "-o", out});
            QVERIFY2(r.code == 0, describe(r));
            QFile manifest(out + "/export.json");
            QVERIFY(manifest.open(QIODevice::ReadOnly));
            QJsonArray want;
            for (const QString& d : shape.split('x')) want.append(d.toInt());
            QCOMPARE(json(manifest.readAll())["inputs"].toArray()[0].toObject()["shape"].toArray(), want);
        }
    }
};

QTEST_GUILESS_MAIN(TestModelShapes)
#include "tst_model_shapes.moc"

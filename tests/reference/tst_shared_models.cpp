// The shared-model tier (../shared/models): real exported networks through the importer and
// the reference interpreter, compared with their test_data_set_N outputs within 1e-4 of the
// output's max magnitude; the trained digits model must also predict its labels.
#include "onnx/importer.h"
#include "onnx/tensor_io.h"
#include "reference/interpreter.h"
#include "support/test_paths.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <cmath>

using namespace embark;

namespace {

double maxRelativeDiff(const ir::Tensor& actual, const ir::Tensor& expected) {
    double maxDiff = 0, maxRef = 0;
    for (int64_t i = 0; i < expected.numel(); ++i) {
        maxDiff = std::fmax(maxDiff, std::fabs(actual.at(i) - expected.at(i)));
        maxRef = std::fmax(maxRef, std::fabs(expected.at(i)));
    }
    return maxDiff / std::fmax(maxRef, 1e-30);
}

int64_t argmax(const ir::Tensor& t) {
    int64_t best = 0;
    for (int64_t i = 1; i < t.numel(); ++i)
        if (t.at(i) > t.at(best)) best = i;
    return best;
}

ir::Graph importOrFail(const QString& path) {
    Expected<ir::Graph> g = onnx::importModel(path.toStdString());
    if (!g) qFatal("cannot import %s: %s", qPrintable(path), g.error().message.c_str());
    return std::move(*g);
}

std::map<std::string, ir::Tensor> inputsFor(const ir::Graph& g, const onnx::TestDataSet& data) {
    std::map<std::string, ir::Tensor> inputs;
    size_t next = 0;
    for (const ir::Value* v : g.inputs())
        if (!v->isConstant() && next < data.inputs.size()) inputs[v->name] = data.inputs[next++].tensor;
    return inputs;
}

} // namespace

class TestSharedModels : public QObject {
    Q_OBJECT

private slots:
    void matchesTestData_data() {
        QTest::addColumn<QString>("name");
        for (const char* name : {"lenet5", "digits", "squeezenet1_1", "mobilenet_v2", "resnet18"})
            QTest::newRow(name) << QString(name);
    }
    void matchesTestData() {
        EMBARK_REQUIRE_SHARED_MODELS();
        QFETCH(QString, name);
        const QString model = test::sharedModel(name);
        if (model.isEmpty()) QSKIP(qPrintable(name + " is absent from ../shared/models"));
        const ir::Graph g = importOrFail(model);
        const QDir folder(QFileInfo(model).absolutePath() + (name == "digits" ? "" : "/" + name));
        const QStringList sets = folder.entryList({"test_data_set_*"}, QDir::Dirs, QDir::Name);
        QVERIFY2(!sets.isEmpty(), qPrintable("no test_data_set_N under " + folder.path()));
        for (const QString& set : sets) {
            auto data = onnx::readTestDataSet(folder.filePath(set).toStdString());
            QVERIFY2(data.ok(), data.ok() ? "" : data.error().message.c_str());
            auto r = reference::run(g, inputsFor(g, *data));
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
            QCOMPARE(r->outputs.size(), data->outputs.size());
            for (size_t k = 0; k < data->outputs.size(); ++k) {
                const ir::Tensor& expected = data->outputs[k].tensor;
                QCOMPARE(r->outputs[k].shape(), expected.shape());
                const double rel = maxRelativeDiff(r->outputs[k], expected);
                qInfo("%s %s output %zu: max |diff| / max |ref| = %.3g", qPrintable(name), qPrintable(set), k, rel);
                QVERIFY2(rel <= 1e-4, qPrintable(QString("%1 %2: relative difference %3").arg(name, set).arg(rel)));
                if (name == "digits") QCOMPARE(argmax(r->outputs[k]), static_cast<int64_t>(set.back().digitValue()));
            }
        }
    }

    void digitsTestSplitAccuracy() {
        EMBARK_REQUIRE_SHARED_MODELS();
        const QString model = test::sharedModel("digits");
        const QString dir = QFileInfo(model).absolutePath();
        QFile labelsFile(dir + "/test_labels.bin");
        if (model.isEmpty() || !labelsFile.open(QIODevice::ReadOnly)) QSKIP("digits test split is absent");
        const QByteArray labels = labelsFile.readAll();
        const int64_t count = labels.size();
        auto images =
            onnx::readRaw((dir + "/test_images.bin").toStdString(), ir::DType::Float32, ir::Shape{count, 1, 16, 16});
        QVERIFY2(images.ok(), images.ok() ? "" : images.error().message.c_str());
        const ir::Graph g = importOrFail(model);
        const std::string input = g.inputs().front()->name;
        int correct = 0;
        for (int64_t i = 0; i < count; ++i) {
            const ir::Tensor image = ir::Tensor::fromBytes(ir::DType::Float32, {1, 1, 16, 16},
                                                           images->as<float>() + i * 256, 256 * sizeof(float));
            auto r = reference::run(g, {{input, image}});
            QVERIFY(r.ok());
            correct += argmax(r->outputs.front()) == static_cast<uint8_t>(labels[static_cast<int>(i)]);
        }
        const double accuracy = static_cast<double>(correct) / static_cast<double>(count);
        qInfo("digits: %d / %lld correct (%.2f %%)", correct, static_cast<long long>(count), 100 * accuracy);
        QVERIFY(accuracy >= 0.99); // the model card states 99.44 %
    }
};

QTEST_GUILESS_MAIN(TestSharedModels)
#include "tst_shared_models.moc"

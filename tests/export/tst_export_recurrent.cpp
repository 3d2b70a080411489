// LSTM, GRU and RNN through the portable export on the host: the cases of tests/data/recurrent
// (bidirectional with per-row lengths, layout 1, clip, peepholes, non-default activations;
// expected outputs from ONNX Runtime) exported, linked into one harness binary and run, each
// output compared with ONNX Runtime's and with the reference interpreter's.
#include "export/exporter.h"
#include "onnx/importer.h"
#include "onnx/tensor_io.h"
#include "support/export_harness.h"
#include "support/test_paths.h"

#include <QDir>
#include <QTest>

#include <cmath>

using namespace embark;

namespace {
// float32 kernels against ONNX Runtime's float32 ones: per element, relative to magnitude.
constexpr double kTol = 1e-5;
} // namespace

class TestExportRecurrent : public QObject {
    Q_OBJECT

private slots:
    void hostExportMatchesOnnxRuntime() {
        const QDir root(test::testDataDir() + "/recurrent");
        const QStringList names = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY(names.size() >= 9);
        auto target = test::harnessTarget("host", false);
        QVERIFY2(target, target ? "" : target.error().message.c_str());
        const QString work = (embark::test::binaryDir() + "/tests/export_recurrent");
        std::vector<test::HarnessEntry> entries;
        std::vector<std::vector<ir::Tensor>> expected;
        for (const QString& name : names) {
            const QString dir = root.filePath(name);
            auto graph = onnx::importModel((dir + "/model.onnx").toStdString());
            QVERIFY2(graph, graph ? "" : graph.error().message.c_str());
            auto data = onnx::readTestDataSet((dir + "/test_data_set_0").toStdString());
            QVERIFY2(data, data ? "" : data.error().message.c_str());
            exporter::ExportOptions o = target->exportOptions;
            o.library = "portable";
            o.outDir = work + "/exports/" + name;
            // X, and the initial states where the case makes them model inputs (computed at run
            // time: lstm_state_inputs, gru_state_input).
            o.sampleInputs = onnx::pairTestSetInputs(*graph, data->inputs);
            auto r = exporter::exportModel(*graph, o);
            QVERIFY2(r, r ? "" : (name.toStdString() + ": " + r.error().message).c_str());
            entries.push_back({name.toStdString(), r->dir});
            std::vector<ir::Tensor> want;
            for (const auto& out : data->outputs) want.push_back(out.tensor);
            expected.push_back(std::move(want));
        }
        test::HarnessOptions ho = target->harness;
        ho.workDir = work + "/harness";
        auto results = test::runExportHarness(entries, ho);
        QVERIFY2(results, results ? "" : results.error().message.c_str());
        const std::string diff = test::compareHarnessResults(*results, expected, kTol);
        QVERIFY2(diff.empty(), diff.c_str());
    }
};

QTEST_GUILESS_MAIN(TestExportRecurrent)
#include "tst_export_recurrent.moc"

// LSTM, GRU and RNN through the portable export on the host: the cases of tests/data/recurrent
// (bidirectional with per-row lengths, layout 1, clip, peepholes, non-default activations;
// expected outputs from ONNX Runtime) exported, linked into one harness binary and run, each
// output compared with ONNX Runtime's and with the reference interpreter's.
#include "embark_build_paths.h"
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
        const QString work = QStringLiteral(EMBARK_BINARY_DIR "/tests/export_recurrent");
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
        QCOMPARE(results->size(), entries.size());
        for (size_t i = 0; i < results->size(); ++i) {
            const test::HarnessResult& r = (*results)[i];
            QVERIFY2(r.status == test::HarnessStatus::Ok, (r.id + ": " + r.message).c_str());
            QCOMPARE(r.outputs.size(), expected[i].size());
            for (size_t k = 0; k < r.outputs.size(); ++k) {
                const test::HarnessOutput& out = r.outputs[k];
                // Against the reference (embedded in the export as its expected output).
                QVERIFY2(
                    out.finite && out.maxAbs <= kTol * (1 + out.maxRef),
                    (r.id + " " + out.name + ": max |diff| vs the reference " + std::to_string(out.maxAbs)).c_str());
                const ir::Tensor& want = expected[i][k];
                QCOMPARE(out.data.shape(), want.shape());
                for (int64_t e = 0; e < want.numel(); ++e)
                    QVERIFY2(std::fabs(out.data.at(e) - want.at(e)) <= kTol * (1 + std::fabs(want.at(e))),
                             (r.id + " " + out.name + " element " + std::to_string(e) + ": " +
                              std::to_string(out.data.at(e)) + ", ONNX Runtime gives " + std::to_string(want.at(e)))
                                 .c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestExportRecurrent)
#include "tst_export_recurrent.moc"

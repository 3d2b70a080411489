// Models of opsets 18 to 21 (tests/data/opset18_21, expected outputs from ONNX Runtime 1.30)
// exported with the portable library for the host, linked into one harness binary and run:
// each output matches ONNX Runtime's. The newer forms reach the export as the IR's forms
// (GroupNormalization as InstanceNormalization with per-channel scale, CenterCropPad as
// Slice + Pad, Resize's axes as full-rank scales, DFT-20's axis input as an attribute).
#include "export/exporter.h"
#include "onnx/importer.h"
#include "onnx/tensor_io.h"
#include "support/export_harness.h"
#include "support/test_paths.h"

#include <QDir>
#include <QTest>

using namespace embark;

class TestExportOpsetNewer : public QObject {
    Q_OBJECT

private slots:
    void hostExportMatchesOnnxRuntime() {
        const QString data = test::testDataDir() + "/opset18_21/";
        const QStringList models = {
            "reduce_axes_input_18",
            "split_num_outputs_18",
            "pad_axes_18",
            "resize_axes_18",
            "resize_sizes_axes_18",
            "scatter_max_min_18",
            "group_norm_18",
            "center_crop_pad_18",
            "mish_18",
            "pad_wrap_19",
            "average_pool_dilations_19",
            "gelu_20",
            "dft_axis_input_20",
            "grid_sample_20",
            "affine_grid_20",
            "group_norm_21",
            "if_reduce_21",
        };
        auto target = test::harnessTarget("host", false);
        QVERIFY2(target, target ? "" : target.error().message.c_str());
        const QString work = (embark::test::binaryDir() + "/tests/export_opset_newer");
        std::vector<test::HarnessEntry> entries;
        std::vector<std::vector<ir::Tensor>> expected;
        for (const QString& name : models) {
            const std::string id = name.toStdString();
            auto graph = onnx::importModel((data + name + "/model.onnx").toStdString());
            QVERIFY2(graph, graph ? "" : (id + ": " + graph.error().message).c_str());
            auto set = onnx::readTestDataSet((data + name + "/test_data_set_0").toStdString());
            QVERIFY2(set, set ? "" : set.error().message.c_str());
            exporter::ExportOptions o = target->exportOptions;
            o.library = "portable";
            o.outDir = work + "/exports/" + name;
            for (const onnx::NamedTensor& t : set->inputs) o.sampleInputs[t.name] = t.tensor;
            auto r = exporter::exportModel(*graph, o);
            QVERIFY2(r, r ? "" : (id + ": " + r.error().message).c_str());
            entries.push_back({id, r->dir});
            std::vector<ir::Tensor> want;
            for (const auto& out : set->outputs) want.push_back(out.tensor.castTo(ir::DType::Float32));
            expected.push_back(std::move(want));
        }
        test::HarnessOptions ho = target->harness;
        ho.workDir = work + "/harness";
        auto results = test::runExportHarness(entries, ho);
        QVERIFY2(results, results ? "" : results.error().message.c_str());
        const std::string diff = test::compareHarnessResults(*results, expected, 1e-4);
        QVERIFY2(diff.empty(), diff.c_str());
    }
};

QTEST_GUILESS_MAIN(TestExportOpsetNewer)
#include "tst_export_opset_newer.moc"

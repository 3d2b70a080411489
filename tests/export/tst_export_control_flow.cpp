// Control flow and non-computed outputs through the portable export on the host: the models of
// tests/data/control_flow (an If choosing its branch by the sample rate, run on both branches;
// the same with torch-style shape arithmetic and a rank test choosing a nested If's branch
// inside each branch, folded at export time; an If whose other branch cannot run with the
// input's shapes, exported as a run-time error; a Loop with a scan output and a nested If reading a value two scopes
// out; a reverse Scan over axis 1) and tests/data/export_io (graph outputs that are constants, a graph input, and one
// value named twice) exported, linked into one harness binary and run, each output compared
// with the expected outputs of its test data and with the reference interpreter's. Exports
// refuse an If whose branches give different shapes, naming the node and both shapes.
#include "export/exporter.h"
#include "onnx/importer.h"
#include "onnx/model_inputs.h"
#include "onnx/tensor_io.h"
#include "support/export_harness.h"
#include "support/test_paths.h"

#include <QDir>
#include <QTest>

#include <cmath>

using namespace embark;

namespace {
constexpr double kTol = 1e-5;

struct Model {
    QString file;    // under tests/data
    QString dataSet; // its test data folder
    int layers = 0;  // top-level nodes: a control-flow node is one layer
};
} // namespace

class TestExportControlFlow : public QObject {
    Q_OBJECT

private slots:
    void hostExportMatchesExpected() {
        const QString data = test::testDataDir();
        const std::vector<Model> models = {
            {"control_flow/if_sample_rate.onnx", "control_flow/if_sample_rate/test_data_set_0", 3},
            {"control_flow/if_sample_rate.onnx", "control_flow/if_sample_rate/test_data_set_1", 3},
            {"control_flow/if_shape_logic.onnx", "control_flow/if_shape_logic/test_data_set_0", 3},
            {"control_flow/if_shape_logic.onnx", "control_flow/if_shape_logic/test_data_set_1", 3},
            {"control_flow/if_unrunnable_branch.onnx", "control_flow/if_unrunnable_branch/test_data_set_0", 2},
            {"control_flow/loop_recurrence.onnx", "control_flow/loop_recurrence/test_data_set_0", 1},
            {"control_flow/scan_reverse.onnx", "control_flow/scan_reverse/test_data_set_0", 1},
            {"export_io/constant_outputs.onnx", "export_io/constant_outputs/test_data_set_0", 1},
        };
        auto target = test::harnessTarget("host", false);
        QVERIFY2(target, target ? "" : target.error().message.c_str());
        const QString work = (embark::test::binaryDir() + "/tests/export_control_flow");
        std::vector<test::HarnessEntry> entries;
        std::vector<std::vector<ir::Tensor>> expected;
        for (const Model& m : models) {
            const std::string id = (m.file + " " + QDir(m.dataSet).dirName()).toStdString();
            auto set = onnx::readTestDataSet((data + "/" + m.dataSet).toStdString());
            QVERIFY2(set, set ? "" : set.error().message.c_str());
            onnx::ImportOptions io; // symbolic input dims from the data, as the CLI fixes them
            auto declared = onnx::declaredInputs((data + "/" + m.file).toStdString());
            QVERIFY2(declared, declared ? "" : declared.error().message.c_str());
            io.shapeOverrides = onnx::shapesFromTensors(*declared, set->inputs);
            for (const onnx::NamedTensor& t : set->inputs) io.shapeSample[t.name] = t.tensor;
            auto graph = onnx::importModel((data + "/" + m.file).toStdString(), io);
            QVERIFY2(graph, graph ? "" : (id + ": " + graph.error().message).c_str());
            exporter::ExportOptions o = target->exportOptions;
            o.library = "portable";
            o.outDir = work + "/exports/" + QString::number(entries.size());
            for (const onnx::NamedTensor& t : set->inputs) o.sampleInputs[t.name] = t.tensor;
            auto r = exporter::exportModel(*graph, o);
            QVERIFY2(r, r ? "" : (id + ": " + r.error().message).c_str());
            QVERIFY2(r->layers == m.layers, (id + ": " + std::to_string(r->layers) + " layers").c_str());
            entries.push_back({id, r->dir});
            std::vector<ir::Tensor> want;
            for (const auto& out : set->outputs) want.push_back(out.tensor.castTo(ir::DType::Float32));
            expected.push_back(std::move(want));
        }
        test::HarnessOptions ho = target->harness;
        ho.workDir = work + "/harness";
        auto results = test::runExportHarness(entries, ho);
        QVERIFY2(results, results ? "" : results.error().message.c_str());
        const std::string diff = test::compareHarnessResults(*results, expected, kTol);
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void ifBranchesOfDifferentShapesAreRefused() {
        const QString dir = test::testDataDir() + "/control_flow";
        auto graph = onnx::importModel((dir + "/if_shape_mismatch.onnx").toStdString());
        QVERIFY2(graph, graph ? "" : graph.error().message.c_str());
        exporter::ExportOptions o;
        o.library = "portable";
        o.outDir = (embark::test::binaryDir() + "/tests/export_control_flow/refused");
        o.force = true;
        // The sample takes else_branch, whose shape the import fixed for the output: the export
        // gets as far as the If itself.
        ir::Tensor no(ir::DType::Bool, ir::Shape{});
        *no.mutableAs<uint8_t>() = 0;
        o.sampleInputs["c"] = no;
        auto r = exporter::exportModel(*graph, o);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, ErrorKind::Unsupported);
        const std::string& m = r.error().message;
        QVERIFY2(m.find("'choose'") != std::string::npos, m.c_str());
        QVERIFY2(m.find("1x4") != std::string::npos && m.find("1x2") != std::string::npos, m.c_str());
        QVERIFY2(m.find("then_branch") != std::string::npos && m.find("else_branch") != std::string::npos, m.c_str());
    }
};

QTEST_GUILESS_MAIN(TestExportControlFlow)
#include "tst_export_control_flow.moc"

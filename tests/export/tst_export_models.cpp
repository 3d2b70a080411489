// The shared models exported with each kernel library, built into one harness binary and run
// on the host: outputs and every layer's dump against the reference interpreter (per layer
// through the layer's output value name or its provenance), 1e-4 of max |ref|, cosine.
#include "results/metrics.h"
#include "export/exporter.h"
#include "onnx/importer.h"
#include "onnx/tensor_io.h"
#include "reference/interpreter.h"
#include "support/export_harness.h"
#include "support/test_paths.h"

#include <QTest>

#include <cstdio>
#include <map>

using namespace embark;

namespace {

constexpr double kRelativeTolerance = 1e-4; // of the reference's max magnitude
constexpr double kMinCosine = 0.99999;

struct Model {
    QString name, path;
    ir::Graph graph;
    std::map<std::string, ir::Tensor> inputs;
    reference::RunResult reference;                // captureAll
    std::map<std::string, std::string> nodeOutput; // original node name -> its first output
};

// The reference value a layer stands for: its own output value when the original graph has
// it, else the first output of the last original node in its provenance.
const ir::Tensor* referenceFor(const Model& m, const test::HarnessLayer& l, std::string* name) {
    if (auto it = m.reference.values.find(l.value); it != m.reference.values.end()) {
        *name = l.value;
        return &it->second;
    }
    if (l.provenance.empty()) return nullptr;
    auto out = m.nodeOutput.find(l.provenance.back());
    if (out == m.nodeOutput.end()) return nullptr;
    auto it = m.reference.values.find(out->second);
    if (it == m.reference.values.end()) return nullptr;
    *name = out->second;
    return &it->second;
}

} // namespace

class TestExportModels : public QObject {
    Q_OBJECT

    std::vector<Model> m_models;

private slots:
    void initTestCase() {
        EMBARK_REQUIRE_SHARED_MODELS();
        const QString dir = test::sharedModelsDir();
        const std::vector<std::pair<QString, QString>> files = {{"resnet18", dir + "/resnet18.onnx"},
                                                                {"mobilenet_v2", dir + "/mobilenet_v2.onnx"},
                                                                {"squeezenet1_1", dir + "/squeezenet1_1.onnx"},
                                                                {"lenet5", dir + "/lenet5.onnx"},
                                                                {"digits", dir + "/digits/digits_cnn.onnx"}};
        for (const auto& [name, path] : files) {
            Model m;
            m.name = name;
            m.path = path;
            auto g = onnx::importModel(path.toStdString());
            QVERIFY2(g, g ? "" : g.error().message.c_str());
            const QString sample = QFileInfo(path).absolutePath() + "/" + (name == "digits" ? "" : name + "/") +
                                   "test_data_set_0/input_0.pb";
            auto in = onnx::readTensorProto(sample.toStdString());
            QVERIFY2(in, in ? "" : in.error().message.c_str());
            m.inputs[g->inputs().front()->name] = in->tensor;
            reference::RunOptions ro;
            ro.captureAll = true;
            auto ref = reference::run(*g, m.inputs, ro);
            QVERIFY2(ref, ref ? "" : ref.error().message.c_str());
            m.reference = std::move(*ref);
            for (const ir::Node* n : g->nodes())
                if (n->output(0)) m.nodeOutput[n->name] = n->output(0)->name;
            m.graph = std::move(*g);
            m_models.push_back(std::move(m));
        }
    }

    // Rows: the host with both libraries (Debian's XNNPACK, or XNNPACK_ROOT), then XNNPACK alone
    // linked from upstream's trees in ../shared/xnnpack (skipped when absent), natively and on
    // the simulated boards (the two riscv64 boards share one build and run it at VLEN 128/256).
    void exportedModelsMatchTheReference_data() {
        QTest::addColumn<QString>("boardId");
        QTest::addColumn<bool>("upstream");
        QTest::newRow("host") << "host" << false;
        QTest::newRow("host upstream xnnpack") << "host" << true;
        QTest::newRow("sim-k230 upstream xnnpack") << "sim-k230" << true;
        QTest::newRow("sim-k1 upstream xnnpack") << "sim-k1" << true;
        QTest::newRow("sim-rpi5 upstream xnnpack") << "sim-rpi5" << true;
    }

    void exportedModelsMatchTheReference() {
        QFETCH(QString, boardId);
        QFETCH(bool, upstream);
        auto target = test::harnessTarget(boardId, upstream);
        if (!target && target.error().kind == ErrorKind::Unsupported) QSKIP(target.error().message.c_str());
        QVERIFY2(target, target ? "" : target.error().message.c_str());
        const QString arch = target->arch;
        exporter::ExportOptions base = target->exportOptions;
        test::HarnessOptions ho = target->harness;
        // XNNPACK alone on the upstream rows; both libraries on the host row.
        const std::vector<const char*> libs =
            upstream ? std::vector<const char*>{"xnnpack"} : std::vector<const char*>{"portable", "xnnpack"};
        const QString work =
            (embark::test::binaryDir() + "/tests/export_models") + (upstream ? "-upstream-" + arch : QString());
        std::vector<test::HarnessEntry> entries;
        std::vector<const Model*> owners;
        // Under qemu, ResNet-18 and MobileNet-V2 with every layer dumped take minutes each: they
        // run natively in every row, and on the simulated boards with EMBARK_HEAVY_TIERS=1.
        const bool heavy = boardId == "host" || qEnvironmentVariable("EMBARK_HEAVY_TIERS") == "1";
        for (const char* lib : libs) {
            for (const Model& m : m_models) {
                if (!heavy && (m.name == "resnet18" || m.name == "mobilenet_v2")) continue;
                exporter::ExportOptions o = base;
                o.library = lib;
                o.outDir = work + "/exports/" + m.name + "_" + lib;
                o.sampleInputs = m.inputs;
                auto r = exporter::exportModel(m.graph, o);
                QVERIFY2(r, r ? "" : (m.name.toStdString() + " (" + lib + "): " + r.error().message).c_str());
                entries.push_back(
                    {m.name.toStdString() + "/" + lib + (upstream ? " upstream on " + boardId.toStdString() : ""),
                     r->dir});
                owners.push_back(&m);
            }
        }
        ho.workDir = work + "/harness";
        ho.dumpLayers = true;
        ho.modelsPerUnit = 5;
        auto results = test::runExportHarness(entries, ho);
        QVERIFY2(results, results ? "" : results.error().message.c_str());

        int failures = 0;
        auto fail = [&](const std::string& what) {
            ++failures;
            std::printf("FAIL %s\n", what.c_str());
        };
        for (size_t i = 0; i < results->size(); ++i) {
            const test::HarnessResult& r = (*results)[i];
            const Model& m = *owners[i];
            if (r.status != test::HarnessStatus::Ok) {
                fail(r.id + ": " + test::harnessStatusName(r.status) + ": " + r.message);
                continue;
            }
            for (size_t k = 0; k < r.outputs.size() && k < m.reference.outputs.size(); ++k) {
                const bench::Accuracy a =
                    bench::compare(r.outputs[k].data, m.reference.outputs[k].castTo(ir::DType::Float32));
                std::printf("%-22s output %-8s max|diff| %.3g  rel %.3g  cosine %.9f\n", r.id.c_str(),
                            r.outputs[k].name.c_str(), a.maxAbs, a.maxRel, a.cosine);
                if (!a.shapeMatches || !bench::withinTolerance(a, kRelativeTolerance) || !(a.cosine >= kMinCosine))
                    fail(r.id + " output '" + r.outputs[k].name + "': max rel " + std::to_string(a.maxRel) +
                         ", cosine " + std::to_string(a.cosine));
            }
            // Per layer through provenance.
            double worstRel = -1;
            std::string worstLayer;
            int compared = 0, unmatched = 0;
            for (const test::HarnessLayer& l : r.layers) {
                std::string refName;
                const ir::Tensor* ref = referenceFor(m, l, &refName);
                if (!ref || ref->numel() != l.data.numel()) {
                    ++unmatched;
                    continue;
                }
                const ir::Tensor want = ref->castTo(ir::DType::Float32).reshaped(l.data.shape());
                const bench::Accuracy a = bench::compare(l.data, want);
                ++compared;
                if (a.maxRel > worstRel) {
                    worstRel = a.maxRel;
                    worstLayer = l.node + " (" + l.lib + ", vs '" + refName + "')";
                }
                if (!bench::withinTolerance(a, kRelativeTolerance))
                    fail(r.id + " layer " + std::to_string(l.index) + " " + l.node + " (" + l.lib + ") vs reference '" +
                         refName + "': max |diff| " + std::to_string(a.maxAbs) + ", max |ref| " +
                         std::to_string(a.maxRef));
            }
            std::printf(
                "%-22s %d layers compared, %d without a reference value (layout conversions), worst %.3g at %s\n",
                r.id.c_str(), compared, unmatched, worstRel, worstLayer.c_str());
            if (compared == 0) fail(r.id + ": no layer could be compared with the reference");
        }
        std::fflush(stdout);
        QVERIFY2(failures == 0, "exported models differ from the reference (see the FAIL lines above)");
    }
};

QTEST_GUILESS_MAIN(TestExportModels)
#include "tst_export_models.moc"

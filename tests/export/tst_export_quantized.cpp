// Quantized models exported with the portable int8 kernels, built into one harness binary and
// run on the host: the small QDQ graphs of qdq_graphs.h, the digits CNN quantized with
// `embark-cli quantize` (resources/models) and, when ../shared/models exists, MobileNet-V2
// quantized on one test set, and a QOperator model (QLinearConv, QLinearMatMul, a per-axis
// DequantizeLinear at run time). The oracle is the reference interpreter on the FUSED graph
// (the default recipe's result): every int8 layer's dump (dequantized, (q - zp) * scale)
// equals the reference's int8 value dequantized the same way, bit for bit (`==`: the kernels
// compute the reference's arithmetic); outputs produced by DequantizeLinear from int8 are
// equal too, and a float layer after the int8 part (digits' last Gemm) is within 1e-5 of
// max |ref|. The fused graph itself is within one quantum per layer of the QDQ graph
// (tests/passes/tst_fuse_qdq); its outputs are printed against the QDQ graph's for the record.
#include "results/metrics.h"
#include "export/kernel_libraries.h"
#include "export/deployment_plan.h"
#include "export/emit_context.h"
#include "export/memory_planner.h"
#include "export/exporter.h"
#include "export/qdq_graphs.h"
#include "export/quantized_models.h"
#include "onnx/importer.h"
#include "onnx/tensor_io.h"
#include "passes/pass_manager.h"
#include "reference/interpreter.h"
#include "support/cli_process.h"
#include "support/export_harness.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <set>

using namespace embark;

namespace {

struct Model {
    std::string name;
    ir::Graph graph; // the QDQ model
    ir::Graph fused; // after the default recipe
    std::map<std::string, ir::Tensor> inputs;
    reference::RunResult fusedRef; // captureAll
    reference::RunResult qdqRef;
};

// Imports `path`, or quantizes `floatModel` with embark-cli into `dir` first.
// The layer's reference value from the fused graph, dequantized when it is int8.
bool expectedLayer(const Model& m, const test::HarnessLayer& l, ir::Tensor* out, bool* isInt) {
    auto it = m.fusedRef.values.find(l.value);
    if (it == m.fusedRef.values.end()) return false;
    const ir::Tensor& t = it->second;
    *isInt = t.dtype() == ir::DType::Int8 || t.dtype() == ir::DType::UInt8;
    if (!*isInt) {
        *out = t.castTo(ir::DType::Float32);
        return true;
    }
    float scale = 1.f;
    int zp = 0;
    if (!exporter::quantParamsOf(m.fused.findValue(l.value), &scale, &zp)) return false;
    ir::Tensor f(ir::DType::Float32, t.shape());
    for (int64_t i = 0; i < t.numel(); ++i)
        f.mutableAs<float>()[i] = (static_cast<float>(t.intAt(i)) - static_cast<float>(zp)) * scale;
    *out = f;
    return true;
}

// ONNX Runtime's quantize_static in QOperator format: uint8 activations, int8 weights with one
// scale per output channel, an int32 bias; QuantizeLinear -> QLinearConv (3x3, stride 2, pads)
// -> Reshape -> QLinearMatMul -> DequantizeLinear, and the convolution's output dequantized per
// channel (a run-time DequantizeLinear per axis) as a second output.
ir::Graph qoperatorGraph() {
    using ir::DType;
    using ir::OpKind;
    test::GraphBuilder b("qoperator");
    auto scalar = [&](const std::string& name, float v) {
        return b.constant(name, ir::Tensor::fromFloats(ir::Shape{}, {v}));
    };
    auto typed = [&](const std::string& name, DType t, ir::Shape shape, const std::vector<int64_t>& v) {
        return b.constant(name, ir::Tensor::fromInt64s(std::move(shape), v).castTo(t));
    };
    ir::Value* x = b.input("x", {1, 3, 8, 8});
    ir::Value* xs = scalar("x_scale", 1.f / 255.f);
    ir::Value* xz = typed("x_zero_point", DType::UInt8, {}, {3});
    ir::Value* xq = b.op(OpKind::QuantizeLinear, {x, xs, xz}, {}, "x_quantize");
    std::vector<int64_t> w(4 * 3 * 3 * 3);
    for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int64_t>((i * 37) % 255) - 127;
    ir::Value* wq = typed("w", DType::Int8, {4, 3, 3, 3}, w);
    ir::Value* ws = b.floats("w_scale", {0.01f, 0.02f, 0.015f, 0.005f});
    ir::Value* wz = typed("w_zero_point", DType::Int8, {4}, {0, 0, 0, 0});
    ir::Value* ys = scalar("y_scale", 0.05f);
    ir::Value* yz = typed("y_zero_point", DType::UInt8, {}, {100});
    ir::Value* bias = typed("bias", DType::Int32, {4}, {1000, -2000, 0, 500});
    ir::Value* conv = b.op(OpKind::QLinearConv, {xq, xs, xz, wq, ws, wz, ys, yz, bias},
                           {{"kernel_shape", std::vector<int64_t>{3, 3}},
                            {"strides", std::vector<int64_t>{2, 2}},
                            {"pads", std::vector<int64_t>{1, 1, 1, 1}}},
                           "conv");
    ir::Value* cs = b.floats("channel_scale", {0.05f, 0.04f, 0.03f, 0.02f});
    ir::Value* cz = typed("channel_zero_point", DType::UInt8, {4}, {100, 90, 80, 70});
    b.output(b.op(OpKind::DequantizeLinear, {conv, cs, cz}, {{"axis", int64_t{1}}}, "conv_per_channel"));
    ir::Value* flat = b.op(OpKind::Reshape, {conv, b.ints("flat_shape", {1, 64})}, {}, "flatten");
    std::vector<int64_t> m(64 * 10);
    for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<int64_t>((i * 53) % 200) - 100;
    ir::Value* fc = b.op(OpKind::QLinearMatMul,
                         {flat, ys, yz, typed("fc_w", DType::Int8, {64, 10}, m), scalar("fc_w_scale", 0.01f),
                          typed("fc_w_zero_point", DType::Int8, {}, {0}), scalar("fc_y_scale", 0.2f),
                          typed("fc_y_zero_point", DType::UInt8, {}, {128})},
                         {}, "fc");
    b.output(b.op(OpKind::DequantizeLinear, {fc, scalar("out_scale", 0.2f), typed("out_zero", DType::UInt8, {}, {128})},
                  {}, "logits"));
    return b.build();
}

} // namespace

class TestExportQuantized : public QObject {
    Q_OBJECT

    std::vector<Model> m_models;
    QTemporaryDir m_tmp;

    Status addModel(std::string name, ir::Graph g, std::map<std::string, ir::Tensor> inputs) {
        Model m;
        m.name = std::move(name);
        auto run = passes::PassManager::run(g, "default", {&exporter::portableLibrary()});
        if (!run) return run.error();
        m.fused = std::move(run->graph);
        // Every node of the QDQ model is in some fused node's provenance (or folded).
        const auto missing = passes::unaccountedNodes(g, m.fused);
        if (!missing.empty()) return makeError(ErrorKind::InvalidInput, "no node stands for '" + missing.front() + "'");
        m.inputs = std::move(inputs);
        reference::RunOptions ro;
        ro.captureAll = true;
        auto f = reference::run(m.fused, m.inputs, ro);
        if (!f) return f.error();
        auto q = reference::run(g, m.inputs);
        if (!q) return q.error();
        m.fusedRef = std::move(*f);
        m.qdqRef = std::move(*q);
        m.graph = std::move(g);
        m_models.push_back(std::move(m));
        return {};
    }

private slots:
    void initTestCase() {
        auto sources = test::quantizedSources(m_tmp.path());
        QVERIFY2(sources, sources ? "" : sources.error().message.c_str());
        for (test::QuantizedSource& q : *sources) {
            Status s = addModel(q.name, std::move(q.graph), std::move(q.inputs));
            QVERIFY2(s, s ? "" : (q.name + ": " + s.error().message).c_str());
        }
        ir::Graph qop = qoperatorGraph();
        auto inputs = test::randomInputs(qop, 11);
        Status s = addModel("qoperator", std::move(qop), std::move(inputs));
        QVERIFY2(s, s ? "" : ("qoperator: " + s.error().message).c_str());
        for (const ir::Tensor& t : m_models.back().qdqRef.outputs) { // not saturated to one value
            std::set<double> distinct;
            for (int64_t i = 0; i < t.numel(); ++i) distinct.insert(t.at(i));
            QVERIFY2(distinct.size() >= 8, qPrintable(QString("qoperator: %1 distinct values").arg(distinct.size())));
        }
    }

    // The fused quantized nodes are what `plan --json` shows, with the Q/DQ pairs in their
    // provenance.
    void planShowsTheFusedNodes() {
        const test::CliResult r = test::runCli({"plan", m_tmp.filePath("digits_int8.onnx"), "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        int qconv = 0;
        for (const QJsonValue& v : QJsonDocument::fromJson(r.out).object()["nodes"].toArray()) {
            const QJsonObject n = v.toObject();
            if (n["op"].toString() != "QConv") continue;
            ++qconv;
            QCOMPARE(n["lib"].toString(), QString("portable"));
            QString prov;
            for (const QJsonValue& p : n["provenance"].toArray()) prov += p.toString() + " ";
            QVERIFY2(prov.contains("_QuantizeLinear") && prov.contains("_DequantizeLinear"), qPrintable(prov));
        }
        QCOMPARE(qconv, 3);
        // With --lib xnnpack the QConv nodes run as XNNPACK's qs8 convolutions (the XNNPACK
        // exports are tst_export_quantized_xnnpack's).
        const test::CliResult x =
            test::runCli({"plan", m_tmp.filePath("digits_int8.onnx"), "--lib", "xnnpack", "--json"});
        QVERIFY2(x.code == 0, x.err.constData());
        int onXnnpack = 0;
        for (const QJsonValue& v : QJsonDocument::fromJson(x.out).object()["nodes"].toArray()) {
            const QJsonObject n = v.toObject();
            if (n["op"].toString() != "QConv") continue;
            QCOMPARE(n["lib"].toString(), QString("xnnpack"));
            ++onXnnpack;
        }
        QCOMPARE(onXnnpack, 3);
    }

    // What the int8 export computes (the fused graph, == the export) keeps the float digits
    // model's top-1 class on each of its test sets.
    void digitsInt8KeepsTop1() {
        const Model* q = nullptr;
        for (const Model& m : m_models)
            if (m.name == "digits int8") q = &m;
        QVERIFY(q);
        auto f = onnx::importModel((test::sourceDir() + "/resources/models/digits_cnn.onnx").toStdString());
        QVERIFY2(f, f ? "" : f.error().message.c_str());
        auto argmax = [](const ir::Tensor& t) {
            int64_t best = 0;
            for (int64_t i = 1; i < t.numel(); ++i)
                if (t.at(i) > t.at(best)) best = i;
            return best;
        };
        int sets = 0, agree = 0;
        for (int k = 0; k < 100; ++k) {
            const QString file =
                test::sourceDir() + QString("/resources/models/digits_cnn/test_data_set_%1/input_0.pb").arg(k);
            if (!QFileInfo::exists(file)) break;
            auto in = onnx::readTensorProto(file.toStdString());
            QVERIFY2(in, in ? "" : in.error().message.c_str());
            auto a = reference::run(*f, {{f->inputs().front()->name, in->tensor}});
            auto b = reference::run(q->fused, {{q->fused.inputs().front()->name, in->tensor}});
            QVERIFY2(a && b, "reference run failed");
            ++sets;
            agree += argmax(a->outputs.front()) == argmax(b->outputs.front());
        }
        QVERIFY(sets >= 10);
        std::printf("digits int8 (fused graph = export): top-1 agrees with float on %d of %d test sets\n", agree, sets);
        QCOMPARE(agree, sets);
    }

    // The memory planner counts int8 (and uint8) tensors at one byte (16-byte aligned): every such value of
    // the adapted graph has a buffer of numel bytes rounded up (or shares a larger one).
    void memoryPlanCountsInt8AtOneByte() {
        for (const Model& m : m_models) {
            exporter::PlanOptions po;
            po.library = "portable";
            po.arch = exporter::hostArch();
            auto dp = exporter::buildDeploymentPlan(m.graph, po);
            QVERIFY2(dp, dp ? "" : dp.error().message.c_str());
            const exporter::MemoryPlan& plan = (*dp)->memory;
            int int8Values = 0;
            for (const ir::Value* v : (*dp)->adaptation.graph.values()) {
                if (v->isConstant() || (v->dtype != ir::DType::Int8 && v->dtype != ir::DType::UInt8)) continue;
                const exporter::PlannedBuffer* b = plan.bufferFor(v->name);
                QVERIFY2(b, v->name.c_str());
                ++int8Values;
                const size_t bytes = static_cast<size_t>(v->shape.numel());
                QVERIFY2(b->bytes >= bytes && (b->values.size() > 1 || b->bytes < bytes + plan.alignment),
                         (m.name + ": " + v->name + " has " + std::to_string(b->bytes) + " bytes for " +
                          std::to_string(bytes) + " int8 values")
                             .c_str());
            }
            QVERIFY2(int8Values > 0, m.name.c_str());
        }
    }

    // The host, then the simulated boards under qemu (RVV at VLEN 128 built with Clang, NEON
    // built with GCC: the kernels must not contract a product and a sum into one fused
    // multiply-add there). MobileNet-V2 runs under qemu only with EMBARK_HEAVY_TIERS=1.
    void int8ExportsMatchTheFusedReference_data() {
        QTest::addColumn<QString>("boardId");
        QTest::newRow("host") << "host";
        QTest::newRow("sim-k230") << "sim-k230";
        QTest::newRow("sim-rpi5") << "sim-rpi5";
    }

    void int8ExportsMatchTheFusedReference() {
        QFETCH(QString, boardId);
        auto target = test::harnessTarget(boardId, false);
        if (!target && target.error().kind == ErrorKind::Unsupported) QSKIP(target.error().message.c_str());
        QVERIFY2(target, target ? "" : target.error().message.c_str());
        const bool heavy = boardId == "host" || qEnvironmentVariable("EMBARK_HEAVY_TIERS") == "1";
        const QString work = (embark::test::binaryDir() + "/tests/export_quantized/") + boardId;
        std::vector<test::HarnessEntry> entries;
        std::vector<const Model*> owners;
        for (const Model& m : m_models) {
            if (!heavy && m.name.rfind("mobilenet", 0) == 0) continue;
            exporter::ExportOptions o = target->exportOptions;
            o.library = "portable";
            std::string dirName;
            for (char c : m.name) dirName += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
            o.outDir = work + "/exports/" + QString::fromStdString(dirName);
            o.force = true;
            o.sampleInputs = m.inputs;
            auto r = exporter::exportModel(m.graph, o);
            QVERIFY2(r, r ? "" : (m.name + ": " + r.error().message).c_str());
            entries.push_back({m.name + " on " + boardId.toStdString(), r->dir});
            owners.push_back(&m);
        }
        test::HarnessOptions ho = target->harness;
        ho.workDir = work + "/harness";
        ho.dumpLayers = true;
        ho.modelsPerUnit = 8;
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
            int intLayers = 0, floatLayers = 0;
            for (const test::HarnessLayer& l : r.layers) {
                ir::Tensor want;
                bool isInt = false;
                if (!expectedLayer(m, l, &want, &isInt) || want.numel() != l.data.numel()) continue;
                want = want.reshaped(l.data.shape());
                const bench::Accuracy a = bench::compare(l.data, want);
                // A layer is exact when it is int8, or float computed from int8 by DequantizeLinear.
                const ir::Node* producer =
                    m.fused.findValue(l.value) ? m.fused.findValue(l.value)->producer() : nullptr;
                const bool exact = isInt || (producer && producer->op == ir::OpKind::DequantizeLinear);
                (exact ? intLayers : floatLayers) += 1;
                if (exact ? a.maxAbs != 0 : !bench::withinTolerance(a, 1e-5))
                    fail(r.id + " layer " + std::to_string(l.index) + " " + l.node + ": max |diff| " +
                         std::to_string(a.maxAbs) +
                         (exact ? " (must be 0: int8 arithmetic is defined identically)" : ""));
            }
            for (size_t k = 0; k < r.outputs.size(); ++k) {
                const ir::Tensor want = m.fusedRef.outputs[k].castTo(ir::DType::Float32);
                const bench::Accuracy a = bench::compare(r.outputs[k].data, want);
                const ir::Node* producer = m.fused.findValue(r.outputs[k].name)->producer();
                const bool exact = producer && producer->op == ir::OpKind::DequantizeLinear;
                if (exact ? a.maxAbs != 0 : !bench::withinTolerance(a, 1e-5))
                    fail(r.id + " output " + r.outputs[k].name + ": max |diff| " + std::to_string(a.maxAbs));
                // The export embeds the fused graph's reference as its expected output.
                if (!(r.outputs[k].maxAbs <= 1e-5 * r.outputs[k].maxRef))
                    fail(r.id + " output " + r.outputs[k].name +
                         " vs the export's embedded expected output: max |diff| " +
                         std::to_string(r.outputs[k].maxAbs));
                const bench::Accuracy q =
                    bench::compare(r.outputs[k].data, m.qdqRef.outputs[k].castTo(ir::DType::Float32));
                std::printf(
                    "%-28s %d int8 layers ==, %d float layers; output vs fused reference max|diff| %.3g, vs QDQ "
                    "reference max|diff| %.3g (rel %.3g, cosine %.6f)\n",
                    r.id.c_str(), intLayers, floatLayers, a.maxAbs, q.maxAbs, q.maxRel, q.cosine);
            }
            if (intLayers == 0) fail(r.id + ": no int8 layer compared");
        }
        std::fflush(stdout);
        QVERIFY2(failures == 0, "int8 exports differ from the fused reference (see the FAIL lines above)");
    }
};

QTEST_GUILESS_MAIN(TestExportQuantized)
#include "tst_export_quantized.moc"

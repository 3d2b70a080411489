// The memory planner: lifetimes, aliasing of reshapes, in-place element-wise ops, the
// overlap checker on random graphs (property test) and the arena targets on shared models.
#include "export/adaptation.h"
#include "export/deployment_plan.h"
#include "export/memory_planner.h"
#include "onnx/importer.h"
#include "passes/pass_manager.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include <QTest>
#include <algorithm>
#include <map>
#include <random>

using namespace embark;
using ir::OpKind;

namespace {

// A random DAG of element-wise, concat and reshape ops on [1, n] values, built directly
// (the planner needs shapes only).
ir::Graph randomGraph(unsigned seed, int nodes) {
    std::mt19937 rng(seed);
    ir::Graph g;
    std::vector<ir::Value*> pool;
    const int64_t sizes[] = {16, 48, 64, 256};
    for (int i = 0; i < 2; ++i) {
        ir::Value* in = g.addValue("in" + std::to_string(i), ir::DType::Float32, ir::Shape{1, sizes[rng() % 4]});
        g.addInput(in);
        pool.push_back(in);
    }
    auto pick = [&]() { return pool[pool.size() - 1 - rng() % std::min<size_t>(pool.size(), 6)]; };
    for (int i = 0; i < nodes; ++i) {
        const std::string name = "n" + std::to_string(i);
        ir::Value* a = pick();
        ir::Value* out = nullptr;
        switch (rng() % 4) {
        case 0:
            out = g.addValue(name, a->dtype, a->shape);
            g.addNode(OpKind::Relu, name, {a}, {out});
            break;
        case 1: {
            ir::Value* b = pick();
            if (b->shape != a->shape) b = a;
            out = g.addValue(name, a->dtype, a->shape);
            g.addNode(OpKind::Add, name, {a, b}, {out});
            break;
        }
        case 2: {
            ir::Value* b = pick();
            out = g.addValue(name, a->dtype, ir::Shape{1, a->shape[1] + b->shape[1]});
            g.addNode(OpKind::Concat, name, {a, b}, {out});
            break;
        }
        default: {
            ir::Value* s = g.addConstant(name + "_shape", ir::Tensor::fromInt64s(ir::Shape{2}, {a->shape[1], 1}));
            out = g.addValue(name, a->dtype, ir::Shape{a->shape[1], 1});
            g.addNode(OpKind::Reshape, name, {a, s}, {out});
            break;
        }
        }
        pool.push_back(out);
    }
    g.addOutput(pool.back());
    if (pool.size() > 4) g.addOutput(pool[pool.size() / 2]);
    return g;
}

Expected<ir::Graph> fusedModel(const QString& name) {
    auto g = onnx::importModel(test::sharedModel(name).toStdString());
    if (!g) return g.error();
    auto run = passes::PassManager::run(*g, "default", {nullptr, false});
    if (!run) return run.error();
    return std::move(run->graph);
}

// A random DAG of [rows, n] values (rows 1 or 3) joined by Concats along either axis, Relu, Add
// and Reshape: concatenation in place gets contiguous slices (axis 0, or one row) and strided
// ones (axis 1 of 3 rows), nested, shared between Concats and read by other ops.
ir::Graph randomConcatGraph(unsigned seed, int nodes) {
    std::mt19937 rng(seed);
    ir::Graph g;
    std::vector<ir::Value*> pool;
    for (int i = 0; i < 3; ++i) {
        ir::Value* in = g.addValue("in" + std::to_string(i), ir::DType::Float32, ir::Shape{i == 2 ? 1 : 3, 4 + 4 * i});
        g.addInput(in);
        pool.push_back(in);
    }
    auto pick = [&]() { return pool[pool.size() - 1 - rng() % std::min<size_t>(pool.size(), 8)]; };
    for (int i = 0; i < nodes; ++i) {
        const std::string name = "n" + std::to_string(i);
        ir::Value* a = pick();
        ir::Value* out = nullptr;
        const unsigned kind = rng() % 6;
        if (kind >= 3) { // a Concat of 2 or 3 inputs that fit along axis 1 or 0
            std::vector<ir::Value*> ins{a};
            const int64_t axis = rng() % 3 == 0 ? 0 : 1;
            for (ir::Value* v : pool)
                if (ins.size() < 2 + rng() % 2 && v != a &&
                    v->shape[static_cast<size_t>(1 - axis)] == a->shape[static_cast<size_t>(1 - axis)] &&
                    rng() % 3 == 0)
                    ins.push_back(v);
            if (ins.size() == 1) ins.push_back(a); // the same value twice
            ir::Shape shape = a->shape;
            shape.dims()[static_cast<size_t>(axis)] = 0;
            for (ir::Value* v : ins) shape.dims()[static_cast<size_t>(axis)] += v->shape[static_cast<size_t>(axis)];
            out = g.addValue(name, a->dtype, shape);
            g.addNode(OpKind::Concat, name, ins, {out})->attrs["axis"] = axis;
        } else if (kind == 0) {
            out = g.addValue(name, a->dtype, a->shape);
            g.addNode(OpKind::Relu, name, {a}, {out});
        } else if (kind == 1) {
            ir::Value* b = pick();
            if (b->shape != a->shape) b = a;
            out = g.addValue(name, a->dtype, a->shape);
            g.addNode(OpKind::Add, name, {a, b}, {out});
        } else {
            const int64_t n = a->shape.numel();
            ir::Value* s = g.addConstant(name + "_shape", ir::Tensor::fromInt64s(ir::Shape{2}, {1, n}));
            out = g.addValue(name, a->dtype, ir::Shape{1, n});
            g.addNode(OpKind::Reshape, name, {a, s}, {out});
        }
        pool.push_back(out);
    }
    g.addOutput(pool.back());
    if (pool.size() > 6) g.addOutput(pool[pool.size() / 2]);
    return g;
}

// Runs `g` on the plan's arena the way an export does (every value read and written where the
// plan puts it, rows `rowStride` apart in a strided slice; a Concat skips the inputs already in
// their place, an aliased Reshape writes nothing) and compares every value read with the same
// graph run on values of their own. An empty string means equal.
std::string runOnArena(const ir::Graph& g, const exporter::MemoryPlan& plan) {
    std::vector<float> arena(plan.arenaBytes / sizeof(float) + 1, NAN);
    std::map<const ir::Value*, std::vector<float>> truth;
    auto base = [&](const ir::Value* v) {
        return (plan.bufferFor(v->name)->offset + plan.viewOf(v->name).byteOffset) / sizeof(float);
    };
    auto at = [&](const ir::Value* v, int64_t i) -> float& {
        const int64_t len = v->shape[v->shape.rank() - 1], stride = plan.viewOf(v->name).rowStride;
        return arena[base(v) + static_cast<size_t>(i / len * (stride ? stride : len) + i % len)];
    };
    auto store = [&](const ir::Value* v) {
        for (int64_t i = 0; i < v->shape.numel(); ++i) at(v, i) = truth[v][static_cast<size_t>(i)];
    };
    unsigned next = 1;
    for (const ir::Value* v : g.inputs()) {
        for (int64_t i = 0; i < v->shape.numel(); ++i) truth[v].push_back(static_cast<float>(next++ % 97) - 40.f);
        store(v);
    }
    for (const ir::Node* n : g.nodes()) {
        for (const ir::Value* in : n->inputs()) {
            if (!in || in->isConstant()) continue;
            for (int64_t i = 0; i < in->shape.numel(); ++i)
                if (!(at(in, i) == truth[in][static_cast<size_t>(i)]))
                    return n->name + " reads '" + in->name + "' element " + std::to_string(i) + " overwritten";
        }
        const ir::Value* y = n->output(0);
        std::vector<float>& out = truth[y];
        const std::vector<float>& a = truth[n->input(0)];
        if (n->op == OpKind::Relu)
            for (float v : a) out.push_back(std::max(v, 0.f));
        else if (n->op == OpKind::Add)
            for (size_t i = 0; i < a.size(); ++i) out.push_back(a[i] + truth[n->input(1)][i]);
        else if (n->op == OpKind::Reshape)
            out = a;
        else if (n->op != OpKind::Concat) // any other layer: some function of its first input
            for (int64_t i = 0; i < y->shape.numel(); ++i)
                out.push_back(a[static_cast<size_t>(i) % a.size()] * 0.5f + 1.f);
        if (n->op == OpKind::Reshape && base(y) == base(n->input(0))) continue; // aliased: no bytes move
        if (n->op != OpKind::Concat) {
            store(y);
            continue;
        }
        // y as [outer][extent * inner]; input k fills columns [offset * inner, (offset + size) * inner).
        const int64_t axis = n->attrInt("axis", 0);
        int64_t outer = 1, inner = 1;
        for (size_t d = 0; d < y->shape.rank(); ++d) {
            if (static_cast<int64_t>(d) < axis) outer *= y->shape[d];
            if (static_cast<int64_t>(d) > axis) inner *= y->shape[d];
        }
        const int64_t cols = y->shape[static_cast<size_t>(axis)] * inner;
        out.assign(static_cast<size_t>(outer * cols), 0.f);
        int64_t offset = 0;
        for (const ir::Value* in : n->inputs()) {
            const int64_t len = in->shape[static_cast<size_t>(axis)] * inner;
            const bool inPlace = base(in) == base(y) + static_cast<size_t>(offset);
            for (int64_t r = 0; r < outer; ++r)
                for (int64_t j = 0; j < len; ++j) {
                    const float v = truth[in][static_cast<size_t>(r * len + j)];
                    out[static_cast<size_t>(r * cols + offset + j)] = v;
                    if (!inPlace) at(y, r * cols + offset + j) = v;
                }
            offset += len;
        }
    }
    for (const ir::Value* v : g.outputs())
        for (int64_t i = 0; i < v->shape.numel(); ++i)
            if (!(at(v, i) == truth[v][static_cast<size_t>(i)])) return "output '" + v->name + "' differs";
    return {};
}

// Every layer takes slices, except what the export's Concat cannot do either: read or write a
// strided slice when it joins along another axis than the last.
exporter::MemoryPlanOptions::ConcatRules everyKernelTakesSlices() {
    exporter::MemoryPlanOptions::ConcatRules r;
    r.inPlace = r.writesAtOffset = [](const ir::Node&) { return true; };
    r.writesStrided = r.readsStrided = [](const ir::Node& n) {
        return n.op != OpKind::Concat || n.attrInt("axis", 0) == static_cast<int64_t>(n.output(0)->shape.rank()) - 1;
    };
    return r;
}

} // namespace

class TestMemoryPlanner : public QObject {
    Q_OBJECT
private slots:
    void chainAliasesAndReuses() {
        test::GraphBuilder b;
        auto* x = b.input("x", {1, 4, 8, 8});
        auto* y = b.op(OpKind::Conv, {x, b.weights("w", {4, 4, 1, 1})}, {{"kernel_shape", std::vector<int64_t>{1, 1}}},
                       "conv");
        auto* r = b.op(OpKind::Relu, {y}, {}, "relu");       // in place into y
        auto* f = b.op(OpKind::Flatten, {r}, {}, "flatten"); // aliases
        auto* s = b.op(OpKind::Sigmoid, {f}, {}, "sig");     // in place again
        b.output(s);
        ir::Graph g = b.build();
        auto plan = exporter::planMemory(g);
        QVERIFY(plan.ok());
        QVERIFY(exporter::checkMemoryPlan(*plan).ok());
        QCOMPARE(plan->bufferOfValue.at("conv_out"), plan->bufferOfValue.at("relu_out"));
        QCOMPARE(plan->bufferOfValue.at("relu_out"), plan->bufferOfValue.at("flatten_out"));
        QCOMPARE(plan->bufferOfValue.at("flatten_out"), plan->bufferOfValue.at("sig_out"));
        QCOMPARE(plan->arenaBytes, size_t{2 * 1024}); // x and conv output
        QCOMPARE(plan->lowerBoundBytes, plan->arenaBytes);
        const std::string steps = plan->asciiSteps();
        QCOMPARE(static_cast<int>(std::count(steps.begin(), steps.end(), '\n')), 4);
        QVERIFY(plan->table().find("lower bound 2048") != std::string::npos);

        exporter::MemoryPlanOptions outside;
        outside.ioInArena = false;
        auto plan2 = exporter::planMemory(g, outside);
        QVERIFY(plan2.ok());
        QVERIFY(!plan2->bufferFor("x")->inArena);
        QVERIFY(!plan2->bufferFor("sig_out")->inArena);
        QVERIFY(exporter::checkMemoryPlan(*plan2).ok());
    }

    // A fused block reads its input while it writes its output: the two never share memory,
    // although layer by layer the input may be dead by then.
    void apartKeepsAFusedBlocksInputFromItsOutput() {
        auto overlap = [](const exporter::PlannedBuffer* a, const exporter::PlannedBuffer* b) {
            return a->offset < b->offset + b->bytes && b->offset < a->offset + a->bytes;
        };
        {
            test::GraphBuilder b;
            auto* x = b.input("x", {1, 4, 8, 8});
            auto* h = b.op(OpKind::Relu, {x}, {}, "head"); // not a graph input: its buffer may be reused
            auto* e = b.op(OpKind::Conv, {h, b.weights("we", {8, 4, 1, 1})}, {}, "expand");
            auto* p = b.op(OpKind::Conv, {e, b.weights("wp", {4, 8, 1, 1})}, {}, "project");
            b.output(b.op(OpKind::Add, {h, p}, {}, "add"));
            ir::Graph g = b.build();
            auto plain = exporter::planMemory(g);
            QVERIFY(plain.ok());
            QCOMPARE(plain->bufferOfValue.at("add_out"),
                     plain->bufferOfValue.at("head_out")); // in place over its first input
            exporter::MemoryPlanOptions o;
            o.apart = {{"head_out", "add_out"}};
            auto plan = exporter::planMemory(g, o);
            QVERIFY(plan.ok());
            QVERIFY(exporter::checkMemoryPlan(*plan).ok());
            QCOMPARE(plan->bufferOfValue.at("add_out"),
                     plan->bufferOfValue.at("project_out")); // in place over the other
            QVERIFY(!overlap(plan->bufferFor("head_out"), plan->bufferFor("add_out")));
            QCOMPARE(plan->arenaBytes, plain->arenaBytes);
        }
        {
            test::GraphBuilder b;
            auto* x = b.input("x", {1, 4, 8, 8});
            auto* h = b.op(OpKind::Relu, {x}, {}, "head");
            auto* e = b.op(OpKind::Conv, {h, b.weights("we", {8, 4, 1, 1})}, {}, "expand");
            b.output(b.op(OpKind::Conv, {e, b.weights("wp", {4, 8, 1, 1})}, {}, "project"));
            ir::Graph g = b.build();
            auto plain = exporter::planMemory(g);
            QVERIFY(plain.ok());
            QVERIFY(overlap(plain->bufferFor("head_out"), plain->bufferFor("project_out"))); // head is dead by then
            exporter::MemoryPlanOptions o;
            o.apart = {{"project_out", "head_out"}};
            auto plan = exporter::planMemory(g, o);
            QVERIFY(plan.ok());
            QVERIFY(exporter::checkMemoryPlan(*plan).ok());
            QVERIFY(!overlap(plan->bufferFor("head_out"), plan->bufferFor("project_out")));
            QCOMPARE(plan->bufferFor("head_out")->lastStep, 1); // lifetimes are unchanged
        }
    }

    void checkerFindsOverlap() {
        test::GraphBuilder b;
        auto* x = b.input("x", {1, 64});
        auto* y = b.op(OpKind::Add, {x, x}, {}, "a");
        b.output(b.op(OpKind::Concat, {x, y}, {{"axis", int64_t{1}}}, "c"));
        ir::Graph g = b.build();
        auto plan = exporter::planMemory(g);
        QVERIFY(plan.ok());
        QVERIFY(exporter::checkMemoryPlan(*plan).ok());
        for (auto& buf : plan->buffers) buf.offset = 0;
        QVERIFY(!exporter::checkMemoryPlan(*plan).ok());
    }

    void randomGraphs_data() {
        QTest::addColumn<bool>("ioInArena");
        QTest::addColumn<bool>("inPlace");
        QTest::newRow("default") << true << true;
        QTest::newRow("io outside") << false << true;
        QTest::newRow("no in-place") << true << false;
    }
    void randomGraphs() {
        QFETCH(bool, ioInArena);
        QFETCH(bool, inPlace);
        for (unsigned seed = 1; seed <= 200; ++seed) {
            ir::Graph g = randomGraph(seed, 5 + static_cast<int>(seed % 60));
            exporter::MemoryPlanOptions o;
            o.ioInArena = ioInArena;
            o.inPlace = inPlace;
            auto plan = exporter::planMemory(g, o);
            QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().message.c_str());
            const Status s = exporter::checkMemoryPlan(*plan);
            QVERIFY2(s.ok(), s.ok() ? "" : (std::to_string(seed) + ": " + s.error().message).c_str());
            QVERIFY(plan->arenaBytes >= plan->lowerBoundBytes);
            for (const ir::Value* v : g.values())
                if (!v->isConstant()) QVERIFY(plan->bufferFor(v->name));
        }
    }

    // Concatenation in place on random graphs: the plan passes the checker, and running the
    // graph on its arena (slices where the plan puts them) gives every value it should.
    void randomConcatenationsInPlace() {
        int slices = 0, strided = 0;
        for (unsigned seed = 1; seed <= 300; ++seed) {
            ir::Graph g = randomConcatGraph(seed, 4 + static_cast<int>(seed % 40));
            exporter::MemoryPlanOptions o;
            o.concat = everyKernelTakesSlices();
            if (seed % 3 == 0)
                o.concat.readsStrided = [](const ir::Node& n) {
                    return n.op == OpKind::Concat && n.attrInt("axis", 0) == 1;
                };
            auto plan = exporter::planMemory(g, o);
            QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().message.c_str());
            const Status s = exporter::checkMemoryPlan(*plan);
            QVERIFY2(s.ok(), s.ok() ? "" : (std::to_string(seed) + ": " + s.error().message).c_str());
            const std::string run = runOnArena(g, *plan);
            if (!run.empty()) {
                std::string nodes;
                for (const ir::Node* n : g.nodes()) {
                    nodes += n->name + " " + std::string(ir::opName(n->op)) + " axis " +
                             std::to_string(n->attrInt("axis", -1)) + ":";
                    for (const ir::Value* in : n->inputs()) nodes += " " + in->name + in->shape.str();
                    nodes += " -> " + n->output(0)->shape.str() + "\n";
                }
                QFAIL((std::to_string(seed) + ": " + run + "\n" + nodes + plan->table()).c_str());
            }
            slices += static_cast<int>(plan->views.size());
            for (const auto& [name, view] : plan->views) strided += view.rowStride != 0;
            // Without rules nothing is a slice.
            auto plain = exporter::planMemory(g);
            QVERIFY(plain.ok() && plain->views.empty() && runOnArena(g, *plain).empty());
        }
        qInfo("%d slices in place, %d of them strided", slices, strided);
        QVERIFY(slices > 100 && strided > 30);
    }

    // DenseNet's growing concatenations: each layer's Concat of all earlier outputs is a view
    // of the block's final buffer, written once by the producers; the block's input and the
    // convolutions' outputs are slices of it.
    void denseBlockSharesOneBuffer() {
        ir::Graph g;
        ir::Value* input = g.addValue("input", ir::DType::Float32, ir::Shape{1, 5, 5, 8});
        g.addInput(input);
        ir::Value* x = g.addValue("x", ir::DType::Float32, ir::Shape{1, 5, 5, 8});
        g.addNode(OpKind::Relu, "stem", {input}, {x});
        std::vector<ir::Value*> features{x};
        ir::Value* last = nullptr;
        for (int layer = 0; layer < 3; ++layer) {
            const std::string id = std::to_string(layer);
            int64_t channels = 0;
            for (ir::Value* f : features) channels += f->shape[3];
            ir::Value* cat = g.addValue("cat" + id, ir::DType::Float32, ir::Shape{1, 5, 5, channels});
            g.addNode(OpKind::Concat, "concat" + id, features, {cat})->attrs["axis"] = int64_t{3};
            ir::Value* bn = g.addValue("bn" + id, ir::DType::Float32, ir::Shape{1, 5, 5, channels});
            g.addNode(OpKind::Relu, "bn" + id, {cat}, {bn});
            ir::Value* grown = g.addValue("new" + id, ir::DType::Float32, ir::Shape{1, 5, 5, 4});
            g.addNode(OpKind::Conv, "conv" + id, {bn}, {grown});
            features.push_back(grown);
            last = grown;
        }
        ir::Value* all = g.addValue("all", ir::DType::Float32, ir::Shape{1, 5, 5, 20});
        g.addNode(OpKind::Concat, "final", features, {all})->attrs["axis"] = int64_t{3};
        ir::Value* y = g.addValue("y", ir::DType::Float32, ir::Shape{1, 5, 5, 20});
        g.addNode(OpKind::Relu, "head", {all}, {y});
        g.addOutput(y);
        (void)last;
        exporter::MemoryPlanOptions o;
        o.concat = everyKernelTakesSlices();
        o.concat.readsStrided = [](const ir::Node& n) { return n.op != OpKind::Conv; }; // Concats join along axis 3
        auto plan = exporter::planMemory(g, o);
        QVERIFY(plan.ok());
        QVERIFY(exporter::checkMemoryPlan(*plan).ok());
        const int buffer = plan->bufferOfValue.at("all");
        for (const char* v : {"x", "cat0", "cat1", "cat2", "new0", "new1", "new2"}) {
            QCOMPARE(plan->bufferOfValue.at(v), buffer);
            QCOMPARE(plan->viewOf(v).rowStride, int64_t{20});
        }
        QCOMPARE(plan->viewOf("new1").byteOffset, size_t{12 * 4});
        QCOMPARE(plan->viewOf("cat2").byteOffset, size_t{0});
        QVERIFY(!plan->views.count("all"));
        QVERIFY(runOnArena(g, *plan).empty());
        // Buffers past the size limit for strided slices: every Concat copies but the first (its
        // one input fills it: a contiguous slice).
        o.concat.stridedMaxBytes = 1000;
        auto small = exporter::planMemory(g, o);
        QVERIFY(small.ok());
        QCOMPARE(small->views.size(), size_t{1});
        QCOMPARE(small->viewOf("x").rowStride, int64_t{0});
        QCOMPARE(small->bufferOfValue.at("x"), small->bufferOfValue.at("cat0"));
        QVERIFY(runOnArena(g, *small).empty());
    }

    void sharedModels_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("arena"); // 0: no target, checker only
        QTest::newRow("resnet18") << "resnet18" << qint64(4014080);
        QTest::newRow("mobilenet_v2") << "mobilenet_v2" << qint64(6021120);
        QTest::newRow("squeezenet1_1") << "squeezenet1_1" << qint64(0);
        QTest::newRow("lenet5") << "lenet5" << qint64(0);
        QTest::newRow("digits") << "digits" << qint64(0);
    }
    void sharedModels() {
        EMBARK_REQUIRE_SHARED_MODELS();
        QFETCH(QString, model);
        QFETCH(qint64, arena);
        auto g = fusedModel(model);
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        auto plan = exporter::planMemory(*g);
        QVERIFY(plan.ok());
        QVERIFY(exporter::checkMemoryPlan(*plan).ok());
        qInfo("%s: arena %zu bytes, lower bound %zu", qPrintable(model), plan->arenaBytes, plan->lowerBoundBytes);
        if (arena) {
            QCOMPARE(qint64(plan->lowerBoundBytes), arena);
            QCOMPARE(qint64(plan->arenaBytes), arena);
        }
        for (const char* lib : {"portable", "xnnpack"}) {
            exporter::AdaptationOptions o;
            o.library = lib;
            auto adapted = exporter::adapt(*g, o);
            QVERIFY2(adapted.ok(), adapted.ok() ? "" : adapted.error().message.c_str());
            auto p2 = exporter::planMemory(adapted->graph);
            QVERIFY(p2.ok());
            QVERIFY(exporter::checkMemoryPlan(*p2).ok());
            qInfo("  adapted for %s: arena %zu, lower bound %zu", lib, p2->arenaBytes, p2->lowerBoundBytes);
        }
    }

    // The plan `embark-cli plan --memory` and exports use (passes for the library, adaptation
    // with its layout conversions, concatenation in place): the arena at the lower bound, and
    // the bound itself pinned where it is known (0: not measured here, the arena at the bound only).
    void deploymentPlanAtLowerBound_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("library");
        QTest::addColumn<qint64>("bound"); // 0: only arena == lower bound
        QTest::newRow("resnet18 portable") << "resnet18"
                                           << "portable" << qint64(4014080);
        QTest::newRow("squeezenet1_1 portable") << "squeezenet1_1"
                                                << "portable" << qint64(3928576);
        QTest::newRow("googlenet portable") << "googlenet"
                                            << "portable" << qint64(0);
    }
    void deploymentPlanAtLowerBound() {
        EMBARK_REQUIRE_SHARED_MODELS();
        QFETCH(QString, model);
        QFETCH(QString, library);
        QFETCH(qint64, bound);
        if (test::sharedModel(model).isEmpty()) QSKIP(qPrintable("../shared/models/" + model + ".onnx is absent"));
        auto g = onnx::importModel(test::sharedModel(model).toStdString());
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        exporter::PlanOptions o;
        o.library = library.toStdString();
        auto plan = exporter::buildDeploymentPlan(*g, o);
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().message.c_str());
        const exporter::MemoryPlan& m = (*plan)->memory;
        qInfo("%s: arena %zu bytes, lower bound %zu", qPrintable(model), m.arenaBytes, m.lowerBoundBytes);
        if (bound) QCOMPARE(qint64(m.lowerBoundBytes), bound);
        QCOMPARE(qint64(m.arenaBytes), qint64(m.lowerBoundBytes));
    }
};

QTEST_GUILESS_MAIN(TestMemoryPlanner)
#include "tst_memory_planner.moc"

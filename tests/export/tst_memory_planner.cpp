// The memory planner: lifetimes, aliasing of reshapes, in-place element-wise ops, the
// overlap checker on random graphs (property test) and the arena targets on shared models.
#include "export/adaptation.h"
#include "export/memory_planner.h"
#include "onnx/importer.h"
#include "passes/pass_manager.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include <QTest>
#include <algorithm>
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
        case 0: out = g.addValue(name, a->dtype, a->shape); g.addNode(OpKind::Relu, name, {a}, {out}); break;
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

} // namespace

class TestMemoryPlanner : public QObject {
    Q_OBJECT
private slots:
    void chainAliasesAndReuses() {
        test::GraphBuilder b;
        auto* x = b.input("x", {1, 4, 8, 8});
        auto* y = b.op(OpKind::Conv, {x, b.weights("w", {4, 4, 1, 1})}, {{"kernel_shape", std::vector<int64_t>{1, 1}}}, "conv");
        auto* r = b.op(OpKind::Relu, {y}, {}, "relu");           // in place into y
        auto* f = b.op(OpKind::Flatten, {r}, {}, "flatten");     // aliases
        auto* s = b.op(OpKind::Sigmoid, {f}, {}, "sig");         // in place again
        b.output(s);
        ir::Graph g = b.build();
        auto plan = exporter::planMemory(g);
        QVERIFY(plan.ok());
        QVERIFY(exporter::checkMemoryPlan(*plan).ok());
        QCOMPARE(plan->bufferOfValue.at("conv_out"), plan->bufferOfValue.at("relu_out"));
        QCOMPARE(plan->bufferOfValue.at("relu_out"), plan->bufferOfValue.at("flatten_out"));
        QCOMPARE(plan->bufferOfValue.at("flatten_out"), plan->bufferOfValue.at("sig_out"));
        QCOMPARE(plan->arenaBytes, size_t{2 * 1024});      // x and conv output
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
            QCOMPARE(plain->bufferOfValue.at("add_out"), plain->bufferOfValue.at("head_out")); // in place over its first input
            exporter::MemoryPlanOptions o;
            o.apart = {{"head_out", "add_out"}};
            auto plan = exporter::planMemory(g, o);
            QVERIFY(plan.ok());
            QVERIFY(exporter::checkMemoryPlan(*plan).ok());
            QCOMPARE(plan->bufferOfValue.at("add_out"), plan->bufferOfValue.at("project_out")); // in place over the other
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
};

QTEST_GUILESS_MAIN(TestMemoryPlanner)
#include "tst_memory_planner.moc"

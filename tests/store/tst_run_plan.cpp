// Two runs' plans diffed (issue 19): the plan a run stores (store/run_plan.h) round-trips
// through JSON, bad entries are refused with the entry named, the diff marks nodes added,
// removed, fused differently, re-assigned (library or layout) and rewritten, and a plan draws
// as a graph.
#include "store/run_plan.h"

#include <QJsonObject>
#include <QTest>

using namespace embark;
using namespace embark::store;

namespace {

PlanNode node(const std::string& name, const std::string& op, const std::string& lib, const std::string& layout,
              std::vector<std::string> in, std::vector<std::string> out, std::vector<std::string> from) {
    PlanNode n{name, op, lib, layout, std::move(in), std::move(out), {}, std::move(from)};
    for (size_t i = 0; i < n.outputs.size(); ++i) n.shapes.push_back({1, 8, 4, 4});
    return n;
}

// A: XNNPACK runs conv1 (+ relu1 fused) and pool1 NHWC between two layout conversions.
std::vector<PlanNode> planA() {
    return {node("x_to_nhwc", "Transpose", "portable", "NCHW", {"x"}, {"x_nhwc"}, {}),
            node("conv1", "Conv", "xnnpack", "NHWC", {"x_nhwc"}, {"c1"}, {"conv1", "relu1"}),
            node("pool1", "MaxPool", "xnnpack", "NHWC", {"c1"}, {"p1"}, {"pool1"}),
            node("p1_to_nchw", "Transpose", "portable", "NCHW", {"p1"}, {"p1_nchw"}, {}),
            node("act", "Relu", "portable", "NCHW", {"p1_nchw"}, {"a"}, {"act"}),
            node("fc", "Gemm", "portable", "NCHW", {"a"}, {"y"}, {"fc"})};
}

// B: all portable NCHW, relu1 on its own, act became a Clip, a Softmax at the end.
std::vector<PlanNode> planB() {
    return {node("conv1", "Conv", "portable", "NCHW", {"x"}, {"c1"}, {"conv1"}),
            node("relu1", "Relu", "portable", "NCHW", {"c1"}, {"r1"}, {"relu1"}),
            node("pool1", "MaxPool", "portable", "NCHW", {"r1"}, {"p1"}, {"pool1"}),
            node("act", "Clip", "portable", "NCHW", {"p1"}, {"a"}, {"act"}),
            node("fc", "Gemm", "portable", "NCHW", {"a"}, {"y"}, {"fc"}),
            node("softmax", "Softmax", "portable", "NCHW", {"y"}, {"prob"}, {"softmax"})};
}

PlanChange changeOf(const std::vector<PlanNodeChange>& changes, const std::string& node) {
    for (const PlanNodeChange& c : changes)
        if (c.node == node) return c.change;
    return PlanChange::Unchanged;
}

} // namespace

class TestRunPlan : public QObject {
    Q_OBJECT

private slots:
    void jsonRoundTrip() {
        const std::vector<PlanNode> a = planA();
        auto back = planFromJson(planToJson(a));
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        QCOMPARE(back->size(), a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE((*back)[i].name, a[i].name);
            QCOMPARE((*back)[i].library, a[i].library);
            QCOMPARE((*back)[i].layout, a[i].layout);
            QCOMPARE((*back)[i].origins, a[i].origins);
            QCOMPARE((*back)[i].inputs, a[i].inputs);
            QCOMPARE((*back)[i].shapes, a[i].shapes);
        }
        RunRecord r;
        r.id = 4;
        auto none = runPlan(r);
        QVERIFY(none && none->empty()); // runs stored without a plan
        r.extra["plan"] = planToJson(a);
        QCOMPARE(runPlan(r)->size(), a.size());
    }

    void badPlansAreRefused() {
        RunRecord r;
        r.id = 9;
        r.extra["plan"] = QStringLiteral("conv1");
        auto e = runPlan(r);
        QVERIFY(!e);
        QVERIFY2(QString::fromStdString(e.error().message).contains(QStringLiteral("run 9")),
                 e.error().message.c_str());
        QJsonArray bad = planToJson(planA());
        QJsonObject entry = bad[2].toObject();
        entry.remove(QStringLiteral("op"));
        bad[2] = entry;
        e = planFromJson(bad);
        QVERIFY(!e);
        QVERIFY2(e.error().message.find("entry 2") != std::string::npos, e.error().message.c_str());
        entry = bad[1].toObject();
        entry[QStringLiteral("provenance")] = QStringLiteral("conv1");
        bad[1] = entry;
        QVERIFY(!planFromJson(bad));
        std::vector<PlanNode> twice = planA();
        twice[2].outputs = {"c1"};
        auto g = planGraph(twice);
        QVERIFY(!g);
        QVERIFY2(g.error().message.find("'c1' twice") != std::string::npos, g.error().message.c_str());
        std::vector<PlanNode> unknown = planA();
        unknown[1].op = "NoSuchOp";
        g = planGraph(unknown);
        QVERIFY(!g);
        QVERIFY2(g.error().message.find("NoSuchOp") != std::string::npos, g.error().message.c_str());
    }

    void diffMarksEveryKindOfChange() {
        const PlanDiff d = diffPlans(planA(), planB());
        QCOMPARE(d.a.size(), size_t(6));
        QCOMPARE(d.b.size(), size_t(6));
        QCOMPARE(changeOf(d.a, "x_to_nhwc"), PlanChange::Removed);
        QCOMPARE(changeOf(d.a, "p1_to_nchw"), PlanChange::Removed);
        QCOMPARE(changeOf(d.a, "conv1"), PlanChange::Fused);
        QCOMPARE(changeOf(d.b, "conv1"), PlanChange::Fused);
        QCOMPARE(changeOf(d.b, "relu1"), PlanChange::Fused);
        QCOMPARE(changeOf(d.a, "pool1"), PlanChange::Reassigned);
        QCOMPARE(changeOf(d.b, "pool1"), PlanChange::Reassigned);
        QCOMPARE(changeOf(d.a, "act"), PlanChange::Rewritten);
        QCOMPARE(changeOf(d.a, "fc"), PlanChange::Unchanged);
        QCOMPARE(changeOf(d.b, "softmax"), PlanChange::Added);
        QCOMPARE(d.removed, 2);
        QCOMPARE(d.added, 1);
        QCOMPARE(d.fusedA, 1);
        QCOMPARE(d.fusedB, 2);
        QCOMPARE(d.reassigned, 1);
        QCOMPARE(d.rewritten, 1);
        QVERIFY(!d.identical());
        // The re-assigned node names both sides' library and layout; counterparts link the fused block.
        for (const PlanNodeChange& c : d.a) {
            if (c.node == "pool1") {
                QCOMPARE(c.libraryA, std::string("xnnpack"));
                QCOMPARE(c.libraryB, std::string("portable"));
                QCOMPARE(c.layoutA, std::string("NHWC"));
                QCOMPARE(c.layoutB, std::string("NCHW"));
            }
            if (c.node == "conv1") QCOMPARE(c.counterparts, (std::vector<std::string>{"conv1", "relu1"}));
        }
        // The other way round: the same nodes, the sides swapped.
        const PlanDiff r = diffPlans(planB(), planA());
        QCOMPARE(r.added, 2);
        QCOMPARE(r.removed, 1);
        QCOMPARE(r.reassigned, 1);
        QCOMPARE(changeOf(r.b, "pool1"), PlanChange::Reassigned);
        // A plan against itself: nothing changed.
        const PlanDiff same = diffPlans(planA(), planA());
        QVERIFY(same.identical());
        for (const PlanNodeChange& c : same.a) QCOMPARE(c.change, PlanChange::Unchanged);
        QCOMPARE(QString::fromLatin1(planChangeName(PlanChange::Reassigned)), QStringLiteral("re-assigned"));
    }

    void planDrawsAsAGraph() {
        auto g = planGraph(planB());
        QVERIFY2(g, g ? "" : g.error().message.c_str());
        QCOMPARE((*g)->nodeCount(), size_t(6));
        QCOMPARE((*g)->inputs().size(), size_t(1));
        QCOMPARE((*g)->inputs()[0]->name, std::string("x"));
        QCOMPARE((*g)->outputs().size(), size_t(1));
        QCOMPARE((*g)->outputs()[0]->name, std::string("prob"));
        const ir::Node* conv = (*g)->findNode("conv1");
        QVERIFY(conv);
        QCOMPARE(conv->output(0)->shape.dims(), (std::vector<int64_t>{1, 8, 4, 4}));
        QCOMPARE((*g)->findNode("relu1")->input(0), conv->output(0));
        QCOMPARE((*planGraph(planA()))->findNode("conv1")->provenance, (std::vector<std::string>{"conv1", "relu1"}));
    }
};

QTEST_GUILESS_MAIN(TestRunPlan)
#include "tst_run_plan.moc"

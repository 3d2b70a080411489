// Tests of the layered graph layout: geometry invariants on generated network-shaped graphs,
// crossing counts on small graphs with known optima, cycles, determinism, IR conversion.
#include "graphdraw/ir_graph_layout.h"
#include "graphdraw/layered_layout.h"
#include "graphdraw/synthetic_graphs.h"
#include "support/graph_builder.h"

#include <QTest>

#include <algorithm>
#include <map>

using namespace embark;
using namespace embark::graphdraw;

Q_DECLARE_METATYPE(embark::graphdraw::LayoutGraph)

namespace {

LayoutGraph fromEdges(int nodes, const std::vector<std::pair<int, int>>& edges) {
    LayoutGraph g;
    for (int i = 0; i < nodes; ++i) g.addNode(60, 20);
    for (auto [a, b] : edges) g.addEdge(a, b);
    return g;
}

// A planar ladder: `layers` rows of `width` nodes, node i linked to i and i+1 below. Ids are
// scrambled within each row (7 is coprime with the widths used) so the initial depth-first
// order is poor.
LayoutGraph scrambledLadder(int layers, int width) {
    auto id = [&](int l, int i) { return l * width + (i * 7 + l) % width; };
    std::vector<std::pair<int, int>> edges;
    for (int l = 0; l + 1 < layers; ++l)
        for (int i = 0; i < width; ++i) {
            edges.push_back({id(l, i), id(l + 1, i)});
            if (i + 1 < width) edges.push_back({id(l, i), id(l + 1, i + 1)});
        }
    return fromEdges(layers * width, edges);
}

// ResNet-18 after fusion: two convolutions per block (ReLU fused), the add (ReLU fused)
// joining the identity shortcut, or a 1x1 projection conv in the first block of a stage.
LayoutGraph resNet18Fused() {
    LayoutGraph g;
    auto node = [&] { return g.addNode(110, 36); };
    auto chain = [&](int from, int length) {
        for (int i = 0; i < length; ++i) {
            const int next = node();
            g.addEdge(from, next);
            from = next;
        }
        return from;
    };
    int x = chain(node(), 2); // input, conv, maxpool
    for (int stage = 0; stage < 4; ++stage)
        for (int block = 0; block < 2; ++block) {
            const int main = chain(x, 2);
            const int shortcut = stage > 0 && block == 0 ? chain(x, 1) : x;
            const int add = node();
            g.addEdge(main, add);
            g.addEdge(shortcut, add);
            x = add;
        }
    chain(x, 3); // global pool, flatten, gemm
    return g;
}

LayoutResult layoutOf(const LayoutGraph& g) {
    auto r = computeLayout(g);
    if (!r) qFatal("layout failed: %s", r.error().message.c_str());
    return std::move(r.value());
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT

private:
    void addGeneratedRows() {
        QTest::addColumn<LayoutGraph>("graph");
        QTest::newRow("densenet-430") << denseNetLike(6);
        QTest::newRow("resnet50") << resNet50Like();
        QTest::newRow("chain-1000") << chainWithSkips(1000);
        QTest::newRow("ladder") << scrambledLadder(6, 5);
        QTest::newRow("diamond") << fromEdges(4, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
    }

private slots:
    void noOverlapWithinLayer_data() { addGeneratedRows(); }
    void noOverlapWithinLayer() {
        QFETCH(LayoutGraph, graph);
        const LayoutResult r = layoutOf(graph);
        std::map<int, std::vector<int>> byLayer;
        for (int v = 0; v < static_cast<int>(graph.nodes.size()); ++v) byLayer[r.nodes[v].layer].push_back(v);
        for (auto& [layer, members] : byLayer) {
            std::sort(members.begin(), members.end(),
                      [&](int a, int b) { return r.nodes[a].order < r.nodes[b].order; });
            for (size_t i = 1; i < members.size(); ++i) {
                const int a = members[i - 1], b = members[i];
                const double rightOfA = r.nodes[a].x + graph.nodes[a].width / 2;
                const double leftOfB = r.nodes[b].x - graph.nodes[b].width / 2;
                QVERIFY2(leftOfB >= rightOfA - 1e-6,
                         qPrintable(QString("nodes %1 and %2 overlap in layer %3").arg(a).arg(b).arg(layer)));
                QCOMPARE(r.nodes[a].y, r.nodes[b].y);
            }
        }
        for (const NodePlacement& p : r.nodes) QVERIFY(p.x >= -1e-6 && p.x <= r.width + 1e-6);
    }

    void edgesGoDownward_data() { addGeneratedRows(); }
    void edgesGoDownward() {
        QFETCH(LayoutGraph, graph);
        const LayoutResult r = layoutOf(graph);
        for (size_t e = 0; e < graph.edges.size(); ++e) {
            const auto& edge = graph.edges[e];
            const EdgeRoute& route = r.edges[e];
            QVERIFY(!route.reversed);
            // layers respect the topological order: a producer sits above every consumer
            QVERIFY(r.nodes[edge.from].layer < r.nodes[edge.to].layer);
            QVERIFY(route.points.size() >= 2);
            for (size_t i = 1; i < route.points.size(); ++i) QVERIFY(route.points[i].y > route.points[i - 1].y);
            QCOMPARE(route.points.front().x, r.nodes[edge.from].x);
            QCOMPARE(route.points.back().x, r.nodes[edge.to].x);
        }
    }

    void crossingsOnKnownGraphs_data() {
        QTest::addColumn<LayoutGraph>("graph");
        QTest::addColumn<long long>("expected");
        // 0 1 over 2 3 with 0->3 and 1->2: untangled by ordering the lower layer.
        QTest::newRow("two crossed pairs") << fromEdges(4, {{0, 3}, {1, 2}}) << 0LL;
        QTest::newRow("K(2,2)") << fromEdges(4, {{0, 2}, {0, 3}, {1, 2}, {1, 3}}) << 1LL;
        QTest::newRow("K(3,3)") << fromEdges(6,
                                             {{0, 3}, {0, 4}, {0, 5}, {1, 3}, {1, 4}, {1, 5}, {2, 3}, {2, 4}, {2, 5}})
                                << 9LL;
        QTest::newRow("scrambled ladder") << scrambledLadder(8, 6) << 0LL;
        QTest::newRow("tree") << fromEdges(7, {{0, 6}, {0, 5}, {6, 4}, {6, 3}, {5, 2}, {5, 1}}) << 0LL;
        QTest::newRow("resnet50") << resNet50Like() << 0LL;
    }
    void crossingsOnKnownGraphs() {
        QFETCH(LayoutGraph, graph);
        QFETCH(long long, expected);
        QCOMPARE(layoutOf(graph).crossings, expected);
    }

    // The trunk of a ResNet (every add, where the skip joins it) stays on one vertical line
    // instead of drifting sideways one gap per block.
    void resNetTrunkStaysStraight_data() {
        QTest::addColumn<LayoutGraph>("graph");
        QTest::newRow("resnet18-fused") << resNet18Fused();
        QTest::newRow("resnet50") << resNet50Like();
    }
    void resNetTrunkStaysStraight() {
        QFETCH(LayoutGraph, graph);
        const LayoutResult r = layoutOf(graph);
        std::vector<int> inDegree(graph.nodes.size(), 0);
        for (const auto& e : graph.edges) ++inDegree[e.to];
        double minX = 1e30, maxX = -1e30;
        int adds = 0;
        for (size_t v = 0; v < graph.nodes.size(); ++v)
            if (inDegree[v] == 2) {
                ++adds;
                minX = std::min(minX, r.nodes[v].x);
                maxX = std::max(maxX, r.nodes[v].x);
            }
        QVERIFY(adds >= 8);
        QVERIFY2(maxX - minX < 1.0, qPrintable(QStringLiteral("the adds span %1 px sideways").arg(maxX - minX)));
    }

    void deterministic() {
        const LayoutGraph g = denseNetLike(6);
        const LayoutResult a = layoutOf(g);
        const LayoutResult b = layoutOf(denseNetLike(6));
        QCOMPARE(a.crossings, b.crossings);
        QCOMPARE(a.width, b.width);
        for (size_t v = 0; v < g.nodes.size(); ++v) {
            QCOMPARE(a.nodes[v].x, b.nodes[v].x);
            QCOMPARE(a.nodes[v].y, b.nodes[v].y);
        }
        for (size_t e = 0; e < g.edges.size(); ++e) QCOMPARE(a.edges[e].points.size(), b.edges[e].points.size());
    }

    void denseNet900Completes() {
        const LayoutGraph g = denseNetLike(14);
        QVERIFY(g.nodes.size() >= 850);
        const LayoutResult r = layoutOf(g);
        QVERIFY(r.dummyCount > 10000); // the concat fan-in really produces long edges
        QVERIFY(r.height > 0 && r.width > 0);
    }

    void cyclesAndSelfLoops() {
        // 0 -> 1 -> 2 -> 0, a self-loop on 1, and a parallel edge
        const LayoutGraph g = fromEdges(3, {{0, 1}, {1, 2}, {2, 0}, {1, 1}, {0, 1}});
        const LayoutResult r = layoutOf(g);
        int reversed = 0;
        for (size_t e = 0; e < g.edges.size(); ++e) {
            const auto& edge = g.edges[e];
            if (edge.from == edge.to) {
                QVERIFY(r.edges[e].points.empty());
                continue;
            }
            reversed += r.edges[e].reversed;
            const int from = r.nodes[edge.from].layer, to = r.nodes[edge.to].layer;
            QVERIFY(r.edges[e].reversed ? from > to : from < to);
            // routes still start at the source and end at the target
            QCOMPARE(r.edges[e].points.front().x, r.nodes[edge.from].x);
            QCOMPARE(r.edges[e].points.back().x, r.nodes[edge.to].x);
        }
        QCOMPARE(reversed, 1);
    }

    void emptyAndInvalidGraphs() {
        QVERIFY(computeLayout(LayoutGraph{}).ok());
        const auto bad = computeLayout(fromEdges(2, {{0, 5}}));
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, ErrorKind::InvalidInput);
        QVERIFY(QString::fromStdString(bad.error().message).contains("node 5"));
    }

    void fromIrGraph() {
        test::GraphBuilder b("small");
        ir::Value* x = b.input("x", ir::Shape{1, 3, 8, 8});
        ir::Value* conv = b.op(ir::OpKind::Conv, {x, b.weights("w", ir::Shape{4, 3, 3, 3})}, {}, "conv");
        ir::Value* relu = b.op(ir::OpKind::Relu, {conv}, {}, "relu");
        ir::Value* pool = b.op(ir::OpKind::MaxPool, {relu}, {}, "pool");
        ir::Value* side = b.op(ir::OpKind::Sigmoid, {relu}, {}, "side");
        b.output(pool);
        b.output(side);
        const IrGraphLayoutInput in = buildLayoutInput(b.graph());
        QCOMPARE(in.items.size(), size_t(1 + 4 + 2)); // input, 4 nodes, 2 outputs
        QCOMPARE(in.graph.edges.size(), size_t(6));   // the weights are not an edge
        QCOMPARE(in.edgeValue.size(), in.graph.edges.size());
        QCOMPARE(in.items.front().kind, IrLayoutItem::Kind::GraphInput);
        QCOMPARE(in.items.back().kind, IrLayoutItem::Kind::GraphOutput);
        const LayoutResult r = layoutOf(in.graph);
        QCOMPARE(r.crossings, 0LL);
        QCOMPARE(r.layerCount, 5); // x, conv, relu, pool|side, outputs
        int withMeasure = 0;
        buildLayoutInput(b.graph(), [&](const IrLayoutItem&) {
            ++withMeasure;
            return NodeSize{10, 10};
        });
        QCOMPARE(withMeasure, 7);
    }
};

QTEST_GUILESS_MAIN(TestLayout)
#include "tst_layout.moc"

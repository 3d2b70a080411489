// The fuse_qdq pass on small QDQ graphs (tests/export/qdq_graphs.h): the quantized ops
// appear, no DequantizeLinear is left but the one producing the float output, every original
// node is in some provenance, and the fused graph's reference equals the QDQ graph's:
//  - exactly (==) where the fused op computes the same float32 operations (QAdd, QLookup) or
//    only moves and compares int8 values (MaxPool, Concat, Transpose, Reshape, with a QLookup
//    table computed by the reference's own DequantizeLinear/QuantizeLinear);
//  - within one quantum of the output scale for QConv, QGemm and QAveragePool: the QDQ graph
//    sums dequantized float32 products in double and divides by the output scale, the fused
//    op sums int32 and multiplies by float32(x_scale * w_scale / y_scale), so a value that
//    falls within rounding error of a .5 boundary may round to the neighbouring integer.
#include "export/qdq_graphs.h"
#include "export/kernel_libraries.h"
#include "pass_test_util.h"
#include "passes/graph_rewrite.h"
#include "passes/pass_manager.h"

#include <QTest>

#include <cmath>

using namespace embark;
using ir::OpKind;

class TestFuseQdq : public QObject {
    Q_OBJECT

private slots:
    void fusesAndMatchesTheQdqGraph_data() {
        QTest::addColumn<int>("index");
        const auto cases = test::qdq::cases();
        for (size_t i = 0; i < cases.size(); ++i) QTest::newRow(cases[i].name.c_str()) << static_cast<int>(i);
    }

    void fusesAndMatchesTheQdqGraph() {
        QFETCH(int, index);
        const test::qdq::Case c = test::qdq::cases()[static_cast<size_t>(index)];
        const ir::Graph g = c.build();
        auto run = passes::PassManager::run(g, "default", {&exporter::portableLibrary()});
        QVERIFY2(run, run ? "" : run.error().message.c_str());
        const ir::Graph& f = run->graph;
        QVERIFY(f.validate());
        for (OpKind op : c.expectOps) QVERIFY2(test::countOps(f, op) >= 1, ir::opName(op).data());
        QCOMPARE(test::countOps(f, OpKind::DequantizeLinear), 1);
        for (const ir::Node* n : f.nodes())
            for (const ir::Value* v : n->inputs())
                QVERIFY2(!v || v->dtype != ir::DType::Float32 || n->op == OpKind::QuantizeLinear || v->isConstant(),
                         ("float data into " + n->describe()).c_str());
        const auto missing = passes::unaccountedNodes(g, f);
        QVERIFY2(missing.empty(), missing.empty() ? "" : missing.front().c_str());
        // The stage log names the rewrites.
        bool logged = false;
        for (const auto& stage : run->stages)
            for (const std::string& line : stage.log) logged = logged || line.rfind("fused ", 0) == 0;
        QVERIFY(logged);

        const float yScale = static_cast<float>(g.findValue("y_scale")->constant.at(0));
        for (unsigned seed : {1u, 2u, 3u}) {
            const auto inputs = test::randomInputs(g, seed);
            auto before = reference::run(g, inputs);
            auto after = reference::run(f, inputs);
            QVERIFY2(before && after,
                     before ? (after ? "" : after.error().message.c_str()) : before.error().message.c_str());
            const ir::Tensor& a = before->outputs.front();
            const ir::Tensor& b = after->outputs.front();
            QCOMPARE(b.shape(), a.shape());
            int differ = 0;
            for (int64_t i = 0; i < a.numel(); ++i) {
                const double quanta = std::fabs(a.at(i) - b.at(i)) / yScale;
                if (c.exact)
                    QVERIFY2(a.at(i) == b.at(i),
                             qPrintable(QString("element %1: %2 vs %3").arg(i).arg(a.at(i)).arg(b.at(i))));
                else
                    QVERIFY2(quanta < 1.0 + 1e-3,
                             qPrintable(QString("element %1 is %2 quanta off").arg(i).arg(quanta)));
                differ += a.at(i) != b.at(i);
            }
            if (differ)
                qInfo("%s seed %u: %d of %lld values one quantum off", c.name.c_str(), seed, differ,
                      static_cast<long long>(a.numel()));
        }
    }

    // A QDQ graph whose weights are asymmetric (a non-zero weight zero point) is left in QDQ
    // form: nothing fuses, and the reference result is unchanged.
    void asymmetricWeightsStayQdq() {
        ir::Graph g = test::qdq::convGraph(1, 3, 4, 1, OpKind::Relu);
        ir::Node* dq = g.findNode("w_DequantizeLinear");
        QVERIFY(dq);
        std::vector<int8_t> zp(4, 1);
        ir::Value* z =
            g.addConstant("w_zp", ir::Tensor::fromBytes(ir::DType::Int8, ir::Shape{4}, zp.data(), zp.size()));
        g.appendInput(dq, z);
        auto run = passes::PassManager::run(g, "default", {&exporter::portableLibrary()});
        QVERIFY2(run, run ? "" : run.error().message.c_str());
        QCOMPARE(test::countOps(run->graph, OpKind::QConv), 0);
        QCOMPARE(test::compareOutputs(g, run->graph, 1e-6), QString());
    }

    // The recipe "cleanup" does not fuse: the int8 weights fold to float32.
    void cleanupRecipeDoesNotFuse() {
        const ir::Graph g = test::qdq::convGraph(1, 3, 4, 1, OpKind::Relu);
        auto run = passes::PassManager::run(g, "cleanup");
        QVERIFY(run);
        QCOMPARE(test::countOps(run->graph, OpKind::QConv), 0);
    }
};

QTEST_GUILESS_MAIN(TestFuseQdq)
#include "tst_fuse_qdq.moc"

// lower_einsum: Einsum forms that become ReduceSum/Transpose/Reshape/MatMul give the same
// outputs as the general kernel, and the forms it cannot lower stay Einsum.
#include "pass_test_util.h"

#include "passes/pass.h"

#include <QTest>

using namespace embark;
using namespace embark::test;
using ir::OpKind;
using ir::Shape;

Q_DECLARE_METATYPE(std::vector<Shape>)

class TestLowerEinsum : public QObject {
    Q_OBJECT

private slots:
    void lowers_data() {
        QTest::addColumn<QString>("equation");
        QTest::addColumn<std::vector<Shape>>("shapes");
        QTest::addColumn<bool>("lowered");
        QTest::addColumn<int>("matmuls");
        using S = std::vector<Shape>;
        QTest::newRow("matmul") << "ij,jk->ik" << S{{3, 4}, {4, 5}} << true << 1;
        QTest::newRow("batched attention scores") << "bhqd,bhkd->bhqk" << S{{2, 3, 4, 5}, {2, 3, 6, 5}} << true << 1;
        QTest::newRow("attention values, output reordered")
            << "bhqk,bkhd->bqhd" << S{{2, 3, 4, 6}, {2, 6, 3, 5}} << true << 1;
        QTest::newRow("outer product") << "i,j->ij" << S{{3}, {4}} << true << 1;
        QTest::newRow("inner product") << "i,i" << S{{7}, {7}} << true << 1;
        QTest::newRow("own labels summed first") << "abc,cd->ad" << S{{2, 3, 4}, {4, 5}} << true << 1;
        QTest::newRow("transpose") << "ijk->kij" << S{{2, 3, 4}} << true << 0;
        QTest::newRow("sum") << "ij->" << S{{3, 4}} << true << 0;
        QTest::newRow("diagonal stays") << "ii->i" << S{{3, 3}} << false << 0;
        QTest::newRow("broadcast batch stays") << "bij,bjk->bik" << S{{1, 2, 3}, {4, 3, 2}} << false << 0;
    }

    void lowers() {
        QFETCH(QString, equation);
        QFETCH(std::vector<Shape>, shapes);
        QFETCH(bool, lowered);
        QFETCH(int, matmuls);
        GraphBuilder b;
        std::vector<ir::Value*> ins;
        for (size_t i = 0; i < shapes.size(); ++i) ins.push_back(b.input("x" + std::to_string(i), shapes[i]));
        b.output(b.op(OpKind::Einsum, ins, {{"equation", equation.toStdString()}}, "einsum"));
        ir::Graph before = b.build();
        ir::Graph after = before.clone();
        passes::PassContext ctx;
        auto n = passes::makeLowerEinsum()->run(after, ctx);
        QVERIFY2(n, n ? "" : n.error().message.c_str());
        QCOMPARE(*n, lowered ? 1 : 0);
        QCOMPARE(countOps(after, OpKind::Einsum), lowered ? 0 : 1);
        QCOMPARE(countOps(after, OpKind::MatMul), matmuls);
        QVERIFY(after.validate().ok());
        const QString diff = compareOutputs(before, after);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        if (lowered) {
            QCOMPARE(ctx.log.size(), size_t{1});
            for (const ir::Node* node : after.nodes()) QCOMPARE(node->provenance, std::vector<std::string>{"einsum"});
        }
    }
};

QTEST_GUILESS_MAIN(TestLowerEinsum)
#include "tst_lower_einsum.moc"

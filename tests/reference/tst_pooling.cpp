// Pooling kernels of the reference interpreter: MaxPool (ceil_mode, dilations, Indices with
// storage_order), AveragePool (count_include_pad), global pooling; hand-computed values.
#include "op_test_util.h"

using namespace embark;
using namespace embark::test;
using ir::Attributes;
using ir::OpKind;
using ir::Shape;
using V = std::vector<int64_t>;

namespace {
ir::Tensor grid4x4() {
    std::vector<float> v(16);
    for (int i = 0; i < 16; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
    return F({1, 1, 4, 4}, v);
}
} // namespace

class TestPooling : public QObject {
    Q_OBJECT

private slots:
    void maxPool_data() {
        QTest::addColumn<Attributes>("attrs");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::newRow("2x2 stride 2") << Attributes{{"kernel_shape", V{2, 2}}, {"strides", V{2, 2}}}
                                      << Shape{1, 1, 2, 2} << std::vector<double>{5, 7, 13, 15};
        QTest::newRow("3x3 stride 2 floor") << Attributes{{"kernel_shape", V{3, 3}}, {"strides", V{2, 2}}}
                                            << Shape{1, 1, 1, 1} << std::vector<double>{10};
        QTest::newRow("3x3 stride 2 ceil_mode")
            << Attributes{{"kernel_shape", V{3, 3}}, {"strides", V{2, 2}}, {"ceil_mode", int64_t{1}}}
            << Shape{1, 1, 2, 2} << std::vector<double>{10, 11, 14, 15};
        QTest::newRow("dilations") << Attributes{{"kernel_shape", V{2, 2}}, {"dilations", V{2, 2}}} << Shape{1, 1, 2, 2}
                                   << std::vector<double>{10, 11, 14, 15};
        QTest::newRow("pads") << Attributes{{"kernel_shape", V{2, 2}}, {"strides", V{2, 2}}, {"pads", V{1, 1, 1, 1}}}
                              << Shape{1, 1, 3, 3} << std::vector<double>{0, 2, 3, 8, 10, 11, 12, 14, 15};
        QTest::newRow("same_upper") << Attributes{{"kernel_shape", V{2, 2}}, {"auto_pad", std::string("SAME_UPPER")}}
                                    << Shape{1, 1, 4, 4}
                                    << std::vector<double>{5, 6, 7, 7, 9, 10, 11, 11, 13, 14, 15, 15, 13, 14, 15, 15};
    }
    void maxPool() {
        QFETCH(Attributes, attrs);
        QFETCH(Shape, shape);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(OpKind::MaxPool, {grid4x4()}, attrs);
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), shape, expected));
    }

    void maxPoolIndices_data() {
        QTest::addColumn<int64_t>("storageOrder");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::newRow("row major") << int64_t{0} << std::vector<double>{5, 7, 13, 15};
        QTest::newRow("column major") << int64_t{1} << std::vector<double>{5, 13, 7, 15};
    }
    void maxPoolIndices() {
        QFETCH(int64_t, storageOrder);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(OpKind::MaxPool, {grid4x4()},
                        {{"kernel_shape", V{2, 2}}, {"strides", V{2, 2}}, {"storage_order", storageOrder}}, 2);
        EVAL_OK(r);
        QCOMPARE(r->size(), size_t{2});
        QCOMPARE(r->at(1).dtype(), ir::DType::Int64);
        QVERIFY(closeTo(r->at(1), Shape{1, 1, 2, 2}, expected));
    }

    void averagePool_data() {
        QTest::addColumn<int64_t>("includePad");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::newRow("exclude pad") << int64_t{0} << std::vector<double>(9, 1.0);
        QTest::newRow("include pad") << int64_t{1} << std::vector<double>{4 / 9., 6 / 9., 4 / 9., 6 / 9., 1,
                                                                          6 / 9., 4 / 9., 6 / 9., 4 / 9.};
    }
    void averagePool() {
        QFETCH(int64_t, includePad);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(OpKind::AveragePool, {F({1, 1, 3, 3}, std::vector<float>(9, 1.f))},
                        {{"kernel_shape", V{3, 3}}, {"pads", V{1, 1, 1, 1}}, {"count_include_pad", includePad}});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{1, 1, 3, 3}, expected));
    }

    void averagePoolCeilModeCountsOnlyRealCells() {
        // 1-D: [1,2,3,4,5], k2 s2 ceil → windows [1,2], [3,4], [5] (last one half outside).
        auto r = evalOp(OpKind::AveragePool, {F({1, 1, 5}, {1, 2, 3, 4, 5})},
                        {{"kernel_shape", V{2}}, {"strides", V{2}}, {"ceil_mode", int64_t{1}}});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{1, 1, 3}, {1.5, 3.5, 5}));
    }

    void globalPools() {
        auto avg = evalOp(OpKind::GlobalAveragePool, {F({1, 2, 2, 1}, {1, 2, 3, 5})});
        auto max = evalOp(OpKind::GlobalMaxPool, {F({1, 2, 2, 1}, {1, 2, 3, 5})});
        EVAL_OK(avg);
        EVAL_OK(max);
        QVERIFY(closeTo(avg->at(0), Shape{1, 2, 1, 1}, {1.5, 4}));
        QVERIFY(closeTo(max->at(0), Shape{1, 2, 1, 1}, {2, 5}));
    }

    void missingKernelShapeIsInvalid() {
        auto r = evalOp(OpKind::MaxPool, {grid4x4()});
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.find("kernel_shape") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestPooling)
#include "tst_pooling.moc"

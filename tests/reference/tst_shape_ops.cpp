// Shape, data-movement and data-creation kernels of the reference interpreter: Reshape,
// Transpose, Slice, Gather, Concat, Split, Squeeze/Unsqueeze, Pad modes, Expand, Tile,
// DepthToSpace/SpaceToDepth, Shape, Range, Cast, Resize modes.
#include "op_test_util.h"

using namespace embark;
using namespace embark::test;
using ir::Attributes;
using ir::DType;
using ir::OpKind;
using ir::Shape;
using V = std::vector<int64_t>;

namespace {
ir::Tensor iotaF(Shape shape) {
    std::vector<float> v(static_cast<size_t>(shape.numel()));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
    return F(std::move(shape), v);
}
} // namespace

class TestShapeOps : public QObject {
    Q_OBJECT

private slots:
    void reshape() {
        auto r = evalOp(OpKind::Reshape, {iotaF({2, 3, 4}), I1({0, -1})});
        EVAL_OK(r);
        QCOMPARE(r->at(0).shape(), (Shape{2, 12}));
        auto bad = evalOp(OpKind::Reshape, {iotaF({2, 3}), I1({4, -1})});
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, ErrorKind::InvalidInput);
        auto zero = evalOp(OpKind::Reshape, {iotaF({0, 3}), I1({3, 0})}, {{"allowzero", int64_t{1}}});
        EVAL_OK(zero);
        QCOMPARE(zero->at(0).shape(), (Shape{3, 0}));
    }

    void transpose() {
        auto r = evalOp(OpKind::Transpose, {iotaF({2, 3})});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{3, 2}, {0, 3, 1, 4, 2, 5}));
        auto p = evalOp(OpKind::Transpose, {iotaF({1, 2, 3})}, {{"perm", V{0, 2, 1}}});
        EVAL_OK(p);
        QVERIFY(closeTo(p->at(0), Shape{1, 3, 2}, {0, 3, 1, 4, 2, 5}));
    }

    void slice_data() {
        QTest::addColumn<ir::Tensor>("x");
        QTest::addColumn<std::vector<ir::Tensor>>("params");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::newRow("negative step") << iotaF({10})
                                       << std::vector<ir::Tensor>{I1({-1}), I1({-100}), ir::Tensor(), I1({-3})}
                                       << Shape{4} << std::vector<double>{9, 6, 3, 0};
        QTest::newRow("clamped end") << iotaF({10}) << std::vector<ir::Tensor>{I1({7}), I1({1000})} << Shape{3}
                                     << std::vector<double>{7, 8, 9};
        QTest::newRow("axes") << iotaF({3, 4}) << std::vector<ir::Tensor>{I1({1}), I1({3}), I1({1})} << Shape{3, 2}
                              << std::vector<double>{1, 2, 5, 6, 9, 10};
        QTest::newRow("empty") << iotaF({4}) << std::vector<ir::Tensor>{I1({3}), I1({1})} << Shape{0}
                               << std::vector<double>{};
    }
    void slice() {
        QFETCH(ir::Tensor, x);
        QFETCH(std::vector<ir::Tensor>, params);
        QFETCH(Shape, shape);
        QFETCH(std::vector<double>, expected);
        std::vector<ir::Tensor> inputs{x};
        inputs.insert(inputs.end(), params.begin(), params.end());
        auto r = evalOp(OpKind::Slice, inputs);
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), shape, expected));
    }

    void gatherNegativeIndices() {
        auto r = evalOp(OpKind::Gather, {iotaF({2, 3}), I1({-1, 0})}, {{"axis", int64_t{1}}});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{2, 2}, {2, 0, 5, 3}));
        auto scalar = evalOp(OpKind::Gather, {I1({7, 8, 9}), I({}, {1})});
        EVAL_OK(scalar);
        QCOMPARE(scalar->at(0).shape(), Shape{});
        QCOMPARE(scalar->at(0).intAt(0), int64_t{8});
        auto bad = evalOp(OpKind::Gather, {iotaF({2, 3}), I1({3})}, {{"axis", int64_t{1}}});
        QVERIFY(!bad.ok());
    }

    void concatAndSplit() {
        auto c = evalOp(OpKind::Concat, {F({2, 1}, {1, 2}), F({2, 2}, {3, 4, 5, 6})}, {{"axis", int64_t{1}}});
        EVAL_OK(c);
        QVERIFY(closeTo(c->at(0), Shape{2, 3}, {1, 3, 4, 2, 5, 6}));
        auto equal = evalOp(OpKind::Split, {iotaF({6})}, {}, 2);
        EVAL_OK(equal);
        QVERIFY(closeTo(equal->at(1), Shape{3}, {3, 4, 5}));
        auto sized = evalOp(OpKind::Split, {iotaF({6}), I1({2, 4})}, {}, 2);
        EVAL_OK(sized);
        QVERIFY(closeTo(sized->at(0), Shape{2}, {0, 1}));
        QVERIFY(closeTo(sized->at(1), Shape{4}, {2, 3, 4, 5}));
        auto uneven = evalOp(OpKind::Split, {iotaF({5})}, {{"num_outputs", int64_t{2}}}, 2);
        EVAL_OK(uneven);
        QCOMPARE(uneven->at(1).shape(), Shape{2});
    }

    void squeezeUnsqueeze() {
        auto s = evalOp(OpKind::Squeeze, {iotaF({1, 3, 1}), I1({-1})});
        EVAL_OK(s);
        QCOMPARE(s->at(0).shape(), (Shape{1, 3}));
        auto all = evalOp(OpKind::Squeeze, {iotaF({1, 3, 1})});
        EVAL_OK(all);
        QCOMPARE(all->at(0).shape(), Shape{3});
        auto u = evalOp(OpKind::Unsqueeze, {iotaF({3}), I1({0, -1})});
        EVAL_OK(u);
        QCOMPARE(u->at(0).shape(), (Shape{1, 3, 1}));
        auto bad = evalOp(OpKind::Squeeze, {iotaF({2, 3}), I1({0})});
        QVERIFY(!bad.ok());
    }

    void pad_data() {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::newRow("constant") << "constant" << std::vector<double>{9, 9, 1, 2, 3, 9, 9};
        QTest::newRow("reflect") << "reflect" << std::vector<double>{3, 2, 1, 2, 3, 2, 1};
        QTest::newRow("edge") << "edge" << std::vector<double>{1, 1, 1, 2, 3, 3, 3};
        QTest::newRow("wrap") << "wrap" << std::vector<double>{2, 3, 1, 2, 3, 1, 2};
    }
    void pad() {
        QFETCH(QString, mode);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(OpKind::Pad, {F({3}, {1, 2, 3}), I1({2, 2}), F({}, {9})}, {{"mode", mode.toStdString()}});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{7}, expected));
    }

    void padAxesAndCropping() {
        auto axes = evalOp(OpKind::Pad, {F({2, 2}, {1, 2, 3, 4}), I1({1, 0}), ir::Tensor(), I1({-1})});
        EVAL_OK(axes);
        QVERIFY(closeTo(axes->at(0), Shape{2, 3}, {0, 1, 2, 0, 3, 4}));
        auto crop = evalOp(OpKind::Pad, {F({4}, {1, 2, 3, 4}), I1({-1, -2})});
        EVAL_OK(crop);
        QVERIFY(closeTo(crop->at(0), Shape{1}, {2}));
    }

    void expandTileDepthSpace() {
        auto e = evalOp(OpKind::Expand, {F({3, 1}, {1, 2, 3}), I1({2, 1, 2})});
        EVAL_OK(e);
        QVERIFY(closeTo(e->at(0), Shape{2, 3, 2}, {1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
        auto t = evalOp(OpKind::Tile, {F({1, 2}, {1, 2}), I1({2, 2})});
        EVAL_OK(t);
        QVERIFY(closeTo(t->at(0), Shape{2, 4}, {1, 2, 1, 2, 1, 2, 1, 2}));
        const ir::Tensor x = randomTensor({1, 8, 2, 3}, 7);
        for (const char* mode : {"DCR", "CRD"}) {
            auto d2s = evalOp(OpKind::DepthToSpace, {x}, {{"blocksize", int64_t{2}}, {"mode", std::string(mode)}});
            EVAL_OK(d2s);
            QCOMPARE(d2s->at(0).shape(), (Shape{1, 2, 4, 6}));
        }
        auto d2s = evalOp(OpKind::DepthToSpace, {x}, {{"blocksize", int64_t{2}}});
        auto back = evalOp(OpKind::SpaceToDepth, {d2s->at(0)}, {{"blocksize", int64_t{2}}});
        EVAL_OK(back);
        QVERIFY(back->at(0).identical(x));
        auto small = evalOp(OpKind::DepthToSpace, {F({1, 4, 1, 1}, {1, 2, 3, 4})}, {{"blocksize", int64_t{2}}});
        QVERIFY(closeTo(small->at(0), Shape{1, 1, 2, 2}, {1, 2, 3, 4}));
    }

    void shapeRangeCastConstantOfShape() {
        auto s = evalOp(OpKind::Shape, {iotaF({2, 3, 4})}, {{"start", int64_t{1}}});
        EVAL_OK(s);
        QVERIFY(closeTo(s->at(0), Shape{2}, {3, 4}));
        auto se = evalOp(OpKind::Shape, {iotaF({2, 3, 4})}, {{"end", int64_t{-1}}});
        QVERIFY(closeTo(se->at(0), Shape{2}, {2, 3}));
        auto range = evalOp(OpKind::Range, {I({}, {0}), I({}, {10}), I({}, {3})});
        EVAL_OK(range);
        QCOMPARE(range->at(0).dtype(), DType::Int64);
        QVERIFY(closeTo(range->at(0), Shape{4}, {0, 3, 6, 9}));
        auto cast = evalOp(OpKind::Cast, {F({3}, {1.7f, -2.5f, 0})}, {{"to", int64_t{7}}});
        EVAL_OK(cast);
        QCOMPARE(cast->at(0).dtype(), DType::Int64);
        QVERIFY(closeTo(cast->at(0), Shape{3}, {1, -2, 0}));
        auto byName = evalOp(OpKind::Cast, {F({1}, {1})}, {{"to", std::string("float16")}});
        EVAL_OK(byName);
        QCOMPARE(byName->at(0).dtype(), DType::Float16);
        auto cos = evalOp(OpKind::ConstantOfShape, {I1({2, 3})});
        EVAL_OK(cos);
        QVERIFY(closeTo(cos->at(0), Shape{2, 3}, std::vector<double>(6, 0)));
    }

    void resize_data() {
        QTest::addColumn<Attributes>("attrs");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::newRow("nearest asymmetric floor")
            << Attributes{{"coordinate_transformation_mode", std::string("asymmetric")},
                          {"nearest_mode", std::string("floor")}}
            << std::vector<double>{1, 1, 2, 2};
        QTest::newRow("linear half_pixel")
            << Attributes{{"mode", std::string("linear")}} << std::vector<double>{1, 1.25, 1.75, 2};
        QTest::newRow("linear align_corners")
            << Attributes{{"mode", std::string("linear")},
                          {"coordinate_transformation_mode", std::string("align_corners")}}
            << std::vector<double>{1, 4 / 3., 5 / 3., 2};
        QTest::newRow("nearest half_pixel round_prefer_ceil")
            << Attributes{{"nearest_mode", std::string("round_prefer_ceil")}} << std::vector<double>{1, 1, 2, 2};
    }
    void resize() {
        QFETCH(Attributes, attrs);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(OpKind::Resize, {F({1, 1, 1, 2}, {1, 2}), ir::Tensor(), F({4}, {1, 1, 1, 2})}, attrs);
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{1, 1, 1, 4}, expected));
    }

    void resizeWithSizes() {
        auto r = evalOp(OpKind::Resize, {F({1, 1, 1, 2}, {1, 2}), ir::Tensor(), ir::Tensor(), I1({1, 1, 1, 3})},
                        {{"coordinate_transformation_mode", std::string("asymmetric")}});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{1, 1, 1, 3}, {1, 2, 2}));
        auto none = evalOp(OpKind::Resize, {F({1, 1, 1, 2}, {1, 2})});
        QVERIFY(!none.ok());
    }
};

QTEST_GUILESS_MAIN(TestShapeOps)
#include "tst_shape_ops.moc"

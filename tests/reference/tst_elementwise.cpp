// Element-wise kernels of the reference interpreter: activations, unary maths, binary ops
// with multidirectional broadcasting, integer and bool paths, Where, PRelu and Clip.
#include "op_test_util.h"

#include <limits>

using namespace embark;
using namespace embark::test;
using ir::Attributes;
using ir::DType;
using ir::OpKind;
using ir::Shape;

class TestElementwise : public QObject {
    Q_OBJECT

private slots:
    void unary_data() {
        QTest::addColumn<OpKind>("op");
        QTest::addColumn<Attributes>("attrs");
        QTest::addColumn<std::vector<double>>("expected");
        // input: {-2, -0.5, 0, 0.5, 2}
        const double e = std::exp(1.0);
        QTest::newRow("Relu") << OpKind::Relu << Attributes{} << std::vector<double>{0, 0, 0, 0.5, 2};
        QTest::newRow("LeakyRelu") << OpKind::LeakyRelu << Attributes{{"alpha", 0.1f}}
                                   << std::vector<double>{-0.2, -0.05, 0, 0.5, 2};
        QTest::newRow("HardSigmoid") << OpKind::HardSigmoid << Attributes{}
                                     << std::vector<double>{0.1, 0.4, 0.5, 0.6, 0.9};
        QTest::newRow("HardSwish") << OpKind::HardSwish << Attributes{}
                                   << std::vector<double>{-2 * (1.0 / 6), -0.5 * (2.5 / 6), 0, 0.5 * (3.5 / 6),
                                                          2 * (5.0 / 6)};
        QTest::newRow("Elu") << OpKind::Elu << Attributes{{"alpha", 2.f}}
                             << std::vector<double>{2 * (std::exp(-2.0) - 1), 2 * (std::exp(-0.5) - 1), 0, 0.5, 2};
        QTest::newRow("Sigmoid") << OpKind::Sigmoid << Attributes{}
                                 << std::vector<double>{1 / (1 + e * e), 1 / (1 + std::sqrt(e)), 0.5,
                                                        1 / (1 + 1 / std::sqrt(e)), 1 / (1 + 1 / (e * e))};
        QTest::newRow("Softsign") << OpKind::Softsign << Attributes{}
                                  << std::vector<double>{-2.0 / 3, -0.5 / 1.5, 0, 0.5 / 1.5, 2.0 / 3};
        QTest::newRow("Gelu") << OpKind::Gelu << Attributes{}
                              << std::vector<double>{-2 * 0.5 * (1 + std::erf(-2 / std::sqrt(2.0))),
                                                     -0.5 * 0.5 * (1 + std::erf(-0.5 / std::sqrt(2.0))), 0,
                                                     0.5 * 0.5 * (1 + std::erf(0.5 / std::sqrt(2.0))),
                                                     2 * 0.5 * (1 + std::erf(2 / std::sqrt(2.0)))};
        QTest::newRow("Abs") << OpKind::Abs << Attributes{} << std::vector<double>{2, 0.5, 0, 0.5, 2};
        QTest::newRow("Neg") << OpKind::Neg << Attributes{} << std::vector<double>{2, 0.5, 0, -0.5, -2};
        QTest::newRow("Floor") << OpKind::Floor << Attributes{} << std::vector<double>{-2, -1, 0, 0, 2};
        QTest::newRow("Ceil") << OpKind::Ceil << Attributes{} << std::vector<double>{-2, 0, 0, 1, 2};
        QTest::newRow("Round half to even") << OpKind::Round << Attributes{} << std::vector<double>{-2, 0, 0, 0, 2};
        QTest::newRow("Sign") << OpKind::Sign << Attributes{} << std::vector<double>{-1, -1, 0, 1, 1};
    }
    void unary() {
        QFETCH(OpKind, op);
        QFETCH(Attributes, attrs);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(op, {F({5}, {-2, -0.5f, 0, 0.5f, 2})}, attrs);
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{5}, expected, 1e-6));
    }

    void broadcasting_data() {
        QTest::addColumn<OpKind>("op");
        QTest::addColumn<ir::Tensor>("a");
        QTest::addColumn<ir::Tensor>("b");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::newRow("Add row + column") << OpKind::Add << F({2, 1}, {10, 20}) << F({3}, {1, 2, 3}) << Shape{2, 3}
                                          << std::vector<double>{11, 12, 13, 21, 22, 23};
        QTest::newRow("Sub scalar") << OpKind::Sub << F({2, 2}, {1, 2, 3, 4}) << F({}, {1}) << Shape{2, 2}
                                    << std::vector<double>{0, 1, 2, 3};
        QTest::newRow("Mul channels") << OpKind::Mul << F({1, 2, 1, 2}, {1, 2, 3, 4}) << F({2, 1, 1}, {10, 100})
                                      << Shape{1, 2, 1, 2} << std::vector<double>{10, 20, 300, 400};
        QTest::newRow("Div") << OpKind::Div << F({3}, {1, 4, 9}) << F({3}, {2, 2, 3}) << Shape{3}
                             << std::vector<double>{0.5, 2, 3};
        QTest::newRow("Pow") << OpKind::Pow << F({3}, {2, 3, 4}) << F({}, {2}) << Shape{3}
                             << std::vector<double>{4, 9, 16};
        QTest::newRow("Max") << OpKind::Max << F({3}, {1, 5, 3}) << F({1}, {2}) << Shape{3}
                             << std::vector<double>{2, 5, 3};
        QTest::newRow("Less → bool") << OpKind::Less << F({3}, {1, 5, 3}) << F({1}, {3}) << Shape{3}
                                     << std::vector<double>{1, 0, 0};
        QTest::newRow("int64 Div truncates")
            << OpKind::Div << I1({7, -7, 9}) << I1({2, 2, 0}) << Shape{3} << std::vector<double>{3, -3, 0};
        QTest::newRow("int64 Mod follows divisor")
            << OpKind::Mod << I1({7, -7, 7}) << I1({3, 3, -3}) << Shape{3} << std::vector<double>{1, 2, -2};
        QTest::newRow("int64 Mul exact") << OpKind::Mul << I1({int64_t{1} << 40}) << I1({3}) << Shape{1}
                                         << std::vector<double>{static_cast<double>((int64_t{1} << 40) * 3)};
    }
    void broadcasting() {
        QFETCH(OpKind, op);
        QFETCH(ir::Tensor, a);
        QFETCH(ir::Tensor, b);
        QFETCH(Shape, shape);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(op, {a, b});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), shape, expected, 1e-6));
        const bool comparison = op == OpKind::Less;
        QCOMPARE(r->at(0).dtype(), comparison ? DType::Bool : a.dtype());
    }

    void incompatibleShapesAreInvalid() {
        auto r = evalOp(OpKind::Add, {F({2, 3}, std::vector<float>(6)), F({4}, std::vector<float>(4))});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ErrorKind::InvalidInput);
        QVERIFY(r.error().message.find("2x3") != std::string::npos);
    }

    void variadicSumAndMean() {
        auto sum = evalOp(OpKind::Sum, {F({2}, {1, 2}), F({1}, {10}), F({2}, {100, 200})});
        auto mean = evalOp(OpKind::Mean, {F({2}, {1, 2}), F({2}, {3, 6})});
        EVAL_OK(sum);
        EVAL_OK(mean);
        QVERIFY(closeTo(sum->at(0), Shape{2}, {111, 212}));
        QVERIFY(closeTo(mean->at(0), Shape{2}, {2, 4}));
    }

    void whereAndLogic() {
        ir::Tensor cond(DType::Bool, Shape{2, 1});
        cond.mutableAs<uint8_t>()[0] = 1;
        auto r = evalOp(OpKind::Where, {cond, F({3}, {1, 2, 3}), F({}, {-1})});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{2, 3}, {1, 2, 3, -1, -1, -1}));
        auto notR = evalOp(OpKind::Not, {cond});
        EVAL_OK(notR);
        QCOMPARE(notR->at(0).dtype(), DType::Bool);
        QVERIFY(closeTo(notR->at(0), Shape{2, 1}, {0, 1}));
    }

    void preluBroadcastsSlope() {
        auto r = evalOp(OpKind::PRelu, {F({1, 2, 2}, {-1, 1, -2, 2}), F({2, 1}, {0.5f, 0.25f})});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{1, 2, 2}, {-0.5, 1, -0.5, 2}));
    }

    void clipWithOptionalBounds() {
        auto both = evalOp(OpKind::Clip, {F({4}, {-5, 0, 3, 9}), F({}, {-1}), F({}, {6})});
        auto maxOnly = evalOp(OpKind::Clip, {F({4}, {-5, 0, 3, 9}), ir::Tensor(), F({}, {2})});
        EVAL_OK(both);
        EVAL_OK(maxOnly);
        QVERIFY(closeTo(both->at(0), Shape{4}, {-1, 0, 3, 6}));
        QVERIFY(closeTo(maxOnly->at(0), Shape{4}, {-5, 0, 2, 2}));
    }

    void float64AndIntegerInputsKeepTheirDtype() {
        auto d = evalOp(OpKind::Sqrt, {F({2}, {4, 9}).castTo(DType::Float64)});
        EVAL_OK(d);
        QCOMPARE(d->at(0).dtype(), DType::Float64);
        QVERIFY(closeTo(d->at(0), Shape{2}, {2, 3}));
        auto i = evalOp(OpKind::Abs, {I1({-3, 4}).castTo(DType::Int32)});
        EVAL_OK(i);
        QCOMPARE(i->at(0).dtype(), DType::Int32);
        QVERIFY(closeTo(i->at(0), Shape{2}, {3, 4}));
    }
};

QTEST_GUILESS_MAIN(TestElementwise)
#include "tst_elementwise.moc"

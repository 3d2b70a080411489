// Reductions, Softmax/LogSoftmax, ArgMax/ArgMin and normalization kernels of the reference
// interpreter against hand-computed values.
#include "op_test_util.h"

using namespace embark;
using namespace embark::test;
using ir::Attributes;
using ir::OpKind;
using ir::Shape;

class TestReduceNorm : public QObject {
    Q_OBJECT

private slots:
    void reduce_data() {
        QTest::addColumn<OpKind>("op");
        QTest::addColumn<std::vector<ir::Tensor>>("extra");
        QTest::addColumn<Attributes>("attrs");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<std::vector<double>>("expected");
        // input 2x3: {1, 2, 3, 4, 5, 6}
        QTest::newRow("mean axis 1 drop")
            << OpKind::ReduceMean << std::vector<ir::Tensor>{I1({1})} << Attributes{{"keepdims", int64_t{0}}}
            << Shape{2} << std::vector<double>{2, 5};
        QTest::newRow("sum all keep") << OpKind::ReduceSum << std::vector<ir::Tensor>{} << Attributes{} << Shape{1, 1}
                                      << std::vector<double>{21};
        QTest::newRow("sum noop") << OpKind::ReduceSum << std::vector<ir::Tensor>{}
                                  << Attributes{{"noop_with_empty_axes", int64_t{1}}} << Shape{2, 3}
                                  << std::vector<double>{1, 2, 3, 4, 5, 6};
        QTest::newRow("max axis 0") << OpKind::ReduceMax << std::vector<ir::Tensor>{I1({0})} << Attributes{}
                                    << Shape{1, 3} << std::vector<double>{4, 5, 6};
        QTest::newRow("min axis -1") << OpKind::ReduceMin << std::vector<ir::Tensor>{I1({-1})} << Attributes{}
                                     << Shape{2, 1} << std::vector<double>{1, 4};
        QTest::newRow("prod axis 1") << OpKind::ReduceProd << std::vector<ir::Tensor>{I1({1})} << Attributes{}
                                     << Shape{2, 1} << std::vector<double>{6, 120};
    }
    void reduce() {
        QFETCH(OpKind, op);
        QFETCH(std::vector<ir::Tensor>, extra);
        QFETCH(Attributes, attrs);
        QFETCH(Shape, shape);
        QFETCH(std::vector<double>, expected);
        std::vector<ir::Tensor> inputs{F({2, 3}, {1, 2, 3, 4, 5, 6})};
        inputs.insert(inputs.end(), extra.begin(), extra.end());
        auto r = evalOp(op, inputs, attrs);
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), shape, expected));
    }

    void argMaxMin() {
        const ir::Tensor x = F({2, 3}, {1, 3, 3, 7, 0, 0});
        auto first = evalOp(OpKind::ArgMax, {x}, {{"axis", int64_t{1}}});
        auto last = evalOp(OpKind::ArgMax, {x}, {{"axis", int64_t{1}}, {"select_last_index", int64_t{1}}});
        auto minDrop = evalOp(OpKind::ArgMin, {x}, {{"axis", int64_t{1}}, {"keepdims", int64_t{0}}});
        EVAL_OK(first);
        EVAL_OK(last);
        EVAL_OK(minDrop);
        QCOMPARE(first->at(0).dtype(), ir::DType::Int64);
        QVERIFY(closeTo(first->at(0), Shape{2, 1}, {1, 0}));
        QVERIFY(closeTo(last->at(0), Shape{2, 1}, {2, 0}));
        QVERIFY(closeTo(minDrop->at(0), Shape{2}, {0, 1}));
    }

    void softmax() {
        const float ln2 = static_cast<float>(std::log(2.0));
        auto s = evalOp(OpKind::Softmax, {F({2, 2}, {0, ln2, 0, 0})});
        EVAL_OK(s);
        QVERIFY(closeTo(s->at(0), Shape{2, 2}, {1 / 3., 2 / 3., 0.5, 0.5}));
        auto axis0 = evalOp(OpKind::Softmax, {F({2, 1}, {0, ln2})}, {{"axis", int64_t{0}}});
        EVAL_OK(axis0);
        QVERIFY(closeTo(axis0->at(0), Shape{2, 1}, {1 / 3., 2 / 3.}));
        auto log = evalOp(OpKind::LogSoftmax, {F({1, 2}, {0, ln2})});
        EVAL_OK(log);
        QVERIFY(closeTo(log->at(0), Shape{1, 2}, {std::log(1 / 3.), std::log(2 / 3.)}));
        auto big = evalOp(OpKind::Softmax, {F({2}, {1000, 1000})}); // no overflow
        QVERIFY(closeTo(big->at(0), Shape{2}, {0.5, 0.5}));
    }

    void batchNormalization() {
        auto r = evalOp(OpKind::BatchNormalization,
                        {F({1, 2, 1, 1}, {1, 2}), F({2}, {2, 3}), F({2}, {0.5f, 1}), F({2}, {0, 1}), F({2}, {1, 4})},
                        {{"epsilon", 0.f}});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{1, 2, 1, 1}, {2.5, 2.5}));
        // Training mode: batch statistics (mean 2, variance 1) normalise; the running ones move
        // by 1 - momentum towards them.
        auto training = evalOp(OpKind::BatchNormalization,
                               {F({2, 1, 1, 1}, {1, 3}), F({1}, {1}), F({1}, {0}), F({1}, {0}), F({1}, {1})},
                               {{"training_mode", int64_t{1}}, {"epsilon", 0.f}}, 3);
        EVAL_OK(training);
        QVERIFY(closeTo(training->at(0), Shape{2, 1, 1, 1}, {-1, 1}));
        QVERIFY(closeTo(training->at(1), Shape{1}, {0.2}));
        QVERIFY(closeTo(training->at(2), Shape{1}, {1.0}));
    }

    void instanceAndLayerNormalization() {
        const double s = std::sqrt(1.5); // (x - 2) / sqrt(2/3)
        auto inst = evalOp(OpKind::InstanceNormalization, {F({1, 1, 3}, {1, 2, 3}), F({1}, {1}), F({1}, {0})},
                           {{"epsilon", 0.f}});
        EVAL_OK(inst);
        QVERIFY(closeTo(inst->at(0), Shape{1, 1, 3}, {-s, 0, s}));
        auto layer =
            evalOp(OpKind::LayerNormalization, {F({2, 3}, {1, 2, 3, 2, 4, 6}), F({3}, {1, 1, 2}), F({3}, {0, 0, 1})},
                   {{"epsilon", 0.f}}, 3);
        EVAL_OK(layer);
        QVERIFY(closeTo(layer->at(0), Shape{2, 3}, {-s, 0, 2 * s + 1, -s, 0, 2 * s + 1}));
        QVERIFY(closeTo(layer->at(1), Shape{2, 1}, {2, 4}));
    }

    void lrn() {
        auto r = evalOp(OpKind::LRN, {F({1, 3, 1, 1}, {1, 2, 3})},
                        {{"size", int64_t{3}}, {"alpha", 3.f}, {"beta", 1.f}, {"bias", 1.f}});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{1, 3, 1, 1}, {1 / 6., 2 / 15., 3 / 14.}));
    }
};

QTEST_GUILESS_MAIN(TestReduceNorm)
#include "tst_reduce_norm.moc"

// Conv, ConvTranspose, Gemm and MatMul of the reference interpreter against hand-computed
// values (the ONNX operator documentation's worked examples where there is one).
#include "op_test_util.h"

#include "ir/fused.h"

using namespace embark;
using namespace embark::test;
using ir::Attributes;
using ir::OpKind;
using ir::Shape;

namespace {
std::vector<float> iota(int n, float start = 0) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + static_cast<float>(i);
    return v;
}
} // namespace

class TestConv : public QObject {
    Q_OBJECT

private slots:
    void conv2dOnes_data() {
        QTest::addColumn<Attributes>("attrs");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<std::vector<double>>("expected");
        using V = std::vector<int64_t>;
        QTest::newRow("valid") << Attributes{} << Shape{1, 1, 3, 3}
                               << std::vector<double>{54, 63, 72, 99, 108, 117, 144, 153, 162};
        QTest::newRow("pad1") << Attributes{{"pads", V{1, 1, 1, 1}}} << Shape{1, 1, 5, 5}
                              << std::vector<double>{12,  21, 27, 33,  24,  33,  54,  63, 72,  51,  63,  99, 108,
                                                     117, 81, 93, 144, 153, 162, 111, 72, 111, 117, 123, 84};
        QTest::newRow("stride2 pad1") << Attributes{{"pads", V{1, 1, 1, 1}}, {"strides", V{2, 2}}} << Shape{1, 1, 3, 3}
                                      << std::vector<double>{12, 27, 24, 63, 108, 81, 72, 117, 84};
        QTest::newRow("same_upper stride2")
            << Attributes{{"auto_pad", std::string("SAME_UPPER")}, {"strides", V{2, 2}}} << Shape{1, 1, 3, 3}
            << std::vector<double>{12, 27, 24, 63, 108, 81, 72, 117, 84};
        QTest::newRow("asymmetric pads") << Attributes{{"pads", V{1, 0, 0, 0}}} << Shape{1, 1, 4, 3}
                                         << std::vector<double>{21, 27, 33, 54, 63, 72, 99, 108, 117, 144, 153, 162};
    }
    void conv2dOnes() {
        QFETCH(Attributes, attrs);
        QFETCH(Shape, shape);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(OpKind::Conv, {F({1, 1, 5, 5}, iota(25)), F({1, 1, 3, 3}, std::vector<float>(9, 1.f))}, attrs);
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), shape, expected));
    }

    void sameLowerVersusUpper() {
        const ir::Tensor x = F({1, 1, 4, 4}, iota(16)), w = F({1, 1, 2, 2}, {1, 1, 1, 1});
        auto upper = evalOp(OpKind::Conv, {x, w}, {{"auto_pad", std::string("SAME_UPPER")}});
        auto lower = evalOp(OpKind::Conv, {x, w}, {{"auto_pad", std::string("SAME_LOWER")}});
        EVAL_OK(upper);
        EVAL_OK(lower);
        QCOMPARE(upper->at(0).shape(), (Shape{1, 1, 4, 4}));
        QCOMPARE(upper->at(0).at(0), 10.0); // 0+1+4+5, the padding is at the end
        QCOMPARE(upper->at(0).at(15), 15.0);
        QCOMPARE(lower->at(0).at(0), 0.0);   // the padding is at the start
        QCOMPARE(lower->at(0).at(15), 50.0); // 10+11+14+15
    }

    void dilations() {
        auto r = evalOp(OpKind::Conv, {F({1, 1, 5, 5}, iota(25)), F({1, 1, 2, 2}, {1, 1, 1, 1})},
                        {{"dilations", std::vector<int64_t>{2, 2}}});
        EVAL_OK(r);
        std::vector<double> expected;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) expected.push_back(20 * i + 4 * j + 24);
        QVERIFY(closeTo(r->at(0), Shape{1, 1, 3, 3}, expected));
    }

    void groupsAndBias() {
        auto r = evalOp(OpKind::Conv, {F({1, 2, 1, 2}, {1, 2, 3, 4}), F({2, 1, 1, 1}, {2, 3}), F({2}, {1, -1})},
                        {{"group", int64_t{2}}});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{1, 2, 1, 2}, {3, 5, 8, 11}));
    }

    void depthwiseMatchesGroupedGemm() {
        // Depthwise takes a direct loop; the same conv with two input channels per group
        // (second channel zero weight) takes im2col + GEMM. Both must agree.
        const ir::Tensor x = randomTensor({1, 4, 6, 6}, 3);
        const ir::Tensor w = randomTensor({4, 1, 3, 3}, 4);
        auto direct = evalOp(OpKind::Conv, {x, w}, {{"group", int64_t{4}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}});
        std::vector<float> wide(4 * 2 * 9, 0.f), xs = x.toFloatVector(), wv = w.toFloatVector();
        std::vector<float> xWide;
        for (int c = 0; c < 4; ++c) {
            xWide.insert(xWide.end(), xs.begin() + c * 36, xs.begin() + (c + 1) * 36);
            xWide.insert(xWide.end(), 36, 5.f);
            for (int k = 0; k < 9; ++k) wide[static_cast<size_t>(c * 18 + k)] = wv[static_cast<size_t>(c * 9 + k)];
        }
        auto viaGemm = evalOp(OpKind::Conv, {F({1, 8, 6, 6}, xWide), F({4, 2, 3, 3}, wide)},
                              {{"group", int64_t{4}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}});
        EVAL_OK(direct);
        EVAL_OK(viaGemm);
        QVERIFY(relativeMaxDiff(direct->at(0), viaGemm->at(0)) < 1e-6);
    }

    void conv1dWithFusedRelu() {
        auto plain = evalOp(OpKind::Conv, {F({1, 1, 5}, {1, 2, 3, 4, 5}), F({1, 1, 3}, {1, 0, -1})});
        EVAL_OK(plain);
        QVERIFY(closeTo(plain->at(0), Shape{1, 1, 3}, {-2, -2, -2}));
        Attributes relu{{ir::kActivation, std::string("Relu")}};
        auto fused = evalOp(OpKind::Conv, {F({1, 1, 5}, {1, 2, 3, 4, 5}), F({1, 1, 3}, {1, 0, -1})}, relu);
        EVAL_OK(fused);
        QVERIFY(closeTo(fused->at(0), Shape{1, 1, 3}, {0, 0, 0}));
    }

    void conv3d() {
        auto r = evalOp(OpKind::Conv, {F({1, 1, 2, 2, 2}, iota(8)), F({1, 1, 2, 2, 2}, std::vector<float>(8, 1.f))});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{1, 1, 1, 1, 1}, {28}));
    }

    void convRejectsMismatchedChannels() {
        auto r =
            evalOp(OpKind::Conv, {F({1, 3, 4, 4}, std::vector<float>(48)), F({1, 2, 3, 3}, std::vector<float>(18))});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ErrorKind::InvalidInput);
        QVERIFY(r.error().message.find("node 'node' (Conv)") != std::string::npos);
    }

    void convTranspose_data() {
        QTest::addColumn<Attributes>("attrs");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::newRow("plain") << Attributes{} << Shape{1, 1, 5, 5}
                               << std::vector<double>{0,  1,  3, 3,  2,  3,  8,  15, 12, 7,  9,  21, 36,
                                                      27, 15, 9, 20, 33, 24, 13, 6,  13, 21, 15, 8};
        QTest::newRow("pads") << Attributes{{"pads", std::vector<int64_t>{1, 1, 1, 1}}} << Shape{1, 1, 3, 3}
                              << std::vector<double>{8, 15, 12, 21, 36, 27, 20, 33, 24};
        QTest::newRow("output_shape") << Attributes{{"output_shape", std::vector<int64_t>{3, 3}}} << Shape{1, 1, 3, 3}
                                      << std::vector<double>{8, 15, 12, 21, 36, 27, 20, 33, 24};
        QTest::newRow("stride2 output_padding")
            << Attributes{{"strides", std::vector<int64_t>{2, 2}},
                          {"output_padding", std::vector<int64_t>{1, 1}},
                          {"pads", std::vector<int64_t>{1, 1, 1, 1}}}
            << Shape{1, 1, 6, 6} << std::vector<double>{0, 1,  1,  3,  2,  2,  3, 8,  5, 12, 7, 7, 3, 7,  4, 9,  5, 5,
                                                        9, 20, 11, 24, 13, 13, 6, 13, 7, 15, 8, 8, 6, 13, 7, 15, 8, 8};
    }
    void convTranspose() {
        QFETCH(Attributes, attrs);
        QFETCH(Shape, shape);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(OpKind::ConvTranspose, {F({1, 1, 3, 3}, iota(9)), F({1, 1, 3, 3}, std::vector<float>(9, 1.f))},
                        attrs);
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), shape, expected));
    }

    void gemm_data() {
        QTest::addColumn<bool>("transA");
        QTest::addColumn<bool>("transB");
        QTest::newRow("plain") << false << false;
        QTest::newRow("transA") << true << false;
        QTest::newRow("transB") << false << true;
        QTest::newRow("both") << true << true;
    }
    void gemm() {
        QFETCH(bool, transA);
        QFETCH(bool, transB);
        const ir::Tensor a = transA ? F({3, 2}, {1, 4, 2, 5, 3, 6}) : F({2, 3}, {1, 2, 3, 4, 5, 6});
        const ir::Tensor b = transB ? F({2, 3}, {1, 3, 5, 2, 4, 6}) : F({3, 2}, {1, 2, 3, 4, 5, 6});
        auto r = evalOp(OpKind::Gemm, {a, b, F({2}, {1, 2})},
                        {{"transA", int64_t{transA}}, {"transB", int64_t{transB}}, {"alpha", 2.f}, {"beta", 1.f}});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), Shape{2, 2}, {45, 58, 99, 130}));
    }

    void matmul_data() {
        QTest::addColumn<ir::Tensor>("a");
        QTest::addColumn<ir::Tensor>("b");
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::newRow("vector.vector") << F({3}, {1, 2, 3}) << F({3}, {4, 5, 6}) << Shape{} << std::vector<double>{32};
        QTest::newRow("matrix.vector") << F({2, 3}, {1, 2, 3, 4, 5, 6}) << F({3}, {1, 2, 3}) << Shape{2}
                                       << std::vector<double>{14, 32};
        QTest::newRow("vector.matrix") << F({2}, {1, 1}) << F({2, 3}, {1, 2, 3, 4, 5, 6}) << Shape{3}
                                       << std::vector<double>{5, 7, 9};
        QTest::newRow("batched broadcast")
            << F({2, 1, 2}, {1, 2, 3, 4}) << F({2, 1}, {1, 1}) << Shape{2, 1, 1} << std::vector<double>{3, 7};
    }
    void matmul() {
        QFETCH(ir::Tensor, a);
        QFETCH(ir::Tensor, b);
        QFETCH(Shape, shape);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(OpKind::MatMul, {a, b});
        EVAL_OK(r);
        QVERIFY(closeTo(r->at(0), shape, expected));
    }

    void largeGemmAccumulatesInDouble() {
        // 1 + 1e-8 * k summed over K=3000 terms: float accumulation would lose the small
        // terms, double accumulation keeps them.
        const int64_t K = 3000;
        std::vector<float> a(static_cast<size_t>(K), 1.f), b(static_cast<size_t>(K));
        for (int64_t k = 0; k < K; ++k) b[static_cast<size_t>(k)] = k == 0 ? 1e8f : 1.f;
        auto r = evalOp(OpKind::MatMul, {F({1, K}, a), F({K, 1}, b)});
        EVAL_OK(r);
        QCOMPARE(r->at(0).as<float>()[0], static_cast<float>(1e8 + (K - 1)));
    }
};

QTEST_GUILESS_MAIN(TestConv)
#include "tst_conv.moc"

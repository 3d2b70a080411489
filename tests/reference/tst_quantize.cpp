// The reference's quantization kernels on hand-computed cases: round half to even and
// saturation of QuantizeLinear (int8, uint8, per tensor and per axis), DequantizeLinear per
// axis, DynamicQuantizeLinear of an all-zero input, exact int32 sums beyond float32's 2^24
// (MatMulInteger, ConvInteger with per-channel weight zero points), QLinearMatMul with
// per-row scales, and the InvalidInput errors for broken scales. Integers compare with ==.
#include "op_test_util.h"

#include <cstring>

using namespace embark;
using namespace embark::test;
using ir::DType;
using ir::OpKind;

namespace {
template <typename T>
ir::Tensor ints(DType dtype, ir::Shape shape, const std::vector<T>& v) {
    return ir::Tensor::fromBytes(dtype, std::move(shape), v.data(), v.size() * sizeof(T));
}
ir::Tensor i8(ir::Shape s, const std::vector<int8_t>& v) { return ints(DType::Int8, std::move(s), v); }
ir::Tensor u8(ir::Shape s, const std::vector<uint8_t>& v) { return ints(DType::UInt8, std::move(s), v); }

std::vector<int64_t> values(const ir::Tensor& t) { return t.toInt64Vector(); }
} // namespace

class TestQuantize : public QObject {
    Q_OBJECT
private slots:
    void quantizeLinear_data() {
        QTest::addColumn<ir::Tensor>("x");
        QTest::addColumn<ir::Tensor>("scale");
        QTest::addColumn<ir::Tensor>("zeroPoint");
        QTest::addColumn<int>("axis");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<std::vector<double>>("expected");
        const ir::Tensor x = F({6}, {0.5f, 1.5f, 2.5f, -0.5f, 300.f, -10.f});
        QTest::newRow("uint8 half to even, saturated")
            << x << F({}, {1.f}) << u8({}, {0}) << 1 << int(DType::UInt8) << std::vector<double>{0, 2, 2, 0, 255, 0};
        QTest::newRow("uint8 zero point 128") << x << F({}, {1.f}) << u8({}, {128}) << 1 << int(DType::UInt8)
                                              << std::vector<double>{128, 130, 130, 128, 255, 118};
        QTest::newRow("int8 saturated both ways")
            << F({4}, {-129.5f, 127.5f, -2.5f, 3.5f}) << F({}, {1.f}) << i8({}, {0}) << 1 << int(DType::Int8)
            << std::vector<double>{-128, 127, -2, 4};
        QTest::newRow("no zero point is uint8") << F({3}, {-1.f, 1.f, 1000.f}) << F({}, {0.5f}) << ir::Tensor() << 1
                                                << int(DType::UInt8) << std::vector<double>{0, 2, 255};
        // Per axis 1 of [2,3]: scales 1, 2, 4 and zero points 0, 1, -1.
        QTest::newRow("int8 per axis") << F({2, 3}, {1.f, 3.f, 10.f, -1.f, -5.f, 1000.f}) << F({3}, {1.f, 2.f, 4.f})
                                       << i8({3}, {0, 1, -1}) << 1 << int(DType::Int8)
                                       << std::vector<double>{1, 3, 1, -1, -1, 127};
        QTest::newRow("per axis, negative axis")
            << F({2, 2}, {2.f, 2.f, 2.f, 2.f}) << F({2}, {1.f, 4.f}) << u8({2}, {0, 10}) << -1 << int(DType::UInt8)
            << std::vector<double>{2, 10, 2, 10};
    }
    void quantizeLinear() {
        QFETCH(ir::Tensor, x);
        QFETCH(ir::Tensor, scale);
        QFETCH(ir::Tensor, zeroPoint);
        QFETCH(int, axis);
        QFETCH(int, dtype);
        QFETCH(std::vector<double>, expected);
        auto r = evalOp(OpKind::QuantizeLinear, {x, scale, zeroPoint}, {{"axis", int64_t(axis)}});
        EVAL_OK(r);
        QCOMPARE(int((*r)[0].dtype()), dtype);
        QCOMPARE((*r)[0].shape(), x.shape());
        std::vector<int64_t> want(expected.begin(), expected.end());
        QCOMPARE(values((*r)[0]), want);
    }

    void dequantizeLinearPerAxis() {
        // axis 0 of [2,2]: (x - zp[row]) * scale[row]
        auto r =
            evalOp(OpKind::DequantizeLinear, {u8({2, 2}, {0, 255, 10, 20}), F({2}, {0.5f, 2.f}), u8({2}, {128, 10})},
                   {{"axis", int64_t(0)}});
        EVAL_OK(r);
        QCOMPARE((*r)[0].dtype(), DType::Float32);
        QCOMPARE((*r)[0].toFloatVector(), (std::vector<float>{-64.f, 63.5f, 0.f, 20.f}));
        auto i32 = evalOp(OpKind::DequantizeLinear, {ints<int32_t>(DType::Int32, {2}, {-7, 1 << 20}), F({}, {0.25f})});
        EVAL_OK(i32);
        QCOMPARE((*i32)[0].toFloatVector(), (std::vector<float>{-1.75f, 262144.f}));
    }

    void dynamicQuantizeLinearOfZeros() {
        auto r = evalOp(OpKind::DynamicQuantizeLinear, {F({3}, {0.f, 0.f, 0.f})}, {}, 3);
        EVAL_OK(r);
        QCOMPARE((*r)[0].dtype(), DType::UInt8);
        QCOMPARE(values((*r)[0]), (std::vector<int64_t>{0, 0, 0}));
        QCOMPARE((*r)[1].at(0), 0.0);
        QCOMPARE(values((*r)[2]), (std::vector<int64_t>{0}));
    }

    // 255 * 255 * 4099 = 266537475 is odd and above 2^24: float32 cannot hold it, int32 can.
    void matmulIntegerSumsExactly() {
        const int64_t k = 4099;
        auto r = evalOp(OpKind::MatMulInteger,
                        {u8({1, k}, std::vector<uint8_t>(k, 255)), u8({k, 1}, std::vector<uint8_t>(k, 255))});
        EVAL_OK(r);
        QCOMPARE((*r)[0].dtype(), DType::Int32);
        QCOMPARE(values((*r)[0]), (std::vector<int64_t>{266537475}));
        // Per-row a and per-column b zero points.
        auto z = evalOp(OpKind::MatMulInteger,
                        {u8({2, 2}, {1, 2, 3, 4}), u8({2, 2}, {5, 6, 7, 8}), u8({2}, {1, 3}), u8({2}, {5, 6})});
        EVAL_OK(z);
        // A - [1;3] = [[0,1],[0,1]], B - [5,6] = [[0,0],[2,2]]
        QCOMPARE(values((*z)[0]), (std::vector<int64_t>{2, 2, 2, 2}));
    }

    // ConvInteger with a zero point per output channel equals Conv on the centred values.
    void convIntegerPerChannelZeroPoint() {
        std::vector<int8_t> x(1 * 2 * 4 * 4), w(3 * 2 * 3 * 3);
        for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int8_t>(int(i * 29 % 256) - 128);
        for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(int(i * 53 % 256) - 128);
        const std::vector<int8_t> wZp{0, 5, -7};
        const ir::Attributes attrs{{"pads", std::vector<int64_t>{1, 1, 1, 1}}};
        auto r =
            evalOp(OpKind::ConvInteger, {i8({1, 2, 4, 4}, x), i8({3, 2, 3, 3}, w), i8({}, {3}), i8({3}, wZp)}, attrs);
        EVAL_OK(r);
        QCOMPARE((*r)[0].dtype(), DType::Int32);
        std::vector<float> xf(x.size()), wf(w.size());
        for (size_t i = 0; i < x.size(); ++i) xf[i] = float(x[i] - 3);
        for (size_t i = 0; i < w.size(); ++i) wf[i] = float(w[i] - wZp[i / 18]);
        auto f = evalOp(OpKind::Conv, {F({1, 2, 4, 4}, xf), F({3, 2, 3, 3}, wf)}, attrs);
        EVAL_OK(f);
        QCOMPARE((*r)[0].shape(), (*f)[0].shape());
        for (int64_t i = 0; i < (*f)[0].numel(); ++i) QCOMPARE((*r)[0].intAt(i), static_cast<int64_t>((*f)[0].at(i)));
    }

    // y[i][j] = round(sum * a_scale[i] * b_scale / y_scale) + y_zp, per row of a.
    void qlinearMatMulPerRowScale() {
        auto r = evalOp(OpKind::QLinearMatMul, {i8({2, 1}, {10, 10}), F({2}, {1.f, 0.25f}), i8({2}, {0, 0}),
                                                i8({1, 1}, {3}), F({}, {1.f}), i8({}, {0}), F({}, {2.f}), i8({}, {1})});
        EVAL_OK(r);
        QCOMPARE((*r)[0].dtype(), DType::Int8);
        // 30 * 1 / 2 = 15 -> 16; 30 * 0.25 / 2 = 3.75 -> 4 -> 5
        QCOMPARE(values((*r)[0]), (std::vector<int64_t>{16, 5}));
    }

    void brokenScalesAreInvalid_data() {
        QTest::addColumn<ir::Tensor>("scale");
        QTest::addColumn<ir::Tensor>("zeroPoint");
        QTest::newRow("zero") << F({}, {0.f}) << ir::Tensor();
        QTest::newRow("negative per axis") << F({2}, {1.f, -1.f}) << ir::Tensor();
        QTest::newRow("NaN") << F({}, {NAN}) << ir::Tensor();
        QTest::newRow("length does not match the axis") << F({3}, {1.f, 1.f, 1.f}) << ir::Tensor();
        QTest::newRow("zero point of another length") << F({2}, {1.f, 1.f}) << u8({}, {0});
        QTest::newRow("2-D scale") << F({1, 2}, {1.f, 1.f}) << ir::Tensor();
    }
    void brokenScalesAreInvalid() {
        QFETCH(ir::Tensor, scale);
        QFETCH(ir::Tensor, zeroPoint);
        auto r = evalOp(OpKind::QuantizeLinear, {F({2, 2}, {1.f, 2.f, 3.f, 4.f}), scale, zeroPoint});
        QVERIFY(!r);
        QCOMPARE(r.error().kind, ErrorKind::InvalidInput);
        QVERIFY2(r.error().message.find("node 'node' (QuantizeLinear)") != std::string::npos,
                 r.error().message.c_str());
    }

    void unsupportedTypesAreNamed() {
        auto r = evalOp(OpKind::ConvInteger, {F({1, 1, 2, 2}, {1.f, 2.f, 3.f, 4.f}), i8({1, 1, 1, 1}, {1})});
        QVERIFY(!r);
        QCOMPARE(r.error().kind, ErrorKind::Unsupported);
        QVERIFY2(r.error().message.find("float32") != std::string::npos, r.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestQuantize)
#include "tst_quantize.moc"

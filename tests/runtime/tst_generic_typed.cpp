// The generic typed kernels (runtime/generic/typed.h) against the ONNX spec written out
// plainly: casts (float16 rounding, truncation toward zero, bool), gathers by run-time int32
// and int64 indices, and the integer ops of dynamic quantization with exact int32 sums and
// round-half-to-even, including the spec's own DynamicQuantizeLinear examples.
#include "typed.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

namespace eg = embark::generic;
using eg::ElemType;

namespace {

// ONNX DynamicQuantizeLinear as its spec states it, in float32 with rint (half to even).
void plainDynamicQuantize(const std::vector<float>& x, std::vector<uint8_t>& y, float& scale, uint8_t& zp) {
    float lo = 0, hi = 0;
    for (float v : x) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    scale = (hi - lo) / 255.f;
    const float z = std::rint(std::min(255.f, std::max(0.f, 0.f - lo / scale)));
    zp = static_cast<uint8_t>(z);
    y.clear();
    for (float v : x) y.push_back(static_cast<uint8_t>(std::min(255.f, std::max(0.f, std::rint(v / scale) + z))));
}

} // namespace

class TestGenericTyped : public QObject {
    Q_OBJECT

private slots:
    // The three examples of the ONNX operator documentation.
    void dynamicQuantizeSpecExamples_data() {
        QTest::addColumn<std::vector<float>>("x");
        QTest::addColumn<float>("scale");
        QTest::addColumn<int>("zeroPoint");
        QTest::addColumn<std::vector<int>>("y");
        QTest::newRow("basic") << std::vector<float>{0, 2, -3, -2.5f, 1.34f, 0.5f} << 0.0196078438f << 153
                               << std::vector<int>{153, 255, 0, 26, 221, 179};
        QTest::newRow("max adjusted") << std::vector<float>{-1.0f, -2.1f, -1.3f, -2.5f, -3.34f, -4.0f} << 0.0156862754f
                                      << 255 << std::vector<int>{191, 121, 172, 96, 42, 0};
        QTest::newRow("min adjusted") << std::vector<float>{1,    2.1f, 1.3f, 2.5f, 3.34f, 4.0f,
                                                            1.5f, 2.6f, 3.9f, 4.0f, 3.0f,  2.345f}
                                      << 0.0156862754f << 0
                                      << std::vector<int>{64, 134, 83, 159, 213, 255, 96, 166, 249, 255, 191, 149};
    }
    void dynamicQuantizeSpecExamples() {
        QFETCH(std::vector<float>, x);
        QFETCH(float, scale);
        QFETCH(int, zeroPoint);
        QFETCH(std::vector<int>, y);
        std::vector<uint8_t> got(x.size());
        float s = 0;
        uint8_t z = 0;
        eg::dynamicQuantizeLinear(x.data(), static_cast<int64_t>(x.size()), got.data(), &s, &z);
        QCOMPARE(s, scale);
        QCOMPARE(int(z), zeroPoint);
        for (size_t i = 0; i < y.size(); ++i) QCOMPARE(int(got[i]), y[i]);
    }

    // Ties round to even: with scale 1/255 * 255 = 1 exactly, x = 0.5 and 2.5 sit on ties.
    void dynamicQuantizeRoundsHalfToEven() {
        std::vector<float> x{0.f, 255.f, 0.5f, 1.5f, 2.5f, 3.5f};
        std::vector<uint8_t> y(x.size());
        float s = 0;
        uint8_t z = 0;
        eg::dynamicQuantizeLinear(x.data(), 6, y.data(), &s, &z);
        QCOMPARE(s, 1.f);
        QCOMPARE(int(z), 0);
        const int want[] = {0, 255, 0, 2, 2, 4};
        for (int i = 0; i < 6; ++i) QCOMPARE(int(y[size_t(i)]), want[i]);
        // All zeros: scale 0, every value the zero point 0.
        std::vector<float> zeros(5, 0.f);
        eg::dynamicQuantizeLinear(zeros.data(), 5, y.data(), &s, &z);
        QCOMPARE(s, 0.f);
        QCOMPARE(int(z), 0);
    }

    void dynamicQuantizeMatchesThePlainSpec() {
        std::mt19937 rng(7);
        std::normal_distribution<float> dist(0.3f, 2.f);
        for (int round = 0; round < 20; ++round) {
            std::vector<float> x(257);
            for (float& v : x) v = dist(rng);
            std::vector<uint8_t> got(x.size()), want;
            float s = 0, ws = 0;
            uint8_t z = 0, wz = 0;
            eg::dynamicQuantizeLinear(x.data(), int64_t(x.size()), got.data(), &s, &z);
            plainDynamicQuantize(x, want, ws, wz);
            QCOMPARE(s, ws);
            QCOMPARE(z, wz);
            QVERIFY(got == want);
        }
    }

    // MatMulInteger: int32 sums of centred operands, per-row a and per-column b zero points,
    // broadcast batches; uint8 x int8 with sums past 2^24 stay exact.
    void matmulIntegerIsExact() {
        const int64_t B = 2, M = 3, K = 700, N = 5;
        std::mt19937 rng(3);
        std::vector<uint8_t> a(size_t(B * M * K));
        std::vector<int8_t> b(size_t(K * N));
        for (auto& v : a) v = uint8_t(rng() % 256);
        for (auto& v : b) v = int8_t(int(rng() % 256) - 128);
        a[0] = 255;
        b[0] = -128;
        const uint8_t az[] = {3, 200, 17};
        const int8_t bz[] = {-5, 0, 7, 100, -128};
        std::vector<int32_t> out(size_t(B * M * N));
        eg::matmulInteger(a.data(), ElemType::UInt8, eg::Shape{3, {B, M, K}}, b.data(), ElemType::Int8,
                          eg::Shape{2, {K, N}}, az, 3, bz, 5, out.data());
        for (int64_t bt = 0; bt < B; ++bt)
            for (int64_t m = 0; m < M; ++m)
                for (int64_t n = 0; n < N; ++n) {
                    int64_t acc = 0;
                    for (int64_t k = 0; k < K; ++k)
                        acc += (int64_t(a[size_t((bt * M + m) * K + k)]) - az[m]) *
                               (int64_t(b[size_t(k * N + n)]) - bz[n]);
                    QCOMPARE(int64_t(out[size_t((bt * M + m) * N + n)]), acc);
                }
        // Scalar zero points and none.
        eg::matmulInteger(a.data(), ElemType::UInt8, eg::Shape{2, {M, K}}, b.data(), ElemType::Int8,
                          eg::Shape{2, {K, N}}, az, 1, nullptr, 0, out.data());
        int64_t acc = 0;
        for (int64_t k = 0; k < K; ++k) acc += (int64_t(a[size_t(k)]) - az[0]) * int64_t(b[size_t(k * N)]);
        QCOMPARE(int64_t(out[0]), acc);
    }

    // ConvInteger with padding (a padded element contributes zero, whatever the zero points),
    // stride and per-channel weight zero points, against the sums written out.
    void convIntegerMatchesPlainSums() {
        eg::ConvNd p;
        p.spatial = 2;
        p.batch = 1, p.inC = 2, p.outC = 3, p.groups = 1;
        p.in[0] = 5, p.in[1] = 4;
        p.kernel[0] = 3, p.kernel[1] = 2;
        p.stride[0] = 2, p.stride[1] = 1;
        p.pads[0] = 1, p.pads[1] = 0, p.pads[3] = 1, p.pads[4] = 1; // top, left / bottom, right
        p.out[0] = (5 + 2 - 3) / 2 + 1, p.out[1] = (4 + 1 - 2) / 1 + 1;
        std::mt19937 rng(11);
        std::vector<uint8_t> x(2 * 5 * 4), w(3 * 2 * 3 * 2);
        for (auto& v : x) v = uint8_t(rng() % 256);
        for (auto& v : w) v = uint8_t(rng() % 256);
        const uint8_t xz = 120, wz[] = {1, 128, 255};
        std::vector<int32_t> y(size_t(3 * p.out[0] * p.out[1]));
        eg::convInteger(p, x.data(), ElemType::UInt8, w.data(), ElemType::UInt8, &xz, wz, 3, y.data());
        for (int64_t oc = 0; oc < 3; ++oc)
            for (int64_t oy = 0; oy < p.out[0]; ++oy)
                for (int64_t ox = 0; ox < p.out[1]; ++ox) {
                    int64_t acc = 0;
                    for (int64_t ic = 0; ic < 2; ++ic)
                        for (int64_t ky = 0; ky < 3; ++ky)
                            for (int64_t kx = 0; kx < 2; ++kx) {
                                const int64_t iy = oy * 2 - 1 + ky, ix = ox - 0 + kx;
                                if (iy < 0 || iy >= 5 || ix < 0 || ix >= 4) continue;
                                acc += (int64_t(x[size_t((ic * 5 + iy) * 4 + ix)]) - xz) *
                                       (int64_t(w[size_t(((oc * 2 + ic) * 3 + ky) * 2 + kx)]) - wz[oc]);
                            }
                    QCOMPARE(int64_t(y[size_t((oc * p.out[0] + oy) * p.out[1] + ox)]), acc);
                }
    }

    void castFollowsOnnx() {
        const float f[] = {1.7f, -2.5f, 0.f, 65504.f, 1e-8f, 0.1f, -0.f, 3.f};
        int64_t i64[8];
        eg::cast(f, ElemType::Float32, i64, ElemType::Int64, 8);
        const int64_t wantI[] = {1, -2, 0, 65504, 0, 0, 0, 3};
        for (int i = 0; i < 8; ++i) QCOMPARE(i64[i], wantI[i]);
        uint8_t b[8];
        eg::cast(f, ElemType::Float32, b, ElemType::Bool, 8);
        const uint8_t wantB[] = {1, 1, 0, 1, 1, 1, 0, 1};
        for (int i = 0; i < 8; ++i) QCOMPARE(b[i], wantB[i]);
        // float16: 0.1 rounds to 0x2e66, 65504 is the largest half, 1e-8 underflows to 0.
        uint16_t h[8];
        eg::cast(f, ElemType::Float32, h, ElemType::Float16, 8);
        QCOMPARE(h[5], uint16_t(0x2e66));
        QCOMPARE(h[3], uint16_t(0x7bff));
        QCOMPARE(h[4], uint16_t(0));
        QCOMPARE(h[6], uint16_t(0x8000));
        float back[8];
        eg::cast(h, ElemType::Float16, back, ElemType::Float32, 8);
        QCOMPARE(back[5], 0.0999755859375f);
        QCOMPARE(back[1], -2.5f);
        // Every half round-trips through float.
        for (uint32_t bits = 0; bits < 0x10000; ++bits) {
            const float v = eg::halfToFloat(uint16_t(bits));
            if (std::isnan(v)) continue;
            QCOMPARE(eg::floatToHalf(v), uint16_t(bits));
        }
        // Large int64 values convert to float exactly as a C++ conversion does.
        const int64_t big[] = {(int64_t(1) << 40) + 1, -7};
        float fb[2];
        eg::cast(big, ElemType::Int64, fb, ElemType::Float32, 2);
        QCOMPARE(fb[0], float((int64_t(1) << 40) + 1));
        QCOMPARE(fb[1], -7.f);
    }

    void gatherByRunTimeIndices() {
        const int64_t data[] = {10, 11, 12, 20, 21, 22}; // [2][3] int64
        const int32_t idx32[] = {2, -3, 1};
        int64_t out[6];
        eg::gatherBy(data, 8, eg::Shape{2, {2, 3}}, 1, idx32, ElemType::Int32, 3, out, "g");
        const int64_t want[] = {12, 10, 11, 22, 20, 21};
        for (int i = 0; i < 6; ++i) QCOMPARE(out[i], want[i]);
        const int64_t bad[] = {0, 3};
        bool threw = false;
        try {
            eg::gatherBy(data, 8, eg::Shape{2, {2, 3}}, 1, bad, ElemType::Int64, 2, out, "node 'g' (Gather)");
        } catch (const std::out_of_range& e) {
            threw = QString(e.what()).contains("node 'g' (Gather)") && QString(e.what()).contains("index 3");
        }
        QVERIFY(threw);
    }

    // Integer arithmetic and comparisons with broadcasting, as control flow computes trip
    // counts and conditions: exact int64 (beyond float precision), Python-style Mod unless
    // fmod, truncating Div, division by zero 0, bool results.
    void elementwiseTypedFollowsOnnx() {
        // Binary (or, with b null, unary) typedElementwise; fmod selects FMod for Mod.
        const auto elementwise = [](eg::TypedOp op, bool fmod, const void* a, ElemType at, const eg::Shape& as,
                                    const void* b, ElemType bt, const eg::Shape& bs, void* out, ElemType ot,
                                    const eg::Shape& os) {
            const void* in[] = {a, b};
            const ElemType types[] = {at, bt};
            const eg::Shape shapes[] = {as, bs};
            eg::typedElementwise(fmod && op == eg::TypedOp::Mod ? eg::TypedOp::FMod : op, b ? 2 : 1, in, types, shapes,
                                 out, ot, os);
        };
        const int64_t a[] = {-7, 7, (int64_t(1) << 53) + 1}; // [3]
        const int64_t b[] = {2};                             // scalar broadcast
        int64_t out[3];
        elementwise(eg::TypedOp::Mod, false, a, ElemType::Int64, eg::Shape{1, {3}}, b, ElemType::Int64,
                    eg::Shape{0, {1}}, out, ElemType::Int64, eg::Shape{1, {3}});
        QCOMPARE(out[0], int64_t(1));
        QCOMPARE(out[1], int64_t(1));
        QCOMPARE(out[2], int64_t(1));
        elementwise(eg::TypedOp::Mod, true, a, ElemType::Int64, eg::Shape{1, {3}}, b, ElemType::Int64,
                    eg::Shape{0, {1}}, out, ElemType::Int64, eg::Shape{1, {3}});
        QCOMPARE(out[0], int64_t(-1));
        elementwise(eg::TypedOp::Div, false, a, ElemType::Int64, eg::Shape{1, {3}}, b, ElemType::Int64,
                    eg::Shape{0, {1}}, out, ElemType::Int64, eg::Shape{1, {3}});
        QCOMPARE(out[0], int64_t(-3));
        QCOMPARE(out[2], int64_t(1) << 52);
        const int64_t zero[] = {0};
        elementwise(eg::TypedOp::Div, false, a, ElemType::Int64, eg::Shape{1, {3}}, zero, ElemType::Int64,
                    eg::Shape{0, {1}}, out, ElemType::Int64, eg::Shape{1, {3}});
        QCOMPARE(out[1], int64_t(0));
        elementwise(eg::TypedOp::Add, false, a, ElemType::Int64, eg::Shape{1, {3}}, b, ElemType::Int64,
                    eg::Shape{0, {1}}, out, ElemType::Int64, eg::Shape{1, {3}});
        QCOMPARE(out[2], (int64_t(1) << 53) + 3);
        // [2][1] == [3] -> [2][3] bool
        const int32_t col[] = {7, -7};
        uint8_t eq[6];
        elementwise(eg::TypedOp::Equal, false, col, ElemType::Int32, eg::Shape{2, {2, 1}}, a, ElemType::Int64,
                    eg::Shape{1, {3}}, eq, ElemType::Bool, eg::Shape{2, {2, 3}});
        const uint8_t wantEq[] = {0, 1, 0, 1, 0, 0};
        for (int i = 0; i < 6; ++i) QCOMPARE(eq[i], wantEq[i]);
        const float f[] = {0.5f, 2.5f};
        const float limit[] = {1.f};
        uint8_t less[2];
        elementwise(eg::TypedOp::Less, false, f, ElemType::Float32, eg::Shape{1, {2}}, limit, ElemType::Float32,
                    eg::Shape{0, {1}}, less, ElemType::Bool, eg::Shape{1, {2}});
        QCOMPARE(less[0], uint8_t(1));
        QCOMPARE(less[1], uint8_t(0));
        uint8_t notLess[2];
        elementwise(eg::TypedOp::Not, false, less, ElemType::Bool, eg::Shape{1, {2}}, nullptr, ElemType::Bool,
                    eg::Shape{1, {2}}, notLess, ElemType::Bool, eg::Shape{1, {2}});
        QCOMPARE(notLess[0], uint8_t(0));
        QCOMPARE(notLess[1], uint8_t(1));
    }

    // BitwiseAnd/Or/Xor/Not and BitShift on the bits of the output's type; shifts by the width
    // or more give 0, and a right shift of a negative int32 is the unsigned one (ONNX's uints).
    void bitwiseAndShiftsFollowOnnx() {
        const auto run = [](eg::TypedOp op, const void* a, const void* b, ElemType t, int n, void* out) {
            const void* in[] = {a, b};
            const ElemType types[] = {t, t};
            const eg::Shape shapes[] = {eg::Shape{1, {n}}, eg::Shape{1, {n}}};
            eg::typedElementwise(op, b ? 2 : 1, in, types, shapes, out, t, eg::Shape{1, {n}});
        };
        const uint8_t u[] = {0xF0, 0x81, 0xFF, 0x01}, s[] = {4, 1, 8, 9};
        uint8_t o[4];
        run(eg::TypedOp::BitAnd, u, s, ElemType::UInt8, 4, o);
        QCOMPARE(o[0], uint8_t(0xF0 & 4));
        run(eg::TypedOp::BitXor, u, s, ElemType::UInt8, 4, o);
        QCOMPARE(o[2], uint8_t(0xFF ^ 8));
        run(eg::TypedOp::BitOr, u, s, ElemType::UInt8, 4, o);
        QCOMPARE(o[3], uint8_t(0x01 | 9));
        run(eg::TypedOp::BitNot, u, nullptr, ElemType::UInt8, 4, o);
        QCOMPARE(o[0], uint8_t(0x0F));
        QCOMPARE(o[2], uint8_t(0));
        run(eg::TypedOp::ShiftLeft, u, s, ElemType::UInt8, 4, o);
        const uint8_t wantLeft[] = {0x00, 0x02, 0, 0};
        for (int i = 0; i < 4; ++i) QCOMPARE(o[i], wantLeft[i]);
        run(eg::TypedOp::ShiftRight, u, s, ElemType::UInt8, 4, o);
        const uint8_t wantRight[] = {0x0F, 0x40, 0, 0};
        for (int i = 0; i < 4; ++i) QCOMPARE(o[i], wantRight[i]);
        const int32_t x[] = {-1, 5}, sh[] = {1, 31};
        int32_t r[2];
        run(eg::TypedOp::ShiftRight, x, sh, ElemType::Int32, 2, r);
        QCOMPARE(r[0], int32_t(0x7FFFFFFF));
        QCOMPARE(r[1], int32_t(0));
        run(eg::TypedOp::BitNot, x, nullptr, ElemType::Int32, 2, r);
        QCOMPARE(r[0], int32_t(0));
        QCOMPARE(r[1], int32_t(~5));
    }

    void topKLengthChecksK() {
        const int64_t k = 3;
        QCOMPARE(eg::topKLength(&k, ElemType::Int64, 3, "node"), int64_t(3));
        const int32_t k32 = 0;
        QCOMPARE(eg::topKLength(&k32, ElemType::Int32, 3, "node"), int64_t(0));
        const int64_t tooMany = 4;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, eg::topKLength(&tooMany, ElemType::Int64, 3, "node"));
    }

    // Unique as numpy.unique (sorted) or in order of appearance, flattened or along an axis,
    // into the capacity layout with zeros past the count.
    void uniqueFollowsOnnx() {
        const int64_t x[] = {2, 1, 1, 3, 4, 3};
        int64_t y[6], first[6], inverse[6], counts[6];
        QCOMPARE(eg::unique(x, ElemType::Int64, eg::Shape{2, {2, 3}}, -1, true, y, first, inverse, counts), int64_t(4));
        const int64_t wantY[] = {1, 2, 3, 4, 0, 0}, wantFirst[] = {1, 0, 3, 4, 0, 0},
                      wantInverse[] = {1, 0, 0, 2, 3, 2}, wantCounts[] = {2, 1, 2, 1, 0, 0};
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(y[i], wantY[i]);
            QCOMPARE(first[i], wantFirst[i]);
            QCOMPARE(inverse[i], wantInverse[i]);
            QCOMPARE(counts[i], wantCounts[i]);
        }
        // The distinct rows of a 3x2 float matrix, in order of appearance.
        const float m[] = {1.f, 1.f, 0.f, 3.f, 1.f, 1.f};
        float ym[6];
        QCOMPARE(eg::unique(m, ElemType::Float32, eg::Shape{2, {3, 2}}, 0, false, ym, nullptr, inverse, nullptr),
                 int64_t(2));
        const float wantM[] = {1.f, 1.f, 0.f, 3.f, 0.f, 0.f};
        for (int i = 0; i < 6; ++i) QCOMPARE(ym[i], wantM[i]);
        QCOMPARE(inverse[2], int64_t(0));
        // Along axis 1 of [2][3]: the capacity layout is [outer 2][3 columns].
        const int64_t c[] = {5, 1, 5, 6, 2, 6};
        int64_t yc[6];
        QCOMPARE(eg::unique(c, ElemType::Int64, eg::Shape{2, {2, 3}}, 1, true, yc, nullptr, nullptr, nullptr),
                 int64_t(2));
        const int64_t wantC[] = {1, 5, 0, 2, 6, 0};
        for (int i = 0; i < 6; ++i) QCOMPARE(yc[i], wantC[i]);
    }
};

QTEST_APPLESS_MAIN(TestGenericTyped)
#include "tst_generic_typed.moc"

// Accuracy of the portable runtime's vectorized transcendental activations (vmath.h, through
// the compiled unary() and apply_activation loops, so the vector code is what is measured):
// a dense sweep of float bit patterns (every 257th of the 2^32: 16.7 million values in every
// binade, the denormals of both signs included) plus infinities and NaN, against double
// precision.
#include "portable.h"

#include <QTest>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace ep = embark::portable;

Q_DECLARE_METATYPE(ep::UnaryOp)
Q_DECLARE_METATYPE(ep::Act)

namespace {

float fromBits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// Distance in units in the last place of float at the reference (denormal spacing below
// FLT_MIN), or at `floor` where the reference is smaller: |got - want| / ulp(max(|want|, floor)).
double ulps(float got, double want, double floor) {
    const double a = std::max(std::fabs(want), floor);
    const int e = a < FLT_MIN ? -126 : std::ilogb(static_cast<float>(a));
    const double ulp = std::ldexp(1.0, e - 23);
    return std::fabs(static_cast<double>(got) - want) / ulp;
}

struct Sweep {
    double maxUlp = 0;
    float worstX = 0;
    int wrongSpecial = 0;
    QString firstWrong;
};

// Runs `op` over the sample in chunks and compares with `ref`. Values whose reference is
// below `floor` in magnitude are compared in ulps of `floor` (an absolute bound there).
Sweep sweep(const std::function<void(const float*, float*, size_t)>& op, const std::function<double(double)>& ref,
            double floor) {
    Sweep s;
    constexpr uint64_t kStride = 257;
    constexpr size_t kChunk = 1 << 16;
    std::vector<float> x, y(kChunk);
    x.reserve(kChunk);
    auto check = [&]() {
        op(x.data(), y.data(), x.size());
        for (size_t i = 0; i < x.size(); ++i) {
            const double want = ref(x[i]);
            if (std::isnan(want) || std::isinf(want) || std::isnan(y[i]) || std::isinf(y[i])) {
                const bool same =
                    (std::isnan(want) && std::isnan(y[i])) || static_cast<double>(y[i]) == want ||
                    (std::isinf(want) && std::fabs(want) > FLT_MAX && std::isinf(y[i]) && (want > 0) == (y[i] > 0));
                // A reference past FLT_MAX is +-inf in float.
                const bool overflow = std::isinf(y[i]) && !std::isinf(want) && std::fabs(want) > FLT_MAX;
                if (!same && !overflow) {
                    if (!s.wrongSpecial) s.firstWrong = QString("x=%1 got %2 want %3").arg(x[i]).arg(y[i]).arg(want);
                    ++s.wrongSpecial;
                }
                continue;
            }
            const double u = ulps(y[i], want, floor);
            if (u > s.maxUlp) {
                s.maxUlp = u;
                s.worstX = x[i];
            }
        }
        x.clear();
    };
    for (uint64_t b = 0; b < (uint64_t(1) << 32); b += kStride) {
        x.push_back(fromBits(static_cast<uint32_t>(b)));
        if (x.size() == kChunk) check();
    }
    for (float special : {INFINITY, -INFINITY, NAN,     -NAN,     0.f,         -0.f,
                          FLT_MIN,  -FLT_MIN,  FLT_MAX, -FLT_MAX, fromBits(1), fromBits(0x80000001u),
                          88.72f,   88.73f,    -87.3f,  -103.9f,  -104.f,      1e-3f,
                          -1e-3f,   9.f,       -9.f,    3.9f,     4.f,         -4.f,
                          0.5f,     -0.5f})
        x.push_back(special);
    check();
    return s;
}

double sigmoidRef(double x) { return 1.0 / (1.0 + std::exp(-x)); }

} // namespace

class TestPortableVmath : public QObject {
    Q_OBJECT

private slots:
    // Bounds in ulps as vmath.h states them; `floor` is where a relative bound turns absolute
    // (GELU's erf form: 1 + erf(x / sqrt 2) cancels for negative x, so below |y| = 1 the bound
    // is in ulps of 1, i.e. an absolute error).
    void unaryAccuracy_data() {
        QTest::addColumn<ep::UnaryOp>("op");
        QTest::addColumn<double>("maxUlp");
        QTest::addColumn<double>("floor");
        QTest::newRow("exp") << ep::UnaryOp::Exp << 3.0 << 0.0;
        QTest::newRow("sigmoid") << ep::UnaryOp::Sigmoid << 3.0 << 0.0;
        QTest::newRow("tanh") << ep::UnaryOp::Tanh << 3.0 << 0.0;
        QTest::newRow("swish") << ep::UnaryOp::Swish << 4.0 << 1e-30;
        QTest::newRow("erf") << ep::UnaryOp::Erf << 8.0 << 0.0;
        QTest::newRow("gelu") << ep::UnaryOp::Gelu << 12.0 << 1.0;
        QTest::newRow("gelu tanh") << ep::UnaryOp::GeluTanh << 48.0 << 1e-7;
        QTest::newRow("elu") << ep::UnaryOp::Elu << 3.0 << 0.0;
    }

    void unaryAccuracy() {
        QFETCH(ep::UnaryOp, op);
        QFETCH(double, maxUlp);
        QFETCH(double, floor);
        ep::UnaryParams params;
        params.alpha = 1.f;
        std::function<double(double)> ref;
        switch (op) {
        case ep::UnaryOp::Exp: ref = [](double x) { return std::exp(x); }; break;
        case ep::UnaryOp::Sigmoid: ref = sigmoidRef; break;
        case ep::UnaryOp::Tanh: ref = [](double x) { return std::tanh(x); }; break;
        case ep::UnaryOp::Swish: ref = [](double x) { return x * sigmoidRef(x); }; break;
        case ep::UnaryOp::Erf: ref = [](double x) { return std::erf(x); }; break;
        case ep::UnaryOp::Gelu: ref = [](double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }; break;
        case ep::UnaryOp::GeluTanh:
            // 0.5 (1 + tanh u) = sigmoid(2u) (in double, 1 + tanh u cancels to 0 for u < -19)
            ref = [](double x) { return x * sigmoidRef(2.0 * std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)); };
            break;
        case ep::UnaryOp::Elu: ref = [](double x) { return x < 0 ? std::expm1(x) : x; }; break;
        default: QFAIL("no reference for this op");
        }
        const Sweep s = sweep([&](const float* x, float* y, size_t n) { ep::unary(op, x, y, n, params); }, ref, floor);
        qInfo("max error %.2f ulp at x = %.9g", s.maxUlp, static_cast<double>(s.worstX));
        QVERIFY2(s.wrongSpecial == 0,
                 qPrintable(QString::number(s.wrongSpecial) + " wrong inf/NaN results, first: " + s.firstWrong));
        QVERIFY2(s.maxUlp <= maxUlp,
                 qPrintable(QString("%1 ulp at x = %2").arg(s.maxUlp).arg(double(s.worstX), 0, 'g', 9)));
    }

    // Softmax over rows of several lengths (remainders of the 16 partial sums), large and
    // -inf inputs included, against double precision (relative error, absolute below 1e-3).
    void softmaxLastAxis() {
        for (int64_t n : {1, 5, 16, 197, 1000}) {
            const int64_t rows = 3;
            std::vector<float> x(static_cast<size_t>(rows * n)), y(x.size());
            for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7919) % 200) * 0.37f - 30.f;
            x[0] = 80.f;
            if (n > 1) x[1] = -INFINITY;
            ep::softmax(x.data(), rows, n, y.data());
            double worst = 0;
            for (int64_t r = 0; r < rows; ++r) {
                double m = -INFINITY, sum = 0;
                for (int64_t i = 0; i < n; ++i) m = std::max(m, double(x[size_t(r * n + i)]));
                for (int64_t i = 0; i < n; ++i) sum += std::exp(double(x[size_t(r * n + i)]) - m);
                for (int64_t i = 0; i < n; ++i) {
                    const double want = std::exp(double(x[size_t(r * n + i)]) - m) / sum;
                    // x - max rounds in float: relative error up to |x - max| * 2^-24 beside exp's
                    worst = std::max(worst, std::fabs(double(y[size_t(r * n + i)]) - want) / std::max(want, 1e-3));
                }
            }
            QVERIFY2(worst < 1e-5, qPrintable(QString("n=%1: relative error %2").arg(n).arg(worst)));
        }
    }

    // BatchNormalization + activation as one pass (channel_affine), channels last and first,
    // with and without threads.
    void channelAffine() {
        const int64_t outer = 3 * 7, channels = 37, inner = 11;
        std::vector<float> x(static_cast<size_t>(outer * channels * inner)), scale(channels), shift(channels);
        for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7919) % 101) * 0.05f - 2.5f;
        for (int64_t c = 0; c < channels; ++c) {
            scale[size_t(c)] = 0.5f + 0.01f * float(c);
            shift[size_t(c)] = 0.1f * float(c % 5) - 0.2f;
        }
        ep::ThreadPool pool(2);
        for (bool last : {true, false})
            for (ep::ThreadPool* p : {static_cast<ep::ThreadPool*>(nullptr), &pool}) {
                const int64_t o = last ? outer * inner : outer, in = last ? 1 : inner;
                std::vector<float> y(x.size());
                ep::Activation relu;
                relu.kind = ep::Act::Relu;
                ep::channel_affine(x.data(), o, channels, in, scale.data(), shift.data(), y.data(), relu, p);
                for (size_t i = 0; i < x.size(); ++i) {
                    const size_t c = last ? i % size_t(channels) : i / size_t(inner) % size_t(channels);
                    const double want = std::max(0.0, double(x[i]) * scale[c] + shift[c]);
                    QVERIFY2(std::fabs(y[i] - want) <= 1e-6 * (1 + std::fabs(want)),
                             qPrintable(QString("element %1").arg(i)));
                }
            }
    }

    // The fused activations go through apply_activation (the producers' epilogue).
    void fusedActivationAccuracy_data() {
        QTest::addColumn<ep::Act>("act");
        QTest::addColumn<double>("maxUlp");
        QTest::addColumn<double>("floor");
        QTest::newRow("sigmoid") << ep::Act::Sigmoid << 3.0 << 0.0;
        QTest::newRow("tanh") << ep::Act::Tanh << 3.0 << 0.0;
        QTest::newRow("swish") << ep::Act::Swish << 4.0 << 1e-30;
    }

    void fusedActivationAccuracy() {
        QFETCH(ep::Act, act);
        QFETCH(double, maxUlp);
        QFETCH(double, floor);
        std::function<double(double)> ref =
            act == ep::Act::Sigmoid ? std::function<double(double)>(sigmoidRef)
            : act == ep::Act::Tanh  ? std::function<double(double)>([](double x) { return std::tanh(x); })
                                    : std::function<double(double)>([](double x) { return x * sigmoidRef(x); });
        ep::Activation a;
        a.kind = act;
        const Sweep s = sweep(
            [&](const float* x, float* y, size_t n) {
                std::memcpy(y, x, n * sizeof(float));
                ep::apply_activation(a, y, n);
            },
            ref, floor);
        qInfo("max error %.2f ulp at x = %.9g", s.maxUlp, static_cast<double>(s.worstX));
        QVERIFY2(s.wrongSpecial == 0,
                 qPrintable(QString::number(s.wrongSpecial) + " wrong inf/NaN results, first: " + s.firstWrong));
        QVERIFY2(s.maxUlp <= maxUlp,
                 qPrintable(QString("%1 ulp at x = %2").arg(s.maxUlp).arg(double(s.worstX), 0, 'g', 9)));
    }
};

QTEST_GUILESS_MAIN(TestPortableVmath)
#include "tst_portable_vmath.moc"

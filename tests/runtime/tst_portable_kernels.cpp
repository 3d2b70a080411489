// Checks every kernel of the portable runtime (runtime/portable) against a naive
// double-precision loop written here, NHWC, with a relative error bound of 1e-5 of the
// largest reference value.
#include "portable.h"
#include "../../runtime/tests/quant_cases.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

namespace ep = embark::portable;

Q_DECLARE_METATYPE(ep::Act)
Q_DECLARE_METATYPE(ep::ConvPath)
Q_DECLARE_METATYPE(ep::Conv2DShape)
Q_DECLARE_METATYPE(ep::BinaryOp)
Q_DECLARE_METATYPE(ep::UnaryOp)
Q_DECLARE_METATYPE(std::vector<int64_t>)

namespace {

constexpr double kTolerance = 1e-5;

std::vector<float> randomVector(size_t n, unsigned seed, float lo = -1.f, float hi = 1.f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) x = dist(rng);
    return v;
}

double relativeError(const std::vector<float>& got, const std::vector<double>& want) {
    double maxDiff = 0, maxRef = 1e-30;
    for (size_t i = 0; i < want.size(); ++i) {
        const double diff = std::abs(double(got[i]) - want[i]);
        maxDiff = std::isnan(diff) ? INFINITY : std::max(maxDiff, diff);
        maxRef = std::max(maxRef, std::abs(want[i]));
    }
    return maxDiff / maxRef;
}

#define CHECK_CLOSE(got, want)                                                                                         \
  do {                                                                                                                 \
    QCOMPARE((got).size(), (want).size());                                                                             \
    const double err_ = relativeError(got, want);                                                                      \
    QVERIFY2(err_ <= kTolerance, qPrintable(QString("relative error %1").arg(err_)));                                  \
  } while (0)

// The activation in double precision, with the parameters the tests use for each kind.
ep::Activation activationOf(ep::Act kind) {
    ep::Activation a;
    a.kind = kind;
    if (kind == ep::Act::Clamp) a.min = -0.25f, a.max = 0.5f;
    if (kind == ep::Act::LeakyRelu) a.alpha = 0.2f;
    return a;
}

double activate(const ep::Activation& a, double x) {
    switch (a.kind) {
    case ep::Act::None: return x;
    case ep::Act::Relu: return x > 0 ? x : 0;
    case ep::Act::Clamp: return std::min<double>(std::max<double>(x, a.min), a.max);
    case ep::Act::LeakyRelu: return x >= 0 ? x : x * a.alpha;
    case ep::Act::HardSwish: return x * std::min(1.0, std::max(0.0, x / 6.0 + 0.5));
    case ep::Act::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case ep::Act::Gelu: return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    default: break;
    }
    return x;
}

size_t inputSize(const ep::Conv2DShape& s) { return size_t(s.batch) * s.in_h * s.in_w * s.in_c; }

std::vector<double> naiveConv(const ep::Conv2DShape& s, const std::vector<float>& x, const std::vector<float>& w,
                              const std::vector<float>& b, const ep::Activation& act) {
    const int oh = s.out_h(), ow = s.out_w();
    const int cin_g = s.in_c / s.groups, cout_g = s.out_c / s.groups;
    std::vector<double> y(size_t(s.batch) * oh * ow * s.out_c);
    for (int n = 0; n < s.batch; ++n)
        for (int oy = 0; oy < oh; ++oy)
            for (int ox = 0; ox < ow; ++ox)
                for (int co = 0; co < s.out_c; ++co) {
                    const int g = co / cout_g;
                    double sum = b[co];
                    for (int k = 0; k < cin_g; ++k)
                        for (int ky = 0; ky < s.kernel_h; ++ky)
                            for (int kx = 0; kx < s.kernel_w; ++kx) {
                                const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
                                const int ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
                                if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue;
                                sum += double(x[((size_t(n) * s.in_h + iy) * s.in_w + ix) * s.in_c + g * cin_g + k]) *
                                       w[((size_t(co) * cin_g + k) * s.kernel_h + ky) * s.kernel_w + kx];
                            }
                    y[((size_t(n) * oh + oy) * ow + ox) * s.out_c + co] = activate(act, sum);
                }
    return y;
}

std::vector<double> naiveConvTranspose(const ep::Conv2DShape& s, int oh, int ow, const std::vector<float>& x,
                                       const std::vector<float>& w, const std::vector<float>& b,
                                       const ep::Activation& act) {
    const int cin_g = s.in_c / s.groups, cout_g = s.out_c / s.groups;
    std::vector<double> y(size_t(s.batch) * oh * ow * s.out_c, 0.0);
    for (int n = 0; n < s.batch; ++n)
        for (int iy = 0; iy < s.in_h; ++iy)
            for (int ix = 0; ix < s.in_w; ++ix)
                for (int ci = 0; ci < s.in_c; ++ci) {
                    const int g = ci / cin_g;
                    const double v = x[((size_t(n) * s.in_h + iy) * s.in_w + ix) * s.in_c + ci];
                    for (int co = 0; co < cout_g; ++co)
                        for (int ky = 0; ky < s.kernel_h; ++ky)
                            for (int kx = 0; kx < s.kernel_w; ++kx) {
                                const int oy = iy * s.stride_h - s.pad_top + ky * s.dilation_h;
                                const int ox = ix * s.stride_w - s.pad_left + kx * s.dilation_w;
                                if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
                                y[((size_t(n) * oh + oy) * ow + ox) * s.out_c + g * cout_g + co] +=
                                    v * w[((size_t(ci) * cout_g + co) * s.kernel_h + ky) * s.kernel_w + kx];
                            }
                }
    for (size_t i = 0; i < y.size(); ++i) y[i] = activate(act, y[i] + b[i % s.out_c]);
    return y;
}

// Adds a conv row: Conv2DShape fields in order, then the activation and the expected path.
void convRow(const char* name, ep::Conv2DShape s, ep::Act act, ep::ConvPath path) {
    QTest::newRow(name) << s.batch << s.in_h << s.in_w << s.in_c << s.out_c << s.kernel_h << s.kernel_w << s.stride_h
                        << s.stride_w << s.dilation_h << s.dilation_w << s.pad_top << s.pad_left << s.pad_bottom
                        << s.pad_right << s.groups << act << path;
}

ep::Conv2DShape fetchConvShape() {
    ep::Conv2DShape s;
    QFETCH(int, batch);
    QFETCH(int, in_h);
    QFETCH(int, in_w);
    QFETCH(int, in_c);
    QFETCH(int, out_c);
    QFETCH(int, kernel_h);
    QFETCH(int, kernel_w);
    QFETCH(int, stride_h);
    QFETCH(int, stride_w);
    QFETCH(int, dilation_h);
    QFETCH(int, dilation_w);
    QFETCH(int, pad_top);
    QFETCH(int, pad_left);
    QFETCH(int, pad_bottom);
    QFETCH(int, pad_right);
    QFETCH(int, groups);
    s = {batch,    in_h,       in_w,       in_c,    out_c,    kernel_h,   kernel_w,  stride_h,
         stride_w, dilation_h, dilation_w, pad_top, pad_left, pad_bottom, pad_right, groups};
    return s;
}

void convColumns() {
    for (const char* c : {"batch", "in_h", "in_w", "in_c", "out_c", "kernel_h", "kernel_w", "stride_h", "stride_w",
                          "dilation_h", "dilation_w", "pad_top", "pad_left", "pad_bottom", "pad_right", "groups"})
        QTest::addColumn<int>(c);
    QTest::addColumn<ep::Act>("act");
    QTest::addColumn<ep::ConvPath>("path");
}

// Runs `write(out, stride, pool)`, a kernel writing rows of `channels` floats `stride` floats
// apart (a slice of a concatenation), for a few strides on 1 and 2 threads: each row must equal
// `dense` (the kernel's contiguous output) bit for bit, and the floats between rows must stay.
template <typename Write>
void checkStridedOutput(int channels, Write write, const std::vector<float>& dense, ep::ThreadPool* pool) {
    const size_t rows = dense.size() / size_t(channels);
    for (int extra : {1, 5, 32})
        for (ep::ThreadPool* p : {static_cast<ep::ThreadPool*>(nullptr), pool}) {
            const int stride = channels + extra;
            std::vector<float> wide(rows * size_t(stride) + 3, -777.f);
            write(wide.data() + 3, stride, p); // an offset that is no multiple of 16 bytes
            for (size_t r = 0; r < rows; ++r)
                for (int c = 0; c < stride; ++c) {
                    const float got = wide[3 + r * size_t(stride) + size_t(c)];
                    if (c < channels && !(got == dense[r * size_t(channels) + size_t(c)])) {
                        QFAIL(qPrintable(QString("stride %1: row %2 channel %3: %4, not %5")
                                             .arg(stride)
                                             .arg(r)
                                             .arg(c)
                                             .arg(got)
                                             .arg(dense[r * size_t(channels) + size_t(c)])));
                    }
                    if (c >= channels && got != -777.f)
                        QFAIL(qPrintable(QString("stride %1: row %2 float %3 past the channels was written")
                                             .arg(stride)
                                             .arg(r)
                                             .arg(c)));
                }
            QVERIFY(wide[0] == -777.f && wide[1] == -777.f && wide[2] == -777.f);
        }
}

} // namespace

class TestPortableKernels : public QObject {
    Q_OBJECT

private slots:
    // Int8 kernels (quant.h): every QConv2D path and QAdd equal the reference arithmetic byte
    // for byte (runtime/tests/quant_cases.h lists the cases: tails, groups, strides, pads,
    // dilations, Relu/Clip ranges, zero points), on one thread and on a pool of 2.
    void int8KernelsEqualTheReference() {
        QCOMPARE(embark::quant_cases::run_all(false), 0);
        ep::ThreadPool pool(2);
        QCOMPARE(embark::quant_cases::run_all(false, &pool), 0);
    }

    // Many back-to-back jobs on more threads than cores (workers often late or asleep):
    // every index runs exactly once per job, whichever thread claims its range.
    void threadPoolBackToBackJobs() {
        for (int threads : {2, 3, 8, 40}) { // 40: more threads than most jobs have parts
            ep::ThreadPool pool(threads);
            std::vector<std::atomic<int>> hits(257);
            for (int job = 0; job < 3000; ++job) {
                const int64_t n = 1 + job % 257;
                pool.parallel_for(n, [&](int64_t begin, int64_t end) {
                    for (int64_t i = begin; i < end; ++i) hits[size_t(i)].fetch_add(1);
                });
            }
            for (int64_t i = 0; i < 257; ++i) {
                int expected = 0;
                for (int job = 0; job < 3000; ++job) expected += i < 1 + job % 257;
                QCOMPARE(hits[size_t(i)].load(), expected);
            }
        }
    }

    void conv2d_data() {
        convColumns();
        using A = ep::Act;
        using P = ep::ConvPath;
        // batch in_h in_w in_c out_c kh kw sh sw dh dw pt pl pb pr groups
        convRow("3x3 64->64 pad 1", {1, 12, 11, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::Relu, P::Winograd);
        convRow("winograd odd sizes 9->37 no pads", {1, 11, 12, 9, 37, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::None,
                P::Winograd);
        convRow("winograd asym pads 16->40", {1, 10, 9, 16, 40, 3, 3, 1, 1, 1, 1, 0, 2, 1, 0, 1}, A::LeakyRelu,
                P::Winograd);
        convRow("winograd batch 3 24->8", {3, 5, 5, 24, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::Sigmoid, P::Winograd);
        convRow("winograd 8x8 output", {1, 10, 10, 8, 70, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::HardSwish, P::Winograd);
        convRow("3x3 7x7 output stays direct", {1, 7, 7, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::None,
                P::Indirect);
        convRow("winograd many tiles 32->33", {1, 40, 37, 32, 33, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::None,
                P::Winograd);
        convRow("winograd F4 odd sizes 16->20", {1, 18, 17, 16, 20, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::LeakyRelu,
                P::Winograd);
        convRow("winograd F4 batch 2 no pads 8->40", {2, 19, 22, 8, 40, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::Relu,
                P::Winograd);
        convRow("winograd F4 one block, channels split 64->150", {1, 16, 16, 64, 150, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                A::None, P::Winograd);
        convRow("winograd one block, channels split 64->150", {1, 14, 14, 64, 150, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                A::Relu, P::Winograd);
        // Weights streamed from memory with 16 KB panels: the next panel is prefetched while
        // one runs (25 tiles, 3 panels, the last one partial).
        convRow("winograd F4 streamed weights 128->70", {1, 17, 19, 128, 70, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::Relu,
                P::Winograd);
        convRow("winograd wide 256->96 (blocked)", {1, 20, 21, 256, 96, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::Relu,
                P::Winograd);
        convRow("3x3 too few channels for winograd: rows", {1, 6, 6, 4, 9, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::None,
                P::Rows);
        convRow("3x3 s2 3->37 asym pads", {1, 9, 7, 3, 37, 3, 3, 2, 2, 1, 1, 0, 1, 2, 1, 1}, A::None, P::Rows);
        convRow("3x3 dilation 2 5->40", {1, 10, 9, 5, 40, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 1}, A::None, P::Indirect);
        // Most taps in the padding: the Regions path (rectangles of outputs over their taps only),
        // with an out_stride check below like every path; a dilation that only the centre tap
        // survives; pads wider than the kernel (rectangles that no tap reaches).
        convRow("3x3 dilation 6 regions 24->40", {1, 9, 10, 24, 40, 3, 3, 1, 1, 6, 6, 6, 6, 6, 6, 1}, A::Relu,
                P::Regions);
        convRow("3x3 dilation 12 centre only groups 2 batch 2",
                {2, 7, 7, 16, 24, 3, 3, 1, 1, 12, 12, 12, 12, 12, 12, 2}, A::Clamp, P::Regions);
        convRow("3x3/2 pads 5 regions without taps", {1, 4, 5, 20, 12, 3, 3, 2, 2, 1, 1, 5, 5, 5, 5, 1}, A::Sigmoid,
                P::Regions);
        convRow("3x2 stride 2x1 dilation 1x2", {1, 8, 9, 6, 20, 3, 2, 2, 1, 1, 2, 1, 0, 0, 1, 1}, A::LeakyRelu,
                P::Indirect);
        convRow("cin 1 3x3 -> 8", {1, 6, 6, 1, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::None, P::Rows);
        convRow("7x7 s2 p3 3->64", {1, 23, 23, 3, 64, 7, 7, 2, 2, 1, 1, 3, 3, 3, 3, 1}, A::Relu, P::Rows);
        convRow("rows batch 2 5x3 s2x3 dilation_h 2 asym pads 6->40",
                {2, 13, 14, 6, 40, 5, 3, 2, 3, 2, 1, 3, 0, 1, 2, 1}, A::LeakyRelu, P::Rows);
        convRow("rows in place (no side pads) batch 3 15->33", {3, 7, 9, 15, 33, 2, 4, 1, 2, 1, 1, 1, 0, 2, 0, 1},
                A::Clamp, P::Rows);
        convRow("rows 1xN kernel 2->7", {1, 4, 11, 2, 7, 1, 5, 1, 1, 1, 1, 0, 2, 0, 2, 1}, A::None, P::Rows);
        // Weights past 512 KB (few parts per thread), with remainder tiles and panels, groups.
        convRow("large weights 3x3 s2 128->150, 33 tiles", {1, 29, 30, 128, 150, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1},
                A::Relu, P::Indirect);
        convRow("large weights grouped 2: 3x3 s2 384->192", {1, 9, 9, 384, 192, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 2},
                A::HardSwish, P::Indirect);
        convRow("large weights pointwise 1024->200 sigmoid", {1, 4, 5, 1024, 200, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1},
                A::Sigmoid, P::Pointwise);
        convRow("16 channels stay indirect", {1, 9, 9, 16, 20, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}, A::None, P::Indirect);
        convRow("kernel covers input", {1, 5, 5, 4, 9, 5, 5, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::None, P::Rows);
        convRow("batch 2 3x3 16->33", {2, 7, 6, 16, 33, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::Clamp, P::Winograd);
        convRow("pointwise 17->33", {1, 5, 7, 17, 33, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::None, P::Pointwise);
        convRow("pointwise batch 2 32->96", {2, 4, 5, 32, 96, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::HardSwish,
                P::Pointwise);
        // A last panel of at most 16 channels runs the narrow tile on x86 (gemm_ukernel.h):
        // exactly 16 (whole stores), 144 = 128 + 16, and 12 left of 44 with a remainder tile.
        convRow("pointwise 32->16 clamp (narrow tile)", {1, 8, 7, 32, 16, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::Clamp,
                P::Pointwise);
        convRow("pointwise 24->144 hard-swish", {1, 5, 6, 24, 144, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::HardSwish,
                P::Pointwise);
        convRow("pointwise 9->44 relu, remainder tile", {1, 3, 5, 9, 44, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::Relu,
                P::Pointwise);
        convRow("3x3 s2 3->16 (stem, narrow tile)", {1, 15, 13, 3, 16, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}, A::HardSwish,
                P::Rows);
        convRow("pointwise cin 3 -> 1", {1, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::Sigmoid, P::Pointwise);
        convRow("3x3 s2 160->40 (a tap larger than L1)", {1, 9, 9, 160, 40, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}, A::Relu,
                P::Indirect);
        convRow("3x3 s2 grouped 2 300->64 (grouped, large taps)", {1, 8, 8, 300, 64, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 2},
                A::None, P::Indirect);
        convRow("5x5 s2 48->70 (remainder panel)", {2, 11, 10, 48, 70, 5, 5, 2, 2, 1, 1, 2, 2, 2, 2, 1}, A::HardSwish,
                P::Indirect);
        convRow("1x1 stride 2 64->128", {1, 9, 9, 64, 128, 1, 1, 2, 2, 1, 1, 0, 0, 0, 0, 1}, A::None, P::Indirect);
        convRow("1x1 with pads", {1, 4, 4, 8, 8, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1}, A::None, P::Indirect);
        convRow("grouped 4: 8->12", {1, 6, 7, 8, 12, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4}, A::None, P::Indirect);
        convRow("grouped 2: 6->80 remainder", {1, 5, 5, 6, 80, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 2}, A::Relu, P::Indirect);
        convRow("grouped 1x1 2: 16->16", {1, 5, 5, 16, 16, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2}, A::None, P::Indirect);
        convRow("depthwise 3x3 24", {1, 9, 8, 24, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 24}, A::Clamp, P::Depthwise);
        convRow("depthwise 3x3 s2 96", {1, 11, 11, 96, 96, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 96}, A::Relu, P::Depthwise);
        convRow("depthwise 5x5 19 pads 2", {1, 8, 9, 19, 19, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, 19}, A::None, P::Depthwise);
        convRow("depthwise 5x5 s2 asym 144", {1, 10, 10, 144, 144, 5, 5, 2, 2, 1, 1, 1, 2, 2, 1, 144}, A::HardSwish,
                P::Depthwise);
        convRow("depthwise 3x3 dilation 2 70", {1, 9, 9, 70, 70, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 70}, A::None,
                P::Depthwise);
        convRow("depthwise 2x3 generic taps 5", {1, 6, 7, 5, 5, 2, 3, 1, 1, 1, 1, 0, 1, 1, 1, 5}, A::LeakyRelu,
                P::Depthwise);
        convRow("depthwise batch 2 3x3 32", {2, 6, 5, 32, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 32}, A::Sigmoid,
                P::Depthwise);
        convRow("depthwise multiplier 2", {1, 6, 6, 4, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4}, A::None,
                P::DepthwiseMultiplier);
        convRow("depthwise multiplier 3 5x5 s2 batch 2", {2, 9, 8, 24, 72, 5, 5, 2, 2, 1, 1, 2, 2, 2, 2, 24}, A::Relu,
                P::DepthwiseMultiplier);
        convRow("depthwise multiplier 4 1x1 generic taps 7", {1, 5, 6, 7, 28, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 7},
                A::Clamp, P::DepthwiseMultiplier);
    }

    void conv2d() {
        const ep::Conv2DShape s = fetchConvShape();
        QFETCH(ep::Act, act);
        QFETCH(ep::ConvPath, path);
        const auto x = randomVector(inputSize(s), 1);
        const auto w = randomVector(size_t(s.out_c) * (s.in_c / s.groups) * s.kernel_h * s.kernel_w, 2);
        const auto b = randomVector(s.out_c, 3);
        const ep::Activation activation = activationOf(act);
        ep::Conv2D op = ep::pack_conv2d(s, w.data(), b.data(), activation);
        QCOMPARE(op.path, path);
        std::vector<float> y(size_t(s.batch) * s.out_h() * s.out_w() * s.out_c, NAN);
        ep::conv2d(op, x.data(), y.data());
        CHECK_CLOSE(y, naiveConv(s, x, w, b, activation));

        // Two threads compute exactly the same values, and a new input pointer is honoured.
        ep::ThreadPool pool(2);
        const std::vector<float> x2 = x;
        std::vector<float> y2(y.size(), NAN);
        ep::conv2d(op, x2.data(), y2.data(), &pool);
        QVERIFY(y2 == y);

        // Written as a channel range of a wider tensor (a concatenation in place): the same
        // values, pixels out_stride floats apart, nothing outside the range touched.
        checkStridedOutput(
            s.out_c,
            [&](float* out, int stride, ep::ThreadPool* p) {
                op.out_stride = stride;
                ep::conv2d(op, x.data(), out, p);
                op.out_stride = 0;
            },
            y, &pool);

        // The Rows path also reads the input in NCHW, transposing as it copies: the same values.
        QCOMPARE(ep::conv2d_reads_nchw(op), path == ep::ConvPath::Rows);
        if (path == ep::ConvPath::Rows) {
            std::vector<float> nchw(x.size());
            for (int n = 0; n < s.batch; ++n)
                for (int yy = 0; yy < s.in_h; ++yy)
                    for (int xx = 0; xx < s.in_w; ++xx)
                        for (int c = 0; c < s.in_c; ++c)
                            nchw[((size_t(n) * s.in_c + c) * s.in_h + yy) * s.in_w + xx] =
                                x[((size_t(n) * s.in_h + yy) * s.in_w + xx) * s.in_c + c];
            for (ep::ThreadPool* p : {static_cast<ep::ThreadPool*>(nullptr), &pool}) {
                std::vector<float> y3(y.size(), NAN);
                ep::conv2d_nchw(op, nchw.data(), y3.data(), p);
                QVERIFY(y3 == y);
            }
            std::vector<float> y4(y.size(), NAN); // back to NHWC after the NCHW call
            ep::conv2d(op, x.data(), y4.data());
            QVERIFY(y4 == y);
            checkStridedOutput(
                s.out_c,
                [&](float* out, int stride, ep::ThreadPool* p) {
                    op.out_stride = stride;
                    ep::conv2d_nchw(op, nchw.data(), out, p);
                    op.out_stride = 0;
                },
                y, &pool);
        }
    }

    // One input channel written channels-first (conv2d_planar): the naive NHWC sums transposed
    // to [batch][out_c][out_h][out_w]. Widths below one vector, one vector plus a scalar tail,
    // whole chunks plus vector and scalar tails; pads, stride_h, dilations, kernel rows all in
    // the padding, batch 2, every activation; 1 and 2 threads give the same values.
    void conv2dPlanar_data() {
        QTest::addColumn<ep::Conv2DShape>("shape");
        QTest::addColumn<ep::Act>("act");
        using A = ep::Act;
        QTest::newRow("3x3 ->32 pads 1 (128 wide)")
            << ep::Conv2DShape{1, 9, 128, 1, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1} << A::None;
        QTest::newRow("3x3 ->16 relu, 45 wide")
            << ep::Conv2DShape{1, 13, 45, 1, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1} << A::Relu;
        QTest::newRow("5x5 s2x1 dilation 2 batch 2 clamp, 92 wide")
            << ep::Conv2DShape{2, 17, 95, 1, 6, 5, 5, 2, 1, 2, 2, 3, 1, 2, 4, 1} << A::Clamp;
        QTest::newRow("1x1 ->19 narrow") << ep::Conv2DShape{1, 7, 9, 1, 19, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1} << A::None;
        QTest::newRow("7x7 pad 6 (rows all padding) leaky")
            << ep::Conv2DShape{1, 5, 70, 1, 5, 7, 7, 1, 1, 1, 1, 6, 3, 6, 3, 1} << A::LeakyRelu;
        QTest::newRow("1x80 long row, 200 wide")
            << ep::Conv2DShape{1, 2, 279, 1, 4, 1, 80, 3, 1, 1, 1, 0, 0, 0, 0, 1} << A::Relu;
    }

    void conv2dPlanar() {
        QFETCH(ep::Conv2DShape, shape);
        QFETCH(ep::Act, act);
        const ep::Conv2DShape& s = shape;
        QVERIFY(ep::conv2d_planar_applies(s));
        const auto x = randomVector(inputSize(s), 1);
        const auto w = randomVector(size_t(s.out_c) * s.kernel_h * s.kernel_w, 2);
        const auto b = randomVector(s.out_c, 3);
        const ep::Activation activation = activationOf(act);
        const ep::Conv2D op = ep::pack_conv2d_planar(s, w.data(), b.data(), activation);
        QCOMPARE(op.path, ep::ConvPath::Planar);
        const int oh = s.out_h(), ow = s.out_w();
        const std::vector<double> nhwc = naiveConv(s, x, w, b, activation);
        std::vector<double> want(nhwc.size());
        for (int n = 0; n < s.batch; ++n)
            for (int p = 0; p < oh * ow; ++p)
                for (int c = 0; c < s.out_c; ++c)
                    want[(size_t(n) * s.out_c + c) * oh * ow + p] = nhwc[(size_t(n) * oh * ow + p) * s.out_c + c];
        std::vector<float> y(want.size(), NAN);
        ep::conv2d_planar(op, x.data(), y.data());
        CHECK_CLOSE(y, want);
        ep::ThreadPool pool(2);
        std::vector<float> y2(want.size(), NAN);
        ep::conv2d_planar(op, x.data(), y2.data(), &pool);
        QVERIFY(y2 == y);
        // conv2d refuses a layer packed for channels-first output.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ep::conv2d(op, x.data(), y2.data()));
    }

    void conv2dPlanarRefusesOtherShapes() {
        const std::vector<float> w(64, 1.f);
        for (const ep::Conv2DShape& s : {ep::Conv2DShape{1, 8, 8, 2, 4, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 1},
                                         ep::Conv2DShape{1, 8, 8, 1, 4, 3, 3, 1, 2, 1, 1, 0, 0, 0, 0, 1}}) {
            QVERIFY(!ep::conv2d_planar_applies(s));
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ep::pack_conv2d_planar(s, w.data(), nullptr));
        }
        const ep::Conv2D op = ep::pack_conv2d({1, 8, 8, 1, 4, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 1}, w.data(), nullptr);
        std::vector<float> x(64), y(144);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ep::conv2d_planar(op, x.data(), y.data()));
    }

    // The fused inverted bottleneck computes exactly what its three layers (and the residual
    // Add) compute, on 1 to 3 threads, whatever rows each thread takes.
    void invertedBottleneck_data() {
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("size"); // in_h; in_w = size + 3
        QTest::addColumn<int>("in_c");
        QTest::addColumn<int>("expanded"); // 0: no expansion (a depthwise-separable pair)
        QTest::addColumn<int>("out_c");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<bool>("residual");
        QTest::newRow("3x3 s1 residual 16->96->16") << 1 << 13 << 16 << 96 << 16 << 3 << 1 << true;
        QTest::newRow("3x3 s2 16->96->24") << 1 << 17 << 16 << 96 << 24 << 3 << 2 << false;
        QTest::newRow("3x3 s2 odd rows 24->144->32") << 1 << 12 << 24 << 144 << 32 << 3 << 2 << false;
        QTest::newRow("5x5 s1 batch 2 residual 8->45->8") << 2 << 9 << 8 << 45 << 8 << 5 << 1 << true;
        QTest::newRow("5x5 s2 batch 3 40->240->40") << 3 << 7 << 40 << 240 << 40 << 5 << 2 << false;
        QTest::newRow("one row 3x3 s1 residual 32->192->32") << 1 << 1 << 32 << 192 << 32 << 3 << 1 << true;
        QTest::newRow("pair 3x3 s1 32->16") << 1 << 14 << 32 << 0 << 16 << 3 << 1 << false;
        QTest::newRow("pair 3x3 s2 batch 2 24->40") << 2 << 9 << 24 << 0 << 40 << 3 << 2 << false;
        QTest::newRow("pair 5x5 s1 residual 20->20") << 1 << 8 << 20 << 0 << 20 << 5 << 1 << true;
    }

    void invertedBottleneck() {
        QFETCH(int, batch);
        QFETCH(int, size);
        QFETCH(int, in_c);
        QFETCH(int, expanded);
        QFETCH(int, out_c);
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(bool, residual);
        const int h = size, w = size + 3, pad = kernel / 2;
        const bool expands = expanded > 0;
        if (!expands) expanded = in_c;
        const auto we = randomVector(size_t(expanded) * in_c, 11), be = randomVector(expanded, 12);
        const auto wd = randomVector(size_t(expanded) * kernel * kernel, 13), bd = randomVector(expanded, 14);
        const auto wp = randomVector(size_t(out_c) * expanded, 15), bp = randomVector(out_c, 16);
        const ep::Activation relu6{ep::Act::Clamp, 0.f, 6.f, 0.f};
        const ep::Conv2D e = ep::pack_conv2d({batch, h, w, in_c, expanded, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, we.data(),
                                             be.data(), relu6);
        // Without a residual, asymmetric pads (one less at the bottom): the last rows read less padding.
        const int padBottom = residual ? pad : pad - 1;
        const ep::Conv2D d = ep::pack_conv2d(
            {batch, h, w, expanded, expanded, kernel, kernel, stride, stride, 1, 1, pad, pad, padBottom, pad, expanded},
            wd.data(), bd.data(), relu6);
        const ep::Conv2D p = ep::pack_conv2d(
            {batch, d.out_h, d.out_w, expanded, out_c, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, wp.data(), bp.data());
        const ep::Conv2D* expansion = expands ? &e : nullptr;
        QVERIFY(ep::bottleneck_fusable(expansion, d, p));
        const auto x = randomVector(size_t(batch) * h * w * in_c, 17);
        const size_t outCount = size_t(batch) * d.out_h * d.out_w * out_c;
        std::vector<float> ex(size_t(batch) * h * w * expanded), f(size_t(batch) * d.out_h * d.out_w * expanded),
            want(outCount);
        ep::conv2d(e, x.data(), ex.data());
        ep::conv2d(d, expands ? ex.data() : x.data(), f.data());
        ep::conv2d(p, f.data(), want.data());
        const std::vector<float>* res = nullptr;
        const ep::Activation addAct{ep::Act::Relu};
        if (residual) {
            QCOMPARE(size_t(batch) * h * w * in_c, outCount);
            const ep::Dims dims{batch, d.out_h, d.out_w, out_c};
            ep::binary(ep::BinaryOp::Add, want.data(), dims, x.data(), dims, want.data(), addAct);
            res = &x;
        }
        for (int threads : {1, 2, 3}) {
            ep::ThreadPool pool(threads);
            for (int round = 0; round < 3; ++round) { // the rows a thread keeps belong to one call only
                std::vector<float> got(outCount, NAN);
                ep::inverted_bottleneck(expansion, d, p, x.data(), got.data(), res ? res->data() : nullptr,
                                        residual ? addAct : ep::Activation{}, &pool);
                QVERIFY2(got == want, qPrintable(QString("%1 threads, round %2").arg(threads).arg(round)));
            }
        }
    }

    void invertedBottleneckRefusesWhatItCannotFuse() {
        const auto wts = randomVector(64 * 64 * 9, 18);
        const ep::Conv2D e = ep::pack_conv2d({1, 8, 8, 8, 16, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, wts.data(), nullptr);
        const ep::Conv2D d = ep::pack_conv2d({1, 8, 8, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 16}, wts.data(), nullptr);
        const ep::Conv2D p = ep::pack_conv2d({1, 8, 8, 16, 8, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, wts.data(), nullptr);
        QVERIFY(ep::bottleneck_fusable(&e, d, p));
        QVERIFY(ep::bottleneck_fusable(
            nullptr, d, ep::pack_conv2d({1, 8, 8, 16, 8, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, wts.data(), nullptr)));
        // Dilated rows are not consecutive: the ring of kernel_h rows cannot hold them.
        const ep::Conv2D dilated =
            ep::pack_conv2d({1, 8, 8, 16, 16, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 16}, wts.data(), nullptr);
        QVERIFY(!ep::bottleneck_fusable(&e, dilated, p));
        // Not a chain: the expansion's width is not the depthwise layer's.
        const ep::Conv2D wide = ep::pack_conv2d({1, 8, 8, 8, 24, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, wts.data(), nullptr);
        QVERIFY(!ep::bottleneck_fusable(&wide, d, p));
        // A 3x3 "expansion" is no pointwise layer.
        const ep::Conv2D full = ep::pack_conv2d({1, 8, 8, 8, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, wts.data(), nullptr);
        QVERIFY(!ep::bottleneck_fusable(&full, d, p));
        QVERIFY(!ep::bottleneck_fusable(nullptr, full, p)); // no depthwise layer
    }

    void convTranspose2d_data() {
        convColumns();
        QTest::addColumn<int>("output_padding");
        using A = ep::Act;
        using P = ep::ConvPath;
        auto row = [](const char* name, ep::Conv2DShape s, A act, int output_padding) {
            QTest::newRow(name) << s.batch << s.in_h << s.in_w << s.in_c << s.out_c << s.kernel_h << s.kernel_w
                                << s.stride_h << s.stride_w << s.dilation_h << s.dilation_w << s.pad_top << s.pad_left
                                << s.pad_bottom << s.pad_right << s.groups << act << P::Transposed << output_padding;
        };
        row("3x3 s2 p1 op1 8->5", {1, 5, 4, 8, 5, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}, A::None, 1);
        row("2x2 s2 16->40", {1, 4, 4, 16, 40, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 1}, A::Relu, 0);
        row("3x3 s1 dilation 2 groups 2", {2, 5, 6, 6, 4, 3, 3, 1, 1, 2, 2, 1, 0, 2, 1, 2}, A::None, 0);
        row("4x4 s3 asym pads", {1, 3, 5, 3, 7, 4, 4, 3, 3, 1, 1, 0, 2, 1, 0, 1}, A::Clamp, 2);
    }

    void convTranspose2d() {
        const ep::Conv2DShape s = fetchConvShape();
        QFETCH(ep::Act, act);
        QFETCH(int, output_padding);
        const int oh =
            (s.in_h - 1) * s.stride_h - s.pad_top - s.pad_bottom + s.dilation_h * (s.kernel_h - 1) + 1 + output_padding;
        const int ow =
            (s.in_w - 1) * s.stride_w - s.pad_left - s.pad_right + s.dilation_w * (s.kernel_w - 1) + 1 + output_padding;
        const auto x = randomVector(inputSize(s), 4);
        const auto w = randomVector(size_t(s.in_c) * (s.out_c / s.groups) * s.kernel_h * s.kernel_w, 5);
        const auto b = randomVector(s.out_c, 6);
        const ep::Activation activation = activationOf(act);
        ep::Conv2D op = ep::pack_conv_transpose2d(s, oh, ow, w.data(), b.data(), activation);
        std::vector<float> y(size_t(s.batch) * oh * ow * s.out_c, NAN);
        ep::conv2d(op, x.data(), y.data());
        CHECK_CLOSE(y, naiveConvTranspose(s, oh, ow, x, w, b, activation));
        ep::ThreadPool pool(2);
        checkStridedOutput(
            s.out_c,
            [&](float* out, int stride, ep::ThreadPool* p) {
                op.out_stride = stride;
                ep::conv2d(op, x.data(), out, p);
                op.out_stride = 0;
            },
            y, &pool);
    }

    void badShapesAreRefused() {
        const std::vector<float> w(64, 1.f);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 ep::pack_conv2d({1, 4, 4, 6, 4, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 4}, w.data(), nullptr));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 ep::pack_conv2d({1, 2, 2, 1, 1, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 1}, w.data(), nullptr));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ep::pack_fully_connected(0, 4, w.data(), true, nullptr));
    }

    void fullyConnected_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        QTest::addColumn<bool>("transposed");
        QTest::addColumn<ep::Act>("act");
        QTest::newRow("resnet fc 512->1000") << 1 << 512 << 1000 << true << ep::Act::None;
        QTest::newRow("transB 0, 3 rows") << 3 << 17 << 33 << false << ep::Act::Relu;
        QTest::newRow("8 rows 64->7") << 8 << 64 << 7 << true << ep::Act::Clamp;
        QTest::newRow("1x1") << 1 << 1 << 1 << true << ep::Act::Sigmoid;
        QTest::newRow("15 rows leaky") << 15 << 40 << 65 << false << ep::Act::LeakyRelu;
        // Weights past 512 KB (few parts per thread), remainder rows and panels.
        QTest::newRow("large weights: 20 rows 300->450 sigmoid") << 20 << 300 << 450 << true << ep::Act::Sigmoid;
        QTest::newRow("transformer MLP: 9 rows 48->192 gelu") << 9 << 48 << 192 << true << ep::Act::Gelu;
    }

    void fullyConnected() {
        QFETCH(int, rows);
        QFETCH(int, k);
        QFETCH(int, n);
        QFETCH(bool, transposed);
        QFETCH(ep::Act, act);
        const auto x = randomVector(size_t(rows) * k, 7);
        const auto w = randomVector(size_t(n) * k, 8);
        const auto b = randomVector(n, 9);
        const ep::Activation activation = activationOf(act);
        const auto op = ep::pack_fully_connected(k, n, w.data(), transposed, b.data(), activation);
        std::vector<double> want(size_t(rows) * n);
        for (int r = 0; r < rows; ++r)
            for (int j = 0; j < n; ++j) {
                double sum = b[j];
                for (int i = 0; i < k; ++i)
                    sum += double(x[size_t(r) * k + i]) * (transposed ? w[size_t(j) * k + i] : w[size_t(i) * n + j]);
                want[size_t(r) * n + j] = activate(activation, sum);
            }
        std::vector<float> y(want.size(), NAN);
        ep::fully_connected(op, rows, x.data(), y.data());
        CHECK_CLOSE(y, want);
        ep::ThreadPool pool(2);
        std::vector<float> y2(want.size(), NAN);
        ep::fully_connected(op, rows, x.data(), y2.data(), &pool);
        QVERIFY(y2 == y);
    }

    // Attention's run-time x run-time products: b packed on the fly into panels (remainder and
    // narrow last panels, remainder tiles), on one thread and on two with the same bits.
    void matmulRuntime_data() {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        QTest::newRow("Q.K^T of a head: 197x64 x 64x197") << 197 << 64 << 197;
        QTest::newRow("A.V of a head: 197x197 x 197x64") << 197 << 197 << 64;
        QTest::newRow("narrow last panel 9x5 x 5x16") << 9 << 5 << 16;
        QTest::newRow("one column 13x7 x 7x1") << 13 << 7 << 1;
    }
    void matmulRuntime() {
        QFETCH(int, m);
        QFETCH(int, k);
        QFETCH(int, n);
        const auto a = randomVector(size_t(m) * k, 11);
        const auto b = randomVector(size_t(k) * n, 12);
        std::vector<double> want(size_t(m) * n);
        for (int r = 0; r < m; ++r)
            for (int j = 0; j < n; ++j) {
                double sum = 0;
                for (int i = 0; i < k; ++i) sum += double(a[size_t(r) * k + i]) * b[size_t(i) * n + j];
                want[size_t(r) * n + j] = sum;
            }
        std::vector<float> y(want.size() + 1, NAN);
        y.back() = -1.f;
        ep::matmul_runtime(a.data(), b.data(), y.data(), m, k, n, nullptr);
        QCOMPARE(y.back(), -1.f); // nothing past the product
        y.pop_back();
        CHECK_CLOSE(y, want);
        ep::ThreadPool pool(2);
        std::vector<float> y2(want.size(), NAN);
        ep::matmul_runtime(a.data(), b.data(), y2.data(), m, k, n, &pool);
        QVERIFY(y2 == y);
    }

    void pool2d_data() {
        for (const char* c : {"batch", "in_h", "in_w", "channels", "out_h", "out_w", "kernel_h", "kernel_w", "stride_h",
                              "stride_w", "dilation_h", "dilation_w", "pad_top", "pad_left", "pad_bottom", "pad_right"})
            QTest::addColumn<int>(c);
        QTest::addColumn<int>("kind"); // 0 max, 1 average excluding pads, 2 average including pads
        auto row = [](const char* name, ep::Pool2DShape s, int kind) {
            QTest::newRow(name) << s.batch << s.in_h << s.in_w << s.channels << s.out_h << s.out_w << s.kernel_h
                                << s.kernel_w << s.stride_h << s.stride_w << s.dilation_h << s.dilation_w << s.pad_top
                                << s.pad_left << s.pad_bottom << s.pad_right << kind;
        };
        // batch in_h in_w C out_h out_w kh kw sh sw dh dw pt pl pb pr
        row("max 3x3 s2 p1 (resnet)", {1, 12, 12, 64, 6, 6, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, 0);
        row("max 2x2 s2 odd ceil", {2, 7, 5, 3, 4, 3, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0}, 0);
        row("max dilation 2 asym", {1, 9, 8, 17, 7, 7, 3, 2, 1, 1, 2, 2, 1, 0, 2, 1}, 0);
        // Fewer than 16 channels: the row path off RVV (pool.cpp max_pool2d_rows).
        row("max 2x2 s2 6 ch (lenet)", {1, 28, 28, 6, 14, 14, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0}, 0);
        row("max 3x3 s1 p1 1 ch", {2, 5, 9, 1, 5, 9, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 0);
        row("max 3x2 dil 2 asym 5 ch", {1, 9, 8, 5, 7, 7, 3, 2, 1, 1, 2, 2, 1, 0, 2, 1}, 0);
        row("max 3x3 s2 p1 ceil 15 ch", {1, 11, 10, 15, 6, 6, 3, 3, 2, 2, 1, 1, 1, 1, 1, 2}, 0);
        // 16 channels and more on x86-64: the window in registers, 64 and 16 channels at a time
        // (pool.cpp reduce_taps_x86), inner windows at fixed offsets, border ones by tap list;
        // windows of over 64 taps take the channel loop.
        row("max 3x3 s2 p1 ceil 80 ch", {1, 11, 10, 80, 6, 6, 3, 3, 2, 2, 1, 1, 1, 1, 1, 2}, 0);
        row("avg 3x3 s2 p1 include 83 ch", {2, 9, 9, 83, 5, 5, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, 2);
        row("avg 3x3 dil 2 exclude 64 ch", {1, 9, 8, 64, 7, 6, 3, 3, 1, 1, 2, 2, 2, 1, 2, 1}, 1);
        row("max 9x9 (81 taps) 32 ch", {1, 10, 10, 32, 2, 2, 9, 9, 1, 1, 1, 1, 0, 0, 0, 0}, 0);
        row("avg 9x9 (81 taps) 32 ch", {1, 10, 10, 32, 2, 2, 9, 9, 1, 1, 1, 1, 0, 0, 0, 0}, 1);
        row("avg 3x3 s1 p1 exclude", {1, 6, 7, 20, 6, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 1);
        row("avg 3x3 s1 p1 include", {1, 6, 7, 20, 6, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 2);
        row("avg 3x3 s2 ceil include", {2, 8, 8, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1}, 2);
        row("avg 2x3 s2 asym exclude", {1, 7, 9, 9, 4, 5, 2, 3, 2, 2, 1, 1, 1, 0, 0, 1}, 1);
    }

    void pool2d() {
        ep::Pool2DShape s;
        QFETCH(int, batch);
        QFETCH(int, in_h);
        QFETCH(int, in_w);
        QFETCH(int, channels);
        QFETCH(int, out_h);
        QFETCH(int, out_w);
        QFETCH(int, kernel_h);
        QFETCH(int, kernel_w);
        QFETCH(int, stride_h);
        QFETCH(int, stride_w);
        QFETCH(int, dilation_h);
        QFETCH(int, dilation_w);
        QFETCH(int, pad_top);
        QFETCH(int, pad_left);
        QFETCH(int, pad_bottom);
        QFETCH(int, pad_right);
        QFETCH(int, kind);
        s = {batch,    in_h,     in_w,       channels,   out_h,   out_w,    kernel_h,   kernel_w,
             stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left, pad_bottom, pad_right};
        const auto x = randomVector(size_t(batch) * in_h * in_w * channels, 10);
        std::vector<double> want(size_t(batch) * out_h * out_w * channels);
        for (int n = 0; n < batch; ++n)
            for (int oy = 0; oy < out_h; ++oy)
                for (int ox = 0; ox < out_w; ++ox)
                    for (int c = 0; c < channels; ++c) {
                        double best = -INFINITY, sum = 0;
                        int inside = 0, padded = 0;
                        for (int ky = 0; ky < kernel_h; ++ky)
                            for (int kx = 0; kx < kernel_w; ++kx) {
                                const int iy = oy * stride_h - pad_top + ky * dilation_h;
                                const int ix = ox * stride_w - pad_left + kx * dilation_w;
                                if (iy >= -pad_top && iy < in_h + pad_bottom && ix >= -pad_left &&
                                    ix < in_w + pad_right)
                                    ++padded;
                                if (iy < 0 || iy >= in_h || ix < 0 || ix >= in_w) continue;
                                const double v = x[((size_t(n) * in_h + iy) * in_w + ix) * channels + c];
                                best = std::max(best, v);
                                sum += v;
                                ++inside;
                            }
                        want[((size_t(n) * out_h + oy) * out_w + ox) * channels + c] =
                            kind == 0 ? best : sum / (kind == 1 ? inside : padded);
                    }
        std::vector<float> y(want.size(), NAN);
        ep::ThreadPool pool(2);
        if (kind == 0)
            ep::max_pool2d(s, x.data(), y.data(), &pool);
        else
            ep::average_pool2d(s, kind == 2, x.data(), y.data(), &pool);
        CHECK_CLOSE(y, want);
        checkStridedOutput(
            channels,
            [&](float* out, int stride, ep::ThreadPool* p) {
                ep::Pool2DShape wide = s;
                wide.out_stride = stride;
                if (kind == 0)
                    ep::max_pool2d(wide, x.data(), out, p);
                else
                    ep::average_pool2d(wide, kind == 2, x.data(), out, p);
            },
            y, &pool);
    }

    // BatchNormalization's channel_affine reads and writes pixels of a wider tensor (a slice of
    // a concatenation), and copy_rows copies an input that was not written in place: the same
    // values as the contiguous calls.
    void stridedAffineAndRowCopies() {
        const int pixels = 37, channels = 20;
        const auto x = randomVector(size_t(pixels) * channels, 21);
        const auto scale = randomVector(channels, 22), shift = randomVector(channels, 23);
        const ep::Activation relu{ep::Act::Relu};
        std::vector<float> dense(x.size());
        ep::channel_affine(x.data(), pixels, channels, 1, scale.data(), shift.data(), dense.data(), relu);
        ep::ThreadPool pool(2);
        for (int xs : {0, 27}) {
            std::vector<float> xin = x;
            if (xs) { // the input as a strided slice too
                xin.assign(size_t(pixels) * xs, NAN);
                for (int p = 0; p < pixels; ++p)
                    std::copy(x.begin() + p * channels, x.begin() + (p + 1) * channels, xin.begin() + p * xs);
            }
            checkStridedOutput(
                channels,
                [&](float* out, int stride, ep::ThreadPool* p) {
                    ep::channel_affine(xin.data(), pixels, channels, 1, scale.data(), shift.data(), out, relu, p, xs,
                                       stride);
                },
                dense, &pool);
            std::vector<float> y(dense.size(), NAN);
            ep::channel_affine(xin.data(), pixels, channels, 1, scale.data(), shift.data(), y.data(), relu, &pool, xs,
                               0);
            QVERIFY(y == dense);
        }
        // copy_rows: strided to strided, and a contiguous block large enough to split.
        checkStridedOutput(
            channels,
            [&](float* out, int stride, ep::ThreadPool* p) {
                ep::copy_rows(x.data(), pixels, channels, channels, out, stride, p);
            },
            x, &pool);
        const auto big = randomVector(40000, 24);
        for (ep::ThreadPool* p : {static_cast<ep::ThreadPool*>(nullptr), &pool}) {
            std::vector<float> copy(big.size(), NAN);
            ep::copy_rows(big.data(), 1, int64_t(big.size()), int64_t(big.size()), copy.data(), int64_t(big.size()), p);
            QVERIFY(copy == big);
            std::vector<float> rows(big.size(), NAN);
            ep::copy_rows(big.data(), 400, 100, 100, rows.data(), 100, p);
            QVERIFY(rows == big);
        }
    }

    // A 1-D pool of a channels-first [N][C][W] input (as export emits MaxPool/AveragePool over
    // rank-3 tensors): equal to the channels-last pool of the transposed input, transposed back.
    void poolChannelsFirst() {
        for (const int channels : {5, 20, 64}) {
            const ep::Pool2DShape s{2, 1, 37, channels, 1, 19, 1, 3, 1, 2, 1, 1, 0, 1, 0, 1};
            const auto x = randomVector(size_t(2) * channels * 37, 31); // [N][C][W]
            std::vector<float> nwc(x.size());
            for (int n = 0; n < 2; ++n)
                for (int c = 0; c < channels; ++c)
                    for (int w = 0; w < 37; ++w)
                        nwc[(size_t(n) * 37 + w) * channels + c] = x[(size_t(n) * channels + c) * 37 + w];
            for (const bool isMax : {true, false}) {
                std::vector<float> want(size_t(2) * 19 * channels), got(want.size(), NAN);
                if (isMax)
                    ep::max_pool2d(s, nwc.data(), want.data());
                else
                    ep::average_pool2d(s, true, nwc.data(), want.data());
                std::vector<float> scratch(size_t(2) * (37 + 19) * channels);
                ep::ThreadPool pool(2);
                ep::pool2d_channels_first(s, isMax, true, x.data(), got.data(), scratch.data(), &pool);
                for (int n = 0; n < 2; ++n)
                    for (int c = 0; c < channels; ++c)
                        for (int w = 0; w < 19; ++w)
                            QCOMPARE(got[(size_t(n) * channels + c) * 19 + w],
                                     want[(size_t(n) * 19 + w) * channels + c]);
            }
        }
    }

    void globalPools() {
        for (auto [batch, pixels, channels] : {std::tuple{1, 49, 512}, std::tuple{2, 9, 7}, std::tuple{1, 1, 3}}) {
            const auto x = randomVector(size_t(batch) * pixels * channels, 11);
            std::vector<double> avg(size_t(batch) * channels), max(avg.size(), -INFINITY);
            for (int n = 0; n < batch; ++n)
                for (int p = 0; p < pixels; ++p)
                    for (int c = 0; c < channels; ++c) {
                        const double v = x[(size_t(n) * pixels + p) * channels + c];
                        avg[size_t(n) * channels + c] += v / pixels;
                        max[size_t(n) * channels + c] = std::max(max[size_t(n) * channels + c], v);
                    }
            std::vector<float> y(avg.size(), NAN);
            ep::global_average_pool(batch, pixels, channels, x.data(), y.data());
            CHECK_CLOSE(y, avg);
            ep::global_max_pool(batch, pixels, channels, x.data(), y.data());
            CHECK_CLOSE(y, max);
        }
    }

    void binary_data() {
        QTest::addColumn<ep::BinaryOp>("op");
        QTest::addColumn<std::vector<int64_t>>("a");
        QTest::addColumn<std::vector<int64_t>>("b");
        QTest::addColumn<ep::Act>("act");
        using V = std::vector<int64_t>;
        using O = ep::BinaryOp;
        QTest::newRow("add same shape relu") << O::Add << V{1, 5, 7, 9} << V{1, 5, 7, 9} << ep::Act::Relu;
        QTest::newRow("add per-channel") << O::Add << V{1, 5, 7, 9} << V{9} << ep::Act::None;
        QTest::newRow("mul scalar") << O::Mul << V{1, 5, 7, 9} << V{1} << ep::Act::None;
        QTest::newRow("sub scalar first") << O::Sub << V{1} << V{2, 3, 4, 5} << ep::Act::None;
        QTest::newRow("div both broadcast") << O::Div << V{2, 1, 7, 1} << V{1, 5, 1, 3} << ep::Act::None;
        QTest::newRow("min rank mismatch") << O::Min << V{3, 1, 5} << V{2, 1, 1, 5} << ep::Act::None;
        QTest::newRow("max outer broadcast") << O::Max << V{4, 1} << V{3} << ep::Act::None;
        QTest::newRow("mul squeeze-excite") << O::Mul << V{2, 6, 6, 40} << V{2, 1, 1, 40} << ep::Act::HardSwish;
        QTest::newRow("add channel-first broadcast") << O::Add << V{1, 4, 4, 1} << V{1, 4, 4, 6} << ep::Act::Clamp;
        QTest::newRow("pow") << O::Pow << V{3, 4} << V{4} << ep::Act::None;
        QTest::newRow("add large (threads)") << O::Add << V{1, 64, 64, 32} << V{1, 64, 64, 32} << ep::Act::LeakyRelu;
        QTest::newRow("add two long rows, scalar per row") << O::Add << V{2, 40001} << V{2, 1} << ep::Act::Relu;
        QTest::newRow("sub two long rows, first broadcast") << O::Sub << V{1, 40001} << V{2, 40001} << ep::Act::None;
    }

    void binary() {
        QFETCH(ep::BinaryOp, op);
        QFETCH(std::vector<int64_t>, a);
        QFETCH(std::vector<int64_t>, b);
        QFETCH(ep::Act, act);
        const ep::Dims ad(a.data(), int(a.size())), bd(b.data(), int(b.size()));
        const int rank = int(std::max(a.size(), b.size()));
        std::vector<int64_t> as(rank, 1), bs(rank, 1), os(rank);
        std::copy(a.begin(), a.end(), as.end() - a.size());
        std::copy(b.begin(), b.end(), bs.end() - b.size());
        for (int i = 0; i < rank; ++i) os[i] = std::max(as[i], bs[i]);
        const bool positive = op == ep::BinaryOp::Pow || op == ep::BinaryOp::Div;
        const auto x = randomVector(size_t(ad.count()), 12, positive ? 0.5f : -1.f, 2.f);
        const auto z = randomVector(size_t(bd.count()), 13, positive ? 0.5f : -1.f, 2.f);
        const ep::Activation activation = activationOf(act);
        size_t total = 1;
        for (auto d : os) total *= size_t(d);
        std::vector<double> want(total);
        for (size_t i = 0; i < total; ++i) {
            size_t rest = i, ai = 0, bi = 0, astep = 1, bstep = 1;
            for (int d = rank - 1; d >= 0; --d) {
                const size_t index = rest % size_t(os[d]);
                rest /= size_t(os[d]);
                if (as[d] != 1) ai += index * astep;
                if (bs[d] != 1) bi += index * bstep;
                astep *= size_t(as[d]);
                bstep *= size_t(bs[d]);
            }
            const double u = x[ai], v = z[bi];
            double r = 0;
            switch (op) {
            case ep::BinaryOp::Add: r = u + v; break;
            case ep::BinaryOp::Sub: r = u - v; break;
            case ep::BinaryOp::Mul: r = u * v; break;
            case ep::BinaryOp::Div: r = u / v; break;
            case ep::BinaryOp::Min: r = std::min(u, v); break;
            case ep::BinaryOp::Max: r = std::max(u, v); break;
            case ep::BinaryOp::Pow: r = std::pow(u, v); break;
            }
            want[i] = activate(activation, r);
        }
        std::vector<float> y(total, NAN);
        ep::ThreadPool pool(2);
        ep::binary(op, x.data(), ad, z.data(), bd, y.data(), activation, &pool);
        CHECK_CLOSE(y, want);
        if (size_t(ad.count()) == total) { // in place into a
            std::vector<float> inPlace = x;
            ep::binary(op, inPlace.data(), ad, z.data(), bd, inPlace.data(), activation);
            QVERIFY(inPlace == y);
        }
    }

    void binaryRefusesIncompatibleShapes() {
        const std::vector<float> v(12, 1.f);
        std::vector<float> out(12);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 ep::binary(ep::BinaryOp::Add, v.data(), {3, 4}, v.data(), {3}, out.data()));
    }

    void unary_data() {
        QTest::addColumn<ep::UnaryOp>("op");
        using U = ep::UnaryOp;
        for (auto [name, op] : {std::pair{"relu", U::Relu},
                                {"clip", U::Clip},
                                {"leaky", U::LeakyRelu},
                                {"sigmoid", U::Sigmoid},
                                {"tanh", U::Tanh},
                                {"hardswish", U::HardSwish},
                                {"hardsigmoid", U::HardSigmoid},
                                {"elu", U::Elu},
                                {"gelu", U::Gelu},
                                {"erf", U::Erf},
                                {"exp", U::Exp},
                                {"neg", U::Neg},
                                {"abs", U::Abs},
                                {"sqrt", U::Sqrt}})
            QTest::newRow(name) << op;
    }

    void unary() {
        QFETCH(ep::UnaryOp, op);
        const bool positive = op == ep::UnaryOp::Sqrt;
        const auto x = randomVector(1003, 14, positive ? 0.f : -4.f, 4.f);
        ep::UnaryParams p;
        p.min = -0.5f, p.max = 2.f, p.alpha = 0.3f, p.beta = 0.4f;
        std::vector<double> want(x.size());
        for (size_t i = 0; i < x.size(); ++i) {
            const double v = x[i];
            switch (op) {
            case ep::UnaryOp::Relu: want[i] = std::max(v, 0.0); break;
            case ep::UnaryOp::Clip: want[i] = std::min(std::max(v, -0.5), 2.0); break;
            case ep::UnaryOp::LeakyRelu: want[i] = v >= 0 ? v : double(p.alpha) * v; break;
            case ep::UnaryOp::Sigmoid: want[i] = 1 / (1 + std::exp(-v)); break;
            case ep::UnaryOp::Tanh: want[i] = std::tanh(v); break;
            case ep::UnaryOp::HardSwish: want[i] = v * std::min(1.0, std::max(0.0, v / 6 + 0.5)); break;
            case ep::UnaryOp::HardSigmoid:
                want[i] = std::min(1.0, std::max(0.0, double(p.alpha) * v + double(p.beta)));
                break;
            case ep::UnaryOp::Elu: want[i] = v >= 0 ? v : double(p.alpha) * std::expm1(v); break;
            case ep::UnaryOp::Gelu: want[i] = 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); break;
            case ep::UnaryOp::Erf: want[i] = std::erf(v); break;
            case ep::UnaryOp::Exp: want[i] = std::exp(v); break;
            case ep::UnaryOp::Neg: want[i] = -v; break;
            case ep::UnaryOp::Abs: want[i] = std::abs(v); break;
            case ep::UnaryOp::Sqrt: want[i] = std::sqrt(v); break;
            case ep::UnaryOp::Swish: want[i] = v / (1 + std::exp(-v)); break;
            case ep::UnaryOp::GeluTanh:
                want[i] = 0.5 * v * (1 + std::tanh(std::sqrt(2 / 3.14159265358979323846) * (v + 0.044715 * v * v * v)));
                break;
            }
        }
        std::vector<float> y = x; // in place
        ep::unary(op, y.data(), y.data(), y.size(), p);
        CHECK_CLOSE(y, want);
    }

    // Every element lands once, for the unrolled row counts (1-4), partial 64 x 256 blocks, a
    // batch, and large matrices that are split over the pool.
    void transposeMatrices_data() {
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        for (int rows : {1, 2, 3, 4, 5, 33, 64}) QTest::addRow("1x%dx77", rows) << 1 << rows << 77;
        QTest::newRow("batch 3 x 7 x 40") << 3 << 7 << 40;
        QTest::newRow("partial blocks 130 x 300") << 1 << 130 << 300;
        QTest::newRow("NHWC -> NCHW 16384 x 32") << 1 << 16384 << 32;
        QTest::newRow("image 3 x 224*224 (pool)") << 1 << 3 << 224 * 224;
        QTest::newRow("batch 2 x 300 x 97 (pool)") << 2 << 300 << 97;
    }

    void transposeMatrices() {
        QFETCH(int, batch);
        QFETCH(int, rows);
        QFETCH(int, cols);
        const auto x = randomVector(size_t(batch) * rows * cols, 21);
        std::vector<float> want(x.size());
        for (int n = 0; n < batch; ++n)
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < cols; ++c)
                    want[(size_t(n) * cols + c) * rows + r] = x[(size_t(n) * rows + r) * cols + c];
        std::vector<float> y(x.size(), NAN);
        ep::transpose_matrices(x.data(), batch, rows, cols, y.data());
        QVERIFY(y == want);
        ep::ThreadPool pool(2);
        std::vector<float> y2(x.size(), NAN);
        ep::transpose_matrices(x.data(), batch, rows, cols, y2.data(), &pool);
        QVERIFY(y2 == want);
    }

    void threadPoolCoversEveryIndexOnce_data() {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("n");
        // 130: more threads than a job has parts (ThreadPool::kMaxParts), so some runs are empty
        for (int threads : {1, 2, 3, 130})
            for (int n : {0, 1, 2, 5, 1000}) QTest::addRow("%d threads, n=%d", threads, n) << threads << n;
    }

    void threadPoolCoversEveryIndexOnce() {
        QFETCH(int, threads);
        QFETCH(int, n);
        ep::ThreadPool pool(threads);
        QCOMPARE(pool.threads(), threads);
        for (int round = 0; round < 3; ++round) {
            std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
            pool.parallel_for(n, [&](int64_t begin, int64_t end) {
                for (int64_t i = begin; i < end; ++i) hits[size_t(i)]++;
            });
            for (int i = 0; i < n; ++i) QCOMPARE(hits[size_t(i)].load(), 1);
        }
    }

    // A worker still busy when the caller runs out of parts: the caller stops spinning and
    // sleeps, and the worker's last part wakes it (many jobs, so every interleaving of the
    // last increment with the caller going to sleep comes up).
    void threadPoolCallerSleepsUntilSlowWorkerIsDone() {
        ep::ThreadPool pool(2);
        const std::thread::id caller = std::this_thread::get_id();
        for (int job = 0; job < 300; ++job) {
            std::atomic<int> sum{0};
            pool.parallel_for(
                64,
                [&](int64_t begin, int64_t end) {
                    if (std::this_thread::get_id() != caller)
                        std::this_thread::sleep_for(std::chrono::microseconds(job % 3 == 0 ? 2000 : job % 200));
                    for (int64_t i = begin; i < end; ++i) sum += int(i);
                },
                4);
            QCOMPARE(sum.load(), 64 * 63 / 2);
        }
    }

    // Several parts per thread: every index once, in contiguous parts; the caller's own parts
    // come first; and when the caller is slow, the workers take over the end of its run.
    void threadPoolStealsPartsOfSlowThreads() {
        for (int threads : {2, 3, 40}) {
            ep::ThreadPool pool(threads);
            for (int ppt : {1, 4, 16, 100}) {
                const int64_t n = 1000;
                std::vector<std::atomic<int>> hits(n);
                std::atomic<int> calls{0}, caller_calls{0};
                const std::thread::id caller = std::this_thread::get_id();
                pool.parallel_for(
                    n,
                    [&](int64_t begin, int64_t end) {
                        ++calls;
                        if (std::this_thread::get_id() == caller) {
                            ++caller_calls;
                            std::this_thread::sleep_for(std::chrono::milliseconds(20)); // a slow core
                        }
                        for (int64_t i = begin; i < end; ++i) hits[size_t(i)]++;
                    },
                    ppt);
                for (int64_t i = 0; i < n; ++i) QCOMPARE(hits[size_t(i)].load(), 1);
                const int parts = std::min<int>(threads * ppt, ep::ThreadPool::kMaxParts);
                QCOMPARE(calls.load(), parts);
                if (parts >= 2 * threads) // the caller's run had parts left for the others to take
                    QVERIFY2(caller_calls.load() < parts / threads,
                             qPrintable(QString("caller ran %1 of %2 parts").arg(caller_calls.load()).arg(parts)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestPortableKernels)
#include "tst_portable_kernels.moc"

// Checks each XNNPACK wrapper of runtime/xnnpack against a naive double-precision
// loop written here (NHWC), with a relative error bound of 1e-5 of the largest reference value.
#include "embark_xnnpack.h"

#include <QTest>

#ifdef EMBARK_TEST_NO_XNNPACK
// Configured on a machine without XNNPACK: nothing to link the wrappers against.
class TestXnnpackWrappers : public QObject {
    Q_OBJECT
private slots:
    void skipped() {
        QSKIP("XNNPACK is not installed: apt-get install libxnnpack-dev libpthreadpool-dev libcpuinfo-dev");
    }
};
#else

#  include <algorithm>
#  include <cmath>
#  include <functional>
#  include <random>
#  include <vector>

using namespace embark_xnn;

namespace {

constexpr double kTolerance = 1e-5;

// Buffers keep XNNPACK's read-past-the-end slack.
std::vector<float> buffer(size_t n) { return std::vector<float>(n + kExtraBytes / sizeof(float), 0.0f); }

std::vector<float> randomBuffer(size_t n, unsigned seed, float lo = -1.0f, float hi = 1.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v = buffer(n);
    for (size_t i = 0; i < n; ++i) v[i] = dist(rng);
    return v;
}

// max |got - want| / max |want| over n values.
double relativeError(const float* got, const std::vector<double>& want) {
    double maxDiff = 0, maxRef = 1e-30;
    for (size_t i = 0; i < want.size(); ++i) {
        maxDiff = std::max(maxDiff, std::abs(double(got[i]) - want[i]));
        maxRef = std::max(maxRef, std::abs(want[i]));
    }
    return maxDiff / maxRef;
}

double clampTo(double v, const OutputRange& r) { return std::min<double>(std::max<double>(v, r.min), r.max); }

#  define CHECK_CLOSE(got, want)                                                                                       \
    do {                                                                                                               \
      const double err_ = relativeError(got, want);                                                                    \
      QVERIFY2(err_ <= kTolerance, qPrintable(QString("relative error %1").arg(err_)));                                \
    } while (0)

std::vector<double> naiveConv(const std::vector<float>& in, const std::vector<float>& wOIHW,
                              const std::vector<float>& bias, const Conv2dParams& p, size_t oh, size_t ow,
                              OutputRange range) {
    const size_t cinG = p.inputChannels / p.groups, coutG = p.outputChannels / p.groups;
    std::vector<double> out(p.batch * oh * ow * p.outputChannels);
    for (size_t n = 0; n < p.batch; ++n)
        for (size_t y = 0; y < oh; ++y)
            for (size_t x = 0; x < ow; ++x)
                for (size_t o = 0; o < p.outputChannels; ++o) {
                    const size_t g = o / coutG;
                    double acc = bias.empty() ? 0.0 : bias[o];
                    for (size_t ky = 0; ky < p.kernelHeight; ++ky)
                        for (size_t kx = 0; kx < p.kernelWidth; ++kx) {
                            const long iy = long(y * p.strideHeight + ky * p.dilationHeight) - long(p.padTop);
                            const long ix = long(x * p.strideWidth + kx * p.dilationWidth) - long(p.padLeft);
                            if (iy < 0 || ix < 0 || iy >= long(p.inputHeight) || ix >= long(p.inputWidth)) continue;
                            for (size_t i = 0; i < cinG; ++i) {
                                const size_t c = g * cinG + i;
                                acc +=
                                    double(in[((n * p.inputHeight + iy) * p.inputWidth + ix) * p.inputChannels + c]) *
                                    wOIHW[((o * cinG + i) * p.kernelHeight + ky) * p.kernelWidth + kx];
                            }
                        }
                    out[((n * oh + y) * ow + x) * p.outputChannels + o] = clampTo(acc, range);
                }
    return out;
}

// Transposed convolution by scatter: input pixel (iy, ix) adds w * x to output pixel
// (iy * stride + ky * dilation - padTop, ...); weights in XNNPACK's [Cout][kh][kw][Cin/g].
std::vector<double> naiveDeconv(const std::vector<float>& in, const std::vector<float>& wOHWI,
                                const std::vector<float>& bias, const Conv2dParams& p, size_t oh, size_t ow,
                                OutputRange range) {
    const size_t cinG = p.inputChannels / p.groups, coutG = p.outputChannels / p.groups;
    std::vector<double> out(p.batch * oh * ow * p.outputChannels, 0.0);
    for (size_t n = 0; n < p.batch; ++n)
        for (size_t iy = 0; iy < p.inputHeight; ++iy)
            for (size_t ix = 0; ix < p.inputWidth; ++ix)
                for (size_t ky = 0; ky < p.kernelHeight; ++ky)
                    for (size_t kx = 0; kx < p.kernelWidth; ++kx) {
                        const long y = long(iy * p.strideHeight + ky * p.dilationHeight) - long(p.padTop);
                        const long x = long(ix * p.strideWidth + kx * p.dilationWidth) - long(p.padLeft);
                        if (y < 0 || x < 0 || y >= long(oh) || x >= long(ow)) continue;
                        for (size_t o = 0; o < p.outputChannels; ++o) {
                            const size_t g = o / coutG;
                            double acc = 0;
                            for (size_t i = 0; i < cinG; ++i)
                                acc += double(in[((n * p.inputHeight + iy) * p.inputWidth + ix) * p.inputChannels +
                                                 g * cinG + i]) *
                                       wOHWI[((o * p.kernelHeight + ky) * p.kernelWidth + kx) * cinG + i];
                            out[((n * oh + size_t(y)) * ow + size_t(x)) * p.outputChannels + o] += acc;
                        }
                    }
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = clampTo(out[i] + (bias.empty() ? 0.0 : bias[i % p.outputChannels]), range);
    return out;
}

std::vector<double> naivePool(const std::vector<float>& in, const Pool2dParams& p, size_t oh, size_t ow, bool max) {
    std::vector<double> out(p.batch * oh * ow * p.channels);
    for (size_t n = 0; n < p.batch; ++n)
        for (size_t y = 0; y < oh; ++y)
            for (size_t x = 0; x < ow; ++x)
                for (size_t c = 0; c < p.channels; ++c) {
                    double acc = max ? -INFINITY : 0.0;
                    int count = 0;
                    for (size_t ky = 0; ky < p.kernelHeight; ++ky)
                        for (size_t kx = 0; kx < p.kernelWidth; ++kx) {
                            const long iy = long(y * p.strideHeight + ky * p.dilationHeight) - long(p.padTop);
                            const long ix = long(x * p.strideWidth + kx * p.dilationWidth) - long(p.padLeft);
                            if (iy < 0 || ix < 0 || iy >= long(p.inputHeight) || ix >= long(p.inputWidth)) continue;
                            const double v = in[((n * p.inputHeight + iy) * p.inputWidth + ix) * p.channels + c];
                            acc = max ? std::max(acc, v) : acc + v;
                            ++count;
                        }
                    out[((n * oh + y) * ow + x) * p.channels + c] = max ? acc : acc / count;
                }
    return out;
}

// Index of `outIndex` (row-major in outShape) inside a broadcast input of shape `in`.
size_t broadcastIndex(size_t outIndex, const std::vector<size_t>& outShape, const std::vector<size_t>& in) {
    size_t index = 0, stride = 1;
    for (size_t d = outShape.size(); d-- > 0;) {
        const size_t coord = outIndex % outShape[d];
        outIndex /= outShape[d];
        const size_t inRank = in.size(), lead = outShape.size() - inRank;
        if (d >= lead) {
            const size_t dim = in[d - lead];
            index += (dim == 1 ? 0 : coord) * stride;
            stride *= dim;
        }
    }
    return index;
}

size_t product(const std::vector<size_t>& s) {
    size_t n = 1;
    for (size_t d : s) n *= d;
    return n;
}

} // namespace

Q_DECLARE_METATYPE(Conv2dParams)
Q_DECLARE_METATYPE(Pool2dParams)
Q_DECLARE_METATYPE(OutputRange)
Q_DECLARE_METATYPE(BinaryOp)
Q_DECLARE_METATYPE(UnaryOp)
Q_DECLARE_METATYPE(std::vector<size_t>)

class TestXnnpackWrappers : public QObject {
    Q_OBJECT

private slots:
    void convolution_data();
    void convolution();
    void deconvolution_data();
    void deconvolution();
    void fullyConnected_data();
    void fullyConnected();
    void pooling_data();
    void pooling();
    void globalAveragePool();
    void binary_data();
    void binary();
    void unary_data();
    void unary();
    void softmax();
    void transpose();
    void concat();
    void errorsNameTheLayer();
    void int8ErrorsNameTheLayer();
    void pointersRebindBetweenCalls();
};

static Conv2dParams conv(size_t n, size_t h, size_t w, size_t cin, size_t cout, uint32_t k, uint32_t stride,
                         uint32_t dil, uint32_t pt, uint32_t pl, uint32_t pb, uint32_t pr, uint32_t groups) {
    Conv2dParams p;
    p.batch = n;
    p.inputHeight = h;
    p.inputWidth = w;
    p.inputChannels = cin;
    p.outputChannels = cout;
    p.kernelHeight = p.kernelWidth = k;
    p.strideHeight = p.strideWidth = stride;
    p.dilationHeight = p.dilationWidth = dil;
    p.padTop = pt;
    p.padLeft = pl;
    p.padBottom = pb;
    p.padRight = pr;
    p.groups = groups;
    return p;
}

void TestXnnpackWrappers::convolution_data() {
    QTest::addColumn<Conv2dParams>("params");
    QTest::addColumn<bool>("ohwi");
    QTest::addColumn<OutputRange>("range");
    QTest::addColumn<int>("threads");
    const OutputRange none, relu = OutputRange::relu(), clip = OutputRange::clip(-0.5f, 0.5f);
    QTest::newRow("3x3 pad1") << conv(1, 9, 11, 5, 7, 3, 1, 1, 1, 1, 1, 1, 1) << false << none << 1;
    QTest::newRow("3x3 pad1 relu 2 threads") << conv(2, 12, 12, 16, 32, 3, 1, 1, 1, 1, 1, 1, 1) << false << relu << 2;
    QTest::newRow("stride2 asymmetric pads") << conv(1, 10, 9, 3, 8, 3, 2, 1, 0, 1, 1, 0, 1) << false << none << 1;
    QTest::newRow("dilation2") << conv(1, 12, 12, 4, 6, 3, 1, 2, 2, 2, 2, 2, 1) << false << clip << 1;
    QTest::newRow("1x1") << conv(2, 5, 5, 24, 40, 1, 1, 1, 0, 0, 0, 0, 1) << false << none << 1;
    QTest::newRow("7x7 stride2 OHWI") << conv(1, 20, 20, 3, 16, 7, 2, 1, 3, 3, 3, 3, 1) << true << relu << 1;
    QTest::newRow("grouped 2") << conv(1, 8, 8, 8, 12, 3, 1, 1, 1, 1, 1, 1, 2) << false << none << 1;
    QTest::newRow("grouped 4 OHWI") << conv(1, 7, 7, 16, 8, 3, 2, 1, 1, 1, 1, 1, 4) << true << none << 1;
    QTest::newRow("depthwise 3x3") << conv(1, 10, 10, 32, 32, 3, 1, 1, 1, 1, 1, 1, 32) << false << relu << 1;
    QTest::newRow("depthwise stride2 pads") << conv(2, 11, 11, 8, 8, 3, 2, 1, 0, 0, 1, 1, 8) << false << clip << 2;
    QTest::newRow("depthwise multiplier 2") << conv(1, 6, 6, 4, 8, 5, 1, 1, 2, 2, 2, 2, 4) << false << none << 1;
}

void TestXnnpackWrappers::convolution() {
    QFETCH(Conv2dParams, params);
    QFETCH(bool, ohwi);
    QFETCH(OutputRange, range);
    QFETCH(int, threads);
    Context context(threads);
    const size_t cinG = params.inputChannels / params.groups;
    const size_t taps = size_t(params.kernelHeight) * params.kernelWidth;
    const auto input = randomBuffer(params.batch * params.inputHeight * params.inputWidth * params.inputChannels, 1);
    auto weights = randomBuffer(params.outputChannels * cinG * taps, 2);
    weights.resize(params.outputChannels * cinG * taps);
    auto bias = randomBuffer(params.outputChannels, 3);
    bias.resize(params.outputChannels);

    std::vector<float> given = weights;
    if (ohwi) {
        for (size_t o = 0; o < params.outputChannels; ++o)
            for (size_t i = 0; i < cinG; ++i)
                for (size_t t = 0; t < taps; ++t) given[(o * taps + t) * cinG + i] = weights[(o * cinG + i) * taps + t];
    }
    Convolution2d layer(context, "conv", params, given.data(), bias.data(),
                        ohwi ? FilterLayout::OHWI : FilterLayout::OIHW, range);
    const size_t oh = layer.outputHeight(), ow = layer.outputWidth();
    auto output = buffer(params.batch * oh * ow * params.outputChannels);
    layer.forward(input.data(), output.data());
    CHECK_CLOSE(output.data(), naiveConv(input, weights, bias, params, oh, ow, range));
}

void TestXnnpackWrappers::deconvolution_data() {
    QTest::addColumn<Conv2dParams>("params");
    QTest::addColumn<int>("adjustment");
    QTest::addColumn<OutputRange>("range");
    QTest::addColumn<int>("threads");
    const OutputRange none, relu = OutputRange::relu();
    QTest::newRow("3x3 stride1") << conv(1, 5, 6, 4, 3, 3, 1, 1, 0, 0, 0, 0, 1) << 0 << none << 1;
    QTest::newRow("2x2 stride2 upsample relu 2 threads")
        << conv(2, 7, 7, 8, 16, 2, 2, 1, 0, 0, 0, 0, 1) << 0 << relu << 2;
    QTest::newRow("3x3 stride2 pads output_padding 1") << conv(1, 6, 5, 6, 4, 3, 2, 1, 1, 1, 1, 1, 1) << 1 << none << 1;
    QTest::newRow("4x4 stride2 asymmetric pads") << conv(1, 4, 4, 3, 5, 4, 2, 1, 1, 2, 0, 1, 1) << 0 << none << 1;
    QTest::newRow("dilation2") << conv(1, 5, 5, 2, 3, 3, 1, 2, 0, 0, 0, 0, 1) << 0 << none << 1;
    QTest::newRow("grouped 2") << conv(1, 5, 5, 8, 6, 3, 2, 1, 1, 1, 1, 1, 2) << 1 << relu << 1;
}

void TestXnnpackWrappers::deconvolution() {
    QFETCH(Conv2dParams, params);
    QFETCH(int, adjustment);
    QFETCH(OutputRange, range);
    QFETCH(int, threads);
    Context context(threads);
    const size_t cinG = params.inputChannels / params.groups;
    const size_t taps = size_t(params.kernelHeight) * params.kernelWidth;
    const auto input = randomBuffer(params.batch * params.inputHeight * params.inputWidth * params.inputChannels, 11);
    auto weights = randomBuffer(params.outputChannels * taps * cinG, 12);
    weights.resize(params.outputChannels * taps * cinG);
    auto bias = randomBuffer(params.outputChannels, 13);
    bias.resize(params.outputChannels);
    Deconvolution2d layer(context, "deconv", params, uint32_t(adjustment), uint32_t(adjustment), weights.data(),
                          bias.data(), range);
    const size_t oh = layer.outputHeight(), ow = layer.outputWidth();
    QCOMPARE(oh, params.strideHeight * (params.inputHeight - 1) + adjustment +
                     params.dilationHeight * (params.kernelHeight - 1) + 1 - params.padTop - params.padBottom);
    auto output = buffer(params.batch * oh * ow * params.outputChannels);
    layer.forward(input.data(), output.data());
    CHECK_CLOSE(output.data(), naiveDeconv(input, weights, bias, params, oh, ow, range));
}

void TestXnnpackWrappers::fullyConnected_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("in");
    QTest::addColumn<int>("out");
    QTest::addColumn<bool>("inOut");
    QTest::addColumn<bool>("withBias");
    QTest::newRow("gemm transB") << 1 << 64 << 10 << false << true;
    QTest::newRow("matmul layout") << 3 << 17 << 9 << true << true;
    QTest::newRow("no bias") << 4 << 32 << 33 << false << false;
}

void TestXnnpackWrappers::fullyConnected() {
    QFETCH(int, rows);
    QFETCH(int, in);
    QFETCH(int, out);
    QFETCH(bool, inOut);
    QFETCH(bool, withBias);
    Context context(1);
    const auto input = randomBuffer(size_t(rows) * in, 4);
    const auto weights = randomBuffer(size_t(in) * out, 5);
    const auto bias = randomBuffer(size_t(out), 6);
    const OutputRange range = OutputRange::relu();
    FullyConnected layer(context, "fc", rows, in, out, weights.data(), withBias ? bias.data() : nullptr,
                         inOut ? WeightLayout::InOut : WeightLayout::OutIn, range);
    auto output = buffer(size_t(rows) * out);
    layer.forward(input.data(), output.data());
    std::vector<double> want(size_t(rows) * out);
    for (int r = 0; r < rows; ++r)
        for (int o = 0; o < out; ++o) {
            double acc = withBias ? bias[o] : 0.0;
            for (int i = 0; i < in; ++i)
                acc += double(input[r * in + i]) * (inOut ? weights[size_t(i) * out + o] : weights[size_t(o) * in + i]);
            want[size_t(r) * out + o] = clampTo(acc, range);
        }
    CHECK_CLOSE(output.data(), want);
}

void TestXnnpackWrappers::pooling_data() {
    QTest::addColumn<Pool2dParams>("params");
    QTest::addColumn<bool>("max");
    auto pool = [](size_t h, size_t w, size_t c, uint32_t k, uint32_t s, uint32_t d, uint32_t pt, uint32_t pl,
                   uint32_t pb, uint32_t pr) {
        Pool2dParams p;
        p.batch = 2;
        p.inputHeight = h;
        p.inputWidth = w;
        p.channels = c;
        p.kernelHeight = p.kernelWidth = k;
        p.strideHeight = p.strideWidth = s;
        p.dilationHeight = p.dilationWidth = d;
        p.padTop = pt;
        p.padLeft = pl;
        p.padBottom = pb;
        p.padRight = pr;
        return p;
    };
    QTest::newRow("max 3x3 s2 pad1") << pool(12, 12, 16, 3, 2, 1, 1, 1, 1, 1) << true;
    QTest::newRow("max 2x2 s2") << pool(8, 10, 5, 2, 2, 1, 0, 0, 0, 0) << true;
    QTest::newRow("max dilated") << pool(9, 9, 3, 2, 1, 2, 0, 0, 0, 0) << true;
    QTest::newRow("max ceil_mode as extra pad") << pool(7, 7, 4, 2, 2, 1, 0, 0, 1, 1) << true;
    QTest::newRow("avg 3x3 s1 pad1 excluded") << pool(6, 7, 8, 3, 1, 1, 1, 1, 1, 1) << false;
    QTest::newRow("avg 2x2 s2") << pool(8, 8, 12, 2, 2, 1, 0, 0, 0, 0) << false;
    QTest::newRow("avg asymmetric pads") << pool(5, 6, 3, 3, 2, 1, 0, 1, 2, 0) << false;
}

void TestXnnpackWrappers::pooling() {
    QFETCH(Pool2dParams, params);
    QFETCH(bool, max);
    Context context(1);
    const auto input = randomBuffer(params.batch * params.inputHeight * params.inputWidth * params.channels, 7);
    std::function<void(const float*, float*)> run;
    size_t oh = 0, ow = 0;
    std::unique_ptr<MaxPool2d> maxPool;
    std::unique_ptr<AveragePool2d> avgPool;
    if (max) {
        maxPool = std::make_unique<MaxPool2d>(context, "maxpool", params);
        oh = maxPool->outputHeight();
        ow = maxPool->outputWidth();
    } else {
        avgPool = std::make_unique<AveragePool2d>(context, "avgpool", params);
        oh = avgPool->outputHeight();
        ow = avgPool->outputWidth();
    }
    auto output = buffer(params.batch * oh * ow * params.channels);
    if (max)
        maxPool->forward(input.data(), output.data());
    else
        avgPool->forward(input.data(), output.data());
    CHECK_CLOSE(output.data(), naivePool(input, params, oh, ow, max));
}

void TestXnnpackWrappers::globalAveragePool() {
    Context context(2);
    const size_t n = 2, h = 7, w = 5, c = 24;
    const auto input = randomBuffer(n * h * w * c, 8);
    const OutputRange range = OutputRange::clip(-0.05f, 0.05f);
    GlobalAveragePool layer(context, "gap", n, h, w, c, range);
    auto output = buffer(n * c);
    layer.forward(input.data(), output.data());
    std::vector<double> want(n * c);
    for (size_t b = 0; b < n; ++b)
        for (size_t ch = 0; ch < c; ++ch) {
            double sum = 0;
            for (size_t px = 0; px < h * w; ++px) sum += input[(b * h * w + px) * c + ch];
            want[b * c + ch] = clampTo(sum / (h * w), range);
        }
    CHECK_CLOSE(output.data(), want);
}

void TestXnnpackWrappers::binary_data() {
    using S = std::vector<size_t>;
    QTest::addColumn<BinaryOp>("op");
    QTest::addColumn<S>("a");
    QTest::addColumn<S>("b");
    QTest::addColumn<OutputRange>("range");
    const OutputRange none, relu = OutputRange::relu();
    QTest::newRow("add same") << BinaryOp::Add << S{1, 4, 5, 8} << S{1, 4, 5, 8} << none;
    QTest::newRow("add relu per-channel") << BinaryOp::Add << S{2, 3, 3, 16} << S{1, 1, 1, 16} << relu;
    QTest::newRow("mul per-pixel") << BinaryOp::Multiply << S{1, 4, 4, 8} << S{1, 4, 4, 1} << none;
    QTest::newRow("mul scalar") << BinaryOp::Multiply << S{3, 7} << S{} << none;
    QTest::newRow("mul both broadcast") << BinaryOp::Multiply << S{4, 1, 6} << S{5, 1} << none;
    QTest::newRow("sub") << BinaryOp::Subtract << S{1, 1, 8} << S{2, 3, 8} << none;
    QTest::newRow("div") << BinaryOp::Divide << S{2, 8} << S{8} << none;
    QTest::newRow("max relu") << BinaryOp::Maximum << S{2, 2, 2, 4} << S{4} << relu;
    QTest::newRow("min") << BinaryOp::Minimum << S{6} << S{1} << none;
}

void TestXnnpackWrappers::binary() {
    QFETCH(BinaryOp, op);
    QFETCH(std::vector<size_t>, a);
    QFETCH(std::vector<size_t>, b);
    QFETCH(OutputRange, range);
    Context context(1);
    // Divisors kept away from zero so the relative error stays meaningful.
    const auto da = randomBuffer(product(a), 9);
    const auto db = op == BinaryOp::Divide ? randomBuffer(product(b), 10, 0.5f, 2.0f) : randomBuffer(product(b), 10);
    Binary layer(context, "binary", op, a, b, range);
    const auto shape = layer.outputShape();
    auto output = buffer(product(shape));
    layer.forward(da.data(), db.data(), output.data());
    std::vector<double> want(product(shape));
    for (size_t i = 0; i < want.size(); ++i) {
        const double x = da[broadcastIndex(i, shape, a)], y = db[broadcastIndex(i, shape, b)];
        double v = 0;
        switch (op) {
        case BinaryOp::Add: v = x + y; break;
        case BinaryOp::Subtract: v = x - y; break;
        case BinaryOp::Multiply: v = x * y; break;
        case BinaryOp::Divide: v = x / y; break;
        case BinaryOp::Maximum: v = std::max(x, y); break;
        case BinaryOp::Minimum: v = std::min(x, y); break;
        }
        want[i] = clampTo(v, range);
    }
    CHECK_CLOSE(output.data(), want);
}

void TestXnnpackWrappers::unary_data() {
    QTest::addColumn<UnaryOp>("op");
    QTest::addColumn<bool>("inPlace");
    QTest::newRow("clamp") << UnaryOp::Clamp << false;
    QTest::newRow("clamp in place") << UnaryOp::Clamp << true;
    QTest::newRow("sigmoid") << UnaryOp::Sigmoid << false;
    QTest::newRow("hardswish") << UnaryOp::HardSwish << false;
    QTest::newRow("leaky relu") << UnaryOp::LeakyRelu << true;
    QTest::newRow("elu") << UnaryOp::Elu << false;
    QTest::newRow("tanh") << UnaryOp::Tanh << false;
    QTest::newRow("abs") << UnaryOp::Abs << false;
    QTest::newRow("negate") << UnaryOp::Negate << false;
    QTest::newRow("square") << UnaryOp::Square << false;
    QTest::newRow("sqrt") << UnaryOp::SquareRoot << false;
}

void TestXnnpackWrappers::unary() {
    QFETCH(UnaryOp, op);
    QFETCH(bool, inPlace);
    Context context(2);
    const size_t count = 10007; // odd, and large enough to be split across threads
    const float scale = op == UnaryOp::HardSwish || op == UnaryOp::Sigmoid ? 6.0f : 2.0f;
    auto input =
        op == UnaryOp::SquareRoot ? randomBuffer(count, 11, 0.0f, 4.0f) : randomBuffer(count, 11, -scale, scale);
    UnaryParams params;
    params.min = -0.25f;
    params.max = 0.75f;
    params.alpha = 0.2f;
    std::vector<double> want(count);
    for (size_t i = 0; i < count; ++i) {
        const double x = input[i];
        switch (op) {
        case UnaryOp::Clamp: want[i] = std::min(std::max(x, -0.25), 0.75); break;
        case UnaryOp::Sigmoid: want[i] = 1 / (1 + std::exp(-x)); break;
        case UnaryOp::HardSwish: want[i] = x * std::min(std::max(x + 3, 0.0), 6.0) / 6; break;
        case UnaryOp::LeakyRelu: want[i] = x < 0 ? 0.2 * x : x; break;
        case UnaryOp::Elu: want[i] = x < 0 ? 0.2 * std::expm1(x) : x; break;
        case UnaryOp::Tanh: want[i] = std::tanh(x); break;
        case UnaryOp::Abs: want[i] = std::abs(x); break;
        case UnaryOp::Negate: want[i] = -x; break;
        case UnaryOp::Square: want[i] = x * x; break;
        case UnaryOp::SquareRoot: want[i] = std::sqrt(x); break;
        }
    }
    Unary layer(context, "unary", op, count, params);
    auto output = buffer(count);
    float* out = inPlace ? input.data() : output.data();
    layer.forward(input.data(), out);
    CHECK_CLOSE(out, want);
}

void TestXnnpackWrappers::softmax() {
    Context context(1);
    const size_t rows = 6, channels = 1000;
    const auto input = randomBuffer(rows * channels, 12, -8.0f, 8.0f);
    Softmax layer(context, "softmax", rows, channels);
    auto output = buffer(rows * channels);
    layer.forward(input.data(), output.data());
    std::vector<double> want(rows * channels);
    for (size_t r = 0; r < rows; ++r) {
        double maxv = -INFINITY, sum = 0;
        for (size_t c = 0; c < channels; ++c) maxv = std::max<double>(maxv, input[r * channels + c]);
        for (size_t c = 0; c < channels; ++c) sum += std::exp(input[r * channels + c] - maxv);
        for (size_t c = 0; c < channels; ++c) want[r * channels + c] = std::exp(input[r * channels + c] - maxv) / sum;
    }
    CHECK_CLOSE(output.data(), want);
}

void TestXnnpackWrappers::transpose() {
    Context context(1);
    const std::vector<size_t> shape{2, 3, 4, 5}, perm{0, 2, 3, 1}; // NCHW -> NHWC
    const auto input = randomBuffer(product(shape), 13);
    Transpose layer(context, "to_nhwc", shape, perm);
    QCOMPARE(layer.outputShape(), (std::vector<size_t>{2, 4, 5, 3}));
    auto output = buffer(product(shape));
    layer.forward(input.data(), output.data());
    std::vector<double> want(product(shape));
    for (size_t n = 0; n < 2; ++n)
        for (size_t c = 0; c < 3; ++c)
            for (size_t y = 0; y < 4; ++y)
                for (size_t x = 0; x < 5; ++x)
                    want[((n * 4 + y) * 5 + x) * 3 + c] = input[((n * 3 + c) * 4 + y) * 5 + x];
    CHECK_CLOSE(output.data(), want);
}

void TestXnnpackWrappers::concat() {
    Context context(2);
    const size_t rows = 2 * 5 * 5;
    const std::vector<size_t> channels{3, 8, 5};
    std::vector<std::vector<float>> inputs;
    for (size_t i = 0; i < channels.size(); ++i) inputs.push_back(randomBuffer(rows * channels[i], 20 + unsigned(i)));
    const float* pointers[] = {inputs[0].data(), inputs[1].data(), inputs[2].data()};
    Concat layer(context, "concat", rows, channels);
    auto output = buffer(rows * 16);
    layer.forward(pointers, output.data());
    std::vector<double> want(rows * 16);
    for (size_t r = 0; r < rows; ++r) {
        size_t offset = 0;
        for (size_t i = 0; i < channels.size(); ++i) {
            for (size_t c = 0; c < channels[i]; ++c) want[r * 16 + offset + c] = inputs[i][r * channels[i] + c];
            offset += channels[i];
        }
    }
    CHECK_CLOSE(output.data(), want);
}

void TestXnnpackWrappers::errorsNameTheLayer() {
    Context context(1);
    const std::vector<float> weights(64, 0.5f);
    // Caught by the wrapper's own checks.
    try {
        Convolution2d(context, "conv_bad_groups", conv(1, 4, 4, 6, 4, 1, 1, 1, 0, 0, 0, 0, 4), weights.data(), nullptr);
        QFAIL("expected an error");
    } catch (const Error& e) {
        const QString message = e.what();
        QVERIFY2(message.contains("conv_bad_groups") && message.contains("groups=4"), qPrintable(message));
    }
    // Rejected by XNNPACK itself: the message names the call and the status.
    try {
        FullyConnected(context, "fc_bad_range", 1, 4, 4, weights.data(), nullptr, WeightLayout::OutIn,
                       OutputRange::clip(1.0f, -1.0f));
        QFAIL("expected an error");
    } catch (const Error& e) {
        const QString message = e.what();
        QVERIFY2(message.contains("fc_bad_range") && message.contains("xnn_create_fully_connected_nc_f32") &&
                     message.contains("xnn_status_invalid_parameter"),
                 qPrintable(message));
    }
    try {
        Binary(context, "add_bad_shapes", BinaryOp::Add, {2, 3}, {4}, {});
        QFAIL("expected an error");
    } catch (const Error& e) { QVERIFY2(QString(e.what()).contains("add_bad_shapes"), e.what()); }
}

// The int8 wrappers check what XNNPACK would refuse (or assert on) before calling it, and name
// the layer (their XNNPACK calls go through the same checked macros as the float ones).
void TestXnnpackWrappers::int8ErrorsNameTheLayer() {
    Context context(1);
    const std::vector<int8_t> weights(64, 1);
    const std::vector<float> scales(4, 1.0f);
    try {
        // x_scale * w_scale / y_scale = 1 * 1 / 0.001 >= 256: XNNPACK refuses it.
        QConvolution2d(context, "qconv_scale", conv(1, 4, 4, 4, 4, 1, 1, 1, 0, 0, 0, 0, 1), {0, 1.0f}, weights.data(),
                       scales.data(), nullptr, {0, 0.001f, -128, 127});
        QFAIL("expected an error");
    } catch (const Error& e) {
        const QString message = e.what();
        QVERIFY2(message.contains("qconv_scale") && message.contains("256 or more"), qPrintable(message));
    }
    try {
        QFullyConnected(context, "qfc_zero_point", 1, 4, 4, {200, 1.0f}, weights.data(), scales.data(), nullptr,
                        {0, 1.0f, -128, 127});
        QFAIL("expected an error");
    } catch (const Error& e) {
        const QString message = e.what();
        QVERIFY2(message.contains("qfc_zero_point") && message.contains("outside int8"), qPrintable(message));
    }
    try {
        QAdd(context, "qadd_ratio", 16, {0, 1.0f}, {0, 1.0f}, {0, 1e-4f, -128, 127});
        QFAIL("expected an error");
    } catch (const Error& e) {
        const QString message = e.what();
        QVERIFY2(message.contains("qadd_ratio") && message.contains("[2^-10, 2^8)"), qPrintable(message));
    }
}

void TestXnnpackWrappers::pointersRebindBetweenCalls() {
    // The same layer run on two different buffers must set itself up again.
    Context context(1);
    const Conv2dParams p = conv(1, 6, 6, 4, 4, 3, 1, 1, 1, 1, 1, 1, 1);
    auto weights = randomBuffer(4 * 4 * 9, 30);
    weights.resize(4 * 4 * 9);
    Convolution2d layer(context, "conv", p, weights.data(), nullptr);
    const auto in1 = randomBuffer(6 * 6 * 4, 31), in2 = randomBuffer(6 * 6 * 4, 32);
    auto out1 = buffer(6 * 6 * 4), out2 = buffer(6 * 6 * 4);
    layer.forward(in1.data(), out1.data());
    layer.forward(in2.data(), out2.data());
    layer.forward(in1.data(), out2.data());
    CHECK_CLOSE(out1.data(), naiveConv(in1, weights, {}, p, 6, 6, {}));
    CHECK_CLOSE(out2.data(), naiveConv(in1, weights, {}, p, 6, 6, {}));
    QCOMPARE(QString(apiName()).isEmpty(), false);
}

#endif // EMBARK_TEST_NO_XNNPACK

QTEST_GUILESS_MAIN(TestXnnpackWrappers)
#include "tst_xnnpack_wrappers.moc"

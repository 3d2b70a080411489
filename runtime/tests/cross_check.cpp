// A small standalone correctness check of the portable kernels, meant to be cross-compiled
// (riscv64 RVV with Clang, aarch64 with GCC) and run under qemu by cross_check.sh, where the
// tile sizes and vector code differ from the host's. Exit 0 when every case is within 1e-5.
#include "portable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <tuple>
#include <vector>

namespace ep = embark::portable;

namespace {

std::vector<float> random_vector(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> v(n);
    for (auto& x : v) x = dist(rng);
    return v;
}

double relative_error(const std::vector<float>& got, const std::vector<double>& want) {
    double diff = 0, ref = 1e-30;
    for (size_t i = 0; i < want.size(); ++i) {
        const double d = std::fabs(got[i] - want[i]);
        diff = std::isnan(d) ? INFINITY : std::max(diff, d);
        ref = std::max(ref, std::fabs(want[i]));
    }
    return diff / ref;
}

int failures = 0, cases = 0;

void report(const char* name, double error) {
    ++cases;
    const bool ok = error <= 1e-5;
    if (!ok) ++failures;
    std::printf("%-34s relative error %.2e %s\n", name, error, ok ? "ok" : "FAILED");
}

void check_conv(const char* name, const ep::Conv2DShape& s, ep::Act act, ep::ThreadPool* pool) {
    const int cin_g = s.in_c / s.groups, cout_g = s.out_c / s.groups, taps = s.kernel_h * s.kernel_w;
    const auto x = random_vector(size_t(s.batch) * s.in_h * s.in_w * s.in_c, 1);
    const auto w = random_vector(size_t(s.out_c) * cin_g * taps, 2);
    const auto b = random_vector(s.out_c, 3);
    ep::Activation a;
    a.kind = act;
    a.min = 0.f;
    a.max = 0.5f;
    const auto op = ep::pack_conv2d(s, w.data(), b.data(), a);
    const int oh = s.out_h(), ow = s.out_w();
    std::vector<float> y(size_t(s.batch) * oh * ow * s.out_c);
    ep::conv2d(op, x.data(), y.data(), pool);
    std::vector<double> want(y.size());
    for (int n = 0; n < s.batch; ++n)
        for (int oy = 0; oy < oh; ++oy)
            for (int ox = 0; ox < ow; ++ox)
                for (int co = 0; co < s.out_c; ++co) {
                    const int g = co / cout_g;
                    double sum = b[co];
                    for (int k = 0; k < cin_g; ++k)
                        for (int t = 0; t < taps; ++t) {
                            const int iy = oy * s.stride_h - s.pad_top + t / s.kernel_w * s.dilation_h;
                            const int ix = ox * s.stride_w - s.pad_left + t % s.kernel_w * s.dilation_w;
                            if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue;
                            sum += double(x[((size_t(n) * s.in_h + iy) * s.in_w + ix) * s.in_c + g * cin_g + k]) *
                                   w[(size_t(co) * cin_g + k) * taps + t];
                        }
                    if (act == ep::Act::Relu) sum = std::max(sum, 0.0);
                    if (act == ep::Act::Clamp) sum = std::min(std::max(sum, 0.0), 0.5);
                    if (act == ep::Act::LeakyRelu) sum = sum >= 0 ? sum : sum * double(a.alpha);
                    if (act == ep::Act::HardSwish) sum *= std::min(std::max(sum / 6 + 0.5, 0.0), 1.0);
                    if (act == ep::Act::Sigmoid) sum = 1 / (1 + std::exp(-sum));
                    want[((size_t(n) * oh + oy) * ow + ox) * s.out_c + co] = sum;
                }
    report(name, relative_error(y, want));
}

// A convolution that must take the Regions path (most of its taps in the padding).
void check_conv_regions(const char* name, const ep::Conv2DShape& s, ep::Act act, ep::ThreadPool* pool) {
    if (ep::pack_conv2d(s, random_vector(size_t(s.out_c) * (s.in_c / s.groups) * s.kernel_h * s.kernel_w, 2).data(),
                        nullptr)
            .path != ep::ConvPath::Regions) {
        report(name, INFINITY);
        return;
    }
    check_conv(name, s, act, pool);
}

// A convolution of one input channel: on RVV (Clang) it must take the SingleChannel path.
void check_conv_single_channel(const char* name, const ep::Conv2DShape& s, ep::Act act, ep::ThreadPool* pool) {
#if defined(__clang__) && defined(__riscv_vector)
    if (ep::pack_conv2d(s, random_vector(size_t(s.out_c) * s.kernel_h * s.kernel_w, 2).data(), nullptr).path !=
        ep::ConvPath::SingleChannel) {
        report(name, INFINITY);
        return;
    }
#endif
    check_conv(name, s, act, pool);
}

// One input channel written channels-first (conv2d_planar) against direct sums.
void check_conv_planar(const char* name, const ep::Conv2DShape& s, ep::Act act, ep::ThreadPool* pool) {
    const int taps = s.kernel_h * s.kernel_w, oh = s.out_h(), ow = s.out_w();
    const auto x = random_vector(size_t(s.batch) * s.in_h * s.in_w, 31);
    const auto w = random_vector(size_t(s.out_c) * taps, 32);
    const auto b = random_vector(s.out_c, 33);
    ep::Activation a;
    a.kind = act;
    a.min = 0.f;
    a.max = 0.5f;
    const auto op = ep::pack_conv2d_planar(s, w.data(), b.data(), a);
    std::vector<float> y(size_t(s.batch) * s.out_c * oh * ow);
    ep::conv2d_planar(op, x.data(), y.data(), pool);
    std::vector<double> want(y.size());
    for (int n = 0; n < s.batch; ++n)
        for (int co = 0; co < s.out_c; ++co)
            for (int oy = 0; oy < oh; ++oy)
                for (int ox = 0; ox < ow; ++ox) {
                    double sum = b[co];
                    for (int t = 0; t < taps; ++t) {
                        const int iy = oy * s.stride_h - s.pad_top + t / s.kernel_w * s.dilation_h;
                        const int ix = ox - s.pad_left + t % s.kernel_w * s.dilation_w;
                        if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue;
                        sum += double(x[(size_t(n) * s.in_h + iy) * s.in_w + ix]) * w[size_t(co) * taps + t];
                    }
                    if (act == ep::Act::Relu) sum = std::max(sum, 0.0);
                    if (act == ep::Act::Clamp) sum = std::min(std::max(sum, 0.0), 0.5);
                    want[((size_t(n) * s.out_c + co) * oh + oy) * ow + ox] = sum;
                }
    report(name, relative_error(y, want));
}

// A 1-D convolution in the model's layout [batch][C][W] through conv2d_channels_first (the
// layers the emitter sees as 1 x W images), ConvTranspose too, against direct sums.
void check_conv1d(const char* name, int batch, int in_c, int in_w, int out_c, int k, int stride, int dilation,
                  int pad_l, int pad_r, int groups, bool transposed, ep::ThreadPool* pool) {
    const int cin_g = in_c / groups, cout_g = out_c / groups;
    const ep::Conv2DShape s{batch, 1, in_w, in_c, out_c, 1, k, 1, stride, 1, dilation, 0, pad_l, 0, pad_r, groups};
    const int out_w = transposed ? stride * (in_w - 1) + (k - 1) * dilation + 1 - pad_l - pad_r : s.out_w();
    const auto x = random_vector(size_t(batch) * in_c * in_w, 21);
    const auto w = random_vector(size_t(transposed ? in_c * cout_g : out_c * cin_g) * k, 22);
    const auto b = random_vector(out_c, 23);
    const auto op = transposed ? ep::pack_conv_transpose2d(s, 1, out_w, w.data(), b.data())
                               : ep::pack_conv2d(s, w.data(), b.data());
    std::vector<float> scratch(ep::channels_first_scratch_floats(s, 1, out_w));
    std::vector<float> y(size_t(batch) * out_c * out_w);
    ep::conv2d_channels_first(op, x.data(), y.data(), scratch.data(), pool);
    std::vector<double> want(y.size());
    for (int n = 0; n < batch; ++n)
        for (int co = 0; co < out_c; ++co) {
            const int g = co / cout_g;
            for (int ox = 0; ox < out_w; ++ox) {
                double sum = b[co];
                for (int ci = 0; ci < cin_g; ++ci)
                    for (int t = 0; t < k; ++t) {
                        int ix;
                        if (transposed) { // ox = ix * stride + t * dilation - pad_l
                            const int num = ox + pad_l - t * dilation;
                            if (num < 0 || num % stride) continue;
                            ix = num / stride;
                        } else {
                            ix = ox * stride - pad_l + t * dilation;
                        }
                        if (ix < 0 || ix >= in_w) continue;
                        const double wv = transposed ? w[((size_t(g) * cin_g + ci) * cout_g + co % cout_g) * k + t]
                                                     : w[(size_t(co) * cin_g + ci) * k + t];
                        sum += double(x[(size_t(n) * in_c + g * cin_g + ci) * in_w + ix]) * wv;
                    }
                want[(size_t(n) * out_c + co) * out_w + ox] = sum;
            }
        }
    report(name, relative_error(y, want));
}

// ConvTranspose in NHWC (conv2d) against direct sums: output (oy, ox) receives input (iy, ix)
// through tap (ky, kx) when oy = iy * stride + ky * dilation - pad_top (same for x).
void check_conv_transpose(const char* name, const ep::Conv2DShape& s, int out_h, int out_w, ep::ThreadPool* pool) {
    const int cin_g = s.in_c / s.groups, cout_g = s.out_c / s.groups, taps = s.kernel_h * s.kernel_w;
    const auto x = random_vector(size_t(s.batch) * s.in_h * s.in_w * s.in_c, 31);
    const auto w = random_vector(size_t(s.in_c) * cout_g * taps, 32);
    const auto b = random_vector(s.out_c, 33);
    ep::Activation relu;
    relu.kind = ep::Act::Relu;
    const auto op = ep::pack_conv_transpose2d(s, out_h, out_w, w.data(), b.data(), relu);
    std::vector<float> y(size_t(s.batch) * out_h * out_w * s.out_c);
    ep::conv2d(op, x.data(), y.data(), pool);
    std::vector<double> want(y.size());
    for (int n = 0; n < s.batch; ++n)
        for (int oy = 0; oy < out_h; ++oy)
            for (int ox = 0; ox < out_w; ++ox)
                for (int co = 0; co < s.out_c; ++co) {
                    const int g = co / cout_g;
                    double sum = b[co];
                    for (int ci = 0; ci < cin_g; ++ci)
                        for (int t = 0; t < taps; ++t) {
                            const int ny = oy + s.pad_top - t / s.kernel_w * s.dilation_h;
                            const int nx = ox + s.pad_left - t % s.kernel_w * s.dilation_w;
                            if (ny < 0 || nx < 0 || ny % s.stride_h || nx % s.stride_w) continue;
                            const int iy = ny / s.stride_h, ix = nx / s.stride_w;
                            if (iy >= s.in_h || ix >= s.in_w) continue;
                            sum += double(x[((size_t(n) * s.in_h + iy) * s.in_w + ix) * s.in_c + g * cin_g + ci]) *
                                   w[((size_t(g) * cin_g + ci) * cout_g + co % cout_g) * taps + t];
                        }
                    want[((size_t(n) * out_h + oy) * out_w + ox) * s.out_c + co] = std::max(sum, 0.0);
                }
    report(name, relative_error(y, want));
}

// A 3-D convolution [batch][C][D][H][W] through conv3d (stacked depth planes) against direct sums.
void check_conv3d(const char* name, int batch, int in_c, int out_c, int groups, int d, int h, int w_, int kd, int k,
                  int stride, int pad, ep::ThreadPool* pool) {
    const int cin_g = in_c / groups, cout_g = out_c / groups;
    const ep::Conv2DShape hw{1, h, w_, in_c, out_c, k, k, stride, stride, 1, 1, pad, pad, pad, pad, groups};
    const int od_n = (d + 2 * pad - kd) / stride + 1, oh = hw.out_h(), ow = hw.out_w();
    const auto x = random_vector(size_t(batch) * in_c * d * h * w_, 41);
    const auto w = random_vector(size_t(out_c) * cin_g * kd * k * k, 42);
    const auto b = random_vector(out_c, 43);
    const auto op = ep::pack_conv3d(hw, batch, d, od_n, kd, stride, 1, pad, w.data(), b.data());
    std::vector<float> y(size_t(batch) * out_c * od_n * oh * ow);
    ep::conv3d(op, x.data(), y.data(), pool);
    std::vector<double> want(y.size());
    for (int n = 0; n < batch; ++n)
        for (int co = 0; co < out_c; ++co)
            for (int oz = 0; oz < od_n; ++oz)
                for (int oy = 0; oy < oh; ++oy)
                    for (int ox = 0; ox < ow; ++ox) {
                        const int g = co / cout_g;
                        double sum = b[co];
                        for (int ci = 0; ci < cin_g; ++ci)
                            for (int tz = 0; tz < kd; ++tz)
                                for (int ty = 0; ty < k; ++ty)
                                    for (int tx = 0; tx < k; ++tx) {
                                        const int iz = oz * stride - pad + tz, iy = oy * stride - pad + ty,
                                                  ix = ox * stride - pad + tx;
                                        if (iz < 0 || iz >= d || iy < 0 || iy >= h || ix < 0 || ix >= w_) continue;
                                        sum += double(x[(((size_t(n) * in_c + g * cin_g + ci) * d + iz) * h + iy) * w_ +
                                                        ix]) *
                                               w[(((size_t(co) * cin_g + ci) * kd + tz) * k + ty) * k + tx];
                                    }
                        want[(((size_t(n) * out_c + co) * od_n + oz) * oh + oy) * ow + ox] = sum;
                    }
    report(name, relative_error(y, want));
}

void check_fc(const char* name, int rows, int k, int n, ep::ThreadPool* pool) {
    const auto x = random_vector(size_t(rows) * k, 4);
    const auto w = random_vector(size_t(n) * k, 5);
    const auto b = random_vector(n, 6);
    const auto op = ep::pack_fully_connected(k, n, w.data(), true, b.data());
    std::vector<float> y(size_t(rows) * n);
    ep::fully_connected(op, rows, x.data(), y.data(), pool);
    std::vector<double> want(y.size());
    for (int r = 0; r < rows; ++r)
        for (int j = 0; j < n; ++j) {
            double sum = b[j];
            for (int i = 0; i < k; ++i) sum += double(x[size_t(r) * k + i]) * w[size_t(j) * k + i];
            want[size_t(r) * n + j] = sum;
        }
    report(name, relative_error(y, want));
}

void check_binary(ep::ThreadPool* pool) {
    const auto a = random_vector(6 * 5 * 40, 7), b = random_vector(40, 8);
    std::vector<float> y(a.size());
    ep::binary(ep::BinaryOp::Mul, a.data(), {1, 6, 5, 40}, b.data(), {40}, y.data(), {}, pool);
    std::vector<double> want(y.size());
    for (size_t i = 0; i < y.size(); ++i) want[i] = double(a[i]) * b[i % 40];
    report("binary mul per-channel", relative_error(y, want));
}

// The streaming loops (EMBARK_STREAM_LOOP): in place (out == b), an activation fused into the
// loop, a broadcast scalar and rows of odd length (the vector loop's remainder).
void check_binary_streams(ep::ThreadPool* pool) {
    const auto a = random_vector(3 * 1037, 10), b0 = random_vector(3 * 1037, 11);
    std::vector<float> b = b0;
    ep::Activation relu;
    relu.kind = ep::Act::Relu;
    ep::binary(ep::BinaryOp::Add, a.data(), {3, 1037}, b.data(), {3, 1037}, b.data(), relu, pool);
    std::vector<double> want(b.size());
    for (size_t i = 0; i < b.size(); ++i) want[i] = std::max(0.0, double(a[i]) + b0[i]);
    report("binary add+relu in place", relative_error(b, want));

    const float scalar = 0.25f;
    ep::Activation clamp;
    clamp.kind = ep::Act::Clamp;
    clamp.min = -0.5f;
    clamp.max = 0.5f;
    std::vector<float> y(a.size());
    ep::binary(ep::BinaryOp::Sub, &scalar, {1}, a.data(), {3, 1037}, y.data(), clamp, pool);
    for (size_t i = 0; i < y.size(); ++i) want[i] = std::min(0.5, std::max(-0.5, double(scalar) - a[i]));
    report("binary scalar-x clamp", relative_error(y, want));

    ep::binary(ep::BinaryOp::Max, a.data(), {3, 1037}, b0.data(), {3, 1}, y.data(), {}, pool);
    for (size_t i = 0; i < y.size(); ++i) want[i] = std::max(double(a[i]), double(b0[i / 1037]));
    report("binary max per-row broadcast", relative_error(y, want));
}

// The element-wise streams (stream_rvv.h on RVV, the loops of elementwise.cpp elsewhere): every
// unary op against its formula in double, over 1037 values (no multiple of any vector width), in
// place for every other op; the activations a layer applies to its stored output; Min and Div with
// the scalar on either side.
void check_unary_streams() {
    const size_t n = 1037;
    auto x = random_vector(n, 21);
    for (auto& v : x) v *= 4.f;
    const auto sig = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
    const auto clamp01 = [](double v) { return std::min(1.0, std::max(0.0, v)); };
    struct Case {
        const char* name;
        ep::UnaryOp op;
        ep::UnaryParams p;
        std::function<double(double)> f;
    };
    ep::UnaryParams clip, leaky, hsig;
    clip.min = -0.5f, clip.max = 0.7f;
    leaky.alpha = 0.1f;
    hsig.alpha = 0.2f, hsig.beta = 0.5f;
    ep::UnaryParams one;
    one.alpha = 1.f;
    const std::vector<Case> cases_ = {
        {"unary relu", ep::UnaryOp::Relu, {}, [](double v) { return std::max(0.0, v); }},
        {"unary clip", ep::UnaryOp::Clip, clip, [](double v) { return std::min(0.7, std::max(-0.5, v)); }},
        {"unary leakyrelu", ep::UnaryOp::LeakyRelu, leaky, [](double v) { return v >= 0 ? v : 0.1 * v; }},
        {"unary hardswish", ep::UnaryOp::HardSwish, {}, [&](double v) { return v * clamp01(v / 6 + 0.5); }},
        {"unary hardsigmoid", ep::UnaryOp::HardSigmoid, hsig, [&](double v) { return clamp01(0.2 * v + 0.5); }},
        {"unary neg", ep::UnaryOp::Neg, {}, [](double v) { return -v; }},
        {"unary abs", ep::UnaryOp::Abs, {}, [](double v) { return std::fabs(v); }},
        {"unary sigmoid", ep::UnaryOp::Sigmoid, {}, sig},
        {"unary tanh", ep::UnaryOp::Tanh, {}, [](double v) { return std::tanh(v); }},
        {"unary exp", ep::UnaryOp::Exp, {}, [](double v) { return std::exp(v); }},
        {"unary erf", ep::UnaryOp::Erf, {}, [](double v) { return std::erf(v); }},
        {"unary gelu", ep::UnaryOp::Gelu, {}, [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }},
        {"unary swish", ep::UnaryOp::Swish, one, [&](double v) { return v * sig(v); }},
        {"unary elu", ep::UnaryOp::Elu, one, [](double v) { return v < 0 ? std::expm1(v) : v; }},
    };
    std::vector<double> want(n);
    for (size_t k = 0; k < cases_.size(); ++k) {
        const Case& c = cases_[k];
        std::vector<float> y = x;
        if (k % 2)
            ep::unary(c.op, y.data(), y.data(), n, c.p); // in place
        else
            ep::unary(c.op, x.data(), y.data(), n, c.p);
        for (size_t i = 0; i < n; ++i) want[i] = c.f(x[i]);
        report(c.name, relative_error(y, want));
    }
    std::vector<float> root(n), y(n);
    for (size_t i = 0; i < n; ++i) root[i] = std::fabs(x[i]);
    ep::unary(ep::UnaryOp::Sqrt, root.data(), y.data(), n);
    for (size_t i = 0; i < n; ++i) want[i] = std::sqrt(double(root[i]));
    report("unary sqrt", relative_error(y, want));

    const std::tuple<const char*, ep::Act, std::function<double(double)>> acts[] = {
        {"activation relu", ep::Act::Relu, [](double v) { return std::max(0.0, v); }},
        {"activation clamp", ep::Act::Clamp, [](double v) { return std::min(0.7, std::max(-0.5, v)); }},
        {"activation leakyrelu", ep::Act::LeakyRelu, [](double v) { return v >= 0 ? v : 0.1 * v; }},
        {"activation hardswish", ep::Act::HardSwish, [&](double v) { return v * clamp01(v / 6 + 0.5); }},
        {"activation sigmoid", ep::Act::Sigmoid, sig},
        {"activation tanh", ep::Act::Tanh, [](double v) { return std::tanh(v); }},
        {"activation swish", ep::Act::Swish, [&](double v) { return v * sig(v); }},
    };
    for (const auto& [name, kind, f] : acts) {
        ep::Activation act;
        act.kind = kind;
        act.min = -0.5f, act.max = 0.7f, act.alpha = 0.1f;
        std::vector<float> z = x;
        ep::apply_activation(act, z.data(), n);
        for (size_t i = 0; i < n; ++i) want[i] = f(x[i]);
        report(name, relative_error(z, want));
    }

    const auto b = random_vector(n, 22);
    const float s = 0.3f;
    ep::binary(ep::BinaryOp::Min, &s, {1}, b.data(), {int64_t(n)}, y.data(), {}, nullptr);
    for (size_t i = 0; i < n; ++i) want[i] = std::min(double(s), double(b[i]));
    report("binary min scalar-x", relative_error(y, want));
    ep::binary(ep::BinaryOp::Min, b.data(), {int64_t(n)}, &s, {1}, y.data(), {}, nullptr);
    report("binary min x-scalar", relative_error(y, want));
    // A row broadcast over the rows of the other input, on either side (run_binary's repeated rows).
    const auto row = random_vector(70, 25), rows = random_vector(15 * 70, 26);
    std::vector<float> z(rows.size());
    std::vector<double> zw(rows.size());
    ep::binary(ep::BinaryOp::Sub, row.data(), {70}, rows.data(), {15, 70}, z.data(), {}, nullptr);
    for (size_t i = 0; i < z.size(); ++i) zw[i] = double(row[i % 70]) - rows[i];
    report("binary sub row-rows", relative_error(z, zw));
    ep::binary(ep::BinaryOp::Div, rows.data(), {15, 70}, row.data(), {1, 70}, z.data(), {}, nullptr);
    for (size_t i = 0; i < z.size(); ++i) zw[i] = double(rows[i]) / row[i % 70];
    report("binary div rows-row", relative_error(z, zw));
    ep::binary(ep::BinaryOp::Div, &s, {1}, x.data(), {int64_t(n)}, y.data(), {}, nullptr);
    for (size_t i = 0; i < n; ++i) want[i] = s / double(x[i]);
    report("binary div scalar-x", relative_error(y, want));
}

// NaN through the streams as through the scalar code: Min and Max pick as a < b ? a : b does,
// Clip keeps a NaN, ReLU makes it 0.
void check_nan_streams() {
    const float nan = std::nanf("");
    const std::vector<float> a = {nan, 1.f, nan, -2.f}, b = {2.f, nan, nan, 3.f};
    std::vector<float> y(4);
    ep::binary(ep::BinaryOp::Min, a.data(), {4}, b.data(), {4}, y.data(), {}, nullptr);
    const bool min_ok = y[0] == 2.f && std::isnan(y[1]) && std::isnan(y[2]) && y[3] == -2.f;
    ep::binary(ep::BinaryOp::Max, a.data(), {4}, b.data(), {4}, y.data(), {}, nullptr);
    const bool max_ok = y[0] == 2.f && std::isnan(y[1]) && std::isnan(y[2]) && y[3] == 3.f;
    ep::UnaryParams clip;
    clip.min = 0.f, clip.max = 1.f;
    ep::unary(ep::UnaryOp::Clip, a.data(), y.data(), 4, clip);
    const bool clip_ok = std::isnan(y[0]) && y[1] == 1.f && std::isnan(y[2]) && y[3] == 0.f;
    ep::unary(ep::UnaryOp::Relu, a.data(), y.data(), 4);
    const bool relu_ok = y[0] == 0.f && y[1] == 1.f && y[2] == 0.f && y[3] == 0.f;
    report("NaN in min, max, clip, relu", min_ok && max_ok && clip_ok && relu_ok ? 0.0 : 1.0);
}

// Global max pooling (NHWC, 37 channels: a partial vector) and a transpose of 45 x 70 matrices.
void check_global_max_pool_and_transpose(ep::ThreadPool* pool) {
    const int batch = 2, pixels = 49, channels = 37;
    const auto x = random_vector(size_t(batch) * pixels * channels, 23);
    std::vector<float> y(size_t(batch) * channels);
    ep::global_max_pool(batch, pixels, channels, x.data(), y.data());
    std::vector<double> want(y.size(), -INFINITY);
    for (int n = 0; n < batch; ++n)
        for (int p = 0; p < pixels; ++p)
            for (int c = 0; c < channels; ++c)
                want[size_t(n) * channels + c] =
                    std::max(want[size_t(n) * channels + c], double(x[(size_t(n) * pixels + p) * channels + c]));
    report("global max pool 37 channels", relative_error(y, want));

    const int64_t rows = 45, cols = 70;
    const auto m = random_vector(size_t(batch * rows * cols), 24);
    std::vector<float> t(m.size());
    ep::transpose_matrices(m.data(), batch, rows, cols, t.data(), pool);
    std::vector<double> tw(m.size());
    for (int64_t n = 0; n < batch; ++n)
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c)
                tw[size_t((n * cols + c) * rows + r)] = m[size_t((n * rows + r) * cols + c)];
    report("transpose 2 x 45 x 70", relative_error(t, tw));
}

// Softmax over rows (the lane maximum, e^(x - max) without denormal results): rows of 128 and of
// 37 (lane remainders), values spread over +-60 so that some e^(x - max) underflow.
void check_softmax(ep::ThreadPool* pool) {
    for (int n : {128, 37}) {
        const int rows = 70;
        auto x = random_vector(size_t(rows) * n, 12);
        for (auto& v : x) v *= 60.f;
        std::vector<float> y(x.size());
        ep::softmax(x.data(), rows, n, y.data(), pool);
        std::vector<double> want(y.size());
        for (int r = 0; r < rows; ++r) {
            const float* xr = x.data() + size_t(r) * n;
            double m = -INFINITY, sum = 0;
            for (int i = 0; i < n; ++i) m = std::max(m, double(xr[i]));
            for (int i = 0; i < n; ++i) sum += std::exp(xr[i] - m);
            for (int i = 0; i < n; ++i) want[size_t(r) * n + i] = std::exp(xr[i] - m) / sum;
        }
        report(n == 128 ? "softmax rows of 128" : "softmax rows of 37", relative_error(y, want));
    }
}

// Max pool 3x3/2 pad 1 over 24 channels, and over 6 (fewer than 16: the row path off RVV).
void check_max_pool(ep::ThreadPool* pool, int channels) {
    const int c = channels;
    const ep::Pool2DShape s{1, 9, 9, c, 5, 5, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1};
    const auto x = random_vector(size_t(9) * 9 * c, 9);
    std::vector<float> y(size_t(5) * 5 * c);
    ep::max_pool2d(s, x.data(), y.data(), pool);
    std::vector<double> want(y.size(), -INFINITY);
    for (int oy = 0; oy < 5; ++oy)
        for (int ox = 0; ox < 5; ++ox)
            for (int ch = 0; ch < c; ++ch)
                for (int ky = 0; ky < 3; ++ky)
                    for (int kx = 0; kx < 3; ++kx) {
                        const int iy = oy * 2 - 1 + ky, ix = ox * 2 - 1 + kx;
                        if (iy < 0 || iy >= 9 || ix < 0 || ix >= 9) continue;
                        double& m = want[(size_t(oy) * 5 + ox) * c + ch];
                        m = std::max(m, double(x[(size_t(iy) * 9 + ix) * c + ch]));
                    }
    report(c == 24 ? "max pool 3x3/2, 24 channels" : "max pool 3x3/2, 6 channels", relative_error(y, want));
}

// Max pool 3x3 dilation 2 pad 2 over 67 channels: windows inside the input (RVV: fixed tap
// offsets) and at the border (tap ranges).
void check_max_pool_dilated(ep::ThreadPool* pool) {
    const int h = 11, w = 10, c = 67;
    const ep::Pool2DShape s{1, h, w, c, h, w, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2};
    const auto x = random_vector(size_t(h) * w * c, 11);
    std::vector<float> y(size_t(h) * w * c);
    ep::max_pool2d(s, x.data(), y.data(), pool);
    std::vector<double> want(y.size(), -INFINITY);
    for (int oy = 0; oy < h; ++oy)
        for (int ox = 0; ox < w; ++ox)
            for (int ch = 0; ch < c; ++ch)
                for (int ky = 0; ky < 3; ++ky)
                    for (int kx = 0; kx < 3; ++kx) {
                        const int iy = oy - 2 + 2 * ky, ix = ox - 2 + 2 * kx;
                        if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                        double& m = want[(size_t(oy) * w + ox) * c + ch];
                        m = std::max(m, double(x[(size_t(iy) * w + ix) * c + ch]));
                    }
    report("max pool 3x3 dilation 2", relative_error(y, want));
}

// Average pool 3x3/1 pad 1 over 67 channels (RVV: LMUL-8 blocks and a tail), with and
// without the padded taps in the divisor; then the global average over the same input.
void check_average_pools(ep::ThreadPool* pool) {
    const int h = 7, w = 6, c = 67;
    const auto x = random_vector(size_t(h) * w * c, 10);
    for (bool include_pad : {false, true}) {
        const ep::Pool2DShape s{1, h, w, c, h, w, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
        std::vector<float> y(size_t(h) * w * c);
        ep::average_pool2d(s, include_pad, x.data(), y.data(), pool);
        std::vector<double> want(y.size(), 0.0);
        for (int oy = 0; oy < h; ++oy)
            for (int ox = 0; ox < w; ++ox)
                for (int ch = 0; ch < c; ++ch) {
                    double sum = 0;
                    int taps = 0;
                    for (int ky = 0; ky < 3; ++ky)
                        for (int kx = 0; kx < 3; ++kx) {
                            const int iy = oy - 1 + ky, ix = ox - 1 + kx;
                            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                            sum += x[(size_t(iy) * w + ix) * c + ch];
                            ++taps;
                        }
                    want[(size_t(oy) * w + ox) * c + ch] = sum / (include_pad ? 9 : taps);
                }
        report(include_pad ? "average pool 3x3 count pad" : "average pool 3x3", relative_error(y, want));
    }
    std::vector<float> g(c);
    ep::global_average_pool(1, h * w, c, x.data(), g.data());
    std::vector<double> want(c, 0.0);
    for (int p = 0; p < h * w; ++p)
        for (int ch = 0; ch < c; ++ch) want[ch] += x[size_t(p) * c + ch] / double(h * w);
    report("global average pool", relative_error(g, want));
}

} // namespace

int main() {
    std::printf("tile %d pixels x %d channels\n", ep::kTilePixels, ep::kTileChannels);
    ep::ThreadPool two(2);
    for (ep::ThreadPool* pool : {static_cast<ep::ThreadPool*>(nullptr), &two}) {
        std::printf("-- %d thread(s)\n", pool ? pool->threads() : 1);
        // Conv2DShape{batch, in_h, in_w, in_c, out_c, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, groups}
        check_conv("conv 3x3 64->64", {1, 10, 9, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, ep::Act::Relu, pool);
        check_conv("conv 7x7/2 3->37", {1, 17, 15, 3, 37, 7, 7, 2, 2, 1, 1, 3, 3, 2, 3, 1}, ep::Act::None, pool);
        check_conv("conv 3x3 dilation 2 batch 2", {2, 8, 8, 5, 20, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 1}, ep::Act::Clamp,
                   pool);
        // Most taps in the padding (the Regions path): dilation 6 on 9x10, dilation 4 with stride 2,
        // only the centre tap reaching the input (grouped, batch 2), and rectangles that no tap
        // reaches (pads wider than the kernel).
        check_conv_regions("conv 3x3 dilation 6 regions 24->40", {1, 9, 10, 24, 40, 3, 3, 1, 1, 6, 6, 6, 6, 6, 6, 1},
                           ep::Act::Relu, pool);
        check_conv_regions("conv 3x3/2 dilation 4 regions", {1, 11, 9, 8, 20, 3, 3, 2, 2, 4, 4, 4, 4, 4, 4, 1},
                           ep::Act::None, pool);
        check_conv_regions("conv 3x3 dilation 12 centre only g2 batch 2",
                           {2, 7, 7, 16, 24, 3, 3, 1, 1, 12, 12, 12, 12, 12, 12, 2}, ep::Act::Clamp, pool);
        check_conv_regions("conv 3x3/2 pads 5 (regions without taps)",
                           {1, 4, 5, 20, 12, 3, 3, 2, 2, 1, 1, 5, 5, 5, 5, 1}, ep::Act::Clamp, pool);
        check_conv("grouped 3x3 4 groups", {1, 6, 6, 8, 12, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4}, ep::Act::None, pool);
        check_conv("pointwise 24->144", {1, 6, 7, 24, 144, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, ep::Act::Clamp, pool);
        check_conv("depthwise 3x3/2 96", {1, 9, 9, 96, 96, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 96}, ep::Act::Relu, pool);
        check_conv("depthwise 5x5 19", {1, 7, 8, 19, 19, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, 19}, ep::Act::None, pool);
        check_conv("depthwise multiplier 2 3x3 64->128", {1, 7, 9, 64, 128, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 64},
                   ep::Act::Relu, pool);
        check_conv("depthwise multiplier 3 5x5/2 batch 2 13->39", {2, 9, 8, 13, 39, 5, 5, 2, 2, 1, 1, 2, 2, 2, 2, 13},
                   ep::Act::None, pool);
        // The RVV depthwise kernel's channel cases at VLEN 128 and 256: below one LMUL-1 vector,
        // each LMUL step down, whole LMUL-8 vectors, a recomputed last vector (144, 200), and
        // 25 taps in three passes with a remainder.
        for (int c : {1, 3, 8, 16, 24, 32, 40, 64, 144, 200}) {
            char name[40];
            std::snprintf(name, sizeof name, "depthwise 3x3 %d clamp", c);
            check_conv(name, {1, 6, 5, c, c, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, c}, ep::Act::Clamp, pool);
        }
        check_conv("depthwise 5x5 144 relu", {1, 6, 6, 144, 144, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, 144}, ep::Act::Relu,
                   pool);
        check_conv("pointwise 19->37 (k remainder)", {1, 5, 3, 19, 37, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, ep::Act::Relu,
                   pool);
        // aarch64 (gemm_vec.h, depthwise.cpp): a run-time tap count with a channel tail of a
        // 4-vector and a scalar (21 = 16 + 4 + 1); whole panels of whole tiles in one call with
        // no activation and a k remainder (13), plus a half panel (56 = 3 x 16 + 8).
        check_conv("depthwise 3x5 dilation 2x1 21", {1, 9, 11, 21, 21, 3, 5, 1, 2, 2, 1, 2, 2, 2, 2, 21},
                   ep::Act::Clamp, pool);
        // One input channel (SingleChannel on RVV): rows wider and narrower than a vector, pads,
        // strides, dilations, 1x1, batch 2, the in-register and the stored-row activations.
        check_conv_single_channel("1 channel 3x3 ->16 pads", {1, 13, 45, 1, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                                  ep::Act::Relu, pool);
        check_conv_single_channel("1 channel 5x5/2 d2 ->6 batch 2", {2, 17, 70, 1, 6, 5, 5, 2, 2, 2, 2, 3, 1, 2, 4, 1},
                                  ep::Act::Clamp, pool);
        check_conv_single_channel("1 channel 1x1 ->19", {1, 7, 37, 1, 19, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1},
                                  ep::Act::None, pool);
        check_conv_single_channel("1 channel 3x1/1x3 ->8 leaky", {1, 9, 40, 1, 8, 3, 1, 1, 3, 1, 1, 0, 0, 0, 0, 1},
                                  ep::Act::LeakyRelu, pool);
        check_conv_single_channel("1 channel 7x7/3 ->5 pad 3", {1, 5, 131, 1, 5, 7, 7, 3, 3, 1, 1, 3, 3, 3, 3, 1},
                                  ep::Act::None, pool);
        // One input channel, channels-first output: whole chunks, a vector and a scalar tail.
        check_conv_planar("planar 3x3 ->8 pads 83 wide", {1, 7, 83, 1, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                          ep::Act::Relu, pool);
        check_conv_planar("planar 5x5/2x1 d2 ->3 batch 2", {2, 11, 40, 1, 3, 5, 5, 2, 1, 2, 2, 3, 1, 2, 4, 1},
                          ep::Act::Clamp, pool);
        // Depthwise layers of several passes whose channels end in a partial vector.
        check_conv("depthwise 5x5 96 clamp", {1, 6, 7, 96, 96, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, 96}, ep::Act::Clamp, pool);
        check_conv("depthwise 7x7 100", {1, 8, 7, 100, 100, 7, 7, 1, 1, 1, 1, 3, 3, 3, 3, 100}, ep::Act::None, pool);
        check_conv("pointwise 13->56", {1, 6, 5, 13, 56, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, ep::Act::None, pool);
        // The RVV rows GEMM (gemm_rows_rvv.h): tiles of 3 rows ending in 2 and 1, a panel of 2 * NR
        // ending partly filled, the activations it applies after its stores.
        check_conv("pointwise 16->96 hardswish", {1, 7, 5, 16, 96, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, ep::Act::HardSwish,
                   pool);
        check_conv("pointwise 40->72 sigmoid", {2, 1, 11, 40, 72, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, ep::Act::Sigmoid,
                   pool);
        // 1-D, channels first: one input channel with a long strided kernel (Rows path, read in
        // place), 3 taps over 64 channels, depthwise 9 taps, dilation, groups, batch 2, transposed.
        check_conv1d("conv1d 1->24 k80/4", 1, 1, 700, 24, 80, 4, 1, 0, 0, 1, false, pool);
        check_conv1d("conv1d 64->64 k3 pad 1", 1, 64, 97, 64, 3, 1, 1, 1, 1, 1, false, pool);
        check_conv1d("conv1d depthwise 40 k9", 1, 40, 101, 40, 9, 1, 1, 4, 4, 40, false, pool);
        check_conv1d("conv1d 16->20 k3 dilation 5 batch 2", 2, 16, 60, 20, 3, 1, 5, 5, 5, 1, false, pool);
        check_conv1d("conv1d 3->17 k7/2 pads", 1, 3, 50, 17, 7, 2, 1, 3, 2, 1, false, pool);
        check_conv1d("conv1d 12->12 k5 4 groups", 1, 12, 33, 12, 5, 1, 1, 2, 2, 4, false, pool);
        check_conv1d("convtranspose1d 16->8 k4/2", 1, 16, 37, 8, 4, 2, 1, 1, 1, 1, true, pool);
        check_conv1d("convtranspose1d 16->8 k2/2 (blocks)", 1, 16, 37, 8, 2, 2, 1, 0, 0, 1, true, pool);
        // ConvTranspose: kernel == stride without pads (the Blocks path: 2x2/2, 3x2/3x2, batch 2,
        // an out_c that is no multiple of a panel) and with overlapping taps (the gather).
        check_conv_transpose("convtranspose 2x2/2 24->19", {1, 7, 9, 24, 19, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 1}, 14, 18,
                             pool);
        check_conv_transpose("convtranspose 3x2/3x2 batch 2", {2, 5, 4, 8, 40, 3, 2, 3, 2, 1, 1, 0, 0, 0, 0, 1}, 15, 8,
                             pool);
        check_conv_transpose("convtranspose 4x4/2 pad 1 16->8", {1, 6, 7, 16, 8, 4, 4, 2, 2, 1, 1, 1, 1, 1, 1, 1}, 12,
                             14, pool);
        check_conv3d("conv3d 3x3x3 8->12 pad 1", 1, 8, 12, 1, 5, 6, 7, 3, 3, 1, 1, pool);
        check_conv3d("conv3d 2x3x3/2 groups 2 batch 2", 2, 4, 6, 2, 6, 7, 7, 2, 3, 2, 0, pool);
        check_fc("fc 512->100", 1, 512, 100, pool);
        check_fc("fc 9 rows 33->17", 9, 33, 17, pool);
        check_binary(pool);
        check_binary_streams(pool);
        check_max_pool(pool, 24);
        check_max_pool(pool, 6);
        check_max_pool_dilated(pool);
        check_average_pools(pool);
        check_softmax(pool);
        check_global_max_pool_and_transpose(pool);
    }
    check_unary_streams();
    check_nan_streams();
    std::printf("cross_check: %d of %d cases ok\n", cases - failures, cases);
    return failures == 0 ? 0 : 1;
}

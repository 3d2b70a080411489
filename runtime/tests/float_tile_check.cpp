// The float GEMM tiles of the x86 builds (gemm_ukernel.h: the vector-register panels with
// AVX2 / AVX-512, the 8- and 24-channel remainder panels, the narrow tile) against plain
// arithmetic. The test library (tst_runtime_portable_kernels) is built without ISA flags, so
// these tiles run only in exports (-march=native); this program is built for x86-64-v3 and
// x86-64-v4 and run by ctest where the CPU has the extension.
//
// For 1x1 convolutions, stride-2 3x3 convolutions (the Indirect path), 3x3 depthwise
// convolutions (AVX-512: weights held in registers across pixels) and fully-connected layers,
// every output is bias + the products in the kernel's order (taps, then input channels), each
// added by one fused multiply-add: with None, Relu and Clamp the result must be
// equal bit for bit; LeakyRelu and HardSwish (other tiles) within 1e-5 relative. Every output
// width from 1 to 41 channels meets every tile kind (whole panels, 8/16/24-channel
// remainders), pixel counts leave 1..MR-1 pixels in the last tile, on 1 and 2 threads.
// Also transpose_matrices' 8x8 register tiles, conv2d_planar and the pools' register windows.
// Exit 0 when all agree.
#include "portable.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace ep = embark::portable;

namespace {

float activate(const ep::Activation& act, float v) {
    switch (act.kind) {
    case ep::Act::Relu: return v > 0.f ? v : 0.f;
    case ep::Act::Clamp: v = v < act.min ? act.min : v; return v > act.max ? act.max : v;
    case ep::Act::LeakyRelu: return v >= 0.f ? v : v * act.alpha;
    case ep::Act::HardSwish: {
        float gate = v / 6.f + 0.5f;
        gate = gate < 0.f ? 0.f : (gate > 1.f ? 1.f : gate);
        return v * gate;
    }
    default: return v;
    }
}

bool exact_kind(ep::Act kind) { return kind == ep::Act::None || kind == ep::Act::Relu || kind == ep::Act::Clamp; }

std::vector<float> random_values(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

// Counts the outputs that differ from `want` (bitwise for the exact kinds), printing the first.
int compare(const std::string& what, const ep::Activation& act, const std::vector<float>& got,
            const std::vector<float>& want) {
    int bad = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        const bool ok = exact_kind(act.kind) ? got[i] == want[i]
                                             : std::fabs(got[i] - want[i]) <= 1e-5f * std::max(1.f, std::fabs(want[i]));
        if (!ok && bad++ == 0)
            std::printf("FAIL %s: output %zu is %a, expected %a\n", what.c_str(), i, static_cast<double>(got[i]),
                        static_cast<double>(want[i]));
    }
    return bad;
}

// One convolution (NHWC; groups 1, or depthwise: groups == in_c == out_c) against the products
// in tap-then-channel order.
int check_conv(const ep::Conv2DShape& s, const ep::Activation& act, ep::ThreadPool* pool, const char* name) {
    const int cg = s.in_c / s.groups; // input channels per output channel
    const auto w = random_values(static_cast<size_t>(s.out_c) * cg * s.kernel_h * s.kernel_w, 1);
    const auto b = random_values(static_cast<size_t>(s.out_c), 2);
    const auto x = random_values(static_cast<size_t>(s.batch) * s.in_h * s.in_w * s.in_c, 3);
    const ep::Conv2D op = ep::pack_conv2d(s, w.data(), b.data(), act);
    if (op.path == ep::ConvPath::Winograd) return 0; // other sums; covered by tst_runtime_portable_kernels
    const int oh = op.out_h, ow = op.out_w;
    std::vector<float> got(static_cast<size_t>(s.batch) * oh * ow * s.out_c), want(got.size());
    ep::conv2d(op, x.data(), got.data(), pool);
    for (int n = 0; n < s.batch; ++n)
        for (int oy = 0; oy < oh; ++oy)
            for (int ox = 0; ox < ow; ++ox)
                for (int co = 0; co < s.out_c; ++co) {
                    float r = b[co];
                    for (int ky = 0; ky < s.kernel_h; ++ky)
                        for (int kx = 0; kx < s.kernel_w; ++kx) {
                            const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
                            const int ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
                            if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue; // a zero tap adds +0
                            const int first = co / (s.out_c / s.groups) * cg;
                            for (int ci = 0; ci < cg; ++ci)
                                r = std::fma(
                                    x[((static_cast<size_t>(n) * s.in_h + iy) * s.in_w + ix) * s.in_c + first + ci],
                                    w[((static_cast<size_t>(co) * cg + ci) * s.kernel_h + ky) * s.kernel_w + kx], r);
                        }
                    want[((static_cast<size_t>(n) * oh + oy) * ow + ox) * s.out_c + co] = activate(act, r);
                }
    char what[160];
    std::snprintf(what, sizeof what, "%s %dx%dx%d -> %d, act %d, %d thread(s)", name, s.in_h, s.in_w, s.in_c, s.out_c,
                  static_cast<int>(act.kind), pool ? pool->threads() : 1);
    return compare(what, act, got, want);
}

int check_fc(int rows, int k, int n, const ep::Activation& act, ep::ThreadPool* pool) {
    const auto w = random_values(static_cast<size_t>(n) * k, 4); // [n][k]
    const auto b = random_values(static_cast<size_t>(n), 5);
    const auto x = random_values(static_cast<size_t>(rows) * k, 6);
    const ep::FullyConnected op = ep::pack_fully_connected(k, n, w.data(), true, b.data(), act);
    std::vector<float> got(static_cast<size_t>(rows) * n), want(got.size());
    ep::fully_connected(op, rows, x.data(), got.data(), pool);
    for (int m = 0; m < rows; ++m)
        for (int j = 0; j < n; ++j) {
            float r = b[j];
            for (int i = 0; i < k; ++i)
                r = std::fma(x[static_cast<size_t>(m) * k + i], w[static_cast<size_t>(j) * k + i], r);
            want[static_cast<size_t>(m) * n + j] = activate(act, r);
        }
    char what[120];
    std::snprintf(what, sizeof what, "fully connected %d x %d -> %d, act %d, %d thread(s)", rows, k, n,
                  static_cast<int>(act.kind), pool ? pool->threads() : 1);
    return compare(what, act, got, want);
}

} // namespace

// transpose_matrices' 8x8 register tiles (AVX) and the scalar edges of its 64 x 256 blocks: rows
// and columns of 8, 32 and 64 plus remainders, the layout conversions' shapes, batch 2, on 1
// and 2 threads; must equal the plain loop exactly.
int check_transpose(ep::ThreadPool* pool) {
    int failures = 0;
    const int shapes[][3] = {{1, 8, 8},      {1, 9, 17},     {1, 31, 33}, {2, 40, 77},   {1, 64, 96},
                             {1, 128, 3136}, {1, 3136, 128}, {2, 5, 300}, {1, 130, 300}, {1, 16384, 21}};
    for (const auto& sh : shapes) {
        const int batch = sh[0], rows = sh[1], cols = sh[2];
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> dist(-1.f, 1.f);
        std::vector<float> x(size_t(batch) * rows * cols), want(x.size()), got(x.size(), NAN);
        for (float& v : x) v = dist(rng);
        for (int n = 0; n < batch; ++n)
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < cols; ++c)
                    want[(size_t(n) * cols + c) * rows + r] = x[(size_t(n) * rows + r) * cols + c];
        ep::transpose_matrices(x.data(), batch, rows, cols, got.data(), pool);
        const bool ok = got == want;
        if (!ok) {
            std::printf("transpose %d x %d x %d (%s): FAILED\n", batch, rows, cols, pool ? "2 threads" : "1 thread");
            ++failures;
        }
    }
    return failures;
}

// conv2d_planar (one input channel, channels-first output: pixels on the vector lanes, chunks
// of 4 vectors, single vectors, a scalar tail): every output is bias + the taps' products in
// kernel order, each one fused multiply-add (taps in the horizontal padding add w * 0).
int check_planar(const ep::Conv2DShape& s, const ep::Activation& act, ep::ThreadPool* pool) {
    const int taps = s.kernel_h * s.kernel_w, oh = s.out_h(), ow = s.out_w();
    const auto x = random_values(size_t(s.batch) * s.in_h * s.in_w, 41);
    const auto w = random_values(size_t(s.out_c) * taps, 42);
    const auto b = random_values(size_t(s.out_c), 43);
    const ep::Conv2D op = ep::pack_conv2d_planar(s, w.data(), b.data(), act);
    std::vector<float> got(size_t(s.batch) * s.out_c * oh * ow, NAN), want(got.size());
    ep::conv2d_planar(op, x.data(), got.data(), pool);
    for (int n = 0; n < s.batch; ++n)
        for (int co = 0; co < s.out_c; ++co)
            for (int oy = 0; oy < oh; ++oy)
                for (int ox = 0; ox < ow; ++ox) {
                    float acc = b[size_t(co)];
                    for (int ky = 0; ky < s.kernel_h; ++ky) {
                        const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
                        if (iy < 0 || iy >= s.in_h) continue;
                        for (int kx = 0; kx < s.kernel_w; ++kx) {
                            const int ix = ox - s.pad_left + kx * s.dilation_w;
                            const float v = ix < 0 || ix >= s.in_w ? 0.f : x[(size_t(n) * s.in_h + iy) * s.in_w + ix];
                            acc = std::fma(w[size_t(co) * taps + size_t(ky) * s.kernel_w + kx], v, acc);
                        }
                    }
                    want[((size_t(n) * s.out_c + co) * oh + oy) * ow + ox] = activate(act, acc);
                }
    return compare("planar " + std::to_string(s.kernel_h) + "x" + std::to_string(s.kernel_w) + " width " +
                       std::to_string(ow),
                   act, got, want);
}

// max_pool2d / average_pool2d of 16 channels and more (the window in registers, 64 and 16
// channels at a time, a scalar channel tail; inner windows at fixed offsets, border ones by tap
// list): the taps in kernel order inside the input, max as `v > acc ? v : acc` from -inf, average
// as the sum from 0 times 1 / count; must be equal bit for bit.
int check_pool(const ep::Pool2DShape& s, int kind, ep::ThreadPool* pool) {
    const auto x = random_values(size_t(s.batch) * s.in_h * s.in_w * s.channels, 51);
    std::vector<float> got(size_t(s.batch) * s.out_h * s.out_w * s.channels, NAN), want(got.size());
    if (kind == 0)
        ep::max_pool2d(s, x.data(), got.data(), pool);
    else
        ep::average_pool2d(s, kind == 2, x.data(), got.data(), pool);
    for (int n = 0; n < s.batch; ++n)
        for (int oy = 0; oy < s.out_h; ++oy)
            for (int ox = 0; ox < s.out_w; ++ox)
                for (int c = 0; c < s.channels; ++c) {
                    float acc = kind == 0 ? -INFINITY : 0.f;
                    int inside = 0, padded = 0;
                    for (int ky = 0; ky < s.kernel_h; ++ky)
                        for (int kx = 0; kx < s.kernel_w; ++kx) {
                            const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
                            const int ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
                            if (iy >= -s.pad_top && iy < s.in_h + s.pad_bottom && ix >= -s.pad_left &&
                                ix < s.in_w + s.pad_right)
                                ++padded;
                            if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue;
                            const float v = x[((size_t(n) * s.in_h + iy) * s.in_w + ix) * s.channels + c];
                            acc = kind == 0 ? (v > acc ? v : acc) : acc + v;
                            ++inside;
                        }
                    const int count = kind == 2 ? padded : inside;
                    if (kind != 0) acc *= count > 0 ? 1.f / static_cast<float>(count) : 0.f;
                    want[((size_t(n) * s.out_h + oy) * s.out_w + ox) * s.channels + c] = acc;
                }
    const ep::Activation none;
    return compare(std::string(kind == 0 ? "max" : "average") + " pool " + std::to_string(s.kernel_h) + "x" +
                       std::to_string(s.kernel_w) + " " + std::to_string(s.channels) + " channels",
                   none, got, want);
}

int main() {
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    ep::Activation none, relu, clamp, leaky, hswish;
    relu.kind = ep::Act::Relu;
    clamp.kind = ep::Act::Clamp;
    clamp.min = -0.25f;
    clamp.max = 0.5f;
    leaky.kind = ep::Act::LeakyRelu;
    leaky.alpha = 0.1f;
    hswish.kind = ep::Act::HardSwish;
    const ep::Activation acts[] = {none, relu, clamp, leaky, hswish};
    ep::ThreadPool two(2);
    ep::ThreadPool* pools[] = {nullptr, &two};
    int failures = 0, cases = 0;
    for (ep::ThreadPool* pool : pools)
        for (const ep::Activation& act : acts) {
            for (int out_c = 1; out_c <= 41; ++out_c) {
                for (int in_c : {1, 3, 16, 37}) { // 1 and 3: pointwise_small_k for 8-32 channels
                    ep::Conv2DShape s;
                    s.in_h = 3;
                    s.in_w = 5 + out_c % 4; // 15..24 pixels: every remainder tile size
                    s.in_c = in_c;
                    s.out_c = out_c;
                    failures += check_conv(s, act, pool, "1x1") != 0;
                    ++cases;
                }
                ep::Conv2DShape s; // stride 2, padded: the Indirect path (taps > 1)
                s.in_h = 7;
                s.in_w = 9;
                s.in_c = 5 + out_c % 3;
                s.out_c = out_c;
                s.kernel_h = s.kernel_w = 3;
                s.stride_h = s.stride_w = 2;
                s.pad_top = s.pad_left = s.pad_bottom = s.pad_right = 1;
                failures += check_conv(s, act, pool, "3x3/2") != 0;
                ++cases;
            }
            for (int channels : {8, 16, 24, 32, 40, 48, 96, 144})
                for (int stride : {1, 2}) {
                    ep::Conv2DShape s; // depthwise 3x3, padded
                    s.in_h = 6;
                    s.in_w = 7;
                    s.in_c = s.out_c = s.groups = channels;
                    s.kernel_h = s.kernel_w = 3;
                    s.stride_h = s.stride_w = stride;
                    s.pad_top = s.pad_left = s.pad_bottom = s.pad_right = 1;
                    failures += check_conv(s, act, pool, "depthwise 3x3") != 0;
                    ++cases;
                    // 7x7 (neither 3x3 nor 5x5: weights loaded per tap, pixels in groups of 4
                    // and a remainder), 1x9 (1-D) and 3x3 with dilation 2.
                    s.kernel_h = s.kernel_w = 7;
                    s.pad_top = s.pad_left = s.pad_bottom = s.pad_right = 3;
                    s.in_w = 9;
                    failures += check_conv(s, act, pool, "depthwise 7x7") != 0;
                    s.kernel_h = 1;
                    s.kernel_w = 9;
                    s.pad_top = s.pad_bottom = 0;
                    s.pad_left = s.pad_right = 4;
                    failures += check_conv(s, act, pool, "depthwise 1x9") != 0;
                    s.kernel_h = s.kernel_w = 3;
                    s.dilation_h = s.dilation_w = 2;
                    s.pad_top = s.pad_left = s.pad_bottom = s.pad_right = 2;
                    failures += check_conv(s, act, pool, "depthwise 3x3 dilation 2") != 0;
                    cases += 3;
                }
            for (int n : {8, 24, 56, 1000})
                for (int rows : {1, 3, 9}) {
                    failures += check_fc(rows, 77, n, act, pool) != 0;
                    ++cases;
                }
        }
    for (ep::ThreadPool* pool : pools)
        for (const ep::Activation& act : {none, relu, clamp})
            for (int width : {1, 15, 16, 17, 63, 64, 65, 81, 130}) {
                // 3x3 pad 1; 5x5 dilation 2, stride_h 2, uneven pads, batch 2.
                ep::Conv2DShape s{1, 5, width, 1, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1};
                failures += check_planar(s, act, pool) != 0;
                ep::Conv2DShape t{2, 9, width + 8, 1, 2, 5, 5, 2, 1, 2, 2, 2, 1, 3, 0, 1};
                failures += check_planar(t, act, pool) != 0;
                cases += 2;
            }
    for (ep::ThreadPool* pool : pools) {
        failures += check_transpose(pool);
        cases += 8;
    }
    for (ep::ThreadPool* pool : pools)
        for (int channels : {16, 17, 64, 80, 83, 130})
            for (int kind : {0, 1, 2}) {
                // batch in_h in_w C out_h out_w kh kw sh sw dh dw pt pl pb pr
                const ep::Pool2DShape shapes[] = {
                    {1, 11, 10, channels, 6, 6, 3, 3, 2, 2, 1, 1, 1, 1, 1, 2}, // ceil: a window past the pads
                    {2, 8, 9, channels, 4, 4, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0},
                    {1, 9, 8, channels, 9, 6, 3, 3, 1, 1, 2, 2, 2, 1, 2, 1}, // dilation 2, uneven pads
                };
                for (const ep::Pool2DShape& s : shapes) {
                    failures += check_pool(s, kind, pool) != 0;
                    ++cases;
                }
            }
    std::printf("float tiles: %s (%d of %d configurations failing)\n", failures ? "FAILED" : "all agree", failures,
                cases);
    return failures ? 1 : 0;
}

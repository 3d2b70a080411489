// Int8 kernel cases shared by tests/runtime/tst_portable_kernels.cpp (host) and
// runtime/tests/quant_check.cpp (cross-compiled for RVV and aarch64 by cross_check.sh): every
// QConv2D path (1x1 in place, patches, depthwise 3x3 / 5x5 / other taps, groups, strides,
// dilations, asymmetric pads, channel and pixel tails, batch 2, a fully connected layer as a
// 1x1 over rows) and QAdd, compared byte for byte with a naive loop of the reference's
// arithmetic (core/reference/quantized_fused.cpp), with full, Relu and Clip output ranges.
#pragma once

// The reference loops round each product and sum separately, as the reference interpreter
// does (GCC contracts a * b + c into a fused multiply-add on aarch64 by default).
#if defined(__clang__)
#  pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#  pragma GCC optimize("fp-contract=off")
#endif

#include "portable.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace embark::quant_cases {

namespace ep = embark::portable;

inline int8_t ref_requantize(float v, const ep::Requantization& r) {
    const float lo = static_cast<float>(r.out_min - r.zero_point), hi = static_cast<float>(r.out_max - r.zero_point);
    v = std::min(std::max(v, lo), hi);
    return static_cast<int8_t>(static_cast<int64_t>(std::nearbyint(v)) + r.zero_point);
}

// NHWC input, ONNX weights [M][C/g][kh][kw].
inline std::vector<int8_t> ref_qconv(const ep::Conv2DShape& s, const std::vector<int8_t>& x,
                                     const std::vector<int8_t>& w, const std::vector<int32_t>& bias,
                                     const std::vector<float>& m, int xz, const ep::Requantization& r) {
    const int oh = s.out_h(), ow = s.out_w(), cg = s.in_c / s.groups, mg = s.out_c / s.groups;
    std::vector<int8_t> y(static_cast<size_t>(s.batch) * oh * ow * s.out_c);
    for (int n = 0; n < s.batch; ++n)
        for (int oy = 0; oy < oh; ++oy)
            for (int ox = 0; ox < ow; ++ox)
                for (int o = 0; o < s.out_c; ++o) {
                    const int g = o / mg;
                    int32_t acc = bias.empty() ? 0 : bias[static_cast<size_t>(o)];
                    for (int c = 0; c < cg; ++c)
                        for (int ky = 0; ky < s.kernel_h; ++ky) {
                            const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
                            if (iy < 0 || iy >= s.in_h) continue;
                            for (int kx = 0; kx < s.kernel_w; ++kx) {
                                const int ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
                                if (ix < 0 || ix >= s.in_w) continue;
                                const int32_t xv =
                                    x[((static_cast<size_t>(n) * s.in_h + iy) * s.in_w + ix) * s.in_c + g * cg + c] -
                                    xz;
                                acc += xv * w[((static_cast<size_t>(o) * cg + c) * s.kernel_h + ky) * s.kernel_w + kx];
                            }
                        }
                    y[((static_cast<size_t>(n) * oh + oy) * ow + ox) * s.out_c + o] =
                        ref_requantize(static_cast<float>(acc) * m[static_cast<size_t>(o)], r);
                }
    return y;
}

struct ConvCase {
    const char* name;
    ep::Conv2DShape shape;
};

// batch, in_h, in_w, in_c, out_c, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, groups
inline std::vector<ConvCase> conv_cases() {
    return {
        {"1x1 16->40 (channel tail)", {1, 7, 5, 16, 40, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}},
        {"1x1 24->144 (k not /16)", {1, 6, 6, 24, 144, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}},
        {"1x1 3->5 tiny", {1, 3, 3, 3, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}},
        {"1x1 64->1 one channel", {1, 4, 5, 64, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}},
        {"1x1/2 32->20", {1, 9, 9, 32, 20, 1, 1, 2, 2, 1, 1, 0, 0, 0, 0, 1}},
        {"1x1 pad 1 (patch path)", {1, 4, 4, 16, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
        {"1x1 batch 2 96->33", {2, 5, 3, 96, 33, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}},
        {"3x3/2 stem 3->32", {1, 15, 13, 3, 32, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}},
        {"3x3 20->33 pad 1", {1, 8, 7, 20, 33, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
        {"3x3 asymmetric pads", {1, 9, 8, 8, 16, 3, 3, 2, 1, 1, 1, 0, 1, 1, 2, 1}},
        {"3x3 dilation 2", {1, 10, 10, 16, 24, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 1}},
        {"3x3 batch 2 64->64 pad 1", {2, 6, 7, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
        {"3x3/2 72->40 (row sums past 64 bytes)", {1, 9, 11, 72, 40, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}},
        // RVV runs 3x3 stride 1 by integer Winograd (quant_winograd_rvv.h): many channels, more
        // tiles than one block, a 2x3 output (tiles cut at both borders).
        {"3x3 512->24 pad 1", {1, 5, 6, 512, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
        {"3x3 8->16 20x19 pad 1", {1, 20, 19, 8, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
        {"3x3 16->70 no pad 4x5 -> 2x3", {1, 4, 5, 16, 70, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 1}},
        {"7x7/2 3->64", {1, 20, 20, 3, 64, 7, 7, 2, 2, 1, 1, 3, 3, 3, 3, 1}},
        {"3x3 grouped 12->18 g3", {1, 6, 7, 12, 18, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3}},
        {"1x1 grouped 32->64 g2", {1, 5, 5, 32, 64, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2}},
        // Grouped 3x3 stride 1 runs by Winograd on RVV too (RegNet's 16 channels a group): the
        // transforms over all channels, each group's GEMMs on its slice; groups wider than a
        // panel, batch 2, odd outputs, 4 channels a group.
        {"3x3 grouped 64->64 g4 pad 1", {1, 7, 9, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4}},
        {"3x3 grouped 48->96 g3 batch 2", {2, 5, 7, 48, 96, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3}},
        {"3x3 grouped 32->160 g2 no pad", {1, 6, 5, 32, 160, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 2}},
        {"3x3 grouped 16->16 g4 (4 a group)", {1, 6, 6, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4}},
        {"3x3 grouped 24->24 g8 (3 a group)", {1, 5, 6, 24, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 8}},
        {"3x3/2 grouped 64->64 g4 pad 1", {1, 9, 10, 64, 64, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 4}},
        // RVV runs few output channels with pixels on the lanes (quant_pixels_rvv.h): 1-8 input
        // channels, 3x3/5x5/7x7, strides 1 and 2, dilation, odd sizes, asymmetric pads, batch 2,
        // passes of 2 channels and a tail of 1, a layer without padding (the input read in
        // place), fewer pixels than a chunk's lanes, 17-32 channels (VLEN 256 only).
        {"5x5 1->6 pad 2 (LeNet-5 stem)", {1, 28, 28, 1, 6, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, 1}},
        {"5x5 6->16 no pad", {1, 14, 14, 6, 16, 5, 5, 1, 1, 1, 1, 0, 0, 0, 0, 1}},
        // 13 and 16 output channels (VLEN 256 only): groups of 6, 6, 4 and a tail of 1.
        {"3x3 4->16 pad 1 batch 2", {2, 9, 8, 4, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
        {"3x3/2 3->13 pad 1", {1, 11, 12, 3, 13, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}},
        {"3x3/2 3->8 odd sizes", {1, 13, 11, 3, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}},
        {"7x7/2 2->11 batch 2", {2, 15, 17, 2, 11, 7, 7, 2, 2, 1, 1, 3, 3, 3, 3, 1}},
        {"3x3 1->1 dilation 2 asymmetric pads", {1, 9, 10, 1, 1, 3, 3, 1, 1, 2, 2, 1, 2, 0, 1, 1}},
        {"5x3 stride 1x2 3->7", {1, 10, 9, 3, 7, 5, 3, 1, 2, 1, 1, 2, 1, 2, 1, 1}},
        {"3x3 2->4 no pad", {1, 6, 7, 2, 4, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 1}},
        {"5x5/2 7->15 pad 2 odd sizes", {1, 13, 15, 7, 15, 5, 5, 2, 2, 1, 1, 2, 2, 2, 2, 1}},
        {"3x3 stride 2x1 5->9 dilation 2", {1, 11, 9, 5, 9, 3, 3, 2, 1, 2, 2, 1, 2, 2, 1, 1}},
        {"3x3 8->3 few pixels 4x3", {1, 4, 3, 8, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
        {"5x5 8->32 no pad 11x9", {1, 11, 9, 8, 32, 5, 5, 1, 1, 1, 1, 0, 0, 0, 0, 1}},
        {"3x3 6->24 pad 1 batch 2", {2, 7, 9, 6, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
        // Grouped, pixels on the lanes group by group (RegNet's groups of 16, odd passes).
        {"3x3/2 grouped 32->32 g2 pad 1 odd sizes", {1, 13, 11, 32, 32, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 2}},
        {"5x5 grouped 10->15 g5 pad 2", {1, 9, 8, 10, 15, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, 5}},
        // A chunk of pixels spanning more than 64 KB of the widened input (4 input rows apart per
        // output row): 32-bit offsets, the passes of 3 channels as 2 + 1.
        {"3x3/4 grouped 64->64 g4 64x64", {1, 64, 64, 64, 64, 3, 3, 4, 4, 1, 1, 1, 1, 1, 1, 4}},
        {"dw 3x3 37", {1, 9, 11, 37, 37, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 37}},
        {"dw 3x3 144", {1, 6, 6, 144, 144, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 144}},
        {"dw 3x3/2 96 pads 0,0,1,1", {1, 10, 10, 96, 96, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, 96}},
        {"dw 3x3 5 channels", {1, 5, 4, 5, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 5}},
        {"dw 3x3 dilation 2 batch 2", {2, 9, 9, 20, 20, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 20}},
        {"dw 5x5 40", {1, 8, 8, 40, 40, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, 40}},
        {"dw 3x1 33", {1, 7, 6, 33, 33, 3, 1, 1, 1, 1, 1, 1, 0, 1, 0, 33}},
        {"fc 1 row 100->10", {1, 1, 1, 100, 10, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}},
        {"fc 5 rows 1280->37", {1, 1, 5, 1280, 37, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}},
    };
}

// Output ranges: full int8, a fused Relu (out_min = zero point), a Clip.
inline std::vector<ep::Requantization> requant_cases(int zp) {
    return {ep::Requantization{zp, -128, 127}, ep::Requantization{zp, zp, 127},
            ep::Requantization{zp, std::max(-128, zp - 20), std::min(127, zp + 50)}};
}

template <typename T>
std::vector<T> random_ints(size_t n, unsigned seed, int lo, int hi) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dist(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(dist(rng));
    return v;
}

// Runs every case; returns the number of failures and prints one line per failure (and per
// case when verbose).
inline int run_all(bool verbose, ep::ThreadPool* pool = nullptr) {
    int failures = 0, index = 0;
    for (const ConvCase& cc : conv_cases()) {
        const ep::Conv2DShape& s = cc.shape;
        const int cg = s.in_c / s.groups, oh = s.out_h(), ow = s.out_w();
        const unsigned seed = 1000u + static_cast<unsigned>(index++) * 17u;
        const auto x = random_ints<int8_t>(static_cast<size_t>(s.batch) * s.in_h * s.in_w * s.in_c, seed, -128, 127);
        const auto w =
            random_ints<int8_t>(static_cast<size_t>(s.out_c) * cg * s.kernel_h * s.kernel_w, seed + 1, -128, 127);
        const auto bias = random_ints<int32_t>(static_cast<size_t>(s.out_c), seed + 2, -20000, 20000);
        std::mt19937 rng(seed + 3);
        // Multipliers that put the sums' spread over about the int8 range, so both clamps and
        // every rounding are exercised.
        const float spread = 1.f / (55.f * std::sqrt(static_cast<float>(cg * s.kernel_h * s.kernel_w)));
        std::uniform_real_distribution<float> md(0.3f * spread, 3.f * spread);
        std::vector<float> m(static_cast<size_t>(s.out_c));
        for (auto& v : m) v = md(rng);
        for (int xz : {0, -128, 37}) {
            for (const ep::Requantization& r : requant_cases(xz == 37 ? -5 : xz)) {
                for (bool withBias : {true, false}) {
                    const std::vector<int32_t> b = withBias ? bias : std::vector<int32_t>();
                    const auto want = ref_qconv(s, x, w, b, m, xz, r);
                    ep::QConv2D op =
                        ep::pack_qconv2d(s, oh, ow, w.data(), withBias ? b.data() : nullptr, m.data(), xz, r);
                    std::vector<int8_t> got(want.size(), 99);
                    ep::qconv2d(op, x.data(), got.data(), pool);
                    ep::qconv2d(op, x.data(), got.data(), pool); // the cached indirection again
                    size_t bad = 0, first = 0;
                    for (size_t i = 0; i < want.size(); ++i)
                        if (got[i] != want[i] && bad++ == 0) first = i;
                    if (bad) {
                        ++failures;
                        std::printf("qconv %s xz %d range [%d, %d] zp %d bias %d: %zu of %zu bytes differ (first at "
                                    "%zu: %d, want %d)\n",
                                    cc.name, xz, r.out_min, r.out_max, r.zero_point, withBias ? 1 : 0, bad, want.size(),
                                    first, got[first], want[first]);
                    }
                }
            }
        }
        if (verbose) std::printf("qconv %-32s checked\n", cc.name);
    }
    // QAdd: the float arithmetic of DequantizeLinear -> Add -> QuantizeLinear, in place too.
    for (int trial = 0; trial < 6; ++trial) {
        const size_t count = 1000 + 37 * trial;
        const auto a = random_ints<int8_t>(count, 50u + trial, -128, 127);
        const auto b = random_ints<int8_t>(count, 80u + trial, -128, 127);
        ep::QAddParams p;
        p.a_scale = 0.02f + 0.003f * trial, p.b_scale = 0.05f - 0.004f * trial, p.y_scale = 0.04f + 0.01f * trial;
        p.a_zero_point = trial * 9 - 20, p.b_zero_point = 11 - trial * 7;
        p.out = requant_cases(trial * 5 - 10)[static_cast<size_t>(trial % 3)];
        std::vector<int8_t> want(count);
        // Scalar: qemu 7.2 aborts on the masked vector rounding Clang makes of nearbyint on RVV.
#if defined(__clang__)
#  pragma clang loop vectorize(disable)
#endif
        for (size_t i = 0; i < count; ++i) {
            const float fa = static_cast<float>(a[i] - p.a_zero_point) * p.a_scale;
            const float fb = static_cast<float>(b[i] - p.b_zero_point) * p.b_scale;
            want[i] = ref_requantize((fa + fb) / p.y_scale, p.out);
        }
        std::vector<int8_t> got(count), inPlace = b;
        ep::qadd(p, a.data(), b.data(), got.data(), count, pool);
        ep::qadd(p, a.data(), inPlace.data(), inPlace.data(), count, pool);
        if (got != want || inPlace != want) {
            ++failures;
            std::printf("qadd trial %d differs\n", trial);
        }
    }
    if (verbose) std::printf("qadd checked\n");
    // max_pool2d_s8: against the maximum over the window's taps inside the input (pads, strides,
    // dilations, channel tails, a 3x3 with every input -128 next to the padding).
    {
        struct PoolCase {
            const char* name;
            ep::Pool2DShape s;
        };
        // batch, in_h, in_w, channels, out_h, out_w, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr
        const PoolCase pools[] = {
            {"3x3/2 pad 1, 64 channels", {1, 12, 11, 64, 6, 6, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}},
            {"3x3/1 pad 1, 19 channels, batch 2", {2, 7, 6, 19, 7, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}},
            {"2x2/2, 33 channels", {1, 8, 9, 33, 4, 4, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0}},
            {"2x2/2, 6 channels (LeNet-5)", {1, 10, 12, 6, 5, 6, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0}},
            {"3x2 dilation 2, asymmetric pads", {1, 9, 8, 5, 5, 5, 3, 2, 2, 2, 2, 2, 1, 0, 1, 1}},
            // 1-16 channels: RVV flattens a row's (pixel, channel) bytes onto the lanes.
            {"2x2/2, 6 channels 28x28 (LeNet-5)", {1, 28, 28, 6, 14, 14, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0}},
            {"2x2/2, 1 channel, odd sizes", {1, 15, 13, 1, 7, 6, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0}},
            {"3x3/2 pad 1, 3 channels, batch 2", {2, 11, 13, 3, 6, 7, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}},
            {"3x3/1 pad 1, 8 channels", {1, 9, 21, 8, 9, 21, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}},
            {"2x2/2 pads 0,0,1,1, 7 channels", {1, 11, 13, 7, 6, 7, 2, 2, 2, 2, 1, 1, 0, 0, 1, 1}},
            {"3x3/1 dilation 2, 2 channels", {1, 12, 40, 2, 8, 36, 3, 3, 1, 1, 2, 2, 0, 0, 0, 0}},
            {"2x2/2, 16 channels", {1, 10, 20, 16, 5, 10, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0}},
            // Above 16 channels RVV takes the kernel's rows, then its columns: ceil mode (pads at
            // the end), more channels than an LMUL-8 vector of bytes, dilations with pads.
            {"3x3/2 ceil, 200 channels", {1, 13, 13, 200, 7, 7, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1}},
            {"2x3 dilation 3 pads, 40 channels", {1, 10, 14, 40, 5, 11, 2, 3, 2, 1, 3, 3, 1, 2, 2, 1}},
        };
        int pool_index = 0;
        for (const PoolCase& pc : pools) {
            const ep::Pool2DShape& s = pc.s;
            auto x = random_ints<int8_t>(static_cast<size_t>(s.batch) * s.in_h * s.in_w * s.channels,
                                         900u + static_cast<unsigned>(pool_index++), -128, 127);
            if (pool_index == 1)
                for (size_t i = 0; i < x.size(); i += 3) x[i] = -128;
            std::vector<int8_t> want(static_cast<size_t>(s.batch) * s.out_h * s.out_w * s.channels),
                got(want.size(), 99);
            for (int n = 0; n < s.batch; ++n)
                for (int oy = 0; oy < s.out_h; ++oy)
                    for (int ox = 0; ox < s.out_w; ++ox)
                        for (int c = 0; c < s.channels; ++c) {
                            int m = -128;
                            for (int ky = 0; ky < s.kernel_h; ++ky)
                                for (int kx = 0; kx < s.kernel_w; ++kx) {
                                    const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
                                    const int ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
                                    if (iy >= 0 && iy < s.in_h && ix >= 0 && ix < s.in_w)
                                        m = std::max<int>(
                                            m,
                                            x[((static_cast<size_t>(n) * s.in_h + iy) * s.in_w + ix) * s.channels + c]);
                                }
                            want[((static_cast<size_t>(n) * s.out_h + oy) * s.out_w + ox) * s.channels + c] =
                                static_cast<int8_t>(m);
                        }
            ep::max_pool2d_s8(s, x.data(), got.data(), pool);
            if (got != want) {
                ++failures;
                std::printf("max_pool2d_s8 %s differs\n", pc.name);
            } else if (verbose) {
                std::printf("max_pool2d_s8 %-32s checked\n", pc.name);
            }
        }
    }
    // average_pool2d_s8: the sum of (x - x_zero_point) over the taps inside, then
    // (float(sum) / count) * multiplier requantized; count with or without the pads. Global pools
    // of 49 and of 289 taps (RVV sums bytes in int16 per 256 taps), more channels than a vector.
    {
        struct AvgCase {
            const char* name;
            ep::Pool2DShape s;
            bool include_pad;
            int xz;
            float multiplier;
        };
        // batch, in_h, in_w, channels, out_h, out_w, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr
        const AvgCase avgs[] = {
            {"global 7x7, 1280 channels", {1, 7, 7, 1280, 1, 1, 7, 7, 1, 1, 1, 1, 0, 0, 0, 0}, false, -5, 0.93f},
            {"global 17x17, 40 channels", {1, 17, 17, 40, 1, 1, 17, 17, 1, 1, 1, 1, 0, 0, 0, 0}, false, 127, 1.7f},
            {"3x3/2 pad 1 counting pads, batch 2", {2, 9, 8, 37, 5, 4, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, true, 3, 0.61f},
            {"3x3/2 pad 1 without pads", {1, 9, 8, 70, 5, 4, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, false, -128, 1.05f},
            {"2x2/2, 5 channels", {1, 8, 10, 5, 4, 5, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0}, false, 0, 0.5f},
        };
        int avg_index = 0;
        for (const AvgCase& ac : avgs) {
            const ep::Pool2DShape& s = ac.s;
            const auto x = random_ints<int8_t>(static_cast<size_t>(s.batch) * s.in_h * s.in_w * s.channels,
                                               950u + static_cast<unsigned>(avg_index++), -128, 127);
            for (const ep::Requantization& r : requant_cases(avg_index * 7 - 20)) {
                std::vector<int8_t> want(static_cast<size_t>(s.batch) * s.out_h * s.out_w * s.channels),
                    got(want.size(), 99);
                for (int n = 0; n < s.batch; ++n)
                    for (int oy = 0; oy < s.out_h; ++oy)
                        for (int ox = 0; ox < s.out_w; ++ox)
                            for (int c = 0; c < s.channels; ++c) {
                                int32_t sum = 0;
                                int valid = 0, padded = 0;
                                for (int ky = 0; ky < s.kernel_h; ++ky)
                                    for (int kx = 0; kx < s.kernel_w; ++kx) {
                                        const int iy = oy * s.stride_h - s.pad_top + ky;
                                        const int ix = ox * s.stride_w - s.pad_left + kx;
                                        padded += iy < s.in_h + s.pad_bottom && ix < s.in_w + s.pad_right;
                                        if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue;
                                        ++valid;
                                        sum +=
                                            x[((static_cast<size_t>(n) * s.in_h + iy) * s.in_w + ix) * s.channels + c] -
                                            ac.xz;
                                    }
                                const int count = ac.include_pad ? padded : valid;
                                const float v =
                                    count ? (static_cast<float>(sum) / static_cast<float>(count)) * ac.multiplier : 0.f;
                                want[((static_cast<size_t>(n) * s.out_h + oy) * s.out_w + ox) * s.channels + c] =
                                    ref_requantize(v, r);
                            }
                ep::average_pool2d_s8(s, ac.include_pad, ac.xz, ac.multiplier, r, x.data(), got.data(), pool);
                if (got != want) {
                    ++failures;
                    std::printf("average_pool2d_s8 %s (zero point %d) differs\n", ac.name, r.zero_point);
                }
            }
            if (verbose) std::printf("average_pool2d_s8 %-32s checked\n", ac.name);
        }
    }
    // quantize_s8 / quantize_u8: x / scale, NaN -> 0, saturation, round half to even.
    {
        std::vector<float> x(1000);
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> d(-3.f, 3.f);
        for (size_t i = 0; i < x.size(); ++i) x[i] = i % 97 == 0 ? NAN : (i % 89 == 0 ? INFINITY : d(rng));
        for (size_t i = 0; i < 20; ++i) x[i] = 0.0125f * static_cast<float>(i) - 0.1f; // exact halves at scale 0.025
        for (int zp : {-3, 0, 100}) {
            std::vector<int8_t> s8(x.size()), want8(x.size());
            std::vector<uint8_t> u8(x.size()), wantu(x.size());
            const float scale = 0.025f;
            ep::quantize_s8(x.data(), s8.data(), x.size(), scale, zp);
            ep::quantize_u8(x.data(), u8.data(), x.size(), scale, zp + 28);
#if defined(__clang__)
#  pragma clang loop vectorize(disable)
#endif
            for (size_t i = 0; i < x.size(); ++i) {
                const float v = x[i] / scale;
                want8[i] = v != v ? 0 : ref_requantize(v, ep::Requantization{zp, -128, 127});
                const int zu = zp + 28;
                const float lo = static_cast<float>(0 - zu), hi = static_cast<float>(255 - zu);
                wantu[i] = v != v ? 0
                                  : static_cast<uint8_t>(
                                        static_cast<int64_t>(std::nearbyint(std::min(std::max(v, lo), hi))) + zu);
            }
            if (s8 != want8 || u8 != wantu) {
                ++failures;
                std::printf("quantize zero point %d differs\n", zp);
            }
        }
        if (verbose) std::printf("quantize checked\n");
    }
    // qlookup: y[i] = table[x[i] + 128], in place too, over lengths with and without a vector tail.
    {
        const auto table = random_ints<int8_t>(256, 21u, -128, 127);
        for (size_t count : {size_t(1), size_t(37), size_t(256), size_t(1000), size_t(4099)}) {
            const auto x = random_ints<int8_t>(count, 22u + static_cast<unsigned>(count), -128, 127);
            std::vector<int8_t> want(count), got(count, 99), inPlace = x;
            for (size_t i = 0; i < count; ++i) want[i] = table[static_cast<size_t>(x[i] + 128)];
            ep::qlookup(table.data(), x.data(), got.data(), count);
            ep::qlookup(table.data(), inPlace.data(), inPlace.data(), count);
            if (got != want || inPlace != want) {
                ++failures;
                std::printf("qlookup of %zu bytes differs\n", count);
            }
        }
        if (verbose) std::printf("qlookup checked\n");
    }
    // concat_bytes: inputs of 1, 64 and 300 bytes per outer row (within a vector, one, several).
    {
        const int64_t sizes[] = {1, 64, 300}, outer = 7, inner = 1;
        std::vector<std::vector<int8_t>> parts;
        std::vector<const void*> inputs;
        for (int i = 0; i < 3; ++i) {
            parts.push_back(random_ints<int8_t>(static_cast<size_t>(outer * sizes[i]), 30u + i, -128, 127));
            inputs.push_back(parts.back().data());
        }
        std::vector<int8_t> want, got(static_cast<size_t>(outer * 365), 99);
        for (int64_t o = 0; o < outer; ++o)
            for (int i = 0; i < 3; ++i)
                want.insert(want.end(), parts[static_cast<size_t>(i)].begin() + o * sizes[i],
                            parts[static_cast<size_t>(i)].begin() + (o + 1) * sizes[i]);
        ep::concat_bytes(inputs.data(), sizes, 3, outer, inner, got.data());
        if (got != want) {
            ++failures;
            std::printf("concat_bytes differs\n");
        } else if (verbose) {
            std::printf("concat_bytes checked\n");
        }
    }
    // transpose_bytes: the NCHW <-> NHWC paths and a generic permutation, against index arithmetic.
    {
        const int64_t dims[4] = {2, 3, 5, 7};
        const auto x = random_ints<int8_t>(2 * 3 * 5 * 7, 7u, -128, 127);
        const int perms[3][4] = {{0, 2, 3, 1}, {0, 3, 1, 2}, {1, 0, 3, 2}};
        for (const auto& perm : perms) {
            std::vector<int8_t> got(x.size()), want(x.size());
            ep::transpose_bytes(x.data(), dims, 4, perm, got.data());
            int64_t od[4];
            for (int k = 0; k < 4; ++k) od[k] = dims[perm[k]];
            int64_t idx[4];
            for (idx[0] = 0; idx[0] < dims[0]; ++idx[0])
                for (idx[1] = 0; idx[1] < dims[1]; ++idx[1])
                    for (idx[2] = 0; idx[2] < dims[2]; ++idx[2])
                        for (idx[3] = 0; idx[3] < dims[3]; ++idx[3]) {
                            const int64_t from = ((idx[0] * dims[1] + idx[1]) * dims[2] + idx[2]) * dims[3] + idx[3];
                            const int64_t to =
                                ((idx[perm[0]] * od[1] + idx[perm[1]]) * od[2] + idx[perm[2]]) * od[3] + idx[perm[3]];
                            want[static_cast<size_t>(to)] = x[static_cast<size_t>(from)];
                        }
            if (got != want) {
                ++failures;
                std::printf("transpose_bytes perm %d %d %d %d differs\n", perm[0], perm[1], perm[2], perm[3]);
            }
        }
        if (verbose) std::printf("transpose_bytes checked\n");
    }
    return failures;
}

} // namespace embark::quant_cases

// A standalone correctness check of the generic kernels' fast paths (issue 32): the lane
// reductions over contiguous blocks, LayerNormalization, InstanceNormalization, Softmax over a middle axis, nearest
// Resize in one pass, Pad's precomputed edge columns, LSTM/GRU's lane dot products and vectorized activations, each
// against a plain double loop written here. Exit 0 when every case is within 1e-5 (relative to the largest expected
// value).
#include "generic.h"
#include "recurrent.h"
#include "typed.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace eg = embark::generic;

namespace {

std::vector<float> random_vector(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> v(n);
    for (auto& x : v) x = dist(rng);
    return v;
}

double relative_error(const std::vector<float>& got, const std::vector<double>& want) {
    if (got.size() != want.size()) return INFINITY;
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
    std::printf("%-40s relative error %.2e %s\n", name, error, ok ? "ok" : "FAILED");
}

eg::Shape shape(std::initializer_list<int64_t> dims) {
    eg::Shape s;
    for (int64_t d : dims) s.d[s.rank++] = d;
    return s;
}

// Reductions over the trailing axes of [outer][count] (an NCHW mean over H and W), with a
// count that leaves a lane remainder and one longer than a lane block.
void check_reduce_blocks() {
    for (int64_t count : {int64_t{784}, int64_t{37}, int64_t{9001}}) {
        const int64_t outer = 6;
        const auto x = random_vector(static_cast<size_t>(outer * count), 3);
        const eg::Shape s = shape({2, 3, count});
        const bool axes[] = {false, false, true};
        for (eg::ReduceOp op : {eg::ReduceOp::Mean, eg::ReduceOp::Sum, eg::ReduceOp::Max, eg::ReduceOp::Min}) {
            std::vector<float> y(static_cast<size_t>(outer));
            eg::reduce(op, x.data(), s, axes, y.data());
            std::vector<double> want(y.size());
            for (int64_t o = 0; o < outer; ++o) {
                double acc = op == eg::ReduceOp::Max ? -INFINITY : op == eg::ReduceOp::Min ? INFINITY : 0.0;
                for (int64_t i = 0; i < count; ++i) {
                    const double v = x[static_cast<size_t>(o * count + i)];
                    acc = op == eg::ReduceOp::Max   ? std::max(acc, v)
                          : op == eg::ReduceOp::Min ? std::min(acc, v)
                                                    : acc + v;
                }
                want[static_cast<size_t>(o)] = op == eg::ReduceOp::Mean ? acc / static_cast<double>(count) : acc;
            }
            char name[64];
            const char* what = op == eg::ReduceOp::Mean  ? "mean"
                               : op == eg::ReduceOp::Sum ? "sum"
                               : op == eg::ReduceOp::Max ? "max"
                                                         : "min";
            std::snprintf(name, sizeof name, "reduce %s over %lld", what, static_cast<long long>(count));
            report(name, relative_error(y, want));
        }
    }
}

void check_layer_norm() {
    for (int64_t inner : {int64_t{768}, int64_t{45}}) {
        const int64_t outer = 5;
        auto x = random_vector(static_cast<size_t>(outer * inner), 4);
        for (auto& v : x) v = 3.f + 2.f * v; // a mean far from 0
        const auto scale = random_vector(static_cast<size_t>(inner), 5),
                   bias = random_vector(static_cast<size_t>(inner), 6);
        for (int variant = 0; variant < 3; ++variant) {
            const float* sc = variant < 2 ? scale.data() : nullptr;
            const float* bi = variant == 0 ? bias.data() : nullptr;
            std::vector<float> y(x.size());
            eg::layerNorm(x.data(), outer, inner, sc, bi, 1e-5f, y.data());
            std::vector<double> want(y.size());
            for (int64_t o = 0; o < outer; ++o) {
                const float* r = x.data() + o * inner;
                double mean = 0, var = 0;
                for (int64_t i = 0; i < inner; ++i) mean += r[i];
                mean /= static_cast<double>(inner);
                for (int64_t i = 0; i < inner; ++i) var += (r[i] - mean) * (r[i] - mean);
                var /= static_cast<double>(inner);
                for (int64_t i = 0; i < inner; ++i)
                    want[static_cast<size_t>(o * inner + i)] =
                        (r[i] - mean) / std::sqrt(var + 1e-5) * (sc ? sc[i] : 1.0) + (bi ? bi[i] : 0.0);
            }
            char name[64];
            std::snprintf(name, sizeof name, "layernorm %lld %s", static_cast<long long>(inner),
                          variant == 0   ? "scale+bias"
                          : variant == 1 ? "scale"
                                         : "plain");
            report(name, relative_error(y, want));
        }
    }
}

// InstanceNormalization, NCHW and channels last, over channel counts that leave vector remainders
// and exceed one channel block (70), spatial sizes with a lane remainder and longer than a moment
// block (1031, 2500), and a mean far from 0 (the one-pass moments' shift).
void check_instance_norm() {
    for (bool last : {false, true})
        for (int64_t c : {int64_t{3}, int64_t{70}})
            for (int64_t spatial : {int64_t{37}, int64_t{2500}}) {
                const int64_t n = 2;
                auto x = random_vector(static_cast<size_t>(n * c * spatial), 12);
                for (size_t i = 0; i < x.size(); ++i) x[i] = 5.f + (1.f + static_cast<float>(i % 7)) * x[i];
                const auto scale = random_vector(static_cast<size_t>(c), 13),
                           bias = random_vector(static_cast<size_t>(c), 14);
                std::vector<float> y(x.size());
                eg::instanceNorm(x.data(), n, c, spatial, last, scale.data(), bias.data(), 1e-5f, y.data());
                std::vector<double> want(y.size());
                for (int64_t b = 0; b < n; ++b)
                    for (int64_t ch = 0; ch < c; ++ch) {
                        auto at = [&](int64_t i) {
                            return static_cast<size_t>(last ? (b * spatial + i) * c + ch : (b * c + ch) * spatial + i);
                        };
                        double mean = 0, var = 0;
                        for (int64_t i = 0; i < spatial; ++i) mean += x[at(i)];
                        mean /= static_cast<double>(spatial);
                        for (int64_t i = 0; i < spatial; ++i) var += (x[at(i)] - mean) * (x[at(i)] - mean);
                        var /= static_cast<double>(spatial);
                        for (int64_t i = 0; i < spatial; ++i)
                            want[at(i)] = (x[at(i)] - mean) / std::sqrt(var + 1e-5) * scale[ch] + bias[ch];
                    }
                char name[64];
                std::snprintf(name, sizeof name, "instancenorm %s %lldch x %lld", last ? "nhwc" : "nchw",
                              static_cast<long long>(c), static_cast<long long>(spatial));
                report(name, relative_error(y, want));
            }
}

// Softmax and LogSoftmax over a middle axis ([outer][axis][inner], inner > 1: the vector path)
// and the last one (inner == 1).
void check_softmax() {
    for (int64_t inner : {int64_t{37}, int64_t{128}, int64_t{1}})
        for (bool log : {false, true}) {
            const int64_t outer = 3, len = 19;
            auto x = random_vector(static_cast<size_t>(outer * len * inner), 9);
            for (auto& v : x) v *= 8.f;
            std::vector<float> y(x.size());
            eg::softmax(x.data(), outer, len, inner, log, y.data());
            std::vector<double> want(y.size());
            for (int64_t o = 0; o < outer; ++o)
                for (int64_t k = 0; k < inner; ++k) {
                    const float* xi = x.data() + o * len * inner + k;
                    double m = -INFINITY, sum = 0;
                    for (int64_t i = 0; i < len; ++i) m = std::max(m, double(xi[i * inner]));
                    for (int64_t i = 0; i < len; ++i) sum += std::exp(xi[i * inner] - m);
                    for (int64_t i = 0; i < len; ++i)
                        want[static_cast<size_t>(o * len * inner + k + i * inner)] =
                            log ? xi[i * inner] - m - std::log(sum) : std::exp(xi[i * inner] - m) / sum;
                }
            char name[64];
            std::snprintf(name, sizeof name, "%s inner %lld", log ? "logsoftmax" : "softmax",
                          static_cast<long long>(inner));
            report(name, relative_error(y, want));
        }
}

// 1-D pools of [N][C][W] (max and average, pads, dilation, count_include_pad both ways).
void check_pool1d() {
    for (int variant = 0; variant < 4; ++variant) {
        eg::ConvNd p;
        p.spatial = 1;
        p.batch = 2;
        p.inC = p.outC = 3;
        p.in[0] = 53;
        p.kernel[0] = variant < 2 ? 4 : 3;
        p.stride[0] = variant < 2 ? 4 : 2;
        p.dilation[0] = variant == 3 ? 2 : 1;
        p.pads[0] = variant == 0 ? 0 : 1;
        p.pads[1] = variant == 0 ? 0 : 2;
        p.out[0] = (p.in[0] + p.pads[0] + p.pads[1] - p.dilation[0] * (p.kernel[0] - 1) - 1) / p.stride[0] + 1;
        const bool isMax = variant % 2 == 0, includePad = variant == 3;
        const auto x = random_vector(static_cast<size_t>(p.batch * p.inC * p.in[0]), 10);
        std::vector<float> y(static_cast<size_t>(p.batch * p.inC * p.out[0]));
        eg::poolNd(p, isMax, includePad, x.data(), y.data());
        std::vector<double> want(y.size());
        for (int64_t nc = 0; nc < p.batch * p.inC; ++nc)
            for (int64_t o = 0; o < p.out[0]; ++o) {
                double acc = isMax ? -INFINITY : 0.0;
                int64_t counted = 0;
                for (int64_t t = 0; t < p.kernel[0]; ++t) {
                    const int64_t i = o * p.stride[0] - p.pads[0] + t * p.dilation[0];
                    const bool inside = i >= 0 && i < p.in[0];
                    if (includePad ? i >= -p.pads[0] && i < p.in[0] + p.pads[1] : inside) ++counted;
                    if (inside) {
                        const double v = x[static_cast<size_t>(nc * p.in[0] + i)];
                        acc = isMax ? std::max(acc, v) : acc + v;
                    }
                }
                want[static_cast<size_t>(nc * p.out[0] + o)] = isMax ? acc : acc / static_cast<double>(counted);
            }
        const char* names[] = {"maxpool1d k4/4", "avgpool1d k4/4 pads", "maxpool1d k3/2 pads",
                               "avgpool1d k3/2 dilation 2 include pad"};
        report(names[variant], relative_error(y, want));
    }
}

// 2-D pooling of NCHW planes (the window's rows combined first, then the taps along W): odd sizes,
// strides 1-4 (2-4 read the row split by phase), dilation 2, uneven pads, an output row past the input (ceil_mode: a
// window of pads and taps beyond them), count_include_pad both ways, against a plain double loop.
void check_pool2d() {
    struct Case {
        const char* name;
        int64_t h, w, k, s, d, pt, pl, pb, pr, extra;
        bool isMax, includePad;
    };
    const Case cases[] = {
        {"maxpool2d 3x3/2 p1 57x61", 57, 61, 3, 2, 1, 1, 1, 1, 1, 0, true, false},
        {"avgpool2d 3x3/1 p1 exclude pad", 23, 19, 3, 1, 1, 1, 1, 1, 1, 0, false, false},
        {"avgpool2d 3x3/1 p1 include pad", 23, 19, 3, 1, 1, 1, 1, 1, 1, 0, false, true},
        {"maxpool2d 2x2/2 ceil 15x17", 15, 17, 2, 2, 1, 0, 0, 0, 0, 1, true, false},
        {"avgpool2d 3x3/3 d2 pads 2,0,1,2 ceil", 31, 29, 3, 3, 2, 2, 0, 1, 2, 1, false, true},
        {"maxpool2d 5x5/1 p2 dilation 2", 13, 11, 5, 1, 2, 2, 2, 2, 2, 0, true, false},
        {"avgpool2d 2x2/2 40x38", 40, 38, 2, 2, 1, 0, 0, 0, 0, 0, false, false},
        {"maxpool2d 4x4/4 p1 45x70", 45, 70, 4, 4, 1, 1, 1, 1, 1, 0, true, false},
        {"avgpool2d 3x3/3 p1 include pad 27x50", 27, 50, 3, 3, 1, 1, 1, 1, 1, 0, false, true},
    };
    for (const Case& c : cases) {
        eg::ConvNd p;
        p.spatial = 2;
        p.batch = 2;
        p.inC = p.outC = 5;
        p.in[0] = c.h;
        p.in[1] = c.w;
        p.kernel[0] = p.kernel[1] = c.k;
        p.stride[0] = p.stride[1] = c.s;
        p.dilation[0] = p.dilation[1] = c.d;
        p.pads[0] = c.pt;
        p.pads[1] = c.pl;
        p.pads[2] = c.pb;
        p.pads[3] = c.pr;
        p.out[0] = (c.h + c.pt + c.pb - c.d * (c.k - 1) - 1) / c.s + 1 + c.extra;
        p.out[1] = (c.w + c.pl + c.pr - c.d * (c.k - 1) - 1) / c.s + 1 + c.extra;
        const auto x = random_vector(static_cast<size_t>(p.batch * p.inC * c.h * c.w), 15);
        std::vector<float> y(static_cast<size_t>(p.batch * p.inC * p.out[0] * p.out[1]));
        eg::poolNd(p, c.isMax, c.includePad, x.data(), y.data());
        std::vector<double> want(y.size());
        for (int64_t nc = 0; nc < p.batch * p.inC; ++nc)
            for (int64_t oy = 0; oy < p.out[0]; ++oy)
                for (int64_t ox = 0; ox < p.out[1]; ++ox) {
                    double acc = c.isMax ? -INFINITY : 0.0;
                    int64_t counted = 0;
                    for (int64_t ky = 0; ky < c.k; ++ky)
                        for (int64_t kx = 0; kx < c.k; ++kx) {
                            const int64_t iy = oy * c.s - c.pt + ky * c.d, ix = ox * c.s - c.pl + kx * c.d;
                            const bool inside = iy >= 0 && iy < c.h && ix >= 0 && ix < c.w;
                            const bool padded = iy >= -c.pt && iy < c.h + c.pb && ix >= -c.pl && ix < c.w + c.pr;
                            if (c.includePad ? padded : inside) ++counted;
                            if (!inside) continue;
                            const double v = x[static_cast<size_t>((nc * c.h + iy) * c.w + ix)];
                            acc = c.isMax ? std::max(acc, v) : acc + v;
                        }
                    want[static_cast<size_t>((nc * p.out[0] + oy) * p.out[1] + ox)] =
                        c.isMax ? acc : (counted ? acc / static_cast<double>(counted) : 0.0);
                }
        report(c.name, relative_error(y, want));
    }
}

// Nearest Resize of [n][c][h][w] by per-axis index lists (as the emitter computes them).
void check_resize_nearest(const char* name, eg::Shape in, eg::Shape out, bool last_int_factor) {
    std::vector<eg::ResizeAxis> axes(static_cast<size_t>(in.rank));
    for (int a = 0; a < in.rank; ++a) {
        if (in.d[a] == out.d[a]) continue;
        axes[static_cast<size_t>(a)].taps = 1;
        for (int64_t o = 0; o < out.d[a]; ++o) {
            // asymmetric floor (an integer factor repeats), or a rounded half-pixel source
            const double src = last_int_factor ? static_cast<double>(o) * in.d[a] / out.d[a]
                                               : std::round((o + 0.5) * in.d[a] / out.d[a] - 0.5);
            axes[static_cast<size_t>(a)].index.push_back(
                std::clamp<int64_t>(static_cast<int64_t>(std::floor(src)), 0, in.d[a] - 1));
            axes[static_cast<size_t>(a)].weight.push_back(1.f);
        }
    }
    const auto x = random_vector(static_cast<size_t>(in.count()), 7);
    std::vector<float> y(static_cast<size_t>(out.count())),
        scratch(static_cast<size_t>(eg::resizeScratchFloats(in, out)));
    eg::resize(x.data(), in, axes.data(), out, y.data(), scratch.data());
    std::vector<double> want(y.size());
    int64_t idx[eg::kMaxRank] = {};
    for (size_t o = 0; o < want.size(); ++o) {
        int64_t src = 0;
        for (int a = 0; a < in.rank; ++a) {
            const auto& ax = axes[static_cast<size_t>(a)];
            src = src * in.d[a] + (ax.index.empty() ? idx[a] : ax.index[static_cast<size_t>(idx[a])]);
        }
        want[o] = x[static_cast<size_t>(src)];
        for (int a = in.rank - 1; a >= 0; --a) {
            if (++idx[a] < out.d[a]) break;
            idx[a] = 0;
        }
    }
    report(name, relative_error(y, want));
}

void check_pad(const char* name, eg::PadMode mode, const std::vector<int64_t>& pads) {
    const eg::Shape in = shape({2, 3, 7, 9});
    eg::Shape out = in;
    for (int a = 0; a < 4; ++a) out.d[a] += pads[static_cast<size_t>(a)] + pads[static_cast<size_t>(a + 4)];
    const auto x = random_vector(static_cast<size_t>(in.count()), 8);
    std::vector<float> y(static_cast<size_t>(out.count()));
    eg::pad(x.data(), in, pads.data(), mode, 0.5f, out, y.data());
    std::vector<double> want(y.size());
    int64_t idx[4] = {};
    for (size_t o = 0; o < want.size(); ++o) {
        int64_t src = 0;
        bool inside = true;
        for (int a = 0; a < 4; ++a) {
            const int64_t n = in.d[a];
            int64_t i = idx[a] - pads[static_cast<size_t>(a)];
            if (i < 0 || i >= n) {
                if (mode == eg::PadMode::Constant)
                    inside = false;
                else if (mode == eg::PadMode::Edge)
                    i = std::clamp<int64_t>(i, 0, n - 1);
                else if (mode == eg::PadMode::Wrap)
                    i = ((i % n) + n) % n;
                else
                    while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
            }
            src = src * n + i;
        }
        want[o] = inside ? x[static_cast<size_t>(src)] : 0.5;
        for (int a = 3; a >= 0; --a) {
            if (++idx[a] < out.d[a]) break;
            idx[a] = 0;
        }
    }
    report(name, relative_error(y, want));
}

// TopK on the middle axis of [2][7][3], largest and smallest, with ties (equal values keep the
// lower index first): each line sorted here by selection of the next best unused element.
void check_top_k() {
    std::vector<float> x = random_vector(42, 11);
    x[3] = x[0];   // a tie in line (0, 0)
    x[24] = x[27]; // and in line (1, 0)
    for (bool largest : {true, false}) {
        const int64_t k = 4;
        std::vector<float> values(2 * k * 3);
        std::vector<int64_t> idx(values.size());
        eg::topK(x.data(), eg::ElemType::Float32, shape({2, 7, 3}), 1, k, largest, values.data(), idx.data());
        std::vector<double> want(values.size());
        bool indicesOk = true;
        for (int64_t o = 0; o < 2; ++o)
            for (int64_t i = 0; i < 3; ++i) {
                std::vector<bool> used(7);
                for (int64_t j = 0; j < k; ++j) {
                    int64_t best = -1;
                    for (int64_t c = 0; c < 7; ++c) {
                        if (used[static_cast<size_t>(c)]) continue;
                        const float v = x[static_cast<size_t>((o * 7 + c) * 3 + i)];
                        const float b = best < 0 ? 0.f : x[static_cast<size_t>((o * 7 + best) * 3 + i)];
                        if (best < 0 || (largest ? v > b : v < b)) best = c;
                    }
                    used[static_cast<size_t>(best)] = true;
                    const size_t at = static_cast<size_t>((o * k + j) * 3 + i);
                    want[at] = x[static_cast<size_t>((o * 7 + best) * 3 + i)];
                    indicesOk = indicesOk && idx[at] == best;
                }
            }
        report(largest ? "topk largest axis 1" : "topk smallest axis 1",
               indicesOk ? relative_error(values, want) : INFINITY);
    }
}

// TopK with K below the axis length (the one-pass pick up to K = 32, the partial sort above): 10 of
// 1000 and 32 of 777 on the last axis (contiguous float lines: blocks passed over whole), 5 of
// 300 and 50 of 200 on a middle axis, K = length, largest and smallest, with ties spread through
// the line (or values of 5 levels only: ties at the K-th place) and a NaN in the first line
// (ranked above every number: first when largest, last when smallest). Expected: a stable sort of
// the whole line by value (NaN on its side), its first K.
void check_top_k_partial() {
    struct Case {
        int64_t outer, len, inner, k;
        int levels; // 0: random values
    };
    for (const Case c : {Case{3, 1000, 1, 10, 0}, Case{4, 777, 1, 32, 5}, Case{3, 40, 1, 3, 0}, Case{2, 300, 4, 5, 0},
                         Case{2, 200, 3, 50, 0}, Case{1, 17, 2, 17, 0}})
        for (bool largest : {true, false}) {
            std::vector<float> x = random_vector(static_cast<size_t>(c.outer * c.len * c.inner), 21);
            if (c.levels > 0)
                for (float& v : x) v = std::floor(v * static_cast<float>(c.levels));
            for (size_t j = 0; j + 37 < x.size(); j += 37) x[j + 37] = x[j]; // ties, lower index first
            x[static_cast<size_t>(c.len / 2 * c.inner)] = NAN;
            std::vector<float> values(static_cast<size_t>(c.outer * c.k * c.inner));
            std::vector<int64_t> idx(values.size());
            eg::topK(x.data(), eg::ElemType::Float32, shape({c.outer, c.len, c.inner}), 1, c.k, largest, values.data(),
                     idx.data());
            std::vector<double> want(values.size());
            bool indicesOk = true;
            for (int64_t o = 0; o < c.outer; ++o)
                for (int64_t i = 0; i < c.inner; ++i) {
                    std::vector<int64_t> order(static_cast<size_t>(c.len));
                    for (int64_t j = 0; j < c.len; ++j) order[static_cast<size_t>(j)] = j;
                    const auto at = [&](int64_t j) { return x[static_cast<size_t>((o * c.len + j) * c.inner + i)]; };
                    std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) {
                        const float vp = at(p), vq = at(q);
                        if (std::isnan(vp) || std::isnan(vq))
                            return largest ? std::isnan(vp) && !std::isnan(vq) : std::isnan(vq) && !std::isnan(vp);
                        return largest ? vp > vq : vp < vq;
                    });
                    for (int64_t j = 0; j < c.k; ++j) {
                        const size_t to = static_cast<size_t>((o * c.k + j) * c.inner + i);
                        const int64_t from = order[static_cast<size_t>(j)];
                        const float v = at(from), got = values[to];
                        indicesOk = indicesOk && idx[to] == from && (std::isnan(v) ? std::isnan(got) : got == v);
                        want[to] = std::isnan(v) ? 0.0 : v;
                        if (std::isnan(v)) values[to] = 0.f; // compared above
                    }
                }
            const std::string name = std::string("topk ") + (largest ? "largest " : "smallest ") + std::to_string(c.k) +
                                     " of " + std::to_string(c.len) + " inner " + std::to_string(c.inner);
            report(name.c_str(), indicesOk ? relative_error(values, want) : INFINITY);
        }
}

// CumSum over a middle axis (inner 1, 3 and 70), forward and reverse, inclusive and exclusive,
// in place too, against a double loop per position.
void check_cumsum() {
    for (int64_t inner : {1, 3, 70})
        for (bool exclusive : {false, true})
            for (bool reverse : {false, true})
                for (bool inPlace : {false, true}) {
                    const int64_t outer = 2, len = 45;
                    const std::vector<float> x = random_vector(static_cast<size_t>(outer * len * inner), 22);
                    std::vector<float> y = inPlace ? x : std::vector<float>(x.size());
                    eg::cumsum(inPlace ? y.data() : x.data(), outer, len, inner, exclusive, reverse, y.data());
                    std::vector<double> want(x.size());
                    for (int64_t o = 0; o < outer; ++o)
                        for (int64_t i = 0; i < inner; ++i) {
                            double sum = 0;
                            for (int64_t s = 0; s < len; ++s) {
                                const size_t p =
                                    static_cast<size_t>((o * len + (reverse ? len - 1 - s : s)) * inner + i);
                                if (!exclusive) sum += x[p];
                                want[p] = sum;
                                if (exclusive) sum += x[p];
                            }
                        }
                    const std::string name = "cumsum inner " + std::to_string(inner) + (exclusive ? " exclusive" : "") +
                                             (reverse ? " reverse" : "") + (inPlace ? " in place" : "");
                    report(name.c_str(), relative_error(y, want));
                }
}

// The float64 kernels (a float64 model's CumSum, reductions and Einsum) against plain double
// loops, on values whose float32 rounding would show: each must agree to 1e-12, not 1e-5.
double relative_error_f64(const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size()) return INFINITY;
    double diff = 0, ref = 1e-300;
    for (size_t i = 0; i < want.size(); ++i) {
        const double d = std::fabs(got[i] - want[i]);
        diff = std::isnan(d) ? INFINITY : std::max(diff, d);
        ref = std::max(ref, std::fabs(want[i]));
    }
    const double e = diff / ref;
    return e <= 1e-12 ? e : std::max(e, 1.0); // above the float64 bound: a failure
}

std::vector<double> random_doubles(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<double> v(n);
    for (auto& x : v) x = 1.0 + dist(rng) * 1e-9; // differences below float32's resolution
    return v;
}

void check_float64_kernels() {
    { // CumSum over the middle axis of [2][7][3], exclusive and reversed
        const int64_t outer = 2, len = 7, inner = 3;
        const std::vector<double> x = random_doubles(static_cast<size_t>(outer * len * inner), 31);
        std::vector<double> y(x.size()), want(x.size());
        eg::cumsumF64(x.data(), outer, len, inner, true, true, y.data());
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t i = 0; i < inner; ++i) {
                double sum = 0;
                for (int64_t s = len - 1; s >= 0; --s) {
                    const size_t p = static_cast<size_t>((o * len + s) * inner + i);
                    want[p] = sum;
                    sum += x[p];
                }
            }
        report("float64 cumsum exclusive reverse", relative_error_f64(y, want));
    }
    { // Reductions of [3][4][5] over axes 0 and 2
        const eg::Shape s = shape({3, 4, 5});
        const bool axes[] = {true, false, true};
        std::vector<double> x = random_doubles(60, 32);
        for (size_t i = 0; i < x.size(); ++i) x[i] += i % 2 ? 700.0 : 0.0; // exp(x) overflows without the max
        const std::pair<eg::ReduceOp, const char*> ops[] = {{eg::ReduceOp::LogSumExp, "float64 reduce log_sum_exp"},
                                                            {eg::ReduceOp::Sum, "float64 reduce sum"},
                                                            {eg::ReduceOp::Mean, "float64 reduce mean"},
                                                            {eg::ReduceOp::Max, "float64 reduce max"},
                                                            {eg::ReduceOp::L2, "float64 reduce l2"},
                                                            {eg::ReduceOp::Prod, "float64 reduce prod"}};
        for (const auto& [op, name] : ops) {
            std::vector<double> y(4), want(4);
            eg::reduceF64(op, x.data(), s, axes, y.data());
            for (int64_t j = 0; j < 4; ++j) {
                double m = -INFINITY, sum = 0, sq = 0, prod = 1;
                for (int64_t i = 0; i < 3; ++i)
                    for (int64_t k = 0; k < 5; ++k) m = std::max(m, x[static_cast<size_t>((i * 4 + j) * 5 + k)]);
                double lse = 0;
                for (int64_t i = 0; i < 3; ++i)
                    for (int64_t k = 0; k < 5; ++k) {
                        const double v = x[static_cast<size_t>((i * 4 + j) * 5 + k)];
                        sum += v;
                        sq += v * v;
                        prod *= v;
                        lse += std::exp(v - m);
                    }
                want[static_cast<size_t>(j)] = op == eg::ReduceOp::LogSumExp ? m + std::log(lse)
                                               : op == eg::ReduceOp::Sum     ? sum
                                               : op == eg::ReduceOp::Mean    ? sum / 15
                                               : op == eg::ReduceOp::Max     ? m
                                               : op == eg::ReduceOp::L2      ? std::sqrt(sq)
                                                                             : prod;
            }
            report(name, relative_error_f64(y, want));
        }
    }
    { // Einsum "ij,jk->ik" of [3][4] and [4][2]: labels i, k (output), j (summed)
        eg::EinsumPlan p;
        p.operands = 2;
        p.loops = 3;
        p.outLoops = 2;
        const int64_t sizes[] = {3, 2, 4};
        for (int l = 0; l < 3; ++l) p.size[l] = sizes[l];
        p.stride[0][0] = 4; // a: i, k, j strides
        p.stride[0][1] = 0;
        p.stride[0][2] = 1;
        p.stride[1][0] = 0; // b
        p.stride[1][1] = 1;
        p.stride[1][2] = 2;
        const std::vector<double> a = random_doubles(12, 33), b = random_doubles(8, 34);
        const double* in[] = {a.data(), b.data()};
        std::vector<double> y(6), want(6, 0.0);
        eg::einsumF64(p, in, y.data());
        for (size_t i = 0; i < 3; ++i)
            for (size_t k = 0; k < 2; ++k)
                for (size_t j = 0; j < 4; ++j) want[i * 2 + k] += a[i * 4 + j] * b[j * 2 + k];
        report("float64 einsum ij,jk->ik", relative_error_f64(y, want));
    }
}

// Range of int64 and float32 run-time scalars, and a count other than the export's refused.
void check_range() {
    const int64_t s = 10, l = -3, d = -4; // 10, 6, 2, -2
    std::vector<int64_t> got(4);
    eg::range(&s, &l, &d, eg::ElemType::Int64, got.data(), 4, "node r");
    report("range int64 negative delta", got == std::vector<int64_t>{10, 6, 2, -2} ? 0.0 : INFINITY);
    const float fs = 0.5f, fl = 2.f, fd = 0.25f;
    std::vector<float> f(6);
    eg::range(&fs, &fl, &fd, eg::ElemType::Float32, f.data(), 6, "node r");
    report("range float32", relative_error(f, {0.5, 0.75, 1.0, 1.25, 1.5, 1.75}));
    bool refused = false;
    try {
        eg::range(&fs, &fl, &fd, eg::ElemType::Float32, f.data(), 5, "node r");
    } catch (const std::runtime_error& e) { refused = std::string(e.what()).find("node r") != std::string::npos; }
    report("range of another length refused", refused ? 0.0 : INFINITY);
}

// The element types beyond the first run protocol's (float64, int16, uint16, uint32, uint64):
// uint64 values above 2^63 compare and divide as unsigned, uint16 arithmetic wraps, float64
// divides in double, and casts between them keep every bit numpy keeps.
void check_wide_types() {
    const auto U64 = eg::ElemType::UInt64, U16 = eg::ElemType::UInt16, F64 = eg::ElemType::Float64,
               I64 = eg::ElemType::Int64, I16 = eg::ElemType::Int16, U32 = eg::ElemType::UInt32, B = eg::ElemType::Bool;
    const eg::Shape s4 = shape({4}), s1 = shape({1});
    auto run = [&](eg::TypedOp op, std::vector<const void*> ins, std::vector<eg::ElemType> types,
                   std::vector<eg::Shape> shapes, void* out, eg::ElemType outType) {
        eg::typedElementwise(op, static_cast<int>(ins.size()), ins.data(), types.data(), shapes.data(), out, outType,
                             s4);
    };
    const std::vector<uint64_t> big{0x8000000000000001ull, 3, 0xffffffffffffffffull, 10};
    const uint64_t three = 3;
    std::vector<uint8_t> greater(4);
    run(eg::TypedOp::Greater, {big.data(), &three}, {U64, U64}, {s4, s1}, greater.data(), B);
    std::vector<uint64_t> quotient(4);
    run(eg::TypedOp::Div, {big.data(), &three}, {U64, U64}, {s4, s1}, quotient.data(), U64);
    report("uint64 greater and div above 2^63",
           greater == std::vector<uint8_t>{1, 0, 1, 1} &&
                   quotient == std::vector<uint64_t>{0x8000000000000001ull / 3, 1, 0xffffffffffffffffull / 3, 3}
               ? 0.0
               : INFINITY);
    const std::vector<uint16_t> a16{65535, 1, 40000, 7};
    const uint16_t two = 2;
    std::vector<uint16_t> sum16(4);
    run(eg::TypedOp::Add, {a16.data(), &two}, {U16, U16}, {s4, s1}, sum16.data(), U16);
    report("uint16 add wraps", sum16 == std::vector<uint16_t>{1, 3, 40002, 9} ? 0.0 : INFINITY);
    const std::vector<double> d{1.0, -2.5, 1e300, 0.1};
    const double third = 3.0;
    std::vector<double> dq(4);
    run(eg::TypedOp::Div, {d.data(), &third}, {F64, F64}, {s4, s1}, dq.data(), F64);
    report("float64 div in double",
           dq == std::vector<double>{1.0 / 3.0, -2.5 / 3.0, 1e300 / 3.0, 0.1 / 3.0} ? 0.0 : INFINITY);
    // Casts: int64 -> uint64 keeps the bits, uint64 -> int16 the low 16 bits, float64 -> uint32
    // truncates, uint16 -> float64 and int16 -> int64 are exact.
    const std::vector<int64_t> i64{-1, 5, -32769, 1ll << 40};
    std::vector<uint64_t> u64(4);
    eg::cast(i64.data(), I64, u64.data(), U64, 4);
    std::vector<int16_t> i16(4);
    eg::cast(big.data(), U64, i16.data(), I16, 4);
    std::vector<uint32_t> u32(4);
    const std::vector<double> pos{0.9, 7.99, 4294967295.0, 123456.5};
    eg::cast(pos.data(), F64, u32.data(), U32, 4);
    std::vector<double> f64(4);
    eg::cast(a16.data(), U16, f64.data(), F64, 4);
    std::vector<int64_t> back(4);
    const std::vector<int16_t> neg{-32768, -1, 0, 32767};
    eg::cast(neg.data(), I16, back.data(), I64, 4);
    const bool castsOk =
        u64 == std::vector<uint64_t>{0xffffffffffffffffull, 5, static_cast<uint64_t>(-32769ll), 1ull << 40} &&
        i16 == std::vector<int16_t>{1, 3, -1, 10} && u32 == std::vector<uint32_t>{0, 7, 4294967295u, 123456} &&
        f64 == std::vector<double>{65535, 1, 40000, 7} && back == std::vector<int64_t>{-32768, -1, 0, 32767};
    report("casts between the wide integer types and float64", castsOk ? 0.0 : INFINITY);
}

// MaxPool with Indices on [2][3][6][5] (3x3 window, stride 2, pads 1, row-major and
// storage_order 1): a plain loop over the window with ONNX's index formula.
void check_max_pool_indices() {
    const auto x = random_vector(2 * 3 * 6 * 5, 13);
    eg::ConvNd p;
    p.spatial = 2;
    p.batch = 2;
    p.inC = p.outC = 3;
    p.in[0] = 6, p.in[1] = 5, p.out[0] = 3, p.out[1] = 3;
    p.kernel[0] = p.kernel[1] = 3;
    p.stride[0] = p.stride[1] = 2;
    p.pads[0] = p.pads[1] = p.pads[2] = p.pads[3] = 1;
    for (bool columnMajor : {false, true}) {
        std::vector<float> y(2 * 3 * 9);
        std::vector<int64_t> idx(y.size());
        eg::maxPoolWithIndices(p, columnMajor, x.data(), y.data(), idx.data());
        std::vector<double> want(y.size());
        bool indicesOk = true;
        for (int64_t nc = 0; nc < 6; ++nc)
            for (int64_t oh = 0; oh < 3; ++oh)
                for (int64_t ow = 0; ow < 3; ++ow) {
                    double best = -INFINITY;
                    int64_t bh = 0, bw = 0;
                    for (int64_t kh = 0; kh < 3; ++kh)
                        for (int64_t kw = 0; kw < 3; ++kw) {
                            const int64_t h = oh * 2 - 1 + kh, w = ow * 2 - 1 + kw;
                            if (h < 0 || h >= 6 || w < 0 || w >= 5) continue;
                            const double v = x[static_cast<size_t>((nc * 6 + h) * 5 + w)];
                            if (v > best) best = v, bh = h, bw = w;
                        }
                    const size_t o = static_cast<size_t>((nc * 3 + oh) * 3 + ow);
                    want[o] = best;
                    const int64_t expect = nc * 30 + (columnMajor ? bw * 6 + bh : bh * 5 + bw);
                    indicesOk = indicesOk && idx[o] == expect;
                }
        report(columnMajor ? "maxpool indices storage_order 1" : "maxpool indices row-major",
               indicesOk ? relative_error(y, want) : INFINITY);
    }
}

// Expand, Concat and GatherElements of int64 tensors (CenterNet's peak indices), each against
// a plain loop.
void check_typed_data_moves() {
    std::vector<int64_t> in{1, 2, 3};
    std::vector<int64_t> e(2 * 3 * 4);
    eg::expandBytes(in.data(), 8, shape({3, 1}), shape({2, 3, 4}), e.data());
    bool ok = true;
    for (int64_t a = 0; a < 2; ++a)
        for (int64_t b = 0; b < 3; ++b)
            for (int64_t c = 0; c < 4; ++c) ok = ok && e[static_cast<size_t>((a * 3 + b) * 4 + c)] == in[size_t(b)];
    report("expand int64 [3,1] -> [2,3,4]", ok ? 0.0 : INFINITY);
    std::vector<int64_t> a{1, 2, 3, 4}, b{5, 6};
    const void* ins[] = {a.data(), b.data()};
    const eg::Shape shapes[] = {shape({2, 2}), shape({2, 1})};
    std::vector<int64_t> c(6);
    eg::concatBytes(ins, 8, shapes, 2, 1, c.data());
    report("concat int64 axis 1", c == std::vector<int64_t>{1, 2, 5, 3, 4, 6} ? 0.0 : INFINITY);
    const auto data = random_vector(3 * 5, 17);
    std::vector<int64_t> idx{4, -1, 0, 2, 2, 1};
    std::vector<float> g(6);
    eg::gatherElementsBy(data.data(), 4, shape({3, 5}), 1, idx.data(), eg::ElemType::Int64, shape({3, 2}), g.data(),
                         "node g");
    std::vector<double> want(6);
    for (size_t r = 0; r < 3; ++r)
        for (size_t k = 0; k < 2; ++k) {
            const int64_t j = idx[r * 2 + k] < 0 ? idx[r * 2 + k] + 5 : idx[r * 2 + k];
            want[r * 2 + k] = data[r * 5 + static_cast<size_t>(j)];
        }
    report("gather elements by int64 axis 1", relative_error(g, want));
    idx[3] = 5;
    bool refused = false;
    try {
        eg::gatherElementsBy(data.data(), 4, shape({3, 5}), 1, idx.data(), eg::ElemType::Int64, shape({3, 2}), g.data(),
                             "node g");
    } catch (const std::out_of_range& err) { refused = std::string(err.what()).find("node g") != std::string::npos; }
    report("gather elements index out of range", refused ? 0.0 : INFINITY);
}

// ArgMax and ArgMin over the middle axis of [2][6][3] with ties, first and last index: a plain
// scan of each line.
void check_arg_extreme() {
    std::vector<float> x = random_vector(36, 19);
    x[9] = x[0] = 2.f;    // a tie for the max in line (0, 0)
    x[21] = x[18] = -2.f; // a tie for the min in line (1, 0)
    for (bool isMax : {true, false})
        for (bool last : {false, true}) {
            std::vector<int64_t> got(6);
            eg::argExtreme(x.data(), eg::ElemType::Float32, shape({2, 6, 3}), 1, isMax, last, got.data());
            bool ok = true;
            for (int64_t o = 0; o < 2; ++o)
                for (int64_t i = 0; i < 3; ++i) {
                    int64_t best = 0;
                    for (int64_t k = 0; k < 6; ++k) {
                        const float c = x[static_cast<size_t>((o * 6 + k) * 3 + i)];
                        const float b = x[static_cast<size_t>((o * 6 + best) * 3 + i)];
                        if ((isMax ? c > b : c < b) || (last && c == b)) best = k;
                    }
                    ok = ok && got[static_cast<size_t>(o * 3 + i)] == best;
                }
            report(isMax ? (last ? "argmax select_last_index" : "argmax first index")
                         : (last ? "argmin select_last_index" : "argmin first index"),
                   ok ? 0.0 : INFINITY);
        }
}

} // namespace

// LSTM and GRU (both GRU forms) over sizes that leave vector remainders (37 inputs, 45 hidden:
// one full panel of the packed R and a partial one), two batch rows, against the ONNX equations in
// double; forward, reverse and bidirectional, layout 0 and 1, with the row-by-row products or with
// the input projection precomputed for every step (xProj) and R packed (rPacked).
struct RecurrentCase {
    eg::RnnKind kind = eg::RnnKind::Lstm;
    bool linearBeforeReset = false, peepholeAndClip = false;
    int directions = 1;
    bool reverse = false, batchFirst = false, packed = false;
};

void check_recurrent(const RecurrentCase& rc, const char* name) {
    const int64_t S = 6, N = 2, I = 37, H = 45, D = rc.directions;
    const int64_t G = rc.kind == eg::RnnKind::Lstm ? 4 : rc.kind == eg::RnnKind::Gru ? 3 : 1;
    eg::RnnShape p;
    p.kind = rc.kind;
    p.seq = S;
    p.batch = N;
    p.input = I;
    p.hidden = H;
    p.directions = rc.directions;
    p.reverse = rc.reverse;
    p.batchFirst = rc.batchFirst;
    p.linearBeforeReset = rc.linearBeforeReset;
    p.hasClip = rc.peepholeAndClip;
    p.clip = 0.7f;
    for (int d = 0; d < 2; ++d) {
        p.act[d][0] = {eg::RnnAct::Sigmoid, 0.f, 0.f};
        p.act[d][1] = {eg::RnnAct::Tanh, 0.f, 0.f};
        p.act[d][2] = {eg::RnnAct::Tanh, 0.f, 0.f};
    }
    const auto x = random_vector(static_cast<size_t>(S * N * I), 41);
    const auto w = random_vector(static_cast<size_t>(D * G * H * I), 42);
    const auto r = random_vector(static_cast<size_t>(D * G * H * H), 43);
    const auto b = random_vector(static_cast<size_t>(D * 2 * G * H), 44);
    const auto peep = random_vector(static_cast<size_t>(D * 3 * H), 45);
    const bool peepholes = rc.peepholeAndClip;
    auto clip = [&](double v) { return peepholes ? std::min(0.7, std::max(-0.7, v)) : v; };
    auto xRow = [&](int64_t t, int64_t n) { return rc.batchFirst ? n * S + t : t * N + n; };
    std::vector<float> y(static_cast<size_t>(S * D * N * H)), yh(static_cast<size_t>(D * N * H)),
        scratch(static_cast<size_t>(eg::rnnScratchFloats(p)));
    std::vector<float> proj, packed;
    if (rc.packed) {
        proj.resize(static_cast<size_t>(D * S * N * G * H));
        for (int64_t d = 0; d < D; ++d)
            for (int64_t row = 0; row < S * N; ++row)
                for (int64_t g = 0; g < G * H; ++g) {
                    float acc = b[static_cast<size_t>(d * 2 * G * H + g)];
                    for (int64_t k = 0; k < I; ++k)
                        acc += w[static_cast<size_t>((d * G * H + g) * I + k)] * x[static_cast<size_t>(row * I + k)];
                    proj[static_cast<size_t>((d * S * N + row) * G * H + g)] = acc;
                }
        packed.resize(static_cast<size_t>(eg::rnnPackedFloats(p)));
        eg::rnnPackRecurrent(p, r.data(), packed.data());
    }
    eg::rnn(p, x.data(), w.data(), r.data(), b.data(), nullptr, nullptr, nullptr, peepholes ? peep.data() : nullptr,
            y.data(), yh.data(), nullptr, scratch.data(), rc.packed ? proj.data() : nullptr,
            rc.packed ? packed.data() : nullptr);
    auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
    std::vector<double> want(y.size()), wantH(yh.size());
    for (int64_t d = 0; d < D; ++d) {
        const float* W = w.data() + d * G * H * I;
        const float* R = r.data() + d * G * H * H;
        const float* B = b.data() + d * 2 * G * H;
        const float* P = peepholes ? peep.data() + d * 3 * H : nullptr;
        const bool backwards = d == 1 || rc.reverse;
        for (int64_t n = 0; n < N; ++n) {
            std::vector<double> h(static_cast<size_t>(H), 0.0), c(static_cast<size_t>(H), 0.0);
            for (int64_t step = 0; step < S; ++step) {
                const int64_t t = backwards ? S - 1 - step : step;
                const float* xt = x.data() + xRow(t, n) * I;
                // wx[row] = W x + Wb, rh[row] = R h + Rb (GRU's candidate rows: R (r . h) below when not linear
                // before reset)
                std::vector<double> wx(static_cast<size_t>(G * H)), rh(static_cast<size_t>(G * H));
                for (int64_t row = 0; row < G * H; ++row) {
                    double a = B[row], q = B[G * H + row];
                    for (int64_t k = 0; k < I; ++k) a += double(W[row * I + k]) * xt[k];
                    for (int64_t k = 0; k < H; ++k) q += double(R[row * H + k]) * h[k];
                    wx[row] = a;
                    rh[row] = q;
                }
                std::vector<double> hn(static_cast<size_t>(H));
                for (int64_t j = 0; j < H; ++j) {
                    if (rc.kind == eg::RnnKind::Rnn) {
                        hn[j] = sigmoid(wx[j] + rh[j]); // f is Sigmoid here
                    } else if (rc.kind == eg::RnnKind::Lstm) {
                        const double pi = P ? P[j] * c[j] : 0.0, pf = P ? P[2 * H + j] * c[j] : 0.0;
                        const double ig = sigmoid(clip(wx[j] + rh[j] + pi));
                        const double fg = sigmoid(clip(wx[2 * H + j] + rh[2 * H + j] + pf));
                        c[j] = fg * c[j] + ig * std::tanh(clip(wx[3 * H + j] + rh[3 * H + j]));
                        const double og = sigmoid(clip(wx[H + j] + rh[H + j] + (P ? P[H + j] * c[j] : 0.0)));
                        hn[j] = og * std::tanh(c[j]);
                    } else {
                        const double z = sigmoid(wx[j] + rh[j]);
                        double rec;
                        if (rc.linearBeforeReset) {
                            rec = sigmoid(wx[H + j] + rh[H + j]) * rh[2 * H + j];
                        } else {
                            rec = B[G * H + 2 * H + j];
                            for (int64_t k = 0; k < H; ++k)
                                rec += double(R[(2 * H + j) * H + k]) * sigmoid(wx[H + k] + rh[H + k]) * h[k];
                        }
                        hn[j] = (1 - z) * std::tanh(wx[2 * H + j] + rec) + z * h[j];
                    }
                }
                h = hn;
                const int64_t yBase = rc.batchFirst ? ((n * S + t) * D + d) * H : ((t * D + d) * N + n) * H;
                for (int64_t j = 0; j < H; ++j) want[static_cast<size_t>(yBase + j)] = h[j];
            }
            const int64_t hBase = rc.batchFirst ? (n * D + d) * H : (d * N + n) * H;
            for (int64_t j = 0; j < H; ++j) wantH[static_cast<size_t>(hBase + j)] = h[j];
        }
    }
    report(name, std::max(relative_error(y, want), relative_error(yh, wantH)));
}

int main() {
    check_reduce_blocks();
    check_layer_norm();
    check_instance_norm();
    check_softmax();
    check_pool1d();
    check_pool2d();
    check_resize_nearest("resize nearest x2 (repeat)", shape({1, 3, 5, 6}), shape({1, 3, 10, 12}), true);
    check_resize_nearest("resize nearest x3 (repeat)", shape({2, 2, 4, 5}), shape({2, 2, 12, 15}), true);
    check_resize_nearest("resize nearest x4 on W only", shape({1, 4, 3, 5}), shape({1, 4, 3, 20}), true);
    check_resize_nearest("resize nearest x2 on H only", shape({1, 4, 3, 5}), shape({1, 4, 6, 5}), true);
    check_resize_nearest("resize nearest 5x7 -> 11x9 half-pixel", shape({1, 2, 5, 7}), shape({1, 2, 11, 9}), false);
    check_resize_nearest("resize nearest down 8x8 -> 3x5", shape({1, 2, 8, 8}), shape({1, 2, 3, 5}), false);
    check_pad("pad reflect 3", eg::PadMode::Reflect, {0, 0, 3, 3, 0, 0, 3, 3});
    check_pad("pad reflect uneven with channels", eg::PadMode::Reflect, {0, 1, 2, 1, 0, 2, 1, 4});
    check_pad("pad edge", eg::PadMode::Edge, {0, 0, 2, 5, 0, 0, 3, 1});
    check_pad("pad wrap", eg::PadMode::Wrap, {0, 0, 1, 2, 0, 0, 2, 1});
    check_pad("pad constant with a crop", eg::PadMode::Constant, {0, 0, 2, -2, 0, 0, -1, 3});
    check_top_k();
    check_top_k_partial();
    check_cumsum();
    check_float64_kernels();
    check_range();
    check_max_pool_indices();
    check_typed_data_moves();
    check_arg_extreme();
    check_wide_types();
    using K = eg::RnnKind;
    for (bool packed : {false, true}) {
        const std::string tag = packed ? " (projected, R packed)" : "";
        auto run = [&](RecurrentCase rc, const char* name) {
            rc.packed = packed;
            check_recurrent(rc, (name + tag).c_str());
        };
        run({K::Lstm, false, false, 1, false, false}, "lstm 37 -> 45, 6 steps, batch 2");
        run({K::Gru, false, false, 1, false, false}, "gru 37 -> 45, 6 steps, batch 2");
        run({K::Gru, true, false, 1, false, false}, "gru linear_before_reset 37 -> 45");
        run({K::Lstm, false, true, 1, false, false}, "lstm peepholes, clip 0.7");
        run({K::Lstm, false, false, 1, true, false}, "lstm reverse");
        run({K::Lstm, false, false, 2, false, false}, "lstm bidirectional");
        run({K::Lstm, false, true, 2, false, true}, "lstm bidirectional layout 1 peepholes");
        run({K::Lstm, false, false, 1, true, true}, "lstm reverse layout 1");
        run({K::Gru, false, false, 2, false, true}, "gru bidirectional layout 1");
        run({K::Gru, true, false, 1, true, false}, "gru linear_before_reset reverse");
        run({K::Rnn, false, false, 2, false, false}, "rnn bidirectional");
    }
    std::printf("generic_check: %d of %d cases ok\n", cases - failures, cases);
    return failures == 0 ? 0 : 1;
}

// The generic kernels of indexing, scatter, selection, einsum and sampling/spectral ops:
// plain loops, accumulation in double where values are summed. Border and rounding rules
// of GridSample and RoiAlign follow ONNX Runtime's CPU kernels, as the reference does.
#include "generic.h"
#include "typed.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace embark::generic {

void gatherFlat(const float* in, const int64_t* index, int64_t count, float* out) {
    for (int64_t i = 0; i < count; ++i) out[i] = index[i] < 0 ? 0.f : in[index[i]];
}

void scatterFlat(const float* data, int64_t dataCount, const float* updates, const int64_t* dst, int64_t count,
                 int64_t block, ScatterReduce reduce, float* out) {
    if (out != data) std::memmove(out, data, static_cast<size_t>(dataCount) * sizeof(float));
    for (int64_t i = 0; i < count; ++i)
        for (int64_t k = 0; k < block; ++k) {
            float& a = out[dst[i] + k];
            const float b = updates[i * block + k];
            switch (reduce) {
            case ScatterReduce::None: a = b; break;
            case ScatterReduce::Add: a += b; break;
            case ScatterReduce::Mul: a *= b; break;
            case ScatterReduce::Max: a = std::max(a, b); break;
            case ScatterReduce::Min: a = std::min(a, b); break;
            }
        }
}

void weightedLoss(const float* logp, const int64_t* pos, const float* weight, int64_t count, int reduction,
                  float* out) {
    double sum = 0, weights = 0;
    for (int64_t i = 0; i < count; ++i) {
        const double l = pos[i] < 0 ? 0.0 : -static_cast<double>(logp[pos[i]]) * weight[i];
        if (reduction == 0) out[i] = static_cast<float>(l);
        sum += l;
        weights += weight[i];
    }
    if (reduction == 1) out[0] = static_cast<float>(sum);
    if (reduction == 2) out[0] = static_cast<float>(sum / weights);
}

void det(const float* in, int64_t batch, int64_t m, float* out) {
    std::vector<double> a(static_cast<size_t>(m * m));
    for (int64_t b = 0; b < batch; ++b) {
        for (int64_t i = 0; i < m * m; ++i) a[static_cast<size_t>(i)] = in[b * m * m + i];
        double d = 1;
        for (int64_t c = 0; c < m && d != 0; ++c) {
            int64_t p = c;
            for (int64_t r = c + 1; r < m; ++r)
                if (std::fabs(a[static_cast<size_t>(r * m + c)]) > std::fabs(a[static_cast<size_t>(p * m + c)])) p = r;
            if (a[static_cast<size_t>(p * m + c)] == 0) {
                d = 0;
                break;
            }
            if (p != c) {
                for (int64_t k = 0; k < m; ++k)
                    std::swap(a[static_cast<size_t>(p * m + k)], a[static_cast<size_t>(c * m + k)]);
                d = -d;
            }
            const double pivot = a[static_cast<size_t>(c * m + c)];
            d *= pivot;
            for (int64_t r = c + 1; r < m; ++r) {
                const double f = a[static_cast<size_t>(r * m + c)] / pivot;
                for (int64_t k = c; k < m; ++k)
                    a[static_cast<size_t>(r * m + k)] -= f * a[static_cast<size_t>(c * m + k)];
            }
        }
        out[b] = static_cast<float>(d);
    }
}

void meanVarianceNorm(const float* in, int64_t count, const int64_t* slot, int64_t slots, float* out) {
    std::vector<double> sum(static_cast<size_t>(slots)), sq(static_cast<size_t>(slots));
    for (int64_t i = 0; i < count; ++i) {
        sum[static_cast<size_t>(slot[i])] += in[i];
        sq[static_cast<size_t>(slot[i])] += static_cast<double>(in[i]) * in[i];
    }
    const double n = static_cast<double>(count) / static_cast<double>(slots > 0 ? slots : 1);
    for (int64_t i = 0; i < count; ++i) {
        const double mean = sum[static_cast<size_t>(slot[i])] / n,
                     var = sq[static_cast<size_t>(slot[i])] / n - mean * mean;
        out[i] = static_cast<float>((in[i] - mean) / (std::sqrt(std::max(var, 0.0)) + 1e-9));
    }
}

void cumsum(const float* in, int64_t outer, int64_t len, int64_t inner, bool exclusive, bool reverse, float* out) {
    if (inner == 1) { // one running sum per line, in double
        for (int64_t o = 0; o < outer; ++o) {
            double sum = 0;
            for (int64_t s = 0; s < len; ++s) {
                const int64_t p = o * len + (reverse ? len - 1 - s : s);
                const double v = in[p];
                if (!exclusive) sum += v;
                out[p] = static_cast<float>(sum);
                if (exclusive) sum += v;
            }
        }
        return;
    }
    // Otherwise the axis is walked a slice of `inner` contiguous values at a time, with one float
    // sum per inner position (ONNX Runtime's arithmetic; a strided walk per position missed the
    // cache once inner was large).
    std::vector<float> sum(static_cast<size_t>(inner));
    for (int64_t o = 0; o < outer; ++o) {
        std::fill(sum.begin(), sum.end(), 0.f);
        for (int64_t s = 0; s < len; ++s) {
            const int64_t at = (o * len + (reverse ? len - 1 - s : s)) * inner;
            const float* src = in + at;
            float* dst = out + at;
            float* acc = sum.data();
            if (exclusive) {
                for (int64_t i = 0; i < inner; ++i) {
                    const float v = src[i];
                    dst[i] = acc[i];
                    acc[i] += v;
                }
            } else {
                for (int64_t i = 0; i < inner; ++i) {
                    acc[i] += src[i];
                    dst[i] = acc[i];
                }
            }
        }
    }
}

void oneHot(const float* indices, int64_t outer, int64_t inner, int64_t depth, float off, float on, float* out) {
    for (int64_t i = 0; i < outer * depth * inner; ++i) out[i] = off;
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            int64_t hot = static_cast<int64_t>(indices[o * inner + i]);
            if (hot < 0) hot += depth;
            if (hot >= 0 && hot < depth) out[(o * depth + hot) * inner + i] = on;
        }
}

void hardmax(const float* in, int64_t outer, int64_t len, int64_t inner, float* out) {
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            int64_t best = 0;
            for (int64_t k = 0; k < len; ++k) {
                if (in[(o * len + k) * inner + i] > in[(o * len + best) * inner + i]) best = k;
                out[(o * len + k) * inner + i] = 0.f;
            }
            if (len) out[(o * len + best) * inner + i] = 1.f;
        }
}

void eye(int64_t rows, int64_t cols, int64_t k, float* out) {
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) out[r * cols + c] = c - r == k ? 1.f : 0.f;
}

namespace {

// The general Einsum loop nest over the plan, products summed in double, for float and double data.
template <typename T>
void einsumLoop(const EinsumPlan& p, const T* const* in, T* out) {
    int64_t outCount = 1, summed = 1;
    for (int l = 0; l < p.loops; ++l) (l < p.outLoops ? outCount : summed) *= p.size[l];
    int64_t counter[kMaxEinsumLabels] = {}, pos[3] = {};
    for (int64_t o = 0; o < outCount; ++o) {
        double acc = 0;
        for (int64_t s = 0; s < summed; ++s) {
            double prod = 1;
            for (int op = 0; op < p.operands; ++op) prod *= in[op][pos[op]];
            acc += prod;
            for (int l = p.loops - 1; l >= 0; --l) {
                for (int op = 0; op < p.operands; ++op) pos[op] += p.stride[op][l];
                if (++counter[l] < p.size[l]) break;
                for (int op = 0; op < p.operands; ++op) pos[op] -= p.stride[op][l] * p.size[l];
                counter[l] = 0;
            }
        }
        out[o] = static_cast<T>(acc);
    }
}

} // namespace

void einsum(const EinsumPlan& p, const float* const* in, float* out) { einsumLoop(p, in, out); }

void einsumF64(const EinsumPlan& p, const double* const* in, double* out) { einsumLoop(p, in, out); }

namespace {

// Not inlined, nor is toIndex: Clang 19 vectorizes a pair of inlined calls (a row and a column)
// for RVV with a truncating conversion (vfcvt.rtz.x.f.v, vfncvt.rtz.x.f.w), and qemu 7.2 aborts
// on translating those (an assertion in decode_save_opc), so the simulated boards could not run it.
[[gnu::noinline]] double reflect(double x, double lo, double hi) {
    const double range = hi - lo;
    if (x < lo) {
        const double dx = lo - x;
        const int n = static_cast<int>(dx / range);
        const double r = dx - n * range;
        return n % 2 == 0 ? lo + r : hi - r;
    }
    if (x > hi) {
        const double dx = x - hi;
        const int n = static_cast<int>(dx / range);
        const double r = dx - n * range;
        return n % 2 == 0 ? hi - r : lo + r;
    }
    return x;
}

// The integer part of a coordinate, truncated toward zero (see reflect).
[[gnu::noinline]] int64_t toIndex(double v) { return static_cast<int64_t>(v); }

void cubicCoeffs(double x, double c[4]) {
    const double A = -0.75;
    x = std::fabs(x);
    c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
    c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
    c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
    c[3] = ((A * (2 - x) - 5 * A) * (2 - x) + 8 * A) * (2 - x) - 4 * A;
}

constexpr double kPi = 3.14159265358979323846;

void dftLine(const float* x, int64_t len, int64_t stride, bool complexIn, int64_t L, int64_t outLen, bool inverse,
             float* y, int64_t outStride) {
    const double sign = inverse ? 1.0 : -1.0;
    for (int64_t k = 0; k < outLen; ++k) {
        double sr = 0, si = 0;
        for (int64_t n = 0; n < std::min(len, L); ++n) {
            const double a = sign * 2 * kPi * static_cast<double>((k * n) % L) / static_cast<double>(L);
            const double c = std::cos(a), s = std::sin(a);
            const double xr = x[n * stride], xi = complexIn ? x[n * stride + 1] : 0.0;
            sr += xr * c - xi * s;
            si += xr * s + xi * c;
        }
        if (inverse) {
            sr /= static_cast<double>(L);
            si /= static_cast<double>(L);
        }
        y[k * outStride] = static_cast<float>(sr);
        y[k * outStride + 1] = static_cast<float>(si);
    }
}

} // namespace

void gridSample(const GridSampleParams& p, const float* x, const float* grid, float* y) {
    const int64_t H = p.h, W = p.w;
    const double xMin = p.alignCorners ? 0 : -0.5, xMax = p.alignCorners ? W - 1.0 : W - 0.5;
    const double yMin = p.alignCorners ? 0 : -0.5, yMax = p.alignCorners ? H - 1.0 : H - 0.5;
    const auto denorm = [&](double v, int64_t len) {
        return p.alignCorners ? (v + 1) / 2 * static_cast<double>(len - 1)
                              : ((v + 1) * static_cast<double>(len) - 1) / 2;
    };
    // Where (r, col) reads in a channel's plane: its offset, or H * W (a zero past the plane)
    // for a pixel in the zero padding.
    const int64_t zero = H * W;
    const auto offset = [&](int64_t r, int64_t col) -> int64_t {
        if (p.padding == 0) return r >= 0 && r < H && col >= 0 && col < W ? r * W + col : zero;
        if (p.padding == 1) {
            col = std::min<int64_t>(std::max<int64_t>(col, 0), W - 1);
            r = std::min<int64_t>(std::max<int64_t>(r, 0), H - 1);
        } else {
            col = toIndex(reflect(static_cast<double>(col), xMin, xMax));
            r = toIndex(reflect(static_cast<double>(r), yMin, yMax));
        }
        return r * W + col;
    };
    // The source coordinates of output pixel (n, oy, ox), the padding mode applied.
    const auto source = [&](int64_t n, int64_t oy, int64_t ox, double& sx, double& sy) {
        const float* g = grid + ((n * p.ho + oy) * p.wo + ox) * 2;
        sx = denorm(g[0], W);
        sy = denorm(g[1], H);
        if (p.mode == 1) {
            sx = std::nearbyint(sx);
            sy = std::nearbyint(sy);
        }
        if (sx < xMin || sx > xMax || sy < yMin || sy > yMax) {
            if (p.padding == 1) {
                sx = std::min(std::max(sx, 0.0), W - 1.0);
                sy = std::min(std::max(sy, 0.0), H - 1.0);
            } else if (p.padding == 2) {
                sx = reflect(sx, xMin, xMax);
                sy = reflect(sy, yMin, yMax);
            }
        }
    };
    const int64_t pixels = p.ho * p.wo;
    if (p.mode != 2) {
        std::vector<float> plane(static_cast<size_t>(zero + 1), 0.f); // a channel, then the zero
        // Nearest and bilinear: each output pixel's corners (offsets) and weights, found once for
        // every channel of its batch item; the channels then only gather and add. Same values as
        // computing them per channel (ONNX Runtime's kernel, the reference), the bilinear sum in
        // float instead of double (within 1e-6 relative).
        const int corners = p.mode == 1 ? 1 : 4;
        std::vector<int64_t> at(static_cast<size_t>(pixels * corners));
        std::vector<float> weight(p.mode == 1 ? 0 : static_cast<size_t>(pixels * 4));
        for (int64_t n = 0; n < p.n; ++n) {
            for (int64_t i = 0; i < pixels; ++i) {
                double sx, sy;
                source(n, i / p.wo, i % p.wo, sx, sy);
                if (p.mode == 1) {
                    at[i] = offset(toIndex(sy), toIndex(sx));
                    continue;
                }
                const int64_t x1 = toIndex(std::floor(sx)), y1 = toIndex(std::floor(sy));
                const double dx1 = sx - static_cast<double>(x1), dx2 = static_cast<double>(x1 + 1) - sx;
                const double dy1 = sy - static_cast<double>(y1), dy2 = static_cast<double>(y1 + 1) - sy;
                int64_t* a = at.data() + i * 4;
                float* w = weight.data() + i * 4;
                a[0] = offset(y1, x1), a[1] = offset(y1, x1 + 1), a[2] = offset(y1 + 1, x1),
                a[3] = offset(y1 + 1, x1 + 1);
                w[0] = static_cast<float>(dy2 * dx2), w[1] = static_cast<float>(dy2 * dx1);
                w[2] = static_cast<float>(dy1 * dx2), w[3] = static_cast<float>(dy1 * dx1);
            }
            for (int64_t c = 0; c < p.c; ++c) {
                std::memcpy(plane.data(), x + (n * p.c + c) * zero, static_cast<size_t>(zero) * sizeof(float));
                const float* src = plane.data();
                float* out = y + (n * p.c + c) * pixels;
                if (p.mode == 1) {
                    for (int64_t i = 0; i < pixels; ++i) out[i] = src[at[i]];
                    continue;
                }
                for (int64_t i = 0; i < pixels; ++i) {
                    const int64_t* a = at.data() + i * 4;
                    const float* w = weight.data() + i * 4;
                    out[i] = (w[0] * src[a[0]] + w[1] * src[a[1]]) + (w[2] * src[a[2]] + w[3] * src[a[3]]);
                }
            }
        }
        return;
    }
    // Bicubic: per channel and pixel, as the reference (16 corners: not worth a table). The
    // corners are read from the channel where it is: through `plane` and `offset` it took 14%
    // longer on the host grid.
    for (int64_t n = 0; n < p.n; ++n)
        for (int64_t c = 0; c < p.c; ++c) {
            const float* img = x + (n * p.c + c) * H * W;
            const auto pixel = [&](int64_t r, int64_t col) -> double {
                if (p.padding == 0) return r >= 0 && r < H && col >= 0 && col < W ? img[r * W + col] : 0.0;
                return img[offset(r, col)];
            };
            for (int64_t oy = 0; oy < p.ho; ++oy)
                for (int64_t ox = 0; ox < p.wo; ++ox) {
                    double sx, sy;
                    source(n, oy, ox, sx, sy);
                    const int64_t x0 = toIndex(std::floor(sx)) - 1, y0 = toIndex(std::floor(sy)) - 1;
                    double cx[4], cy[4];
                    cubicCoeffs(sx - static_cast<double>(x0) - 1, cx);
                    cubicCoeffs(sy - static_cast<double>(y0) - 1, cy);
                    double v = 0;
                    for (int64_t hh = 0; hh < 4; ++hh) {
                        double row = 0;
                        for (int64_t ww = 0; ww < 4; ++ww) row += cx[ww] * pixel(y0 + hh, x0 + ww);
                        v += cy[hh] * row;
                    }
                    y[((n * p.c + c) * p.ho + oy) * p.wo + ox] = static_cast<float>(v);
                }
        }
}

void roiAlign(const RoiAlignParams& p, const float* x, const float* rois, const int64_t* batchIndices, float* y) {
    const int64_t H = p.h, W = p.w;
    const double offset = p.halfPixel ? 0.5 : 0.0;
    for (int64_t r = 0; r < p.rois; ++r) {
        const int64_t b = std::min<int64_t>(std::max<int64_t>(batchIndices[r], 0), p.n - 1);
        const float* roi = rois + r * 4;
        const double x0 = roi[0] * static_cast<double>(p.spatialScale) - offset,
                     y0 = roi[1] * static_cast<double>(p.spatialScale) - offset;
        double rw = roi[2] * static_cast<double>(p.spatialScale) - offset - x0,
               rh = roi[3] * static_cast<double>(p.spatialScale) - offset - y0;
        if (!p.halfPixel) {
            rw = std::max(rw, 1.0);
            rh = std::max(rh, 1.0);
        }
        const double binH = rh / static_cast<double>(p.outH), binW = rw / static_cast<double>(p.outW);
        const int64_t gridH =
            p.samplingRatio > 0 ? p.samplingRatio : static_cast<int64_t>(std::ceil(rh / static_cast<double>(p.outH)));
        const int64_t gridW =
            p.samplingRatio > 0 ? p.samplingRatio : static_cast<int64_t>(std::ceil(rw / static_cast<double>(p.outW)));
        const double count = static_cast<double>(std::max<int64_t>(gridH * gridW, 1));
        for (int64_t c = 0; c < p.c; ++c) {
            const float* img = x + (b * p.c + c) * H * W;
            for (int64_t oy = 0; oy < p.outH; ++oy)
                for (int64_t ox = 0; ox < p.outW; ++ox) {
                    double acc = 0;
                    bool first = true;
                    for (int64_t iy = 0; iy < gridH; ++iy) {
                        const double yy0 = y0 + static_cast<double>(oy) * binH +
                                           (static_cast<double>(iy) + 0.5) * binH / static_cast<double>(gridH);
                        for (int64_t ix = 0; ix < gridW; ++ix) {
                            const double xx0 = x0 + static_cast<double>(ox) * binW +
                                               (static_cast<double>(ix) + 0.5) * binW / static_cast<double>(gridW);
                            double w[4] = {0, 0, 0, 0};
                            int64_t pos[4] = {0, 0, 0, 0};
                            if (!(yy0 < -1.0 || yy0 > static_cast<double>(H) || xx0 < -1.0 ||
                                  xx0 > static_cast<double>(W))) {
                                double yy = std::max(yy0, 0.0), xc = std::max(xx0, 0.0);
                                int64_t yl = static_cast<int64_t>(yy), xl = static_cast<int64_t>(xc), yh, xh;
                                if (yl >= H - 1) {
                                    yh = yl = H - 1;
                                    yy = static_cast<double>(yl);
                                } else
                                    yh = yl + 1;
                                if (xl >= W - 1) {
                                    xh = xl = W - 1;
                                    xc = static_cast<double>(xl);
                                } else
                                    xh = xl + 1;
                                const double ly = yy - static_cast<double>(yl), lx = xc - static_cast<double>(xl),
                                             hy = 1 - ly, hx = 1 - lx;
                                w[0] = hy * hx, w[1] = hy * lx, w[2] = ly * hx, w[3] = ly * lx;
                                pos[0] = yl * W + xl, pos[1] = yl * W + xh, pos[2] = yh * W + xl, pos[3] = yh * W + xh;
                            }
                            if (!p.max) {
                                for (int k = 0; k < 4; ++k) acc += w[k] * img[pos[k]];
                            } else {
                                double v = w[0] * img[pos[0]];
                                for (int k = 1; k < 4; ++k) v = std::max(v, w[k] * img[pos[k]]);
                                acc = first ? v : std::max(acc, v);
                                first = false;
                            }
                        }
                    }
                    y[((r * p.c + c) * p.outH + oy) * p.outW + ox] = static_cast<float>(p.max ? acc : acc / count);
                }
        }
    }
}

void dft(const float* in, int64_t outer, int64_t len, int64_t inner, bool complexIn, int64_t dftLength, int64_t outLen,
         bool inverse, float* out) {
    const int64_t cin = complexIn ? 2 : 1;
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i)
            dftLine(in + (o * len * inner + i) * cin, len, inner * cin, complexIn, dftLength, outLen, inverse,
                    out + (o * outLen * inner + i) * 2, inner * 2);
}

void stft(const float* signal, int64_t batch, int64_t length, bool complexIn, int64_t step, const float* window,
          int64_t frame, int64_t bins, float* out) {
    const int64_t cin = complexIn ? 2 : 1;
    const int64_t frames = (length - frame) / step + 1;
    std::vector<float> buf(static_cast<size_t>(frame * 2));
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t f = 0; f < frames; ++f) {
            for (int64_t t = 0; t < frame; ++t) {
                const float* s = signal + (b * length + f * step + t) * cin;
                const float w = window ? window[t] : 1.f;
                buf[static_cast<size_t>(t * 2)] = s[0] * w;
                buf[static_cast<size_t>(t * 2 + 1)] = complexIn ? s[1] * w : 0.f;
            }
            dftLine(buf.data(), frame, 2, true, frame, bins, false, out + (b * frames + f) * bins * 2, 2);
        }
}

} // namespace embark::generic

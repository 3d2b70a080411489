// Int8 kernels (quant.h): plain loops written to vectorize (the channel loops are innermost
// and contiguous), correctness first. The arithmetic matches core/reference/quantized_fused.cpp
// exactly; see quant.h.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "portable.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

namespace embark::portable {
namespace {

// Round half to even of a float already clamped to an int8-sized range (|v| < 2^22).
inline float round_even(float v) {
    constexpr float kMagic = 12582912.f; // 1.5 * 2^23
    return (v + kMagic) - kMagic;
}

inline int8_t requantize_value(float v, float lo, float hi, int zp) {
    v = std::min(std::max(v, lo), hi);
    return static_cast<int8_t>(static_cast<int>(round_even(v)) + zp);
}

// Requantizes count int32 sums with per-channel multipliers (stride 1).
void requantize_row(const int32_t* acc, const float* m, int count, const Requantization& r, int8_t* out) {
    const float lo = static_cast<float>(r.out_min - r.zero_point), hi = static_cast<float>(r.out_max - r.zero_point);
    for (int i = 0; i < count; ++i) {
        float v = static_cast<float>(acc[i]) * m[i];
        v = std::min(std::max(v, lo), hi);
        out[i] = static_cast<int8_t>(static_cast<int>(round_even(v)) + r.zero_point);
    }
}

template <typename T>
void quantize_any(const float* x, T* y, size_t count, float scale, int zp, int qmin, int qmax) {
    const float lo = static_cast<float>(qmin - zp), hi = static_cast<float>(qmax - zp);
    for (size_t i = 0; i < count; ++i) {
        float v = x[i] / scale;
        const bool nan = v != v;
        v = std::min(std::max(v, lo), hi);
        // NaN saturates to 0 (as the reference), not to the zero point.
        y[i] = nan ? T(0) : static_cast<T>(static_cast<int>(round_even(v)) + zp);
    }
}

template <typename T>
void dequantize_any(const T* x, float* y, size_t count, float scale, int zp) {
    const float z = static_cast<float>(zp);
    for (size_t i = 0; i < count; ++i) y[i] = (static_cast<float>(x[i]) - z) * scale;
}

void run_parts(ThreadPool* pool, int64_t n, const std::function<void(int64_t, int64_t)>& fn) {
    if (pool && pool->threads() > 1 && n > 1) pool->parallel_for(n, fn);
    else fn(0, n);
}

} // namespace

void quantize_s8(const float* x, int8_t* y, size_t count, float scale, int zero_point) {
    quantize_any(x, y, count, scale, zero_point, -128, 127);
}
void quantize_u8(const float* x, uint8_t* y, size_t count, float scale, int zero_point) {
    quantize_any(x, y, count, scale, zero_point, 0, 255);
}
void dequantize_s8(const int8_t* x, float* y, size_t count, float scale, int zero_point) {
    dequantize_any(x, y, count, scale, zero_point);
}
void dequantize_u8(const uint8_t* x, float* y, size_t count, float scale, int zero_point) {
    dequantize_any(x, y, count, scale, zero_point);
}

// ----- QConv2D ------------------------------------------------------------------------------

QConv2D::QConv2D(QConv2D&& o) noexcept { *this = std::move(o); }
QConv2D& QConv2D::operator=(QConv2D&& o) noexcept {
    if (this != &o) {
        std::free(storage);
        std::memcpy(static_cast<void*>(this), &o, sizeof(QConv2D));
        o.storage = nullptr;
        o.weights = nullptr;
        o.bias = nullptr;
        o.multipliers = nullptr;
    }
    return *this;
}
QConv2D::~QConv2D() { std::free(storage); }

QConv2D pack_qconv2d(const Conv2DShape& s, int out_h, int out_w, const int8_t* w, const int32_t* bias,
                     const float* multipliers, int x_zero_point, Requantization out) {
    if (s.groups < 1 || s.in_c % s.groups || s.out_c % s.groups)
        throw std::invalid_argument("pack_qconv2d: channels do not divide into groups");
    QConv2D op;
    op.batch = s.batch, op.in_h = s.in_h, op.in_w = s.in_w, op.in_c = s.in_c;
    op.out_h = out_h, op.out_w = out_w, op.out_c = s.out_c;
    op.kernel_h = s.kernel_h, op.kernel_w = s.kernel_w, op.stride_h = s.stride_h, op.stride_w = s.stride_w;
    op.dilation_h = s.dilation_h, op.dilation_w = s.dilation_w, op.pad_top = s.pad_top, op.pad_left = s.pad_left;
    op.groups = s.groups, op.x_zero_point = x_zero_point, op.out = out;
    const int cg = s.in_c / s.groups, mg = s.out_c / s.groups, taps = s.kernel_h * s.kernel_w;
    op.depthwise = cg == 1 && mg == 1;
    const size_t nw = static_cast<size_t>(s.out_c) * cg * taps;
    const size_t bytes = nw * sizeof(int16_t) + 64 + static_cast<size_t>(s.out_c) * (sizeof(int32_t) + sizeof(float)) + 64;
    op.storage = std::calloc(1, bytes);
    if (!op.storage) throw std::bad_alloc();
    auto* base = static_cast<unsigned char*>(op.storage);
    op.weights = reinterpret_cast<int16_t*>(base);
    op.bias = reinterpret_cast<int32_t*>(base + ((nw * sizeof(int16_t) + 63) / 64) * 64);
    op.multipliers = reinterpret_cast<float*>(op.bias + s.out_c);
    for (int o = 0; o < s.out_c; ++o) {
        op.bias[o] = bias ? bias[o] : 0;
        op.multipliers[o] = multipliers[o];
    }
    for (int o = 0; o < s.out_c; ++o) {
        for (int c = 0; c < cg; ++c)
            for (int ky = 0; ky < s.kernel_h; ++ky)
                for (int kx = 0; kx < s.kernel_w; ++kx) {
                    const int8_t v = w[((static_cast<size_t>(o) * cg + c) * s.kernel_h + ky) * s.kernel_w + kx];
                    size_t at;
                    if (op.depthwise) at = (static_cast<size_t>(ky) * s.kernel_w + kx) * s.out_c + o;
                    else at = ((static_cast<size_t>(o) * s.kernel_h + ky) * s.kernel_w + kx) * cg + c;
                    op.weights[at] = v;
                }
    }
    return op;
}

// Depthwise: per output pixel, taps outside, channels inside (contiguous, vectorized).
static void qconv2d_depthwise(const QConv2D& op, const int8_t* input, int8_t* output, ThreadPool* pool) {
    const int M = op.out_c;
    const int16_t xz = static_cast<int16_t>(op.x_zero_point);
    const int64_t rows = static_cast<int64_t>(op.batch) * op.out_h;
    run_parts(pool, rows, [&](int64_t begin, int64_t end) {
        const int channels = M; // a local bound: stores to the accumulators cannot change it
        std::vector<int32_t> acc(static_cast<size_t>(channels));
        for (int64_t r = begin; r < end; ++r) {
            const int n = static_cast<int>(r / op.out_h), oy = static_cast<int>(r % op.out_h);
            for (int ox = 0; ox < op.out_w; ++ox) {
                int32_t* a = acc.data();
                for (int o = 0; o < M; ++o) a[o] = op.bias[o];
                for (int ky = 0; ky < op.kernel_h; ++ky) {
                    const int iy = oy * op.stride_h - op.pad_top + ky * op.dilation_h;
                    if (iy < 0 || iy >= op.in_h) continue;
                    for (int kx = 0; kx < op.kernel_w; ++kx) {
                        const int ix = ox * op.stride_w - op.pad_left + kx * op.dilation_w;
                        if (ix < 0 || ix >= op.in_w) continue;
                        const int8_t* px = input + ((static_cast<int64_t>(n) * op.in_h + iy) * op.in_w + ix) * M;
                        const int16_t* wt = op.weights + (static_cast<size_t>(ky) * op.kernel_w + kx) * M;
                        for (int c = 0; c < channels; ++c) a[c] += (static_cast<int32_t>(px[c]) - xz) * static_cast<int32_t>(wt[c]);
                    }
                }
                int8_t* out = output + ((static_cast<int64_t>(n) * op.out_h + oy) * op.out_w + ox) * M;
                requantize_row(a, op.multipliers, M, op.out, out);
            }
        }
    });
}

// Other convolutions: the centred input patch of up to 4 output pixels ([group][kH][kW][C/g],
// pads as 0) against each output channel's weight row: 4 int16 dot products sharing the
// weight loads (GCC and Clang vectorize them as widening multiply-accumulates).
void qconv2d(const QConv2D& op, const int8_t* input, int8_t* output, ThreadPool* pool) {
    if (op.depthwise) {
        qconv2d_depthwise(op, input, output, pool);
        return;
    }
    constexpr int P = 4;
    const int cg = op.in_c / op.groups, mg = op.out_c / op.groups, M = op.out_c, C = op.in_c;
    const int taps = op.kernel_h * op.kernel_w, K = taps * cg, patch = op.groups * K;
    const int16_t xz = static_cast<int16_t>(op.x_zero_point);
    const int64_t rows = static_cast<int64_t>(op.batch) * op.out_h;
    run_parts(pool, rows, [&](int64_t begin, int64_t end) {
        std::vector<int16_t> xcol(static_cast<size_t>(P) * patch);
        std::vector<int32_t> acc(static_cast<size_t>(P) * M);
        for (int64_t r = begin; r < end; ++r) {
            const int n = static_cast<int>(r / op.out_h), oy = static_cast<int>(r % op.out_h);
            for (int ox0 = 0; ox0 < op.out_w; ox0 += P) {
                const int count = std::min(P, op.out_w - ox0);
                for (int p = 0; p < count; ++p) {
                    int16_t* col = xcol.data() + static_cast<size_t>(p) * patch;
                    const int ox = ox0 + p;
                    for (int ky = 0; ky < op.kernel_h; ++ky) {
                        const int iy = oy * op.stride_h - op.pad_top + ky * op.dilation_h;
                        for (int kx = 0; kx < op.kernel_w; ++kx) {
                            const int ix = ox * op.stride_w - op.pad_left + kx * op.dilation_w;
                            const int tap = ky * op.kernel_w + kx;
                            const bool inside = iy >= 0 && iy < op.in_h && ix >= 0 && ix < op.in_w;
                            const int8_t* px = inside ? input + ((static_cast<int64_t>(n) * op.in_h + iy) * op.in_w + ix) * C : nullptr;
                            for (int g = 0; g < op.groups; ++g) {
                                int16_t* dst = col + static_cast<size_t>(g) * K + static_cast<size_t>(tap) * cg;
                                if (!inside) {
                                    std::fill(dst, dst + cg, int16_t(0));
                                    continue;
                                }
                                const int8_t* src = px + g * cg;
                                for (int c = 0; c < cg; ++c) dst[c] = static_cast<int16_t>(src[c] - xz);
                            }
                        }
                    }
                }
                for (int o = 0; o < M; ++o) {
                    const int g = o / mg;
                    const int16_t* w = op.weights + static_cast<size_t>(o) * K;
                    if (count == P) {
                        const int16_t* x0 = xcol.data() + static_cast<size_t>(g) * K;
                        const int16_t* x1 = x0 + patch;
                        const int16_t* x2 = x1 + patch;
                        const int16_t* x3 = x2 + patch;
                        int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                        for (int k = 0; k < K; ++k) {
                            const int32_t wk = w[k];
                            s0 += x0[k] * wk;
                            s1 += x1[k] * wk;
                            s2 += x2[k] * wk;
                            s3 += x3[k] * wk;
                        }
                        acc[static_cast<size_t>(o)] = op.bias[o] + s0;
                        acc[static_cast<size_t>(M + o)] = op.bias[o] + s1;
                        acc[static_cast<size_t>(2 * M + o)] = op.bias[o] + s2;
                        acc[static_cast<size_t>(3 * M + o)] = op.bias[o] + s3;
                    } else {
                        for (int p = 0; p < count; ++p) {
                            const int16_t* xp = xcol.data() + static_cast<size_t>(p) * patch + static_cast<size_t>(g) * K;
                            int32_t sum = 0;
                            for (int k = 0; k < K; ++k) sum += xp[k] * static_cast<int32_t>(w[k]);
                            acc[static_cast<size_t>(p) * M + o] = op.bias[o] + sum;
                        }
                    }
                }
                for (int p = 0; p < count; ++p) {
                    int8_t* out = output + ((static_cast<int64_t>(n) * op.out_h + oy) * op.out_w + ox0 + p) * M;
                    requantize_row(acc.data() + static_cast<size_t>(p) * M, op.multipliers, M, op.out, out);
                }
            }
        }
    });
}

// ----- QFullyConnected ----------------------------------------------------------------------

void qfully_connected(const QFullyConnected& op, int64_t rows, const int8_t* x, int8_t* y, ThreadPool* pool) {
    const int K = op.k, N = op.n;
    const int16_t xz = static_cast<int16_t>(op.x_zero_point);
    run_parts(pool, rows, [&](int64_t begin, int64_t end) {
        std::vector<int32_t> acc(static_cast<size_t>(N));
        std::vector<int16_t> xc(static_cast<size_t>(K));
        for (int64_t r = begin; r < end; ++r) {
            const int8_t* xr = x + r * K;
            for (int k = 0; k < K; ++k) xc[static_cast<size_t>(k)] = static_cast<int16_t>(xr[k] - xz);
            for (int o = 0; o < N; ++o) {
                const int8_t* wr = op.weights + static_cast<int64_t>(o) * K;
                int32_t sum = 0;
                for (int k = 0; k < K; ++k) sum += static_cast<int32_t>(xc[static_cast<size_t>(k)]) * wr[k];
                acc[static_cast<size_t>(o)] = sum + (op.bias ? op.bias[o] : 0);
            }
            requantize_row(acc.data(), op.multipliers, N, op.out, y + r * N);
        }
    });
}

// ----- Element-wise -------------------------------------------------------------------------

void qadd(const QAddParams& p, const int8_t* a, const int8_t* b, int8_t* y, size_t count, ThreadPool* pool) {
    const float lo = static_cast<float>(p.out.out_min - p.out.zero_point);
    const float hi = static_cast<float>(p.out.out_max - p.out.zero_point);
    const int za = p.a_zero_point, zb = p.b_zero_point, zy = p.out.zero_point;
    const float sa = p.a_scale, sb = p.b_scale, sy = p.y_scale;
    const int64_t blocks = static_cast<int64_t>((count + 4095) / 4096);
    run_parts(count > 65536 ? pool : nullptr, blocks, [&](int64_t begin, int64_t end) {
        const size_t first = static_cast<size_t>(begin) * 4096, last = std::min(count, static_cast<size_t>(end) * 4096);
        for (size_t i = first; i < last; ++i) {
            const float fa = static_cast<float>(a[i] - za) * sa;
            const float fb = static_cast<float>(b[i] - zb) * sb;
            y[i] = requantize_value((fa + fb) / sy, lo, hi, zy);
        }
    });
}

void qlookup(const int8_t* table, const int8_t* x, int8_t* y, size_t count) {
    for (size_t i = 0; i < count; ++i) y[i] = table[x[i] + 128];
}

// ----- Pooling ------------------------------------------------------------------------------

void max_pool2d_s8(const Pool2DShape& s, const int8_t* input, int8_t* output, ThreadPool* pool) {
    const int64_t rows = static_cast<int64_t>(s.batch) * s.out_h;
    run_parts(pool, rows, [&](int64_t begin, int64_t end) {
        const int C = s.channels; // local: the int8 stores may alias anything outside
        for (int64_t r = begin; r < end; ++r) {
            const int n = static_cast<int>(r / s.out_h), oy = static_cast<int>(r % s.out_h);
            for (int ox = 0; ox < s.out_w; ++ox) {
                int8_t* out = output + ((static_cast<int64_t>(n) * s.out_h + oy) * s.out_w + ox) * C;
                for (int c = 0; c < C; ++c) out[c] = -128;
                for (int ky = 0; ky < s.kernel_h; ++ky) {
                    const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
                    if (iy < 0 || iy >= s.in_h) continue;
                    for (int kx = 0; kx < s.kernel_w; ++kx) {
                        const int ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
                        if (ix < 0 || ix >= s.in_w) continue;
                        const int8_t* px = input + ((static_cast<int64_t>(n) * s.in_h + iy) * s.in_w + ix) * C;
                        for (int c = 0; c < C; ++c) out[c] = std::max(out[c], px[c]);
                    }
                }
            }
        }
    });
}

void average_pool2d_s8(const Pool2DShape& s, bool count_include_pad, int x_zero_point, float multiplier,
                       Requantization out, const int8_t* input, int8_t* output, ThreadPool* pool) {
    const float lo = static_cast<float>(out.out_min - out.zero_point), hi = static_cast<float>(out.out_max - out.zero_point);
    const int64_t rows = static_cast<int64_t>(s.batch) * s.out_h;
    run_parts(pool, rows, [&](int64_t begin, int64_t end) {
        const int C = s.channels; // local: the int8 stores may alias anything outside
        const int xz = x_zero_point;
        std::vector<int32_t> acc(static_cast<size_t>(C));
        for (int64_t r = begin; r < end; ++r) {
            const int n = static_cast<int>(r / s.out_h), oy = static_cast<int>(r % s.out_h);
            for (int ox = 0; ox < s.out_w; ++ox) {
                std::fill(acc.begin(), acc.end(), 0);
                int valid = 0, padded = 0;
                for (int ky = 0; ky < s.kernel_h; ++ky) {
                    const int iy = oy * s.stride_h - s.pad_top + ky;
                    for (int kx = 0; kx < s.kernel_w; ++kx) {
                        const int ix = ox * s.stride_w - s.pad_left + kx;
                        padded += iy >= -s.pad_top && iy < s.in_h + s.pad_bottom && ix >= -s.pad_left && ix < s.in_w + s.pad_right;
                        if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue;
                        ++valid;
                        const int8_t* px = input + ((static_cast<int64_t>(n) * s.in_h + iy) * s.in_w + ix) * C;
                        for (int c = 0; c < C; ++c) acc[static_cast<size_t>(c)] += px[c] - xz;
                    }
                }
                const int count = count_include_pad ? padded : valid;
                const float fc = static_cast<float>(count);
                int8_t* o = output + ((static_cast<int64_t>(n) * s.out_h + oy) * s.out_w + ox) * C;
                for (int c = 0; c < C; ++c) {
                    const float v = count ? (static_cast<float>(acc[static_cast<size_t>(c)]) / fc) * multiplier : 0.f;
                    o[c] = requantize_value(v, lo, hi, out.zero_point);
                }
            }
        }
    });
}

// ----- Data movement ------------------------------------------------------------------------

void transpose_bytes(const void* in, const int64_t* dims, int rank, const int* perm, void* out) {
    const auto* src = static_cast<const unsigned char*>(in);
    auto* dst = static_cast<unsigned char*>(out);
    int64_t inStride[8], outDims[8], total = 1;
    for (int i = rank - 1, st = 1; i >= 0; --i) {
        inStride[i] = st;
        st *= static_cast<int>(dims[i]);
    }
    for (int k = 0; k < rank; ++k) {
        outDims[k] = dims[perm[k]];
        total *= outDims[k];
    }
    int64_t idx[8] = {};
    int64_t from = 0;
    for (int64_t o = 0; o < total; ++o) {
        dst[o] = src[from];
        for (int k = rank - 1; k >= 0; --k) {
            from += inStride[perm[k]];
            if (++idx[k] < outDims[k]) break;
            from -= inStride[perm[k]] * outDims[k];
            idx[k] = 0;
        }
    }
}

void concat_bytes(const void* const* inputs, const int64_t* sizes, int count, int64_t outer, int64_t inner, void* out) {
    auto* dst = static_cast<unsigned char*>(out);
    for (int64_t o = 0; o < outer; ++o)
        for (int i = 0; i < count; ++i) {
            const size_t chunk = static_cast<size_t>(sizes[i] * inner);
            std::memcpy(dst, static_cast<const unsigned char*>(inputs[i]) + static_cast<size_t>(o) * chunk, chunk);
            dst += chunk;
        }
}

} // namespace embark::portable

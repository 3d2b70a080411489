// Int8 kernels (quant.h): plain loops written to vectorize (register tiles for the
// convolutions, channel loops for depthwise, streams for the element-wise ops). The arithmetic
// matches core/reference/quantized_fused.cpp exactly; see quant.h.
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

// Loop hints of the register tiles (as gemm_ukernel.h's for the float tile): Clang keeps a
// constant-length channel loop as one vector of that many lanes instead of unrolling it into
// scalars, and on RVV unrolls the k loop by 4 (immediate load offsets). GCC takes the loops as
// they are.
#if defined(__clang__)
#  define EMBARK_Q_PRAGMA(x) _Pragma(#x)
#  define EMBARK_Q_CHANNEL_LOOP(width) \
      EMBARK_Q_PRAGMA(clang loop unroll(disable) vectorize(enable) vectorize_width(width) interleave(disable))
#else
#  define EMBARK_Q_CHANNEL_LOOP(width)
#endif
#if defined(__clang__) && defined(__riscv_vector)
#  define EMBARK_Q_K_LOOP _Pragma("clang loop unroll_count(4)")
#else
#  define EMBARK_Q_K_LOOP
#endif

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

// The requantization of the kernels' hot loops: the same arithmetic in fewer vector
// instructions. The clamp uses fmax/fmin where they are one instruction (RVV, Arm; v is never
// NaN, so they equal the reference's min/max), and the rounded value is read from the bits of
// v + 1.5 * 2^23 (round half to even by the addition; the low mantissa bits are the integer
// for |v| < 2^22) with the zero point folded into the offset.
constexpr int32_t kMagicBits = 0x4B400000; // bits of 1.5 * 2^23
struct QRq {
    float lo, hi;
    int32_t offset; // zero_point - kMagicBits
};
inline QRq requant_params(const Requantization& r) {
    return QRq{static_cast<float>(r.out_min - r.zero_point), static_cast<float>(r.out_max - r.zero_point),
               r.zero_point - kMagicBits};
}
[[gnu::always_inline]] inline float clamp_value(float v, float lo, float hi) {
#if defined(__riscv_vector) || defined(__aarch64__)
    return std::fmin(std::fmax(v, lo), hi);
#else
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
#endif
}
[[gnu::always_inline]] inline int8_t requant_float(float v, float lo, float hi, int32_t offset) {
    const float t = clamp_value(v, lo, hi) + 12582912.f;
    int32_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    return static_cast<int8_t>(bits + offset);
}
[[gnu::always_inline]] inline int8_t requant_one(int32_t acc, float m, float lo, float hi, int32_t offset) {
    return requant_float(static_cast<float>(acc) * m, lo, hi, offset);
}
// Requantizes count int32 sums with per-channel multipliers (stride 1).
void requantize_row(const int32_t* acc, const float* m, int count, const Requantization& r, int8_t* out) {
    const QRq rq = requant_params(r);
    for (int i = 0; i < count; ++i) out[i] = requant_one(acc[i], m[i], rq.lo, rq.hi, rq.offset);
}

template <typename T>
void quantize_any(const float* x, T* y, size_t count, float scale, int zp, int qmin, int qmax) {
    const float lo = static_cast<float>(qmin - zp), hi = static_cast<float>(qmax - zp);
    const int32_t offset = zp - kMagicBits;
    EMBARK_STREAM_LOOP
    for (size_t i = 0; i < count; ++i) {
        const float v = x[i] / scale;
        // NaN saturates to 0 (as the reference), not to the zero point.
        const int32_t q = v != v ? 0 : static_cast<int32_t>(static_cast<uint32_t>(requant_float(v, lo, hi, offset)) & 0xFF);
        y[i] = static_cast<T>(q);
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
        std::free(static_cast<void*>(indirection));
        std::memcpy(static_cast<void*>(this), &o, sizeof(QConv2D));
        o.storage = nullptr;
        o.indirection = nullptr;
        o.indirection_input = nullptr;
        o.weights = nullptr;
        o.bias = nullptr;
        o.multipliers = nullptr;
        o.zero = nullptr;
    }
    return *this;
}
QConv2D::~QConv2D() {
    std::free(storage);
    std::free(static_cast<void*>(indirection));
}

namespace {

// The GEMM register tile of the non-depthwise convolutions (see quant.h).
#if defined(__clang__) && defined(__riscv_vector)
// RVV: 2 pixels x 32 channels of int32 = two LMUL-8 groups at VLEN 128, the k step's 32
// weights one more (pre-widened to int32 at pack time): per k one weight load and two
// vmacc.vx (64 multiply-adds; the float 6 x 16 tile needs six vfmacc for 96). int16 weights
// with a widening multiply-accumulate came out of Clang 19 as vwmul.vx + vadd.vv through an
// LMUL-8 temporary (a vsetvli pair per pixel), and 3 pixels spilled every k step.
#  define EMBARK_QGEMM_OUTER 1
constexpr int kQMR = 2, kQNR = 32, kQKAlign = 1;
#else
// Dot products over k: 16 int32 sums (4 pixels x 4 channels) in one k loop, which GCC
// vectorizes as one reduction per sum (sdot on Arm's dot product extension: 16 multiply-adds
// per instruction) and reduces after the loop. k is padded to 16 (zero weights and inputs), so
// the vector loop has no remainder.
#  define EMBARK_QGEMM_OUTER 0
constexpr int kQMR = 4, kQNR = 4, kQKAlign = 16;
#endif

// RVV depthwise: fixed-width channel loops of int32 at LMUL 8, 4, 2, 1 (as depthwise.cpp).
#if defined(__clang__) && defined(__riscv_vector)
#  define EMBARK_QDW_RVV 1
#  define EMBARK_QDW_TUNE __attribute__((target("tune=xiangshan-nanhu")))
#  if EMBARK_VLEN_BITS >= 256
constexpr int kQdwLanes = 8; // int32 per vector register
#  else
constexpr int kQdwLanes = 4;
#  endif
#else
#  define EMBARK_QDW_RVV 0
#  define EMBARK_QDW_TUNE
#endif

void build_patch(const QConv2D& op, const int8_t* input, int64_t p, int8_t* dst) {
    const int cg = op.in_c / op.groups;
    const int64_t n = p / (static_cast<int64_t>(op.out_h) * op.out_w);
    const int oy = static_cast<int>(p / op.out_w % op.out_h), ox = static_cast<int>(p % op.out_w);
    const int ix0 = ox * op.stride_w - op.pad_left;
    // One group, no horizontal dilation: a kernel row inside the input is kernel_w * C
    // contiguous bytes (one copy instead of one per tap: the 3-channel stems).
    const bool whole_rows = op.groups == 1 && op.dilation_w == 1 && ix0 >= 0 && ix0 + op.kernel_w <= op.in_w;
    for (int ky = 0; ky < op.kernel_h; ++ky) {
        const int iy = oy * op.stride_h - op.pad_top + ky * op.dilation_h;
        if (whole_rows && iy >= 0 && iy < op.in_h) {
            std::memcpy(dst + static_cast<size_t>(ky) * op.kernel_w * cg, input + ((n * op.in_h + iy) * op.in_w + ix0) * op.in_c,
                        static_cast<size_t>(op.kernel_w) * cg);
            continue;
        }
        for (int kx = 0; kx < op.kernel_w; ++kx) {
            const int ix = ix0 + kx * op.dilation_w;
            const int t = ky * op.kernel_w + kx;
            const bool inside = iy >= 0 && iy < op.in_h && ix >= 0 && ix < op.in_w;
            const int8_t* src = inside ? input + ((n * op.in_h + iy) * op.in_w + ix) * op.in_c : op.zero;
            for (int g = 0; g < op.groups; ++g)
                std::memcpy(dst + static_cast<size_t>(g) * op.kp + static_cast<size_t>(t) * cg, src + g * cg,
                            static_cast<size_t>(cg));
        }
    }
}

const int8_t* direct_row(const QConv2D& op, const int8_t* input, int64_t p) {
    const int64_t n = p / (static_cast<int64_t>(op.out_h) * op.out_w);
    const int oy = static_cast<int>(p / op.out_w % op.out_h), ox = static_cast<int>(p % op.out_w);
    return input + ((n * op.in_h + static_cast<int64_t>(oy) * op.stride_h) * op.in_w + static_cast<int64_t>(ox) * op.stride_w) * op.in_c;
}

#if EMBARK_QGEMM_OUTER
// c[m][n] = requantized(bias[n] + sum_k rows[m][k] * w[k][n]); w is [kp][NR] int32.
template <int MR, int NR>
[[gnu::noinline]] void qgemm_tile(int kp, const int8_t* const* rows, const int32_t* __restrict w,
                                  const int32_t* __restrict bias, const float* __restrict mult, int8_t* c,
                                  size_t c_stride, int m_valid, int n_valid, QRq rq) {
    int32_t acc[MR][NR];
    for (int m = 0; m < MR; ++m)
        EMBARK_Q_CHANNEL_LOOP(NR)
        for (int n = 0; n < NR; ++n) acc[m][n] = bias[n];
    const int8_t* a[MR];
    for (int m = 0; m < MR; ++m) a[m] = rows[m];
    EMBARK_Q_K_LOOP
    for (int k = 0; k < kp; ++k) {
        const int32_t* __restrict wk = w + static_cast<size_t>(k) * NR;
#pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) {
            const int32_t x = a[m][k];
            EMBARK_Q_CHANNEL_LOOP(NR)
            for (int n = 0; n < NR; ++n) acc[m][n] += x * wk[n];
        }
    }
    const float lo = rq.lo, hi = rq.hi;
    const int32_t offset = rq.offset;
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) {
        if (m >= m_valid) break;
        int8_t tile[NR];
        int8_t* __restrict dst = n_valid == NR ? c + m * c_stride : tile;
        EMBARK_Q_CHANNEL_LOOP(NR)
        for (int n = 0; n < NR; ++n) dst[n] = requant_one(acc[m][n], mult[n], lo, hi, offset);
        if (n_valid != NR) std::memcpy(c + m * c_stride, tile, static_cast<size_t>(n_valid));
    }
}
using QWeight = int32_t;
#else
// c[m][n] = requantized(bias[n] + sum_k rows[m][k] * w[n][k]); w is [NR][kp] int8, kp % 16 == 0.
template <int MR, int NR>
[[gnu::noinline]] void qgemm_tile(int kp, const int8_t* const* rows, const int8_t* __restrict w,
                                  const int32_t* __restrict bias, const float* __restrict mult, int8_t* c,
                                  size_t c_stride, int m_valid, int n_valid, QRq rq) {
    kp &= ~(kQKAlign - 1); // a no-op that tells the vectorizer there is no remainder loop
    int32_t s[MR][NR];
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m)
#pragma GCC unroll 16
        for (int n = 0; n < NR; ++n) s[m][n] = 0;
    const int8_t* __restrict a[MR];
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) a[m] = rows[m];
    const int8_t* __restrict wn[NR];
#pragma GCC unroll 16
    for (int n = 0; n < NR; ++n) wn[n] = w + static_cast<size_t>(n) * kp;
    for (int k = 0; k < kp; ++k) {
#pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) {
            const int32_t x = a[m][k];
#pragma GCC unroll 8
            for (int n = 0; n < NR; ++n) s[m][n] += x * static_cast<int32_t>(wn[n][k]);
        }
    }
    // Requantized with constant indices (the sums stay in registers), then stored.
    int8_t tile[MR][NR];
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m)
#pragma GCC unroll 16
        for (int n = 0; n < NR; ++n) tile[m][n] = requant_one(s[m][n] + bias[n], mult[n], rq.lo, rq.hi, rq.offset);
    if (n_valid == NR) {
        for (int m = 0; m < m_valid; ++m) std::memcpy(c + m * c_stride, tile[m], NR);
    } else {
        for (int m = 0; m < m_valid; ++m) std::memcpy(c + m * c_stride, tile[m], static_cast<size_t>(n_valid));
    }
}
using QWeight = int8_t;
#endif

// A tile of m_valid pixels on the instantiation of that size (the last tile of a layer, and
// the single row of a fully connected layer, do no wasted work).
template <int NR>
inline void qgemm_tile_any(int kp, const int8_t* const* rows, const QWeight* w, const int32_t* bias, const float* mult,
                           int8_t* c, size_t c_stride, int m_valid, int n_valid, QRq rq) {
    switch (m_valid) {
    case 1: qgemm_tile<1, NR>(kp, rows, w, bias, mult, c, c_stride, 1, n_valid, rq); return;
    case 2:
        if constexpr (kQMR >= 2) qgemm_tile<kQMR >= 2 ? 2 : 1, NR>(kp, rows, w, bias, mult, c, c_stride, 2, n_valid, rq);
        return;
    case 3:
        if constexpr (kQMR >= 3) qgemm_tile<kQMR >= 3 ? 3 : 1, NR>(kp, rows, w, bias, mult, c, c_stride, 3, n_valid, rq);
        return;
    default: qgemm_tile<kQMR, NR>(kp, rows, w, bias, mult, c, c_stride, m_valid, n_valid, rq); return;
    }
}

void qconv2d_gemm(const QConv2D& op, const int8_t* input, int8_t* output, ThreadPool* pool) {
    constexpr int MR = kQMR, NR = kQNR;
    const int cg = op.in_c / op.groups, mg = op.out_c / op.groups, M = op.out_c;
    const int kp = op.kp, panels = op.panels;
    const int64_t pixels = static_cast<int64_t>(op.batch) * op.out_h * op.out_w;
    const int64_t tiles = (pixels + MR - 1) / MR;
    const QRq rq = requant_params(op.out);
    const auto* w = static_cast<const QWeight*>(op.weights);
    const size_t patch = static_cast<size_t>(op.groups) * kp;
    run_parts(pool, tiles, [&](int64_t begin, int64_t end) {
        std::vector<int8_t> patches(op.direct ? 0 : MR * patch, int8_t(0));
        for (int64_t tile = begin; tile < end; ++tile) {
            const int64_t p0 = tile * MR;
            const int m_valid = static_cast<int>(std::min<int64_t>(MR, pixels - p0));
            const int8_t* base[MR];
            if (op.direct && op.stride_h == 1 && op.stride_w == 1) { // the input's pixels, in order
                for (int m = 0; m < MR; ++m) base[m] = input + (p0 + std::min(m, m_valid - 1)) * op.in_c;
            } else if (op.direct) {
                for (int m = 0; m < MR; ++m) base[m] = direct_row(op, input, p0 + std::min(m, m_valid - 1));
            } else {
                for (int m = 0; m < m_valid; ++m) build_patch(op, input, p0 + m, patches.data() + m * patch);
                for (int m = 0; m < MR; ++m) base[m] = patches.data() + std::min(m, m_valid - 1) * patch;
            }
            int8_t* out = output + p0 * M;
            for (int g = 0; g < op.groups; ++g) {
                const int8_t* rows[MR];
                const size_t shift = op.direct ? static_cast<size_t>(g) * cg : static_cast<size_t>(g) * kp;
                for (int m = 0; m < MR; ++m) rows[m] = base[m] + shift;
                for (int panel = 0; panel < panels; ++panel) {
                    const size_t at = static_cast<size_t>(g) * panels + panel;
                    const int n_valid = std::min(NR, mg - panel * NR);
                    qgemm_tile_any<NR>(kp, rows, w + at * NR * kp, op.bias + at * NR, op.multipliers + at * NR,
                                       out + g * mg + panel * NR, static_cast<size_t>(M), m_valid, n_valid, rq);
                }
            }
        }
    });
}

// ----- Depthwise ------------------------------------------------------------------------------

void build_depthwise_indirection(const QConv2D& op, const int8_t* input) {
    const int taps = op.kernel_h * op.kernel_w;
    const int64_t pixels = static_cast<int64_t>(op.batch) * op.out_h * op.out_w;
    for (int64_t p = 0; p < pixels; ++p) {
        const int64_t n = p / (static_cast<int64_t>(op.out_h) * op.out_w);
        const int oy = static_cast<int>(p / op.out_w % op.out_h), ox = static_cast<int>(p % op.out_w);
        for (int ky = 0; ky < op.kernel_h; ++ky) {
            const int iy = oy * op.stride_h - op.pad_top + ky * op.dilation_h;
            for (int kx = 0; kx < op.kernel_w; ++kx) {
                const int ix = ox * op.stride_w - op.pad_left + kx * op.dilation_w;
                const bool inside = iy >= 0 && iy < op.in_h && ix >= 0 && ix < op.in_w;
                op.indirection[p * taps + ky * op.kernel_w + kx] =
                    inside ? input + ((n * op.in_h + iy) * op.in_w + ix) * op.in_c : op.zero;
            }
        }
    }
    op.indirection_input = input;
}

#if EMBARK_QDW_RVV
#  define EMBARK_QDW_LOOP(width) \
      EMBARK_Q_PRAGMA(clang loop vectorize(assume_safety) vectorize_width(width) interleave_count(1) unroll(disable))
#  define EMBARK_QDW_TAPS EMBARK_Q_PRAGMA(clang loop unroll(full))
#elif defined(__GNUC__)
#  define EMBARK_QDW_LOOP(width) _Pragma("GCC ivdep")
#  define EMBARK_QDW_TAPS _Pragma("GCC unroll 32")
#else
#  define EMBARK_QDW_LOOP(width)
#  define EMBARK_QDW_TAPS
#endif

// Channels [c0, c1) of one pixel: all taps, then the requantization, in one vector loop.
#define EMBARK_QDW_CHANNELS(width)                                                                 \
    EMBARK_QDW_LOOP(width)                                                                         \
    for (int c = c0; c < c1; ++c) {                                                                \
        int32_t acc = bias[c];                                                                     \
        EMBARK_QDW_TAPS                                                                            \
        for (int t = 0; t < TAPS; ++t) acc += static_cast<int32_t>(x[t][c]) * static_cast<int32_t>(wt[t][c]); \
        out[c] = requant_one(acc, mult[c], rq.lo, rq.hi, rq.offset);                               \
    }

template <int TAPS, int kLmul>
[[gnu::always_inline]] inline void qdw_channels(const int8_t* const* x, const int16_t* const* wt,
                                                const int32_t* __restrict bias, const float* __restrict mult,
                                                int8_t* __restrict out, int c0, int c1, const QRq& rq) {
#if EMBARK_QDW_RVV
    if constexpr (kLmul == 8) {
        EMBARK_QDW_CHANNELS(kQdwLanes * 8)
    } else if constexpr (kLmul == 4) {
        EMBARK_QDW_CHANNELS(kQdwLanes * 4)
    } else if constexpr (kLmul == 2) {
        EMBARK_QDW_CHANNELS(kQdwLanes * 2)
    } else if constexpr (kLmul == 1) {
        EMBARK_QDW_CHANNELS(kQdwLanes)
    } else {
        for (int c = c0; c < c1; ++c) {
            int32_t acc = bias[c];
            for (int t = 0; t < TAPS; ++t) acc += static_cast<int32_t>(x[t][c]) * static_cast<int32_t>(wt[t][c]);
            out[c] = requant_one(acc, mult[c], rq.lo, rq.hi, rq.offset);
        }
    }
#else
    (void)kLmul;
    EMBARK_QDW_CHANNELS(0)
#endif
}

// One pixel's channels: whole vectors, then the last vector recomputed over the final channels
// (a pure function of the inputs, so the overlap writes the same bytes), or narrower vectors
// when there are fewer channels than one.
template <int TAPS, int kLmul = 8>
[[gnu::always_inline]] inline void qdw_pixel(const int8_t* const* x, const int16_t* const* wt, const int32_t* bias,
                                             const float* mult, int8_t* out, int channels, const QRq& rq) {
#if EMBARK_QDW_RVV
    constexpr int vl = kLmul * kQdwLanes;
    if (channels < vl) {
        if constexpr (kLmul > 1) qdw_pixel<TAPS, kLmul / 2>(x, wt, bias, mult, out, channels, rq);
        else qdw_channels<TAPS, 0>(x, wt, bias, mult, out, 0, channels, rq);
        return;
    }
    const int main = channels - channels % vl;
    qdw_channels<TAPS, kLmul>(x, wt, bias, mult, out, 0, main, rq);
    if (main != channels) qdw_channels<TAPS, kLmul>(x, wt, bias, mult, out, channels - vl, channels, rq);
#else
    qdw_channels<TAPS, kLmul>(x, wt, bias, mult, out, 0, channels, rq);
#endif
}

template <int TAPS>
[[gnu::noinline]] EMBARK_QDW_TUNE void qdw_pixels(const QConv2D& op, int64_t begin, int64_t end, int8_t* output) {
    const int channels = op.out_c;
    const auto* w = static_cast<const int16_t*>(op.weights);
    const QRq rq = requant_params(op.out);
    for (int64_t p = begin; p < end; ++p) {
        const int8_t* const* rows = op.indirection + p * TAPS;
        const int8_t* x[TAPS];
        const int16_t* wt[TAPS];
        for (int t = 0; t < TAPS; ++t) {
            x[t] = rows[t];
            wt[t] = w + static_cast<size_t>(t) * channels;
        }
        qdw_pixel<TAPS>(x, wt, op.bias, op.multipliers, output + p * channels, channels, rq);
    }
}

// Any other tap count: taps outside, channels inside, through an int32 row.
void qdw_pixels_any(const QConv2D& op, int64_t begin, int64_t end, int8_t* output) {
    const int channels = op.out_c, taps = op.kernel_h * op.kernel_w;
    const auto* w = static_cast<const int16_t*>(op.weights);
    const QRq rq = requant_params(op.out);
    std::vector<int32_t> sums(static_cast<size_t>(channels));
    int32_t* __restrict acc = sums.data();
    for (int64_t p = begin; p < end; ++p) {
        const int8_t* const* rows = op.indirection + p * taps;
        for (int c = 0; c < channels; ++c) acc[c] = op.bias[c];
        for (int t = 0; t < taps; ++t) {
            const int8_t* __restrict px = rows[t];
            const int16_t* __restrict wt = w + static_cast<size_t>(t) * channels;
            for (int c = 0; c < channels; ++c) acc[c] += static_cast<int32_t>(px[c]) * static_cast<int32_t>(wt[c]);
        }
        int8_t* __restrict out = output + p * channels;
        for (int c = 0; c < channels; ++c) out[c] = requant_one(acc[c], op.multipliers[c], rq.lo, rq.hi, rq.offset);
    }
}

void qconv2d_depthwise(const QConv2D& op, const int8_t* input, int8_t* output, ThreadPool* pool) {
    if (op.indirection_input != input) build_depthwise_indirection(op, input);
    const int taps = op.kernel_h * op.kernel_w;
    const int64_t pixels = static_cast<int64_t>(op.batch) * op.out_h * op.out_w;
    run_parts(pool, pixels, [&](int64_t begin, int64_t end) {
        if (taps == 9) qdw_pixels<9>(op, begin, end, output);
        else if (taps == 25) qdw_pixels<25>(op, begin, end, output);
        else qdw_pixels_any(op, begin, end, output);
    });
}

template <typename T>
T* carve(unsigned char*& cursor, size_t count) {
    T* at = reinterpret_cast<T*>(cursor);
    cursor += (count * sizeof(T) + 63) / 64 * 64;
    return at;
}

} // namespace

QConv2D pack_qconv2d(const Conv2DShape& s, int out_h, int out_w, const int8_t* w, const int32_t* bias,
                     const float* multipliers, int x_zero_point, Requantization out) {
    if (s.groups < 1 || s.in_c % s.groups || s.out_c % s.groups)
        throw std::invalid_argument("pack_qconv2d: channels do not divide into groups");
    if (out_h < 1 || out_w < 1 || s.kernel_h < 1 || s.kernel_w < 1 || s.stride_h < 1 || s.stride_w < 1)
        throw std::invalid_argument("pack_qconv2d: empty output or kernel");
    QConv2D op;
    op.batch = s.batch, op.in_h = s.in_h, op.in_w = s.in_w, op.in_c = s.in_c;
    op.out_h = out_h, op.out_w = out_w, op.out_c = s.out_c;
    op.kernel_h = s.kernel_h, op.kernel_w = s.kernel_w, op.stride_h = s.stride_h, op.stride_w = s.stride_w;
    op.dilation_h = s.dilation_h, op.dilation_w = s.dilation_w, op.pad_top = s.pad_top, op.pad_left = s.pad_left;
    op.groups = s.groups, op.x_zero_point = x_zero_point, op.out = out;
    const int cg = s.in_c / s.groups, mg = s.out_c / s.groups, taps = s.kernel_h * s.kernel_w, M = s.out_c;
    op.depthwise = cg == 1 && mg == 1;
    auto weight = [&](int o, int c, int t) -> int32_t {
        return w[(static_cast<size_t>(o) * cg + c) * taps + t];
    };
    // The zero point folded into the bias: padded taps read x_zero_point, so every tap adds
    // x * w and the sum minus x_zero_point * sum(w) is the reference's sum of (x - zp) * w.
    auto folded_bias = [&](int o) -> int32_t {
        int64_t sum = 0;
        for (int c = 0; c < cg; ++c)
            for (int t = 0; t < taps; ++t) sum += weight(o, c, t);
        return static_cast<int32_t>(static_cast<int64_t>(bias ? bias[o] : 0) - static_cast<int64_t>(x_zero_point) * sum);
    };
    const int64_t pixels = static_cast<int64_t>(s.batch) * out_h * out_w;
    size_t channels = 0, weight_bytes = 0;
    if (op.depthwise) {
        channels = static_cast<size_t>(M);
        weight_bytes = static_cast<size_t>(taps) * M * sizeof(int16_t);
    } else {
        op.kp = (taps * cg + kQKAlign - 1) / kQKAlign * kQKAlign;
        op.panels = (mg + kQNR - 1) / kQNR;
        channels = static_cast<size_t>(s.groups) * op.panels * kQNR;
        weight_bytes = channels * op.kp * sizeof(QWeight);
        op.direct = taps == 1 && s.pad_top == 0 && s.pad_left == 0 && (out_h - 1) * s.stride_h < s.in_h &&
                    (out_w - 1) * s.stride_w < s.in_w && op.kp == cg;
    }
    const size_t bytes = weight_bytes + channels * (sizeof(int32_t) + sizeof(float)) + static_cast<size_t>(s.in_c) + 4 * 64;
    op.storage = std::calloc(1, bytes);
    if (!op.storage) throw std::bad_alloc();
    auto* cursor = static_cast<unsigned char*>(op.storage);
    op.weights = carve<unsigned char>(cursor, weight_bytes);
    op.bias = carve<int32_t>(cursor, channels);
    op.multipliers = carve<float>(cursor, channels);
    op.zero = carve<int8_t>(cursor, static_cast<size_t>(s.in_c));
    std::memset(op.zero, x_zero_point, static_cast<size_t>(s.in_c));
    if (op.depthwise) {
        auto* pw = static_cast<int16_t*>(op.weights);
        for (int o = 0; o < M; ++o) {
            for (int t = 0; t < taps; ++t) pw[static_cast<size_t>(t) * M + o] = static_cast<int16_t>(weight(o, 0, t));
            op.bias[o] = folded_bias(o);
            op.multipliers[o] = multipliers[o];
        }
        op.indirection = static_cast<const int8_t**>(std::calloc(static_cast<size_t>(pixels) * taps, sizeof(int8_t*)));
        if (!op.indirection) throw std::bad_alloc();
        return op;
    }
    auto* pw = static_cast<QWeight*>(op.weights);
    for (int g = 0; g < s.groups; ++g)
        for (int panel = 0; panel < op.panels; ++panel) {
            const size_t at = static_cast<size_t>(g) * op.panels + panel;
            QWeight* dst = pw + at * kQNR * op.kp;
            for (int n = 0; n < kQNR; ++n) {
                const int co = panel * kQNR + n;
                if (co >= mg) break;
                const int o = g * mg + co;
                op.bias[at * kQNR + n] = folded_bias(o);
                op.multipliers[at * kQNR + n] = multipliers[o];
                for (int t = 0; t < taps; ++t)
                    for (int c = 0; c < cg; ++c) {
                        const int k = t * cg + c;
#if EMBARK_QGEMM_OUTER
                        dst[static_cast<size_t>(k) * kQNR + n] = static_cast<QWeight>(weight(o, c, t));
#else
                        dst[static_cast<size_t>(n) * op.kp + k] = static_cast<QWeight>(weight(o, c, t));
#endif
                    }
            }
        }
    return op;
}

void qconv2d(const QConv2D& op, const int8_t* input, int8_t* output, ThreadPool* pool) {
    if (op.depthwise) qconv2d_depthwise(op, input, output, pool);
    else qconv2d_gemm(op, input, output, pool);
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
    const QRq rq = requant_params(p.out);
    const int za = p.a_zero_point, zb = p.b_zero_point;
    const float sa = p.a_scale, sb = p.b_scale, sy = p.y_scale;
    const int64_t blocks = static_cast<int64_t>((count + 4095) / 4096);
    run_parts(count > 65536 ? pool : nullptr, blocks, [&](int64_t begin, int64_t end) {
        // Locals: an int8 store may alias the lambda's captures, which GCC then reloads per
        // element (the loop ran scalar on aarch64: 36 instructions per element).
        const int8_t* pa = a;
        const int8_t* pb = b;
        int8_t* py = y;
        const int zpa = za, zpb = zb;
        const float fsa = sa, fsb = sb, fsy = sy, lo = rq.lo, hi = rq.hi;
        const int32_t offset = rq.offset;
        const size_t first = static_cast<size_t>(begin) * 4096, last = std::min(count, static_cast<size_t>(end) * 4096);
        EMBARK_STREAM_LOOP
        for (size_t i = first; i < last; ++i) {
            const float fa = static_cast<float>(pa[i] - zpa) * fsa;
            const float fb = static_cast<float>(pb[i] - zpb) * fsb;
            py[i] = requant_float((fa + fb) / fsy, lo, hi, offset);
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
    // NCHW <-> NHWC (a quantized model's input and output layout conversions): per batch a
    // [a][b] -> [b][a] transpose, a few instructions per byte instead of the generic walk's ~30.
    if (rank == 4 && perm[0] == 0 && ((perm[1] == 2 && perm[2] == 3 && perm[3] == 1) || (perm[1] == 3 && perm[2] == 1 && perm[3] == 2))) {
        const bool to_last = perm[1] == 2; // NCHW -> NHWC: a = C, b = H * W
        const int64_t a = to_last ? dims[1] : dims[1] * dims[2], b = to_last ? dims[2] * dims[3] : dims[3];
        for (int64_t n = 0; n < dims[0]; ++n) {
            const unsigned char* s = src + n * a * b;
            unsigned char* d = dst + n * a * b;
            for (int64_t j = 0; j < b; ++j)
                for (int64_t i = 0; i < a; ++i) d[j * a + i] = s[i * b + j];
        }
        return;
    }
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

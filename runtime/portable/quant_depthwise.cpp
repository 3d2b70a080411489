// Int8 depthwise convolutions (quant.h, dispatched by qconv2d in quant_conv.cpp): through a
// [pixel][tap] indirection, all taps and the requantization in one channel loop. The
// arithmetic matches core/reference/quantized_fused.cpp exactly; see quant.h.
#if defined(__clang__)
#  pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#  pragma GCC optimize("fp-contract=off")
#endif

#include "quant_kernels.h"
#include "quant_x86.h"            // EMBARK_QGEMM_X86: x86-64 AVX2 depthwise (intrinsics)
#include "quant_depthwise_neon.h" // aarch64 + dotprod, 16 channels or more (EMBARK_QDW_NEONDOT)
#include "quant_gemm_rvv.h"       // RVV: store_requantized

#include <cstdlib>
#include <vector>

namespace embark::portable::quant_detail {
namespace {

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
#if EMBARK_QDW_RVV
#  define EMBARK_QDW_LOOP(width)                                                                                       \
    EMBARK_Q_PRAGMA(clang loop vectorize(assume_safety) vectorize_width(width) interleave_count(1) unroll(disable))
#  define EMBARK_QDW_TAPS EMBARK_Q_PRAGMA(clang loop unroll(full))
#elif defined(__clang__) // which has no ivdep; assume_safety says the same
#  define EMBARK_QDW_LOOP(width) _Pragma("clang loop vectorize(assume_safety)")
#  define EMBARK_QDW_TAPS _Pragma("GCC unroll 32")
#elif defined(__GNUC__)
#  define EMBARK_QDW_LOOP(width) _Pragma("GCC ivdep")
#  define EMBARK_QDW_TAPS _Pragma("GCC unroll 32")
#else
#  define EMBARK_QDW_LOOP(width)
#  define EMBARK_QDW_TAPS
#endif

// Channels [c0, c1) of one pixel: all taps, then the requantization, in one vector loop.
#define EMBARK_QDW_CHANNELS(width)                                                                                     \
  EMBARK_QDW_LOOP(width)                                                                                               \
  for (int c = c0; c < c1; ++c) {                                                                                      \
    int32_t acc = bias[c];                                                                                             \
    EMBARK_QDW_TAPS                                                                                                    \
    for (int t = 0; t < TAPS; ++t) acc += static_cast<int32_t>(x[t][c]) * static_cast<int32_t>(wt[t][c]);              \
    out[c] = requant_one(acc, mult[c], rq.lo, rq.hi, rq.offset);                                                       \
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
        if constexpr (kLmul > 1)
            qdw_pixel<TAPS, kLmul / 2>(x, wt, bias, mult, out, channels, rq);
        else
            qdw_channels<TAPS, 0>(x, wt, bias, mult, out, 0, channels, rq);
        return;
    }
    const int main = channels - channels % vl;
    qdw_channels<TAPS, kLmul>(x, wt, bias, mult, out, 0, main, rq);
    if (main != channels) qdw_channels<TAPS, kLmul>(x, wt, bias, mult, out, channels - vl, channels, rq);
#else
    qdw_channels<TAPS, kLmul>(x, wt, bias, mult, out, 0, channels, rq);
#endif
}

#if EMBARK_QDW_RVV && EMBARK_QGEMM_RVV
// Two output pixels of a 9-tap layer at once, in vsetvl strips of int32 sums at LMUL 8 (as
// depthwise.cpp's float pair): each tap's int16 weights are loaded once for both pixels, and the
// per-pixel set-up (the taps' pointers, the strip loop's start) is paid once per pair. Per tap and
// pixel: the input bytes, their sign extension to int16 and one vwmacc.vv. The requantization is
// quant_gemm_rvv.h's store_requantized (requant_one, byte for byte). 28 of the 32 vector registers: the two sums
// (16), the weights and an extended input (8), the two pixels' input bytes (4).
[[gnu::always_inline]] inline void qdw_pair9_rvv(const int8_t* const* r0, const int8_t* const* r1,
                                                 const int16_t* __restrict w, const int32_t* __restrict bias,
                                                 const float* __restrict mult, int8_t* __restrict o0,
                                                 int8_t* __restrict o1, int channels, const QRq& rq) {
    const int8_t* x0[9];
    const int8_t* x1[9];
    for (int t = 0; t < 9; ++t) {
        x0[t] = r0[t];
        x1[t] = r1[t];
    }
    const size_t tap_stride = static_cast<size_t>(channels);
    for (size_t c = 0, left = static_cast<size_t>(channels); left > 0;) {
        const size_t vl = __riscv_vsetvl_e32m8(left);
        vint32m8_t a0 = __riscv_vle32_v_i32m8(bias + c, vl);
        vint32m8_t a1 = a0;
        const int16_t* wt = w + c;
        EMBARK_Q_PRAGMA(clang loop unroll(full))
        for (int t = 0; t < 9; ++t) {
            const vint8m2_t b0 = __riscv_vle8_v_i8m2(x0[t] + c, vl);
            const vint8m2_t b1 = __riscv_vle8_v_i8m2(x1[t] + c, vl);
            const vint16m4_t k = __riscv_vle16_v_i16m4(wt, vl);
            a0 = __riscv_vwmacc_vv_i32m8(a0, __riscv_vsext_vf2_i16m4(b0, vl), k, vl);
            a1 = __riscv_vwmacc_vv_i32m8(a1, __riscv_vsext_vf2_i16m4(b1, vl), k, vl);
            wt += tap_stride;
        }
        const vfloat32m8_t m = __riscv_vle32_v_f32m8(mult + c, vl);
        rvv::store_requantized<8>(o0 + c, a0, m, rq, vl);
        rvv::store_requantized<8>(o1 + c, a1, m, rq, vl);
        c += vl;
        left -= vl;
    }
}

// Two horizontally adjacent output pixels of a 3x3 layer of stride 1 (the caller checks that
// the second pixel's first two columns are the first's last two, by pointer): each kernel row
// reads four input vectors, not six (the middle two serve both pixels), so 12 byte loads and
// sign extensions per strip where qdw_pair9_rvv takes 18. Same sums in the same order per
// pixel as qdw_pair9_rvv (int32 additions: the order does not change the bytes).
[[gnu::always_inline]] inline void qdw_row_pair9_rvv(const int8_t* const* r0, const int8_t* const* r1,
                                                     const int16_t* __restrict w, const int32_t* __restrict bias,
                                                     const float* __restrict mult, int8_t* __restrict o0,
                                                     int8_t* __restrict o1, int channels, const QRq& rq) {
    const int8_t* x[12]; // per kernel row: the first pixel's three columns, then the second's last
    for (int ky = 0; ky < 3; ++ky) {
        x[4 * ky] = r0[3 * ky];
        x[4 * ky + 1] = r0[3 * ky + 1];
        x[4 * ky + 2] = r0[3 * ky + 2];
        x[4 * ky + 3] = r1[3 * ky + 2];
    }
    const size_t tap_stride = static_cast<size_t>(channels);
    for (size_t c = 0, left = static_cast<size_t>(channels); left > 0;) {
        const size_t vl = __riscv_vsetvl_e32m8(left);
        vint32m8_t a0 = __riscv_vle32_v_i32m8(bias + c, vl);
        vint32m8_t a1 = a0;
        const int16_t* wt = w + c;
        auto in = [&](int i) { return __riscv_vsext_vf2_i16m4(__riscv_vle8_v_i8m2(x[i] + c, vl), vl); };
        EMBARK_Q_PRAGMA(clang loop unroll(full))
        for (int ky = 0; ky < 3; ++ky) {
            const vint16m4_t k0 = __riscv_vle16_v_i16m4(wt, vl);
            a0 = __riscv_vwmacc_vv_i32m8(a0, in(4 * ky), k0, vl);
            vint16m4_t xb = in(4 * ky + 1);
            a1 = __riscv_vwmacc_vv_i32m8(a1, xb, k0, vl);
            const vint16m4_t k1 = __riscv_vle16_v_i16m4(wt + tap_stride, vl);
            a0 = __riscv_vwmacc_vv_i32m8(a0, xb, k1, vl);
            xb = in(4 * ky + 2);
            a1 = __riscv_vwmacc_vv_i32m8(a1, xb, k1, vl);
            const vint16m4_t k2 = __riscv_vle16_v_i16m4(wt + 2 * tap_stride, vl);
            a0 = __riscv_vwmacc_vv_i32m8(a0, xb, k2, vl);
            a1 = __riscv_vwmacc_vv_i32m8(a1, in(4 * ky + 3), k2, vl);
            wt += 3 * tap_stride;
        }
        const vfloat32m8_t m = __riscv_vle32_v_f32m8(mult + c, vl);
        rvv::store_requantized<8>(o0 + c, a0, m, rq, vl);
        rvv::store_requantized<8>(o1 + c, a1, m, rq, vl);
        c += vl;
        left -= vl;
    }
}

// Whether output pixel r1 (9 taps) is r0's right neighbour at stride 1: its kernel's first two
// columns are r0's last two (equal pointers read equal bytes, padding included).
inline bool row_neighbours9(const int8_t* const* r0, const int8_t* const* r1) {
    return r1[0] == r0[1] && r1[1] == r0[2] && r1[3] == r0[4] && r1[4] == r0[5] && r1[6] == r0[7] && r1[7] == r0[8];
}
#endif

template <int TAPS>
[[gnu::noinline]] EMBARK_QDW_TUNE void qdw_pixels(const QConv2D& op, int64_t begin, int64_t end, int8_t* output) {
    const int channels = op.out_c;
    const auto* w = static_cast<const int16_t*>(op.weights);
    const QRq rq = requant_params(op.out);
    int64_t p = begin;
#if EMBARK_QDW_RVV && EMBARK_QGEMM_RVV
    if constexpr (TAPS == 9)
        for (; p + 2 <= end; p += 2) {
            const int8_t* const* r0 = op.indirection + p * TAPS;
            const int8_t* const* r1 = r0 + TAPS;
            if (row_neighbours9(r0, r1))
                qdw_row_pair9_rvv(r0, r1, w, op.bias, op.multipliers, output + p * channels,
                                  output + (p + 1) * channels, channels, rq);
            else
                qdw_pair9_rvv(r0, r1, w, op.bias, op.multipliers, output + p * channels, output + (p + 1) * channels,
                              channels, rq);
        }
#endif
    for (; p < end; ++p) {
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
#if defined(EMBARK_QDW_NEONDOT)
template <int TAPS>
[[gnu::noinline]] void qdw_neon_pixels(const QConv2D& op, int64_t begin, int64_t end, int8_t* output) {
    const int channels = op.out_c, taps = op.kernel_h * op.kernel_w;
    const auto* w = static_cast<const int8_t*>(op.weights);
    const int zp = op.out.zero_point, lo = op.out.out_min, hi = op.out.out_max;
    int64_t p = begin;
    for (; p + 2 <= end; p += 2) // two pixels at a time (shared weight loads)
        neondot::dw_pixels<TAPS, 2>(op.indirection + p * taps, op.indirection + (p + 1) * taps, taps, w, op.bias,
                                    op.multipliers, output + p * channels, output + (p + 1) * channels, channels, zp,
                                    lo, hi);
    if (p < end)
        neondot::dw_pixels<TAPS, 1>(op.indirection + p * taps, nullptr, taps, w, op.bias, op.multipliers,
                                    output + p * channels, nullptr, channels, zp, lo, hi);
}
#endif
} // namespace

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
void qconv2d_depthwise(const QConv2D& op, const int8_t* input, int8_t* output, ThreadPool* pool) {
    if (op.indirection_input != input) build_depthwise_indirection(op, input);
    const int taps = op.kernel_h * op.kernel_w;
    const int64_t pixels = static_cast<int64_t>(op.batch) * op.out_h * op.out_w;
#if defined(EMBARK_QDW_NEONDOT)
    if (op.out_c >= neondot::kDwMinChannels) {
        run_parts(pool, pixels, [&](int64_t begin, int64_t end) {
            if (taps == 9)
                qdw_neon_pixels<9>(op, begin, end, output);
            else if (taps == 25)
                qdw_neon_pixels<25>(op, begin, end, output);
            else
                qdw_neon_pixels<0>(op, begin, end, output);
        });
        return;
    }
#endif
    run_parts(pool, pixels, [&](int64_t begin, int64_t end) {
#if EMBARK_QGEMM_X86
        x86q::depthwise(op, begin, end, output);
        return;
#endif
        if (taps == 9)
            qdw_pixels<9>(op, begin, end, output);
        else if (taps == 25)
            qdw_pixels<25>(op, begin, end, output);
        else
            qdw_pixels_any(op, begin, end, output);
    });
}
} // namespace embark::portable::quant_detail

// The int8 GEMM register tile of QConv2D (quant_conv.cpp) on aarch64 with the dot product
// extension (Armv8.2-A+dotprod: Cortex-A76 / -mcpu=cortex-a76, Apple M1, ...), in XNNPACK's
// "4x16c4" form. Included by quant_conv.cpp only; elsewhere (aarch64 without dotprod too) the
// plain C++ tile of quant_conv.cpp runs.
//
// NEON intrinsics here because C++ cannot say "4-way int8 dot product by lane": the weights of
// a panel of 16 output channels are packed [kp / 4][16][4] (4 consecutive k of one channel
// side by side), so one sdot by lane (vdotq_laneq_s32) multiplies 4 k of one pixel (a lane of
// its 16-byte input vector) with 4 k of 4 channels and accumulates into those 4 channels'
// int32 sums: no horizontal sums. A tile is 4 pixels x 16 channels = 16 q registers of
// accumulators, 4 of inputs and 4 of weights; per 16 k it retires 16 weight loads, 4 input
// loads and 64 sdot (1024 multiply-adds).
//
// Requantization (quant.h's arithmetic, byte for byte): float(acc) * m in float32, then
// rounded half to even to int32 (fcvtns; saturating beyond int32), narrowed to int16 with
// saturation, + zero point (saturating), narrowed to int8 with saturation and clamped to
// [out_min, out_max]. The reference clamps the float to [out_min - zp, out_max - zp] first and
// rounds after; both bounds are integers and every step is monotonic, so clamping before or
// after the rounding and the saturations gives the same byte.
#pragma once

#if defined(__aarch64__) && defined(__ARM_FEATURE_DOTPROD)
#  define EMBARK_QGEMM_NEONDOT 1
#  include <arm_neon.h>

#  include <algorithm>
#  include <cstddef>
#  include <cstdint>
#  include <cstring>
#  include <vector>

#  include "portable.h"
#  include "quant_kernels.h" // the rows layout (kernel_rows)

namespace embark::portable::quant_detail::neondot {

constexpr int kMR = 4, kNR = 16, kKAlign = 4;

// Index of weight (channel n of the panel, k) in a panel of kNR channels x kp.
constexpr size_t weight_index(int n, int k) {
    return static_cast<size_t>(k / 4) * (kNR * 4) + static_cast<size_t>(n) * 4 + static_cast<size_t>(k % 4);
}

// One group of 4 k: 64 bytes of weights at w, lane L of each pixel's input vector x0..x3, into
// the accumulators a<pixel><channel quad> of the MR pixels (named variables: an array of them
// made GCC keep the tile on the stack between the loops), one weight vector at a time.
#  define EMBARK_QNEON_CHANNELS(j, L, w, x0, x1, x2, x3)                                                               \
    do {                                                                                                               \
      const int8x16_t w_ = vld1q_s8(w);                                                                                \
      a0##j = vdotq_laneq_s32(a0##j, w_, x0, L);                                                                       \
      if constexpr (MR > 1) a1##j = vdotq_laneq_s32(a1##j, w_, x1, L);                                                 \
      if constexpr (MR > 2) a2##j = vdotq_laneq_s32(a2##j, w_, x2, L);                                                 \
      if constexpr (MR > 3) a3##j = vdotq_laneq_s32(a3##j, w_, x3, L);                                                 \
    } while (0)
#  define EMBARK_QNEON_DOT4(L, w, x0, x1, x2, x3)                                                                      \
    do {                                                                                                               \
      EMBARK_QNEON_CHANNELS(0, L, (w), x0, x1, x2, x3);                                                                \
      EMBARK_QNEON_CHANNELS(1, L, (w) + 16, x0, x1, x2, x3);                                                           \
      EMBARK_QNEON_CHANNELS(2, L, (w) + 32, x0, x1, x2, x3);                                                           \
      EMBARK_QNEON_CHANNELS(3, L, (w) + 48, x0, x1, x2, x3);                                                           \
    } while (0)

[[gnu::always_inline]] inline int8x16_t load4(const int8_t* p) {
    int32_t v;
    std::memcpy(&v, p, sizeof v);
    return vreinterpretq_s8_s32(vdupq_n_s32(v));
}

// 16 sums of one pixel requantized to 16 bytes.
[[gnu::always_inline]] inline int8x16_t requantize16(int32x4_t s0, int32x4_t s1, int32x4_t s2, int32x4_t s3,
                                                     float32x4_t m0, float32x4_t m1, float32x4_t m2, float32x4_t m3,
                                                     int16x8_t zp, int8x16_t lo, int8x16_t hi) {
    const int32x4_t r0 = vcvtnq_s32_f32(vmulq_f32(vcvtq_f32_s32(s0), m0));
    const int32x4_t r1 = vcvtnq_s32_f32(vmulq_f32(vcvtq_f32_s32(s1), m1));
    const int32x4_t r2 = vcvtnq_s32_f32(vmulq_f32(vcvtq_f32_s32(s2), m2));
    const int32x4_t r3 = vcvtnq_s32_f32(vmulq_f32(vcvtq_f32_s32(s3), m3));
    const int16x8_t h01 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(r0), r1), zp);
    const int16x8_t h23 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(r2), r3), zp);
    const int8x16_t b = vqmovn_high_s16(vqmovn_s16(h01), h23);
    return vminq_s8(vmaxq_s8(b, lo), hi);
}

struct Out {
    int8_t* c;     // the tile's first output byte
    size_t stride; // bytes between pixels
    int m_valid;   // pixels to store (rows past it repeat a valid one)
    int channels;  // output channels of the group (the last panel may be partial)
    int zero_point, out_min, out_max;
};

// c[m][n] = requantized(bias[n] + sum_k x_m[k] * w[k][n]) for the MR pixels (m < m_valid
// stored) and every panel of 16 channels of the group in turn. A pixel's patch x_m is
// `segments` pieces of seg_len bytes (seg_len % 4 == 0): piece s of pixel m at rows[s * 4 + m]
// (a 1x1 convolution: one piece, the pixel's channels; a row-indirect one: a kernel row each).
// Pixels past m_valid repeat a valid one. The panels' weights (packed by weight_index), bias
// and mult follow each other. kOver: every piece may be read 16 bytes at a time past its end
// (up to the next multiple of 16; weights are zero there), so the last 4, 8 or 12 k take one
// load per pixel instead of one per 4 k.
template <int MR, bool kOver>
[[gnu::always_inline]] inline void tile(int segments, int seg_len, const int8_t* const* rows,
                                        const int8_t* __restrict w, const int32_t* __restrict bias,
                                        const float* __restrict mult, int8_t* c, size_t stride, int m_valid,
                                        int channels, int zero_point, int out_min, int out_max) {
    for (int n0 = 0; n0 < channels; n0 += kNR, bias += kNR, mult += kNR, c += kNR) {
        const int32x4_t b0 = vld1q_s32(bias), b1 = vld1q_s32(bias + 4), b2 = vld1q_s32(bias + 8),
                        b3 = vld1q_s32(bias + 12);
        int32x4_t a00 = b0, a01 = b1, a02 = b2, a03 = b3, a10 = b0, a11 = b1, a12 = b2, a13 = b3;
        int32x4_t a20 = b0, a21 = b1, a22 = b2, a23 = b3, a30 = b0, a31 = b1, a32 = b2, a33 = b3;
        for (int sg = 0; sg < segments; ++sg) {
            const int8_t* r0 = rows[sg * 4];
            const int8_t* r1 = rows[sg * 4 + (MR > 1 ? 1 : 0)];
            const int8_t* r2 = rows[sg * 4 + (MR > 2 ? 2 : 0)];
            const int8_t* r3 = rows[sg * 4 + (MR > 3 ? 3 : 0)];
            int k = seg_len;
            for (; k >= 16; k -= 16) {
                const int8x16_t x0 = vld1q_s8(r0);
                const int8x16_t x1 = MR > 1 ? vld1q_s8(r1) : x0, x2 = MR > 2 ? vld1q_s8(r2) : x0,
                                x3 = MR > 3 ? vld1q_s8(r3) : x0;
                r0 += 16, r1 += 16, r2 += 16, r3 += 16;
                EMBARK_QNEON_DOT4(0, w, x0, x1, x2, x3);
                EMBARK_QNEON_DOT4(1, w + 64, x0, x1, x2, x3);
                EMBARK_QNEON_DOT4(2, w + 128, x0, x1, x2, x3);
                EMBARK_QNEON_DOT4(3, w + 192, x0, x1, x2, x3);
                w += 256;
            }
            if constexpr (kOver) {
                if (k > 0) {
                    const int8x16_t x0 = vld1q_s8(r0);
                    const int8x16_t x1 = MR > 1 ? vld1q_s8(r1) : x0, x2 = MR > 2 ? vld1q_s8(r2) : x0;
                    const int8x16_t x3 = MR > 3 ? vld1q_s8(r3) : x0;
                    EMBARK_QNEON_DOT4(0, w, x0, x1, x2, x3);
                    if (k > 4) EMBARK_QNEON_DOT4(1, w + 64, x0, x1, x2, x3);
                    if (k > 8) EMBARK_QNEON_DOT4(2, w + 128, x0, x1, x2, x3);
                    w += k * 16;
                }
            } else {
                for (; k > 0; k -= 4) {
                    const int8x16_t x0 = load4(r0);
                    const int8x16_t x1 = MR > 1 ? load4(r1) : x0, x2 = MR > 2 ? load4(r2) : x0,
                                    x3 = MR > 3 ? load4(r3) : x0;
                    EMBARK_QNEON_DOT4(0, w, x0, x1, x2, x3);
                    r0 += 4, r1 += 4, r2 += 4, r3 += 4;
                    w += 64;
                }
            }
        }
        // The requantization constants made here, not kept in registers through the k loop.
        const int16x8_t zp = vdupq_n_s16(static_cast<int16_t>(zero_point));
        const int8x16_t lo = vdupq_n_s8(static_cast<int8_t>(out_min)), hi = vdupq_n_s8(static_cast<int8_t>(out_max));
        const float32x4_t m0 = vld1q_f32(mult), m1 = vld1q_f32(mult + 4), m2 = vld1q_f32(mult + 8),
                          m3 = vld1q_f32(mult + 12);
        int8x16_t y[4];
        y[0] = requantize16(a00, a01, a02, a03, m0, m1, m2, m3, zp, lo, hi);
        if constexpr (MR > 1) y[1] = requantize16(a10, a11, a12, a13, m0, m1, m2, m3, zp, lo, hi);
        if constexpr (MR > 2) y[2] = requantize16(a20, a21, a22, a23, m0, m1, m2, m3, zp, lo, hi);
        if constexpr (MR > 3) y[3] = requantize16(a30, a31, a32, a33, m0, m1, m2, m3, zp, lo, hi);
        if (channels - n0 >= kNR && m_valid == MR) {
            vst1q_s8(c, y[0]);
            if constexpr (MR > 1) vst1q_s8(c + stride, y[1]);
            if constexpr (MR > 2) vst1q_s8(c + 2 * stride, y[2]);
            if constexpr (MR > 3) vst1q_s8(c + 3 * stride, y[3]);
        } else {
            int8_t tile[MR][kNR];
            for (int i = 0; i < MR; ++i) vst1q_s8(tile[i], y[i]);
            const size_t n = static_cast<size_t>(std::min(kNR, channels - n0));
            for (int i = 0; i < m_valid; ++i) std::memcpy(c + i * stride, tile[i], n);
        }
    }
}

// One tile of MR pixels of a 1x1 patch: rows[m] (rows past o.m_valid repeat a valid one).
template <int MR>
[[gnu::noinline]] void qgemm_panels(int kp, const int8_t* const* rows, const int8_t* w, const int32_t* bias,
                                    const float* mult, const Out& o) {
    tile<MR, false>(1, kp, rows, w, bias, mult, o.c, o.stride, o.m_valid, o.channels, o.zero_point, o.out_min,
                    o.out_max);
}

// `pixels` pixels whose rows follow each other every x_stride bytes from x (a 1x1 convolution
// of stride 1, or a fully connected layer), outputs every o.stride bytes from o.c: tiles of 4
// pixels (1 for a last single one) in one call. x has `x_end` readable bytes after x.
[[gnu::noinline]] inline void qgemm_rows(int kp, const int8_t* x, size_t x_stride, int64_t pixels, int64_t x_end,
                                         const int8_t* w, const int32_t* bias, const float* mult, const Out& o) {
    int8_t* c = o.c;
    const size_t stride = o.stride;
    const int channels = o.channels;
    // Tiles whose 4th row can be read 16 bytes at a time to its end rounded up to 16.
    const int64_t over = (static_cast<int64_t>(kp) + 15) / 16 * 16;
    for (int64_t p = 0; p < pixels; p += kMR, x += kMR * x_stride, c += kMR * stride, x_end -= kMR * x_stride) {
        const int m_valid = static_cast<int>(std::min<int64_t>(kMR, pixels - p));
        const int8_t* rows[4] = {x, x + x_stride, x + 2 * x_stride, x + 3 * x_stride};
        if (m_valid == kMR) {
            if (3 * static_cast<int64_t>(x_stride) + over <= x_end)
                tile<kMR, true>(1, kp, rows, w, bias, mult, c, stride, kMR, channels, o.zero_point, o.out_min,
                                o.out_max);
            else
                tile<kMR, false>(1, kp, rows, w, bias, mult, c, stride, kMR, channels, o.zero_point, o.out_min,
                                 o.out_max);
        } else if (m_valid == 1) {
            tile<1, false>(1, kp, rows, w, bias, mult, c, stride, 1, channels, o.zero_point, o.out_min, o.out_max);
        } else {
            rows[3] = rows[2] = x + std::min(2, m_valid - 1) * x_stride;
            tile<kMR, false>(1, kp, rows, w, bias, mult, c, stride, m_valid, channels, o.zero_point, o.out_min,
                             o.out_max);
        }
    }
}

// ----- Row-indirect convolutions ------------------------------------------------------------
// Kernels other than a 1x1 read in place in quant_kernels.h's rows layout (rows_layout(),
// kernel_rows()): a pixel's patch is kernel_h pointers to kernel rows, no copy.

// Output pixels [p_begin, p_end) of a row-indirect QConv2D (packed with the layout above).
[[gnu::noinline]] inline void qconv_rows(const QConv2D& op, const int8_t* input, int8_t* output, int64_t p_begin,
                                         int64_t p_end) {
    const int kh = op.kernel_h, M = op.out_c, len = op.kp / kh;
    const int len16 = (len + 15) / 16 * 16;                       // bytes of every row the tile may read
    std::vector<const int8_t*> rows(static_cast<size_t>(4) * kh); // pixel m's row ky at ky * 4 + m
    const auto* w = static_cast<const int8_t*>(op.weights);
    KernelRowsWalker walker(op, input, p_begin, len16, kMR);
    for (int64_t p0 = p_begin; p0 < p_end; p0 += kMR) {
        const int m_valid = static_cast<int>(std::min<int64_t>(kMR, p_end - p0));
        walker.next(m_valid, kMR, rows.data(), 4, 1);
        int8_t* c = output + p0 * M;
        if (m_valid == 1)
            tile<1, true>(kh, len, rows.data(), w, op.bias, op.multipliers, c, static_cast<size_t>(M), 1, M,
                          op.out.zero_point, op.out.out_min, op.out.out_max);
        else
            tile<kMR, true>(kh, len, rows.data(), w, op.bias, op.multipliers, c, static_cast<size_t>(M), m_valid, M,
                            op.out.zero_point, op.out.out_min, op.out.out_max);
    }
}

#  undef EMBARK_QNEON_DOT4
#  undef EMBARK_QNEON_CHANNELS

} // namespace embark::portable::quant_detail::neondot
#endif

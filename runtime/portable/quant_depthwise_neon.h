// The int8 depthwise convolution of QConv2D (quant_depthwise.cpp) on aarch64 with the dot
// product extension, for 16 channels or more (fewer: the plain C++ loop). Included by
// quant_conv.cpp (packing) and quant_depthwise.cpp (the kernel) only.
//
// Taps go 4 at a time through sdot: the 16-byte input vectors of 4 taps (16 channels each) are
// interleaved by two rounds of zips into [channel][4 taps] (4 vectors of 4 channels), and one
// sdot (vdotq_s32) per 4 channels multiplies them with weights packed the same way. Per 4 taps
// and 16 channels: 4 input loads, 8 zips, 4 weight loads, 4 sdot (the int16 multiply-adds of
// the C++ loop need 9 instructions per tap). The taps left over (9 = 4 + 4 + 1) take a
// widening multiply (int8 x int8 -> int16, exact) and widening adds into the int32 sums.
// Weights: [taps / 4][M][4] int8, then [taps % 4][M] int8 (channel-major inside a group, so a
// block of 16 channels can start at any channel: the last block of a pixel overlaps the one
// before when M % 16 != 0, and recomputes the same bytes). Requantization: quant_gemm_neon.h.
#pragma once

#include "quant_gemm_neon.h"

#if defined(EMBARK_QGEMM_NEONDOT)
#  define EMBARK_QDW_NEONDOT 1

namespace embark::portable::quant_detail::neondot {

constexpr int kDwMinChannels = 16;

// Index of the weight of channel c, tap t in the packed depthwise weights of M channels.
inline size_t dw_weight_index(int c, int t, int taps, int M) {
    const int full = taps / 4 * 4;
    if (t < full) return static_cast<size_t>(t / 4) * M * 4 + static_cast<size_t>(c) * 4 + static_cast<size_t>(t % 4);
    return static_cast<size_t>(full) * M + static_cast<size_t>(t - full) * M + static_cast<size_t>(c);
}

// 4 taps (from tap t0 of the tap rows x) of 16 channels at c into the sums a0..a3: the inputs
// interleaved to [channel][4 taps] by two rounds of zips, one sdot per 4 channels with the
// weights w0..w3.
#  define EMBARK_QDW_GROUP(x, t0, c, a0, a1, a2, a3, w0, w1, w2, w3)                                                   \
    do {                                                                                                               \
      const int8x16_t x0_ = vld1q_s8((x)[(t0)] + (c)), x1_ = vld1q_s8((x)[(t0) + 1] + (c));                            \
      const int8x16_t x2_ = vld1q_s8((x)[(t0) + 2] + (c)), x3_ = vld1q_s8((x)[(t0) + 3] + (c));                        \
      const int16x8_t p01lo_ = vreinterpretq_s16_s8(vzip1q_s8(x0_, x1_));                                              \
      const int16x8_t p01hi_ = vreinterpretq_s16_s8(vzip2q_s8(x0_, x1_));                                              \
      const int16x8_t p23lo_ = vreinterpretq_s16_s8(vzip1q_s8(x2_, x3_));                                              \
      const int16x8_t p23hi_ = vreinterpretq_s16_s8(vzip2q_s8(x2_, x3_));                                              \
      a0 = vdotq_s32(a0, vreinterpretq_s8_s16(vzip1q_s16(p01lo_, p23lo_)), w0);                                        \
      a1 = vdotq_s32(a1, vreinterpretq_s8_s16(vzip2q_s16(p01lo_, p23lo_)), w1);                                        \
      a2 = vdotq_s32(a2, vreinterpretq_s8_s16(vzip1q_s16(p01hi_, p23hi_)), w2);                                        \
      a3 = vdotq_s32(a3, vreinterpretq_s8_s16(vzip2q_s16(p01hi_, p23hi_)), w3);                                        \
    } while (0)
// One tap t of 16 channels at c: widening multiply (exact in int16), widening adds.
#  define EMBARK_QDW_TAP(x, t, c, a0, a1, a2, a3, wv)                                                                  \
    do {                                                                                                               \
      const int8x16_t xv_ = vld1q_s8((x)[(t)] + (c));                                                                  \
      const int16x8_t plo_ = vmull_s8(vget_low_s8(xv_), vget_low_s8(wv)), phi_ = vmull_high_s8(xv_, wv);               \
      a0 = vaddw_s16(a0, vget_low_s16(plo_));                                                                          \
      a1 = vaddw_high_s16(a1, plo_);                                                                                   \
      a2 = vaddw_s16(a2, vget_low_s16(phi_));                                                                          \
      a3 = vaddw_high_s16(a3, phi_);                                                                                   \
    } while (0)

// PX (1 or 2) pixels: out[c] (and out2[c]) for all `channels` (>= 16); x[t] (and x2[t]) the
// input row of tap t at the pixel, w packed as above; two pixels share the loads of weights,
// biases and multipliers. TAPS > 0: a constant tap count, else `taps_any`.
template <int TAPS, int PX>
[[gnu::always_inline]] inline void dw_pixels(const int8_t* const* x, const int8_t* const* x2, int taps_any,
                                             const int8_t* __restrict w, const int32_t* __restrict bias,
                                             const float* __restrict mult, int8_t* out, int8_t* out2, int channels,
                                             int zero_point, int out_min, int out_max) {
    const int taps = TAPS > 0 ? TAPS : taps_any;
    const int groups = taps / 4, full = groups * 4;
    const size_t group_stride = static_cast<size_t>(channels) * 4;
    for (int c = 0;; c += 16) {
        if (c > channels - 16) c = channels - 16; // the last block, overlapping
        int32x4_t a0 = vld1q_s32(bias + c), a1 = vld1q_s32(bias + c + 4);
        int32x4_t a2 = vld1q_s32(bias + c + 8), a3 = vld1q_s32(bias + c + 12);
        int32x4_t b0 = a0, b1 = a1, b2 = a2, b3 = a3;
        const int8_t* wg = w + static_cast<size_t>(c) * 4;
        for (int g = 0; g < groups; ++g, wg += group_stride) {
            const int8x16_t w0 = vld1q_s8(wg), w1 = vld1q_s8(wg + 16), w2 = vld1q_s8(wg + 32), w3 = vld1q_s8(wg + 48);
            EMBARK_QDW_GROUP(x, 4 * g, c, a0, a1, a2, a3, w0, w1, w2, w3);
            if constexpr (PX > 1) EMBARK_QDW_GROUP(x2, 4 * g, c, b0, b1, b2, b3, w0, w1, w2, w3);
        }
        const int8_t* wt = w + static_cast<size_t>(full) * channels + c;
        for (int t = full; t < taps; ++t, wt += channels) {
            const int8x16_t wv = vld1q_s8(wt);
            EMBARK_QDW_TAP(x, t, c, a0, a1, a2, a3, wv);
            if constexpr (PX > 1) EMBARK_QDW_TAP(x2, t, c, b0, b1, b2, b3, wv);
        }
        const int16x8_t zp = vdupq_n_s16(static_cast<int16_t>(zero_point));
        const int8x16_t lo = vdupq_n_s8(static_cast<int8_t>(out_min)), hi = vdupq_n_s8(static_cast<int8_t>(out_max));
        const float32x4_t m0 = vld1q_f32(mult + c), m1 = vld1q_f32(mult + c + 4);
        const float32x4_t m2 = vld1q_f32(mult + c + 8), m3 = vld1q_f32(mult + c + 12);
        vst1q_s8(out + c, requantize16(a0, a1, a2, a3, m0, m1, m2, m3, zp, lo, hi));
        if constexpr (PX > 1) vst1q_s8(out2 + c, requantize16(b0, b1, b2, b3, m0, m1, m2, m3, zp, lo, hi));
        if (c + 16 >= channels) break;
    }
}

#  undef EMBARK_QDW_GROUP
#  undef EMBARK_QDW_TAP

} // namespace embark::portable::quant_detail::neondot
#endif

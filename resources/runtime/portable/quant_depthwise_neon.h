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

// One pixel: out[c] for all `channels` (>= 16); x[t] the input row of tap t (already at the
// pixel), w packed as above. TAPS > 0: a constant tap count, else `taps`.
template <int TAPS>
[[gnu::always_inline]] inline void dw_pixel(const int8_t* const* x, int taps_any, const int8_t* __restrict w,
                                            const int32_t* __restrict bias, const float* __restrict mult,
                                            int8_t* __restrict out, int channels, int16x8_t zp, int8x16_t lo,
                                            int8x16_t hi) {
    const int taps = TAPS > 0 ? TAPS : taps_any;
    const int groups = taps / 4, full = groups * 4;
    const size_t group_stride = static_cast<size_t>(channels) * 4;
    for (int c = 0;; c += 16) {
        if (c > channels - 16) c = channels - 16; // the last block, overlapping
        int32x4_t a0 = vld1q_s32(bias + c), a1 = vld1q_s32(bias + c + 4);
        int32x4_t a2 = vld1q_s32(bias + c + 8), a3 = vld1q_s32(bias + c + 12);
        const int8_t* wg = w + static_cast<size_t>(c) * 4;
        for (int g = 0; g < groups; ++g, wg += group_stride) {
            const int8x16_t x0 = vld1q_s8(x[4 * g] + c), x1 = vld1q_s8(x[4 * g + 1] + c);
            const int8x16_t x2 = vld1q_s8(x[4 * g + 2] + c), x3 = vld1q_s8(x[4 * g + 3] + c);
            const int16x8_t p01lo = vreinterpretq_s16_s8(vzip1q_s8(x0, x1)), p01hi = vreinterpretq_s16_s8(vzip2q_s8(x0, x1));
            const int16x8_t p23lo = vreinterpretq_s16_s8(vzip1q_s8(x2, x3)), p23hi = vreinterpretq_s16_s8(vzip2q_s8(x2, x3));
            a0 = vdotq_s32(a0, vreinterpretq_s8_s16(vzip1q_s16(p01lo, p23lo)), vld1q_s8(wg));
            a1 = vdotq_s32(a1, vreinterpretq_s8_s16(vzip2q_s16(p01lo, p23lo)), vld1q_s8(wg + 16));
            a2 = vdotq_s32(a2, vreinterpretq_s8_s16(vzip1q_s16(p01hi, p23hi)), vld1q_s8(wg + 32));
            a3 = vdotq_s32(a3, vreinterpretq_s8_s16(vzip2q_s16(p01hi, p23hi)), vld1q_s8(wg + 48));
        }
        const int8_t* wt = w + static_cast<size_t>(full) * channels + c;
        for (int t = full; t < taps; ++t, wt += channels) {
            const int8x16_t xv = vld1q_s8(x[t] + c), wv = vld1q_s8(wt);
            const int16x8_t plo = vmull_s8(vget_low_s8(xv), vget_low_s8(wv)), phi = vmull_high_s8(xv, wv);
            a0 = vaddw_s16(a0, vget_low_s16(plo));
            a1 = vaddw_high_s16(a1, plo);
            a2 = vaddw_s16(a2, vget_low_s16(phi));
            a3 = vaddw_high_s16(a3, phi);
        }
        const float32x4_t m0 = vld1q_f32(mult + c), m1 = vld1q_f32(mult + c + 4);
        const float32x4_t m2 = vld1q_f32(mult + c + 8), m3 = vld1q_f32(mult + c + 12);
        vst1q_s8(out + c, requantize16(a0, a1, a2, a3, m0, m1, m2, m3, zp, lo, hi));
        if (c + 16 >= channels) break;
    }
}

} // namespace embark::portable::quant_detail::neondot
#endif

// The int8 addition of quant.cpp (qadd) on aarch64 (any: plain NEON), 16 elements at a time.
// Included by quant.cpp only (compiled without floating-point contraction: the products and
// their sum round separately, as in the reference).
//
// Same arithmetic as the C++ loop: (a - za) exactly in int16 (vsubl), then int32 and float,
// times the scale, the two sums added, divided by y_scale (float32 division, as the
// reference); then rounded half to even to int32 (fcvtns), narrowed with saturation, + zero
// point and clamped in int8 (the clamp after the rounding gives the reference's bytes: see
// quant_gemm_neon.h's requantize16). GCC's vectorization of the C++ loop widened int8 to
// int32 in three steps per input and clamped in float.
#pragma once

#if defined(__aarch64__)
#  define EMBARK_QADD_NEON 1
#  include <arm_neon.h>

#  include <cstddef>
#  include <cstdint>

namespace embark::portable::quant_detail::neon {

[[gnu::always_inline]] inline float32x4_t scaled(int16x4_t d, float32x4_t s) {
    return vmulq_f32(vcvtq_f32_s32(vmovl_s16(d)), s);
}

// Elements [i, last) in blocks of 16 while a whole block is left; returns where it stopped.
// za, zb in [-128, 127] (int8 zero points).
inline size_t qadd_blocks(const int8_t* a, const int8_t* b, int8_t* y, size_t i, size_t last, int za, int zb, float sa,
                          float sb, float sy, int zero_point, int out_min, int out_max) {
    const int8x8_t vza = vdup_n_s8(static_cast<int8_t>(za)), vzb = vdup_n_s8(static_cast<int8_t>(zb));
    const float32x4_t vsa = vdupq_n_f32(sa), vsb = vdupq_n_f32(sb), vsy = vdupq_n_f32(sy);
    const int16x8_t zp = vdupq_n_s16(static_cast<int16_t>(zero_point));
    const int8x16_t lo = vdupq_n_s8(static_cast<int8_t>(out_min)), hi = vdupq_n_s8(static_cast<int8_t>(out_max));
    for (; i + 16 <= last; i += 16) {
        const int8x16_t va = vld1q_s8(a + i), vb = vld1q_s8(b + i);
        const int16x8_t da0 = vsubl_s8(vget_low_s8(va), vza), da1 = vsubl_s8(vget_high_s8(va), vza);
        const int16x8_t db0 = vsubl_s8(vget_low_s8(vb), vzb), db1 = vsubl_s8(vget_high_s8(vb), vzb);
        const float32x4_t v0 =
            vdivq_f32(vaddq_f32(scaled(vget_low_s16(da0), vsa), scaled(vget_low_s16(db0), vsb)), vsy);
        const float32x4_t v1 =
            vdivq_f32(vaddq_f32(scaled(vget_high_s16(da0), vsa), scaled(vget_high_s16(db0), vsb)), vsy);
        const float32x4_t v2 =
            vdivq_f32(vaddq_f32(scaled(vget_low_s16(da1), vsa), scaled(vget_low_s16(db1), vsb)), vsy);
        const float32x4_t v3 =
            vdivq_f32(vaddq_f32(scaled(vget_high_s16(da1), vsa), scaled(vget_high_s16(db1), vsb)), vsy);
        const int16x8_t h01 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(vcvtnq_s32_f32(v0)), vcvtnq_s32_f32(v1)), zp);
        const int16x8_t h23 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(vcvtnq_s32_f32(v2)), vcvtnq_s32_f32(v3)), zp);
        vst1q_s8(y + i, vminq_s8(vmaxq_s8(vqmovn_high_s16(vqmovn_s16(h01), h23), lo), hi));
    }
    return i;
}

} // namespace embark::portable::quant_detail::neon
#endif

// Internal to the int8 kernels' source files (quant.h): quant.cpp (quantize, fully connected,
// element-wise, pooling, data movement), quant_conv.cpp (QConv2D: packing, the GEMM register
// tile) and quant_depthwise.cpp. The requantization shared by their hot loops, the loop hints,
// and the depthwise entry points quant_conv.cpp dispatches to. Each source file turns FP
// contraction off before including this (the arithmetic must equal the reference's).
#pragma once

#include "portable.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>

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

namespace embark::portable::quant_detail {

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

inline void run_parts(ThreadPool* pool, int64_t n, const std::function<void(int64_t, int64_t)>& fn) {
    if (pool && pool->threads() > 1 && n > 1) pool->parallel_for(n, fn);
    else fn(0, n);
}

// quant_depthwise.cpp: the [pixel][tap] indirection of a depthwise QConv2D over `input`, and
// the convolution itself (builds the indirection when `input` is not the one it was built for).
void build_depthwise_indirection(const QConv2D& op, const int8_t* input);
void qconv2d_depthwise(const QConv2D& op, const int8_t* input, int8_t* output, ThreadPool* pool);

} // namespace embark::portable::quant_detail

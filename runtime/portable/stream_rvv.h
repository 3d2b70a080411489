// Streaming float loops on RISC-V with the vector extension (RVV 1.0, Clang): element-wise ops,
// activations and the row maximum, strip-mined with vsetvli at LMUL 8 as XNNPACK's RVV kernels
// are. Clang's loop vectorizer uses LMUL 2 for these loops and leaves the last elements of every
// row to scalar code (at LMUL 8 that would be up to 31 at VLEN 128, 63 at VLEN 256: a row of one
// pixel's channels would run mostly scalar); vsetvli takes any length, so there is no scalar
// tail. A strip reads its inputs before it writes, so out may be one of the inputs (in-place).
//
// Every comparison keeps the scalar code's NaN behaviour (compare, then merge; never vfmin/vfmax,
// which drop a NaN operand), except ReLU, where max(v, 0) and v > 0 ? v : 0 agree.
#pragma once

#if defined(__clang__) && defined(__riscv_vector) && defined(__riscv_v_intrinsic) && __riscv_v_intrinsic >= 12000
#  define EMBARK_STREAM_RVV 1
#  include <riscv_vector.h>

#  include <cstddef>

#  include "portable.h"

namespace embark::portable::stream_rvv {

using V = vfloat32m8_t;

// y[i] = f(x[i]) for i < n: whole register groups two at a time (no vsetvli in that loop), then
// the rest.
template <class F>
inline void map(const float* x, float* y, size_t n, F f) {
    const size_t full = __riscv_vsetvlmax_e32m8();
    for (; n >= 2 * full; n -= 2 * full, x += 2 * full, y += 2 * full) {
        __riscv_vse32_v_f32m8(y, f(__riscv_vle32_v_f32m8(x, full), full), full);
        __riscv_vse32_v_f32m8(y + full, f(__riscv_vle32_v_f32m8(x + full, full), full), full);
    }
    for (size_t vl; n > 0; n -= vl, x += vl, y += vl) {
        vl = __riscv_vsetvl_e32m8(n);
        __riscv_vse32_v_f32m8(y, f(__riscv_vle32_v_f32m8(x, vl), vl), vl);
    }
}

// y[i] = f(a[i], b[i]) for i < n, in the same steps.
template <class F>
inline void zip(const float* a, const float* b, float* y, size_t n, F f) {
    const size_t full = __riscv_vsetvlmax_e32m8();
    for (; n >= 2 * full; n -= 2 * full, a += 2 * full, b += 2 * full, y += 2 * full) {
        const V a0 = __riscv_vle32_v_f32m8(a, full), b0 = __riscv_vle32_v_f32m8(b, full);
        __riscv_vse32_v_f32m8(y, f(a0, b0, full), full);
        const V a1 = __riscv_vle32_v_f32m8(a + full, full), b1 = __riscv_vle32_v_f32m8(b + full, full);
        __riscv_vse32_v_f32m8(y + full, f(a1, b1, full), full);
    }
    for (size_t vl; n > 0; n -= vl, a += vl, b += vl, y += vl) {
        vl = __riscv_vsetvl_e32m8(n);
        __riscv_vse32_v_f32m8(y, f(__riscv_vle32_v_f32m8(a, vl), __riscv_vle32_v_f32m8(b, vl), vl), vl);
    }
}

// c ? a : b, lane by lane.
inline V pick(vbool4_t c, V a, V b, size_t vl) { return __riscv_vmerge_vvm_f32m8(b, a, c, vl); }
// c ? s : v.
inline V pick(vbool4_t c, float s, V v, size_t vl) { return __riscv_vfmerge_vfm_f32m8(v, s, c, vl); }

// The activations fused into a loop: v > 0 ? v : 0, and v < lo ? lo : v then v > hi ? hi : v.
inline V relu(V v, size_t vl) { return __riscv_vfmax_vf_f32m8(v, 0.f, vl); }
inline V clamp(V v, float lo, float hi, size_t vl) {
    v = pick(__riscv_vmflt_vf_f32m8_b4(v, lo, vl), lo, v, vl);
    return pick(__riscv_vmfgt_vf_f32m8_b4(v, hi, vl), hi, v, vl);
}

// The activation a register tile applies before its store: Relu or Clamp (any other: none).
template <Act kAct>
inline V activate(V v, float lo, float hi, size_t vl) {
    if constexpr (kAct == Act::Relu) return relu(v, vl);
    if constexpr (kAct == Act::Clamp) return clamp(v, lo, hi, vl);
    return v;
}

inline V leaky_relu(V v, float alpha, size_t vl) { // v >= 0 ? v : v * alpha
    return pick(__riscv_vmfge_vf_f32m8_b4(v, 0.f, vl), v, __riscv_vfmul_vf_f32m8(v, alpha, vl), vl);
}
inline V hard_sigmoid(V v, float alpha, float beta, size_t vl) { // clamp(alpha * v + beta, 0, 1)
    return clamp(__riscv_vfmadd_vf_f32m8(v, alpha, __riscv_vfmv_v_f_f32m8(beta, vl), vl), 0.f, 1.f, vl);
}
inline V hard_swish(V v, size_t vl) { return __riscv_vfmul_vv_f32m8(v, hard_sigmoid(v, 1.f / 6.f, 0.5f, vl), vl); }

} // namespace embark::portable::stream_rvv

#endif

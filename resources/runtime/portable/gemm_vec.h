// The register tile of gemm_ukernel.h written with GCC vector extensions (plain C++ for GCC
// and Clang, no intrinsics), used on 64-bit Arm. GCC 12's vectorizer gives the loop form of
// the tile (gemm_tile) an SLP shape on aarch64: 18 scalar fmadd, lane inserts and the
// accumulators spilled to the stack on every k step: several times the instructions of
// XNNPACK's kernel. Here each accumulator row is NR / 4 named 128-bit vectors, which GCC and
// Clang keep in NEON registers and update with one fmla each.
#pragma once

#include "portable.h"

#include <cstddef>

#if !defined(EMBARK_NO_VECTOR_TILE) && defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#  define EMBARK_VECTOR_TILE 1
#else
#  define EMBARK_VECTOR_TILE 0
#endif

#if EMBARK_VECTOR_TILE
namespace embark::portable::detail {

typedef float vec4f __attribute__((vector_size(16)));
typedef int vec4i __attribute__((vector_size(16)));
inline constexpr int kVecLanes = 4;

[[gnu::always_inline]] inline vec4f vec_load(const float* p) {
    vec4f v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
[[gnu::always_inline]] inline void vec_store(float* p, vec4f v) { __builtin_memcpy(p, &v, sizeof v); }
[[gnu::always_inline]] inline vec4f vec_splat(float x) { return vec4f{x, x, x, x}; }
// Lane-wise select without the vector ?: (whose C++ support differs between compilers).
[[gnu::always_inline]] inline vec4f vec_select(vec4i mask, vec4f a, vec4f b) {
    vec4i ai, bi;
    __builtin_memcpy(&ai, &a, sizeof ai);
    __builtin_memcpy(&bi, &b, sizeof bi);
    const vec4i r = (ai & mask) | (bi & ~mask);
    vec4f out;
    __builtin_memcpy(&out, &r, sizeof out);
    return out;
}
[[gnu::always_inline]] inline vec4f vec_max(vec4f a, vec4f b) { return vec_select(a > b, a, b); }
[[gnu::always_inline]] inline vec4f vec_min(vec4f a, vec4f b) { return vec_select(a < b, a, b); }

// The cheap activations on the tile in registers; false for those applied after the store.
template <int MR, int NV>
[[gnu::always_inline]] inline bool vec_activate(const Activation& act, vec4f (&acc)[MR][NV]) {
    switch (act.kind) {
    case Act::None: return true;
    case Act::Relu: {
        const vec4f zero = vec_splat(0.f);
        for (int m = 0; m < MR; ++m)
            for (int j = 0; j < NV; ++j) acc[m][j] = vec_max(acc[m][j], zero);
        return true;
    }
    case Act::Clamp: {
        const vec4f lo = vec_splat(act.min), hi = vec_splat(act.max);
        for (int m = 0; m < MR; ++m)
            for (int j = 0; j < NV; ++j) acc[m][j] = vec_min(vec_max(acc[m][j], lo), hi);
        return true;
    }
    case Act::LeakyRelu: {
        const vec4f zero = vec_splat(0.f);
        for (int m = 0; m < MR; ++m)
            for (int j = 0; j < NV; ++j) acc[m][j] = vec_select(acc[m][j] >= zero, acc[m][j], acc[m][j] * act.alpha);
        return true;
    }
    case Act::HardSwish: {
        const vec4f zero = vec_splat(0.f), one = vec_splat(1.f);
        for (int m = 0; m < MR; ++m)
            for (int j = 0; j < NV; ++j) {
                const vec4f gate = vec_min(vec_max(acc[m][j] * (1.f / 6.f) + 0.5f, zero), one);
                acc[m][j] *= gate;
            }
        return true;
    }
    default: return false;
    }
}

// Same contract as gemm_tile (gemm_ukernel.h); NR is a multiple of 4.
template <int MR, int NR, bool kPrefetch>
inline void gemm_tile_vec(int taps, int kc, const float* const* rows, int row_stride, size_t offset,
                          const float* __restrict w, const float* __restrict bias, float* c, size_t c_stride,
                          int n_valid, const Activation& act, const char* prefetch, int prefetch_lines) {
    constexpr int NV = NR / kVecLanes;
    static_assert(NR % kVecLanes == 0, "NR must be a multiple of 4");
    vec4f acc[MR][NV];
#pragma GCC unroll 8
    for (int j = 0; j < NV; ++j) {
        const vec4f b = vec_load(bias + j * kVecLanes);
#pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) acc[m][j] = b;
    }
    for (int t = 0; t < taps; ++t) {
        const float* a[MR];
#pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) a[m] = rows[t * row_stride + m] + offset;
        const float* __restrict wk = w + static_cast<size_t>(t) * kc * NR;
        for (int k = 0; k < kc; ++k, wk += NR) {
            if constexpr (kPrefetch)
                if (t == 0)
                    for (int line = k; line < prefetch_lines; line += kc)
                        __builtin_prefetch(prefetch + static_cast<size_t>(line) * 64, 0, 2);
            vec4f wv[NV];
#pragma GCC unroll 8
            for (int j = 0; j < NV; ++j) wv[j] = vec_load(wk + j * kVecLanes);
#pragma GCC unroll 8
            for (int m = 0; m < MR; ++m) {
                const float x = a[m][k];
#pragma GCC unroll 8
                for (int j = 0; j < NV; ++j) acc[m][j] += x * wv[j];
            }
        }
    }
    const bool activated = vec_activate<MR, NV>(act, acc);
    if (n_valid == NR) {
#pragma GCC unroll 8
        for (int m = 0; m < MR; ++m)
#pragma GCC unroll 8
            for (int j = 0; j < NV; ++j) vec_store(c + m * c_stride + j * kVecLanes, acc[m][j]);
    } else {
        float tile[NR];
        for (int m = 0; m < MR; ++m) {
#pragma GCC unroll 8
            for (int j = 0; j < NV; ++j) vec_store(tile + j * kVecLanes, acc[m][j]);
            for (int n = 0; n < n_valid; ++n) c[m * c_stride + n] = tile[n];
        }
    }
    if (!activated)
        for (int m = 0; m < MR; ++m) apply_activation(act, c + m * c_stride, static_cast<size_t>(n_valid));
}

} // namespace embark::portable::detail
#endif

// The register tile of gemm_ukernel.h written with GCC vector extensions (plain C++ for GCC
// and Clang, no intrinsics), used on 64-bit Arm. GCC 12's vectorizer gives the loop form of
// the tile (gemm_tile) an SLP shape on aarch64: 18 scalar fmadd, lane inserts and the
// accumulators spilled to the stack on every k step: several times the instructions of
// XNNPACK's kernel. Here each accumulator row is NR / 4 named 128-bit vectors, which GCC and
// Clang keep in NEON registers and update with one fmla each.
//
// The k loop runs 4 steps at a time as XNNPACK's ld128 kernels do: one 128-bit load brings 4
// input values of a pixel, and each step multiplies by one of its lanes (a lane splat that
// GCC folds into fmla by element), so a k step costs the weight loads and MR * NR / 4 fmla
// only, not MR scalar loads besides. The sums are the same fused multiply-adds in the same
// order as one k step at a time (bit-identical results).
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

// GCC: finite, sign-free zero math for the vector kernels (EMBARK_VECTOR_MATH_ATTRS), so that
// x > lo ? x : lo is MAX_EXPR, one fmaxnm (fminnm for the upper bound): the clamp costs 2
// instructions per vector instead of compare + select twice. For every input other than NaN
// it is the same value (fmaxnm(-0, +0) = +0 = the select's); a NaN sum gives lo, as the select
// did. The GEMM tile (EMBARK_VECTOR_TILE_ATTRS) is also compiled without the first scheduling
// pass: it hoists all weight loads of a k step above the FMAs, and with 24 accumulators and 6
// input vectors that needs more than 32 registers, so GCC spilled accumulators on every step
// (6 x 16: 164 instructions per 4 k steps instead of 116 without it). Kernels with few live
// vectors (depthwise) keep the pass: it is what pairs their loads into ldp.
#  if defined(__GNUC__) && !defined(__clang__)
#    define EMBARK_VECTOR_MATH_ATTRS __attribute__((optimize("finite-math-only", "no-signed-zeros")))
#    define EMBARK_VECTOR_TILE_ATTRS                                                                                   \
      __attribute__((                                                                                                  \
          optimize("no-schedule-insns", "no-tree-loop-distribute-patterns", "finite-math-only", "no-signed-zeros")))
#  else
#    define EMBARK_VECTOR_MATH_ATTRS
#    define EMBARK_VECTOR_TILE_ATTRS
#  endif

[[gnu::always_inline]] inline vec4f vec_load(const float* p) {
    vec4f v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
[[gnu::always_inline]] inline void vec_store(float* p, vec4f v) { __builtin_memcpy(p, &v, sizeof v); }
[[gnu::always_inline]] inline vec4f vec_splat(float x) { return vec4f{x, x, x, x}; }
// Lane L of v in every lane; an FMA with it becomes fmla by element.
template <int L>
[[gnu::always_inline]] inline vec4f vec_lane(vec4f v) {
#  if defined(__clang__)
    return __builtin_shufflevector(v, v, L, L, L, L);
#  else
    return __builtin_shuffle(v, vec4i{L, L, L, L});
#  endif
}
#  if defined(__clang__)
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
#  else
// GCC's vector ?:; fmaxnm / fminnm under EMBARK_VECTOR_TILE_ATTRS.
[[gnu::always_inline]] inline vec4f vec_select(vec4i mask, vec4f a, vec4f b) { return mask ? a : b; }
[[gnu::always_inline]] EMBARK_VECTOR_MATH_ATTRS inline vec4f vec_max(vec4f a, vec4f b) { return a > b ? a : b; }
[[gnu::always_inline]] EMBARK_VECTOR_MATH_ATTRS inline vec4f vec_min(vec4f a, vec4f b) { return a < b ? a : b; }
#  endif

// Stores the tile's first NA vectors of each row as f(vector), n_valid <= NA * 4 channels. A
// remainder goes through a buffer that is copied out only once every accumulator is stored:
// GCC makes the copy a memcpy call, and a call while accumulators are live makes it keep the
// whole tile on the stack on every path.
template <int MR, int NV, int NA, typename F>
[[gnu::always_inline]] EMBARK_VECTOR_TILE_ATTRS inline void vec_store_tile(const vec4f (&acc)[MR][NV], float* c,
                                                                           size_t c_stride, int n_valid, F f) {
    if (n_valid == NA * kVecLanes) {
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m)
#  pragma GCC unroll 8
            for (int j = 0; j < NA; ++j) vec_store(c + m * c_stride + j * kVecLanes, f(acc[m][j]));
        return;
    }
    float tile[MR][NA * kVecLanes];
#  pragma GCC unroll 8
    for (int m = 0; m < MR; ++m)
#  pragma GCC unroll 8
        for (int j = 0; j < NA; ++j) vec_store(tile[m] + j * kVecLanes, f(acc[m][j]));
    for (int m = 0; m < MR; ++m)
        for (int n = 0; n < n_valid; ++n) c[m * c_stride + n] = tile[m][n];
}

// The activation applied on the way out of registers, one case per kind so that each stores
// straight from the accumulators (a shared store after a switch that rewrote them made GCC
// keep the whole tile on the stack). Sigmoid, Tanh and Swish run on the stored rows.
template <int MR, int NV, int NA>
[[gnu::always_inline]] EMBARK_VECTOR_TILE_ATTRS inline void
vec_finish_tile(const vec4f (&acc)[MR][NV], float* c, size_t c_stride, int n_valid, const Activation& act) {
    switch (act.kind) {
    case Act::None: vec_store_tile<MR, NV, NA>(acc, c, c_stride, n_valid, [](vec4f v) { return v; }); return;
    case Act::Relu: {
        const vec4f zero = vec_splat(0.f);
        vec_store_tile<MR, NV, NA>(acc, c, c_stride, n_valid, [zero](vec4f v) { return vec_max(v, zero); });
        return;
    }
    case Act::Clamp: {
        const vec4f lo = vec_splat(act.min), hi = vec_splat(act.max);
        vec_store_tile<MR, NV, NA>(acc, c, c_stride, n_valid,
                                   [lo, hi](vec4f v) { return vec_min(vec_max(v, lo), hi); });
        return;
    }
    case Act::LeakyRelu: {
        const vec4f zero = vec_splat(0.f);
        const float alpha = act.alpha;
        vec_store_tile<MR, NV, NA>(acc, c, c_stride, n_valid,
                                   [zero, alpha](vec4f v) { return vec_select(v >= zero, v, v * alpha); });
        return;
    }
    case Act::HardSwish: {
        const vec4f zero = vec_splat(0.f), one = vec_splat(1.f);
        vec_store_tile<MR, NV, NA>(acc, c, c_stride, n_valid, [zero, one](vec4f v) {
            return v * vec_min(vec_max(v * (1.f / 6.f) + 0.5f, zero), one);
        });
        return;
    }
    default:
        vec_store_tile<MR, NV, NA>(acc, c, c_stride, n_valid, [](vec4f v) { return v; });
        for (int m = 0; m < MR; ++m) apply_activation(act, c + m * c_stride, static_cast<size_t>(n_valid));
        return;
    }
}

// One k step with input lane L of every pixel: the weight vectors in pairs (one ldp each,
// loaded next to their FMAs, so few registers hold weights at a time).
template <int L, int MR, int NV, int NA>
[[gnu::always_inline]] inline void vec_k_step(vec4f (&acc)[MR][NV], const vec4f (&x)[MR], const float* __restrict wk) {
#  pragma GCC unroll 8
    for (int j = 0; j < NA; j += 2) {
        const vec4f w0 = vec_load(wk + j * kVecLanes);
        const vec4f w1 = j + 1 < NA ? vec_load(wk + (j + 1) * kVecLanes) : w0;
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) {
            const vec4f xl = vec_lane<L>(x[m]);
            acc[m][j] += w0 * xl;
            if (j + 1 < NA) acc[m][j + 1] += w1 * xl;
        }
    }
}

// Four k steps from one 128-bit load of each pixel's input (k .. k+3 of rows a), the weights
// of step i at wk + i * NR: the k loops' body in gemm_tile_vec and gemm_panels_vec.
template <int MR, int NV, int NA, int NR>
[[gnu::always_inline]] inline void vec_k_block4(vec4f (&acc)[MR][NV], const float* const (&a)[MR], int k,
                                                const float* __restrict wk) {
    vec4f x[MR];
#  pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) x[m] = vec_load(a[m] + k);
    vec_k_step<0, MR, NV, NA>(acc, x, wk);
    vec_k_step<1, MR, NV, NA>(acc, x, wk + NR);
    vec_k_step<2, MR, NV, NA>(acc, x, wk + 2 * NR);
    vec_k_step<3, MR, NV, NA>(acc, x, wk + 3 * NR);
}

// Same contract as gemm_tile (gemm_ukernel.h); NR is a multiple of 4. Only the first NA of the
// panel's NR / 4 weight vectors are computed (NA * 4 >= n_valid): a remainder panel of 8
// channels (24 = 16 + 8) does not pay for 16.
template <int MR, int NR, bool kPrefetch, int NA = NR / 4>
EMBARK_VECTOR_TILE_ATTRS inline void gemm_tile_vec(int taps, int kc, const float* const* rows, int row_stride,
                                                   size_t offset, const float* __restrict w,
                                                   const float* __restrict bias, float* c, size_t c_stride, int n_valid,
                                                   const Activation& act, const char* prefetch, int prefetch_lines) {
    constexpr int NV = NR / kVecLanes;
    static_assert(NR % kVecLanes == 0, "NR must be a multiple of 4");
    static_assert(NA >= 1 && NA <= NV, "NA must be 1..NR / 4");
    vec4f acc[MR][NV];
#  pragma GCC unroll 8
    for (int j = 0; j < NA; ++j) {
        const vec4f b = vec_load(bias + j * kVecLanes);
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) acc[m][j] = b;
    }
    for (int t = 0; t < taps; ++t) {
        const float* a[MR];
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) a[m] = rows[t * row_stride + m] + offset;
        const float* __restrict wk = w + static_cast<size_t>(t) * kc * NR;
        int k = 0;
        for (; k + kVecLanes <= kc; k += kVecLanes, wk += kVecLanes * NR) {
            if constexpr (kPrefetch)
                if (t == 0)
                    for (int step = k; step < k + kVecLanes; ++step)
                        for (int line = step; line < prefetch_lines; line += kc)
                            __builtin_prefetch(prefetch + static_cast<size_t>(line) * 64, 0, 2);
            vec_k_block4<MR, NV, NA, NR>(acc, a, k, wk);
        }
        for (; k < kc; ++k, wk += NR) {
            if constexpr (kPrefetch)
                if (t == 0)
                    for (int line = k; line < prefetch_lines; line += kc)
                        __builtin_prefetch(prefetch + static_cast<size_t>(line) * 64, 0, 2);
            vec4f x[MR];
#  pragma GCC unroll 8
            for (int m = 0; m < MR; ++m) x[m] = vec_splat(a[m][k]);
            vec_k_step<0, MR, NV, NA>(acc, x, wk);
        }
    }
    vec_finish_tile<MR, NV, NA>(acc, c, c_stride, n_valid, act);
}

// gemm_tile_vec over the vectors that hold the n_valid channels: all of the panel, or its first
// half when the channels fit there.
template <int MR, int NR, bool kPrefetch>
inline void gemm_tile_vec_any(int taps, int kc, const float* const* rows, int row_stride, size_t offset, const float* w,
                              const float* bias, float* c, size_t c_stride, int n_valid, const Activation& act,
                              const char* prefetch, int prefetch_lines) {
    constexpr int NV = NR / kVecLanes;
    if constexpr (NV >= 2 && NV % 2 == 0) {
        if (n_valid <= NR / 2) {
            gemm_tile_vec<MR, NR, kPrefetch, NV / 2>(taps, kc, rows, row_stride, offset, w, bias, c, c_stride, n_valid,
                                                     act, prefetch, prefetch_lines);
            return;
        }
    }
    gemm_tile_vec<MR, NR, kPrefetch>(taps, kc, rows, row_stride, offset, w, bias, c, c_stride, n_valid, act, prefetch,
                                     prefetch_lines);
}

// `panels` whole panels (NR channels each) of one tile of MR pixels and one tap (a 1x1
// convolution or a GEMM) in one call, with kAct (None, Relu or Clamp) in registers: the rows are
// set up and the registers saved once per tile instead of once per panel, as XNNPACK's kernels
// loop over all the output channels of their rows. Panel p reads w + p * panel_stride and
// bias + p * NR and writes c + p * NR. Separate from gemm_tile_vec, whose other activations,
// remainder stores and taps inside a panel loop make GCC 12 spill accumulators in the k loop
// (140 instead of 116 instructions per 4 k steps of 6 x 16); this one runs ~126.
template <int MR, int NR, Act kAct>
[[gnu::noinline]] EMBARK_VECTOR_TILE_ATTRS void
gemm_panels_vec(int kc, const float* const* rows, const float* __restrict w, size_t panel_stride,
                const float* __restrict bias, float* c, size_t c_stride, int panels, float lo_value, float hi_value) {
    constexpr int NV = NR / kVecLanes;
    static_assert(NR % (2 * kVecLanes) == 0, "NR must be a multiple of 8");
    const float* a[MR];
#  pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) a[m] = rows[m];
    for (int p = 0; p < panels; ++p, w += panel_stride, bias += NR, c += NR) {
        vec4f acc[MR][NV];
#  pragma GCC unroll 8
        for (int j = 0; j < NV; ++j) {
            const vec4f b = vec_load(bias + j * kVecLanes);
#  pragma GCC unroll 8
            for (int m = 0; m < MR; ++m) acc[m][j] = b;
        }
        const float* __restrict wk = w;
        int k = 0;
        for (; k + kVecLanes <= kc; k += kVecLanes, wk += kVecLanes * NR) {
            vec_k_block4<MR, NV, NV, NR>(acc, a, k, wk);
        }
        for (; k < kc; ++k, wk += NR) {
            vec4f x[MR];
#  pragma GCC unroll 8
            for (int m = 0; m < MR; ++m) x[m] = vec_splat(a[m][k]);
            vec_k_step<0, MR, NV, NV>(acc, x, wk);
        }
        const vec4f lo = vec_splat(lo_value), hi = vec_splat(hi_value);
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m)
#  pragma GCC unroll 8
            for (int j = 0; j < NV; ++j) {
                vec4f v = acc[m][j];
                if constexpr (kAct == Act::Relu || kAct == Act::Clamp) v = vec_max(v, lo);
                if constexpr (kAct == Act::Clamp) v = vec_min(v, hi);
                vec_store(c + m * c_stride + j * kVecLanes, v);
            }
    }
}

} // namespace embark::portable::detail
#endif

// The register-tiled micro-kernel shared by the convolution, pointwise and fully-connected
// paths: MR input rows (through pointers) x one packed panel of NR output channels.
#pragma once

#include "gemm_vec.h"
#include "portable.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>
#if defined(__AVX__)
#  include <immintrin.h>
#endif

namespace embark::portable::detail {

// Calls fn(std::integral_constant<Act, A>{}) with the activation a kernel applies in registers:
// Relu, Clamp, or None for any other (which the kernel applies to its stored output).
template <typename Fn>
[[gnu::always_inline]] inline void with_register_activation(Act kind, Fn&& fn) {
    switch (kind) {
    case Act::Relu: fn(std::integral_constant<Act, Act::Relu>{}); return;
    case Act::Clamp: fn(std::integral_constant<Act, Act::Clamp>{}); return;
    default: fn(std::integral_constant<Act, Act::None>{}); return;
    }
}

// Clang fully unrolls a constant-length channel loop into scalars before its vectorizer sees it
// (112 scalar FMAs plus spills for a 7x16 tile on RVV). Asking for a vector loop of exactly
// NR lanes and no unrolling makes it keep each accumulator row in one vector register group
// (RVV: one LMUL-4 group at VLEN 128, as XNNPACK's 7x4v kernel). GCC vectorizes the plain
// loops as they are.
#if defined(__clang__)
#  define EMBARK_PRAGMA(x) _Pragma(#  x)
#  define EMBARK_CHANNEL_LOOP(width)                                                                                   \
    EMBARK_PRAGMA(clang loop unroll(disable) vectorize(enable) vectorize_width(width) interleave(disable))
#else
#  define EMBARK_CHANNEL_LOOP(width)
#endif

// RVV (Clang): the k loop of a tile unrolled by 4, so each pixel's four input values are loaded
// from one address with immediate offsets (flw 0/4/8/12) instead of an address add per load
// (RVV has no register+register addressing): 16.25 instead of 21 instructions per k step of a
// 6 x 16 tile. Elsewhere the compilers' own unrolling is kept (GCC 12 on x86 and aarch64 is not
// asked to unroll what it vectorizes).
#if defined(__clang__) && defined(__riscv_vector)
#  define EMBARK_K_LOOP _Pragma("clang loop unroll_count(4)")
#else
#  define EMBARK_K_LOOP
#endif

// A prefetch of one cache line for reading (write 0) or writing (write 1); GCC and Clang only,
// nothing elsewhere.
#if defined(__GNUC__) || defined(__clang__)
#  define EMBARK_PREFETCH(address, write) __builtin_prefetch((address), (write), (write) ? 3 : 2)
#else
#  define EMBARK_PREFETCH(address, write) ((void)(address))
#endif

// Prefetches for writing the cache lines of [address, address + bytes): a kernel run on
// several threads calls it a few pixels ahead of its stores. Arena buffers are reused between
// tensors that the threads split at other addresses, so a store often hits a line another
// core wrote last; its read-for-ownership then waits on that core (~250 ns between two dies of
// a virtual machine) unless it was asked for early. One thread writes its own lines: no call.
inline void prefetch_for_write(const void* address, size_t bytes) {
    const char* p = static_cast<const char*>(address);
    for (size_t b = 0; b < bytes; b += 64) EMBARK_PREFETCH(p + b, 1);
}

// GCC's cost model for tuned aarch64 cores (-mcpu=cortex-a72/a76) declines to vectorize the
// tile and emits 112 scalar fmadd; the tile is always worth vectorizing, so say so.
#if defined(__GNUC__) && !defined(__clang__)
#  define EMBARK_VECTORIZE_ALWAYS __attribute__((optimize("vect-cost-model=unlimited")))
#else
#  define EMBARK_VECTORIZE_ALWAYS
#endif

// Applies the cheap fused activations to the accumulator tile in registers. The switch is
// outside the loops so each case is a plain vector loop, and nothing takes the tile's address
// or indexes it with a run-time bound (either forces the accumulators out of registers).
// Sigmoid, Tanh, Swish and Gelu (vmath.h) are applied to the stored rows (act_after_store).
template <int MR, int NR>
[[gnu::always_inline]] EMBARK_VECTORIZE_ALWAYS inline void activate_tile(const Activation& act, float (&acc)[MR][NR]) {
    switch (act.kind) {
    case Act::None:
    case Act::Sigmoid:
    case Act::Tanh:
    case Act::Swish:
    case Act::Gelu: return;
    case Act::Relu:
        for (int m = 0; m < MR; ++m) EMBARK_CHANNEL_LOOP(NR)
        for (int n = 0; n < NR; ++n) acc[m][n] = acc[m][n] > 0.f ? acc[m][n] : 0.f;
        return;
    case Act::Clamp: {
        const float lo = act.min, hi = act.max;
        for (int m = 0; m < MR; ++m) EMBARK_CHANNEL_LOOP(NR)
        for (int n = 0; n < NR; ++n) {
            const float v = acc[m][n] < lo ? lo : acc[m][n];
            acc[m][n] = v > hi ? hi : v;
        }
        return;
    }
    case Act::LeakyRelu: {
        const float alpha = act.alpha;
        for (int m = 0; m < MR; ++m) EMBARK_CHANNEL_LOOP(NR)
        for (int n = 0; n < NR; ++n) acc[m][n] = acc[m][n] >= 0.f ? acc[m][n] : acc[m][n] * alpha;
        return;
    }
    case Act::HardSwish:
        for (int m = 0; m < MR; ++m) EMBARK_CHANNEL_LOOP(NR)
        for (int n = 0; n < NR; ++n) {
            float gate = acc[m][n] * (1.f / 6.f) + 0.5f;
            gate = gate < 0.f ? 0.f : (gate > 1.f ? 1.f : gate);
            acc[m][n] *= gate;
        }
        return;
    }
}

// c[m][n] = act(bias[n] + sum_t sum_k rows[t][m][k] * w[t][k][n]) for m < MR, n < n_valid.
//
// rows:      [taps][row_stride] pointers; rows[t * row_stride + m] is pixel m's input row for
//            tap t (row_stride >= MR lets a remainder tile read a full tile's indirection).
// offset:    added to every row pointer (the group's first input channel).
// w:         one packed panel [taps][kc][NR]; bias: NR values.
// c:         output of pixel 0, channel 0 of the panel; pixel m at c + m * c_stride.
// prefetch:  with kPrefetch, `prefetch_lines` cache lines from there are prefetched during the
//            first tap, spread over its k steps (data the caller reads next, e.g. its next panel).
//
// Why this shape: the channel loop (n) is innermost and of constant length so it becomes
// full-width vector FMAs; the unrolled pixel loop broadcasts one input value per pixel and
// reuses each weight vector MR times. Unrolling only the pixel loop matters: GCC given a
// different loop to unroll vectorizes across pixels with gathers (far slower).
template <int MR, int NR, bool kPrefetch = false>
EMBARK_VECTORIZE_ALWAYS inline void gemm_tile(int taps, int kc, const float* const* rows, int row_stride, size_t offset,
                                              const float* __restrict w, const float* __restrict bias, float* c,
                                              size_t c_stride, int n_valid, const Activation& act,
                                              const char* prefetch = nullptr, int prefetch_lines = 0) {
    float acc[MR][NR];
    for (int m = 0; m < MR; ++m) EMBARK_CHANNEL_LOOP(NR)
    for (int n = 0; n < NR; ++n) acc[m][n] = bias[n];

    for (int t = 0; t < taps; ++t) {
        const float* a[MR];
        for (int m = 0; m < MR; ++m) a[m] = rows[t * row_stride + m] + offset;
        const float* __restrict wt = w + static_cast<size_t>(t) * kc * NR;
        EMBARK_K_LOOP
        for (int k = 0; k < kc; ++k) {
            if constexpr (kPrefetch)
                if (t == 0)
                    for (int line = k; line < prefetch_lines; line += kc)
                        EMBARK_PREFETCH(prefetch + static_cast<size_t>(line) * 64, 0);
            const float* __restrict wk = wt + static_cast<size_t>(k) * NR;
#pragma GCC unroll 8
            for (int m = 0; m < MR; ++m) {
                const float x = a[m][k];
                EMBARK_CHANNEL_LOOP(NR)
                for (int n = 0; n < NR; ++n) acc[m][n] += x * wk[n];
            }
        }
    }

    activate_tile<MR, NR>(act, acc);
    if (n_valid == NR) {
#pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) {
            float* __restrict out = c + m * c_stride;
            EMBARK_CHANNEL_LOOP(NR)
            for (int n = 0; n < NR; ++n) out[n] = acc[m][n];
        }
    } else {
#if defined(__clang__) && defined(__riscv_vector)
        // A remainder panel on RVV: one masked vector store per pixel (n < n_valid), straight
        // from the accumulators. The copy below stores element by element, which narrow layers
        // at 6 x 32 (VLEN 256) paid for heavily (bench/README.md).
        for (int m = 0; m < MR; ++m) {
            float* out = c + m * c_stride;
            EMBARK_CHANNEL_LOOP(NR)
            for (int n = 0; n < NR; ++n)
                if (n < n_valid) out[n] = acc[m][n];
        }
#else
        // A remainder panel: copy the tile out whole first, so the run-time bound never
        // indexes the accumulators.
        float tile[MR][NR];
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) EMBARK_CHANNEL_LOOP(NR)
        for (int n = 0; n < NR; ++n) tile[m][n] = acc[m][n];
        for (int m = 0; m < MR; ++m)
            for (int n = 0; n < n_valid; ++n) c[m * c_stride + n] = tile[m][n];
#endif
    }
    if (act_after_store(act.kind))
        for (int m = 0; m < MR; ++m) apply_activation(act, c + m * c_stride, static_cast<size_t>(n_valid));
}

// x86: a last panel with at most 16 valid channels runs a 16-wide tile instead of the NR-wide
// one. A 32-wide tile (AVX-512) or a 24-wide one (AVX2) on a 16-channel layer computes 2x or
// 1.5x the FMAs it keeps (MobileNet-V2's 32->16 projection at 112x112, the 16-, 40-, 80- and
// 144-channel layers of MnasNet, EfficientNet and MobileNet-V2). The tile is written with
// generic 16-float vectors (one zmm row, or two ymm): gemm_tile's plain loops with 16 of
// NR-apart weights make GCC 12 vectorize the k loop instead, with gathers (bench/README.md).
#if defined(__AVX__) && (defined(__GNUC__) || defined(__clang__)) && !EMBARK_VECTOR_TILE
#  define EMBARK_NARROW_TILE 1
// Unaligned loads and stores of the x86 tiles' vector types (Narrow, V16, V8), through the
// unaligned-move intrinsics for the build's register widths. Not a pointer cast: Clang ignores
// the aligned(4) of the type alias and emits aligned moves (vmovaps), which fault on rows that
// are not 32- or 64-byte aligned (a Clang-built x86 export crashed in the narrow tile). Not
// memcpy: GCC 12 tuned for AMD Zen 3 (-march=native: znver3) expanded it into two 16-byte stores
// to the stack and read the vector back from there for every FMA (a store-forwarding stall each:
// 1 GFLOP/s in the 4 x 24 AVX2 tile, ResNeXt-50 at 20x ONNX Runtime's time). vload_into, not a
// returning function: GCC warns (-Wpsabi) about returning a vector wider than the registers.
template <typename V>
[[gnu::always_inline]] inline void vload_into(V& v, const float* p) {
#  if defined(__AVX512F__)
    if constexpr (sizeof(V) == 64) {
        v = (V)_mm512_loadu_ps(p);
        return;
    }
#  endif
    if constexpr (sizeof(V) == 32) {
        v = (V)_mm256_loadu_ps(p);
    } else {
        __builtin_memcpy(&v, p, sizeof v);
    }
}
template <typename V>
[[gnu::always_inline]] inline V vload(const float* p) {
    V v;
    vload_into(v, p);
    return v;
}
template <typename V>
[[gnu::always_inline]] inline void vstore(float* p, const V& v) {
#  if defined(__AVX512F__)
    if constexpr (sizeof(V) == 64) {
        _mm512_storeu_ps(p, (__m512)v);
        return;
    }
#  endif
    if constexpr (sizeof(V) == 32) {
        _mm256_storeu_ps(p, (__m256)v);
    } else {
        __builtin_memcpy(p, &v, sizeof v);
    }
}
// The first `count` floats of v to out (all of them with one store).
template <typename V>
[[gnu::always_inline]] inline void store_first(float* out, const V& v, int count) {
    constexpr int kLanes = sizeof(V) / sizeof(float);
    if (count == kLanes) {
        vstore(out, v);
    } else {
        float lanes[kLanes];
        vstore(lanes, v);
        for (int n = 0; n < count; ++n) out[n] = lanes[n];
    }
}

// v under kAct (None, Relu or Clamp; Relu's bound is lo = 0), in place, in registers (by
// reference: GCC warns (-Wpsabi) about passing or returning a 64-byte vector without AVX-512).
template <typename V, Act kAct>
[[gnu::always_inline]] inline void activate_vector(V& v, const V& lo, const V& hi) {
    // The loop form's expressions (activate_tile), so NaN and -0 come out the same.
    if constexpr (kAct == Act::Relu) v = v > lo ? v : lo;
    if constexpr (kAct == Act::Clamp) {
        v = v < lo ? lo : v;
        v = v > hi ? hi : v;
    }
}

// One zmm with AVX-512; one ymm without it. A 16-float generic vector in an AVX2 build is not
// two ymm registers to GCC 12: it moved every lane through the stack and general registers
// (vpinsrq; a 5x5 depthwise layer of 96 channels at 3 GMAC/s, the narrow tile 17-45% of
// MobileNet-V3 and transformer exports on an AVX2-only EPYC).
#  if defined(__AVX512F__)
inline constexpr int kNarrowChannels = 16;
#  else
inline constexpr int kNarrowChannels = 8;
#  endif
using Narrow = float __attribute__((vector_size(kNarrowChannels * sizeof(float)), aligned(4)));

// gemm_tile for channels [0, n_valid) of a panel, n_valid <= kNarrowChannels.
template <int MR, int NR, bool kPrefetch = false>
inline void gemm_tile_narrow(int taps, int kc, const float* const* rows, int row_stride, size_t offset,
                             const float* __restrict w, const float* __restrict bias, float* c, size_t c_stride,
                             int n_valid, const Activation& act, const char* prefetch = nullptr,
                             int prefetch_lines = 0) {
    static_assert(NR >= kNarrowChannels, "the panel holds the narrow tile's channels");
    Narrow acc[MR];
    Narrow b;
    vload_into(b, bias);
#  pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) acc[m] = b;
    for (int t = 0; t < taps; ++t) {
        const float* a[MR];
        for (int m = 0; m < MR; ++m) a[m] = rows[t * row_stride + m] + offset;
        const float* __restrict wt = w + static_cast<size_t>(t) * kc * NR;
        for (int k = 0; k < kc; ++k) {
            if constexpr (kPrefetch)
                if (t == 0)
                    for (int line = k; line < prefetch_lines; line += kc)
                        EMBARK_PREFETCH(prefetch + static_cast<size_t>(line) * 64, 0);
            Narrow wk;
            vload_into(wk, wt + static_cast<size_t>(k) * NR);
#  pragma GCC unroll 8
            for (int m = 0; m < MR; ++m) acc[m] += a[m][k] * wk;
        }
    }
    const Narrow zero = {};
    switch (act.kind) {
    case Act::Relu:
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) acc[m] = acc[m] > zero ? acc[m] : zero;
        break;
    case Act::Clamp: {
        const Narrow lo = zero + act.min, hi = zero + act.max;
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) {
            acc[m] = acc[m] < lo ? lo : acc[m];
            acc[m] = acc[m] > hi ? hi : acc[m];
        }
        break;
    }
    case Act::LeakyRelu:
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) acc[m] = acc[m] >= zero ? acc[m] : acc[m] * act.alpha;
        break;
    case Act::HardSwish:
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) {
            Narrow gate = acc[m] * (1.f / 6.f) + 0.5f;
            gate = gate < zero ? zero : gate;
            gate = gate > zero + 1.f ? zero + 1.f : gate;
            acc[m] *= gate;
        }
        break;
    default: break; // None, and the activations applied after the store
    }
#  pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) store_first(c + m * c_stride, acc[m], n_valid);
    if (act_after_store(act.kind))
        for (int m = 0; m < MR; ++m) apply_activation(act, c + m * c_stride, static_cast<size_t>(n_valid));
}

// x86: panels of a tile with the accumulators in named vector registers (GCC vector
// extensions), the bias loaded straight into them and kAct (None, Relu or Clamp) applied on the
// way out, over `panels` consecutive panels in one call. GCC 12 compiles the loop form
// (gemm_tile) with the tile on the stack between its phases: the bias is copied there and
// reloaded, and the activation and the stores go through it again, which costs most on 1x1
// layers with 16-32 input channels, where a k loop is short (measured in bench/README.md). A tile row is V16 vectors of
// 16 floats (one zmm with AVX-512, two ymm with AVX2) then V8 vectors of 8 (one ymm): a panel of NR = 32 is 2 + 0, NR =
// 24 (AVX2) 1 + 1, and a last panel of 24 channels on AVX-512 (MobileNet-V2's and EfficientNet's 24-channel
// projections) 1 + 1 instead of 32 channels' FMAs, which on a core that splits zmm FMAs into two ymm halves (AMD Zen 4)
// is 3/4 of the time. Only the first n_last channels of the last vector are stored (n_last = its width but in a
// remainder panel). Same fused multiply-adds in the same order as gemm_tile: bit-identical.
//
// The multiply-adds are explicit FMA instructions: GCC's tuning for AMD cores
// (avoid_fma256_chains) turns `acc += x * w` into a multiply and an add wherever the sum is
// carried around a loop in 256-bit vectors, which both rounds differently from the other
// paths and doubles the operations of a throughput-bound tile. Vectors of 16 are used only
// with AVX-512 (without it a tile row is all vectors of 8).
using V16 = float __attribute__((vector_size(16 * sizeof(float)), aligned(4)));
using V8 = float __attribute__((vector_size(8 * sizeof(float)), aligned(4)));
#  if defined(__AVX512F__)
inline constexpr bool kX86Wide = true;
#  else
inline constexpr bool kX86Wide = false;
#  endif

// acc + x * w in one rounding (V8 or, with AVX-512, V16).
template <typename V>
[[gnu::always_inline]] inline V fma_x86(V acc, float x, V w) {
    if constexpr (sizeof(V) == 32) {
#  if defined(__FMA__)
        return (V)_mm256_fmadd_ps(_mm256_set1_ps(x), (__m256)w, (__m256)acc);
#  else
        return acc + x * w;
#  endif
    } else {
#  if defined(__AVX512F__)
        return (V)_mm512_fmadd_ps(_mm512_set1_ps(x), (__m512)w, (__m512)acc);
#  else
        static_assert(sizeof(V) == 32, "vectors of 16 floats only with AVX-512 (kX86Wide)");
        return acc;
#  endif
    }
}

template <int MR, int NR, int A, int B, Act kAct>
[[gnu::noinline]] void gemm_panels_x86(int taps, int kc, const float* const* rows, int row_stride, size_t offset,
                                       const float* __restrict w, size_t panel_stride, const float* __restrict bias,
                                       float* c, size_t c_stride, int panels, int n_last, float lo_value,
                                       float hi_value) {
    static_assert(A >= 0 && B >= 0 && A + B >= 1 && 16 * A + 8 * B <= NR, "the vectors lie in the panel");
    constexpr int kA = A > 0 ? A : 1, kB = B > 0 ? B : 1;
    for (int p = 0; p < panels; ++p, w += panel_stride, bias += NR, c += NR) {
        V16 az[MR][kA];
        V8 ay[MR][kB];
        if constexpr (A > 0)
#  pragma GCC unroll 8
            for (int j = 0; j < A; ++j) {
                const V16 b = vload<V16>(bias + 16 * j);
#  pragma GCC unroll 8
                for (int m = 0; m < MR; ++m) az[m][j] = b;
            }
#  pragma GCC unroll 8
        for (int j = 0; j < B; ++j) {
            const V8 b = vload<V8>(bias + 16 * A + 8 * j);
#  pragma GCC unroll 8
            for (int m = 0; m < MR; ++m) ay[m][j] = b;
        }
        for (int t = 0; t < taps; ++t) {
            const float* a[MR];
#  pragma GCC unroll 8
            for (int m = 0; m < MR; ++m) a[m] = rows[t * row_stride + m] + offset;
            const float* __restrict wk = w + static_cast<size_t>(t) * kc * NR;
            // The weight vectors are loaded inside the FMA expressions: loaded once into an
            // array, GCC 12 kept the second one on the stack and read it back for every FMA.
            for (int k = 0; k < kc; ++k, wk += NR) {
#  pragma GCC unroll 8
                for (int m = 0; m < MR; ++m) {
                    const float x = a[m][k];
                    if constexpr (A > 0)
#  pragma GCC unroll 8
                        for (int j = 0; j < A; ++j) az[m][j] = fma_x86(az[m][j], x, vload<V16>(wk + 16 * j));
#  pragma GCC unroll 8
                    for (int j = 0; j < B; ++j) ay[m][j] = fma_x86(ay[m][j], x, vload<V8>(wk + 16 * A + 8 * j));
                }
            }
        }
        const bool last = p + 1 == panels;
        const V16 lz = V16{} + lo_value, hz = V16{} + hi_value;
        const V8 ly = V8{} + lo_value, hy = V8{} + hi_value;
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) {
            float* out = c + m * c_stride;
            if constexpr (A > 0)
#  pragma GCC unroll 8
                for (int j = 0; j < A; ++j) {
                    V16 v = az[m][j];
                    activate_vector<V16, kAct>(v, lz, hz);
                    if (B == 0 && j == A - 1 && last)
                        store_first(out + 16 * j, v, n_last);
                    else
                        vstore(out + 16 * j, v);
                }
#  pragma GCC unroll 8
            for (int j = 0; j < B; ++j) {
                V8 v = ay[m][j];
                activate_vector<V8, kAct>(v, ly, hy);
                if (j == B - 1 && last)
                    store_first(out + 16 * A + 8 * j, v, n_last);
                else
                    vstore(out + 16 * A + 8 * j, v);
            }
        }
    }
}

// gemm_panels_x86 for a tile of m_valid (1..MR) pixels, A x 16 + B x 8 channels per panel, the
// last panel's last vector holding n_last of them, and an activation it applies in registers;
// false (nothing done) for the others.
template <int NR, int A, int B>
inline bool gemm_panels_x86_any(int m_valid, int taps, int kc, const float* const* rows, int row_stride, size_t offset,
                                const float* w, size_t panel_stride, const float* bias, float* c, size_t c_stride,
                                int panels, int n_last, const Activation& act) {
    if constexpr (A < 0 || B < 0 || A + B < 1 || 16 * A + 8 * B > NR) {
        return false;
    } else {
        switch (act.kind) {
        case Act::None:
        case Act::Relu:
        case Act::Clamp: break;
        default: return false;
        }
        const float lo = act.kind == Act::Clamp ? act.min : 0.f, hi = act.kind == Act::Clamp ? act.max : 0.f;
        switch (m_valid) {
#  define EMBARK_PANELS_CASE(M)                                                                                        \
  case M:                                                                                                              \
    if constexpr (M <= kTilePixels) {                                                                                  \
      if (act.kind == Act::None)                                                                                       \
        gemm_panels_x86<M, NR, A, B, Act::None>(taps, kc, rows, row_stride, offset, w, panel_stride, bias, c,          \
                                                c_stride, panels, n_last, lo, hi);                                     \
      else if (act.kind == Act::Relu)                                                                                  \
        gemm_panels_x86<M, NR, A, B, Act::Relu>(taps, kc, rows, row_stride, offset, w, panel_stride, bias, c,          \
                                                c_stride, panels, n_last, lo, hi);                                     \
      else                                                                                                             \
        gemm_panels_x86<M, NR, A, B, Act::Clamp>(taps, kc, rows, row_stride, offset, w, panel_stride, bias, c,         \
                                                 c_stride, panels, n_last, lo, hi);                                    \
      return true;                                                                                                     \
    }                                                                                                                  \
    return false;
            EMBARK_PANELS_CASE(1)
            EMBARK_PANELS_CASE(2)
            EMBARK_PANELS_CASE(3)
            EMBARK_PANELS_CASE(4)
            EMBARK_PANELS_CASE(5)
            EMBARK_PANELS_CASE(6)
            EMBARK_PANELS_CASE(7)
            EMBARK_PANELS_CASE(8)
#  undef EMBARK_PANELS_CASE
        default: return false;
        }
    }
}

// Whole panels (NR a multiple of 8): NR / 16 vectors of 16 and (NR % 16) / 8 of 8 with
// AVX-512, NR / 8 vectors of 8 without.
template <int NR>
inline bool gemm_whole_panels_x86(int m_valid, int taps, int kc, const float* const* rows, int row_stride,
                                  size_t offset, const float* w, size_t panel_stride, const float* bias, float* c,
                                  size_t c_stride, int panels, const Activation& act) {
    if constexpr (NR % 8 != 0)
        return false;
    else if constexpr (kX86Wide)
        return gemm_panels_x86_any<NR, NR / 16, (NR % 16) / 8>(m_valid, taps, kc, rows, row_stride, offset, w,
                                                               panel_stride, bias, c, c_stride, panels,
                                                               NR % 16 ? 8 : 16, act);
    else
        return gemm_panels_x86_any<NR, 0, NR / 8>(m_valid, taps, kc, rows, row_stride, offset, w, panel_stride, bias, c,
                                                  c_stride, panels, 8, act);
}

// Whole tiles [t0, t1) of an indirect convolution, kTilePixels pixels each (taps row pointers a
// pixel, at ind[(t * taps + tap) * kTilePixels + m]), into whole panels: gemm_panels_x86 called
// per tile with the activation, tile size and panel width chosen once for the range. Through
// gemm_tile_any those choices cost about as much as a tile's multiply-adds where a pixel has few
// (a 3x3 convolution from one channel: 9). False (nothing done) for an activation the tile does
// not apply in registers.
template <int NR>
inline bool gemm_whole_tiles_x86(int64_t t0, int64_t t1, int taps, int kc, const float* const* ind, const float* w,
                                 size_t panel_stride, const float* bias, float* c, size_t c_stride, int panels,
                                 const Activation& act) {
    if constexpr (NR % 8 != 0) {
        return false;
    } else {
        if (act.kind != Act::None && act.kind != Act::Relu && act.kind != Act::Clamp) return false;
        constexpr int A = kX86Wide ? NR / 16 : 0, B = kX86Wide ? (NR % 16) / 8 : NR / 8;
        constexpr int n_last = kX86Wide && NR % 16 == 0 ? 16 : 8;
        const float lo = act.kind == Act::Clamp ? act.min : 0.f, hi = act.kind == Act::Clamp ? act.max : 0.f;
        with_register_activation(act.kind, [&](auto a) {
            for (int64_t t = t0; t < t1; ++t)
                gemm_panels_x86<kTilePixels, NR, A, B, decltype(a)::value>(
                    taps, kc, ind + t * taps * kTilePixels, kTilePixels, 0, w, panel_stride, bias,
                    c + t * kTilePixels * c_stride, c_stride, panels, n_last, lo, hi);
        });
        return true;
    }
}

// A remainder panel of n_valid < NR channels (NR a multiple of 8) with vectors of 8 where the
// panel's 16-float vectors would compute more than it keeps: at most 8 channels (one V8), or
// 17-24 (one V16 and one V8) when the panel is 32 wide; false for the others (the narrow tile
// or the loop form takes them).
template <int NR>
inline bool gemm_tail_panel_x86(int m_valid, int taps, int kc, const float* const* rows, int row_stride, size_t offset,
                                const float* w, const float* bias, float* c, size_t c_stride, int n_valid,
                                const Activation& act) {
    if constexpr (NR % 8 != 0) {
        return false;
    } else {
        if (n_valid <= 8)
            return gemm_panels_x86_any<NR, 0, 1>(m_valid, taps, kc, rows, row_stride, offset, w, 0, bias, c, c_stride,
                                                 1, n_valid, act);
        if constexpr (kX86Wide && NR >= 32)
            if (n_valid > 16 && n_valid <= 24)
                return gemm_panels_x86_any<NR, 1, 1>(m_valid, taps, kc, rows, row_stride, offset, w, 0, bias, c,
                                                     c_stride, 1, n_valid - 16, act);
        return false;
    }
}

#else
#  define EMBARK_NARROW_TILE 0
inline constexpr int kNarrowChannels = 0;
#endif

// Dispatches a tile of `m_valid` (1..MR) pixels to the instantiation of that exact size, so
// remainder tiles do no wasted work; a last panel of few channels to the narrow tile; on aarch64 to the
// vector-extension tile (gemm_vec.h).
#if EMBARK_VECTOR_TILE
#  define EMBARK_VECTOR_TILE_CALL(M)                                                                                   \
    gemm_tile_vec_any<M, NR, kPrefetch>(taps, kc, rows, row_stride, offset, w, bias, c, c_stride, n_valid, act,        \
                                        prefetch, prefetch_lines)
#else
#  define EMBARK_VECTOR_TILE_CALL(M) (void)0
#endif
template <int NR, bool kPrefetch = false>
inline void gemm_tile_any(int m_valid, int taps, int kc, const float* const* rows, int row_stride, size_t offset,
                          const float* w, const float* bias, float* c, size_t c_stride, int n_valid,
                          const Activation& act, const char* prefetch = nullptr, int prefetch_lines = 0) {
#if EMBARK_NARROW_TILE
    if constexpr (!kPrefetch) {
        if (n_valid == NR ? gemm_whole_panels_x86<NR>(m_valid, taps, kc, rows, row_stride, offset, w, 0, bias, c,
                                                      c_stride, 1, act)
                          : gemm_tail_panel_x86<NR>(m_valid, taps, kc, rows, row_stride, offset, w, bias, c, c_stride,
                                                    n_valid, act))
            return;
    }
    if constexpr (NR > kNarrowChannels) {
        if (n_valid <= kNarrowChannels) {
            switch (m_valid) {
#  define EMBARK_NARROW_CASE(M)                                                                                        \
  case M:                                                                                                              \
    if constexpr (M <= kTilePixels)                                                                                    \
      gemm_tile_narrow<M, NR, kPrefetch>(taps, kc, rows, row_stride, offset, w, bias, c, c_stride, n_valid, act,       \
                                         prefetch, prefetch_lines);                                                    \
    return;
                EMBARK_NARROW_CASE(1)
                EMBARK_NARROW_CASE(2)
                EMBARK_NARROW_CASE(3)
                EMBARK_NARROW_CASE(4)
                EMBARK_NARROW_CASE(5)
                EMBARK_NARROW_CASE(6)
                EMBARK_NARROW_CASE(7)
                EMBARK_NARROW_CASE(8)
#  undef EMBARK_NARROW_CASE
            default: return;
            }
        }
    }
#endif
    switch (m_valid) {
#define EMBARK_TILE_CASE(M)                                                                                            \
  case M:                                                                                                              \
    if constexpr (M <= kTilePixels && EMBARK_VECTOR_TILE && NR % 4 == 0)                                               \
      EMBARK_VECTOR_TILE_CALL(M);                                                                                      \
    else if constexpr (M <= kTilePixels)                                                                               \
      gemm_tile<M, NR, kPrefetch>(taps, kc, rows, row_stride, offset, w, bias, c, c_stride, n_valid, act, prefetch,    \
                                  prefetch_lines);                                                                     \
    return;
        EMBARK_TILE_CASE(1)
        EMBARK_TILE_CASE(2)
        EMBARK_TILE_CASE(3)
        EMBARK_TILE_CASE(4)
        EMBARK_TILE_CASE(5)
        EMBARK_TILE_CASE(6)
        EMBARK_TILE_CASE(7)
        EMBARK_TILE_CASE(8)
#undef EMBARK_TILE_CASE
    default: return;
    }
}

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// gemm_tile_any over all ceil(n / NR) panels of one tile: n output channels from c, panel p's
// weights at w + p * panel_stride and bias at bias + p * NR.
template <int NR>
inline void gemm_tile_panels_any(int m_valid, int taps, int kc, const float* const* rows, int row_stride, size_t offset,
                                 const float* w, size_t panel_stride, const float* bias, float* c, size_t c_stride,
                                 int n, const Activation& act) {
    if (act_after_store(act.kind)) {
        // The exp-based activations once over the tile's stored rows (one call for all its
        // pixels when they are contiguous), not once per panel and pixel: a call per 32
        // channels cost more than the activation on EfficientNet's 16->96 SiLU expansion.
        gemm_tile_panels_any<NR>(m_valid, taps, kc, rows, row_stride, offset, w, panel_stride, bias, c, c_stride, n,
                                 Activation{});
        if (c_stride == static_cast<size_t>(n)) {
            apply_activation(act, c, static_cast<size_t>(m_valid) * static_cast<size_t>(n));
        } else {
            for (int m = 0; m < m_valid; ++m) apply_activation(act, c + m * c_stride, static_cast<size_t>(n));
        }
        return;
    }
    int p = 0;
#if EMBARK_VECTOR_TILE
    // Whole panels of a whole tile of one tap in one call (gemm_panels_vec).
    if constexpr (NR % 8 == 0) {
        const int whole = n / NR;
        if (m_valid == kTilePixels && taps == 1 && whole >= 2) {
            const float* a[kTilePixels];
            for (int m = 0; m < kTilePixels; ++m) a[m] = rows[m] + offset;
            switch (act.kind) {
            case Act::None:
                gemm_panels_vec<kTilePixels, NR, Act::None>(kc, a, w, panel_stride, bias, c, c_stride, whole, 0.f, 0.f);
                p = whole;
                break;
            case Act::Relu:
                gemm_panels_vec<kTilePixels, NR, Act::Relu>(kc, a, w, panel_stride, bias, c, c_stride, whole, 0.f, 0.f);
                p = whole;
                break;
            case Act::Clamp:
                gemm_panels_vec<kTilePixels, NR, Act::Clamp>(kc, a, w, panel_stride, bias, c, c_stride, whole, act.min,
                                                             act.max);
                p = whole;
                break;
            default: break;
            }
        }
    }
#endif
#if EMBARK_NARROW_TILE
    // Whole panels of any tile in one call (gemm_panels_x86).
    if (const int whole = n / NR;
        whole >= 1 && gemm_whole_panels_x86<NR>(m_valid, taps, kc, rows, row_stride, offset, w, panel_stride, bias, c,
                                                c_stride, whole, act))
        p = whole;
#endif
    const int panels = ceil_div(n, NR);
    for (; p < panels; ++p)
        gemm_tile_any<NR>(m_valid, taps, kc, rows, row_stride, offset, w + p * panel_stride, bias + p * NR, c + p * NR,
                          c_stride, std::min(NR, n - p * NR), act);
}

// Parts per thread (ThreadPool::parallel_for) for a layer split over pixel tiles when every
// part streams all `weight_bytes` of its packed weights once more: kFineParts while they stay
// in a core's cache (`cached_bytes`), else only as many as keep `min_units` of the `units`
// (tiles) in each part.
inline int streamed_weight_parts(size_t weight_bytes, size_t cached_bytes, int64_t units, int64_t min_units,
                                 int threads) {
    if (weight_bytes <= cached_bytes) return kFineParts;
    return static_cast<int>(std::clamp<int64_t>(units / (min_units * threads), 1, kFineParts));
}

// Sequential pieces of the layer kernels that the fused inverted bottleneck (bottleneck.cpp)
// runs row by row on one thread. pointwise_rows: a 1x1 Pointwise-path op over `rows` contiguous
// input pixels (conv.cpp). depthwise_run_pixels: output pixels [begin, end) of a Depthwise-path
// op through an indirection of `taps` input pointers per pixel (depthwise.cpp).
void pointwise_rows(const Conv2D& op, const float* x, int64_t rows, float* y, bool prefetch);
void depthwise_run_pixels(const Conv2D& op, const float* const* indirection, int64_t begin, int64_t end, float* output,
                          bool prefetch);
// The Depthwise-path op's [pixel][tap] indirection for `input`, built on first use (not
// thread-safe: call it before a parallel region).
const float* const* depthwise_indirection(const Conv2D& op, const float* input);

// A per-thread scratch of at least `floats` floats that grows on demand and is shared by every
// layer run on that thread (Winograd blocks, im2col rows); valid until the next call.
float* thread_scratch(size_t floats);

} // namespace embark::portable::detail

// The int8 GEMM register tile of QConv2D (quant_conv.cpp) on RISC-V with the vector extension
// (RVV 1.0), built by Clang (the RVV intrinsics; GCC 12 has neither them nor RVV
// vectorization, and takes quant_conv.cpp's plain C++ tile). Included by quant_conv.cpp, and by
// quant.cpp for its requantized stores.
//
// RVV 1.0 has no int8 dot product, so the tile is an outer product: per k, one vector of a
// panel's weights (int16, packed [kp][kNR]) and, per pixel, one scalar input byte into
// vwmacc.vx (int16 x int16 -> int32, SEW 16): an LMUL-8 group of int32 sums per pixel. Per k
// and pixel that is a byte load and a vwmacc (kNR multiply-adds: 64 at VLEN 256), plus one
// weight load per k for the tile. The weights stay int16 (half the bytes of the int32 ones
// the earlier auto-vectorized tile needed for vmacc.vx: Clang turned int16 weights there into
// vwmul + vadd through a temporary).
//
// The tile's LMUL follows the layer's output channels (Lanes<L>): a panel of kNR channels on
// LMUL-8 sums, 3 pixels (24 registers, 4 more of weights); a layer of at most kNR / 2 or
// kNR / 4 channels on LMUL 4 or 2, 6 pixels, so that more pixels share a weight load and the
// tile's fixed costs (a vwmacc is one instruction whatever its vl). vl is the panel's channels:
// no tail is stored through a buffer.
//
// Requantization (quant_kernels.h's requant_one, byte for byte): float(acc) (vfcvt.f.x.v,
// round to nearest even as the C++ conversion) * m, clamped with vfmax/vfmin (never NaN),
// + 1.5 * 2^23, whose bits + (zero point - the magic's bits) are the byte (two narrowings
// keep the low bits, as the C++ cast to int8_t).
#pragma once

#if defined(__clang__) && defined(__riscv_vector) && defined(__riscv_v_intrinsic) && __riscv_v_intrinsic >= 12000 &&   \
    defined(__riscv_v_min_vlen)
#  define EMBARK_QGEMM_RVV 1
#  include <riscv_vector.h>

#  include <algorithm>
#  include <cstddef>
#  include <cstdint>
#  include <type_traits>

#  include "quant_kernels.h"

namespace embark::portable::quant_detail::rvv {

// Channels of a packed panel: int32 sums of LMUL 8 at the smallest VLEN the build allows
// (__riscv_v_min_vlen: 128 for rv64gcv, 256 with zvl256b). A larger VLEN on the board runs the
// same vl, correctly.
constexpr int kNR = __riscv_v_min_vlen / 4;
// Pixels per call of panels() (the partition unit of the caller): 2 tiles of 3 on LMUL 8,
// one of 6 on LMUL 4 or 2.
constexpr int kMR = 6;

// The types and loads of a tile whose int32 sums are LMUL L (weights: L / 2), by macro: the
// intrinsics' names spell the LMUL.
template <int L>
struct Lanes;
#  define EMBARK_QRVV_LANES(L, m16, m32, rows)                                                                         \
    template <>                                                                                                        \
    struct Lanes<L> {                                                                                                  \
      using I32 = vint32##m32##_t;                                                                                     \
      using I16 = vint16##m16##_t;                                                                                     \
      using F32 = vfloat32##m32##_t;                                                                                   \
      static constexpr int kMR = rows;                                                                                 \
      static I16 weights(const int16_t* p, size_t vl) { return __riscv_vle16_v_i16##m16(p, vl); }                      \
      static I32 sums(const int32_t* p, size_t vl) { return __riscv_vle32_v_i32##m32(p, vl); }                         \
      static F32 floats(const float* p, size_t vl) { return __riscv_vle32_v_f32##m32(p, vl); }                         \
      static I32 bits(F32 f) { return __riscv_vreinterpret_v_f32##m32##_i32##m32(f); }                                 \
      static I32 zero(size_t vl) { return __riscv_vmv_v_x_i32##m32(0, vl); }                                           \
      static void store_sums(int32_t* p, I32 a, size_t vl) { __riscv_vse32_v_i32##m32(p, a, vl); }                     \
    };
EMBARK_QRVV_LANES(8, m4, m8, 3)
EMBARK_QRVV_LANES(4, m2, m4, 6)
EMBARK_QRVV_LANES(2, m1, m2, 6)
#  undef EMBARK_QRVV_LANES

// Two k steps of a full LMUL-8 panel's weights (2 * kNR int16, 8 registers) in one whole-register
// load (vl8re16.v, which no intrinsic spells), its halves the two steps' LMUL-4 vectors: one
// load and one address where two of each were, and no vsetvli (a unit-stride load of LMUL 8
// would need two). Only when the core's VLEN is the build's (whole_pairs()): a wider one loads
// more than the two steps.
[[gnu::always_inline]] inline vint16m8_t weight_pair(const int16_t* p) {
    vint16m8_t w;
    asm("vl8re16.v %0, (%1)" : "=vr"(w) : "r"(p));
    return w;
}
inline bool whole_pairs() { return __riscv_vsetvlmax_e16m4() == static_cast<size_t>(kNR); }

// A pixel's patch: `segments` pieces of seg_len elements (int8 inputs, or the int16 of
// quant_winograd_rvv.h's transformed tiles); piece s of pixel m at rows[s * kMR + m] + shift (a
// 1x1 convolution: one piece, the pixel's channels; the rows layout: a kernel row each; a
// copied patch: one piece). Rows past the tile's valid pixels repeat a valid one.
template <typename X>
struct Rows {
    const X* const* rows;
    int segments, seg_len;
    size_t shift;
};
using Patch = Rows<int8_t>;

// vl scaled values f (requantize_value's v) requantized: the bytes in the low bits of int32.
template <int L>
[[gnu::always_inline]] inline typename Lanes<L>::I32 requantized_bits(typename Lanes<L>::F32 f, QRq rq, size_t vl) {
    f = __riscv_vfadd(__riscv_vfmin(__riscv_vfmax(f, rq.lo, vl), rq.hi, vl), 12582912.f, vl);
    return __riscv_vadd(Lanes<L>::bits(f), rq.offset, vl);
}

// The bytes of vl scaled values f requantized, into out.
template <int L>
[[gnu::always_inline]] inline void store_requantized_floats(int8_t* out, typename Lanes<L>::F32 f, QRq rq, size_t vl) {
    __riscv_vse8(out, __riscv_vncvt_x(__riscv_vncvt_x(requantized_bits<L>(f, rq, vl), vl), vl), vl);
}

// The bytes of vl int32 sums a requantized with per-channel multipliers m, into out.
template <int L>
[[gnu::always_inline]] inline void store_requantized(int8_t* out, typename Lanes<L>::I32 a, typename Lanes<L>::F32 m,
                                                     QRq rq, size_t vl) {
    store_requantized_floats<L>(out, __riscv_vfmul(__riscv_vfcvt_f(a, vl), m, vl), rq, vl);
}

// c[m][n] = requantized(bias[n] + sum_k x_m[k] * w[k][n]) for MR pixels (m < m_valid stored)
// and vl channels of one panel (w: [kp][kNR] int16), into int8 c; kSums: the int32 sums
// sum_k x_m[k] * w[k][n] themselves (no bias), into int32 c.
// kPairs (LMUL 8, a full panel, whole_pairs()): the weights two k steps per load (weight_pair).
template <int L, int MR, typename X, bool kSums = false, bool kPairs = false>
[[gnu::always_inline]] inline void tile(const Rows<X>& x, int m0, const int16_t* __restrict w,
                                        const int32_t* __restrict bias, const float* __restrict mult, void* c,
                                        size_t c_stride, int m_valid, size_t vl, QRq rq) {
    using V = Lanes<L>;
    const typename V::I32 b = kSums ? V::zero(vl) : V::sums(bias, vl);
    typename V::I32 a0 = b, a1 = b, a2 = b, a3 = b, a4 = b, a5 = b;
    for (int s = 0; s < x.segments; ++s) {
        const X* const* r = x.rows + static_cast<size_t>(s) * kMR + m0;
        const X* __restrict r0 = r[0] + x.shift;
        const X* __restrict r1 = r[MR > 1 ? 1 : 0] + x.shift;
        const X* __restrict r2 = r[MR > 2 ? 2 : 0] + x.shift;
        const X* __restrict r3 = r[MR > 3 ? 3 : 0] + x.shift;
        const X* __restrict r4 = r[MR > 4 ? 4 : 0] + x.shift;
        const X* __restrict r5 = r[MR > 5 ? 5 : 0] + x.shift;
        // Groups of 8 steps, the row pointers stepping with k (loads at immediate offsets), then
        // the rest one by one.
        auto step_with = [&](const typename V::I16 wk, const X* p0, const X* p1, const X* p2, const X* p3, const X* p4,
                             const X* p5, int j) {
            a0 = __riscv_vwmacc(a0, static_cast<int16_t>(p0[j]), wk, vl);
            if constexpr (MR > 1) a1 = __riscv_vwmacc(a1, static_cast<int16_t>(p1[j]), wk, vl);
            if constexpr (MR > 2) a2 = __riscv_vwmacc(a2, static_cast<int16_t>(p2[j]), wk, vl);
            if constexpr (MR > 3) a3 = __riscv_vwmacc(a3, static_cast<int16_t>(p3[j]), wk, vl);
            if constexpr (MR > 4) a4 = __riscv_vwmacc(a4, static_cast<int16_t>(p4[j]), wk, vl);
            if constexpr (MR > 5) a5 = __riscv_vwmacc(a5, static_cast<int16_t>(p5[j]), wk, vl);
        };
        auto step = [&](const X* p0, const X* p1, const X* p2, const X* p3, const X* p4, const X* p5, int j) {
            step_with(V::weights(w + j * kNR, vl), p0, p1, p2, p3, p4, p5, j);
        };
        const X *p0 = r0, *p1 = r1, *p2 = r2, *p3 = r3, *p4 = r4, *p5 = r5;
        for (int groups = x.seg_len / 8; groups > 0; --groups) {
            if constexpr (kPairs) {
#  pragma clang loop unroll(full)
                for (int j = 0; j < 8; j += 2) {
                    const vint16m8_t w2 = weight_pair(w + j * kNR);
                    step_with(__riscv_vget_v_i16m8_i16m4(w2, 0), p0, p1, p2, p3, p4, p5, j);
                    step_with(__riscv_vget_v_i16m8_i16m4(w2, 1), p0, p1, p2, p3, p4, p5, j + 1);
                }
            } else {
#  pragma clang loop unroll(full)
                for (int j = 0; j < 8; ++j) step(p0, p1, p2, p3, p4, p5, j);
            }
            w += 8 * kNR;
            p0 += 8, p1 += 8, p2 += 8, p3 += 8, p4 += 8, p5 += 8;
        }
        for (int k = x.seg_len % 8; k > 0; --k) {
            step(p0, p1, p2, p3, p4, p5, 0);
            w += kNR;
            ++p0, ++p1, ++p2, ++p3, ++p4, ++p5;
        }
    }
    auto store = [&](typename V::I32 a, int m) {
        if constexpr (kSums)
            V::store_sums(static_cast<int32_t*>(c) + static_cast<size_t>(m) * c_stride, a, vl);
        else
            store_requantized<L>(static_cast<int8_t*>(c) + static_cast<size_t>(m) * c_stride, a, V::floats(mult, vl),
                                 rq, vl);
    };
    store(a0, 0);
    if constexpr (MR > 1)
        if (m_valid > 1) store(a1, 1);
    if constexpr (MR > 2)
        if (m_valid > 2) store(a2, 2);
    if constexpr (MR > 3)
        if (m_valid > 3) store(a3, 3);
    if constexpr (MR > 4)
        if (m_valid > 4) store(a4, 4);
    if constexpr (MR > 5)
        if (m_valid > 5) store(a5, 5);
}

// The m_valid (<= kMR) pixels of x on every panel of a group of `channels` output channels
// (weights, bias and mult of the panels one after another), tiles of Lanes<L>::kMR pixels.
// kSums: int32 sums into c (see tile), whose pixels are c_stride int32 apart.
template <int L, typename X, bool kSums>
[[gnu::noinline]] void panels_lmul(const Rows<X>& x, int m_valid, int kp, const int16_t* w, const int32_t* bias,
                                   const float* mult, void* c, size_t c_stride, int channels, QRq rq) {
    constexpr int MR = Lanes<L>::kMR;
    using Out = std::conditional_t<kSums, int32_t, int8_t>;
    const bool whole = whole_pairs();
    for (int n0 = 0; n0 < channels; n0 += kNR, w += static_cast<size_t>(kNR) * kp, bias += kNR, mult += kNR) {
        const size_t vl = static_cast<size_t>(std::min(kNR, channels - n0));
        Out* out = static_cast<Out*>(c) + n0;
        if (m_valid == 1) { // a fully connected layer, a last pixel
            tile<L, 1, X, kSums>(x, 0, w, bias, mult, out, c_stride, 1, vl, rq);
            continue;
        }
        const bool pairs = L == 8 && vl == static_cast<size_t>(kNR) && whole;
        for (int m0 = 0; m0 < m_valid; m0 += MR)
            if (pairs)
                tile<L, MR, X, kSums, L == 8>(x, m0, w, bias, mult, out + static_cast<size_t>(m0) * c_stride, c_stride,
                                              std::min(MR, m_valid - m0), vl, rq);
            else
                tile<L, MR, X, kSums>(x, m0, w, bias, mult, out + static_cast<size_t>(m0) * c_stride, c_stride,
                                      std::min(MR, m_valid - m0), vl, rq);
    }
}

// The LMUL of a layer whose groups have `channels` output channels: the smallest whose
// registers hold min(channels, kNR) int32 at the build's VLEN.
template <typename X, bool kSums = false>
inline void panels(const Rows<X>& x, int m_valid, int kp, const int16_t* w, const int32_t* bias, const float* mult,
                   void* c, size_t c_stride, int channels, QRq rq) {
    if (channels > kNR / 2)
        panels_lmul<8, X, kSums>(x, m_valid, kp, w, bias, mult, c, c_stride, channels, rq);
    else if (channels > kNR / 4)
        panels_lmul<4, X, kSums>(x, m_valid, kp, w, bias, mult, c, c_stride, channels, rq);
    else
        panels_lmul<2, X, kSums>(x, m_valid, kp, w, bias, mult, c, c_stride, channels, rq);
}

// A 1x1 convolution of stride 1 and one group (the input's pixels in order, `x_stride` bytes
// apart), output pixels [r0, r1), on layers of more than kNR / 2 channels: tiles of 3 pixels at
// LMUL 8 whose row pointers are the pixels themselves, every panel per tile. The same sums and
// requantization as panels() (which reaches the same tile through a Rows table, a segment loop
// and a call per 6 pixels: some 125 instructions per 3-pixel tile of MobileNet-V2's 16 -> 96
// layer beyond its 16 k steps and its stores; this path counts 2.87 M on that layer against
// 3.63 M, sim-k230). The k loop is unrolled by 8 and steps the row pointers: unrolled by 4, or
// indexing the rows by k, the long-k layers (960 -> 320) counted more than through panels().
// Eight k steps of rows_tile<3, true> as one block: the weights two steps per whole-register
// load into v0-v7 (v0-v3 step j, v4-v7 step j + 1), three scalar bytes and three vwmacc per
// step. In assembly because the compiler re-emits vsetvli after every inline asm (the
// whole-register load has no intrinsic): per 8 steps one vsetvli, 4 loads, 3 address adds, 24
// byte loads and 24 vwmacc, against 8 loads and 7 adds through vle16 (sim-k230: a 400 -> 400
// 1x1 layer over 7 x 7 pixels from 0.77 M to 0.70 M instructions).
#  define EMBARK_QRVV_PAIR(J)                                                                                          \
    "lb %[t0], " #J "(%[x0])\n\t"                                                                                      \
    "lb %[t1], " #J "(%[x1])\n\t"                                                                                      \
    "lb %[t2], " #J "(%[x2])\n\t"                                                                                      \
    "lb %[t3], " #J "+1(%[x0])\n\t"                                                                                    \
    "lb %[t4], " #J "+1(%[x1])\n\t"                                                                                    \
    "lb %[t5], " #J "+1(%[x2])\n\t"                                                                                    \
    "vwmacc.vx %[a0], %[t0], v0\n\t"                                                                                   \
    "vwmacc.vx %[a1], %[t1], v0\n\t"                                                                                   \
    "vwmacc.vx %[a2], %[t2], v0\n\t"                                                                                   \
    "vwmacc.vx %[a0], %[t3], v4\n\t"                                                                                   \
    "vwmacc.vx %[a1], %[t4], v4\n\t"                                                                                   \
    "vwmacc.vx %[a2], %[t5], v4\n\t"
[[gnu::always_inline]] inline void rows_group8(vint32m8_t& a0, vint32m8_t& a1, vint32m8_t& a2, const int8_t* x0,
                                               const int8_t* x1, const int8_t* x2, const int16_t* w, size_t vl) {
    long t0, t1, t2, t3, t4, t5, t6;
    // clang-format off
    asm volatile("vsetvli zero, %[vl], e16, m4, ta, ma\n\t"
                 "vl8re16.v v0, (%[w])\n\t"
                 EMBARK_QRVV_PAIR(0)
                 "addi %[t6], %[w], %[o1]\n\t"
                 "vl8re16.v v0, (%[t6])\n\t"
                 EMBARK_QRVV_PAIR(2)
                 "addi %[t6], %[w], %[o2]\n\t"
                 "vl8re16.v v0, (%[t6])\n\t"
                 EMBARK_QRVV_PAIR(4)
                 "addi %[t6], %[w], %[o3]\n\t"
                 "vl8re16.v v0, (%[t6])\n\t"
                 EMBARK_QRVV_PAIR(6)
        : [a0] "+vr"(a0), [a1] "+vr"(a1), [a2] "+vr"(a2), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
          [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6)
        : [w] "r"(w), [x0] "r"(x0), [x1] "r"(x1), [x2] "r"(x2), [vl] "r"(vl), [o1] "i"(4 * kNR), [o2] "i"(8 * kNR),
          [o3] "i"(12 * kNR)
        : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "vl", "vtype", "memory");
    // clang-format on
}
// Pairs of such groups, n > 0 times, as one loop in assembly: the vsetvli once, the weights'
// address stepped after each load, the row pointers and the loop's test once per 16 steps (116
// instructions per 16 steps against 124 through rows_group8, whose block the compiler wraps in
// address and counter arithmetic). Advances x0, x1, x2 and w past the 16 * n steps.
[[gnu::always_inline]] inline void rows_loop16(vint32m8_t& a0, vint32m8_t& a1, vint32m8_t& a2,
                                               const int8_t* __restrict& x0, const int8_t* __restrict& x1,
                                               const int8_t* __restrict& x2, const int16_t* __restrict& w, long n,
                                               size_t vl) {
    long t0, t1, t2, t3, t4, t5;
    const int8_t* end = x0 + 16 * n;
#  define EMBARK_QRVV_STEP2(J) "vl8re16.v v0, (%[w])\n\t" EMBARK_QRVV_PAIR(J) "addi %[w], %[w], %[o]\n\t"
    // clang-format off
    asm volatile("vsetvli zero, %[vl], e16, m4, ta, ma\n\t"
                 "1:\n\t"
                 EMBARK_QRVV_STEP2(0) EMBARK_QRVV_STEP2(2) EMBARK_QRVV_STEP2(4) EMBARK_QRVV_STEP2(6)
                 EMBARK_QRVV_STEP2(8) EMBARK_QRVV_STEP2(10) EMBARK_QRVV_STEP2(12) EMBARK_QRVV_STEP2(14)
                 "addi %[x0], %[x0], 16\n\t"
                 "addi %[x1], %[x1], 16\n\t"
                 "addi %[x2], %[x2], 16\n\t"
                 "bne %[x0], %[end], 1b\n\t"
        : [a0] "+vr"(a0), [a1] "+vr"(a1), [a2] "+vr"(a2), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
          [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5), [x0] "+r"(x0), [x1] "+r"(x1), [x2] "+r"(x2), [w] "+r"(w)
        : [end] "r"(end), [vl] "r"(vl), [o] "i"(4 * kNR)
        : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "vl", "vtype", "memory");
    // clang-format on
#  undef EMBARK_QRVV_STEP2
}
#  undef EMBARK_QRVV_PAIR

template <int M, bool kPairs>
[[gnu::always_inline]] inline void rows_tile(const int8_t* __restrict x0, const int8_t* __restrict x1,
                                             const int8_t* __restrict x2, int kp, const int16_t* __restrict w,
                                             const int32_t* __restrict bias, const float* __restrict mult, int8_t* c,
                                             size_t c_stride, size_t vl, QRq rq) {
    vint32m8_t a0 = __riscv_vle32_v_i32m8(bias, vl);
    vint32m8_t a1 = a0, a2 = a0;
    // The row pointers step with k (a load at an immediate offset from each), not k itself: an
    // index costs an add per row and group of steps to form the addresses.
    auto step = [&](const vint16m4_t wk, int j) {
        a0 = __riscv_vwmacc(a0, static_cast<int16_t>(x0[j]), wk, vl);
        if constexpr (M > 1) a1 = __riscv_vwmacc(a1, static_cast<int16_t>(x1[j]), wk, vl);
        if constexpr (M > 2) a2 = __riscv_vwmacc(a2, static_cast<int16_t>(x2[j]), wk, vl);
    };
    int groups = kp / 8;
    if constexpr (kPairs) {
        static_assert(M == 3);
        if (groups >= 2) rows_loop16(a0, a1, a2, x0, x1, x2, w, groups / 2, vl);
        groups %= 2;
    }
    for (; groups > 0; --groups) {
        if constexpr (kPairs) {
            rows_group8(a0, a1, a2, x0, x1, x2, w, vl);
        } else {
#  pragma clang loop unroll(full)
            for (int j = 0; j < 8; ++j) step(__riscv_vle16_v_i16m4(w + j * kNR, vl), j);
        }
        w += 8 * kNR;
        x0 += 8;
        if constexpr (M > 1) x1 += 8;
        if constexpr (M > 2) x2 += 8;
    }
    for (int k = kp % 8; k > 0; --k, w += kNR) {
        step(__riscv_vle16_v_i16m4(w, vl), 0);
        ++x0;
        if constexpr (M > 1) ++x1;
        if constexpr (M > 2) ++x2;
    }
    const vfloat32m8_t m = __riscv_vle32_v_f32m8(mult, vl);
    if constexpr (M == 3) {
        // The three pixels' requantization stage by stage (store_requantized's arithmetic): one
        // vsetvli per element width, not three per pixel, and the multipliers dead after the
        // products (they had been spilled around each pixel's narrowing).
        auto bits = [&](vint32m8_t a) {
            return requantized_bits<8>(__riscv_vfmul(__riscv_vfcvt_f(a, vl), m, vl), rq, vl);
        };
        const vint32m8_t q0 = bits(a0), q1 = bits(a1), q2 = bits(a2);
        const vint16m4_t h0 = __riscv_vncvt_x(q0, vl), h1 = __riscv_vncvt_x(q1, vl), h2 = __riscv_vncvt_x(q2, vl);
        const vint8m2_t b0 = __riscv_vncvt_x(h0, vl), b1 = __riscv_vncvt_x(h1, vl), b2 = __riscv_vncvt_x(h2, vl);
        __riscv_vse8(c, b0, vl);
        __riscv_vse8(c + c_stride, b1, vl);
        __riscv_vse8(c + 2 * c_stride, b2, vl);
    } else {
        auto store = [&](vint32m8_t a, int8_t* out) { store_requantized<8>(out, a, m, rq, vl); };
        store(a0, c);
        if constexpr (M > 1) store(a1, c + c_stride);
    }
}

[[gnu::noinline]] __attribute__((target("tune=xiangshan-nanhu"))) inline void
rows_gemm(const int8_t* x, size_t x_stride, int64_t r0, int64_t r1, int kp, const int16_t* w, const int32_t* bias,
          const float* mult, int8_t* c, size_t c_stride, int channels, QRq rq) {
    const bool whole = whole_pairs();
    for (int64_t r = r0; r < r1; r += 3) {
        const int8_t* x0 = x + r * static_cast<int64_t>(x_stride);
        int8_t* out = c + r * static_cast<int64_t>(c_stride);
        const int64_t left = r1 - r;
        const int8_t* x1 = left > 1 ? x0 + x_stride : x0;
        const int8_t* x2 = left > 2 ? x1 + x_stride : x1;
        const int16_t* wp = w;
        for (int n0 = 0; n0 < channels; n0 += kNR, wp += static_cast<size_t>(kNR) * kp) {
            const size_t vl = static_cast<size_t>(std::min(kNR, channels - n0));
            if (left >= 3 && whole && vl == static_cast<size_t>(kNR))
                rows_tile<3, true>(x0, x1, x2, kp, wp, bias + n0, mult + n0, out + n0, c_stride, vl, rq);
            else if (left >= 3)
                rows_tile<3, false>(x0, x1, x2, kp, wp, bias + n0, mult + n0, out + n0, c_stride, vl, rq);
            else if (left == 2)
                rows_tile<2, false>(x0, x1, x2, kp, wp, bias + n0, mult + n0, out + n0, c_stride, vl, rq);
            else
                rows_tile<1, false>(x0, x1, x2, kp, wp, bias + n0, mult + n0, out + n0, c_stride, vl, rq);
        }
    }
}

} // namespace embark::portable::quant_detail::rvv
#endif

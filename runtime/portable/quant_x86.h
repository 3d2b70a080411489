// x86-64 int8 register tiles of QConv2D (quant_conv.cpp; the depthwise: quant_depthwise.cpp), in intrinsics:
// C++ has no pairwise multiply-add, and GCC vectorizes the plain dot-product tile of
// quant_conv.cpp for AVX2 as vpmullw + vpmovsxwd + vpaddd with a horizontal sum per output.
// Compiled only with AVX2 (x86-64-v3 and later); elsewhere the plain C++ tile runs. Two paths:
//
//  * AVX2: weights packed [kp/2][16][2] as int16 (a panel of 16 channels, k in pairs), the
//    tile's pixels sign-extended to int16 once per tile and group (reused by every panel);
//    per pixel and k pair one vpbroadcastd of (x[k], x[k+1]) and a vpmaddwd per 8 channels
//    (2 multiply-adds into each int32 lane) + vpaddd. Tile 4 pixels x 16 channels (x 8 for a
//    channel tail of at most 8).
//  * AVX-512 VNNI (+ BW, VL): weights packed [kp/4][16][4] as uint8 w + 128, the pixels read
//    in place: per pixel and k quad one vpdpbusd of the 16 channels' (w + 128) with the
//    broadcast signed bytes x[k..k+3] (4 multiply-adds into each int32 lane, no saturation).
//    sum (w + 128) * x = sum w * x + 128 * sum x, so each pixel's accumulators start at
//    bias - 128 * sum_k x (its row sum, once per tile and group). Tile 8 pixels x 32 channels
//    (two panels; one for a last odd panel). Kernels other than 1x1 read their input in place
//    through row pointers (TapRows: kernel rows, or a per-tap table), not through a patch.
//    Depthwise: 32 channels per step in 512-bit registers (dw_channels32).
//
// Integer sums are exact either way, and the requantization is quant_kernels.h's requant_one
// in vector form (float(acc) * m, clamp, + 1.5 * 2^23, bits + offset; no contraction, the
// clamp by max/min equals the compares for the non-NaN values here), so the bytes equal the
// plain tile's and the reference's. k is padded to 4 (zero weights; the patches' padding is
// zero bytes). EMBARK_QGEMM_NO_X86 turns both paths off, EMBARK_QGEMM_NO_VNNI the second.
#pragma once

#if defined(__x86_64__) && defined(__AVX2__) && !defined(EMBARK_QGEMM_NO_X86)
#  define EMBARK_QGEMM_X86 1
#  if defined(__AVX512VNNI__) && defined(__AVX512BW__) && defined(__AVX512VL__) && !defined(EMBARK_QGEMM_NO_VNNI)
#    define EMBARK_QGEMM_X86_VNNI 1
#  else
#    define EMBARK_QGEMM_X86_VNNI 0
#  endif
#else
#  define EMBARK_QGEMM_X86 0
#  define EMBARK_QGEMM_X86_VNNI 0
#endif

#if EMBARK_QGEMM_X86
#  include "quant_kernels.h"

#  include <immintrin.h>

#  include <vector>

// GCC 12 reports its own AVX-512 intrinsics' _mm512_undefined_ps() as used uninitialized.
#  if defined(__GNUC__) && !defined(__clang__)
#    pragma GCC diagnostic push
#    pragma GCC diagnostic ignored "-Wuninitialized"
#    pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#  endif

namespace embark::portable::quant_detail::x86q {

constexpr int kNR = 16, kKAlign = 4;
#  if EMBARK_QGEMM_X86_VNNI
constexpr int kMR = 8, kGroupK = 4; // k per multiply-add lane
using Weight = uint8_t;
inline Weight pack_weight(int32_t w) { return static_cast<Weight>(w + 128); }
#  else
constexpr int kMR = 4, kGroupK = 2; // 6 spills accumulators (GCC 12)
using Weight = int16_t;
inline Weight pack_weight(int32_t w) { return static_cast<Weight>(w); }
#  endif

// Index of weight (k, n) in a panel of kNR channels: [k / G][n][k % G], G = kGroupK (the k of
// one multiply-add lane: 2 int16 for AVX2, 4 bytes for VNNI).
inline size_t weight_index(int k, int n) {
    return (static_cast<size_t>(k / kGroupK) * kNR + static_cast<size_t>(n)) * kGroupK +
           static_cast<size_t>(k % kGroupK);
}

#  if EMBARK_QGEMM_X86_VNNI
// correction[m] = -128 * the sum of the 16 lanes of acc[m], for the 8 pixels of a tile at once:
// a transpose-and-add tree (about 25 instructions) instead of a reduction per pixel (8 or 9
// each), which weighed on 1x1 layers with few input channels (32 -> 16 at 112x112: 8 k steps
// per pixel).
static_assert(kMR == 8, "corrections8 sums the 8 pixels of a tile");
[[gnu::always_inline]] inline void corrections8(const __m512i (&acc)[8], int32_t* correction) {
    // Within each 128-bit lane: [a0 a1 a0 a1] partial sums, then [a0 a1 a2 a3].
    auto pair = [](__m512i a, __m512i b) {
        return _mm512_add_epi32(_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
    };
    auto quad = [](__m512i ab, __m512i cd) {
        return _mm512_add_epi32(_mm512_unpacklo_epi64(ab, cd), _mm512_unpackhi_epi64(ab, cd));
    };
    const __m512i q0 = quad(pair(acc[0], acc[1]), pair(acc[2], acc[3]));
    const __m512i q1 = quad(pair(acc[4], acc[5]), pair(acc[6], acc[7]));
    // 128-bit lanes [q0.0 + q0.1, q0.2 + q0.3, q1.0 + q1.1, q1.2 + q1.3], then pairs added.
    const __m512i u = _mm512_add_epi32(_mm512_shuffle_i32x4(q0, q1, 0x88), _mm512_shuffle_i32x4(q0, q1, 0xDD));
    const __m512i v = _mm512_add_epi32(u, _mm512_shuffle_i32x4(u, u, 0xB1));
    // v's lane 0 holds pixels 0-3, lane 2 pixels 4-7.
    const __m256i sums = _mm256_set_m128i(_mm512_extracti32x4_epi32(v, 2), _mm512_castsi512_si128(v));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(correction), _mm256_mullo_epi32(sums, _mm256_set1_epi32(-128)));
}
#  endif

// The tile's pixels as its k loop reads them, prepared once per tile and group.
struct TileRows {
#  if EMBARK_QGEMM_X86_VNNI
    const int8_t* x[kMR];
    int32_t correction[kMR];    // -128 * sum of the row's kp bytes
    int taps = 1, channels = 0; // as TapRows: one "tap" of kp bytes per pixel (tile_taps)
    explicit TileRows(int) {}
    // The row sums with vpdpbusd against ones, 64 bytes at a time, the tail through a masked
    // load (never past the row): GCC's loop ran its bytes one by one below 64 (every k of a 1x1
    // layer with fewer than 64 input channels, the stem's patches).
    void set(const int8_t* const* rows, int kp) {
        channels = kp;
        const __m512i ones = _mm512_set1_epi8(1);
        __m512i acc[kMR];
#    pragma GCC unroll 8
        for (int m = 0; m < kMR; ++m) {
            x[m] = rows[m];
            acc[m] = _mm512_setzero_si512();
            int k = 0;
            for (; k + 64 <= kp; k += 64) acc[m] = _mm512_dpbusd_epi32(acc[m], ones, _mm512_loadu_si512(rows[m] + k));
            if (k < kp) {
                const __mmask64 tail = (__mmask64(1) << (kp - k)) - 1;
                acc[m] = _mm512_dpbusd_epi32(acc[m], ones, _mm512_maskz_loadu_epi8(tail, rows[m] + k));
            }
        }
        corrections8(acc, correction);
    }
#  else
    std::vector<int16_t> buffer; // [kMR][kp]
    int stride = 0;
    explicit TileRows(int kp) : buffer(static_cast<size_t>(kMR) * kp), stride(kp) {}
    void set(const int8_t* const* rows, int kp) {
        if (kp < 64) { // short rows (the stem's 28, 16, 24): GCC's loop is mostly prologue there
            for (int m = 0; m < kMR; ++m) set_short(rows[m], buffer.data() + static_cast<size_t>(m) * kp, kp);
            return;
        }
        for (int m = 0; m < kMR; ++m) {
            const int8_t* __restrict src = rows[m];
            int16_t* __restrict dst = buffer.data() + static_cast<size_t>(m) * kp;
            for (int k = 0; k < kp; ++k) dst[k] = src[k];
        }
    }
    // kp % 4 == 0: 16, 8 and 4 bytes at a time, never past the row's kp bytes.
    static void set_short(const int8_t* src, int16_t* dst, int kp) {
        int k = 0;
        for (; k + 16 <= kp; k += 16)
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + k),
                                _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k))));
        if (k + 8 <= kp) {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + k),
                             _mm_cvtepi8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + k))));
            k += 8;
        }
        if (k < kp) {
            int32_t quad;
            std::memcpy(&quad, src + k, sizeof quad);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(dst + k), _mm_cvtepi8_epi16(_mm_cvtsi32_si128(quad)));
        }
    }
#  endif
};

// 16 requantized int8 of one pixel (acc: channels 0-7 and 8-15, or one zmm), stored to
// dst[0, n_valid).
struct RqVec {
    __m256 lo, hi, magic;
    __m256i offset;
    explicit RqVec(const QRq& rq)
        : lo(_mm256_set1_ps(rq.lo)),
          hi(_mm256_set1_ps(rq.hi)),
          magic(_mm256_set1_ps(12582912.f)),
          offset(_mm256_set1_epi32(rq.offset)) {}
};
[[gnu::always_inline]] inline __m256i requant8(__m256i acc, __m256 m, const RqVec& r) {
    __m256 v = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), m);
    v = _mm256_min_ps(_mm256_max_ps(v, r.lo), r.hi);
    v = _mm256_add_ps(v, r.magic);
    return _mm256_add_epi32(_mm256_castps_si256(v), r.offset);
}
[[gnu::always_inline]] inline void store16(int8_t* dst, __m256i q0, __m256i q1, int n_valid) {
    // Values are in [-128, 127]: the saturating packs are exact.
    const __m256i p = _mm256_permute4x64_epi64(_mm256_packs_epi32(q0, q1), 0xD8);
    const __m128i b = _mm_packs_epi16(_mm256_castsi256_si128(p), _mm256_extracti128_si256(p, 1));
    if (n_valid == kNR) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), b);
    } else {
        alignas(16) int8_t tmp[kNR];
        _mm_store_si128(reinterpret_cast<__m128i*>(tmp), b);
        std::memcpy(dst, tmp, static_cast<size_t>(n_valid));
    }
}

#  if EMBARK_QGEMM_X86_VNNI
// acc += the 16 lanes' 4 products of w (uint8) and the 4 signed bytes at x (broadcast). GCC 12
// compiles _mm512_dpbusd_epi32 in this loop with a vmovdqa64 copy of every accumulator per
// k step and a separate vpbroadcastd: the instruction is written out, with the broadcast
// folded into its memory operand.
[[gnu::always_inline]] inline void dpbusd_bcast(__m512i& acc, __m512i w, const int8_t* x) {
#    if defined(__GNUC__)
    __asm__("vpdpbusd %2%{1to16%}, %1, %0" : "+v"(acc) : "v"(w), "m"(*reinterpret_cast<const int32_t*>(x)));
#    else
    int32_t quad;
    std::memcpy(&quad, x, sizeof quad);
    acc = _mm512_dpbusd_epi32(acc, w, _mm512_set1_epi32(quad));
#    endif
}

// acc += w's lanes times the 4 bytes already broadcast in q (written out for the same reason).
[[gnu::always_inline]] inline void dpbusd_reg(__m512i& acc, __m512i w, __m512i q) {
#    if defined(__GNUC__)
    __asm__("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(w), "v"(q));
#    else
    acc = _mm512_dpbusd_epi32(acc, w, q);
#    endif
}

// Requantizes the tile's accumulators and stores its n_valid channels per pixel.
template <int MR>
[[gnu::always_inline]] inline void store_tile(const __m512i (&acc)[MR], const float* __restrict mult, int8_t* c,
                                              size_t c_stride, int n_valid, QRq rq) {
    const __m512 mv = _mm512_loadu_ps(mult);
    const __m512 lo = _mm512_set1_ps(rq.lo), hi = _mm512_set1_ps(rq.hi), magic = _mm512_set1_ps(12582912.f);
    const __m512i offset = _mm512_set1_epi32(rq.offset);
    const __mmask16 keep = static_cast<__mmask16>((1u << n_valid) - 1u);
#    pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) {
        __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(acc[m]), mv);
        v = _mm512_add_ps(_mm512_min_ps(_mm512_max_ps(v, lo), hi), magic);
        const __m128i q = _mm512_cvtsepi32_epi8(_mm512_add_epi32(_mm512_castps_si512(v), offset));
        _mm_mask_storeu_epi8(c + m * c_stride, keep, q);
    }
}

// Convolutions other than a 1x1 read in place, through pointers, in one of two layouts (groups
// 1; otherwise, and without VNNI, the tile reads a copied patch):
//  * rows (horizontal dilation 1): quant_kernels.h's rows layout (kernel_rows(), as aarch64's
//    qconv_rows), the row padding's packed weights 0, i.e. w + 128 = 0: the bytes read there,
//    the next pixel's, add nothing. A 3x3 layer of 64 channels is 3 rows of 192 bytes.
//  * taps (C % 4 == 0, any dilation): the layer's [pixel][tap] pointer table
//    (QConv2D::indirection, built once per input; the padding points to the zero-point row).
// Either way a tile's pixel m reads its rows at x[m * taps + t] (taps = kernel_h rows or the
// kernel's taps, `channels` = bytes per row), with the patch path's weights for taps, and each
// pixel's row sum is over the `summed` real bytes of its rows (not the rows' padding).
static_assert(kGroupK == 4, "the rows layout pads rows to 4 bytes");

struct TapRows {
    const int8_t* const* x = nullptr; // the tile's first pixel's rows; pixel m's at x + m * taps
    int32_t correction[kMR];
    int taps, channels, summed;
    TapRows(int taps_, int channels_, int summed_) : taps(taps_), channels(channels_), summed(summed_) {}
    // -128 * the sum of the `summed` first bytes of each pixel's rows (vpdpbusd against ones,
    // a masked tail).
    void set(const int8_t* const* table, int m_valid) {
        x = table;
        const __m512i ones = _mm512_set1_epi8(1);
        const int tail = summed % 64;
        const __mmask64 tail_mask = tail ? (__mmask64(1) << tail) - 1 : 0;
        __m512i acc[kMR];
#    pragma GCC unroll 8
        for (int m = 0; m < kMR; ++m) {
            acc[m] = _mm512_setzero_si512();
            if (m >= m_valid) continue; // rows past the tile's pixels are not set
            for (int t = 0; t < taps; ++t) {
                const int8_t* row = x[static_cast<size_t>(m) * taps + t];
                int k = 0;
                for (; k + 64 <= summed; k += 64)
                    acc[m] = _mm512_dpbusd_epi32(acc[m], ones, _mm512_loadu_si512(row + k));
                if (tail) acc[m] = _mm512_dpbusd_epi32(acc[m], ones, _mm512_maskz_loadu_epi8(tail_mask, row + k));
            }
        }
        corrections8(acc, correction);
    }
};

// P (1 or 2) panels of 16 channels for MR pixels whose rows are `in` (TapRows or TileRows):
// panel 1's weights at w + w_panel, bias, multipliers and output 16 channels further; the last
// panel keeps n_last channels. With two panels each pixel's 4 bytes are broadcast into a
// register once and feed both panels' vpdpbusd (16 accumulators), and a row's pointers are
// loaded once per 32 channels (one panel per pass made 64-channel 3x3 layers slow: bench/README.md).
// One panel uses the broadcast
// memory operand. The accumulators and row pointers are named variables, not arrays: with the
// rows loop around the k loop, GCC 12 kept an accumulator array on the stack (a load and a
// store around every vpdpbusd).
template <int MR, int P, typename Rows>
[[gnu::always_inline]] inline void tile_taps(const Rows& in, const Weight* __restrict w, size_t w_panel,
                                             const int32_t* __restrict bias, const float* __restrict mult, int8_t* c,
                                             size_t c_stride, int n_last, QRq rq) {
    static_assert(MR >= 1 && MR <= 8 && (P == 1 || P == 2), "at most 8 pixels, 1 or 2 panels");
    const __m512i b0 = _mm512_loadu_si512(bias), b1 = P == 2 ? _mm512_loadu_si512(bias + kNR) : b0;
// clang-format off
#    define EMBARK_TAPS_ACC(i)                                                                                         \
      const __m512i s##i = _mm512_set1_epi32(MR > i ? in.correction[MR > i ? i : 0] : 0);                              \
      __m512i a##i = _mm512_add_epi32(b0, s##i), c##i = _mm512_add_epi32(b1, s##i);
    EMBARK_TAPS_ACC(0)
    EMBARK_TAPS_ACC(1) EMBARK_TAPS_ACC(2) EMBARK_TAPS_ACC(3) EMBARK_TAPS_ACC(4) EMBARK_TAPS_ACC(5) EMBARK_TAPS_ACC(6)
        EMBARK_TAPS_ACC(7)
#    undef EMBARK_TAPS_ACC
            const int channels = in.channels,
                      taps = in.taps;
    const int8_t* const* px = in.x;
    const Weight* wt = w;
    // Pixel m's row t at px[m * taps + t]; rows past MR repeat row 0 (never used).
    for (int t = 0; t < taps; ++t, ++px, wt += static_cast<size_t>(channels) * kNR) {
        const int8_t *x0 = px[0], *x1 = px[(MR > 1 ? 1 : 0) * taps], *x2 = px[(MR > 2 ? 2 : 0) * taps];
        const int8_t *x3 = px[(MR > 3 ? 3 : 0) * taps], *x4 = px[(MR > 4 ? 4 : 0) * taps];
        const int8_t *x5 = px[(MR > 5 ? 5 : 0) * taps], *x6 = px[(MR > 6 ? 6 : 0) * taps];
        const int8_t* x7 = px[(MR > 7 ? 7 : 0) * taps];
        for (int k = 0; k < channels; k += 4) {
            const __m512i w0 = _mm512_loadu_si512(wt + static_cast<size_t>(k) * kNR);
            const __m512i w1 = P == 2 ? _mm512_loadu_si512(wt + w_panel + static_cast<size_t>(k) * kNR) : w0;
#    define EMBARK_TAPS_STEP(i)                                                                                        \
      if constexpr (MR > i) {                                                                                          \
        if constexpr (P == 1) {                                                                                        \
          dpbusd_bcast(a##i, w0, x##i + k);                                                                            \
        } else {                                                                                                       \
          int32_t quad;                                                                                                \
          std::memcpy(&quad, x##i + k, sizeof quad);                                                                   \
          const __m512i q = _mm512_set1_epi32(quad);                                                                   \
          dpbusd_reg(a##i, w0, q);                                                                                     \
          dpbusd_reg(c##i, w1, q);                                                                                     \
        }                                                                                                              \
      }
            EMBARK_TAPS_STEP(0)
            EMBARK_TAPS_STEP(1) EMBARK_TAPS_STEP(2) EMBARK_TAPS_STEP(3) EMBARK_TAPS_STEP(4) EMBARK_TAPS_STEP(5)
                EMBARK_TAPS_STEP(6) EMBARK_TAPS_STEP(7)
#    undef EMBARK_TAPS_STEP
            // clang-format on
        }
    }
    {
        const __m512i all[8] = {a0, a1, a2, a3, a4, a5, a6, a7};
        __m512i acc[MR];
#    pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) acc[m] = all[m];
        store_tile<MR>(acc, mult, c, c_stride, P == 2 ? kNR : n_last, rq);
    }
    if constexpr (P == 2) {
        const __m512i all[8] = {c0, c1, c2, c3, c4, c5, c6, c7};
        __m512i acc[MR];
#    pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) acc[m] = all[m];
        store_tile<MR>(acc, mult + kNR, c + kNR, c_stride, n_last, rq);
    }
}

template <int MR, typename Rows>
[[gnu::noinline]] void panels_taps_mr(int kp, int panels, int mg, const Rows& in, const Weight* w, const int32_t* bias,
                                      const float* mult, int8_t* c, size_t c_stride, QRq rq) {
    const size_t w_panel = static_cast<size_t>(kNR) * kp;
    int panel = 0;
    for (; panel + 1 < panels; panel += 2) {
        const size_t at = static_cast<size_t>(panel) * kNR;
        tile_taps<MR, 2, Rows>(in, w + panel * w_panel, w_panel, bias + at, mult + at, c + at, c_stride,
                               std::min(kNR, mg - (panel + 1) * kNR), rq);
    }
    if (panel < panels) {
        const size_t at = static_cast<size_t>(panel) * kNR;
        tile_taps<MR, 1, Rows>(in, w + panel * w_panel, w_panel, bias + at, mult + at, c + at, c_stride,
                               std::min(kNR, mg - panel * kNR), rq);
    }
}
// m_valid (1..kMR) pixels on the instantiation of that size.
template <int MR = 1, typename Rows>
inline void panels_taps(int m_valid, int kp, int panels, int mg, const Rows& in, const Weight* w, const int32_t* bias,
                        const float* mult, int8_t* c, size_t c_stride, QRq rq) {
    if constexpr (MR < kMR) {
        if (m_valid != MR) {
            panels_taps<MR + 1, Rows>(m_valid, kp, panels, mg, in, w, bias, mult, c, c_stride, rq);
            return;
        }
    }
    panels_taps_mr<MR, Rows>(kp, panels, mg, in, w, bias, mult, c, c_stride, rq);
}

#  else
// HALF: the panel's first 8 channels only (a channel tail of at most 8: 24 = 16 + 8).
template <int MR, bool HALF>
[[gnu::always_inline]] inline void tile(int kp, const TileRows& in, const Weight* __restrict w,
                                        const int32_t* __restrict bias, const float* __restrict mult, int8_t* c,
                                        size_t c_stride, int n_valid, QRq rq) {
    __m256i acc0[MR], acc1[MR];
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias));
    const __m256i b1 = HALF ? b0 : _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + 8));
    const int16_t* x = in.buffer.data();
    const size_t stride = static_cast<size_t>(in.stride);
#    pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) acc0[m] = b0, acc1[m] = b1;
    // Two k pairs per iteration (kp % 4 == 0).
    for (int k = 0; k < kp; k += 4) {
        const __m256i* wk = reinterpret_cast<const __m256i*>(w + static_cast<size_t>(k) * kNR);
        const __m256i w0 = _mm256_loadu_si256(wk), w2 = _mm256_loadu_si256(wk + 2);
        const __m256i w1 = HALF ? w0 : _mm256_loadu_si256(wk + 1), w3 = HALF ? w2 : _mm256_loadu_si256(wk + 3);
#    pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) {
            int32_t p0, p1;
            std::memcpy(&p0, x + m * stride + k, sizeof p0);
            std::memcpy(&p1, x + m * stride + k + 2, sizeof p1);
            const __m256i x0 = _mm256_set1_epi32(p0), x1 = _mm256_set1_epi32(p1);
            acc0[m] = _mm256_add_epi32(acc0[m], _mm256_madd_epi16(x0, w0));
            acc0[m] = _mm256_add_epi32(acc0[m], _mm256_madd_epi16(x1, w2));
            if constexpr (!HALF) {
                acc1[m] = _mm256_add_epi32(acc1[m], _mm256_madd_epi16(x0, w1));
                acc1[m] = _mm256_add_epi32(acc1[m], _mm256_madd_epi16(x1, w3));
            }
        }
    }
    const RqVec r(rq);
    const __m256 m0 = _mm256_loadu_ps(mult), m1 = HALF ? m0 : _mm256_loadu_ps(mult + 8);
#    pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) {
        if constexpr (HALF) {
            const __m256i q = requant8(acc0[m], m0, r);
            const __m128i p = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
            alignas(16) int8_t tmp[16];
            _mm_store_si128(reinterpret_cast<__m128i*>(tmp), _mm_packs_epi16(p, p));
            std::memcpy(c + m * c_stride, tmp, static_cast<size_t>(n_valid));
        } else {
            store16(c + m * c_stride, requant8(acc0[m], m0, r), requant8(acc1[m], m1, r), n_valid);
        }
    }
}
#  endif

// The hook of quant_conv.cpp: all panels of one group for m_valid (1..kMR) pixels whose rows
// are `in` (c[m][n] of the group's mg channels). VNNI: tile_taps's panel pairs with one "tap".
#  if EMBARK_QGEMM_X86_VNNI
inline void panels(int m_valid, int kp, int panels, int mg, const TileRows& in, const Weight* w, const int32_t* bias,
                   const float* mult, int8_t* c, size_t c_stride, QRq rq) {
    panels_taps(m_valid, kp, panels, mg, in, w, bias, mult, c, c_stride, rq);
}
#  else
template <int MR>
[[gnu::noinline]] void panels_mr(int kp, int panels, int mg, const TileRows& in, const Weight* w, const int32_t* bias,
                                 const float* mult, int8_t* c, size_t c_stride, QRq rq) {
    const size_t w_panel = static_cast<size_t>(kNR) * kp;
    for (int panel = 0; panel < panels; ++panel) {
        const int n_valid = std::min(kNR, mg - panel * kNR);
        const size_t at = static_cast<size_t>(panel) * kNR;
        if (n_valid <= 8)
            tile<MR, true>(kp, in, w + panel * w_panel, bias + at, mult + at, c + at, c_stride, n_valid, rq);
        else
            tile<MR, false>(kp, in, w + panel * w_panel, bias + at, mult + at, c + at, c_stride, n_valid, rq);
    }
}
template <int MR = 1>
inline void panels(int m_valid, int kp, int panels, int mg, const TileRows& in, const Weight* w, const int32_t* bias,
                   const float* mult, int8_t* c, size_t c_stride, QRq rq) {
    if constexpr (MR < kMR) {
        if (m_valid != MR) {
            x86q::panels<MR + 1>(m_valid, kp, panels, mg, in, w, bias, mult, c, c_stride, rq);
            return;
        }
    }
    panels_mr<MR>(kp, panels, mg, in, w, bias, mult, c, c_stride, rq);
}
#  endif

// ----- Depthwise (quant_depthwise.cpp) ------------------------------------------------------
// Weights [ceil(taps / 2)][M][2] int16: taps in pairs (an odd last tap's partner is 0). Per
// pixel, 16 channels and tap pair: the two taps' 16 bytes interleaved (punpcklbw/punpckhbw) and
// sign-extended, one vpmaddwd per 8 channels (both taps' products in each int32 lane) + vpaddd,
// in channel order; then quant_kernels.h's requantization. A channel count that is not a
// multiple of 16 recomputes the last 16 channels (a pure function of the inputs: the overlap
// writes the same bytes); fewer than 16 channels run a scalar loop.
inline size_t dw_weight_index(int t, int c, int channels) {
    return (static_cast<size_t>(t / 2) * channels + static_cast<size_t>(c)) * 2 + static_cast<size_t>(t % 2);
}
inline size_t dw_weight_count(int taps, int channels) { return static_cast<size_t>((taps + 1) / 2) * channels * 2; }

// TAPS > 0: that many taps (unrolled); 0: `taps` at run time.
template <int TAPS>
[[gnu::always_inline]] inline void dw_channels16(const int8_t* const* x, int taps, const int16_t* __restrict w,
                                                 int channels, const int32_t* __restrict bias,
                                                 const float* __restrict mult, int8_t* out, int c, const RqVec& r) {
    const int n = TAPS > 0 ? TAPS : taps;
    __m256i acc0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + c));
    __m256i acc1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + c + 8));
    const size_t pair_stride = static_cast<size_t>(channels) * 2;
    const int16_t* wc = w + static_cast<size_t>(c) * 2;
#  pragma GCC unroll 16
    for (int t = 0; t + 1 < n; t += 2) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x[t] + c));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x[t + 1] + c));
        const __m256i lo = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(a, b));
        const __m256i hi = _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(a, b));
        const int16_t* wp = wc + static_cast<size_t>(t / 2) * pair_stride;
        acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(lo, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wp))));
        acc1 = _mm256_add_epi32(acc1,
                                _mm256_madd_epi16(hi, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wp + 16))));
    }
    if (n % 2) { // the last tap, its partner weight 0
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x[n - 1] + c));
        const __m256i lo = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(a, a));
        const __m256i hi = _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(a, a));
        const int16_t* wp = wc + static_cast<size_t>(n / 2) * pair_stride;
        acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(lo, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wp))));
        acc1 = _mm256_add_epi32(acc1,
                                _mm256_madd_epi16(hi, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wp + 16))));
    }
    store16(out + c, requant8(acc0, _mm256_loadu_ps(mult + c), r), requant8(acc1, _mm256_loadu_ps(mult + c + 8), r),
            kNR);
}

#  if EMBARK_QGEMM_X86_VNNI
// AVX-512 (BW): 32 channels per step, the same weights and sums as dw_channels16 in 512-bit
// registers. The two taps' 32 bytes are put in channel order per 128-bit lane first (vpermq),
// so that the byte interleave gives channels 0-15 and 16-31 in order and the weight pairs load
// straight from the [tap pair][channel][2] layout: 64 multiply-adds per 14 instructions
// against 20 with 16 channels at a time.
template <int TAPS>
[[gnu::always_inline]] inline void dw_channels32(const int8_t* const* x, int taps, const int16_t* __restrict w,
                                                 int channels, const int32_t* __restrict bias,
                                                 const float* __restrict mult, int8_t* out, int c, QRq rq) {
    const int n = TAPS > 0 ? TAPS : taps;
    __m512i acc0 = _mm512_loadu_si512(bias + c), acc1 = _mm512_loadu_si512(bias + c + 16);
    const size_t pair_stride = static_cast<size_t>(channels) * 2;
    const int16_t* wc = w + static_cast<size_t>(c) * 2;
    auto lanes_in_order = [](const int8_t* p) {
        return _mm256_permute4x64_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), 0xD8);
    };
#    pragma GCC unroll 16
    for (int t = 0; t + 1 < n; t += 2) {
        const __m256i a = lanes_in_order(x[t] + c), b = lanes_in_order(x[t + 1] + c);
        const __m512i lo = _mm512_cvtepi8_epi16(_mm256_unpacklo_epi8(a, b));
        const __m512i hi = _mm512_cvtepi8_epi16(_mm256_unpackhi_epi8(a, b));
        const int16_t* wp = wc + static_cast<size_t>(t / 2) * pair_stride;
        acc0 = _mm512_add_epi32(acc0, _mm512_madd_epi16(lo, _mm512_loadu_si512(wp)));
        acc1 = _mm512_add_epi32(acc1, _mm512_madd_epi16(hi, _mm512_loadu_si512(wp + 32)));
    }
    if (n % 2) { // the last tap, its partner weight 0
        const __m256i a = lanes_in_order(x[n - 1] + c);
        const __m512i lo = _mm512_cvtepi8_epi16(_mm256_unpacklo_epi8(a, a));
        const __m512i hi = _mm512_cvtepi8_epi16(_mm256_unpackhi_epi8(a, a));
        const int16_t* wp = wc + static_cast<size_t>(n / 2) * pair_stride;
        acc0 = _mm512_add_epi32(acc0, _mm512_madd_epi16(lo, _mm512_loadu_si512(wp)));
        acc1 = _mm512_add_epi32(acc1, _mm512_madd_epi16(hi, _mm512_loadu_si512(wp + 32)));
    }
    const __m512 lo = _mm512_set1_ps(rq.lo), hi = _mm512_set1_ps(rq.hi), magic = _mm512_set1_ps(12582912.f);
    const __m512i offset = _mm512_set1_epi32(rq.offset);
    auto requant16 = [&](__m512i a, const float* m) { // as store_tile's
        __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(a), _mm512_loadu_ps(m));
        v = _mm512_add_ps(_mm512_min_ps(_mm512_max_ps(v, lo), hi), magic);
        return _mm512_cvtsepi32_epi8(_mm512_add_epi32(_mm512_castps_si512(v), offset));
    };
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + c), requant16(acc0, mult + c));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + c + 16), requant16(acc1, mult + c + 16));
}
#  endif

template <int TAPS>
[[gnu::noinline]] void dw_pixels(const QConv2D& op, int64_t begin, int64_t end, int8_t* output) {
    const int channels = op.out_c, taps = TAPS > 0 ? TAPS : op.kernel_h * op.kernel_w;
    const auto* w = static_cast<const int16_t*>(op.weights);
    const QRq rq = requant_params(op.out);
    const RqVec r(rq);
    const int32_t* bias = op.bias;
    const float* mult = op.multipliers;
    for (int64_t p = begin; p < end; ++p) {
        const int8_t* const* x = op.indirection + p * taps;
        int8_t* out = output + p * channels;
        if (channels < 16) {
            for (int c = 0; c < channels; ++c) {
                int32_t acc = bias[c];
                for (int t = 0; t < taps; ++t)
                    acc += static_cast<int32_t>(x[t][c]) * w[dw_weight_index(t, c, channels)];
                out[c] = requant_one(acc, mult[c], rq.lo, rq.hi, rq.offset);
            }
            continue;
        }
        int c = 0;
#  if EMBARK_QGEMM_X86_VNNI
        for (; c + 32 <= channels; c += 32) dw_channels32<TAPS>(x, taps, w, channels, bias, mult, out, c, rq);
#  endif
        for (; c + 16 <= channels; c += 16) dw_channels16<TAPS>(x, taps, w, channels, bias, mult, out, c, r);
        if (c != channels) dw_channels16<TAPS>(x, taps, w, channels, bias, mult, out, channels - 16, r);
    }
}

inline void depthwise(const QConv2D& op, int64_t begin, int64_t end, int8_t* output) {
    switch (op.kernel_h * op.kernel_w) {
    case 9: dw_pixels<9>(op, begin, end, output); return;
    case 25: dw_pixels<25>(op, begin, end, output); return;
    default: dw_pixels<0>(op, begin, end, output); return;
    }
}

} // namespace embark::portable::quant_detail::x86q

#  if defined(__GNUC__) && !defined(__clang__)
#    pragma GCC diagnostic pop
#  endif
#endif

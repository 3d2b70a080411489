// Int8 convolutions (quant.h): QConv2D's storage and packing, and the non-depthwise
// convolutions on a GEMM register tile (depthwise: quant_depthwise.cpp). The arithmetic
// matches core/reference/quantized_fused.cpp exactly; see quant.h.
#if defined(__clang__)
#  pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#  pragma GCC optimize("fp-contract=off")
#endif

#include "quant_x86.h" // EMBARK_QGEMM_X86: x86-64 AVX2 / AVX-512 VNNI int8 tiles (intrinsics)
#include "quant_kernels.h"
#include "quant_depthwise_neon.h" // aarch64 + dotprod: the depthwise weight layout (EMBARK_QDW_NEONDOT)
#include "quant_gemm_neon.h"      // aarch64 + dotprod: the 4x16c4 tile (EMBARK_QGEMM_NEONDOT)
#include "quant_gemm_rvv.h"       // RVV with Clang: the outer-product tile (EMBARK_QGEMM_RVV)
#include "quant_winograd_rvv.h"   // RVV with Clang: 3x3 stride-1 convolutions by integer Winograd
#include "quant_pixels_rvv.h"     // RVV with Clang: few output channels, pixels on the lanes

#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

namespace embark::portable {

using namespace quant_detail;

// ----- QConv2D ------------------------------------------------------------------------------

QConv2D::QConv2D(QConv2D&& o) noexcept { *this = std::move(o); }
QConv2D& QConv2D::operator=(QConv2D&& o) noexcept {
    if (this != &o) {
        std::free(storage);
        std::free(static_cast<void*>(indirection));
        std::memcpy(static_cast<void*>(this), &o, sizeof(QConv2D));
        o.storage = nullptr;
        o.indirection = nullptr;
        o.indirection_input = nullptr;
        o.weights = nullptr;
        o.bias = nullptr;
        o.multipliers = nullptr;
        o.zero = nullptr;
        o.pixel_offsets = nullptr;
        o.tap_offsets = nullptr;
    }
    return *this;
}
QConv2D::~QConv2D() {
    std::free(storage);
    std::free(static_cast<void*>(indirection));
}

namespace {

// The GEMM register tile of the non-depthwise convolutions (see quant.h).
#if defined(EMBARK_QGEMM_NEONDOT)
// aarch64 with the dot product extension: quant_gemm_neon.h's 4 pixels x 16 channels, sdot by
// lane over weights packed [kp / 4][16][4], k padded to 4.
constexpr int kQMR = neondot::kMR, kQNR = neondot::kNR, kQKAlign = neondot::kKAlign;
#elif EMBARK_QGEMM_RVV
// RVV (Clang): quant_gemm_rvv.h's outer-product tile, int16 weights packed [kp][kNR].
constexpr int kQMR = rvv::kMR, kQNR = rvv::kNR, kQKAlign = 1;
#elif EMBARK_QGEMM_X86
// x86-64 with AVX2: quant_x86.h's tile (pairwise multiply-adds, no horizontal sums).
constexpr int kQMR = x86q::kMR, kQNR = x86q::kNR, kQKAlign = x86q::kKAlign;
#else
// Dot products over k: 16 int32 sums (4 pixels x 4 channels) in one k loop, which GCC
// vectorizes as one reduction per sum (sdot on Arm's dot product extension: 16 multiply-adds
// per instruction) and reduces after the loop. k is padded to 16 (zero weights and inputs), so
// the vector loop has no remainder.
constexpr int kQMR = 4, kQNR = 4, kQKAlign = 16;
#endif

// Whether the GEMM tile reads kernel rows in place (quant_kernels.h's rows layout) where
// rows_layout() allows: aarch64 with the dot product extension, x86-64 with AVX-512 VNNI (rows
// padded to 4 bytes for their 4-byte dot products) and RVV (one byte per k: no padding).
#if defined(EMBARK_QGEMM_NEONDOT) || EMBARK_QGEMM_X86_VNNI
constexpr bool kRowsLayout = true;
constexpr int kRowAlign = 4;
#elif EMBARK_QGEMM_RVV
constexpr bool kRowsLayout = true;
constexpr int kRowAlign = 1;
#else
constexpr bool kRowsLayout = false;
constexpr int kRowAlign = 4;
#endif

// An output pixel's image, row and column; a tile's pixels are consecutive, so only its first
// one costs divisions (two per pixel had been a third of the stem's patch building).
struct PixelAt {
    int64_t n = 0;
    int oy = 0, ox = 0;
    PixelAt(const QConv2D& op, int64_t p)
        : n(p / (static_cast<int64_t>(op.out_h) * op.out_w)),
          oy(static_cast<int>(p / op.out_w % op.out_h)),
          ox(static_cast<int>(p % op.out_w)) {}
    void next(const QConv2D& op) {
        if (++ox < op.out_w) return;
        ox = 0;
        if (++oy < op.out_h) return;
        oy = 0;
        ++n;
    }
};

// memcpy of a few bytes without the library call (a 3x3 stem's kernel row is 9 bytes; the call
// and its size dispatch cost more than the copy): 8, 4, 2 and 1 bytes at a time, in bounds.
inline void copy_small(int8_t* dst, const int8_t* src, size_t len) {
    for (; len >= 8; len -= 8, dst += 8, src += 8) std::memcpy(dst, src, 8);
    if (len & 4) {
        std::memcpy(dst, src, 4);
        dst += 4;
        src += 4;
    }
    if (len & 2) {
        std::memcpy(dst, src, 2);
        dst += 2;
        src += 2;
    }
    if (len & 1) *dst = *src;
}

void build_patch(const QConv2D& op, const int8_t* input, const PixelAt& at, int8_t* dst) {
    const int cg = op.in_c / op.groups;
    const int64_t n = at.n;
    const int oy = at.oy, ox = at.ox;
    const int ix0 = ox * op.stride_w - op.pad_left;
    // One group, no horizontal dilation: a kernel row inside the input is kernel_w * C
    // contiguous bytes (one copy instead of one per tap: the 3-channel stems).
    const bool whole_rows = op.groups == 1 && op.dilation_w == 1 && ix0 >= 0 && ix0 + op.kernel_w <= op.in_w;
    for (int ky = 0; ky < op.kernel_h; ++ky) {
        const int iy = oy * op.stride_h - op.pad_top + ky * op.dilation_h;
        if (whole_rows && iy >= 0 && iy < op.in_h) {
            copy_small(dst + static_cast<size_t>(ky) * op.kernel_w * cg,
                       input + ((n * op.in_h + iy) * op.in_w + ix0) * op.in_c, static_cast<size_t>(op.kernel_w) * cg);
            continue;
        }
        for (int kx = 0; kx < op.kernel_w; ++kx) {
            const int ix = ix0 + kx * op.dilation_w;
            const int t = ky * op.kernel_w + kx;
            const bool inside = iy >= 0 && iy < op.in_h && ix >= 0 && ix < op.in_w;
            const int8_t* src = inside ? input + ((n * op.in_h + iy) * op.in_w + ix) * op.in_c : op.zero;
            for (int g = 0; g < op.groups; ++g)
                copy_small(dst + static_cast<size_t>(g) * op.kp + static_cast<size_t>(t) * cg, src + g * cg,
                           static_cast<size_t>(cg));
        }
    }
}

const int8_t* direct_row(const QConv2D& op, const int8_t* input, const PixelAt& at) {
    return input + ((at.n * op.in_h + static_cast<int64_t>(at.oy) * op.stride_h) * op.in_w +
                    static_cast<int64_t>(at.ox) * op.stride_w) *
                       op.in_c;
}

#if EMBARK_QGEMM_RVV
using QWeight = int16_t;
#else
// c[m][n] = requantized(bias[n] + sum_k rows[m][k] * w[n][k]); w is [NR][kp] int8, kp % 16 == 0.
template <int MR, int NR>
[[gnu::noinline]] void qgemm_tile(int kp, const int8_t* const* rows, const int8_t* __restrict w,
                                  const int32_t* __restrict bias, const float* __restrict mult, int8_t* c,
                                  size_t c_stride, int m_valid, int n_valid, QRq rq) {
    kp &= ~(kQKAlign - 1); // a no-op that tells the vectorizer there is no remainder loop
    int32_t s[MR][NR];
#  pragma GCC unroll 8
    for (int m = 0; m < MR; ++m)
#  pragma GCC unroll 16
        for (int n = 0; n < NR; ++n) s[m][n] = 0;
    const int8_t* __restrict a[MR];
#  pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) a[m] = rows[m];
    const int8_t* __restrict wn[NR];
#  pragma GCC unroll 16
    for (int n = 0; n < NR; ++n) wn[n] = w + static_cast<size_t>(n) * kp;
    for (int k = 0; k < kp; ++k) {
#  pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) {
            const int32_t x = a[m][k];
#  pragma GCC unroll 8
            for (int n = 0; n < NR; ++n) s[m][n] += x * static_cast<int32_t>(wn[n][k]);
        }
    }
    // Requantized with constant indices (the sums stay in registers), then stored.
    int8_t tile[MR][NR];
#  pragma GCC unroll 8
    for (int m = 0; m < MR; ++m)
#  pragma GCC unroll 16
        for (int n = 0; n < NR; ++n) tile[m][n] = requant_one(s[m][n] + bias[n], mult[n], rq.lo, rq.hi, rq.offset);
    if (n_valid == NR) {
        for (int m = 0; m < m_valid; ++m) std::memcpy(c + m * c_stride, tile[m], NR);
    } else {
        for (int m = 0; m < m_valid; ++m) std::memcpy(c + m * c_stride, tile[m], static_cast<size_t>(n_valid));
    }
}
#  if EMBARK_QGEMM_X86
using QWeight = x86q::Weight;
#  else
using QWeight = int8_t;
#  endif

// A tile of m_valid pixels on the instantiation of that size (the last tile of a layer, and
// the single row of a fully connected layer, do no wasted work).
template <int NR>
inline void qgemm_tile_any(int kp, const int8_t* const* rows, const QWeight* w, const int32_t* bias, const float* mult,
                           int8_t* c, size_t c_stride, int m_valid, int n_valid, QRq rq) {
    switch (m_valid) {
    case 1: qgemm_tile<1, NR>(kp, rows, w, bias, mult, c, c_stride, 1, n_valid, rq); return;
    case 2:
        if constexpr (kQMR >= 2)
            qgemm_tile<kQMR >= 2 ? 2 : 1, NR>(kp, rows, w, bias, mult, c, c_stride, 2, n_valid, rq);
        return;
    case 3:
        if constexpr (kQMR >= 3)
            qgemm_tile<kQMR >= 3 ? 3 : 1, NR>(kp, rows, w, bias, mult, c, c_stride, 3, n_valid, rq);
        return;
    default: qgemm_tile<kQMR, NR>(kp, rows, w, bias, mult, c, c_stride, m_valid, n_valid, rq); return;
    }
}
#endif

void qconv2d_gemm(const QConv2D& op, const int8_t* input, int8_t* output, ThreadPool* pool) {
    constexpr int MR = kQMR, NR = kQNR;
    const int cg = op.in_c / op.groups, mg = op.out_c / op.groups, M = op.out_c;
    const int kp = op.kp, panels = op.panels;
    const int64_t pixels = static_cast<int64_t>(op.batch) * op.out_h * op.out_w;
    const int64_t tiles = (pixels + MR - 1) / MR;
    [[maybe_unused]] const QRq rq = requant_params(op.out);
    const auto* w = static_cast<const QWeight*>(op.weights);
    const size_t patch = static_cast<size_t>(op.groups) * kp;
#if defined(EMBARK_QGEMM_NEONDOT)
    if (!op.direct && rows_layout(op.groups, op.dilation_w)) { // row pointers, no patches
        run_parts(pool, tiles, [&](int64_t begin, int64_t end) {
            neondot::qconv_rows(op, input, output, begin * MR, std::min(pixels, end * MR));
        });
        return;
    }
    if (op.direct && op.stride_h == 1 && op.stride_w == 1 && op.groups == 1) { // rows in place, one call per part
        run_parts(pool, tiles, [&](int64_t begin, int64_t end) {
            const int64_t p0 = begin * MR, p1 = std::min(pixels, end * MR);
            const neondot::Out o{output + p0 * M, static_cast<size_t>(M), 0, M, op.out.zero_point,
                                 op.out.out_min,  op.out.out_max};
            neondot::qgemm_rows(kp, input + p0 * op.in_c, static_cast<size_t>(op.in_c), p1 - p0,
                                (pixels - p0) * op.in_c, w, op.bias, op.multipliers, o);
        });
        return;
    }
#endif
#if EMBARK_QGEMM_RVV
    if (op.pixel_lanes) { // chunks of output pixels on the lanes
        // The input widened to int16 (the gathers then run at the multiply-adds' element
        // width) and padded with the zero point, so that every tap of every pixel is at pixel
        // offset + tap offset.
        const size_t row = static_cast<size_t>(op.in_w) * op.in_c;
        const size_t wide_count = static_cast<size_t>(op.batch) * op.padded_h * op.padded_w * op.in_c;
        std::unique_ptr<int16_t[]> wide(new int16_t[wide_count]);
        if (op.pad_top != 0 || op.pad_left != 0 || op.padded_h != op.in_h || op.padded_w != op.in_w) {
            rvv::fill_s16(wide.get(), static_cast<int16_t>(op.x_zero_point), wide_count);
            for (int64_t n = 0; n < op.batch; ++n)
                for (int iy = 0; iy < op.in_h; ++iy)
                    rvv::widen_s8(
                        input + (n * op.in_h + iy) * row,
                        wide.get() + ((n * op.padded_h + iy + op.pad_top) * op.padded_w + op.pad_left) * op.in_c, row);
        } else {
            rvv::widen_s8(input, wide.get(), wide_count);
        }
        const int lanes = rvv::pixel_lanes();
        const int K = op.kp; // a group's taps * cg
        // Group g's tap k of the image's first pixel at g * K + k.
        std::vector<const char*> taps(static_cast<size_t>(op.groups) * K);
        for (int g = 0; g < op.groups; ++g)
            for (int k = 0; k < K; ++k)
                taps[static_cast<size_t>(g) * K + k] =
                    reinterpret_cast<const char*>(wide.get() + op.tap_offsets[k] + static_cast<ptrdiff_t>(g) * cg);
        run_parts(pool, (pixels + lanes - 1) / lanes, [&](int64_t begin, int64_t end) {
            rvv::pixel_lanes_chunks(op.pixel_offsets, pixels, lanes, begin, end, taps.data(), K, op.groups,
                                    static_cast<const int16_t*>(op.weights), mg, M, op.bias, op.multipliers, output,
                                    rq);
        });
        return;
    }
    if (op.winograd) { // tiles of 2x2 output pixels
        const int64_t wtiles = static_cast<int64_t>(op.batch) * ((op.out_h + 1) / 2) * ((op.out_w + 1) / 2);
        run_parts(pool, wtiles,
                  [&](int64_t begin, int64_t end) { rvv::winograd_tiles(op, input, output, begin, end); });
        return;
    }
    // 1x1, stride 1, one group, more than kNR / 2 channels: the pixels themselves are the rows.
    if (op.direct && op.stride_h == 1 && op.stride_w == 1 && op.groups == 1 && M > NR / 2) {
        run_parts(pool, (pixels + 2) / 3, [&](int64_t begin, int64_t end) {
            rvv::rows_gemm(input, static_cast<size_t>(op.in_c), begin * 3, std::min(pixels, end * 3), kp, w, op.bias,
                           op.multipliers, output, static_cast<size_t>(M), M, rq);
        });
        return;
    }
    // Kernel rows read in place (rows_layout, packed so at pack time, rows not padded).
    if (!op.direct && rows_layout(op.groups, op.dilation_w)) {
        const int kh = op.kernel_h, len = kp / kh;
        run_parts(pool, tiles, [&](int64_t begin, int64_t end) {
            std::vector<const int8_t*> table(static_cast<size_t>(MR) * kh); // pixel m's row ky at ky * MR + m
            const rvv::Patch x{table.data(), kh, len, 0};
            KernelRowsWalker walker(op, input, begin * MR, len, MR);
            for (int64_t tile = begin; tile < end; ++tile) {
                const int64_t p0 = tile * MR;
                const int m_valid = static_cast<int>(std::min<int64_t>(MR, pixels - p0));
                walker.next(m_valid, MR, table.data(), MR, 1);
                rvv::panels(x, m_valid, kp, w, op.bias, op.multipliers, output + p0 * M, static_cast<size_t>(M), M, rq);
            }
        });
        return;
    }
    // Taps read in place through the layer's [pixel][tap] table (allocated at pack time where
    // neither the rows layout nor Winograd applies: groups, horizontal dilations), one segment
    // of cg channels per tap, each group at its channels' offset: no patch copies.
    if (op.indirection) {
        if (op.indirection_input != input) build_depthwise_indirection(op, input); // the same [pixel][tap] table
        const int taps = op.kernel_h * op.kernel_w;
        run_parts(pool, tiles, [&](int64_t begin, int64_t end) {
            std::vector<const int8_t*> table(static_cast<size_t>(MR) * taps); // pixel m's tap t at t * MR + m
            for (int64_t tile = begin; tile < end; ++tile) {
                const int64_t p0 = tile * MR;
                const int m_valid = static_cast<int>(std::min<int64_t>(MR, pixels - p0));
                for (int m = 0; m < MR; ++m) {
                    const int8_t* const* from = op.indirection + (p0 + std::min(m, m_valid - 1)) * taps;
                    for (int t = 0; t < taps; ++t) table[static_cast<size_t>(t) * MR + m] = from[t];
                }
                int8_t* out = output + p0 * M;
                for (int g = 0; g < op.groups; ++g) {
                    const rvv::Patch x{table.data(), taps, cg, static_cast<size_t>(g) * cg};
                    const size_t at = static_cast<size_t>(g) * panels;
                    rvv::panels(x, m_valid, kp, w + at * NR * kp, op.bias + at * NR, op.multipliers + at * NR,
                                out + g * mg, static_cast<size_t>(M), mg, rq);
                }
            }
        });
        return;
    }
#endif
#if EMBARK_QGEMM_X86_VNNI
    // Kernel rows read in place (rows_layout, packed so at pack time).
    if (!op.direct && rows_layout(op.groups, op.dilation_w)) {
        const int kh = op.kernel_h, len = kp / kh;
        run_parts(pool, tiles, [&](int64_t begin, int64_t end) {
            std::vector<const int8_t*> table(static_cast<size_t>(MR) * kh); // pixel m's rows at m * kh
            x86q::TapRows rows(kh, len, op.kernel_w * op.in_c);
            KernelRowsWalker walker(op, input, begin * MR, len, MR);
            for (int64_t tile = begin; tile < end; ++tile) {
                const int64_t p0 = tile * MR;
                const int m_valid = static_cast<int>(std::min<int64_t>(MR, pixels - p0));
                walker.next(m_valid, MR, table.data(), 1, static_cast<size_t>(kh));
                rows.set(table.data(), m_valid);
                x86q::panels_taps(m_valid, kp, panels, M, rows, w, op.bias, op.multipliers, output + p0 * M,
                                  static_cast<size_t>(M), rq);
            }
        });
        return;
    }
    // Taps read in place through the layer's [pixel][tap] table (allocated at pack time where
    // the rows layout does not apply and C is a multiple of the 4-byte lanes).
    if (op.indirection) {
        if (op.indirection_input != input) build_depthwise_indirection(op, input); // the same [pixel][tap] table
        const int taps = op.kernel_h * op.kernel_w;
        run_parts(pool, tiles, [&](int64_t begin, int64_t end) {
            x86q::TapRows rows(taps, op.in_c, op.in_c);
            for (int64_t tile = begin; tile < end; ++tile) {
                const int64_t p0 = tile * MR;
                const int m_valid = static_cast<int>(std::min<int64_t>(MR, pixels - p0));
                rows.set(op.indirection + p0 * taps, m_valid);
                x86q::panels_taps(m_valid, kp, panels, M, rows, w, op.bias, op.multipliers, output + p0 * M,
                                  static_cast<size_t>(M), rq);
            }
        });
        return;
    }
#endif
    run_parts(pool, tiles, [&](int64_t begin, int64_t end) {
        std::vector<int8_t> patches(op.direct ? 0 : MR * patch, int8_t(0));
#if EMBARK_QGEMM_X86
        x86q::TileRows x86_rows(kp);
#endif
        for (int64_t tile = begin; tile < end; ++tile) {
            const int64_t p0 = tile * MR;
            const int m_valid = static_cast<int>(std::min<int64_t>(MR, pixels - p0));
            const int8_t* base[MR] = {};
            if (op.direct && op.stride_h == 1 && op.stride_w == 1) { // the input's pixels, in order
                for (int m = 0; m < MR; ++m) base[m] = input + (p0 + std::min(m, m_valid - 1)) * op.in_c;
            } else if (op.direct) {
                PixelAt at(op, p0);
                for (int m = 0; m < m_valid; ++m, at.next(op)) base[m] = direct_row(op, input, at);
                for (int m = m_valid; m < MR; ++m) base[m] = base[m_valid - 1];
            } else {
                PixelAt at(op, p0);
                for (int m = 0; m < m_valid; ++m, at.next(op)) build_patch(op, input, at, patches.data() + m * patch);
                for (int m = 0; m < MR; ++m) base[m] = patches.data() + std::min(m, m_valid - 1) * patch;
            }
            int8_t* out = output + p0 * M;
            for (int g = 0; g < op.groups; ++g) {
                const int8_t* rows[MR];
                const size_t shift = op.direct ? static_cast<size_t>(g) * cg : static_cast<size_t>(g) * kp;
                for (int m = 0; m < MR; ++m) rows[m] = base[m] + shift;
#if EMBARK_QGEMM_RVV
                const rvv::Patch x{rows, 1, kp, 0};
                const size_t at = static_cast<size_t>(g) * panels;
                rvv::panels(x, m_valid, kp, w + at * NR * kp, op.bias + at * NR, op.multipliers + at * NR, out + g * mg,
                            static_cast<size_t>(M), mg, rq);
#elif EMBARK_QGEMM_X86
                x86_rows.set(rows, kp);
                const size_t at = static_cast<size_t>(g) * panels;
                x86q::panels(m_valid, kp, panels, mg, x86_rows, w + at * NR * kp, op.bias + at * NR, op.multipliers + at * NR,
                             out + g * mg, static_cast<size_t>(M), rq);
#else
#  if defined(EMBARK_QGEMM_NEONDOT)
                const neondot::Out o{out + g * mg, static_cast<size_t>(M), m_valid, mg, op.out.zero_point, op.out.out_min,
                                     op.out.out_max};
                const size_t at = static_cast<size_t>(g) * panels;
                if (m_valid == 1) neondot::qgemm_panels<1>(kp, rows, w + at * NR * kp, op.bias + at * NR, op.multipliers + at * NR, o);
                else neondot::qgemm_panels<MR>(kp, rows, w + at * NR * kp, op.bias + at * NR, op.multipliers + at * NR, o);
                continue;
#  endif
                for (int panel = 0; panel < panels; ++panel) {
                    const size_t at = static_cast<size_t>(g) * panels + panel;
                    const int n_valid = std::min(NR, mg - panel * NR);
                    qgemm_tile_any<NR>(kp, rows, w + at * NR * kp, op.bias + at * NR, op.multipliers + at * NR,
                                       out + g * mg + panel * NR, static_cast<size_t>(M), m_valid, n_valid, rq);
                }
#endif
            }
        }
    });
}
template <typename T>
T* carve(unsigned char*& cursor, size_t count) {
    T* at = reinterpret_cast<T*>(cursor);
    cursor += (count * sizeof(T) + 63) / 64 * 64;
    return at;
}

} // namespace

QConv2D pack_qconv2d(const Conv2DShape& s, int out_h, int out_w, const int8_t* w, const int32_t* bias,
                     const float* multipliers, int x_zero_point, Requantization out) {
    if (s.groups < 1 || s.in_c % s.groups || s.out_c % s.groups)
        throw std::invalid_argument("pack_qconv2d: channels do not divide into groups");
    if (out_h < 1 || out_w < 1 || s.kernel_h < 1 || s.kernel_w < 1 || s.stride_h < 1 || s.stride_w < 1)
        throw std::invalid_argument("pack_qconv2d: empty output or kernel");
    QConv2D op;
    op.batch = s.batch, op.in_h = s.in_h, op.in_w = s.in_w, op.in_c = s.in_c;
    op.out_h = out_h, op.out_w = out_w, op.out_c = s.out_c;
    op.kernel_h = s.kernel_h, op.kernel_w = s.kernel_w, op.stride_h = s.stride_h, op.stride_w = s.stride_w;
    op.dilation_h = s.dilation_h, op.dilation_w = s.dilation_w, op.pad_top = s.pad_top, op.pad_left = s.pad_left;
    op.groups = s.groups, op.x_zero_point = x_zero_point, op.out = out;
    const int cg = s.in_c / s.groups, mg = s.out_c / s.groups, taps = s.kernel_h * s.kernel_w, M = s.out_c;
    op.depthwise = cg == 1 && mg == 1;
    auto weight = [&](int o, int c, int t) -> int32_t { return w[(static_cast<size_t>(o) * cg + c) * taps + t]; };
    // The zero point folded into the bias: padded taps read x_zero_point, so every tap adds
    // x * w and the sum minus x_zero_point * sum(w) is the reference's sum of (x - zp) * w.
    auto folded_bias = [&](int o) -> int32_t {
        int64_t sum = 0;
        for (int c = 0; c < cg; ++c)
            for (int t = 0; t < taps; ++t) sum += weight(o, c, t);
        return static_cast<int32_t>(static_cast<int64_t>(bias ? bias[o] : 0) -
                                    static_cast<int64_t>(x_zero_point) * sum);
    };
    const int64_t pixels = static_cast<int64_t>(s.batch) * out_h * out_w;
    const bool by_rows = kRowsLayout && rows_layout(s.groups, s.dilation_w); // for the GEMM tile
    size_t channels = 0, weight_bytes = 0;
    if (op.depthwise) {
        channels = static_cast<size_t>(M);
#if EMBARK_QGEMM_X86
        weight_bytes = x86q::dw_weight_count(taps, M) * sizeof(int16_t);
#else
        weight_bytes = static_cast<size_t>(taps) * M * sizeof(int16_t);
#endif
    } else {
        op.kp = (taps * cg + kQKAlign - 1) / kQKAlign * kQKAlign;
        if (by_rows) op.kp = s.kernel_h * row_length(s.kernel_w, cg, kRowAlign);
        op.panels = (mg + kQNR - 1) / kQNR;
        channels = static_cast<size_t>(s.groups) * op.panels * kQNR;
        weight_bytes = channels * op.kp * sizeof(QWeight);
        op.direct = taps == 1 && s.pad_top == 0 && s.pad_left == 0 && (out_h - 1) * s.stride_h < s.in_h &&
                    (out_w - 1) * s.stride_w < s.in_w && op.kp == cg;
#if EMBARK_QGEMM_RVV
        if (rvv::winograd_applies(s, out_h, out_w)) { // 16 positions x [panels][C][kNR]
            op.winograd = true;
            op.kp = cg;
            weight_bytes = 16 * channels * static_cast<size_t>(cg) * sizeof(QWeight);
        }
#endif
    }
#if EMBARK_QGEMM_RVV
    // Few output channels: pixels on the lanes, the input padded so that every tap of every
    // pixel is at pixel offset + tap offset (and widened to int16: byte offsets in 32 bits).
    const int padded_h = std::max(s.pad_top + s.in_h, (out_h - 1) * s.stride_h + (s.kernel_h - 1) * s.dilation_h + 1);
    const int padded_w = std::max(s.pad_left + s.in_w, (out_w - 1) * s.stride_w + (s.kernel_w - 1) * s.dilation_w + 1);
    const bool pixel_lanes = !op.depthwise && rvv::pixel_lanes_applies(cg, mg, taps) &&
                             static_cast<int64_t>(s.batch) * padded_h * padded_w * s.in_c < (int64_t{1} << 31);
    if (pixel_lanes) {
        op.pixel_lanes = true, op.winograd = false, op.direct = false;
        op.padded_h = padded_h, op.padded_w = padded_w;
        op.kp = taps * cg;
        channels = static_cast<size_t>(M);
        weight_bytes = static_cast<size_t>(op.kp) * M * sizeof(int16_t) + static_cast<size_t>(op.kp) * sizeof(int32_t) +
                       static_cast<size_t>(pixels) * sizeof(uint32_t) + 64;
    }
#endif
    const size_t bytes =
        weight_bytes + channels * (sizeof(int32_t) + sizeof(float)) + static_cast<size_t>(s.in_c) + 4 * 64;
    op.storage = std::calloc(1, bytes);
    if (!op.storage) throw std::bad_alloc();
    auto* cursor = static_cast<unsigned char*>(op.storage);
    op.weights = carve<unsigned char>(cursor, weight_bytes);
    op.bias = carve<int32_t>(cursor, channels);
    op.multipliers = carve<float>(cursor, channels);
    op.zero = carve<int8_t>(cursor, static_cast<size_t>(s.in_c));
    std::memset(op.zero, x_zero_point, static_cast<size_t>(s.in_c));
    if (op.depthwise) {
        auto* pw = static_cast<int16_t*>(op.weights);
        for (int o = 0; o < M; ++o) {
#if EMBARK_QGEMM_X86
            for (int t = 0; t < taps; ++t) pw[x86q::dw_weight_index(t, o, M)] = static_cast<int16_t>(weight(o, 0, t));
#else
            for (int t = 0; t < taps; ++t) {
#  if defined(EMBARK_QDW_NEONDOT)
                if (M >= neondot::kDwMinChannels) { // int8, quant_depthwise_neon.h's layout
                    static_cast<int8_t*>(op.weights)[neondot::dw_weight_index(o, t, taps, M)] =
                        static_cast<int8_t>(weight(o, 0, t));
                    continue;
                }
#  endif
                pw[static_cast<size_t>(t) * M + o] = static_cast<int16_t>(weight(o, 0, t));
            }
#endif
            op.bias[o] = folded_bias(o);
            op.multipliers[o] = multipliers[o];
        }
        op.indirection = static_cast<const int8_t**>(std::calloc(static_cast<size_t>(pixels) * taps, sizeof(int8_t*)));
        if (!op.indirection) throw std::bad_alloc();
        return op;
    }
#if EMBARK_QGEMM_RVV
    if (op.pixel_lanes) { // weights int16 by group and passes of channels, then the tap and pixel offsets
        const int C = s.in_c, K = op.kp; // K: a group's taps * cg
        auto* pw16 = static_cast<int16_t*>(op.weights);
        auto* tap_offsets = reinterpret_cast<int32_t*>(pw16 + (static_cast<size_t>(K) * M + 1) / 2 * 2);
        auto* pixel_offsets = reinterpret_cast<uint32_t*>(tap_offsets + K);
        for (int o = 0; o < M; ++o) {
            op.bias[o] = folded_bias(o);
            op.multipliers[o] = multipliers[o];
            const size_t group = static_cast<size_t>(o / mg) * K * mg;
            for (int t = 0; t < taps; ++t)
                for (int c = 0; c < cg; ++c)
                    pw16[group + rvv::pixel_lanes_weight_index(t * cg + c, o % mg, K, mg)] =
                        static_cast<int16_t>(weight(o, c, t));
        }
        for (int t = 0; t < taps; ++t)
            for (int c = 0; c < cg; ++c)
                tap_offsets[t * cg + c] =
                    ((t / s.kernel_w) * s.dilation_h * padded_w + (t % s.kernel_w) * s.dilation_w) * C + c;
        int64_t p = 0;
        for (int n = 0; n < s.batch; ++n)
            for (int oy = 0; oy < out_h; ++oy)
                for (int ox = 0; ox < out_w; ++ox)
                    pixel_offsets[p++] = static_cast<uint32_t>(
                        ((static_cast<int64_t>(n) * padded_h + static_cast<int64_t>(oy) * s.stride_h) * padded_w +
                         static_cast<int64_t>(ox) * s.stride_w) *
                        C * static_cast<int64_t>(sizeof(int16_t))); // bytes into the widened image
        op.tap_offsets = tap_offsets;
        op.pixel_offsets = pixel_offsets;
        return op;
    }
#endif
    auto* pw = static_cast<QWeight*>(op.weights);
#if EMBARK_QGEMM_RVV
    if (op.winograd) {
        const int all_panels = s.groups * op.panels; // bias and multipliers: per channel, unpadded
        for (int o = 0; o < M; ++o) {
            const int panel = o / mg * op.panels + o % mg / kQNR, n = o % mg % kQNR;
            op.bias[o] = folded_bias(o);
            op.multipliers[o] = multipliers[o];
            for (int c = 0; c < cg; ++c) {
                int32_t g[9], u[16];
                for (int t = 0; t < 9; ++t) g[t] = weight(o, c, t);
                rvv::winograd_filter(g, u);
                for (int xi = 0; xi < 16; ++xi)
                    pw[rvv::winograd_weight_index(xi, all_panels, cg, panel, c, n)] = static_cast<QWeight>(u[xi]);
            }
        }
        return op;
    }
#endif
    for (int g = 0; g < s.groups; ++g)
        for (int panel = 0; panel < op.panels; ++panel) {
            const size_t at = static_cast<size_t>(g) * op.panels + panel;
            QWeight* dst = pw + at * kQNR * op.kp;
            for (int n = 0; n < kQNR; ++n) {
                const int co = panel * kQNR + n;
                if (co >= mg) break;
                const int o = g * mg + co;
                op.bias[at * kQNR + n] = folded_bias(o);
                op.multipliers[at * kQNR + n] = multipliers[o];
                for (int t = 0; t < taps; ++t)
                    for (int c = 0; c < cg; ++c) {
                        const int k = by_rows ? row_k(t, c, s.kernel_w, cg, op.kp / s.kernel_h) : t * cg + c;
#if EMBARK_QGEMM_RVV
                        dst[static_cast<size_t>(k) * kQNR + n] = static_cast<QWeight>(weight(o, c, t));
#elif EMBARK_QGEMM_X86
                        dst[x86q::weight_index(k, n)] = x86q::pack_weight(weight(o, c, t));
#elif defined(EMBARK_QGEMM_NEONDOT)
                        dst[neondot::weight_index(n, k)] = static_cast<QWeight>(weight(o, c, t));
#else
                        dst[static_cast<size_t>(n) * op.kp + k] = static_cast<QWeight>(weight(o, c, t));
#endif
                    }
            }
        }
#if EMBARK_QGEMM_RVV
    if (!op.direct && !by_rows && op.kp == taps * cg) { // groups, horizontal dilations: taps in place
        op.indirection = static_cast<const int8_t**>(std::calloc(static_cast<size_t>(pixels) * taps, sizeof(int8_t*)));
        if (!op.indirection) throw std::bad_alloc();
    }
#endif
#if EMBARK_QGEMM_X86_VNNI
    if (!op.direct && !by_rows && s.groups == 1 && cg % x86q::kGroupK == 0 && op.kp == taps * cg) {
        op.indirection = static_cast<const int8_t**>(std::calloc(static_cast<size_t>(pixels) * taps, sizeof(int8_t*)));
        if (!op.indirection) throw std::bad_alloc();
    }
#endif
    return op;
}

void qconv2d(const QConv2D& op, const int8_t* input, int8_t* output, ThreadPool* pool) {
    if (op.depthwise)
        qconv2d_depthwise(op, input, output, pool);
    else
        qconv2d_gemm(op, input, output, pool);
}

} // namespace embark::portable

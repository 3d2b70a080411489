// Int8 3x3 stride-1 convolutions on RVV by Winograd's F(2x2, 3x3) in integers (quant_conv.cpp,
// with quant_gemm_rvv.h's tile for the 16 GEMMs): 16 multiply-adds per input and output
// channel for a 2x2 block of output pixels ("a tile") instead of 36, i.e. 2.25x fewer. RVV 1.0
// has no int8 dot product, so its direct tile retires an instruction per multiply-add per
// lane, and fewer multiply-adds are the way to fewer instructions (x86-64 VNNI and Arm's sdot
// do four per lane and stay direct).
//
//   V  = B^T d B          d: the tile's 4x4 input pixels (int8, zero points outside the
//                         image), per channel; only additions: |V| <= 4 * 128 = 512, int16
//   U' = G' g G'^T        G' = 2 G = [2 0 0; 1 1 1; 1 -1 1; 0 0 2] (integers): U' = 4 U,
//                         |U'| <= 9 * 128 = 1152, int16, packed once per position
//   M[xi] = sum_c V[xi][c] U'[xi][c][o]    16 GEMMs over the input channels (int32)
//   4 Y = A^T M A         A^T = [1 1 1 0; 0 1 -1 -1]: only additions
//
// Every step is integer, so 4 Y is exactly 4 times the direct sum sum_c sum_taps x * w (an
// algebraic identity), and the >> 2 is exact: the int32 accumulator equals the direct one
// bit for bit, and so does the requantized byte. RVV's integer arithmetic wraps, so partial
// sums may wrap as long as 4 Y fits in int32: |4 Y| <= 4 * 9 * C * 2^14 < 2^31 for
// C <= kWinogradMaxChannels input channels a group (checked at pack time, else the direct
// tile).
#pragma once

#include "quant_gemm_rvv.h"

#if EMBARK_QGEMM_RVV
#  include <algorithm>
#  include <cstddef>
#  include <cstdint>
#  include <vector>

namespace embark::portable::quant_detail::rvv {

constexpr int kWinogradMaxChannels = 3640; // 4 * 9 * C * 2^14 < 2^31

// 3x3, stride 1, no dilation, an output of at least 2x2 (a smaller one wastes most of its
// tile) and 2 to kWinogradMaxChannels input channels a group. Grouped convolutions (not
// depthwise: quant_depthwise.cpp) share the input and output transforms, which run over all
// channels; each group's 16 GEMMs read its slice of V and write its slice of M. A group of
// fewer than 4 input channels keeps the direct tile (the transforms would cost more than the
// multiply-adds they save).
inline bool winograd_applies(const Conv2DShape& s, int out_h, int out_w) {
    if (s.groups < 1 || s.in_c % s.groups) return false;
    const int cg = s.in_c / s.groups;
    return s.kernel_h == 3 && s.kernel_w == 3 && s.stride_h == 1 && s.stride_w == 1 && s.dilation_h == 1 &&
           s.dilation_w == 1 && cg > 1 && (s.groups == 1 || cg >= 4) && cg <= kWinogradMaxChannels && out_h >= 2 &&
           out_w >= 2;
}

// U' (16 values, position xi = 4 * i + j) of one 3x3 filter g (g[3 * ky + kx]).
inline void winograd_filter(const int32_t g[9], int32_t u[16]) {
    static constexpr int kG[4][3] = {{2, 0, 0}, {1, 1, 1}, {1, -1, 1}, {0, 0, 2}};
    int32_t t[4][3]; // G' g
    for (int i = 0; i < 4; ++i)
        for (int x = 0; x < 3; ++x) t[i][x] = kG[i][0] * g[x] + kG[i][1] * g[3 + x] + kG[i][2] * g[6 + x];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) u[4 * i + j] = t[i][0] * kG[j][0] + t[i][1] * kG[j][1] + t[i][2] * kG[j][2];
}

// Packed weights: position xi's panels one after another (group g's at g * panels of a
// group), each [cg][kNR] int16 (the GEMM tile's layout with kp = cg, the group's input
// channels); `panels` counts those of every group.
inline size_t winograd_weight_index(int xi, int panels, int cg, int panel, int c, int n) {
    return ((static_cast<size_t>(xi) * panels + panel) * cg + c) * kNR + n;
}

// Tiles per block: V (16 x T x C int16) and M (16 x T x M int32) of a block in about 256 KB.
inline int winograd_block_tiles(int C, int M) {
    const int t = static_cast<int>((size_t(256) << 10) / (size_t(32) * C + size_t(64) * M));
    return std::max(kMR, std::min(16 * kMR, t / kMR * kMR));
}

// V of one tile for all C channels: d[r * 4 + col] point at the tile's 16 input pixels
// (C bytes each); v + xi * v_stride + c receives V[xi][c]. The 16 pixels are loaded once per
// channel vector; each row i of B^T d (two rows of d: B^T's non-zeros) is widened to int16 by
// its first operation, then B's columns.
[[gnu::always_inline]] inline void winograd_input(const int8_t* const* d, int C, int16_t* v, size_t v_stride) {
    for (int c0 = 0; c0 < C;) {
        const size_t vl = __riscv_vsetvl_e16m2(static_cast<size_t>(C - c0));
        auto ld = [&](int r, int col) { return __riscv_vle8_v_i8m1(d[r * 4 + col] + c0, vl); };
        const vint8m1_t d00 = ld(0, 0), d01 = ld(0, 1), d02 = ld(0, 2), d03 = ld(0, 3);
        const vint8m1_t d10 = ld(1, 0), d11 = ld(1, 1), d12 = ld(1, 2), d13 = ld(1, 3);
        const vint8m1_t d20 = ld(2, 0), d21 = ld(2, 1), d22 = ld(2, 2), d23 = ld(2, 3);
        const vint8m1_t d30 = ld(3, 0), d31 = ld(3, 1), d32 = ld(3, 2), d33 = ld(3, 3);
        int16_t* out = v + c0;
        auto columns = [&](vint16m2_t t0, vint16m2_t t1, vint16m2_t t2, vint16m2_t t3) { // one row of V
            __riscv_vse16(out, __riscv_vsub(t0, t2, vl), vl);
            __riscv_vse16(out + v_stride, __riscv_vadd(t1, t2, vl), vl);
            __riscv_vse16(out + 2 * v_stride, __riscv_vsub(t2, t1, vl), vl);
            __riscv_vse16(out + 3 * v_stride, __riscv_vsub(t1, t3, vl), vl);
            out += 4 * v_stride;
        };
        columns(__riscv_vwsub_vv(d00, d20, vl), __riscv_vwsub_vv(d01, d21, vl), __riscv_vwsub_vv(d02, d22, vl),
                __riscv_vwsub_vv(d03, d23, vl)); // d0 - d2
        columns(__riscv_vwadd_vv(d10, d20, vl), __riscv_vwadd_vv(d11, d21, vl), __riscv_vwadd_vv(d12, d22, vl),
                __riscv_vwadd_vv(d13, d23, vl)); // d1 + d2
        columns(__riscv_vwsub_vv(d20, d10, vl), __riscv_vwsub_vv(d21, d11, vl), __riscv_vwsub_vv(d22, d12, vl),
                __riscv_vwsub_vv(d23, d13, vl)); // d2 - d1
        columns(__riscv_vwsub_vv(d10, d30, vl), __riscv_vwsub_vv(d11, d31, vl), __riscv_vwsub_vv(d12, d32, vl),
                __riscv_vwsub_vv(d13, d33, vl)); // d1 - d3
        c0 += static_cast<int>(vl);
    }
}

// The 2x2 output pixels of one tile from its M (m + xi * M + o: int32), requantized with bias
// and mult (quant_kernels.h's arithmetic) into out[py][px] at out + (py * row + px) * M
// (valid: the pixels inside the output, rows (valid_y) and columns (valid_x)). Per output row
// py, (A^T M)[py] streams over M's columns into the row's two sums, so that few vectors are
// live (no spills at LMUL 4).
[[gnu::always_inline]] inline void winograd_output(const int32_t* m, int M, const int32_t* bias, const float* mult,
                                                   QRq rq, int8_t* out, size_t row, int valid_y, int valid_x) {
    const float lo = rq.lo, hi = rq.hi;
    const int32_t offset = rq.offset;
    const size_t row4 = static_cast<size_t>(4) * M; // between rows of M
    for (int o0 = 0; o0 < M;) {
        const size_t vl = __riscv_vsetvl_e32m4(static_cast<size_t>(M - o0));
        auto store = [&](vint32m4_t y4, int py, int px) {
            const vint32m4_t acc = __riscv_vadd(__riscv_vsra(y4, 2, vl), __riscv_vle32_v_i32m4(bias + o0, vl), vl);
            vfloat32m4_t f = __riscv_vfmul(__riscv_vfcvt_f(acc, vl), __riscv_vle32_v_f32m4(mult + o0, vl), vl);
            f = __riscv_vfadd(__riscv_vfmin(__riscv_vfmax(f, lo, vl), hi, vl), 12582912.f, vl);
            const vint32m4_t q = __riscv_vadd(__riscv_vreinterpret_v_f32m4_i32m4(f), offset, vl);
            __riscv_vse8(out + (static_cast<size_t>(py) * row + px) * M + o0,
                         __riscv_vncvt_x(__riscv_vncvt_x(q, vl), vl), vl);
        };
        for (int py = 0; py < valid_y; ++py) {
            // Row 0 of A^T M: M0 + M1 + M2; row 1: M1 - M2 - M3 (rows of M, per column).
            const int32_t* r = m + o0 + (py == 0 ? 0 : row4);
            auto s = [&](int col) {
                const int32_t* c = r + static_cast<size_t>(col) * M;
                const vint32m4_t a = __riscv_vle32_v_i32m4(c, vl), b = __riscv_vle32_v_i32m4(c + row4, vl),
                                 d = __riscv_vle32_v_i32m4(c + 2 * row4, vl);
                return py == 0 ? __riscv_vadd(__riscv_vadd(a, b, vl), d, vl)
                               : __riscv_vsub(__riscv_vsub(a, b, vl), d, vl);
            };
            // Y[py][0] = s0 + s1 + s2, Y[py][1] = s1 - s2 - s3.
            const vint32m4_t s1 = s(1), s2 = s(2);
            store(__riscv_vadd(__riscv_vadd(s(0), s1, vl), s2, vl), py, 0);
            if (valid_x > 1) store(__riscv_vsub(__riscv_vsub(s1, s2, vl), s(3), vl), py, 1);
        }
        o0 += static_cast<int>(vl);
    }
}

// Tiles [t_begin, t_end) of a QConv2D packed for Winograd (see quant_conv.cpp), in blocks.
inline void winograd_tiles(const QConv2D& op, const int8_t* input, int8_t* output, int64_t t_begin, int64_t t_end) {
    const int C = op.in_c, M = op.out_c, G = op.groups, cg = C / G, mg = M / G;
    const int tiles_x = (op.out_w + 1) / 2, tiles_y = (op.out_h + 1) / 2;
    const int T = winograd_block_tiles(C, M);
    const QRq rq = requant_params(op.out);
    const auto* w = static_cast<const int16_t*>(op.weights);
    std::vector<int16_t> vbuf(static_cast<size_t>(16) * T * C);
    std::vector<int32_t> mbuf(static_cast<size_t>(16) * T * M);
    std::vector<const int16_t*> rows(static_cast<size_t>(kMR));
    const int8_t* d[16];
    for (int64_t t0 = t_begin; t0 < t_end; t0 += T) {
        const int nt = static_cast<int>(std::min<int64_t>(T, t_end - t0));
        for (int t = 0; t < nt; ++t) { // V
            const int64_t tile = t0 + t;
            const int64_t n = tile / (static_cast<int64_t>(tiles_x) * tiles_y);
            const int ty = static_cast<int>(tile / tiles_x % tiles_y), tx = static_cast<int>(tile % tiles_x);
            const int iy0 = 2 * ty - op.pad_top, ix0 = 2 * tx - op.pad_left;
            for (int r = 0; r < 4; ++r)
                for (int col = 0; col < 4; ++col) {
                    const int iy = iy0 + r, ix = ix0 + col;
                    d[r * 4 + col] = iy >= 0 && iy < op.in_h && ix >= 0 && ix < op.in_w
                                         ? input + ((n * op.in_h + iy) * op.in_w + ix) * C
                                         : op.zero;
                }
            winograd_input(d, C, vbuf.data() + static_cast<size_t>(t) * 16 * C, static_cast<size_t>(C));
        }
        for (int xi = 0; xi < 16; ++xi) { // M[xi] = V[xi] U'[xi], group by group
            for (int g = 0; g < G; ++g) {
                const int16_t* v = vbuf.data() + static_cast<size_t>(xi) * C + static_cast<size_t>(g) * cg;
                int32_t* m = mbuf.data() + static_cast<size_t>(xi) * M + static_cast<size_t>(g) * mg;
                const int16_t* wx = w + winograd_weight_index(xi, G * op.panels, cg, g * op.panels, 0, 0);
                for (int p = 0; p < nt; p += kMR) {
                    const int m_valid = std::min(kMR, nt - p);
                    for (int i = 0; i < kMR; ++i)
                        rows[i] = v + static_cast<size_t>(p + std::min(i, m_valid - 1)) * 16 * C;
                    const Rows<int16_t> x{rows.data(), 1, cg, 0};
                    panels<int16_t, true>(x, m_valid, cg, wx, op.bias, op.multipliers,
                                          m + static_cast<size_t>(p) * 16 * M, static_cast<size_t>(16) * M, mg, rq);
                }
            }
        }
        for (int t = 0; t < nt; ++t) { // Y
            const int64_t tile = t0 + t;
            const int64_t n = tile / (static_cast<int64_t>(tiles_x) * tiles_y);
            const int ty = static_cast<int>(tile / tiles_x % tiles_y), tx = static_cast<int>(tile % tiles_x);
            int8_t* out = output + ((n * op.out_h + 2 * ty) * op.out_w + 2 * tx) * M;
            winograd_output(mbuf.data() + static_cast<size_t>(t) * 16 * M, M, op.bias, op.multipliers, rq, out,
                            static_cast<size_t>(op.out_w), std::min(2, op.out_h - 2 * ty),
                            std::min(2, op.out_w - 2 * tx));
        }
    }
}

} // namespace embark::portable::quant_detail::rvv
#endif

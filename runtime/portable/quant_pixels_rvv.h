// The int8 convolutions of few output channels on RISC-V with the vector extension (RVV 1.0,
// Clang): output pixels on the vector lanes instead of output channels. Included by
// quant_conv.cpp only.
//
// quant_gemm_rvv.h's tile puts a layer's output channels on the lanes: a layer of 6 channels
// (LeNet-5's first convolution, 1 input channel, 5x5) fills 6 int32 lanes of a register group
// and pays a byte load, a multiply-add and a share of the walker's per-pixel border work for
// every tap of every pixel. Here the lanes are output pixels (vlmax of int32 at LMUL 8, pixels
// of consecutive rows and images alike): per tap, one indexed load gathers that tap's input of
// every pixel of the chunk (vluxei32 through the chunk's pixel offsets, a table built at pack
// time, from the tap's own pointer, a table built per run), then per output channel a scalar
// weight and one vwmacc.vx. The instruction counters that matter here count instructions, not
// lanes: LMUL 8 does twice the multiply-adds of LMUL 4 per vwmacc, and the gather is shared by
// a pass's channels. The taps read a copy of the input widened to int16 (the gather then needs
// no widening nor vsetvli of its own) and padded with the zero point (borders cost nothing).
// Channels go in passes of 3 (three int32 sums of LMUL 8 beside 16-bit offsets from the chunk's
// first pixel and the gathered taps: all 32 registers; 2 + 1 where the offsets need 32 bits).
//
// Packing: weights int16, passes of 3 channels one after another, each [K][3] (a last pass of
// 1 or 2) with k = tap * C + channel (the order of tap_offsets), bias and multipliers
// per channel unpadded. The sums and the requantization equal quant_gemm_rvv.h's tile byte for
// byte (bias + sum of x * w in int32, the same float steps); results go to the
// NHWC output with strided byte stores (M bytes apart).
#pragma once

#include "quant_gemm_rvv.h"

#if EMBARK_QGEMM_RVV
#  include <algorithm>
#  include <cstddef>
#  include <cstdint>
#  include <type_traits>
#  include <vector>

namespace embark::portable::quant_detail::rvv {

// Output pixels per chunk: int32 lanes of LMUL 8 at the board's VLEN (32 at 128, 64 at 256).
inline int pixel_lanes() { return static_cast<int>(__riscv_vsetvlmax_e32m8()); }
constexpr int kPixelLanesGroup = 3; // output channels per pass over the taps

// Whether a (grouped) convolution whose groups have `mg` output channels and `cg` input
// channels runs with pixels on the lanes: per tap and pass, a gather and per channel a weight
// load and a vwmacc over a chunk's pixels, against a byte load and a vwmacc per pixel of the
// channel tile (whose lanes are a group's channels): fewer instructions while a group's channels
// fill at most half a chunk's lanes, and few input channels a group (the layers this targets:
// stems, LeNet-5, RegNet's groups of 16; wider ones keep the tested channel tile).
inline bool pixel_lanes_applies(int cg, int mg, int taps) { return taps > 1 && cg <= 16 && mg * 2 <= pixel_lanes(); }

// G (<= 3) output channels of the vl pixels whose byte offsets into the (padded, widened to
// int16) image are `idx` (Index: vuint32m8_t, or vuint16m4_t offsets from the chunk's first pixel
// when they fit 16 bits, which leaves the registers for a third channel): tap k's value of pixel
// p at taps[k] + idx[p] (taps shifted to the chunk's first pixel for 16-bit offsets); w: the pass's weights [k][S] (S
// >= G: a pass of 3 also runs as 2 + 1 when the offsets need 32 bits), out at the first pixel's first channel of the
// pass. 32-bit offsets: two int32 sums of LMUL 8, the offsets (LMUL 8) and the gathered int16 taps (LMUL 4): 28 of the
// 32 registers; 16-bit: three sums, the offsets and the taps (LMUL 4): 32. The gather runs at the vwmacc's element
// width (no vsetvli between them).
template <int G, int S, typename Index>
[[gnu::noinline]] __attribute__((target("tune=xiangshan-nanhu"))) void
pixel_lanes_group(Index idx, size_t vl, const char* const* __restrict taps, int K, const int16_t* __restrict w, int M,
                  const int32_t* __restrict bias, const float* __restrict mult, int8_t* out, QRq rq) {
    static_assert(G >= 1 && G <= 3 && S >= G, "pixel_lanes_group: one to three channels a pass");
    vint32m8_t a0 = __riscv_vmv_v_x_i32m8(bias[0], vl);
    vint32m8_t a1 = __riscv_vmv_v_x_i32m8(G > 1 ? bias[G > 1 ? 1 : 0] : 0, vl);
    vint32m8_t a2 = __riscv_vmv_v_x_i32m8(G > 2 ? bias[G > 2 ? 2 : 0] : 0, vl);
#  pragma clang loop unroll_count(4)
    for (int k = 0; k < K; ++k) {
        const int16_t* wk = w + static_cast<size_t>(k) * S;
        const auto* t = reinterpret_cast<const int16_t*>(taps[k]);
        vint16m4_t x;
        if constexpr (std::is_same_v<Index, vuint16m4_t>)
            x = __riscv_vluxei16_v_i16m4(t, idx, vl);
        else
            x = __riscv_vluxei32_v_i16m4(t, idx, vl);
        a0 = __riscv_vwmacc_vx_i32m8(a0, wk[0], x, vl);
        if constexpr (G > 1) a1 = __riscv_vwmacc_vx_i32m8(a1, wk[G > 1 ? 1 : 0], x, vl);
        if constexpr (G > 2) a2 = __riscv_vwmacc_vx_i32m8(a2, wk[G > 2 ? 2 : 0], x, vl);
    }
    const float lo = rq.lo, hi = rq.hi;
    const int32_t offset = rq.offset;
    const ptrdiff_t stride = M;
    auto store = [&](vint32m8_t a, int j) {
        vfloat32m8_t f = __riscv_vfmul_vf_f32m8(__riscv_vfcvt_f_x_v_f32m8(a, vl), mult[j], vl);
        f = __riscv_vfadd_vf_f32m8(__riscv_vfmin_vf_f32m8(__riscv_vfmax_vf_f32m8(f, lo, vl), hi, vl), 12582912.f, vl);
        const vint32m8_t q = __riscv_vadd_vx_i32m8(__riscv_vreinterpret_v_f32m8_i32m8(f), offset, vl);
        __riscv_vsse8_v_i8m2(out + j, stride, __riscv_vncvt_x_x_w_i8m2(__riscv_vncvt_x_x_w_i16m4(q, vl), vl), vl);
    };
    store(a0, 0);
    if constexpr (G > 1) store(a1, 1);
    if constexpr (G > 2) store(a2, 2);
}

// The index of weight (k, channel o) of K packed k and M channels: passes of 3 channels (a last
// one of 1 or 2), each [k][its channels], one after another.
inline size_t pixel_lanes_weight_index(int k, int o, int K, int M) {
    const int pass = o - o % kPixelLanesGroup; // the pass's first channel
    const int g = std::min(kPixelLanesGroup, M - pass);
    return static_cast<size_t>(pass) * K + static_cast<size_t>(k) * g + static_cast<size_t>(o - pass);
}

// `count` int8 values to int16.
inline void widen_s8(const int8_t* src, int16_t* dst, size_t count) {
    for (size_t i = 0; i < count;) {
        const size_t vl = __riscv_vsetvl_e8m4(count - i);
        __riscv_vse16_v_i16m8(dst + i, __riscv_vsext_vf2_i16m8(__riscv_vle8_v_i8m4(src + i, vl), vl), vl);
        i += vl;
    }
}

// `count` int16 values set to v.
inline void fill_s16(int16_t* dst, int16_t v, size_t count) {
    for (size_t i = 0; i < count;) {
        const size_t vl = __riscv_vsetvl_e16m8(count - i);
        __riscv_vse16_v_i16m8(dst + i, __riscv_vmv_v_x_i16m8(v, vl), vl);
        i += vl;
    }
}

// Chunks [c0, c1) of `lanes` pixels (of `pixels`) of a convolution with `groups` groups of mg
// output channels (M in all) and K = taps * cg packed k a group (weights: group after group,
// each by pixel_lanes_weight_index), whose group g's tap k of pixel p is the int16 at
// taps[g * K + k] + offsets[p] bytes; output: NHWC int8, pixel p at output + p * M.
inline void pixel_lanes_chunks(const uint32_t* offsets, int64_t pixels, int lanes, int64_t c0, int64_t c1,
                               const char* const* taps, int K, int groups, const int16_t* w, int mg, int M,
                               const int32_t* bias, const float* mult, int8_t* output, QRq rq) {
    const size_t all_taps = static_cast<size_t>(groups) * K;
    std::vector<const char*> shifted(all_taps); // the taps from a chunk's first pixel
    for (int64_t c = c0; c < c1; ++c) {
        const int64_t p0 = c * lanes;
        const size_t vl = static_cast<size_t>(std::min<int64_t>(lanes, pixels - p0));
        const uint32_t* off = offsets + p0;
        // The chunk's pixels within 64 KB of its first one (offsets grow with the pixel): 16-bit
        // offsets from it, taps shifted to it, and passes of 3 channels.
        const bool narrow = off[vl - 1] - off[0] < 65536u;
        const vuint32m8_t idx32 = __riscv_vle32_v_u32m8(off, vl);
        const vuint16m4_t idx16 = __riscv_vncvt_x_x_w_u16m4(__riscv_vsub_vx_u32m8(idx32, off[0], vl), vl);
        if (narrow)
            for (size_t k = 0; k < all_taps; ++k) shifted[k] = taps[k] + off[0];
        for (int g = 0; g < groups; ++g) {
            const char* const* gt = (narrow ? shifted.data() : taps) + static_cast<size_t>(g) * K;
            const int16_t* gw = w + static_cast<size_t>(g) * K * mg;
            const int first = g * mg; // the group's first channel
            int8_t* out = output + p0 * M + first;
            for (int o = 0; o < mg; o += kPixelLanesGroup) {
                const int16_t* wp = gw + static_cast<size_t>(o) * K;
                const int32_t* b = bias + first + o;
                const float* m = mult + first + o;
                switch (std::min(kPixelLanesGroup, mg - o)) {
                case 3:
                    if (narrow) {
                        pixel_lanes_group<3, 3>(idx16, vl, gt, K, wp, M, b, m, out + o, rq);
                    } else {
                        pixel_lanes_group<2, 3>(idx32, vl, gt, K, wp, M, b, m, out + o, rq);
                        pixel_lanes_group<1, 3>(idx32, vl, gt, K, wp + 2, M, b + 2, m + 2, out + o + 2, rq);
                    }
                    break;
                case 2:
                    if (narrow)
                        pixel_lanes_group<2, 2>(idx16, vl, gt, K, wp, M, b, m, out + o, rq);
                    else
                        pixel_lanes_group<2, 2>(idx32, vl, gt, K, wp, M, b, m, out + o, rq);
                    break;
                default:
                    if (narrow)
                        pixel_lanes_group<1, 1>(idx16, vl, gt, K, wp, M, b, m, out + o, rq);
                    else
                        pixel_lanes_group<1, 1>(idx32, vl, gt, K, wp, M, b, m, out + o, rq);
                    break;
                }
            }
        }
    }
}

} // namespace embark::portable::quant_detail::rvv
#endif

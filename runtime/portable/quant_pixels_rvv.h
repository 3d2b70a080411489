// The int8 convolutions of few output channels on RISC-V with the vector extension (RVV 1.0,
// Clang): output pixels on the vector lanes instead of output channels. Included by
// quant_conv.cpp only.
//
// quant_gemm_rvv.h's tile puts a layer's output channels on the lanes: a layer of 6 channels
// (LeNet-5's first convolution, 1 input channel, 5x5) fills 6 int32 lanes of a register group
// and pays a byte load, a multiply-add and a share of the walker's per-pixel border work for
// every tap of every pixel. Here the lanes are output pixels (vlmax of int32 at LMUL 4, pixels
// of consecutive rows and images alike): per tap, one indexed load gathers that tap's input
// byte of every pixel of the chunk (vluxei32 through the chunk's pixel offsets, a table built
// at pack time), one widening to int16, then per output channel a scalar weight and one
// vwmacc.vx. Borders cost nothing: the taps read a copy of the input padded with the zero
// point (no copy when the convolution reads no padding). Channels go in groups of up to 6
// (6 int32 sums of LMUL 4 beside the offsets and the loaded taps fill the 32 registers).
//
// Packing: weights int16 [K][M] with k = tap * C + channel (the order of tap_offsets), bias and
// multipliers per channel unpadded. The sums and the requantization equal quant_gemm_rvv.h's
// tile byte for byte (bias + sum of x * w in int32, the same float steps); results go to the
// NHWC output with strided byte stores (M bytes apart).
#pragma once

#include "quant_gemm_rvv.h"

#if EMBARK_QGEMM_RVV
#  include <algorithm>
#  include <cstddef>
#  include <cstdint>

namespace embark::portable::quant_detail::rvv {

// Output pixels per chunk: int32 lanes of LMUL 4 at the board's VLEN (16 at 128, 32 at 256).
inline int pixel_lanes() { return static_cast<int>(__riscv_vsetvlmax_e32m4()); }
constexpr int kPixelLanesGroup = 6; // output channels per pass over the taps

// Whether a convolution of one group with `out_c` output channels and `in_c` input channels
// runs with pixels on the lanes: its channels fill at most three quarters of a chunk's pixels
// (channels on the lanes would leave most of a register group idle) and few input channels
// (the layers this targets; wider ones keep the tested channel tile).
inline bool pixel_lanes_applies(int groups, int in_c, int out_c, int taps) {
    return groups == 1 && taps > 1 && in_c <= 16 && out_c * 4 <= pixel_lanes() * 3;
}

// G output channels of the vl pixels whose offsets into the (padded) image are `offsets`:
// w at the group's first channel of k row 0 (rows M apart), out at the first pixel's first
// channel of the group.
template <int G>
[[gnu::noinline]] void pixel_lanes_group(const int8_t* image, const uint32_t* offsets, size_t vl,
                                         const int32_t* __restrict taps, int K, const int16_t* __restrict w, int M,
                                         const int32_t* __restrict bias, const float* __restrict mult, int8_t* out,
                                         QRq rq) {
    const vuint32m4_t idx = __riscv_vle32_v_u32m4(offsets, vl);
    vint32m4_t a0 = __riscv_vmv_v_x_i32m4(bias[0], vl);
    vint32m4_t a1 = __riscv_vmv_v_x_i32m4(G > 1 ? bias[G > 1 ? 1 : 0] : 0, vl);
    vint32m4_t a2 = __riscv_vmv_v_x_i32m4(G > 2 ? bias[G > 2 ? 2 : 0] : 0, vl);
    vint32m4_t a3 = __riscv_vmv_v_x_i32m4(G > 3 ? bias[G > 3 ? 3 : 0] : 0, vl);
    vint32m4_t a4 = __riscv_vmv_v_x_i32m4(G > 4 ? bias[G > 4 ? 4 : 0] : 0, vl);
    vint32m4_t a5 = __riscv_vmv_v_x_i32m4(G > 5 ? bias[G > 5 ? 5 : 0] : 0, vl);
#  pragma clang loop unroll_count(4)
    for (int k = 0; k < K; ++k) {
        const int16_t* wk = w + static_cast<size_t>(k) * M;
        const vint16m2_t x = __riscv_vsext_vf2_i16m2(__riscv_vluxei32_v_i8m1(image + taps[k], idx, vl), vl);
        a0 = __riscv_vwmacc_vx_i32m4(a0, wk[0], x, vl);
        if constexpr (G > 1) a1 = __riscv_vwmacc_vx_i32m4(a1, wk[G > 1 ? 1 : 0], x, vl);
        if constexpr (G > 2) a2 = __riscv_vwmacc_vx_i32m4(a2, wk[G > 2 ? 2 : 0], x, vl);
        if constexpr (G > 3) a3 = __riscv_vwmacc_vx_i32m4(a3, wk[G > 3 ? 3 : 0], x, vl);
        if constexpr (G > 4) a4 = __riscv_vwmacc_vx_i32m4(a4, wk[G > 4 ? 4 : 0], x, vl);
        if constexpr (G > 5) a5 = __riscv_vwmacc_vx_i32m4(a5, wk[G > 5 ? 5 : 0], x, vl);
    }
    const float lo = rq.lo, hi = rq.hi;
    const int32_t offset = rq.offset;
    const ptrdiff_t stride = M;
    auto store = [&](vint32m4_t a, int j) {
        vfloat32m4_t f = __riscv_vfmul_vf_f32m4(__riscv_vfcvt_f_x_v_f32m4(a, vl), mult[j], vl);
        f = __riscv_vfadd_vf_f32m4(__riscv_vfmin_vf_f32m4(__riscv_vfmax_vf_f32m4(f, lo, vl), hi, vl), 12582912.f, vl);
        const vint32m4_t q = __riscv_vadd_vx_i32m4(__riscv_vreinterpret_v_f32m4_i32m4(f), offset, vl);
        __riscv_vsse8_v_i8m1(out + j, stride, __riscv_vncvt_x_x_w_i8m1(__riscv_vncvt_x_x_w_i16m2(q, vl), vl), vl);
    };
    store(a0, 0);
    if constexpr (G > 1) store(a1, 1);
    if constexpr (G > 2) store(a2, 2);
    if constexpr (G > 3) store(a3, 3);
    if constexpr (G > 4) store(a4, 4);
    if constexpr (G > 5) store(a5, 5);
}

// Chunks [c0, c1) of `lanes` pixels (of `pixels`) of a convolution with M output channels and
// K = taps * C packed k; output: NHWC int8, pixel p at output + p * M.
inline void pixel_lanes_chunks(const int8_t* image, const uint32_t* offsets, int64_t pixels, int lanes, int64_t c0,
                               int64_t c1, const int32_t* taps, int K, const int16_t* w, int M, const int32_t* bias,
                               const float* mult, int8_t* output, QRq rq) {
    for (int64_t c = c0; c < c1; ++c) {
        const int64_t p0 = c * lanes;
        const size_t vl = static_cast<size_t>(std::min<int64_t>(lanes, pixels - p0));
        int8_t* out = output + p0 * M;
        for (int o = 0; o < M; o += kPixelLanesGroup) {
            const uint32_t* off = offsets + p0;
            switch (std::min(kPixelLanesGroup, M - o)) {
            case 1: pixel_lanes_group<1>(image, off, vl, taps, K, w + o, M, bias + o, mult + o, out + o, rq); break;
            case 2: pixel_lanes_group<2>(image, off, vl, taps, K, w + o, M, bias + o, mult + o, out + o, rq); break;
            case 3: pixel_lanes_group<3>(image, off, vl, taps, K, w + o, M, bias + o, mult + o, out + o, rq); break;
            case 4: pixel_lanes_group<4>(image, off, vl, taps, K, w + o, M, bias + o, mult + o, out + o, rq); break;
            case 5: pixel_lanes_group<5>(image, off, vl, taps, K, w + o, M, bias + o, mult + o, out + o, rq); break;
            default: pixel_lanes_group<6>(image, off, vl, taps, K, w + o, M, bias + o, mult + o, out + o, rq); break;
            }
        }
    }
}

} // namespace embark::portable::quant_detail::rvv
#endif

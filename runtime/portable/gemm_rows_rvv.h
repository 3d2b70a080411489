// RVV (Clang): the GEMM of a 1x1 convolution (ConvPath::Pointwise), straight over its input rows
// (pixels of k contiguous channels), in register tiles of kRowsTileRows rows x one panel of
// kRowsPanel = 2 * NR output channels: an LMUL-8 register group per row (32 floats at VLEN 128,
// 64 at VLEN 256), three accumulators and the panel's weights using all 32 vector registers.
//
// Why not the general tile (gemm_tile, 6 rows x NR at LMUL 4): per k step it loads one weight
// vector and six broadcast inputs for six FMAs (16.25 instructions for 96 multiply-adds at VLEN
// 128); here one weight vector, three inputs and three FMAs do the same 96 (8.75). And its
// set-up per tile (row pointers through an array, the activation switch, the call chain of the
// generic tile) cost more than the k loop of a narrow layer: MobileNet-V2's 1x1 16 -> 96 at
// 112x112 counted 507 instructions per 6 x 16 tile, 16 k steps of 16.25 among them, and 1.17x
// XNNPACK's count on sim-k230 (bench/README.md). XNNPACK's RVV kernel is 7 x 4v (LMUL 4).
//
// The panels are packed [panel][k][kRowsPanel] (zero past out_c), then the bias (pack_conv2d for
// the Pointwise path on RVV). A tile computes the multiply-adds of every lane in the same order
// as the general tile (the bias, then k = 0, 1, ...).
#pragma once

#include "gemm_ukernel.h"
#include "stream_rvv.h"

#if defined(__clang__) && defined(__riscv_vector)
#  include <riscv_vector.h>
#  define EMBARK_GEMM_ROWS_RVV 1

namespace embark::portable::detail {

constexpr int kRowsPanel = 2 * kTileChannels;
constexpr int kRowsTileRows = 3;

// M (1-3) rows from x (row stride k) times one packed panel, `vl` output channels, into y (row
// stride ldy). The k loop is unrolled by 4 so each row's four inputs are loaded from one address
// with immediate offsets (RVV has no register + register addressing).
template <int M, Act kAct>
[[gnu::always_inline]] inline void rows_tile_rvv(const float* __restrict x, size_t k, const float* __restrict w,
                                                 const float* __restrict bias, float* __restrict y, size_t ldy,
                                                 size_t vl, float lo, float hi) {
    const float* x0 = x;
    const float* x1 = M > 1 ? x + k : x;
    const float* x2 = M > 2 ? x + 2 * k : x;
    vfloat32m8_t a0 = __riscv_vle32_v_f32m8(bias, vl);
    vfloat32m8_t a1 = a0, a2 = a0;
    size_t kk = k;
    for (; kk >= 4; kk -= 4) {
        EMBARK_PRAGMA(clang loop unroll(full))
        for (int j = 0; j < 4; ++j) {
            const vfloat32m8_t wj = __riscv_vle32_v_f32m8(w + j * kRowsPanel, vl);
            a0 = __riscv_vfmacc_vf_f32m8(a0, x0[j], wj, vl);
            if constexpr (M > 1) a1 = __riscv_vfmacc_vf_f32m8(a1, x1[j], wj, vl);
            if constexpr (M > 2) a2 = __riscv_vfmacc_vf_f32m8(a2, x2[j], wj, vl);
        }
        w += 4 * kRowsPanel;
        x0 += 4;
        if constexpr (M > 1) x1 += 4;
        if constexpr (M > 2) x2 += 4;
    }
    for (; kk > 0; --kk) {
        const vfloat32m8_t wj = __riscv_vle32_v_f32m8(w, vl);
        a0 = __riscv_vfmacc_vf_f32m8(a0, *x0++, wj, vl);
        if constexpr (M > 1) a1 = __riscv_vfmacc_vf_f32m8(a1, *x1++, wj, vl);
        if constexpr (M > 2) a2 = __riscv_vfmacc_vf_f32m8(a2, *x2++, wj, vl);
        w += kRowsPanel;
    }
    // The activations of gemm_tile (stream_rvv.h: NaN kept as its compares keep it).
    using stream_rvv::activate;
    __riscv_vse32_v_f32m8(y, activate<kAct>(a0, lo, hi, vl), vl);
    if constexpr (M > 1) __riscv_vse32_v_f32m8(y + ldy, activate<kAct>(a1, lo, hi, vl), vl);
    if constexpr (M > 2) __riscv_vse32_v_f32m8(y + 2 * ldy, activate<kAct>(a2, lo, hi, vl), vl);
}

// Rows [r0, r1) of the GEMM into y. Weights within L1 (`tile_major`): every panel per tile of
// rows; else each panel over every tile, so a panel stays cached while the rows stream.
//
// Tuned for another core's instruction order, as the depthwise kernels (depthwise.cpp): Clang 19's
// scheduler for the generic RISC-V model hoists the weight loads of the unrolled k steps above
// the FMAs and spills the LMUL-8 groups; tune=xiangshan-nanhu keeps the source order.
template <Act kAct>
[[gnu::noinline]] __attribute__((target("tune=xiangshan-nanhu"))) void
gemm_rows_rvv(int64_t r0, int64_t r1, int k, int n, const float* x, const float* packed, const float* bias, float* y,
              size_t ldy, float lo, float hi, bool tile_major) {
    const int panels = ceil_div(n, kRowsPanel);
    const size_t panel_size = static_cast<size_t>(k) * kRowsPanel;
    const size_t kk = static_cast<size_t>(k);
    auto tile = [&](int64_t r, int p) {
        const size_t vl = static_cast<size_t>(std::min(kRowsPanel, n - p * kRowsPanel));
        const float* xr = x + r * k;
        const float* w = packed + p * panel_size;
        const float* b = bias + p * kRowsPanel;
        float* yr = y + r * static_cast<int64_t>(ldy) + p * kRowsPanel;
        switch (std::min<int64_t>(kRowsTileRows, r1 - r)) {
        case 3: rows_tile_rvv<3, kAct>(xr, kk, w, b, yr, ldy, vl, lo, hi); return;
        case 2: rows_tile_rvv<2, kAct>(xr, kk, w, b, yr, ldy, vl, lo, hi); return;
        default: rows_tile_rvv<1, kAct>(xr, kk, w, b, yr, ldy, vl, lo, hi); return;
        }
    };
    if (tile_major) {
        for (int64_t r = r0; r < r1; r += kRowsTileRows)
            for (int p = 0; p < panels; ++p) tile(r, p);
    } else {
        for (int p = 0; p < panels; ++p)
            for (int64_t r = r0; r < r1; r += kRowsTileRows) tile(r, p);
    }
}

// Rows [r0, r1) of y = act(x W + b), W packed as above; `small_weights`: the packed panels fit
// L1 (run_tiles' kSmallWeightsBytes).
inline void gemm_rows_rvv(int64_t r0, int64_t r1, int k, int n, const float* x, const float* packed, size_t bias_offset,
                          float* y, size_t ldy, const Activation& act, bool small_weights) {
    const float lo = act.kind == Act::Relu ? 0.f : act.min, hi = act.max;
    with_register_activation(act.kind, [&](auto a) {
        gemm_rows_rvv<decltype(a)::value>(r0, r1, k, n, x, packed, packed + bias_offset, y, ldy, lo, hi, small_weights);
    });
    // The others once over each stored row (LeakyRelu and HardSwish too: apply_activation runs
    // them in vector strips).
    if (act.kind != Act::None && act.kind != Act::Relu && act.kind != Act::Clamp)
        for (int64_t r = r0; r < r1; ++r)
            apply_activation(act, y + r * static_cast<int64_t>(ldy), static_cast<size_t>(n));
}

} // namespace embark::portable::detail
#else
#  define EMBARK_GEMM_ROWS_RVV 0
#endif

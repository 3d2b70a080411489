// Depthwise convolution (one filter per channel) in NHWC: per output pixel, blocks of channels
// accumulate over the taps, which are compile-time for 3x3 and 5x5. A channel multiplier m > 1
// (ConvPath::DepthwiseMultiplier) runs the same kernels over the input with each channel repeated
// m times: every kernel reads out_c channels per input pixel (out_c == in_c without a multiplier).
#include "gemm_ukernel.h"
#include "portable.h"
#include "stream_rvv.h"

#include <algorithm>
#include <vector>
#if defined(__clang__) && defined(__riscv_vector)
#  include <riscv_vector.h>
#endif

namespace embark::portable::detail {

namespace {

constexpr int CB = kDepthwiseChannelBlock;

// Indirection [pixel][tap] -> input pixel row (or the zero row for padding). The column
// offsets of every (output column, kernel column) are computed once, then each entry is a
// select: in a run layer by layer the table is built on the first call for each input buffer,
// and with a division and a modulo per entry (the former loop over pixels and taps) it cost ~30
// instructions per pixel and tap, a third of a 3x3 layer's own work.
void build_depthwise_indirection(const Conv2D& op, const float* input) {
    const Conv2DShape& s = op.shape;
    const int taps = s.kernel_h * s.kernel_w;
    const int64_t pixels = static_cast<int64_t>(s.batch) * op.out_h * op.out_w;
    op.indirection.resize(static_cast<size_t>(pixels * taps));
    std::vector<int64_t> columns(static_cast<size_t>(op.out_w) * s.kernel_w); // offset in a row, -1: padding
    for (int ox = 0; ox < op.out_w; ++ox)
        for (int kx = 0; kx < s.kernel_w; ++kx) {
            const int ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
            columns[static_cast<size_t>(ox) * s.kernel_w + kx] =
                ix >= 0 && ix < s.in_w ? static_cast<int64_t>(ix) * s.out_c : -1;
        }
    const float* zero = op.zero.data();
    const float** entry = op.indirection.data();
    const size_t row_floats = static_cast<size_t>(s.in_w) * s.out_c;
    for (int n = 0; n < s.batch; ++n)
        for (int oy = 0; oy < op.out_h; ++oy)
            for (int ox = 0; ox < op.out_w; ++ox) {
                const int64_t* col = columns.data() + static_cast<size_t>(ox) * s.kernel_w;
                for (int ky = 0; ky < s.kernel_h; ++ky) {
                    const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
                    if (iy < 0 || iy >= s.in_h) {
                        for (int kx = 0; kx < s.kernel_w; ++kx) *entry++ = zero;
                        continue;
                    }
                    const float* row = input + (static_cast<size_t>(n) * s.in_h + iy) * row_floats;
                    for (int kx = 0; kx < s.kernel_w; ++kx) *entry++ = col[kx] >= 0 ? row + col[kx] : zero;
                }
            }
}

template <int WIDTH>
[[gnu::always_inline]] inline void activate_row(const Activation& act, float* __restrict v) {
    switch (act.kind) {
    case Act::None: return;
    case Act::Relu:
        for (int c = 0; c < WIDTH; ++c) v[c] = v[c] > 0.f ? v[c] : 0.f;
        return;
    case Act::Clamp: {
        const float lo = act.min, hi = act.max;
        for (int c = 0; c < WIDTH; ++c) {
            const float x = v[c] < lo ? lo : v[c];
            v[c] = x > hi ? hi : x;
        }
        return;
    }
    default: apply_activation(act, v, WIDTH); return;
    }
}

// One block of `width` channels starting at channel c0 of one output pixel. TAPS == 0 means
// the tap count is only known at run time (`taps`).
template <int TAPS, int WIDTH>
EMBARK_VECTORIZE_ALWAYS inline void depthwise_block(int taps, const float* const* rows, const float* __restrict w,
                                                    const float* __restrict bias, int channels, int c0, float* out,
                                                    const Activation& act) {
    float acc[1][WIDTH];
    EMBARK_CHANNEL_LOOP(WIDTH)
    for (int c = 0; c < WIDTH; ++c) acc[0][c] = bias[c0 + c];
    const int tap_count = TAPS > 0 ? TAPS : taps;
#pragma GCC unroll 25
    for (int t = 0; t < tap_count; ++t) {
        const float* __restrict x = rows[t] + c0;
        const float* __restrict wt = w + static_cast<size_t>(t) * channels + c0;
        EMBARK_CHANNEL_LOOP(WIDTH)
        for (int c = 0; c < WIDTH; ++c) acc[0][c] += x[c] * wt[c];
    }
    EMBARK_CHANNEL_LOOP(WIDTH)
    for (int c = 0; c < WIDTH; ++c) out[c0 + c] = acc[0][c];
    // The activation runs on the stored row: on a one-pixel tile in registers GCC 12 turns a
    // 16-wide clamp into 32 scalar min/max.
    activate_row<WIDTH>(act, out + c0);
}

// Channel remainder (< CB channels): the same sums with a run-time width.
inline void depthwise_tail(int taps, const float* const* rows, const float* w, const float* bias, int channels, int c0,
                           float* out, const Activation& act) {
    float acc[CB];
    const int width = channels - c0;
    for (int c = 0; c < width; ++c) acc[c] = bias[c0 + c];
    for (int t = 0; t < taps; ++t) {
        const float* x = rows[t] + c0;
        const float* wt = w + static_cast<size_t>(t) * channels + c0;
        for (int c = 0; c < width; ++c) acc[c] += x[c] * wt[c];
    }
    apply_activation(act, acc, static_cast<size_t>(width));
    for (int c = 0; c < width; ++c) out[c0 + c] = acc[c];
}

// Output pixels written ahead of the stores when several threads share the layer (see
// prefetch_for_write): it pays on large layers (MobileNet-V2's 56x56x144) at 2 threads.
constexpr int64_t kPrefetchedPixelsAhead = 8;

#if defined(__clang__) && defined(__riscv_vector)
// RVV (Clang): each pixel runs over its channels in one vector loop of LMUL 8 (32 floats per
// instruction at VLEN 128, 64 at 256: EMBARK_DEPTHWISE_FLOATS_M8) with all
// taps unrolled inside and one accumulator, as XNNPACK's 9p8vc kernel: per vector of channels
// and tap one input load, one weight load and one FMA. Up to kDepthwiseTapsPerPass taps per
// pass (25 taps: 9 + 9 + 7, the later passes start from the stored partial sums).
//
// LMUL 8 leaves four vector register groups, enough for the accumulator and one tap's two
// operands only if the loads stay next to their FMA. Clang 19's machine scheduler for the
// generic RISC-V model hoists all 18 loads of 9 taps above the FMAs and spills them (vs8r/vl8r
// around every tap). These functions are therefore tuned for another core,
// tune=xiangshan-nanhu (instruction order only: the ISA stays the board's -march): an
// out-of-order model without vector scheduling data, for which the scheduler keeps the source
// order of the vector instructions and the clamp compares against scalars (vmflt.vf). Checked
// in the object code: no vs8r/vl8r. (tune=sifive-p670 hoists the clamp bounds' splats and
// spills one; the generic model spills 24 register groups per iteration.)
//
// Channels past the last whole vector (at the board's VLEN, EMBARK_VLEN_BITS) are not a
// scalar or masked epilogue: a single pass is a pure function of the inputs, so the last
// vector is recomputed over the final VL channels, overlapping the main loop's last one; below
// one LMUL-8 vector (32 channels at VLEN 128) the same runs at LMUL 4, 2, 1. Every channel count
// then takes ceil(channels / VL) vector iterations, like XNNPACK's vsetvl loop.
constexpr int kDepthwiseTapsPerPass = 9;
#  define EMBARK_DEPTHWISE_TUNE __attribute__((target("tune=xiangshan-nanhu")))
#  define EMBARK_DEPTHWISE_LOOP(width)                                                                                 \
    EMBARK_PRAGMA(clang loop vectorize(assume_safety) vectorize_width(width) interleave_count(1) unroll(disable))
// Floats per vector instruction at LMUL 8, 4, 2, 1 at the board's VLEN. The loops are fixed
// width (vectorize_width(32) at VLEN 128, not scalable): a build for VLEN 128 run on a VLEN-256
// core (an export built without the board's EMBARK_VLEN_BITS) then does the same vectors, each
// half full, where scalable loops shorter than the core's vector would fall to scalar code.
#  if EMBARK_VLEN_BITS >= 256
#    define EMBARK_DEPTHWISE_FLOATS_M8 64
#    define EMBARK_DEPTHWISE_FLOATS_M4 32
#    define EMBARK_DEPTHWISE_FLOATS_M2 16
#    define EMBARK_DEPTHWISE_FLOATS_M1 8
constexpr int kVectorFloats = 8;
#  else
#    define EMBARK_DEPTHWISE_FLOATS_M8 32
#    define EMBARK_DEPTHWISE_FLOATS_M4 16
#    define EMBARK_DEPTHWISE_FLOATS_M2 8
#    define EMBARK_DEPTHWISE_FLOATS_M1 4
constexpr int kVectorFloats = 4;
#  endif

template <bool kLast, Act kAct>
[[gnu::always_inline]] inline float depthwise_finish(float acc, float lo, float hi) {
    if constexpr (kLast && kAct == Act::Relu) acc = acc > 0.f ? acc : 0.f;
    if constexpr (kLast && kAct == Act::Clamp) {
        acc = acc < lo ? lo : acc;
        acc = acc > hi ? hi : acc;
    }
    return acc;
}

// One pass over channels [c0, c1) in vectors of `width` floats (LMUL 8 at the board's VLEN: 32
// at VLEN 128). The loads
// are written in the loop itself (a macro, not a helper function): vectorize(assume_safety)
// covers only the accesses spelled inside the loop, and a helper's loads cost a run-time
// overlap check of out against every tap's input row, per pixel.
#  define EMBARK_DEPTHWISE_CHANNELS(width)                                                                             \
    EMBARK_DEPTHWISE_LOOP(width)                                                                                       \
    for (int c = c0; c < c1; ++c) {                                                                                    \
      float acc = start[c];                                                                                            \
      EMBARK_PRAGMA(clang loop unroll(full))                                                                           \
      for (int t = 0; t < G; ++t) acc += x[t][c] * wt[t][c];                                                           \
      out[c] = depthwise_finish<kLast, kAct>(acc, lo, hi);                                                             \
    }

// Channels [c0, c1) of one pass in vectors of LMUL kLmul (8, 4, 2 or 1; 0: scalar).
template <int kLmul, int G, bool kLast, Act kAct>
[[gnu::always_inline]] inline void depthwise_channels(const float* const* x, const float* const* wt,
                                                      const float* __restrict start, float* __restrict out, int c0,
                                                      int c1, float lo, float hi) {
    if constexpr (kLmul == 8) {
        EMBARK_DEPTHWISE_CHANNELS(EMBARK_DEPTHWISE_FLOATS_M8)
    } else if constexpr (kLmul == 4) {
        EMBARK_DEPTHWISE_CHANNELS(EMBARK_DEPTHWISE_FLOATS_M4)
    } else if constexpr (kLmul == 2) {
        EMBARK_DEPTHWISE_CHANNELS(EMBARK_DEPTHWISE_FLOATS_M2)
    } else if constexpr (kLmul == 1) {
        EMBARK_DEPTHWISE_CHANNELS(EMBARK_DEPTHWISE_FLOATS_M1)
    } else {
        for (int c = c0; c < c1; ++c) {
            float acc = start[c];
            for (int t = 0; t < G; ++t) acc += x[t][c] * wt[t][c];
            out[c] = depthwise_finish<kLast, kAct>(acc, lo, hi);
        }
    }
}

// Channels [c0, c1), fewer than one LMUL-8 vector, in one vector of that length (vsetvl), each
// channel once: the same multiply-adds in the same order as the loops above.
template <int G, bool kLast, Act kAct>
[[gnu::always_inline]] inline void depthwise_channels_tail(const float* const* x, const float* const* wt,
                                                           const float* __restrict start, float* __restrict out, int c0,
                                                           int c1, float lo, float hi) {
    const size_t vl = __riscv_vsetvl_e32m8(static_cast<size_t>(c1 - c0));
    vfloat32m8_t acc = __riscv_vle32_v_f32m8(start + c0, vl);
    EMBARK_PRAGMA(clang loop unroll(full))
    for (int t = 0; t < G; ++t)
        acc = __riscv_vfmacc_vv_f32m8(acc, __riscv_vle32_v_f32m8(x[t] + c0, vl), __riscv_vle32_v_f32m8(wt[t] + c0, vl),
                                      vl);
    if constexpr (kLast && kAct == Act::Relu) // acc > 0 ? acc : 0
        acc = __riscv_vfmerge_vfm_f32m8(acc, 0.f, __riscv_vmnot_m_b4(__riscv_vmfgt_vf_f32m8_b4(acc, 0.f, vl), vl), vl);
    if constexpr (kLast && kAct == Act::Clamp) {
        acc = __riscv_vfmerge_vfm_f32m8(acc, lo, __riscv_vmflt_vf_f32m8_b4(acc, lo, vl), vl);
        acc = __riscv_vfmerge_vfm_f32m8(acc, hi, __riscv_vmfgt_vf_f32m8_b4(acc, hi, vl), vl);
    }
    __riscv_vse32_v_f32m8(out + c0, acc, vl);
}

// Taps [T0, T0 + G) added to out (to the bias when T0 == 0); the last pass applies kAct.
template <int T0, int G, bool kLast, Act kAct, int kLmul = 8>
[[gnu::always_inline]] inline void depthwise_pass(const float* const* x, const float* const* wt,
                                                  const float* __restrict bias, int channels, float* __restrict out,
                                                  float lo, float hi) {
    constexpr int vl = kLmul * kVectorFloats;
    const float* __restrict start = T0 == 0 ? bias : out;
    if (channels < vl) { // fewer channels than one vector of this LMUL: try half of it
        if constexpr (kLmul > 1)
            depthwise_pass<T0, G, kLast, kAct, kLmul / 2>(x, wt, bias, channels, out, lo, hi);
        else
            depthwise_channels<0, G, kLast, kAct>(x, wt, start, out, 0, channels, lo, hi);
        return;
    }
    const int main_channels = channels - channels % vl;
    depthwise_channels<kLmul, G, kLast, kAct>(x, wt, start, out, 0, main_channels, lo, hi);
    if (main_channels == channels) return;
    if constexpr (T0 == 0 && kLast) {
        // One pass: recompute the last whole vector (overlapping the main loop's last one).
        depthwise_channels<kLmul, G, kLast, kAct>(x, wt, start, out, channels - vl, channels, lo, hi);
    } else {
        // Passes that add to stored sums must not run twice on a channel: the rest as one
        // shorter LMUL-8 vector (vsetvl), as XNNPACK's loops end.
        depthwise_channels_tail<G, kLast, kAct>(x, wt, start, out, main_channels, channels, lo, hi);
    }
}

template <int TAPS, Act kAct, int T0 = 0>
[[gnu::always_inline]] inline void depthwise_pixel_row(const float* const* rows, const float* __restrict w,
                                                       const float* __restrict bias, int channels,
                                                       float* __restrict out, float lo, float hi) {
    constexpr int G = TAPS - T0 < kDepthwiseTapsPerPass ? TAPS - T0 : kDepthwiseTapsPerPass;
    const float* x[G];
    const float* wt[G];
    for (int t = 0; t < G; ++t) {
        x[t] = rows[T0 + t];
        wt[t] = w + static_cast<size_t>(T0 + t) * channels;
    }
    depthwise_pass<T0, G, T0 + G == TAPS, kAct>(x, wt, bias, channels, out, lo, hi);
    if constexpr (T0 + G < TAPS) depthwise_pixel_row<TAPS, kAct, T0 + G>(rows, w, bias, channels, out, lo, hi);
}

// Two output pixels of a 9-tap layer at once: per vector of channels (LMUL 8, vsetvl strips) the
// bias is loaded once and each tap's weights once for both pixels, so a strip of two pixels
// retires 1 + 9 + 18 loads, 18 FMAs and two stores where two single pixels retire 2 + 18 + 18
// loads, and the per-pixel set-up (the taps' pointers, the strip loop's start) is paid once per
// pair. The four LMUL-8 groups hold the two accumulators, the tap's weights and one input. The
// multiply-adds of every channel are those of depthwise_pass, in the same order.
template <Act kAct>
[[gnu::always_inline]] inline void
depthwise_pair9_rvv(const float* const* rows, const float* __restrict w, const float* __restrict bias, int channels,
                    float* __restrict out0, float* __restrict out1, float lo, float hi) {
    const float* x0[9];
    const float* x1[9];
    for (int t = 0; t < 9; ++t) {
        x0[t] = rows[t];
        x1[t] = rows[9 + t];
    }
    const size_t tap_stride = static_cast<size_t>(channels);
    for (size_t c = 0, left = static_cast<size_t>(channels); left > 0;) {
        const size_t vl = __riscv_vsetvl_e32m8(left);
        vfloat32m8_t a0 = __riscv_vle32_v_f32m8(bias + c, vl);
        vfloat32m8_t a1 = a0;
        const float* wt = w + c;
        EMBARK_PRAGMA(clang loop unroll(full))
        for (int t = 0; t < 9; ++t) {
            const vfloat32m8_t k = __riscv_vle32_v_f32m8(wt, vl);
            a0 = __riscv_vfmacc_vv_f32m8(a0, __riscv_vle32_v_f32m8(x0[t] + c, vl), k, vl);
            a1 = __riscv_vfmacc_vv_f32m8(a1, __riscv_vle32_v_f32m8(x1[t] + c, vl), k, vl);
            wt += tap_stride;
        }
        // Both sums complete before either is clamped: the clamp's compares need v0, which the
        // taps' operands hold until the last FMA (else the scheduler starts a0's clamp beside a1's
        // last tap and spills a register group). An empty asm that takes and returns both.
        if constexpr (kAct == Act::Clamp) asm volatile("" : "+vr"(a0), "+vr"(a1));
        __riscv_vse32_v_f32m8(out0 + c, stream_rvv::activate<kAct>(a0, lo, hi, vl), vl);
        __riscv_vse32_v_f32m8(out1 + c, stream_rvv::activate<kAct>(a1, lo, hi, vl), vl);
        c += vl;
        left -= vl;
    }
}

// Output pixels [begin, end) with the activation kAct in the last pass (Act::None: applied to
// each stored pixel by apply_activation). One function per tap count and activation, not
// inlined into the generic paths, so fewer values stay live across the pixel loop and the
// set-up around the vector loops stays short (per-layer counts against XNNPACK: bench/README.md).
template <int TAPS, Act kAct>
[[gnu::noinline]] EMBARK_DEPTHWISE_TUNE void depthwise_pixels_rvv(const Conv2D& op, const float* const* indirection,
                                                                  int64_t begin, int64_t end, float* output,
                                                                  bool prefetch) {
    const int channels = op.shape.out_c;
    const int64_t out_stride = op.out_pixel_stride();
    const float* w = op.packed.data();
    const float* bias = w + op.bias_offset;
    const float lo = op.act.min, hi = op.act.max;
    int64_t p = begin;
    if constexpr (TAPS == 9) {
        for (; p + 2 <= end; p += 2) {
            float* out = output + p * out_stride;
            if (prefetch && p + 1 + kPrefetchedPixelsAhead < end)
                prefetch_for_write(out + kPrefetchedPixelsAhead * out_stride,
                                   2 * static_cast<size_t>(channels) * sizeof(float));
            depthwise_pair9_rvv<kAct>(indirection + p * TAPS, w, bias, channels, out, out + out_stride, lo, hi);
            if (kAct == Act::None && op.act.kind != Act::None) {
                apply_activation(op.act, out, static_cast<size_t>(channels));
                apply_activation(op.act, out + out_stride, static_cast<size_t>(channels));
            }
        }
    }
    for (; p < end; ++p) {
        float* out = output + p * out_stride;
        if (prefetch && p + kPrefetchedPixelsAhead < end)
            prefetch_for_write(out + kPrefetchedPixelsAhead * out_stride,
                               static_cast<size_t>(channels) * sizeof(float));
        depthwise_pixel_row<TAPS, kAct>(indirection + p * TAPS, w, bias, channels, out, lo, hi);
        if (kAct == Act::None && op.act.kind != Act::None) apply_activation(op.act, out, static_cast<size_t>(channels));
    }
}

template <int TAPS>
void depthwise_pixels_rvv(const Conv2D& op, const float* const* indirection, int64_t begin, int64_t end, float* output,
                          bool prefetch) {
    with_register_activation(op.act.kind, [&](auto act) {
        depthwise_pixels_rvv<TAPS, decltype(act)::value>(op, indirection, begin, end, output, prefetch);
    });
}
#  define EMBARK_DEPTHWISE_RVV 1
#else
#  define EMBARK_DEPTHWISE_RVV 0
#  define EMBARK_DEPTHWISE_TUNE
#endif

#if EMBARK_VECTOR_TILE
// aarch64 (GCC vector extensions, gemm_vec.h): the weights are packed in blocks of
// kDepthwiseVecBlock channels, [block][bias, tap 0, ..., tap taps-1][kDepthwiseVecBlock], as
// XNNPACK packs them, so a tap's weights of a block are one pair of ldp, next to the block's
// bias. Per pixel and block of 16 channels, each tap costs two ldp of input, two ldp of weights
// and four fmla; the clamp runs in registers (fmaxnm/fminnm) before the store. The generic
// blocks below index [tap][channels] weights with a run-time stride (one ldr each) and clamp the
// stored row afterwards: ~10-14 instructions per channel and pixel of a 3x3 layer instead of ~6.
// The channels after the last whole block (fewer than 16) are computed 4 at a time, and one by
// one below 4, so no load reads past a pixel's channels. Same fused multiply-adds in the same
// order as the generic blocks (bit-identical sums).
#  define EMBARK_DEPTHWISE_VEC 1
constexpr int kDepthwiseVecBlock = 16;
constexpr int kDepthwiseVecVectors = kDepthwiseVecBlock / kVecLanes;

size_t depthwise_vec_block_floats(int taps) { return static_cast<size_t>(taps + 1) * kDepthwiseVecBlock; }

template <Act kAct>
[[gnu::always_inline]] EMBARK_VECTOR_MATH_ATTRS inline vec4f depthwise_vec_act(vec4f v, vec4f lo, vec4f hi) {
    if constexpr (kAct == Act::Relu) return vec_max(v, lo);
    if constexpr (kAct == Act::Clamp) return vec_min(vec_max(v, lo), hi);
    return v;
}

// Output pixels [begin, end) with TAPS taps (0: op's tap count at run time) and the activation
// kAct applied in registers (Act::None: any other activation, applied to each stored pixel).
template <int TAPS, Act kAct>
[[gnu::noinline]] EMBARK_VECTOR_MATH_ATTRS void depthwise_pixels_vec(const Conv2D& op, const float* const* indirection,
                                                                     int64_t begin, int64_t end, float* output,
                                                                     bool prefetch) {
    const int channels = op.shape.out_c;
    const int64_t out_stride = op.out_pixel_stride();
    const int taps = TAPS > 0 ? TAPS : op.shape.kernel_h * op.shape.kernel_w;
    const size_t block_floats = depthwise_vec_block_floats(taps);
    const float* packed = op.packed.data();
    const vec4f lo = vec_splat(kAct == Act::Relu ? 0.f : op.act.min), hi = vec_splat(op.act.max);
    const int whole_blocks = channels / kDepthwiseVecBlock;
    for (int64_t p = begin; p < end; ++p) {
        const float* const* rows = indirection + p * taps;
        float* out = output + p * out_stride;
        if (prefetch && p + kPrefetchedPixelsAhead < end)
            prefetch_for_write(out + kPrefetchedPixelsAhead * out_stride,
                               static_cast<size_t>(channels) * sizeof(float));
        // The taps' rows in locals (registers) for the block loop: GCC then steps one pointer per
        // tap and loads with immediate offsets (ldp), not register + register (no pair form).
        constexpr int kRowSlots = TAPS > 0 ? TAPS : 1;
        const float* x_rows[kRowSlots];
        if constexpr (TAPS > 0)
#  pragma GCC unroll 25
            for (int t = 0; t < TAPS; ++t) x_rows[t] = rows[t];
        const float* wb = packed;
        for (int b = 0; b < whole_blocks; ++b, wb += block_floats) {
            const int c0 = b * kDepthwiseVecBlock;
            vec4f acc[kDepthwiseVecVectors];
#  pragma GCC unroll 4
            for (int j = 0; j < kDepthwiseVecVectors; ++j) acc[j] = vec_load(wb + j * kVecLanes);
#  pragma GCC unroll 25
            for (int t = 0; t < taps; ++t) {
                const float* x = (TAPS > 0 ? x_rows[TAPS > 0 ? t : 0] : rows[t]) + c0;
                const float* wt = wb + (t + 1) * kDepthwiseVecBlock;
#  pragma GCC unroll 4
                for (int j = 0; j < kDepthwiseVecVectors; ++j)
                    acc[j] += vec_load(x + j * kVecLanes) * vec_load(wt + j * kVecLanes);
            }
#  pragma GCC unroll 4
            for (int j = 0; j < kDepthwiseVecVectors; ++j)
                vec_store(out + c0 + j * kVecLanes, depthwise_vec_act<kAct>(acc[j], lo, hi));
        }
        // The last, partial block: 4 channels at a time, then one by one.
        int c = whole_blocks * kDepthwiseVecBlock;
        for (; c + kVecLanes <= channels; c += kVecLanes) {
            const int in_block = c - whole_blocks * kDepthwiseVecBlock;
            vec4f acc = vec_load(wb + in_block);
            for (int t = 0; t < taps; ++t)
                acc += vec_load(rows[t] + c) * vec_load(wb + (t + 1) * kDepthwiseVecBlock + in_block);
            vec_store(out + c, depthwise_vec_act<kAct>(acc, lo, hi));
        }
        for (; c < channels; ++c) {
            const int in_block = c - whole_blocks * kDepthwiseVecBlock;
            float acc = wb[in_block];
            for (int t = 0; t < taps; ++t) acc += rows[t][c] * wb[(t + 1) * kDepthwiseVecBlock + in_block];
            if constexpr (kAct == Act::Relu) acc = acc > 0.f ? acc : 0.f;
            if constexpr (kAct == Act::Clamp) {
                acc = acc < op.act.min ? op.act.min : acc;
                acc = acc > op.act.max ? op.act.max : acc;
            }
            out[c] = acc;
        }
        if (kAct == Act::None && op.act.kind != Act::None) apply_activation(op.act, out, static_cast<size_t>(channels));
    }
}

template <int TAPS>
void depthwise_pixels_vec(const Conv2D& op, const float* const* indirection, int64_t begin, int64_t end, float* output,
                          bool prefetch) {
    with_register_activation(op.act.kind, [&](auto act) {
        depthwise_pixels_vec<TAPS, decltype(act)::value>(op, indirection, begin, end, output, prefetch);
    });
}
#else
#  define EMBARK_DEPTHWISE_VEC 0
#endif

#if EMBARK_NARROW_TILE
// x86 (GCC/Clang vector extensions, gemm_ukernel.h's 16-float Narrow vectors): channels in
// blocks of one or two vectors over groups of output pixels, the clamp in registers before the
// one store. Channels past the last whole vector recompute the last 16 (overlapping the block
// before: a block is a pure function of the input), so only layers of fewer than 16 channels go
// element by element. Same fused multiply-adds in the same order as depthwise_block (the same
// sums).
#  define EMBARK_DEPTHWISE_X86 1
// Channels [c0, c0 + 16 V) of the P output pixels from p0: per tap, the block's V weight vectors
// are loaded once for the P pixels (1 + 1/P loads per FMA, against 2 pixel by pixel, which left
// a 7x7 layer bound by its loads), then the clamp in registers and one store per vector.
template <int TAPS, int V, int P, Act kAct>
[[gnu::always_inline]] inline void depthwise_pixel_group(int taps, const float* const* indirection, int64_t p0,
                                                         const float* __restrict w, const float* __restrict bias,
                                                         int channels, int c0, float* output, int64_t out_stride,
                                                         float lo, float hi) {
    const int tap_count = TAPS > 0 ? TAPS : taps;
    Narrow acc[P][V];
#  pragma GCC unroll 4
    for (int j = 0; j < V; ++j) {
        Narrow b;
        vload_into(b, bias + c0 + j * kNarrowChannels);
#  pragma GCC unroll 4
        for (int i = 0; i < P; ++i) acc[i][j] = b;
    }
    const float* const* rows = indirection + p0 * tap_count;
    for (int t = 0; t < tap_count; ++t) {
        const float* wt = w + static_cast<size_t>(t) * channels + c0;
        Narrow wv[V];
#  pragma GCC unroll 4
        for (int j = 0; j < V; ++j) vload_into(wv[j], wt + j * kNarrowChannels);
#  pragma GCC unroll 4
        for (int i = 0; i < P; ++i) {
            const float* x = rows[i * tap_count + t] + c0;
#  pragma GCC unroll 4
            for (int j = 0; j < V; ++j) {
                Narrow xv;
                vload_into(xv, x + j * kNarrowChannels);
                acc[i][j] += xv * wv[j];
            }
        }
    }
    const Narrow l = Narrow{} + lo, h = Narrow{} + hi;
#  pragma GCC unroll 4
    for (int i = 0; i < P; ++i)
#  pragma GCC unroll 4
        for (int j = 0; j < V; ++j) {
            activate_vector<Narrow, kAct>(acc[i][j], l, h);
            vstore(output + (p0 + i) * out_stride + c0 + j * kNarrowChannels, acc[i][j]);
        }
}

// Output pixels taken kDepthwisePixelGroup at a time by depthwise_pixel_group.
constexpr int kDepthwisePixelGroup = 4;

// Channels [c0, c0 + 16 V) of output pixels [begin, end), kDepthwisePixelGroup pixels at a time.
template <int TAPS, int V, Act kAct>
[[gnu::noinline]] void depthwise_block_groups_x86(int taps, const float* const* indirection, int64_t begin, int64_t end,
                                                  const float* __restrict w, const float* __restrict bias, int channels,
                                                  int c0, float* output, int64_t out_stride, float lo, float hi,
                                                  bool prefetch) {
    constexpr int P = kDepthwisePixelGroup;
    int64_t p = begin;
    for (; p + P <= end; p += P) {
        if (prefetch && c0 == 0 && p + P + kPrefetchedPixelsAhead <= end)
            for (int i = 0; i < P; ++i)
                prefetch_for_write(output + (p + i + kPrefetchedPixelsAhead) * out_stride,
                                   static_cast<size_t>(channels) * sizeof(float));
        depthwise_pixel_group<TAPS, V, P, kAct>(taps, indirection, p, w, bias, channels, c0, output, out_stride, lo,
                                                hi);
    }
    for (; p < end; ++p)
        depthwise_pixel_group<TAPS, V, 1, kAct>(taps, indirection, p, w, bias, channels, c0, output, out_stride, lo,
                                                hi);
}

// With AVX-512 and 3x3 or 5x5 kernels: channels [c0, c0 + 16 V) of output pixels [begin, end)
// with the block's kTaps x V weight vectors and its bias held in registers across the pixels
// (3x3 with V = 2: 18 + 2 of the 32 zmm; 5x5 with V = 1: 25 + 1). Pixel by pixel over all channels
// (depthwise_narrow_block), every FMA loaded its weight vector beside its input vector: 19 loads per 9 FMAs, which a
// core that splits a 512-bit load in two (AMD Zen 4) pays for; here a pixel loads its 9 input vectors only. Same FMAs
// in the same order as depthwise_narrow_block (the same sums).
template <int kTaps, int V, Act kAct>
[[gnu::noinline]] void depthwise_block_x86(const float* const* indirection, int64_t begin, int64_t end,
                                           const float* __restrict w, const float* __restrict bias, int channels,
                                           int c0, float* output, int64_t out_stride, float lo, float hi,
                                           bool prefetch) {
    Narrow wr[kTaps][V], br[V];
#  pragma GCC unroll 4
    for (int j = 0; j < V; ++j) {
        br[j] = vload<Narrow>(bias + c0 + j * kNarrowChannels);
#  pragma GCC unroll 25
        for (int t = 0; t < kTaps; ++t)
            wr[t][j] = vload<Narrow>(w + static_cast<size_t>(t) * channels + c0 + j * kNarrowChannels);
    }
    const Narrow l = Narrow{} + lo, h = Narrow{} + hi;
    for (int64_t p = begin; p < end; ++p) {
        const float* const* rows = indirection + p * kTaps;
        float* out = output + p * out_stride + c0;
        if (prefetch && c0 == 0 && p + kPrefetchedPixelsAhead < end)
            prefetch_for_write(out + kPrefetchedPixelsAhead * out_stride,
                               static_cast<size_t>(channels) * sizeof(float));
        Narrow acc[V];
#  pragma GCC unroll 4
        for (int j = 0; j < V; ++j) acc[j] = br[j];
#  pragma GCC unroll 25
        for (int t = 0; t < kTaps; ++t) {
            const float* x = rows[t] + c0;
#  pragma GCC unroll 4
            for (int j = 0; j < V; ++j) acc[j] += vload<Narrow>(x + j * kNarrowChannels) * wr[t][j];
        }
#  pragma GCC unroll 4
        for (int j = 0; j < V; ++j) {
            activate_vector<Narrow, kAct>(acc[j], l, h);
            vstore(out + j * kNarrowChannels, acc[j]);
        }
    }
}

// Output pixels [begin, end) with the activation kAct in registers (Act::None: any other
// activation, applied once over each stored pixel).
template <int TAPS, Act kAct>
[[gnu::noinline]] void depthwise_pixels_x86(const Conv2D& op, const float* const* indirection, int64_t begin,
                                            int64_t end, float* output, bool prefetch) {
    const int channels = op.shape.out_c;
    const int64_t out_stride = op.out_pixel_stride();
    const int taps = TAPS > 0 ? TAPS : op.shape.kernel_h * op.shape.kernel_w;
    const float* w = op.packed.data();
    const float* bias = w + op.bias_offset;
    const float lo = kAct == Act::Relu ? 0.f : op.act.min, hi = op.act.max;
    const bool after = kAct == Act::None && op.act.kind != Act::None;
    constexpr int N = kNarrowChannels;
#  if defined(__AVX512F__)
    if constexpr (TAPS == 9 || TAPS == 25) {
        // 3x3: blocks of 32, then 16; 5x5: blocks of 16. The last 16 overlap the block before.
        constexpr int kWide = TAPS == 9 ? 2 : 1;
        if (channels >= N) {
            int c0 = 0;
            for (; c0 + kWide * N <= channels; c0 += kWide * N)
                depthwise_block_x86<TAPS, kWide, kAct>(indirection, begin, end, w, bias, channels, c0, output,
                                                       out_stride, lo, hi, prefetch);
            if (c0 + N <= channels) {
                depthwise_block_x86<TAPS, 1, kAct>(indirection, begin, end, w, bias, channels, c0, output, out_stride,
                                                   lo, hi, prefetch);
                c0 += N;
            }
            if (c0 < channels)
                depthwise_block_x86<TAPS, 1, kAct>(indirection, begin, end, w, bias, channels, channels - N, output,
                                                   out_stride, lo, hi, prefetch);
            if (after)
                for (int64_t p = begin; p < end; ++p)
                    apply_activation(op.act, output + p * out_stride, static_cast<size_t>(channels));
            return;
        }
    }
#  endif
    if (channels < N) { // element by element, its activation included
        for (int64_t p = begin; p < end; ++p)
            depthwise_tail(taps, indirection + p * taps, w, bias, channels, 0, output + p * out_stride, op.act);
        return;
    }
    // Blocks of two vectors (32 channels with AVX-512, 8 accumulators of 4 pixels; 16 in two
    // ymm without), then one; the last vector's channels overlap the block before (a block is a
    // pure function of the input).
    constexpr int kWide = 2;
    int c0 = 0;
    for (; c0 + kWide * N <= channels; c0 += kWide * N)
        depthwise_block_groups_x86<TAPS, kWide, kAct>(taps, indirection, begin, end, w, bias, channels, c0, output,
                                                      out_stride, lo, hi, prefetch);
    if (kWide > 1 && c0 + N <= channels) {
        depthwise_block_groups_x86<TAPS, 1, kAct>(taps, indirection, begin, end, w, bias, channels, c0, output,
                                                  out_stride, lo, hi, prefetch);
        c0 += N;
    }
    if (c0 < channels)
        depthwise_block_groups_x86<TAPS, 1, kAct>(taps, indirection, begin, end, w, bias, channels, channels - N,
                                                  output, out_stride, lo, hi, prefetch);
    // Any other activation once over each pixel's stored channels.
    if (after)
        for (int64_t p = begin; p < end; ++p)
            apply_activation(op.act, output + p * out_stride, static_cast<size_t>(channels));
}

template <int TAPS>
void depthwise_pixels_x86(const Conv2D& op, const float* const* indirection, int64_t begin, int64_t end, float* output,
                          bool prefetch) {
    with_register_activation(op.act.kind, [&](auto act) {
        depthwise_pixels_x86<TAPS, decltype(act)::value>(op, indirection, begin, end, output, prefetch);
    });
}
#else
#  define EMBARK_DEPTHWISE_X86 0
#endif

// (The generic blocks below, for other tap counts, spill less under EMBARK_DEPTHWISE_TUNE too.)
template <int TAPS>
EMBARK_DEPTHWISE_TUNE void depthwise_pixels(const Conv2D& op, const float* const* indirection, int64_t begin,
                                            int64_t end, float* output, bool prefetch) {
#if EMBARK_DEPTHWISE_RVV
    if constexpr (TAPS > 0) {
        depthwise_pixels_rvv<TAPS>(op, indirection, begin, end, output, prefetch);
        return;
    }
#endif
#if EMBARK_DEPTHWISE_VEC
    depthwise_pixels_vec<TAPS>(op, indirection, begin, end, output, prefetch);
    return;
#endif
#if EMBARK_DEPTHWISE_X86
    depthwise_pixels_x86<TAPS>(op, indirection, begin, end, output, prefetch);
    return;
#endif
    const int channels = op.shape.out_c;
    const int64_t out_stride = op.out_pixel_stride();
    const int taps = op.shape.kernel_h * op.shape.kernel_w;
    const float* w = op.packed.data();
    const float* bias = w + op.bias_offset;
    const int full_blocks = channels / CB;
    for (int64_t p = begin; p < end; ++p) {
        const float* const* rows = indirection + p * taps;
        float* out = output + p * out_stride;
        if (prefetch && p + kPrefetchedPixelsAhead < end)
            prefetch_for_write(out + kPrefetchedPixelsAhead * out_stride,
                               static_cast<size_t>(channels) * sizeof(float));
        for (int b = 0; b < full_blocks; ++b)
            depthwise_block<TAPS, CB>(taps, rows, w, bias, channels, b * CB, out, op.act);
        int c0 = full_blocks * CB;
        // 16-channel blocks before the scalar tail keep small channel counts (24, 40, 48...)
        // on the vector path.
        for (; c0 + 16 <= channels; c0 += 16) depthwise_block<TAPS, 16>(taps, rows, w, bias, channels, c0, out, op.act);
        if (c0 < channels) depthwise_tail(taps, rows, w, bias, channels, c0, out, op.act);
    }
}

} // namespace

void pack_depthwise(Conv2D& op, const float* weights, const float* bias) {
    const int channels = op.shape.out_c;
    const int taps = op.shape.kernel_h * op.shape.kernel_w;
#if EMBARK_DEPTHWISE_VEC
    // [block][bias, tap 0, ..., tap taps-1][kDepthwiseVecBlock], the last block zero-padded.
    const size_t block_floats = depthwise_vec_block_floats(taps);
    const int blocks = (channels + kDepthwiseVecBlock - 1) / kDepthwiseVecBlock;
    op.bias_offset = 0;
    op.packed = AlignedBuffer(static_cast<size_t>(blocks) * block_floats);
    for (int c = 0; c < channels; ++c) {
        float* block = op.packed.data() + static_cast<size_t>(c / kDepthwiseVecBlock) * block_floats;
        const int lane = c % kDepthwiseVecBlock;
        block[lane] = bias ? bias[c] : 0.f;
        for (int t = 0; t < taps; ++t)
            block[(t + 1) * kDepthwiseVecBlock + lane] = weights[static_cast<size_t>(c) * taps + t];
    }
    return;
#endif
    op.bias_offset = static_cast<size_t>(taps) * channels;
    op.packed = AlignedBuffer(op.bias_offset + channels);
    float* out = op.packed.data();
    // ONNX [C][1][kh][kw] -> [tap][C], so a tap reads contiguous channels like the input row.
    for (int c = 0; c < channels; ++c) {
        for (int t = 0; t < taps; ++t)
            out[static_cast<size_t>(t) * channels + c] = weights[static_cast<size_t>(c) * taps + t];
        out[op.bias_offset + c] = bias ? bias[c] : 0.f;
    }
}

const float* const* depthwise_indirection(const Conv2D& op, const float* input) {
    if (op.indirection_input != input || op.indirection.empty()) {
        build_depthwise_indirection(op, input);
        op.indirection_input = input;
    }
    return op.indirection.data();
}

void run_depthwise(const Conv2D& op, const float* input, float* output, ThreadPool* pool) {
    const Conv2DShape& s = op.shape;
    if (op.path == ConvPath::DepthwiseMultiplier) {
        // Output channel c * m + j reads input channel c: the input with each channel repeated m
        // times is a depthwise layer's input of out_c channels.
        const int m = s.out_c / s.in_c;
        const int64_t in_pixels = static_cast<int64_t>(s.batch) * s.in_h * s.in_w;
        const size_t wide = static_cast<size_t>(in_pixels) * s.out_c;
        if (op.padded.size() < wide) op.padded = AlignedBuffer(wide);
        float* expanded = op.padded.data();
        parallel_for(
            pool, in_pixels,
            [&](int64_t begin, int64_t end) {
                for (int64_t p = begin; p < end; ++p) {
                    const float* __restrict x = input + p * s.in_c;
                    float* __restrict e = expanded + p * s.out_c;
                    for (int c = 0; c < s.in_c; ++c)
                        for (int j = 0; j < m; ++j) e[c * m + j] = x[c];
                }
            },
            kFineParts);
        input = expanded;
    }
    depthwise_indirection(op, input);
    const int64_t pixels = static_cast<int64_t>(op.shape.batch) * op.out_h * op.out_w;
    const bool prefetch = pool && pool->threads() > 1;
    parallel_for(
        pool, pixels,
        [&](int64_t begin, int64_t end) {
            depthwise_run_pixels(op, op.indirection.data(), begin, end, output, prefetch);
        },
        kFineParts);
}

void depthwise_run_pixels(const Conv2D& op, const float* const* indirection, int64_t begin, int64_t end, float* output,
                          bool prefetch) {
    const int taps = op.shape.kernel_h * op.shape.kernel_w;
    if (taps == 9)
        depthwise_pixels<9>(op, indirection, begin, end, output, prefetch);
    else if (taps == 25)
        depthwise_pixels<25>(op, indirection, begin, end, output, prefetch);
    else
        depthwise_pixels<0>(op, indirection, begin, end, output, prefetch);
}

} // namespace embark::portable::detail

// Depthwise convolution (one filter per channel, multiplier 1) in NHWC: per output pixel,
// blocks of channels accumulate over the taps, which are compile-time for 3x3 and 5x5.
#include "gemm_ukernel.h"
#include "portable.h"

#include <algorithm>

namespace embark::portable::detail {

namespace {

constexpr int CB = kDepthwiseChannelBlock;

// Indirection [pixel][tap] -> input pixel row (or the zero row for padding).
void build_depthwise_indirection(const Conv2D& op, const float* input) {
    const Conv2DShape& s = op.shape;
    const int taps = s.kernel_h * s.kernel_w;
    const int64_t pixels = static_cast<int64_t>(s.batch) * op.out_h * op.out_w;
    op.indirection.assign(static_cast<size_t>(pixels * taps), op.zero.data());
    for (int64_t p = 0; p < pixels; ++p) {
        const int64_t n = p / (op.out_h * op.out_w);
        const int oy = static_cast<int>(p / op.out_w % op.out_h), ox = static_cast<int>(p % op.out_w);
        for (int t = 0; t < taps; ++t) {
            const int iy = oy * s.stride_h - s.pad_top + (t / s.kernel_w) * s.dilation_h;
            const int ix = ox * s.stride_w - s.pad_left + (t % s.kernel_w) * s.dilation_w;
            if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue;
            op.indirection[static_cast<size_t>(p * taps + t)] =
                input + ((n * s.in_h + iy) * s.in_w + ix) * s.in_c;
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
    // 16-wide clamp into 32 scalar min/max (the 112x112x32 layer ran at 2/3 of XNNPACK's speed).
    activate_row<WIDTH>(act, out + c0);
}

// Channel remainder (< CB channels): the same sums with a run-time width.
inline void depthwise_tail(int taps, const float* const* rows, const float* w, const float* bias,
                           int channels, int c0, float* out, const Activation& act) {
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

#if defined(__clang__) && defined(__riscv_vector)
// RVV (Clang): each pixel runs over all its channels in passes of kDepthwiseTapsPerPass taps,
// the taps unrolled inside a length-agnostic vector loop of LMUL 4 (vectorize_width(8,
// scalable): 16 floats per instruction at VLEN 128, 32 at 256); the first pass starts from the
// bias, the others from the stored partial sums, the last applies the activation. One pass of
// all 9 taps (or LMUL 8) makes Clang 19 load every tap's vectors ahead of the FMAs and spill
// them (vs8r/vl8r); three taps per pass do not. Channels past the last multiple of 32 run in a
// predicated loop (one masked iteration) instead of a scalar epilogue. The 64-channel block
// form below ran 4-9x XNNPACK's instructions on RVV: its LMUL-8 accumulators spilled around
// every tap, and remainders of 16 channels ran at a fixed width. The main loop covers the
// channels up to a multiple of its vector length at the board's VLEN (EMBARK_VLEN_BITS), the
// rest (16 of 144 channels at VLEN 256) runs in an LMUL-1 loop rather than a scalar epilogue
// (a predicated loop costs ~80 instructions of mask set-up per pass).
constexpr int kDepthwiseTapsPerPass = 3;
#  define EMBARK_DEPTHWISE_LOOP _Pragma("clang loop vectorize(assume_safety) vectorize_width(8, scalable) interleave_count(1) unroll(disable)")
#  define EMBARK_DEPTHWISE_TAIL_LOOP                                                                    \
      _Pragma("clang loop vectorize(assume_safety) vectorize_width(2, scalable) interleave_count(1) unroll(disable)")
constexpr int kDepthwiseVectorFloats = 4 * EMBARK_VLEN_BITS / 32; // LMUL 4

template <int G, bool kFirst, bool kLast, Act kAct>
[[gnu::always_inline]] inline float depthwise_sum(const float* const* x, const float* const* wt,
                                                  const float* __restrict start, int c, float lo, float hi) {
    float acc = start[c];
#  pragma clang loop unroll(full)
    for (int t = 0; t < G; ++t) acc += x[t][c] * wt[t][c];
    if constexpr (kLast && kAct == Act::Relu) acc = acc > 0.f ? acc : 0.f;
    if constexpr (kLast && kAct == Act::Clamp) {
        acc = acc < lo ? lo : acc;
        acc = acc > hi ? hi : acc;
    }
    return acc;
}

// Taps [T0, T0 + G) added to out (to the bias when T0 == 0); the last pass applies kAct.
template <int T0, int G, bool kLast, Act kAct>
[[gnu::always_inline]] inline void depthwise_pass(const float* const* rows, const float* __restrict w,
                                                  const float* __restrict bias, int channels, float* __restrict out,
                                                  float lo, float hi) {
    const float* x[G];
    const float* wt[G];
    for (int t = 0; t < G; ++t) {
        x[t] = rows[T0 + t];
        wt[t] = w + static_cast<size_t>(T0 + t) * channels;
    }
    const float* __restrict start = T0 == 0 ? bias : out;
    const int main_channels = channels - channels % kDepthwiseVectorFloats;
    EMBARK_DEPTHWISE_LOOP
    for (int c = 0; c < main_channels; ++c) out[c] = depthwise_sum<G, T0 == 0, kLast, kAct>(x, wt, start, c, lo, hi);
    if (main_channels == channels) return;
    EMBARK_DEPTHWISE_TAIL_LOOP
    for (int c = main_channels; c < channels; ++c) out[c] = depthwise_sum<G, T0 == 0, kLast, kAct>(x, wt, start, c, lo, hi);
}

template <int TAPS, Act kAct, int T0 = 0>
[[gnu::always_inline]] inline void depthwise_pixel_row(const float* const* rows, const float* __restrict w,
                                                       const float* __restrict bias, int channels, float* __restrict out,
                                                       float lo, float hi) {
    constexpr int G = TAPS - T0 < kDepthwiseTapsPerPass ? TAPS - T0 : kDepthwiseTapsPerPass;
    depthwise_pass<T0, G, T0 + G == TAPS, kAct>(rows, w, bias, channels, out, lo, hi);
    if constexpr (T0 + G < TAPS) depthwise_pixel_row<TAPS, kAct, T0 + G>(rows, w, bias, channels, out, lo, hi);
}

template <int TAPS>
inline void depthwise_pixel_rvv(const float* const* rows, const float* w, const float* bias, int channels,
                                float* out, const Activation& act) {
    switch (act.kind) {
    case Act::Relu: depthwise_pixel_row<TAPS, Act::Relu>(rows, w, bias, channels, out, 0.f, 0.f); return;
    case Act::Clamp: depthwise_pixel_row<TAPS, Act::Clamp>(rows, w, bias, channels, out, act.min, act.max); return;
    default:
        depthwise_pixel_row<TAPS, Act::None>(rows, w, bias, channels, out, 0.f, 0.f);
        if (act.kind != Act::None) apply_activation(act, out, static_cast<size_t>(channels));
        return;
    }
}
#  define EMBARK_DEPTHWISE_RVV 1
#else
#  define EMBARK_DEPTHWISE_RVV 0
#endif

// Output pixels written ahead of the stores when several threads share the layer (see
// prefetch_for_write): MobileNet-V2's 56x56x144 depthwise layers 5-8% faster at 2 threads.
constexpr int64_t kPrefetchedPixelsAhead = 8;

template <int TAPS>
void depthwise_pixels(const Conv2D& op, const float* const* indirection, int64_t begin, int64_t end, float* output,
                      bool prefetch) {
    const int channels = op.shape.in_c;
    const int taps = op.shape.kernel_h * op.shape.kernel_w;
    const float* w = op.packed.data();
    const float* bias = w + op.bias_offset;
    const int full_blocks = channels / CB;
    for (int64_t p = begin; p < end; ++p) {
        const float* const* rows = indirection + p * taps;
        float* out = output + p * channels;
        if (prefetch && p + kPrefetchedPixelsAhead < end)
            prefetch_for_write(out + kPrefetchedPixelsAhead * channels, static_cast<size_t>(channels) * sizeof(float));
#if EMBARK_DEPTHWISE_RVV
        if constexpr (TAPS > 0) {
            depthwise_pixel_rvv<TAPS>(rows, w, bias, channels, out, op.act);
            continue;
        }
#endif
        for (int b = 0; b < full_blocks; ++b)
            depthwise_block<TAPS, CB>(taps, rows, w, bias, channels, b * CB, out, op.act);
        int c0 = full_blocks * CB;
        // 16-channel blocks before the scalar tail keep small channel counts (24, 40, 48...)
        // on the vector path.
        for (; c0 + 16 <= channels; c0 += 16)
            depthwise_block<TAPS, 16>(taps, rows, w, bias, channels, c0, out, op.act);
        if (c0 < channels) depthwise_tail(taps, rows, w, bias, channels, c0, out, op.act);
    }
}

} // namespace

void pack_depthwise(Conv2D& op, const float* weights, const float* bias) {
    const int channels = op.shape.in_c;
    const int taps = op.shape.kernel_h * op.shape.kernel_w;
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
    depthwise_indirection(op, input);
    const int64_t pixels = static_cast<int64_t>(op.shape.batch) * op.out_h * op.out_w;
    const bool prefetch = pool && pool->threads() > 1;
    parallel_for(pool, pixels, [&](int64_t begin, int64_t end) {
        depthwise_run_pixels(op, op.indirection.data(), begin, end, output, prefetch);
    }, kFineParts);
}

void depthwise_run_pixels(const Conv2D& op, const float* const* indirection, int64_t begin, int64_t end,
                          float* output, bool prefetch) {
    const int taps = op.shape.kernel_h * op.shape.kernel_w;
    if (taps == 9) depthwise_pixels<9>(op, indirection, begin, end, output, prefetch);
    else if (taps == 25) depthwise_pixels<25>(op, indirection, begin, end, output, prefetch);
    else depthwise_pixels<0>(op, indirection, begin, end, output, prefetch);
}

} // namespace embark::portable::detail

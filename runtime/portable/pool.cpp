// Max/average pooling and global pooling in NHWC: per output pixel, the window's taps are
// visited in turn with the channel loop innermost (contiguous, vectorized). With RVV (Clang's
// intrinsics), on aarch64 (gemm_vec.h) and on x86-64 (GCC vector extensions) the window is
// reduced in registers and stored once per channel block, instead of a load and store of the
// output row per tap.
#include "gemm_vec.h"
#include "portable.h"

#include <algorithm>
#include <vector>

#if defined(__clang__) && defined(__riscv_vector) && defined(__riscv_v_intrinsic) && __riscv_v_intrinsic >= 12000
#  define EMBARK_POOL_RVV 1
#  include <riscv_vector.h>
#else
#  define EMBARK_POOL_RVV 0
#endif

namespace embark::portable {

namespace {

// First and one-past-last tap index k (0..kernel) whose input coordinate o*stride - pad +
// k*dilation lies in [lo, hi).
void tap_range(int o, int stride, int pad, int dilation, int kernel, int lo, int hi, int& first, int& last) {
    const int start = o * stride - pad;
    first = 0;
    while (first < kernel && start + first * dilation < lo) ++first;
    last = kernel;
    while (last > first && start + (last - 1) * dilation >= hi) --last;
}

// The offsets of a window's taps from its first one in an NHWC image, row by row: kernel_h *
// kernel_w of them when that is at most `max_taps`, else none.
[[maybe_unused]] void window_offsets(const Pool2DShape& s, int64_t* offsets, int max_taps) {
    if (s.kernel_h * s.kernel_w > max_taps) return;
    for (int ky = 0; ky < s.kernel_h; ++ky)
        for (int kx = 0; kx < s.kernel_w; ++kx)
            offsets[ky * s.kernel_w + kx] =
                (static_cast<int64_t>(ky) * s.dilation_h * s.in_w + static_cast<int64_t>(kx) * s.dilation_w) *
                s.channels;
}

template <typename PixelFn>
void for_each_output_row(const Pool2DShape& s, ThreadPool* pool, PixelFn pixel) {
    const int64_t rows = static_cast<int64_t>(s.batch) * s.out_h;
    parallel_for(
        pool, rows,
        [&](int64_t begin, int64_t end) {
            for (int64_t r = begin; r < end; ++r) {
                const int n = static_cast<int>(r / s.out_h), oy = static_cast<int>(r % s.out_h);
                for (int ox = 0; ox < s.out_w; ++ox) pixel(n, oy, ox);
            }
        },
        kFineParts);
}

#if EMBARK_VECTOR_TILE
using namespace detail;

// aarch64 (gemm_vec.h): the maximum over `count` (>= 1) taps of 16 channels at a time in
// registers, stored once, instead of a compare and select per tap through the stored row (which
// GCC left scalar). vec_max is
// fmaxnm, which skips NaN inputs as `in > out ? in : out` did; it starts from the first tap, not
// -inf (finite math is assumed here), so only a window of NaN alone differs (NaN, was -inf).
constexpr int kPoolTaps = 64;

EMBARK_VECTOR_MATH_ATTRS void max_taps_vec(float* __restrict out, const float* const* taps, int count, int channels) {
    int c = 0;
    for (; c + 16 <= channels; c += 16) {
        vec4f acc[4];
#  pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) acc[j] = vec_load(taps[0] + c + j * kVecLanes);
        for (int t = 1; t < count; ++t)
#  pragma GCC unroll 4
            for (int j = 0; j < 4; ++j) acc[j] = vec_max(vec_load(taps[t] + c + j * kVecLanes), acc[j]);
#  pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) vec_store(out + c + j * kVecLanes, acc[j]);
    }
    for (; c + kVecLanes <= channels; c += kVecLanes) {
        vec4f acc = vec_load(taps[0] + c);
        for (int t = 1; t < count; ++t) acc = vec_max(vec_load(taps[t] + c), acc);
        vec_store(out + c, acc);
    }
    for (; c < channels; ++c) {
        float acc = taps[0][c];
        for (int t = 1; t < count; ++t) acc = taps[t][c] > acc ? taps[t][c] : acc;
        out[c] = acc;
    }
}

// Sums over `pixels` pixels, 16 channels at a time in registers (the same additions in the same
// order as through the stored row).
void sum_pixels_vec(float* __restrict out, const float* in, int pixels, int channels) {
    int c = 0;
    for (; c + 16 <= channels; c += 16) {
        vec4f acc[4] = {vec_splat(0.f), vec_splat(0.f), vec_splat(0.f), vec_splat(0.f)};
        for (int p = 0; p < pixels; ++p)
#  pragma GCC unroll 4
            for (int j = 0; j < 4; ++j) acc[j] += vec_load(in + static_cast<size_t>(p) * channels + c + j * kVecLanes);
#  pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) vec_store(out + c + j * kVecLanes, acc[j]);
    }
    for (; c < channels; ++c) {
        float acc = 0.f;
        for (int p = 0; p < pixels; ++p) acc += in[static_cast<size_t>(p) * channels + c];
        out[c] = acc;
    }
}
#endif

#if EMBARK_POOL_RVV
// The window's taps (at most kRvvPoolTaps of them) of one output pixel, each a pointer to its
// input pixel's channels.
constexpr int kRvvPoolTaps = 64;

// The maximum over `count` (>= 1) taps, LMUL 8 channel blocks held in registers. vfmax returns
// the other operand where one is NaN, as `in > out ? in : out` keeps the earlier value.
void max_taps_rvv(float* __restrict out, const float* const* taps, int count, int channels) {
    for (size_t c = 0, n = static_cast<size_t>(channels); c < n;) {
        const size_t vl = __riscv_vsetvl_e32m8(n - c);
        vfloat32m8_t acc = __riscv_vle32_v_f32m8(taps[0] + c, vl);
        for (int t = 1; t < count; ++t) acc = __riscv_vfmax_vv_f32m8(acc, __riscv_vle32_v_f32m8(taps[t] + c, vl), vl);
        __riscv_vse32_v_f32m8(out + c, acc, vl);
        c += vl;
    }
}

// The maximum over the `count` (>= 1) taps first + offsets[t] (offsets[0] is 0).
void max_window_rvv(float* __restrict out, const float* first, const int64_t* offsets, int count, int channels) {
    for (size_t c = 0, n = static_cast<size_t>(channels); c < n;) {
        const size_t vl = __riscv_vsetvl_e32m8(n - c);
        const float* p = first + c;
        vfloat32m8_t acc = __riscv_vle32_v_f32m8(p, vl);
        for (int t = 1; t < count; ++t)
            acc = __riscv_vfmax_vv_f32m8(acc, __riscv_vle32_v_f32m8(p + offsets[t], vl), vl);
        __riscv_vse32_v_f32m8(out + c, acc, vl);
        c += vl;
    }
}

// scale * the sum over `count` (>= 0) taps, added in tap order from 0 as the scalar loop does.
void sum_taps_rvv(float* __restrict out, const float* const* taps, int count, float scale, int channels) {
    for (size_t c = 0, n = static_cast<size_t>(channels); c < n;) {
        const size_t vl = __riscv_vsetvl_e32m8(n - c);
        vfloat32m8_t acc = __riscv_vfmv_v_f_f32m8(0.f, vl);
        for (int t = 0; t < count; ++t) acc = __riscv_vfadd_vv_f32m8(acc, __riscv_vle32_v_f32m8(taps[t] + c, vl), vl);
        __riscv_vse32_v_f32m8(out + c, __riscv_vfmul_vf_f32m8(acc, scale, vl), vl);
        c += vl;
    }
}

// The taps of output pixel (n, oy, ox) inside the input, into `taps`; their number.
int gather_taps(const Pool2DShape& s, const float* input, int n, int oy, int ox, int ky0, int ky1, int kx0, int kx1,
                const float** taps) {
    int count = 0;
    for (int ky = ky0; ky < ky1; ++ky) {
        const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
        const float* row = input + (static_cast<int64_t>(n) * s.in_h + iy) * s.in_w * s.channels;
        for (int kx = kx0; kx < kx1; ++kx)
            taps[count++] = row + static_cast<int64_t>(ox * s.stride_w - s.pad_left + kx * s.dilation_w) * s.channels;
    }
    return count;
}
#endif

#if defined(__x86_64__) && !EMBARK_POOL_RVV && !EMBARK_VECTOR_TILE
#  define EMBARK_POOL_X86 1
// 16 channels in one vector: one zmm with AVX-512, two ymm with AVX2 (the export's -march).
using PoolVec = float __attribute__((vector_size(16 * sizeof(float)), aligned(4)));
constexpr int kPoolLanes = 16;
constexpr int kX86PoolTaps = 64;

// By reference, not by value: without -mavx512f a 64-byte vector changes the call ABI (-Wpsabi).
[[gnu::always_inline]] inline void pool_load(PoolVec& v, const float* p) { __builtin_memcpy(&v, p, sizeof v); }
[[gnu::always_inline]] inline void pool_store(float* p, const PoolVec& v) { __builtin_memcpy(p, &v, sizeof v); }

// Over the `count` (>= 0) taps first + offsets[t]: the maximum (`in > acc ? in : acc` from -inf,
// NaN skipped, as the scalar loop) or scale * the sum (added in tap order from 0, as the scalar
// loop: bit-identical), 64 channels at a time in registers.
template <bool Max>
void reduce_taps_x86(float* __restrict out, const float* first, const int64_t* offsets, int count, float scale,
                     int channels) {
    constexpr float kStart = Max ? -INFINITY : 0.f;
    int c = 0;
    for (; c + 4 * kPoolLanes <= channels; c += 4 * kPoolLanes) {
        PoolVec acc[4];
        for (int j = 0; j < 4; ++j) acc[j] = PoolVec{} + kStart;
        for (int t = 0; t < count; ++t) {
            const float* p = first + offsets[t] + c;
#  pragma GCC unroll 4
            for (int j = 0; j < 4; ++j) {
                PoolVec v;
                pool_load(v, p + j * kPoolLanes);
                acc[j] = Max ? (v > acc[j] ? v : acc[j]) : acc[j] + v;
            }
        }
#  pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) {
            if (!Max) acc[j] *= scale;
            pool_store(out + c + j * kPoolLanes, acc[j]);
        }
    }
    for (; c + kPoolLanes <= channels; c += kPoolLanes) {
        PoolVec acc = PoolVec{} + kStart;
        for (int t = 0; t < count; ++t) {
            PoolVec v;
            pool_load(v, first + offsets[t] + c);
            acc = Max ? (v > acc ? v : acc) : acc + v;
        }
        if (!Max) acc *= scale;
        pool_store(out + c, acc);
    }
    for (; c < channels; ++c) {
        float acc = kStart;
        for (int t = 0; t < count; ++t) {
            const float v = first[offsets[t] + c];
            acc = Max ? (v > acc ? v : acc) : acc + v;
        }
        out[c] = Max ? acc : acc * scale;
    }
}

// The pool of output pixel (n, oy, ox) through reduce_taps_x86: a window wholly inside the input
// (most of them) reads its taps at the fixed offsets `inner` from its first one; one that
// crosses the padding lists its taps inside the input. false: more than kX86PoolTaps taps.
template <bool Max>
bool pool_pixel_x86(const Pool2DShape& s, const float* input, const int64_t* inner, float* out, int n, int oy, int ox,
                    float scale) {
    const int window = s.kernel_h * s.kernel_w;
    if (window > kX86PoolTaps) return false;
    const int iy0 = oy * s.stride_h - s.pad_top, ix0 = ox * s.stride_w - s.pad_left;
    const float* image = input + static_cast<int64_t>(n) * s.in_h * s.in_w * s.channels;
    if (iy0 >= 0 && ix0 >= 0 && iy0 + (s.kernel_h - 1) * s.dilation_h < s.in_h &&
        ix0 + (s.kernel_w - 1) * s.dilation_w < s.in_w) {
        reduce_taps_x86<Max>(out, image + (static_cast<int64_t>(iy0) * s.in_w + ix0) * s.channels, inner, window, scale,
                             s.channels);
        return true;
    }
    int ky0, ky1, kx0, kx1;
    tap_range(oy, s.stride_h, s.pad_top, s.dilation_h, s.kernel_h, 0, s.in_h, ky0, ky1);
    tap_range(ox, s.stride_w, s.pad_left, s.dilation_w, s.kernel_w, 0, s.in_w, kx0, kx1);
    int64_t offsets[kX86PoolTaps];
    int count = 0;
    for (int ky = ky0; ky < ky1; ++ky)
        for (int kx = kx0; kx < kx1; ++kx)
            offsets[count++] =
                (static_cast<int64_t>(iy0 + ky * s.dilation_h) * s.in_w + ix0 + kx * s.dilation_w) * s.channels;
    reduce_taps_x86<Max>(out, image, offsets, count, scale, s.channels);
    return true;
}

#else
#  define EMBARK_POOL_X86 0
#endif

#if !EMBARK_POOL_RVV
// Fewer channels than this take the row path below: a window's channel loop is too short to
// pay for the per-pixel tap ranges and tap loops.
constexpr int kRowPoolChannels = 16;

// The max pool of fewer than kRowPoolChannels channels, output row by output row: first the
// maximum over the window's input rows into one row of (pixel, channel) values (a contiguous
// loop the compiler vectorizes), then per output pixel over the window's columns of it. The taps
// are the scalar path's (`in > acc ? in : acc` from -inf: NaN skipped), taken rows first.
void max_pool2d_rows(const Pool2DShape& s, const float* input, float* output, ThreadPool* pool) {
    const int channels = s.channels;
    const int64_t row_len = static_cast<int64_t>(s.in_w) * channels;
    const int64_t rows = static_cast<int64_t>(s.batch) * s.out_h;
    parallel_for(
        pool, rows,
        [&](int64_t begin, int64_t end) {
            thread_local std::vector<float> scratch;
            if (static_cast<int64_t>(scratch.size()) < row_len) scratch.resize(static_cast<size_t>(row_len));
            float* __restrict column_max = scratch.data();
            for (int64_t r = begin; r < end; ++r) {
                const int n = static_cast<int>(r / s.out_h), oy = static_cast<int>(r % s.out_h);
                int ky0, ky1;
                tap_range(oy, s.stride_h, s.pad_top, s.dilation_h, s.kernel_h, 0, s.in_h, ky0, ky1);
                float* out_row = output + (static_cast<int64_t>(n) * s.out_h + oy) * s.out_w * s.out_pixel_stride();
                const float* image = input + static_cast<int64_t>(n) * s.in_h * row_len;
                for (int64_t i = 0; i < row_len; ++i) column_max[i] = -INFINITY;
                for (int ky = ky0; ky < ky1; ++ky) {
                    const float* __restrict in = image + (oy * s.stride_h - s.pad_top + ky * s.dilation_h) * row_len;
                    for (int64_t i = 0; i < row_len; ++i) column_max[i] = in[i] > column_max[i] ? in[i] : column_max[i];
                }
                for (int ox = 0; ox < s.out_w; ++ox) {
                    int kx0, kx1;
                    tap_range(ox, s.stride_w, s.pad_left, s.dilation_w, s.kernel_w, 0, s.in_w, kx0, kx1);
                    float* __restrict out = out_row + static_cast<int64_t>(ox) * s.out_pixel_stride();
                    // May be negative (padding): the taps from kx0 on are inside the row.
                    const int64_t first = static_cast<int64_t>(ox * s.stride_w - s.pad_left) * channels;
                    for (int c = 0; c < channels; ++c) {
                        float acc = -INFINITY;
                        for (int kx = kx0; kx < kx1; ++kx) {
                            const float v = column_max[first + static_cast<int64_t>(kx) * s.dilation_w * channels + c];
                            acc = v > acc ? v : acc;
                        }
                        out[c] = acc;
                    }
                }
            }
        },
        kFineParts);
}
#endif

} // namespace

void max_pool2d(const Pool2DShape& s, const float* input, float* output, ThreadPool* pool) {
    const int channels = s.channels;
#if !EMBARK_POOL_RVV
    if (channels < kRowPoolChannels) {
        max_pool2d_rows(s, input, output, pool);
        return;
    }
#else
    // A window wholly inside the input (most of them) reads its taps at fixed offsets from its
    // first one: no tap range nor tap list per output pixel.
    const int window = s.kernel_h * s.kernel_w;
    int64_t offsets[kRvvPoolTaps];
    window_offsets(s, offsets, kRvvPoolTaps);
    const int last_y = (s.kernel_h - 1) * s.dilation_h, last_x = (s.kernel_w - 1) * s.dilation_w;
#endif
#if EMBARK_POOL_X86
    int64_t inner[kX86PoolTaps];
    window_offsets(s, inner, kX86PoolTaps);
#endif
    for_each_output_row(s, pool, [&](int n, int oy, int ox) {
        float* __restrict out =
            output + ((static_cast<int64_t>(n) * s.out_h + oy) * s.out_w + ox) * s.out_pixel_stride();
#if EMBARK_POOL_X86
        if (pool_pixel_x86<true>(s, input, inner, out, n, oy, ox, 1.f)) return;
#endif
#if EMBARK_POOL_RVV
        const int iy0 = oy * s.stride_h - s.pad_top, ix0 = ox * s.stride_w - s.pad_left;
        if (window <= kRvvPoolTaps && iy0 >= 0 && ix0 >= 0 && iy0 + last_y < s.in_h && ix0 + last_x < s.in_w) {
            max_window_rvv(out, input + ((static_cast<int64_t>(n) * s.in_h + iy0) * s.in_w + ix0) * channels, offsets,
                           window, channels);
            return;
        }
#endif
        int ky0, ky1, kx0, kx1;
        tap_range(oy, s.stride_h, s.pad_top, s.dilation_h, s.kernel_h, 0, s.in_h, ky0, ky1);
        tap_range(ox, s.stride_w, s.pad_left, s.dilation_w, s.kernel_w, 0, s.in_w, kx0, kx1);
#if EMBARK_POOL_RVV
        if ((ky1 - ky0) * (kx1 - kx0) >= 1 && (ky1 - ky0) * (kx1 - kx0) <= kRvvPoolTaps) {
            const float* taps[kRvvPoolTaps];
            max_taps_rvv(out, taps, gather_taps(s, input, n, oy, ox, ky0, ky1, kx0, kx1, taps), channels);
            return;
        }
#endif
#if EMBARK_VECTOR_TILE
        if ((ky1 - ky0) * (kx1 - kx0) >= 1 && (ky1 - ky0) * (kx1 - kx0) <= kPoolTaps) {
            const float* taps[kPoolTaps];
            int count = 0;
            for (int ky = ky0; ky < ky1; ++ky) {
                const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
                for (int kx = kx0; kx < kx1; ++kx) {
                    const int ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
                    taps[count++] = input + ((static_cast<int64_t>(n) * s.in_h + iy) * s.in_w + ix) * channels;
                }
            }
            max_taps_vec(out, taps, count, channels);
            return;
        }
#endif
        for (int c = 0; c < channels; ++c) out[c] = -INFINITY;
        for (int ky = ky0; ky < ky1; ++ky) {
            const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
            for (int kx = kx0; kx < kx1; ++kx) {
                const int ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
                const float* __restrict in = input + ((static_cast<int64_t>(n) * s.in_h + iy) * s.in_w + ix) * channels;
                for (int c = 0; c < channels; ++c) out[c] = in[c] > out[c] ? in[c] : out[c];
            }
        }
    });
}

void average_pool2d(const Pool2DShape& s, bool count_include_pad, const float* input, float* output, ThreadPool* pool) {
    const int channels = s.channels;
#if EMBARK_POOL_X86
    int64_t inner[kX86PoolTaps];
    window_offsets(s, inner, kX86PoolTaps);
#endif
    for_each_output_row(s, pool, [&](int n, int oy, int ox) {
        float* __restrict out =
            output + ((static_cast<int64_t>(n) * s.out_h + oy) * s.out_w + ox) * s.out_pixel_stride();
        int ky0, ky1, kx0, kx1;
        tap_range(oy, s.stride_h, s.pad_top, s.dilation_h, s.kernel_h, 0, s.in_h, ky0, ky1);
        tap_range(ox, s.stride_w, s.pad_left, s.dilation_w, s.kernel_w, 0, s.in_w, kx0, kx1);
        int count = (ky1 - ky0) * (kx1 - kx0);
        if (count_include_pad) {
            // Taps inside the padded input count, those past it (added by ceil_mode) do not.
            int py0, py1, px0, px1;
            tap_range(oy, s.stride_h, s.pad_top, s.dilation_h, s.kernel_h, -s.pad_top, s.in_h + s.pad_bottom, py0, py1);
            tap_range(ox, s.stride_w, s.pad_left, s.dilation_w, s.kernel_w, -s.pad_left, s.in_w + s.pad_right, px0,
                      px1);
            count = (py1 - py0) * (px1 - px0);
        }
#if EMBARK_POOL_X86
        if (channels >= kPoolLanes &&
            pool_pixel_x86<false>(s, input, inner, out, n, oy, ox, count > 0 ? 1.f / static_cast<float>(count) : 0.f))
            return;
#endif
#if EMBARK_POOL_RVV
        if ((ky1 - ky0) * (kx1 - kx0) <= kRvvPoolTaps) {
            const float* taps[kRvvPoolTaps];
            const int taken = gather_taps(s, input, n, oy, ox, ky0, ky1, kx0, kx1, taps);
            sum_taps_rvv(out, taps, taken, count > 0 ? 1.f / static_cast<float>(count) : 0.f, channels);
            return;
        }
#endif
        for (int c = 0; c < channels; ++c) out[c] = 0.f;
        for (int ky = ky0; ky < ky1; ++ky) {
            const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
            for (int kx = kx0; kx < kx1; ++kx) {
                const int ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
                const float* __restrict in = input + ((static_cast<int64_t>(n) * s.in_h + iy) * s.in_w + ix) * channels;
                for (int c = 0; c < channels; ++c) out[c] += in[c];
            }
        }
        const float scale = count > 0 ? 1.f / static_cast<float>(count) : 0.f;
        for (int c = 0; c < channels; ++c) out[c] *= scale;
    });
}

void pool2d_channels_first(const Pool2DShape& s, bool is_max, bool count_include_pad, const float* input, float* output,
                           float* scratch, ThreadPool* pool) {
    const int64_t in_pixels = static_cast<int64_t>(s.in_h) * s.in_w;
    const int64_t out_pixels = static_cast<int64_t>(s.out_h) * s.out_w;
    float* nhwc_out = scratch + s.batch * in_pixels * s.channels;
    transpose_matrices(input, s.batch, s.channels, in_pixels, scratch, pool);
    if (is_max)
        max_pool2d(s, scratch, nhwc_out, pool);
    else
        average_pool2d(s, count_include_pad, scratch, nhwc_out, pool);
    transpose_matrices(nhwc_out, s.batch, out_pixels, s.channels, output, pool);
}

void global_average_pool(int batch, int pixels, int channels, const float* input, float* output) {
    for (int n = 0; n < batch; ++n) {
        float* __restrict out = output + static_cast<int64_t>(n) * channels;
#if EMBARK_POOL_RVV
        const float* in = input + static_cast<int64_t>(n) * pixels * channels;
        for (size_t c = 0, m = static_cast<size_t>(channels); c < m;) {
            const size_t vl = __riscv_vsetvl_e32m8(m - c);
            vfloat32m8_t acc = __riscv_vfmv_v_f_f32m8(0.f, vl);
            for (int p = 0; p < pixels; ++p)
                acc = __riscv_vfadd_vv_f32m8(acc, __riscv_vle32_v_f32m8(in + static_cast<size_t>(p) * m + c, vl), vl);
            __riscv_vse32_v_f32m8(out + c, __riscv_vfmul_vf_f32m8(acc, 1.f / static_cast<float>(pixels), vl), vl);
            c += vl;
        }
        continue;
#elif EMBARK_VECTOR_TILE
        sum_pixels_vec(out, input + static_cast<int64_t>(n) * pixels * channels, pixels, channels);
#else
        for (int c = 0; c < channels; ++c) out[c] = 0.f;
        for (int p = 0; p < pixels; ++p) {
            const float* __restrict in = input + (static_cast<int64_t>(n) * pixels + p) * channels;
            for (int c = 0; c < channels; ++c) out[c] += in[c];
        }
#endif
        const float scale = 1.f / static_cast<float>(pixels);
        for (int c = 0; c < channels; ++c) out[c] *= scale;
    }
}

void global_max_pool(int batch, int pixels, int channels, const float* input, float* output) {
    for (int n = 0; n < batch; ++n) {
        float* __restrict out = output + static_cast<int64_t>(n) * channels;
#if EMBARK_POOL_RVV
        // in > top ? in : top, lane by lane (a NaN input is skipped, as below).
        const float* in = input + static_cast<int64_t>(n) * pixels * channels;
        for (size_t c = 0, m = static_cast<size_t>(channels); c < m;) {
            const size_t vl = __riscv_vsetvl_e32m8(m - c);
            vfloat32m8_t top = __riscv_vfmv_v_f_f32m8(-INFINITY, vl);
            for (int p = 0; p < pixels; ++p) {
                const vfloat32m8_t v = __riscv_vle32_v_f32m8(in + static_cast<size_t>(p) * m + c, vl);
                top = __riscv_vmerge_vvm_f32m8(top, v, __riscv_vmfgt_vv_f32m8_b4(v, top, vl), vl);
            }
            __riscv_vse32_v_f32m8(out + c, top, vl);
            c += vl;
        }
        continue;
#endif
        for (int c = 0; c < channels; ++c) out[c] = -INFINITY;
        for (int p = 0; p < pixels; ++p) {
            const float* __restrict in = input + (static_cast<int64_t>(n) * pixels + p) * channels;
            for (int c = 0; c < channels; ++c) out[c] = in[c] > out[c] ? in[c] : out[c];
        }
    }
}

} // namespace embark::portable

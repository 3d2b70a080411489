// Max/average pooling and global pooling in NHWC: per output pixel, the window's taps are
// visited in turn with the channel loop innermost (contiguous, vectorized).
#include "gemm_vec.h"
#include "portable.h"

#include <algorithm>

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

} // namespace

void max_pool2d(const Pool2DShape& s, const float* input, float* output, ThreadPool* pool) {
    const int channels = s.channels;
    for_each_output_row(s, pool, [&](int n, int oy, int ox) {
        float* __restrict out =
            output + ((static_cast<int64_t>(n) * s.out_h + oy) * s.out_w + ox) * s.out_pixel_stride();
        int ky0, ky1, kx0, kx1;
        tap_range(oy, s.stride_h, s.pad_top, s.dilation_h, s.kernel_h, 0, s.in_h, ky0, ky1);
        tap_range(ox, s.stride_w, s.pad_left, s.dilation_w, s.kernel_w, 0, s.in_w, kx0, kx1);
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

void global_average_pool(int batch, int pixels, int channels, const float* input, float* output) {
    for (int n = 0; n < batch; ++n) {
        float* __restrict out = output + static_cast<int64_t>(n) * channels;
#if EMBARK_VECTOR_TILE
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
        for (int c = 0; c < channels; ++c) out[c] = -INFINITY;
        for (int p = 0; p < pixels; ++p) {
            const float* __restrict in = input + (static_cast<int64_t>(n) * pixels + p) * channels;
            for (int c = 0; c < channels; ++c) out[c] = in[c] > out[c] ? in[c] : out[c];
        }
    }
}

} // namespace embark::portable

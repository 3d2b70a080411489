// Internal to the int8 kernels' source files (quant.h): quant.cpp (quantize, fully connected,
// element-wise, pooling, data movement), quant_conv.cpp (QConv2D: packing, the GEMM register
// tile) and quant_depthwise.cpp. The requantization shared by their hot loops, the loop hints,
// and the depthwise entry points quant_conv.cpp dispatches to. Each source file turns FP
// contraction off before including this (the arithmetic must equal the reference's).
#pragma once

#include "portable.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

// Loop hints of the register tiles (as gemm_ukernel.h's for the float tile): Clang keeps a
// constant-length channel loop as one vector of that many lanes instead of unrolling it into
// scalars, and on RVV unrolls the k loop by 4 (immediate load offsets). GCC takes the loops as
// they are.
#if defined(__clang__)
#  define EMBARK_Q_PRAGMA(x) _Pragma(#  x)
#  define EMBARK_Q_CHANNEL_LOOP(width)                                                                                 \
    EMBARK_Q_PRAGMA(clang loop unroll(disable) vectorize(enable) vectorize_width(width) interleave(disable))
#else
#  define EMBARK_Q_CHANNEL_LOOP(width)
#endif
#if defined(__clang__) && defined(__riscv_vector)
#  define EMBARK_Q_K_LOOP _Pragma("clang loop unroll_count(4)")
#else
#  define EMBARK_Q_K_LOOP
#endif

namespace embark::portable::quant_detail {

// Round half to even of a float already clamped to an int8-sized range (|v| < 2^22).
inline float round_even(float v) {
    constexpr float kMagic = 12582912.f; // 1.5 * 2^23
    return (v + kMagic) - kMagic;
}

inline int8_t requantize_value(float v, float lo, float hi, int zp) {
    v = std::min(std::max(v, lo), hi);
    return static_cast<int8_t>(static_cast<int>(round_even(v)) + zp);
}

// The requantization of the kernels' hot loops: the same arithmetic in fewer vector
// instructions. The clamp uses fmax/fmin where they are one instruction (RVV, Arm; v is never
// NaN, so they equal the reference's min/max), and the rounded value is read from the bits of
// v + 1.5 * 2^23 (round half to even by the addition; the low mantissa bits are the integer
// for |v| < 2^22) with the zero point folded into the offset.
constexpr int32_t kMagicBits = 0x4B400000; // bits of 1.5 * 2^23
struct QRq {
    float lo, hi;
    int32_t offset; // zero_point - kMagicBits
};
inline QRq requant_params(const Requantization& r) {
    return QRq{static_cast<float>(r.out_min - r.zero_point), static_cast<float>(r.out_max - r.zero_point),
               r.zero_point - kMagicBits};
}
[[gnu::always_inline]] inline float clamp_value(float v, float lo, float hi) {
#if defined(__riscv_vector) || defined(__aarch64__)
    return std::fmin(std::fmax(v, lo), hi);
#else
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
#endif
}
[[gnu::always_inline]] inline int8_t requant_float(float v, float lo, float hi, int32_t offset) {
    const float t = clamp_value(v, lo, hi) + 12582912.f;
    int32_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    return static_cast<int8_t>(bits + offset);
}
[[gnu::always_inline]] inline int8_t requant_one(int32_t acc, float m, float lo, float hi, int32_t offset) {
    return requant_float(static_cast<float>(acc) * m, lo, hi, offset);
}

inline void run_parts(ThreadPool* pool, int64_t n, const std::function<void(int64_t, int64_t)>& fn) {
    if (pool && pool->threads() > 1 && n > 1)
        pool->parallel_for(n, fn);
    else
        fn(0, n);
}

// The rows layout of the int8 convolutions other than a 1x1 (the register tiles of aarch64
// with the dot product extension, quant_gemm_neon.h, of x86-64 with AVX-512 VNNI, quant_x86.h,
// and of RVV, quant_gemm_rvv.h): with one group and no horizontal dilation, a pixel's kernel
// row is kernel_w * C contiguous NHWC bytes, so its patch is kernel_h pointers to rows read in
// place, each padded to a multiple of `align` bytes with zero weights (4 for the 4-byte dot
// products: a 3-channel stem's 9 -> 12 bytes; 1 for RVV's byte-at-a-time tile).
// The packed k of weight (tap t, channel c) is row_k(); kp = kernel_h * row_length().
constexpr bool rows_layout(int groups, int dilation_w) { return groups == 1 && dilation_w == 1; }
constexpr int row_length(int kernel_w, int cg, int align = 4) { return (kernel_w * cg + align - 1) / align * align; }
constexpr int row_k(int t, int c, int kernel_w, int cg, int row_len) {
    return t / kernel_w * row_len + t % kernel_w * cg + c;
}

// The rows that cross a border (or could be read past the input's end): kernel_rows' slow path.
[[gnu::noinline]] inline void kernel_rows_built(const QConv2D& op, const int8_t* input, int64_t n, int oy, int ox,
                                                int read_len, int8_t* scratch, const int8_t* zero_row,
                                                const int8_t** rows, size_t rows_stride) {
    const int kw = op.kernel_w, C = op.in_c;
    const size_t kwc = static_cast<size_t>(kw) * C;
    const int64_t in_bytes = static_cast<int64_t>(op.batch) * op.in_h * op.in_w * C;
    const int ix0 = ox * op.stride_w - op.pad_left, iy0 = oy * op.stride_h - op.pad_top;
    for (int ky = 0; ky < op.kernel_h; ++ky) {
        const int iy = iy0 + ky * op.dilation_h;
        int8_t* built = scratch + static_cast<size_t>(ky) * read_len;
        const int8_t* r = zero_row;
        if (iy >= 0 && iy < op.in_h) {
            const int8_t* image_row = input + (n * op.in_h + iy) * op.in_w * C;
            if (ix0 >= 0 && ix0 + kw <= op.in_w) {
                r = image_row + static_cast<int64_t>(ix0) * C;
                if (r + read_len > input + in_bytes) r = static_cast<const int8_t*>(std::memcpy(built, r, kwc));
            } else {
                for (int kx = 0; kx < kw; ++kx) {
                    const int ix = ix0 + kx;
                    if (ix >= 0 && ix < op.in_w)
                        std::memcpy(built + kx * C, image_row + static_cast<int64_t>(ix) * C, C);
                    else
                        std::memset(built + kx * C, op.x_zero_point, C);
                }
                r = built;
            }
        }
        rows[static_cast<size_t>(ky) * rows_stride] = r;
    }
}

// The kernel_h row pointers of output pixel (n, oy, ox) in the rows layout, stored at
// rows[ky * rows_stride]; each is read for `read_len` bytes (>= the row length). Rows inside the
// input point there (inline: most pixels, a few instructions); a row that crosses the image's
// left or right border, or could be read past the input's end, is built in `scratch` (kernel_h
// rows of read_len bytes: the input's bytes, zero points outside the image); rows above or
// below the image are `zero_row` (read_len zero points). Returns whether all rows are in place.
[[gnu::always_inline]] inline bool kernel_rows(const QConv2D& op, const int8_t* input, int64_t n, int oy, int ox,
                                               int read_len, int8_t* scratch, const int8_t* zero_row,
                                               const int8_t** rows, size_t rows_stride) {
    const int kh = op.kernel_h, C = op.in_c;
    const int64_t row_step = static_cast<int64_t>(op.dilation_h) * op.in_w * C; // between kernel rows
    const int ix0 = ox * op.stride_w - op.pad_left, iy0 = oy * op.stride_h - op.pad_top;
    const int64_t at = ((n * op.in_h + iy0) * op.in_w + ix0) * C;
    if (ix0 >= 0 && ix0 + op.kernel_w <= op.in_w && iy0 >= 0 && iy0 + (kh - 1) * op.dilation_h < op.in_h &&
        at + (kh - 1) * row_step + read_len <= static_cast<int64_t>(op.batch) * op.in_h * op.in_w * C) { // in place
        for (int ky = 0; ky < kh; ++ky) rows[static_cast<size_t>(ky) * rows_stride] = input + at + ky * row_step;
        return true;
    }
    kernel_rows_built(op, input, n, oy, ox, read_len, scratch, zero_row, rows, rows_stride);
    return false;
}

// The kernel rows of a rows-layout convolution's output pixels, walked in order from one pixel
// on, a tile at a time (the GEMM tiles of aarch64, x86-64 VNNI and RVV). Each pixel's rows come
// from kernel_rows(), except the next pixel of an output row whose rows were all in place and
// stay so: the previous rows advanced by one stride (no bounds arithmetic per pixel).
class KernelRowsWalker {
public:
    // Rows are read for read_len bytes; tiles have at most max_pixels pixels.
    KernelRowsWalker(const QConv2D& op, const int8_t* input, int64_t first_pixel, int read_len, int max_pixels)
        : op_(op),
          input_(input),
          read_len_(read_len),
          scratch_(static_cast<size_t>(1 + max_pixels * op.kernel_h) * read_len, static_cast<int8_t>(op.x_zero_point)),
          last_(static_cast<size_t>(op.kernel_h)),
          step_(static_cast<int64_t>(op.stride_w) * op.in_c),
          row_step_(static_cast<int64_t>(op.dilation_h) * op.in_w * op.in_c),
          in_bytes_(static_cast<int64_t>(op.batch) * op.in_h * op.in_w * op.in_c),
          last_in_place_((op.in_w - op.kernel_w + op.pad_left) / op.stride_w) {
        const int64_t hw = static_cast<int64_t>(op.out_h) * op.out_w;
        n_ = first_pixel / hw;
        oy_ = static_cast<int>(first_pixel % hw / op.out_w);
        ox_ = static_cast<int>(first_pixel % op.out_w);
    }

    // The rows of the next m_valid pixels: pixel m's row ky at rows[ky * ky_stride + m * m_stride],
    // for m < mr (pixels past m_valid repeat the last valid one).
    void next(int m_valid, int mr, const int8_t** rows, size_t ky_stride, size_t m_stride) {
        const int kh = op_.kernel_h;
        for (int m = 0; m < m_valid; ++m) {
            const int8_t** r = rows + static_cast<size_t>(m) * m_stride;
            if (in_place_ && ox_ > 0 && ox_ <= last_in_place_ &&
                last_[0] + step_ - input_ + (kh - 1) * row_step_ + read_len_ <= in_bytes_) {
                for (int ky = 0; ky < kh; ++ky) r[static_cast<size_t>(ky) * ky_stride] = last_[ky] += step_;
            } else {
                in_place_ = kernel_rows(op_, input_, n_, oy_, ox_, read_len_,
                                        scratch_.data() + static_cast<size_t>(1 + m * kh) * read_len_, scratch_.data(),
                                        r, ky_stride);
                if (in_place_)
                    for (int ky = 0; ky < kh; ++ky) last_[ky] = r[static_cast<size_t>(ky) * ky_stride];
            }
            if (++ox_ == op_.out_w) {
                ox_ = 0;
                if (++oy_ == op_.out_h) oy_ = 0, ++n_;
            }
        }
        for (int m = m_valid; m < mr; ++m)
            for (int ky = 0; ky < kh; ++ky)
                rows[static_cast<size_t>(ky) * ky_stride + static_cast<size_t>(m) * m_stride] =
                    rows[static_cast<size_t>(ky) * ky_stride + static_cast<size_t>(m_valid - 1) * m_stride];
    }

private:
    const QConv2D& op_;
    const int8_t* input_;
    int read_len_;
    std::vector<int8_t> scratch_;     // a row of zero points, then kernel_h built rows per pixel of a tile
    std::vector<const int8_t*> last_; // the previous pixel's rows, when in place
    int64_t step_, row_step_, in_bytes_;
    int last_in_place_; // the largest ox whose kernel rows are inside the image horizontally
    int64_t n_ = 0;
    int oy_ = 0, ox_ = 0;
    bool in_place_ = false;
};

// quant_depthwise.cpp: the [pixel][tap] indirection of a depthwise QConv2D over `input`, and
// the convolution itself (builds the indirection when `input` is not the one it was built for).
void build_depthwise_indirection(const QConv2D& op, const int8_t* input);
void qconv2d_depthwise(const QConv2D& op, const int8_t* input, int8_t* output, ThreadPool* pool);

} // namespace embark::portable::quant_detail

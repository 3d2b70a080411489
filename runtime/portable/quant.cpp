// Int8 kernels (quant.h): quantize/dequantize, fully connected, element-wise, pooling and data
// movement (convolutions: quant_conv.cpp, quant_depthwise.cpp). Plain loops written to
// vectorize (streams for the element-wise ops). The arithmetic matches
// core/reference/quantized_fused.cpp exactly; see quant.h.
#if defined(__clang__)
#  pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#  pragma GCC optimize("fp-contract=off")
#endif

#include "quant_add_neon.h" // aarch64: qadd 16 elements at a time (EMBARK_QADD_NEON)
#include "copy_bytes.h"
#include "quant_gemm_rvv.h" // RVV (Clang): the requantized store of the average pools
#include "quant_kernels.h"

#include <vector>
#if defined(__clang__) && defined(__riscv_vector)
#  include <riscv_vector.h>
#endif

namespace embark::portable {

using namespace quant_detail;

namespace {

// Requantizes count int32 sums with per-channel multipliers (stride 1).
void requantize_row(const int32_t* acc, const float* m, int count, const Requantization& r, int8_t* out) {
    const QRq rq = requant_params(r);
    for (int i = 0; i < count; ++i) out[i] = requant_one(acc[i], m[i], rq.lo, rq.hi, rq.offset);
}

template <typename T>
void quantize_any(const float* x, T* y, size_t count, float scale, int zp, int qmin, int qmax) {
    const float lo = static_cast<float>(qmin - zp), hi = static_cast<float>(qmax - zp);
    const int32_t offset = zp - kMagicBits;
#if defined(EMBARK_QGEMM_RVV)
    // RVV: LMUL-8 vectors, the loop below's arithmetic (vfmax/vfmin give lo for NaN, whose byte is
    // then replaced by 0). The compiler's vectorization of that loop counted 2.1 instructions per
    // element (a model's input: 0.32 M for 3 x 224 x 224).
    for (size_t i = 0; i < count;) {
        const size_t vl = __riscv_vsetvl_e32m8(count - i);
        const vfloat32m8_t v = __riscv_vfdiv_vf_f32m8(__riscv_vle32_v_f32m8(x + i, vl), scale, vl);
        const vfloat32m8_t t =
            __riscv_vfadd_vf_f32m8(__riscv_vfmin_vf_f32m8(__riscv_vfmax_vf_f32m8(v, lo, vl), hi, vl), 12582912.f, vl);
        vint32m8_t q = __riscv_vadd_vx_i32m8(__riscv_vreinterpret_v_f32m8_i32m8(t), offset, vl);
        q = __riscv_vmerge_vxm_i32m8(q, 0, __riscv_vmfne_vv_f32m8_b4(v, v, vl), vl);
        __riscv_vse8_v_i8m2(reinterpret_cast<int8_t*>(y + i),
                            __riscv_vncvt_x_x_w_i8m2(__riscv_vncvt_x_x_w_i16m4(q, vl), vl), vl);
        i += vl;
    }
#else
    EMBARK_STREAM_LOOP
    for (size_t i = 0; i < count; ++i) {
        const float v = x[i] / scale;
        // NaN saturates to 0 (as the reference), not to the zero point.
        const int32_t q =
            v != v ? 0 : static_cast<int32_t>(static_cast<uint32_t>(requant_float(v, lo, hi, offset)) & 0xFF);
        y[i] = static_cast<T>(q);
    }
#endif
}

template <typename T>
void dequantize_any(const T* x, float* y, size_t count, float scale, int zp) {
    const float z = static_cast<float>(zp);
    for (size_t i = 0; i < count; ++i) y[i] = (static_cast<float>(x[i]) - z) * scale;
}

} // namespace

void quantize_s8(const float* x, int8_t* y, size_t count, float scale, int zero_point) {
    quantize_any(x, y, count, scale, zero_point, -128, 127);
}
void quantize_u8(const float* x, uint8_t* y, size_t count, float scale, int zero_point) {
    quantize_any(x, y, count, scale, zero_point, 0, 255);
}
void dequantize_s8(const int8_t* x, float* y, size_t count, float scale, int zero_point) {
    dequantize_any(x, y, count, scale, zero_point);
}
void dequantize_u8(const uint8_t* x, float* y, size_t count, float scale, int zero_point) {
    dequantize_any(x, y, count, scale, zero_point);
}
// ----- QFullyConnected ----------------------------------------------------------------------

void qfully_connected(const QFullyConnected& op, int64_t rows, const int8_t* x, int8_t* y, ThreadPool* pool) {
    const int K = op.k, N = op.n;
    const int16_t xz = static_cast<int16_t>(op.x_zero_point);
    run_parts(pool, rows, [&](int64_t begin, int64_t end) {
        std::vector<int32_t> acc(static_cast<size_t>(N));
        std::vector<int16_t> xc(static_cast<size_t>(K));
        for (int64_t r = begin; r < end; ++r) {
            const int8_t* xr = x + r * K;
            for (int k = 0; k < K; ++k) xc[static_cast<size_t>(k)] = static_cast<int16_t>(xr[k] - xz);
            for (int o = 0; o < N; ++o) {
                const int8_t* wr = op.weights + static_cast<int64_t>(o) * K;
                int32_t sum = 0;
                for (int k = 0; k < K; ++k) sum += static_cast<int32_t>(xc[static_cast<size_t>(k)]) * wr[k];
                acc[static_cast<size_t>(o)] = sum + (op.bias ? op.bias[o] : 0);
            }
            requantize_row(acc.data(), op.multipliers, N, op.out, y + r * N);
        }
    });
}

// ----- Element-wise -------------------------------------------------------------------------

void qadd(const QAddParams& p, const int8_t* a, const int8_t* b, int8_t* y, size_t count, ThreadPool* pool) {
    const QRq rq = requant_params(p.out);
    const int za = p.a_zero_point, zb = p.b_zero_point;
    const float sa = p.a_scale, sb = p.b_scale, sy = p.y_scale;
    const int64_t blocks = static_cast<int64_t>((count + 4095) / 4096);
    run_parts(count > 65536 ? pool : nullptr, blocks, [&](int64_t begin, int64_t end) {
        // Locals: an int8 store may alias the lambda's captures, which GCC then reloads per
        // element (the loop ran scalar on aarch64: 36 instructions per element).
        const int8_t* pa = a;
        const int8_t* pb = b;
        int8_t* py = y;
        const int zpa = za, zpb = zb;
        const float fsa = sa, fsb = sb, fsy = sy, lo = rq.lo, hi = rq.hi;
        const int32_t offset = rq.offset;
        size_t first = static_cast<size_t>(begin) * 4096;
        const size_t last = std::min(count, static_cast<size_t>(end) * 4096);
#if defined(EMBARK_QADD_NEON)
        if (zpa >= -128 && zpa <= 127 && zpb >= -128 && zpb <= 127)
            first = neon::qadd_blocks(pa, pb, py, first, last, zpa, zpb, fsa, fsb, fsy, p.out.zero_point, p.out.out_min,
                                      p.out.out_max);
#endif
        EMBARK_STREAM_LOOP
        for (size_t i = first; i < last; ++i) {
            const float fa = static_cast<float>(pa[i] - zpa) * fsa;
            const float fb = static_cast<float>(pb[i] - zpb) * fsb;
            py[i] = requant_float((fa + fb) / fsy, lo, hi, offset);
        }
    });
}

void qlookup(const int8_t* table, const int8_t* x, int8_t* y, size_t count) {
#if defined(__clang__) && defined(__riscv_vector)
    // RVV: the lookup as an indexed load, x + 128 (x ^ 0x80 as a byte) the offset into the
    // table, a vector of LMUL 8 at a time (y may equal x: each vector is read before written).
    for (size_t i = 0; i < count;) {
        const size_t vl = __riscv_vsetvl_e8m8(count - i);
        const vuint8m8_t index =
            __riscv_vxor_vx_u8m8(__riscv_vle8_v_u8m8(reinterpret_cast<const uint8_t*>(x + i), vl), 0x80, vl);
        __riscv_vse8_v_i8m8(y + i, __riscv_vluxei8_v_i8m8(table, index, vl), vl);
        i += vl;
    }
#else
    for (size_t i = 0; i < count; ++i) y[i] = table[x[i] + 128];
#endif
}

// ----- Pooling ------------------------------------------------------------------------------

namespace {
#if defined(__clang__) && defined(__riscv_vector)
// RVV (Clang): out[c] = max over the taps of x[t][c] in LMUL-8 vectors (vsetvl), one load and
// one vmax per tap; the plain loops below stay scalar for a few channels (LeNet-5's 6).
template <int TAPS>
void max_taps(const int8_t* const* x, int8_t* __restrict out, int C, int taps_any = TAPS) {
    const int taps = TAPS > 0 ? TAPS : taps_any;
    for (int c = 0; c < C;) {
        const size_t vl = __riscv_vsetvl_e8m8(static_cast<size_t>(C - c));
        vint8m8_t m = __riscv_vle8_v_i8m8(x[0] + c, vl);
        for (int t = 1; t < taps; ++t) m = __riscv_vmax_vv_i8m8(m, __riscv_vle8_v_i8m8(x[t] + c, vl), vl);
        __riscv_vse8_v_i8m8(out + c, m, vl);
        c += static_cast<int>(vl);
    }
}

// Few channels (C <= kFlatPoolChannels): the output pixels [0, count) of a row whose windows lie
// inside the input, their (pixel, channel) bytes flattened onto the lanes of LMUL 4 (a 2x2 pool
// on 6 channels: 60 bytes at VLEN 128 per gather and vmax, where the per-pixel loop above runs
// 6). Lane j of a chunk is channel j % C of the chunk's pixel j / C, gathered per tap through
// idx[j] = (j / C) * step + j % C bytes from the chunk's first window corner (vluxei16), plus
// the tap's offset; step: the input bytes between two windows (stride_w * C).
constexpr int kFlatPoolChannels = 16;

// Pixels per chunk of the flattened path (0: it does not apply): whole pixels of C bytes in
// the byte lanes of LMUL 4, at least two of them, with every index below 2^16.
inline int flat_pool_pixels(int C, int step) {
    if (C > kFlatPoolChannels) return 0;
    const int pixels = static_cast<int>(__riscv_vsetvlmax_e8m4()) / C;
    if (pixels < 2 || static_cast<int64_t>(pixels - 1) * step + C > 65535) return 0;
    return pixels;
}

void max_row_flat(const int8_t* corner, const int64_t* offset, int taps, int count, int C, int step,
                  const uint16_t* idx_table, int chunk_pixels, int8_t* __restrict out) {
    const vuint16m8_t idx = __riscv_vle16_v_u16m8(idx_table, static_cast<size_t>(chunk_pixels) * C);
    for (int p = 0; p < count; p += chunk_pixels) {
        const size_t vl = static_cast<size_t>(std::min(chunk_pixels, count - p)) * C;
        const int8_t* first = corner + static_cast<int64_t>(p) * step;
        vint8m4_t m = __riscv_vluxei16_v_i8m4(first + offset[0], idx, vl);
        for (int t = 1; t < taps; ++t)
            m = __riscv_vmax_vv_i8m4(m, __riscv_vluxei16_v_i8m4(first + offset[t], idx, vl), vl);
        __riscv_vse8_v_i8m4(out + static_cast<int64_t>(p) * C, m, vl);
    }
}

// More than kFlatPoolChannels channels: the window's maximum in two passes per output row.
// First over the kernel's rows inside the input, a whole input row of in_w * C bytes at a time
// in LMUL-8 vectors (into `rowmax`; a single row inside is read in place); then, per output
// pixel, over its columns inside the input, C bytes at a time. A 3x3/2 pool of 64 channels
// takes some 15 instructions per output pixel where the window's 9 pointers per pixel (the
// path below) took over 200 (SqueezeNet 1.1's first pool: 0.63 M instructions on sim-k1).
// Taps outside the input are skipped: the same as the -128 rows of the path below, since every
// window has a tap inside; a window without one (pads of a kernel's size) is -128.
void max_rows_separable(const Pool2DShape& s, const int8_t* input, int8_t* output, int64_t begin, int64_t end) {
    const int C = s.channels;
    const size_t row_bytes = static_cast<size_t>(s.in_w) * C;
    std::vector<int8_t> rowmax(row_bytes);
    std::vector<const int8_t*> rows(static_cast<size_t>(s.kernel_h));
    const int64_t tap_step = static_cast<int64_t>(s.dilation_w) * C;
    for (int64_t r = begin; r < end; ++r) {
        const int n = static_cast<int>(r / s.out_h), oy = static_cast<int>(r % s.out_h);
        int8_t* out = output + r * s.out_w * C;
        int inside = 0;
        for (int ky = 0; ky < s.kernel_h; ++ky) {
            const int iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
            if (iy >= 0 && iy < s.in_h)
                rows[static_cast<size_t>(inside++)] = input + (static_cast<int64_t>(n) * s.in_h + iy) * s.in_w * C;
        }
        if (inside == 0) {
            std::fill(out, out + static_cast<size_t>(s.out_w) * C, int8_t(-128));
            continue;
        }
        const int8_t* v = rows[0];
        if (inside > 1) {
            for (size_t i = 0; i < row_bytes;) {
                const size_t vl = __riscv_vsetvl_e8m8(row_bytes - i);
                vint8m8_t m = __riscv_vmax_vv_i8m8(__riscv_vle8_v_i8m8(rows[0] + i, vl),
                                                   __riscv_vle8_v_i8m8(rows[1] + i, vl), vl);
                for (int t = 2; t < inside; ++t)
                    m = __riscv_vmax_vv_i8m8(m, __riscv_vle8_v_i8m8(rows[static_cast<size_t>(t)] + i, vl), vl);
                __riscv_vse8_v_i8m8(rowmax.data() + i, m, vl);
                i += vl;
            }
            v = rowmax.data();
        }
        for (int ox = 0; ox < s.out_w; ++ox, out += C) {
            // The columns inside: kx in [k0, k1).
            const int ix0 = ox * s.stride_w - s.pad_left;
            int k0 = 0, k1 = s.kernel_w;
            while (k0 < k1 && ix0 + k0 * s.dilation_w < 0) ++k0;
            while (k1 > k0 && ix0 + (k1 - 1) * s.dilation_w >= s.in_w) --k1;
            if (k0 == k1) {
                std::fill(out, out + C, int8_t(-128));
                continue;
            }
            const int8_t* first = v + static_cast<int64_t>(ix0 + k0 * s.dilation_w) * C;
            for (int c = 0; c < C;) {
                const size_t vl = __riscv_vsetvl_e8m8(static_cast<size_t>(C - c));
                const int8_t* p = first + c;
                vint8m8_t m = __riscv_vle8_v_i8m8(p, vl);
                for (int k = k0 + 1; k < k1; ++k) {
                    p += tap_step;
                    m = __riscv_vmax_vv_i8m8(m, __riscv_vle8_v_i8m8(p, vl), vl);
                }
                __riscv_vse8_v_i8m8(out + c, m, vl);
                c += static_cast<int>(vl);
            }
        }
    }
}
#else
// out[c] = max over the taps of x[t][c]; TAPS > 0: that many (the loop over them unrolled).
template <int TAPS>
void max_taps(const int8_t* const* x, int8_t* __restrict out, int C, int taps_any = TAPS) {
    const int taps = TAPS > 0 ? TAPS : taps_any;
    const int8_t* __restrict x0 = x[0];
    if constexpr (TAPS > 0) {
        const int8_t* __restrict xt[TAPS];
        for (int t = 0; t < TAPS; ++t) xt[t] = x[t];
        EMBARK_STREAM_LOOP
        for (int c = 0; c < C; ++c) {
            int8_t m = x0[c];
#  if defined(__clang__)
#    pragma clang loop unroll(full)
#  elif defined(__GNUC__)
#    pragma GCC unroll 32
#  endif
            for (int t = 1; t < TAPS; ++t) {
                const int8_t v = xt[t][c];
                m = v > m ? v : m;
            }
            out[c] = m;
        }
    } else {
        for (int c = 0; c < C; ++c) out[c] = x0[c];
        for (int t = 1; t < taps; ++t) {
            const int8_t* __restrict xt = x[t];
            for (int c = 0; c < C; ++c) out[c] = std::max(out[c], xt[c]);
        }
    }
}
#endif
} // namespace

void max_pool2d_s8(const Pool2DShape& s, const int8_t* input, int8_t* output, ThreadPool* pool) {
    const int64_t rows = static_cast<int64_t>(s.batch) * s.out_h;
    const int taps = s.kernel_h * s.kernel_w;
#if defined(__clang__) && defined(__riscv_vector)
    if (s.channels > kFlatPoolChannels) {
        run_parts(pool, rows, [&](int64_t begin, int64_t end) { max_rows_separable(s, input, output, begin, end); });
        return;
    }
#endif
    run_parts(pool, rows, [&](int64_t begin, int64_t end) {
        const int C = s.channels; // local: the int8 stores may alias anything outside
        // Taps in the padding read a row of -128 (never above an input; every window has an
        // input tap), so all windows have `taps` taps and the channel loop keeps the maximum in
        // a register (9 loads and 8 max per vector of a 3x3 window).
        std::vector<int8_t> low(static_cast<size_t>(C), int8_t(-128));
        std::vector<const int8_t*> tap(static_cast<size_t>(taps));
        std::vector<int64_t> offset(static_cast<size_t>(taps)); // of each tap from the window's corner
        for (int t = 0; t < taps; ++t)
            offset[static_cast<size_t>(t)] = (static_cast<int64_t>(t / s.kernel_w) * s.dilation_h * s.in_w +
                                              static_cast<int64_t>(t % s.kernel_w) * s.dilation_w) *
                                             C;
        const int span_h = (s.kernel_h - 1) * s.dilation_h, span_w = (s.kernel_w - 1) * s.dilation_w;
#if defined(__clang__) && defined(__riscv_vector)
        // The flattened path's output pixels: [flat_lo, flat_hi), those whose windows lie inside
        // the input horizontally, on rows whose windows lie inside vertically.
        const int step = s.stride_w * C, chunk_pixels = flat_pool_pixels(C, step);
        int flat_lo = 0, flat_hi = 0;
        std::vector<uint16_t> idx_table(static_cast<size_t>(chunk_pixels) * C);
        if (chunk_pixels > 0) {
            while (flat_lo < s.out_w && flat_lo * s.stride_w - s.pad_left < 0) ++flat_lo;
            flat_hi = flat_lo;
            while (flat_hi < s.out_w && flat_hi * s.stride_w - s.pad_left + span_w < s.in_w) ++flat_hi;
            for (int j = 0; j < chunk_pixels * C; ++j)
                idx_table[static_cast<size_t>(j)] = static_cast<uint16_t>(j / C * step + j % C);
        }
#endif
        for (int64_t r = begin; r < end; ++r) {
            const int n = static_cast<int>(r / s.out_h), oy = static_cast<int>(r % s.out_h);
            const int iy0 = oy * s.stride_h - s.pad_top;
            for (int ox = 0; ox < s.out_w; ++ox) {
                const int ix0 = ox * s.stride_w - s.pad_left;
#if defined(__clang__) && defined(__riscv_vector)
                if (ox == flat_lo && flat_hi - flat_lo >= 2 && iy0 >= 0 && iy0 + span_h < s.in_h) {
                    max_row_flat(input + ((static_cast<int64_t>(n) * s.in_h + iy0) * s.in_w + ix0) * C, offset.data(),
                                 taps, flat_hi - flat_lo, C, step, idx_table.data(), chunk_pixels,
                                 output + ((static_cast<int64_t>(n) * s.out_h + oy) * s.out_w + ox) * C);
                    ox = flat_hi - 1;
                    continue;
                }
#endif
                if (iy0 >= 0 && iy0 + span_h < s.in_h && ix0 >= 0 && ix0 + span_w < s.in_w) { // the window inside
                    const int8_t* corner = input + ((static_cast<int64_t>(n) * s.in_h + iy0) * s.in_w + ix0) * C;
                    for (int t = 0; t < taps; ++t)
                        tap[static_cast<size_t>(t)] = corner + offset[static_cast<size_t>(t)];
                } else {
                    for (int t = 0; t < taps; ++t) {
                        const int iy = iy0 + t / s.kernel_w * s.dilation_h, ix = ix0 + t % s.kernel_w * s.dilation_w;
                        const bool inside = iy >= 0 && iy < s.in_h && ix >= 0 && ix < s.in_w;
                        tap[static_cast<size_t>(t)] =
                            inside ? input + ((static_cast<int64_t>(n) * s.in_h + iy) * s.in_w + ix) * C : low.data();
                    }
                }
                int8_t* out = output + ((static_cast<int64_t>(n) * s.out_h + oy) * s.out_w + ox) * C;
                if (taps == 9)
                    max_taps<9>(tap.data(), out, C);
                else if (taps == 4)
                    max_taps<4>(tap.data(), out, C);
                else
                    max_taps<0>(tap.data(), out, C, taps);
            }
        }
    });
}

namespace {
// The input pixels of output pixel (n, oy, ox)'s window that lie inside the input, in kernel
// order, into taps (kernel_h * kernel_w pointers); returns their count, and in *padded the taps
// inside the input and its pads (count_include_pad's count).
int window_taps(const Pool2DShape& s, const int8_t* input, int n, int oy, int ox, const int8_t** taps, int* padded) {
    int valid = 0;
    *padded = 0;
    for (int ky = 0; ky < s.kernel_h; ++ky) {
        const int iy = oy * s.stride_h - s.pad_top + ky;
        for (int kx = 0; kx < s.kernel_w; ++kx) {
            const int ix = ox * s.stride_w - s.pad_left + kx;
            *padded += iy >= -s.pad_top && iy < s.in_h + s.pad_bottom && ix >= -s.pad_left && ix < s.in_w + s.pad_right;
            if (iy >= 0 && iy < s.in_h && ix >= 0 && ix < s.in_w)
                taps[valid++] = input + ((static_cast<int64_t>(n) * s.in_h + iy) * s.in_w + ix) * s.channels;
        }
    }
    return valid;
}
} // namespace

void average_pool2d_s8(const Pool2DShape& s, bool count_include_pad, int x_zero_point, float multiplier,
                       Requantization out, const int8_t* input, int8_t* output, ThreadPool* pool) {
    const int64_t rows = static_cast<int64_t>(s.batch) * s.out_h;
#if defined(EMBARK_QGEMM_RVV)
    // RVV: per output pixel and LMUL-8 vector of int32 channels, the window's bytes summed into
    // int16 (vwadd.wv, one load and one add per tap; 256 int8 fit) and those sums into int32
    // every 256 taps. The arithmetic below's, byte for byte: sum - x_zero_point * taps, then
    // (float(sum) / count) * multiplier requantized. A global pool of 1280 channels over 7 x 7
    // counted 119 k instructions through the loop below, which the compiler vectorized at LMUL 1
    // with the sums in memory.
    const QRq rq = requant_params(out);
    run_parts(pool, rows, [&](int64_t begin, int64_t end) {
        const int C = s.channels;
        std::vector<const int8_t*> taps(static_cast<size_t>(s.kernel_h) * s.kernel_w);
        for (int64_t r = begin; r < end; ++r) {
            const int n = static_cast<int>(r / s.out_h), oy = static_cast<int>(r % s.out_h);
            for (int ox = 0; ox < s.out_w; ++ox) {
                int padded = 0;
                const int valid = window_taps(s, input, n, oy, ox, taps.data(), &padded);
                const int count = count_include_pad ? padded : valid;
                const float fc = static_cast<float>(count);
                int8_t* o = output + (r * s.out_w + ox) * C;
                for (int c = 0; c < C;) {
                    const size_t vl = __riscv_vsetvl_e32m8(static_cast<size_t>(C - c));
                    vint32m8_t sum = __riscv_vmv_v_x_i32m8(-x_zero_point * valid, vl);
                    for (int t0 = 0; t0 < valid; t0 += 256) {
                        vint16m4_t part = __riscv_vmv_v_x_i16m4(0, vl);
                        for (int t = t0, t1 = std::min(valid, t0 + 256); t < t1; ++t)
                            part = __riscv_vwadd_wv_i16m4(
                                part, __riscv_vle8_v_i8m2(taps[static_cast<size_t>(t)] + c, vl), vl);
                        sum = __riscv_vwadd_wv_i32m8(sum, part, vl);
                    }
                    vfloat32m8_t v = __riscv_vfmv_v_f_f32m8(0.f, vl);
                    if (count)
                        v = __riscv_vfmul_vf_f32m8(__riscv_vfdiv_vf_f32m8(__riscv_vfcvt_f_x_v_f32m8(sum, vl), fc, vl),
                                                   multiplier, vl);
                    quant_detail::rvv::store_requantized_floats<8>(o + c, v, rq, vl);
                    c += static_cast<int>(vl);
                }
            }
        }
    });
#else
    const float lo = static_cast<float>(out.out_min - out.zero_point),
                hi = static_cast<float>(out.out_max - out.zero_point);
    run_parts(pool, rows, [&](int64_t begin, int64_t end) {
        const int C = s.channels; // local: the int8 stores may alias anything outside
        const int xz = x_zero_point;
        std::vector<int32_t> acc(static_cast<size_t>(C));
        std::vector<const int8_t*> taps(static_cast<size_t>(s.kernel_h) * s.kernel_w);
        for (int64_t r = begin; r < end; ++r) {
            const int n = static_cast<int>(r / s.out_h), oy = static_cast<int>(r % s.out_h);
            for (int ox = 0; ox < s.out_w; ++ox) {
                std::fill(acc.begin(), acc.end(), 0);
                int padded = 0;
                const int valid = window_taps(s, input, n, oy, ox, taps.data(), &padded);
                for (int t = 0; t < valid; ++t) {
                    const int8_t* px = taps[static_cast<size_t>(t)];
                    for (int c = 0; c < C; ++c) acc[static_cast<size_t>(c)] += px[c] - xz;
                }
                const int count = count_include_pad ? padded : valid;
                const float fc = static_cast<float>(count);
                int8_t* o = output + ((static_cast<int64_t>(n) * s.out_h + oy) * s.out_w + ox) * C;
                for (int c = 0; c < C; ++c) {
                    const float v = count ? (static_cast<float>(acc[static_cast<size_t>(c)]) / fc) * multiplier : 0.f;
                    o[c] = requantize_value(v, lo, hi, out.zero_point);
                }
            }
        }
    });
#endif
}

// ----- Data movement ------------------------------------------------------------------------

namespace {
// d[j][i] = s[i][j] for A (a compile-time 1-4: an image's channels) rows of b bytes: A
// interleaved streams, which vectorizers store as one segment store (RVV vsseg<A>e8) or shuffles.
template <int A>
void interleave_rows(const unsigned char* __restrict s, int64_t b, unsigned char* __restrict d) {
    for (int64_t j = 0; j < b; ++j)
#pragma GCC unroll 4
        for (int i = 0; i < A; ++i) d[j * A + i] = s[i * b + j];
}
} // namespace

void transpose_bytes(const void* in, const int64_t* dims, int rank, const int* perm, void* out) {
    const auto* src = static_cast<const unsigned char*>(in);
    auto* dst = static_cast<unsigned char*>(out);
    // NCHW <-> NHWC (a quantized model's input and output layout conversions): per batch a
    // [a][b] -> [b][a] transpose, a few instructions per byte instead of the generic walk's ~30.
    if (rank == 4 && perm[0] == 0 &&
        ((perm[1] == 2 && perm[2] == 3 && perm[3] == 1) || (perm[1] == 3 && perm[2] == 1 && perm[3] == 2))) {
        const bool to_last = perm[1] == 2; // NCHW -> NHWC: a = C, b = H * W
        const int64_t a = to_last ? dims[1] : dims[1] * dims[2], b = to_last ? dims[2] * dims[3] : dims[3];
        for (int64_t n = 0; n < dims[0]; ++n) {
            const unsigned char* s = src + n * a * b;
            unsigned char* d = dst + n * a * b;
            switch (a) {
            case 1: std::memcpy(d, s, static_cast<size_t>(b)); continue;
            case 2: interleave_rows<2>(s, b, d); continue;
            case 3: interleave_rows<3>(s, b, d); continue;
            case 4: interleave_rows<4>(s, b, d); continue;
            default: break;
            }
            for (int64_t j = 0; j < b; ++j)
                for (int64_t i = 0; i < a; ++i) d[j * a + i] = s[i * b + j];
        }
        return;
    }
    int64_t inStride[8], outDims[8], total = 1;
    for (int i = rank - 1, st = 1; i >= 0; --i) {
        inStride[i] = st;
        st *= static_cast<int>(dims[i]);
    }
    for (int k = 0; k < rank; ++k) {
        outDims[k] = dims[perm[k]];
        total *= outDims[k];
    }
    int64_t idx[8] = {};
    int64_t from = 0;
    for (int64_t o = 0; o < total; ++o) {
        dst[o] = src[from];
        for (int k = rank - 1; k >= 0; --k) {
            from += inStride[perm[k]];
            if (++idx[k] < outDims[k]) break;
            from -= inStride[perm[k]] * outDims[k];
            idx[k] = 0;
        }
    }
}

void concat_bytes(const void* const* inputs, const int64_t* sizes, int count, int64_t outer, int64_t inner, void* out) {
    auto* dst = static_cast<unsigned char*>(out);
    for (int64_t o = 0; o < outer; ++o)
        for (int i = 0; i < count; ++i) {
            const size_t chunk = static_cast<size_t>(sizes[i] * inner);
            copy_bytes(dst, static_cast<const unsigned char*>(inputs[i]) + static_cast<size_t>(o) * chunk, chunk);
            dst += chunk;
        }
}

} // namespace embark::portable

// The fused inverted bottleneck ([1x1 expansion ->] depthwise -> 1x1 projection [-> + residual]),
// output row by output row. See portable.h for the contract.
//
// Why: MobileNet-style blocks widen a thin tensor 6x, filter it and narrow it again. Layer by
// layer, the wide tensors (a 112x112x96 one is 4.8 MB) go through memory twice each, and on
// several threads every hand-over between layers that the threads split differently, and every
// arena line last written by the other core, crosses between the cores. Fused, a thread
// expands only the input rows its output rows need into a ring of kernel_h rows (~100 KB, in its
// own L2), filters one output row from the ring and projects it straight into the output: the
// threads share only the thin input (a halo row at each boundary) and their own output rows.
#include "gemm_ukernel.h"
#include "portable.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <vector>

namespace embark::portable {

namespace {

// Packed expansion + projection weights up to this size are fused: every output row streams
// them once more, which costs little while they stay in a core's L2 (512 KB on a Raspberry
// Pi 5 or a SpacemiT K1 cluster). On MobileNet-V2 this fuses the blocks up to 14x14; its
// 7x7x960 blocks, which would stream 1.2 MB of weights per output row, run layer by layer
// (fusing those too gains nothing; the measurements behind this limit: bench/README.md).
#ifndef EMBARK_FUSED_WEIGHTS_BYTES
#  define EMBARK_FUSED_WEIGHTS_BYTES (512 * 1024)
#endif
constexpr size_t kFusedWeightsBytes = EMBARK_FUSED_WEIGHTS_BYTES;
// A ring of expanded rows plus one filtered row at most this large (a core's L2 share).
constexpr size_t kFusedScratchBytes = 512 * 1024;
constexpr int kMaxKernelRows = 7;

size_t rounded(size_t floats) { return (floats + 15) / 16 * 16; } // whole cache lines

// The ring (none without an expansion: the depthwise layer reads the input rows in place) and
// one filtered row.
size_t scratch_floats(const Conv2D* expand, const Conv2D& depthwise) {
    const Conv2DShape& s = depthwise.shape;
    const size_t ring = expand ? s.kernel_h * rounded(static_cast<size_t>(s.in_w) * s.in_c) : 0;
    return ring + rounded(static_cast<size_t>(depthwise.out_w) * s.in_c);
}

// Each call gets a serial: a thread's ring is valid for the call that filled it, so a thread
// that takes the next part of its own run keeps the rows it expanded for the previous one.
std::atomic<uint64_t> g_calls{0};

struct RowRing {
    uint64_t call = 0;
    int64_t rows[kMaxKernelRows] = {}; // the (image * in_h + y) input row held by each slot, -1 none
    AlignedBuffer buffer;
    std::vector<const float*> indirection; // [out_w][taps] for an output row next to the padding
    // An output row whose kernel rows are all inside the input reads slots (s, s + 1, ...) mod
    // kernel_h: one [out_w][taps] table per first slot s, built once per layer and ring.
    std::vector<const float*> tables;
    std::array<int64_t, 8> tables_key{}; // what the tables depend on: ring, zero row, geometry
};

// Fills [out_w][kernel_h][kernel_w] pointers for one output row: kernel row ky reads input row
// row_of[ky] (nullptr: padding), columns[ox * kernel_w + kx] is the pixel's offset in a row or -1.
void fill_indirection(const float** ind, const float* const* row_of, const int64_t* columns, int out_w, int kernel_h,
                      int kernel_w, const float* zero) {
    for (int ox = 0; ox < out_w; ++ox) {
        const int64_t* col = columns + static_cast<size_t>(ox) * kernel_w;
        for (int ky = 0; ky < kernel_h; ++ky) {
            const float* base = row_of[ky];
            const float** out = ind + (ox * kernel_h + ky) * kernel_w;
            for (int kx = 0; kx < kernel_w; ++kx) out[kx] = base && col[kx] >= 0 ? base + col[kx] : zero;
        }
    }
}

} // namespace

bool bottleneck_fusable(const Conv2D* expand, const Conv2D& depthwise, const Conv2D& project) {
    const Conv2DShape& d = depthwise.shape;
    const Conv2DShape& p = project.shape;
    if (depthwise.path != ConvPath::Depthwise || project.path != ConvPath::Pointwise) return false;
    if (p.batch != d.batch || p.in_c != d.in_c || p.in_h != depthwise.out_h || p.in_w != depthwise.out_w) return false;
    if (expand) {
        const Conv2DShape& e = expand->shape;
        if (expand->path != ConvPath::Pointwise || e.batch != d.batch || e.in_h != d.in_h || e.in_w != d.in_w ||
            e.out_c != d.in_c)
            return false;
    }
    if (d.dilation_h != 1 || d.kernel_h > kMaxKernelRows) return false; // the ring holds kernel_h consecutive rows
    const size_t weights = ((expand ? expand->packed.size() : 0) + project.packed.size()) * sizeof(float);
    return weights <= kFusedWeightsBytes && scratch_floats(expand, depthwise) * sizeof(float) <= kFusedScratchBytes;
}

void inverted_bottleneck(const Conv2D* expand, const Conv2D& depthwise, const Conv2D& project, const float* input,
                         float* output, const float* residual, Activation residual_act, ThreadPool* pool) {
    const Conv2DShape& d = depthwise.shape;
    const int in_h = d.in_h, in_w = d.in_w, channels = d.in_c;
    const int out_h = depthwise.out_h, out_w = depthwise.out_w, out_c = project.shape.out_c;
    const int in_c = expand ? expand->shape.in_c : channels, kernel_h = d.kernel_h, kernel_w = d.kernel_w,
              taps = kernel_h * kernel_w;
    const size_t ring_row = expand ? rounded(static_cast<size_t>(in_w) * channels) : 0;
    const size_t need = scratch_floats(expand, depthwise);
    const uint64_t call = g_calls.fetch_add(1, std::memory_order_relaxed) + 1;
    const bool prefetch = pool && pool->threads() > 1;
    const float* zero = depthwise.zero.data();
    // Without an expansion the depthwise layer reads the input where it is, through its own table.
    const float* const* in_place = expand ? nullptr : detail::depthwise_indirection(depthwise, input);
    // Per output column and kernel column: the input pixel's offset in a row, or -1 in the padding.
    std::vector<int64_t> columns(expand ? static_cast<size_t>(out_w) * kernel_w : 0);
    for (size_t i = 0; i < columns.size(); ++i) {
        const int ix =
            static_cast<int>(i / kernel_w) * d.stride_w - d.pad_left + static_cast<int>(i % kernel_w) * d.dilation_w;
        columns[i] = ix >= 0 && ix < in_w ? int64_t(ix) * channels : -1;
    }

    parallel_for(
        pool, static_cast<int64_t>(d.batch) * out_h,
        [&](int64_t begin, int64_t end) {
            thread_local RowRing ring;
            if (ring.buffer.size() < need) {
                ring.buffer = AlignedBuffer(need);
                ring.call = 0;
            }
            if (ring.call != call) {
                ring.call = call;
                std::fill(std::begin(ring.rows), std::end(ring.rows), -1);
            }
            float* slots = ring.buffer.data();
            float* filtered = slots + kernel_h * ring_row;
            for (int64_t r = begin; r < end; ++r) {
                const int64_t image = r / out_h;
                const int oy = static_cast<int>(r % out_h);
                // Expand the input rows this output row reads that the ring does not hold yet.
                const float* row_of[kMaxKernelRows];
                for (int ky = 0; ky < kernel_h; ++ky) {
                    const int iy = oy * d.stride_h - d.pad_top + ky;
                    row_of[ky] = nullptr;
                    if (iy < 0 || iy >= in_h) continue;
                    const int64_t key = image * in_h + iy;
                    if (!expand) {
                        row_of[ky] = input + key * in_w * in_c;
                        continue;
                    }
                    const int slot = static_cast<int>(key % kernel_h); // kernel_h consecutive rows: distinct slots
                    float* dst = slots + slot * ring_row;
                    if (ring.rows[slot] != key) {
                        detail::pointwise_rows(*expand, input + key * in_w * in_c, in_w, dst, false);
                        ring.rows[slot] = key;
                    }
                    row_of[ky] = dst;
                }
                // Filter: the depthwise kernel through pointers into the ring or the input (or the
                // zero row).
                const float* const* ind;
                if (!expand) {
                    ind = in_place + r * out_w * taps;
                } else if (std::all_of(row_of, row_of + kernel_h, [](const float* p) { return p != nullptr; })) {
                    const std::array<int64_t, 8> key{reinterpret_cast<intptr_t>(slots),
                                                     reinterpret_cast<intptr_t>(zero),
                                                     channels,
                                                     out_w,
                                                     in_w,
                                                     d.stride_w,
                                                     d.pad_left,
                                                     int64_t(kernel_h) << 32 | int64_t(kernel_w) << 16 | d.dilation_w};
                    if (ring.tables_key != key) {
                        ring.tables.resize(static_cast<size_t>(kernel_h) * out_w * taps);
                        for (int first = 0; first < kernel_h; ++first) {
                            const float* rows[kMaxKernelRows];
                            for (int ky = 0; ky < kernel_h; ++ky) rows[ky] = slots + (first + ky) % kernel_h * ring_row;
                            fill_indirection(ring.tables.data() + static_cast<size_t>(first) * out_w * taps, rows,
                                             columns.data(), out_w, kernel_h, kernel_w, zero);
                        }
                        ring.tables_key = key;
                    }
                    const int first = static_cast<int>((image * in_h + oy * d.stride_h - d.pad_top) % kernel_h);
                    ind = ring.tables.data() + static_cast<size_t>(first) * out_w * taps;
                } else {
                    ring.indirection.resize(static_cast<size_t>(out_w) * taps);
                    fill_indirection(ring.indirection.data(), row_of, columns.data(), out_w, kernel_h, kernel_w, zero);
                    ind = ring.indirection.data();
                }
                detail::depthwise_run_pixels(depthwise, ind, 0, out_w, filtered, false);
                // Project into the output row, then add the residual row.
                float* out = output + r * out_w * out_c;
                detail::pointwise_rows(project, filtered, out_w, out, prefetch);
                if (residual) {
                    const float* res = residual + r * out_w * out_c;
                    const size_t count = static_cast<size_t>(out_w) * out_c;
                    EMBARK_STREAM_LOOP
                    for (size_t i = 0; i < count; ++i) out[i] += res[i];
                    apply_activation(residual_act, out, count);
                }
            }
        },
        kFineParts);
}

} // namespace embark::portable

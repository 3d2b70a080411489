// 3x3 stride-1 convolution by Winograd's minimal filtering F(MxM, 3x3) (Lavin & Gray 2015),
// M = 2 or 4: each MxM block of output pixels ("a tile") costs (M+2)^2 multiplications per
// input and output channel instead of 9 M^2, i.e. 2.25x (M = 2) or 4x (M = 4) fewer
// multiply-adds than the direct kernel.
//
//   V = B^T d B     (input tile d: (M+2)x(M+2) pixels, all input channels)
//   U = G g G^T     (filter g: 3x3, packed once, in double)
//   M[xi] = V[xi] x U[xi]    for each of the (M+2)^2 positions xi: a GEMM over channels, run
//                            by the same register tile as the direct convolution (gemm_ukernel.h)
//   Y = A^T M A + bias       (MxM output pixels), then the fused activation
//
// Tiles are processed in blocks so that V and M of a block stay in a per-thread scratch of a
// bounded size. Numerics: F(2x2) only adds and subtracts (error within a few ulps of the
// direct sum); F(4x4) scales by up to 8 in its transforms, so its error is a few times larger
// (points chosen for accuracy, below), still far inside the 1e-4 accuracy budget.
// F(4x4) is used when both output sides are >= kTile4MinSide: there its tiles waste little
// and its packed weights (36/9 of the direct kernel's, against 16/9) are reused over enough
// tiles. ResNet's 14x14x256 layers stay on F(2x2): inside a network their 9 MB of F(4x4)
// weights come from memory on every call, which cost more than the saved multiplications.
#include "gemm_ukernel.h"
#include "portable.h"

#include <algorithm>
#include <cstring>

#ifndef EMBARK_WINOGRAD_MAX_TILE
#  define EMBARK_WINOGRAD_MAX_TILE 4 // -DEMBARK_WINOGRAD_MAX_TILE=2 keeps F(2x2, 3x3) everywhere
#endif

namespace embark::portable::detail {

namespace {

constexpr int MR = kTilePixels;
constexpr int NR = kTileChannels;
constexpr int kTile4MinSide = 16;

// Scratch per thread for V and M of one block of tiles, bounded so that the block's working
// set stays in the caches (and small boards do not pay megabytes for it).
constexpr size_t kScratchBytes = size_t(2) << 20;
// Transformed weights up to this size stay in a core's L2 between the parts of a layer.
constexpr size_t kCachedWeightsBytes = 768 * 1024;
// Panels of weights streamed from memory are prefetched while the previous one runs when the
// two fit in half of a 32 KB L1 each (prefetches land in L1 on some cores: a larger next panel
// evicts the current one, which is slower than no prefetch on ResNet's 14x14x256 layers).
constexpr size_t kPrefetchedPanelBytes = 16 * 1024;

#if defined(__clang__)
#  define EMBARK_INDEPENDENT_ITERATIONS _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#  define EMBARK_INDEPENDENT_ITERATIONS _Pragma("GCC ivdep")
#else
#  define EMBARK_INDEPENDENT_ITERATIONS
#endif
// Fixed-size loops inside a vectorized channel loop must be unrolled first.
#if defined(__clang__)
#  define EMBARK_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#  define EMBARK_UNROLL _Pragma("GCC unroll 8")
#else
#  define EMBARK_UNROLL
#endif

// The 1-D transforms of F(MxM, 3x3), written out: a product by a zero coefficient cannot be
// folded away without -ffast-math, so no matrix loops here.
template <int M>
struct Transforms;

template <>
struct Transforms<2> {
    static constexpr int kAlpha = 4;
    // B^T rows: [1 0 -1 0], [0 1 1 0], [0 -1 1 0], [0 1 0 -1]
    static inline void input(const float* d, float* r) {
        r[0] = d[0] - d[2];
        r[1] = d[1] + d[2];
        r[2] = d[2] - d[1];
        r[3] = d[1] - d[3];
    }
    // A^T rows: [1 1 1 0], [0 1 -1 -1]
    static inline void output(const float* m, float* o) {
        o[0] = m[0] + m[1] + m[2];
        o[1] = m[1] - m[2] - m[3];
    }
    static constexpr double G[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
};

// Interpolation points 0, 1, -1, 2, -1/2 (and infinity) rather than Lavin's 0, +-1, +-2: the
// same cost in the GEMMs, a few more additions in the transforms, and 2-3x less rounding error
// (mean 1.1e-6 against 2.7e-6 relative on 64-channel random tiles, simulated in float32; see
// Barabasz et al., "Error analysis and improving the accuracy of Winograd convolution", 2020).
// Derived with exact fractions and checked (A^T[(G g) . (B^T d)] = d * g for all d and g).
template <>
struct Transforms<4> {
    static constexpr int kAlpha = 6;
    // B^T rows: [1 3/2 -2 -3/2 1 0], [0 -1 -5/2 -1/2 1 0], [0 1 1/2 -5/2 1 0],
    //           [0 -1/2 -1 1/2 1 0], [0 2 -1 -2 1 0], [0 1 3/2 -2 -3/2 1]
    static inline void input(const float* d, float* r) {
        r[0] = d[0] + 1.5f * d[1] - 2.f * d[2] - 1.5f * d[3] + d[4];
        r[1] = d[4] - d[1] - 2.5f * d[2] - 0.5f * d[3];
        r[2] = d[4] + d[1] + 0.5f * d[2] - 2.5f * d[3];
        r[3] = d[4] - d[2] + 0.5f * (d[3] - d[1]);
        r[4] = d[4] - d[2] + 2.f * (d[1] - d[3]);
        r[5] = d[5] + d[1] + 1.5f * d[2] - 2.f * d[3] - 1.5f * d[4];
    }
    // A^T rows: [1 1 1 1 1 0], [0 1 -1 2 -1/2 0], [0 1 1 4 1/4 0], [0 1 -1 8 -1/8 1]
    static inline void output(const float* m, float* o) {
        const float s12 = m[1] + m[2], d12 = m[1] - m[2];
        o[0] = m[0] + s12 + m[3] + m[4];
        o[1] = d12 + 2.f * m[3] - 0.5f * m[4];
        o[2] = s12 + 4.f * m[3] + 0.25f * m[4];
        o[3] = d12 + 8.f * m[3] - 0.125f * m[4] + m[5];
    }
    static constexpr double G[6][3] = {{1, 0, 0},
                                       {-1.0 / 3, -1.0 / 3, -1.0 / 3},
                                       {1.0 / 3, -1.0 / 3, 1.0 / 3},
                                       {1.0 / 15, 2.0 / 15, 4.0 / 15},
                                       {-16.0 / 15, 8.0 / 15, -4.0 / 15},
                                       {0, 0, 1}};
};

// Floats between two positions' rows in V or M: a block's rows plus one cache line, so the
// (M+2)^2 streams that the transforms read or write at once never sit a multiple of 4 KiB
// apart (they would all fall into the same L1 set and evict each other).
size_t position_stride(int count, int row) { return (static_cast<size_t>(count) * row + 15) / 16 * 16 + 16; }

struct Geometry {
    int m = 2;          // output tile side
    int alpha = 4;      // input tile side, m + 2
    int positions = 16; // alpha^2
    int tiles_h = 0, tiles_w = 0, panels = 0;
    int padded_cout = 0; // panels * NR: M's row length, so every panel stores a full tile
    int64_t tiles = 0;
    int block = 0; // tiles per block
};

Geometry geometry(const Conv2D& op) {
    Geometry g;
    g.m = op.winograd_tile;
    g.alpha = g.m + 2;
    g.positions = g.alpha * g.alpha;
    g.tiles_h = (op.out_h + g.m - 1) / g.m;
    g.tiles_w = (op.out_w + g.m - 1) / g.m;
    g.tiles = static_cast<int64_t>(op.shape.batch) * g.tiles_h * g.tiles_w;
    g.panels = ceil_div(op.shape.out_c, NR);
    g.padded_cout = g.panels * NR;
    const size_t per_tile = sizeof(float) * g.positions * (op.shape.in_c + g.padded_cout);
    const int fit = static_cast<int>(std::max<size_t>(1, kScratchBytes / per_tile));
    g.block = std::max(MR, fit / MR * MR);
    return g;
}

// V[xi][b][c] for tile `tile` of the layer (b = its index in the block), all input channels.
template <int M>
void transform_input(const Conv2D& op, const Geometry& g, const float* input, int64_t tile, int b, size_t xi_stride,
                     float* v) {
    constexpr int A = Transforms<M>::kAlpha;
    const Conv2DShape& s = op.shape;
    const int cin = s.in_c;
    const int64_t per_image = static_cast<int64_t>(g.tiles_h) * g.tiles_w;
    const int n = static_cast<int>(tile / per_image);
    const int ty = static_cast<int>(tile % per_image / g.tiles_w), tx = static_cast<int>(tile % g.tiles_w);
    const float* d[A][A];
    for (int i = 0; i < A; ++i)
        for (int j = 0; j < A; ++j) {
            const int iy = M * ty - s.pad_top + i, ix = M * tx - s.pad_left + j;
            d[i][j] = (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w)
                          ? op.zero.data()
                          : input + ((static_cast<int64_t>(n) * s.in_h + iy) * s.in_w + ix) * cin;
        }
    float* out = v + static_cast<size_t>(b) * cin;
    EMBARK_INDEPENDENT_ITERATIONS
    for (int c = 0; c < cin; ++c) {
        // Columns first: t = B^T d; then rows: V = t B.
        float t[A][A];
        EMBARK_UNROLL
        for (int j = 0; j < A; ++j) {
            float col[A], r[A];
            EMBARK_UNROLL
            for (int i = 0; i < A; ++i) col[i] = d[i][j][c];
            Transforms<M>::input(col, r);
            EMBARK_UNROLL
            for (int i = 0; i < A; ++i) t[i][j] = r[i];
        }
        EMBARK_UNROLL
        for (int i = 0; i < A; ++i) {
            float r[A];
            Transforms<M>::input(t[i], r);
            EMBARK_UNROLL
            for (int k = 0; k < A; ++k) out[(A * i + k) * xi_stride + c] = r[k];
        }
    }
}

// Y = A^T M A + bias for one tile, then the activation, for channels [c_begin, c_end); output
// pixels beyond the layer's edge are not written.
template <int M>
void transform_output(const Conv2D& op, const Geometry& g, const float* m, int64_t tile, int b, size_t xi_stride,
                      const float* bias, float* output, int c_begin, int c_end) {
    constexpr int A = Transforms<M>::kAlpha;
    const int64_t cout = op.out_pixel_stride();
    const int64_t per_image = static_cast<int64_t>(g.tiles_h) * g.tiles_w;
    const int n = static_cast<int>(tile / per_image);
    const int oy = M * static_cast<int>(tile % per_image / g.tiles_w), ox = M * static_cast<int>(tile % g.tiles_w);
    const float* in = m + static_cast<size_t>(b) * g.padded_cout;
    float* y[M][M];
    EMBARK_UNROLL
    for (int i = 0; i < M; ++i) EMBARK_UNROLL
    for (int j = 0; j < M; ++j) {
        const bool inside = oy + i < op.out_h && ox + j < op.out_w;
        y[i][j] =
            inside ? output + ((static_cast<int64_t>(n) * op.out_h + oy + i) * op.out_w + ox + j) * cout : nullptr;
    }
    float edge[M * M][NR * 4]; // pixels past the edge (sizes not a multiple of M) land here
    for (int c0 = c_begin; c0 < c_end; c0 += NR * 4) {
        const int width = std::min(NR * 4, c_end - c0);
        float* dst[M][M];
        EMBARK_UNROLL
        for (int i = 0; i < M; ++i) EMBARK_UNROLL
        for (int j = 0; j < M; ++j) dst[i][j] = y[i][j] ? y[i][j] + c0 : edge[M * i + j];
        EMBARK_INDEPENDENT_ITERATIONS
        for (int c = 0; c < width; ++c) {
            // Columns first: r = A^T M (r[j][k] is row k of column j); then rows: Y = r A.
            float r[A][M];
            EMBARK_UNROLL
            for (int j = 0; j < A; ++j) {
                float col[A];
                EMBARK_UNROLL
                for (int i = 0; i < A; ++i) col[i] = in[(A * i + j) * xi_stride + c0 + c];
                Transforms<M>::output(col, r[j]);
            }
            const float bc = bias[c0 + c];
            EMBARK_UNROLL
            for (int k = 0; k < M; ++k) {
                float row[A], o[M];
                EMBARK_UNROLL
                for (int j = 0; j < A; ++j) row[j] = r[j][k];
                Transforms<M>::output(row, o);
                EMBARK_UNROLL
                for (int l = 0; l < M; ++l) dst[k][l][c] = o[l] + bc;
            }
        }
        if (op.act.kind != Act::None)
            for (int i = 0; i < M; ++i)
                for (int j = 0; j < M; ++j)
                    if (y[i][j]) apply_activation(op.act, dst[i][j], static_cast<size_t>(width));
    }
}

// Tiles [first, first + count) for output-channel panels [p_begin, p_end).
template <int M>
void run_block(const Conv2D& op, const Geometry& g, const float* input, float* output, int64_t first, int count,
               int p_begin, int p_end, float* scratch) {
    const int cin = op.shape.in_c;
    const size_t v_stride = position_stride(count, cin), m_stride = position_stride(count, g.padded_cout);
    float* v = scratch;
    float* m = scratch + static_cast<size_t>(g.positions) * v_stride;
    for (int b = 0; b < count; ++b) transform_input<M>(op, g, input, first + b, b, v_stride, v);

    const float* packed = op.packed.data();
    const float* zero_bias = op.zero_bias.data();
    const size_t panel_size = static_cast<size_t>(cin) * NR;
    const int panel_lines = static_cast<int>(panel_size * sizeof(float) / 64);
    const bool prefetch =
        op.packed.size() * sizeof(float) > kCachedWeightsBytes && panel_size * sizeof(float) <= kPrefetchedPanelBytes;
    const Activation none;
    for (int xi = 0; xi < g.positions; ++xi) {
        const float* vx = v + static_cast<size_t>(xi) * v_stride;
        float* mx = m + static_cast<size_t>(xi) * m_stride;
        for (int p = p_begin; p < p_end; ++p) {
            const float* w = packed + (static_cast<size_t>(xi) * g.panels + p) * panel_size;
            // The panel this loop reads next (the next position's first one after the last
            // panel), fetched a share per register tile while this panel's tiles run: else the
            // first tile on a panel waits for it from memory, several times as long as the next
            // ones take where the weights do not stay cached (ResNet-18's 28x28x128: 2.4 MB).
            const float* next = nullptr;
            if (prefetch)
                next = p + 1 < p_end          ? w + panel_size
                       : xi + 1 < g.positions ? packed + (static_cast<size_t>(xi + 1) * g.panels + p_begin) * panel_size
                                              : nullptr;
            const int share = ceil_div(panel_lines, ceil_div(count, MR));
            for (int b = 0, tile = 0; b < count; b += MR, ++tile) {
                const int m_valid = std::min(MR, count - b);
                const float* rows[MR];
                for (int r = 0; r < MR; ++r) rows[r] = vx + static_cast<size_t>(b + std::min(r, m_valid - 1)) * cin;
                float* c = mx + static_cast<size_t>(b) * g.padded_cout + p * NR;
                const int first_line = std::min(panel_lines, tile * share);
                if (next)
                    gemm_tile_any<NR, true>(m_valid, 1, cin, rows, MR, 0, w, zero_bias, c, g.padded_cout, NR, none,
                                            reinterpret_cast<const char*>(next) + static_cast<size_t>(first_line) * 64,
                                            std::min(share, panel_lines - first_line));
                else
                    gemm_tile_any<NR>(m_valid, 1, cin, rows, MR, 0, w, zero_bias, c, g.padded_cout, NR, none);
            }
        }
    }
    const float* bias = packed + op.bias_offset;
    const int c_begin = p_begin * NR, c_end = std::min(op.shape.out_c, p_end * NR);
    for (int b = 0; b < count; ++b) transform_output<M>(op, g, m, first + b, b, m_stride, bias, output, c_begin, c_end);
}

void run_block_any(const Conv2D& op, const Geometry& g, const float* input, float* output, int64_t first, int count,
                   int p_begin, int p_end, float* scratch) {
    if (g.m == 4)
        run_block<4>(op, g, input, output, first, count, p_begin, p_end, scratch);
    else
        run_block<2>(op, g, input, output, first, count, p_begin, p_end, scratch);
}

template <int M>
void pack_filters(Conv2D& op, const float* weights, const float* bias) {
    constexpr int A = Transforms<M>::kAlpha;
    const auto& G = Transforms<M>::G;
    const int cin = op.shape.in_c, cout = op.shape.out_c;
    const int panels = ceil_div(cout, NR);
    const size_t panel_size = static_cast<size_t>(cin) * NR;
    op.bias_offset = static_cast<size_t>(A * A) * panels * panel_size;
    op.packed = AlignedBuffer(op.bias_offset + static_cast<size_t>(panels) * NR);
    op.zero_bias = AlignedBuffer(NR);
    float* out = op.packed.data();
    for (int co = 0; co < cout; ++co) {
        const int p = co / NR, lane = co % NR;
        out[op.bias_offset + co] = bias ? bias[co] : 0.f;
        for (int ci = 0; ci < cin; ++ci) {
            const float* f = weights + (static_cast<size_t>(co) * cin + ci) * 9;
            double gf[A][3]; // G g
            for (int i = 0; i < A; ++i)
                for (int j = 0; j < 3; ++j) gf[i][j] = G[i][0] * f[j] + G[i][1] * f[3 + j] + G[i][2] * f[6 + j];
            for (int i = 0; i < A; ++i)
                for (int j = 0; j < A; ++j) {
                    const double u = gf[i][0] * G[j][0] + gf[i][1] * G[j][1] + gf[i][2] * G[j][2];
                    out[(static_cast<size_t>(A * i + j) * panels + p) * panel_size + static_cast<size_t>(ci) * NR +
                        lane] = static_cast<float>(u);
                }
        }
    }
}

} // namespace

bool winograd_applies(const Conv2DShape& s) {
    return s.kernel_h == 3 && s.kernel_w == 3 && s.stride_h == 1 && s.stride_w == 1 && s.dilation_h == 1 &&
           s.dilation_w == 1 && s.groups == 1 && s.in_c >= 8 && s.out_c >= 8 &&
           static_cast<int64_t>(s.batch) * s.out_h() * s.out_w() >= 64;
}

void pack_winograd(Conv2D& op, const float* weights, const float* bias) {
    op.winograd_tile = EMBARK_WINOGRAD_MAX_TILE >= 4 && op.out_h >= kTile4MinSide && op.out_w >= kTile4MinSide ? 4 : 2;
    if (op.winograd_tile == 4)
        pack_filters<4>(op, weights, bias);
    else
        pack_filters<2>(op, weights, bias);
}

void run_winograd(const Conv2D& op, const float* input, float* output, ThreadPool* pool) {
    const Geometry g = geometry(op);
    const size_t scratch_floats = static_cast<size_t>(g.positions) *
                                  (position_stride(g.block, op.shape.in_c) + position_stride(g.block, g.padded_cout));
    const int threads = pool ? pool->threads() : 1;
    if (threads > 1 && g.tiles <= g.block && g.panels >= 2 * threads && (g.m == 2 || g.tiles < 2 * MR * threads)) {
        // The whole layer is one block (small images, many channels: ResNet's 14x14x256):
        // split the output channels, so each thread streams only its share of the transformed
        // weights (4 MB there) instead of all of them, and its GEMMs keep every tile row; the
        // input transform is repeated. F(4x4)'s heavier input transform makes that a loss when
        // each thread would still have two register tiles of rows (ResNet-18's 28x28x128), so
        // then the tiles are split.
        parallel_for(pool, threads, [&](int64_t begin, int64_t end) {
            float* scratch = thread_scratch(scratch_floats);
            for (int64_t part = begin; part < end; ++part)
                run_block_any(op, g, input, output, 0, static_cast<int>(g.tiles),
                              static_cast<int>(g.panels * part / threads),
                              static_cast<int>(g.panels * (part + 1) / threads), scratch);
        });
        return;
    }
    // Parts of whole register tiles (MR Winograd tiles), each processed in blocks. Every part
    // streams all the transformed weights once more, so there are many (for load balance)
    // only when those stay in cache or each part keeps many register tiles.
    const int64_t groups = (g.tiles + MR - 1) / MR;
    const int parts = streamed_weight_parts(op.packed.size() * sizeof(float), kCachedWeightsBytes, groups, 8, threads);
    const int64_t unit = parts > 1 ? MR : 1; // one part per thread: near-equal tile counts
    parallel_for(
        threads > 1 ? pool : nullptr, parts > 1 ? groups : g.tiles,
        [&](int64_t begin, int64_t end) {
            float* scratch = thread_scratch(scratch_floats);
            const int64_t last = std::min(g.tiles, end * unit);
            for (int64_t t = begin * unit; t < last; t += g.block)
                run_block_any(op, g, input, output, t, static_cast<int>(std::min<int64_t>(g.block, last - t)), 0,
                              g.panels, scratch);
        },
        parts);
}

} // namespace embark::portable::detail

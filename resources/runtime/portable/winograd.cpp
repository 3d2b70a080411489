// 3x3 stride-1 convolution by Winograd's minimal filtering F(2x2, 3x3) (Lavin & Gray 2015):
// each 2x2 block of output pixels ("a tile") costs 16 multiplications per input channel and
// output channel instead of 36, i.e. 2.25x fewer multiply-adds than the direct kernel.
//
//   V = B^T d B     (input tile d: 4x4 pixels, all input channels)
//   U = G g G^T     (filter g: 3x3, packed once)
//   M[xi] = V[xi] x U[xi]    for each of the 16 positions xi: a GEMM over channels, run by the
//                            same register tile as the direct convolution (gemm_ukernel.h)
//   Y = A^T M A + bias       (2x2 output pixels), then the fused activation
//
// Tiles are processed in blocks so that V and M of a block stay in a per-thread scratch of a
// bounded size. Numerics: the transforms only add and subtract (and G halves), so the error
// stays within a few ulps of the direct sum (max |diff| ~1e-6 relative on ResNet layers).
#include "gemm_ukernel.h"
#include "portable.h"

#include <algorithm>
#include <cstring>

namespace embark::portable::detail {

namespace {

constexpr int MR = kTilePixels;
constexpr int NR = kTileChannels;
constexpr int kPositions = 16; // 4x4 transformed positions per tile

// Scratch per thread for V and M of one block of tiles, bounded so that the block's working
// set stays in the caches (and small boards do not pay megabytes for it).
constexpr size_t kScratchBytes = size_t(2) << 20;

#if defined(__clang__)
#  define EMBARK_INDEPENDENT_ITERATIONS _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#  define EMBARK_INDEPENDENT_ITERATIONS _Pragma("GCC ivdep")
#else
#  define EMBARK_INDEPENDENT_ITERATIONS
#endif

struct Geometry {
    int tiles_h = 0, tiles_w = 0, panels = 0;
    int padded_cout = 0; // panels * NR: M's row length, so every panel stores a full tile
    int64_t tiles = 0;
    int block = 0;       // tiles per block
};

Geometry geometry(const Conv2D& op) {
    Geometry g;
    g.tiles_h = (op.out_h + 1) / 2;
    g.tiles_w = (op.out_w + 1) / 2;
    g.tiles = static_cast<int64_t>(op.shape.batch) * g.tiles_h * g.tiles_w;
    g.panels = ceil_div(op.shape.out_c, NR);
    g.padded_cout = g.panels * NR;
    const size_t per_tile = sizeof(float) * kPositions * (op.shape.in_c + g.padded_cout);
    const int fit = static_cast<int>(std::max<size_t>(1, kScratchBytes / per_tile));
    g.block = std::max(MR, fit / MR * MR);
    return g;
}

// V[xi][b][c] for tile `tile` of the layer (b = its index in the block), all input channels.
void transform_input(const Conv2D& op, const Geometry& g, const float* input, int64_t tile, int b,
                     int block_tiles, float* v) {
    const Conv2DShape& s = op.shape;
    const int cin = s.in_c;
    const int64_t per_image = static_cast<int64_t>(g.tiles_h) * g.tiles_w;
    const int n = static_cast<int>(tile / per_image);
    const int ty = static_cast<int>(tile % per_image / g.tiles_w), tx = static_cast<int>(tile % g.tiles_w);
    const float* d[4][4];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            const int iy = 2 * ty - s.pad_top + i, ix = 2 * tx - s.pad_left + j;
            d[i][j] = (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w)
                          ? op.zero.data()
                          : input + ((static_cast<int64_t>(n) * s.in_h + iy) * s.in_w + ix) * cin;
        }
    const size_t xi_stride = static_cast<size_t>(block_tiles) * cin;
    float* out = v + static_cast<size_t>(b) * cin;
    EMBARK_INDEPENDENT_ITERATIONS
    for (int c = 0; c < cin; ++c) {
        // Columns first: t = B^T d (B^T rows: [1 0 -1 0], [0 1 1 0], [0 -1 1 0], [0 1 0 -1]).
        float t[4][4];
        for (int j = 0; j < 4; ++j) {
            const float d0 = d[0][j][c], d1 = d[1][j][c], d2 = d[2][j][c], d3 = d[3][j][c];
            t[0][j] = d0 - d2;
            t[1][j] = d1 + d2;
            t[2][j] = d2 - d1;
            t[3][j] = d1 - d3;
        }
        // Then rows: V = t B.
        for (int i = 0; i < 4; ++i) {
            out[(4 * i + 0) * xi_stride + c] = t[i][0] - t[i][2];
            out[(4 * i + 1) * xi_stride + c] = t[i][1] + t[i][2];
            out[(4 * i + 2) * xi_stride + c] = t[i][2] - t[i][1];
            out[(4 * i + 3) * xi_stride + c] = t[i][1] - t[i][3];
        }
    }
}

// Y = A^T M A + bias for one tile (A^T rows: [1 1 1 0], [0 1 -1 -1]), then the activation;
// output pixels beyond the layer's edge are not written.
void transform_output(const Conv2D& op, const Geometry& g, const float* m, int64_t tile, int b,
                      int block_tiles, const float* bias, float* output, int c_begin, int c_end) {
    const Conv2DShape& s = op.shape;
    const int cout = s.out_c;
    const int64_t per_image = static_cast<int64_t>(g.tiles_h) * g.tiles_w;
    const int n = static_cast<int>(tile / per_image);
    const int oy = 2 * static_cast<int>(tile % per_image / g.tiles_w), ox = 2 * static_cast<int>(tile % g.tiles_w);
    const size_t xi_stride = static_cast<size_t>(block_tiles) * g.padded_cout;
    const float* in = m + static_cast<size_t>(b) * g.padded_cout;
    float* y[2][2];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            // Pixels past the edge (odd output sizes) go to a row of the scratch past M.
            const bool inside = oy + i < op.out_h && ox + j < op.out_w;
            y[i][j] = inside ? output + ((static_cast<int64_t>(n) * op.out_h + oy + i) * op.out_w + ox + j) * cout
                             : nullptr;
        }
    float edge[4][NR * 4];
    for (int c0 = c_begin; c0 < c_end; c0 += NR * 4) {
        const int width = std::min(NR * 4, c_end - c0);
        float* dst[2][2];
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) dst[i][j] = y[i][j] ? y[i][j] + c0 : edge[2 * i + j];
        EMBARK_INDEPENDENT_ITERATIONS
        for (int c = 0; c < width; ++c) {
            float r[4][2];
            for (int j = 0; j < 4; ++j) {
                const float m0 = in[(0 + j) * xi_stride + c0 + c], m1 = in[(4 + j) * xi_stride + c0 + c];
                const float m2 = in[(8 + j) * xi_stride + c0 + c], m3 = in[(12 + j) * xi_stride + c0 + c];
                r[j][0] = m0 + m1 + m2;
                r[j][1] = m1 - m2 - m3;
            }
            const float bc = bias[c0 + c];
            dst[0][0][c] = r[0][0] + r[1][0] + r[2][0] + bc;
            dst[0][1][c] = r[1][0] - r[2][0] - r[3][0] + bc;
            dst[1][0][c] = r[0][1] + r[1][1] + r[2][1] + bc;
            dst[1][1][c] = r[1][1] - r[2][1] - r[3][1] + bc;
        }
        if (op.act.kind != Act::None)
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j)
                    if (y[i][j]) apply_activation(op.act, dst[i][j], static_cast<size_t>(width));
    }
}

// Tiles [first, first + count) for output-channel panels [p_begin, p_end).
void run_block(const Conv2D& op, const Geometry& g, const float* input, float* output,
               int64_t first, int count, int p_begin, int p_end, float* scratch) {
    const int cin = op.shape.in_c;
    float* v = scratch;
    float* m = scratch + static_cast<size_t>(kPositions) * count * cin;
    for (int b = 0; b < count; ++b) transform_input(op, g, input, first + b, b, count, v);

    const float* packed = op.packed.data();
    const float* zero_bias = op.zero_bias.data();
    const size_t panel_size = static_cast<size_t>(cin) * NR;
    const Activation none;
    for (int xi = 0; xi < kPositions; ++xi) {
        const float* vx = v + static_cast<size_t>(xi) * count * cin;
        float* mx = m + static_cast<size_t>(xi) * count * g.padded_cout;
        for (int p = p_begin; p < p_end; ++p) {
            const float* w = packed + (static_cast<size_t>(xi) * g.panels + p) * panel_size;
            for (int b = 0; b < count; b += MR) {
                const int m_valid = std::min(MR, count - b);
                const float* rows[MR];
                for (int r = 0; r < MR; ++r)
                    rows[r] = vx + static_cast<size_t>(b + std::min(r, m_valid - 1)) * cin;
                gemm_tile_any<NR>(m_valid, 1, cin, rows, MR, 0, w, zero_bias,
                                  mx + static_cast<size_t>(b) * g.padded_cout + p * NR, g.padded_cout,
                                  NR, none);
            }
        }
    }
    const float* bias = packed + op.bias_offset;
    const int c_begin = p_begin * NR, c_end = std::min(op.shape.out_c, p_end * NR);
    for (int b = 0; b < count; ++b) transform_output(op, g, m, first + b, b, count, bias, output, c_begin, c_end);
}

} // namespace

// Worth it from 8 channels and 64 output pixels: on a 7x7 512->512 layer (ResNet-18's last
// stage) the tile overhead and the 16/9 larger weights cancel the saved multiply-adds.
bool winograd_applies(const Conv2DShape& s) {
    return s.kernel_h == 3 && s.kernel_w == 3 && s.stride_h == 1 && s.stride_w == 1 &&
           s.dilation_h == 1 && s.dilation_w == 1 && s.groups == 1 && s.in_c >= 8 &&
           s.out_c >= 8 && static_cast<int64_t>(s.batch) * s.out_h() * s.out_w() >= 64;
}

void pack_winograd(Conv2D& op, const float* weights, const float* bias) {
    const int cin = op.shape.in_c, cout = op.shape.out_c;
    const int panels = ceil_div(cout, NR);
    const size_t panel_size = static_cast<size_t>(cin) * NR;
    op.bias_offset = static_cast<size_t>(kPositions) * panels * panel_size;
    op.packed = AlignedBuffer(op.bias_offset + static_cast<size_t>(panels) * NR);
    op.zero_bias = AlignedBuffer(NR);
    float* out = op.packed.data();
    // U = G g G^T with G rows [1 0 0], [1/2 1/2 1/2], [1/2 -1/2 1/2], [0 0 1], in double.
    static const double G[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
    for (int co = 0; co < cout; ++co) {
        const int p = co / NR, lane = co % NR;
        out[op.bias_offset + co] = bias ? bias[co] : 0.f;
        for (int ci = 0; ci < cin; ++ci) {
            const float* g = weights + (static_cast<size_t>(co) * cin + ci) * 9;
            double gg[4][3]; // G g
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 3; ++j)
                    gg[i][j] = G[i][0] * g[j] + G[i][1] * g[3 + j] + G[i][2] * g[6 + j];
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) {
                    const double u = gg[i][0] * G[j][0] + gg[i][1] * G[j][1] + gg[i][2] * G[j][2];
                    out[(static_cast<size_t>(4 * i + j) * panels + p) * panel_size +
                        static_cast<size_t>(ci) * NR + lane] = static_cast<float>(u);
                }
        }
    }
}

void run_winograd(const Conv2D& op, const float* input, float* output, ThreadPool* pool) {
    const Geometry g = geometry(op);
    const size_t scratch_floats = static_cast<size_t>(kPositions) * g.block * (op.shape.in_c + g.padded_cout);
    const int threads = pool ? pool->threads() : 1;
    if (threads > 1 && g.tiles <= g.block && g.panels >= 2 * threads) {
        // The whole layer is one block (small images, many channels: ResNet's 14x14x256):
        // split the output channels, so each thread streams only its share of the transformed
        // weights (4 MB there) instead of all of them; the cheap input transform is repeated.
        parallel_for(pool, threads, [&](int64_t begin, int64_t end) {
            float* scratch = thread_scratch(scratch_floats);
            for (int64_t part = begin; part < end; ++part)
                run_block(op, g, input, output, 0, static_cast<int>(g.tiles), static_cast<int>(g.panels * part / threads),
                          static_cast<int>(g.panels * (part + 1) / threads), scratch);
        });
        return;
    }
    // Near-equal shares of whole tiles per thread, each processed in blocks.
    parallel_for(threads > 1 ? pool : nullptr, std::min<int64_t>(threads, g.tiles),
                 [&](int64_t begin, int64_t end) {
        float* scratch = thread_scratch(scratch_floats);
        const int64_t parts = std::min<int64_t>(threads, g.tiles);
        for (int64_t part = begin; part < end; ++part) {
            const int64_t first = g.tiles * part / parts, last = g.tiles * (part + 1) / parts;
            for (int64_t t = first; t < last; t += g.block)
                run_block(op, g, input, output, t, static_cast<int>(std::min<int64_t>(g.block, last - t)), 0, g.panels,
                          scratch);
        }
    });
}

} // namespace embark::portable::detail

// Embark's generic portable kernels: the long tail of ops (data movement, normalisation,
// reductions, softmax, resize, batched MatMul, extra element-wise functions) on float32
// tensors of any rank <= 8, row-major in whatever layout the emitter chose. Standalone C++17.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "recurrent.h" // LSTM, GRU, RNN

namespace embark::generic {

constexpr int kMaxRank = 8;

struct Shape {
    int rank = 0;
    int64_t d[kMaxRank] = {};
    int64_t count() const {
        int64_t n = 1;
        for (int i = 0; i < rank; ++i) n *= d[i];
        return n;
    }
};

// out[perm-order] = in; out dims = in dims permuted (out.d[i] = in.d[perm[i]]).
void transpose(const float* in, const Shape& inShape, const int* perm, float* out);

// Concatenates `count` inputs along `axis` (all other dims equal).
void concat(const float* const* inputs, const Shape* shapes, int count, int axis, float* out);

// Strided copy: out[i...] = in[start + i * step ...] per axis; outShape gives the count per axis.
void slice(const float* in, const Shape& inShape, const int64_t* starts, const int64_t* steps, const Shape& outShape,
           float* out);

// out = data gathered along `axis` by indices (already normalised to [0, dim)).
void gather(const float* data, const Shape& dataShape, int axis, const int64_t* indices, int64_t indexCount,
            float* out);

enum class PadMode { Constant, Reflect, Edge, Wrap };
// Input index of output index o along an axis of input size n padded by `before` (ONNX Pad);
// false for a Constant pad (or an empty axis).
bool padSource(int64_t o, int64_t before, int64_t n, PadMode mode, int64_t& i);
// pads: begin[rank] then end[rank] (may be negative = crop).
void pad(const float* in, const Shape& inShape, const int64_t* pads, PadMode mode, float value, const Shape& outShape,
         float* out);

// Broadcasts `in` to outShape (numpy rules, right-aligned) — Expand.
void broadcastTo(const float* in, const Shape& inShape, const Shape& outShape, float* out);
// Tile: out.d[i] = in.d[i] * repeats[i].
void tile(const float* in, const Shape& inShape, const Shape& outShape, float* out);

// Resize with per-axis input coordinates precomputed by the emitter as (index, weight) lists:
// for each axis, for each output index o, `taps` entries of (input index, weight). Nearest
// uses one tap of weight 1; linear two; cubic four. Separable, applied axis by axis.
struct ResizeAxis {
    int taps = 1;
    std::vector<int64_t> index; // [outDim * taps]
    std::vector<float> weight;  // [outDim * taps]
};
// Axes with an empty index list are left as they are. `scratch` holds
// resizeScratchFloats(in, out) floats.
void resize(const float* in, const Shape& inShape, const ResizeAxis* axes, const Shape& outShape, float* out,
            float* scratch);
int64_t resizeScratchFloats(const Shape& inShape, const Shape& outShape);

// Softmax / LogSoftmax over the middle dim of [outer][axisLen][inner].
void softmax(const float* in, int64_t outer, int64_t axisLen, int64_t inner, bool log, float* out);

enum class ReduceOp { Sum, Mean, Max, Min, Prod, SumSquare, L1, L2, LogSumExp, LogSum };
// Reduces the axes with reduce[axis] != 0; out has the kept dims (keepdims is a reshape).
void reduce(ReduceOp op, const float* in, const Shape& inShape, const bool* reduceAxes, float* out);

// Batched matrix product with numpy broadcasting over the leading dims: a [.., M, K],
// b [.., K, N] -> out [.., M, N]. Output rows [rowBegin, rowEnd) of the batch x M rows only
// (rowEnd < 0: all), so callers can split one product across threads; matmulRows counts them
// and matmulMacs gives the multiply-adds of the whole product.
void matmul(const float* a, const Shape& aShape, const float* b, const Shape& bShape, float* out, int64_t rowBegin = 0,
            int64_t rowEnd = -1);
int64_t matmulRows(const Shape& aShape, const Shape& bShape);
int64_t matmulMacs(const Shape& aShape, const Shape& bShape);

// y = x * scale[c] + shift[c] with c the dim at `axis` (BatchNormalization at inference,
// after the emitter computed scale/shift).
void channelAffine(const float* x, const Shape& shape, int axis, const float* scale, const float* shift, float* y);

// InstanceNormalization on [N][C][spatial...] (NCHW) or with channels last.
void instanceNorm(const float* x, int64_t n, int64_t c, int64_t spatial, bool channelsLast, const float* scale,
                  const float* bias, float epsilon, float* y);
// LayerNormalization over the trailing `inner` elements of each of `outer` rows.
void layerNorm(const float* x, int64_t outer, int64_t inner, const float* scale, const float* bias, float epsilon,
               float* y);
// LRN across channels of NCHW (or channels-last) data.
void lrn(const float* x, int64_t n, int64_t c, int64_t spatial, bool channelsLast, int size, float alpha, float beta,
         float bias, float* y);

enum class Unary {
    Log,
    Floor,
    Ceil,
    Round,
    Sign,
    Reciprocal,
    Sin,
    Cos,
    Softplus,
    Softsign,
    Selu,
    Mish,
    Identity,
    // issue 31; ThresholdedRelu and Celu take alpha, Shrink alpha = lambd and gamma = bias
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
    ThresholdedRelu,
    Shrink,
    Celu,
};
void unary(Unary op, const float* x, float* y, int64_t count, float alpha = 0, float gamma = 0);

enum class Binary { PRelu, Mod, FMod };
void binary(Binary op, const float* a, const Shape& aShape, const float* b, const Shape& bShape, float* out,
            const Shape& outShape);

void copy(const float* in, float* out, int64_t count);

// Direct N-D convolution (1 to 3 spatial dims) in the model's layout [N][C][spatial...], for
// the shapes the fast NHWC kernels do not take. pads: begin[spatial] then end[spatial].
struct ConvNd {
    int spatial = 2;
    int64_t batch = 1, inC = 1, outC = 1, groups = 1;
    int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, kernel[3] = {1, 1, 1};
    int64_t stride[3] = {1, 1, 1}, dilation[3] = {1, 1, 1}, pads[6] = {};
};
// weights [outC][inC/groups][kernel...]; bias may be null.
void convNd(const ConvNd& p, const float* x, const float* w, const float* bias, float* y);
// ConvTranspose: weights [inC][outC/groups][kernel...].
void convTransposeNd(const ConvNd& p, const float* x, const float* w, const float* bias, float* y);

// The flat offset, in a tensor of spatial dims `extent`, that kernel tap `tap` reaches from
// position `pos` (p's strides, leading pads and dilations); false where it falls in the padding.
inline bool convTapOffset(const ConvNd& p, const int64_t* pos, int64_t tap, const int64_t* extent, int64_t& off) {
    int64_t k[3] = {0, 0, 0};
    for (int a = p.spatial - 1; a >= 0; --a) {
        k[a] = tap % p.kernel[a];
        tap /= p.kernel[a];
    }
    off = 0;
    for (int a = 0; a < p.spatial; ++a) {
        const int64_t i = pos[a] * p.stride[a] - p.pads[a] + k[a] * p.dilation[a];
        if (i < 0 || i >= extent[a]) return false;
        off = off * extent[a] + i;
    }
    return true;
}
// Visits every position of spatial dims `dims` (p.spatial of them) as (flat index, coordinates).
template <typename Fn>
void forEachPosition(const ConvNd& p, const int64_t* dims, Fn fn) {
    int64_t pos[3] = {0, 0, 0};
    int64_t total = 1;
    for (int i = 0; i < p.spatial; ++i) total *= dims[i];
    for (int64_t o = 0; o < total; ++o) {
        fn(o, pos);
        for (int a = p.spatial - 1; a >= 0; --a) {
            if (++pos[a] < dims[a]) break;
            pos[a] = 0;
        }
    }
}

// Pooling in the model's layout over 1 to 3 spatial dims (max or average).
void poolNd(const ConvNd& p, bool isMax, bool countIncludePad, const float* x, float* y);

// --- indexing, scatter, selection, einsum and signal kernels (generic_index.cpp, issue 31)

// out[i] = in[index[i]], or 0 where index[i] < 0 (GatherElements, GatherND and Trilu, whose
// element positions the emitter computes from constant indices).
void gatherFlat(const float* in, const int64_t* index, int64_t count, float* out);

enum class ScatterReduce { None, Add, Mul, Max, Min };
// out = data (dataCount floats), then for each i < count and k < block:
// out[dst[i] + k] (reduce)= updates[i * block + k], in order (ScatterND, ScatterElements).
void scatterFlat(const float* data, int64_t dataCount, const float* updates, const int64_t* dst, int64_t count,
                 int64_t block, ScatterReduce reduce, float* out);

// Losses of log-probabilities: loss[i] = -logp[pos[i]] * weight[i] (0 where pos[i] < 0);
// reduction 0 writes every loss, 1 their sum, 2 their sum over the sum of the weights.
void weightedLoss(const float* logp, const int64_t* pos, const float* weight, int64_t count, int reduction, float* out);

// Determinants of `batch` row-major m x m matrices (Gaussian elimination, partial pivoting).
void det(const float* in, int64_t batch, int64_t m, float* out);
// MeanVarianceNormalization: (x - mean) / (std + 1e-9), mean and std over the elements that
// share a slot (slot[i] in [0, slots): element i's coordinates on the kept axes).
void meanVarianceNorm(const float* in, int64_t count, const int64_t* slot, int64_t slots, float* out);

// CumSum over the middle dim of [outer][len][inner].
void cumsum(const float* in, int64_t outer, int64_t len, int64_t inner, bool exclusive, bool reverse, float* out);
// OneHot of run-time indices (as floats, [outer][inner]) into [outer][depth][inner].
void oneHot(const float* indices, int64_t outer, int64_t inner, int64_t depth, float off, float on, float* out);
// Hardmax over the middle dim of [outer][len][inner]: 1 at the first maximum, else 0.
void hardmax(const float* in, int64_t outer, int64_t len, int64_t inner, float* out);
// EyeLike: rows x cols, ones on diagonal k.
void eye(int64_t rows, int64_t cols, int64_t k, float* out);

// General Einsum as one loop nest: `loops` label sizes, output labels first (row-major
// output), then the summed ones; stride[op][l] is operand op's stride for label l.
constexpr int kMaxEinsumLabels = 16;
struct EinsumPlan {
    int operands = 0, loops = 0, outLoops = 0;
    int64_t size[kMaxEinsumLabels] = {};
    int64_t stride[3][kMaxEinsumLabels] = {};
};
void einsum(const EinsumPlan& plan, const float* const* in, float* out);

// GridSample on NCHW X [n][c][h][w] with grid [n][ho][wo][2]; mode 0 bilinear, 1 nearest,
// 2 bicubic; padding 0 zeros, 1 border, 2 reflection.
struct GridSampleParams {
    int64_t n = 1, c = 1, h = 1, w = 1, ho = 1, wo = 1;
    int mode = 0, padding = 0;
    bool alignCorners = false;
};
void gridSample(const GridSampleParams& p, const float* x, const float* grid, float* y);

// RoiAlign on NCHW X; rois [count][4] (x1, y1, x2, y2), one batch index per roi.
struct RoiAlignParams {
    int64_t n = 1, c = 1, h = 1, w = 1, rois = 0, outH = 1, outW = 1, samplingRatio = 0;
    float spatialScale = 1.f;
    bool halfPixel = true, max = false;
};
void roiAlign(const RoiAlignParams& p, const float* x, const float* rois, const int64_t* batchIndices, float* y);

// DFT along the middle dim of [outer][len][inner][1 or 2] into [outer][outLen][inner][2]
// (the input zero-padded or cut to dftLength; the inverse divided by dftLength).
void dft(const float* in, int64_t outer, int64_t len, int64_t inner, bool complexIn, int64_t dftLength, int64_t outLen,
         bool inverse, float* out);
// STFT of [batch][length][1 or 2] into [batch][frames][bins][2]; window may be null.
void stft(const float* signal, int64_t batch, int64_t length, bool complexIn, int64_t step, const float* window,
          int64_t frame, int64_t bins, float* out);

// LayerNormalization's Mean and InvStdDev outputs (stash_type float32): per row of `inner`
// elements, computed as layerNorm computes them; either pointer may be null.
void layerNormStats(const float* x, int64_t outer, int64_t inner, float epsilon, float* mean, float* invStdDev);

} // namespace embark::generic

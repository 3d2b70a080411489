// Straightforward loops over precomputed strides; the long-tail ops are rarely hot, so
// clarity wins over tiling here (the hot ops live in the portable/ and xnnpack/ runtimes).
#include "generic.h"
#include "typed.h"
#include "vmath.h" // the portable runtime's vectorizable exp (an export has both folders in kernels/portable)

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace embark::generic {
namespace {

void stridesOf(const Shape& s, int64_t* strides) {
    int64_t acc = 1;
    for (int i = s.rank - 1; i >= 0; --i) {
        strides[i] = acc;
        acc *= s.d[i];
    }
}

// Sums, maxima and minima of a float row in 16 independent lanes (a loop that vectorizes
// without reassociating one scalar chain), the lanes of each block of kLaneBlock values added
// into a double, so a long row keeps the double accumulation's precision.
constexpr int kLanes = 16;
constexpr int64_t kLaneBlock = 4096;

// The sum of term(x[i]) over a row.
template <typename Term>
double laneSum(const float* x, int64_t n, Term term) {
    double total = 0;
    for (int64_t b = 0; b < n; b += kLaneBlock) {
        const int64_t e = std::min(n, b + kLaneBlock);
        float lanes[kLanes] = {};
        int64_t i = b;
        for (; i + kLanes <= e; i += kLanes)
            for (int l = 0; l < kLanes; ++l) lanes[l] += term(x[i + l]);
        float tail = 0.f;
        for (; i < e; ++i) tail += term(x[i]);
        double block = tail;
        for (int l = 0; l < kLanes; ++l) block += lanes[l];
        total += block;
    }
    return total;
}

double sumFloats(const float* x, int64_t n) {
    return laneSum(x, n, [](float v) { return v; });
}

// Sum of (x - mean)^2 over a row, in the lanes of sumFloats.
double sumSquaredDeviations(const float* x, int64_t n, float mean) {
    return laneSum(x, n, [mean](float v) {
        const float d = v - mean;
        return d * d;
    });
}

template <bool kMax>
float extremeFloats(const float* x, int64_t n) {
    float lanes[kLanes];
    std::fill(lanes, lanes + kLanes, kMax ? -INFINITY : INFINITY);
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int l = 0; l < kLanes; ++l) lanes[l] = kMax ? std::max(lanes[l], x[i + l]) : std::min(lanes[l], x[i + l]);
    float m = lanes[0];
    for (int l = 1; l < kLanes; ++l) m = kMax ? std::max(m, lanes[l]) : std::min(m, lanes[l]);
    for (; i < n; ++i) m = kMax ? std::max(m, x[i]) : std::min(m, x[i]);
    return m;
}

// Calls fn(outIndex, inOffset) for every element of outShape, where inOffset advances by
// inStrides per output axis (0 for broadcast axes).
template <typename Fn>
void forEachStrided(const Shape& outShape, const int64_t* inStrides, int64_t inBase, Fn fn) {
    const int64_t total = outShape.count();
    if (total == 0) return;
    int64_t idx[kMaxRank] = {};
    int64_t off = inBase;
    const int r = outShape.rank;
    for (int64_t o = 0; o < total; ++o) {
        fn(o, off);
        for (int a = r - 1; a >= 0; --a) {
            if (++idx[a] < outShape.d[a]) {
                off += inStrides[a];
                break;
            }
            off -= inStrides[a] * (outShape.d[a] - 1);
            idx[a] = 0;
        }
    }
}

// out[o] = in[offset(o)] for every element of outShape (offsets as forEachStrided), copying
// runs: the innermost output axes that are contiguous in the input too (a channel slice of an
// NHWC tensor, as ShuffleNet's channel splits) go by memcpy, one call per run instead of an
// index step per element (measurements: bench/README.md).
void copyStrided(const float* in, const Shape& outShape, const int64_t* inStrides, int64_t inBase, float* out) {
    int64_t run = 1;
    int inner = outShape.rank; // axes [inner, rank) form one contiguous run
    while (inner > 0 && (inStrides[inner - 1] == run || outShape.d[inner - 1] == 1)) {
        run *= outShape.d[inner - 1];
        --inner;
    }
    if (run < 8) {
        forEachStrided(outShape, inStrides, inBase, [&](int64_t o, int64_t i) { out[o] = in[i]; });
        return;
    }
    if (outShape.count() == 0) return;
    Shape outer;
    outer.rank = std::max(inner, 1);
    outer.d[0] = 1;
    for (int a = 0; a < inner; ++a) outer.d[a] = outShape.d[a];
    int64_t strides[kMaxRank] = {};
    for (int a = 0; a < inner; ++a) strides[a] = inStrides[a];
    forEachStrided(outer, strides, inBase, [&](int64_t o, int64_t i) {
        std::memcpy(out + o * run, in + i, static_cast<size_t>(run) * sizeof(float));
    });
}

// Strides of `in` aligned to `out`'s rank, 0 where `in` broadcasts.
void broadcastStrides(const Shape& in, const Shape& out, int64_t* strides) {
    int64_t own[kMaxRank];
    stridesOf(in, own);
    const int shift = out.rank - in.rank;
    for (int i = 0; i < out.rank; ++i) {
        const int j = i - shift;
        strides[i] = (j < 0 || in.d[j] == 1) ? 0 : own[j];
    }
}

} // namespace

void copy(const float* in, float* out, int64_t count) {
    if (in != out) std::memmove(out, in, static_cast<size_t>(count) * sizeof(float));
}

namespace {

// out[c][r] = in[r][c] for each of `batch` [rows][cols] matrices, in 16x16 blocks so both
// sides move whole cache lines (NCHW <-> NHWC at a network's edges, where the element-wise
// walk would touch a new cache line on one side for every element).
void transposeMatrices(const float* in, int64_t batch, int64_t rows, int64_t cols, float* out) {
    constexpr int64_t B = 16;
    for (int64_t n = 0; n < batch; ++n) {
        const float* src = in + n * rows * cols;
        float* dst = out + n * rows * cols;
        for (int64_t r0 = 0; r0 < rows; r0 += B)
            for (int64_t c0 = 0; c0 < cols; c0 += B) {
                const int64_t r1 = std::min(rows, r0 + B), c1 = std::min(cols, c0 + B);
                for (int64_t c = c0; c < c1; ++c)
                    for (int64_t r = r0; r < r1; ++r) dst[c * rows + r] = src[r * cols + c];
            }
    }
}

// Merges input axes that stay adjacent and in order under `perm` (and drops size-1 axes), so
// NCHW -> NHWC becomes [N][C][HW] with permutation (0, 2, 1).
int simplifyPermutation(const Shape& inShape, const int* perm, int64_t* dims, int* merged) {
    int keep[kMaxRank], count = 0;
    for (int i = 0; i < inShape.rank; ++i)
        if (inShape.d[perm[i]] != 1) keep[count++] = perm[i];
    // Groups of consecutive output axes whose input axes are consecutive too.
    int groupOf[kMaxRank], groups = 0;
    int64_t size[kMaxRank];
    for (int i = 0; i < count; ++i) {
        if (i > 0 && keep[i] == keep[i - 1] + 1) {
            size[groups - 1] *= inShape.d[keep[i]];
        } else {
            groupOf[groups] = keep[i];
            size[groups++] = inShape.d[keep[i]];
        }
    }
    // Number the groups in input order.
    for (int g = 0; g < groups; ++g) {
        int rank = 0;
        for (int h = 0; h < groups; ++h) rank += groupOf[h] < groupOf[g];
        merged[g] = rank;
        dims[rank] = size[g];
    }
    return groups;
}

} // namespace

void transpose(const float* in, const Shape& inShape, const int* perm, float* out) {
    int64_t dims[kMaxRank];
    int merged[kMaxRank];
    const int groups = simplifyPermutation(inShape, perm, dims, merged);
    if (groups <= 1) {
        copy(in, out, inShape.count());
        return;
    }
    if (groups == 2 && merged[0] == 1 && merged[1] == 0) {
        transposeMatrices(in, 1, dims[0], dims[1], out);
        return;
    }
    if (groups == 3 && merged[0] == 0 && merged[1] == 2 && merged[2] == 1) {
        transposeMatrices(in, dims[0], dims[1], dims[2], out);
        return;
    }
    int64_t inStrides[kMaxRank], permStrides[kMaxRank];
    stridesOf(inShape, inStrides);
    Shape outShape;
    outShape.rank = inShape.rank;
    for (int i = 0; i < inShape.rank; ++i) {
        outShape.d[i] = inShape.d[perm[i]];
        permStrides[i] = inStrides[perm[i]];
    }
    copyStrided(in, outShape, permStrides, 0, out);
}

void concat(const float* const* inputs, const Shape* shapes, int count, int axis, float* out) {
    int64_t outer = 1, inner = 1, outAxis = 0;
    for (int i = 0; i < axis; ++i) outer *= shapes[0].d[i];
    for (int i = axis + 1; i < shapes[0].rank; ++i) inner *= shapes[0].d[i];
    for (int k = 0; k < count; ++k) outAxis += shapes[k].d[axis];
    int64_t offset = 0;
    for (int k = 0; k < count; ++k) {
        const int64_t chunk = shapes[k].d[axis] * inner;
        for (int64_t o = 0; o < outer; ++o)
            std::memcpy(out + o * outAxis * inner + offset, inputs[k] + o * chunk,
                        static_cast<size_t>(chunk) * sizeof(float));
        offset += chunk;
    }
}

void slice(const float* in, const Shape& inShape, const int64_t* starts, const int64_t* steps, const Shape& outShape,
           float* out) {
    int64_t inStrides[kMaxRank], stepStrides[kMaxRank];
    stridesOf(inShape, inStrides);
    int64_t base = 0;
    for (int i = 0; i < inShape.rank; ++i) {
        base += starts[i] * inStrides[i];
        stepStrides[i] = steps[i] * inStrides[i];
    }
    copyStrided(in, outShape, stepStrides, base, out);
}

void gather(const float* data, const Shape& dataShape, int axis, const int64_t* indices, int64_t indexCount,
            float* out) {
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; ++i) outer *= dataShape.d[i];
    for (int i = axis + 1; i < dataShape.rank; ++i) inner *= dataShape.d[i];
    const int64_t dim = dataShape.d[axis];
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < indexCount; ++k)
            std::memcpy(out + (o * indexCount + k) * inner, data + (o * dim + indices[k]) * inner,
                        static_cast<size_t>(inner) * sizeof(float));
}

bool padSource(int64_t o, int64_t before, int64_t n, PadMode mode, int64_t& i) {
    i = o - before;
    if (i >= 0 && i < n) return true;
    if (n <= 0) return false;
    switch (mode) {
    case PadMode::Constant: return false;
    case PadMode::Edge: i = i < 0 ? 0 : n - 1; return true;
    case PadMode::Wrap: i = ((i % n) + n) % n; return true;
    case PadMode::Reflect:
        if (n == 1) {
            i = 0;
            return true;
        }
        {
            const int64_t period = 2 * (n - 1);
            i = ((i % period) + period) % period;
            if (i >= n) i = period - i;
        }
        return true;
    }
    return false;
}

void pad(const float* in, const Shape& inShape, const int64_t* pads, PadMode mode, float value, const Shape& outShape,
         float* out) {
    int64_t inStrides[kMaxRank];
    stridesOf(inShape, inStrides);
    const int r = inShape.rank;
    const int64_t total = outShape.count();
    if (total == 0) return;
    if (r == 0) {
        out[0] = in[0];
        return;
    }
    // Row by row along the last axis: the input row's span copied in one go, the pads around it.
    const int64_t width = outShape.d[r - 1], n = inShape.d[r - 1], before = pads[r - 1];
    const int64_t lo = std::clamp<int64_t>(before, 0, width), hi = std::clamp<int64_t>(before + n, lo, width);
    // The columns outside [lo, hi) and their source columns (-1: the constant), the same in every row.
    std::vector<int64_t> edge, edgeSource;
    for (int64_t x = 0; x < width; ++x) {
        if (x >= lo && x < hi) continue;
        int64_t i = 0;
        edge.push_back(x);
        edgeSource.push_back(padSource(x, before, n, mode, i) ? i : -1);
    }
    int64_t idx[kMaxRank] = {};
    for (int64_t row = 0; row < total / width; ++row) {
        float* o = out + row * width;
        int64_t off = 0;
        bool inside = true;
        for (int a = 0; a + 1 < r && inside; ++a) {
            int64_t i = 0;
            inside = padSource(idx[a], pads[a], inShape.d[a], mode, i);
            off += i * inStrides[a];
        }
        if (!inside) {
            std::fill(o, o + width, value);
        } else {
            const float* src = in + off;
            if (hi > lo) std::memcpy(o + lo, src + (lo - before), sizeof(float) * static_cast<size_t>(hi - lo));
            for (size_t k = 0; k < edge.size(); ++k) o[edge[k]] = edgeSource[k] >= 0 ? src[edgeSource[k]] : value;
        }
        for (int a = r - 2; a >= 0; --a) {
            if (++idx[a] < outShape.d[a]) break;
            idx[a] = 0;
        }
    }
}

void broadcastTo(const float* in, const Shape& inShape, const Shape& outShape, float* out) {
    int64_t strides[kMaxRank];
    broadcastStrides(inShape, outShape, strides);
    forEachStrided(outShape, strides, 0, [&](int64_t o, int64_t i) { out[o] = in[i]; });
}

void tile(const float* in, const Shape& inShape, const Shape& outShape, float* out) {
    int64_t inStrides[kMaxRank];
    stridesOf(inShape, inStrides);
    const int64_t total = outShape.count();
    int64_t idx[kMaxRank] = {};
    for (int64_t o = 0; o < total; ++o) {
        int64_t off = 0;
        for (int a = 0; a < inShape.rank; ++a) off += (idx[a] % inShape.d[a]) * inStrides[a];
        out[o] = in[off];
        for (int a = outShape.rank - 1; a >= 0; --a) {
            if (++idx[a] < outShape.d[a]) break;
            idx[a] = 0;
        }
    }
}

int64_t resizeScratchFloats(const Shape& inShape, const Shape& outShape) {
    int64_t bound = 1; // intermediate tensors mix input and output dims
    for (int a = 0; a < inShape.rank; ++a) bound *= std::max(inShape.d[a], outShape.d[a]);
    return 2 * bound;
}

namespace {
// One pass of Resize along one axis: [outer][inDim][inner] -> [outer][outDim][inner].
void resizeAxis(const float* src, float* dst, int64_t outer, int64_t inDim, int64_t outDim, int64_t inner,
                const ResizeAxis& ax) {
    const int64_t* index = ax.index.data();
    const float* weight = ax.weight.data();
    const int taps = ax.taps;
    if (inner == 1) { // the last axis: a gather per output element
        for (int64_t o = 0; o < outer; ++o) {
            const float* s = src + o * inDim;
            float* __restrict d = dst + o * outDim;
            if (taps == 1) {
                for (int64_t j = 0; j < outDim; ++j) d[j] = weight[j] * s[index[j]];
            } else if (taps == 2) {
                for (int64_t j = 0; j < outDim; ++j)
                    d[j] = weight[2 * j] * s[index[2 * j]] + weight[2 * j + 1] * s[index[2 * j + 1]];
            } else {
                for (int64_t j = 0; j < outDim; ++j) {
                    float acc = 0.f;
                    for (int t = 0; t < taps; ++t) acc += weight[j * taps + t] * s[index[j * taps + t]];
                    d[j] = acc;
                }
            }
        }
        return;
    }
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < outDim; ++j) {
            float* __restrict d = dst + (o * outDim + j) * inner;
            const float* s0 = src + (o * inDim + index[j * taps]) * inner;
            const float w0 = weight[j * taps];
            if (taps == 2) {
                const float* s1 = src + (o * inDim + index[j * taps + 1]) * inner;
                const float w1 = weight[j * taps + 1];
                for (int64_t k = 0; k < inner; ++k) d[k] = w0 * s0[k] + w1 * s1[k];
                continue;
            }
            for (int64_t k = 0; k < inner; ++k) d[k] = w0 * s0[k];
            for (int t = 1; t < taps; ++t) {
                const float* s = src + (o * inDim + index[j * taps + t]) * inner;
                const float w = weight[j * taps + t];
                for (int64_t k = 0; k < inner; ++k) d[k] += w * s[k];
            }
        }
}

// The order of the resized axes that moves the fewest values: a pass costs its output size times
// its taps, and a pass along the last axis (a gather per element, not a vector loop) costs more.
// Upsampling the last axis first then runs the other passes over the larger rows.
std::vector<int> resizeOrder(const Shape& inShape, const ResizeAxis* axes, const Shape& outShape) {
    std::vector<int> order;
    for (int a = 0; a < inShape.rank; ++a)
        if (!axes[a].index.empty()) order.push_back(a);
    if (order.size() < 2 || order.size() > 4) return order;
    auto cost = [&](const std::vector<int>& o) {
        Shape cur = inShape;
        double total = 0;
        for (int a : o) {
            cur.d[a] = outShape.d[a];
            const bool last = a == inShape.rank - 1 || [&] {
                for (int i = a + 1; i < inShape.rank; ++i)
                    if (cur.d[i] != 1) return false;
                return true;
            }();
            total += static_cast<double>(cur.count()) * axes[a].taps * (last ? 4 : 1);
        }
        return total;
    };
    std::vector<int> best = order, perm = order;
    double bestCost = cost(order);
    while (std::next_permutation(perm.begin(), perm.end()))
        if (const double c = cost(perm); c < bestCost) {
            bestCost = c;
            best = perm;
        }
    return best;
}
} // namespace

namespace {
// Nearest everywhere (one tap of weight 1 on every resized axis): one pass over the output rows
// along the last axis instead of one pass per axis. A row is gathered from its source row (an
// integer upsampling repeats each value `factor` times), or copied from the output row before
// it when both read the same source row (the rows an upsampling along H repeats).
bool nearestOnly(const Shape& inShape, const ResizeAxis* axes) {
    for (int a = 0; a < inShape.rank; ++a) {
        if (axes[a].index.empty()) continue;
        if (axes[a].taps != 1) return false;
        for (float w : axes[a].weight)
            if (w != 1.f) return false;
    }
    return inShape.rank > 0;
}

template <int kFactor>
void repeatRow(const float* __restrict s, int64_t n, float* __restrict d) {
    for (int64_t i = 0; i < n; ++i)
        for (int k = 0; k < kFactor; ++k) d[i * kFactor + k] = s[i];
}

void resizeNearest(const float* in, const Shape& inShape, const ResizeAxis* axes, const Shape& outShape, float* out) {
    const int r = inShape.rank;
    const int64_t width = outShape.d[r - 1], inWidth = inShape.d[r - 1];
    const int64_t* columns = axes[r - 1].index.empty() ? nullptr : axes[r - 1].index.data();
    int factor = 0; // columns[j] == j / factor for every j: an integer upsampling of the row
    if (columns && inWidth > 0 && width % inWidth == 0) {
        factor = static_cast<int>(width / inWidth);
        for (int64_t j = 0; j < width && factor; ++j)
            if (columns[j] != j / factor) factor = 0;
    }
    int64_t inStrides[kMaxRank];
    stridesOf(inShape, inStrides);
    const int64_t rows = width ? outShape.count() / width : 0;
    int64_t idx[kMaxRank] = {};
    int64_t previous = -1;
    for (int64_t row = 0; row < rows; ++row) {
        float* __restrict o = out + row * width;
        int64_t src = 0;
        for (int a = 0; a + 1 < r; ++a) src += (axes[a].index.empty() ? idx[a] : axes[a].index[idx[a]]) * inStrides[a];
        if (src == previous) {
            std::memcpy(o, o - width, sizeof(float) * static_cast<size_t>(width));
        } else {
            const float* s = in + src;
            switch (columns ? factor : -1) {
            case -1: std::memcpy(o, s, sizeof(float) * static_cast<size_t>(width)); break;
            case 1: std::memcpy(o, s, sizeof(float) * static_cast<size_t>(width)); break;
            case 2: repeatRow<2>(s, inWidth, o); break;
            case 3: repeatRow<3>(s, inWidth, o); break;
            case 4: repeatRow<4>(s, inWidth, o); break;
            default:
                for (int64_t j = 0; j < width; ++j) o[j] = s[columns[j]];
            }
        }
        previous = src;
        for (int a = r - 2; a >= 0; --a) {
            if (++idx[a] < outShape.d[a]) break;
            idx[a] = 0;
        }
    }
}
} // namespace

void resize(const float* in, const Shape& inShape, const ResizeAxis* axes, const Shape& outShape, float* out,
            float* scratch) {
    if (nearestOnly(inShape, axes)) {
        resizeNearest(in, inShape, axes, outShape, out);
        return;
    }
    // Axis by axis: each pass resizes one axis, ping-ponging between scratch and out; the
    // last pass lands in out.
    const std::vector<int> order = resizeOrder(inShape, axes, outShape);
    if (order.empty()) {
        copy(in, out, inShape.count());
        return;
    }
    Shape cur = inShape;
    const float* src = in;
    size_t pending = order.size();
    float* bufA = scratch;
    float* bufB = scratch + resizeScratchFloats(inShape, outShape) / 2;
    for (int a : order) {
        Shape next = cur;
        next.d[a] = outShape.d[a];
        float* dst = (--pending == 0) ? out : (src == bufA ? bufB : bufA);
        int64_t outer = 1, inner = 1;
        for (int i = 0; i < a; ++i) outer *= cur.d[i];
        for (int i = a + 1; i < cur.rank; ++i) inner *= cur.d[i];
        resizeAxis(src, dst, outer, cur.d[a], next.d[a], inner, axes[a]);
        src = dst;
        cur = next;
    }
}

void softmax(const float* in, int64_t outer, int64_t axisLen, int64_t inner, bool log, float* out) {
    if (inner > 1) {
        // A middle axis: [axisLen][inner] per outer index, each pass a vector loop over the inner
        // values (their maxima, e^(x - max) and sums in float, vmath.h's exp), no strided walk.
        std::vector<float> top(static_cast<size_t>(inner)), sum(static_cast<size_t>(inner));
        float* __restrict m = top.data();
        float* __restrict s = sum.data();
        for (int64_t o = 0; o < outer; ++o) {
            const float* x = in + o * axisLen * inner;
            float* y = out + o * axisLen * inner;
            std::fill(m, m + inner, -std::numeric_limits<float>::infinity());
            std::fill(s, s + inner, 0.f);
            for (int64_t i = 0; i < axisLen; ++i) {
                const float* __restrict xi = x + i * inner;
                for (int64_t k = 0; k < inner; ++k) m[k] = std::max(m[k], xi[k]);
            }
            for (int64_t i = 0; i < axisLen; ++i) {
                const float* __restrict xi = x + i * inner;
                float* __restrict yi = y + i * inner;
                for (int64_t k = 0; k < inner; ++k) {
                    const float e = embark::portable::vmath::exp(xi[k] - m[k]);
                    s[k] += e;
                    if (!log) yi[k] = e;
                }
            }
            if (log) {
                for (int64_t k = 0; k < inner; ++k) s[k] = m[k] + std::log(s[k]);
                for (int64_t i = 0; i < axisLen; ++i) {
                    const float* __restrict xi = x + i * inner;
                    float* __restrict yi = y + i * inner;
                    for (int64_t k = 0; k < inner; ++k) yi[k] = xi[k] - s[k];
                }
            } else {
                for (int64_t k = 0; k < inner; ++k) s[k] = 1.f / s[k];
                for (int64_t i = 0; i < axisLen; ++i) {
                    float* __restrict yi = y + i * inner;
                    for (int64_t k = 0; k < inner; ++k) yi[k] *= s[k];
                }
            }
        }
        return;
    }
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < inner; ++k) {
            const float* x = in + o * axisLen * inner + k;
            float* y = out + o * axisLen * inner + k;
            float m = -std::numeric_limits<float>::infinity();
            for (int64_t i = 0; i < axisLen; ++i) m = std::max(m, x[i * inner]);
            double sum = 0;
            for (int64_t i = 0; i < axisLen; ++i) sum += std::exp(static_cast<double>(x[i * inner] - m));
            const double logSum = std::log(sum);
            for (int64_t i = 0; i < axisLen; ++i) {
                const double v = static_cast<double>(x[i * inner] - m);
                y[i * inner] = static_cast<float>(log ? v - logSum : std::exp(v) / sum);
            }
        }
}

namespace {
// The reduction as [outer][count][inner] when its reduced axes (size-1 axes aside) are one block:
// a mean over H and W of NHWC data is [N][H*W][C], of NCHW data [N*C][H*W][1].
bool reductionBlocks(const Shape& s, const bool* reduceAxes, int64_t& outer, int64_t& count, int64_t& inner) {
    int64_t size[3] = {1, 1, 1};
    int stage = 0; // 0: kept axes before the block, 1: the block, 2: kept axes after it
    for (int a = 0; a < s.rank; ++a) {
        if (s.d[a] == 1) continue;
        if (s.d[a] == 0) return false;
        if (reduceAxes[a]) {
            if (stage == 2) return false;
            stage = 1;
            size[1] *= s.d[a];
        } else {
            if (stage == 1) stage = 2;
            size[stage] *= s.d[a];
        }
    }
    outer = size[0];
    count = size[1];
    inner = size[2];
    return true;
}

// Rows of `inner` values added (combined) into double accumulators in input order: the same
// sums as the element walk below, a vector loop per row.
template <typename Combine>
void reduceRows(const float* in, int64_t outer, int64_t count, int64_t inner, double init, Combine combine, ReduceOp op,
                float* out) {
    if (inner == 1 && op != ReduceOp::Prod) { // contiguous blocks (NCHW over H, W): one lane loop each
        for (int64_t o = 0; o < outer; ++o) {
            const float* row = in + o * count;
            if (op == ReduceOp::Max)
                out[o] = extremeFloats<true>(row, count);
            else if (op == ReduceOp::Min)
                out[o] = extremeFloats<false>(row, count);
            else
                out[o] = static_cast<float>(sumFloats(row, count) /
                                            (op == ReduceOp::Mean ? static_cast<double>(count) : 1.0));
        }
        return;
    }
    std::vector<double> acc(static_cast<size_t>(inner));
    for (int64_t o = 0; o < outer; ++o) {
        std::fill(acc.begin(), acc.end(), init);
        double* a = acc.data();
        for (int64_t r = 0; r < count; ++r) {
            const float* row = in + (o * count + r) * inner;
            for (int64_t c = 0; c < inner; ++c) a[c] = combine(a[c], static_cast<double>(row[c]));
        }
        float* dst = out + o * inner;
        for (int64_t c = 0; c < inner; ++c)
            dst[c] = static_cast<float>(op == ReduceOp::Mean ? a[c] / static_cast<double>(count) : a[c]);
    }
}
} // namespace

namespace {
// Any reduction over any axes, accumulated in double: every output's inputs visited in storage
// order. LogSumExp subtracts each output's maximum before exp (an infinite maximum is left out),
// so that large inputs do not overflow.
template <typename T>
void reduceGeneral(ReduceOp op, const T* in, const Shape& inShape, const bool* reduceAxes, T* out) {
    Shape outShape = inShape;
    int64_t count = 1;
    for (int a = 0; a < inShape.rank; ++a)
        if (reduceAxes[a]) {
            count *= inShape.d[a];
            outShape.d[a] = 1;
        }
    const int64_t outCount = outShape.count();
    std::vector<double> acc(static_cast<size_t>(outCount));
    const double init = op == ReduceOp::Max    ? -INFINITY
                        : op == ReduceOp::Min  ? INFINITY
                        : op == ReduceOp::Prod ? 1.0
                                               : 0.0;
    std::fill(acc.begin(), acc.end(), init);
    std::vector<double> maxForLse;
    int64_t outStrides[kMaxRank];
    stridesOf(outShape, outStrides);
    int64_t mapStrides[kMaxRank];
    for (int a = 0; a < inShape.rank; ++a) mapStrides[a] = reduceAxes[a] ? 0 : outStrides[a];
    if (op == ReduceOp::LogSumExp) {
        maxForLse.assign(static_cast<size_t>(outCount), -INFINITY);
        forEachStrided(inShape, mapStrides, 0, [&](int64_t i, int64_t o) {
            maxForLse[static_cast<size_t>(o)] = std::max(maxForLse[static_cast<size_t>(o)], static_cast<double>(in[i]));
        });
    }
    forEachStrided(inShape, mapStrides, 0, [&](int64_t i, int64_t o) {
        double& a = acc[static_cast<size_t>(o)];
        const double x = in[i];
        switch (op) {
        case ReduceOp::Sum:
        case ReduceOp::Mean: a += x; break;
        case ReduceOp::Max: a = std::max(a, x); break;
        case ReduceOp::Min: a = std::min(a, x); break;
        case ReduceOp::Prod: a *= x; break;
        case ReduceOp::SumSquare:
        case ReduceOp::L2: a += x * x; break;
        case ReduceOp::L1: a += std::fabs(x); break;
        case ReduceOp::LogSumExp: {
            const double peak = maxForLse[static_cast<size_t>(o)];
            a += std::isfinite(peak) ? std::exp(x - peak) : std::exp(x);
            break;
        }
        case ReduceOp::LogSum: a += x; break;
        }
    });
    for (int64_t o = 0; o < outCount; ++o) {
        double v = acc[static_cast<size_t>(o)];
        if (op == ReduceOp::Mean)
            v /= static_cast<double>(count);
        else if (op == ReduceOp::L2)
            v = std::sqrt(v);
        else if (op == ReduceOp::LogSumExp)
            v = std::log(v) +
                (std::isfinite(maxForLse[static_cast<size_t>(o)]) ? maxForLse[static_cast<size_t>(o)] : 0.0);
        else if (op == ReduceOp::LogSum)
            v = std::log(v);
        out[o] = static_cast<T>(v);
    }
}
} // namespace

void reduce(ReduceOp op, const float* in, const Shape& inShape, const bool* reduceAxes, float* out) {
    int64_t outer = 0, blockCount = 0, inner = 0;
    if ((op == ReduceOp::Sum || op == ReduceOp::Mean || op == ReduceOp::Max || op == ReduceOp::Min ||
         op == ReduceOp::Prod) &&
        reductionBlocks(inShape, reduceAxes, outer, blockCount, inner)) {
        switch (op) {
        case ReduceOp::Max:
            reduceRows(
                in, outer, blockCount, inner, -INFINITY, [](double a, double x) { return std::max(a, x); }, op, out);
            return;
        case ReduceOp::Min:
            reduceRows(
                in, outer, blockCount, inner, INFINITY, [](double a, double x) { return std::min(a, x); }, op, out);
            return;
        case ReduceOp::Prod:
            reduceRows(
                in, outer, blockCount, inner, 1.0, [](double a, double x) { return a * x; }, op, out);
            return;
        default:
            reduceRows(
                in, outer, blockCount, inner, 0.0, [](double a, double x) { return a + x; }, op, out);
            return;
        }
    }
    reduceGeneral(op, in, inShape, reduceAxes, out);
}

void reduceF64(ReduceOp op, const double* in, const Shape& inShape, const bool* reduceAxes, double* out) {
    reduceGeneral(op, in, inShape, reduceAxes, out);
}

namespace {
// The broadcast batch of a matmul and its operands' dims (1-D operands promoted as numpy does).
struct MatmulDims {
    Shape as, bs, batch;
    int64_t M = 0, K = 0, N = 0;
};
MatmulDims matmulDims(const Shape& aShape, const Shape& bShape) {
    MatmulDims d;
    d.as = aShape, d.bs = bShape;
    if (d.as.rank == 1) {
        d.as.rank = 2;
        d.as.d[1] = d.as.d[0];
        d.as.d[0] = 1;
    }
    if (d.bs.rank == 1) {
        d.bs.rank = 2;
        d.bs.d[1] = 1;
    }
    d.M = d.as.d[d.as.rank - 2], d.K = d.as.d[d.as.rank - 1], d.N = d.bs.d[d.bs.rank - 1];
    d.batch.rank = std::max(d.as.rank, d.bs.rank) - 2;
    for (int i = 0; i < d.batch.rank; ++i) {
        const int ia = i - (d.batch.rank - (d.as.rank - 2)), ib = i - (d.batch.rank - (d.bs.rank - 2));
        d.batch.d[i] = std::max(ia >= 0 ? d.as.d[ia] : 1, ib >= 0 ? d.bs.d[ib] : 1);
    }
    return d;
}
} // namespace

int64_t matmulRows(const Shape& aShape, const Shape& bShape) {
    const MatmulDims d = matmulDims(aShape, bShape);
    return d.batch.count() * d.M;
}

int64_t matmulMacs(const Shape& aShape, const Shape& bShape) {
    const MatmulDims d = matmulDims(aShape, bShape);
    return d.batch.count() * d.M * d.K * d.N;
}

void matmul(const float* a, const Shape& aShape, const float* b, const Shape& bShape, float* out, int64_t rowBegin,
            int64_t rowEnd) {
    const MatmulDims d = matmulDims(aShape, bShape);
    const int64_t M = d.M, K = d.K, N = d.N;
    Shape ab, bb;
    ab.rank = d.as.rank - 2;
    bb.rank = d.bs.rank - 2;
    for (int i = 0; i < ab.rank; ++i) ab.d[i] = d.as.d[i];
    for (int i = 0; i < bb.rank; ++i) bb.d[i] = d.bs.d[i];
    int64_t aStr[kMaxRank], bStr[kMaxRank];
    broadcastStrides(ab, d.batch, aStr);
    broadcastStrides(bb, d.batch, bStr);
    std::vector<int64_t> aOff(static_cast<size_t>(d.batch.count())), bOff(aOff.size());
    forEachStrided(d.batch, aStr, 0, [&](int64_t o, int64_t i) { aOff[static_cast<size_t>(o)] = i * M * K; });
    forEachStrided(d.batch, bStr, 0, [&](int64_t o, int64_t i) { bOff[static_cast<size_t>(o)] = i * K * N; });
    const int64_t rows = static_cast<int64_t>(aOff.size()) * M;
    if (rowEnd < 0 || rowEnd > rows) rowEnd = rows;
    std::vector<float> row(static_cast<size_t>(N));
    for (int64_t r = rowBegin; r < rowEnd; ++r) {
        const size_t bi = static_cast<size_t>(r / M);
        const int64_t m = r % M;
        const float* A = a + aOff[bi];
        const float* B = b + bOff[bi];
        std::fill(row.begin(), row.end(), 0.f);
        for (int64_t k = 0; k < K; ++k) {
            const float av = A[m * K + k];
            const float* Brow = B + k * N;
            for (int64_t n = 0; n < N; ++n) row[static_cast<size_t>(n)] += av * Brow[n];
        }
        std::memcpy(out + r * N, row.data(), static_cast<size_t>(N) * sizeof(float));
    }
}

void channelAffine(const float* x, const Shape& shape, int axis, const float* scale, const float* shift, float* y) {
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; ++i) outer *= shape.d[i];
    for (int i = axis + 1; i < shape.rank; ++i) inner *= shape.d[i];
    const int64_t c = shape.d[axis];
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < c; ++k) {
            const float s = scale[k], t = shift[k];
            const float* xi = x + (o * c + k) * inner;
            float* yi = y + (o * c + k) * inner;
            for (int64_t i = 0; i < inner; ++i) yi[i] = xi[i] * s + t;
        }
}

namespace {

// Per-channel moments in one pass: sums of d = x - shift and d^2 in float (a channel's values
// as lanes of contiguous rows, or the channels of a channels-last row as the lanes), added into
// doubles every kMomentBlock values. Shifting by a sample of the channel keeps E[d^2] - E[d]^2
// from cancelling when the mean is far from 0.
constexpr int64_t kMomentBlock = 1024;
constexpr int64_t kMomentChannels = 64;

#if defined(__GNUC__) // GCC and Clang: a generic vector of 16 floats, lowered to the target's registers
typedef float MomentLanes __attribute__((vector_size(64)));
#endif

void instanceNormContiguous(const float* x, int64_t spatial, float scale, float bias, float epsilon, float* y) {
    const float shift = x[0];
    double sum = 0, squares = 0;
    for (int64_t b = 0; b < spatial; b += kMomentBlock) {
        const int64_t e = std::min(spatial, b + kMomentBlock);
        int64_t i = b;
#if defined(__GNUC__)
        // Explicit vectors: GCC turns the lane-array form below into shuffles across iterations.
        MomentLanes s0 = {}, q0 = {}, s1 = {}, q1 = {};
        for (; i + 2 * kLanes <= e; i += 2 * kLanes) {
            MomentLanes v, w;
            std::memcpy(&v, x + i, sizeof v);
            std::memcpy(&w, x + i + kLanes, sizeof w);
            v -= shift;
            w -= shift;
            s0 += v;
            q0 += v * v;
            s1 += w;
            q1 += w * w;
        }
        s0 += s1;
        q0 += q1;
        for (int l = 0; l < kLanes; ++l) {
            sum += s0[l];
            squares += q0[l];
        }
#else
        float s[kLanes] = {}, q[kLanes] = {};
        for (; i + kLanes <= e; i += kLanes)
            for (int l = 0; l < kLanes; ++l) {
                const float d = x[i + l] - shift;
                s[l] += d;
                q[l] += d * d;
            }
        for (int l = 0; l < kLanes; ++l) {
            sum += s[l];
            squares += q[l];
        }
#endif
        for (; i < e; ++i) {
            const float d = x[i] - shift;
            sum += d;
            squares += static_cast<double>(d) * d;
        }
    }
    const double md = sum / static_cast<double>(spatial);
    const double var = std::max(0.0, squares / static_cast<double>(spatial) - md * md);
    const double a = scale / std::sqrt(var + epsilon);
    const float fa = static_cast<float>(a), ft = static_cast<float>(bias - (shift + md) * a);
    for (int64_t i = 0; i < spatial; ++i) y[i] = x[i] * fa + ft;
}

// Channels [c0, c0 + cc) of one image of channels-last data (rows of `c` floats).
void instanceNormChannelsLast(const float* x, int64_t spatial, int64_t c, int64_t c0, int64_t cc, const float* scale,
                              const float* bias, float epsilon, float* y) {
    float shift[kMomentChannels], fa[kMomentChannels], ft[kMomentChannels];
    double sum[kMomentChannels] = {}, squares[kMomentChannels] = {};
    std::memcpy(shift, x + c0, static_cast<size_t>(cc) * sizeof(float));
    for (int64_t b = 0; b < spatial; b += kMomentBlock) {
        const int64_t e = std::min(spatial, b + kMomentBlock);
        float s[kMomentChannels] = {}, q[kMomentChannels] = {};
        for (int64_t i = b; i < e; ++i) {
            const float* row = x + i * c + c0;
            for (int64_t k = 0; k < cc; ++k) {
                const float d = row[k] - shift[k];
                s[k] += d;
                q[k] += d * d;
            }
        }
        for (int64_t k = 0; k < cc; ++k) {
            sum[k] += s[k];
            squares[k] += q[k];
        }
    }
    for (int64_t k = 0; k < cc; ++k) {
        const double md = sum[k] / static_cast<double>(spatial);
        const double var = std::max(0.0, squares[k] / static_cast<double>(spatial) - md * md);
        const double a = scale[c0 + k] / std::sqrt(var + epsilon);
        fa[k] = static_cast<float>(a);
        ft[k] = static_cast<float>(bias[c0 + k] - (shift[k] + md) * a);
    }
    for (int64_t i = 0; i < spatial; ++i) {
        const float* row = x + i * c + c0;
        float* __restrict out = y + i * c + c0;
        for (int64_t k = 0; k < cc; ++k) out[k] = row[k] * fa[k] + ft[k];
    }
}

} // namespace

void instanceNorm(const float* x, int64_t n, int64_t c, int64_t spatial, bool channelsLast, const float* scale,
                  const float* bias, float epsilon, float* y) {
    if (spatial <= 0) return;
    for (int64_t b = 0; b < n; ++b) {
        const int64_t image = b * c * spatial;
        if (channelsLast)
            for (int64_t c0 = 0; c0 < c; c0 += kMomentChannels)
                instanceNormChannelsLast(x + image, spatial, c, c0, std::min(kMomentChannels, c - c0), scale, bias,
                                         epsilon, y + image);
        else
            for (int64_t ch = 0; ch < c; ++ch)
                instanceNormContiguous(x + image + ch * spatial, spatial, scale[ch], bias[ch], epsilon,
                                       y + image + ch * spatial);
    }
}

void layerNorm(const float* x, int64_t outer, int64_t inner, const float* scale, const float* bias, float epsilon,
               float* y) {
    // Mean and variance in float lanes summed into doubles (sumFloats), then one float pass.
    for (int64_t o = 0; o < outer; ++o) {
        const float* xi = x + o * inner;
        float* __restrict yi = y + o * inner;
        const double mean = sumFloats(xi, inner) / static_cast<double>(inner);
        const double var = sumSquaredDeviations(xi, inner, static_cast<float>(mean)) / static_cast<double>(inner);
        const float m = static_cast<float>(mean), inv = static_cast<float>(1.0 / std::sqrt(var + epsilon));
        if (scale && bias)
            for (int64_t i = 0; i < inner; ++i) yi[i] = (xi[i] - m) * inv * scale[i] + bias[i];
        else if (scale)
            for (int64_t i = 0; i < inner; ++i) yi[i] = (xi[i] - m) * inv * scale[i];
        else if (bias)
            for (int64_t i = 0; i < inner; ++i) yi[i] = (xi[i] - m) * inv + bias[i];
        else
            for (int64_t i = 0; i < inner; ++i) yi[i] = (xi[i] - m) * inv;
    }
}

void lrn(const float* x, int64_t n, int64_t c, int64_t spatial, bool channelsLast, int size, float alpha, float beta,
         float bias, float* y) {
    const int64_t lo = (size - 1) / 2, hi = size / 2; // ONNX: floor((size-1)/2) before, ceil after
    for (int64_t b = 0; b < n; ++b)
        for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t i = 0; i < spatial; ++i) {
                auto at = [&](int64_t k) {
                    return channelsLast ? (b * spatial + i) * c + k : (b * c + k) * spatial + i;
                };
                double sq = 0;
                for (int64_t k = std::max<int64_t>(0, ch - lo); k <= std::min<int64_t>(c - 1, ch + hi); ++k)
                    sq += static_cast<double>(x[at(k)]) * x[at(k)];
                y[at(ch)] = static_cast<float>(x[at(ch)] / std::pow(bias + alpha / size * sq, beta));
            }
}

void unary(Unary op, const float* x, float* y, int64_t count, float alpha, float gamma) {
    for (int64_t i = 0; i < count; ++i) {
        const float v = x[i];
        float r = v;
        switch (op) {
        case Unary::Log: r = std::log(v); break;
        case Unary::Floor: r = std::floor(v); break;
        case Unary::Ceil: r = std::ceil(v); break;
        case Unary::Round: r = std::nearbyint(v); break; // half to even, as ONNX
        case Unary::Sign: r = static_cast<float>((v > 0) - (v < 0)); break;
        case Unary::Reciprocal: r = 1.f / v; break;
        case Unary::Sin: r = std::sin(v); break;
        case Unary::Cos: r = std::cos(v); break;
        case Unary::Softplus: r = v > 20.f ? v : std::log1p(std::exp(v)); break;
        case Unary::Softsign: r = v / (1.f + std::fabs(v)); break;
        case Unary::Selu: r = v > 0 ? gamma * v : gamma * (alpha * std::exp(v) - alpha); break;
        case Unary::Mish: r = v * std::tanh(v > 20.f ? v : std::log1p(std::exp(v))); break;
        case Unary::Identity: break;
        case Unary::Tan: r = std::tan(v); break;
        case Unary::Asin: r = std::asin(v); break;
        case Unary::Acos: r = std::acos(v); break;
        case Unary::Atan: r = std::atan(v); break;
        case Unary::Sinh: r = std::sinh(v); break;
        case Unary::Cosh: r = std::cosh(v); break;
        case Unary::Asinh: r = std::asinh(v); break;
        case Unary::Acosh: r = std::acosh(v); break;
        case Unary::Atanh: r = std::atanh(v); break;
        case Unary::ThresholdedRelu: r = v > alpha ? v : 0.f; break;
        case Unary::Shrink: r = v < -alpha ? v + gamma : v > alpha ? v - gamma : 0.f; break;
        case Unary::Celu: r = std::max(0.f, v) + std::min(0.f, alpha * (std::exp(v / alpha) - 1.f)); break;
        }
        y[i] = r;
    }
}

void binary(Binary op, const float* a, const Shape& aShape, const float* b, const Shape& bShape, float* out,
            const Shape& outShape) {
    int64_t as[kMaxRank], bs[kMaxRank];
    broadcastStrides(aShape, outShape, as);
    broadcastStrides(bShape, outShape, bs);
    std::vector<int64_t> bOff(static_cast<size_t>(outShape.count()));
    forEachStrided(outShape, bs, 0, [&](int64_t o, int64_t i) { bOff[static_cast<size_t>(o)] = i; });
    forEachStrided(outShape, as, 0, [&](int64_t o, int64_t i) {
        const float x = a[i], s = b[bOff[static_cast<size_t>(o)]];
        switch (op) {
        case Binary::PRelu: out[o] = x < 0 ? x * s : x; break;
        case Binary::FMod: out[o] = std::fmod(x, s); break;
        case Binary::Mod: {
            float m = std::fmod(x, s);
            if (m != 0 && ((m < 0) != (s < 0))) m += s;
            out[o] = m;
            break;
        }
        }
    });
}

namespace {
int64_t spatialCount(const int64_t* d, int n) {
    int64_t c = 1;
    for (int i = 0; i < n; ++i) c *= d[i];
    return c;
}
} // namespace

void convNd(const ConvNd& p, const float* x, const float* w, const float* bias, float* y) {
    const int64_t inSp = spatialCount(p.in, p.spatial), outSp = spatialCount(p.out, p.spatial);
    const int64_t taps = spatialCount(p.kernel, p.spatial);
    const int64_t cinG = p.inC / p.groups, coutG = p.outC / p.groups;
    for (int64_t n = 0; n < p.batch; ++n)
        for (int64_t oc = 0; oc < p.outC; ++oc) {
            const int64_t g = oc / coutG;
            forEachPosition(p, p.out, [&](int64_t o, const int64_t* pos) {
                double acc = bias ? bias[oc] : 0.0;
                for (int64_t t = 0; t < taps; ++t) {
                    int64_t off = 0;
                    if (!convTapOffset(p, pos, t, p.in, off)) continue;
                    for (int64_t ic = 0; ic < cinG; ++ic)
                        acc += static_cast<double>(x[(n * p.inC + g * cinG + ic) * inSp + off]) *
                               w[(oc * cinG + ic) * taps + t];
                }
                y[(n * p.outC + oc) * outSp + o] = static_cast<float>(acc);
            });
        }
}

void convTransposeNd(const ConvNd& p, const float* x, const float* w, const float* bias, float* y) {
    const int64_t inSp = spatialCount(p.in, p.spatial), outSp = spatialCount(p.out, p.spatial);
    const int64_t taps = spatialCount(p.kernel, p.spatial);
    const int64_t cinG = p.inC / p.groups, coutG = p.outC / p.groups;
    for (int64_t n = 0; n < p.batch; ++n)
        for (int64_t oc = 0; oc < p.outC; ++oc)
            for (int64_t o = 0; o < outSp; ++o) y[(n * p.outC + oc) * outSp + o] = bias ? bias[oc] : 0.f;
    for (int64_t n = 0; n < p.batch; ++n)
        for (int64_t ic = 0; ic < p.inC; ++ic) {
            const int64_t g = ic / cinG;
            forEachPosition(p, p.in, [&](int64_t i, const int64_t* pos) {
                const float xv = x[(n * p.inC + ic) * inSp + i];
                for (int64_t t = 0; t < taps; ++t) {
                    int64_t off = 0;
                    if (!convTapOffset(p, pos, t, p.out, off)) continue;
                    for (int64_t oc = 0; oc < coutG; ++oc)
                        y[(n * p.outC + g * coutG + oc) * outSp + off] += xv * w[(ic * coutG + oc) * taps + t];
                }
            });
        }
}

namespace {

// The taps [first, last) of a window starting at `start` that land in [0, extent), and how many
// land in [-before, extent + after) (the count AveragePool divides by with count_include_pad).
struct TapSpan {
    int64_t first = 0, last = 0, padded = 0;
};
TapSpan tapSpan(int64_t start, int64_t kernel, int64_t dilation, int64_t extent, int64_t before, int64_t after) {
    TapSpan t;
    t.last = kernel;
    while (t.first < kernel && start + t.first * dilation < 0) ++t.first;
    while (t.last > t.first && start + (t.last - 1) * dilation >= extent) --t.last;
    for (int64_t k = 0; k < kernel; ++k) {
        const int64_t i = start + k * dilation;
        t.padded += i >= -before && i < extent + after ? 1 : 0;
    }
    return t;
}

// The n values from r split by phase: p[m * len + j] = r[j * S + m] (len >= ceil(n / S)), so the
// taps of a pool strided S along W read contiguous runs.
template <int S>
void splitPhases(const float* __restrict r, int64_t n, float* __restrict p, int64_t len) {
    const int64_t full = n / S;
    for (int64_t j = 0; j < full; ++j)
        for (int m = 0; m < S; ++m) p[m * len + j] = r[j * S + m];
    for (int64_t m = 0; m < n - full * S; ++m) p[m * len + full] = r[full * S + m];
}

// 2-D pooling of NCHW planes (a single pool between the model's input and output runs in the
// model's layout): per output row, the window's input rows combined into one row first (max or
// sum, contiguous, vectorized), then each output's taps along W read from that row.
void pool2dPlanes(const ConvNd& p, bool isMax, bool countIncludePad, const float* x, float* y) {
    const int64_t ih = p.in[0], iw = p.in[1], oh = p.out[0], ow = p.out[1];
    std::vector<TapSpan> cols(static_cast<size_t>(ow));
    for (int64_t ox = 0; ox < ow; ++ox)
        cols[static_cast<size_t>(ox)] =
            tapSpan(ox * p.stride[1] - p.pads[1], p.kernel[1], p.dilation[1], iw, p.pads[1], p.pads[3]);
    // Outputs [inner0, inner1) see every tap along W inside the row: those run tap by tap over
    // the whole span (a strided loop that vectorizes), the edges one by one.
    int64_t inner0 = 0, inner1 = 0;
    for (int64_t ox = 0; ox < ow; ++ox) {
        const TapSpan& t = cols[static_cast<size_t>(ox)];
        const bool full = t.first == 0 && t.last == p.kernel[1];
        if (full && inner1 == inner0) inner0 = inner1 = ox;
        if (full && inner1 == ox) inner1 = ox + 1;
    }
    std::vector<float> rowBuf(static_cast<size_t>(iw));
    float* __restrict row = rowBuf.data();
    // Strides 2-4 along W: the inner span's taps read the row split by phase (splitPhases), each a
    // contiguous loop (a strided loop gathers, or runs scalar: a 3x3/2 max pool took 1.3-1.9x ONNX
    // Runtime's time on the host grid, a 2x2/2 average pool 1.5x).
    const int64_t sw = p.stride[1], dw = p.dilation[1];
    const int64_t span = inner1 - inner0, used = span > 0 ? (span - 1) * sw + (p.kernel[1] - 1) * dw + 1 : 0;
    const bool phased = sw >= 2 && sw <= 4 && span >= 8;
    const int64_t phaseLen = phased ? (used + sw - 1) / sw : 0;
    std::vector<float> phaseBuf(static_cast<size_t>(phaseLen * sw));
    for (int64_t nc = 0; nc < p.batch * p.inC; ++nc) {
        const float* plane = x + nc * ih * iw;
        float* out = y + nc * oh * ow;
        for (int64_t oy = 0; oy < oh; ++oy, out += ow) {
            const int64_t startY = oy * p.stride[0] - p.pads[0];
            const TapSpan ty = tapSpan(startY, p.kernel[0], p.dilation[0], ih, p.pads[0], p.pads[2]);
            if (ty.first >= ty.last) {
                std::fill(out, out + ow, isMax ? -INFINITY : 0.f);
                continue;
            }
            // The window's rows combined into `row`: the first two in one pass.
            const float* __restrict first = plane + (startY + ty.first * p.dilation[0]) * iw;
            int64_t ky = ty.first + 1;
            if (ky < ty.last) {
                const float* __restrict r = plane + (startY + ky * p.dilation[0]) * iw;
                if (isMax)
                    for (int64_t i = 0; i < iw; ++i) row[i] = r[i] > first[i] ? r[i] : first[i];
                else
                    for (int64_t i = 0; i < iw; ++i) row[i] = first[i] + r[i];
                ++ky;
            } else {
                std::memcpy(row, first, static_cast<size_t>(iw) * sizeof(float));
            }
            for (; ky < ty.last; ++ky) {
                const float* __restrict r = plane + (startY + ky * p.dilation[0]) * iw;
                if (isMax)
                    for (int64_t i = 0; i < iw; ++i) row[i] = r[i] > row[i] ? r[i] : row[i];
                else
                    for (int64_t i = 0; i < iw; ++i) row[i] += r[i];
            }
            if (phased) {
                const float* r0 = row + inner0 * sw - p.pads[1];
                float* __restrict ph = phaseBuf.data();
                if (sw == 2)
                    splitPhases<2>(r0, used, ph, phaseLen);
                else if (sw == 3)
                    splitPhases<3>(r0, used, ph, phaseLen);
                else
                    splitPhases<4>(r0, used, ph, phaseLen);
                float* o = out + inner0; // not restrict: prev below is o after the first tap
                const float inv = isMax
                                      ? 1.f
                                      : 1.f / static_cast<float>(countIncludePad ? ty.padded * p.kernel[1]
                                                                                 : (ty.last - ty.first) * p.kernel[1]);
                // Tap 0 combined with tap 1 in one pass, the average's scale with the last tap:
                // the same operations in the same order as a pass each.
                const int64_t kw = p.kernel[1];
                auto tap = [&](int64_t kx) { return ph + (kx * dw % sw) * phaseLen + kx * dw / sw; };
                if (kw == 1) {
                    if (isMax)
                        std::memcpy(o, ph, static_cast<size_t>(span) * sizeof(float));
                    else
                        for (int64_t i = 0; i < span; ++i) o[i] = ph[i] * inv;
                }
                const float* prev = ph; // tap 0, then the taps combined so far (o)
                for (int64_t kx = 1; kx < kw; ++kx, prev = o) {
                    const float* __restrict rk = tap(kx);
                    if (isMax)
                        for (int64_t i = 0; i < span; ++i) o[i] = rk[i] > prev[i] ? rk[i] : prev[i];
                    else if (kx + 1 == kw)
                        for (int64_t i = 0; i < span; ++i) o[i] = (prev[i] + rk[i]) * inv;
                    else
                        for (int64_t i = 0; i < span; ++i) o[i] = prev[i] + rk[i];
                }
            } else if (inner1 > inner0) {
                const float* r0 = row + inner0 * sw - p.pads[1];
                float* __restrict o = out + inner0;
                for (int64_t i = 0; i < span; ++i) o[i] = r0[i * sw];
                for (int64_t kx = 1; kx < p.kernel[1]; ++kx) {
                    const float* rk = r0 + kx * dw;
                    if (isMax)
                        for (int64_t i = 0; i < span; ++i) o[i] = rk[i * sw] > o[i] ? rk[i * sw] : o[i];
                    else
                        for (int64_t i = 0; i < span; ++i) o[i] += rk[i * sw];
                }
                if (!isMax) {
                    const float inv = 1.f / static_cast<float>(countIncludePad ? ty.padded * p.kernel[1]
                                                                               : (ty.last - ty.first) * p.kernel[1]);
                    for (int64_t i = 0; i < span; ++i) o[i] *= inv;
                }
            }
            for (int64_t ox = 0; ox < ow; ++ox) {
                if (ox == inner0 && inner1 > inner0) {
                    ox = inner1 - 1;
                    continue;
                }
                const TapSpan& tx = cols[static_cast<size_t>(ox)];
                if (tx.first >= tx.last) {
                    out[ox] = isMax ? -INFINITY : 0.f;
                    continue;
                }
                const float* r = row + ox * p.stride[1] - p.pads[1];
                float acc = r[tx.first * p.dilation[1]];
                for (int64_t kx = tx.first + 1; kx < tx.last; ++kx) {
                    const float v = r[kx * p.dilation[1]];
                    acc = isMax ? (v > acc ? v : acc) : acc + v;
                }
                const int64_t count =
                    countIncludePad ? ty.padded * tx.padded : (ty.last - ty.first) * (tx.last - tx.first);
                out[ox] = isMax ? acc : acc / static_cast<float>(count);
            }
        }
    }
}

} // namespace

void poolNd(const ConvNd& p, bool isMax, bool countIncludePad, const float* x, float* y) {
    if (p.spatial == 2) {
        pool2dPlanes(p, isMax, countIncludePad, x, y);
        return;
    }
    if (p.spatial == 1) { // [N][C][W] rows (a raw-audio network's pools): no index arithmetic per tap
        const int64_t w = p.in[0], ow = p.out[0], k = p.kernel[0], stride = p.stride[0], dil = p.dilation[0];
        const int64_t before = p.pads[0], after = p.pads[1];
        for (int64_t nc = 0; nc < p.batch * p.inC; ++nc) {
            const float* xr = x + nc * w;
            float* yr = y + nc * ow;
            for (int64_t o = 0; o < ow; ++o) {
                float acc = isMax ? -INFINITY : 0.f;
                int64_t counted = 0;
                for (int64_t t = 0, i = o * stride - before; t < k; ++t, i += dil) {
                    const bool inside = i >= 0 && i < w;
                    counted += (countIncludePad ? i >= -before && i < w + after : inside) ? 1 : 0;
                    if (inside) acc = isMax ? std::max(acc, xr[i]) : acc + xr[i];
                }
                yr[o] = isMax ? acc : (counted ? acc / static_cast<float>(counted) : 0.f);
            }
        }
        return;
    }
    const int64_t inSp = spatialCount(p.in, p.spatial), outSp = spatialCount(p.out, p.spatial);
    const int64_t taps = spatialCount(p.kernel, p.spatial);
    for (int64_t nc = 0; nc < p.batch * p.inC; ++nc)
        forEachPosition(p, p.out, [&](int64_t o, const int64_t* pos) {
            double acc = isMax ? -INFINITY : 0.0;
            int64_t counted = 0;
            for (int64_t t = 0; t < taps; ++t) {
                int64_t k[3] = {0, 0, 0}, r = t, off = 0;
                bool inside = true, inPadded = true;
                for (int a = p.spatial - 1; a >= 0; --a) {
                    k[a] = r % p.kernel[a];
                    r /= p.kernel[a];
                }
                for (int a = 0; a < p.spatial; ++a) {
                    const int64_t i = pos[a] * p.stride[a] - p.pads[a] + k[a] * p.dilation[a];
                    if (i < -p.pads[a] || i >= p.in[a] + p.pads[p.spatial + a]) inPadded = false;
                    if (i < 0 || i >= p.in[a])
                        inside = false;
                    else
                        off = off * p.in[a] + i;
                }
                if (countIncludePad ? inPadded : inside) ++counted;
                if (!inside) continue;
                const double v = x[nc * inSp + off];
                acc = isMax ? std::max(acc, v) : acc + v;
            }
            y[nc * outSp + o] = static_cast<float>(isMax ? acc : (counted ? acc / static_cast<double>(counted) : 0.0));
        });
}

void layerNormStats(const float* x, int64_t outer, int64_t inner, float epsilon, float* mean, float* invStdDev) {
    for (int64_t o = 0; o < outer; ++o) {
        const float* xi = x + o * inner;
        const double m = sumFloats(xi, inner) / static_cast<double>(inner);
        const double var = sumSquaredDeviations(xi, inner, static_cast<float>(m)) / static_cast<double>(inner);
        if (mean) mean[o] = static_cast<float>(m);
        if (invStdDev) invStdDev[o] = static_cast<float>(1.0 / std::sqrt(var + epsilon));
    }
}

} // namespace embark::generic

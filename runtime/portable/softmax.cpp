// Softmax over the last axis with the vectorized exp of vmath.h: a row's maximum (in lanes), then
// e^(x - max) stored and summed in 16 partial sums (a vector of them, so the loop vectorizes
// without reassociating a single float sum), then one multiply by the reciprocal. The lanes are
// folded into one value by halves.
#include "portable.h"
#include "vmath.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace embark::portable {

namespace {
constexpr int kLanes = 16; // the folds below halve 16 lanes

// e^t for t <= 0 (x - max): vmath::exp without its two-factor scaling for denormal results.
// Below -87.33 (where e^t leaves the normal floats) it gives 0: a softmax value under 1e-38
// next to the row's maximum's e^0 = 1.
inline float exp_nonpositive(float t) {
    int32_t n;
    const float r = vmath::reduce(t, &n);
    const float q = vmath::expm1_reduced(r);
    const float s = vmath::bits_to_float((static_cast<uint32_t>(n) + 127u) << 23);
    return vmath::select(t < -87.3365479f, 0.f, q * s + s);
}

using Lanes = float __attribute__((vector_size(kLanes * sizeof(float)), aligned(4)));
using LaneMask = int32_t __attribute__((vector_size(kLanes * sizeof(float)), aligned(4)));

// Folds the upper half of v[0, 2W) into its lower half: a tree of log2(kLanes) steps instead of
// a chain of kLanes dependent operations.
template <int W>
inline void fold_max(float* v) {
    for (int l = 0; l < W; ++l) v[l] = std::max(v[l], v[l + W]);
}
template <int W>
inline void fold_add(float* v) {
    for (int l = 0; l < W; ++l) v[l] += v[l + W];
}

void softmax_row(const float* __restrict x, int64_t n, float* __restrict y) {
    // The maximum in a vector of lanes, selected through bit masks: written on a float array,
    // GCC keeps the lanes in scalar registers (one max instruction per value).
    Lanes top_v;
    for (int l = 0; l < kLanes; ++l) top_v[l] = -INFINITY;
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        Lanes v;
        std::memcpy(&v, x + i, sizeof v);
        const LaneMask keep = top_v > v;
        top_v = reinterpret_cast<Lanes>((reinterpret_cast<LaneMask>(top_v) & keep) |
                                        (reinterpret_cast<LaneMask>(v) & ~keep));
    }
    float top[kLanes];
    std::memcpy(top, &top_v, sizeof top);
    fold_max<8>(top);
    fold_max<4>(top);
    fold_max<2>(top);
    fold_max<1>(top);
    float m = top[0];
    for (; i < n; ++i) m = std::max(m, x[i]);
    float lanes[kLanes] = {};
    i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int l = 0; l < kLanes; ++l) {
            const float e = exp_nonpositive(x[i + l] - m);
            y[i + l] = e;
            lanes[l] += e;
        }
    float sum = 0.f;
    for (; i < n; ++i) {
        y[i] = exp_nonpositive(x[i] - m);
        sum += y[i];
    }
    fold_add<8>(lanes);
    fold_add<4>(lanes);
    fold_add<2>(lanes);
    fold_add<1>(lanes);
    const float scale = 1.f / (sum + lanes[0]);
    for (int64_t j = 0; j < n; ++j) y[j] *= scale;
}
} // namespace

void softmax(const float* x, int64_t rows, int64_t n, float* y, ThreadPool* pool) {
    parallel_for(
        rows * n >= (1 << 12) ? pool : nullptr, rows,
        [&](int64_t begin, int64_t end) {
            for (int64_t r = begin; r < end; ++r) softmax_row(x + r * n, n, y + r * n);
        },
        kFineParts);
}

} // namespace embark::portable

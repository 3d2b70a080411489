// Softmax over the last axis with the vectorized exp of vmath.h: a row's maximum (in lanes), then
// e^(x - max) stored and summed in 16 partial sums (a vector of them, so the loop vectorizes
// without reassociating a single float sum), then one multiply by the reciprocal.
#include "portable.h"
#include "vmath.h"

#include <algorithm>

namespace embark::portable {

namespace {
constexpr int kLanes = 16;

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

void softmax_row(const float* __restrict x, int64_t n, float* __restrict y) {
    // The maximum in lanes too: one scalar max chain costs a compare's latency per value.
    float top[kLanes];
    std::fill(top, top + kLanes, -INFINITY);
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int l = 0; l < kLanes; ++l) top[l] = std::max(top[l], x[i + l]);
    float m = -INFINITY;
    for (int l = 0; l < kLanes; ++l) m = std::max(m, top[l]);
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
    for (int l = 0; l < kLanes; ++l) sum += lanes[l];
    const float scale = 1.f / sum;
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

// BatchNormalization in training mode (batch statistics in double, as the reference computes them).
#include "training.h"

#include <algorithm>
#include <cmath>

namespace embark::generic {

void batchNormTraining(const float* x, int64_t n, int64_t c, int64_t plane, const float* scale, const float* bias,
                       const float* inMean, const float* inVar, double eps, double momentum, float* y, float* runMean,
                       float* runVar) {
    const double count = static_cast<double>(std::max<int64_t>(n * plane, 1));
    for (int64_t ch = 0; ch < c; ++ch) {
        double sum = 0, sq = 0;
        for (int64_t b = 0; b < n; ++b)
            for (int64_t i = 0; i < plane; ++i) {
                const double v = x[(b * c + ch) * plane + i];
                sum += v, sq += v * v;
            }
        const double mean = sum / count, var = sq / count - mean * mean;
        if (runMean) runMean[ch] = static_cast<float>(inMean[ch] * momentum + mean * (1 - momentum));
        if (runVar) runVar[ch] = static_cast<float>(inVar[ch] * momentum + var * (1 - momentum));
        const double s = scale[ch] / std::sqrt(var + eps), shift = bias[ch] - mean * s;
        for (int64_t b = 0; b < n; ++b) {
            const int64_t base = (b * c + ch) * plane;
            for (int64_t i = 0; i < plane; ++i) y[base + i] = static_cast<float>(x[base + i] * s + shift);
        }
    }
}

} // namespace embark::generic

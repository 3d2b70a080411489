// Generic kernels of ops in training mode that inference models still carry: BatchNormalization
// with training_mode = 1 (batch statistics, running statistics as extra outputs). Standalone C++17.
#pragma once

#include <cstdint>

namespace embark::generic {

// x [n][c][plane] normalised by its own per-channel mean and (population) variance, both in
// double: y = (x - mean) * scale / sqrt(var + eps) + bias. runMean/runVar (null to skip) get
// inMean * momentum + mean * (1 - momentum), and the same of the variances.
void batchNormTraining(const float* x, int64_t n, int64_t c, int64_t plane, const float* scale, const float* bias,
                       const float* inMean, const float* inVar, double eps, double momentum, float* y, float* runMean,
                       float* runVar);

} // namespace embark::generic

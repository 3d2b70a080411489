// Internal to the reference interpreter: the one matrix product that Conv, ConvTranspose,
// Gemm and MatMul share. float32 operands, double accumulation, cache-blocked so that
// ResNet-sized models run in about a second on one core.
#pragma once

#include <cstdint>

namespace embark::reference::detail {

// C[M x N] += A[M x K] * B[K x N]. A and B are row-major float32 with row strides lda and
// ldb; C is row-major double with row stride ldc. Every product is summed in double.
void gemmAccumulate(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
                    double* C, int64_t ldc);

} // namespace embark::reference::detail

// Blocked GEMM in double. Why the shape of the loops: a block of K (kKc) of A is packed
// into double panels of kMr rows and B into panels of kNr columns, so the micro-kernel
// reads both sequentially and keeps a kMr x kNr block of C in registers; the compiler
// vectorizes the fixed-size inner loops. Plain C++, no intrinsics, same result on every
// host up to the order of the double additions.
#include "gemm.h"

#include <algorithm>
#include <vector>

namespace embark::reference::detail {
namespace {

constexpr int64_t kMr = 4;
constexpr int64_t kNr = 8;
constexpr int64_t kKc = 256;

// Packs rows [m0, m0+kMr) x cols [k0, k0+kc) of A into panel[k][r] (zero rows past M).
void packA(const float* A, int64_t lda, int64_t M, int64_t m0, int64_t k0, int64_t kc, double* panel) {
    for (int64_t r = 0; r < kMr; ++r) {
        const int64_t m = m0 + r;
        if (m < M) {
            const float* row = A + m * lda + k0;
            for (int64_t k = 0; k < kc; ++k) panel[k * kMr + r] = row[k];
        } else {
            for (int64_t k = 0; k < kc; ++k) panel[k * kMr + r] = 0.0;
        }
    }
}

// Packs rows [k0, k0+kc) x cols [n0, n0+kNr) of B into panel[k][c] (zero columns past N).
void packB(const float* B, int64_t ldb, int64_t N, int64_t n0, int64_t k0, int64_t kc, double* panel) {
    const int64_t width = std::min(kNr, N - n0);
    for (int64_t k = 0; k < kc; ++k) {
        const float* row = B + (k0 + k) * ldb + n0;
        double* dst = panel + k * kNr;
        if (width == kNr) {
            for (int64_t c = 0; c < kNr; ++c) dst[c] = row[c];
        } else {
            for (int64_t c = 0; c < kNr; ++c) dst[c] = c < width ? row[c] : 0.0;
        }
    }
}

// C block (rows x cols valid) += Apanel * Bpanel over kc.
void microKernel(int64_t kc, const double* a, const double* b, double* C, int64_t ldc, int64_t rows, int64_t cols) {
    double acc[kMr][kNr] = {};
    for (int64_t k = 0; k < kc; ++k) {
        const double* ak = a + k * kMr;
        const double* bk = b + k * kNr;
        for (int64_t r = 0; r < kMr; ++r) {
            const double av = ak[r];
            for (int64_t c = 0; c < kNr; ++c) acc[r][c] += av * bk[c];
        }
    }
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) C[r * ldc + c] += acc[r][c];
}

} // namespace

void gemmAccumulate(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
                    double* C, int64_t ldc) {
    if (M <= 0 || N <= 0 || K <= 0) return;
    const int64_t mPanels = (M + kMr - 1) / kMr;
    std::vector<double> aPacked(static_cast<size_t>(mPanels * kMr * std::min(K, kKc)));
    std::vector<double> bPanel(static_cast<size_t>(kNr * std::min(K, kKc)));
    for (int64_t k0 = 0; k0 < K; k0 += kKc) {
        const int64_t kc = std::min(kKc, K - k0);
        for (int64_t p = 0; p < mPanels; ++p) packA(A, lda, M, p * kMr, k0, kc, aPacked.data() + p * kMr * kc);
        for (int64_t n0 = 0; n0 < N; n0 += kNr) {
            packB(B, ldb, N, n0, k0, kc, bPanel.data());
            const int64_t cols = std::min(kNr, N - n0);
            for (int64_t p = 0; p < mPanels; ++p) {
                const int64_t rows = std::min(kMr, M - p * kMr);
                microKernel(kc, aPacked.data() + p * kMr * kc, bPanel.data(), C + p * kMr * ldc + n0, ldc, rows, cols);
            }
        }
    }
}

} // namespace embark::reference::detail

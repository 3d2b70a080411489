// Softmax over the last axis with the vectorized exp of vmath.h: a row's maximum (in lanes), then
// e^(x - max) stored and summed in 16 partial sums (a vector of them, so the loop vectorizes
// without reassociating a single float sum), then one multiply by the reciprocal. The lanes are
// folded into one value by halves.
#include "portable.h"
#include "stream_rvv.h"
#include "vmath.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace embark::portable {

namespace {
constexpr int kLanes = 16; // the folds below halve 16 lanes

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

#if EMBARK_STREAM_RVV
// exp_nonpositive on LMUL 4 vectors (the same steps; LMUL 8 would leave too few registers).
inline vfloat32m4_t exp_nonpositive_v(vfloat32m4_t t, size_t vl) {
    constexpr float kLog2e = 1.44269504088896341f, kMagic = 12582912.f;
    constexpr float kLn2Hi = 0.693145751953125f, kLn2Lo = 1.428606765330187e-06f;
    const vfloat32m4_t biased = __riscv_vfmadd_vf_f32m4(t, kLog2e, __riscv_vfmv_v_f_f32m4(kMagic, vl), vl);
    const vuint32m4_t n = __riscv_vsub_vx_u32m4(__riscv_vreinterpret_v_f32m4_u32m4(biased), 0x4B400000u, vl);
    const vfloat32m4_t nf = __riscv_vfsub_vf_f32m4(biased, kMagic, vl);
    vfloat32m4_t r = __riscv_vfnmsac_vf_f32m4(t, kLn2Hi, nf, vl);
    r = __riscv_vfnmsac_vf_f32m4(r, kLn2Lo, nf, vl);
    vfloat32m4_t p = __riscv_vfmv_v_f_f32m4(1.f / 5040.f, vl);
    p = __riscv_vfmadd_vv_f32m4(p, r, __riscv_vfmv_v_f_f32m4(1.f / 720.f, vl), vl);
    p = __riscv_vfmadd_vv_f32m4(p, r, __riscv_vfmv_v_f_f32m4(1.f / 120.f, vl), vl);
    p = __riscv_vfmadd_vv_f32m4(p, r, __riscv_vfmv_v_f_f32m4(1.f / 24.f, vl), vl);
    p = __riscv_vfmadd_vv_f32m4(p, r, __riscv_vfmv_v_f_f32m4(1.f / 6.f, vl), vl);
    p = __riscv_vfmadd_vv_f32m4(p, r, __riscv_vfmv_v_f_f32m4(0.5f, vl), vl);
    const vfloat32m4_t q = __riscv_vfmadd_vv_f32m4(__riscv_vfmul_vv_f32m4(p, r, vl), r, r, vl);
    const vfloat32m4_t s =
        __riscv_vreinterpret_v_u32m4_f32m4(__riscv_vsll_vx_u32m4(__riscv_vadd_vx_u32m4(n, 127u, vl), 23, vl));
    const vfloat32m4_t e = __riscv_vfmadd_vv_f32m4(q, s, s, vl);
    return __riscv_vfmerge_vfm_f32m4(e, 0.f, __riscv_vmflt_vf_f32m4_b8(t, -87.3365479f, vl), vl);
}

// The row in vector strips: the maximum (vfmax: a NaN makes the row's results NaN either way,
// through its own e^(x - max) in the sum), then e^(x - max) stored and added up lane by lane,
// then one multiply by the reciprocal of the sum.
void softmax_row(const float* __restrict x, int64_t n, float* __restrict y) {
    const size_t m = static_cast<size_t>(n);
    const size_t vl8 = __riscv_vsetvlmax_e32m8();
    vfloat32m8_t top = __riscv_vfmv_v_f_f32m8(-INFINITY, vl8);
    for (size_t i = 0, vl; i < m; i += vl) {
        vl = __riscv_vsetvl_e32m8(m - i);
        top = __riscv_vfmax_vv_f32m8_tu(top, top, __riscv_vle32_v_f32m8(x + i, vl), vl);
    }
    const float mx =
        __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredmax_vs_f32m8_f32m1(top, __riscv_vfmv_s_f_f32m1(-INFINITY, 1), vl8));
    const size_t vl4 = __riscv_vsetvlmax_e32m4();
    vfloat32m4_t acc = __riscv_vfmv_v_f_f32m4(0.f, vl4);
    for (size_t i = 0, vl; i < m; i += vl) {
        vl = __riscv_vsetvl_e32m4(m - i);
        const vfloat32m4_t e = exp_nonpositive_v(__riscv_vfsub_vf_f32m4(__riscv_vle32_v_f32m4(x + i, vl), mx, vl), vl);
        __riscv_vse32_v_f32m4(y + i, e, vl);
        acc = __riscv_vfadd_vv_f32m4_tu(acc, acc, e, vl);
    }
    const float sum =
        __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredusum_vs_f32m4_f32m1(acc, __riscv_vfmv_s_f_f32m1(0.f, 1), vl4));
    const float scale = 1.f / sum;
    for (size_t i = 0, vl; i < m; i += vl) {
        vl = __riscv_vsetvl_e32m8(m - i);
        __riscv_vse32_v_f32m8(y + i, __riscv_vfmul_vf_f32m8(__riscv_vle32_v_f32m8(y + i, vl), scale, vl), vl);
    }
}
#else
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
#endif
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

// Branch-free float32 exp, expm1, sigmoid, tanh and erf for Embark's portable runtime: plain
// scalar functions that GCC and Clang inline and vectorize in element loops (no libm call, no
// branch, no table), so an activation loop compiles to vector FMAs on x86-64, RVV and NEON.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

// How (the scheme of XNNPACK's f32-vsigmoid rr2-p5 and f32-vtanh kernels):
//   exp(t) = 2^n * e^r with n = round(t / ln2) (the "magic bias" rounding, so no float-to-int
//   conversion), r = t - n*ln2 in two steps (Cody-Waite: ln2_hi has 9 trailing zero bits so
//   n*ln2_hi is exact), |r| <= ln2/2, e^r - 1 by its degree-7 Taylor polynomial (truncation
//   < 1e-8 relative); 2^n is built from the exponent bits, as two factors so that results in
//   the denormal range are rounded once, correctly, instead of flushed.
// Accuracy over every float input (tests/runtime/tst_portable_vmath.cpp sweeps 16.7 million
// bit patterns spread over all 2^32, denormals included, plus +-inf and NaN, against double
// precision; measured maximum in brackets, x86-64 with FMA):
//   exp <= 3 ulp [1.0], overflowing to +inf and underflowing to +0 where expf does;
//   sigmoid <= 3 ulp [2.3]; tanh <= 3 ulp [2.5]; elu (expm1) <= 3 ulp [0.9];
//   silu x*sigmoid(x) <= 4 ulp [2.9] where |y| >= 1e-30 (absolute below: denormal sigmoids);
//   erf <= 8 ulp [6.9] (the rational approximation's own error near +-1);
//   gelu, erf form: <= 12 ulp of max(|y|, 1) [9.2] (1 + erf cancels for x < 0: an absolute
//   error of ~1e-6 there); gelu, tanh form: <= 48 ulp where |y| >= 1e-7 [41] (the rounding of
//   u = sqrt(2/pi)(x + 0.044715x^3) in float, magnified |2u| times by the sigmoid).
// NaN in gives NaN out; +-inf give the limits (sigmoid 0/1, tanh and erf +-1).
namespace embark::portable::vmath {

inline float bits_to_float(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

inline uint32_t float_to_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// c ? a : b through bit masks: both a and b are computed whatever c is (see below).
inline float select(bool c, float a, float b) {
    const uint32_t m = 0u - static_cast<uint32_t>(c);
    return bits_to_float((float_to_bits(a) & m) | (float_to_bits(b) & ~m));
}

// e^r - 1 for |r| <= ln2/2 (Taylor to r^7).
inline float expm1_reduced(float r) {
    float p = 1.f / 5040.f;
    p = p * r + 1.f / 720.f;
    p = p * r + 1.f / 120.f;
    p = p * r + 1.f / 24.f;
    p = p * r + 1.f / 6.f;
    p = p * r + 0.5f;
    return (p * r) * r + r;
}

// Range reduction: t = n*ln2 + r. Returns r and n's exponent field bits in *n_bits
// (n << 23 as a two's-complement integer).
inline float reduce(float t, int32_t* n) {
    constexpr float kLog2e = 1.44269504088896341f;
    constexpr float kMagic = 12582912.f;             // 0x1.8p23: adding it rounds to an integer in the low bits
    constexpr float kLn2Hi = 0.693145751953125f;     // 0x1.62E400p-1, 9 trailing zero bits
    constexpr float kLn2Lo = 1.428606765330187e-06f; // 0x1.7F7D1Cp-20
    const float biased = t * kLog2e + kMagic;
    *n = static_cast<int32_t>(float_to_bits(biased) - float_to_bits(kMagic));
    const float nf = biased - kMagic;
    float r = t - nf * kLn2Hi;
    r = r - nf * kLn2Lo;
    return r;
}

// Why range checks are bit-mask selects at the end, never clamps of the input nor `c ? a : b`
// on computed values: GCC threads a jump through a clamp to a constant (folding the function
// for that constant) and sinks a value that one arm of a ?: does not use into the other arm;
// either leaves control flow in the loop, and GCC does not if-convert arms that may raise a
// floating-point exception (it keeps -ftrapping-math), so the loop stays scalar. Computing on
// the raw input is harmless: no integer overflow, only garbage that the selects discard.

// e^t for every float t.
inline float exp(float t) {
    int32_t n;
    const float r = reduce(t, &n);
    const float q = expm1_reduced(r);
    // 2^n = 2^n1 * 2^n2 with both halves normal floats for n in [-150, 128].
    const uint32_t n1 = static_cast<uint32_t>(n >> 1), n2 = static_cast<uint32_t>(n) - n1;
    const float s1 = bits_to_float((n1 + 127u) << 23);
    const float s2 = bits_to_float((n2 + 127u) << 23);
    float y = (q * s1 + s1) * s2;
    // Past 88.73 e^t overflows, below -103.98 it rounds to 0 (NaN fails both tests).
    y = select(t > 88.7228394f, INFINITY, y);
    return select(t < -103.972084f, 0.f, y);
}

// e^t - 1 for t <= 0 (tanh's and Elu's range), accurate near 0; t > 0 gives garbage.
inline float expm1_nonpositive(float t) {
    int32_t n;
    const float r = reduce(t, &n);
    const float q = expm1_reduced(r);
    const float s = bits_to_float((static_cast<uint32_t>(n) + 127u) << 23);
    const float y = (s - 1.f) + s * q; // s - 1 is exact for the n near 0 where it matters
    return select(t < -20.f, -1.f, y); // e^-20 - 1 rounds to -1
}

inline float sigmoid(float x) {
    // e = e^-|x|, f = sigmoid(-|x|) = e / (1 + e); no cancellation on either side.
    const float z = x < 0.f ? -x : x;
    const float e = exp(-z);
    const float f = e / (1.f + e);
    return select(x > 0.f, 1.f - f, f);
}

inline float tanh(float x) {
    // tanh|x| = -expm1(-2|x|) / (expm1(-2|x|) + 2).
    const float z = x < 0.f ? -x : x;
    const float em = expm1_nonpositive(-2.f * z);
    const float y = -em / (em + 2.f);
    return select(x < 0.f, -y, y); // NaN stays NaN (y is NaN)
}

// The rational approximation of Eigen/XLA (erf(x) = x * P(x^2) / Q(x^2) on [-4, 4]).
inline float erf(float x) {
    const float x2 = x * x;
    float p = -2.72614225801306e-10f;
    p = p * x2 + 2.77068142495902e-08f;
    p = p * x2 + -2.10102402082508e-06f;
    p = p * x2 + -5.69250639462346e-05f;
    p = p * x2 + -7.34990630326855e-04f;
    p = p * x2 + -2.95459980854025e-03f;
    p = p * x2 + -1.60960333262415e-02f;
    float q = -1.45660718464996e-05f;
    q = q * x2 + -2.13374055278905e-04f;
    q = q * x2 + -1.68282697438203e-03f;
    q = q * x2 + -7.37332916720468e-03f;
    q = q * x2 + -1.42647390514189e-02f;
    float y = x * (p / q); // p / q first: x * p is denormal for x near FLT_MIN
    y = select(y > 1.f, 1.f, y);
    y = select(y < -1.f, -1.f, y);
    y = select(x > 4.f, 1.f, y);
    return select(x < -4.f, -1.f, y);
}

// x * clamp(x / 6 + 1/2, 0, 1), bit-identical to the ?: form.
inline float hard_swish(float x) {
    float gate = x * (1.f / 6.f) + 0.5f;
    gate = select(gate < 0.f, 0.f, gate);
    gate = select(gate > 1.f, 1.f, gate);
    return x * gate;
}

inline float silu(float x) { return x * sigmoid(x); }

// x * Phi(x), the exact (erf) form of GELU.
inline float gelu(float x) { return 0.5f * x * (1.f + erf(x * 0.70710678118654752f)); }

// The tanh form: 0.5 x (1 + tanh(u)) = x * sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3);
// the sigmoid keeps the relative accuracy for negative x, where 1 + tanh(u) cancels.
inline float gelu_tanh(float x) {
    const float u = 0.7978845608028654f * (x + 0.044715f * x * x * x);
    return x * sigmoid(2.f * u);
}

} // namespace embark::portable::vmath

// QuantizeLinear/DequantizeLinear per axis and the requantization of QLinearConv/QLinearMatMul.
#include "qlinear.h"

#include <algorithm>
#include <cmath>

namespace embark::generic {
namespace {

float scaleAt(const QuantAxis& q, int64_t c) {
    return static_cast<float>(elementAsDouble(q.scale, q.scaleType, q.count == 1 ? 0 : c));
}

double zeroAt(const QuantAxis& q, int64_t c) {
    return q.zero ? elementAsDouble(q.zero, q.zeroType, q.count == 1 ? 0 : c) : 0.0;
}

// round(v) half to even (the default rounding mode), plus zero, saturated and stored as t.
void storeQuantized(void* out, ElemType t, int64_t i, double rounded) {
    if (t == ElemType::Int8)
        static_cast<int8_t*>(out)[i] = static_cast<int8_t>(std::clamp(rounded, -128.0, 127.0));
    else
        static_cast<uint8_t*>(out)[i] = static_cast<uint8_t>(std::clamp(rounded, 0.0, 255.0));
}

} // namespace

// clang's RVV vectorization of the requantization loop (int32 -> double, round, narrow) makes
// qemu-riscv64 7.2, which runs the simulated boards, abort in its translator (decode_save_opc
// assertion): that loop stays scalar on RISC-V.
#if defined(__clang__) && defined(__riscv)
#  define EMBARK_QLINEAR_SCALAR_LOOP _Pragma("clang loop vectorize(disable)")
#else
#  define EMBARK_QLINEAR_SCALAR_LOOP
#endif

void quantizeLinear(const float* x, int64_t n, int64_t inner, const QuantAxis& q, void* y, ElemType yType) {
    for (int64_t i = 0; i < n; ++i) {
        const int64_t c = q.count == 1 ? 0 : (i / inner) % q.count;
        const float scaled = x[i] / scaleAt(q, c); // float32 division, as ONNX's reference
        const double v = std::nearbyint(static_cast<double>(scaled)) + zeroAt(q, c);
        storeQuantized(y, yType, i, std::isnan(v) ? 0.0 : v);
    }
}

void dequantizeLinear(const void* x, ElemType xType, int64_t n, int64_t inner, const QuantAxis& q, float* y) {
    for (int64_t i = 0; i < n; ++i) {
        const int64_t c = q.count == 1 ? 0 : (i / inner) % q.count;
        y[i] = (static_cast<float>(elementAsDouble(x, xType, i)) - static_cast<float>(zeroAt(q, c))) * scaleAt(q, c);
    }
}

void qlinearConvRequantize(const int32_t* acc, const int32_t* bias, int64_t batches, int64_t channels, int64_t plane,
                           const QuantAxis& x, const QuantAxis& w, const QuantAxis& y, void* out, ElemType yType) {
    const float xs = scaleAt(x, 0), ys = scaleAt(y, 0);
    const double yz = zeroAt(y, 0);
    for (int64_t c = 0; c < channels; ++c) {
        const double factor = static_cast<double>(xs * scaleAt(w, c) / ys);
        const double b = bias ? static_cast<double>(bias[c]) : 0.0;
        for (int64_t bi = 0; bi < batches; ++bi) {
            const int64_t base = (bi * channels + c) * plane;
            EMBARK_QLINEAR_SCALAR_LOOP
            for (int64_t p = 0; p < plane; ++p)
                storeQuantized(out, yType, base + p,
                               std::nearbyint((static_cast<double>(acc[base + p]) + b) * factor) + yz);
        }
    }
}

void qlinearMatMulRequantize(const int32_t* acc, int64_t n, int64_t rows, int64_t cols, const QuantAxis& a,
                             const QuantAxis& b, const QuantAxis& y, void* out, ElemType yType) {
    for (int64_t i = 0; i < n; ++i) {
        const int64_t row = (i / cols) % rows, col = i % cols;
        const double factor = static_cast<double>(scaleAt(a, row) * scaleAt(b, col) / scaleAt(y, row));
        storeQuantized(out, yType, i, std::nearbyint(static_cast<double>(acc[i]) * factor) + zeroAt(y, row));
    }
}

} // namespace embark::generic

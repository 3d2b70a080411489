// The generic typed kernels (runtime/generic/typed.cpp) built for the boards and run under
// qemu-user by cross_check.sh: dynamic quantization against ONNX's formula, and the run-time
// mask and index ops. Found by bench/zoo/check_families.sh (issue 31): Clang vectorized
// DynamicQuantizeLinear's float-to-uint8 cast into vfncvt.rtz, which Debian 12's qemu-user 7.2
// aborts on while translating, so every dynamically quantized export crashed on sim-k230 and
// sim-k1 (cross_check.sh also checks the disassembly for such conversions).
#include "typed.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace eg = embark::generic;

int main() {
    int failures = 0, cases = 0;
    std::mt19937 rng(7);
    for (int trial = 0; trial < 40; ++trial) {
        const int n = 1 + static_cast<int>(rng() % 700);
        std::uniform_real_distribution<float> dist(trial % 3 ? -3.f : 0.f, trial % 5 ? 5.f : 0.f);
        std::vector<float> x(static_cast<size_t>(n));
        for (float& v : x) v = dist(rng);
        if (trial % 4 == 0) // values on rounding ties
            for (float& v : x) v = std::round(v * 4.f) / 4.f;
        std::vector<uint8_t> y(x.size());
        float scale = 0;
        uint8_t zero = 0;
        eg::dynamicQuantizeLinear(x.data(), n, y.data(), &scale, &zero);
        int bad = 0;
#if defined(__clang__)
#  pragma clang loop vectorize(disable)
#endif
        for (int i = 0; i < n; ++i) {
            // All zeros: scale 0, every byte the zero point 0.
            const float want =
                scale == 0.f ? 0.f : std::clamp(std::nearbyint(x[static_cast<size_t>(i)] / scale) + zero, 0.f, 255.f);
            bad += y[static_cast<size_t>(i)] != static_cast<uint8_t>(want);
        }
        ++cases;
        if (bad) {
            ++failures;
            std::printf("dynamicQuantizeLinear trial %d: %d of %d bytes differ\n", trial, bad, n);
        }
    }
    // Where(idx / 5 * 10 + idx mod -3 if -7 < idx < 9 else -1), on int64.
    const std::vector<int64_t> idx{-8, -7, -6, -1, 0, 4, 8, 9};
    const std::vector<int64_t> want{-1, -1, -10, -1, 0, -2, 9, -1};
    eg::Shape s8{1, {8}}, s1{1, {1}};
    const int64_t five = 5, m3 = -3, m7 = -7, nine = 9, ten = 10, none = -1;
    std::vector<int64_t> row(8), col(8), rc(8), got(8);
    std::vector<uint8_t> lo(8), hi(8), in(8);
    auto run = [&](eg::TypedOp op, std::vector<const void*> ins, std::vector<eg::ElemType> types,
                   std::vector<eg::Shape> shapes, void* out, eg::ElemType outType) {
        eg::typedElementwise(op, static_cast<int>(ins.size()), ins.data(), types.data(), shapes.data(), out, outType,
                             s8);
    };
    const auto I = eg::ElemType::Int64, B = eg::ElemType::Bool;
    run(eg::TypedOp::Div, {idx.data(), &five}, {I, I}, {s8, s1}, row.data(), I);
    run(eg::TypedOp::Mod, {idx.data(), &m3}, {I, I}, {s8, s1}, col.data(), I);
    run(eg::TypedOp::Mul, {row.data(), &ten}, {I, I}, {s8, s1}, rc.data(), I);
    run(eg::TypedOp::Add, {rc.data(), col.data()}, {I, I}, {s8, s8}, rc.data(), I);
    run(eg::TypedOp::Less, {&m7, idx.data()}, {I, I}, {s1, s8}, lo.data(), B);
    run(eg::TypedOp::Less, {idx.data(), &nine}, {I, I}, {s8, s1}, hi.data(), B);
    run(eg::TypedOp::And, {lo.data(), hi.data()}, {B, B}, {s8, s8}, in.data(), B);
    run(eg::TypedOp::Where, {in.data(), rc.data(), &none}, {B, I, I}, {s8, s8, s1}, got.data(), I);
    ++cases;
    if (got != want) {
        ++failures;
        std::printf("typedElementwise index arithmetic differs:");
        for (int64_t v : got) std::printf(" %lld", static_cast<long long>(v));
        std::printf("\n");
    }
    std::printf("generic_check: %d of %d cases ok\n", cases - failures, cases);
    return failures == 0 ? 0 : 1;
}

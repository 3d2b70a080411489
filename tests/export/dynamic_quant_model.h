// A small CNN + MLP as ONNX Runtime's quantize_dynamic writes one (its QOperator form): each
// Conv and MatMul becomes DynamicQuantizeLinear -> ConvInteger / MatMulInteger -> Cast ->
// Mul(x_scale * w_scale) -> Add bias. uint8 weights with a zero point on the first convolution,
// int8 symmetric ones elsewhere, as its weight types allow.
#pragma once

#include "support/graph_builder.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

namespace embark::test {

inline ir::Graph dynamicQuantizedModel() {
    using ir::OpKind;
    GraphBuilder b("dynamic_quant");
    std::mt19937 rng(5);
    std::normal_distribution<float> normal(0.f, 1.f);
    // Quantized weights of `shape`, their scale and zero point (scalars).
    auto qweight = [&](const std::string& name, ir::Shape shape, float stddev, bool isSigned) {
        std::vector<float> w(static_cast<size_t>(shape.numel()));
        for (float& v : w) v = normal(rng) * stddev;
        float lo = 0, hi = 0;
        for (float v : w) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        float scale = 0, zero = 0;
        std::vector<float> q(w.size());
        if (isSigned) {
            scale = std::max(hi, -lo) / 127.f;
            for (size_t i = 0; i < w.size(); ++i) q[i] = std::clamp(std::nearbyint(w[i] / scale), -127.f, 127.f);
        } else {
            scale = (hi - lo) / 255.f;
            zero = std::clamp(std::nearbyint(-lo / scale), 0.f, 255.f);
            for (size_t i = 0; i < w.size(); ++i) q[i] = std::clamp(std::nearbyint(w[i] / scale) + zero, 0.f, 255.f);
        }
        const ir::DType t = isSigned ? ir::DType::Int8 : ir::DType::UInt8;
        ir::Value* wq = b.constant(name + "_wq", ir::Tensor::fromFloats(shape, q).castTo(t));
        ir::Value* ws = b.constant(name + "_ws", ir::Tensor::scalarFloat(scale));
        ir::Value* wz = b.constant(name + "_wz", ir::Tensor::fromFloats(ir::Shape{}, {zero}).castTo(t));
        return std::array<ir::Value*, 3>{wq, ws, wz};
    };
    auto dequantize = [&](ir::Value* acc, ir::Value* xs, ir::Value* ws, const std::string& name) {
        ir::Value* f = b.op(OpKind::Cast, {acc}, {{"to", int64_t{1}}}, name + "_cast");
        ir::Value* scale = b.op(OpKind::Mul, {xs, ws}, {}, name + "_scale_mul");
        return b.op(OpKind::Mul, {f, scale}, {}, name + "_deq_mul");
    };
    auto conv = [&](ir::Value* x, int64_t cin, int64_t cout, const std::string& name, bool isSigned) {
        auto [wq, ws, wz] = qweight(name, ir::Shape{cout, cin, 3, 3}, 0.3f, isSigned);
        auto q = b.opN(OpKind::DynamicQuantizeLinear, {x}, 3, {}, name + "_dql");
        ir::Value* acc =
            b.op(OpKind::ConvInteger, {q[0], wq, q[2], wz},
                 {{"strides", std::vector<int64_t>{2, 2}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}}, name);
        ir::Value* y =
            b.op(OpKind::Add, {dequantize(acc, q[1], ws, name), b.weights(name + "_b", {1, cout, 1, 1}, 0.1f)}, {},
                 name + "_bias");
        return b.op(OpKind::Relu, {y}, {}, name + "_relu");
    };
    auto matmul = [&](ir::Value* x, int64_t k, int64_t n, const std::string& name) {
        auto [wq, ws, wz] = qweight(name, ir::Shape{k, n}, 0.2f, true);
        auto q = b.opN(OpKind::DynamicQuantizeLinear, {x}, 3, {}, name + "_dql");
        ir::Value* acc = b.op(OpKind::MatMulInteger, {q[0], wq, q[2], wz}, {}, name);
        return b.op(OpKind::Add, {dequantize(acc, q[1], ws, name), b.weights(name + "_b", {n}, 0.1f)}, {},
                    name + "_bias");
    };
    ir::Value* x = b.input("input", {1, 3, 32, 32});
    x = conv(x, 3, 8, "conv1", false);
    x = conv(x, 8, 16, "conv2", true);
    x = b.op(OpKind::Flatten, {x}, {{"axis", int64_t{1}}}, "flatten");
    x = b.op(OpKind::Relu, {matmul(x, 16 * 8 * 8, 32, "fc1")}, {}, "fc1_relu");
    b.output(matmul(x, 32, 10, "fc2"));
    return b.build();
}

} // namespace embark::test

// Small QDQ graphs (float input -> QuantizeLinear/DequantizeLinear around each op -> float
// output), as `embark-cli quantize` and ONNX Runtime's quantizer write them, for the fuse_qdq
// pass test (tests/passes/tst_fuse_qdq) and the int8 export test (tst_export_quantized).
#pragma once

#include "support/graph_builder.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace embark::test::qdq {

struct Case {
    std::string name;
    std::function<ir::Graph()> build;
    // True when the fused graph computes exactly what the QDQ graph does (the same float32
    // operations, or data movement and max, which commute with the monotone quantization);
    // false when int32 sums and requantization replace float sums (within one quantum).
    bool exact = false;
    std::vector<ir::OpKind> expectOps; // ops the fused graph must contain
};

inline ir::Tensor int8Scalar(int v) {
    const int8_t b = static_cast<int8_t>(v);
    return ir::Tensor::fromBytes(ir::DType::Int8, ir::Shape{}, &b, 1);
}

// x -> QuantizeLinear -> DequantizeLinear with scale s and zero point z.
inline ir::Value* qdq(GraphBuilder& b, ir::Value* x, float s, int z, const std::string& name) {
    ir::Value* sc = b.constant(name + "_scale", ir::Tensor::scalarFloat(s));
    ir::Value* zp = b.constant(name + "_zero_point", int8Scalar(z));
    ir::Value* q = b.op(ir::OpKind::QuantizeLinear, {x, sc, zp}, {}, name + "_QuantizeLinear");
    return b.op(ir::OpKind::DequantizeLinear, {q, sc, zp}, {}, name + "_DequantizeLinear");
}

// Deterministic float weights quantized symmetric int8 per index of `axis`, behind a
// DequantizeLinear. Returns the dequantized value; scales in *scales.
inline ir::Value* weightsDq(GraphBuilder& b, const std::string& name, ir::Shape shape, int64_t axis,
                            std::vector<float>* scales = nullptr) {
    const int64_t n = shape.numel(), channels = shape[static_cast<size_t>(axis)];
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < shape.rank(); ++d) inner *= shape[d];
    std::vector<int8_t> q(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) q[static_cast<size_t>(i)] = static_cast<int8_t>((i * 73 + 11) % 255 - 127);
    std::vector<float> s(static_cast<size_t>(channels));
    for (int64_t c = 0; c < channels; ++c) s[static_cast<size_t>(c)] = 0.002f + 0.0005f * static_cast<float>(c % 7);
    ir::Value* wq = b.constant(name + "_quantized", ir::Tensor::fromBytes(ir::DType::Int8, shape, q.data(), q.size()));
    ir::Value* ws = b.constant(name + "_scale", ir::Tensor::fromFloats(ir::Shape{channels}, s));
    ir::Value* w = b.op(ir::OpKind::DequantizeLinear, {wq, ws}, {{"axis", axis}}, name + "_DequantizeLinear");
    (void)inner;
    if (scales) *scales = s;
    return w;
}

// An int32 bias with scale x_scale * w_scale[c] behind a DequantizeLinear.
inline ir::Value* biasDq(GraphBuilder& b, const std::string& name, float xScale, const std::vector<float>& wScales) {
    const int64_t n = static_cast<int64_t>(wScales.size());
    std::vector<int32_t> q(static_cast<size_t>(n));
    std::vector<float> s(static_cast<size_t>(n));
    for (int64_t c = 0; c < n; ++c) {
        q[static_cast<size_t>(c)] = static_cast<int32_t>((c * 977) % 4001 - 2000);
        s[static_cast<size_t>(c)] = xScale * wScales[static_cast<size_t>(c)];
    }
    ir::Value* bq =
        b.constant(name + "_quantized", ir::Tensor::fromBytes(ir::DType::Int32, ir::Shape{n}, q.data(), q.size() * 4));
    ir::Value* bs = b.constant(name + "_scale", ir::Tensor::fromFloats(ir::Shape{n}, s));
    return b.op(ir::OpKind::DequantizeLinear, {bq, bs}, {{"axis", int64_t{0}}}, name + "_DequantizeLinear");
}

inline ir::Graph convGraph(int64_t group, int64_t inC, int64_t outC, int64_t stride, ir::OpKind act) {
    GraphBuilder b("qconv");
    ir::Value* x = qdq(b, b.input("x", ir::Shape{1, inC, 9, 8}), 0.02f, -3, "x");
    std::vector<float> ws;
    ir::Value* w = weightsDq(b, "w", ir::Shape{outC, inC / group, 3, 3}, 0, &ws);
    ir::Value* bias = biasDq(b, "b", 0.02f, ws);
    ir::Attributes a{{"pads", std::vector<int64_t>{1, 1, 1, 1}},
                     {"group", group},
                     {"strides", std::vector<int64_t>{stride, stride}},
                     {"kernel_shape", std::vector<int64_t>{3, 3}}};
    ir::Value* y = b.op(ir::OpKind::Conv, {x, w, bias}, a, "conv");
    if (act == ir::OpKind::Relu) y = b.op(ir::OpKind::Relu, {y}, {}, "relu");
    if (act == ir::OpKind::Clip)
        y = b.op(ir::OpKind::Clip,
                 {y, b.constant("lo", ir::Tensor::scalarFloat(0.f)), b.constant("hi", ir::Tensor::scalarFloat(0.5f))},
                 {}, "clip");
    b.output(qdq(b, y, 0.01f, act == ir::OpKind::Identity ? 2 : -128, "y"));
    return b.build();
}

inline ir::Graph gemmGraph(bool matmul) {
    GraphBuilder b(matmul ? "qmatmul" : "qgemm");
    ir::Value* x = qdq(b, b.input("x", matmul ? ir::Shape{1, 3, 16} : ir::Shape{2, 16}), 0.015f, 5, "x");
    std::vector<float> ws;
    ir::Value* y;
    if (matmul) {
        y = b.op(ir::OpKind::MatMul, {x, weightsDq(b, "w", ir::Shape{16, 8}, 1, &ws)}, {}, "matmul");
    } else {
        ir::Value* w = weightsDq(b, "w", ir::Shape{8, 16}, 0, &ws);
        y = b.op(ir::OpKind::Gemm, {x, w, biasDq(b, "b", 0.015f, ws)}, {{"transB", int64_t{1}}}, "gemm");
        y = b.op(ir::OpKind::Relu, {y}, {}, "relu");
    }
    b.output(qdq(b, y, 0.004f, matmul ? 0 : -128, "y"));
    return b.build();
}

inline ir::Graph addGraph() {
    GraphBuilder b("qadd");
    ir::Value* a = qdq(b, b.input("a", ir::Shape{1, 4, 5, 6}), 0.01f, 3, "a");
    ir::Value* c = qdq(b, b.input("b", ir::Shape{1, 4, 5, 6}), 0.013f, -7, "b");
    ir::Value* y = b.op(ir::OpKind::Relu, {b.op(ir::OpKind::Add, {a, c}, {}, "add")}, {}, "relu");
    b.output(qdq(b, y, 0.011f, -128, "y"));
    return b.build();
}

inline ir::Graph poolGraph(ir::OpKind op) {
    GraphBuilder b("qpool");
    ir::Value* x = qdq(b, b.input("x", ir::Shape{1, 5, 7, 7}), 0.01f, -20, "x");
    ir::Value* y;
    if (op == ir::OpKind::MaxPool)
        y = b.op(op, {x},
                 {{"kernel_shape", std::vector<int64_t>{3, 3}},
                  {"strides", std::vector<int64_t>{2, 2}},
                  {"pads", std::vector<int64_t>{1, 1, 1, 1}}},
                 "pool");
    else if (op == ir::OpKind::AveragePool)
        y = b.op(op, {x}, {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}},
                 "pool");
    else
        y = b.op(ir::OpKind::Flatten, {b.op(op, {x}, {}, "pool")}, {}, "flatten");
    b.output(qdq(b, y, 0.007f, 4, "y")); // another scale: requantized
    return b.build();
}

inline ir::Graph concatGraph() {
    GraphBuilder b("qconcat");
    ir::Value* a = qdq(b, b.input("a", ir::Shape{1, 2, 4, 4}), 0.01f, 0, "a");
    ir::Value* c = qdq(b, b.input("b", ir::Shape{1, 3, 4, 4}), 0.02f, 10, "b");
    ir::Value* y = b.op(ir::OpKind::Concat, {a, c}, {{"axis", int64_t{1}}}, "concat");
    b.output(qdq(b, y, 0.02f, 10, "y")); // b's parameters: only a is requantized
    return b.build();
}

// Concat -> MaxPool -> QuantizeLinear with no QuantizeLinear on the concatenation (SqueezeNet's
// fire modules before a pool, as quantized by `embark-cli quantize`): the QuantizeLinear moves
// in front of the pool and both ops run on int8.
inline ir::Graph concatMaxPoolGraph() {
    GraphBuilder b("qconcatpool");
    ir::Value* a = qdq(b, b.input("a", ir::Shape{1, 2, 6, 6}), 0.01f, -128, "a");
    ir::Value* c = qdq(b, b.input("b", ir::Shape{1, 3, 6, 6}), 0.02f, -128, "b");
    ir::Value* y = b.op(ir::OpKind::Concat, {a, c}, {{"axis", int64_t{1}}}, "concat");
    ir::Value* p =
        b.op(ir::OpKind::MaxPool, {y},
             {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"strides", std::vector<int64_t>{2, 2}}}, "pool");
    b.output(qdq(b, p, 0.015f, -100, "y"));
    return b.build();
}

inline ir::Graph layoutGraph() {
    GraphBuilder b("qlayout");
    ir::Value* x = qdq(b, b.input("x", ir::Shape{1, 2, 3, 4}), 0.01f, 1, "x");
    ir::Value* t = b.op(ir::OpKind::Transpose, {x}, {{"perm", std::vector<int64_t>{0, 3, 1, 2}}}, "transpose");
    ir::Value* r = b.op(ir::OpKind::Reshape, {t, b.ints("shape", {1, 24})}, {}, "reshape");
    b.output(qdq(b, r, 0.008f, -2, "y"));
    return b.build();
}

inline ir::Graph sigmoidGraph() {
    GraphBuilder b("qsigmoid");
    ir::Value* x = qdq(b, b.input("x", ir::Shape{2, 50}), 0.03f, 0, "x");
    b.output(qdq(b, b.op(ir::OpKind::Sigmoid, {x}, {}, "sigmoid"), 1.f / 256, -128, "y"));
    return b.build();
}

inline std::vector<Case> cases() {
    using K = ir::OpKind;
    return {
        {"conv relu", [] { return convGraph(1, 3, 4, 1, K::Relu); }, false, {K::QConv}},
        {"conv no activation", [] { return convGraph(1, 3, 4, 2, K::Identity); }, false, {K::QConv}},
        {"depthwise clip", [] { return convGraph(4, 4, 4, 2, K::Clip); }, false, {K::QConv}},
        {"grouped conv", [] { return convGraph(2, 4, 6, 1, K::Relu); }, false, {K::QConv}},
        {"gemm relu", [] { return gemmGraph(false); }, false, {K::QGemm}},
        {"matmul 3-D", [] { return gemmGraph(true); }, false, {K::QGemm}},
        {"add relu", addGraph, true, {K::QAdd}},
        {"max pool", [] { return poolGraph(K::MaxPool); }, true, {K::MaxPool, K::QLookup}},
        {"average pool", [] { return poolGraph(K::AveragePool); }, false, {K::QAveragePool}},
        {"global average pool", [] { return poolGraph(K::GlobalAveragePool); }, false, {K::QAveragePool, K::Flatten}},
        {"concat", concatGraph, true, {K::Concat, K::QLookup}},
        {"concat then max pool", concatMaxPoolGraph, true, {K::Concat, K::MaxPool, K::QLookup}},
        {"transpose reshape", layoutGraph, true, {K::Transpose, K::Reshape, K::QLookup}},
        {"sigmoid table", sigmoidGraph, true, {K::QLookup}},
    };
}

} // namespace embark::test::qdq

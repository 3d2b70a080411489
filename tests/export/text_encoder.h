// A small BERT-like text encoder built in code, as torch.onnx.export (opset 17) writes an
// nn.Embedding + nn.TransformerEncoderLayer + a linear head: int64 token ids into a Gather,
// multi-head self-attention (MatMul, Reshape, Transpose, Softmax), LayerNormalization and a
// ReLU feed-forward block, mean over the sequence. With `extraIo`, a bool attention mask input
// and int32, uint8 and float16 outputs besides the float32 logits.
#pragma once

#include "support/graph_builder.h"

#include <cmath>

namespace embark::test {

inline ir::Graph textEncoder(int64_t seq = 8, bool extraIo = false, int64_t vocab = 50) {
    using ir::OpKind;
    constexpr int64_t d = 16, heads = 2, ffn = 32;
    GraphBuilder b("text_encoder");
    ir::Value* ids = b.input("input_ids", {1, seq}, ir::DType::Int64);
    ir::Value* h = b.op(OpKind::Gather, {b.weights("embeddings", {vocab, d}), ids}, {{"axis", int64_t{0}}}, "embed");
    h = b.op(OpKind::Add, {h, b.weights("positions", {1, seq, d}, 0.1f)}, {}, "add_positions");
    if (extraIo) {
        ir::Value* mask = b.input("attention_mask", {1, seq}, ir::DType::Bool);
        ir::Value* m = b.op(OpKind::Cast, {mask}, {{"to", int64_t{1}}}, "mask_to_float");
        m = b.op(OpKind::Unsqueeze, {m, b.ints("mask_axes", {2})}, {}, "mask_unsqueeze");
        h = b.op(OpKind::Mul, {h, m}, {}, "apply_mask");
    }
    auto linear = [&](ir::Value* x, int64_t in, int64_t out, const std::string& name) {
        ir::Value* y = b.op(OpKind::MatMul, {x, b.weights(name + ".weight", {in, out}, 0.3f)}, {}, name + "/MatMul");
        return b.op(OpKind::Add, {y, b.weights(name + ".bias", {out}, 0.1f)}, {}, name + "/Add");
    };
    auto heads4 = [&](ir::Value* x, const std::string& name, std::vector<int64_t> perm) {
        ir::Value* r =
            b.op(OpKind::Reshape, {x, b.ints(name + "_shape", {1, seq, heads, d / heads})}, {}, name + "/Reshape");
        return b.op(OpKind::Transpose, {r}, {{"perm", perm}}, name + "/Transpose");
    };
    ir::Value* q = heads4(linear(h, d, d, "q_proj"), "q", {0, 2, 1, 3});
    ir::Value* k = heads4(linear(h, d, d, "k_proj"), "k", {0, 2, 3, 1});
    ir::Value* v = heads4(linear(h, d, d, "v_proj"), "v", {0, 2, 1, 3});
    ir::Value* s = b.op(OpKind::MatMul, {q, k}, {}, "scores");
    s = b.op(OpKind::Div, {s, b.floats("sqrt_head_dim", {std::sqrt(static_cast<float>(d / heads))})}, {}, "scale");
    s = b.op(OpKind::Softmax, {s}, {{"axis", int64_t{-1}}}, "softmax");
    ir::Value* c = b.op(OpKind::MatMul, {s, v}, {}, "context");
    c = b.op(OpKind::Transpose, {c}, {{"perm", std::vector<int64_t>{0, 2, 1, 3}}}, "context/Transpose");
    c = b.op(OpKind::Reshape, {c, b.ints("context_shape", {1, seq, d})}, {}, "context/Reshape");
    c = linear(c, d, d, "out_proj");
    h = b.op(OpKind::Add, {h, c}, {}, "residual1");
    h = b.op(OpKind::LayerNormalization, {h, b.weights("norm1.weight", {d}), b.weights("norm1.bias", {d})},
             {{"axis", int64_t{-1}}, {"epsilon", 1e-5f}}, "norm1");
    ir::Value* f = b.op(OpKind::Relu, {linear(h, d, ffn, "linear1")}, {}, "relu");
    h = b.op(OpKind::Add, {h, linear(f, ffn, d, "linear2")}, {}, "residual2");
    h = b.op(OpKind::LayerNormalization, {h, b.weights("norm2.weight", {d}), b.weights("norm2.bias", {d})},
             {{"axis", int64_t{-1}}, {"epsilon", 1e-5f}}, "norm2");
    h = b.op(OpKind::ReduceMean, {h}, {{"axes", std::vector<int64_t>{1}}, {"keepdims", int64_t{0}}}, "pool");
    ir::Value* logits = b.op(OpKind::Gemm, {h, b.weights("head.weight", {3, d}), b.weights("head.bias", {3}, 0.1f)},
                             {{"transB", int64_t{1}}}, "logits");
    b.output(logits);
    if (extraIo) {
        b.output(b.op(OpKind::Cast, {ids}, {{"to", int64_t{6}}}, "ids_int32"));
        b.output(b.op(OpKind::Cast, {ids}, {{"to", int64_t{2}}}, "ids_uint8"));
        b.output(b.op(OpKind::Cast, {logits}, {{"to", int64_t{10}}}, "logits_half"));
    }
    return b.build();
}

} // namespace embark::test

#include "model_stats.h"

#include <set>

namespace embark::ir {

int64_t nodeMacs(const Node& node) {
    const Value* out = node.output(0);
    if (!out) return 0;
    switch (node.op) {
    case OpKind::Conv: {
        const Value* w = node.input(1);
        if (!w || w->shape.rank() < 3) return 0;
        int64_t perOutput = 1; // Cin/group * kernel taps
        for (size_t i = 1; i < w->shape.rank(); ++i) perOutput *= w->shape[i];
        return out->shape.numel() * perOutput;
    }
    case OpKind::QLinearConv:
    case OpKind::ConvInteger: {
        const Value* w = node.input(node.op == OpKind::QLinearConv ? 3 : 1);
        if (!w || w->shape.rank() < 3) return 0;
        int64_t perOutput = 1;
        for (size_t i = 1; i < w->shape.rank(); ++i) perOutput *= w->shape[i];
        return out->shape.numel() * perOutput;
    }
    case OpKind::QLinearMatMul:
    case OpKind::MatMulInteger: {
        const Value* a = node.input(0);
        if (!a || a->shape.rank() == 0) return 0;
        return out->shape.numel() * a->shape[a->shape.rank() - 1];
    }
    case OpKind::ConvTranspose: {
        const Value* in = node.input(0);
        const Value* w = node.input(1);
        if (!in || !w || w->shape.rank() < 3) return 0;
        int64_t perInput = 1; // Cout/group * kernel taps
        for (size_t i = 1; i < w->shape.rank(); ++i) perInput *= w->shape[i];
        return in->shape.numel() * perInput;
    }
    case OpKind::Gemm: {
        const Value* a = node.input(0);
        if (!a || a->shape.rank() != 2) return 0;
        const int64_t k = node.attrInt("transA", 0) ? a->shape[0] : a->shape[1];
        return out->shape.numel() * k;
    }
    case OpKind::MatMul: {
        const Value* a = node.input(0);
        if (!a || a->shape.rank() == 0) return 0;
        return out->shape.numel() * a->shape[a->shape.rank() - 1];
    }
    case OpKind::LSTM:
    case OpKind::GRU:
    case OpKind::RNN: {
        // Every step multiplies x by W and h by R: seq * batch * directions * (W + R elements).
        const Value* x = node.input(0);
        const Value* w = node.input(1);
        const Value* r = node.input(2);
        if (!x || !w || !r || x->shape.rank() != 3 || w->shape.rank() != 3) return 0;
        return x->shape[0] * x->shape[1] * (w->shape.numel() + r->shape.numel());
    }
    default: return 0;
    }
}

namespace {
// Float constants, and the integer weights and biases of quantized models (not their zero
// points, shapes or axes).
bool isParameter(const Node& node, size_t index) {
    const Value* v = node.input(index);
    if (!v || !v->isConstant()) return false;
    if (isFloating(v->dtype)) return true;
    switch (node.op) {
    case OpKind::DequantizeLinear: return index == 0;
    case OpKind::QLinearConv: return index == 3 || index == 8;
    case OpKind::QLinearMatMul: return index == 0 || index == 3;
    case OpKind::ConvInteger:
    case OpKind::MatMulInteger: return index <= 1;
    default: return false;
    }
}
} // namespace

ParamCount nodeParams(const Node& node) {
    ParamCount p;
    for (size_t i = 0; i < node.inputs().size(); ++i) {
        const Value* v = node.input(i);
        if (!isParameter(node, i)) continue;
        p.count += v->shape.numel();
        p.bytes += static_cast<int64_t>(v->byteSize());
    }
    return p;
}

ModelStats modelStats(const Graph& graph) {
    ModelStats s;
    std::set<const Value*> seen;
    for (const Node* n : graph.nodes()) {
        ++s.opHistogram[std::string(opName(n->op))];
        s.macs += nodeMacs(*n);
        for (size_t i = 0; i < n->inputs().size(); ++i) {
            const Value* v = n->input(i);
            if (!isParameter(*n, i) || !seen.insert(v).second) continue;
            s.params.count += v->shape.numel();
            s.params.bytes += static_cast<int64_t>(v->byteSize());
        }
        for (const Value* v : n->outputs()) {
            if (!v) continue;
            const auto bytes = static_cast<int64_t>(v->byteSize());
            s.activationBytes += bytes;
            if (bytes > s.largestActivation) s.largestActivation = bytes;
        }
    }
    return s;
}

} // namespace embark::ir

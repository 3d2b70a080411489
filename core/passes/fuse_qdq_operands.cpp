// The operands of a QDQ pattern and the values a fused node carries (fuse_qdq_operands.h).
#include "fuse_qdq_operands.h"
#include "graph_rewrite.h"

#include "ir/fused.h"
#include "reference/interpreter.h"

#include <algorithm>
#include <cmath>

namespace embark::passes::detail {
namespace {

using ir::DType;
using ir::OpKind;

// Int8 tensor of the 256 values -128..127.
ir::Tensor allInt8() {
    std::vector<int8_t> v(256);
    for (int i = 0; i < 256; ++i) v[static_cast<size_t>(i)] = static_cast<int8_t>(i - 128);
    return ir::Tensor::fromBytes(DType::Int8, ir::Shape{256}, v.data(), v.size());
}

std::vector<ir::Tensor> nodeInputs(const ir::Node& n, const ir::Tensor& first) {
    std::vector<ir::Tensor> ins{first};
    for (size_t i = 1; i < n.inputs().size(); ++i) ins.push_back(n.input(i) ? n.input(i)->constant : ir::Tensor());
    return ins;
}

// QuantizeLinear's value of a float (for the bounds of a fused Clip).
int64_t quantizeScalar(const ir::Node& q, float v) {
    auto y = reference::evalNode(q, nodeInputs(q, ir::Tensor::scalarFloat(v)));
    return y && !y->empty() ? y->front().intAt(0) : 0;
}

} // namespace

// The scalar scale and int8 zero point of a QuantizeLinear or DequantizeLinear (inputs 1, 2).
std::optional<QParams> scalarParams(const ir::Node& n) {
    const ir::Tensor* s = constantInput(&n, 1);
    if (!s || s->numel() != 1 || s->dtype() != DType::Float32) return std::nullopt;
    const ir::Tensor* z = constantInput(&n, 2);
    if (n.input(2) && !z) return std::nullopt;
    if (z && (z->numel() != 1 || z->dtype() != DType::Int8)) return std::nullopt;
    if (!z && n.op == OpKind::QuantizeLinear) return std::nullopt; // uint8 by default
    const float scale = static_cast<float>(s->at(0));
    if (!(scale > 0) || !std::isfinite(scale)) return std::nullopt;
    return QParams{scale, z ? z->intAt(0) : 0};
}

// A DequantizeLinear of a run-time int8 tensor per tensor, producing `v`.
ir::Node* activationDq(const ir::Value* v) {
    ir::Node* p = v ? v->producer() : nullptr;
    if (!p || p->op != OpKind::DequantizeLinear || !p->input(0) || p->input(0)->isConstant() ||
        p->input(0)->dtype != DType::Int8 || !scalarParams(*p))
        return nullptr;
    return p;
}

// The QuantizeLinear (int8, per tensor) that alone reads `v`.
ir::Node* soleQuantize(const ir::Value* v) {
    ir::Node* q = soleConsumer(v);
    if (!q || q->op != OpKind::QuantizeLinear || q->input(0) != v || !q->output(0) ||
        q->output(0)->dtype != DType::Int8 || !scalarParams(*q))
        return nullptr;
    return q;
}

// table[q + 128] = Q(middle(DQ(q))) through the reference's own kernels (middle may be null).
std::optional<std::vector<int64_t>> lookupTable(const ir::Node& dq, const ir::Node* middle, const ir::Node& q) {
    auto f = reference::evalNode(dq, nodeInputs(dq, allInt8()));
    if (!f || f->empty()) return std::nullopt;
    ir::Tensor x = f->front();
    if (middle) {
        auto m = reference::evalNode(*middle, nodeInputs(*middle, x));
        if (!m || m->empty() || m->front().numel() != 256 || m->front().dtype() != DType::Float32) return std::nullopt;
        x = m->front();
    }
    auto y = reference::evalNode(q, nodeInputs(q, x));
    if (!y || y->empty() || y->front().dtype() != DType::Int8) return std::nullopt;
    std::vector<int64_t> table(256);
    for (int64_t i = 0; i < 256; ++i) table[static_cast<size_t>(i)] = y->front().intAt(i);
    return table;
}

// The Relu or Clip (constant bounds) that alone reads `v`, if any.
ir::Node* clampAfter(const ir::Value* v) {
    ir::Node* a = soleConsumer(v);
    if (!a || a->input(0) != v || ir::fusedActivation(*a)) return nullptr;
    if (a->op == OpKind::Relu) return a;
    if (a->op != OpKind::Clip) return nullptr;
    for (size_t i = 1; i < 3; ++i)
        if (a->input(i) && (!constantInput(a, i) || constantInput(a, i)->numel() != 1)) return nullptr;
    return a;
}

// Output range [out_min, out_max] in int8 of an optional Relu/Clip before QuantizeLinear q.
std::pair<int64_t, int64_t> outputRange(const ir::Node* act, const ir::Node& q, const QParams& y) {
    int64_t lo = -128, hi = 127;
    if (!act) return {lo, hi};
    if (act->op == OpKind::Relu) return {std::max<int64_t>(lo, y.zeroPoint), hi};
    if (const ir::Tensor* mn = constantInput(act, 1))
        lo = std::max(lo, quantizeScalar(q, static_cast<float>(mn->at(0))));
    if (const ir::Tensor* mx = constantInput(act, 2))
        hi = std::min(hi, quantizeScalar(q, static_cast<float>(mx->at(0))));
    return {lo, std::max(lo, hi)};
}

std::optional<Weights> constantWeights(const ir::Value* v, int64_t axis) {
    ir::Node* p = v ? v->producer() : nullptr;
    if (!p || p->op != OpKind::DequantizeLinear) return std::nullopt;
    const ir::Tensor* q = constantInput(p, 0);
    const ir::Tensor* s = constantInput(p, 1);
    if (!q || q->dtype() != DType::Int8 || !s || s->dtype() != DType::Float32) return std::nullopt;
    if (p->input(2)) {
        const ir::Tensor* z = constantInput(p, 2);
        if (!z) return std::nullopt;
        for (int64_t i = 0; i < z->numel(); ++i)
            if (z->intAt(i) != 0) return std::nullopt; // asymmetric weights stay QDQ
    }
    Weights w{p, *q, s->toFloatVector()};
    if (w.scales.size() > 1) {
        const int64_t a = q->shape().normAxis(p->attrInt("axis", 1));
        if (a != axis || static_cast<int64_t>(w.scales.size()) != q->shape()[static_cast<size_t>(axis)])
            return std::nullopt;
    }
    for (float sc : w.scales)
        if (!(sc > 0) || !std::isfinite(sc)) return std::nullopt;
    return w;
}

std::optional<Bias> quantizedBias(const ir::Value* v, float xScale, const std::vector<float>& wScales,
                                  int64_t channels) {
    Bias b;
    b.values.assign(static_cast<size_t>(channels), 0);
    if (!v) return b;
    auto wScale = [&](int64_t c) { return wScales.size() == 1 ? wScales[0] : wScales[static_cast<size_t>(c)]; };
    std::vector<double> real(static_cast<size_t>(channels));
    if (v->isConstant()) {
        if (v->constant.numel() != channels || !ir::isFloating(v->dtype)) return std::nullopt;
        for (int64_t c = 0; c < channels; ++c) real[static_cast<size_t>(c)] = v->constant.at(c);
    } else {
        ir::Node* p = v->producer();
        if (!p || p->op != OpKind::DequantizeLinear) return std::nullopt;
        const ir::Tensor* q = constantInput(p, 0);
        const ir::Tensor* s = constantInput(p, 1);
        if (!q || q->dtype() != DType::Int32 || q->numel() != channels || !s ||
            (s->numel() != 1 && s->numel() != channels))
            return std::nullopt;
        if (p->input(2) && (!constantInput(p, 2) || constantInput(p, 2)->numel() != s->numel())) return std::nullopt;
        b.dq = p;
        bool same = true;
        for (int64_t c = 0; c < channels; ++c) {
            const float sc = static_cast<float>(s->at(s->numel() == 1 ? 0 : c));
            const int64_t zp = p->input(2) ? constantInput(p, 2)->intAt(s->numel() == 1 ? 0 : c) : 0;
            same = same && zp == 0 && sc == xScale * wScale(c);
            real[static_cast<size_t>(c)] = static_cast<double>(q->intAt(c) - zp) * sc;
            b.values[static_cast<size_t>(c)] = static_cast<int32_t>(q->intAt(c));
        }
        if (same) return b;
    }
    for (int64_t c = 0; c < channels; ++c) {
        const double units = std::nearbyint(real[static_cast<size_t>(c)] / (static_cast<double>(xScale) * wScale(c)));
        if (!(std::fabs(units) < 2147483647.0)) return std::nullopt;
        b.values[static_cast<size_t>(c)] = static_cast<int32_t>(units);
    }
    return b;
}

ir::Tensor int32Tensor(const std::vector<int32_t>& v) {
    return ir::Tensor::fromBytes(DType::Int32, ir::Shape{static_cast<int64_t>(v.size())}, v.data(), v.size() * 4);
}

std::vector<float> multipliers(float xScale, const std::vector<float>& wScales, float yScale, int64_t channels) {
    std::vector<float> m(static_cast<size_t>(channels));
    for (int64_t c = 0; c < channels; ++c) {
        const float ws = wScales.size() == 1 ? wScales[0] : wScales[static_cast<size_t>(c)];
        const float xw = xScale * ws; // float32, then divided in float32
        m[static_cast<size_t>(c)] = xw / yScale;
    }
    return m;
}

} // namespace embark::passes::detail

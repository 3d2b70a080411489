// Folds the QDQ form of a quantized model (DequantizeLinear -> op -> QuantizeLinear, what
// `embark-cli quantize` and ONNX Runtime's quantizer write) into int8 operators that the
// export runs without float round trips. Activations must be int8, per tensor; weights int8
// and symmetric (per output channel or per tensor); biases int32 (or float, quantized here).
//
//  - Conv (2-D, grouped and depthwise included) [+ Relu | Clip] -> QConv, Gemm (transA = 0,
//    alpha = beta = 1) and MatMul with 2-D constant B [+ Relu | Clip] -> QGemm: a fused Relu
//    or Clip becomes the output range (out_min, out_max), exact since QuantizeLinear is
//    monotone.
//  - Add of two int8 operands of one shape [+ Relu | Clip] -> QAdd (the same float32
//    arithmetic as the QDQ graph: exact).
//  - AveragePool (ceil_mode 0) and GlobalAveragePool on 4-D data -> QAveragePool.
//  - MaxPool, Reshape, Flatten, Squeeze, Unsqueeze, Transpose and Concat run on the int8 data
//    themselves. Where the scale or zero point changes across them, a QLookup (a 256-entry
//    table from the reference's own DequantizeLinear and QuantizeLinear) requantizes: exact.
//  - Any other element-wise op of one int8 operand (constants of one element besides), e.g.
//    Relu, Sigmoid, HardSwish, becomes a QLookup whose table is the reference's
//    DequantizeLinear -> op -> QuantizeLinear on the 256 int8 values: exact.
// The arithmetic of the new ops is defined in core/reference/quantized_fused.cpp.
//
// Each fused node keeps the original node's name and stands for the DequantizeLinear nodes it
// absorbed (once no other node reads them), the op, its activation and the QuantizeLinear.
// QuantizeLinear at float inputs and DequantizeLinear at float outputs (and around anything
// not fused) stay as explicit conversions.
#include "fuse_qdq_operands.h"
#include "graph_rewrite.h"
#include "pass.h"

#include "ir/fused.h"
#include "reference/interpreter.h"

#include <algorithm>
#include <cmath>

namespace embark::passes {
namespace {

using ir::DType;
using ir::OpKind;
using namespace detail;

class FuseQdq final : public Pass {
public:
    std::string name() const override { return "fuse_qdq"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        int rewrites = 0;
        rewrites += dropUnusedOutputPairs(g, ctx);
        for (bool changed = true; changed;) {
            changed = false;
            for (ir::Node* n : g.nodes()) {
                if (!alive(g, n)) continue;
                if (tryFuse(g, ctx, n)) {
                    ++rewrites;
                    changed = true;
                }
            }
        }
        return rewrites;
    }

private:
    // A QuantizeLinear -> DequantizeLinear pair whose result nothing reads (`quantize` leaves
    // one on a float graph output, which stays float): removed, the producer standing for it.
    int dropUnusedOutputPairs(ir::Graph& g, PassContext& ctx) {
        int n = 0;
        for (ir::Node* dq : g.nodes()) {
            if (dq->op != OpKind::DequantizeLinear || !dq->output(0) || !dq->output(0)->uses().empty() ||
                dq->output(0)->isGraphOutput())
                continue;
            ir::Node* q = dq->input(0) ? dq->input(0)->producer() : nullptr;
            if (!q || q->op != OpKind::QuantizeLinear || soleConsumer(q->output(0)) != dq || !q->input(0)) continue;
            ir::Node* p = q->input(0)->producer();
            if (!p) continue;
            appendProvenance(p, q);
            appendProvenance(p, dq);
            ctx.note("removed " + q->describe() + " and " + dq->describe() + ": nothing reads their result (" +
                     p->describe() + " stands for them)");
            g.removeNode(dq);
            g.removeNode(q);
            ++n;
        }
        return n;
    }

    static bool alive(const ir::Graph& g, const ir::Node* n) {
        for (const ir::Node* m : g.nodes())
            if (m == n) return true;
        return false;
    }

    bool tryFuse(ir::Graph& g, PassContext& ctx, ir::Node* n) {
        switch (n->op) {
        case OpKind::Conv: return fuseConv(g, ctx, n);
        case OpKind::Gemm:
        case OpKind::MatMul: return fuseGemm(g, ctx, n);
        case OpKind::Add: return fuseAdd(g, ctx, n);
        case OpKind::AveragePool:
        case OpKind::GlobalAveragePool: return fuseAveragePool(g, ctx, n);
        case OpKind::Reshape:
        case OpKind::Flatten:
        case OpKind::Squeeze:
        case OpKind::Unsqueeze:
        case OpKind::Transpose: return fusePassThrough(g, ctx, n) || quantizeBefore(g, ctx, n);
        case OpKind::MaxPool:
            // Quantizing commutes with a max (both are monotone): a float MaxPool (a Concat's
            // output pooled) can take its QuantizeLinear in front.
            return fusePassThrough(g, ctx, n) || (int8MaxPool(*n) && quantizeBefore(g, ctx, n));
        case OpKind::Concat: return fusePassThrough(g, ctx, n);
        default: break;
        }
        const auto cat = ir::opCategory(n->op);
        if (cat == ir::OpCategory::Activation || cat == ir::OpCategory::Elementwise) return fuseLookup(g, ctx, n);
        return false;
    }

    // Replaces the chain `removed` (op first; its optional activation; the QuantizeLinear
    // last) by a new node of `op` named like the op, reading `inputs` and writing the
    // QuantizeLinear's output; absorbs the DequantizeLinear nodes in `dqs` left unused.
    ir::Node* replace(ir::Graph& g, PassContext& ctx, OpKind op, const std::vector<ir::Node*>& removed,
                      const std::vector<ir::Value*>& inputs, const std::vector<ir::Node*>& dqs,
                      ir::Value* out = nullptr) {
        ir::Node* head = removed.front();
        ir::Node* q = removed.back();
        if (!out) out = q->output(0);
        std::vector<std::string> provenance;
        for (ir::Node* r : removed) provenance.insert(provenance.end(), r->provenance.begin(), r->provenance.end());
        const std::string name = head->name;
        ir::Attributes attrs = head->attrs;
        std::string what;
        for (ir::Node* r : removed) what += (what.empty() ? "" : " + ") + r->describe();
        g.removeNode(q);
        ir::Node* fused = g.insertNode(head, op, g.uniqueName(name + "_q"), inputs, {out});
        fused->attrs = attrs;
        for (size_t i = removed.size() - 1; i-- > 0;) g.removeNode(removed[i]);
        fused->name = name;
        fused->provenance = provenance;
        ctx.note("fused " + what + absorbDead(g, fused, dqs) + " into " + fused->describe());
        return fused;
    }

    // Removes the DequantizeLinear nodes nothing reads any more, giving their provenance to
    // `into` (in front, in the order given).
    std::string absorbDead(ir::Graph& g, ir::Node* into, const std::vector<ir::Node*>& dqs) {
        std::string text;
        std::vector<std::string> earlier;
        for (ir::Node* dq : dqs) {
            if (!dq || !alive(g, dq)) continue;
            const ir::Value* out = dq->output(0);
            if (!out || !out->uses().empty() || out->isGraphOutput()) continue;
            earlier.insert(earlier.end(), dq->provenance.begin(), dq->provenance.end());
            text += " + " + dq->describe();
            g.removeNode(dq);
        }
        prependProvenance(into, earlier);
        return text;
    }

    // float -> layout op or MaxPool -> QuantizeLinear becomes QuantizeLinear -> the op on int8 (the
    // same values: QuantizeLinear is element-wise and monotone, so it commutes with moving data
    // and with a max), so that the op producing the float data meets its QuantizeLinear. Only
    // where the op alone reads its input.
    bool quantizeBefore(ir::Graph& g, PassContext& ctx, ir::Node* n) {
        ir::Value* in = n->input(0);
        if (!in || in->dtype != DType::Float32 || soleConsumer(in) != n || !in->producer()) return false;
        for (size_t i = 1; i < n->inputs().size(); ++i)
            if (n->input(i) && !n->input(i)->isConstant()) return false;
        auto [q, act] = tail(n, false);
        if (!q) return false;
        ir::Value* qout = q->output(0);
        ir::Value* mid = g.addValue(g.uniqueName(in->name + "_quantized"), DType::Int8, in->shape);
        std::vector<ir::Value*> qInputs(q->inputs().begin(), q->inputs().end());
        qInputs[0] = in;
        const std::string qName = q->name;
        const std::vector<std::string> qProv = q->provenance;
        const ir::Attributes qAttrs = q->attrs;
        g.removeNode(q);
        ir::Node* nq = g.insertNode(n, OpKind::QuantizeLinear, g.uniqueName(qName + "_moved"), qInputs, {mid});
        nq->attrs = qAttrs;
        nq->name = qName;
        nq->provenance = qProv;
        g.setInput(n, 0, mid);
        g.setOutput(n, 0, qout);
        ctx.note("moved " + nq->describe() + " before " + n->describe() + ", which now moves int8 data");
        return true;
    }

    static void setRange(ir::Node* n, std::pair<int64_t, int64_t> r) {
        n->attrs["out_min"] = r.first;
        n->attrs["out_max"] = r.second;
    }

    // The op's output -> [Relu | Clip] -> QuantizeLinear: the QuantizeLinear and the activation.
    static std::pair<ir::Node*, ir::Node*> tail(ir::Node* n, bool allowActivation) {
        if (!n->output(0) || n->outputs().size() != 1) return {nullptr, nullptr};
        if (ir::Node* q = soleQuantize(n->output(0))) return {q, nullptr};
        if (!allowActivation) return {nullptr, nullptr};
        ir::Node* act = clampAfter(n->output(0));
        if (!act) return {nullptr, nullptr};
        ir::Node* q = soleQuantize(act->output(0));
        return q ? std::make_pair(q, act) : std::make_pair(nullptr, nullptr);
    }

    bool fuseConv(ir::Graph& g, PassContext& ctx, ir::Node* conv) {
        if (ir::fusedActivation(*conv)) return false;
        ir::Node* dqx = activationDq(conv->input(0));
        if (!dqx || conv->input(0)->shape.rank() != 4) return false;
        auto w = constantWeights(conv->input(1), 0);
        if (!w || w->q.shape().rank() != 4) return false;
        auto [q, act] = tail(conv, true);
        if (!q) return false;
        const QParams x = *scalarParams(*dqx), y = *scalarParams(*q);
        const int64_t channels = w->q.shape()[0];
        if (w->scales.size() != 1 && static_cast<int64_t>(w->scales.size()) != channels) return false;
        auto b = quantizedBias(conv->input(2), x.scale, w->scales, channels);
        if (!b) return false;
        ir::Value* wv = g.addConstant(g.uniqueName(conv->name + "_w_int8"), w->q);
        ir::Value* bv = g.addConstant(g.uniqueName(conv->name + "_b_int32"), int32Tensor(b->values));
        const auto range = outputRange(act, *q, y);
        std::vector<ir::Node*> removed{conv};
        if (act) removed.push_back(act);
        removed.push_back(q);
        ir::Node* f = replace(g, ctx, OpKind::QConv, removed, {dqx->input(0), wv, bv}, {dqx, w->dq, b->dq});
        setQuant(f, x, w->scales, y, channels);
        setRange(f, range);
        return true;
    }

    static void setQuant(ir::Node* f, const QParams& x, const std::vector<float>& wScales, const QParams& y,
                         int64_t channels) {
        f->attrs["x_scale"] = x.scale;
        f->attrs["x_zero_point"] = x.zeroPoint;
        f->attrs["w_scale"] = wScales;
        f->attrs["y_scale"] = y.scale;
        f->attrs["y_zero_point"] = y.zeroPoint;
        f->attrs["multiplier"] = multipliers(x.scale, wScales, y.scale, channels);
    }

    bool fuseGemm(ir::Graph& g, PassContext& ctx, ir::Node* n) {
        if (ir::fusedActivation(*n)) return false;
        const bool isGemm = n->op == OpKind::Gemm;
        if (isGemm &&
            (n->attrInt("transA", 0) != 0 || n->attrFloat("alpha", 1.f) != 1.f || n->attrFloat("beta", 1.f) != 1.f))
            return false;
        ir::Node* dqx = activationDq(n->input(0));
        if (!dqx || n->input(0)->shape.rank() < 1 || (isGemm && n->input(0)->shape.rank() != 2)) return false;
        const bool transB = isGemm && n->attrInt("transB", 0) != 0;
        auto w = constantWeights(n->input(1), transB ? 0 : 1);
        if (!w || w->q.shape().rank() != 2) return false;
        auto [q, act] = tail(n, true);
        if (!q) return false;
        const int64_t K = w->q.shape()[transB ? 1 : 0], N = w->q.shape()[transB ? 0 : 1];
        if (n->input(0)->shape[n->input(0)->shape.rank() - 1] != K) return false;
        if (w->scales.size() != 1 && static_cast<int64_t>(w->scales.size()) != N) return false;
        const QParams x = *scalarParams(*dqx), y = *scalarParams(*q);
        const ir::Value* c = isGemm ? n->input(2) : nullptr;
        if (c && !c->isConstant() && !(c->producer() && c->producer()->op == OpKind::DequantizeLinear)) return false;
        if (c && c->shape.numel() != N) return false;
        auto b = quantizedBias(c, x.scale, w->scales, N);
        if (!b) return false;
        // Weights as [N, K]: one row per output.
        ir::Tensor wt(DType::Int8, ir::Shape{N, K});
        for (int64_t o = 0; o < N; ++o)
            for (int64_t k = 0; k < K; ++k)
                wt.mutableAs<int8_t>()[o * K + k] = w->q.as<int8_t>()[transB ? o * K + k : k * N + o];
        ir::Value* wv = g.addConstant(g.uniqueName(n->name + "_w_int8"), wt);
        ir::Value* bv = g.addConstant(g.uniqueName(n->name + "_b_int32"), int32Tensor(b->values));
        const auto range = outputRange(act, *q, y);
        std::vector<ir::Node*> removed{n};
        if (act) removed.push_back(act);
        removed.push_back(q);
        ir::Node* f = replace(g, ctx, OpKind::QGemm, removed, {dqx->input(0), wv, bv}, {dqx, w->dq, b->dq});
        f->attrs.clear();
        setQuant(f, x, w->scales, y, N);
        setRange(f, range);
        return true;
    }

    bool fuseAdd(ir::Graph& g, PassContext& ctx, ir::Node* n) {
        if (ir::fusedActivation(*n) || n->inputs().size() != 2) return false;
        ir::Node* da = activationDq(n->input(0));
        ir::Node* db = activationDq(n->input(1));
        if (!da || !db || n->input(0)->shape != n->input(1)->shape) return fuseLookup(g, ctx, n);
        auto [q, act] = tail(n, true);
        if (!q) return false;
        const QParams a = *scalarParams(*da), b = *scalarParams(*db), y = *scalarParams(*q);
        const auto range = outputRange(act, *q, y);
        std::vector<ir::Node*> removed{n};
        if (act) removed.push_back(act);
        removed.push_back(q);
        ir::Node* f = replace(g, ctx, OpKind::QAdd, removed, {da->input(0), db->input(0)}, {da, db});
        f->attrs.clear();
        f->attrs["a_scale"] = a.scale;
        f->attrs["a_zero_point"] = a.zeroPoint;
        f->attrs["b_scale"] = b.scale;
        f->attrs["b_zero_point"] = b.zeroPoint;
        f->attrs["y_scale"] = y.scale;
        f->attrs["y_zero_point"] = y.zeroPoint;
        setRange(f, range);
        return true;
    }

    bool fuseAveragePool(ir::Graph& g, PassContext& ctx, ir::Node* n) {
        ir::Node* dqx = activationDq(n->input(0));
        if (!dqx || n->input(0)->shape.rank() != 4 || n->attrInt("ceil_mode", 0) != 0) return false;
        for (int64_t d : n->attrInts("dilations"))
            if (d != 1) return false;
        auto [q, act] = tail(n, false);
        if (!q) return false;
        const QParams x = *scalarParams(*dqx), y = *scalarParams(*q);
        const bool global = n->op == OpKind::GlobalAveragePool;
        ir::Node* f = replace(g, ctx, OpKind::QAveragePool, {n, q}, {dqx->input(0)}, {dqx});
        if (global) f->attrs["global"] = int64_t{1};
        f->attrs["x_scale"] = x.scale;
        f->attrs["x_zero_point"] = x.zeroPoint;
        f->attrs["y_scale"] = y.scale;
        f->attrs["y_zero_point"] = y.zeroPoint;
        f->attrs["multiplier"] = x.scale / y.scale;
        setRange(f, {-128, 127});
        return true;
    }

    // A QLookup node reading `in` (int8) with the table of dq -> [middle] -> q, writing `out`
    // (a new int8 value when null); inserted before `pos`.
    ir::Node* insertLookup(ir::Graph& g, ir::Node* pos, ir::Value* in, ir::Value* out, std::vector<int64_t> table,
                           const std::string& name, const QParams& y) {
        if (!out) out = g.addValue(g.uniqueName(in->name + "_requantized"), DType::Int8, in->shape);
        ir::Node* l = g.insertNode(pos, OpKind::QLookup, g.uniqueName(name), {in}, {out});
        l->attrs["table"] = std::move(table);
        l->attrs["y_scale"] = y.scale;
        l->attrs["y_zero_point"] = y.zeroPoint;
        l->provenance.clear();
        return l;
    }

    // A MaxPool the int8 kernel runs: 2-D, its Indices output (if any) unread.
    static bool int8MaxPool(const ir::Node& n) {
        return n.input(0) && n.input(0)->shape.rank() == 4 &&
               !(n.outputs().size() > 1 && n.output(1) &&
                 (!n.output(1)->uses().empty() || n.output(1)->isGraphOutput()));
    }

    // Data movement and max pooling on the int8 data, requantized through a table when the
    // parameters change.
    bool fusePassThrough(ir::Graph& g, PassContext& ctx, ir::Node* n) {
        if (n->op == OpKind::MaxPool && !int8MaxPool(*n)) return false;
        std::vector<size_t> data{0};
        if (n->op == OpKind::Concat) {
            data.clear();
            for (size_t i = 0; i < n->inputs().size(); ++i) data.push_back(i);
        }
        std::vector<ir::Node*> dqs;
        for (size_t i : data) {
            ir::Node* dq = activationDq(n->input(i));
            if (!dq) return false;
            dqs.push_back(dq);
        }
        for (size_t i = 1; i < n->inputs().size() && n->op != OpKind::Concat; ++i)
            if (n->input(i) && !n->input(i)->isConstant()) return false;
        auto [q, act] = tail(n, false);
        if (!q) return false;
        const QParams y = *scalarParams(*q);
        // Tables first: nothing is changed if one cannot be computed.
        std::vector<std::optional<std::vector<int64_t>>> tables;
        for (ir::Node* dq : dqs) {
            if (*scalarParams(*dq) == y)
                tables.emplace_back(std::vector<int64_t>{});
            else {
                auto t = lookupTable(*dq, nullptr, *q);
                if (!t) return false;
                tables.emplace_back(std::move(t));
            }
        }
        std::vector<ir::Value*> inputs(n->inputs().begin(), n->inputs().end());
        ir::Node* q0 = q;
        if (n->op == OpKind::Concat) {
            for (size_t k = 0; k < dqs.size(); ++k) {
                inputs[data[k]] = dqs[k]->input(0);
                if (!tables[k]->empty())
                    inputs[data[k]] =
                        insertLookup(g, n, dqs[k]->input(0), nullptr, *tables[k], n->name + "_requantize", y)
                            ->output(0);
            }
            replace(g, ctx, n->op, {n, q0}, inputs, dqs);
            return true;
        }
        inputs[0] = dqs[0]->input(0);
        if (tables[0]->empty()) {
            replace(g, ctx, n->op, {n, q0}, inputs, dqs);
            return true;
        }
        // op on the input's parameters, then the table into the QuantizeLinear's output.
        ir::Value* qout = q0->output(0);
        ir::Value* mid = g.addValue(g.uniqueName(n->output(0)->name + "_int8"), DType::Int8, n->output(0)->shape);
        const std::string qName = q0->name;
        const std::vector<std::string> qProv = q0->provenance;
        ir::Node* nextAfterQ = nullptr;
        {
            const auto nodes = g.nodes();
            auto it = std::find(nodes.begin(), nodes.end(), q0);
            if (it + 1 != nodes.end()) nextAfterQ = *(it + 1);
        }
        g.removeNode(q0);
        ir::Node* f = g.insertNode(n, n->op, g.uniqueName(n->name + "_q"), inputs, {mid});
        f->attrs = n->attrs;
        const std::string name = n->name;
        std::vector<std::string> prov = n->provenance;
        const std::string what = n->describe();
        g.removeNode(n);
        f->name = name;
        f->provenance = prov;
        ir::Node* l = insertLookup(g, nextAfterQ, mid, qout, *tables[0], qName, y);
        l->name = qName;
        l->provenance = qProv;
        std::string absorbed = absorbDead(g, f, {dqs[0]});
        ctx.note("fused " + what + absorbed + " into " + f->describe() + " on int8 data, then " + l->describe() +
                 " requantizing to the scale of " + qName);
        return true;
    }

    // DequantizeLinear -> element-wise op -> QuantizeLinear as one table.
    bool fuseLookup(ir::Graph& g, PassContext& ctx, ir::Node* n) {
        if (n->op == OpKind::QLookup || n->op == OpKind::QAdd || ir::fusedActivation(*n)) return false;
        if (n->outputs().size() != 1 || !n->output(0) || n->output(0)->dtype != DType::Float32) return false;
        ir::Node* dq = activationDq(n->input(0));
        if (!dq) return false;
        for (size_t i = 1; i < n->inputs().size(); ++i)
            if (n->input(i) && (!n->input(i)->isConstant() || n->input(i)->constant.numel() != 1)) return false;
        if (n->output(0)->shape != n->input(0)->shape) return false;
        auto [q, act] = tail(n, false);
        if (!q) return false;
        auto table = lookupTable(*dq, n, *q);
        if (!table) return false;
        const QParams y = *scalarParams(*q);
        ir::Node* f = replace(g, ctx, OpKind::QLookup, {n, q}, {dq->input(0)}, {dq});
        f->attrs.clear();
        f->attrs["table"] = *table;
        f->attrs["y_scale"] = y.scale;
        f->attrs["y_zero_point"] = y.zeroPoint;
        return true;
    }
};

} // namespace

std::unique_ptr<Pass> makeFuseQdq() { return std::make_unique<FuseQdq>(); }

} // namespace embark::passes

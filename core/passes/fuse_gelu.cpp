// Turns the exact GELU written out as ONNX primitives, 0.5 * x * (1 + erf(x / sqrt(2))), into
// one Gelu node (ONNX's own op since opset 20), when the library has a Gelu kernel. Exporters
// before opset 20 (torch.onnx, the transformers' exports) emit five nodes, each a pass over
// the tensor; as one node it is one vectorized loop, and fuse_activation can then move it into
// the epilogue of the MatMul/Gemm producing x (transformers' MLPs, ConvNeXt's blocks).
//
// Matched forms (each intermediate value read only by the next node, x not a constant):
//   Div(x, sqrt2) | Mul(x, 1/sqrt2)  -> Erf -> Add(1)  then one of
//     Mul(x, .) -> Mul(0.5)            torch.onnx's gelu
//     Mul(Mul(x, 0.5), .)              x * 0.5 * (1 + erf(...)) written in that order
//     Mul(0.5) -> Mul(x, .)            0.5 * (1 + erf(...)) * x
// Constants must equal their values to float precision, in either operand order.
#include "graph_rewrite.h"
#include "pass.h"

#include <algorithm>
#include <cmath>

namespace embark::passes {
namespace {

bool isScalar(const ir::Value* v, double want) {
    if (!v || !v->isConstant() || v->constant.numel() != 1) return false;
    const double got = v->constant.at(0);
    return std::fabs(got - want) <= 1e-6 * std::fabs(want);
}

// The operand of binary node n that is not the scalar constant `want`, or null.
ir::Value* otherThanScalar(const ir::Node* n, double want) {
    if (n->inputs().size() != 2) return nullptr;
    if (isScalar(n->input(1), want)) return n->input(0);
    if (isScalar(n->input(0), want)) return n->input(1);
    return nullptr;
}

// The other operand of binary node n, given one of them.
ir::Value* otherOperand(const ir::Node* n, const ir::Value* one) {
    if (n->inputs().size() != 2) return nullptr;
    if (n->input(0) == one) return n->input(1);
    if (n->input(1) == one) return n->input(0);
    return nullptr;
}

bool plainFloat(const ir::Node* n) {
    return n->outputs().size() == 1 && n->output(0) && n->output(0)->dtype == ir::DType::Float32 &&
           !n->has("activation");
}

class FuseGelu final : public Pass {
public:
    std::string name() const override { return "fuse_gelu"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        if (!ctx.lib().find(ir::OpKind::Gelu)) return 0;
        int rewrites = 0;
        // Matched first, rewritten after: a rewrite removes nodes later in the order. Chains
        // are disjoint (one Erf each, every inner value read only inside the chain).
        std::vector<std::vector<ir::Node*>> chains;
        for (ir::Node* erf : g.nodes())
            if (erf->op == ir::OpKind::Erf && plainFloat(erf))
                if (std::vector<ir::Node*> chain = match(erf); !chain.empty()) chains.push_back(std::move(chain));
        for (const std::vector<ir::Node*>& chain : chains) {
            ir::Value* x = chain.front()->input(0);
            if (!isScalar(chain.front()->input(1),
                          chain.front()->op == ir::OpKind::Div ? std::sqrt(2.0) : std::sqrt(0.5)))
                x = chain.front()->input(1);
            ir::Node* last = chain.back();
            ir::Value* out = last->output(0);
            ctx.note("fused " + std::to_string(chain.size()) + " nodes from " + chain.front()->describe() + " to " +
                     last->describe() + " into one Gelu");
            std::vector<std::string> provenance;
            for (const ir::Node* n : chain)
                for (const std::string& p : n->provenance) provenance.push_back(p);
            const std::string name = last->name;
            const std::vector<ir::Node*> order = g.nodes();
            auto at = std::find(order.begin(), order.end(), last);
            ir::Node* next = at + 1 == order.end() ? nullptr : *(at + 1);
            for (ir::Node* n : chain) g.removeNode(n);
            // Where the last node was: x is computed before it, every reader of out after it.
            ir::Node* gelu = g.insertNode(next, ir::OpKind::Gelu, g.uniqueName(name), {x}, {out});
            gelu->attrs["approximate"] = std::string("none");
            gelu->provenance.clear();
            prependProvenance(gelu, provenance);
            ++rewrites;
        }
        return rewrites;
    }

private:
    // The whole chain around `erf`, in graph order (the scaling of x first), or empty.
    static std::vector<ir::Node*> match(ir::Node* erf) {
        ir::Node* scale = exclusiveProducer(erf, 0);
        if (!scale || !plainFloat(scale)) return {};
        ir::Value* x = nullptr;
        if (scale->op == ir::OpKind::Div && isScalar(scale->input(1), std::sqrt(2.0)))
            x = scale->input(0);
        else if (scale->op == ir::OpKind::Mul)
            x = otherThanScalar(scale, std::sqrt(0.5));
        if (!x || x->isConstant() || x->shape != erf->output(0)->shape) return {};
        ir::Node* add = soleConsumer(erf->output(0));
        if (!add || add->op != ir::OpKind::Add || !plainFloat(add) || otherThanScalar(add, 1.0) != erf->output(0))
            return {};
        ir::Node* m1 = soleConsumer(add->output(0));
        if (!m1 || m1->op != ir::OpKind::Mul || !plainFloat(m1)) return {};
        const ir::Value* other = otherOperand(m1, add->output(0));
        if (!other) return {};
        if (other == x) { // Mul(x, .) -> Mul(0.5)
            ir::Node* m2 = soleConsumer(m1->output(0));
            if (!m2 || m2->op != ir::OpKind::Mul || !plainFloat(m2) || otherThanScalar(m2, 0.5) != m1->output(0))
                return {};
            return {scale, erf, add, m1, m2};
        }
        if (isScalar(other, 0.5)) { // Mul(0.5) -> Mul(x, .)
            ir::Node* m2 = soleConsumer(m1->output(0));
            if (!m2 || m2->op != ir::OpKind::Mul || !plainFloat(m2) || otherOperand(m2, m1->output(0)) != x) return {};
            return {scale, erf, add, m1, m2};
        }
        // Mul(Mul(x, 0.5), .)
        ir::Node* half = other->producer();
        if (!half || half->op != ir::OpKind::Mul || !plainFloat(half) || soleConsumer(other) != m1 ||
            otherThanScalar(half, 0.5) != x)
            return {};
        return {scale, half, erf, add, m1};
    }
};

} // namespace

std::unique_ptr<Pass> makeFuseGelu() { return std::make_unique<FuseGelu>(); }

} // namespace embark::passes

// Fuses Relu, Clip (ReLU6 and other constant bounds), LeakyRelu, HardSwish, Sigmoid, Tanh,
// Swish (SiLU) and Gelu (the erf form) into the Conv, ConvTranspose, Gemm, MatMul or Add producing their input, when
// the kernel library declares that pattern and the intermediate has no other use (ir/fused.h).
#include "graph_rewrite.h"
#include "pass.h"

#include "ir/fused.h"

namespace embark::passes {
namespace {

class FuseActivation final : public Pass {
public:
    std::string name() const override { return "fuse_activation"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        int rewrites = 0;
        for (ir::Node* act : g.nodes()) {
            auto fused = describe(*act);
            if (!fused) continue;
            ir::Node* p = exclusiveProducer(act, 0);
            // Through a reshape (an element-wise activation commutes with it): the Gemm that
            // matmul_add_to_gemm put between two reshapes keeps its activation.
            ir::Node* reshape = nullptr;
            if (p && isReshape(p->op) && p->outputs().size() == 1) {
                ir::Node* q = exclusiveProducer(p, 0);
                if (q && q->outputs().size() == 1 && !ir::fusedActivation(*q) &&
                    ctx.lib().declaresFusion(q->op, act->op)) {
                    reshape = p;
                    p = q;
                }
            }
            if (!p || p->outputs().size() != 1 || ir::fusedActivation(*p)) continue;
            if (!ctx.lib().declaresFusion(p->op, act->op)) continue;
            ir::setFusedActivation(*p, *fused);
            ctx.note("fused " + act->describe() + " into " + p->describe());
            if (reshape) {
                // The reshape now writes the activation's output; the fused node stands for it.
                appendProvenance(p, act);
                ir::Value* out = act->output(0);
                g.removeNode(act);
                g.setOutput(reshape, 0, out);
            } else {
                absorbConsumer(g, p, act);
            }
            ++rewrites;
        }
        return rewrites;
    }

private:
    static bool isReshape(ir::OpKind op) {
        return op == ir::OpKind::Reshape || op == ir::OpKind::Flatten || op == ir::OpKind::Squeeze ||
               op == ir::OpKind::Unsqueeze;
    }

    static std::optional<ir::FusedActivation> describe(const ir::Node& n) {
        ir::FusedActivation a;
        a.op = n.op;
        switch (n.op) {
        case ir::OpKind::Relu:
        case ir::OpKind::HardSwish:
        case ir::OpKind::Sigmoid:
        case ir::OpKind::Tanh: return a;
        case ir::OpKind::Swish:
            if (n.attrFloat("alpha", 1.f) != 1.f) return std::nullopt;
            return a;
        case ir::OpKind::Gelu: // the exact (erf) form only
            if (n.attrString("approximate", "none") != "none") return std::nullopt;
            return a;
        case ir::OpKind::LeakyRelu: a.alpha = n.attrFloat("alpha", 0.01f); return a;
        case ir::OpKind::Clip: {
            if (n.input(1) && !constantInput(&n, 1)) return std::nullopt;
            if (n.input(2) && !constantInput(&n, 2)) return std::nullopt;
            if (n.input(1)) a.min = static_cast<float>(constantInput(&n, 1)->at(0));
            if (n.input(2)) a.max = static_cast<float>(constantInput(&n, 2)->at(0));
            return a;
        }
        default: return std::nullopt;
        }
    }
};

} // namespace

std::unique_ptr<Pass> makeFuseActivation() { return std::make_unique<FuseActivation>(); }

} // namespace embark::passes

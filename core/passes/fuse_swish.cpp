// Turns x * Sigmoid(x) (SiLU, "Swish" with alpha 1: EfficientNet's and YOLO's activation) into
// one Swish node, and x * HardSigmoid(x) with alpha 1/6 and beta 1/2 (hard-swish as torch
// exports it below opset 14: MobileNet-V3) into one HardSwish node, when the library has that
// kernel and the gate has no other use. The activation then fuses into the convolution
// producing x (fuse_activation) like any activation.
#include "graph_rewrite.h"
#include "pass.h"

#include "ir/fused.h"

namespace embark::passes {
namespace {

// HardSigmoid(x) = max(0, min(1, alpha * x + beta)) is HardSwish's gate for alpha 1/6, beta 1/2
// (the same float constants; ONNX's defaults are 0.2 and 0.5).
bool isHardSwishGate(const ir::Node& n) {
    return static_cast<float>(n.attrFloat("alpha", 0.2f)) == 1.f / 6.f &&
           static_cast<float>(n.attrFloat("beta", 0.5f)) == 0.5f;
}

class FuseSwish final : public Pass {
public:
    std::string name() const override { return "fuse_swish"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        const bool swish = ctx.lib().find(ir::OpKind::Swish), hardSwish = ctx.lib().find(ir::OpKind::HardSwish);
        if (!swish && !hardSwish) return 0;
        int rewrites = 0;
        for (ir::Node* mul : g.nodes()) {
            if (mul->op != ir::OpKind::Mul || mul->inputs().size() != 2 || ir::fusedActivation(*mul)) continue;
            for (size_t i = 0; i < 2; ++i) {
                ir::Node* sigmoid = exclusiveProducer(mul, i);
                if (!sigmoid || sigmoid->outputs().size() != 1) continue;
                const bool hard = sigmoid->op == ir::OpKind::HardSigmoid;
                if (hard ? !hardSwish || !isHardSwishGate(*sigmoid) : sigmoid->op != ir::OpKind::Sigmoid || !swish)
                    continue;
                const ir::Value* x = sigmoid->input(0);
                if (!x || x != mul->input(1 - i) || x->isConstant()) continue;
                if (mul->output(0)->dtype != ir::DType::Float32 || x->shape != mul->output(0)->shape) continue;
                ctx.note("fused " + sigmoid->describe() + " and " + mul->describe() +
                         (hard ? " into one HardSwish" : " into one Swish"));
                sigmoid->op = hard ? ir::OpKind::HardSwish : ir::OpKind::Swish;
                sigmoid->attrs.clear();
                absorbConsumer(g, sigmoid, mul);
                ++rewrites;
                break;
            }
        }
        return rewrites;
    }
};

} // namespace

std::unique_ptr<Pass> makeFuseSwish() { return std::make_unique<FuseSwish>(); }

} // namespace embark::passes

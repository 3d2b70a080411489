// Turns x * Sigmoid(x) (SiLU, "Swish" with alpha 1: EfficientNet's and YOLO's activation) into
// one Swish node, when the library has a Swish kernel and the Sigmoid has no other use. The
// Swish then fuses into the convolution producing x (fuse_activation) like any activation.
#include "graph_rewrite.h"
#include "pass.h"

#include "ir/fused.h"

namespace embark::passes {
namespace {

class FuseSwish final : public Pass {
public:
    std::string name() const override { return "fuse_swish"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        if (!ctx.lib().find(ir::OpKind::Swish)) return 0;
        int rewrites = 0;
        for (ir::Node* mul : g.nodes()) {
            if (mul->op != ir::OpKind::Mul || mul->inputs().size() != 2 || ir::fusedActivation(*mul)) continue;
            for (size_t i = 0; i < 2; ++i) {
                ir::Node* sigmoid = exclusiveProducer(mul, i);
                if (!sigmoid || sigmoid->op != ir::OpKind::Sigmoid || sigmoid->outputs().size() != 1) continue;
                const ir::Value* x = sigmoid->input(0);
                if (!x || x != mul->input(1 - i) || x->isConstant()) continue;
                if (mul->output(0)->dtype != ir::DType::Float32 || x->shape != mul->output(0)->shape) continue;
                ctx.note("fused " + sigmoid->describe() + " and " + mul->describe() + " into one Swish");
                sigmoid->op = ir::OpKind::Swish;
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

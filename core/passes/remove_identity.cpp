// Removes Identity and inference-mode Dropout: they copy their input, so consumers read the
// input directly and the node's provenance goes to a neighbour (graph_rewrite.h).
#include "graph_rewrite.h"
#include "pass.h"

namespace embark::passes {
namespace {

class RemoveIdentity final : public Pass {
public:
    std::string name() const override { return "remove_identity"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        int rewrites = 0;
        for (ir::Node* n : g.nodes()) {
            if (n->op != ir::OpKind::Identity && n->op != ir::OpKind::Dropout) continue;
            // Dropout's optional mask output must be unused; training_mode must be off.
            if (n->op == ir::OpKind::Dropout) {
                if (n->output(1) && (!n->output(1)->uses().empty() || n->output(1)->isGraphOutput())) continue;
                const ir::Tensor* training = constantInput(n, 2);
                if (n->input(2) && (!training || training->intAt(0) != 0)) continue;
            }
            const std::string what = n->describe();
            if (!bypassNode(g, n)) continue;
            ctx.note("removed " + what);
            ++rewrites;
        }
        return rewrites;
    }
};

} // namespace

std::unique_ptr<Pass> makeRemoveIdentity() { return std::make_unique<RemoveIdentity>(); }

} // namespace embark::passes

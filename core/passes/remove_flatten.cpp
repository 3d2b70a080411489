// Removes a Flatten in front of Gemm when it changes nothing: its input is already the 2-D
// [batch, features] matrix Gemm reads (as after a Reshape or a fully-connected head). A
// Flatten of [N, C, 1, 1] is also free in memory but still changes the shape Gemm sees; the
// memory planner aliases it (no copy) and adaptation treats its layout conversion as free,
// so it stays in the graph and the saved fused model remains valid ONNX.
#include "graph_rewrite.h"
#include "pass.h"

namespace embark::passes {
namespace {

class RemoveFlatten final : public Pass {
public:
    std::string name() const override { return "remove_flatten"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        int rewrites = 0;
        for (ir::Node* f : g.nodes()) {
            if (f->op != ir::OpKind::Flatten || !f->input(0) || !f->output(0)) continue;
            if (f->input(0)->shape != f->output(0)->shape) continue;
            bool allGemm = !f->output(0)->uses().empty();
            for (const ir::Use& u : f->output(0)->uses())
                allGemm = allGemm && u.node->op == ir::OpKind::Gemm && u.index == 0;
            if (!allGemm) continue;
            const std::string what = f->describe();
            if (!bypassNode(g, f)) continue;
            ctx.note("removed " + what + " (a no-op in front of Gemm)");
            ++rewrites;
        }
        return rewrites;
    }
};

} // namespace

std::unique_ptr<Pass> makeRemoveFlatten() { return std::make_unique<RemoveFlatten>(); }

} // namespace embark::passes

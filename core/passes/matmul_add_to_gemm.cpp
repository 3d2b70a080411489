// MatMul(A 2-D, B constant 2-D) followed by an Add of a constant that broadcasts to the
// product becomes one Gemm (C = the constant), which libraries run as a fully-connected layer.
#include "graph_rewrite.h"
#include "pass.h"

#include "ir/fused.h"

#include <unordered_set>

namespace embark::passes {
namespace {

class MatMulAddToGemm final : public Pass {
public:
    std::string name() const override { return "matmul_add_to_gemm"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        int rewrites = 0;
        // The Add absorbed below comes later in this snapshot of the nodes and is freed by
        // then (found by AddressSanitizer): skip the nodes already removed.
        std::unordered_set<const ir::Node*> removed;
        for (ir::Node* mm : g.nodes()) {
            if (removed.count(mm)) continue;
            if (mm->op != ir::OpKind::MatMul || ir::fusedActivation(*mm)) continue;
            const ir::Value* a = mm->input(0);
            const ir::Value* b = mm->input(1);
            if (!a || !b || a->shape.rank() != 2 || !b->isConstant() || b->shape.rank() != 2) continue;
            ir::Node* add = soleConsumer(mm->output(0));
            if (!add || add->op != ir::OpKind::Add || add->inputs().size() != 2) continue;
            const size_t other = add->input(0) == mm->output(0) ? 1 : 0;
            ir::Value* c = add->input(other);
            if (!c || !c->isConstant() || c->dtype != ir::DType::Float32) continue;
            if (!broadcastsTo(c->shape, mm->output(0)->shape) || add->output(0)->shape != mm->output(0)->shape)
                continue;
            const std::string before = mm->describe();
            mm->op = ir::OpKind::Gemm;
            g.appendInput(mm, c);
            ctx.note("merged " + before + " and " + add->describe() + " into Gemm '" + mm->name + "'");
            removed.insert(add);
            absorbConsumer(g, mm, add);
            ++rewrites;
        }
        return rewrites;
    }

private:
    // Gemm's unidirectional broadcast of C to [M, N].
    static bool broadcastsTo(const ir::Shape& c, const ir::Shape& out) {
        if (c.rank() > out.rank()) return false;
        for (size_t i = 0; i < c.rank(); ++i) {
            const int64_t cd = c[c.rank() - 1 - i], od = out[out.rank() - 1 - i];
            if (cd != od && cd != 1) return false;
        }
        return true;
    }
};

} // namespace

std::unique_ptr<Pass> makeMatMulAddToGemm() { return std::make_unique<MatMulAddToGemm>(); }

} // namespace embark::passes

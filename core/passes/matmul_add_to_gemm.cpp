// MatMul(A 2-D, B constant 2-D) followed by an Add of a constant that broadcasts to the
// product becomes one Gemm (C = the constant), which libraries run as a fully-connected layer.
// An A of more dims whose rows take the same bias (a transformer's [1, tokens, C] or ConvNeXt's
// [1, H, W, C] MLP input, bias [C]) becomes Reshape to [rows, K] -> Gemm -> Reshape back: the
// reshapes alias their buffers, and the bias and the activation after it (fuse_activation sees
// through the reshape) run in the fully-connected layer instead of one more pass each.
#include "graph_rewrite.h"
#include "pass.h"

#include "ir/fused.h"

#include <algorithm>
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
            if (!a || !b || a->shape.rank() < 2 || !b->isConstant() || b->shape.rank() != 2) continue;
            ir::Node* add = soleConsumer(mm->output(0));
            if (!add || add->op != ir::OpKind::Add || add->inputs().size() != 2) continue;
            const size_t other = add->input(0) == mm->output(0) ? 1 : 0;
            ir::Value* c = add->input(other);
            if (!c || !c->isConstant() || c->dtype != ir::DType::Float32) continue;
            if (!broadcastsTo(c->shape, mm->output(0)->shape) || add->output(0)->shape != mm->output(0)->shape)
                continue;
            if (a->shape.rank() > 2 && !sameForEveryRow(c->shape)) continue;
            const std::string before = mm->describe();
            const std::string addName = add->describe();
            mm->op = ir::OpKind::Gemm;
            removed.insert(add);
            if (a->shape.rank() == 2) {
                g.appendInput(mm, c);
                absorbConsumer(g, mm, add);
            } else {
                overRows(g, mm, add, c);
            }
            ctx.note("merged " + before + " and " + addName + " into Gemm '" + mm->name + "'");
            ++rewrites;
        }
        return rewrites;
    }

private:
    // A bias every row of the product takes alike: all dims but the last are 1.
    static bool sameForEveryRow(const ir::Shape& c) {
        for (size_t i = 0; i + 1 < c.rank(); ++i)
            if (c[i] != 1) return false;
        return true;
    }

    // mm (now a Gemm) on A's rows: Reshape A to [rows, K] before it, its [rows, N] result
    // reshaped to the Add's output after it; C is the bias as one row.
    static void overRows(ir::Graph& g, ir::Node* mm, ir::Node* add, ir::Value* c) {
        ir::Value* a = mm->input(0);
        const int64_t k = a->shape[a->shape.rank() - 1], rows = a->shape.numel() / k;
        ir::Value* out = add->output(0);
        const int64_t n = out->shape[out->shape.rank() - 1];
        auto shapeConstant = [&](const std::string& base, const ir::Shape& shape) {
            return g.addConstant(g.uniqueName(base),
                                 ir::Tensor::fromInt64s(ir::Shape{static_cast<int64_t>(shape.rank())}, shape.dims()));
        };
        ir::Value* a2 = g.addValue(g.uniqueName(a->name + "_rows"), a->dtype, ir::Shape{rows, k});
        ir::Node* in = g.insertNode(mm, ir::OpKind::Reshape, g.uniqueName(mm->name + "_rows"),
                                    {a, shapeConstant(mm->name + "_rows_shape", a2->shape)}, {a2});
        in->provenance.clear();
        prependProvenance(in, mm->provenance);
        g.setInput(mm, 0, a2);
        ir::Value* row = c;
        if (c->shape.rank() != 1)
            row = g.addConstant(g.uniqueName(c->name + "_row"),
                                c->constant.reshaped(ir::Shape{c->shape.rank() ? c->shape[c->shape.rank() - 1] : 1}));
        g.appendInput(mm, row);
        absorbConsumer(g, mm, add); // mm writes the Add's output for now, and stands for the Add
        ir::Value* product = g.addValue(g.uniqueName(mm->output(0)->name + "_rows"), out->dtype, ir::Shape{rows, n});
        g.setOutput(mm, 0, product);
        const std::vector<ir::Node*> order = g.nodes();
        const auto at = std::find(order.begin(), order.end(), mm);
        ir::Node* back = g.insertNode(at + 1 == order.end() ? nullptr : *(at + 1), ir::OpKind::Reshape,
                                      g.uniqueName(mm->name + "_unrows"),
                                      {product, shapeConstant(mm->name + "_unrows_shape", out->shape)}, {out});
        back->provenance.clear();
        prependProvenance(back, mm->provenance);
    }

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

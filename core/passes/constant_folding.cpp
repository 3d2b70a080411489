// Constant folding: a node whose inputs are all constants is evaluated once with the
// reference kernels and replaced by its results. Shape and Size fold whenever their input
// has a static shape (always, in this IR), which turns Shape->Gather->Concat->Reshape chains
// into constants. A folded node's provenance goes to the first consumer of its result (that
// consumer now stands for the computation), or to graph.metadata[kFoldedNodesKey] when the
// result is a graph output nothing reads.
#include "graph_rewrite.h"
#include "pass.h"
#include "reference/interpreter.h"

namespace embark::passes {
namespace {

// Shape (with opset-15 start/end) and Size need only the static shape of their input.
std::optional<ir::Tensor> foldShapeOnly(const ir::Node& n) {
    const ir::Value* in = n.input(0);
    if (!in) return std::nullopt;
    const auto& dims = in->shape.dims();
    const int64_t rank = static_cast<int64_t>(dims.size());
    if (n.op == ir::OpKind::Size) return ir::Tensor::scalarInt64(in->shape.numel());
    auto clampAxis = [rank](int64_t a) {
        if (a < 0) a += rank;
        return a < 0 ? 0 : (a > rank ? rank : a);
    };
    const int64_t start = clampAxis(n.attrInt("start", 0));
    const int64_t end = clampAxis(n.attrInt("end", rank));
    std::vector<int64_t> out;
    for (int64_t i = start; i < end; ++i) out.push_back(dims[static_cast<size_t>(i)]);
    return ir::Tensor::fromInt64s(ir::Shape{static_cast<int64_t>(out.size())}, out);
}

class ConstantFolding final : public Pass {
public:
    std::string name() const override { return "constant_folding"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        int rewrites = 0;
        for (ir::Node* n : g.nodes()) {
            std::vector<ir::Tensor> results;
            if (n->op == ir::OpKind::Shape || n->op == ir::OpKind::Size) {
                auto t = foldShapeOnly(*n);
                if (!t) continue;
                results.push_back(*t);
            } else {
                if (!allInputsConstant(*n)) continue;
                std::vector<ir::Tensor> inputs;
                for (const ir::Value* v : n->inputs()) inputs.push_back(v ? v->constant : ir::Tensor());
                auto r = reference::evalNode(*n, inputs);
                if (!r) {
                    // An op the reference lacks stays in the graph (and fails later, clearly);
                    // anything else is a model the pass cannot fold correctly.
                    if (r.error().kind == ErrorKind::Unsupported) continue;
                    return makeError(r.error().kind, "pass constant_folding: cannot evaluate " + n->describe() + ": " +
                                                         r.error().message);
                }
                results = std::move(*r);
            }
            if (results.size() < n->outputs().size()) continue;
            fold(g, n, results, ctx);
            ++rewrites;
        }
        return rewrites;
    }

private:
    static bool allInputsConstant(const ir::Node& n) {
        if (n.op == ir::OpKind::Identity || n.op == ir::OpKind::Dropout) return false; // remove_identity's job
        for (const ir::Value* v : n.inputs())
            if (v && !v->isConstant()) return false;
        return true;
    }

    static void fold(ir::Graph& g, ir::Node* n, const std::vector<ir::Tensor>& results, PassContext& ctx) {
        ir::Node* heir = nullptr;
        for (ir::Value* v : n->outputs())
            if (!heir && v && !v->uses().empty()) heir = v->uses().front().node;
        const std::vector<std::string> provenance = n->provenance;
        const std::string what = n->describe();
        const std::vector<ir::Value*> outs = n->outputs();
        g.removeNode(n);
        for (size_t i = 0; i < outs.size(); ++i) {
            if (!outs[i]) continue;
            outs[i]->constant = results[i];
            outs[i]->dtype = results[i].dtype();
            outs[i]->shape = results[i].shape();
        }
        if (heir)
            prependProvenance(heir, provenance);
        else
            recordFolded(g, provenance);
        ctx.note("folded " + what + " into a constant" +
                 (heir ? " (provenance kept by " + heir->describe() + ")" : std::string()));
    }
};

} // namespace

std::unique_ptr<Pass> makeConstantFolding() { return std::make_unique<ConstantFolding>(); }

} // namespace embark::passes

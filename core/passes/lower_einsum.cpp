// Einsum of one or two float32 operands whose labels each appear once per operand becomes
// ReduceSum (labels only one operand has and the output lacks), Transpose to
// [batch, m, k] and [batch, k, n], Reshape to 3-D, MatMul, Reshape and Transpose to the
// output's order, so the fast Transpose/MatMul/ReduceSum kernels serve it. Other forms
// (diagonals, three operands, broadcast batch labels) keep the general Einsum kernel.
#include "graph_rewrite.h"
#include "pass.h"

#include "ir/einsum_equation.h"

#include <algorithm>
#include <numeric>

namespace embark::passes {
namespace {

using ir::OpKind;

class LowerEinsum final : public Pass {
public:
    std::string name() const override { return "lower_einsum"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        int rewrites = 0;
        for (ir::Node* n : g.nodes()) {
            if (n->op != OpKind::Einsum || !lowerable(*n)) continue;
            const std::string before = n->describe() + " ('" + n->attrString("equation", "") + "')";
            lower(g, n); // frees n
            ctx.note("lowered " + before + " to Transpose/MatMul/ReduceSum");
            ++rewrites;
        }
        return rewrites;
    }

private:
    struct Plan {
        ir::EinsumEquation eq;
        std::vector<ir::Shape> shapes;
    };

    static std::optional<Plan> planOf(const ir::Node& n) {
        if (n.inputs().empty() || n.inputs().size() > 2 || n.outputs().size() != 1) return std::nullopt;
        Plan p;
        for (const ir::Value* v : n.inputs()) {
            if (!v || v->dtype != ir::DType::Float32 || v->shape.numel() <= 0) return std::nullopt;
            p.shapes.push_back(v->shape);
        }
        Expected<ir::EinsumEquation> eq = ir::parseEinsum(n.attrString("equation", ""), p.shapes);
        if (!eq) return std::nullopt;
        p.eq = *eq;
        for (size_t i = 0; i < p.shapes.size(); ++i) {
            std::vector<int> labels = p.eq.operands[i];
            std::sort(labels.begin(), labels.end());
            if (std::adjacent_find(labels.begin(), labels.end()) != labels.end()) return std::nullopt; // a diagonal
            for (size_t d = 0; d < labels.size(); ++d) // broadcast along a label
                if (p.shapes[i][d] != p.eq.sizes[static_cast<size_t>(p.eq.operands[i][d])]) return std::nullopt;
        }
        return p;
    }

    static bool lowerable(const ir::Node& n) { return planOf(n).has_value(); }

    static bool has(const std::vector<int>& v, int l) { return std::find(v.begin(), v.end(), l) != v.end(); }

    // Appends a node before `pos` and returns its output value.
    static ir::Value* add(ir::Graph& g, ir::Node* pos, const ir::Node& from, OpKind op, const std::string& suffix,
                          std::vector<ir::Value*> ins, const ir::Shape& shape, ir::Value* out = nullptr) {
        if (!out) out = g.addValue(g.uniqueName(from.name + suffix), ir::DType::Float32, shape);
        ir::Node* node = g.insertNode(pos, op, g.uniqueName(from.name + suffix), ins, {out});
        node->provenance = from.provenance;
        return out;
    }

    static ir::Value* ints(ir::Graph& g, const ir::Node& from, const std::string& suffix,
                           const std::vector<int64_t>& v) {
        return g.addConstant(g.uniqueName(from.name + suffix),
                             ir::Tensor::fromInt64s(ir::Shape{static_cast<int64_t>(v.size())}, v));
    }

    static ir::Shape shapeOf(const std::vector<int>& labels, const ir::EinsumEquation& eq) {
        std::vector<int64_t> dims;
        for (int l : labels) dims.push_back(eq.sizes[static_cast<size_t>(l)]);
        return ir::Shape(dims);
    }

    // x (labels `have`) reordered to `want` (same set); no node when already in order.
    static ir::Value* permute(ir::Graph& g, ir::Node* pos, const ir::Node& from, ir::Value* x,
                              const std::vector<int>& have, const std::vector<int>& want, const ir::EinsumEquation& eq,
                              const std::string& suffix, ir::Value* out = nullptr) {
        if (have == want && !out) return x;
        std::vector<int64_t> perm;
        for (int l : want) perm.push_back(std::find(have.begin(), have.end(), l) - have.begin());
        ir::Value* y =
            add(g, pos, from, have == want ? OpKind::Identity : OpKind::Transpose, suffix, {x}, shapeOf(want, eq), out);
        if (have != want) y->producer()->attrs["perm"] = perm;
        return y;
    }

    static ir::Value* reshape(ir::Graph& g, ir::Node* pos, const ir::Node& from, ir::Value* x, const ir::Shape& shape,
                              const std::string& suffix) {
        if (x->shape == shape) return x;
        return add(g, pos, from, OpKind::Reshape, suffix, {x, ints(g, from, suffix + "_shape", shape.dims())}, shape);
    }

    // Sums the labels of operand i that no other operand and not the output has.
    static ir::Value* sumOwn(ir::Graph& g, ir::Node* pos, const ir::Node& from, ir::Value* x, std::vector<int>& labels,
                             const std::vector<int>& keep, const ir::EinsumEquation& eq, const std::string& suffix) {
        std::vector<int64_t> axes;
        std::vector<int> rest;
        for (size_t d = 0; d < labels.size(); ++d) {
            if (has(keep, labels[d]))
                rest.push_back(labels[d]);
            else
                axes.push_back(static_cast<int64_t>(d));
        }
        if (axes.empty()) return x;
        ir::Value* y =
            add(g, pos, from, OpKind::ReduceSum, suffix, {x, ints(g, from, suffix + "_axes", axes)}, shapeOf(rest, eq));
        y->producer()->attrs["keepdims"] = int64_t{0};
        labels = rest;
        return y;
    }

    static void lower(ir::Graph& g, ir::Node* n) {
        const Plan p = *planOf(*n);
        const ir::EinsumEquation& eq = p.eq;
        const ir::Node from = copyOf(*n);
        std::vector<ir::Value*> ins(n->inputs().begin(), n->inputs().end());
        ir::Value* out = n->output(0);
        const std::vector<ir::Node*> order = g.nodes();
        const auto at = std::find(order.begin(), order.end(), n);
        ir::Node* next = at + 1 == order.end() ? nullptr : *(at + 1);
        g.removeNode(n);
        if (ins.size() == 1) {
            std::vector<int> labels = eq.operands[0];
            ir::Value* x = sumOwn(g, next, from, ins[0], labels, eq.output, eq, "_sum");
            permute(g, next, from, x, labels, eq.output, eq, "_order", out);
            return;
        }
        std::vector<int> la = eq.operands[0], lb = eq.operands[1];
        std::vector<int> keepA = eq.output, keepB = eq.output;
        keepA.insert(keepA.end(), lb.begin(), lb.end());
        keepB.insert(keepB.end(), la.begin(), la.end());
        ir::Value* a = sumOwn(g, next, from, ins[0], la, keepA, eq, "_sum_a");
        ir::Value* b = sumOwn(g, next, from, ins[1], lb, keepB, eq, "_sum_b");
        std::vector<int> batch, m, k, nn;
        for (int l : la) (has(lb, l) ? (has(eq.output, l) ? batch : k) : m).push_back(l);
        for (int l : lb)
            if (!has(la, l)) nn.push_back(l);
        const auto count = [&](const std::vector<int>& ls) {
            int64_t c = 1;
            for (int l : ls) c *= eq.sizes[static_cast<size_t>(l)];
            return c;
        };
        const int64_t B = count(batch), M = count(m), K = count(k), N = count(nn);
        std::vector<int> wantA = batch, wantB = batch;
        wantA.insert(wantA.end(), m.begin(), m.end());
        wantA.insert(wantA.end(), k.begin(), k.end());
        wantB.insert(wantB.end(), k.begin(), k.end());
        wantB.insert(wantB.end(), nn.begin(), nn.end());
        a = reshape(g, next, from, permute(g, next, from, a, la, wantA, eq, "_a"), ir::Shape{B, M, K}, "_a3");
        b = reshape(g, next, from, permute(g, next, from, b, lb, wantB, eq, "_b"), ir::Shape{B, K, N}, "_b3");
        ir::Value* c = add(g, next, from, OpKind::MatMul, "_matmul", {a, b}, ir::Shape{B, M, N});
        std::vector<int> labelsC = batch;
        labelsC.insert(labelsC.end(), m.begin(), m.end());
        labelsC.insert(labelsC.end(), nn.begin(), nn.end());
        c = reshape(g, next, from, c, shapeOf(labelsC, eq), "_unfold");
        permute(g, next, from, c, labelsC, eq.output, eq, "_order", out);
    }

    static ir::Node copyOf(const ir::Node& n) {
        ir::Node c;
        c.name = n.name;
        c.op = n.op;
        c.attrs = n.attrs;
        c.provenance = n.provenance;
        return c;
    }
};

} // namespace

std::unique_ptr<Pass> makeLowerEinsum() { return std::make_unique<LowerEinsum>(); }

} // namespace embark::passes

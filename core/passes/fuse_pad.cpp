// Fuses a constant-mode Pad that only pads spatial dimensions into the Conv, MaxPool or
// AveragePool reading it, by adding to the consumer's `pads`. Legal only when the padded
// value is what the consumer would pad with itself: 0 for Conv; -inf for MaxPool; 0 for
// AveragePool only with count_include_pad semantics (zeros counted in the average).
#include "graph_rewrite.h"
#include "pass.h"

#include <cmath>

namespace embark::passes {
namespace {

class FusePad final : public Pass {
public:
    std::string name() const override { return "fuse_pad"; }

    Expected<int> run(ir::Graph& g, PassContext& ctx) override {
        int rewrites = 0;
        for (ir::Node* pad : g.nodes()) {
            if (pad->op != ir::OpKind::Pad || pad->attrString("mode", "constant") != "constant") continue;
            ir::Node* c = soleConsumer(pad->output(0));
            if (!c || c->input(0) != pad->output(0)) continue;
            if (c->op != ir::OpKind::Conv && c->op != ir::OpKind::MaxPool && c->op != ir::OpKind::AveragePool) continue;
            if (c->attrString("auto_pad", "NOTSET") != "NOTSET") continue;
            const ir::Value* in = pad->input(0);
            const ir::Tensor* pads = constantInput(pad, 1);
            if (!in || !pads || (pad->input(3) && !constantInput(pad, 3))) continue;
            const size_t rank = in->shape.rank();
            if (rank < 3) continue;
            auto full = fullPads(*pad, *pads, rank);
            if (!full) continue;
            const double value = constantInput(pad, 2) ? constantInput(pad, 2)->at(0) : 0.0;
            if (!valueMatches(*c, value)) continue;
            // Batch and channel dimensions must not be padded.
            if ((*full)[0] || (*full)[1] || (*full)[rank] || (*full)[rank + 1]) continue;
            const size_t spatial = rank - 2;
            std::vector<int64_t> cp = c->attrInts("pads", std::vector<int64_t>(2 * spatial, 0));
            if (cp.size() != 2 * spatial) continue;
            for (size_t i = 0; i < spatial; ++i) {
                cp[i] += (*full)[2 + i];
                cp[spatial + i] += (*full)[rank + 2 + i];
            }
            c->attrs["pads"] = cp;
            if (c->op == ir::OpKind::AveragePool) c->attrs["count_include_pad"] = int64_t{1};
            ctx.note("fused " + pad->describe() + " into " + c->describe());
            prependProvenance(c, pad->provenance);
            g.setInput(c, 0, pad->input(0));
            g.removeNode(pad);
            ++rewrites;
        }
        return rewrites;
    }

private:
    // Pads for every dimension ([begins..., ends...]), expanding the optional axes input;
    // nullopt for negative pads (cropping) or a malformed spec.
    static std::optional<std::vector<int64_t>> fullPads(const ir::Node& pad, const ir::Tensor& pads, size_t rank) {
        std::vector<int64_t> axes;
        if (const ir::Tensor* a = constantInput(&pad, 3))
            axes = a->toInt64Vector();
        else
            for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
        const std::vector<int64_t> p = pads.toInt64Vector();
        if (p.size() != 2 * axes.size()) return std::nullopt;
        std::vector<int64_t> full(2 * rank, 0);
        for (size_t i = 0; i < axes.size(); ++i) {
            int64_t ax = axes[i] < 0 ? axes[i] + static_cast<int64_t>(rank) : axes[i];
            if (ax < 0 || ax >= static_cast<int64_t>(rank)) return std::nullopt;
            if (p[i] < 0 || p[axes.size() + i] < 0) return std::nullopt;
            full[static_cast<size_t>(ax)] = p[i];
            full[rank + static_cast<size_t>(ax)] = p[axes.size() + i];
        }
        return full;
    }

    static bool valueMatches(const ir::Node& c, double value) {
        switch (c.op) {
        case ir::OpKind::Conv: return value == 0.0;
        case ir::OpKind::MaxPool: return std::isinf(value) && value < 0;
        case ir::OpKind::AveragePool: {
            if (value != 0.0) return false;
            if (c.attrInt("count_include_pad", 0) != 0) return true;
            // Without count_include_pad, only a pool that had no padding of its own can switch.
            for (int64_t p : c.attrInts("pads"))
                if (p != 0) return false;
            return true;
        }
        default: return false;
        }
    }
};

} // namespace

std::unique_ptr<Pass> makeFusePad() { return std::make_unique<FusePad>(); }

} // namespace embark::passes

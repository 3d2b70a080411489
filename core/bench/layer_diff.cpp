#include "layer_diff.h"

#include <algorithm>
#include <limits>

namespace embark::bench {
namespace {

// v, or the output of the QuantizeLinear -> DequantizeLinear pair that alone reads it.
const ir::Value* afterQdq(const ir::Value* v) {
    if (v->uses().size() != 1 || v->uses()[0].node->op != ir::OpKind::QuantizeLinear) return v;
    const ir::Value* q = v->uses()[0].node->output(0);
    if (!q || q->uses().size() != 1 || q->uses()[0].node->op != ir::OpKind::DequantizeLinear) return v;
    const ir::Value* dq = q->uses()[0].node->output(0);
    return dq ? dq : v;
}

} // namespace

LayerDiff diffLayers(const ir::Graph& fp, const std::map<std::string, ir::Tensor>& fpValues, const ir::Graph& other,
                     const std::map<std::string, ir::Tensor>& otherValues, double snrDropDb) {
    LayerDiff diff;
    std::map<std::string, double> snrOf; // compared float value -> its SNR
    for (const ir::Node* n : fp.nodes()) {
        // The worst compared value this node reads: the error it inherits.
        double inherited = std::numeric_limits<double>::infinity();
        for (const ir::Value* in : n->inputs())
            if (in)
                if (auto it = snrOf.find(in->name); it != snrOf.end()) inherited = std::min(inherited, it->second);
        for (const ir::Value* out : n->outputs()) {
            if (!out || out->dtype != ir::DType::Float32) continue;
            const ir::Value* mine = other.findValue(out->name);
            auto ref = fpValues.find(out->name);
            const ir::Value* seen = mine ? afterQdq(mine) : nullptr;
            auto got = seen ? otherValues.find(seen->name) : otherValues.end();
            if (ref == fpValues.end() || got == otherValues.end()) {
                // Not compared (e.g. a Conv output the other model folded a BatchNormalization
                // into): its consumers inherit the error of what it was computed from.
                if (inherited != std::numeric_limits<double>::infinity()) snrOf[out->name] = inherited;
                continue;
            }
            LayerError e;
            e.value = out->name;
            e.node = n->name;
            e.op = std::string(ir::opName(n->op));
            e.compared = seen->name;
            e.accuracy = compare(got->second.castTo(ir::DType::Float32), ref->second.castTo(ir::DType::Float32), out->name);
            if (inherited != std::numeric_limits<double>::infinity()) e.snrDropDb = inherited - e.accuracy.snrDb;
            if (diff.firstDrop < 0 && e.snrDropDb > snrDropDb) diff.firstDrop = static_cast<int>(diff.layers.size());
            snrOf[out->name] = e.accuracy.snrDb;
            diff.layers.push_back(std::move(e));
        }
    }
    return diff;
}

} // namespace embark::bench

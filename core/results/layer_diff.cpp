#include "layer_diff.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

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

QJsonValue number(double x) { return std::isfinite(x) ? QJsonValue(x) : QJsonValue(); } // JSON has no inf/NaN

QJsonObject layerJson(const LayerError& e) {
    return QJsonObject{{"value", QString::fromStdString(e.value)}, {"node", QString::fromStdString(e.node)},
                       {"op", QString::fromStdString(e.op)},       {"compared", QString::fromStdString(e.compared)},
                       {"snr_db", number(e.accuracy.snrDb)},       {"cosine", number(e.accuracy.cosine)},
                       {"max_abs", number(e.accuracy.maxAbs)},     {"max_rel", number(e.accuracy.maxRel)},
                       {"snr_drop_db", number(e.snrDropDb)}};
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
            e.accuracy =
                compare(got->second.castTo(ir::DType::Float32), ref->second.castTo(ir::DType::Float32), out->name);
            if (inherited != std::numeric_limits<double>::infinity()) e.snrDropDb = inherited - e.accuracy.snrDb;
            if (diff.firstDrop < 0 && e.snrDropDb > snrDropDb) diff.firstDrop = static_cast<int>(diff.layers.size());
            snrOf[out->name] = e.accuracy.snrDb;
            diff.layers.push_back(std::move(e));
        }
    }
    return diff;
}

std::vector<size_t> worstFirst(const LayerDiff& diff) {
    std::vector<size_t> order(diff.layers.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return diff.layers[a].accuracy.snrDb < diff.layers[b].accuracy.snrDb; });
    return order;
}

QJsonObject layerDiffToJson(const LayerDiff& diff, int top, double snrDropDb) {
    QJsonArray layers, worst;
    for (const LayerError& e : diff.layers) layers.append(layerJson(e));
    const auto order = worstFirst(diff);
    for (size_t i = 0; i < order.size() && static_cast<int>(i) < top; ++i)
        worst.append(QString::fromStdString(diff.layers[order[i]].value));
    return QJsonObject{{"snr_drop_db", snrDropDb},
                       {"layers", layers},
                       {"worst", worst},
                       {"first_drop", diff.firstDrop >= 0
                                          ? QJsonValue(layerJson(diff.layers[static_cast<size_t>(diff.firstDrop)]))
                                          : QJsonValue()}};
}

LayerDiff layerDiffFromJson(const QJsonObject& json) {
    LayerDiff diff;
    const QString firstDrop = json.value("first_drop").toObject().value("value").toString();
    for (const QJsonValue& v : json.value("layers").toArray()) {
        const QJsonObject o = v.toObject();
        LayerError e;
        e.value = o.value("value").toString().toStdString();
        e.node = o.value("node").toString().toStdString();
        e.op = o.value("op").toString().toStdString();
        e.compared = o.value("compared").toString().toStdString();
        e.accuracy.name = e.value;
        // null: an infinite SNR (identical values) or a NaN written as null
        e.accuracy.snrDb = o.value("snr_db").toDouble(std::numeric_limits<double>::infinity());
        e.accuracy.cosine = o.value("cosine").toDouble(1);
        e.accuracy.maxAbs = o.value("max_abs").toDouble();
        e.accuracy.maxRel = o.value("max_rel").toDouble();
        e.snrDropDb = o.value("snr_drop_db").toDouble();
        if (diff.firstDrop < 0 && !firstDrop.isEmpty() && o.value("value").toString() == firstDrop)
            diff.firstDrop = static_cast<int>(diff.layers.size());
        diff.layers.push_back(std::move(e));
    }
    return diff;
}

} // namespace embark::bench

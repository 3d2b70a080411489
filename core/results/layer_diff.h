// Per-layer error of one model against another that computes the same thing differently:
// a quantized (QDQ) model against the float model it was made from, matched by value name
// (quantization keeps node and value names; a value a float rewrite such as a folded
// BatchNormalization removed from one side is simply not compared).
#pragma once

#include "metrics.h"
#include "ir/graph.h"

#include <QJsonObject>

#include <map>
#include <string>
#include <vector>

namespace embark::bench {

struct LayerError {
    std::string value;    // the float model's value name
    std::string node;     // its producer in the float model
    std::string op;       // the producer's op type
    std::string compared; // the other model's value compared (after its QuantizeLinear -> DequantizeLinear, if any)
    Accuracy accuracy;
    double snrDropDb = 0; // how far SNR fell from the worst compared value feeding this node (0 at the first layers)
};

struct LayerDiff {
    std::vector<LayerError> layers; // in the float model's execution order
    int firstDrop = -1;             // index of the first layer whose SNR fell by more than the threshold, or -1
};

// Compares every float32 value the float model computes with the value of the same name in
// `other` (for a value that `other` quantizes, the output of its QuantizeLinear ->
// DequantizeLinear pair: what the next layer reads). `fpValues`/`otherValues`: every value of
// each model by name (reference::RunResult::values with captureAll, plus the graph outputs).
// A layer's SNR drop is measured against the lowest SNR among the compared values its node
// reads, through values that are not compared (graph inputs count as exact and are not a
// baseline, so the first layers have no drop); `snrDropDb` is the threshold.
LayerDiff diffLayers(const ir::Graph& fp, const std::map<std::string, ir::Tensor>& fpValues, const ir::Graph& other,
                     const std::map<std::string, ir::Tensor>& otherValues, double snrDropDb);

// Layer indices, lowest SNR first (ties: execution order).
std::vector<size_t> worstFirst(const LayerDiff& diff);

// {"snr_drop_db", "layers": [{value, node, op, compared, snr_db, cosine, max_abs, max_rel,
// snr_drop_db}] in execution order, "worst": [value...] (the `top` lowest SNR), "first_drop":
// {...}|null}: what `compare --json` prints and a bench run stores (--float-reference).
QJsonObject layerDiffToJson(const LayerDiff& diff, int top, double snrDropDb);
// The layers and first drop back from layerDiffToJson's object (unknown fields ignored).
LayerDiff layerDiffFromJson(const QJsonObject& json);

} // namespace embark::bench

// The per-layer error report of a quantized model against its float model, shared by
// `embark-cli compare` and `embark-cli quantize --report`.
#pragma once

#include "cli.h"
#include "results/layer_diff.h"

#include <QJsonObject>

#include <map>

namespace embark::cli {

// Runs both models on the host reference with `inputs` (every intermediate value kept) and
// diffs them layer by layer (bench::diffLayers). Errors: an input one model lacks or takes in
// another shape (InvalidInput), a failing reference run.
Expected<bench::LayerDiff> diffModels(const ir::Graph& fp, const ir::Graph& other,
                                      const std::map<std::string, ir::Tensor>& inputs, double snrDropDb);

// Text: the `top` worst layers (lowest SNR first) as a table, then the first flagged layer.
void printLayerDiff(QTextStream& out, const bench::LayerDiff& diff, int top, double snrDropDb);
// JSON: {"snr_drop_db", "layers": [...] in execution order, "worst": [value...], "first_drop": {...}|null}.
QJsonObject layerDiffJson(const bench::LayerDiff& diff, int top, double snrDropDb);

} // namespace embark::cli

// `embark-cli bench QUANT.onnx --float-reference FLOAT.onnx`: the board's layer dumps of a
// quantized model's export (int8 values dequantized as the export dumps them) against the
// float model it was made from, run on the host reference with the same sample: the
// quantization error per layer as the board computes it, in the form of `embark-cli compare`
// (SNR, cosine, max error per layer, the first layer whose SNR falls past a threshold).
//
// Layers are matched by name, as `compare` matches them: `quantize` keeps the float model's
// node and value names and writes a quantized value X as X -> QuantizeLinear -> X_quantized ->
// DequantizeLinear; fuse_qdq's int8 operators write the QuantizeLinear's output, so a dump of
// X_quantized is the board's X. A float layer the export runs (outside the quantized region)
// is dumped under its own name. An int8 value fuse_qdq made itself (an operator whose
// QuantizeLinear it moved past a layout op) stands for the output of the model's node of the
// same name.
#pragma once

#include "results/layer_diff.h"
#include "ir/error.h"
#include "ir/graph.h"

#include <map>
#include <string>

namespace embark::jobs {

// The float model fits the model benchmarked: the same inputs (names and shapes) and at least
// one float32 value computed under the same name in both (what `quantize` keeps). Errors name
// `floatPath` and the input, or say that no layer matched (InvalidInput).
Status checkFloatReference(const ir::Graph& fp, const ir::Graph& model, const std::string& floatPath);

// The per-layer diff of the board against the float model. `fpValues`: every value of the
// float model on the sample (reference run with captureAll, plus its outputs); `model`: the
// model benchmarked (the QDQ model); `exported`: the graph whose values the export dumps
// (DeploymentPlan::referenceGraph); `board`: the board's dumps as floats, by the exported
// value's name. Each row's `compared` is the dumped value's name.
bench::LayerDiff diffBoardAgainstFloat(const ir::Graph& fp, const std::map<std::string, ir::Tensor>& fpValues,
                                       const ir::Graph& model, const ir::Graph& exported,
                                       const std::map<std::string, ir::Tensor>& board, double snrDropDb);

} // namespace embark::jobs

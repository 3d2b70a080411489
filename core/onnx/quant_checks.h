// Import-time checks of the quantization parameters of QDQ and QOperator models, so that a
// broken model is refused by every command (inspect included), not only when it runs.
#pragma once

#include "ir/error.h"
#include "ir/graph.h"

namespace embark::onnx {

// Constant scales must be positive and finite; a 1-D scale with more than one value is per
// axis and needs one value per index of the axis; zero points must have as many values as
// their scales. InvalidInput errors name the node and op ("node 'q' (QuantizeLinear): ...").
Status checkQuantizationParams(const ir::Graph& graph);

} // namespace embark::onnx

// The model as the ONNX library Embark is built with (1.12, opsets up to 17) can check and
// run shape inference on. A model of opset 18 to 21 imports from its own nodes (the importer
// maps each newer form to the IR's, opset_normalize.cpp); only the ONNX checker and ONNX
// shape inference see this view, in which:
// - nodes whose opset 18-21 form has an opset-17 equivalent are written in that form (ReduceX
//   with constant `axes` as an attribute, Split without `num_outputs`, Cast without `saturate`,
//   Resize/AveragePool/QuantizeLinear without new attributes left at their defaults, GridSample's
//   opset-20 mode names);
// - the other nodes (ops libonnx 1.12 does not know, a ReduceX whose axes are computed, Pad with
//   `axes`, DFT-20, ...) are set aside in a private domain: the checker skips them and their
//   outputs get their types and shapes from the reference's propagation instead.
// Nodes stay in place and in order, so the types inference finds copy back one to one.
#pragma once

#include <onnx/onnx_pb.h>

namespace embark::onnx {

// The newest default-domain opset libonnx knows.
constexpr int kLibonnxOpset = 17;

// A copy of `model` (its default-domain opset above kLibonnxOpset) for libonnx.
::onnx::ModelProto libonnxView(const ::onnx::ModelProto& model);

// Copies the value types of `from` (a view's graph after shape inference) into `to` (the graph
// it was made from): value_info, graph inputs and outputs, and those of every body.
void takeInferredTypes(const ::onnx::GraphProto& from, ::onnx::GraphProto* to);

} // namespace embark::onnx

// The importer's first stage: checks of a parsed ModelProto before any IR exists (default
// opset 6 to 21, supported ops, --shape overrides and graph-input shapes, at least one graph
// output, one producer per value, no missing values or cycles, the ONNX checker), plus the two
// fixes it makes to the model on the way: overrides written into the input shapes, nodes
// sorted topologically.
// Errors start with the model's display name and name the node, value or input involved.
// importer.cpp holds the second stage (shape inference and building the IR graph).
#pragma once

#include "ir/error.h"
#include "ir/opkind.h"
#include "ir/shape.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace embark::onnx {

std::string join(const std::vector<std::string>& items, const std::string& sep);
bool isDefaultDomain(const std::string& domain);
// The IR op of an ONNX node (Fused* ops of the embark domain map to their base op).
std::optional<ir::OpKind> opOf(const ::onnx::NodeProto& n);

class ModelChecks {
public:
    ModelChecks(::onnx::ModelProto& model, const std::string& display) : m_model(model), m_display(display) {}

    Status checkOpsets(); // sets opset()
    Status nameNodes();   // sets nodeNames(): the node's name, or <OpType>_<index>, made unique
    Status checkOps() const;
    // Quantization Embark lacks, before the opset and checker checks (which know nothing of
    // it in ONNX 1.12): blocked quantization (block_size) and int4/uint4/float8 tensors read
    // or written by a quantization node; Unsupported errors name the node, op and dtype.
    Status checkQuantization() const;
    // Initializers and Constant values of element types newer than ONNX 1.12 (float8, int4,
    // uint4), refused as Unsupported naming the tensor.
    Status checkTensorTypes() const;
    // Applies `overrides` to the graph inputs; every other input needs a full static shape.
    Status resolveInputShapes(const std::map<std::string, ir::Shape>& overrides);
    // No graph outputs, missing values, duplicate producers and cycles; sorts the nodes (and
    // nodeNames()).
    Status checkStructure();
    // The ONNX checker on `model`: the model itself, or its libonnxView (opset_view.h).
    Status runChecker(const ::onnx::ModelProto& model) const;

    int opset() const { return m_opset; }
    // The IR name of each ONNX node, in (sorted) model order.
    const std::vector<std::string>& nodeNames() const { return m_nodeNames; }

private:
    Error fail(ErrorKind kind, const std::string& message) const;

    ::onnx::ModelProto& m_model;
    std::string m_display;
    int m_opset = 0;
    std::vector<std::string> m_nodeNames;
};

} // namespace embark::onnx

// ONNX import with libonnx: checker, shape inference, initializers and Constant nodes,
// external data confined to the model's folder, opset normalisation into the IR's
// newest-opset semantics (see ir/opkind.h), and symbolic dimensions resolved from the model
// or from user overrides.
#pragma once

#include "ir/error.h"
#include "ir/graph.h"

#include <map>
#include <string>

namespace embark::onnx {

struct ImportOptions {
    // --shape NAME=DIMS overrides for graph inputs (symbolic or not).
    std::map<std::string, ir::Shape> shapeOverrides;
    bool runChecker = true;
    // For a preview (the studio still shows a model it cannot run): a node whose op Embark
    // does not support imports as a placeholder, an Identity carrying kUnsupportedOpAttr
    // ("Foo (opset 17)"), instead of failing; shapes past it may stay unknown. Such a graph
    // is for display only: it is never planned, run or exported.
    bool keepUnsupportedOps = false;
    // Values for graph inputs (by name) that the reference runs the model on where ONNX shape
    // inference leaves shapes open (reference::propagateShapes): the test data, so that a model
    // whose shapes follow an input's value (an If on a sample rate) gets the shapes of its data.
    // Zeros for the inputs it does not name or whose dtype or shape differs.
    std::map<std::string, ir::Tensor> shapeSample;
};

// The attribute of a placeholder node (ImportOptions::keepUnsupportedOps): the op it stands
// for, with its opset or domain.
inline constexpr const char* kUnsupportedOpAttr = "embark.unsupported_op";

// Imports the model at `path`. Shapes the file declares (value_info, graph outputs) are
// checked against inference, never trusted: a disagreement leaves one line per value in
// graph.metadata["shape_warnings"] and the computed shape is used. Errors name the file and
// the node/op/value involved:
// InvalidInput (4) for broken files, Unsupported (3) for ops/dtypes Embark lacks (the
// message lists the supported ops), Usage (2) for a bad --shape override.
Expected<ir::Graph> importModel(const std::string& path, const ImportOptions& options = {});

// Same, from bytes in memory; `baseDir` resolves external data, `displayName` names the
// model in messages.
Expected<ir::Graph> importModelFromBytes(const std::string& bytes, const std::string& baseDir,
                                         const std::string& displayName, const ImportOptions& options = {});

// The ONNX op types the importer accepts (after normalisation), sorted.
std::vector<std::string> supportedOnnxOps();

} // namespace embark::onnx

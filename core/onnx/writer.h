// Writes an IR graph back to a valid .onnx file (opset 17). Fused nodes that are not standard
// ONNX go into the "embark" domain (documented in docs/cli.md).
#pragma once

#include "ir/error.h"
#include "ir/graph.h"

#include <string>

namespace embark::onnx {

// The doc_string prefix of the nodes Embark writes: the importer reads their provenance back.
inline constexpr const char* kProvenanceTag = "embark-provenance";

// Serialised ModelProto bytes.
Expected<std::string> serializeModel(const ir::Graph& graph);
// Written atomically (temporary file + rename).
Status writeModel(const ir::Graph& graph, const std::string& path);

} // namespace embark::onnx

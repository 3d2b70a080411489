// The generated model source of an export (src/model.cpp): see model_source.cpp.
#pragma once

#include "emit_context.h"
#include "export_options.h"
#include "fused_blocks.h"

#include <string>
#include <vector>

namespace embark::exporter {

struct ModelSource {
    std::string cpp; // src/model.cpp
    int layers = 0;  // entries of its layer table (one per node of the adapted graph)
};

// Emits every node of `g` (the adapted graph ctx was made for) in schedule order, fused blocks
// (`blocks`) as one call in the plain pass; `expectedShapes` are the shapes of the expected
// outputs the export carries (the reference's on the sample input), one per graph output.
// Errors name the node that no library can emit.
Expected<ModelSource> emitModelSource(EmitContext& ctx, const ir::Graph& g, const ExportOptions& o,
                                      const std::string& modelName, const std::vector<FusedBlock>& blocks,
                                      const std::vector<ir::Shape>& expectedShapes);

// "'name' (float32, [1,3,224,224])" for messages.
std::string describeValue(const ir::Value* v);
// s with every occurrence of `from` replaced by `to`.
std::string replaceAll(std::string s, const std::string& from, const std::string& to);

} // namespace embark::exporter

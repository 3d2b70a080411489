// The standalone C++ export: fuse, adapt to the kernel libraries, plan memory, emit
// src/model.cpp, and write the export folder of DESIGN.md atomically.
#pragma once

#include "adaptation.h"
#include "export_options.h"
#include "ir/error.h"
#include "ir/graph.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

namespace embark::exporter {

// The sample inputs an export embeds: `given` where it names an input, else deterministic
// random data in [0, 1) (one seed, in input order). ONNX Runtime runs take the same sample, so
// an export run and an ONNX Runtime run of one model see the same inputs.
std::map<std::string, ir::Tensor> exportSampleInputs(const ir::Graph& graph,
                                                     const std::map<std::string, ir::Tensor>& given = {});
QString defaultRuntimeDir();

// Errors: Unsupported (an op or dtype no library handles: nothing is written), Usage (bad
// options, non-empty folder without force), External (file system).
Expected<ExportResult> exportModel(const ir::Graph& model, const ExportOptions& options);

// The second half of exportModel: writes the export of a deployment plan already built with
// planOptions(options) (the pipeline's "plan" step, the studio's current plan).
struct DeploymentPlan;
Expected<ExportResult> writeExport(const ir::Graph& model, const DeploymentPlan& plan, const ExportOptions& options);

} // namespace embark::exporter

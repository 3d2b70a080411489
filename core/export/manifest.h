// export.json (the manifest the studio, the bench and the board runner read) and the
// export's README.md.
#pragma once

#include "adaptation.h"
#include "emit_context.h"
#include "export_options.h"
#include "fused_blocks.h"
#include "memory_planner.h"

#include <QByteArray>

namespace embark::exporter {

struct ManifestInput {
    const ir::Graph& model;
    const Adaptation& adaptation;
    const MemoryPlan& plan;
    const ExportOptions& options;
    const ExportResult& result;
    const EmitContext& ctx;
    const std::vector<FusedBlock>& fusedBlocks;
};

QByteArray manifestJson(const ManifestInput& in);
std::string exportReadme(const ManifestInput& in);

} // namespace embark::exporter

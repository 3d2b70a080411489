#include "library_assignment.h"

#include "engine_text.h"

#include "export/exporter.h"
#include "xnnpack/xnnpack_resolve.h"

namespace embark::ui {

Expected<std::unique_ptr<exporter::DeploymentPlan>> planForStudio(const ir::Graph& imported, const AssignmentRequest& request,
                                                                  const QString& arch) {
    exporter::PlanOptions options;
    options.library = request.library;
    options.arch = arch.isEmpty() ? exporter::hostArch() : arch.toStdString();
    // The same test the CLI and the bench pipeline make, so the studio predicts their choice.
    options.havePrebuiltXnnpack = xnnpack::haveXnnpackFor(QString::fromStdString(options.arch));
    options.opOverrides = request.opOverrides;
    options.nodeOverrides = request.nodeOverrides;
    options.keepSnapshots = true; // the before/after views show every stage
    return exporter::buildDeploymentPlan(imported, options);
}

LibraryAssignments assignmentsOf(const exporter::Adaptation& adaptation) {
    LibraryAssignments out;
    for (const auto& [name, assignment] : adaptation.nodes) {
        if (assignment.rule == exporter::AssignmentRule::Conversion) continue;
        out[name] = NodeLibrary{QString::fromStdString(assignment.library), engineText(QString::fromStdString(assignment.reason))};
    }
    return out;
}

} // namespace embark::ui

#include "library_assignment.h"

#include "engine_text.h"

#include "export/deployment_target.h"
#include "jobs/resolve_target.h"
#include "export/exporter.h"
#include "xnnpack/xnnpack_resolve.h"

namespace embark::ui {

Expected<std::unique_ptr<exporter::DeploymentPlan>>
planForStudio(const ir::Graph& imported, const AssignmentRequest& request, const targets::Board& board) {
    jobs::TargetRequest r;
    r.board = board.id;
    r.library = request.library == "auto" ? std::string("portable") : request.library;
    r.opOverrides = request.opOverrides;
    r.nodeOverrides = request.nodeOverrides;
    targets::BoardCatalog one;
    one.boards.push_back(board);
    auto target = board.id.isEmpty() ? jobs::resolveTarget(r) : jobs::resolveTarget(r, one);
    if (!target) return target.error();
    // What chooseLibrariesByMeasurement leaves in the target: portable plus the measured choice.
    if (request.library == "auto") target->measured = request.measured;
    exporter::PlanOptions options = exporter::planOptions(*target);
    options.keepSnapshots = true; // the before/after views show every stage
    return exporter::buildDeploymentPlan(imported, options);
}

LibraryAssignments assignmentsOf(const exporter::Adaptation& adaptation) {
    LibraryAssignments out;
    for (const auto& [name, assignment] : adaptation.nodes) {
        if (assignment.rule == exporter::AssignmentRule::Conversion) continue;
        out[name] = NodeLibrary{QString::fromStdString(assignment.library),
                                engineText(QString::fromStdString(assignment.reason))};
    }
    return out;
}

} // namespace embark::ui

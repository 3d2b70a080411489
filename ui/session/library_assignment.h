// Which kernel library runs each node of the fused graph, and why, as the studio shows it.
// Computed by exporter::buildDeploymentPlan(), the call the export makes, so the colours never disagree.
#pragma once

#include "export/adaptation.h"
#include "export/deployment_plan.h"
#include "ir/graph.h"
#include "targets/board.h"

#include <QString>

#include <map>
#include <memory>
#include <string>

namespace embark::ui {

struct NodeLibrary {
    QString library; // kernel library id
    QString why;     // adapt()'s reason: the rule and, for a fallback, why the wanted library refused
};

struct AssignmentRequest {
    std::string library = "portable"; // or "auto": chosen per node by measurement
    // library "auto": the measurement of this model on this board (jobs::chooseLibrariesByMeasurement);
    // until it is in, the model is planned on portable, the library every node starts from.
    std::shared_ptr<const exporter::MeasuredChoice> measured;
    std::map<std::string, std::string> opOverrides;   // op name -> library
    std::map<std::string, std::string> nodeOverrides; // node name -> library
};

using LibraryAssignments = std::map<std::string, NodeLibrary>; // by node name

// The deployment plan of the imported graph for `board` (no id: the default board) with the
// request's library and overrides: the target jobs::resolveTarget resolves and the
// exporter::buildDeploymentPlan call that `embark-cli export` and `plan` make, so the studio
// shows what the board runs and its export job writes this very plan. The error names the
// library, node or architecture at fault.
Expected<std::unique_ptr<exporter::DeploymentPlan>>
planForStudio(const ir::Graph& imported, const AssignmentRequest& request, const targets::Board& board);

// The per-node view of an adaptation, for the graph colours and the properties panel. Layout
// conversions inserted by adapt() are left out: they are not nodes of the fused graph.
LibraryAssignments assignmentsOf(const exporter::Adaptation& adaptation);

} // namespace embark::ui

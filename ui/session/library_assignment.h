// Which kernel library runs each node of the fused graph, and why, as the studio shows it.
// A narrow seam over core: wired to exporter::adapt() once core/export provides it.
#pragma once

#include "ir/graph.h"

#include <QString>

#include <map>
#include <string>

namespace embark::ui {

struct NodeLibrary {
    QString library; // kernel library id
    QString why;     // the rule and, for a fallback, the chosen library's reason
};

struct AssignmentRequest {
    std::string library = "portable";
    std::map<std::string, std::string> opOverrides;   // op name -> library
    std::map<std::string, std::string> nodeOverrides; // node name -> library
};

using LibraryAssignments = std::map<std::string, NodeLibrary>; // by node name

// The rules of DESIGN.md "adaptation": node override, op override, chosen library when it
// supports the node, else portable. Layout conversions are not shown yet.
LibraryAssignments assignLibraries(const ir::Graph& fused, const AssignmentRequest& request);

} // namespace embark::ui

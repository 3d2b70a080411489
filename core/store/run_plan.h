// A run's deployment plan as the run store keeps it (issue 19): per node of the graph the
// export ran (the fused graph with its layout conversions, in schedule order) its op, kernel
// library and layout, the values it reads and writes, and the original ONNX nodes it stands
// for; stored in the run's extra data as "plan". Two runs' plans are diffed node by node:
// added, removed, fused differently, re-assigned to another library or layout, rewritten.
#pragma once

#include "run_record.h"

#include "ir/error.h"
#include "ir/graph.h"

#include <QJsonArray>

#include <memory>
#include <string>
#include <vector>

namespace embark::store {

struct PlanNode {
    std::string name;
    std::string op;                           // Embark's op name ("Conv", "Transpose")
    std::string library;                      // kernel library that runs it
    std::string layout;                       // "NCHW" or "NHWC": the layout of its 4-D activations
    std::vector<std::string> inputs;          // values it reads (weights and other constants left out)
    std::vector<std::string> outputs;         // values it writes
    std::vector<std::vector<int64_t>> shapes; // of the outputs (physical: NHWC when NHWC)
    std::vector<std::string> origins;         // original ONNX nodes (provenance); empty: none recorded
};

QJsonArray planToJson(const std::vector<PlanNode>& plan);
// Errors name the entry and the field that is wrong (InvalidInput).
Expected<std::vector<PlanNode>> planFromJson(const QJsonArray& plan);
// The run's stored plan; an empty plan for runs stored without one (older runs, ONNX
// Runtime runs); an error for a malformed one.
Expected<std::vector<PlanNode>> runPlan(const RunRecord& run);

enum class PlanChange { Added, Removed, Fused, Reassigned, Rewritten, Unchanged };
const char* planChangeName(PlanChange change); // "added", "removed", "fused differently", ...

struct PlanNodeChange {
    std::string node;
    PlanChange change = PlanChange::Unchanged;
    std::vector<std::string> counterparts;            // the other plan's nodes standing for the same ONNX nodes
    std::string libraryA, libraryB, layoutA, layoutB; // of a node matched one to one
};

struct PlanDiff {
    std::vector<PlanNodeChange> a, b; // every node of each plan, in plan order
    int added = 0;                    // nodes of B standing for no node of A
    int removed = 0;                  // nodes of A standing for no node of B
    int fusedA = 0, fusedB = 0;       // nodes fused differently (a block on one side, several nodes on the other)
    int reassigned = 0;               // nodes matched one to one with another library or layout
    int rewritten = 0;                // matched one to one, same library and layout, another op
    bool identical() const { return added + removed + fusedA + fusedB + reassigned + rewritten == 0; }
};

// Nodes are matched through their original ONNX nodes (a node without any stands for itself,
// as a layout conversion does): a node whose originals no node of the other plan stands for
// was added (B) or removed (A); one linked to several nodes of the other plan, or to a node
// that stands for several of its own plan's, was fused differently; one matched one to one
// was re-assigned when its library or layout changed, rewritten when only its op did.
PlanDiff diffPlans(const std::vector<PlanNode>& a, const std::vector<PlanNode>& b);

// The plan as a graph to draw: its nodes in order, values by name (graph inputs: values no
// node writes; outputs: values no node reads), provenance from the origins. Errors name an
// unknown op or a value written twice.
Expected<std::unique_ptr<ir::Graph>> planGraph(const std::vector<PlanNode>& plan);

} // namespace embark::store

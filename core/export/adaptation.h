// Adaptation of a fused graph to kernel libraries: which library runs each node and why,
// which memory layout each node and value uses, and the explicit layout conversions between
// neighbours that disagree. This is what the export emitters consume.
#pragma once

#include "ir/error.h"
#include "ir/graph.h"
#include "targets/kernel_library.h"

#include <map>
#include <string>
#include <vector>

namespace embark::exporter {

struct AdaptationOptions {
    std::string library = "portable";                 // the chosen library (--lib)
    std::string arch = "x86_64";                      // --arch; checked against the library's architectures
    bool havePrebuiltXnnpack = false;                 // an XNNPACK tree exists (xnnpack::resolveXnnpack; riscv64)
    std::map<std::string, std::string> opOverrides;   // ONNX op type -> library (--override)
    std::map<std::string, std::string> nodeOverrides; // node name -> library (--override-node)
    std::map<std::string, std::string> measured;      // node name -> library chosen by --lib auto
};

// Why a node got its library, in the order the rules are tried.
enum class AssignmentRule { NodeOverride, OpOverride, Measured, ChosenLibrary, PortableFallback, Conversion };
std::string_view assignmentRuleName(AssignmentRule r); // "node override", ...

struct NodeAssignment {
    std::string library; // kernel library id
    AssignmentRule rule = AssignmentRule::ChosenLibrary;
    std::string reason;                             // human-readable: "xnnpack Softmax: softmax over the last axis"
    targets::Layout format = targets::Layout::NCHW; // layout of its 4-D activations
};

// The result the emitters read.
//  - graph: the fused graph plus layout conversions. Shapes are PHYSICAL: a value stored
//    NHWC has shape [N, H, W, C]. A conversion is a real Transpose (perm [0,2,3,1] to NHWC,
//    [0,3,1,2] back) named "<value>_to_nhwc" / "<value>_to_nchw"; where the conversion moves
//    no bytes (H = W = 1 or C = 1) it is a Reshape instead, which the memory planner aliases.
//    Nodes running NHWC keep their ONNX attributes (pads/strides are spatial, unchanged);
//    Concat running NHWC has its `axis` remapped. Constants read by NHWC nodes are replaced
//    by permuted copies (weights OIHW -> OHWI, [Cin, Cout/g, kH, kW] -> [Cin, kH, kW, Cout/g]
//    for ConvTranspose; broadcast operands padded to 4-D then permuted), so nothing is
//    permuted at run time. Graph inputs and outputs keep the model's names, shapes, layout.
//  - nodes: every node of `graph` by name (conversions included, rule Conversion).
//  - valueLayouts: every non-constant value (and every permuted constant) by name: NCHW
//    means the model's own layout (also used for non-4-D values), NHWC channels-last.
struct Adaptation {
    ir::Graph graph;
    std::map<std::string, NodeAssignment> nodes;
    std::map<std::string, targets::Layout> valueLayouts;
    std::vector<std::string> conversionNodes; // names of the inserted Transposes
    int conversions = 0;                      // Transposes that move data
    int freeConversions = 0;                  // Reshapes standing for a layout change of a degenerate tensor
    int partitions = 0;                       // maximal runs of consecutive scheduled nodes on one library
    std::vector<std::string> librariesUsed;   // in first-use order
    std::vector<std::string> log;             // one line per decision worth reading
};

// Errors: unknown library, op or node in the options (Usage, 2); a library unavailable on
// the architecture or a node no library supports (Unsupported, 3). Messages name them.
// The library node n runs on: its assignment, or the fallback library when it has none.
const targets::KernelLibrary& assignedLibrary(const Adaptation& a, const ir::Node& n);

Expected<Adaptation> adapt(const ir::Graph& fused, const AdaptationOptions& options);

// Graph metadata key (any value) of a model whose nodes stand for nodes inside another model:
// `--lib auto`'s measurement models (jobs/measure_libraries.cpp). Their outputs leave the model
// only to be timed, so each node runs the kernel and layout it would run inside that model, not
// the model-layout kernel a one-op model's node gets when its output leaves the model. An ONNX
// model sets it with a metadata_props entry of this key (bench/ops/make_models.py --in-model).
inline constexpr const char* kStandsForInnerNodes = "embark.stands_for_inner_nodes";

} // namespace embark::exporter

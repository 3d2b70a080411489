// Kernel libraries described as data: which ops (and attribute constraints) each supports,
// which activation fusions it declares, its layouts and the CPU architectures it runs on.
// This is the type and its checks; each library's table lives with its emitter
// (core/export/libraries/<id>/, listed by core/export/kernel_libraries.h).
#pragma once

#include "ir/graph.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace embark::exporter {
class EmitContext;
}

namespace embark::targets {

// How a 4-D activation is laid out in memory. Any: the op works in whatever layout its
// input has (element-wise ops, activations).
enum class Layout : uint8_t { Any, NCHW, NHWC };
std::string_view layoutName(Layout f);

// A named check on a node, implemented once in kernel_library.cpp; libraries list which
// checks each op needs, so support is data rather than code.
enum class Constraint : uint8_t {
    Float32,                 // every non-constant input and output is float32
    Conv2D,                  // 4-D input (2-D spatial), any group count (depthwise, grouped)
    ConstantWeights,         // input 1 (weights / B) is a constant
    GemmPlain,               // Gemm with transA = 0, alpha = beta = 1, 2-D A
    ExplicitPads,            // auto_pad absent or NOTSET, dilations 1 for pooling
    NoCeilMode,              // pooling with ceil_mode = 0
    Input4D,                 // input 0 is 4-D
    LastAxis,                // axis attribute names the last dimension (Softmax)
    FusedActivationDeclared, // a fused activation is one the library declares for this op
    ConstantClipBounds,      // Clip min/max are absent or constants
    BroadcastRank4,          // binary op inputs have at most 4 dims
    AveragePadsExcluded,     // AveragePool: count_include_pad = 0, or no padding
    UnitDilations,           // pooling without dilations (AveragePool has them from opset 19)
    DeconvNaturalOutput,     // ConvTranspose: no output_shape, output_padding < stride, pads >= 0
    QuantPerTensor,          // QuantizeLinear/DequantizeLinear: constant scalar scale and zero point, int8/uint8
    Qs8Contract,             // fused int8 op (QConv/QGemm/QAdd): int8 activations, symmetric int8 weights
                             // with per-channel or per-tensor scales (XNNPACK's qs8-qc8w)
    Qs8ScaleRange,           // requantization scales XNNPACK accepts (see kernel_library.cpp)
    Float32OrInt8,           // run-time tensors all float32 or all int8 (max pooling: no requantization)
};
std::string_view constraintText(Constraint c);

struct OpSupport {
    ir::OpKind op;
    Layout format; // the layout the kernel wants for its 4-D activations
    std::vector<Constraint> constraints;
};

// "producer may absorb these activations" (fused through ir/fused.h attributes).
struct FusionPattern {
    ir::OpKind producer;
    std::vector<ir::OpKind> activations;
};

struct KernelLibrary {
    std::string id; // "portable", "xnnpack"
    std::string description;
    std::vector<OpSupport> ops;
    std::vector<FusionPattern> fusions;
    Layout preferredLayout = Layout::NCHW;
    std::vector<std::string> architectures;         // available out of the box
    std::vector<std::string> prebuiltArchitectures; // available only with a prebuilt tree

    // What the rest of Embark asks a library instead of comparing its id, set beside its table
    // in core/export/libraries/<id>/<id>_library.cpp.
    std::string displayName;  // "XNNPACK": reports and the studio
    int hue = 0;              // its colour in the studio's graph and layer charts (an HSL hue)
    std::string reportColour; // its colour in HTML run reports ("#1c7ed6")
    // The library that runs every node the others do not (typed and int8 nodes, control flow,
    // the fallback of adaptation).
    bool fallback = false;
    bool fusesBlocks = false;    // its NHWC convolutions fuse into blocks (fused_blocks.h)
    bool stridedConcat = false;  // its kernels read and write strided slices in place (concat_in_place.h)
    bool inputsReadOnly = false; // its kernels never write their inputs: graph inputs read in place
    bool linksXnnpack = false;   // an export using it links an XNNPACK tree (resolved per board)
    bool alwaysLinked = false;   // every export links its runtime (else only where a node used it)
    // runtime/<folder>s an export that links it copies into kernels/<id>/.
    std::vector<std::string> runtimeFolders;
    // Its parts of src/model.cpp where an export links it (runtime/common/model.cpp.in's
    // LIBRARY_* slots): whole lines each.
    std::string modelIncludes, modelGlobals, modelInit, modelShutdown;
    // Its emitter: writes one node's layer into ctx (core/export/libraries/<id>/).
    Status (*emitNode)(exporter::EmitContext& ctx, const ir::Node& node) = nullptr;

    const OpSupport* find(ir::OpKind op) const;
    bool declaresFusion(ir::OpKind producer, ir::OpKind activation) const;
    // Empty when the node is supported, else the first reason it is not.
    std::string whyUnsupported(const ir::Node& node) const;
    bool supports(const ir::Node& node) const { return whyUnsupported(node).empty(); }
    // The layout the library runs this node in (its OpSupport format; NCHW if unsupported).
    Layout layoutFor(const ir::Node& node) const;
    bool availableOn(const std::string& arch, bool havePrebuiltTree = false) const;
};

// A library with no ops and no fusions: what the passes see when they are given none.
const KernelLibrary& noKernelLibrary();

} // namespace embark::targets

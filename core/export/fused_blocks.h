// Blocks of consecutive layers that the portable runtime runs as one kernel in forward() (the
// plain, unprofiled pass): MobileNet-style inverted bottlenecks, a 1x1 expansion, a depthwise
// convolution and a 1x1 projection, optionally followed by the residual Add of the block's
// input, and depthwise-separable pairs (the same without the expansion); and the layout
// conversion of an NCHW input into a convolution that copies its input anyway (the Rows path:
// few input channels, an image), which then transposes while it copies. The profiled (--layers) and dump (--dump)
// passes still run them layer by layer, so every node keeps its timing and its output; both paths compute the same
// values bit for bit.
#pragma once

#include "adaptation.h"

#include <string>
#include <vector>

namespace embark::exporter {

struct FusedBlock {
    enum class Kind { Bottleneck, NchwConv };
    Kind kind = Kind::Bottleneck;
    // Bottleneck: [expansion,] depthwise, projection[, Add]. NchwConv: the Transpose to NHWC and
    // the convolution. Consecutive in the schedule.
    std::vector<const ir::Node*> nodes;
    bool expansion = false;           // Bottleneck: nodes[0] is the expansion
    const ir::Value* input = nullptr; // the block's input, read while the block writes its output
    const ir::Node* add = nullptr;    // Bottleneck: the residual Add (nodes.back()) or null
    const ir::Value* output() const { return nodes.back()->output(0); }
};

// The blocks of the adapted graph, in schedule order. A block is fused only where every node
// runs on the portable library in NHWC, each intermediate value has the next node as its only
// reader (and is not a graph output), and the convolutions have the bottleneck's shapes; the
// runtime still checks its own conditions (bottleneck_fusable) and falls back to the layers.
std::vector<FusedBlock> findFusedBlocks(const Adaptation& adaptation);

// Whether graph input `v` is read where the caller put it instead of being copied into the arena
// first: every reader is a portable kernel, which takes its input pointer per call (an XNNPACK
// operator is set up once with its arena pointers), and it is not also an output. Its arena slot
// is then never read, so a fused block that reads it needs no memory kept apart for it.
bool graphInputReadInPlace(const Adaptation& adaptation, const ir::Value* v);

} // namespace embark::exporter

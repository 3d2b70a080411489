// Concatenation in place: which portable kernels write or read a slice of a wider tensor, the
// rules the memory planner follows to place a Concat's inputs inside its output (see
// memory_planner.h, step 2), and the check the emitters rely on.
//
// A slice along the last physical axis of a tensor with more than one row is a strided view:
// rows of its last axis `rowStride` floats apart (an NHWC convolution writing channels
// [64, 96) of a 128-channel concatenation writes 32 floats per pixel, 128 floats apart).
//  - Writers of strided rows: portable Conv / ConvTranspose in NHWC (every conv2d path takes
//    Conv2D::out_stride), MaxPool / AveragePool in NHWC (Pool2DShape::out_stride),
//    BatchNormalization over its last axis (channel_affine's y_stride) and Concat itself (its
//    copies). Not a layer inside a fused bottleneck: that kernel writes whole rows.
//  - Readers of strided rows: BatchNormalization over its last axis (x_stride) and a Concat
//    along the last axis (it copies such an input row by row).
// Any portable layer writes a contiguous slice (a pointer into the buffer). XNNPACK layers
// take part in neither: XNNPACK's operators are set up with their own strides.
#pragma once

#include "adaptation.h"
#include "fused_blocks.h"
#include "memory_planner.h"

namespace embark::exporter {

// --concat-in-place: Auto takes strided slices only in buffers that likely stay in cache
// (MemoryPlanOptions::ConcatRules::stridedMaxBytes), All in any buffer, Off copies every input
// (what exports did before).
enum class ConcatInPlace { Auto, All, Off };
// "auto", "all", "off" (false for anything else).
bool parseConcatInPlace(const std::string& text, ConcatInPlace* out);

bool writesStridedRows(const Adaptation& a, const ir::Node& n);
bool readsStridedRows(const Adaptation& a, const ir::Node& n);

// The planner's rules for `a` (the adaptation and blocks must outlive the planning).
MemoryPlanOptions::ConcatRules concatInPlaceRules(const Adaptation& a, const std::vector<FusedBlock>& blocks);

// Internal error naming the node when a value it reads or writes is a strided view that its
// kernel cannot handle (a planner/emitter mismatch, never the user's input).
Status checkStridedAccess(const Adaptation& a, const MemoryPlan& plan, const ir::Node& n);

} // namespace embark::exporter

// The activation memory planner: a deterministic schedule, liveness per value, and offsets in
// one arena found by a greedy best-fit placement, plus a checker and printable reports.
//
// Algorithm (a heuristic, like TFLM's greedy planner, not an optimal packer):
//  1. Schedule = the graph's node order (topologically sorted, deterministic). Step i runs
//     node i; a value is live from the step producing it (graph inputs: step 0) to the last
//     step reading it (graph outputs: the last step).
//  2. Values become buffers. A pure reshape (Reshape, Flatten, Squeeze, Unsqueeze) aliases
//     its input's buffer: it is a no-op in memory. An element-wise op whose input buffer has
//     no reader after it writes its output into that buffer (in-place), when sizes match.
//     Concatenation in place (when the options give its rules): walking the schedule backwards,
//     a Concat's inputs become views of its output's buffer, written there by their producers,
//     and a Concat whose inputs already lie side by side in one buffer becomes a view itself
//     (DenseNet's growing concatenations all share their block's final buffer). Either way the
//     Concat copies nothing for them. A slice along an axis that is not the last physical one
//     is contiguous only when every axis before it has size 1; a slice along the last axis
//     (NHWC channels) is a strided view, rows `rowStride` floats apart, allowed only where the
//     rules say its producer writes and every reader reads such rows.
//  3. Buffers are placed largest first (ties: earlier first step); each goes into the
//     smallest gap between already placed buffers whose lifetimes overlap its own (best fit),
//     else on top of them.
// The lower bound is the largest sum of live buffer bytes at any step: no placement of
// these buffers can use less; `arenaBytes == lowerBoundBytes` means the plan is optimal.
// Constants are not planned here (they live in the weights blob).
#pragma once

#include "ir/error.h"
#include "ir/graph.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace embark::exporter {

struct MemoryPlanOptions {
    // Graph inputs and outputs in the arena (true) or in buffers the caller owns (false).
    bool ioInArena = true;
    bool inPlace = true; // element-wise ops may overwrite a dead input
    bool aliasReshapes = true;
    size_t alignment = 16; // every buffer offset and size is a multiple of this
    // Pairs of values that never share memory, whatever their lifetimes: a fused block
    // (fused_blocks.h) reads its input while it writes its output, although layer by layer the
    // input is dead before the output is produced. Only those two are kept apart: the block's
    // intermediate values may still reuse the input's memory (they are not written when it runs
    // fused).
    std::vector<std::pair<std::string, std::string>> apart;
    // Concatenation in place (step 2); no rules (the default) = every Concat copies its inputs.
    struct ConcatRules {
        std::function<bool(const ir::Node&)> inPlace;        // this Concat may host its inputs / be a view
        std::function<bool(const ir::Node&)> writesAtOffset; // the producer can write a contiguous slice
        std::function<bool(const ir::Node&)> writesStrided;  // ... rows of the last axis with a stride
        std::function<bool(const ir::Node&)> readsStrided;   // the reader can read such rows
        // Strided slices only in a buffer of at most this many bytes. Pixel by pixel, a kernel
        // touches a few lines of each kilobyte-long row: where the buffer is out of cache, that
        // costs more than a copy that streams (DenseNet-121's 3.2 MB first block ran 10% slower
        // at 1 thread with all its slices in place; bench/README.md).
        size_t stridedMaxBytes = size_t(1) << 20;
    } concat;
};

// Where a value lies inside its buffer when it is not the whole of it (a slice of a
// concatenation): its first element `byteOffset` bytes in, and, for a strided view, its rows
// (of the last physical axis) `rowStride` elements apart; rowStride 0 = contiguous.
struct ValueView {
    size_t byteOffset = 0;
    int64_t rowStride = 0;
};

struct PlannedBuffer {
    int id = 0;
    std::vector<std::string> values; // the values sharing this memory, in schedule order
    size_t bytes = 0;                // aligned size
    size_t offset = 0;               // in the arena (meaningless when !inArena)
    int firstStep = 0, lastStep = 0; // inclusive lifetime in schedule steps
    bool inArena = true;
};

struct MemoryPlan {
    std::vector<std::string> schedule;        // node names, step i runs schedule[i]
    std::vector<PlannedBuffer> buffers;       // by id
    std::map<std::string, int> bufferOfValue; // value name -> buffer id
    std::map<std::string, ValueView> views;   // values that are part of their buffer
    size_t arenaBytes = 0;
    size_t lowerBoundBytes = 0;
    int peakStep = 0; // a step where the lower bound is reached
    size_t alignment = 16;

    const PlannedBuffer* bufferFor(const std::string& value) const;
    ValueView viewOf(const std::string& value) const; // {0, 0} for a whole buffer
    // Bytes of arena buffers live at each step.
    std::vector<size_t> liveBytesPerStep() const;
    // A table: buffer, offset, bytes, first..last step, values.
    std::string table() const;
    // One line per step: the arena drawn `width` characters wide, each buffer live at that
    // step drawn with its symbol (0-9a-zA-Z, cycling), free space as '.'.
    std::string asciiSteps(int width = 64) const;
};

// Plans the non-constant values of `graph`. Error (InvalidInput) if the graph is not
// topologically sorted or a value has an invalid size.
Expected<MemoryPlan> planMemory(const ir::Graph& graph, const MemoryPlanOptions& options = {});

// Proves that no two simultaneously live arena buffers overlap and that every buffer fits
// in the arena; the error names both buffers and their values.
Status checkMemoryPlan(const MemoryPlan& plan);

} // namespace embark::exporter

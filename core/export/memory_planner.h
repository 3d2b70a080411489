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
//  3. Buffers are placed largest first (ties: earlier first step); each goes into the
//     smallest gap between already placed buffers whose lifetimes overlap its own (best fit),
//     else on top of them.
// The lower bound is the largest sum of live buffer bytes at any step: no placement of
// these buffers can use less; `arenaBytes == lowerBoundBytes` means the plan is optimal.
// Constants are not planned here (they live in the weights blob).
#pragma once

#include "ir/error.h"
#include "ir/graph.h"

#include <map>
#include <string>
#include <vector>

namespace embark::exporter {

struct MemoryPlanOptions {
    // Graph inputs and outputs in the arena (true) or in buffers the caller owns (false).
    bool ioInArena = true;
    bool inPlace = true;      // element-wise ops may overwrite a dead input
    bool aliasReshapes = true;
    size_t alignment = 16;    // every buffer offset and size is a multiple of this
    // Pairs of values that never share memory, whatever their lifetimes: a fused block
    // (fused_blocks.h) reads its input while it writes its output, although layer by layer the
    // input is dead before the output is produced. Only those two are kept apart: the block's
    // intermediate values may still reuse the input's memory (they are not written when it runs
    // fused).
    std::vector<std::pair<std::string, std::string>> apart;
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
    std::vector<std::string> schedule;         // node names, step i runs schedule[i]
    std::vector<PlannedBuffer> buffers;        // by id
    std::map<std::string, int> bufferOfValue;  // value name -> buffer id
    size_t arenaBytes = 0;
    size_t lowerBoundBytes = 0;
    int peakStep = 0;                          // a step where the lower bound is reached
    size_t alignment = 16;

    const PlannedBuffer* bufferFor(const std::string& value) const;
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

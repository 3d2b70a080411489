// Outputs whose length depends on the data (NonMaxSuppression, NonZero, Unique, TopK with K
// computed at run time) in an export, whose shapes are fixed: such a value is planned at its
// upper bound (its capacity) and its actual length along one axis is a count the kernel
// returns at run time.
#pragma once

#include "ir/error.h"
#include "ir/graph.h"

#include <map>
#include <string>

namespace embark::exporter {

struct DynamicLength {
    std::string count; // the generated C++ variable holding the run's length ("g_len_0")
    int axis = 0;      // the axis whose length is data-dependent (the rest are fixed)
};

// value name -> its data-dependent axis and count
using DynamicLengths = std::map<std::string, DynamicLength>;

// Sets the output of every NonMaxSuppression (batches * classes * min(max_output_boxes, boxes)
// triples), NonZero (rank x numel), TopK with a run-time K (values and indices: the whole axis)
// and Unique (Y, indices and counts: numel, or the axis length) of g to its capacity (one count
// per node, shared by its outputs) and carries the count through the
// nodes that keep rows apart (element-wise ops, Cast, Gather and GatherND by such indices,
// Gather of such data along another axis, Transpose, Squeeze, Unsqueeze, and Slice, Concat,
// Softmax, ArgMax and reductions along other axes), re-deriving their shapes. Any other reader of such
// a value is refused (Unsupported, naming the node and the value), as is a NonMaxSuppression
// whose max_output_boxes_per_class is computed at run time.
Expected<DynamicLengths> planDynamicLengths(ir::Graph& g);

} // namespace embark::exporter

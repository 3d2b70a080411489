// Comparison of two runs: totals (medians with 95% confidence intervals, ratio, whether the
// difference is significant) and per-layer deltas matched by node name.
#pragma once

#include "run_record.h"

#include <optional>

namespace embark::store {

struct LayerDelta {
    std::string node;
    std::string libA; // empty when the layer is only in B
    std::string libB; // empty when the layer is only in A
    std::optional<double> nsA;
    std::optional<double> nsB;
    double deltaNs = 0; // B - A, 0 when either side is missing
    double ratio = 0;   // B / A, 0 when either side is missing or A is 0
};

struct RunComparison {
    int64_t idA = 0;
    int64_t idB = 0;
    LatencyStats a;
    LatencyStats b;
    double medianDeltaNs = 0;       // B - A
    double medianRatio = 0;         // B / A, 0 when A has no samples
    bool significant = false;       // the medians' 95% intervals do not overlap
    std::vector<LayerDelta> layers; // A's order, then layers only B has
};

RunComparison compareRecords(const RunRecord& a, const RunRecord& b);

} // namespace embark::store

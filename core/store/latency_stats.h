// Summary statistics of latency samples, with a distribution-free 95% confidence interval of
// the median (order statistics), used by the run store, `runs compare` and the charts.
#pragma once

#include <cstdint>
#include <vector>

namespace embark::store {

struct LatencyStats {
    int64_t count = 0;
    double minNs = 0;
    double maxNs = 0;
    double medianNs = 0;
    double meanNs = 0;
    double p90Ns = 0;
    double stdevNs = 0; // sample standard deviation (n - 1)
    double ci95LowNs = 0;
    double ci95HighNs = 0;

    bool empty() const { return count == 0; }
};

// Median CI: the order statistics at ranks n/2 -/+ 1.96 sqrt(n)/2 (normal approximation of
// the binomial), which holds for any latency distribution; with fewer than 6 samples the
// interval widens to the sample range. All zero for no samples.
LatencyStats summarizeLatency(std::vector<int64_t> samples);

// True when the two medians' 95% intervals do not overlap: a difference worth reporting.
bool mediansDiffer(const LatencyStats& a, const LatencyStats& b);

} // namespace embark::store

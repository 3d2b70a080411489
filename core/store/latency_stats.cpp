#include "latency_stats.h"

#include <algorithm>
#include <cmath>

namespace embark::store {

namespace {

// Linear interpolation between closest ranks (the common "type 7" quantile).
double quantile(const std::vector<int64_t>& sorted, double q) {
    const double h = (sorted.size() - 1) * q;
    const size_t lo = static_cast<size_t>(std::floor(h));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - lo) * double(sorted[hi] - sorted[lo]);
}

} // namespace

LatencyStats summarizeLatency(std::vector<int64_t> samples) {
    LatencyStats s;
    if (samples.empty()) return s;
    std::sort(samples.begin(), samples.end());
    const size_t n = samples.size();
    s.count = static_cast<int64_t>(n);
    s.minNs = double(samples.front());
    s.maxNs = double(samples.back());
    s.medianNs = quantile(samples, 0.5);
    s.p90Ns = quantile(samples, 0.9);
    double sum = 0;
    for (int64_t v : samples) sum += double(v);
    s.meanNs = sum / n;
    double squares = 0;
    for (int64_t v : samples) squares += (v - s.meanNs) * (v - s.meanNs);
    s.stdevNs = n > 1 ? std::sqrt(squares / (n - 1)) : 0;

    if (n < 6) {
        s.ci95LowNs = s.minNs;
        s.ci95HighNs = s.maxNs;
    } else {
        const double half = 1.96 * std::sqrt(double(n)) / 2;
        // 1-based ranks, clamped to the sample
        const long lo = std::max(1L, static_cast<long>(std::floor(n / 2.0 - half)));
        const long hi = std::min(static_cast<long>(n), static_cast<long>(std::ceil(n / 2.0 + half)) + 1);
        s.ci95LowNs = double(samples[lo - 1]);
        s.ci95HighNs = double(samples[hi - 1]);
    }
    return s;
}

bool mediansDiffer(const LatencyStats& a, const LatencyStats& b) {
    if (a.empty() || b.empty()) return false;
    return a.ci95HighNs < b.ci95LowNs || b.ci95HighNs < a.ci95LowNs;
}

} // namespace embark::store

#include "calibration.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace embark::passes {
namespace {

int binOf(float x, float lo, float width, int bins) {
    if (!(width > 0)) return 0;
    return std::clamp(static_cast<int>((x - lo) / width), 0, bins - 1);
}

// KL(P || Q) of a histogram's first `n` bins (the rest folded into the last one) against its
// quantization into `levels` levels.
double klDivergence(const std::vector<double>& hist, int n, int levels) {
    std::vector<double> p(hist.begin(), hist.begin() + n);
    double outliers = 0;
    for (size_t i = static_cast<size_t>(n); i < hist.size(); ++i) outliers += hist[i];
    p.back() += outliers;
    // Q: each level spreads its bins' total (outliers excluded) evenly over its non-empty bins.
    std::vector<double> q(static_cast<size_t>(n), 0.0);
    const double merged = static_cast<double>(n) / levels;
    for (int j = 0; j < levels; ++j) {
        const int start = static_cast<int>(std::floor(j * merged));
        const int end = j == levels - 1 ? n : static_cast<int>(std::floor((j + 1) * merged));
        double total = 0;
        int nonEmpty = 0;
        for (int b = start; b < end; ++b) {
            total += hist[static_cast<size_t>(b)];
            nonEmpty += hist[static_cast<size_t>(b)] != 0;
        }
        for (int b = start; b < end; ++b)
            if (hist[static_cast<size_t>(b)] != 0) q[static_cast<size_t>(b)] = total / nonEmpty;
    }
    double sp = 0, sq = 0;
    for (int b = 0; b < n; ++b) sp += p[static_cast<size_t>(b)], sq += q[static_cast<size_t>(b)];
    if (!(sp > 0) || !(sq > 0)) return std::numeric_limits<double>::infinity();
    double kl = 0;
    for (int b = 0; b < n; ++b) {
        const double pb = p[static_cast<size_t>(b)] / sp;
        if (pb <= 0) continue;
        const double qb =
            std::max(q[static_cast<size_t>(b)] / sq, 1e-12); // the folded outliers may land in an empty bin
        kl += pb * std::log(pb / qb);
    }
    return kl;
}

} // namespace

bool calibrationMethodFromName(const std::string& name, CalibrationMethod* method) {
    for (CalibrationMethod m : {CalibrationMethod::MinMax, CalibrationMethod::Percentile, CalibrationMethod::Entropy})
        if (name == calibrationMethodName(m)) {
            *method = m;
            return true;
        }
    return false;
}

const char* calibrationMethodName(CalibrationMethod method) {
    switch (method) {
    case CalibrationMethod::MinMax: return "minmax";
    case CalibrationMethod::Percentile: return "percentile";
    case CalibrationMethod::Entropy: return "entropy";
    }
    return "?";
}

void RangeCollector::observe(size_t value, const float* data, int64_t count) {
    Stats& s = m_stats[value];
    for (int64_t i = 0; i < count; ++i) {
        s.lo = std::min(s.lo, data[i]);
        s.hi = std::max(s.hi, data[i]);
    }
}

void RangeCollector::observeHistogram(size_t value, const float* data, int64_t count) {
    Stats& s = m_stats[value];
    if (s.signedHist.empty()) {
        s.signedHist.assign(kBins, 0.0);
        s.absHist.assign(kBins, 0.0);
    }
    const float width = (s.hi - s.lo) / kBins;
    const float absWidth = std::max(-s.lo, s.hi) / kBins;
    for (int64_t i = 0; i < count; ++i) {
        s.signedHist[static_cast<size_t>(binOf(data[i], s.lo, width, kBins))] += 1;
        // Exact zeros (a Relu's output is mostly zeros) are exact at any threshold: they carry
        // nothing about where to clip, and their spike in the first bin would make a tiny
        // threshold look faithful.
        if (data[i] != 0.f) s.absHist[static_cast<size_t>(binOf(std::fabs(data[i]), 0.f, absWidth, kBins))] += 1;
    }
}

std::pair<float, float> RangeCollector::range(size_t value, const CalibrationOptions& options) const {
    const Stats& s = m_stats[value];
    if (options.method == CalibrationMethod::MinMax || s.signedHist.empty() || !(s.hi > s.lo)) return {s.lo, s.hi};
    if (options.method == CalibrationMethod::Percentile) {
        double total = 0;
        for (double c : s.signedHist) total += c;
        const double cut = total * (100.0 - options.percentile) / 100.0 / 2.0; // per side
        const float width = (s.hi - s.lo) / kBins;
        int first = 0, last = kBins - 1;
        for (double below = 0; first < kBins - 1 && below + s.signedHist[static_cast<size_t>(first)] <= cut; ++first)
            below += s.signedHist[static_cast<size_t>(first)];
        for (double above = 0; last > first && above + s.signedHist[static_cast<size_t>(last)] <= cut; --last)
            above += s.signedHist[static_cast<size_t>(last)];
        return {std::min(0.f, s.lo + width * static_cast<float>(first)),
                std::max(0.f, s.lo + width * static_cast<float>(last + 1))};
    }
    // Entropy: the threshold with the smallest divergence, in steps of 8 bins from 128.
    constexpr int kLevels = 128;
    int best = kBins;
    double bestKl = std::numeric_limits<double>::infinity();
    for (int n = kLevels; n <= kBins; n += 8) {
        const double kl = klDivergence(s.absHist, n, kLevels);
        if (kl < bestKl) bestKl = kl, best = n;
    }
    const float t = std::max(-s.lo, s.hi) * static_cast<float>(best) / kBins;
    return {std::max(s.lo, -t), std::min(s.hi, t)};
}

} // namespace embark::passes

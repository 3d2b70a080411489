// How `quantize` turns the activations a calibration set produces into int8 ranges.
//  * minmax: [min, max] over every sample (0 always included).
//  * percentile: the same range with the extreme (100 - p)% of the values cut off, half on
//    each side, read from a 2048-bin histogram over [min, max].
//  * entropy: the clipping threshold T on |x| that keeps the int8 distribution closest to the
//    float one (Kullback-Leibler divergence between a 2048-bin histogram of |x| and its
//    128-level quantization, as TensorRT's calibrator; exact zeros left out, since they are
//    exact at any threshold), the range being [min, max] clipped to [-T, T].
// Histograms need the ranges first, so percentile and entropy run the samples twice.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace embark::passes {

enum class CalibrationMethod { MinMax, Percentile, Entropy };

// "minmax", "percentile", "entropy"; false when `name` is none of them.
bool calibrationMethodFromName(const std::string& name, CalibrationMethod* method);
const char* calibrationMethodName(CalibrationMethod method);

struct CalibrationOptions {
    CalibrationMethod method = CalibrationMethod::MinMax;
    double percentile = 99.999; // kept share of the values, in percent (percentile method)
};

// The ranges of a set of activations, fed value by value and sample by sample.
class RangeCollector {
public:
    static constexpr int kBins = 2048;

    explicit RangeCollector(size_t values) : m_stats(values) {}
    // First pass: every sample's values.
    void observe(size_t value, const float* data, int64_t count);
    // Second pass (percentile, entropy): the same values again, into histograms.
    void observeHistogram(size_t value, const float* data, int64_t count);
    // The range of `value` (lo <= 0 <= hi) by `options.method`.
    std::pair<float, float> range(size_t value, const CalibrationOptions& options) const;

private:
    struct Stats {
        float lo = 0.f, hi = 0.f;
        std::vector<double> signedHist; // over [lo, hi]
        std::vector<double> absHist;    // over [0, max(|lo|, hi)]
    };
    std::vector<Stats> m_stats;
};

} // namespace embark::passes

#include "metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace embark::bench {

Accuracy compare(const ir::Tensor& got, const ir::Tensor& ref, const std::string& name) {
    Accuracy a;
    a.name = name;
    if (got.shape().numel() != ref.shape().numel()) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        a.shapeMatches = false;
        a.maxAbs = a.maxRel = a.rmse = a.cosine = a.snrDb = nan;
        return a;
    }
    a.shapeMatches = got.shape() == ref.shape();
    const int64_t n = ref.numel();
    double sumSq = 0, dot = 0, gotSq = 0, refSq = 0;
    bool nanSeen = false;
    for (int64_t i = 0; i < n; ++i) {
        const double g = got.at(i), r = ref.at(i);
        if (std::isnan(g) != std::isnan(r)) nanSeen = true;
        const double d = (std::isnan(g) && std::isnan(r)) ? 0.0 : g - r;
        a.maxAbs = std::fmax(a.maxAbs, std::fabs(d));
        if (std::isnan(d)) nanSeen = true;
        a.maxRef = std::fmax(a.maxRef, std::fabs(r));
        sumSq += d * d;
        dot += g * r;
        gotSq += g * g;
        refSq += r * r;
    }
    if (nanSeen) a.maxAbs = std::numeric_limits<double>::quiet_NaN();
    a.maxRel = a.maxAbs / std::fmax(a.maxRef, 1e-30);
    a.rmse = n ? std::sqrt(sumSq / static_cast<double>(n)) : 0.0;
    if (gotSq == 0 && refSq == 0)
        a.cosine = 1.0;
    else if (gotSq == 0 || refSq == 0)
        a.cosine = 0.0;
    else
        a.cosine = dot / (std::sqrt(gotSq) * std::sqrt(refSq));
    a.snrDb = sumSq == 0 ? 300.0 : (refSq == 0 ? -300.0 : 10.0 * std::log10(refSq / sumSq));
    return a;
}

bool withinTolerance(const Accuracy& a, double relativeTolerance) {
    if (!a.shapeMatches || std::isnan(a.maxAbs)) return false;
    return a.maxAbs <= relativeTolerance * std::fmax(a.maxRef, 1e-30);
}

std::vector<int64_t> topK(const ir::Tensor& t, int k) {
    std::vector<int64_t> idx(static_cast<size_t>(t.numel()));
    std::iota(idx.begin(), idx.end(), 0);
    k = std::min<int>(k, static_cast<int>(idx.size()));
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                      [&t](int64_t a, int64_t b) { return t.at(a) > t.at(b); });
    idx.resize(static_cast<size_t>(k));
    return idx;
}

} // namespace embark::bench

#include "run_comparison.h"

#include <unordered_map>

namespace embark::store {

namespace {

LatencyStats statsOf(const RunRecord& r) { return r.latency.empty() ? summarizeLatency(r.latencyNs) : r.latency; }

} // namespace

RunComparison compareRecords(const RunRecord& a, const RunRecord& b) {
    RunComparison c;
    c.idA = a.id;
    c.idB = b.id;
    c.a = statsOf(a);
    c.b = statsOf(b);
    if (!c.a.empty() && !c.b.empty()) {
        c.medianDeltaNs = c.b.medianNs - c.a.medianNs;
        c.medianRatio = c.a.medianNs > 0 ? c.b.medianNs / c.a.medianNs : 0;
        c.significant = mediansDiffer(c.a, c.b);
    }

    // A node name can repeat only by mistake; the first occurrence wins on both sides.
    std::unordered_map<std::string, const LayerTiming*> inB;
    for (const LayerTiming& t : b.layers) inB.emplace(t.node, &t);
    std::unordered_map<std::string, bool> seen;
    for (const LayerTiming& t : a.layers) {
        if (!seen.emplace(t.node, true).second) continue;
        LayerDelta d{t.node, t.lib, {}, t.ns, {}, 0, 0};
        if (auto it = inB.find(t.node); it != inB.end()) {
            d.libB = it->second->lib;
            d.nsB = it->second->ns;
            d.deltaNs = *d.nsB - t.ns;
            d.ratio = t.ns > 0 ? *d.nsB / t.ns : 0;
        }
        c.layers.push_back(std::move(d));
    }
    for (const LayerTiming& t : b.layers) {
        if (!seen.emplace(t.node, true).second) continue;
        c.layers.push_back(LayerDelta{t.node, {}, t.lib, {}, t.ns, 0, 0});
    }
    return c;
}

} // namespace embark::store

// Coordinate assignment: sweeps that pull every node towards the median of its neighbours in
// the adjacent layer(s), then place each layer exactly by weighted least squares under the
// ordering and spacing constraints (a pool-adjacent-violators pass, O(n) per layer). Edges
// between dummies weigh most (Gansner et al.'s 1/2/8 factors), so long edges run straight
// while real nodes stay close to what they connect. The longest chain of real nodes joined
// layer to layer (a ResNet's trunk, through its adds) is held on one vertical line: otherwise
// every skip edge, held straight by its heavy dummies, pushes the trunk aside by one gap and
// the trunk drifts diagonally, one step per block.
#include "layered_graph.h"

#include <algorithm>
#include <cmath>

namespace embark::graphdraw::detail {

namespace {

double edgeWeight(const LayeredGraph& g, int a, int b) {
    const int dummies = int(g.isDummy(a)) + int(g.isDummy(b));
    return dummies == 2 ? 8.0 : dummies == 1 ? 2.0 : 1.0;
}

struct Block {
    double weight = 0;
    double weightedSum = 0;
    int count = 0;
    double value() const { return weightedSum / weight; }
};

// Minimises sum w_i (x_i - t_i)^2 subject to x_{i+1} - x_i >= sep_i. Substituting
// y_i = x_i - offset_i turns it into isotonic regression, solved by pooling violators.
void placeLayer(const std::vector<double>& target, const std::vector<double>& weight, const std::vector<double>& sep,
                std::vector<double>& out, std::vector<Block>& blocks) {
    const size_t n = target.size();
    std::vector<double> offset(n, 0);
    for (size_t i = 1; i < n; ++i) offset[i] = offset[i - 1] + sep[i - 1];
    blocks.clear();
    for (size_t i = 0; i < n; ++i) {
        blocks.push_back({weight[i], weight[i] * (target[i] - offset[i]), 1});
        while (blocks.size() > 1 && blocks[blocks.size() - 2].value() > blocks.back().value()) {
            Block last = blocks.back();
            blocks.pop_back();
            blocks.back().weight += last.weight;
            blocks.back().weightedSum += last.weightedSum;
            blocks.back().count += last.count;
        }
    }
    out.resize(n);
    size_t i = 0;
    for (const Block& b : blocks)
        for (int k = 0; k < b.count; ++k, ++i) out[i] = b.value() + offset[i];
}

double median(std::vector<double>& xs) {
    std::sort(xs.begin(), xs.end());
    const size_t m = xs.size() / 2;
    return xs.size() % 2 ? xs[m] : 0.5 * (xs[m - 1] + xs[m]);
}

// The longest path of real nodes whose every edge joins adjacent layers (dummies excluded),
// first in node order among equals; empty when shorter than three nodes.
std::vector<int> mainChain(const LayeredGraph& g) {
    std::vector<int> length(g.nodeCount(), 0), from(g.nodeCount(), -1);
    int best = -1;
    for (const auto& order : g.layers)
        for (int v : order) {
            if (g.isDummy(v)) continue;
            length[v] = 1;
            for (int u : g.up[v])
                if (!g.isDummy(u) && length[u] + 1 > length[v]) {
                    length[v] = length[u] + 1;
                    from[v] = u;
                }
            if (best < 0 || length[v] > length[best] || (length[v] == length[best] && v < best)) best = v;
        }
    std::vector<int> chain;
    if (best < 0 || length[best] < 3) return chain;
    for (int v = best; v >= 0; v = from[v]) chain.push_back(v);
    return chain;
}

} // namespace

std::vector<double> assignX(const LayeredGraph& g, double nodeGap, double dummyGap, int passes) {
    std::vector<double> x(g.nodeCount(), 0);
    auto separation = [&](int a, int b) {
        const double gap = (g.isDummy(a) || g.isDummy(b)) ? dummyGap : nodeGap;
        return 0.5 * (g.width[a] + g.width[b]) + gap;
    };

    // Start compact: each layer packed and centred on 0.
    for (const auto& order : g.layers) {
        double cursor = 0;
        for (size_t i = 0; i < order.size(); ++i) {
            if (i > 0) cursor += separation(order[i - 1], order[i]);
            x[order[i]] = cursor;
        }
        for (int v : order) x[v] -= cursor / 2;
    }

    std::vector<char> pinned(g.nodeCount(), 0);
    for (int v : mainChain(g)) pinned[v] = 1;

    std::vector<double> target, weight, sep, placed, xs;
    std::vector<Block> blocks;
    const int layerCount = static_cast<int>(g.layers.size());
    for (int pass = 0; pass < passes; ++pass) {
        // Downward and upward sweeps first, then sweeps that balance both sides.
        const bool both = pass >= passes / 2;
        const bool downward = pass % 2 == 0;
        for (int step = 0; step < layerCount; ++step) {
            const int l = downward ? step : layerCount - 1 - step;
            const auto& order = g.layers[l];
            const size_t n = order.size();
            target.assign(n, 0);
            weight.assign(n, 0);
            sep.assign(n > 0 ? n - 1 : 0, 0);
            for (size_t i = 0; i < n; ++i) {
                const int v = order[i];
                xs.clear();
                double w = 0;
                auto gather = [&](const std::vector<int>& nbrs) {
                    for (int u : nbrs) {
                        xs.push_back(x[u]);
                        w = std::max(w, edgeWeight(g, u, v));
                    }
                };
                if (both || downward) gather(g.up[v]);
                if (both || !downward) gather(g.down[v]);
                if (pinned[v]) {
                    target[i] = 0; // on the trunk's line, whatever pulls it aside
                    weight[i] = 1000;
                } else if (xs.empty()) {
                    target[i] = x[v];
                    weight[i] = 0.05; // free node: keep its place, yield to everything else
                } else {
                    target[i] = median(xs);
                    weight[i] = w;
                }
                if (i + 1 < n) sep[i] = separation(v, order[i + 1]);
            }
            placeLayer(target, weight, sep, placed, blocks);
            for (size_t i = 0; i < n; ++i) x[order[i]] = placed[i];
        }
    }
    return x;
}

} // namespace embark::graphdraw::detail

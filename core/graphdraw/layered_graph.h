// The proper layered graph the layout steps share (internal to core/graphdraw): real nodes plus
// dummy nodes splitting long edges, so that every edge joins two adjacent layers.
#pragma once

#include <vector>

namespace embark::graphdraw::detail {

struct LayeredGraph {
    int realCount = 0; // nodes [0, realCount) are the caller's; the rest are dummies
    std::vector<double> width;
    std::vector<double> height;
    std::vector<int> layer;
    std::vector<std::vector<int>> up;     // neighbours in layer - 1
    std::vector<std::vector<int>> down;   // neighbours in layer + 1
    std::vector<std::vector<int>> layers; // node ids per layer, left to right
    std::vector<int> pos;                 // index of each node within its layer

    int nodeCount() const { return static_cast<int>(layer.size()); }
    bool isDummy(int v) const { return v >= realCount; }

    int addNode(double w, double h, int l) {
        width.push_back(w);
        height.push_back(h);
        layer.push_back(l);
        up.emplace_back();
        down.emplace_back();
        return nodeCount() - 1;
    }
    void addEdge(int upper, int lower) {
        down[upper].push_back(lower);
        up[lower].push_back(upper);
    }
    void updatePositions() {
        pos.assign(layer.size(), 0);
        for (const auto& order : layers)
            for (int i = 0; i < static_cast<int>(order.size()); ++i) pos[order[i]] = i;
    }
};

// ordering.cpp: crossing reduction (barycenter sweeps + transpose), keeping the best order.
long long countCrossings(const LayeredGraph& g);
void initialOrder(LayeredGraph& g);
void reduceCrossings(LayeredGraph& g, int passes, bool transpose);

// placement.cpp: x coordinate of every node (centre), layers' orders respected.
std::vector<double> assignX(const LayeredGraph& g, double nodeGap, double dummyGap, int passes);

} // namespace embark::graphdraw::detail

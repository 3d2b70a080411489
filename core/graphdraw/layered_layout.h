// A layered (Sugiyama-style) layout of a directed graph, top to bottom: layering, dummy nodes
// for long edges, crossing reduction and coordinate assignment. Pure computation (no QtGui).
#pragma once

#include "ir/error.h"

#include <vector>

namespace embark::graphdraw {

struct Point {
    double x = 0;
    double y = 0;
};

// The abstract input: nodes are indices into `nodes`; edges join two indices.
struct LayoutGraph {
    struct Node {
        double width = 100;
        double height = 30;
    };
    struct Edge {
        int from = 0;
        int to = 0;
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;

    int addNode(double width, double height) {
        nodes.push_back({width, height});
        return static_cast<int>(nodes.size()) - 1;
    }
    void addEdge(int from, int to) { edges.push_back({from, to}); }
};

struct LayoutOptions {
    double layerGap = 40;    // vertical space between the bottom of a layer and the next top
    double nodeGap = 20;     // horizontal space between neighbours in a layer
    double dummyGap = 8;     // horizontal space next to long-edge bends (keeps bundles tight)
    int orderingPasses = 24; // barycenter sweeps; the best order seen is kept
    bool transpose = true;   // adjacent-swap refinement after each sweep
    int placementPasses = 8; // coordinate-assignment sweeps
};

struct NodePlacement {
    double x = 0; // centre
    double y = 0; // centre
    int layer = 0;
    int order = 0; // position within the layer (dummies included)
};

struct EdgeRoute {
    // From the source's bottom to the target's top, through the long edge's bends; empty
    // for a self-loop (the view draws those itself).
    std::vector<Point> points;
    bool reversed = false; // the edge closed a cycle and was laid out upwards
};

struct LayoutResult {
    std::vector<NodePlacement> nodes; // same indices as LayoutGraph::nodes
    std::vector<EdgeRoute> edges;     // same indices as LayoutGraph::edges
    double width = 0;
    double height = 0;
    int layerCount = 0;
    int dummyCount = 0;
    long long crossings = 0;    // between adjacent layers, long edges counted through bends
    double totalEdgeLength = 0; // sum of the routes' polyline lengths
};

// Deterministic: the same graph gives the same layout. Fails only on an edge naming a node
// that does not exist.
Expected<LayoutResult> computeLayout(const LayoutGraph& graph, const LayoutOptions& options = {});

} // namespace embark::graphdraw

// The layout driver: break cycles, assign layers, split long edges with dummies, then hand
// the proper layered graph to ordering.cpp and placement.cpp and turn the result into node
// centres and edge routes.
#include "layered_layout.h"

#include "layered_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace embark::graphdraw {

namespace {

// Which edges to reverse so the graph becomes acyclic: the back edges of an iterative DFS
// in node and edge order (deterministic). Self-loops are left out of the layering entirely.
std::vector<char> findBackEdges(const LayoutGraph& graph, const std::vector<std::vector<int>>& outEdges) {
    const int n = static_cast<int>(graph.nodes.size());
    std::vector<char> reversed(graph.edges.size(), 0);
    std::vector<char> state(n, 0); // 0 new, 1 on stack, 2 done
    std::vector<std::pair<int, size_t>> stack;
    for (int s = 0; s < n; ++s) {
        if (state[s]) continue;
        state[s] = 1;
        stack.push_back({s, 0});
        while (!stack.empty()) {
            const int v = stack.back().first;
            size_t& next = stack.back().second;
            if (next == outEdges[v].size()) {
                state[v] = 2;
                stack.pop_back();
                continue;
            }
            const int e = outEdges[v][next++];
            const int w = graph.edges[e].to;
            if (state[w] == 1) {
                reversed[e] = 1;
            } else if (state[w] == 0) {
                state[w] = 1;
                stack.push_back({w, 0});
            }
        }
    }
    return reversed;
}

// Longest-path layering, then nodes with more outgoing than incoming edges (graph inputs,
// weight-like branches) move down next to their consumers, which shortens edges.
std::vector<int> assignLayers(int n, const std::vector<std::pair<int, int>>& dag) {
    std::vector<std::vector<int>> succ(n), pred(n);
    for (auto [a, b] : dag) {
        succ[a].push_back(b);
        pred[b].push_back(a);
    }
    std::vector<int> indegree(n), topo;
    topo.reserve(n);
    for (int v = 0; v < n; ++v) {
        indegree[v] = static_cast<int>(pred[v].size());
        if (indegree[v] == 0) topo.push_back(v);
    }
    for (size_t i = 0; i < topo.size(); ++i)
        for (int w : succ[topo[i]])
            if (--indegree[w] == 0) topo.push_back(w);

    std::vector<int> layer(n, 0);
    for (int v : topo)
        for (int w : succ[v]) layer[w] = std::max(layer[w], layer[v] + 1);

    for (int round = 0; round < 2; ++round) {
        for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
            const int v = *it;
            if (succ[v].empty() || succ[v].size() <= pred[v].size()) continue;
            int lowest = std::numeric_limits<int>::max();
            for (int w : succ[v]) lowest = std::min(lowest, layer[w]);
            layer[v] = std::max(layer[v], lowest - 1);
        }
    }

    // Renumber so no layer is empty (moves above can leave gaps).
    std::vector<int> used(layer);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    for (int& l : layer) l = static_cast<int>(std::lower_bound(used.begin(), used.end(), l) - used.begin());
    return layer;
}

double polylineLength(const std::vector<Point>& pts) {
    double len = 0;
    for (size_t i = 1; i < pts.size(); ++i) len += std::hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
    return len;
}

} // namespace

Expected<LayoutResult> computeLayout(const LayoutGraph& graph, const LayoutOptions& options) {
    const int n = static_cast<int>(graph.nodes.size());
    std::vector<std::vector<int>> outEdges(n);
    for (size_t e = 0; e < graph.edges.size(); ++e) {
        const auto& edge = graph.edges[e];
        if (edge.from < 0 || edge.from >= n || edge.to < 0 || edge.to >= n)
            return makeError(ErrorKind::InvalidInput, "layout: edge " + std::to_string(e) + " joins node " +
                                                          std::to_string(edge.from) + " to node " +
                                                          std::to_string(edge.to) + " but the graph has " +
                                                          std::to_string(n) + " nodes");
        if (edge.from != edge.to) outEdges[edge.from].push_back(static_cast<int>(e));
    }
    const std::vector<char> reversed = findBackEdges(graph, outEdges);

    // Edges oriented downwards (self-loops skipped).
    std::vector<std::pair<int, int>> dag;
    std::vector<int> dagEdgeOf(graph.edges.size(), -1);
    for (size_t e = 0; e < graph.edges.size(); ++e) {
        const auto& edge = graph.edges[e];
        if (edge.from == edge.to) continue;
        dagEdgeOf[e] = static_cast<int>(dag.size());
        dag.push_back(reversed[e] ? std::pair{edge.to, edge.from} : std::pair{edge.from, edge.to});
    }
    const std::vector<int> layerOf = assignLayers(n, dag);

    detail::LayeredGraph g;
    g.realCount = n;
    int layerCount = 0;
    for (int v = 0; v < n; ++v) {
        g.addNode(graph.nodes[v].width, graph.nodes[v].height, layerOf[v]);
        layerCount = std::max(layerCount, layerOf[v] + 1);
    }
    // Each DAG edge becomes a chain upper -> dummies... -> lower; remember the chain.
    std::vector<std::vector<int>> chains(dag.size());
    for (size_t i = 0; i < dag.size(); ++i) {
        auto [a, b] = dag[i];
        chains[i].push_back(a);
        int prev = a;
        for (int l = layerOf[a] + 1; l < layerOf[b]; ++l) {
            const int d = g.addNode(0, 0, l);
            g.addEdge(prev, d);
            chains[i].push_back(d);
            prev = d;
        }
        g.addEdge(prev, b);
        chains[i].push_back(b);
    }
    g.layers.assign(layerCount, {});

    detail::initialOrder(g);
    detail::reduceCrossings(g, options.orderingPasses, options.transpose);
    const std::vector<double> x = detail::assignX(g, options.nodeGap, options.dummyGap, options.placementPasses);

    // Vertical placement: each layer as tall as its tallest node.
    std::vector<double> layerTop(layerCount, 0), layerHeight(layerCount, 0);
    for (int v = 0; v < n; ++v) layerHeight[layerOf[v]] = std::max(layerHeight[layerOf[v]], graph.nodes[v].height);
    for (int l = 1; l < layerCount; ++l) layerTop[l] = layerTop[l - 1] + layerHeight[l - 1] + options.layerGap;

    double minX = std::numeric_limits<double>::max(), maxX = std::numeric_limits<double>::lowest();
    for (int v = 0; v < g.nodeCount(); ++v) {
        minX = std::min(minX, x[v] - g.width[v] / 2);
        maxX = std::max(maxX, x[v] + g.width[v] / 2);
    }
    if (g.nodeCount() == 0) minX = maxX = 0;
    auto centreY = [&](int v) { return layerTop[g.layer[v]] + layerHeight[g.layer[v]] / 2; };

    LayoutResult result;
    result.nodes.resize(n);
    for (int v = 0; v < n; ++v) result.nodes[v] = {x[v] - minX, centreY(v), g.layer[v], g.pos[v]};
    result.edges.resize(graph.edges.size());
    for (size_t e = 0; e < graph.edges.size(); ++e) {
        EdgeRoute& route = result.edges[e];
        route.reversed = reversed[e];
        if (dagEdgeOf[e] < 0) continue;
        const auto& chain = chains[dagEdgeOf[e]];
        for (size_t i = 0; i < chain.size(); ++i) {
            const int v = chain[i];
            double y = centreY(v);
            if (i == 0)
                y += g.height[v] / 2;
            else if (i + 1 == chain.size())
                y -= g.height[v] / 2;
            route.points.push_back({x[v] - minX, y});
        }
        if (route.reversed) std::reverse(route.points.begin(), route.points.end());
        result.totalEdgeLength += polylineLength(route.points);
    }
    result.width = maxX - minX;
    result.height = layerCount ? layerTop.back() + layerHeight.back() : 0;
    result.layerCount = layerCount;
    result.dummyCount = g.nodeCount() - n;
    result.crossings = detail::countCrossings(g);
    return result;
}

} // namespace embark::graphdraw

#include "synthetic_graphs.h"

#include <sstream>

namespace embark::graphdraw {

namespace {

struct Builder {
    LayoutGraph g;
    int node() { return g.addNode(120, 36); }
    // A chain of `length` nodes hanging off `from`; returns its last node.
    int chain(int from, int length) {
        int last = from;
        for (int i = 0; i < length; ++i) {
            const int v = node();
            g.addEdge(last, v);
            last = v;
        }
        return last;
    }
};

} // namespace

LayoutGraph denseNetLike(int chainPerLayer) {
    Builder b;
    const int input = b.g.addNode(80, 24);
    int x = b.chain(input, 4); // conv, bn, relu, maxpool
    const int blocks[] = {6, 12, 24, 16};
    for (int bi = 0; bi < 4; ++bi) {
        std::vector<int> features{x};
        for (int layer = 0; layer < blocks[bi]; ++layer) {
            int in = features.front();
            if (features.size() > 1) {
                in = b.node(); // concat of every feature so far
                for (int f : features) b.g.addEdge(f, in);
            }
            features.push_back(b.chain(in, chainPerLayer));
        }
        const int concat = b.node();
        for (int f : features) b.g.addEdge(f, concat);
        x = concat;
        if (bi < 3) x = b.chain(x, 4); // transition: bn, relu, conv, avgpool
    }
    x = b.chain(x, 5); // bn, relu, global pool, flatten, gemm
    const int output = b.g.addNode(80, 24);
    b.g.addEdge(x, output);
    return b.g;
}

LayoutGraph resNet50Like() {
    Builder b;
    const int input = b.g.addNode(80, 24);
    int x = b.chain(input, 4);
    const int stages[] = {3, 4, 6, 3};
    for (int stage : stages) {
        for (int block = 0; block < stage; ++block) {
            const int main = b.chain(x, 8);                      // conv bn relu conv bn relu conv bn
            const int shortcut = block == 0 ? b.chain(x, 2) : x; // projection conv, bn
            const int add = b.node();
            b.g.addEdge(main, add);
            b.g.addEdge(shortcut, add);
            x = b.chain(add, 1); // relu
        }
    }
    x = b.chain(x, 3);
    const int output = b.g.addNode(80, 24);
    b.g.addEdge(x, output);
    return b.g;
}

LayoutGraph chainWithSkips(int length, unsigned seed) {
    LayoutGraph g;
    for (int i = 0; i < length; ++i) g.addNode(120, 36);
    unsigned state = seed;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    for (int i = 0; i + 1 < length; ++i) {
        g.addEdge(i, i + 1);
        if (next() % 3 == 0) {
            const int to = i + 2 + static_cast<int>((next() >> 8) % 12);
            if (to < length) g.addEdge(i, to);
        }
    }
    return g;
}

std::string toDot(const LayoutGraph& graph) {
    std::ostringstream out;
    out << "digraph G {\n  node [shape=box, fixedsize=true];\n";
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        out << "  n" << i << " [width=" << graph.nodes[i].width / 72.0 << ", height=" << graph.nodes[i].height / 72.0
            << "];\n";
    for (const auto& e : graph.edges) out << "  n" << e.from << " -> n" << e.to << ";\n";
    out << "}\n";
    return out.str();
}

} // namespace embark::graphdraw

// Helpers shared by the pass tests: op counts and the before/after differential check
// through the reference interpreter.
#pragma once

#include "support/graph_builder.h"
#include "ir/graph.h"
#include "reference/interpreter.h"

#include <QString>
#include <map>

namespace embark::test {

inline int countOps(const ir::Graph& g, ir::OpKind op) {
    int n = 0;
    for (const ir::Node* node : g.nodes()) n += node->op == op;
    return n;
}

// Runs both graphs on the same random inputs; returns an empty string when every output of
// `after` is within `tol` of `before`'s, relative to the output's magnitude.
inline QString compareOutputs(const ir::Graph& before, const ir::Graph& after, double tol = 1e-5) {
    const auto inputs = randomInputs(before);
    auto a = reference::run(before, inputs);
    if (!a) return QString::fromStdString("before: " + a.error().message);
    auto b = reference::run(after, inputs);
    if (!b) return QString::fromStdString("after: " + b.error().message);
    if (a->outputs.size() != b->outputs.size()) return "output count differs";
    for (size_t i = 0; i < a->outputs.size(); ++i) {
        if (a->outputs[i].shape() != b->outputs[i].shape()) return "output shape differs";
        const double d = relativeMaxDiff(b->outputs[i], a->outputs[i]);
        if (d > tol) return QString("output %1 differs by %2 (relative)").arg(i).arg(d);
    }
    return {};
}

} // namespace embark::test

// Named recipes of passes and the PassManager that runs them: each stage repeats its passes
// to a fixed point and leaves a snapshot of the graph with its log (the studio's
// before/after fusion views, `embark-cli plan --stages`).
#pragma once

#include "pass.h"

#include <string>
#include <vector>

namespace embark::passes {

struct Stage {
    std::string name;                // "cleanup", "simplify", "fuse"
    std::vector<std::string> passes; // pass names (see passNames())
};

struct Recipe {
    std::string name;
    std::string description;
    std::vector<Stage> stages;
};

// "default" (cleanup, simplify, fuse), "cleanup" (identity removal and constant folding
// only) and "none".
const std::vector<Recipe>& recipes();
const Recipe* findRecipe(const std::string& name);

struct StageSnapshot {
    std::string name;             // "imported" for the input graph, then each stage's name
    ir::Graph graph;              // the graph after this stage (cheap: tensors share storage)
    std::vector<std::string> log; // one line per rewrite made in this stage
    int rewrites = 0;
};

struct PassRun {
    ir::Graph graph;                   // the final graph
    std::vector<StageSnapshot> stages; // "imported" first
    int rewrites = 0;
};

struct PassOptions {
    const targets::KernelLibrary* library = nullptr; // fusion patterns (no fusions if null)
    bool keepSnapshots = true;
    bool fuseQuantized = true; // false: the recipe runs without fuse_qdq (--dtype-policy float32)
    int maxSweeps = 64;        // a stage that still rewrites after this many sweeps is a bug: error
};

class PassManager {
public:
    // Runs recipe `name` on a clone of `graph`. Errors: unknown recipe (Usage), a pass that
    // cannot handle a node (its message names pass and node), a stage that never settles.
    static Expected<PassRun> run(const ir::Graph& graph, const std::string& recipe, const PassOptions& options = {});
    static Expected<PassRun> run(const ir::Graph& graph, const Recipe& recipe, const PassOptions& options = {});
};

// Every original node name (from the input graph) is in some node's provenance or in the
// folded list (graph_rewrite.h); returns the names that are missing.
std::vector<std::string> unaccountedNodes(const ir::Graph& original, const ir::Graph& rewritten);

} // namespace embark::passes

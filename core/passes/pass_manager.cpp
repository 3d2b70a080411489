#include "pass_manager.h"

#include "graph_rewrite.h"

#include <set>

namespace embark::passes {

namespace {
// Control flow (If, Loop, Scan): passes run on the model's graph and leave the bodies
// (ir::Node::subgraphs) untouched on purpose, so a body stays as imported. Nothing is lost by
// that: the outer-scope values a body reads are implicit inputs of its node, so dead-code
// elimination keeps them, a rewrite that replaces one rewires the node (bodies bind them by
// position), fusions see the extra use and leave them whole, and constant folding evaluates
// the node as a whole only when all of them are constant.
struct PassFactory {
    const char* name;
    std::unique_ptr<Pass> (*make)();
};
constexpr PassFactory kPasses[] = {
    {"remove_identity", makeRemoveIdentity},
    {"constant_folding", makeConstantFolding},
    {"remove_flatten", makeRemoveFlatten},
    {"matmul_add_to_gemm", makeMatMulAddToGemm},
    {"fuse_batchnorm", makeFuseBatchNorm},
    {"fuse_pad", makeFusePad},
    {"fuse_activation", makeFuseActivation},
    {"fuse_swish", makeFuseSwish},
    {"fuse_gelu", makeFuseGelu},
    {"fuse_qdq", makeFuseQdq},
    {"lower_einsum", makeLowerEinsum},
};
} // namespace

std::unique_ptr<Pass> makePass(const std::string& name) {
    for (const PassFactory& f : kPasses)
        if (name == f.name) return f.make();
    return nullptr;
}

std::vector<std::string> passNames() {
    std::vector<std::string> out;
    for (const PassFactory& f : kPasses) out.push_back(f.name);
    return out;
}

const std::vector<Recipe>& recipes() {
    static const std::vector<Recipe> list{
        // fuse_qdq runs before constant folding, which would turn the int8 weights behind
        // their DequantizeLinear into float32.
        {"default",
         "clean up, simplify, then fuse for the kernel library",
         {{"cleanup", {"remove_identity", "fuse_qdq", "constant_folding"}},
          {"simplify", {"remove_flatten", "lower_einsum", "matmul_add_to_gemm"}},
          {"fuse", {"fuse_batchnorm", "fuse_pad", "fuse_swish", "fuse_gelu", "fuse_activation"}}}},
        {"cleanup",
         "remove Identity/Dropout and fold constants only",
         {{"cleanup", {"remove_identity", "constant_folding"}}}},
        {"none", "the imported graph as is", {}},
    };
    return list;
}

const Recipe* findRecipe(const std::string& name) {
    for (const Recipe& r : recipes())
        if (r.name == name) return &r;
    return nullptr;
}

Expected<PassRun> PassManager::run(const ir::Graph& graph, const std::string& recipe, const PassOptions& options) {
    const Recipe* r = findRecipe(recipe);
    if (!r) {
        std::string known;
        for (const Recipe& k : recipes()) known += (known.empty() ? "" : ", ") + k.name;
        return makeError(ErrorKind::Usage, "unknown recipe '" + recipe + "' (known: " + known + ")");
    }
    return run(graph, *r, options);
}

Expected<PassRun> PassManager::run(const ir::Graph& graph, const Recipe& recipe, const PassOptions& options) {
    PassRun result;
    result.graph = graph.clone();
    if (options.keepSnapshots) result.stages.push_back({"imported", graph.clone(), {}, 0});
    for (const Stage& stage : recipe.stages) {
        std::vector<std::unique_ptr<Pass>> passes;
        for (const std::string& name : stage.passes) {
            if (name == "fuse_qdq" && !options.fuseQuantized) continue;
            auto p = makePass(name);
            if (!p)
                return makeError(ErrorKind::Usage, "recipe '" + recipe.name + "' names unknown pass '" + name + "'");
            passes.push_back(std::move(p));
        }
        PassContext ctx;
        ctx.library = options.library;
        int stageRewrites = 0;
        for (int sweep = 0;; ++sweep) {
            if (sweep == options.maxSweeps)
                return makeError(ErrorKind::Unsupported,
                                 "stage '" + stage.name + "' of recipe '" + recipe.name + "' did not settle after " +
                                     std::to_string(sweep) +
                                     " sweeps (last: " + (ctx.log.empty() ? "" : ctx.log.back()) + ")");
            int sweepRewrites = 0;
            for (auto& p : passes) {
                auto n = p->run(result.graph, ctx);
                if (!n) return n.error();
                sweepRewrites += *n;
            }
            stageRewrites += sweepRewrites;
            if (sweepRewrites == 0) break;
        }
        result.graph.removeDeadValues();
        EMBARK_TRY(result.graph.topoSort());
        result.rewrites += stageRewrites;
        if (options.keepSnapshots)
            result.stages.push_back({stage.name, result.graph.clone(), std::move(ctx.log), stageRewrites});
    }
    return result;
}

std::vector<std::string> unaccountedNodes(const ir::Graph& original, const ir::Graph& rewritten) {
    std::set<std::string> seen;
    for (const ir::Node* n : rewritten.nodes()) seen.insert(n->provenance.begin(), n->provenance.end());
    for (const std::string& name : foldedNodes(rewritten)) seen.insert(name);
    std::vector<std::string> missing;
    for (const ir::Node* n : original.nodes())
        for (const std::string& name : n->provenance)
            if (!seen.count(name)) missing.push_back(name);
    return missing;
}

} // namespace embark::passes

// The deployment plan of a model for a target: the one function that runs the recipe's passes,
// assigns kernel libraries and layouts, finds the fused blocks and plans the memory. The
// export writes exactly this plan (export.json); `embark-cli plan`, the studio and the
// benchmarks read the same plan and never redo a step of it.
#pragma once

#include "adaptation.h"
#include "concat_in_place.h"
#include "dynamic_length.h"
#include "export_options.h"
#include "fused_blocks.h"
#include "measured_choice.h"
#include "memory_planner.h"
#include "passes/pass_manager.h"

#include <QJsonObject>

#include <map>
#include <memory>
#include <string>

namespace embark::exporter {

struct PlanOptions {
    std::string library = "portable";
    std::string arch; // empty: the host's
    std::string recipe = "default";
    std::map<std::string, std::string> opOverrides;    // ONNX op type -> library
    std::map<std::string, std::string> nodeOverrides;  // node name -> library
    bool havePrebuiltXnnpack = false;                  // XNNPACK is linkable for a prebuilt-only arch (riscv64)
    bool keepSnapshots = false;                        // every stage's graph (the studio, `plan --stages`)
    bool ioInArena = true;                             // what exports do; `plan --io-outside` shows the other
    ConcatInPlace concatInPlace = ConcatInPlace::Auto; // --concat-in-place
    DTypePolicy dtypePolicy = DTypePolicy::Int8;       // --dtype-policy
    std::shared_ptr<const MeasuredChoice> measured;    // --lib auto: each measured node's choice
};

struct DeploymentPlan {
    passes::PassRun passes;              // stages with their rewrites; passes.graph is the fused graph
    Adaptation adaptation;               // library per node with its reason, layouts, conversions
    std::vector<FusedBlock> fusedBlocks; // point into adaptation.graph
    MemoryPlan memory;
    // Values whose length depends on the data (NonMaxSuppression, NonZero and what reads them),
    // planned at their upper bound; their actual length is counted at run time.
    DynamicLengths dynamicLengths;
    std::shared_ptr<const MeasuredChoice> measured; // --lib auto: the measurements behind the choice

    // True when fuse_qdq made int8 operators (QConv, QGemm, QAdd, QAveragePool, QLookup).
    bool hasFusedQuantizedOps() const;
    // The graph whose host reference the export computes, so what pass/fail is judged
    // against: the model itself, except for quantized models with fused int8 operators. Those
    // compute the fused graph's integer arithmetic (core/reference/quantized_fused.cpp)
    // exactly, which is within about a quantum per layer of the QDQ model's float arithmetic;
    // that difference is the quantization error, reported beside the check, never failing it.
    const ir::Graph& referenceGraph(const ir::Graph& model) const {
        return hasFusedQuantizedOps() ? passes.graph : model;
    }

    DeploymentPlan() = default;
    DeploymentPlan(const DeploymentPlan&) = delete; // fusedBlocks point into adaptation.graph
    DeploymentPlan& operator=(const DeploymentPlan&) = delete;
};

// Errors as the steps give them: unknown or unavailable library (Usage / Unsupported), a pass
// or an adaptation failure, a memory plan that does not check.
Expected<std::unique_ptr<DeploymentPlan>> buildDeploymentPlan(const ir::Graph& model, const PlanOptions& options);

// The memory plan as export.json and `plan --json` write it (one writer for both).
QJsonObject memoryPlanJson(const MemoryPlan& plan);
// The fused blocks as export.json and `plan --json` write them.
QJsonArray fusedBlocksJson(const std::vector<FusedBlock>& blocks);

} // namespace embark::exporter

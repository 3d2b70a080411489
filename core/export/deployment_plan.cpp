#include "deployment_plan.h"

#include "concat_in_place.h"
#include "export_options.h"
#include "targets/kernel_library.h"
#include "kernel_libraries.h"
#include "ir/json_lists.h"

#include <QJsonArray>

namespace embark::exporter {

bool DeploymentPlan::hasFusedQuantizedOps() const {
    for (const ir::Node* n : passes.graph.nodes())
        if (ir::isFusedQuantized(n->op)) return true;
    return false;
}

Expected<std::unique_ptr<DeploymentPlan>> buildDeploymentPlan(const ir::Graph& model, const PlanOptions& o) {
    const std::string arch = o.arch.empty() ? hostArch() : o.arch;
    if (o.library == "auto")
        return makeError(ErrorKind::Usage,
                         "--lib auto: the libraries are chosen by measuring the model's nodes on "
                         "the board first (jobs::chooseLibrariesByMeasurement); no plan without them");
    auto lib = exporter::resolveKernelLibrary(o.library, arch, o.havePrebuiltXnnpack);
    if (!lib) return lib.error();
    auto plan = std::make_unique<DeploymentPlan>();

    passes::PassOptions po;
    po.library = *lib;
    po.keepSnapshots = o.keepSnapshots;
    po.fuseQuantized = o.dtypePolicy == DTypePolicy::Int8;
    auto fused = passes::PassManager::run(model, o.recipe, po);
    if (!fused) return fused.error();
    plan->passes = std::move(*fused);
    auto dynamicLengths = planDynamicLengths(plan->passes.graph);
    if (!dynamicLengths) return dynamicLengths.error();
    plan->dynamicLengths = std::move(*dynamicLengths);

    AdaptationOptions ao;
    ao.library = o.library;
    ao.arch = arch;
    ao.havePrebuiltXnnpack = o.havePrebuiltXnnpack;
    ao.opOverrides = o.opOverrides;
    ao.nodeOverrides = o.nodeOverrides;
    if (o.measured)
        for (const auto& [node, choice] : o.measured->nodes) ao.measured[node] = choice.chosen;
    plan->measured = o.measured;
    auto adapted = adapt(plan->passes.graph, ao);
    if (!adapted) return adapted.error();
    plan->adaptation = std::move(*adapted);

    // After the move: the blocks point at nodes and values of the plan's own graph.
    plan->fusedBlocks = findFusedBlocks(plan->adaptation);
    MemoryPlanOptions mo;
    mo.ioInArena = o.ioInArena;
    // A block reads its input while it writes its output; not where that input is a graph input
    // read from the caller's buffer (the NCHW image into the stem convolution): its arena slot is
    // then never read, and keeping it apart would cost a third buffer beside the layout conversion.
    for (const FusedBlock& b : plan->fusedBlocks)
        if (!graphInputReadInPlace(plan->adaptation, b.input)) mo.apart.push_back({b.input->name, b.output()->name});
    if (o.concatInPlace != ConcatInPlace::Off) mo.concat = concatInPlaceRules(plan->adaptation, plan->fusedBlocks);
    if (o.concatInPlace == ConcatInPlace::All) mo.concat.stridedMaxBytes = SIZE_MAX;
    auto memory = planMemory(plan->adaptation.graph, mo);
    if (!memory) return memory.error();
    EMBARK_TRY(checkMemoryPlan(*memory));
    plan->memory = std::move(*memory);
    return plan;
}

namespace {
// The buffer's values that are slices of it (concatenation in place).
QJsonArray viewsJson(const MemoryPlan& m, const PlannedBuffer& b) {
    QJsonArray views;
    for (const std::string& v : b.values)
        if (auto it = m.views.find(v); it != m.views.end())
            views.append(QJsonObject{{"value", QString::fromStdString(v)},
                                     {"byte_offset", static_cast<qint64>(it->second.byteOffset)},
                                     {"row_stride", static_cast<qint64>(it->second.rowStride)}});
    return views;
}
} // namespace

QJsonObject memoryPlanJson(const MemoryPlan& m) {
    QJsonArray buffers;
    for (const PlannedBuffer& b : m.buffers)
        buffers.append(QJsonObject{{"id", b.id},
                                   {"offset", static_cast<qint64>(b.offset)},
                                   {"bytes", static_cast<qint64>(b.bytes)},
                                   {"first_step", b.firstStep},
                                   {"last_step", b.lastStep},
                                   {"in_arena", b.inArena},
                                   {"values", ir::jsonStrings(b.values)},
                                   {"views", viewsJson(m, b)}});
    return QJsonObject{{"arena_bytes", static_cast<qint64>(m.arenaBytes)},
                       {"lower_bound_bytes", static_cast<qint64>(m.lowerBoundBytes)},
                       {"alignment", static_cast<qint64>(m.alignment)},
                       {"peak_step", m.peakStep},
                       {"schedule", ir::jsonStrings(m.schedule)},
                       {"buffers", buffers}};
}

QJsonArray fusedBlocksJson(const std::vector<FusedBlock>& blocks) {
    QJsonArray fused;
    for (const FusedBlock& b : blocks) {
        std::vector<std::string> names;
        for (const ir::Node* n : b.nodes) names.push_back(n->name);
        fused.append(
            QJsonObject{{"kernel", b.kind == FusedBlock::Kind::NchwConv ? "conv2d_nchw" : "inverted_bottleneck"},
                        {"nodes", ir::jsonStrings(names)}});
    }
    return fused;
}

} // namespace embark::exporter

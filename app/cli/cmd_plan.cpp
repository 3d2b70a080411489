// `embark-cli plan MODEL ...`: runs a pass recipe, assigns kernel libraries and layouts, and
// plans the activation memory; prints the fused graph, the assignment with reasons,
// partitions and conversions, and the memory plan (text or one JSON object).
#include "commands.h"
#include "run_json.h"
#include "model_args.h"
#include "text_table.h"

#include "export/adaptation.h"
#include "export/deployment_plan.h"
#include "export/memory_planner.h"
#include "onnx/writer.h"
#include "passes/graph_rewrite.h"
#include "passes/pass_manager.h"
#include "export/deployment_target.h"
#include "export/kernel_libraries.h"
#include "target_options.h"
#include "jobs/measure_libraries.h"
#include "ir/json_lists.h"

#include <QJsonDocument>

#include <algorithm>
#include <map>

namespace embark::cli {
namespace {

// The arena against familiar figures, in words: the lower bound (what must be live at once at
// the peak step, which no plan can beat), what a plan without any reuse would take, and why
// the arena may lie above the bound (greedy placement leaves gaps).
void explainArena(const exporter::MemoryPlan& m, QTextStream& out) {
    size_t noReuse = 0;
    QStringList live;
    for (const exporter::PlannedBuffer& b : m.buffers) {
        if (!b.inArena) continue;
        noReuse += b.bytes;
        if (b.firstStep <= m.peakStep && m.peakStep <= b.lastStep)
            live << QStringLiteral("%1 (%2 B)")
                        .arg(QString::fromStdString(b.values.empty() ? "?" : b.values.front()))
                        .arg(formatCount(static_cast<int64_t>(b.bytes)));
    }
    const QString node = m.peakStep >= 0 && static_cast<size_t>(m.peakStep) < m.schedule.size()
                             ? QString::fromStdString(m.schedule[static_cast<size_t>(m.peakStep)])
                             : QStringLiteral("?");
    out << "          The lower bound is the most bytes live at one step: at step " << m.peakStep << " (" << node
        << ") " << live.size() << " buffer(s) are needed at once: " << live.join(", ") << ". No plan of this schedule "
        << "can use less.\n";
    if (m.arenaBytes > m.lowerBoundBytes && m.lowerBoundBytes > 0)
        out << "          The arena is "
            << QString::number(100.0 * double(m.arenaBytes - m.lowerBoundBytes) / double(m.lowerBoundBytes), 'f', 1)
            << "% above it: greedy best-fit placement (largest buffer first) leaves gaps between lifetimes.\n";
    else
        out << "          The arena reaches the bound: placement left no gap.\n";
    out << "          With no reuse across lifetimes (each buffer of the plan its own memory) it would take "
        << formatBytes(static_cast<int64_t>(noReuse)) << ". Planners that reuse memory but never let an element-wise\n"
        << "          op overwrite its dead input, nor alias reshapes, land in between: Aidge's tutorial plans "
           "ResNet-18 in\n"
        << "          5,619,712 B, where Embark plans it in 4,014,080 B.\n";
}

QJsonObject planJson(const QString& path, const exporter::DeploymentTarget& target, const passes::PassRun& run,
                     const exporter::Adaptation& a, const exporter::MemoryPlan& m) {
    QJsonArray stages, nodes;
    for (const auto& s : run.stages)
        stages.append(QJsonObject{{"name", QString::fromStdString(s.name)},
                                  {"nodes", static_cast<qint64>(s.graph.nodeCount())},
                                  {"rewrites", s.rewrites},
                                  {"log", ir::jsonStrings(s.log)}});
    for (const ir::Node* n : a.graph.nodes()) {
        const auto& as = a.nodes.at(n->name);
        QJsonObject node{{"name", QString::fromStdString(n->name)},
                         {"op", QString::fromLatin1(ir::opName(n->op).data())},
                         {"lib", QString::fromStdString(as.library)},
                         {"layout", QString::fromLatin1(targets::layoutName(as.format).data())},
                         {"rule", QString::fromLatin1(exporter::assignmentRuleName(as.rule).data())},
                         {"reason", QString::fromStdString(as.reason)},
                         {"provenance", ir::jsonStrings(n->provenance)}};
        if (target.measured)
            if (auto m = target.measured->nodes.find(n->name); m != target.measured->nodes.end())
                node["measurement"] = exporter::nodeChoiceJson(m->second, target.measured->unit);
        nodes.append(node);
    }
    QJsonObject json{{"model", path},
                     {"recipe", QString::fromStdString(target.recipe)},
                     {"dtype_policy", exporter::dtypePolicyName(target.dtypePolicy)},
                     {"library", QString::fromStdString(target.measured ? std::string("auto") : target.library)},
                     {"arch", QString::fromStdString(target.arch)},
                     {"board", target.board.id},
                     {"imported_nodes", static_cast<qint64>(run.stages.front().graph.nodeCount())},
                     {"fused_nodes", static_cast<qint64>(run.graph.nodeCount())},
                     {"stages", stages},
                     {"nodes", nodes},
                     {"folded_nodes", ir::jsonStrings(passes::foldedNodes(run.graph))},
                     {"conversions", a.conversions},
                     {"free_conversions", a.freeConversions},
                     {"partitions", a.partitions},
                     {"libraries", ir::jsonStrings(a.librariesUsed)},
                     {"memory", exporter::memoryPlanJson(m)}};
    if (target.measured) json["auto"] = exporter::measuredChoiceJson(*target.measured);
    return json;
}

// "portable 1200 ns, xnnpack 800+300 ns": each candidate's cost (+ conversions) behind a choice.
QString measurementText(const exporter::MeasuredChoice* measured, const std::string& node) {
    if (!measured) return {};
    auto it = measured->nodes.find(node);
    if (it == measured->nodes.end()) return {};
    QStringList parts;
    for (const exporter::Candidate& c : it->second.candidates) {
        if (!c.supported) continue;
        QString s = QString::fromStdString(c.library) + " " + QString::number(c.cost, 'f', 0);
        if (c.conversion > 0) s += "+" + QString::number(c.conversion, 'f', 0);
        parts << s;
    }
    return "  (" + parts.join(", ") + " " + QString::fromStdString(measured->unit) + ")";
}

void printText(const QCommandLineParser& p, const passes::PassRun& run, const exporter::Adaptation& a,
               const exporter::MemoryPlan& m, const exporter::MeasuredChoice* measured, QTextStream& out) {
    out << "Recipe '" << p.value("recipe") << "': " << run.stages.front().graph.nodeCount() << " nodes imported, "
        << run.graph.nodeCount() << " after " << run.rewrites << " rewrites\n";
    if (p.isSet("stages"))
        for (const auto& s : run.stages) {
            out << "\n== stage " << QString::fromStdString(s.name) << ": " << s.graph.nodeCount() << " nodes, "
                << s.rewrites << " rewrites\n";
            for (const auto& line : s.log) out << "  " << QString::fromStdString(line) << "\n";
        }
    out << "\n";
    TextTable table({{"node"}, {"op"}, {"lib"}, {"layout"}, {"reason / provenance"}});
    for (const ir::Node* n : a.graph.nodes()) {
        const auto& as = a.nodes.at(n->name);
        QString prov;
        for (const auto& s : n->provenance) prov += (prov.isEmpty() ? "" : ", ") + QString::fromStdString(s);
        table.addRow({QString::fromStdString(n->name), QString::fromLatin1(ir::opName(n->op).data()),
                      QString::fromStdString(as.library), QString::fromLatin1(targets::layoutName(as.format).data()),
                      QString::fromStdString(as.reason) + measurementText(measured, n->name) +
                          (prov.isEmpty() ? "" : "  [" + prov + "]")});
    }
    table.print(out);
    QString libs;
    for (const auto& l : a.librariesUsed) libs += (libs.isEmpty() ? "" : ", ") + QString::fromStdString(l);
    out << "\nLibraries " << libs << "; " << a.partitions << " partition(s); " << a.conversions
        << " layout conversion(s) (+" << a.freeConversions << " free reshapes)\n";
    out << "Memory    arena " << formatBytes(static_cast<int64_t>(m.arenaBytes)) << ", lower bound "
        << formatBytes(static_cast<int64_t>(m.lowerBoundBytes)) << " (step " << m.peakStep << ")\n";
    explainArena(m, out);
    if (p.isSet("memory"))
        out << "\n" << QString::fromStdString(m.table()) << "\n" << QString::fromStdString(m.asciiSteps());
}

} // namespace

int cmdPlan(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Fuse a model, assign kernel libraries and layouts, plan its memory.");
    parser.addPositionalArgument("MODEL", "The .onnx file.");
    addTargetOptions(parser);
    parser.addOption({"stages", "Print each stage of the recipe with its log."});
    parser.addOption({"memory", "Print the memory plan: buffer table and one line per step."});
    parser.addOption({"save-fused", "Write the fused graph as ONNX (fused nodes in domain 'embark').", "OUT"});
    parser.addOption({"io-outside", "Place model inputs and outputs outside the arena."});
    parser.addOption({"json", "Print one JSON object (schema in docs/cli.md)."});
    addShapeOption(parser);
    const QString synopsis =
        QStringLiteral("plan MODEL %1 [--stages] [--memory] [--save-fused OUT.onnx] [--io-outside] "
                       "[--shape NAME=DIMS]... [--json]")
            .arg(QLatin1String(kTargetSynopsis));
    if (int rc = parseOrExit(parser, args, io, synopsis, 1, 1); rc >= 0) return rc;
    // The target `export` resolves from the same flags, so the plan is the one it writes.
    auto target = resolveTargetOptions(parser);
    if (!target) return fail(io, target.error());
    if (target->library != "auto")
        if (auto lib = exporter::resolveKernelLibrary(target->library, target->arch, target->xnnpackAvailable()); !lib)
            return fail(io, lib.error());

    const QString path = parser.positionalArguments().first();
    auto graph = loadModel(path, parser, &io);
    if (!graph) return fail(io, graph.error());
    // --lib auto: measured on the board (or taken from the cache) before the plan is made.
    jobs::MeasureOptions mo;
    mo.log = [&](const QString& line) { io.err << line << "\n" << Qt::flush; };
    if (Status s = jobs::chooseLibrariesByMeasurement(*graph, *target, mo); !s.ok()) return fail(io, s.error());
    exporter::PlanOptions po = exporter::planOptions(*target);
    po.keepSnapshots = true;
    po.ioInArena = !parser.isSet("io-outside");
    // The same plan an export with these options writes into export.json.
    auto deployment = exporter::buildDeploymentPlan(*graph, po);
    if (!deployment) return fail(io, deployment.error());
    const exporter::DeploymentPlan& dp = **deployment;
    const passes::PassRun* run = &dp.passes;
    const exporter::Adaptation* adapted = &dp.adaptation;
    const exporter::MemoryPlan* plan = &dp.memory;
    if (parser.isSet("save-fused"))
        if (Status s = onnx::writeModel(run->graph, parser.value("save-fused").toStdString()); !s.ok())
            return fail(io, s.error());
    const auto& used = adapted->librariesUsed;
    const bool linksXnnpack = std::any_of(used.begin(), used.end(), [](const std::string& id) {
        const targets::KernelLibrary* lib = exporter::findKernelLibrary(id);
        return lib && lib->linksXnnpack;
    });
    if (parser.isSet("json")) {
        QJsonObject json = planJson(path, *target, *run, *adapted, *plan);
        json["fused_blocks"] = exporter::fusedBlocksJson(dp.fusedBlocks);
        if (linksXnnpack) json["xnnpack"] = target->xnnpackJson; // which XNNPACK an export would link
        io.out << QJsonDocument(withSchema(json)).toJson(QJsonDocument::Indented);
    } else {
        printText(parser, *run, *adapted, *plan, target->measured.get(), io.out);
        if (linksXnnpack) io.out << "XNNPACK   " << target->xnnpackDescription << "\n";
        for (const QString& w : linksXnnpack ? target->xnnpackWarnings : QStringList())
            io.out << "          warning: " << w << "\n";
    }
    return 0;
}

} // namespace embark::cli

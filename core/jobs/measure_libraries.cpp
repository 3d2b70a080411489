#include "measure_libraries.h"

#include "instruction_count.h"
#include "pipeline.h"

#include "export/deployment_plan.h"
#include "export/exporter.h"
#include "export/kernel_libraries.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTemporaryDir>

#include <set>

namespace embark::jobs {
namespace {

constexpr const char* kCacheFormat = "embark-lib-auto-2";
constexpr const char* kConversionKey = "layout-conversion";

// What makes two measurements of one node comparable: the board, the library and what was
// built of it (Embark's own kernels change with Embark; XNNPACK with its tree), the compiler.
std::string libraryVersion(const exporter::DeploymentTarget& t, const std::string& library) {
    std::string v = library + "@embark-" + EMBARK_VERSION;
    if (library == "xnnpack") v += "+xnnpack-" + t.xnnpack.kind + "-" + t.xnnpack.commit + "-" + t.xnnpack.api;
    return v + "/" + t.toolchain.id.toStdString();
}

// What a measurement counts on the target's board: retired instructions under qemu-user (a
// simulated board), wall clock anywhere else.
std::string unitOf(const exporter::DeploymentTarget& t) { return countsInstructions(t.board) ? "instructions" : "ns"; }

// The unit is part of the key: a board file that changes its runner between a simulator and a
// real board never mixes instructions with nanoseconds.
QString cacheKey(const exporter::DeploymentTarget& t, const std::string& library, const std::string& what) {
    return QString::fromStdString(t.board.id.toStdString() + "|" + libraryVersion(t, library) + "|" + unitOf(t) + "|" +
                                  what);
}

// The cache file: {"format", "entries": {key: {"cost", "unit", "signature", "when"}}}.
class MeasurementCache {
public:
    explicit MeasurementCache(QString path) : m_path(std::move(path)) {
        QFile f(m_path);
        if (!f.open(QIODevice::ReadOnly)) return;
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        // Another format (or a damaged file) is measured again and rewritten, never trusted.
        if (root.value("format").toString() == QLatin1String(kCacheFormat))
            m_entries = root.value("entries").toObject();
    }

    std::optional<double> find(const QString& key, const std::string& unit) const {
        const QJsonObject e = m_entries.value(key).toObject();
        if (e.isEmpty() || e.value("unit").toString().toStdString() != unit) return std::nullopt;
        return e.value("cost").toDouble();
    }

    void put(const QString& key, double cost, const std::string& unit, const std::string& signature) {
        m_entries[key] = QJsonObject{{"cost", cost},
                                     {"unit", QString::fromStdString(unit)},
                                     {"signature", QString::fromStdString(signature)},
                                     {"when", QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
        m_dirty = true;
    }

    Status save() const {
        if (!m_dirty) return {};
        QDir().mkpath(QFileInfo(m_path).absolutePath());
        QSaveFile f(m_path);
        const QJsonObject root{{"format", kCacheFormat}, {"entries", m_entries}};
        if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(root).toJson(QJsonDocument::Indented)) < 0 ||
            !f.commit())
            return makeError(ErrorKind::External, "--lib auto: cannot write the measurement cache " +
                                                      m_path.toStdString() + ": " + f.errorString().toStdString());
        return {};
    }

private:
    QString m_path;
    QJsonObject m_entries;
    bool m_dirty = false;
};

// One model holding the given nodes side by side: each reads its own graph inputs (shared
// where the original node read one value twice) and constants, and writes graph outputs.
// Node k is named "auto_m<k>", so the run's per-layer lines say which node they time. Each
// runs the kernel it runs inside its model (exporter::kStandsForInnerNodes), even where a node
// whose output leaves a one-op model would take another.
ir::Graph measurementGraph(const std::vector<const ir::Node*>& nodes) {
    ir::Graph g;
    g.name = "lib_auto";
    g.metadata[exporter::kStandsForInnerNodes] = "lib auto measurement";
    for (size_t k = 0; k < nodes.size(); ++k) {
        const ir::Node* n = nodes[k];
        const std::string prefix = "auto_m" + std::to_string(k);
        std::map<const ir::Value*, ir::Value*> mapped;
        std::vector<ir::Value*> ins, outs;
        for (size_t i = 0; i < n->inputs().size(); ++i) {
            const ir::Value* v = n->inputs()[i];
            if (!v) {
                ins.push_back(nullptr);
                continue;
            }
            if (auto it = mapped.find(v); it != mapped.end()) {
                ins.push_back(it->second);
                continue;
            }
            ir::Value* copy = nullptr;
            if (v->isConstant()) {
                copy = g.addConstant(prefix + "_c" + std::to_string(i), v->constant);
            } else {
                copy = g.addValue(prefix + "_in" + std::to_string(i), v->dtype, v->shape);
                g.addInput(copy);
            }
            mapped[v] = copy;
            ins.push_back(copy);
        }
        for (size_t i = 0; i < n->outputs().size(); ++i) {
            const ir::Value* v = n->outputs()[i];
            ir::Value* out = v ? g.addValue(prefix + "_out" + std::to_string(i), v->dtype, v->shape) : nullptr;
            outs.push_back(out);
        }
        ir::Node* copy = g.addNode(n->op, prefix, ins, outs);
        copy->attrs = n->attrs;
        copy->provenance = {n->name};
        for (ir::Value* out : outs)
            if (out) g.addOutput(out);
    }
    return g;
}

struct LibraryRun {
    std::map<std::string, double> nodeCost; // "auto_m<k>" -> median ns, or instructions
    double conversionCost = 0, conversionBytes = 0;
};

// Per layer of the export (in the run's unit): what goes into a LibraryRun.
void addLayer(LibraryRun& out, const exporter::Adaptation& a, const std::string& node, double cost) {
    const ir::Node* n = a.graph.findNode(node);
    auto as = a.nodes.find(node);
    if (n && as != a.nodes.end() && as->second.rule == exporter::AssignmentRule::Conversion) {
        if (n->op == ir::OpKind::Transpose && n->output(0)) {
            out.conversionCost += cost;
            out.conversionBytes += static_cast<double>(n->output(0)->byteSize());
        }
        return;
    }
    out.nodeCost[node] = cost;
}

// On a simulated board: one run of the deployed export under qemu with the instruction-counting
// plugin (instruction_count.h), --warmup 0 --iterations 1 --layers (counts are deterministic).
Status countOnSimulator(PipelineState& s, const QString& workDir, LibraryRun& out) {
    auto plugin = instructionCountPlugin(exporter::defaultRuntimeDir());
    if (!plugin) return plugin.error();
    const QString logFile =
        QFileInfo(workDir).absoluteFilePath() + "/insn-" + QString::fromStdString(s.options.library) + ".log";
    QFile::remove(logFile);
    auto command = instructionCountCommand(
        *s.board, *plugin, logFile,
        {"./run_export", "--warmup", "0", "--iterations", "1", "--threads", "1", "--layers", "--out", "out"});
    if (!command) return command.error();
    deploy::ExecRequest req;
    req.argv = *command;
    req.usePrefix = false;
    req.timeout = std::chrono::seconds(s.options.runTimeoutSeconds);
    req.cancel = s.options.cancel;
    auto exec = s.transport->exec(req);
    if (!exec) return exec.error();
    EMBARK_TRY(deploy::requireSuccess(*exec, s.board->id, "run_export under qemu with the instruction counter"));
    const bench::RunOutput run = bench::parseRunOutput(exec->stdoutData);
    QFile log(logFile);
    if (!log.open(QIODevice::ReadOnly))
        return makeError(ErrorKind::External, "qemu wrote no plugin log " + logFile.toStdString());
    auto counts = parseInstructionMarks(log.readAll(), run);
    if (!counts) return counts.error();
    for (const LayerInstructions& l : counts->layers)
        addLayer(out, s.plan->adaptation, l.node, static_cast<double>(l.instructions));
    return {};
}

// Exports, builds and runs the measurement model on the target's board with `library`: wall
// clock through the bench's run step, or instructions on a simulated board.
Expected<LibraryRun> runMeasurement(const ir::Graph& graph, const exporter::DeploymentTarget& target,
                                    const std::string& library, const MeasureOptions& o, const QString& workDir) {
    const bool instructions = countsInstructions(target.board);
    PipelineState s;
    s.options.modelPath = QStringLiteral("lib-auto.onnx");
    s.options.boardId = target.board.id;
    s.options.library = library;
    s.options.compiler = target.compiler == targets::CompilerPreference::Gcc     ? QStringLiteral("gcc")
                         : target.compiler == targets::CompilerPreference::Clang ? QStringLiteral("clang")
                                                                                 : QString();
    s.options.recipe = "none"; // the nodes are the fused graph's already
    s.options.iterations = o.iterations;
    s.options.warmup = o.warmup;
    s.options.threads = 1;
    s.options.layers = true;
    s.options.workDir = workDir;
    s.options.ssh = o.ssh;
    s.options.cancel = o.cancel;
    s.options.storePath = QStringLiteral("-");
    s.graph = std::make_shared<const ir::Graph>(graph.clone());
    RecipeObserver observer;
    observer.log = [&](const QString& line) {
        if (o.log && (line.startsWith("built ") || line.startsWith("connected"))) o.log("  " + line);
    };
    Recipe recipe = deployRunRecipe(true, true);
    if (instructions) recipe.pop_back(); // the run step: counted below instead
    const RecipeRun run = runRecipe(recipe, s, observer);
    auto failure = [&](const Error& e) {
        return makeError(e.kind, "--lib auto: measuring " + std::to_string(graph.nodeCount()) + " node(s) on " +
                                     library + " on board " + target.board.id.toStdString() + " failed: " + e.message);
    };
    if (run.firstError) return failure(*run.firstError);
    LibraryRun out;
    if (instructions) {
        if (Status st = countOnSimulator(s, workDir, out); !st.ok()) return failure(st.error());
        return out;
    }
    for (const bench::LayerSample& l : s.result.medianLayers)
        addLayer(out, s.plan->adaptation, l.node, static_cast<double>(l.ns));
    return out;
}

} // namespace

QString measurementCachePath() {
    const QString env = qEnvironmentVariable("EMBARK_LIB_AUTO_CACHE");
    if (!env.isEmpty()) return QFileInfo(env).absoluteFilePath();
    QString base = qEnvironmentVariable("XDG_CACHE_HOME");
    if (base.isEmpty()) base = QDir::homePath() + "/.cache";
    return base + "/embark/lib-auto.json";
}

QString measurementCacheKey(const exporter::DeploymentTarget& target, const std::string& library,
                            const std::string& signature) {
    return cacheKey(target, library, exporter::signatureKey(signature));
}

Status chooseLibrariesByMeasurement(const ir::Graph& model, exporter::DeploymentTarget& target,
                                    const MeasureOptions& o) {
    if (target.library != "auto") return {};
    auto log = [&](const QString& line) {
        if (o.log) o.log(line);
    };
    std::vector<std::string> libraries{"portable"};
    if (target.xnnpackAvailable() && exporter::resolveKernelLibrary("xnnpack", target.arch, true))
        libraries.push_back("xnnpack");

    // The fused graph the export will have: the passes run for portable, the library of the
    // nodes left out of the measurement.
    exporter::DeploymentTarget portable = target;
    portable.library = "portable";
    portable.measured.reset();
    auto plan = exporter::buildDeploymentPlan(model, exporter::planOptions(portable));
    if (!plan) return plan.error();
    const ir::Graph& fused = (*plan)->passes.graph;

    auto choice = std::make_shared<exporter::MeasuredChoice>();
    choice->board = target.board.id.toStdString();
    choice->unit = unitOf(target);
    MeasurementCache cache(o.cachePath.isEmpty() ? measurementCachePath() : o.cachePath);

    // Which (library, signature) pairs need a measurement; one node stands for each signature.
    std::map<std::string, std::map<std::string, const ir::Node*>> missing; // library -> signature -> node
    for (const ir::Node* n : fused.nodes()) {
        if (target.nodeOverrides.count(n->name) || target.opOverrides.count(std::string(ir::opName(n->op))) ||
            !n->subgraphs.empty())
            continue;
        exporter::NodeChoice nc;
        nc.signature = exporter::nodeSignature(*n);
        for (const std::string& lib : libraries) {
            exporter::Candidate c;
            c.library = lib;
            c.note = exporter::findKernelLibrary(lib)->whyUnsupported(*n);
            c.supported = c.note.empty();
            if (c.supported) {
                const QString key = cacheKey(target, lib, exporter::signatureKey(nc.signature));
                if (auto cost = cache.find(key, choice->unit)) {
                    c.cost = *cost;
                    c.source = "cached";
                } else {
                    missing[lib].emplace(nc.signature, n);
                    c.source = "measured";
                }
            }
            nc.candidates.push_back(c);
        }
        choice->nodes[n->name] = std::move(nc);
    }

    std::unique_ptr<QTemporaryDir> temp;
    QString workDir = o.workDir;
    if (workDir.isEmpty() && !missing.empty()) {
        temp = std::make_unique<QTemporaryDir>(QDir::tempPath() + "/embark-lib-auto-XXXXXX");
        workDir = temp->path();
    }
    std::map<std::string, std::map<std::string, double>> measured; // library -> signature -> cost
    std::map<std::string, std::string> failed;                     // library -> why
    for (const auto& [lib, bySignature] : missing) {
        std::vector<const ir::Node*> nodes;
        std::vector<std::string> signatures;
        for (const auto& [sig, n] : bySignature) {
            nodes.push_back(n);
            signatures.push_back(sig);
        }
        log(QStringLiteral("lib auto: measuring %1 node shape(s) on %2 (board %3, %4)")
                .arg(nodes.size())
                .arg(QString::fromStdString(lib), target.board.id)
                .arg(choice->unit == "instructions" ? QStringLiteral("retired instructions under qemu")
                                                    : QStringLiteral("%1 timed runs").arg(o.iterations)));
        auto run = runMeasurement(measurementGraph(nodes), target, lib, o, workDir);
        if (!run) {
            // The other library still runs these nodes; this one is out for them, and measured
            // again next time (nothing is cached).
            if (o.cancel && o.cancel->load()) return run.error();
            log(QString::fromStdString(run.error().message));
            failed[lib] = run.error().message;
            continue;
        }
        for (size_t k = 0; k < nodes.size(); ++k) {
            auto it = run->nodeCost.find("auto_m" + std::to_string(k));
            if (it == run->nodeCost.end()) continue;
            measured[lib][signatures[k]] = it->second;
            cache.put(cacheKey(target, lib, exporter::signatureKey(signatures[k])), it->second, choice->unit,
                      signatures[k]);
        }
        if (run->conversionBytes > 0)
            cache.put(cacheKey(target, lib, kConversionKey), run->conversionCost / run->conversionBytes, choice->unit,
                      "layout conversion NCHW<->NHWC, per byte");
    }
    EMBARK_TRY(cache.save());

    for (auto& [name, nc] : choice->nodes)
        for (exporter::Candidate& c : nc.candidates) {
            if (!c.supported) continue;
            if (c.source == "cached") {
                ++choice->cachedCount;
                continue;
            }
            auto lib = measured.find(c.library);
            auto it = lib == measured.end() ? decltype(lib->second.end()){} : lib->second.find(nc.signature);
            if (lib != measured.end() && it != lib->second.end()) {
                c.cost = it->second;
                ++choice->measuredCount;
            } else {
                c.supported = false;
                c.source.clear();
                c.note = failed.count(c.library) ? failed[c.library] : "the measurement run timed no such node";
            }
        }

    // Conversions: the slowest measured rate of the candidates (the conversion runs on the
    // library's side of the switch; either may do it).
    double perByte = 0;
    for (const std::string& lib : libraries)
        if (auto rate = cache.find(cacheKey(target, lib, kConversionKey), choice->unit))
            perByte = std::max(perByte, *rate);
    choice->conversionPerByte = perByte;
    choice->conversionModel = libraries.size() < 2 ? "one candidate library: no switch, no conversion"
                              : perByte > 0
                                  ? "bytes moved times the cost per byte of the NCHW<->NHWC Transposes timed in the "
                                    "measurement exports"
                                  : "no layout conversion was timed yet: conversions cost 0";
    exporter::choose(fused, *choice);
    if (!choice->singleLibrary.empty())
        log(QStringLiteral("lib auto: each node's cheapest would total %1 %2 against %3 for %4 alone, not %5% less: "
                           "every node %4 supports runs on it")
                .arg(choice->estimates["mixed"], 0, 'f', 0)
                .arg(QString::fromStdString(choice->unit))
                .arg(choice->estimates[choice->singleLibrary], 0, 'f', 0)
                .arg(QString::fromStdString(choice->singleLibrary))
                .arg(exporter::switchMargin(choice->unit) * 100, 0, 'f', 0));
    int changed = 0;
    for (const auto& [name, nc] : choice->nodes) changed += nc.chosen != "portable";
    log(QStringLiteral("lib auto: %1 node(s) chosen (%2 measured, %3 cached), %4 not on portable")
            .arg(choice->nodes.size())
            .arg(choice->measuredCount)
            .arg(choice->cachedCount)
            .arg(changed));
    target.library = "portable";
    target.measured = std::move(choice);
    return {};
}

} // namespace embark::jobs

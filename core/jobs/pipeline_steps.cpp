// The pipeline's steps (pipeline.h): each reads what the steps it needs left in the state and
// adds its own part.
#include "pipeline.h"
#include "pipeline_detail.h"
#include "measure_libraries.h"
#include "float_reference.h"
#include "line_logger.h"
#include "resolve_target.h"
#include "stored_plan.h"

#include "deploy/transport_factory.h"
#include "export/emit_context.h"
#include "onnx/importer.h"
#include "reference/interpreter.h"
#include "store/run_store.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QStandardPaths>

namespace embark::jobs {
namespace {

using detail::accuracyEntry;
using detail::readRawTensor;
using detail::safeName;

QString modelLabel(const PipelineState& s) {
    return safeName(s.options.modelPath.isEmpty() ? QStringLiteral("deploy")
                                                  : QFileInfo(s.options.modelPath).completeBaseName());
}

// A new folder `work/<base>-<UTC time>-<pid>-<counter>-<random>` for one run. mkdir (not
// mkpath) fails when the name exists, so concurrent benchmarks of the same model and board
// (same millisecond included) each get their own folder: on a clash, the next name is tried.
Expected<QString> makeRunFolder(const QString& work, const QString& base) {
    if (!QDir().mkpath(work))
        return makeError(ErrorKind::External, "cannot create the work folder '" + work.toStdString() +
                                                  "': check its permissions or pass --work-dir");
    static std::atomic_int counter{0};
    const QString stamp = QDateTime::currentDateTimeUtc().toString("yyyyMMdd-HHmmss-zzz");
    for (int attempt = 0; attempt < 100; ++attempt) {
        const QString dir = QStringLiteral("%1/%2-%3-%4-%5-%6")
                                .arg(work, base, stamp)
                                .arg(QCoreApplication::applicationPid())
                                .arg(counter.fetch_add(1))
                                .arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16, QChar('0'));
        if (QDir().mkdir(dir)) return dir;
        if (!QFileInfo::exists(dir)) break; // not a clash: permissions, disk full
    }
    return makeError(ErrorKind::External, "cannot create a run folder in '" + work.toStdString() +
                                              "': check its permissions and free space, or pass --work-dir");
}

QString exportFolderOf(const PipelineState& s) { return s.exported ? s.exported->dir : s.exportDir; }

Error cancelledError(const char* when) { return makeError(ErrorKind::External, std::string("cancelled ") + when); }

} // namespace

Status resolveTargetStep(PipelineState& s, StepContext&) {
    auto target = resolveTarget(targetRequest(s.options));
    if (!target) return target.error();
    s.target = *target;
    s.board = target->board;
    s.toolchain = target->toolchain;
    return {};
}

Status checkToolsStep(PipelineState& s, StepContext&) {
    EMBARK_TRY(targets::checkAvailable(*s.toolchain));
    // A farm board: the LAVA server, the token and a usable device, before a long build.
    if (s.board->isFarm()) return deploy::makeTransport(*s.board, s.options.ssh)->connect();
    return targets::checkRunnerAvailable(*s.board);
}

Status importStep(PipelineState& s, StepContext& c) {
    if (s.graph) {
        c.log(QStringLiteral("using the model already imported from %1").arg(s.options.modelPath));
    } else {
        c.log(QStringLiteral("importing %1").arg(s.options.modelPath));
        onnx::ImportOptions io;
        io.shapeOverrides = s.options.shapeOverrides;
        auto graph = onnx::importModel(s.options.modelPath.toStdString(), io);
        if (!graph) return graph.error();
        s.graph = std::make_shared<const ir::Graph>(std::move(*graph));
    }
    // A float reference that cannot be compared fails here, before anything is built.
    if (s.options.floatReference && !s.options.accuracyLayers)
        return makeError(ErrorKind::Usage,
                         "a float reference is compared with the layer dumps: set accuracyLayers too");
    if (s.options.floatReference)
        EMBARK_TRY(
            checkFloatReference(*s.options.floatReference, *s.graph, s.options.floatReferencePath.toStdString()));
    return {};
}

Status planStep(PipelineState& s, StepContext& c) {
    if (s.target->library == "auto" && !s.plan) {
        MeasureOptions mo;
        mo.ssh = s.options.ssh;
        mo.cancel = c.cancel;
        mo.log = c.log;
        EMBARK_TRY(chooseLibrariesByMeasurement(*s.graph, *s.target, mo));
    }
    s.exportOptions = exporter::exportOptions(*s.target);
    s.exportOptions.sampleInputs = s.options.inputs;
    if (s.plan) {
        c.log(QStringLiteral("plan: the one given (%1 nodes after fusion, arena %2 bytes), written as it is")
                  .arg(s.plan->adaptation.graph.nodes().size())
                  .arg(s.plan->memory.arenaBytes));
        return {};
    }
    auto plan = exporter::buildDeploymentPlan(*s.graph, exporter::planOptions(*s.target));
    if (!plan) return plan.error();
    s.plan = std::move(*plan);
    c.log(QStringLiteral("plan: %1 nodes after fusion, arena %2 bytes")
              .arg(s.plan->adaptation.graph.nodes().size())
              .arg(s.plan->memory.arenaBytes));
    return {};
}

Expected<QString> makeRunFolder(const BenchOptions& o, const QString& base) {
    const QString work =
        o.workDir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/bench" : o.workDir;
    return makeRunFolder(work, base);
}

// What makes two exports of a benchmark the same folder and binary: the model as imported and
// every export option but the board's name (recorded in export.json only) and the folder. A
// measured library choice belongs to the board it was measured on.
static QString sharedExportKey(const PipelineState& s) {
    const exporter::ExportOptions& e = s.exportOptions;
    QStringList parts{QFileInfo(s.options.modelPath).absoluteFilePath(),
                      QString::fromStdString(e.library),
                      QString::fromStdString(e.arch),
                      QString::fromStdString(e.targetFlags),
                      e.toolchainFile,
                      s.toolchain ? s.toolchain->compiler + " " + s.toolchain->cxx : QString(),
                      QString::number(e.threadsMax),
                      QString::fromStdString(e.recipe),
                      e.havePrebuiltXnnpack ? "prebuilt" : "",
                      QString::number(static_cast<int>(e.concatInPlace)),
                      exporter::dtypePolicyName(e.dtypePolicy),
                      QString::fromStdString(e.xnnpack.kind + " " + e.xnnpack.path + " " + e.xnnpack.root + " " +
                                             e.xnnpack.commit + " " + e.xnnpack.api),
                      e.runtimeDir,
                      e.measured || s.options.library == "auto" ? s.board->id : QString()};
    for (const auto& [op, lib] : e.opOverrides) parts << QString::fromStdString("op " + op + "=" + lib);
    for (const auto& [node, lib] : e.nodeOverrides) parts << QString::fromStdString("node " + node + "=" + lib);
    for (const auto& [input, shape] : s.options.shapeOverrides)
        parts << QString::fromStdString("shape " + input + "=" + shape.str());
    return parts.join('\n');
}

Status exportStep(PipelineState& s, StepContext& c) {
    // A shared export (a sweep's): the first benchmark of the key makes it, holding the entry
    // until its build ends; the others wait here and reuse the folder and the binary.
    if (s.options.exportCache && s.exportDir.isEmpty() && s.options.inputs.empty()) {
        s.sharedExport = s.options.exportCache->entry(sharedExportKey(s));
        s.sharedExportLock = std::unique_lock(s.sharedExport->mutex);
        if (s.sharedExport->built) {
            s.exported = s.sharedExport->exported;
            s.built = s.sharedExport->built;
            s.binary = s.built->binary;
            s.reusedExport = true;
            c.log(QStringLiteral("reusing the export %1 and its build, made for board '%2' (the same target)")
                      .arg(s.exported->dir, s.sharedExport->builtFor));
            s.sharedExportLock.unlock();
            return {};
        }
    }
    exporter::ExportOptions eo = s.exportOptions;
    if (s.exportDir.isEmpty()) {
        auto folder = makeRunFolder(s.options, modelLabel(s) + "-" + s.board->id + "-" +
                                                   QString::fromStdString(s.options.library));
        if (!folder) return folder.error();
        eo.outDir = *folder;
        eo.force = true; // the folder is this run's own, made empty just above
    } else {
        eo.outDir = s.exportDir;
        eo.force = s.replaceExport;
    }
    if (c.cancelled()) return cancelledError("before the export was written");
    auto exported = exporter::writeExport(*s.graph, *s.plan, eo);
    if (!exported) return exported.error();
    for (const std::string& line : exported->log) c.log(QString::fromStdString(line));
    s.exported = *exported;
    return {};
}

Status checkFitsStep(PipelineState& s, StepContext&) {
    // Refused before building: the board must hold the arena and the weights.
    return targets::boardFits(*s.board, static_cast<qint64>(s.exported->arenaBytes), s.exported->weightsBytes);
}

Status buildStep(PipelineState& s, StepContext& c) {
    if (s.reusedExport) {
        c.log(QStringLiteral("build: reusing %1").arg(s.binary));
        return {};
    }
    build::BuildOptions bo;
    bo.exportDir = exportFolderOf(s);
    bo.jobs = s.buildJobs;
    bo.buildDir = s.buildDir;
    if (s.board) {
        bo.expectedArch = s.board->arch;
    } else {
        auto folder = exporter::ExportFolder::open(bo.exportDir); // refuses another Embark's folder
        if (!folder) return folder.error();
        bo.expectedArch = QString::fromStdString(folder->arch);
    }
    const QString buildDir = s.buildDir.isEmpty() ? QFileInfo(bo.exportDir).absoluteFilePath() + "/build"
                                                  : QFileInfo(s.buildDir).absoluteFilePath();
    const bool freshBuildDir = !QFileInfo::exists(buildDir);
    bo.log = c.log;
    bo.progress = c.progress;
    bo.cancel = c.cancel;
    c.progress(0, 0);
    auto built = build::buildExport(bo);
    if (!built) {
        // A cancelled first build leaves nothing behind: the export folder is as it was.
        if (c.cancelled() && freshBuildDir) QDir(buildDir).removeRecursively();
        return built.error();
    }
    c.log(QStringLiteral("built %1 (%2, %3 bytes)").arg(built->binary, built->elfMachine).arg(built->binaryBytes));
    s.built = *built;
    s.binary = built->binary;
    if (s.sharedExport && s.sharedExportLock.owns_lock()) {
        s.sharedExport->exported = s.exported;
        s.sharedExport->built = s.built;
        s.sharedExport->builtFor = s.board ? s.board->id : QString();
        s.options.exportCache->noteBuilt();
        s.sharedExportLock.unlock();
    }
    return {};
}

Status deployStep(PipelineState& s, StepContext& c) {
    EMBARK_TRY(targets::checkRunnerAvailable(*s.board));
    if (!QFileInfo(s.binary).isFile())
        return makeError(ErrorKind::Usage, "'" + s.binary.toStdString() + "' does not exist: build the export first");
    s.transport = deploy::makeTransport(*s.board, s.options.ssh);
    EMBARK_TRY(s.transport->connect());
    c.log(QStringLiteral("connected to %1").arg(s.transport->describe()));
    auto runDir = s.transport->makeRunDir(modelLabel(s));
    if (!runDir) return runDir.error();
    s.runDir = *runDir; // removed with the state
    c.progress(0, 2);
    EMBARK_TRY(s.transport->upload(s.binary, "run_export"));
    const QString libDir = QFileInfo(s.binary).absolutePath() + "/lib";
    if (QFileInfo(libDir).isDir()) EMBARK_TRY(s.transport->upload(libDir, "lib"));
    c.progress(2, 2);
    if (c.cancelled()) return cancelledError("after the upload");
    return {};
}

Status runStep(PipelineState& s, StepContext& c) {
    const BenchOptions& o = s.options;
    deploy::ExecRequest req;
    QStringList args{"--warmup",  QString::number(o.warmup),  "--iterations", QString::number(o.iterations),
                     "--threads", QString::number(o.threads), "--out",        "out"};
    if (o.layers) args << "--layers";
    if (o.accuracyLayers)
        args << "--dump"
             << "dumps";
    if (!o.affinity.isEmpty()) {
        req.argv =
            QStringList{"taskset", "-c", o.affinity} + s.board->runner.execPrefix + QStringList{"./run_export"} + args;
        req.usePrefix = false;
    } else {
        req.argv = QStringList{"./run_export"} + args;
    }
    req.timeout = std::chrono::seconds(o.runTimeoutSeconds);
    req.cancel = c.cancel;
    LineLogger logger{c.log, {}};
    req.onStdout = [&](const QByteArray& chunk) { logger(chunk); };
    req.onStatus = c.log;
    auto exec = s.transport->exec(req);
    // A farm board's LAVA job and device go into the record, whatever the outcome.
    const QJsonObject info = s.transport->runInfo();
    for (auto it = info.begin(); it != info.end(); ++it) s.result.record.extra[it.key()] = it.value();
    if (!exec) return exec.error();
    s.runStdout = exec->stdoutData;
    BenchResult& result = s.result;
    result.output = bench::parseRunOutput(exec->stdoutData);
    EMBARK_TRY(deploy::requireSuccess(*exec, s.board->id, "run_export"));
    if (!result.output.haveMeta || result.output.latencyNs.empty())
        return makeError(ErrorKind::External,
                         "run_export printed no timings (output: " + exec->stdoutData.left(200).toStdString() + ")");
    store::RunRecord& rec = result.record;
    rec.latencyNs = result.output.latencyNs;
    rec.latency = store::summarizeLatency(rec.latencyNs);
    result.medianLayers = result.output.medianLayers();
    for (const auto& l : result.medianLayers) rec.layers.push_back({l.node, l.lib, static_cast<double>(l.ns)});
    return {};
}

namespace {

// Where the board's files come back: the export's results/, or, for an export shared with
// other benchmarks (a sweep's cells on boards of one kind), a folder of this board's own.
QString resultsDirOf(const PipelineState& s, const exporter::ExportFolder& folder) {
    return s.sharedExport ? folder.dir + "/results-" + safeName(s.board->id) : folder.dir + "/results";
}

// Each model output from the board against the host reference on the export's own sample.
// `qdq`, for a quantized model with fused int8 operators: the QDQ model's own (float)
// reference, whose difference from the board is recorded as the quantization error.
Status compareOutputs(PipelineState& s, const exporter::ExportFolder& folder, const reference::RunResult& ref,
                      const reference::RunResult* qdq, StepContext& c) {
    QJsonArray quantError;
    const QString local = resultsDirOf(s, folder);
    for (size_t k = 0; k < ref.outputs.size(); ++k) {
        const auto& name = ref.outputNames[k];
        const bench::OutputLine* line = nullptr;
        for (const auto& ol : s.result.output.outputs)
            if (ol.name == name) line = &ol;
        if (!line || line->file.empty())
            return makeError(ErrorKind::External, "run_export wrote no file for output '" + name + "'");
        const QString dst = local + "/output_" + QString::number(k) + ".bin";
        EMBARK_TRY(s.transport->download(QString::fromStdString(line->file), dst));
        bool ok = false;
        // Compared as float32, whatever the output's type.
        const ir::Tensor got =
            readRawTensor(dst, ref.outputs[k].dtype(), ref.outputs[k].shape(), &ok).castTo(ir::DType::Float32);
        if (!ok) return makeError(ErrorKind::External, "output '" + name + "' from the board has the wrong size");
        s.result.record.outputAccuracy.push_back(
            accuracyEntry(bench::compare(got, ref.outputs[k].castTo(ir::DType::Float32), name)));
        if (qdq && k < qdq->outputs.size()) {
            const bench::Accuracy q = bench::compare(got, qdq->outputs[k].castTo(ir::DType::Float32), name);
            quantError.append(QJsonObject{{"output", QString::fromStdString(name)},
                                          {"max_abs", q.maxAbs},
                                          {"max_rel", q.maxRel},
                                          {"cosine", q.cosine},
                                          {"snr_db", q.snrDb}});
            c.log(QStringLiteral("quantization error of '%1' against the QDQ model's float reference: max_rel %2, "
                                 "cosine %3, SNR %4 dB (reported, not checked: the export is checked against "
                                 "the int8 arithmetic it implements)")
                      .arg(QString::fromStdString(name))
                      .arg(q.maxRel, 0, 'g', 3)
                      .arg(q.cosine, 0, 'f', 6)
                      .arg(q.snrDb, 0, 'f', 1));
        }
    }
    if (!quantError.isEmpty()) s.result.record.extra["quantization_error"] = quantError;
    return {};
}

// The reference value a layer dump is compared with, as floats. An int8/uint8 value is
// dequantized with the scale and zero point the export's dump used (its producer's), as
// (q - zero_point) * scale in float32, like the dump.
ir::Tensor referenceAsDumped(const PipelineState& s, const std::string& value, const ir::Tensor& ref) {
    ir::Tensor f = ref.castTo(ir::DType::Float32);
    if (ref.dtype() != ir::DType::Int8 && ref.dtype() != ir::DType::UInt8) return f;
    const ir::Value* v = s.plan ? s.plan->adaptation.graph.findValue(value) : nullptr;
    float scale = 1.f;
    int zeroPoint = 0;
    if (!v || !exporter::quantParamsOf(v, &scale, &zeroPoint)) return f;
    float* x = f.mutableAs<float>();
    for (int64_t i = 0; i < f.numel(); ++i) x[i] = static_cast<float>(static_cast<int>(x[i]) - zeroPoint) * scale;
    return f;
}

// Each dumped layer against the reference value it computes (layout conversions have none).
// `boardValues` (optional) receives each dump as floats, by the export's value name.
Status compareLayers(PipelineState& s, const exporter::ExportFolder& folder, const reference::RunResult& ref,
                     std::map<std::string, ir::Tensor>* boardValues) {
    BenchResult& result = s.result;
    for (const bench::DumpLine& d : result.output.dumps) {
        const std::string value = folder.layerOutput(d.layer);
        auto it = ref.values.find(value);
        if (value.empty() || it == ref.values.end()) continue;
        const QString dst = resultsDirOf(s, folder) + "/dump_" + QString::number(d.layer) + ".bin";
        EMBARK_TRY(s.transport->download(QString::fromStdString(d.file), dst));
        bool ok = false;
        const ir::Tensor got = readRawTensor(dst, ir::DType::Float32, it->second.shape(), &ok); // dumps are float32
        if (!ok) continue;
        if (boardValues) (*boardValues)[value] = got;
        LayerAccuracy la{bench::compare(got, referenceAsDumped(s, value, it->second), d.node), d.node, value};
        result.layerAccuracy.push_back(la);
        result.record.layerAccuracy.push_back(accuracyEntry(la.accuracy));
    }
    result.firstDivergentLayer = firstDivergentLayer(result.layerAccuracy);
    if (result.firstDivergentLayer >= 0)
        result.record.extra["first_divergent_layer"] =
            QString::fromStdString(result.layerAccuracy[static_cast<size_t>(result.firstDivergentLayer)].node);
    return {};
}

// The board's dumps against the float model the benchmarked one was made from, on the same
// sample (float_reference.h), stored as the run's extra "float_reference".
Status compareWithFloat(PipelineState& s, const std::map<std::string, ir::Tensor>& inputs,
                        const std::map<std::string, ir::Tensor>& boardValues, StepContext& c) {
    const ir::Graph& fp = *s.options.floatReference;
    reference::RunOptions ro;
    ro.captureAll = true;
    auto r = reference::run(fp, inputs, ro);
    if (!r) return r.error();
    std::map<std::string, ir::Tensor> fpValues = std::move(r->values);
    for (size_t k = 0; k < r->outputs.size() && k < r->outputNames.size(); ++k)
        fpValues[r->outputNames[k]] = r->outputs[k];
    const bench::LayerDiff diff = diffBoardAgainstFloat(
        fp, fpValues, *s.graph, s.plan ? s.plan->referenceGraph(*s.graph) : *s.graph, boardValues, s.options.snrDropDb);
    if (diff.layers.empty())
        return makeError(ErrorKind::InvalidInput, "float reference '" + s.options.floatReferencePath.toStdString() +
                                                      "': none of the board's " + std::to_string(boardValues.size()) +
                                                      " layer dumps matched a layer of it by name");
    QJsonObject o = bench::layerDiffToJson(diff, static_cast<int>(diff.layers.size()), s.options.snrDropDb);
    o["model"] = QFileInfo(s.options.floatReferencePath).absoluteFilePath();
    s.result.record.extra["float_reference"] = o;
    c.log(QStringLiteral("per-layer error against the float model %1: %2 layers compared%3")
              .arg(s.options.floatReferencePath)
              .arg(diff.layers.size())
              .arg(diff.firstDrop >= 0
                       ? QStringLiteral(", first SNR drop at '%1'")
                             .arg(QString::fromStdString(diff.layers[static_cast<size_t>(diff.firstDrop)].value))
                       : QString()));
    return {};
}

} // namespace

Status compareStep(PipelineState& s, StepContext& c) {
    auto folder = exporter::ExportFolder::open(exportFolderOf(s));
    if (!folder) return folder.error();
    // The reference on the exact sample the export embeds (data/input_K.bin).
    std::map<std::string, ir::Tensor> inputs;
    for (size_t k = 0; k < s.graph->inputs().size(); ++k) {
        const ir::Value* v = s.graph->inputs()[k];
        const QString file = k < folder->inputs.size() ? folder->inputs[k].dataFile : QString();
        bool ok = false;
        inputs[v->name] = readRawTensor(folder->dir + "/" + file, v->dtype, v->shape, &ok);
        if (!ok) return makeError(ErrorKind::External, "cannot read the export's sample input " + std::to_string(k));
    }
    // Pass/fail is judged against what the export computes (DeploymentPlan::referenceGraph):
    // the fused int8 arithmetic for quantized models, whose value names the layer dumps carry.
    const bool quantized = s.plan && s.plan->hasFusedQuantizedOps();
    reference::RunOptions ro;
    ro.captureAll = s.options.accuracyLayers;
    auto ref = reference::run(s.plan ? s.plan->referenceGraph(*s.graph) : *s.graph, inputs, ro);
    if (!ref) return ref.error();
    std::optional<reference::RunResult> qdq;
    if (quantized) {
        auto r = reference::run(*s.graph, inputs, {});
        if (!r) return r.error();
        qdq = std::move(*r);
    }
    QDir().mkpath(resultsDirOf(s, *folder));
    EMBARK_TRY(compareOutputs(s, *folder, *ref, qdq ? &*qdq : nullptr, c));
    if (!s.options.accuracyLayers) return {};
    std::map<std::string, ir::Tensor> boardValues;
    EMBARK_TRY(compareLayers(s, *folder, *ref, s.options.floatReference ? &boardValues : nullptr));
    if (s.options.floatReference) EMBARK_TRY(compareWithFloat(s, inputs, boardValues, c));
    return {};
}

namespace {

void fillFingerprint(PipelineState& s) {
    const BenchOptions& o = s.options;
    store::RunRecord& rec = s.result.record;
    rec.fingerprint.modelPath = QFileInfo(o.modelPath).absoluteFilePath().toStdString();
    rec.fingerprint.modelSha256 = s.graph->metadata.count("sha256") ? s.graph->metadata.at("sha256") : "";
    rec.fingerprint.exportHash = s.exported->exportHash;
    rec.fingerprint.boardId = s.board->id.toStdString();
    rec.fingerprint.kernelLibrary = o.library;
    rec.fingerprint.compiler = (s.toolchain->compiler + " (" + s.toolchain->id + ")").toStdString();
    rec.fingerprint.compilerFlags = ("-O3 " + s.board->cflags.join(' ')).toStdString();
    rec.fingerprint.threads = o.threads;
    rec.fingerprint.date = QDateTime::currentDateTimeUtc();
    rec.fingerprint.embarkVersion = EMBARK_VERSION;
    QJsonArray libs;
    for (const auto& l : s.exported->libraries) libs.append(QString::fromStdString(l));
    const QJsonObject extra{{"export_dir", s.exported->dir},
                            {"binary_bytes", s.built->binaryBytes},
                            {"elf", s.built->elfMachine},
                            {"arena_bytes", static_cast<qint64>(s.exported->arenaBytes)},
                            {"weights_bytes", static_cast<qint64>(s.exported->weightsBytes)},
                            {"libraries", libs},
                            {"partitions", s.exported->partitions},
                            {"iterations", o.iterations},
                            {"warmup", o.warmup},
                            {"affinity", o.affinity}};
    for (auto it = extra.begin(); it != extra.end(); ++it) rec.extra[it.key()] = it.value();
    for (auto it = o.extra.begin(); it != o.extra.end(); ++it) rec.extra[it.key()] = it.value();
    // The plan the export ran, node by node: two runs' plans are diffed from the store (#19).
    if (s.plan) rec.extra["plan"] = store::planToJson(storedPlan(*s.plan));
}

} // namespace

Status storeStep(PipelineState& s, StepContext& c) {
    fillFingerprint(s);
    store::RunRecord& rec = s.result.record;
    // The run's outcome on the board: the first step after the build that did not succeed.
    bool afterBuild = false;
    for (const StepOutcome& step : c.run->steps) {
        if (step.name == QLatin1String("store")) break;
        if (afterBuild && step.state != StepState::Succeeded) {
            rec.status = step.state == StepState::Cancelled ? store::RunStatus::Cancelled : store::RunStatus::Failed;
            rec.message =
                step.state == StepState::Cancelled ? "cancelled during " + step.name.toStdString() : step.message;
            c.log(QStringLiteral("run %1: %2")
                      .arg(QString::fromLatin1(store::runStatusName(rec.status)), QString::fromStdString(rec.message)));
            break;
        }
        afterBuild = afterBuild || step.name == QLatin1String("build");
    }
    return store::addRunAt(s.options.storePath, rec);
}

} // namespace embark::jobs

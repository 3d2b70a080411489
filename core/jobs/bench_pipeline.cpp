#include "bench_pipeline.h"

#include "build/export_builder.h"
#include "deploy/transport_factory.h"
#include "export/exporter.h"
#include "onnx/importer.h"
#include "reference/interpreter.h"
#include "store/run_store.h"
#include "targets/board.h"
#include "targets/toolchain.h"
#include "xnnpack/export_link.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QStandardPaths>

#include <atomic>
#include <cmath>

namespace embark::jobs {
namespace {

ir::Tensor readRawFloats(const QString& path, const ir::Shape& shape, bool* ok) {
    QFile f(path);
    *ok = false;
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = f.readAll();
    if (bytes.size() != shape.numel() * 4) return {};
    *ok = true;
    return ir::Tensor::fromBytes(ir::DType::Float32, shape, bytes.constData(), static_cast<size_t>(bytes.size()));
}

store::AccuracyEntry entry(const bench::Accuracy& a) {
    return store::AccuracyEntry{a.name, a.maxAbs, a.maxRel, a.rmse, a.cosine, a.snrDb};
}

std::string safe(const QString& s) {
    QString out;
    for (QChar c : s) out += c.isLetterOrNumber() || c == '-' || c == '_' ? c : QChar('_');
    return out.toStdString();
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

} // namespace

int firstDivergentLayer(const std::vector<LayerAccuracy>& layers) {
    double previous = 0;
    for (size_t i = 0; i < layers.size(); ++i) {
        const double rel = layers[i].accuracy.maxRel;
        if (std::isnan(rel) || (rel > 1e-4 && rel > 10 * std::max(previous, 1e-7))) return static_cast<int>(i);
        previous = rel;
    }
    return -1;
}

exporter::ExportOptions exportOptionsFor(const targets::Board& board, const targets::Toolchain& toolchain,
                                         const std::string& library,
                                         const std::map<std::string, std::string>& opOverrides,
                                         const std::map<std::string, std::string>& nodeOverrides) {
    exporter::ExportOptions eo;
    eo.library = library;
    eo.arch = board.arch.toStdString();
    eo.board = board.id.toStdString();
    eo.targetFlags = board.cflags.join(' ').toStdString();
    eo.toolchainFile = toolchain.file;
    eo.opOverrides = opOverrides;
    eo.nodeOverrides = nodeOverrides;
    const auto xnn = xnnpack::resolveXnnpack(board.arch, xnnpack::isaHasRvv(board.isa));
    eo.havePrebuiltXnnpack = xnn.found();
    eo.xnnpack = xnnpack::exportLink(xnn);
    return eo;
}

Expected<BenchResult> runBenchmark(const BenchOptions& o) {
    auto log = [&](const QString& line) {
        if (o.log) o.log(line);
    };
    auto step = [&](const char* name, int done) {
        if (o.progress) o.progress(QString::fromLatin1(name), done, 7);
        log(QStringLiteral("== %1").arg(QString::fromLatin1(name)));
    };
    auto cancelled = [&] { return o.cancel && o.cancel->load(); };
    const Error cancelError = makeError(ErrorKind::External, "cancelled");

    step("import", 0);
    onnx::ImportOptions io;
    io.shapeOverrides = o.shapeOverrides;
    auto graph = onnx::importModel(o.modelPath.toStdString(), io);
    if (!graph) return graph.error();
    auto board = targets::findBoard(o.boardId);
    if (!board) return board.error();
    targets::CompilerPreference pref = targets::CompilerPreference::Default;
    if (o.compiler == "gcc") pref = targets::CompilerPreference::Gcc;
    else if (o.compiler == "clang") pref = targets::CompilerPreference::Clang;
    auto toolchain = targets::toolchainFor(*board, pref);
    if (!toolchain) return toolchain.error();
    EMBARK_TRY(targets::checkAvailable(*toolchain));
    EMBARK_TRY(targets::checkRunnerAvailable(*board));

    step("export", 1);
    const QString work = o.workDir.isEmpty()
                             ? QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/bench"
                             : o.workDir;
    auto runFolder = makeRunFolder(work, QString::fromStdString(safe(QFileInfo(o.modelPath).completeBaseName())) +
                                             "-" + board->id + "-" + QString::fromStdString(o.library));
    if (!runFolder) return runFolder.error();
    const QString exportDir = *runFolder;
    exporter::ExportOptions eo = exportOptionsFor(*board, *toolchain, o.library, o.opOverrides, o.nodeOverrides);
    eo.sampleInputs = o.inputs;
    eo.outDir = exportDir;
    eo.force = true; // the folder is this run's own, made empty just above
    auto exported = exporter::exportModel(*graph, eo);
    if (!exported) return exported.error();
    // Refused before building: the board must hold the arena and the weights.
    EMBARK_TRY(targets::boardFits(*board, static_cast<qint64>(exported->arenaBytes), exported->weightsBytes));
    if (cancelled()) return cancelError;

    step("build", 2);
    build::BuildOptions bo;
    bo.exportDir = exportDir;
    bo.expectedArch = board->arch;
    bo.log = log;
    bo.cancel = o.cancel;
    auto built = build::buildExport(bo);
    if (!built) return built.error();

    BenchResult result;
    result.exportDir = exportDir;
    result.binary = built->binary;
    result.binaryBytes = built->binaryBytes;
    store::RunRecord& rec = result.record;
    rec.fingerprint.modelPath = QFileInfo(o.modelPath).absoluteFilePath().toStdString();
    rec.fingerprint.modelSha256 = graph->metadata.count("sha256") ? graph->metadata.at("sha256") : "";
    rec.fingerprint.exportHash = exported->exportHash;
    rec.fingerprint.boardId = board->id.toStdString();
    rec.fingerprint.kernelLibrary = o.library;
    rec.fingerprint.compiler = (toolchain->compiler + " (" + toolchain->id + ")").toStdString();
    rec.fingerprint.compilerFlags = ("-O3 " + board->cflags.join(' ')).toStdString();
    rec.fingerprint.threads = o.threads;
    rec.fingerprint.date = QDateTime::currentDateTimeUtc();
    rec.fingerprint.embarkVersion = EMBARK_VERSION;
    QJsonArray libs;
    for (const auto& l : exported->libraries) libs.append(QString::fromStdString(l));
    rec.extra = QJsonObject{{"export_dir", exportDir}, {"binary_bytes", built->binaryBytes}, {"elf", built->elfMachine},
                            {"arena_bytes", static_cast<qint64>(exported->arenaBytes)},
                            {"weights_bytes", static_cast<qint64>(exported->weightsBytes)},
                            {"libraries", libs}, {"partitions", exported->partitions}, {"iterations", o.iterations},
                            {"warmup", o.warmup}, {"affinity", o.affinity}};

    auto finish = [&](const std::string& failure) -> Expected<BenchResult> {
        if (!failure.empty()) {
            rec.status = store::RunStatus::Failed;
            rec.message = failure;
            log("run failed: " + QString::fromStdString(failure));
        }
        if (o.storePath != "-") {
            auto st = store::RunStore::open(o.storePath.isEmpty() ? store::RunStore::defaultPath() : o.storePath);
            if (!st) return st.error();
            auto id = (*st)->addRun(rec);
            if (!id) return id.error();
            rec.id = *id;
        }
        return result;
    };

    step("deploy", 3);
    auto transport = deploy::makeTransport(*board, o.ssh);
    if (Status s = transport->connect(); !s) return finish(s.error().message);
    auto runDir = transport->makeRunDir(QString::fromStdString(safe(QFileInfo(o.modelPath).completeBaseName())));
    if (!runDir) return finish(runDir.error().message);
    struct Cleanup {
        deploy::Transport* t;
        QString dir;
        ~Cleanup() { (void)t->removeRunDir(dir); }
    } cleanup{transport.get(), *runDir};
    if (Status s = transport->upload(built->binary, "run_export"); !s) return finish(s.error().message);
    const QString libDir = QFileInfo(built->binary).absolutePath() + "/lib";
    if (QFileInfo(libDir).isDir())
        if (Status s = transport->upload(libDir, "lib"); !s) return finish(s.error().message);
    if (cancelled()) return cancelError;

    step("run", 4);
    deploy::ExecRequest req;
    QStringList args{"--warmup", QString::number(o.warmup), "--iterations", QString::number(o.iterations), "--threads",
                     QString::number(o.threads), "--out", "out"};
    if (o.layers) args << "--layers";
    if (o.accuracyLayers) args << "--dump" << "dumps";
    if (!o.affinity.isEmpty()) {
        req.argv = QStringList{"taskset", "-c", o.affinity} + board->runner.execPrefix + QStringList{"./run_export"} + args;
        req.usePrefix = false;
    } else {
        req.argv = QStringList{"./run_export"} + args;
    }
    req.timeout = std::chrono::seconds(o.runTimeoutSeconds);
    req.cancel = o.cancel;
    QByteArray pending;
    req.onStdout = [&](const QByteArray& chunk) {
        pending += chunk;
        for (qsizetype nl; (nl = pending.indexOf('\n')) >= 0; pending.remove(0, nl + 1)) log(QString::fromUtf8(pending.left(nl)));
    };
    auto exec = transport->exec(req);
    if (!exec) return finish(exec.error().message);
    result.output = bench::parseRunOutput(exec->stdoutData);
    if (Status s = deploy::requireSuccess(*exec, board->id, "run_export"); !s) return finish(s.error().message);
    if (!result.output.haveMeta || result.output.latencyNs.empty())
        return finish("run_export printed no timings (output: " + exec->stdoutData.left(200).toStdString() + ")");
    rec.latencyNs = result.output.latencyNs;
    rec.latency = store::summarizeLatency(rec.latencyNs);
    result.medianLayers = result.output.medianLayers();
    for (const auto& l : result.medianLayers) rec.layers.push_back({l.node, l.lib, static_cast<double>(l.ns)});

    step("compare", 5);
    // The reference on the exact sample the export embeds (data/input_K.bin).
    std::map<std::string, ir::Tensor> inputs;
    for (size_t k = 0; k < graph->inputs().size(); ++k) {
        bool ok = false;
        const ir::Value* v = graph->inputs()[k];
        inputs[v->name] = readRawFloats(exportDir + QStringLiteral("/data/input_%1.bin").arg(k), v->shape, &ok);
        if (!ok) return finish("cannot read the export's sample input " + std::to_string(k));
    }
    reference::RunOptions ro;
    ro.captureAll = o.accuracyLayers;
    auto ref = reference::run(*graph, inputs, ro);
    if (!ref) return ref.error();
    const QString local = exportDir + "/results";
    QDir().mkpath(local);
    for (size_t k = 0; k < ref->outputs.size(); ++k) {
        const auto& name = ref->outputNames[k];
        const bench::OutputLine* line = nullptr;
        for (const auto& ol : result.output.outputs)
            if (ol.name == name) line = &ol;
        if (!line || line->file.empty()) return finish("run_export wrote no file for output '" + name + "'");
        const QString dst = local + "/output_" + QString::number(k) + ".bin";
        if (Status s = transport->download(QString::fromStdString(line->file), dst); !s) return finish(s.error().message);
        bool ok = false;
        const ir::Tensor got = readRawFloats(dst, ref->outputs[k].shape(), &ok);
        if (!ok) return finish("output '" + name + "' from the board has the wrong size");
        rec.outputAccuracy.push_back(entry(bench::compare(got, ref->outputs[k].castTo(ir::DType::Float32), name)));
    }
    if (o.accuracyLayers) {
        QFile manifest(exportDir + "/export.json");
        manifest.open(QIODevice::ReadOnly);
        const QJsonArray schedule = QJsonDocument::fromJson(manifest.readAll()).object().value("schedule").toArray();
        for (const bench::DumpLine& d : result.output.dumps) {
            if (d.layer < 0 || d.layer >= schedule.size()) continue;
            const QJsonObject node = schedule[d.layer].toObject();
            const std::string value = node.value("outputs").toArray().first().toObject().value("name").toString().toStdString();
            auto it = ref->values.find(value);
            if (it == ref->values.end()) continue; // an inserted layout conversion: no reference value
            const QString dst = local + "/dump_" + QString::number(d.layer) + ".bin";
            if (Status s = transport->download(QString::fromStdString(d.file), dst); !s) return finish(s.error().message);
            bool ok = false;
            const ir::Tensor got = readRawFloats(dst, it->second.shape(), &ok);
            if (!ok) continue;
            LayerAccuracy la{bench::compare(got, it->second.castTo(ir::DType::Float32), d.node), d.node, value};
            result.layerAccuracy.push_back(la);
            rec.layerAccuracy.push_back(entry(la.accuracy));
        }
        result.firstDivergentLayer = firstDivergentLayer(result.layerAccuracy);
        if (result.firstDivergentLayer >= 0)
            rec.extra["first_divergent_layer"] = QString::fromStdString(result.layerAccuracy[static_cast<size_t>(result.firstDivergentLayer)].node);
    }
    step("store", 6);
    return finish("");
}

} // namespace embark::jobs

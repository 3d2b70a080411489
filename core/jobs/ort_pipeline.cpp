// The ONNX Runtime recipe's steps (ort_pipeline.h).
#include "ort_pipeline.h"
#include "line_logger.h"

#include "bench/metrics.h"
#include "deploy/transport_factory.h"
#include "export/exporter.h"
#include "onnx/tensor_io.h"
#include "reference/interpreter.h"
#include "store/run_store.h"

#include <onnx/onnx_pb.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QThread>

#include <fstream>
#include <set>

namespace embark::jobs {
namespace {

Error external(const QString& m) { return makeError(ErrorKind::External, m.toStdString()); }

QString safeName(const QString& s) {
    QString out;
    for (QChar ch : s) out += ch.isLetterOrNumber() || ch == '-' || ch == '_' ? ch : QChar('_');
    return out;
}

store::AccuracyEntry entry(const bench::Accuracy& a) {
    return store::AccuracyEntry{a.name, a.maxAbs, a.maxRel, a.rmse, a.cosine, a.snrDb};
}

// The external data files a model's initializers (and Constant nodes) point at, relative to
// its folder.
Expected<QStringList> externalDataFiles(const QString& modelPath) {
    ::onnx::ModelProto model;
    std::ifstream in(modelPath.toStdString(), std::ios::binary);
    if (!in || !model.ParseFromIstream(&in))
        return external(QStringLiteral("cannot read '%1' as an ONNX model").arg(modelPath));
    std::set<QString> files;
    auto add = [&](const ::onnx::TensorProto& t) {
        if (t.data_location() != ::onnx::TensorProto::EXTERNAL) return;
        for (const auto& kv : t.external_data())
            if (kv.key() == "location") files.insert(QString::fromStdString(kv.value()));
    };
    for (const auto& t : model.graph().initializer()) add(t);
    for (const auto& n : model.graph().node())
        for (const auto& a : n.attribute())
            if (a.has_t()) add(a.t());
    QStringList out;
    for (const QString& f : files) {
        if (f.startsWith('/') || f.split('/').contains(".."))
            return makeError(ErrorKind::InvalidInput, QStringLiteral("'%1' points at external data '%2' outside its folder")
                                                          .arg(modelPath, f).toStdString());
        out << f;
    }
    return out;
}

// The node names of a subgraph model the EP dumped (SPACEMIT_EP_DUMP_SUBGRAPHS): the nodes it
// compiled. Read as protobuf only: an EP's subgraph may hold its own op types.
QStringList subgraphNodes(const QString& path) {
    ::onnx::ModelProto model;
    std::ifstream in(path.toStdString(), std::ios::binary);
    QStringList names;
    if (!in || !model.ParseFromIstream(&in)) return names;
    for (const auto& n : model.graph().node()) names << QString::fromStdString(n.name());
    return names;
}

// Copies src to dst through a temporary name (no half-written file under the final name).
Status copyInto(const QString& src, const QString& dst) {
    QDir().mkpath(QFileInfo(dst).absolutePath());
    const QString tmp = dst + ".part";
    QFile::remove(tmp);
    if (!QFile::copy(src, tmp) || !QFile::rename(tmp, dst)) {
        QFile::remove(tmp);
        return external(QStringLiteral("cannot copy '%1' to '%2'").arg(src, dst));
    }
    return {};
}

Error cancelled(const char* when) { return makeError(ErrorKind::External, std::string("cancelled ") + when); }

// Runs a local command (npm) with its output in the log; cancel kills it.
Status runLocal(const QString& program, const QStringList& args, const QString& dir, const QStringList& env,
                StepContext& c, int timeoutSeconds) {
    QProcess p;
    p.setProgram(program);
    p.setArguments(args);
    p.setWorkingDirectory(dir);
    p.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env) e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    p.setProcessEnvironment(e);
    p.start();
    if (!p.waitForStarted(30000)) return external(QStringLiteral("cannot start %1: %2").arg(program, p.errorString()));
    LineLogger logger{c.log, {}};
    QElapsedTimer timer;
    timer.start();
    QByteArray all;
    while (!p.waitForFinished(200)) {
        const QByteArray chunk = p.readAll();
        all += chunk;
        logger(chunk);
        if (c.cancelled() || timer.elapsed() > qint64(timeoutSeconds) * 1000) {
            p.kill();
            p.waitForFinished(5000);
            return c.cancelled() ? cancelled("during npm install")
                                 : external(QStringLiteral("%1 did not finish in %2 s").arg(program).arg(timeoutSeconds));
        }
    }
    const QByteArray rest = p.readAll();
    all += rest;
    logger(rest);
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return external(QStringLiteral("%1 %2 failed (status %3): %4")
                            .arg(program, args.join(' '))
                            .arg(p.exitCode())
                            .arg(QString::fromUtf8(all.right(600)).trimmed()));
    return {};
}

QString installedVersion(const QString& nodeDir) {
    QFile f(nodeDir + "/node_modules/onnxruntime-node/package.json");
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object().value("version").toString();
}

// "1.30.0" satisfies "1.30" (and any later version); an npm range is left to npm.
bool versionSatisfies(const QString& installed, const QString& wanted) {
    static const QRegularExpression plain(QStringLiteral("^[0-9]+(\\.[0-9]+)*$"));
    if (wanted.isEmpty() || !plain.match(wanted).hasMatch()) return !installed.isEmpty();
    const QStringList a = installed.split('.'), b = wanted.split('.');
    for (int i = 0; i < b.size(); ++i) {
        const int x = i < a.size() ? a[i].toInt() : 0, y = b[i].toInt();
        if (x != y) return x > y;
    }
    return true;
}

// Runs a command on the board without the exec prefix; errors name the board.
Expected<deploy::ExecResult> execOnBoard(PipelineState& s, StepContext& c, const QStringList& argv,
                                         const QStringList& env = {}, bool streamLog = false) {
    deploy::ExecRequest req;
    req.argv = argv;
    req.environment = env;
    req.usePrefix = false;
    req.timeout = std::chrono::seconds(s.options.runTimeoutSeconds);
    req.cancel = c.cancel;
    LineLogger logger{c.log, {}};
    if (streamLog) {
        req.onStdout = [&](const QByteArray& chunk) { logger(chunk); };
        req.onStderr = [&](const QByteArray& chunk) { logger(chunk); };
    }
    return s.transport->exec(req);
}

ir::Tensor readRaw(const QString& path, ir::DType dtype, const ir::Shape& shape, bool* ok) {
    QFile f(path);
    *ok = false;
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = f.readAll();
    if (bytes.size() != static_cast<qsizetype>(shape.numel() * static_cast<int64_t>(ir::dtypeSize(dtype)))) return {};
    *ok = true;
    return ir::Tensor::fromBytes(dtype, shape, bytes.constData(), static_cast<size_t>(bytes.size()));
}

ir::DType dtypeFromRunner(const QString& name) {
    if (name == "int64") return ir::DType::Int64;
    if (name == "int32") return ir::DType::Int32;
    if (name == "uint8" || name == "bool") return ir::DType::UInt8;
    if (name == "int8") return ir::DType::Int8;
    return ir::DType::Float32;
}

} // namespace


QString ortRunnerScript() { return exporter::defaultRuntimeDir() + "/ort/ort_run.js"; }

Status ortResolveStep(PipelineState& s, StepContext& c) {
    auto board = targets::findBoard(s.options.boardId);
    if (!board) return board.error();
    if (!board->onnxruntime) {
        QStringList with;
        for (const targets::Board& b : targets::loadBoards().boards)
            if (b.onnxruntime) with << b.id;
        return makeError(ErrorKind::Usage,
                         QStringLiteral("board '%1' has no ONNX Runtime (%2): boards with one: %3; or add an "
                                        "\"onnxruntime\" object to the board file (docs/onnxruntime.md)")
                             .arg(board->id, board->sourceFile, with.isEmpty() ? QStringLiteral("none") : with.join(", "))
                             .toStdString());
    }
    auto ort = std::make_shared<OrtRunState>();
    ort->runtime = *board->onnxruntime;
    if (ort->runtime.ep != "spacemit" && !s.options.epOptions.isEmpty())
        return makeError(ErrorKind::Usage,
                         QStringLiteral("--ep-option sets SpacemiT EP options, but board '%1' runs ONNX Runtime's %2 "
                                        "provider")
                             .arg(board->id, ort->runtime.ep)
                             .toStdString());
    auto ep = targets::parseEpOptions(s.options.epOptions, s.options.threads);
    if (!ep) return ep.error();
    if (ort->runtime.ep == "spacemit") {
        ort->epOptions = *ep;
        if (s.options.accuracyLayers) ort->epOptions["SPACEMIT_EP_DUMP_TENSORS"] = "1";
        c.log(QStringLiteral("SPACEMIT_EP_INTRA_THREAD_NUM=%1: Embark sets the EP's thread number explicitly (ORT's "
                             "intra-op threads alone would start twice as many compute threads)")
                  .arg(ort->epOptions["SPACEMIT_EP_INTRA_THREAD_NUM"]));
    }
    s.board = *board;
    s.ort = ort;
    c.log(QStringLiteral("runtime: %1 on %2").arg(ort->runtime.describe(), board->id));
    return {};
}

Status ortToolsStep(PipelineState& s, StepContext& c) {
    OrtRunState& o = *s.ort;
    if (!o.runtime.isNode()) return {}; // SpacemiT-ORT is checked on the board (deploy)
    if (QStandardPaths::findExecutable("node").isEmpty() || QStandardPaths::findExecutable("npm").isEmpty())
        return external("ONNX Runtime on the host needs Node.js and npm (node and npm are not on PATH): run "
                        "scripts/install-deps.sh or install them (apt install nodejs npm)");
    if (!QFileInfo::exists(ortRunnerScript()))
        return external(QStringLiteral("Embark's ONNX Runtime runner is missing: %1 (set EMBARK_RUNTIME_DIR to Embark's "
                                       "resources/runtime folder)")
                            .arg(ortRunnerScript()));
    o.nodeDir = targets::ortNodeInstallDir(o.runtime);
    const QString wanted = targets::npmPackageVersion(o.runtime.node);
    QString have = installedVersion(o.nodeDir);
    if (!have.isEmpty() && versionSatisfies(have, wanted)) {
        o.version = "onnxruntime-node " + have;
        c.log(QStringLiteral("%1 in %2").arg(o.version, o.nodeDir));
        return {};
    }
    // Installed into a fresh folder, then renamed: an interrupted install leaves no half package.
    c.log(QStringLiteral("installing %1 into %2 (npm)").arg(o.runtime.node, o.nodeDir));
    const QString partial = o.nodeDir + ".partial-" + QString::number(QCoreApplication::applicationPid());
    QDir(partial).removeRecursively();
    if (!QDir().mkpath(partial)) return external("cannot create " + partial);
    const Status st = runLocal("npm", {"install", "--no-audit", "--no-fund", "--no-save", o.runtime.node}, partial,
                               {"ONNXRUNTIME_NODE_INSTALL=skip"}, c, 900);
    if (!st) {
        QDir(partial).removeRecursively();
        return external(QStringLiteral("cannot install %1 with npm into %2: %3").arg(o.runtime.node, o.nodeDir,
                                                                                     QString::fromStdString(st.error().message)));
    }
    have = installedVersion(partial);
    if (have.isEmpty() || !versionSatisfies(have, wanted)) {
        QDir(partial).removeRecursively();
        return external(QStringLiteral("npm installed no usable %1 (found '%2')").arg(o.runtime.node, have));
    }
    QDir(o.nodeDir).removeRecursively();
    if (!QDir().rename(partial, o.nodeDir)) {
        QDir(partial).removeRecursively();
        return external("cannot move the installed package to " + o.nodeDir);
    }
    o.version = "onnxruntime-node " + have;
    return {};
}

Status ortPrepareStep(PipelineState& s, StepContext& c) {
    OrtRunState& o = *s.ort;
    const QString label = safeName(QFileInfo(s.options.modelPath).completeBaseName());
    auto dir = makeRunFolder(s.options, label + "-" + s.board->id + "-onnxruntime");
    if (!dir) return dir.error();
    o.dir = *dir;
    const QString model = o.dir + "/model";
    EMBARK_TRY(copyInto(s.options.modelPath, model + "/model.onnx"));
    auto externals = externalDataFiles(s.options.modelPath);
    if (!externals) return externals.error();
    const QString srcDir = QFileInfo(s.options.modelPath).absolutePath();
    for (const QString& f : *externals) EMBARK_TRY(copyInto(srcDir + "/" + f, model + "/" + f));
    if (!externals->isEmpty()) c.log(QStringLiteral("external data: %1").arg(externals->join(", ")));

    // The bundle: the export's sample (or --input) and the reference's outputs for it.
    const auto inputs = exporter::exportSampleInputs(*s.graph, s.options.inputs);
    reference::RunOptions ro;
    ro.captureAll = s.options.accuracyLayers;
    auto ref = reference::run(*s.graph, inputs, ro);
    if (!ref) return ref.error();
    std::vector<onnx::NamedTensor> ins, outs;
    for (const ir::Value* v : s.graph->inputs()) ins.push_back({v->name, inputs.at(v->name)});
    for (size_t k = 0; k < ref->outputs.size(); ++k) outs.push_back({ref->outputNames[k], ref->outputs[k]});
    EMBARK_TRY(onnx::writeTestDataSet((model + "/test_data_set_0").toStdString(), ins, outs));
    o.outputNames = ref->outputNames;
    o.referenceOutputs = ref->outputs;
    o.referenceValues = std::move(ref->values);
    QDir().mkpath(o.dir + "/results");
    c.log(QStringLiteral("bundle: %1 (model.onnx, test_data_set_0)").arg(model));
    return {};
}

Status ortDeployStep(PipelineState& s, StepContext& c) {
    OrtRunState& o = *s.ort;
    s.transport = deploy::makeTransport(*s.board, s.options.ssh);
    EMBARK_TRY(s.transport->connect());
    c.log(QStringLiteral("connected to %1").arg(s.transport->describe()));
    if (!o.runtime.isNode()) {
        // The runtime folder first: a missing one is the usual first problem on a new board.
        const QString perfTest = targets::perfTestPath(o.runtime);
        auto dirCheck = execOnBoard(s, c, {"test", "-d", o.runtime.root});
        if (!dirCheck) return dirCheck.error();
        if (!dirCheck->succeeded())
            return external(QStringLiteral("board '%1': the ONNX Runtime folder %2 (\"onnxruntime\".\"root\" in %3) does "
                                           "not exist on the board: %4")
                                .arg(s.board->id, o.runtime.root, s.board->sourceFile, targets::spacemitOrtHelp()));
        auto toolCheck = execOnBoard(s, c, {"test", "-x", perfTest});
        if (!toolCheck) return toolCheck.error();
        if (!toolCheck->succeeded())
            return external(QStringLiteral("board '%1': %2 is missing or not executable, so %3 is not an unpacked "
                                           "SpacemiT-ORT release (it needs bin/onnxruntime_perf_test and lib/): %4")
                                .arg(s.board->id, perfTest, o.runtime.root, targets::spacemitOrtHelp()));
        o.version = QStringLiteral("SpacemiT-ORT (%1)").arg(o.runtime.root);
    }
    auto runDir = s.transport->makeRunDir(safeName(QFileInfo(s.options.modelPath).completeBaseName()) + "-ort");
    if (!runDir) return runDir.error();
    s.runDir = *runDir; // removed with the state, whatever happens
    c.progress(0, 2);
    EMBARK_TRY(s.transport->upload(o.dir + "/model", "model"));
    if (o.runtime.isNode()) EMBARK_TRY(s.transport->upload(ortRunnerScript(), "ort_run.js"));
    c.progress(2, 2);
    if (c.cancelled()) return cancelled("after the upload");
    return {};
}

namespace {

Status runNode(PipelineState& s, StepContext& c) {
    OrtRunState& o = *s.ort;
    const BenchOptions& opt = s.options;
    QStringList argv{"node", "ort_run.js", "model", "--threads", QString::number(opt.threads), "--warmup",
                     QString::number(opt.warmup), "--iterations", QString::number(opt.iterations), "--out", "out"};
    if (opt.layers) argv << "--profile" << "ort_profile";
    if (!opt.affinity.isEmpty()) argv = QStringList{"taskset", "-c", opt.affinity} + argv;
    auto exec = execOnBoard(s, c, argv, {"NODE_PATH=" + o.nodeDir + "/node_modules"});
    if (!exec) return exec.error();
    o.runnerOutput = exec->stdoutData;
    s.runStdout = exec->stdoutData;
    const bench::RunOutput parsed = bench::parseRunOutput(exec->stdoutData); // latency lines
    if (!parsed.error.empty())
        return external(QStringLiteral("ONNX Runtime on board '%1': %2").arg(s.board->id, QString::fromStdString(parsed.error)));
    EMBARK_TRY(deploy::requireSuccess(*exec, s.board->id, "ort_run.js"));
    if (parsed.latencyNs.empty())
        return external("ort_run.js printed no timings (output: " + QString::fromUtf8(exec->stdoutData.left(300)) + ")");
    store::RunRecord& rec = s.result.record;
    rec.latencyNs = parsed.latencyNs;
    rec.latency = store::summarizeLatency(rec.latencyNs);
    for (const QByteArray& line : exec->stdoutData.split('\n')) {
        const QJsonObject j = QJsonDocument::fromJson(line).object();
        if (j.value("type") == QLatin1String("profile")) {
            o.profileFile = o.dir + "/results/ort_profile.json";
            EMBARK_TRY(s.transport->download(j.value("file").toString(), o.profileFile));
        } else if (j.value("type") == QLatin1String("meta") && !j.value("version").toString().isEmpty()) {
            o.version = "onnxruntime-node " + j.value("version").toString();
        }
    }
    return {};
}

// The files the run left in the board's run folder (relative paths), for the EP's dumps.
Expected<QStringList> listRunFolder(PipelineState& s, StepContext& c) {
    auto exec = execOnBoard(s, c, {"find", ".", "-type", "f"});
    if (!exec) return exec.error();
    EMBARK_TRY(deploy::requireSuccess(*exec, s.board->id, "find"));
    QStringList files;
    for (const QByteArray& l : exec->stdoutData.split('\n')) {
        QString f = QString::fromUtf8(l).trimmed();
        if (f.startsWith("./")) f = f.mid(2);
        if (!f.isEmpty() && !f.startsWith("model/") && !f.contains(".embark-")) files << f;
    }
    files.sort();
    return files;
}

Status runSpacemit(PipelineState& s, StepContext& c) {
    OrtRunState& o = *s.ort;
    const BenchOptions& opt = s.options;
    const QStringList env = targets::runtimeEnvironment(o.runtime, o.epOptions);
    c.log("environment: " + env.join(' '));
    targets::PerfTestRequest q;
    q.model = "model/model.onnx";
    q.iterations = opt.iterations;
    q.threads = opt.threads;
    q.concurrent = 1;
    if (opt.layers) q.profilePrefix = "ort_profile";
    QStringList argv = targets::perfTestArgv(o.runtime, q);
    if (!opt.affinity.isEmpty()) argv = QStringList{"taskset", "-c", opt.affinity} + argv;
    c.log(argv.join(' '));
    auto exec = execOnBoard(s, c, argv, env, true);
    if (!exec) return exec.error();
    s.runStdout = exec->stdoutData;
    o.perf = bench::parsePerfTestOutput(exec->stdoutData + "\n" + exec->stderrData);
    if (!exec->succeeded() || !o.perf.complete()) {
        // The runtime's own message (an EP that rejects the model says why) comes first.
        const QString why = !o.perf.error.empty() ? QString::fromStdString(o.perf.error)
                                                  : QString::fromUtf8((exec->stderrData + exec->stdoutData).right(600)).trimmed();
        if (!exec->succeeded()) {
            const Status st = deploy::requireSuccess(*exec, s.board->id, "onnxruntime_perf_test");
            return external(QStringLiteral("onnxruntime_perf_test failed on board '%1': %2 (%3)")
                                .arg(s.board->id, why, QString::fromStdString(st.error().message)));
        }
        return external(QStringLiteral("onnxruntime_perf_test printed no statistics on board '%1' (was -s honoured?): %2")
                            .arg(s.board->id, why));
    }
    store::RunRecord& rec = s.result.record;
    const bench::PerfTestStats& p = o.perf;
    rec.latency.count = p.requests.value_or(p.runs.value_or(opt.iterations));
    rec.latency.minNs = *p.minS * 1e9;
    rec.latency.maxNs = *p.maxS * 1e9;
    rec.latency.medianNs = *p.p50S * 1e9;
    rec.latency.meanNs = *p.averageMs * 1e6;
    rec.latency.p90Ns = *p.p90S * 1e9;
    // perf_test prints no samples: the median's interval is the sample range (conservative).
    rec.latency.ci95LowNs = rec.latency.minNs;
    rec.latency.ci95HighNs = rec.latency.maxNs;

    // Pass/fail over the bundle.
    auto runner = execOnBoard(s, c, targets::testRunnerArgv(o.runtime, "model"), env, true);
    if (!runner && c.cancelled()) return runner.error();
    if (runner) o.testRunner = bench::parseTestRunnerOutput(runner->stdoutData + "\n" + runner->stderrData);
    if (!runner) {
        o.testRunnerProblem = QStringLiteral("onnx_test_runner did not run: %1").arg(QString::fromStdString(runner.error().message));
        c.log(o.testRunnerProblem);
    } else if (!o.testRunner.parsed) {
        // No summary (a missing or crashing onnx_test_runner): the latency still stands; the
        // verdict is recorded as unknown with the tool's own words.
        const Status st = deploy::requireSuccess(*runner, s.board->id, "onnx_test_runner");
        o.testRunnerProblem = st ? QStringLiteral("onnx_test_runner printed no summary: %1")
                                       .arg(QString::fromUtf8((runner->stderrData + runner->stdoutData).right(300)).trimmed())
                                 : QString::fromStdString(st.error().message);
        c.log(o.testRunnerProblem);
    } else {
        c.log(QStringLiteral("onnx_test_runner: %1").arg(o.testRunner.passed() ? QStringLiteral("passed") : QStringLiteral("FAILED")));
    }

    // What the run left: ORT's profile, the EP's profile, subgraphs, tensor dumps.
    auto files = listRunFolder(s, c);
    if (!files) return files.error();
    o.remoteFiles = *files;
    const QString epProfile = o.epOptions.count("SPACEMIT_EP_DEBUG_PROFILE") ? o.epOptions.at("SPACEMIT_EP_DEBUG_PROFILE") : QString();
    const bool subgraphs = o.epOptions.count("SPACEMIT_EP_DUMP_SUBGRAPHS") && o.epOptions.at("SPACEMIT_EP_DUMP_SUBGRAPHS") == "1";
    const bool dumps = o.epOptions.count("SPACEMIT_EP_DUMP_TENSORS") && o.epOptions.at("SPACEMIT_EP_DUMP_TENSORS") == "1";
    for (const QString& f : o.remoteFiles) {
        const QString base = QFileInfo(f).fileName();
        const QString local = o.dir + "/results/" + f;
        if (q.profilePrefix.size() && base.startsWith(q.profilePrefix) && base.endsWith(".json") && o.profileFile.isEmpty()) {
            o.profileFile = local;
        } else if (!epProfile.isEmpty() && (f == epProfile || base.startsWith(QFileInfo(epProfile).completeBaseName())) &&
                   base.endsWith(".json") && o.epProfileFile.isEmpty()) {
            o.epProfileFile = local;
        } else if (subgraphs && base.endsWith(".onnx")) {
            o.subgraphFiles << local;
        } else if (dumps && base.endsWith(".npy")) {
            o.dumpFiles << local;
        } else {
            continue;
        }
        EMBARK_TRY(s.transport->download(f, local));
        if (c.cancelled()) return cancelled("while downloading the run's files");
    }
    return {};
}

} // namespace

Status ortRunStep(PipelineState& s, StepContext& c) {
    return s.ort->runtime.isNode() ? runNode(s, c) : runSpacemit(s, c);
}

namespace {

Status compareNodeOutputs(PipelineState& s) {
    OrtRunState& o = *s.ort;
    std::map<std::string, QJsonObject> lines;
    for (const QByteArray& line : o.runnerOutput.split('\n')) {
        const QJsonObject j = QJsonDocument::fromJson(line).object();
        if (j.value("type") == QLatin1String("output")) lines[j.value("name").toString().toStdString()] = j;
    }
    for (size_t k = 0; k < o.outputNames.size(); ++k) {
        const std::string& name = o.outputNames[k];
        auto it = lines.find(name);
        if (it == lines.end()) return external(QStringLiteral("ort_run.js wrote no file for output '%1'").arg(QString::fromStdString(name)));
        const QString dst = o.dir + "/results/output_" + QString::number(k) + ".bin";
        EMBARK_TRY(s.transport->download(it->second.value("file").toString(), dst));
        const ir::Tensor& ref = o.referenceOutputs[k];
        bool ok = false;
        const ir::Tensor got = readRaw(dst, dtypeFromRunner(it->second.value("dtype").toString()), ref.shape(), &ok);
        if (!ok) return external(QStringLiteral("output '%1' from ONNX Runtime has the wrong size").arg(QString::fromStdString(name)));
        s.result.record.outputAccuracy.push_back(
            entry(bench::compare(got.castTo(ir::DType::Float32), ref.castTo(ir::DType::Float32), name)));
    }
    return {};
}

// The EP's .npy dumps against the reference's values: a dump named after a value (or its
// file-name-safe form) is compared with it, in graph order.
void compareDumps(PipelineState& s, StepContext& c) {
    OrtRunState& o = *s.ort;
    std::map<QString, QString> byName; // safe(name) -> local file
    for (const QString& f : o.dumpFiles) byName[safeName(QFileInfo(f).completeBaseName())] = f;
    BenchResult& result = s.result;
    for (const ir::Node* n : s.graph->nodes())
        for (const ir::Value* v : n->outputs()) {
            if (!v) continue;
            auto file = byName.find(safeName(QString::fromStdString(v->name)));
            auto ref = o.referenceValues.find(v->name);
            if (file == byName.end() || ref == o.referenceValues.end()) continue;
            auto got = onnx::readNpy(file->second.toStdString());
            if (!got) {
                c.log(QStringLiteral("skipping %1: %2").arg(file->second, QString::fromStdString(got.error().message)));
                continue;
            }
            LayerAccuracy la{bench::compare(got->castTo(ir::DType::Float32), ref->second.castTo(ir::DType::Float32), n->name),
                             n->name, v->name};
            result.layerAccuracy.push_back(la);
            result.record.layerAccuracy.push_back(entry(la.accuracy));
            for (size_t k = 0; k < o.outputNames.size(); ++k)
                if (o.outputNames[k] == v->name) {
                    store::AccuracyEntry e = entry(la.accuracy);
                    e.name = v->name;
                    result.record.outputAccuracy.push_back(e);
                }
        }
    result.firstDivergentLayer = firstDivergentLayer(result.layerAccuracy);
    if (result.firstDivergentLayer >= 0)
        result.record.extra["first_divergent_layer"] =
            QString::fromStdString(result.layerAccuracy[static_cast<size_t>(result.firstDivergentLayer)].node);
    c.log(QStringLiteral("tensor dumps: %1 downloaded, %2 compared with the reference").arg(o.dumpFiles.size()).arg(result.layerAccuracy.size()));
}

Status readProfile(PipelineState& s, StepContext& c, const QString& file, int skipRuns, std::vector<bench::OrtLayer>* out) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return external("cannot read the profile " + file);
    auto profile = bench::parseOrtProfile(f.readAll());
    if (!profile) return external(QStringLiteral("%1: %2").arg(file, QString::fromStdString(profile.error().message)));
    *out = bench::ortLayers(*profile, skipRuns);
    bench::mapToGraph(*out, *s.graph);
    int mapped = 0;
    for (const auto& l : *out) mapped += l.nodes.empty() ? 0 : 1;
    c.log(QStringLiteral("profile %1: %2 ORT nodes over %3 runs, %4 mapped to the graph")
              .arg(QFileInfo(file).fileName())
              .arg(out->size())
              .arg(profile->runDurUs.size())
              .arg(mapped));
    return {};
}

} // namespace

Status ortCompareStep(PipelineState& s, StepContext& c) {
    OrtRunState& o = *s.ort;
    BenchResult& result = s.result;
    if (o.runtime.isNode()) EMBARK_TRY(compareNodeOutputs(s));
    else if (!o.dumpFiles.isEmpty()) compareDumps(s, c);
    if (!o.epProfileFile.isEmpty()) {
        // The EP's own profile: its events mapped the same way, kept beside ORT's.
        if (Status st = readProfile(s, c, o.epProfileFile, 0, &o.epLayers); !st)
            c.log(QString::fromStdString(st.error().message));
    }
    if (!o.profileFile.isEmpty()) {
        // Node's runner profiles its warm-up runs too; perf_test runs one warm-up run first.
        EMBARK_TRY(readProfile(s, c, o.profileFile, o.runtime.isNode() ? s.options.warmup : 1, &o.layers));
        int index = 0;
        for (const bench::OrtLayer& l : o.layers) {
            const std::string node = l.nodes.empty() ? l.ortName : l.nodes.front();
            const std::string lib = bench::providerLabel(l.provider);
            result.medianLayers.push_back({0, index++, node, lib, static_cast<int64_t>(l.medianNs)});
            result.record.layers.push_back({node, lib, l.medianNs});
        }
    }
    return {};
}

namespace {

QJsonArray layersJson(const std::vector<bench::OrtLayer>& layers) {
    QJsonArray a;
    for (const bench::OrtLayer& l : layers) {
        QJsonArray nodes;
        for (const std::string& n : l.nodes) nodes.append(QString::fromStdString(n));
        a.append(QJsonObject{{"ort", QString::fromStdString(l.ortName)}, {"op", QString::fromStdString(l.op)},
                             {"provider", QString::fromStdString(l.provider)}, {"median_ns", l.medianNs},
                             {"nodes", nodes}, {"mapped_by", QString::fromStdString(l.how)}});
    }
    return a;
}

QJsonObject perfJson(const bench::PerfTestStats& p) {
    QJsonObject o;
    auto put = [&](const char* key, const std::optional<double>& v, double scale) {
        if (v) o[key] = *v * scale;
    };
    put("average_ns", p.averageMs, 1e6);
    put("min_ns", p.minS, 1e9);
    put("max_ns", p.maxS, 1e9);
    put("p50_ns", p.p50S, 1e9);
    put("p90_ns", p.p90S, 1e9);
    put("p95_ns", p.p95S, 1e9);
    put("p99_ns", p.p99S, 1e9);
    put("p999_ns", p.p999S, 1e9);
    put("session_creation_ns", p.sessionCreationS, 1e9);
    put("first_inference_ns", p.firstInferenceMs, 1e6);
    put("avg_cpu_percent", p.avgCpuPercent, 1);
    if (p.peakWorkingSetBytes) o["peak_working_set_bytes"] = static_cast<qint64>(*p.peakWorkingSetBytes);
    return o;
}

// Average, min, max and percentiles of the runner's samples (nearest rank, as perf_test).
QJsonObject samplesJson(std::vector<int64_t> v) {
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (int64_t x : v) sum += static_cast<double>(x);
    auto at = [&](double q) { return static_cast<double>(v[std::min(v.size() - 1, static_cast<size_t>(v.size() * q))]); };
    return QJsonObject{{"average_ns", sum / static_cast<double>(v.size())}, {"min_ns", double(v.front())},
                       {"max_ns", double(v.back())}, {"p50_ns", at(0.5)}, {"p90_ns", at(0.9)},
                       {"p95_ns", at(0.95)}, {"p99_ns", at(0.99)}, {"p999_ns", at(0.999)}};
}

} // namespace

Status ortStoreStep(PipelineState& s, StepContext& c) {
    const BenchOptions& opt = s.options;
    OrtRunState& o = *s.ort;
    store::RunRecord& rec = s.result.record;
    rec.fingerprint.modelPath = QFileInfo(opt.modelPath).absoluteFilePath().toStdString();
    rec.fingerprint.modelSha256 = s.graph && s.graph->metadata.count("sha256") ? s.graph->metadata.at("sha256") : "";
    rec.fingerprint.boardId = s.board->id.toStdString();
    rec.fingerprint.kernelLibrary = "onnxruntime";
    rec.fingerprint.compiler = (o.version.isEmpty() ? o.runtime.describe() : o.version).toStdString();
    rec.fingerprint.compilerFlags = ("ep=" + o.runtime.ep).toStdString();
    rec.fingerprint.threads = opt.threads;
    rec.fingerprint.date = QDateTime::currentDateTimeUtc();
    rec.fingerprint.embarkVersion = EMBARK_VERSION;
    QJsonObject latency = o.runtime.isNode() ? samplesJson(rec.latencyNs) : perfJson(o.perf);
    // The subgraphs the EP compiled and the nodes in each (the rest fell back to the CPU provider).
    QJsonArray subgraphs;
    int epNodes = 0;
    for (const QString& f : o.subgraphFiles) {
        const QStringList nodes = subgraphNodes(f);
        epNodes += static_cast<int>(nodes.size());
        subgraphs.append(QJsonObject{{"file", f}, {"nodes", QJsonArray::fromStringList(nodes)}});
    }
    const QJsonObject extra{{"runtime", "onnxruntime"},
                            {"ep", o.runtime.ep},
                            {"ort_version", o.version},
                            {"ort_location", o.runtime.isNode() ? o.runtime.node : o.runtime.root},
                            {"ep_options", targets::epOptionsJson(o.epOptions)},
                            {"ort_latency", latency},
                            {"ort_layers", layersJson(o.layers)},
                            {"ort_profile", o.profileFile},
                            {"ep_profile", o.epProfileFile},
                            {"subgraphs", subgraphs},
                            {"subgraph_count", static_cast<int>(o.subgraphFiles.size())},
                            {"subgraph_nodes", epNodes},
                            {"ep_layers", layersJson(o.epLayers)},
                            {"work_dir", o.dir},
                            {"iterations", opt.iterations},
                            {"warmup", o.runtime.isNode() ? opt.warmup : 1},
                            {"affinity", opt.affinity}};
    for (auto it = extra.begin(); it != extra.end(); ++it) rec.extra[it.key()] = it.value();
    if (!o.runtime.isNode() && o.testRunner.parsed)
        rec.extra["test_runner"] = QJsonObject{{"passed", o.testRunner.passed()}, {"total", o.testRunner.total},
                                               {"succeeded", o.testRunner.succeeded}, {"failed", o.testRunner.failed},
                                               {"not_implemented", o.testRunner.notImplemented}};
    else if (!o.testRunnerProblem.isEmpty())
        rec.extra["test_runner"] = QJsonObject{{"passed", QJsonValue()}, {"message", o.testRunnerProblem}};
    // The run's outcome on the board: the first step from deploy on that did not succeed.
    bool onBoard = false;
    for (const StepOutcome& step : c.run->steps) {
        if (step.name == QLatin1String("store")) break;
        onBoard = onBoard || step.name == QLatin1String("deploy");
        if (onBoard && step.state != StepState::Succeeded) {
            rec.status = step.state == StepState::Cancelled ? store::RunStatus::Cancelled : store::RunStatus::Failed;
            rec.message = step.state == StepState::Cancelled ? "cancelled during " + step.name.toStdString() : step.message;
            c.log(QStringLiteral("run %1: %2").arg(QString::fromLatin1(store::runStatusName(rec.status)),
                                                  QString::fromStdString(rec.message)));
            break;
        }
    }
    if (rec.status == store::RunStatus::Ok && !o.runtime.isNode() && o.testRunner.parsed && !o.testRunner.passed()) {
        rec.status = store::RunStatus::Failed;
        rec.message = QStringLiteral("onnx_test_runner -e %1: %2 of %3 test case(s) failed, %4 not implemented")
                          .arg(o.runtime.ep)
                          .arg(o.testRunner.failed)
                          .arg(o.testRunner.total)
                          .arg(o.testRunner.notImplemented)
                          .toStdString();
    }
    if (opt.storePath == "-") return {};
    auto st = store::RunStore::open(opt.storePath.isEmpty() ? store::RunStore::defaultPath() : opt.storePath);
    if (!st) return st.error();
    auto id = (*st)->addRun(rec);
    if (!id) return id.error();
    rec.id = *id;
    return {};
}

Recipe ortBenchRecipe() {
    return {
        {"resolve", {}, ortResolveStep},
        {"import", {}, importStep},
        {"ort-tools", {"resolve"}, ortToolsStep},
        {"ort-prepare", {"resolve", "import"}, ortPrepareStep},
        {"deploy", {"ort-prepare", "ort-tools"}, ortDeployStep},
        {"run", {"deploy"}, ortRunStep},
        {"compare", {"run"}, ortCompareStep},
        {"store", {"ort-prepare"}, ortStoreStep, /*always=*/true},
    };
}

Expected<BenchResult> runOrtBenchmark(const BenchOptions& options) {
    PipelineState state;
    state.options = options;
    const RecipeRun run = runRecipe(ortBenchRecipe(), state, {options.stepStarted, options.progress, options.log});
    const StepOutcome* store = run.outcome(QStringLiteral("store"));
    if (store->state == StepState::Failed) return *store->error;
    if (store->state != StepState::Succeeded) return *run.firstError; // failed before the board ran
    BenchResult result = std::move(state.result);
    result.exportDir = state.ort->dir;
    return result;
}

} // namespace embark::jobs

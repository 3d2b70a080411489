// The ONNX Runtime recipe's steps (ort_pipeline.h): resolve, tools, prepare and deploy here;
// run in ort_run_step.cpp; compare and store in ort_results.cpp.
#include "ort_pipeline.h"
#include "line_logger.h"
#include "pipeline_detail.h"

#include "deploy/transport_factory.h"
#include "export/exporter.h"
#include "onnx/tensor_io.h"
#include "reference/interpreter.h"

#include <onnx/onnx_pb.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <fstream>
#include <set>

namespace embark::jobs {
namespace detail {

// Runs a command on the board without the exec prefix; errors name the board.
Expected<deploy::ExecResult> execOnBoard(PipelineState& s, StepContext& c, const QStringList& argv,
                                         const QStringList& env, bool streamLog) {
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

} // namespace detail

namespace {

using detail::cancelled;
using detail::execOnBoard;
using detail::external;
using detail::safeName;

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
            return makeError(
                ErrorKind::InvalidInput,
                QStringLiteral("'%1' points at external data '%2' outside its folder").arg(modelPath, f).toStdString());
        out << f;
    }
    return out;
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
            return c.cancelled()
                       ? cancelled("during npm install")
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

} // namespace

QString ortRunnerScript() { return exporter::defaultRuntimeDir() + "/ort/ort_run.js"; }

Status ortResolveStep(PipelineState& s, StepContext& c) {
    auto board = targets::findBoard(s.options.boardId);
    if (!board) return board.error();
    if (!board->onnxruntime) {
        QStringList with;
        for (const targets::Board& b : targets::loadBoards().boards)
            if (b.onnxruntime) with << b.id;
        return makeError(
            ErrorKind::Usage,
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
        return external(
            QStringLiteral("Embark's ONNX Runtime runner is missing: %1 (set EMBARK_RUNTIME_DIR to Embark's "
                           "runtime folder)")
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
        return external(QStringLiteral("cannot install %1 with npm into %2: %3")
                            .arg(o.runtime.node, o.nodeDir, QString::fromStdString(st.error().message)));
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
            return external(
                QStringLiteral("board '%1': the ONNX Runtime folder %2 (\"onnxruntime\".\"root\" in %3) does "
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

// The ONNX Runtime recipe's run step (ort_pipeline.h): Embark's runner under Node.js on the
// host, or onnxruntime_perf_test, onnx_test_runner and the EP's dumps on a SpacemiT-ORT board.
#include "ort_pipeline.h"
#include "pipeline_detail.h"

#include "store/run_store.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace embark::jobs {
namespace {

using detail::cancelled;
using detail::execOnBoard;
using detail::external;

Status runNode(PipelineState& s, StepContext& c) {
    OrtRunState& o = *s.ort;
    const BenchOptions& opt = s.options;
    QStringList argv{"node",
                     "ort_run.js",
                     "model",
                     "--threads",
                     QString::number(opt.threads),
                     "--warmup",
                     QString::number(opt.warmup),
                     "--iterations",
                     QString::number(opt.iterations),
                     "--out",
                     "out"};
    if (opt.layers)
        argv << "--profile"
             << "ort_profile";
    if (!opt.affinity.isEmpty()) argv = QStringList{"taskset", "-c", opt.affinity} + argv;
    auto exec = execOnBoard(s, c, argv, {"NODE_PATH=" + o.nodeDir + "/node_modules"});
    if (!exec) return exec.error();
    o.runnerOutput = exec->stdoutData;
    s.runStdout = exec->stdoutData;
    const bench::RunOutput parsed = bench::parseRunOutput(exec->stdoutData); // latency lines
    if (!parsed.error.empty())
        return external(
            QStringLiteral("ONNX Runtime on board '%1': %2").arg(s.board->id, QString::fromStdString(parsed.error)));
    EMBARK_TRY(deploy::requireSuccess(*exec, s.board->id, "ort_run.js"));
    if (parsed.latencyNs.empty())
        return external("ort_run.js printed no timings (output: " + QString::fromUtf8(exec->stdoutData.left(300)) +
                        ")");
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
        const QString why = !o.perf.error.empty()
                                ? QString::fromStdString(o.perf.error)
                                : QString::fromUtf8((exec->stderrData + exec->stdoutData).right(600)).trimmed();
        if (!exec->succeeded()) {
            const Status st = deploy::requireSuccess(*exec, s.board->id, "onnxruntime_perf_test");
            return external(QStringLiteral("onnxruntime_perf_test failed on board '%1': %2 (%3)")
                                .arg(s.board->id, why, QString::fromStdString(st.error().message)));
        }
        return external(
            QStringLiteral("onnxruntime_perf_test printed no statistics on board '%1' (was -s honoured?): %2")
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
        o.testRunnerProblem =
            QStringLiteral("onnx_test_runner did not run: %1").arg(QString::fromStdString(runner.error().message));
        c.log(o.testRunnerProblem);
    } else if (!o.testRunner.parsed) {
        // No summary (a missing or crashing onnx_test_runner): the latency still stands; the
        // verdict is recorded as unknown with the tool's own words.
        const Status st = deploy::requireSuccess(*runner, s.board->id, "onnx_test_runner");
        o.testRunnerProblem =
            st ? QStringLiteral("onnx_test_runner printed no summary: %1")
                     .arg(QString::fromUtf8((runner->stderrData + runner->stdoutData).right(300)).trimmed())
               : QString::fromStdString(st.error().message);
        c.log(o.testRunnerProblem);
    } else {
        c.log(QStringLiteral("onnx_test_runner: %1")
                  .arg(o.testRunner.passed() ? QStringLiteral("passed") : QStringLiteral("FAILED")));
    }

    // What the run left: ORT's profile, the EP's profile, subgraphs, tensor dumps.
    auto files = listRunFolder(s, c);
    if (!files) return files.error();
    o.remoteFiles = *files;
    const QString epProfile =
        o.epOptions.count("SPACEMIT_EP_DEBUG_PROFILE") ? o.epOptions.at("SPACEMIT_EP_DEBUG_PROFILE") : QString();
    const bool subgraphs =
        o.epOptions.count("SPACEMIT_EP_DUMP_SUBGRAPHS") && o.epOptions.at("SPACEMIT_EP_DUMP_SUBGRAPHS") == "1";
    const bool dumps =
        o.epOptions.count("SPACEMIT_EP_DUMP_TENSORS") && o.epOptions.at("SPACEMIT_EP_DUMP_TENSORS") == "1";
    for (const QString& f : o.remoteFiles) {
        const QString base = QFileInfo(f).fileName();
        const QString local = o.dir + "/results/" + f;
        if (q.profilePrefix.size() && base.startsWith(q.profilePrefix) && base.endsWith(".json") &&
            o.profileFile.isEmpty()) {
            o.profileFile = local;
        } else if (!epProfile.isEmpty() &&
                   (f == epProfile || base.startsWith(QFileInfo(epProfile).completeBaseName())) &&
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

} // namespace embark::jobs

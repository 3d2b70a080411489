// The ONNX Runtime recipe's compare and store steps (ort_pipeline.h): outputs or the EP's
// tensor dumps against the reference, the profiles mapped onto the graph, the run stored.
#include "ort_pipeline.h"
#include "pipeline_detail.h"

#include "onnx/tensor_io.h"
#include "store/run_store.h"

#include <onnx/onnx_pb.h>

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <fstream>

namespace embark::jobs {
namespace {

using detail::accuracyEntry;
using detail::external;
using detail::readRawTensor;
using detail::safeName;

ir::DType dtypeFromRunner(const QString& name) {
    if (name == "int64") return ir::DType::Int64;
    if (name == "int32") return ir::DType::Int32;
    if (name == "uint8" || name == "bool") return ir::DType::UInt8;
    if (name == "int8") return ir::DType::Int8;
    return ir::DType::Float32;
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
        if (it == lines.end())
            return external(
                QStringLiteral("ort_run.js wrote no file for output '%1'").arg(QString::fromStdString(name)));
        const QString dst = o.dir + "/results/output_" + QString::number(k) + ".bin";
        EMBARK_TRY(s.transport->download(it->second.value("file").toString(), dst));
        const ir::Tensor& ref = o.referenceOutputs[k];
        bool ok = false;
        const ir::Tensor got =
            readRawTensor(dst, dtypeFromRunner(it->second.value("dtype").toString()), ref.shape(), &ok);
        if (!ok)
            return external(
                QStringLiteral("output '%1' from ONNX Runtime has the wrong size").arg(QString::fromStdString(name)));
        s.result.record.outputAccuracy.push_back(
            accuracyEntry(bench::compare(got.castTo(ir::DType::Float32), ref.castTo(ir::DType::Float32), name)));
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
            LayerAccuracy la{
                bench::compare(got->castTo(ir::DType::Float32), ref->second.castTo(ir::DType::Float32), n->name),
                n->name, v->name};
            result.layerAccuracy.push_back(la);
            result.record.layerAccuracy.push_back(accuracyEntry(la.accuracy));
            for (size_t k = 0; k < o.outputNames.size(); ++k)
                if (o.outputNames[k] == v->name) {
                    store::AccuracyEntry e = accuracyEntry(la.accuracy);
                    e.name = v->name;
                    result.record.outputAccuracy.push_back(e);
                }
        }
    result.firstDivergentLayer = firstDivergentLayer(result.layerAccuracy);
    if (result.firstDivergentLayer >= 0)
        result.record.extra["first_divergent_layer"] =
            QString::fromStdString(result.layerAccuracy[static_cast<size_t>(result.firstDivergentLayer)].node);
    c.log(QStringLiteral("tensor dumps: %1 downloaded, %2 compared with the reference")
              .arg(o.dumpFiles.size())
              .arg(result.layerAccuracy.size()));
}

Status readProfile(PipelineState& s, StepContext& c, const QString& file, int skipRuns,
                   std::vector<bench::OrtLayer>* out) {
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
    if (o.runtime.isNode())
        EMBARK_TRY(compareNodeOutputs(s));
    else if (!o.dumpFiles.isEmpty())
        compareDumps(s, c);
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
        a.append(QJsonObject{{"ort", QString::fromStdString(l.ortName)},
                             {"op", QString::fromStdString(l.op)},
                             {"provider", QString::fromStdString(l.provider)},
                             {"median_ns", l.medianNs},
                             {"nodes", nodes},
                             {"mapped_by", QString::fromStdString(l.how)}});
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

// Average, min, max and percentiles of the runner's samples, by the same quantile as the run's
// latency statistics, so its p50 is the median and its p90 the p90 printed beside it.
QJsonObject samplesJson(std::vector<int64_t> v) {
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (int64_t x : v) sum += static_cast<double>(x);
    // Linear interpolation between closest ranks, as store::summarizeLatency computes the run's
    // median and p90 (nearest rank, perf_test's, gave a p90 that was the slowest of 10 samples).
    auto at = [&](double q) {
        const double h = static_cast<double>(v.size() - 1) * q;
        const size_t lo = static_cast<size_t>(h);
        const size_t hi = std::min(lo + 1, v.size() - 1);
        return static_cast<double>(v[lo]) + (h - static_cast<double>(lo)) * static_cast<double>(v[hi] - v[lo]);
    };
    return QJsonObject{{"average_ns", sum / static_cast<double>(v.size())},
                       {"min_ns", double(v.front())},
                       {"max_ns", double(v.back())},
                       {"p50_ns", at(0.5)},
                       {"p90_ns", at(0.9)},
                       {"p95_ns", at(0.95)},
                       {"p99_ns", at(0.99)},
                       {"p999_ns", at(0.999)}};
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
        rec.extra["test_runner"] = QJsonObject{{"passed", o.testRunner.passed()},
                                               {"total", o.testRunner.total},
                                               {"succeeded", o.testRunner.succeeded},
                                               {"failed", o.testRunner.failed},
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
            rec.message =
                step.state == StepState::Cancelled ? "cancelled during " + step.name.toStdString() : step.message;
            c.log(QStringLiteral("run %1: %2")
                      .arg(QString::fromLatin1(store::runStatusName(rec.status)), QString::fromStdString(rec.message)));
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
    return store::addRunAt(opt.storePath, rec);
}

} // namespace embark::jobs

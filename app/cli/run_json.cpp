#include "run_json.h"

#include "jobs/bench_pipeline.h"
#include "targets/board.h"

#include <cmath>

namespace embark::cli {
namespace {

QJsonValue number(double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(); }

} // namespace

bool isEmulatedBoard(const QString& id) {
    if (auto board = targets::findBoard(id)) return board->isSimulated();
    return id.startsWith(QLatin1String("sim-"));
}

QJsonObject withSchema(QJsonObject o) {
    o.insert("schema", QString::fromLatin1(kJsonSchema));
    return o;
}

QJsonObject latencyJson(const store::LatencyStats& s) {
    return {{"count", qint64(s.count)}, {"min_ns", s.minNs},
            {"median_ns", s.medianNs},  {"mean_ns", s.meanNs},
            {"p90_ns", s.p90Ns},        {"max_ns", s.maxNs},
            {"stdev_ns", s.stdevNs},    {"ci95_ns", QJsonArray{s.ci95LowNs, s.ci95HighNs}}};
}

QJsonArray accuracyJson(const std::vector<store::AccuracyEntry>& entries) {
    QJsonArray a;
    for (const store::AccuracyEntry& e : entries)
        a.append(QJsonObject{{"name", QString::fromStdString(e.name)},
                             {"max_abs", number(e.maxAbs)},
                             {"max_rel", number(e.maxRel)},
                             {"rmse", number(e.rmse)},
                             {"cosine", number(e.cosine)},
                             {"snr_db", number(e.snrDb)}});
    return a;
}

QJsonObject runJson(const store::RunRecord& rec) {
    const store::RunFingerprint& f = rec.fingerprint;
    // A run not stored (bench --db -) has its samples but no statistics yet.
    QJsonObject latency = latencyJson(
        rec.latency.empty() && !rec.latencyNs.empty() ? store::summarizeLatency(rec.latencyNs) : rec.latency);
    QJsonArray samples;
    for (int64_t s : rec.latencyNs) samples.append(static_cast<qint64>(s));
    latency["samples_ns"] = samples;

    QJsonObject accuracy{{"outputs", accuracyJson(rec.outputAccuracy)}, {"layers", accuracyJson(rec.layerAccuracy)}};
    // The same rule as the benchmark's report (jobs::firstDivergentLayer), from the stored figures.
    std::vector<jobs::LayerAccuracy> layerAcc;
    for (const store::AccuracyEntry& e : rec.layerAccuracy) {
        jobs::LayerAccuracy l;
        l.accuracy.maxRel = e.maxRel;
        l.node = e.name;
        layerAcc.push_back(l);
    }
    if (const int first = jobs::firstDivergentLayer(layerAcc); first >= 0)
        accuracy["first_divergent_layer"] = QString::fromStdString(layerAcc[static_cast<size_t>(first)].node);
    for (const char* key : {"quantization_error", "float_reference"})
        if (rec.extra.contains(key)) accuracy[key] = rec.extra[key];

    QJsonArray layers;
    int index = 0;
    for (const store::LayerTiming& t : rec.layers)
        layers.append(QJsonObject{{"index", index++},
                                  {"name", QString::fromStdString(t.node)},
                                  {"lib", QString::fromStdString(t.lib)},
                                  {"median_ns", t.ns}});

    return withSchema({
        {"run_id", static_cast<qint64>(rec.id)},
        {"status", store::runStatusName(rec.status)},
        {"message", QString::fromStdString(rec.message)},
        {"model", QString::fromStdString(f.modelPath)},
        {"model_sha256", QString::fromStdString(f.modelSha256)},
        {"board", QString::fromStdString(f.boardId)},
        // Wall-clock times of a qemu-user board measure the emulation, not the board.
        {"emulated", isEmulatedBoard(QString::fromStdString(f.boardId))},
        {"runtime", rec.extra.value("runtime").toString(QStringLiteral("export"))},
        {"lib", QString::fromStdString(f.kernelLibrary)},
        {"compiler", QString::fromStdString(f.compiler)},
        {"flags", QString::fromStdString(f.compilerFlags)},
        {"threads", f.threads},
        {"date", f.date.toString(Qt::ISODateWithMs)},
        {"embark_version", QString::fromStdString(f.embarkVersion)},
        {"export_hash", QString::fromStdString(f.exportHash)},
        {"latency", latency},
        {"accuracy", accuracy},
        {"layers", layers},
        {"extra", rec.extra},
    });
}

} // namespace embark::cli

#include "run_charts.h"

#include "jobs/bench_pipeline.h"
#include "store/run_record.h"

#include <QFileInfo>

namespace embark::ui {

RunCharts runChartsFromRecord(const store::RunRecord& record) {
    RunCharts run;
    const store::RunFingerprint& f = record.fingerprint;
    run.label = QStringLiteral("%1 on %2 (%3)")
                    .arg(QFileInfo(QString::fromStdString(f.modelPath)).completeBaseName(),
                         QString::fromStdString(f.boardId), QString::fromStdString(f.kernelLibrary));
    if (record.id > 0) run.label = QStringLiteral("#%1 ").arg(record.id) + run.label;
    for (int64_t ns : record.latencyNs) run.latenciesMs.push_back(double(ns) / 1e6);
    for (const store::LayerTiming& l : record.layers)
        run.layers.push_back({QString::fromStdString(l.node), QString::fromStdString(l.lib), l.ns / 1e6});
    for (const store::AccuracyEntry& a : record.layerAccuracy)
        run.accuracy.push_back({QString::fromStdString(a.name), a.cosine, a.snrDb, a.maxRel});
    run.firstDivergentNode = record.extra.value(QStringLiteral("first_divergent_layer")).toString();
    return run;
}

RunCharts runChartsFromBench(const jobs::BenchResult& result) {
    RunCharts run = runChartsFromRecord(result.record);
    if (result.firstDivergentLayer >= 0 && size_t(result.firstDivergentLayer) < result.layerAccuracy.size())
        run.firstDivergentNode = QString::fromStdString(result.layerAccuracy[size_t(result.firstDivergentLayer)].node);
    return run;
}

} // namespace embark::ui

#include "run_charts.h"

#include "export/export_folder.h"
#include "jobs/bench_pipeline.h"
#include "store/run_record.h"

#include <QFileInfo>

#include <map>

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
        run.layers.push_back({QString::fromStdString(l.node), QString::fromStdString(l.lib), l.ns / 1e6, QString()});
    for (const store::AccuracyEntry& a : record.layerAccuracy)
        run.accuracy.push_back({QString::fromStdString(a.name), a.cosine, a.snrDb, a.maxRel});
    run.modelPath = QString::fromStdString(f.modelPath);
    run.runId = record.id;
    run.boardId = QString::fromStdString(f.boardId);
    run.library = QString::fromStdString(f.kernelLibrary);
    run.date = f.date;
    run.firstDivergentNode = record.extra.value(QStringLiteral("first_divergent_layer")).toString();
    run.partitions = partitionsFromExtra(record.extra);
    return run;
}

RunCharts runChartsFromBench(const jobs::BenchResult& result) {
    RunCharts run = runChartsFromRecord(result.record);
    // The export's manifest knows each layer's ONNX op (and which are layout conversions).
    if (auto folder = exporter::ExportFolder::open(result.exportDir); folder.ok()) {
        std::map<QString, QString> ops;
        for (const exporter::ExportLayer& l : folder->schedule)
            ops[QString::fromStdString(l.name)] = QString::fromStdString(l.op);
        for (LayerTiming& l : run.layers)
            if (auto it = ops.find(l.node); it != ops.end()) l.op = it->second;
    }
    if (result.firstDivergentLayer >= 0 && size_t(result.firstDivergentLayer) < result.layerAccuracy.size())
        run.firstDivergentNode = QString::fromStdString(result.layerAccuracy[size_t(result.firstDivergentLayer)].node);
    return run;
}

} // namespace embark::ui

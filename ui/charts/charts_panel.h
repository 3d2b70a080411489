// The charts of a run in tabs: per-layer timing, per-layer accuracy, latency distribution
// and run comparison. Fed with plain data; clicks on a layer select the node. Empty charts say
// how to fill them; clearForModel() empties what belongs to another model.
#pragma once

#include "chart_data.h"
#include "graph/graph_partitions.h"

#include <QDateTime>
#include <optional>
#include <QWidget>

class QTabWidget;

namespace embark::ui {

class LatencyChart;
class LayerAccuracyChart;
class LayerTimingChart;
class RunComparisonChart;

// One benchmarked run as the charts consume it.
struct RunCharts {
    QString label;
    std::vector<double> latenciesMs;
    std::vector<LayerTiming> layers;
    std::vector<LayerAccuracy> accuracy;
    // The layer the benchmark found diverging first; empty = the chart applies its own rule.
    QString firstDivergentNode;
    QString modelPath; // the model the run is of; empty = unknown
    // Which run it is, where it ran and when (id 0: not stored; empty/invalid: unknown).
    qint64 runId = 0;
    QString boardId;
    QString library;
    QDateTime date;
    // Where an ONNX Runtime run ran each node (its EP subgraphs); not valid for other runs.
    RunPartitions partitions;
};

// What a banner says the charts and the graph colours show, in the interface language:
// "run #7 · resnet18 · sim-k230 · portable · 6 Dec 2026 10:42" (unknown parts left out).
QString runBannerText(const RunCharts& run);
// True when `a` and `b` name the same model file (absolute or canonical paths).
bool sameModelPath(const QString& a, const QString& b);

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget* parent = nullptr);
    void showRun(const RunCharts& run);
    void compareRuns(const std::vector<RunSeries>& runs);
    // The model of the run shown, and of the runs compared (empty = none or unknown).
    QString runModel() const { return m_runModel; }
    // The run shown (null when none), for the banner.
    const RunCharts* shownRun() const { return m_shown ? &*m_shown : nullptr; }

    QTabWidget* tabs() const { return m_tabs; }
    LayerTimingChart* timing() const { return m_timing; }
    LayerAccuracyChart* accuracy() const { return m_accuracy; }
    LatencyChart* latency() const { return m_latency; }
    RunComparisonChart* comparison() const { return m_comparison; }

public slots:
    // A model was opened: empties the run charts and the comparison unless they are of
    // `modelPath` (a run or comparison of the model just opened stays). Connect it to the
    // session's model change.
    void clearForModel(const QString& modelPath);
    // Empties every chart (each shows its hint again).
    void clear();

signals:
    // A layer's bar or point was clicked: select that node in the graph.
    void nodeClicked(const QString& node);
    // A run's charts are shown (the graph colours its nodes by the run's layer times), or
    // every chart was emptied.
    void runShown(const embark::ui::RunCharts& run);
    void cleared();

private:
    QTabWidget* m_tabs;
    LayerTimingChart* m_timing;
    LayerAccuracyChart* m_accuracy;
    LatencyChart* m_latency;
    RunComparisonChart* m_comparison;
    QString m_runModel;
    std::optional<RunCharts> m_shown;
};

} // namespace embark::ui

// The charts of a run in tabs: per-layer timing, per-layer accuracy, latency distribution
// and run comparison. Fed with plain data; clicks on a layer select the node.
#pragma once

#include "chart_data.h"

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
};

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget* parent = nullptr);
    void showRun(const RunCharts& run);
    void compareRuns(const std::vector<RunSeries>& runs);

    QTabWidget* tabs() const { return m_tabs; }
    LayerTimingChart* timing() const { return m_timing; }
    LayerAccuracyChart* accuracy() const { return m_accuracy; }
    LatencyChart* latency() const { return m_latency; }
    RunComparisonChart* comparison() const { return m_comparison; }

signals:
    void nodeClicked(const QString& node);

private:
    QTabWidget* m_tabs;
    LayerTimingChart* m_timing;
    LayerAccuracyChart* m_accuracy;
    LatencyChart* m_latency;
    RunComparisonChart* m_comparison;
};

} // namespace embark::ui

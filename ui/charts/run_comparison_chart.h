// Two or more runs side by side: mean total latency with its 95% confidence interval, or the
// per-layer time difference of each run against the first one (the baseline), as horizontal
// rows that scroll, with the legend below the plot. Runs of different models carry a warning.
#pragma once

#include "chart_data.h"
#include "chart_widget.h"

class QComboBox;
class QLabel;
class QCPBarsGroup;

namespace embark::ui {

class RunComparisonChart : public ChartWidget {
    Q_OBJECT
public:
    enum class Mode { Totals, LayerDeltas };
    explicit RunComparisonChart(QWidget* parent = nullptr);
    // The first run is the baseline the others are compared with.
    void setRuns(std::vector<RunSeries> runs);
    const std::vector<RunSeries>& runs() const { return m_runs; }
    void setMode(Mode mode);
    int runCount() const { return int(m_runs.size()); }
    // Why the comparison may mislead (runs of different models), empty = none.
    QString warning() const;
    // Run `run`'s speed-up against the baseline (mean latency ratio, > 1 = faster; 0 = none)
    // and how the chart writes it ("1.83× faster", "1.25× slower").
    double speedUp(int run) const;
    QString speedUpText(int run) const;
    // Layer names of the per-layer delta rows, top to bottom.
    QStringList deltaRows() const { return m_deltaRows; }

    QString toolTipAt(const QPointF& pos) const override;
    QString toCsv() const override;
    bool hasData() const override { return !m_runs.empty(); }

protected:
    void rebuild() override;

private:
    void drawTotals();
    void drawLayerDeltas();

    std::vector<RunSeries> m_runs;
    QStringList m_deltaRows;
    QComboBox* m_mode;
    QLabel* m_warning;
    QCPBarsGroup* m_group; // per-layer bars of three or more runs side by side
};

} // namespace embark::ui

// Two or more runs side by side: mean total latency with its 95% confidence interval, or the
// per-layer time difference of each run against the first one.
#pragma once

#include "chart_data.h"
#include "chart_widget.h"

class QComboBox;

namespace embark::ui {

class RunComparisonChart : public ChartWidget {
    Q_OBJECT
public:
    enum class Mode { Totals, LayerDeltas };
    explicit RunComparisonChart(QWidget* parent = nullptr);
    void setRuns(std::vector<RunSeries> runs);
    void setMode(Mode mode);
    int runCount() const { return int(m_runs.size()); }

    QString toCsv() const override;
    bool hasData() const override { return !m_runs.empty(); }

protected:
    void rebuild() override;

private:
    void drawTotals();
    void drawLayerDeltas();

    std::vector<RunSeries> m_runs;
    QComboBox* m_mode;
};

} // namespace embark::ui

// The latency distribution of one run: a histogram of the iterations with the median and
// 90th percentile marked.
#pragma once

#include "chart_widget.h"

#include <vector>

namespace embark::ui {

class LatencyChart : public ChartWidget {
    Q_OBJECT
public:
    explicit LatencyChart(QWidget* parent = nullptr);
    void setSamples(std::vector<double> latenciesMs);
    // Iterations counted in each bin (for tests: they sum to the number of samples).
    std::vector<int> binCounts() const { return m_counts; }

    QString toCsv() const override;
    bool hasData() const override { return !m_samples.empty(); }

protected:
    void rebuild() override;

private:
    std::vector<double> m_samples;
    std::vector<int> m_counts;
};

} // namespace embark::ui

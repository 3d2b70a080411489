#include "latency_chart.h"

#include "chart_data.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace embark::ui {

LatencyChart::LatencyChart(QWidget* parent) : ChartWidget(parent) {
    setWindowTitle(tr("Latency distribution"));
    plot()->xAxis->setLabel(tr("latency (ms)"));
    plot()->yAxis->setLabel(tr("iterations"));
    setPlaceholderText(tr("Run a benchmark (F5) to see how the latency varies over the iterations."));
    rebuild();
}

void LatencyChart::setSamples(std::vector<double> latenciesMs) {
    m_samples = std::move(latenciesMs);
    rebuild();
}

void LatencyChart::rebuild() {
    plot()->clearPlottables();
    plot()->clearItems();
    m_counts.clear();
    if (m_samples.empty()) {
        plot()->replot();
        return;
    }
    const auto [minIt, maxIt] = std::minmax_element(m_samples.begin(), m_samples.end());
    const double lo = *minIt, hi = *maxIt;
    // Square-root rule, 5..40 bins: enough shape without one bar per sample.
    const int bins = std::clamp(int(std::sqrt(double(m_samples.size()))), 5, 40);
    const double width = hi > lo ? (hi - lo) / bins : 1.0;
    m_counts.assign(bins, 0);
    for (double s : m_samples) ++m_counts[std::min(bins - 1, int((s - lo) / width))];
    auto* bars = new QCPBars(plot()->xAxis, plot()->yAxis);
    bars->setWidth(width * 0.9);
    const QColor fill = palette().color(QPalette::Highlight);
    bars->setBrush(fill);
    bars->setPen(QPen(fill.darker(130)));
    int top = 0;
    for (int b = 0; b < bins; ++b) {
        bars->addData(lo + width * (b + 0.5), m_counts[b]);
        top = std::max(top, m_counts[b]);
    }
    plot()->xAxis->setRange(lo - width, hi + width);
    plot()->yAxis->setRange(0, top * 1.15 + 1);
    const QColor text = palette().color(QPalette::Text);
    auto mark = [&](double x, const QString& label, Qt::PenStyle style) {
        auto* line = new QCPItemStraightLine(plot());
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        line->setPen(QPen(text, 1.5, style));
        auto* t = new QCPItemText(plot());
        t->position->setCoords(x, top * 1.1 + 0.5);
        t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        t->setColor(text);
        t->setText(label);
    };
    const double median = percentile(m_samples, 0.5), p90 = percentile(m_samples, 0.9);
    mark(median, tr(" median %1 ms").arg(median, 0, 'f', 3), Qt::SolidLine);
    if (p90 > median) mark(p90, tr(" p90 %1 ms").arg(p90, 0, 'f', 3), Qt::DashLine);
    plot()->replot();
}

QString LatencyChart::toCsv() const {
    QString csv = QStringLiteral("iteration,ms\n");
    for (size_t i = 0; i < m_samples.size(); ++i) csv += QStringLiteral("%1,%2\n").arg(i).arg(m_samples[i], 0, 'g', 12);
    return csv;
}

} // namespace embark::ui

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
    // Drawn in the unit the slowest sample reads best in (µs for a tiny model).
    const auto [minIt, maxIt] = std::minmax_element(m_samples.begin(), m_samples.end());
    const TimeUnit unit = timeUnitFor(*maxIt);
    plot()->xAxis->setLabel(tr("latency (%1)").arg(unit.symbol));
    const double lo = *minIt * unit.perMs, hi = *maxIt * unit.perMs;
    // Square-root rule, 5..40 bins: enough shape without one bar per sample.
    const int bins = std::clamp(int(std::sqrt(double(m_samples.size()))), 5, 40);
    const double width = hi > lo ? (hi - lo) / bins : 1.0;
    m_counts.assign(bins, 0);
    for (double s : m_samples) ++m_counts[std::min(bins - 1, int((s * unit.perMs - lo) / width))];
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
    auto mark = [&](double x, const QString& label, Qt::PenStyle style, double labelY) {
        auto* line = new QCPItemStraightLine(plot());
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        line->setPen(QPen(text, 1.5, style));
        auto* t = new QCPItemText(plot());
        t->position->setCoords(x, labelY);
        // Right of its line in the left half, left of it in the right half: never cut at an edge.
        const bool rightHalf = x > (lo + hi) / 2;
        t->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
        t->setColor(text);
        t->setText(rightHalf ? label + QLatin1Char(' ') : QLatin1Char(' ') + label);
    };
    const double median = percentile(m_samples, 0.5), p90 = percentile(m_samples, 0.9);
    // The two labels on their own lines, so close values never overlap.
    mark(median * unit.perMs, tr("median %1").arg(formatTime(median, unit)), Qt::SolidLine, top * 1.1 + 0.5);
    if (p90 > median) mark(p90 * unit.perMs, tr("p90 %1").arg(formatTime(p90, unit)), Qt::DashLine, top * 0.95 + 0.3);
    plot()->replot();
}

QString LatencyChart::toCsv() const {
    QString csv = QStringLiteral("iteration,ms\n");
    for (size_t i = 0; i < m_samples.size(); ++i) csv += QStringLiteral("%1,%2\n").arg(i).arg(m_samples[i], 0, 'g', 12);
    return csv;
}

} // namespace embark::ui

#include "run_comparison_chart.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>

#include <map>

namespace embark::ui {

namespace {

QColor runColor(int i, const QPalette& palette) {
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    return QColor::fromHsl((210 + i * 67) % 360, 140, dark ? 110 : 150);
}

} // namespace

RunComparisonChart::RunComparisonChart(QWidget* parent) : ChartWidget(parent) {
    setWindowTitle(tr("Run comparison"));
    m_mode = new QComboBox(this);
    m_mode->addItem(tr("Total latency (mean, 95% CI)"));
    m_mode->addItem(tr("Per-layer delta against the first run"));
    controls()->addWidget(new QLabel(tr("Show:"), this));
    controls()->addWidget(m_mode);
    controls()->addStretch();
    connect(m_mode, &QComboBox::currentIndexChanged, this, &RunComparisonChart::rebuild);
}

void RunComparisonChart::setRuns(std::vector<RunSeries> runs) {
    m_runs = std::move(runs);
    rebuild();
}

void RunComparisonChart::setMode(Mode mode) { m_mode->setCurrentIndex(int(mode)); }

void RunComparisonChart::rebuild() {
    plot()->clearPlottables();
    plot()->legend->clearItems();
    plot()->legend->setVisible(false);
    if (Mode(m_mode->currentIndex()) == Mode::Totals) drawTotals();
    else drawLayerDeltas();
    plot()->replot();
}

void RunComparisonChart::drawTotals() {
    QStringList labels;
    double top = 0;
    for (size_t i = 0; i < m_runs.size(); ++i) {
        const MeanInterval m = meanInterval(m_runs[i].latenciesMs);
        auto* bars = new QCPBars(plot()->xAxis, plot()->yAxis);
        bars->setWidth(0.6);
        bars->setBrush(runColor(int(i), palette()));
        bars->setPen(QPen(runColor(int(i), palette()).darker(140)));
        bars->addData(double(i), m.mean);
        auto* errors = new QCPErrorBars(plot()->xAxis, plot()->yAxis);
        errors->setDataPlottable(bars);
        errors->setPen(QPen(palette().color(QPalette::Text), 1.5));
        errors->addData(m.halfWidth);
        labels << m_runs[i].label;
        top = std::max(top, m.mean + m.halfWidth);
    }
    setCategoryLabels(plot()->xAxis, labels);
    plot()->yAxis->setLabel(tr("latency (ms)"));
    plot()->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
}

void RunComparisonChart::drawLayerDeltas() {
    if (m_runs.size() < 2) {
        setCategoryLabels(plot()->xAxis, {});
        return;
    }
    QStringList labels;
    std::map<QString, double> base;
    for (const LayerTiming& l : m_runs[0].layers) {
        base[l.node] = l.ms;
        labels << l.node;
    }
    const double width = 0.8 / double(m_runs.size() - 1);
    double lo = 0, hi = 0;
    for (size_t r = 1; r < m_runs.size(); ++r) {
        auto* bars = new QCPBars(plot()->xAxis, plot()->yAxis);
        bars->setName(tr("%1 - %2").arg(m_runs[r].label, m_runs[0].label));
        bars->setWidth(width);
        bars->setBrush(runColor(int(r), palette()));
        bars->setPen(Qt::NoPen);
        for (const LayerTiming& l : m_runs[r].layers) {
            const int index = int(labels.indexOf(l.node));
            if (index < 0) continue; // a layer the first run does not have (other fusion)
            const double delta = l.ms - base[l.node];
            bars->addData(index - 0.4 + width * (double(r) - 0.5), delta);
            lo = std::min(lo, delta);
            hi = std::max(hi, delta);
        }
    }
    setCategoryLabels(plot()->xAxis, labels);
    plot()->yAxis->setLabel(tr("time difference (ms)"));
    const double pad = std::max(hi - lo, 1e-6) * 0.1;
    plot()->yAxis->setRange(lo - pad, hi + pad);
    plot()->legend->setVisible(true);
}

QString RunComparisonChart::toCsv() const {
    QString csv = QStringLiteral("run,iterations,mean_ms,ci95_half_width_ms\n");
    for (const RunSeries& r : m_runs) {
        const MeanInterval m = meanInterval(r.latenciesMs);
        csv += QStringLiteral("%1,%2,%3,%4\n").arg(r.label).arg(r.latenciesMs.size()).arg(m.mean, 0, 'g', 9).arg(m.halfWidth, 0, 'g', 9);
    }
    return csv;
}

} // namespace embark::ui

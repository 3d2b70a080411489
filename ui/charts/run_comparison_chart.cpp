#include "run_comparison_chart.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>

#include <map>
#include <set>

namespace embark::ui {

namespace {

QColor runColor(int i, const QPalette& palette) {
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    return QColor::fromHsl((210 + i * 67) % 360, 140, dark ? 110 : 150);
}

const LayerTiming* findLayer(const RunSeries& run, const QString& node) {
    for (const LayerTiming& l : run.layers)
        if (l.node == node) return &l;
    return nullptr;
}

} // namespace

RunComparisonChart::RunComparisonChart(QWidget* parent) : ChartWidget(parent) {
    setWindowTitle(tr("Run comparison"));
    m_mode = new QComboBox(this);
    m_mode->addItem(tr("Total latency (mean, 95% CI)"));
    m_mode->addItem(tr("Per-layer delta against the first run"));
    // As wide as its longest choice where the dock has the room ("Afficher : [Toutes les c…]"
    // was cut off in French at 1366x768), down to 8 characters in a narrow dock; the text
    // beside it only takes what is left.
    m_mode->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_mode->setMinimumWidth(m_mode->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 8 + 40);
    m_warning = new QLabel(this);
    m_warning->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_warning->setWordWrap(true);
    QPalette warn = m_warning->palette();
    warn.setColor(QPalette::WindowText, QColor(200, 50, 40));
    m_warning->setPalette(warn);
    m_warning->hide();
    controls()->addWidget(new QLabel(tr("Show:"), this));
    controls()->addWidget(m_mode);
    controls()->addWidget(m_warning, 1);
    controls()->addStretch();
    connect(m_mode, &QComboBox::currentIndexChanged, this, &RunComparisonChart::rebuild);
    plot()->legend->setVisible(false);
    placeLegendBelow(2);
    m_group = new QCPBarsGroup(plot());
    m_group->setSpacing(1);
    setPlaceholderText(tr("Select two or more runs in the Run history (Alt+4) and choose Compare."));
    rebuild();
}

void RunComparisonChart::setRuns(std::vector<RunSeries> runs) {
    m_runs = std::move(runs);
    std::set<QString> models;
    for (const RunSeries& r : m_runs)
        if (!r.modelPath.isEmpty()) models.insert(QFileInfo(r.modelPath).fileName());
    if (models.size() > 1) {
        QStringList names(models.begin(), models.end());
        m_warning->setText(
            tr("Warning: these runs are of different models (%1); per-layer deltas only match layers by name.")
                .arg(names.join(QStringLiteral(", "))));
        m_warning->setToolTip(m_warning->text());
        m_warning->show();
    } else {
        m_warning->clear();
        m_warning->hide();
    }
    scrollToRow(0);
    rebuild();
}

QString RunComparisonChart::warning() const { return m_warning->text(); }

double RunComparisonChart::speedUp(int run) const {
    if (run <= 0 || run >= int(m_runs.size())) return 0;
    const double base = meanInterval(m_runs[0].latenciesMs).mean,
                 mine = meanInterval(m_runs[size_t(run)].latenciesMs).mean;
    return base > 0 && mine > 0 ? base / mine : 0;
}

QString RunComparisonChart::speedUpText(int run) const {
    const double s = speedUp(run);
    if (s <= 0) return {};
    const QLocale locale;
    return s >= 1 ? tr("%1\u00d7 faster").arg(locale.toString(s, 'f', 2))
                  : tr("%1\u00d7 slower").arg(locale.toString(1 / s, 'f', 2));
}

void RunComparisonChart::setMode(Mode mode) { m_mode->setCurrentIndex(int(mode)); }

void RunComparisonChart::rebuild() {
    plot()->clearPlottables();
    plot()->clearItems();
    plot()->legend->setVisible(false);
    m_deltaRows.clear();
    if (Mode(m_mode->currentIndex()) == Mode::Totals)
        drawTotals();
    else
        drawLayerDeltas();
    plot()->replot();
}

void RunComparisonChart::drawTotals() {
    clearRows();
    plot()->xAxis->grid()->setVisible(false);
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
        auto* value = new QCPItemText(plot());
        value->position->setCoords(double(i), m.mean + m.halfWidth);
        value->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        value->setColor(palette().color(QPalette::Text));
        value->setText(formatTime(m.mean) + (i == 0 && m_runs.size() > 1 ? tr(" (baseline)") : QString()));
        if (i > 0) {
            // The speed-up against the baseline, on a line of its own above the bar.
            value->setText(value->text() + QLatin1Char('\n') + speedUpText(int(i)));
        }
        labels << m_runs[i].label;
        top = std::max(top, m.mean + m.halfWidth);
    }
    setCategoryLabels(plot()->xAxis, labels);
    plot()->xAxis->setLabel(QString());
    plot()->yAxis->setLabel(tr("latency (ms)"));
    plot()->yAxis->setRange(0, top > 0 ? top * 1.35 : 1); // room for the value and speed-up lines
}

void RunComparisonChart::drawLayerDeltas() {
    plot()->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot()->xAxis->setSubTicks(true);
    plot()->xAxis->setTickLabelRotation(0);
    plot()->yAxis->setLabel(QString());
    plot()->xAxis->setLabel(tr("time difference against %1 (ms)").arg(m_runs.empty() ? QString() : m_runs[0].label));
    if (m_runs.size() < 2) {
        setRows({});
        plot()->xAxis->setRange(-1, 1);
        return;
    }
    // The baseline's layers in its order, then layers only the others have.
    for (const LayerTiming& l : m_runs[0].layers) m_deltaRows << l.node;
    for (size_t r = 1; r < m_runs.size(); ++r)
        for (const LayerTiming& l : m_runs[r].layers)
            if (!m_deltaRows.contains(l.node)) m_deltaRows << l.node;
    std::map<QString, int> rowOf;
    for (int i = 0; i < m_deltaRows.size(); ++i) rowOf[m_deltaRows.at(i)] = i;
    const double width = 0.8 / double(m_runs.size() - 1);
    double lo = 0, hi = 0;
    for (size_t r = 1; r < m_runs.size(); ++r) {
        auto* bars = new QCPBars(plot()->yAxis, plot()->xAxis);
        bars->setName(tr("%1 minus %2").arg(m_runs[r].label, m_runs[0].label));
        bars->setWidth(width);
        bars->setBrush(runColor(int(r), palette()));
        bars->setPen(Qt::NoPen);
        if (m_runs.size() > 2) bars->setBarsGroup(m_group);
        for (const LayerTiming& l : m_runs[r].layers) {
            const LayerTiming* base = findLayer(m_runs[0], l.node);
            if (!base) continue; // a layer the baseline does not have (other fusion): no delta
            const double delta = l.ms - base->ms;
            bars->addData(double(rowOf[l.node]), delta);
            lo = std::min(lo, delta);
            hi = std::max(hi, delta);
        }
    }
    setRows(m_deltaRows);
    const double pad = std::max(hi - lo, 1e-6) * 0.08;
    plot()->xAxis->setRange(lo - pad, hi + pad);
    plot()->legend->setVisible(true);
}

QString RunComparisonChart::toolTipAt(const QPointF& pos) const {
    if (Mode(m_mode->currentIndex()) == Mode::Totals) {
        if (!plot()->axisRect()->rect().contains(pos.toPoint())) return {};
        const int i = int(std::lround(plot()->xAxis->pixelToCoord(pos.x())));
        if (i < 0 || i >= int(m_runs.size())) return {};
        const MeanInterval m = meanInterval(m_runs[size_t(i)].latenciesMs);
        return tr("<b>%1</b>%2<br>mean %3 ms ± %4 ms (95% CI) over %n iteration(s)", nullptr,
                  int(m_runs[size_t(i)].latenciesMs.size()))
            .arg(m_runs[size_t(i)].label.toHtmlEscaped(), i == 0 ? tr(" (baseline)") : QString())
            .arg(m.mean, 0, 'f', 3)
            .arg(m.halfWidth, 0, 'f', 3);
    }
    const int row = rowAt(pos);
    if (row < 0 || row >= m_deltaRows.size()) return {};
    const QString node = m_deltaRows.at(row);
    QString tip = QStringLiteral("<b>%1</b>").arg(node.toHtmlEscaped());
    const LayerTiming* base = findLayer(m_runs[0], node);
    for (size_t r = 0; r < m_runs.size(); ++r) {
        const LayerTiming* l = findLayer(m_runs[r], node);
        tip += QStringLiteral("<br>%1: ").arg(m_runs[r].label.toHtmlEscaped());
        if (!l) {
            tip += tr("not in this run");
            continue;
        }
        tip += tr("%1 ms (%2)").arg(l->ms, 0, 'f', 3).arg(l->library.toHtmlEscaped());
        if (r > 0 && base)
            tip += tr(", %1%2 ms")
                       .arg(l->ms >= base->ms ? QStringLiteral("+") : QString())
                       .arg(l->ms - base->ms, 0, 'f', 3);
    }
    return tip;
}

QString RunComparisonChart::toCsv() const {
    QString csv = QStringLiteral("run,iterations,mean_ms,ci95_half_width_ms\n");
    for (const RunSeries& r : m_runs) {
        const MeanInterval m = meanInterval(r.latenciesMs);
        csv += QStringLiteral("%1,%2,%3,%4\n")
                   .arg(r.label)
                   .arg(r.latenciesMs.size())
                   .arg(m.mean, 0, 'g', 9)
                   .arg(m.halfWidth, 0, 'g', 9);
    }
    return csv;
}

} // namespace embark::ui

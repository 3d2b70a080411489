#include "layer_timing_chart.h"

#include "graph/graph_colors.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QSpinBox>

#include <algorithm>
#include <cmath>
#include <map>

namespace embark::ui {

namespace {

constexpr int kDefaultTop = 25;

QString ms(double v) { return formatTime(v); }

} // namespace

LayerTimingChart::LayerTimingChart(QWidget* parent) : ChartWidget(parent) {
    setWindowTitle(tr("Per-layer timing"));
    m_view = new QComboBox(this);
    m_view->addItem(tr("Slowest layers"));
    m_view->addItem(tr("All layers in graph order"));
    m_view->addItem(tr("Totals by op type"));
    m_view->setToolTip(tr("Slowest layers first, every layer in graph order (scroll with the wheel), "
                          "or the time of all layers of each op type added up"));
    m_top = new QSpinBox(this);
    m_top->setRange(0, 100000);
    m_top->setSingleStep(5);
    m_top->setValue(kDefaultTop);
    m_top->setSpecialValueText(tr("all"));
    m_top->setPrefix(tr("top "));
    m_top->setToolTip(tr("How many of the slowest layers to show (0 = all; the rest scroll)"));
    m_summary = new QLabel(this);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long (translated) summary wraps instead of widening the chart past its dock.
    m_summary->setWordWrap(true);
    // As wide as its longest choice where the dock has the room ("Afficher : [Toutes les c…]"
    // was cut off in French at 1366x768), down to 8 characters in a narrow dock; the text
    // beside it only takes what is left.
    m_view->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_view->setMinimumWidth(m_view->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 8 + 40);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    controls()->addWidget(new QLabel(tr("Show:"), this));
    controls()->addWidget(m_view);
    controls()->addWidget(m_top);
    controls()->addWidget(m_summary, 1);
    connect(m_view, &QComboBox::activated, this, [this] { m_viewChosen = true; });
    connect(m_view, &QComboBox::currentIndexChanged, this, [this] {
        scrollToRow(0);
        rebuild();
    });
    connect(m_top, &QSpinBox::valueChanged, this, &LayerTimingChart::rebuild);
    plot()->xAxis->setLabel(tr("time per iteration (ms)"));
    plot()->legend->setVisible(true);
    placeLegendBelow();
    setPlaceholderText(tr("Run a benchmark (F5) to see per-layer timings."));
    connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const int row = rowAt(event->position());
        if (row >= 0) clickBar(row);
    });
    rebuild();
}

void LayerTimingChart::setLayers(std::vector<LayerTiming> layers) {
    m_layers = std::move(layers);
    scrollToRow(0);
    if (!m_viewChosen) {
        // A small model reads best in graph order; a big one starts with its slowest layers.
        const QSignalBlocker block(m_view);
        const bool big = m_top->value() > 0 && int(m_layers.size()) > m_top->value();
        m_view->setCurrentIndex(int(big ? View::Slowest : View::GraphOrder));
    }
    rebuild();
}

void LayerTimingChart::setView(View view) {
    m_viewChosen = true;
    m_view->setCurrentIndex(int(view));
}

LayerTimingChart::View LayerTimingChart::view() const { return View(m_view->currentIndex()); }

void LayerTimingChart::setTopCount(int count) { m_top->setValue(count); }

int LayerTimingChart::topCount() const { return m_top->value(); }

void LayerTimingChart::setSorted(bool slowestFirst) {
    if (slowestFirst) setTopCount(0);
    setView(slowestFirst ? View::Slowest : View::GraphOrder);
}

double LayerTimingChart::totalMs() const {
    double total = 0;
    for (const LayerTiming& l : m_layers) total += l.ms;
    return total;
}

QStringList LayerTimingChart::drawnOrder() const {
    QStringList names;
    if (view() == View::ByOpType)
        for (const OpTotal& t : m_ops) names << t.op;
    else
        for (int i : m_drawn) names << m_layers[size_t(i)].node;
    return names;
}

void LayerTimingChart::clickBar(int index) {
    if (view() == View::ByOpType) return; // an op type is no node
    if (index >= 0 && index < int(m_drawn.size())) emit nodeClicked(m_layers[size_t(m_drawn[size_t(index)])].node);
}

QString LayerTimingChart::rowToolTip(int index) const {
    const double total = totalMs();
    auto share = [total](double v) {
        return total > 0 ? QString::number(100.0 * v / total, 'f', 1) : QStringLiteral("0");
    };
    if (view() == View::ByOpType) {
        if (index < 0 || index >= int(m_ops.size())) return {};
        const OpTotal& t = m_ops[size_t(index)];
        return QStringLiteral("<b>%1</b><br>").arg(t.op.toHtmlEscaped()) +
               (t.layers == 1 ? tr("1 layer") : tr("%1 layers").arg(t.layers)) +
               tr("<br>library: %1<br>time: %2 of %3 (%4%)")
                   .arg(t.libraries.join(QStringLiteral(", ")).toHtmlEscaped(), ms(t.ms), ms(total), share(t.ms));
    }
    if (index < 0 || index >= int(m_drawn.size())) return {};
    const LayerTiming& l = m_layers[size_t(m_drawn[size_t(index)])];
    return tr("<b>%1</b><br>op: %2<br>library: %3<br>time: %4 (%5% of %6)<br><i>click to select it in the graph</i>")
        .arg(l.node.toHtmlEscaped(), layerOpType(l).toHtmlEscaped(), l.library.toHtmlEscaped(), ms(l.ms), share(l.ms),
             ms(total));
}

QString LayerTimingChart::toolTipAt(const QPointF& pos) const { return rowToolTip(rowAt(pos)); }

void LayerTimingChart::rebuild() {
    plot()->clearPlottables();
    plot()->clearItems();
    m_drawn.clear();
    m_ops.clear();
    const View v = view();
    m_top->setEnabled(v == View::Slowest);
    const double total = totalMs();
    QStringList labels;
    std::vector<std::pair<QString, double>> rows; // library, ms per row
    if (v == View::ByOpType) {
        m_ops = opTotals(m_layers);
        for (const OpTotal& t : m_ops) labels << tr("%1 ×%2").arg(t.op).arg(t.layers);
    } else {
        for (size_t i = 0; i < m_layers.size(); ++i) m_drawn.push_back(int(i));
        if (v == View::Slowest) {
            std::stable_sort(m_drawn.begin(), m_drawn.end(),
                             [this](int a, int b) { return m_layers[size_t(a)].ms > m_layers[size_t(b)].ms; });
            if (m_top->value() > 0 && int(m_drawn.size()) > m_top->value()) m_drawn.resize(size_t(m_top->value()));
        }
        for (int i : m_drawn) labels << m_layers[size_t(i)].node;
    }

    // One bar series per library, so the legend names the colours; op totals stack them.
    std::map<QString, QCPBars*> byLibrary;
    std::vector<QCPBars*> stackOrder;
    auto barsFor = [&](const QString& library) {
        QCPBars*& bars = byLibrary[library];
        if (!bars) {
            bars = new QCPBars(plot()->yAxis, plot()->xAxis);
            bars->setName(library.isEmpty() ? tr("unknown library") : library);
            bars->setWidth(0.7);
            const QColor fill = libraryColor(library, palette());
            bars->setBrush(fill);
            bars->setPen(QPen(fill.darker(140)));
            if (v == View::ByOpType && !stackOrder.empty()) bars->moveAbove(stackOrder.back());
            stackOrder.push_back(bars);
        }
        return bars;
    };
    // Bars, axis and labels in one unit chosen by the longest row (µs for tiny layers).
    double longest = 0;
    if (v == View::ByOpType)
        for (const OpTotal& t : m_ops) longest = std::max(longest, t.ms);
    else
        for (int i : m_drawn) longest = std::max(longest, m_layers[size_t(i)].ms);
    const TimeUnit unit = timeUnitFor(longest);
    plot()->xAxis->setLabel(tr("time per iteration (%1)").arg(unit.symbol));
    double top = 0;
    std::vector<double> rowTotals;
    if (v == View::ByOpType) {
        std::map<QString, int> rowOf;
        for (size_t r = 0; r < m_ops.size(); ++r) rowOf[m_ops[r].op] = int(r);
        std::map<QString, std::map<int, double>> perLibrary;
        for (const LayerTiming& l : m_layers) perLibrary[l.library][rowOf[layerOpType(l)]] += l.ms;
        for (const auto& [library, byRow] : perLibrary) {
            QCPBars* bars = barsFor(library);
            for (const auto& [row, value] : byRow) bars->addData(double(row), value * unit.perMs);
        }
        for (const OpTotal& t : m_ops) rowTotals.push_back(t.ms * unit.perMs);
    } else {
        for (size_t k = 0; k < m_drawn.size(); ++k) {
            const LayerTiming& l = m_layers[size_t(m_drawn[k])];
            barsFor(l.library)->addData(double(k), l.ms * unit.perMs);
            rowTotals.push_back(l.ms * unit.perMs);
        }
    }
    for (double t : rowTotals) top = std::max(top, t);
    // The time and share at the end of each bar, where a few rows leave room to read them.
    if (v != View::GraphOrder && total > 0) {
        const QColor text = palette().color(QPalette::Text);
        for (size_t r = 0; r < rowTotals.size(); ++r) {
            auto* label = new QCPItemText(plot());
            label->position->setCoords(rowTotals[r], double(r)); // key axis is yAxis: (value, key) in (x, y)
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            label->setClipToAxisRect(true);
            label->setColor(text);
            label->setText(QStringLiteral(" %1 (%2%)")
                               .arg(formatTime(rowTotals[r] / unit.perMs, unit),
                                    QLocale().toString(100.0 * rowTotals[r] / unit.perMs / total, 'f', 1)));
        }
    }
    setRows(labels);
    // Room right of the longest bar for its label.
    plot()->xAxis->setRange(0, top > 0 ? top * (v == View::GraphOrder ? 1.05 : 1.3) : 1);
    plot()->legend->setVisible(!byLibrary.empty());
    if (m_layers.empty())
        m_summary->clear();
    else if (v == View::ByOpType)
        m_summary->setText(
            tr("%1 over %n layer(s) in %2 op types", nullptr, int(m_layers.size())).arg(ms(total)).arg(m_ops.size()));
    else
        m_summary->setText(tr("%1 over %n layer(s); hover for details, click to select", nullptr, int(m_layers.size()))
                               .arg(ms(total)));
    plot()->replot();
}

QString LayerTimingChart::toCsv() const {
    QString csv = QStringLiteral("node,library,ms\n");
    for (const LayerTiming& l : m_layers)
        csv += QStringLiteral("%1,%2,%3\n").arg(l.node, l.library).arg(l.ms, 0, 'g', 9);
    return csv;
}

} // namespace embark::ui

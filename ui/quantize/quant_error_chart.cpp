#include "quant_error_chart.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace embark::ui {

namespace {

// SNR shown at most this high: identical values read 300 dB, which would flatten every bar.
constexpr double kShownSnrCap = 80;
constexpr double kBarWidth = 0.7;

double shown(double snr) { return std::isfinite(snr) ? std::clamp(snr, 0.0, kShownSnrCap) : kShownSnrCap; }

QString db(double snr) { return QString::number(snr, 'f', 1); }

} // namespace

QuantErrorChart::QuantErrorChart(QWidget* parent) : ChartWidget(parent) {
    setWindowTitle(tr("Per-layer quantization error"));
    m_summary = new QLabel(this);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_open = new QPushButton(tr("Open quantized model"), this);
    m_open->setToolTip(tr("Open the quantized model as the studio's model (to inspect or export it)"));
    m_open->setEnabled(false);
    controls()->addWidget(m_summary, 1);
    controls()->addWidget(m_open);
    connect(m_open, &QPushButton::clicked, this, &QuantErrorChart::openModelRequested);
    plot()->xAxis->setLabel(tr("SNR against the float model (dB, higher is better)"));
    plot()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton) return;
        const int row = rowAt(event->position());
        if (row >= 0) clickRow(row);
    });
    connect(plot(), &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const int row = rowAt(pos);
        if (row < 0) return;
        QMenu menu(this);
        fillRowMenu(&menu, row);
        menu.exec(plot()->mapToGlobal(pos));
    });
    plot()->legend->setVisible(true);
    placeLegendBelow(3);
    setPlaceholderText(tr("Quantize the model (Model > Quantize...) to see each layer's quantization error."));
    rebuild();
}

void QuantErrorChart::setSeries(std::vector<QuantErrorSeries> series) {
    m_series = std::move(series);
    m_rows.clear();
    // The layers quantized in any series, in float-model order (every series lists the
    // model's quantizable nodes in that order, quantized or kept in float).
    QSet<QString> quantized;
    for (const QuantErrorSeries& s : m_series)
        for (const QuantLayerError& l : s.layers)
            if (l.quantized) quantized.insert(l.node);
    for (const QuantErrorSeries& s : m_series)
        for (const QuantLayerError& l : s.layers)
            if (quantized.contains(l.node) && !m_rows.contains(l.node)) m_rows << l.node;
    m_open->setEnabled(!m_series.empty());
    scrollToRow(0);
    rebuild();
}

const QuantLayerError* QuantErrorChart::layerOf(size_t s, int row) const {
    if (s >= m_series.size() || row < 0 || row >= m_rows.size()) return nullptr;
    for (const QuantLayerError& l : m_series[s].layers)
        if (l.node == m_rows.at(row)) return &l;
    return nullptr;
}

int QuantErrorChart::worstRow() const {
    if (m_series.empty()) return -1;
    int worst = -1;
    double lowest = INFINITY;
    for (int r = 0; r < m_rows.size(); ++r)
        // A layer kept in float is the user's answer to its error, not the worst int8 layer.
        if (const QuantLayerError* l = layerOf(m_series.size() - 1, r); l && l->quantized && l->snrDb < lowest) {
            lowest = l->snrDb;
            worst = r;
        }
    return worst;
}

void QuantErrorChart::clickRow(int row) {
    if (row >= 0 && row < m_rows.size()) emit nodeClicked(m_rows.at(row));
}

void QuantErrorChart::fillRowMenu(QMenu* menu, int row) {
    if (row < 0 || row >= m_rows.size()) return;
    const QString node = m_rows.at(row);
    menu->addAction(tr("Select '%1' in the graph").arg(node), this, [this, row] { clickRow(row); });
    const QuantLayerError* last = layerOf(m_series.size() - 1, row);
    QAction* keep = menu->addAction(tr("Keep '%1' in float and quantize again").arg(node), this,
                                    [this, node] { emit keepInFloatRequested(node); });
    keep->setEnabled(!last || last->quantized);
}

QString QuantErrorChart::rowToolTip(int row) const {
    if (row < 0 || row >= m_rows.size()) return {};
    QString tip = QStringLiteral("<b>%1</b>").arg(m_rows.at(row).toHtmlEscaped());
    for (size_t s = 0; s < m_series.size(); ++s) {
        const QuantLayerError* l = layerOf(s, row);
        if (!l) continue;
        tip += tr("<br><i>%1</i>: SNR %2 dB, cosine %3, max error %4%5")
                   .arg(m_series[s].label.toHtmlEscaped(), db(l->snrDb))
                   .arg(l->cosine, 0, 'f', 6)
                   .arg(l->maxAbs, 0, 'g', 3)
                   .arg(l->quantized ? QString() : tr(" (kept in float)"));
    }
    if (row == worstRow()) tip += tr("<br><b>lowest SNR</b>");
    if (const QuantLayerError* l = layerOf(m_series.size() - 1, row); l && l->firstDrop)
        tip += tr("<br><b>SNR first falls steeply here</b> (more than %1 dB below its inputs')")
                   .arg(m_series.back().snrDropDb);
    return tip + tr("<br><i>click to select it in the graph; right-click to keep it in float</i>");
}

QString QuantErrorChart::toolTipAt(const QPointF& pos) const { return rowToolTip(rowAt(pos)); }

void QuantErrorChart::rebuild() {
    plot()->clearPlottables();
    plot()->clearItems();
    const size_t n = m_series.size();
    const QColor bad(220, 60, 60);
    const QColor text = palette().color(QPalette::Text);
    const QColor colours[2] = {QColor(150, 150, 160), palette().color(QPalette::Highlight)};
    // Each series its slice of the row; row 0 is at the top (the key axis is reversed).
    const double width = kBarWidth / double(std::max<size_t>(n, 1));
    auto offset = [&](size_t s) { return -kBarWidth / 2 + width * (double(s) + 0.5); };
    const int worst = worstRow();
    double top = 0;
    for (size_t s = 0; s < n; ++s) {
        auto* bars = new QCPBars(plot()->yAxis, plot()->xAxis);
        const QColor fill = n == 1 ? colours[1] : colours[std::min<size_t>(s, 1)];
        bars->setName(m_series[s].label);
        bars->setWidth(width * 0.9);
        bars->setBrush(fill);
        bars->setPen(QPen(fill.darker(140)));
        for (int r = 0; r < m_rows.size(); ++r)
            if (const QuantLayerError* l = layerOf(s, r)) {
                bars->addData(r + offset(s), shown(l->snrDb));
                top = std::max(top, shown(l->snrDb));
            }
    }
    if (worst >= 0 && n > 0) {
        // The worst layer of the last series, over its own bar.
        const QuantLayerError* l = layerOf(n - 1, worst);
        auto* mark = new QCPBars(plot()->yAxis, plot()->xAxis);
        mark->setName(tr("lowest SNR: %1").arg(elideMiddle(m_rows.at(worst), font(), 220)));
        mark->setWidth(width * 0.9);
        mark->setBrush(bad);
        mark->setPen(QPen(bad.darker(140)));
        mark->addData(worst + offset(n - 1), shown(l->snrDb));
    }
    // The SNR at the end of each row (old -> new with two series).
    for (int r = 0; r < m_rows.size() && n > 0; ++r) {
        const QuantLayerError* last = layerOf(n - 1, r);
        const QuantLayerError* first = layerOf(0, r);
        if (!last) continue;
        QString label = QStringLiteral(" %1 dB").arg(db(last->snrDb));
        if (n > 1 && first)
            label =
                QStringLiteral(" %1 → %2 dB (%3%4)")
                    .arg(db(first->snrDb), db(last->snrDb),
                         last->snrDb >= first->snrDb ? QStringLiteral("+") : QString(), db(last->snrDb - first->snrDb));
        if (!last->quantized) label += tr(", float");
        if (last->firstDrop) label += tr(", SNR drop starts here");
        auto* item = new QCPItemText(plot());
        item->position->setCoords(std::max(shown(last->snrDb), first ? shown(first->snrDb) : 0.0), double(r));
        item->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        item->setClipToAxisRect(true);
        item->setColor(r == worst ? bad : text);
        item->setText(label);
    }
    setRows(m_rows);
    plot()->xAxis->setRange(0, top > 0 ? top * 1.45 : 1);
    plot()->legend->setVisible(n > 0);
    if (n == 0 || worst < 0)
        m_summary->clear();
    else if (n == 1)
        m_summary->setText(tr("%n quantized layer(s); lowest SNR %1 dB at %2", nullptr, int(m_rows.size()))
                               .arg(db(layerOf(0, worst)->snrDb), m_rows.at(worst)));
    else {
        double before = INFINITY;
        for (const QuantLayerError& l : m_series.front().layers)
            if (m_rows.contains(l.node)) before = std::min(before, l.snrDb);
        m_summary->setText(tr("Lowest SNR %1 dB before, %2 dB now (at %3)")
                               .arg(db(before), db(layerOf(n - 1, worst)->snrDb), m_rows.at(worst)));
    }
    plot()->replot();
}

QString QuantErrorChart::toCsv() const {
    QString csv = QStringLiteral("series,node,op,value,quantized,snr_db,cosine,max_abs\n");
    for (const QuantErrorSeries& s : m_series)
        for (const QuantLayerError& l : s.layers)
            csv += QStringLiteral("\"%1\",%2,%3,%4,%5,%6,%7,%8\n")
                       .arg(s.label, l.node, l.op, l.value, l.quantized ? QStringLiteral("1") : QStringLiteral("0"))
                       .arg(l.snrDb, 0, 'g', 9)
                       .arg(l.cosine, 0, 'g', 12)
                       .arg(l.maxAbs, 0, 'g', 9);
    return csv;
}

} // namespace embark::ui

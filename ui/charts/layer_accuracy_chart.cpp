#include "layer_accuracy_chart.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>

#include <cmath>

namespace embark::ui {

namespace {

double valueOf(const LayerAccuracy& l, LayerAccuracyChart::Metric m) {
    switch (m) {
    case LayerAccuracyChart::Metric::Cosine: return l.cosine;
    case LayerAccuracyChart::Metric::Snr: return l.snrDb;
    case LayerAccuracyChart::Metric::MaxRel: return std::max(l.maxRel, 1e-12); // log axis
    }
    return 0;
}

} // namespace

LayerAccuracyChart::LayerAccuracyChart(QWidget* parent) : ChartWidget(parent) {
    setWindowTitle(tr("Per-layer accuracy"));
    m_metric = new QComboBox(this);
    m_metric->addItem(tr("Cosine similarity"));
    m_metric->addItem(tr("SNR (dB)"));
    m_metric->addItem(tr("Max relative error"));
    controls()->addWidget(new QLabel(tr("Metric:"), this));
    controls()->addWidget(m_metric);
    controls()->addStretch();
    connect(m_metric, &QComboBox::currentIndexChanged, this, &LayerAccuracyChart::rebuild);
    connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const int i = layerAt(event->position());
        if (i >= 0) emit nodeClicked(m_layers[size_t(i)].node);
    });
    plot()->legend->setVisible(true);
    placeLegendBelow(3);
    setPlaceholderText(tr("Run a benchmark (F5) to see each layer's accuracy against the reference."));
    rebuild();
}

void LayerAccuracyChart::setLayers(std::vector<LayerAccuracy> layers, const QString& firstDivergentNode) {
    m_layers = std::move(layers);
    m_firstDivergent = firstDivergentLayer(m_layers);
    if (!firstDivergentNode.isEmpty())
        for (size_t i = 0; i < m_layers.size(); ++i)
            if (m_layers[i].node == firstDivergentNode) m_firstDivergent = int(i);
    rebuild();
}

void LayerAccuracyChart::setMetric(Metric metric) { m_metric->setCurrentIndex(int(metric)); }

LayerAccuracyChart::Metric LayerAccuracyChart::metric() const { return Metric(m_metric->currentIndex()); }

double LayerAccuracyChart::tolerance() const {
    switch (metric()) {
    case Metric::Cosine: return 0.999;
    case Metric::Snr: return 40;
    case Metric::MaxRel: return 1e-3;
    }
    return 0;
}

int LayerAccuracyChart::worstLayer() const {
    int worst = -1;
    const Metric m = metric();
    for (size_t i = 0; i < m_layers.size(); ++i) {
        const double v = valueOf(m_layers[i], m);
        if (std::isnan(v)) return int(i);
        if (worst < 0) {
            worst = int(i);
            continue;
        }
        const double w = valueOf(m_layers[size_t(worst)], m);
        if (m == Metric::MaxRel ? v > w : v < w) worst = int(i);
    }
    return worst;
}

int LayerAccuracyChart::layerAt(const QPointF& pos) const {
    if (!plot()->axisRect()->rect().contains(pos.toPoint())) return -1;
    const int i = int(std::lround(plot()->xAxis->pixelToCoord(pos.x())));
    return i >= 0 && i < int(m_layers.size()) ? i : -1;
}

QString LayerAccuracyChart::layerToolTip(int index) const {
    if (index < 0 || index >= int(m_layers.size())) return {};
    const LayerAccuracy& l = m_layers[size_t(index)];
    QString tip = tr("<b>%1</b> (layer %2)<br>cosine %3<br>SNR %4 dB<br>max relative error %5")
                      .arg(l.node.toHtmlEscaped())
                      .arg(index)
                      .arg(l.cosine, 0, 'f', 6)
                      .arg(l.snrDb, 0, 'f', 1)
                      .arg(l.maxRel, 0, 'g', 3);
    if (index == worstLayer()) tip += tr("<br><b>worst layer</b> for this metric");
    if (index == m_firstDivergent) tip += tr("<br><b>first divergent layer</b>");
    return tip;
}

QString LayerAccuracyChart::toolTipAt(const QPointF& pos) const { return layerToolTip(layerAt(pos)); }

void LayerAccuracyChart::rebuild() {
    plot()->clearPlottables();
    plot()->clearItems();
    const Metric m = metric();
    const QColor line = palette().color(QPalette::Highlight);
    const QColor bad(220, 60, 60);
    const QColor text = palette().color(QPalette::Text);
    auto* graph = plot()->addGraph();
    graph->setName(m_metric->currentText());
    graph->setPen(QPen(line, 2));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, line, palette().color(QPalette::Base),
                                           m_layers.size() > 100 ? 3 : 6));
    QStringList labels;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < m_layers.size(); ++i) {
        labels << m_layers[i].node;
        const double v = valueOf(m_layers[i], m);
        graph->addData(double(i), v);
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    const bool names = setCategoryLabels(plot()->xAxis, labels);
    plot()->xAxis->setLabel(names || m_layers.empty() ? QString()
                                                      : tr("layer (schedule order; hover a point for its name)"));
    const bool logScale = m == Metric::MaxRel;
    const double tol = tolerance();
    if (!m_layers.empty()) {
        lo = std::min(lo, tol);
        hi = std::max(hi, tol);
    }
    plot()->yAxis->setScaleType(logScale ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    // Few enough ticks that their labels never touch: one per ~3 lines of text.
    const int ticks =
        std::clamp(plot()->axisRect()->height() / (3 * QFontMetrics(plot()->yAxis->tickLabelFont()).height()), 2, 8);
    if (logScale) {
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        ticker->setLogBase(10);
        ticker->setSubTickCount(0);
        ticker->setTickCount(ticks);
        plot()->yAxis->setTicker(ticker);
        plot()->yAxis->setNumberFormat(QStringLiteral("eb"));
        plot()->yAxis->setNumberPrecision(0);
    } else {
        QSharedPointer<QCPAxisTicker> ticker(new QCPAxisTicker);
        ticker->setTickCount(ticks);
        plot()->yAxis->setTicker(ticker);
        plot()->yAxis->setNumberFormat(QStringLiteral("gb"));
        plot()->yAxis->setNumberPrecision(6);
    }
    plot()->yAxis->setLabel(m_metric->currentText());
    if (m_layers.empty())
        plot()->yAxis->setRange(0, 1);
    else if (logScale)
        plot()->yAxis->setRange(lo / 3, hi * 3);
    else {
        const double pad = std::max((hi - lo) * 0.1, std::abs(hi) * 1e-4 + 1e-9);
        plot()->yAxis->setRange(lo - pad, hi + pad);
    }
    if (m_layers.empty()) {
        plot()->legend->setVisible(false);
        plot()->replot();
        return;
    }
    plot()->legend->setVisible(true);

    // The tolerance: points on the wrong side of this line disagree with the reference.
    auto* tolerance = plot()->addGraph();
    tolerance->setName(m == Metric::Cosine ? tr("tolerance %1").arg(tol)
                       : m == Metric::Snr  ? tr("tolerance %1 dB").arg(tol)
                                           : tr("tolerance %1").arg(tol, 0, 'g', 2));
    tolerance->setPen(QPen(QColor(230, 150, 30), 1.5, Qt::DashLine));
    tolerance->addData(-0.7, tol);
    tolerance->addData(double(m_layers.size()) - 0.3, tol);

    const int worst = worstLayer();
    if (worst >= 0) {
        auto* mark = plot()->addGraph();
        mark->setName(tr("worst: %1").arg(elideMiddle(m_layers[size_t(worst)].node, font(), 220)));
        mark->setLineStyle(QCPGraph::lsNone);
        mark->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, bad, bad, 11));
        mark->addData(double(worst), valueOf(m_layers[size_t(worst)], m));
    }
    if (m_firstDivergent >= 0) {
        auto* divergent = new QCPItemStraightLine(plot());
        divergent->point1->setCoords(m_firstDivergent, 0);
        divergent->point2->setCoords(m_firstDivergent, 1);
        divergent->setPen(QPen(bad, 1.5, Qt::DashLine));
        auto* label = new QCPItemText(plot());
        label->position->setType(QCPItemPosition::ptAxisRectRatio);
        label->position->setAxisRect(plot()->axisRect());
        label->position->setCoords(0.01, 0.01);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setColor(text);
        label->setBrush(palette().brush(QPalette::Base));
        label->setText(tr("first divergent layer: %1 (layer %2)")
                           .arg(elideMiddle(m_layers[size_t(m_firstDivergent)].node, font(), 320))
                           .arg(m_firstDivergent));
    }
    plot()->replot();
}

QString LayerAccuracyChart::toCsv() const {
    QString csv = QStringLiteral("node,cosine,snr_db,max_rel\n");
    for (const LayerAccuracy& l : m_layers)
        csv += QStringLiteral("%1,%2,%3,%4\n")
                   .arg(l.node)
                   .arg(l.cosine, 0, 'g', 12)
                   .arg(l.snrDb, 0, 'g', 9)
                   .arg(l.maxRel, 0, 'g', 9);
    return csv;
}

} // namespace embark::ui

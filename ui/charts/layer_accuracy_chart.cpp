#include "layer_accuracy_chart.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QMouseEvent>
#include <QHBoxLayout>
#include <QLabel>

#include <cmath>

namespace embark::ui {

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
        const int i = int(std::lround(plot()->xAxis->pixelToCoord(event->position().x())));
        if (i >= 0 && i < int(m_layers.size())) emit nodeClicked(m_layers[i].node);
    });
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

void LayerAccuracyChart::rebuild() {
    plot()->clearPlottables();
    plot()->clearItems();
    const auto metric = Metric(m_metric->currentIndex());
    auto* graph = plot()->addGraph();
    const QColor line = palette().color(QPalette::Highlight);
    graph->setPen(QPen(line, 2));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, line, palette().color(QPalette::Base), 6));
    QStringList labels;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < m_layers.size(); ++i) {
        const LayerAccuracy& l = m_layers[i];
        labels << l.node;
        double v = metric == Metric::Cosine ? l.cosine : metric == Metric::Snr ? l.snrDb : l.maxRel;
        if (metric == Metric::MaxRel) v = std::max(v, 1e-12); // log axis
        graph->addData(double(i), v);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    setCategoryLabels(plot()->xAxis, labels);
    const bool logScale = metric == Metric::MaxRel;
    plot()->yAxis->setScaleType(logScale ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logScale) plot()->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else plot()->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot()->yAxis->setLabel(m_metric->currentText());
    if (m_layers.empty()) plot()->yAxis->setRange(0, 1);
    else if (logScale) plot()->yAxis->setRange(lo / 3, hi * 3);
    else {
        const double pad = std::max((hi - lo) * 0.1, std::abs(hi) * 1e-4 + 1e-9);
        plot()->yAxis->setRange(lo - pad, hi + pad);
    }

    if (m_firstDivergent >= 0) {
        auto* mark = new QCPItemStraightLine(plot());
        mark->point1->setCoords(m_firstDivergent, 0);
        mark->point2->setCoords(m_firstDivergent, 1);
        mark->setPen(QPen(QColor(220, 60, 60), 2, Qt::DashLine));
        auto* text = new QCPItemText(plot());
        text->position->setType(QCPItemPosition::ptPlotCoords);
        text->position->setCoords(m_firstDivergent, plot()->yAxis->range().upper);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setColor(palette().color(QPalette::Text));
        text->setText(tr(" first divergent layer: %1").arg(m_layers[m_firstDivergent].node));
    }
    plot()->replot();
}

QString LayerAccuracyChart::toCsv() const {
    QString csv = QStringLiteral("node,cosine,snr_db,max_rel\n");
    for (const LayerAccuracy& l : m_layers)
        csv += QStringLiteral("%1,%2,%3,%4\n").arg(l.node).arg(l.cosine, 0, 'g', 12).arg(l.snrDb, 0, 'g', 9).arg(l.maxRel, 0, 'g', 9);
    return csv;
}

} // namespace embark::ui

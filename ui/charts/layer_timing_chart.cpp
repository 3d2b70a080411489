#include "layer_timing_chart.h"

#include "graph/graph_colors.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QMouseEvent>
#include <QHBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace embark::ui {

LayerTimingChart::LayerTimingChart(QWidget* parent) : ChartWidget(parent) {
    setWindowTitle(tr("Per-layer timing"));
    m_sorted = new QCheckBox(tr("Slowest first"), this);
    controls()->addWidget(m_sorted);
    controls()->addStretch();
    connect(m_sorted, &QCheckBox::toggled, this, &LayerTimingChart::rebuild);
    plot()->yAxis->setLabel(tr("time per layer (ms)"));
    plot()->legend->setVisible(true);
    plot()->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const int index = int(std::lround(plot()->xAxis->pixelToCoord(event->position().x())));
        clickBar(index);
    });
}

void LayerTimingChart::setLayers(std::vector<LayerTiming> layers) {
    m_layers = std::move(layers);
    rebuild();
}

void LayerTimingChart::setSorted(bool slowestFirst) { m_sorted->setChecked(slowestFirst); }

QStringList LayerTimingChart::drawnOrder() const {
    QStringList names;
    for (int i : m_drawn) names << m_layers[i].node;
    return names;
}

void LayerTimingChart::clickBar(int index) {
    if (index >= 0 && index < int(m_drawn.size())) emit nodeClicked(m_layers[m_drawn[index]].node);
}

void LayerTimingChart::rebuild() {
    plot()->clearPlottables();
    m_drawn.resize(m_layers.size());
    for (size_t i = 0; i < m_layers.size(); ++i) m_drawn[i] = int(i);
    if (m_sorted->isChecked())
        std::stable_sort(m_drawn.begin(), m_drawn.end(), [this](int a, int b) { return m_layers[a].ms > m_layers[b].ms; });
    // One bar series per library, so the legend names the colours.
    std::map<QString, QCPBars*> byLibrary;
    QStringList labels;
    double top = 0;
    for (size_t k = 0; k < m_drawn.size(); ++k) {
        const LayerTiming& l = m_layers[m_drawn[k]];
        labels << l.node;
        QCPBars*& bars = byLibrary[l.library];
        if (!bars) {
            bars = new QCPBars(plot()->xAxis, plot()->yAxis);
            bars->setName(l.library);
            bars->setWidth(0.75);
            const QColor fill = libraryColor(l.library, palette());
            bars->setBrush(fill);
            bars->setPen(QPen(fill.darker(140)));
        }
        bars->addData(double(k), l.ms);
        top = std::max(top, l.ms);
    }
    setCategoryLabels(plot()->xAxis, labels);
    plot()->yAxis->setRange(0, top > 0 ? top * 1.1 : 1);
    plot()->legend->setVisible(!byLibrary.empty());
    plot()->replot();
}

QString LayerTimingChart::toCsv() const {
    QString csv = QStringLiteral("node,library,ms\n");
    for (const LayerTiming& l : m_layers) csv += QStringLiteral("%1,%2,%3\n").arg(l.node, l.library).arg(l.ms, 0, 'g', 9);
    return csv;
}

} // namespace embark::ui

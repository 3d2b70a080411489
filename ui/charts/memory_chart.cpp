#include "memory_chart.h"

#include <qcustomplot.h>

#include <QLocale>

namespace embark::ui {

namespace {

constexpr double kKiB = 1024.0;

QString kib(qint64 bytes) { return QString::number(double(bytes) / kKiB, 'f', 1); }

} // namespace

MemoryChart::MemoryChart(QWidget* parent) : ChartWidget(parent) {
    setWindowTitle(tr("Memory plan"));
    plot()->xAxis->setLabel(tr("schedule step"));
    plot()->yAxis->setLabel(tr("arena offset (KiB)"));
    plot()->legend->setVisible(true);
    placeLegendBelow(3);
    setPlaceholderText(tr("Open a model to see where its activations live in the arena over time."));
    rebuild();
}

void MemoryChart::setTimeline(MemoryTimeline timeline) {
    m_timeline = std::move(timeline);
    rebuild();
}

void MemoryChart::rebuild() {
    plot()->clearPlottables();
    plot()->clearItems();
    const MemoryTimeline& t = m_timeline;
    const QColor text = palette().color(QPalette::Text);
    for (const MemoryBuffer& b : t.buffers) {
        auto* box = new QCPItemRect(plot());
        box->topLeft->setCoords(b.firstStep - 0.45, (b.offset + b.bytes) / kKiB);
        box->bottomRight->setCoords(b.lastStep + 0.45, b.offset / kKiB);
        const QColor fill =
            QColor::fromHsl((b.id * 47) % 360, 120, palette().color(QPalette::Base).lightness() < 128 ? 90 : 185);
        box->setBrush(fill);
        box->setPen(QPen(fill.darker(150)));
        box->setSelectable(false);
    }
    plot()->legend->setVisible(hasData());
    if (!hasData()) {
        plot()->replot();
        return;
    }
    auto* live = plot()->addGraph();
    live->setName(tr("live"));
    live->setLineStyle(QCPGraph::lsStepCenter);
    live->setPen(QPen(text, 1.5));
    for (size_t s = 0; s < t.liveBytes.size(); ++s) live->addData(double(s), t.liveBytes[s] / kKiB);
    auto level = [&](double value, const QString& name, const QPen& pen) {
        auto* g = plot()->addGraph();
        g->setName(name);
        g->setPen(pen);
        g->addData(-0.5, value);
        g->addData(double(std::max<qsizetype>(t.schedule.size(), 1)) - 0.5, value);
        return g;
    };
    // The bound first, the arena over it: a thick solid line that a thin dashed one on top
    // cannot hide; when they are equal the legend says the plan is optimal.
    const bool optimal = t.arenaBytes <= t.lowerBoundBytes;
    level(t.lowerBoundBytes / kKiB, tr("lower bound %1 KiB").arg(kib(t.lowerBoundBytes)),
          QPen(QColor(40, 160, 90), 1.5, Qt::DashLine));
    level(t.arenaBytes / kKiB,
          optimal ? tr("arena %1 KiB (optimal)").arg(kib(t.arenaBytes))
                  : tr("arena %1 KiB (+%2%)")
                        .arg(kib(t.arenaBytes))
                        .arg(t.lowerBoundBytes > 0
                                 ? 100.0 * double(t.arenaBytes - t.lowerBoundBytes) / double(t.lowerBoundBytes)
                                 : 0.0,
                             0, 'f', 1),
          QPen(QColor(220, 60, 60), 3, Qt::SolidLine));
    plot()->xAxis->setRange(-0.7, std::max<qsizetype>(t.schedule.size(), 1) - 0.3);
    plot()->yAxis->setRange(0, std::max<qint64>(t.arenaBytes, 1) / kKiB * 1.1);
    plot()->replot();
}

int MemoryChart::bufferAt(const QPointF& pos) const {
    if (!plot()->axisRect()->rect().contains(pos.toPoint())) return -1;
    const double step = plot()->xAxis->pixelToCoord(pos.x());
    const double offset = plot()->yAxis->pixelToCoord(pos.y()) * kKiB;
    for (size_t i = 0; i < m_timeline.buffers.size(); ++i) {
        const MemoryBuffer& b = m_timeline.buffers[i];
        if (step >= b.firstStep - 0.45 && step <= b.lastStep + 0.45 && offset >= double(b.offset) &&
            offset <= double(b.offset + b.bytes))
            return int(i);
    }
    return -1;
}

QString MemoryChart::bufferToolTip(int index) const {
    if (index < 0 || index >= int(m_timeline.buffers.size())) return {};
    const MemoryBuffer& b = m_timeline.buffers[size_t(index)];
    auto node = [this](int step) {
        return step >= 0 && step < m_timeline.schedule.size() ? m_timeline.schedule.at(step) : QString::number(step);
    };
    return tr("<b>buffer %1</b>: %2<br>%3 bytes at offset %4 (%5 KiB)<br>live from step %6 (%7)<br>to step %8 (%9)")
        .arg(b.id)
        .arg(b.values.toHtmlEscaped())
        .arg(QLocale().toString(b.bytes))
        .arg(QLocale().toString(b.offset))
        .arg(kib(b.offset))
        .arg(b.firstStep)
        .arg(node(b.firstStep).toHtmlEscaped())
        .arg(b.lastStep)
        .arg(node(b.lastStep).toHtmlEscaped());
}

QString MemoryChart::toolTipAt(const QPointF& pos) const { return bufferToolTip(bufferAt(pos)); }

QString MemoryChart::toCsv() const {
    QString csv = QStringLiteral("buffer,offset_bytes,bytes,first_step,last_step,values\n");
    for (const MemoryBuffer& b : m_timeline.buffers)
        csv += QStringLiteral("%1,%2,%3,%4,%5,\"%6\"\n")
                   .arg(b.id)
                   .arg(b.offset)
                   .arg(b.bytes)
                   .arg(b.firstStep)
                   .arg(b.lastStep)
                   .arg(b.values);
    return csv;
}

} // namespace embark::ui

#include "memory_chart.h"

#include <qcustomplot.h>

namespace embark::ui {

namespace {

constexpr double kKiB = 1024.0;

} // namespace

MemoryChart::MemoryChart(QWidget* parent) : ChartWidget(parent) {
    setWindowTitle(tr("Memory plan"));
    plot()->xAxis->setLabel(tr("schedule step"));
    plot()->yAxis->setLabel(tr("arena offset (KiB)"));
    plot()->legend->setVisible(true);
    plot()->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
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
        const QColor fill = QColor::fromHsl((b.id * 47) % 360, 120, palette().color(QPalette::Base).lightness() < 128 ? 90 : 185);
        box->setBrush(fill);
        box->setPen(QPen(fill.darker(150)));
        box->setSelectable(false);
    }
    auto* live = plot()->addGraph();
    live->setName(tr("live bytes"));
    live->setLineStyle(QCPGraph::lsStepCenter);
    live->setPen(QPen(text, 1.5));
    for (size_t s = 0; s < t.liveBytes.size(); ++s) live->addData(double(s), t.liveBytes[s] / kKiB);
    auto level = [&](double kib, const QString& name, const QColor& color, Qt::PenStyle style) {
        auto* g = plot()->addGraph();
        g->setName(name);
        g->setPen(QPen(color, 2, style));
        g->addData(-0.5, kib);
        g->addData(double(std::max<qsizetype>(t.schedule.size(), 1)) - 0.5, kib);
    };
    level(t.arenaBytes / kKiB, tr("arena %1 KiB").arg(t.arenaBytes / kKiB, 0, 'f', 1), QColor(220, 60, 60), Qt::SolidLine);
    level(t.lowerBoundBytes / kKiB, tr("lower bound %1 KiB").arg(t.lowerBoundBytes / kKiB, 0, 'f', 1),
          QColor(40, 160, 90), Qt::DashLine);
    plot()->xAxis->setRange(-0.7, std::max<qsizetype>(t.schedule.size(), 1) - 0.3);
    plot()->yAxis->setRange(0, std::max<qint64>(t.arenaBytes, 1) / kKiB * 1.25);
    plot()->replot();
}

QString MemoryChart::toCsv() const {
    QString csv = QStringLiteral("buffer,offset_bytes,bytes,first_step,last_step,values\n");
    for (const MemoryBuffer& b : m_timeline.buffers)
        csv += QStringLiteral("%1,%2,%3,%4,%5,\"%6\"\n").arg(b.id).arg(b.offset).arg(b.bytes).arg(b.firstStep).arg(b.lastStep).arg(b.values);
    return csv;
}

} // namespace embark::ui

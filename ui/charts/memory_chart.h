// The activation memory plan over time: each arena buffer as a box (schedule steps across,
// arena offset up), the live bytes per step, and the arena size against the lower bound (the
// arena line is drawn over the bound; when they are equal the legend says so). The legend
// sits below the plot; hovering a buffer names its values, size, offset and steps.
#pragma once

#include "chart_data.h"
#include "chart_widget.h"

namespace embark::ui {

class MemoryChart : public ChartWidget {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    void setTimeline(MemoryTimeline timeline);
    const MemoryTimeline& timeline() const { return m_timeline; }

    // The buffer under a pixel of plot(), -1 = none; and its tooltip.
    int bufferAt(const QPointF& pos) const;
    QString bufferToolTip(int index) const;
    QString toolTipAt(const QPointF& pos) const override;
    QString toCsv() const override;
    bool hasData() const override { return !m_timeline.buffers.empty(); }

protected:
    void rebuild() override;

private:
    MemoryTimeline m_timeline;
};

} // namespace embark::ui

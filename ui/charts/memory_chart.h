// The activation memory plan over time: each arena buffer as a box (schedule steps across,
// arena offset up), the live bytes per step, and the arena size against the lower bound.
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

    QString toCsv() const override;
    bool hasData() const override { return !m_timeline.buffers.empty(); }

protected:
    void rebuild() override;

private:
    MemoryTimeline m_timeline;
};

} // namespace embark::ui

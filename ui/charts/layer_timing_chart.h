// Per-layer timing bars, in graph order or slowest first, coloured by kernel library;
// clicking a bar selects that node in the graph.
#pragma once

#include "chart_data.h"
#include "chart_widget.h"

class QCheckBox;

namespace embark::ui {

class LayerTimingChart : public ChartWidget {
    Q_OBJECT
public:
    explicit LayerTimingChart(QWidget* parent = nullptr);
    void setLayers(std::vector<LayerTiming> layers);
    void setSorted(bool slowestFirst);
    // Node names in the order drawn (left to right).
    QStringList drawnOrder() const;
    // Acts as a click on bar `index` (drawn order).
    void clickBar(int index);

    QString toCsv() const override;
    bool hasData() const override { return !m_layers.empty(); }

signals:
    void nodeClicked(const QString& node);

protected:
    void rebuild() override;

private:
    std::vector<LayerTiming> m_layers; // graph order
    std::vector<int> m_drawn;          // indices into m_layers, left to right
    QCheckBox* m_sorted;
};

} // namespace embark::ui

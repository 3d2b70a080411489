// Per-layer timing as horizontal bars, one readable row per layer, coloured by kernel
// library: the N slowest layers (the default when a model has more than N layers), every
// layer in graph order (the default for a small model; scrolls when long), or the
// totals by op type (where e.g. 126 layout conversions add up). Hovering a bar names the
// layer in full with its op, library, time and share of the total; clicking a layer's bar
// selects that node in the graph.
#pragma once

#include "chart_data.h"
#include "chart_widget.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace embark::ui {

class LayerTimingChart : public ChartWidget {
    Q_OBJECT
public:
    enum class View { Slowest, GraphOrder, ByOpType };
    explicit LayerTimingChart(QWidget* parent = nullptr);
    void setLayers(std::vector<LayerTiming> layers);
    const std::vector<LayerTiming>& layers() const { return m_layers; }
    void setView(View view);
    View view() const;
    // The Slowest view's number of layers; 0 = all.
    void setTopCount(int count);
    int topCount() const;
    // Slowest first (all layers) or graph order: kept for callers of the older chart.
    void setSorted(bool slowestFirst);
    // Row names top to bottom: node names, or op types in the ByOpType view.
    QStringList drawnOrder() const;
    // Acts as a click on row `index` (drawn order): emits nodeClicked for a layer row.
    void clickBar(int index);
    // The tooltip of row `index`: full name, op, library, time and share of the total.
    QString rowToolTip(int index) const;
    double totalMs() const;

    QString toolTipAt(const QPointF& pos) const override;
    QString toCsv() const override;
    bool hasData() const override { return !m_layers.empty(); }

signals:
    void nodeClicked(const QString& node);

protected:
    void rebuild() override;

private:
    std::vector<LayerTiming> m_layers; // graph order
    std::vector<int> m_drawn;          // indices into m_layers, top to bottom (layer views)
    std::vector<OpTotal> m_ops;        // the ByOpType view's rows
    QComboBox* m_view;
    QSpinBox* m_top;
    QLabel* m_summary;
    bool m_viewChosen = false; // by the user or setView(); until then setLayers() picks one
};

} // namespace embark::ui

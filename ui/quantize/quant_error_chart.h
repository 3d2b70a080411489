// Per-layer quantization error: one horizontal bar per quantized layer (SNR in dB of the
// activation it produces, quantized model against the float one), the worst layer in red.
// A second series shows the same layers after a re-quantization ("keep in float"), beside
// the first, so the bars show what keeping a node in float bought. Clicking a bar selects
// its node in the graph; right-clicking offers "keep in float".
#pragma once

#include "charts/chart_widget.h"

#include <vector>

class QLabel;
class QMenu;
class QPushButton;

namespace embark::ui {

struct QuantLayerError {
    QString node;
    QString op;
    QString value;          // the float model's value compared
    bool quantized = true;  // false: kept in float in this series
    bool firstDrop = false; // where SNR first falls steeply (jobs::NodeError::firstDrop)
    double snrDb = 0;
    double cosine = 1;
    double maxAbs = 0;
};

struct QuantErrorSeries {
    QString label;                       // "minmax, 4 int8 layers", "with 'conv2' in float"
    std::vector<QuantLayerError> layers; // float-model order
    double snrDropDb = 10;               // the fall in dB that flags firstDrop
};

class QuantErrorChart : public ChartWidget {
    Q_OBJECT
public:
    explicit QuantErrorChart(QWidget* parent = nullptr);
    // One series, or two (before, after): the rows are the layers quantized in any of them.
    void setSeries(std::vector<QuantErrorSeries> series);
    const std::vector<QuantErrorSeries>& series() const { return m_series; }
    QStringList rowNodes() const { return m_rows; }
    // The row of the lowest SNR among the last series' quantized layers, -1 = none.
    int worstRow() const;
    // Acts as a click on row `row`: emits nodeClicked.
    void clickRow(int row);
    // The context menu of a row ("Keep 'node' in float"); empty for no row.
    void fillRowMenu(QMenu* menu, int row);
    QString rowToolTip(int row) const;
    QPushButton* openModelButton() const { return m_open; }
    QLabel* summary() const { return m_summary; }

    QString toolTipAt(const QPointF& pos) const override;
    QString toCsv() const override;
    bool hasData() const override { return !m_series.empty(); }

signals:
    void nodeClicked(const QString& node);
    void keepInFloatRequested(const QString& node);
    void openModelRequested();

protected:
    void rebuild() override;

private:
    // Series `s`'s layer of row `row`, or null when that series lacks it.
    const QuantLayerError* layerOf(size_t s, int row) const;

    std::vector<QuantErrorSeries> m_series;
    QStringList m_rows;
    QLabel* m_summary;
    QPushButton* m_open;
};

} // namespace embark::ui

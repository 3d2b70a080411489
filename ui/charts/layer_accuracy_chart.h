// Per-layer accuracy against the host reference (cosine, SNR or max relative error), with the
// first layer that diverges marked: where to start looking when an export disagrees.
#pragma once

#include "chart_data.h"
#include "chart_widget.h"

class QComboBox;

namespace embark::ui {

class LayerAccuracyChart : public ChartWidget {
    Q_OBJECT
public:
    enum class Metric { Cosine, Snr, MaxRel };
    explicit LayerAccuracyChart(QWidget* parent = nullptr);
    // `firstDivergentNode` marks that layer (the pipeline's verdict); empty = the first
    // layer outside firstDivergentLayer()'s thresholds.
    void setLayers(std::vector<LayerAccuracy> layers, const QString& firstDivergentNode = {});
    void setMetric(Metric metric);
    int firstDivergent() const { return m_firstDivergent; }

    QString toCsv() const override;
    bool hasData() const override { return !m_layers.empty(); }

signals:
    void nodeClicked(const QString& node);

protected:
    void rebuild() override;

private:
    std::vector<LayerAccuracy> m_layers;
    int m_firstDivergent = -1;
    QComboBox* m_metric;
};

} // namespace embark::ui

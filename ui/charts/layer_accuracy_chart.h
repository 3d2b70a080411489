// Per-layer accuracy against the host reference (cosine, SNR or max relative error), with the
// tolerance as a line, the worst layer highlighted and the first layer that diverges marked:
// where to start looking when an export disagrees. Hovering a point names its layer.
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
    Metric metric() const;
    int firstDivergent() const { return m_firstDivergent; }
    // The worst layer for the current metric (lowest cosine or SNR, highest max rel), -1 = none.
    int worstLayer() const;
    // The current metric's tolerance, drawn as a line: cosine 0.999 and max rel 1e-3 (the
    // thresholds of firstDivergentLayer()), SNR 40 dB (1% noise).
    double tolerance() const;
    // The layer point under a pixel of plot(), -1 = none.
    int layerAt(const QPointF& pos) const;
    QString layerToolTip(int index) const;

    QString toolTipAt(const QPointF& pos) const override;
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

// The frame every chart shares: a QCustomPlot styled from the palette, a row for the chart's
// own controls, and export to PNG, PDF, SVG (by file suffix) or the data as CSV.
#pragma once

#include <QWidget>

class QCustomPlot;
class QCPAxis;
class QHBoxLayout;

namespace embark::ui {

class ChartWidget : public QWidget {
    Q_OBJECT
public:
    explicit ChartWidget(QWidget* parent = nullptr);
    QCustomPlot* plot() const { return m_plot; }

    // The chart's data as CSV with a header row.
    virtual QString toCsv() const = 0;
    virtual bool hasData() const = 0;

    // Writes the chart (.png, .pdf, .svg) or its data (.csv); false with `error` set when
    // the suffix is unknown or the file cannot be written.
    bool exportTo(const QString& path, QString* error = nullptr);

protected:
    QHBoxLayout* controls() const { return m_controls; }
    // Axis, grid and background colours from the current palette (light or dark).
    void applyPalette();
    void changeEvent(QEvent* event) override;
    // Category labels (node names, run labels) at keys 0..n-1, rotated when many.
    static void setCategoryLabels(QCPAxis* axis, const QStringList& labels);
    // Subclasses redraw everything from their data.
    virtual void rebuild() = 0;

private:
    void exportWithDialog();

    QCustomPlot* m_plot;
    QHBoxLayout* m_controls;
};

} // namespace embark::ui

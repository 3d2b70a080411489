// The frame every chart shares: a QCustomPlot styled from the palette, a row for the chart's
// own controls, export to PNG, PDF, SVG (by file suffix) or the data as CSV, a hint over an
// empty chart, tooltips, a legend below the plot (never over the data), and "rows": a
// horizontal bar layout with one readable, middle-elided label per row that scrolls when the
// rows do not fit (hundreds of layers stay legible instead of a smear).
#pragma once

#include <QWidget>

class QCustomPlot;
class QCPAxis;
class QHBoxLayout;
class QLabel;
class QScrollBar;

namespace embark::ui {

class ChartWidget : public QWidget {
    Q_OBJECT
public:
    explicit ChartWidget(QWidget* parent = nullptr);
    QCustomPlot* plot() const { return m_plot; }

    // The chart's data as CSV with a header row.
    virtual QString toCsv() const = 0;
    virtual bool hasData() const = 0;
    // What the chart shows over the plot while it has no data (how to get some).
    QString placeholderText() const;
    bool placeholderVisible() const;
    // The tooltip at a pixel of plot() (what hovering shows); empty = none.
    virtual QString toolTipAt(const QPointF& pos) const;

    // Writes the chart (.png, .pdf, .svg) or its data (.csv); false with `error` set when
    // the suffix is unknown or the file cannot be written. An image carries the export
    // title above the plot (the screen does not: the banner says it there).
    bool exportTo(const QString& path, QString* error = nullptr);
    // What an exported image says it shows: "Layer timing · run #7 · resnet18 · sim-k230 ·
    // portable · ..." (empty: no title).
    void setExportTitle(const QString& title) { m_exportTitle = title; }
    QString exportTitle() const { return m_exportTitle; }

    // Rows (see setRows): how many are laid out, the first shown and how many fit.
    int rowCount() const { return int(m_rowLabels.size()); }
    int firstVisibleRow() const;
    int visibleRowCount() const { return m_visibleRows; }
    // The labels as drawn (elided) and the row under a pixel of plot(), -1 = none.
    QStringList rowTickLabels() const;
    int rowAt(const QPointF& pos) const;
    QScrollBar* rowScrollBar() const { return m_rowScroll; }
    void scrollToRow(int row);

    // `text` shortened in the middle to `pixels` in `font`: the start (which block) and the
    // end (which op) of an ONNX path both stay readable.
    static QString elideMiddle(const QString& text, const QFont& font, int pixels);

protected:
    QHBoxLayout* controls() const { return m_controls; }
    // Axis, grid and background colours from the current palette (light or dark).
    void applyPalette();
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void setPlaceholderText(const QString& text);
    // Moves the legend from over the axis rect to a row below it.
    void placeLegendBelow(int columns = 4);
    // Category labels at keys 0..n-1 of a horizontal axis: middle-elided names when they fit
    // side by side (returns true), else layer numbers (false; the tooltips name the layers).
    bool setCategoryLabels(QCPAxis* axis, const QStringList& labels);
    // Horizontal bars: rows 0..n-1 on yAxis, row 0 at the top, each label middle-elided to
    // a width that leaves the plot room; rows that do not fit scroll (scroll bar and wheel).
    void setRows(const QStringList& labels);
    // Back to a plain numeric yAxis (a chart that switches between layouts).
    void clearRows();
    // Subclasses redraw everything from their data.
    virtual void rebuild() = 0;

private:
    void exportWithDialog();
    void updatePlaceholder();
    void updateRowWindow();
    // As many legend columns as the plot's width holds (entries are never clipped); true
    // when that changed the legend.
    bool fitLegend();
    int rowPixels() const;

    QCustomPlot* m_plot;
    QHBoxLayout* m_controls;
    QLabel* m_placeholder;
    QScrollBar* m_rowScroll;
    QStringList m_rowLabels;
    int m_visibleRows = 0;
    bool m_rowsActive = false;
    bool m_inRowUpdate = false;
    int m_legendColumns = 0; // the most columns placeLegendBelow() allows; 0 = legend inside
    QString m_exportTitle;
};

} // namespace embark::ui

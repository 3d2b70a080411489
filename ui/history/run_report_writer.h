// The studio's run report: core's HTML (store/run_report.h) with the studio's own charts as
// images, written as one self-contained HTML file (PNG data URLs) or, for a ".pdf" name, as
// PDF (QTextDocument on QPdfWriter). The file is written whole or not at all.
#pragma once

#include "store/run_record.h"

#include <QImage>
#include <QPageLayout>
#include <QString>

#include <memory>
#include <vector>

class QTextDocument;

namespace embark::ui {

class ChartWidget;

// Draws `chart`'s plot off screen at the report's width, as tall as its rows need (every
// layer of "the 25 slowest" is on paper, none scrolled away).
QImage renderChartForReport(ChartWidget* chart);

struct ReportChart {
    QString title;
    QImage image;
};

// The charts of `run` (timing, accuracy when it has per-layer figures, latency), or of `run`
// against `against` (the comparison, then the timing of `run`), drawn off screen.
std::vector<ReportChart> renderReportCharts(const store::RunRecord& run, const store::RunRecord* against);

// The PDF's document: the report's HTML with the charts as resources, paginated to A4 with
// 15 mm margins in the document's own 96-dpi units, each chart as wide as the page's text
// and never wider. (Printed unpaginated on a 150-dpi writer, images are scaled by the
// writer's resolution and ran off the right edge: the axis stopped at layer 28 of 31.)
std::unique_ptr<QTextDocument> runReportPdfDocument(const store::RunRecord& run, const store::RunRecord* against);
// The page the PDF is printed on.
QPageLayout runReportPageLayout();

// Writes the report to `path` (.html/.htm or .pdf); returns an error message, empty on success.
QString writeRunReport(const QString& path, const store::RunRecord& run, const store::RunRecord* against = nullptr);

} // namespace embark::ui

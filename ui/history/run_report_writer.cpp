#include "run_report_writer.h"

#include "charts/latency_chart.h"
#include "charts/layer_accuracy_chart.h"
#include "charts/layer_timing_chart.h"
#include "charts/run_comparison_chart.h"
#include "jobs/run_charts.h"

#include "export/kernel_libraries.h"
#include "store/run_report.h"

#include <QApplication>
#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QPageSize>
#include <QPainter>
#include <QFontMetrics>
#include <qcustomplot.h>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <memory>

namespace embark::ui {

namespace {

constexpr int kChartWidth = 960;
constexpr int kChartHeight = 480;
constexpr int kTopLayers = 25;

// The studio's report options: its table size, the kernel libraries' colours.
store::ReportOptions reportOptions() {
    store::ReportOptions options;
    options.topLayers = kTopLayers;
    for (const targets::KernelLibrary& lib : exporter::kernelLibraries())
        options.libraryColours[lib.id] = QString::fromStdString(lib.reportColour);
    return options;
}

} // namespace

QImage renderChartForReport(ChartWidget* chart) {
    chart->setAttribute(Qt::WA_DontShowOnScreen);
    chart->resize(kChartWidth, kChartHeight);
    chart->show();
    QCoreApplication::sendPostedEvents();
    QApplication::processEvents();
    // Rows that scroll on the screen would be missing on paper: grow until every row fits.
    for (int attempt = 0; attempt < 4 && chart->rowCount() > chart->visibleRowCount(); ++attempt) {
        const int rows = chart->rowCount(), visible = std::max(1, chart->visibleRowCount());
        const int perRow = std::max(12, chart->plot()->axisRect()->height() / visible) + 2;
        chart->resize(kChartWidth, chart->height() + (rows - visible) * perRow);
        QCoreApplication::sendPostedEvents();
        QApplication::processEvents();
    }
    // The plot alone: the chart's own controls (view, top N) mean nothing on paper.
    QImage image = chart->plot()->grab().toImage();
    chart->hide();
    return image;
}

namespace {

// The title drawn above the chart, so a page break never parts them (PDF).
QImage titled(const QString& title, const QImage& chart) {
    QFont font = QApplication::font();
    font.setBold(true);
    font.setPixelSize(20);
    const int band = QFontMetrics(font).height() + 14;
    QImage out(chart.width(), chart.height() + band, QImage::Format_ARGB32);
    out.fill(Qt::white);
    QPainter painter(&out);
    painter.setFont(font);
    painter.setPen(Qt::black);
    painter.drawText(QRect(0, 0, chart.width(), band), Qt::AlignLeft | Qt::AlignVCenter, title);
    painter.drawImage(0, band, chart);
    painter.end();
    return out;
}

} // namespace

std::vector<ReportChart> renderReportCharts(const store::RunRecord& run, const store::RunRecord* against) {
    // The report is in English like `embark-cli runs report`: its chart titles too.
    std::vector<ReportChart> charts;
    const RunCharts shown = runChartsFromRecord(run);
    if (against) {
        const RunCharts base = runChartsFromRecord(*against);
        auto comparison = std::make_unique<RunComparisonChart>();
        comparison->setRuns({RunSeries{base.label, base.latenciesMs, base.layers, base.modelPath},
                             RunSeries{shown.label, shown.latenciesMs, shown.layers, shown.modelPath}});
        charts.push_back({QStringLiteral("Run #%1 against run #%2").arg(run.id).arg(against->id),
                          renderChartForReport(comparison.get())});
    }
    if (!shown.layers.empty()) {
        auto timing = std::make_unique<LayerTimingChart>();
        timing->setLayers(shown.layers);
        timing->setView(LayerTimingChart::View::Slowest);
        timing->setTopCount(kTopLayers);
        charts.push_back({QStringLiteral("The %1 slowest layers of run #%2").arg(kTopLayers).arg(run.id),
                          renderChartForReport(timing.get())});
        timing->setView(LayerTimingChart::View::ByOpType);
        charts.push_back({QStringLiteral("Time by op type, run #%1").arg(run.id), renderChartForReport(timing.get())});
    }
    if (!shown.accuracy.empty()) {
        auto accuracy = std::make_unique<LayerAccuracyChart>();
        accuracy->setLayers(shown.accuracy, shown.firstDivergentNode);
        charts.push_back(
            {QStringLiteral("Per-layer accuracy of run #%1").arg(run.id), renderChartForReport(accuracy.get())});
    }
    if (!shown.latenciesMs.empty() && !against) {
        auto latency = std::make_unique<LatencyChart>();
        latency->setSamples(shown.latenciesMs);
        charts.push_back(
            {QStringLiteral("Latency distribution of run #%1").arg(run.id), renderChartForReport(latency.get())});
    }
    return charts;
}

QPageLayout runReportPageLayout() {
    return QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 15, 15, 15),
                       QPageLayout::Millimeter);
}

std::unique_ptr<QTextDocument> runReportPdfDocument(const store::RunRecord& run, const store::RunRecord* against) {
    auto document = std::make_unique<QTextDocument>();
    // The page's text area in the document's units (96 per inch; the layout has no paint
    // device), so the layout is the page's and print() only scales it to the writer.
    const QRectF paint = runReportPageLayout().paintRect(QPageLayout::Point);
    document->setPageSize(paint.size() * (96.0 / 72.0));
    // Unbreakable strings (a model's SHA-256, long layer names) wrap anywhere rather than
    // widen their table past the page's right edge.
    QTextOption wrap = document->defaultTextOption();
    wrap.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    document->setDefaultTextOption(wrap);
    const double margin = document->rootFrame()->frameFormat().margin();
    const int textWidth = int(document->pageSize().width() - 2 * margin) - 2;
    const std::vector<ReportChart> charts = renderReportCharts(run, against);
    store::ReportOptions options = reportOptions();
    options.svgCharts = false;
    for (size_t i = 0; i < charts.size(); ++i) {
        store::ReportImage image;
        // A resource with its title in it, so a page break never parts them.
        image.src = QStringLiteral("embark-chart-%1.png").arg(i);
        const QImage drawn = titled(charts[i].title, charts[i].image);
        image.width = std::min(textWidth, drawn.width());
        document->addResource(QTextDocument::ImageResource, QUrl(image.src), drawn);
        options.images.push_back(image);
    }
    document->setHtml(store::runReportHtml(run, against, options));
    // The HTML's own margins (the body's) take from the page too: narrow the charts by what
    // still overflows, keeping their proportions.
    const double overflow = std::ceil(document->idealWidth() - document->pageSize().width());
    if (overflow > 0) {
        std::vector<std::pair<int, int>> images; // position, length
        for (QTextBlock b = document->begin(); b.isValid(); b = b.next())
            for (auto it = b.begin(); !it.atEnd(); ++it)
                if (it.fragment().charFormat().isImageFormat())
                    images.emplace_back(it.fragment().position(), it.fragment().length());
        for (const auto& [position, length] : images) {
            QTextCursor cursor(document.get());
            cursor.setPosition(position);
            cursor.setPosition(position + length, QTextCursor::KeepAnchor);
            QTextImageFormat image = cursor.charFormat().toImageFormat();
            if (!image.isValid() || image.width() <= overflow) continue;
            image.setWidth(image.width() - overflow);
            cursor.setCharFormat(image);
        }
    }
    return document;
}

QString writeRunReport(const QString& path, const store::RunRecord& run, const store::RunRecord* against) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool pdf = suffix == QLatin1String("pdf");
    if (!pdf && suffix != QLatin1String("html") && suffix != QLatin1String("htm"))
        return QCoreApplication::translate(
                   "RunReport", "A report is written as HTML or PDF: name the file .html or .pdf (not '%1').")
            .arg(QFileInfo(path).fileName());
    if (!pdf) {
        const std::vector<ReportChart> charts = renderReportCharts(run, against);
        store::ReportOptions options = reportOptions();
        options.svgCharts = false;
        for (const ReportChart& chart : charts) {
            store::ReportImage image;
            image.title = chart.title;
            QByteArray png;
            QBuffer buffer(&png);
            buffer.open(QIODevice::WriteOnly);
            chart.image.save(&buffer, "PNG");
            image.src = QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
            image.width = chart.image.width();
            options.images.push_back(image);
        }
        const Status written = store::writeReport(path, store::runReportHtml(run, against, options));
        return written.ok() ? QString() : QString::fromStdString(written.error().message);
    }
    const std::unique_ptr<QTextDocument> document = runReportPdfDocument(run, against);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("RunReport", "Cannot write %1: %2").arg(path, file.errorString());
    {
        QPdfWriter writer(&file);
        writer.setPageLayout(runReportPageLayout());
        writer.setTitle(QStringLiteral("Embark run report"));
        writer.setCreator(QStringLiteral("Embark"));
        writer.setResolution(150);
        document->print(&writer);
    }
    if (!file.commit())
        return QCoreApplication::translate("RunReport", "Cannot write %1: %2").arg(path, file.errorString());
    return {};
}

} // namespace embark::ui

#include "charts_panel.h"

#include "latency_chart.h"
#include "layer_accuracy_chart.h"
#include "layer_timing_chart.h"
#include "run_comparison_chart.h"

#include <QFileInfo>
#include <QLocale>
#include <QTabWidget>
#include <QVBoxLayout>

namespace embark::ui {

ChartsPanel::ChartsPanel(QWidget* parent) : QWidget(parent) {
    m_tabs = new QTabWidget(this);
    m_timing = new LayerTimingChart(m_tabs);
    m_accuracy = new LayerAccuracyChart(m_tabs);
    m_latency = new LatencyChart(m_tabs);
    m_comparison = new RunComparisonChart(m_tabs);
    m_tabs->addTab(m_timing, tr("Timing"));
    m_tabs->addTab(m_accuracy, tr("Accuracy"));
    m_tabs->addTab(m_latency, tr("Latency"));
    m_tabs->addTab(m_comparison, tr("Comparison"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    connect(m_timing, &LayerTimingChart::nodeClicked, this, &ChartsPanel::nodeClicked);
    connect(m_accuracy, &LayerAccuracyChart::nodeClicked, this, &ChartsPanel::nodeClicked);
}

bool sameModelPath(const QString& a, const QString& b) {
    if (a.isEmpty() || b.isEmpty()) return false;
    return a == b || QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath() ||
           (QFileInfo(a).canonicalFilePath() == QFileInfo(b).canonicalFilePath() &&
            !QFileInfo(a).canonicalFilePath().isEmpty());
}

QString runBannerText(const RunCharts& run) {
    QStringList parts;
    parts << (run.runId > 0 ? ChartsPanel::tr("run #%1").arg(run.runId) : ChartsPanel::tr("unsaved run"));
    if (!run.modelPath.isEmpty()) parts << QFileInfo(run.modelPath).completeBaseName();
    if (!run.boardId.isEmpty()) parts << run.boardId;
    if (!run.library.isEmpty()) parts << run.library;
    if (run.date.isValid()) parts << QLocale().toString(run.date.toLocalTime(), QLocale::ShortFormat);
    return parts.join(QStringLiteral(" \u00b7 "));
}

void ChartsPanel::showRun(const RunCharts& run) {
    m_runModel = run.modelPath;
    m_shown = run;
    m_timing->setLayers(run.layers);
    m_accuracy->setLayers(run.accuracy, run.firstDivergentNode);
    m_latency->setSamples(run.latenciesMs);
    // An exported chart says which run it is of (model, board, library, run id).
    const QString banner = runBannerText(run);
    m_timing->setExportTitle(tr("Layer timing \u00b7 %1").arg(banner));
    m_accuracy->setExportTitle(tr("Layer accuracy \u00b7 %1").arg(banner));
    m_latency->setExportTitle(tr("Latency \u00b7 %1").arg(banner));
    emit runShown(run);
}

void ChartsPanel::compareRuns(const std::vector<RunSeries>& runs) {
    m_comparison->setRuns(runs);
    QStringList labels;
    for (const RunSeries& r : runs) labels << r.label;
    m_comparison->setExportTitle(labels.isEmpty() ? QString()
                                                  : tr("Run comparison \u00b7 %1").arg(labels.join(tr(" vs "))));
}

void ChartsPanel::clear() {
    m_runModel.clear();
    m_shown.reset();
    m_timing->setLayers({});
    m_accuracy->setLayers({});
    m_latency->setSamples({});
    m_comparison->setRuns({});
    emit cleared();
}

void ChartsPanel::clearForModel(const QString& modelPath) {
    if (!sameModelPath(m_runModel, modelPath)) {
        m_runModel.clear();
        const bool hadRun = m_shown.has_value();
        m_shown.reset();
        m_timing->setLayers({});
        m_accuracy->setLayers({});
        m_latency->setSamples({});
        if (hadRun) emit cleared(); // the graph drops the other model's colours and banner
    }
    bool keep = m_comparison->hasData();
    for (const RunSeries& r : m_comparison->runs()) keep = keep && sameModelPath(r.modelPath, modelPath);
    if (!keep) m_comparison->setRuns({});
}

} // namespace embark::ui

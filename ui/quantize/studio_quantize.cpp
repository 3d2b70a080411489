#include "studio_quantize.h"

#include "charts/charts_panel.h"
#include "jobs/studio_jobs.h"
#include "quant_error_chart.h"
#include "quantize_dialog.h"
#include "session/studio_session.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabWidget>

#include <algorithm>

namespace embark::ui {

namespace {

QuantErrorSeries seriesOf(const jobs::QuantizeResult& r, const QString& label) {
    QuantErrorSeries s;
    s.label = label;
    s.snrDropDb = r.request.snrDropDb;
    for (const jobs::NodeError& n : r.nodes) {
        QuantLayerError l;
        l.node = QString::fromStdString(n.node);
        l.op = QString::fromStdString(n.op);
        l.value = QString::fromStdString(n.error.value);
        l.quantized = n.quantized;
        l.firstDrop = n.firstDrop;
        l.snrDb = n.error.accuracy.snrDb;
        l.cosine = n.error.accuracy.cosine;
        l.maxAbs = n.error.accuracy.maxAbs;
        s.layers.push_back(l);
    }
    return s;
}

bool samePath(const QString& a, const QString& b) {
    return !a.isEmpty() && !b.isEmpty() && QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath();
}

bool hasQdq(const std::shared_ptr<const ir::Graph>& g) {
    if (g)
        for (const ir::Node* n : g->nodes())
            if (n->op == ir::OpKind::QuantizeLinear || n->op == ir::OpKind::DequantizeLinear) return true;
    return false;
}

} // namespace

QString StudioQuantize::alreadyQuantized(const QString& path) {
    return tr("%1 is already quantized: open its float model to quantize it, or use 'Keep in float' on the "
              "Quantization chart.")
        .arg(QFileInfo(path).fileName());
}

StudioQuantize::StudioQuantize(QMainWindow* window, StudioSession* session, StudioJobs* jobs, ChartsPanel* charts)
    : QObject(window), m_window(window), m_session(session), m_jobs(jobs), m_charts(charts) {
    m_chart = new QuantErrorChart(charts->tabs());
    charts->tabs()->addTab(m_chart, tr("Quantization"));
    // A bar selects its node in the graph as the other charts' layers do.
    connect(m_chart, &QuantErrorChart::nodeClicked, charts, &ChartsPanel::nodeClicked);
    connect(m_chart, &QuantErrorChart::keepInFloatRequested, this, [this](const QString& node) { keepInFloat(node); });
    connect(m_chart, &QuantErrorChart::openModelRequested, this, &StudioQuantize::openQuantizedModel);

    auto* menu = new QMenu(tr("&Model"), window);
    QAction* before = nullptr; // the Run menu, else Help
    const QList<QAction*> menus = window->menuBar()->actions();
    for (QAction* a : menus)
        if (a->menu() && a->menu()->actions().contains(jobs->exportAction())) before = a;
    if (!before && !menus.isEmpty()) before = menus.last();
    window->menuBar()->insertMenu(before, menu);
    m_quantizeAction = menu->addAction(tr("&Quantize..."), this, &StudioQuantize::quantizeWithDialog);
    m_quantizeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Q));
    m_quantizeAction->setToolTip(
        tr("Quantize the open float model to int8 (QDQ) on calibration data, as a background job"));
    m_openAction = menu->addAction(tr("&Open quantized model"), this, &StudioQuantize::openQuantizedModel);
    m_openAction->setEnabled(false);

    connect(jobs->queue(), &jobs::JobQueue::finished, this, &StudioQuantize::onFinished);
    auto modelChanged = [this] {
        m_quantizeAction->setEnabled(m_session->hasModel());
        // Another model's error chart would name nodes the graph does not have.
        const QString open = m_session->modelPath();
        if (m_lastRequest && !samePath(open, m_lastRequest->modelPath) && !samePath(open, m_lastRequest->outPath)) {
            m_chart->setSeries({});
            m_last.reset();
            m_lastRequest.reset();
            m_floatGraph.reset();
            m_openAction->setEnabled(false);
        }
    };
    connect(session, &StudioSession::modelChanged, this, modelChanged);
    modelChanged();
}

void StudioQuantize::notify(const QString& text) { m_window->statusBar()->showMessage(text, 15000); }

void StudioQuantize::quantizeWithDialog() {
    if (!m_session->hasModel()) return notify(tr("Open a float model before quantizing it."));
    if (hasQdq(m_session->stageGraph(0))) return notify(alreadyQuantized(m_session->modelPath()));
    QuantizeDialog dialog(m_session->modelPath(), m_session->stageGraph(0), m_window);
    if (m_lastRequest && samePath(m_lastRequest->modelPath, m_session->modelPath())) dialog.setRequest(*m_lastRequest);
    if (dialog.exec() != QDialog::Accepted) return;
    quantize(dialog.request());
}

int StudioQuantize::quantize(jobs::QuantizeRequest request) {
    if (!m_session->hasModel()) return notify(tr("Open a float model before quantizing it.")), -1;
    if (request.modelPath.isEmpty()) request.modelPath = m_session->modelPath();
    if (samePath(request.modelPath, m_session->modelPath())) {
        // Quantizing a QDQ model again would leave it as it is and compare it with itself.
        if (hasQdq(m_session->stageGraph(0))) return notify(alreadyQuantized(request.modelPath)), -1;
        request.shapeOverrides = m_session->shapeOverrides();
        m_floatGraph = m_session->stageGraph(0);
    }
    const QString title = request.excludeNodes.isEmpty()
                              ? tr("Quantize %1 (%2)")
                                    .arg(QFileInfo(request.modelPath).completeBaseName(),
                                         QString::fromLatin1(passes::calibrationMethodName(request.options.method)))
                              : tr("Quantize %1 (%2, %n node(s) in float)", nullptr, int(request.excludeNodes.size()))
                                    .arg(QFileInfo(request.modelPath).completeBaseName(),
                                         QString::fromLatin1(passes::calibrationMethodName(request.options.method)));
    const int id = m_jobs->queue()->enqueue(jobs::makeQuantizeJob(std::move(request), title));
    m_pending[id] = QString();
    return id;
}

QString StudioQuantize::keepInFloatTarget(const QString& node) const {
    if (!m_floatGraph) return {};
    std::string target = jobs::keepInFloatTarget(*m_floatGraph, node.toStdString());
    // A node of a later stage (a fused Conv+Relu) stands for the ONNX nodes it came from.
    for (int stage = m_session->lastStage(); target.empty() && stage > 0; --stage)
        if (auto g = m_session->stageGraph(stage))
            if (const ir::Node* n = g->findNode(node.toStdString()))
                for (const std::string& original : n->provenance)
                    if (target.empty()) target = jobs::keepInFloatTarget(*m_floatGraph, original);
    return QString::fromStdString(target);
}

int StudioQuantize::keepInFloat(const QString& node) {
    if (!m_lastRequest) return notify(tr("Quantize the model first (Model > Quantize...).")), -1;
    const QString target = keepInFloatTarget(node);
    if (target.isEmpty())
        return notify(tr("'%1' is not a layer quantization makes int8 (Conv, Gemm or MatMul with constant weights).")
                          .arg(node)),
               -1;
    jobs::QuantizeRequest request = *m_lastRequest;
    if (request.excludeNodes.contains(target)) return notify(tr("'%1' is already kept in float.").arg(target)), -1;
    request.excludeNodes << target;
    const QString title =
        tr("Quantize %1 with '%2' in float").arg(QFileInfo(request.modelPath).completeBaseName(), target);
    const int id = m_jobs->queue()->enqueue(jobs::makeQuantizeJob(std::move(request), title));
    m_pending[id] = target;
    return id;
}

void StudioQuantize::addNodeActions(QMenu* menu, const QString& node) {
    if (!m_last) return;
    const QString target = keepInFloatTarget(node);
    if (target.isEmpty()) return;
    menu->addSeparator();
    QAction* keep = menu->addAction(tr("Keep '%1' in float and quantize again").arg(target), this,
                                    [this, target] { keepInFloat(target); });
    keep->setEnabled(!m_lastRequest || !m_lastRequest->excludeNodes.contains(target));
}

void StudioQuantize::onFinished(int id) {
    const auto pending = m_pending.find(id);
    if (pending == m_pending.end()) return;
    const QString kept = pending->second;
    m_pending.erase(pending);
    const auto job = m_jobs->queue()->job(id);
    const std::any result = job ? job->result() : std::any();
    const auto* r = std::any_cast<jobs::QuantizeResult>(&result);
    if (!job || job->state() != jobs::JobState::Succeeded || !r) {
        emit quantizeFinished(id, false);
        return;
    }
    const QString method = QString::fromLatin1(passes::calibrationMethodName(r->request.options.method));
    const int int8 = int(r->quantizedNodes.size());
    std::vector<QuantErrorSeries> series;
    if (!kept.isEmpty() && m_last) {
        series.push_back(
            seriesOf(*m_last, tr("before (%n int8 layer(s))", nullptr, int(m_last->quantizedNodes.size()))));
        series.push_back(seriesOf(*r, tr("with '%1' in float (%n int8 layer(s))", nullptr, int8).arg(kept)));
    } else {
        series.push_back(seriesOf(*r, tr("%1, %n int8 layer(s)", nullptr, int8).arg(method)));
    }
    m_last = *r;
    m_lastRequest = r->request;
    m_chart->setSeries(std::move(series));
    // A long model scrolls: show the node just kept in float (one row above it for context).
    if (!kept.isEmpty()) m_chart->scrollToRow(std::max(0, int(m_chart->rowNodes().indexOf(kept)) - 1));
    m_openAction->setEnabled(true);
    showChart();
    emit quantizeFinished(id, true);
}

void StudioQuantize::showChart() {
    m_charts->tabs()->setCurrentWidget(m_chart);
    m_jobs->reveal(m_jobs->chartsDock());
}

void StudioQuantize::openQuantizedModel() {
    if (!m_last) return notify(tr("Quantize the model first (Model > Quantize...)."));
    const QString path = m_last->request.outPath;
    if (m_opener)
        m_opener(path);
    else
        m_session->openModelInBackground(path);
}

} // namespace embark::ui

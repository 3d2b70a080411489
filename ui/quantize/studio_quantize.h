// The studio's quantization loop: Model > Quantize... on the open float model runs a
// background job (the Jobs dock shows its progress and cancels it); when it is done the
// Charts dock's Quantization tab shows each quantized layer's SNR against the float model.
// "Keep in float" on a node (graph or chart) quantizes again with that node excluded and
// shows the new error beside the old. The quantized model can then be opened in the studio.
#pragma once

#include "jobs/quantize_job.h"

#include <QObject>

#include <functional>
#include <map>
#include <memory>
#include <optional>

class QAction;
class QMainWindow;
class QMenu;

namespace embark::ui {

class ChartsPanel;
class QuantErrorChart;
class StudioJobs;
class StudioSession;

class StudioQuantize : public QObject {
    Q_OBJECT
public:
    // Adds a Model menu (before Run) and the chart's tab to `charts`.
    StudioQuantize(QMainWindow* window, StudioSession* session, StudioJobs* jobs, ChartsPanel* charts);

    QAction* quantizeAction() const { return m_quantizeAction; }
    QAction* openQuantizedAction() const { return m_openAction; }
    QuantErrorChart* chart() const { return m_chart; }

    // Queues a quantization of request.modelPath (the open model's graph is its float model);
    // returns the job id, or -1 after telling the user why not.
    int quantize(jobs::QuantizeRequest request);
    // Queues the last quantization again with `node` (a node of the float model, or of the
    // fused graph standing for one) kept in float; -1 with a notice when it cannot.
    int keepInFloat(const QString& node);
    // The float node keepInFloat(node) would exclude; empty when none.
    QString keepInFloatTarget(const QString& node) const;
    // "Keep 'node' in float" for the graph's context menu (nothing before a quantization).
    void addNodeActions(QMenu* menu, const QString& node);
    // The newest finished quantization, if any.
    const std::optional<jobs::QuantizeResult>& lastResult() const { return m_last; }
    // Opens the newest quantized model in the studio (through the opener, by default the
    // session's background open).
    void openQuantizedModel();
    void setModelOpener(std::function<void(const QString& path)> opener) { m_opener = std::move(opener); }

signals:
    // A quantization job of this loop ended (any state); its chart is shown on success.
    void quantizeFinished(int jobId, bool succeeded);

private:
    void quantizeWithDialog();
    void onFinished(int id);
    void showChart();
    void notify(const QString& text);
    static QString alreadyQuantized(const QString& path);

    QMainWindow* m_window;
    StudioSession* m_session;
    StudioJobs* m_jobs;
    ChartsPanel* m_charts;
    QuantErrorChart* m_chart;
    QAction* m_quantizeAction = nullptr;
    QAction* m_openAction = nullptr;
    std::function<void(const QString&)> m_opener;
    std::shared_ptr<const ir::Graph> m_floatGraph; // of the float model quantized last
    std::optional<jobs::QuantizeRequest> m_lastRequest;
    std::optional<jobs::QuantizeResult> m_last;
    // Job id -> the node that job keeps in float (empty: a fresh quantization from the dialog).
    std::map<int, QString> m_pending;
};

} // namespace embark::ui

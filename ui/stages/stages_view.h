// The PassManager's stages side by side: a "before" and an "after" graph, each with a stage
// selector, selection linked through provenance, and the rewrite log of the "after" stage.
#pragma once

#include <QHash>
#include <QWidget>

class QComboBox;
class QListWidget;
class QSplitter;

namespace embark::ui {

class GraphPanel;
class StudioSession;

class StagesView : public QWidget {
    Q_OBJECT
public:
    explicit StagesView(StudioSession* session, QWidget* parent = nullptr);

    GraphPanel* beforePanel() const { return m_before; }
    GraphPanel* afterPanel() const { return m_after; }
    QComboBox* beforeStage() const { return m_beforeStage; }
    QComboBox* afterStage() const { return m_afterStage; }
    QListWidget* rewriteLog() const { return m_log; }
    // The panel holding keyboard focus, else "after" (for fit/zoom/find actions).
    GraphPanel* activePanel() const;

    void setSideBySide(bool on);
    bool isSideBySide() const;

    // The nodes a rewrite-log line names ('conv1', 'bn1'), in each pane's stage: an original
    // node, or the node it became. Empty when the line names none.
    QStringList rewriteNodes(int row, const GraphPanel* panel) const;

public slots:
    // Selects a node of the last (fused) stage by name, as a chart bar does, and centres it
    // in the "after" pane and its original nodes in the "before" pane.
    void revealNode(const QString& node);
    // Highlights the nodes of rewrite-log row `row` in both panes and frames them.
    void showRewrite(int row);
    // Colours both panes by a per-node figure keyed by node names of the last stage (a run's
    // per-layer time or error; fused nodes carry their block's figure); nodes of other
    // stages get the figure of the node they became. An empty map restores the colours.
    void setNodeMetric(const QHash<QString, double>& values, const QString& label);

signals:
    void nodeContextMenuRequested(const QString& node, const QPoint& globalPos);

private:
    void reloadStages();
    void showStage(GraphPanel* panel, int stage);
    void applySelection(int stage, const QString& node);
    void applyMetric(GraphPanel* panel);
    int stageOf(const GraphPanel* panel) const;

    StudioSession* m_session;
    GraphPanel* m_before;
    GraphPanel* m_after;
    QComboBox* m_beforeStage;
    QComboBox* m_afterStage;
    QListWidget* m_log;
    QWidget* m_beforeBox;
    QHash<QString, double> m_metric; // by node name of the last stage
    QString m_metricLabel;
    QString m_metricModel; // the model the figures are for
};

} // namespace embark::ui

// The PassManager's stages side by side: a "before" and an "after" graph, each with a stage
// selector, selection linked through provenance, and the rewrite log of the "after" stage.
#pragma once

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

signals:
    void nodeContextMenuRequested(const QString& node, const QPoint& globalPos);

private:
    void reloadStages();
    void showStage(GraphPanel* panel, int stage);
    void applySelection(int stage, const QString& node);
    int stageOf(const GraphPanel* panel) const;

    StudioSession* m_session;
    GraphPanel* m_before;
    GraphPanel* m_after;
    QComboBox* m_beforeStage;
    QComboBox* m_afterStage;
    QListWidget* m_log;
    QWidget* m_beforeBox;
};

} // namespace embark::ui

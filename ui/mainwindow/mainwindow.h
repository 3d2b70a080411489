// The studio's main window: assembles the stage views, docks and actions, remembers its
// layout and recent files. Each panel is its own widget; the session holds the state.
#pragma once

#include <QMainWindow>

class QMenu;

namespace embark::ui {

class ChartsPanel;
class PropertiesPanel;
class RunHistoryPanel;
class StagesView;
class StudioJobs;
class StudioSession;
class TargetPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Opens a model on a worker thread (the window stays responsive); the outcome shows in
    // the status bar, an error also in a message box unless `quiet`.
    void loadModel(const QString& path, bool quiet = false);
    // The same, returning when the model is open (true) or refused (false).
    bool openModel(const QString& path, bool quiet = false);

    StudioSession* session() const { return m_session; }
    StagesView* stages() const { return m_stages; }
    PropertiesPanel* properties() const { return m_properties; }
    TargetPanel* target() const { return m_target; }
    ChartsPanel* charts() const { return m_charts; }
    StudioJobs* jobs() const { return m_jobs; }
    RunHistoryPanel* history() const { return m_history; }
    QStringList recentFiles() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createDocks();
    void rememberRecent(const QString& path);
    void rebuildRecentMenu();
    void showNodeMenu(const QString& node, const QPoint& globalPos);
    void modelOpenFinished(const QString& path, const QString& error);

    StudioSession* m_session;
    StagesView* m_stages;
    PropertiesPanel* m_properties;
    TargetPanel* m_target;
    ChartsPanel* m_charts;
    StudioJobs* m_jobs = nullptr;
    RunHistoryPanel* m_history;
    bool m_quietOpen = false;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
};

} // namespace embark::ui

// The studio's main window: assembles the stage views, docks and actions, remembers its
// layout and recent files. Each panel is its own widget; the session holds the state.
#pragma once

#include "ir/shape.h"

#include <QMainWindow>

#include <map>
#include <memory>
#include <string>

class QDockWidget;
class QStackedWidget;
class QMenu;

namespace embark::ui {

class ChartsPanel;
class RunBanner;
struct RunCharts;
class PropertiesPanel;
class RunHistoryPanel;
class StagesView;
class StudioJobs;
class StudioQuantize;
class StudioSession;
class StudioSweep;
class TargetPanel;
class Workspaces;
class WelcomePage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override; // m_pendingRun's type is complete in the .cpp

    // Opens a model on a worker thread (the window stays responsive); the outcome shows in
    // the status bar, an error also in a message box unless `quiet`. A model whose inputs
    // have free dimensions opens the input-shapes dialog first (unless `quiet`); `shapes`
    // gives them directly.
    void loadModel(const QString& path, bool quiet = false, const std::map<std::string, ir::Shape>& shapes = {});
    // The same, returning when the model is open (true) or refused (false).
    bool openModel(const QString& path, bool quiet = false, const std::map<std::string, ir::Shape>& shapes = {});

    // Shows a stored run's charts and colours on its own model: a run of another model
    // opens that model first, and the board and library selectors follow the run. A run
    // whose model file is gone shows its charts only (the banner says so); its figures are
    // never drawn on another model's graph.
    void showRun(const RunCharts& run);
    RunBanner* runBanner() const { return m_banner; }
    Workspaces* workspaces() const { return m_workspaces; }
    WelcomePage* welcome() const { return m_welcome; }
    // The welcome page (recent models and runs) instead of the graphs, or back.
    void showWelcome(bool on);
    bool isWelcomeShown() const;

    StudioSession* session() const { return m_session; }
    StagesView* stages() const { return m_stages; }
    PropertiesPanel* properties() const { return m_properties; }
    TargetPanel* target() const { return m_target; }
    ChartsPanel* charts() const { return m_charts; }
    StudioJobs* jobs() const { return m_jobs; }
    StudioQuantize* quantize() const { return m_quantize; }
    StudioSweep* sweep() const { return m_sweep; }
    RunHistoryPanel* history() const { return m_history; }
    QStringList recentFiles() const;
    QDockWidget* propertiesDock() const { return m_propertiesDock; }
    QDockWidget* targetDock() const { return m_targetDock; }
    QDockWidget* chartsDock() const { return m_chartsDock; }
    QDockWidget* historyDock() const { return m_historyDock; }
    QDockWidget* farmDock() const { return m_farmDock; }
    QDockWidget* rewritesDock() const { return m_rewritesDock; }
    // Fits the window in the screen's free area (a 1366x768 laptop too).
    void fitToScreen();
    // The window's geometry (maximised or not), workspace and dock layouts as they were last
    // on a screen of the size of the one the window is on (the constructor calls it; call it
    // again after moving the window to a screen of another size before showing it). A screen
    // size seen for the first time: the window fits the screen, maximised on a screen larger
    // than the default size, and each workspace takes its default layout.
    void restoreLayout();
    // Saves them under the current screen's size (closing the window does).
    void saveLayout() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createDocks();
    // The figures the graph can be coloured by, for the selector and Properties.
    void updateMemoryFigures();
    void updateNodeFigures();
    void rememberRecent(const QString& path);
    void rebuildRecentMenu();
    void showNodeMenu(const QString& node, const QPoint& globalPos);
    void modelOpenFinished(const QString& path, const QString& error);
    void askInputShapes(const QString& path);
    void showShortcuts();
    void showUserGuide();
    void applyRun(const RunCharts& run);
    // Asks before a running or queued job is cancelled by closing; true = go ahead.
    bool confirmCloseWithJobs();

    StudioSession* m_session;
    StagesView* m_stages;
    PropertiesPanel* m_properties;
    TargetPanel* m_target;
    ChartsPanel* m_charts;
    StudioJobs* m_jobs = nullptr;
    StudioQuantize* m_quantize = nullptr;
    StudioSweep* m_sweep = nullptr;
    RunHistoryPanel* m_history;
    RunBanner* m_banner = nullptr;
    Workspaces* m_workspaces = nullptr;
    WelcomePage* m_welcome = nullptr;
    QStackedWidget* m_pages = nullptr;
    std::unique_ptr<RunCharts> m_pendingRun; // shown once its model is open
    QDockWidget* m_propertiesDock = nullptr;
    QDockWidget* m_targetDock = nullptr;
    QDockWidget* m_chartsDock = nullptr;
    QDockWidget* m_historyDock = nullptr;
    QDockWidget* m_rewritesDock = nullptr;
    QDockWidget* m_farmDock = nullptr;
    bool m_quietOpen = false;
    bool m_openHadShapes = false;
    QMenu* m_recentMenu = nullptr;
    QAction* m_openAction = nullptr;
    QMenu* m_viewMenu = nullptr;
};

} // namespace embark::ui

// Workspaces, as Qt Creator's modes: Inspect (graphs, Properties, Target, Rewrites), Run
// (graphs, Target, Jobs and Charts) and Compare (Run history on the right, the Charts below
// the graphs). A mode bar
// switches them; each keeps its own dock layout and sizes, remembered per screen size, so a
// 1366x768 laptop shows a few panes at useful sizes instead of every dock at once.
#pragma once

#include <QHash>
#include <QObject>
#include <QSize>

class QAction;
class QActionGroup;
class QDockWidget;
class QMainWindow;
class QMenu;
class QToolBar;

namespace embark::ui {

class Workspaces : public QObject {
    Q_OBJECT
public:
    enum class Mode { Inspect = 0, Run, Compare };
    static constexpr int kModeCount = 3;

    struct Docks {
        QDockWidget* properties = nullptr;
        QDockWidget* target = nullptr;
        QDockWidget* charts = nullptr;
        QDockWidget* jobs = nullptr;
        QDockWidget* history = nullptr;
        QDockWidget* rewrites = nullptr;
    };

    // Adds the mode bar (left edge) and the View > Workspace entries (Ctrl+1..3).
    Workspaces(QMainWindow* window, const Docks& docks, QMenu* viewMenu);

    Mode mode() const { return m_mode; }
    static QString modeName(Mode mode);
    QAction* action(Mode mode) const { return m_actions[int(mode)]; }
    QToolBar* bar() const { return m_bar; }

    // Switches to `mode`: the current layout is kept for when the user comes back; the new
    // one is the remembered layout for this screen size, else the mode's default.
    void setMode(Mode mode);
    // Shows `dock` in a workspace that has it (`mode`), raised, switching when needed.
    void reveal(QDockWidget* dock, Mode mode);
    // The mode's default layout, sized for the window as it is now.
    void applyDefault(Mode mode);

    // Restores the last mode and its layouts saved for the window's screen size (false: none).
    bool restore();
    // Saves every mode's layout and the current mode under the screen size.
    void save() const;
    // "1366x768": the settings group of the window's screen size.
    QString screenKey() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void arrange(Mode mode);
    void size(Mode mode);

    QMainWindow* m_window;
    Docks m_docks;
    QToolBar* m_bar;
    QActionGroup* m_group;
    QAction* m_actions[kModeCount] = {};
    Mode m_mode = Mode::Inspect;
    QHash<int, QByteArray> m_states; // saveState() of each mode visited
    bool m_switching = false;
    QByteArray m_deferred; // the restored layout of a window not shown yet, applied once shown
};

} // namespace embark::ui

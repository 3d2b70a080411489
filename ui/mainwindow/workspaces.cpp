#include "workspaces.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QMenu>
#include <QScreen>
#include <QSettings>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <utility>

namespace embark::ui {

namespace {

// saveState()'s version for a workspace's layout (layouts of the single, all-docks window
// before workspaces, and older workspace layouts, are not restored).
constexpr int kStateVersion = 5; // 5: Compare's history on the right

const char* modeKey(Workspaces::Mode mode) {
    switch (mode) {
    case Workspaces::Mode::Inspect: return "inspect";
    case Workspaces::Mode::Run: return "run";
    case Workspaces::Mode::Compare: return "compare";
    }
    return "inspect";
}

} // namespace

Workspaces::Workspaces(QMainWindow* window, const Docks& docks, QMenu* viewMenu)
    : QObject(window), m_window(window), m_docks(docks) {
    m_bar = new QToolBar(tr("Workspaces"), window);
    m_bar->setObjectName(QStringLiteral("workspaceBar"));
    m_bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_bar->setMovable(false);
    // First in the top row, like Qt Creator's mode bar is first at the left.
    if (auto* first = window->findChild<QToolBar*>(QStringLiteral("mainToolBar")))
        window->insertToolBar(first, m_bar);
    else
        window->addToolBar(Qt::TopToolBarArea, m_bar);
    m_group = new QActionGroup(this);
    QMenu* menu = viewMenu->addMenu(tr("&Workspace"));
    const QString tips[kModeCount] = {
        tr("Inspect the model: the graphs before and after fusion, Properties, Target and the rewrites (Ctrl+1)"),
        tr("Run on the board: the graphs, Target, the jobs and the charts of the run (Ctrl+2)"),
        tr("Compare runs: the run history beside the charts (Ctrl+3)")};
    for (int i = 0; i < kModeCount; ++i) {
        const Mode mode = Mode(i);
        QAction* a = new QAction(modeName(mode), this);
        a->setCheckable(true);
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        a->setToolTip(tips[i]);
        a->setObjectName(QStringLiteral("workspace_") + QLatin1String(modeKey(mode)));
        m_group->addAction(a);
        m_bar->addAction(a);
        menu->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode] { setMode(mode); });
        m_actions[i] = a;
    }
    m_actions[0]->setChecked(true);
    viewMenu->addSeparator();
    // The right column (Properties, Target; Compare's history) runs down to the status bar and
    // the bottom docks sit under the graphs only: above the bottom docks the column left the
    // Target ~150 px on a 768-line screen, its library row scrolled away.
    m_window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
}

QString Workspaces::modeName(Mode mode) {
    switch (mode) {
    case Mode::Inspect: return tr("Inspect");
    case Mode::Run: return tr("Run");
    case Mode::Compare: return tr("Compare");
    }
    return {};
}

QString Workspaces::screenKey() const {
    const QScreen* s = m_window->screen();
    const QSize size = s ? s->size() : QSize();
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

void Workspaces::setMode(Mode mode) {
    m_actions[int(mode)]->setChecked(true);
    if (mode == m_mode || m_switching) return;
    m_switching = true;
    m_states[int(m_mode)] = m_deferred.isEmpty() ? m_window->saveState(kStateVersion) : m_deferred;
    m_deferred.clear();
    m_mode = mode;
    auto it = m_states.constFind(int(mode));
    if (it == m_states.constEnd() || !m_window->restoreState(*it, kStateVersion)) applyDefault(mode);
    m_switching = false;
}

void Workspaces::reveal(QDockWidget* dock, Mode mode) {
    if (!dock) return;
    if (dock->isHidden()) setMode(mode);
    dock->show();
    dock->raise();
}

void Workspaces::arrange(Mode mode) {
    const Docks& d = m_docks;
    QList<QDockWidget*> shown;
    for (QDockWidget* dock : {d.properties, d.target, d.charts, d.jobs, d.history, d.rewrites})
        if (dock) dock->setFloating(false);
    auto add = [this](Qt::DockWidgetArea area, QDockWidget* dock) {
        if (dock) m_window->addDockWidget(area, dock);
    };
    switch (mode) {
    case Mode::Inspect:
        // Properties above the target on the right; the rewrite list below the graphs.
        add(Qt::RightDockWidgetArea, d.properties);
        add(Qt::RightDockWidgetArea, d.target);
        if (d.properties && d.target) m_window->splitDockWidget(d.properties, d.target, Qt::Vertical);
        add(Qt::BottomDockWidgetArea, d.rewrites);
        shown = {d.properties, d.target, d.rewrites};
        break;
    case Mode::Run:
        // The target (board, library, overrides) above Properties down the right side; the
        // jobs and the run's charts as tabs below the graphs.
        add(Qt::RightDockWidgetArea, d.target);
        add(Qt::RightDockWidgetArea, d.properties);
        if (d.properties && d.target) m_window->splitDockWidget(d.target, d.properties, Qt::Vertical);
        add(Qt::BottomDockWidgetArea, d.charts);
        add(Qt::BottomDockWidgetArea, d.jobs);
        if (d.charts && d.jobs) m_window->tabifyDockWidget(d.charts, d.jobs);
        shown = {d.target, d.properties, d.charts, d.jobs};
        break;
    case Mode::Compare:
        // The history down the whole right side (its table gets the height), the charts
        // under the graphs (a chart's layer still selects its node): the graphs keep a
        // useful height on a 768-line screen, which the history and charts side by side at
        // the bottom left them (~150 px).
        add(Qt::RightDockWidgetArea, d.history);
        add(Qt::BottomDockWidgetArea, d.charts);
        shown = {d.history, d.charts};
        break;
    }
    for (QDockWidget* dock : {d.properties, d.target, d.charts, d.jobs, d.history, d.rewrites})
        if (dock) dock->setVisible(shown.contains(dock));
    if (mode == Mode::Run && d.jobs) d.jobs->raise();
}

void Workspaces::size(Mode mode) {
    const Docks& d = m_docks;
    const int w = m_window->width(), h = m_window->height();
    auto vertical = [this](QDockWidget* dock, int pixels) {
        if (dock) m_window->resizeDocks({dock}, {pixels}, Qt::Vertical);
    };
    auto horizontal = [this](QDockWidget* dock, int pixels) {
        if (dock) m_window->resizeDocks({dock}, {pixels}, Qt::Horizontal);
    };
    switch (mode) {
    case Mode::Inspect:
        vertical(d.rewrites, std::max(110, h / 5));
        horizontal(d.properties, std::clamp(w * 27 / 100, 340, 460)); // the target's pickers need ~340 px
        if (d.properties && d.target)
            m_window->resizeDocks({d.properties, d.target}, {h * 11 / 20, h * 9 / 20}, Qt::Vertical);
        break;
    case Mode::Run:
        vertical(d.charts, std::max(220, h * 2 / 5));
        horizontal(d.target, std::clamp(w * 27 / 100, 340, 460));
        // The target is what this workspace is about: its pickers whole.
        if (d.properties && d.target)
            m_window->resizeDocks({d.target, d.properties}, {h * 3 / 5, h * 2 / 5}, Qt::Vertical);
        break;
    case Mode::Compare:
        horizontal(d.history, std::clamp(w * 2 / 5, 420, 640));
        vertical(d.charts, std::max(240, h * 2 / 5));
        break;
    }
}

void Workspaces::applyDefault(Mode mode) {
    arrange(mode);
    size(mode);
    // Once the layout has its geometry (a window just shown or resized).
    QTimer::singleShot(0, this, [this, mode] {
        if (m_mode == mode) size(mode);
    });
}

bool Workspaces::restore() {
    QSettings settings;
    settings.beginGroup(QStringLiteral("window/") + screenKey());
    const bool found = settings.contains(QStringLiteral("workspace"));
    const Mode mode = Mode(std::clamp(settings.value(QStringLiteral("workspace"), 0).toInt(), 0, kModeCount - 1));
    m_states.clear(); // another screen size's layouts do not carry over
    for (int i = 0; i < kModeCount; ++i) {
        const QByteArray state = settings.value(QLatin1String(modeKey(Mode(i)))).toByteArray();
        if (!state.isEmpty()) m_states[i] = state;
    }
    settings.endGroup();
    m_mode = mode;
    m_actions[int(mode)]->setChecked(true);
    auto it = m_states.constFind(int(mode));
    m_deferred.clear();
    if (it != m_states.constEnd() && !m_window->isVisible()) {
        // Restored into a window not shown yet, a layout saved maximised on a large screen
        // crashed Qt's dock layout on show (QLayout::activate). The default layout until the
        // window is shown, then the saved one.
        applyDefault(mode);
        m_deferred = *it;
        m_window->installEventFilter(this);
    } else if (it == m_states.constEnd() || !m_window->restoreState(*it, kStateVersion)) {
        applyDefault(mode);
    }
    return found;
}

bool Workspaces::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_window && event->type() == QEvent::Show && !m_deferred.isEmpty()) {
        m_window->removeEventFilter(this);
        QTimer::singleShot(0, this, [this] {
            const QByteArray state = std::exchange(m_deferred, QByteArray());
            if (state.isEmpty()) return; // the mode was changed meanwhile
            if (!m_window->restoreState(state, kStateVersion)) applyDefault(m_mode);
        });
    }
    return QObject::eventFilter(watched, event);
}

void Workspaces::save() const {
    QSettings settings;
    settings.beginGroup(QStringLiteral("window/") + screenKey());
    settings.setValue(QStringLiteral("workspace"), int(m_mode));
    for (int i = 0; i < kModeCount; ++i) {
        const QByteArray state = Mode(i) != m_mode       ? m_states.value(i)
                                 : !m_deferred.isEmpty() ? m_deferred // never shown: the saved one stays
                                                         : m_window->saveState(kStateVersion);
        if (!state.isEmpty()) settings.setValue(QLatin1String(modeKey(Mode(i))), state);
    }
    settings.endGroup();
}

} // namespace embark::ui

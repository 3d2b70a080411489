#include "mainwindow.h"
#include "targets/source_tree.h"

#include "charts/chart_data.h"
#include "charts/charts_panel.h"
#include "charts/run_banner.h"
#include "charts/layer_timing_chart.h"
#include "charts/run_comparison_chart.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/properties_panel.h"
#include "help_dialogs.h"
#include "input_shapes_dialog.h"
#include "jobs/studio_jobs.h"
#include "quantize/studio_quantize.h"
#include "farm/farm_devices_panel.h"
#include "history/run_history_panel.h"
#include "session/qt_text.h"
#include "session/session_commands.h"
#include "session/studio_session.h"
#include "settings/language.h"
#include "ssh/studio_ssh_options.h"
#include "stages/stages_view.h"
#include "sweep/studio_sweep.h"
#include "sweep/sweep_view.h"
#include "targetpanel/target_panel.h"
#include "welcome_page.h"
#include "workspaces.h"

#include "targets/kernel_library.h"
#include "export/kernel_libraries.h"

#include <QActionGroup>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QPushButton>
#include <QDragEnterEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

namespace embark::ui {

namespace {

constexpr int kMaxRecent = 8;
// The window's size at a first start on a screen that has room for it.
constexpr QSize kDefaultSize(1500, 950);
const char* const kRecentKey = "recentFiles";
// A panel that may be taller or wider than its dock: it scrolls instead of setting the
// dock's (and so the window's) minimum size.
QScrollArea* scrolled(QWidget* panel, QWidget* parent) {
    auto* area = new QScrollArea(parent);
    area->setWidget(panel);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setObjectName(panel->objectName().isEmpty() ? QStringLiteral("scroll")
                                                      : panel->objectName() + QStringLiteral("Scroll"));
    return area;
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Embark"));
    setAcceptDrops(true);
    m_session = new StudioSession(this);
    m_stages = new StagesView(m_session, this);
    // The banner above the graphs says which run the charts and colours show.
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    m_banner = new RunBanner(central);
    centralLayout->addWidget(m_banner);
    centralLayout->addWidget(m_stages, 1);
    // While no model is open: the welcome page (recent models and runs, the sample model).
    m_welcome = new WelcomePage(targets::sourceTree() + "/resources/models/digits_cnn.onnx", this);
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_welcome);
    m_pages->addWidget(central);
    setCentralWidget(m_pages);
    m_properties = new PropertiesPanel(m_session, this);
    m_target = new TargetPanel(m_session, this);
    m_charts = new ChartsPanel(this);
    m_history = new RunHistoryPanel({}, this);
    m_history->setCharts(m_charts);
    m_history->setRunOpener([this](const RunCharts& run) { showRun(run); });
    createActions();
    createDocks();
    connect(m_welcome, &WelcomePage::openRequested, this, [this] { m_openAction->trigger(); });
    connect(m_welcome, &WelcomePage::modelRequested, this, [this](const QString& path) { loadModel(path); });
    connect(m_welcome, &WelcomePage::runRequested, this, [this](qint64 id) { m_history->openRun(id); });
    connect(m_session, &StudioSession::modelChanged, this, [this] { showWelcome(!m_session->hasModel()); });
    for (int i = 0; i < Workspaces::kModeCount; ++i)
        connect(m_workspaces->action(Workspaces::Mode(i)), &QAction::triggered, this, [this] {
            if (m_session->hasModel()) showWelcome(false);
        });
    showWelcome(true);
    connect(m_session, &StudioSession::modelOpenFinished, this, &MainWindow::modelOpenFinished);
    connect(m_stages, &StagesView::nodeContextMenuRequested, this, &MainWindow::showNodeMenu);
    connect(m_stages, &StagesView::moduleSelected, m_properties, &PropertiesPanel::showModule);
    connect(m_stages, &StagesView::foldFailed, this,
            [this](const QString& message) { statusBar()->showMessage(message); });
    // A chart's layer selects and centres its node in both panes.
    connect(m_charts, &ChartsPanel::nodeClicked, m_stages, &StagesView::revealNode);
    // Another model's runs leave the charts; the run shown colours the graph by layer time.
    connect(m_session, &StudioSession::modelChanged, m_charts,
            [this] { m_charts->clearForModel(m_session->modelPath()); });
    connect(m_charts, &ChartsPanel::runShown, this, [this](const RunCharts& run) {
        // A run of another model never colours this one's graph (its names and scale differ).
        const bool ofThisModel = run.modelPath.isEmpty() || sameModelPath(run.modelPath, m_session->modelPath());
        m_banner->setRun(m_charts->shownRun(), ofThisModel);
        QHash<QString, double> ms, error;
        if (ofThisModel) {
            for (const LayerTiming& layer : run.layers) ms.insert(layer.node, layer.ms);
            for (const LayerAccuracy& layer : run.accuracy) error.insert(layer.node, layer.maxRel);
        }
        m_stages->setFigures(StagesView::Colouring::Time, ms);
        m_stages->setFigures(StagesView::Colouring::Error, error);
        // An ONNX Runtime run with its EP subgraphs colours the graph by partition; another run
        // by its layer times unless another figure was chosen.
        // (Partitions name the run's model's nodes: a run of another model has none here.)
        const bool sameModel = run.modelPath.isEmpty() || QFileInfo(run.modelPath).canonicalFilePath() ==
                                                              QFileInfo(m_session->modelPath()).canonicalFilePath();
        const RunPartitions partitions = sameModel ? run.partitions : RunPartitions{};
        m_stages->setPartitions(partitions);
        m_properties->setPartitions(partitions);
        if (partitions.valid)
            m_stages->setColouring(StagesView::Colouring::Partition);
        else if (m_stages->colouring() == StagesView::Colouring::Default)
            m_stages->setColouring(StagesView::Colouring::Time);
        updateNodeFigures();
    });
    connect(m_banner, &RunBanner::backRequested, m_charts, &ChartsPanel::clear);
    connect(m_charts, &ChartsPanel::cleared, this, [this] {
        m_banner->setRun(nullptr);
        m_stages->setFigures(StagesView::Colouring::Time, {});
        m_stages->setFigures(StagesView::Colouring::Error, {});
        m_stages->setPartitions({});
        m_properties->setPartitions({});
        updateNodeFigures();
    });
    // The memory plan's bytes in use while each node runs, for the "memory" colours.
    connect(m_session, &StudioSession::targetChanged, this, &MainWindow::updateMemoryFigures);
    connect(m_session, &StudioSession::modelChanged, this, &MainWindow::updateMemoryFigures);

    // The window's size and each workspace's layout as they were on a screen of this size.
    restoreLayout();
    QSettings settings;
    m_stages->setSideBySide(settings.value(QStringLiteral("window/sideBySide"), true).toBool());
    const QString board = settings.value(QStringLiteral("board"), QStringLiteral("sim-k230")).toString();
    m_session->setBoard(board);
    m_session->setLibrary(settings.value(QStringLiteral("library"), QStringLiteral("portable")).toString());
    statusBar()->showMessage(tr("Open an ONNX model (Ctrl+O) or drop one on the window."));
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open model..."), QKeySequence::Open, this, [this] {
        const QString dir = QFileInfo(m_session->modelPath()).absolutePath();
        const QString path = QFileDialog::getOpenFileName(this, tr("Open ONNX model"), dir, tr("ONNX models (*.onnx)"));
        if (!path.isEmpty()) loadModel(path);
    });
    open->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
    m_openAction = open;
    m_recentMenu = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addAction(tr("&Welcome page"), this, [this] { showWelcome(true); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    // Board, library and override edits; the actions read "Undo Set library to xnnpack".
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_session->undoStack()->createUndoAction(this, tr("Undo"));
    undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    QAction* redo = m_session->undoStack()->createRedoAction(this, tr("Redo"));
    redo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    edit->addAction(undo);
    edit->addAction(redo);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* fit = m_viewMenu->addAction(tr("&Fit graph"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
                                         [this] { m_stages->activePanel()->view()->fitAll(); });
    m_viewMenu->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, this,
                          [this] { m_stages->activePanel()->view()->zoomBy(1.25); });
    m_viewMenu->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this,
                          [this] { m_stages->activePanel()->view()->zoomBy(0.8); });
    QAction* find = m_viewMenu->addAction(tr("&Find node..."), QKeySequence::Find, this,
                                          [this] { m_stages->activePanel()->focusSearch(); });
    QAction* sideBySide = m_viewMenu->addAction(tr("&Before and after side by side"));
    sideBySide->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    sideBySide->setCheckable(true);
    sideBySide->setChecked(true);
    connect(sideBySide, &QAction::toggled, m_stages, &StagesView::setSideBySide);
    m_viewMenu->addSeparator();

    QMenu* settingsMenu = menuBar()->addMenu(tr("&Settings"));
    settingsMenu->addAction(tr("&SSH connection of the board..."), m_target, &TargetPanel::editSsh);
    QMenu* language = settingsMenu->addMenu(tr("&Language"));
    auto* languages = new QActionGroup(this);
    for (const Language& l : availableLanguages()) {
        QAction* a = language->addAction(l.nativeName);
        a->setCheckable(true);
        a->setChecked(l.code == languageSetting());
        languages->addAction(a);
        connect(a, &QAction::triggered, this, [this, code = l.code] {
            setLanguageSetting(code);
            QMessageBox::information(this, tr("Language"), tr("The new language applies the next time Embark starts."));
        });
    }
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&User guide"), QKeySequence::HelpContents, this, &MainWindow::showUserGuide);
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash), this,
                    &MainWindow::showShortcuts);
    help->addSeparator();
    help->addAction(tr("&About Embark"), this, [this] {
        QMessageBox::about(this, tr("About Embark"),
                           tr("<h3>Embark %1</h3><p>From an ONNX model to an embedded board: inspect, fuse, "
                              "choose a board and kernel library, export, run and compare.</p>")
                               .arg(QStringLiteral(EMBARK_VERSION)));
    });

    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->addAction(open);
    bar->addAction(fit);
    bar->addAction(find);
    bar->addAction(sideBySide);
    connect(m_session, &StudioSession::modelChanged, this, [this, sideBySide] {
        sideBySide->setChecked(m_stages->isSideBySide());
        setWindowTitle(tr("%1 - Embark").arg(QFileInfo(m_session->modelPath()).fileName()));
    });
}

void MainWindow::createDocks() {
    // The right column runs the window's full height: Properties and Target are the tall
    // panels, the bottom tabs (charts, jobs, history) want width.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    auto dock = [this](QWidget* widget, const QString& title, const QString& id, Qt::DockWidgetArea area,
                       const QKeySequence& shortcut) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(id); // saveState() needs stable object names
        d->setWidget(widget);
        addDockWidget(area, d);
        QAction* toggle = d->toggleViewAction();
        toggle->setShortcut(shortcut);
        m_viewMenu->addAction(toggle);
        return d;
    };
    // The right column: Properties above the target. The target panel (pickers, overrides,
    // memory plan) scrolls, so it never stops the splitter between them.
    m_propertiesDock = dock(m_properties, tr("Properties"), QStringLiteral("propertiesDock"), Qt::RightDockWidgetArea,
                            QKeySequence(Qt::ALT | Qt::Key_1));
    m_targetDock = dock(scrolled(m_target, this), tr("Target"), QStringLiteral("targetDock"), Qt::RightDockWidgetArea,
                        QKeySequence(Qt::ALT | Qt::Key_2));
    // The bottom: Charts, Jobs and Run history as tabs of one area, so showing one never
    // adds its height to the others' (the window fits a 1366x768 screen with all of them).
    m_chartsDock = dock(scrolled(m_charts, this), tr("Charts"), QStringLiteral("chartsDock"), Qt::BottomDockWidgetArea,
                        QKeySequence(Qt::ALT | Qt::Key_3));
    m_jobs =
        new StudioJobs(this, m_session, m_charts, m_viewMenu); // Jobs dock (tabbed with Charts), Run menu and toolbar
    connect(m_target, &TargetPanel::buildXnnpackRequested, m_jobs, &StudioJobs::buildXnnpackWithDialog);
    // Deploy and benchmark jobs ask for host keys and passwords through the studio's dialogs.
    m_jobs->setSshOptionsProvider([this](const QString&) { return studioSshOptions(this); });
    // Model > Quantize..., its error chart (a Charts tab) and "keep in float".
    m_quantize = new StudioQuantize(this, m_session, m_jobs, m_charts);
    m_quantize->setModelOpener([this](const QString& path) { loadModel(path); });
    connect(m_jobs, &StudioJobs::benchmarkFinished, m_history, [this](qint64 runId) {
        if (runId > 0) m_history->refresh();
    });
    m_historyDock = dock(scrolled(m_history, this), tr("Run history"), QStringLiteral("historyDock"),
                         Qt::BottomDockWidgetArea, QKeySequence(Qt::ALT | Qt::Key_4));
    // Run > Sweep...: the model x board x library matrix as one job; its cells are stored runs.
    m_sweep = new StudioSweep(this, m_session, m_jobs, m_jobs->runMenu());
    connect(m_sweep, &StudioSweep::sweepFinished, m_history, [this] { m_history->refresh(); });
    connect(m_sweep, &StudioSweep::runOpened, m_history, [this](qint64 runId) {
        m_history->refresh();
        m_history->selectRuns({runId});
        m_history->openSelected();
    });
    // The rewrite list is a bottom tab too: below the graphs it left them ~190 px of a
    // 768-line screen.
    if (QWidget* rewrites = m_stages->takeRewritePanel()) {
        m_rewritesDock = dock(rewrites, tr("Rewrites"), QStringLiteral("rewritesDock"), Qt::BottomDockWidgetArea,
                              QKeySequence(Qt::ALT | Qt::Key_6)); // Alt+5 is the Jobs dock
    }
    // The farm's devices and their state (a bottom tab, hidden until asked for: Alt+7).
    m_farmDock = dock(new FarmDevicesPanel(this), tr("Farm"), QStringLiteral("farmDock"), Qt::BottomDockWidgetArea,
                      QKeySequence(Qt::ALT | Qt::Key_7));
    m_farmDock->hide();
    // Inspect / Run / Compare instead of every dock at once.
    m_workspaces = new Workspaces(
        this, {m_propertiesDock, m_targetDock, m_chartsDock, m_jobs->dock(), m_historyDock, m_rewritesDock},
        m_viewMenu);
    // A job queued shows the Run workspace's jobs, a finished run its charts.
    m_jobs->setDockRevealer([this](QDockWidget* dock) { m_workspaces->reveal(dock, Workspaces::Mode::Run); });
    connect(m_history, &RunHistoryPanel::chartsShown, this, [this](bool comparison) {
        m_workspaces->reveal(m_chartsDock, comparison ? Workspaces::Mode::Compare : Workspaces::Mode::Run);
        m_charts->tabs()->setCurrentWidget(comparison ? static_cast<QWidget*>(m_charts->comparison())
                                                      : static_cast<QWidget*>(m_charts->timing()));
    });
}

void MainWindow::showWelcome(bool on) {
    if (on) {
        m_welcome->setRecentModels(recentFiles());
        QList<WelcomePage::RecentRun> runs;
        for (const store::RunSummary& r : m_history->recentRuns(8)) {
            RunCharts run;
            run.runId = r.id;
            run.modelPath = QString::fromStdString(r.modelPath);
            run.boardId = QString::fromStdString(r.boardId);
            run.library = QString::fromStdString(r.kernelLibrary);
            run.date = r.date;
            QString text = runBannerText(run);
            if (r.status != store::RunStatus::Ok)
                text += QStringLiteral(" \u00b7 ") + RunHistoryPanel::statusName(r.status);
            else if (r.latency.medianNs > 0)
                text += QStringLiteral(" \u00b7 ") + formatTime(r.latency.medianNs / 1e6);
            runs.append({r.id, text});
        }
        m_welcome->setRecentRuns(runs);
    }
    m_pages->setCurrentWidget(on ? static_cast<QWidget*>(m_welcome) : m_pages->widget(1));
}

bool MainWindow::isWelcomeShown() const { return m_pages->currentWidget() == m_welcome; }

void MainWindow::updateMemoryFigures() {
    QHash<QString, double> bytes;
    if (const auto& plan = m_session->memoryPlan()) {
        const std::vector<size_t> live = plan->liveBytesPerStep();
        for (size_t step = 0; step < plan->schedule.size() && step < live.size(); ++step)
            bytes.insert(QString::fromStdString(plan->schedule[step]), double(live[step]));
    }
    m_stages->setFigures(StagesView::Colouring::Memory, bytes);
    updateNodeFigures();
}

void MainWindow::updateNodeFigures() {
    QList<PropertiesPanel::Figure> figures;
    for (auto kind : {StagesView::Colouring::Time, StagesView::Colouring::Error, StagesView::Colouring::Memory})
        figures << PropertiesPanel::Figure{StagesView::figureLabel(kind), m_stages->figures(kind),
                                           kind == StagesView::Colouring::Memory};
    m_properties->setNodeFigures(figures);
}

void MainWindow::fitToScreen() {
    const QScreen* s = screen();
    if (!s) return resize(kDefaultSize);
    // The frame (title bar, borders) is not part of resize()'s size.
    const QRect free = s->availableGeometry().adjusted(0, 0, -16, -40);
    resize(qMin(kDefaultSize.width(), free.width()), qMin(kDefaultSize.height(), free.height()));
    move(free.topLeft() + QPoint((free.width() - width()) / 2, (free.height() - height()) / 2));
}

void MainWindow::restoreLayout() {
    const QSettings settings;
    const QString group = QStringLiteral("window/") + m_workspaces->screenKey();
    if (!restoreGeometry(settings.value(group + QStringLiteral("/geometry")).toByteArray())) {
        setWindowState(windowState() & ~Qt::WindowMaximized);
        fitToScreen();
        // The default size leaves much of a large screen (1920x1080) unused: take all of it.
        const QScreen* s = screen();
        if (s && (s->availableGeometry().width() > kDefaultSize.width() + 100 ||
                  s->availableGeometry().height() > kDefaultSize.height() + 100))
            setWindowState(windowState() | Qt::WindowMaximized);
    }
    m_workspaces->restore();
}

void MainWindow::saveLayout() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/") + m_workspaces->screenKey() + QStringLiteral("/geometry"),
                      saveGeometry());
    m_workspaces->save();
}

void MainWindow::showShortcuts() {
    ShortcutsDialog dialog(menuBar(), this);
    dialog.exec();
}

void MainWindow::showUserGuide() {
    auto* guide = findChild<UserGuideDialog*>();
    if (!guide) {
        guide = new UserGuideDialog(this); // not modal: read it while using the studio
        guide->setAttribute(Qt::WA_DeleteOnClose);
    }
    guide->show();
    guide->raise();
}

void MainWindow::loadModel(const QString& path, bool quiet, const std::map<std::string, ir::Shape>& shapes) {
    m_quietOpen = quiet;
    m_openHadShapes = !shapes.empty();
    statusBar()->showMessage(tr("Opening %1...").arg(path));
    m_session->openModelInBackground(path, shapes);
}

bool MainWindow::openModel(const QString& path, bool quiet, const std::map<std::string, ir::Shape>& shapes) {
    QString error = tr("superseded by another model");
    QEventLoop loop;
    connect(m_session, &StudioSession::modelOpenFinished, &loop, [&](const QString& opened, const QString& e) {
        if (opened == path) error = e;
        if (opened == path || !m_session->isOpening()) loop.quit();
    });
    loadModel(path, quiet, shapes);
    loop.exec(); // the window stays responsive: the import runs on a worker
    return error.isEmpty();
}

void MainWindow::modelOpenFinished(const QString& path, const QString& error) {
    std::unique_ptr<RunCharts> pending;
    if (m_pendingRun && sameModelPath(m_pendingRun->modelPath, path)) pending = std::move(m_pendingRun);
    if (error.isEmpty() && pending) QTimer::singleShot(0, this, [this, run = *pending] { applyRun(run); });
    if (!error.isEmpty()) {
        // Free input dimensions: the importer's advice is the CLI's --shape; the studio asks.
        if (!m_quietOpen && !m_openHadShapes && error.contains(QLatin1String("--shape")) &&
            InputShapesDialog::needsShapes(path)) {
            statusBar()->showMessage(tr("%1 has inputs of free size: choose their shapes").arg(path));
            QTimer::singleShot(0, this, [this, path] { askInputShapes(path); });
            return;
        }
        if (!m_quietOpen) QMessageBox::warning(this, tr("Cannot open model"), error);
        statusBar()->showMessage(tr("Cannot open %1").arg(path));
        return;
    }
    rememberRecent(QFileInfo(path).absoluteFilePath());
    // Shapes the user chose for free dimensions: the next open of this model asks no more.
    if (m_openHadShapes && !m_quietOpen) InputShapesDialog::rememberShapes(path, m_session->shapeOverrides());
    statusBar()->showMessage(tr("Opened %1: %2 nodes, %3 after fusion")
                                 .arg(path)
                                 .arg(m_session->stageGraph(0)->nodeCount())
                                 .arg(m_session->stageGraph(m_session->lastStage())->nodeCount()));
}

void MainWindow::askInputShapes(const QString& path) {
    std::vector<onnx::DeclaredInput> inputs;
    if (!InputShapesDialog::needsShapes(path, &inputs)) return;
    // Asked once per model: the shapes chosen last time, while the file is unchanged.
    if (const auto known = InputShapesDialog::rememberedShapes(path); !known.empty()) {
        statusBar()->showMessage(tr("Opening %1 with the input shapes chosen last time").arg(path));
        loadModel(path, false, known);
        return;
    }
    InputShapesDialog dialog(path, std::move(inputs), this);
    if (dialog.exec() != QDialog::Accepted) {
        statusBar()->showMessage(tr("%1 was not opened: its input shapes are needed").arg(path));
        return;
    }
    loadModel(path, false, dialog.shapes());
}

QStringList MainWindow::recentFiles() const { return QSettings().value(QLatin1String(kRecentKey)).toStringList(); }

void MainWindow::rememberRecent(const QString& path) {
    QStringList recent = recentFiles();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (int i = 0; i < recent.size(); ++i) {
        QAction* a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(recent.at(i)), this,
                                             [this, path = recent.at(i)] { loadModel(path); });
        if (i < 9) a->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key(Qt::Key_1 + i)));
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::showNodeMenu(const QString& node, const QPoint& globalPos) {
    // Overrides apply to the fused graph, the one the export runs.
    auto fused = m_session->stageGraph(m_session->lastStage());
    const ir::Node* n = fused ? fused->findNode(node.toStdString()) : nullptr;
    QMenu menu(this);
    // A folded box: the menu is the module's, not its first node's.
    if (m_stages->foldedModules(m_stages->afterPanel()).contains(node) ||
        m_stages->foldedModules(m_stages->beforePanel()).contains(node))
        menu.addSection(tr("Module %1").arg(node));
    m_stages->addFoldActions(&menu, node);   // fold by module prefix, in the pane clicked
    m_quantize->addNodeActions(&menu, node); // keep in float, after a quantization
    if (!n) {
        if (!menu.isEmpty()) menu.exec(globalPos);
        return;
    }
    const QString op = toQString(ir::opName(n->op));
    QMenu* nodeMenu = menu.addMenu(tr("Run node '%1' on").arg(node));
    QMenu* opMenu = menu.addMenu(tr("Run every %1 on").arg(op));
    for (const std::string& id : exporter::kernelLibraryIds()) {
        const QString lib = QString::fromStdString(id);
        nodeMenu->addAction(lib, this, [this, node, lib] {
            pushEdit(m_session, std::make_unique<SetNodeOverrideCommand>(m_session, node, lib));
        });
        opMenu->addAction(lib, this, [this, op, lib] {
            pushEdit(m_session, std::make_unique<SetOpOverrideCommand>(m_session, op, lib));
        });
    }
    nodeMenu->addSeparator();
    nodeMenu->addAction(tr("Default (no override)"), this, [this, node] {
        pushEdit(m_session, std::make_unique<SetNodeOverrideCommand>(m_session, node, QString()));
    });
    opMenu->addSeparator();
    opMenu->addAction(tr("Default (no override)"), this, [this, op] {
        pushEdit(m_session, std::make_unique<SetOpOverrideCommand>(m_session, op, QString()));
    });
    menu.exec(globalPos);
}

void MainWindow::showRun(const RunCharts& run) {
    m_pendingRun.reset();
    if (run.modelPath.isEmpty() || sameModelPath(run.modelPath, m_session->modelPath())) return applyRun(run);
    if (!QFileInfo::exists(run.modelPath)) {
        // Its charts alone, said so by the banner; the graph keeps the open model's colours.
        statusBar()->showMessage(
            tr("%1 is a run of %2, which no longer exists: its charts are shown, not on the graph.")
                .arg(runBannerText(run), QDir::toNativeSeparators(run.modelPath)));
        m_charts->showRun(run);
        return;
    }
    // Its own model first; the charts follow once it is open (modelOpenFinished).
    m_pendingRun = std::make_unique<RunCharts>(run);
    loadModel(run.modelPath);
}

void MainWindow::applyRun(const RunCharts& run) {
    // The selectors follow the run shown, as undoable edits (unknown ids leave them).
    if (!run.boardId.isEmpty()) pushEdit(m_session, std::make_unique<SetBoardCommand>(m_session, run.boardId));
    if (!run.library.isEmpty() && exporter::findKernelLibrary(run.library.toStdString()))
        pushEdit(m_session, std::make_unique<SetLibraryCommand>(m_session, run.library));
    m_charts->showRun(run);
}

bool MainWindow::confirmCloseWithJobs() {
    jobs::JobQueue* queue = m_jobs->queue();
    int active = 0;
    for (const auto& job : queue->jobs())
        if (job->state() == jobs::JobState::Queued || job->state() == jobs::JobState::Running) ++active;
    if (active == 0) return true;
    QMessageBox box(QMessageBox::Question, tr("Jobs are running"),
                    tr("%n job(s) are still running or queued. Cancel them and quit?", nullptr, active),
                    QMessageBox::NoButton, this);
    QPushButton* quit = box.addButton(tr("Cancel jobs and quit"), QMessageBox::DestructiveRole);
    box.setDefaultButton(box.addButton(tr("Keep working"), QMessageBox::RejectRole));
    box.setObjectName(QStringLiteral("quitWithJobs"));
    box.exec();
    if (box.clickedButton() != quit) return false;
    // Cancel, and let each job end (a benchmark stores its run as cancelled) before quitting.
    statusBar()->showMessage(tr("Cancelling the jobs..."));
    queue->cancelAll();
    queue->waitForIdle(60000);
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!confirmCloseWithJobs()) return event->ignore();
    saveLayout();
    QSettings settings;
    settings.setValue(QStringLiteral("window/sideBySide"), m_stages->isSideBySide());
    settings.setValue(QStringLiteral("board"), m_session->boardId());
    settings.setValue(QStringLiteral("library"), m_session->library());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive))
            return event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive)) {
            loadModel(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
    }
}

} // namespace embark::ui

#include "target_panel.h"

#include "session/engine_text.h"

#include "board_dialog.h"
#include "ep_options_dialog.h"

#include "charts/memory_chart.h"
#include "session/session_commands.h"
#include "session/studio_session.h"
#include "ssh/ssh_settings_dialog.h"

#include "targets/kernel_library.h"
#include "xnnpack/xnnpack_resolve.h"
#include "export/kernel_libraries.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>

namespace embark::ui {

TargetPanel::TargetPanel(StudioSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_board = new QComboBox(this);
    m_boardInfo = new QLabel(this);
    m_boardInfo->setWordWrap(true);
    m_library = new QComboBox(this);
    for (const std::string& id : exporter::kernelLibraryIds()) m_library->addItem(QString::fromStdString(id));
    // Each node on the library measured fastest for it on the board (issue 32).
    m_library->addItem(QStringLiteral("auto"));
    m_library->setItemData(m_library->count() - 1,
                           tr("auto: each node runs on the library measured fastest for it on this board"),
                           Qt::ToolTipRole);
    m_auto = new QLabel(this);
    m_auto->setObjectName(QStringLiteral("autoLibraryLine"));
    m_auto->setWordWrap(true);
    m_runtime = new QComboBox(this);
    m_runtime->addItem(tr("Embark export"), QStringLiteral("export"));
    m_runtime->addItem(tr("ONNX Runtime"), QStringLiteral("onnxruntime"));
    m_epOptions = new QPushButton(tr("EP options..."), this);
    m_epOptions->setToolTip(
        tr("Options of the SpacemiT execution provider (threads, affinity, dumps, profile, filters)"));
    m_epSummary = new QLabel(this);
    m_epSummary->setWordWrap(true);
    m_xnnpack = new QLabel(this);
    m_xnnpack->setWordWrap(true);
    m_xnnpack->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_buildXnnpack = new QPushButton(this);
    m_buildXnnpack->setToolTip(tr("Build upstream XNNPACK for this architecture into Embark's cache "
                                  "(embark-cli xnnpack build); exports then link it"));
    m_ssh = new QPushButton(tr("SSH..."), this);
    m_ssh->setToolTip(tr("Connection settings of the selected board: host, user, port, key; test the connection"));
    // New/Edit board in one menu button beside SSH...: two buttons side by side were wider
    // than the dock at 1366x768 in French ("Nouvelle carte..." and "Modifier la carte...").
    m_boardMenu = new QToolButton(this);
    m_boardMenu->setObjectName(QStringLiteral("boardMenuButton"));
    m_boardMenu->setText(tr("Board"));
    m_boardMenu->setToolTip(tr("Create a user board or edit the selected one"));
    m_boardMenu->setPopupMode(QToolButton::InstantPopup);
    m_boardMenu->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* boardMenu = new QMenu(m_boardMenu);
    QAction* addBoard = boardMenu->addAction(tr("New board..."));
    QAction* editBoardAction = boardMenu->addAction(tr("Edit board..."));
    addBoard->setObjectName(QStringLiteral("newBoardAction"));
    editBoardAction->setObjectName(QStringLiteral("editBoardAction"));
    addBoard->setToolTip(tr("Create a user board, starting from the selected one"));
    editBoardAction->setToolTip(tr("Edit the selected board (a built-in board is saved as a user board)"));
    boardMenu->setToolTipsVisible(true);
    m_boardMenu->setMenu(boardMenu);
    m_overrides = new QTreeWidget(this);
    m_overrides->setHeaderLabels({tr("Override"), tr("Library")});
    m_overrides->setRootIsDecorated(false);
    m_overrides->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_overrides->setToolTip(tr("Add overrides from a node's context menu in the graph"));
    auto* removeOverride = new QPushButton(tr("Remove override"), this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_memory = new MemoryChart(this);
    // The dock is narrow at 1366x768 and translations are longer than English: the combo boxes
    // shrink to a few characters (their lists still show whole names) and the override table
    // sizes its library column to its content, so nothing scrolls sideways.
    for (QComboBox* combo : {m_board, m_library, m_runtime}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(8);
    }
    m_overrides->header()->setStretchLastSection(false);
    m_overrides->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);

    auto* form = new QFormLayout;
    auto* boardRow = new QHBoxLayout;
    boardRow->addWidget(m_board, 1);
    form->addRow(tr("Board:"), boardRow);
    form->addRow(m_boardInfo);
    // SSH... and the Board menu on a row of their own: beside the picker they made the row
    // wider than the dock in French.
    auto* boardButtons = new QHBoxLayout;
    boardButtons->addWidget(m_ssh);
    boardButtons->addWidget(m_boardMenu);
    boardButtons->addStretch(1);
    form->addRow(boardButtons);
    form->addRow(tr("Runtime:"), m_runtime);
    form->addRow(m_epOptions, m_epSummary);
    form->addRow(tr("Kernel library:"), m_library);
    form->addRow(m_auto);
    form->addRow(m_xnnpack);
    form->addRow(m_buildXnnpack);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_overrides);
    layout->addWidget(removeOverride);
    layout->addWidget(m_summary);
    layout->addWidget(m_memory, 1);

    // Picks are undoable edits; refresh() re-selecting the session's own board pushes nothing.
    connect(m_board, &QComboBox::currentIndexChanged, this, [this] {
        const QString id = m_board->currentData().toString();
        pushEdit(m_session, std::make_unique<SetBoardCommand>(m_session, id));
    });
    connect(m_library, &QComboBox::currentTextChanged, this,
            [this](const QString& id) { pushEdit(m_session, std::make_unique<SetLibraryCommand>(m_session, id)); });
    connect(m_runtime, &QComboBox::currentIndexChanged, this,
            [this] { m_session->setRuntime(m_runtime->currentData().toString()); });
    connect(m_epOptions, &QPushButton::clicked, this, &TargetPanel::editEpOptions);
    connect(m_ssh, &QPushButton::clicked, this, &TargetPanel::editSsh);
    connect(addBoard, &QAction::triggered, this, [this] { editBoard(true); });
    connect(editBoardAction, &QAction::triggered, this, [this] { editBoard(false); });
    connect(removeOverride, &QPushButton::clicked, this, &TargetPanel::removeSelectedOverride);
    connect(m_buildXnnpack, &QPushButton::clicked, this, [this] {
        if (const targets::Board* b = m_session->board()) emit buildXnnpackRequested(b->arch);
    });
    connect(session, &StudioSession::targetChanged, this, &TargetPanel::refresh);
    connect(session, &StudioSession::modelChanged, this, &TargetPanel::refresh);
    reloadBoards();
    refresh();
}

void TargetPanel::reloadBoards() {
    const QSignalBlocker block(m_board);
    m_board->clear();
    for (const targets::Board& b : m_session->boards().boards)
        m_board->addItem(b.builtIn ? b.id : tr("%1 (user)").arg(b.id), b.id);
    m_board->setCurrentIndex(m_board->findData(m_session->boardId()));
}

void TargetPanel::refresh() {
    if (const targets::Board* b = m_session->board()) {
        m_board->setCurrentIndex(m_board->findData(b->id));
        m_boardInfo->setText(tr("%1\n%2, %3 cores, %4; runs by %5")
                                 .arg(engineText(b->name), b->arch)
                                 .arg(b->cores)
                                 .arg(QLocale().formattedDataSize(b->memoryBytes), b->runnerSummary()));
    }
    {
        const QSignalBlocker block(m_library);
        m_library->setCurrentText(m_session->library());
    }
    {
        // ONNX Runtime only where the board file says where it lives (its "onnxruntime" object).
        const targets::Board* b = m_session->board();
        const QSignalBlocker block(m_runtime);
        m_runtime->setCurrentIndex(m_runtime->findData(m_session->runtime()));
        m_runtime->setEnabled(b && b->onnxruntime);
        m_runtime->setToolTip(
            b && b->onnxruntime
                ? tr("Benchmarks run the model with Embark's export or with %1").arg(b->onnxruntime->describe())
                : tr("This board has no ONNX Runtime: benchmarks run Embark's export"));
        m_library->setEnabled(m_session->runtime() == QLatin1String("export"));
        const bool spacemit = m_session->runtime() == QLatin1String("onnxruntime") && b && b->onnxruntime &&
                              b->onnxruntime->ep == QLatin1String("spacemit");
        m_epOptions->setVisible(spacemit);
        m_epSummary->setVisible(spacemit);
        m_epSummary->setText(m_session->epOptions().isEmpty() ? tr("EP defaults")
                                                              : m_session->epOptions().join(QLatin1Char(' ')));
    }
    refreshXnnpack();
    refreshAuto();
    m_overrides->clear();
    for (const auto& [node, lib] : m_session->request().nodeOverrides)
        new QTreeWidgetItem(m_overrides,
                            {tr("node %1").arg(QString::fromStdString(node)), QString::fromStdString(lib)});
    for (const auto& [op, lib] : m_session->request().opOverrides)
        new QTreeWidgetItem(m_overrides, {tr("every %1").arg(QString::fromStdString(op)), QString::fromStdString(lib)});

    std::map<QString, int> perLibrary;
    for (const auto& [node, a] : m_session->assignments()) ++perLibrary[a.library];
    QStringList parts;
    for (const auto& [lib, count] : perLibrary) parts << tr("%1: %n node(s)", nullptr, count).arg(lib);
    QString summary = parts.join(QStringLiteral(", "));
    if (const auto& plan = m_session->memoryPlan()) {
        summary += QLatin1Char('\n') + tr("Arena %1, lower bound %2")
                                           .arg(QLocale().formattedDataSize(qint64(plan->arenaBytes)),
                                                QLocale().formattedDataSize(qint64(plan->lowerBoundBytes)));
        m_memory->setTimeline(memoryTimeline(*plan));
    } else {
        if (!m_session->memoryPlanError().isEmpty()) summary += QLatin1Char('\n') + m_session->memoryPlanError();
        m_memory->setTimeline({});
    }
    m_summary->setText(summary);
}

// The same resolution embark-cli export and plan make, so the line says what the export links.
void TargetPanel::refreshXnnpack() {
    const targets::Board* b = m_session->board();
    const targets::KernelLibrary* lib = exporter::findKernelLibrary(m_session->library().toStdString());
    // With "auto", XNNPACK is a candidate only where the board links one: say which.
    const bool shown = b && ((lib && lib->linksXnnpack) || m_session->isAutoLibrary());
    m_xnnpack->setVisible(shown);
    m_buildXnnpack->setVisible(false);
    if (!shown) return;
    const xnnpack::XnnpackResolution r = xnnpack::resolveXnnpackFor(*b);
    QString text = tr("XNNPACK: %1").arg(r.describe());
    for (const QString& w : r.warnings) text += QLatin1Char('\n') + tr("Warning: %1").arg(w);
    m_xnnpack->setText(text);
    m_buildXnnpack->setText(tr("Build XNNPACK for %1...").arg(b->arch));
    m_buildXnnpack->setVisible(!r.found());
}

// Library "auto": whether the measurement is in, and what it chose.
void TargetPanel::refreshAuto() {
    m_auto->setVisible(m_session->isAutoLibrary());
    if (!m_session->isAutoLibrary()) return;
    const auto measured = m_session->measuredChoice();
    if (!m_session->hasModel()) {
        m_auto->setText(tr("auto: the nodes are measured on the board once a model is open"));
    } else if (!measured && !m_session->measurementError().isEmpty()) {
        m_auto->setText(tr("auto: the measurement failed, every node stays on portable: %1")
                            .arg(engineText(m_session->measurementError())));
    } else if (!measured) {
        m_auto->setText(tr("auto: measuring each node on %1 (see Jobs); portable meanwhile").arg(m_session->boardId()));
    } else {
        std::map<std::string, int> chosen;
        for (const auto& [name, node] : measured->nodes) ++chosen[node.chosen];
        QStringList parts;
        for (const auto& [lib, count] : chosen) parts << tr("%1 on %2").arg(count).arg(QString::fromStdString(lib));
        m_auto->setText(
            tr("auto: %n node(s) measured on %1 (%2 now, %3 cached): %4", nullptr, int(measured->nodes.size()))
                .arg(QString::fromStdString(measured->board))
                .arg(measured->measuredCount)
                .arg(measured->cachedCount)
                .arg(parts.join(QStringLiteral(", "))));
    }
}

void TargetPanel::editBoard(bool copyAsNew) {
    const targets::Board* current = m_session->board();
    targets::Board start = current ? *current : targets::Board{};
    if (copyAsNew) start.id += QStringLiteral("-copy");
    BoardDialog dialog(start, this);
    if (dialog.exec() != QDialog::Accepted) return;
    auto saved = dialog.board();
    m_session->reloadBoards();
    reloadBoards();
    if (saved.ok()) pushEdit(m_session, std::make_unique<SetBoardCommand>(m_session, saved->id));
    refresh();
}

void TargetPanel::editEpOptions() {
    EpOptionsDialog dialog(m_session->epOptions(), 1, this); // the studio's benchmarks run one thread
    if (dialog.exec() == QDialog::Accepted) m_session->setEpOptions(dialog.options());
}

void TargetPanel::editSsh() {
    const targets::Board* current = m_session->board();
    if (!current || !editSshSettings(*current, this)) return;
    m_session->reloadBoards();
    reloadBoards();
    refresh();
}

void TargetPanel::removeSelectedOverride() {
    QTreeWidgetItem* item = m_overrides->currentItem();
    if (!item) return;
    const int index = m_overrides->indexOfTopLevelItem(item);
    const auto& nodes = m_session->request().nodeOverrides;
    if (index < int(nodes.size())) {
        const QString node = QString::fromStdString(std::next(nodes.begin(), index)->first);
        pushEdit(m_session, std::make_unique<SetNodeOverrideCommand>(m_session, node, QString()));
        return;
    }
    const auto& ops = m_session->request().opOverrides;
    const int opIndex = index - int(nodes.size());
    const QString op = QString::fromStdString(std::next(ops.begin(), opIndex)->first);
    pushEdit(m_session, std::make_unique<SetOpOverrideCommand>(m_session, op, QString()));
}

} // namespace embark::ui

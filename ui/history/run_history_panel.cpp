#include "run_history_panel.h"

#include "charts/charts_panel.h"
#include "jobs/run_charts.h"
#include "plan_diff_dialog.h"
#include "run_report_writer.h"

#include "targets/onnxruntime.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QStyle>
#include <QStyleOptionHeader>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QTableWidget>
#include <QMenu>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>
#include <set>

namespace embark::ui {

namespace {

enum Column {
    IdColumn,
    DateColumn,
    ModelColumn,
    BoardColumn,
    LibraryColumn,
    ThreadsColumn,
    MedianColumn,
    StatusColumn,
    ColumnCount
};
constexpr int kIdRole = Qt::UserRole;
constexpr int kSortRole = Qt::UserRole + 1;

// Sorts by kSortRole (numbers, dates) instead of the displayed text.
class SortItem : public QTableWidgetItem {
public:
    SortItem(const QString& text, const QVariant& key) : QTableWidgetItem(text) { setData(kSortRole, key); }
    bool operator<(const QTableWidgetItem& other) const override {
        return QVariant::compare(data(kSortRole), other.data(kSortRole)) == QPartialOrdering::Less;
    }
};

QString q(const std::string& s) { return QString::fromStdString(s); }

QString milliseconds(double ns) { return QString::number(ns / 1e6, 'f', 3); }

// "Embark export", "ONNX Runtime (ep spacemit)".
QString runtimeText(const targets::StoredRuntime& r) {
    if (r.runtime == QLatin1String("export")) return RunHistoryPanel::tr("Embark export");
    if (r.runtime == QLatin1String("onnxruntime"))
        return r.ep.isEmpty() ? RunHistoryPanel::tr("ONNX Runtime")
                              : RunHistoryPanel::tr("ONNX Runtime (ep %1)").arg(r.ep);
    return r.describe();
}

} // namespace

RunHistoryPanel::RunHistoryPanel(const QString& storePath, QWidget* parent)
    : QWidget(parent), m_path(storePath.isEmpty() ? store::RunStore::defaultPath() : storePath) {
    m_model = new QLineEdit(this);
    m_model->setPlaceholderText(tr("part of the model path, or its SHA-256"));
    m_model->setClearButtonEnabled(true);
    m_board = new QComboBox(this);
    m_library = new QComboBox(this);
    m_useFrom = new QCheckBox(tr("From:"), this);
    m_from = new QDateEdit(QDate::currentDate().addDays(-30), this);
    m_from->setCalendarPopup(true);
    m_useTo = new QCheckBox(tr("To:"), this);
    m_to = new QDateEdit(QDate::currentDate(), this);
    m_to->setCalendarPopup(true);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setHorizontalHeaderLabels({tr("Run"), tr("Date"), tr("Model"), tr("Board"), tr("Library"), tr("Threads"),
                                        tr("Median (ms)"), tr("Status")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    // Columns as wide as their cells and title (fitColumns: no room kept for a sort arrow that
    // only the sorted column shows, so French titles fit a laptop's dock); the model shrinks first.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(ModelColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setMinimumSectionSize(32);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->horizontalHeaderItem(IdColumn)->setToolTip(tr("Run id, as embark-cli runs show ID names it"));
    m_table->horizontalHeaderItem(MedianColumn)->setToolTip(tr("Median latency in milliseconds"));
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(DateColumn, Qt::DescendingOrder);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_refreshAction = new QAction(tr("&Refresh"), this);
    m_openAction = new QAction(tr("&Open"), this);
    m_openAction->setToolTip(tr("Show the selected run's timings, accuracy and latency distribution"));
    m_compareAction = new QAction(tr("&Compare"), this);
    m_compareAction->setToolTip(
        tr("Compare two or more selected runs: totals with confidence intervals and per-layer deltas"));
    m_deleteAction = new QAction(tr("&Delete..."), this);
    m_deleteAction->setShortcut(QKeySequence::Delete);
    m_deleteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_reportAction = new QAction(tr("Export &report..."), this);
    m_reportAction->setToolTip(tr("Write the selected run's report (or two runs' comparison) as one HTML or PDF file: "
                                  "board, latency, plan, slowest layers, accuracy and charts"));
    m_diffPlansAction = new QAction(tr("Diff &plans"), this);
    m_diffPlansAction->setToolTip(
        tr("Show two selected runs' plans side by side: nodes added, removed, fused differently "
           "or re-assigned to another kernel library or layout"));
    m_lavaJobAction = new QAction(tr("LAVA &job"), this);
    m_lavaJobAction->setToolTip(tr("Open the LAVA job page of the selected run on a farm board in the browser"));
    // The frequent actions on the bar, the rest under "More" (and all in the table's context
    // menu): the seven side by side overflowed a laptop's dock into the bar's "»" button.
    auto* bar = new QToolBar(this);
    bar->setObjectName(QStringLiteral("historyToolBar"));
    auto* more = new QMenu(this);
    for (QAction* a : {m_refreshAction, m_openAction, m_compareAction, m_diffPlansAction, m_reportAction,
                       m_lavaJobAction, m_deleteAction}) {
        if (a == m_reportAction || a == m_lavaJobAction || a == m_deleteAction)
            more->addAction(a);
        else
            bar->addAction(a);
        addAction(a);
        if (a != m_refreshAction) m_table->addAction(a);
    }
    m_moreButton = new QToolButton(this);
    m_moreButton->setObjectName(QStringLiteral("historyMoreButton"));
    m_moreButton->setText(tr("More"));
    m_moreButton->setToolTip(tr("Export report, LAVA job, Delete"));
    m_moreButton->setMenu(more);
    m_moreButton->setPopupMode(QToolButton::InstantPopup);
    m_moreButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addWidget(m_moreButton);

    auto* filters = new QGridLayout;
    filters->addWidget(new QLabel(tr("Model:"), this), 0, 0);
    filters->addWidget(m_model, 0, 1, 1, 3);
    filters->addWidget(new QLabel(tr("Board:"), this), 1, 0);
    filters->addWidget(m_board, 1, 1);
    filters->addWidget(new QLabel(tr("Library:"), this), 1, 2);
    filters->addWidget(m_library, 1, 3);
    filters->addWidget(m_useFrom, 2, 0);
    filters->addWidget(m_from, 2, 1);
    filters->addWidget(m_useTo, 2, 2);
    filters->addWidget(m_to, 2, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(bar);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);

    connect(m_refreshAction, &QAction::triggered, this, &RunHistoryPanel::refresh);
    connect(m_openAction, &QAction::triggered, this, &RunHistoryPanel::openSelected);
    connect(m_compareAction, &QAction::triggered, this, &RunHistoryPanel::compareSelected);
    connect(m_deleteAction, &QAction::triggered, this, &RunHistoryPanel::deleteSelected);
    connect(m_reportAction, &QAction::triggered, this, [this] { exportReport(); });
    connect(m_diffPlansAction, &QAction::triggered, this, [this] { diffPlans(); });
    connect(m_lavaJobAction, &QAction::triggered, this, [this] {
        const QUrl url = selectedLavaJobUrl();
        if (!url.isEmpty() && !QDesktopServices::openUrl(url))
            setStatus(tr("Cannot open %1: no browser is set up to open web pages").arg(url.toString()));
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &RunHistoryPanel::updateActions);
    connect(m_table->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, &RunHistoryPanel::fitColumns);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, &RunHistoryPanel::openSelected);
    connect(m_model, &QLineEdit::textChanged, this, &RunHistoryPanel::refresh);
    for (QComboBox* c : {m_board, m_library})
        connect(c, &QComboBox::currentIndexChanged, this, &RunHistoryPanel::refresh);
    for (QCheckBox* c : {m_useFrom, m_useTo}) connect(c, &QCheckBox::toggled, this, &RunHistoryPanel::refresh);
    for (QDateEdit* d : {m_from, m_to}) connect(d, &QDateEdit::dateChanged, this, &RunHistoryPanel::refresh);
    refresh();
}

RunHistoryPanel::~RunHistoryPanel() = default;

bool RunHistoryPanel::ensureStore() {
    if (m_store) return true;
    auto opened = store::RunStore::open(m_path);
    if (!opened.ok()) {
        setStatus(tr("Cannot open the run history: %1").arg(q(opened.error().message)));
        return false;
    }
    m_store = std::move(*opened);
    return true;
}

store::RunFilter RunHistoryPanel::currentFilter() const {
    store::RunFilter f;
    f.model = m_model->text().trimmed().toStdString();
    f.boardId = m_board->currentData().toString().toStdString();
    f.kernelLibrary = m_library->currentData().toString().toStdString();
    if (m_useFrom->isChecked()) f.from = m_from->date().startOfDay();
    if (m_useTo->isChecked()) f.to = m_to->date().endOfDay();
    return f;
}

void RunHistoryPanel::fillFilterChoices() {
    auto all = m_store->listRuns();
    if (!all.ok()) return;
    std::set<QString> boards, libraries;
    for (const store::RunSummary& r : *all) {
        boards.insert(q(r.boardId));
        libraries.insert(q(r.kernelLibrary));
    }
    auto fill = [](QComboBox* combo, const QString& allText, const std::set<QString>& items) {
        const QSignalBlocker block(combo);
        const QString current = combo->currentData().toString();
        combo->clear();
        combo->addItem(allText, QString());
        for (const QString& item : items) combo->addItem(item, item);
        if (!current.isEmpty() && combo->findData(current) < 0) combo->addItem(current, current); // kept, shows nothing
        combo->setCurrentIndex(std::max(0, combo->findData(current)));
    };
    fill(m_board, tr("All boards"), boards);
    fill(m_library, tr("All libraries"), libraries);
}

void RunHistoryPanel::refresh() {
    if (!ensureStore()) return;
    fillFilterChoices();
    const std::vector<int64_t> selected = selectedRunIds();
    auto runs = m_store->listRuns(currentFilter());
    if (!runs.ok()) {
        setStatus(tr("Cannot read the run history: %1").arg(q(runs.error().message)));
        return;
    }
    const QSignalBlocker block(m_table);
    m_table->setSortingEnabled(false);
    m_table->setRowCount(0);
    m_table->setRowCount(int(runs->size()));
    for (int row = 0; row < int(runs->size()); ++row) {
        const store::RunSummary& r = (*runs)[size_t(row)];
        const QDateTime local = r.date.toLocalTime();
        const bool ok = r.status == store::RunStatus::Ok;
        auto* id = new SortItem(QStringLiteral("#%1").arg(r.id), qint64(r.id));
        id->setData(kIdRole, qint64(r.id));
        id->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        id->setToolTip(tr("Run id: embark-cli runs show %1").arg(r.id));
        auto* date = new SortItem(QLocale().toString(local, QLocale::ShortFormat), local);
        auto* model = new SortItem(QFileInfo(q(r.modelPath)).fileName(), q(r.modelPath));
        model->setToolTip(q(r.modelPath));
        auto* median =
            new SortItem(r.latency.empty() ? QString() : milliseconds(r.latency.medianNs), r.latency.medianNs);
        median->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* status = new SortItem(statusName(r.status), int(r.status));
        if (!ok) status->setToolTip(q(r.message));
        m_table->setItem(row, IdColumn, id);
        m_table->setItem(row, DateColumn, date);
        m_table->setItem(row, ModelColumn, model);
        m_table->setItem(row, BoardColumn, new SortItem(q(r.boardId), q(r.boardId)));
        m_table->setItem(row, LibraryColumn, new SortItem(q(r.kernelLibrary), q(r.kernelLibrary)));
        m_table->setItem(row, ThreadsColumn, new SortItem(QString::number(r.threads), r.threads));
        m_table->setItem(row, MedianColumn, median);
        m_table->setItem(row, StatusColumn, status);
    }
    m_table->setSortingEnabled(true);
    fitColumns();
    selectRuns(selected);
    setStatus(tr("%n run(s) in %1", nullptr, int(runs->size())).arg(QDir::toNativeSeparators(m_path)));
    updateActions();
}

std::vector<int64_t> RunHistoryPanel::shownRunIds() const {
    std::vector<int64_t> ids;
    for (int row = 0; row < m_table->rowCount(); ++row)
        ids.push_back(m_table->item(row, IdColumn)->data(kIdRole).toLongLong());
    return ids;
}

std::vector<int64_t> RunHistoryPanel::selectedRunIds() const {
    std::vector<int64_t> ids;
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, DateColumn)->isSelected())
            ids.push_back(m_table->item(row, IdColumn)->data(kIdRole).toLongLong());
    return ids;
}

void RunHistoryPanel::selectRuns(const std::vector<int64_t>& ids) {
    m_table->clearSelection();
    const std::set<int64_t> wanted(ids.begin(), ids.end());
    for (int row = 0; row < m_table->rowCount(); ++row) {
        if (!wanted.count(m_table->item(row, IdColumn)->data(kIdRole).toLongLong())) continue;
        for (int c = 0; c < ColumnCount; ++c) m_table->item(row, c)->setSelected(true);
    }
    updateActions();
}

void RunHistoryPanel::updateActions() {
    const size_t n = selectedRunIds().size();
    m_openAction->setEnabled(n == 1);
    m_compareAction->setEnabled(n >= 2);
    m_deleteAction->setEnabled(n >= 1);
    m_reportAction->setEnabled(n == 1 || n == 2);
    m_diffPlansAction->setEnabled(n == 2);
    m_lavaJobAction->setEnabled(!selectedLavaJobUrl().isEmpty());
}

QUrl RunHistoryPanel::selectedLavaJobUrl() {
    const std::vector<int64_t> ids = selectedRunIds();
    if (ids.size() != 1 || !ensureStore()) return {};
    auto run = m_store->getRun(ids.front());
    if (!run.ok()) return {};
    const QUrl url(run->extra.value("lava_url").toString());
    return url.isValid() && (url.scheme() == "http" || url.scheme() == "https") ? url : QUrl();
}

void RunHistoryPanel::fitColumns() {
    QHeaderView* header = m_table->horizontalHeader();
    QStyleOptionHeader option;
    option.initFrom(header);
    const int margin = style()->pixelMetric(QStyle::PM_HeaderMargin, &option, header);
    const int arrow = style()->pixelMetric(QStyle::PM_HeaderMarkSize, &option, header) + margin;
    const QFontMetrics titles(header->font());
    for (int c = 0; c < ColumnCount; ++c) {
        if (c == ModelColumn) continue;
        int width = titles.horizontalAdvance(m_table->horizontalHeaderItem(c)->text()) + 4 * margin;
        if (header->isSortIndicatorShown() && header->sortIndicatorSection() == c) width += arrow;
        const int cellMargin = 2 * (style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1) + 8;
        for (int r = 0; r < m_table->rowCount(); ++r)
            if (const QTableWidgetItem* item = m_table->item(r, c))
                width = std::max(width, QFontMetrics(item->font()).horizontalAdvance(item->text()) + cellMargin);
        header->resizeSection(c, width);
    }
}

QString RunHistoryPanel::statusName(store::RunStatus status) {
    switch (status) {
    case store::RunStatus::Ok: return tr("ok");
    case store::RunStatus::Cancelled: return tr("cancelled");
    case store::RunStatus::Failed: break;
    }
    return tr("failed");
}

QString RunHistoryPanel::statusText() const { return m_status->text(); }

void RunHistoryPanel::setStatus(const QString& text) { m_status->setText(text); }

std::vector<store::RunSummary> RunHistoryPanel::recentRuns(int count) {
    if (!ensureStore()) return {};
    auto all = m_store->listRuns();
    if (!all.ok()) return {};
    std::vector<store::RunSummary> runs = std::move(*all);
    std::sort(runs.begin(), runs.end(),
              [](const store::RunSummary& a, const store::RunSummary& b) { return a.id > b.id; });
    if (int(runs.size()) > count) runs.resize(size_t(count));
    return runs;
}

void RunHistoryPanel::openSelected() {
    const std::vector<int64_t> ids = selectedRunIds();
    if (ids.size() == 1) openRun(ids.front());
}

bool RunHistoryPanel::openRun(int64_t id) {
    if (!ensureStore()) return false;
    auto run = m_store->getRun(id);
    if (!run.ok()) {
        setStatus(tr("Cannot open run #%1: %2").arg(id).arg(q(run.error().message)));
        return false;
    }
    const RunCharts charts = runChartsFromRecord(*run);
    if (m_opener)
        m_opener(charts);
    else if (m_charts)
        m_charts->showRun(charts);
    setStatus(run->status == store::RunStatus::Ok
                  ? tr("Showing %1").arg(charts.label)
                  : tr("%1 %2: %3").arg(charts.label, statusName(run->status), q(run->message)));
    emit chartsShown(false);
    return true;
}

void RunHistoryPanel::compareSelected() {
    // The oldest run (lowest id) is the baseline, whatever the table's order: every figure and
    // label below reads "baseline -> other" in that order.
    std::vector<int64_t> ids = selectedRunIds();
    std::sort(ids.begin(), ids.end());
    if (ids.size() < 2 || !ensureStore()) return;
    std::vector<RunSeries> series;
    QStringList lines;
    std::set<std::string> models;
    QStringList modelNames;
    std::vector<QJsonObject> extras;
    for (int64_t id : ids) {
        auto run = m_store->getRun(id);
        if (!run.ok()) {
            setStatus(tr("Cannot open run #%1: %2").arg(id).arg(q(run.error().message)));
            return;
        }
        extras.push_back(run->extra);
        const std::string model =
            run->fingerprint.modelSha256.empty() ? run->fingerprint.modelPath : run->fingerprint.modelSha256;
        if (models.insert(model).second) modelNames << QFileInfo(q(run->fingerprint.modelPath)).fileName();
        RunCharts charts = runChartsFromRecord(*run);
        series.push_back(
            RunSeries{charts.label, std::move(charts.latenciesMs), std::move(charts.layers), charts.modelPath});
    }
    if (models.size() > 1)
        lines << tr("Warning: these runs are of different models (%1): their timings are not comparable.")
                     .arg(modelNames.join(QStringLiteral(", ")));
    // The store's comparison judges each run against the baseline with the medians' 95% intervals.
    for (size_t i = 1; i < ids.size(); ++i) {
        auto c = m_store->compareRuns(ids.front(), ids[i]);
        if (!c.ok() || c->a.empty() || c->b.empty()) continue;
        lines << tr("#%1 against #%2 (baseline): median #%2 %3 ms -> #%1 %4 ms (x%5), %6")
                     .arg(ids[i])
                     .arg(ids.front())
                     .arg(milliseconds(c->a.medianNs), milliseconds(c->b.medianNs))
                     .arg(c->medianRatio, 0, 'f', 3)
                     .arg(c->significant ? tr("a real difference (95% intervals do not overlap)")
                                         : tr("within noise (95% intervals overlap)"));
    }
    // What ran each run (an export, or ONNX Runtime with its provider) and the SpacemiT EP
    // options that differ from the baseline's.
    m_runtimeLines.clear();
    for (size_t i = 1; i < ids.size(); ++i) {
        const targets::RuntimeComparison rt = targets::compareRuntimes(extras.front(), extras[i]);
        if (rt.runtimeDiffers())
            m_runtimeLines << tr("Runtime: #%1 %2, #%3 %4")
                                  .arg(ids.front())
                                  .arg(runtimeText(rt.a))
                                  .arg(ids[i])
                                  .arg(runtimeText(rt.b));
        QStringList changes;
        for (const targets::EpOptionChange& o : rt.epOptions)
            changes << tr("%1 %2 -> %3")
                           .arg(o.key, o.a.isEmpty() ? tr("(not set)") : o.a, o.b.isEmpty() ? tr("(not set)") : o.b);
        if (!changes.isEmpty())
            m_runtimeLines << tr("EP options that differ, #%1 -> #%2: %3")
                                  .arg(ids.front())
                                  .arg(ids[i])
                                  .arg(changes.join(QStringLiteral("; ")));
        else if (!rt.a.epOptions.isEmpty() && !rt.b.epOptions.isEmpty())
            m_runtimeLines << tr("EP options of #%1 and #%2: the same").arg(ids.front()).arg(ids[i]);
    }
    lines << m_runtimeLines;
    if (m_charts) m_charts->compareRuns(series);
    setStatus(lines.isEmpty() ? tr("Comparing %n run(s)", nullptr, int(ids.size())) : lines.join(QLatin1Char('\n')));
    emit chartsShown(true);
}

bool RunHistoryPanel::exportReport(const QString& chosenPath) {
    std::vector<int64_t> ids = selectedRunIds();
    std::sort(ids.begin(), ids.end());
    if ((ids.size() != 1 && ids.size() != 2) || !ensureStore()) {
        setStatus(tr("Select one run, or two runs to compare, for a report."));
        return false;
    }
    QString path = chosenPath;
    if (path.isEmpty()) {
        const QString name = ids.size() == 1 ? QStringLiteral("run-%1-report.html").arg(ids[0])
                                             : QStringLiteral("run-%1-vs-%2-report.html").arg(ids[1]).arg(ids[0]);
        path = QFileDialog::getSaveFileName(this, tr("Export report"), QDir::home().filePath(name),
                                            tr("HTML report (*.html);;PDF report (*.pdf)"));
        if (path.isEmpty()) return false;
    }
    auto run = m_store->getRun(ids.back());
    if (!run.ok()) {
        setStatus(tr("Cannot open run #%1: %2").arg(ids.back()).arg(q(run.error().message)));
        return false;
    }
    std::optional<store::RunRecord> against;
    if (ids.size() == 2) {
        auto base = m_store->getRun(ids.front());
        if (!base.ok()) {
            setStatus(tr("Cannot open run #%1: %2").arg(ids.front()).arg(q(base.error().message)));
            return false;
        }
        against = std::move(*base);
    }
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const QString error = writeRunReport(path, *run, against ? &*against : nullptr);
    QApplication::restoreOverrideCursor();
    if (!error.isEmpty()) {
        setStatus(tr("No report written: %1").arg(error));
        return false;
    }
    setStatus(tr("Report written to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

PlanDiffDialog* RunHistoryPanel::diffPlans() {
    std::vector<int64_t> ids = selectedRunIds();
    std::sort(ids.begin(), ids.end());
    if (ids.size() != 2 || !ensureStore()) {
        setStatus(tr("Select two runs to diff their plans."));
        return nullptr;
    }
    std::vector<store::RunRecord> runs;
    std::vector<std::vector<store::PlanNode>> plans;
    for (int64_t id : ids) {
        auto run = m_store->getRun(id);
        if (!run.ok()) {
            setStatus(tr("Cannot open run #%1: %2").arg(id).arg(q(run.error().message)));
            return nullptr;
        }
        auto plan = store::runPlan(*run);
        if (!plan.ok()) {
            setStatus(tr("Cannot read the plan of run #%1: %2").arg(id).arg(q(plan.error().message)));
            return nullptr;
        }
        if (plan->empty()) {
            setStatus(
                tr("Run #%1 has no stored plan (ONNX Runtime runs, and runs stored by an older Embark, have none): "
                   "benchmark the export again to diff its plan.")
                    .arg(id));
            return nullptr;
        }
        runs.push_back(std::move(*run));
        plans.push_back(std::move(*plan));
    }
    auto* dialog = new PlanDiffDialog(runs[0], std::move(plans[0]), runs[1], std::move(plans[1]), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    setStatus(dialog->summary());
    return dialog;
}

void RunHistoryPanel::deleteSelected() {
    const std::vector<int64_t> ids = selectedRunIds();
    if (ids.empty() || !ensureStore()) return;
    const auto answer =
        QMessageBox::question(this, tr("Delete runs"),
                              tr("Delete %n run(s) from %1? This cannot be undone.", nullptr, int(ids.size()))
                                  .arg(QDir::toNativeSeparators(m_path)),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes) return;
    for (int64_t id : ids) {
        if (const Status s = m_store->deleteRun(id); !s.ok()) {
            refresh();
            setStatus(tr("Cannot delete run #%1: %2").arg(id).arg(q(s.error().message)));
            return;
        }
    }
    refresh();
}

} // namespace embark::ui

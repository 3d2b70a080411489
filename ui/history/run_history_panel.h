// The run history dock: a table over the SQLite run store (core/store) filtered by model,
// board, library and date; Open shows a run's charts, Compare puts two or more runs side by
// side in the run comparison chart, Delete removes runs from the file after a confirmation,
// Export report writes one run's (or two runs') report as HTML or PDF; Diff plans shows two
// runs' plans side by side with what changed between them; LAVA job opens a farm run's job page.
#pragma once

#include "store/run_store.h"

#include <QWidget>

#include <functional>

class QAction;
class QCheckBox;
class QComboBox;
class QDateEdit;
class QLabel;
class QLineEdit;
class QTableWidget;
class QToolButton;
class QUrl;

namespace embark::ui {

class ChartsPanel;
struct RunCharts;
class PlanDiffDialog;

class RunHistoryPanel : public QWidget {
    Q_OBJECT
public:
    // `storePath` empty = RunStore::defaultPath() ($EMBARK_DATA_DIR/runs.sqlite or the app data folder).
    explicit RunHistoryPanel(const QString& storePath = {}, QWidget* parent = nullptr);
    ~RunHistoryPanel() override;

    // Where Open and Compare draw; without it they only emit chartsShown().
    void setCharts(ChartsPanel* charts) { m_charts = charts; }
    // What Open does with a run instead of drawing it on the charts directly (the main window
    // opens the run's model first, so a run never lands on another model).
    void setRunOpener(std::function<void(const RunCharts&)> opener) { m_opener = std::move(opener); }
    // The text of a run's status in the table ("ok", "failed", "cancelled").
    static QString statusName(store::RunStatus status);

    QString storePath() const { return m_path; }
    QTableWidget* table() const { return m_table; }
    QLineEdit* modelFilter() const { return m_model; }
    QComboBox* boardFilter() const { return m_board; }
    QComboBox* libraryFilter() const { return m_library; }
    QCheckBox* fromEnabled() const { return m_useFrom; }
    QDateEdit* fromDate() const { return m_from; }
    QCheckBox* toEnabled() const { return m_useTo; }
    QDateEdit* toDate() const { return m_to; }
    QAction* refreshAction() const { return m_refreshAction; }
    QAction* openAction() const { return m_openAction; }
    QAction* compareAction() const { return m_compareAction; }
    QAction* deleteAction() const { return m_deleteAction; }
    QAction* reportAction() const { return m_reportAction; }
    QAction* diffPlansAction() const { return m_diffPlansAction; }
    QAction* lavaJobAction() const { return m_lavaJobAction; }
    // The selected run's LAVA job page (a run on a farm board: its extra "lava_url"); empty
    // unless exactly one such run is selected. The LAVA job action opens it in the browser.
    QUrl selectedLavaJobUrl();
    QString statusText() const;
    // The last comparison's runtime lines: what ran each run when it differs from the
    // baseline's (export, ONNX Runtime and its provider) and the SpacemiT EP options that differ.
    QStringList runtimeDifferences() const { return m_runtimeLines; }

    // The newest runs of the store (any filter), at most `count`, newest first.
    std::vector<store::RunSummary> recentRuns(int count);
    // Shows run `id` as Open does (through the run opener); false when it cannot be read.
    bool openRun(int64_t id);

    std::vector<int64_t> shownRunIds() const;    // in table order
    std::vector<int64_t> selectedRunIds() const; // in table order
    void selectRuns(const std::vector<int64_t>& ids);

public slots:
    // Re-reads the store (call it when a run was added) keeping filters and selection.
    void refresh();
    void openSelected();
    void compareSelected();
    // Asks for confirmation first.
    void deleteSelected();
    // The report of the selected run, or of the newer of two selected runs against the older
    // (the baseline): HTML or PDF by the file's suffix. An empty path asks for one. Returns
    // false (and says why in the status line) when nothing was written.
    bool exportReport(const QString& path = {});
    // Two selected runs' plans side by side (the older is the baseline), in a window of its
    // own; null (and the status line says why) when a run has no stored plan.
    PlanDiffDialog* diffPlans();

signals:
    // After Open or Compare filled the charts: `comparison` says which tab to show.
    void chartsShown(bool comparison);

private:
    bool ensureStore();
    store::RunFilter currentFilter() const;
    void fillFilterChoices();
    void updateActions();
    void fitColumns();
    void setStatus(const QString& text);

    QString m_path;
    std::unique_ptr<store::RunStore> m_store;
    ChartsPanel* m_charts = nullptr;
    std::function<void(const RunCharts&)> m_opener;
    QLineEdit* m_model;
    QComboBox* m_board;
    QComboBox* m_library;
    QCheckBox* m_useFrom;
    QDateEdit* m_from;
    QCheckBox* m_useTo;
    QDateEdit* m_to;
    QTableWidget* m_table;
    QLabel* m_status;
    QAction* m_refreshAction;
    QAction* m_openAction;
    QAction* m_compareAction;
    QAction* m_deleteAction;
    QAction* m_reportAction;
    QAction* m_diffPlansAction;
    QAction* m_lavaJobAction;
    QToolButton* m_moreButton;
    QStringList m_runtimeLines;
};

} // namespace embark::ui

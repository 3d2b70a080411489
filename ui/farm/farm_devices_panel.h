// The farm's boards: every LAVA device the farm boards of the catalog can run on, with its
// state as a team sharing the shelf reads it (idle, running job N, offline, bad), refreshed
// live. The LAVA REST API is polled on a worker thread (never the UI thread), at most one poll
// at a time; a server that cannot be reached is one "offline" row naming it and why.
#pragma once

#include "deploy/lava_client.h"
#include "targets/board.h"

#include <QFutureWatcher>
#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;
class QTimer;

namespace embark::ui {

struct FarmDeviceRow {
    QString board;  // the farm board (board file id)
    QString device; // LAVA hostname; empty when the server gave no device list
    QString status; // idle, running job N, reserved for job N, offline, bad, ...
    QString detail; // health and state as LAVA says them, or the error
    qint64 job = 0;
    QString submitter; // who submitted `job` (LAVA's user name), empty when unknown
};

class FarmDevicesPanel : public QWidget {
    Q_OBJECT
public:
    explicit FarmDevicesPanel(QWidget* parent = nullptr);
    ~FarmDevicesPanel() override;

    // The farm boards to show (default: those of targets::loadBoards()).
    void setBoards(std::vector<targets::Board> boards);
    // Polls every `ms` while the panel is visible (0: only on refresh()).
    void setPollInterval(int ms);
    int pollInterval() const;

    // What the device's row says: "idle", "running job 42", "reserved for job 42", "bad"
    // (health Bad or Looping), "offline" (Maintenance, Retired); with the job's submitter
    // when known: "running job 42 for alice".
    static QString deviceStatus(const deploy::LavaDevice& device, const QString& submitter = {});
    // One poll of a board's devices and of the jobs they run (their submitters; blocking:
    // call it on a worker thread).
    static std::vector<FarmDeviceRow> pollBoard(const targets::Board& board);

    QTableWidget* table() const { return m_table; }
    const std::vector<FarmDeviceRow>& rows() const { return m_rows; }
    bool polling() const { return m_watcher.isRunning(); }

public slots:
    // Starts a poll unless one runs; refreshed() when it is shown.
    void refresh();

signals:
    void refreshed();

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void showRows(std::vector<FarmDeviceRow> rows);

    std::vector<targets::Board> m_boards;
    bool m_boardsGiven = false;
    std::vector<FarmDeviceRow> m_rows;
    QTableWidget* m_table;
    QLabel* m_status;
    QTimer* m_timer;
    QFutureWatcher<std::vector<FarmDeviceRow>> m_watcher;
};

} // namespace embark::ui

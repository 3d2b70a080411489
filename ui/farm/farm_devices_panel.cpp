#include "farm_devices_panel.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <map>

namespace embark::ui {

namespace {
enum Column { BoardColumn, DeviceColumn, StatusColumn, DetailColumn, ColumnCount };
}

FarmDevicesPanel::FarmDevicesPanel(QWidget* parent)
    : QWidget(parent),
      m_table(new QTableWidget(0, ColumnCount, this)),
      m_status(new QLabel(this)),
      m_timer(new QTimer(this)) {
    m_table->setHorizontalHeaderLabels({tr("Board"), tr("Device"), tr("State"), tr("LAVA says")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_status->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    m_timer->setInterval(10000);
    connect(m_timer, &QTimer::timeout, this, &FarmDevicesPanel::refresh);
    connect(&m_watcher, &QFutureWatcher<std::vector<FarmDeviceRow>>::finished, this,
            [this] { showRows(m_watcher.result()); });
}

FarmDevicesPanel::~FarmDevicesPanel() { m_watcher.waitForFinished(); }

void FarmDevicesPanel::setBoards(std::vector<targets::Board> boards) {
    m_boards.clear();
    for (targets::Board& b : boards)
        if (b.isFarm()) m_boards.push_back(std::move(b));
    m_boardsGiven = true;
}

void FarmDevicesPanel::setPollInterval(int ms) {
    m_timer->setInterval(ms);
    if (ms <= 0) m_timer->stop();
}

int FarmDevicesPanel::pollInterval() const { return m_timer->interval(); }

QString FarmDevicesPanel::deviceStatus(const deploy::LavaDevice& d, const QString& submitter) {
    if (d.health == QLatin1String("Bad") || d.health == QLatin1String("Looping")) return tr("bad");
    if (d.health == QLatin1String("Maintenance") || d.health == QLatin1String("Retired")) return tr("offline");
    if (d.state == QLatin1String("Running") && d.currentJob)
        return submitter.isEmpty() ? tr("running job %1").arg(d.currentJob)
                                   : tr("running job %1 for %2").arg(d.currentJob).arg(submitter);
    if (d.state == QLatin1String("Reserved") && d.currentJob)
        return submitter.isEmpty() ? tr("reserved for job %1").arg(d.currentJob)
                                   : tr("reserved for job %1 of %2").arg(d.currentJob).arg(submitter);
    if (d.state == QLatin1String("Idle")) return tr("idle");
    return d.state.toLower();
}

std::vector<FarmDeviceRow> FarmDevicesPanel::pollBoard(const targets::Board& board) {
    const QUrl server(board.farm->lava);
    deploy::LavaClient client(server, deploy::lavaToken(server), 10000);
    auto devices = client.devices(board.farm->deviceType);
    if (!devices) return {{board.id, QString(), tr("offline"), QString::fromStdString(devices.error().message), 0, {}}};
    std::vector<FarmDeviceRow> rows;
    std::map<qint64, QString> submitters; // one request per job, not per device
    for (const deploy::LavaDevice& d : *devices) {
        bool tagged = true;
        for (const QString& t : board.farm->tags) tagged = tagged && d.tags.contains(t);
        if (!tagged) continue;
        QString submitter;
        if (d.currentJob) {
            auto known = submitters.find(d.currentJob);
            if (known == submitters.end()) {
                // A job the user may not see (or one that just ended) keeps the row without a name.
                auto job = client.job(d.currentJob);
                known = submitters.emplace(d.currentJob, job ? job->submitter : QString()).first;
            }
            submitter = known->second;
        }
        rows.push_back(
            {board.id, d.hostname, deviceStatus(d, submitter), d.health + ", " + d.state, d.currentJob, submitter});
    }
    if (rows.empty())
        rows.push_back(
            {board.id,
             QString(),
             tr("no device"),
             tr("%1 has no device of type '%2' with the board's tags").arg(board.farm->lava, board.farm->deviceType),
             0,
             {}});
    return rows;
}

void FarmDevicesPanel::refresh() {
    if (m_watcher.isRunning()) return;
    if (!m_boardsGiven) {
        m_boards.clear();
        for (const targets::Board& b : targets::loadBoards().boards)
            if (b.isFarm()) m_boards.push_back(b);
    }
    if (m_boards.empty()) {
        showRows({});
        return;
    }
    m_status->setText(tr("Asking LAVA..."));
    m_watcher.setFuture(QtConcurrent::run([boards = m_boards] {
        std::vector<FarmDeviceRow> rows;
        for (const targets::Board& b : boards)
            for (FarmDeviceRow& r : pollBoard(b)) rows.push_back(std::move(r));
        return rows;
    }));
}

void FarmDevicesPanel::showRows(std::vector<FarmDeviceRow> rows) {
    m_rows = std::move(rows);
    m_table->setRowCount(int(m_rows.size()));
    for (int i = 0; i < int(m_rows.size()); ++i) {
        const FarmDeviceRow& r = m_rows[size_t(i)];
        const QStringList cells{r.board, r.device, r.status, r.detail};
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            m_table->setItem(i, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    m_status->setText(m_boards.empty() ? tr("No farm board: a board file with a \"farm\" object names a LAVA "
                                            "instance and a device type (see docs/farm.md).")
                                       : tr("Updated %1").arg(QDateTime::currentDateTime().toString("HH:mm:ss")));
    emit refreshed();
}

void FarmDevicesPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
    if (m_timer->interval() > 0) m_timer->start();
}

void FarmDevicesPanel::hideEvent(QHideEvent* event) {
    m_timer->stop();
    QWidget::hideEvent(event);
}

} // namespace embark::ui

#include "jobs_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace embark::ui {

namespace {

enum Column { Title, State, Progress, Elapsed };
constexpr int kIdRole = Qt::UserRole;
constexpr int kMaxLogLines = 20000; // the view's cap; the job keeps every line

QString elapsedText(qint64 ms) {
    const qint64 s = ms / 1000;
    return s >= 60 ? QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'))
                   : QStringLiteral("%1.%2 s").arg(s).arg((ms % 1000) / 100);
}

} // namespace

JobsPanel::JobsPanel(jobs::JobQueue* queue, QWidget* parent) : QWidget(parent), m_queue(queue) {
    m_list = new QTreeWidget(this);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("Job"), tr("State"), tr("Progress"), tr("Elapsed")});
    m_list->header()->setSectionResizeMode(Title, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    m_list->setColumnWidth(Progress, 120);
    m_log = new QPlainTextEdit(this);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(kMaxLogLines);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setFont(QFont(QStringLiteral("monospace")));
    m_log->setPlaceholderText(tr("Select a job to see its log."));
    m_cancel = new QPushButton(tr("&Cancel job"), this);
    m_clear = new QPushButton(tr("C&lear finished"), this);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_list);
    split->addWidget(m_log);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_clear);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(split);
    layout->addLayout(buttons);

    m_tick = new QTimer(this);
    m_tick->setInterval(500);
    connect(m_tick, &QTimer::timeout, this, &JobsPanel::updateElapsed);

    connect(m_queue, &jobs::JobQueue::queued, this, &JobsPanel::addJob);
    connect(m_queue, &jobs::JobQueue::started, this, [this](int id) {
        updateRow(id);
        m_tick->start();
        if (selectedJob() < 0) selectJob(id); // follow the first job a newcomer starts
    });
    connect(m_queue, &jobs::JobQueue::progressChanged, this, [this](int id) { updateRow(id); });
    connect(m_queue, &jobs::JobQueue::finished, this, [this](int id) {
        updateRow(id);
        if (m_queue->runningCount() == 0) m_tick->stop();
    });
    connect(m_queue, &jobs::JobQueue::removed, this, [this](int id) {
        delete itemFor(id);
        if (id == m_shownJob) showSelectedLog();
    });
    connect(m_queue, &jobs::JobQueue::logLine, this, [this](int id) {
        if (id == m_shownJob) appendNewLines();
    });
    connect(m_list, &QTreeWidget::currentItemChanged, this, &JobsPanel::showSelectedLog);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (selectedJob() >= 0) m_queue->cancel(selectedJob());
    });
    connect(m_clear, &QPushButton::clicked, m_queue, &jobs::JobQueue::clearFinished);
    for (const auto& job : m_queue->jobs()) addJob(job->id());
    updateButtons();
}

QString JobsPanel::stateText(jobs::JobState state) {
    switch (state) {
    case jobs::JobState::Queued: return tr("Queued");
    case jobs::JobState::Running: return tr("Running");
    case jobs::JobState::Succeeded: return tr("Succeeded");
    case jobs::JobState::Failed: return tr("Failed");
    case jobs::JobState::Cancelled: return tr("Cancelled");
    }
    return {};
}

int JobsPanel::selectedJob() const {
    const QTreeWidgetItem* item = m_list->currentItem();
    return item ? item->data(Title, kIdRole).toInt() : -1;
}

void JobsPanel::selectJob(int id) {
    if (QTreeWidgetItem* item = itemFor(id)) m_list->setCurrentItem(item);
}

QTreeWidgetItem* JobsPanel::itemFor(int id) const {
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        if (m_list->topLevelItem(i)->data(Title, kIdRole).toInt() == id) return m_list->topLevelItem(i);
    return nullptr;
}

void JobsPanel::addJob(int id) {
    auto job = m_queue->job(id);
    if (!job || itemFor(id)) return;
    auto* item = new QTreeWidgetItem(m_list);
    item->setData(Title, kIdRole, id);
    item->setText(Title, job->title());
    auto* bar = new QProgressBar(m_list);
    bar->setTextVisible(true);
    m_list->setItemWidget(item, Progress, bar);
    updateRow(id);
}

void JobsPanel::updateRow(int id) {
    auto job = m_queue->job(id);
    QTreeWidgetItem* item = itemFor(id);
    if (!job || !item) return;
    const jobs::JobState state = job->state();
    item->setText(State, stateText(state));
    item->setToolTip(Title, job->message().isEmpty() ? job->title() : job->title() + QLatin1Char('\n') + job->message());
    item->setText(Elapsed, state == jobs::JobState::Queued ? QString() : elapsedText(job->elapsedMs()));
    const QColor failed(200, 50, 50);
    item->setForeground(State, state == jobs::JobState::Failed ? QBrush(failed) : m_list->palette().text());
    if (auto* bar = qobject_cast<QProgressBar*>(m_list->itemWidget(item, Progress))) {
        const jobs::JobProgress p = job->progress();
        if (jobs::isFinished(state)) {
            bar->setRange(0, 1);
            bar->setValue(state == jobs::JobState::Succeeded ? 1 : 0);
            bar->setFormat(stateText(state));
        } else if (p.total > 0) {
            bar->setRange(0, p.total);
            bar->setValue(std::min(p.done, p.total));
            bar->setFormat(p.step.isEmpty() ? QStringLiteral("%p%") : p.step + QStringLiteral(" %p%"));
        } else {
            bar->setRange(0, state == jobs::JobState::Running ? 0 : 1); // busy indicator while running
            bar->setValue(0);
            bar->setFormat(p.step);
        }
    }
    if (id == selectedJob()) updateButtons();
}

void JobsPanel::updateElapsed() {
    for (const auto& job : m_queue->jobs())
        if (job->state() == jobs::JobState::Running)
            if (QTreeWidgetItem* item = itemFor(job->id())) item->setText(Elapsed, elapsedText(job->elapsedMs()));
}

void JobsPanel::showSelectedLog() {
    m_shownJob = selectedJob();
    m_shownLines = 0;
    m_log->clear();
    appendNewLines();
    m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
    updateButtons();
}

void JobsPanel::appendNewLines() {
    // Reads the job's own log from the last line shown: a line whose signal is still queued
    // when the view was filled is never shown twice.
    auto job = m_queue->job(m_shownJob);
    if (!job) return;
    QStringList lines = job->logFrom(m_shownLines);
    if (lines.isEmpty()) return;
    m_shownLines += int(lines.size());
    if (lines.size() > kMaxLogLines) lines = lines.mid(lines.size() - kMaxLogLines);
    QScrollBar* scroll = m_log->verticalScrollBar();
    const bool following = scroll->value() >= scroll->maximum() - 1; // the user has not scrolled up
    m_log->appendPlainText(lines.join(QLatin1Char('\n')));
    if (following) scroll->setValue(scroll->maximum());
}

void JobsPanel::updateButtons() {
    auto job = m_queue->job(selectedJob());
    m_cancel->setEnabled(job && !jobs::isFinished(job->state()));
}

} // namespace embark::ui

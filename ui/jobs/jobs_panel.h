// The jobs dock: every queued, running and finished job with its state, progress and
// elapsed time; the live log of the selected job (the compiler's output streams in); Cancel
// and Clear finished. A view over a jobs::JobQueue: it starts nothing itself.
#pragma once

#include "jobs/job_queue.h"

#include <QWidget>

class QPlainTextEdit;
class QPushButton;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;

namespace embark::ui {

class JobsPanel : public QWidget {
    Q_OBJECT
public:
    explicit JobsPanel(jobs::JobQueue* queue, QWidget* parent = nullptr);

    QTreeWidget* list() const { return m_list; }
    QPlainTextEdit* logView() const { return m_log; }
    QPushButton* cancelButton() const { return m_cancel; }
    // The job whose log is shown (-1: none).
    int selectedJob() const;
    void selectJob(int id);

    static QString stateText(jobs::JobState state);

private:
    void addJob(int id);
    void updateRow(int id);
    void updateElapsed();
    void showSelectedLog();
    void appendNewLines();
    void updateButtons();
    QTreeWidgetItem* itemFor(int id) const;

    jobs::JobQueue* m_queue;
    QTreeWidget* m_list;
    QPlainTextEdit* m_log;
    QPushButton* m_cancel;
    QPushButton* m_clear;
    QTimer* m_tick;
    int m_shownJob = -1;
    int m_shownLines = 0;
};

} // namespace embark::ui

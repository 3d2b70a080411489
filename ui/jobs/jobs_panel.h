// The jobs dock: every queued, running and finished job with its start time, state, progress
// and elapsed time; the live log of the selected job (the compiler's output streams in, the
// board's JSON result lines read as sentences; lines wrap, and a compiler diagnostic opens
// its file at its line in a read-only viewer); Cancel and Clear finished. A view over a
// jobs::JobQueue: it starts nothing itself, and follows the newest job.
#pragma once

#include "jobs/job_queue.h"

#include <QHash>
#include <QWidget>

class QPlainTextEdit;
class QPushButton;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;

namespace embark::ui {

class SourceViewer;

class JobsPanel : public QWidget {
    Q_OBJECT
public:
    explicit JobsPanel(jobs::JobQueue* queue, QWidget* parent = nullptr);

    QTreeWidget* list() const { return m_list; }
    QPlainTextEdit* logView() const { return m_log; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* openFolderButton() const { return m_openFolder; }
    // The folder a finished job wrote (an export, a build's binary, a benchmark's export);
    // empty when it wrote none.
    static QString outputFolder(const jobs::Job& job);
    // The job whose log is shown (-1: none).
    int selectedJob() const;
    void selectJob(int id);

    // Adds to a job's row text, e.g. "run #5" once its run is stored (the tooltip keeps all).
    void setJobNote(int id, const QString& note);

    static QString stateText(jobs::JobState state);
    // How the log view shows one line of a job's log: run_export's JSON lines as short
    // sentences, per-layer and dump lines not at all (null QString), other lines unchanged.
    static QString displayLine(const QString& line);
    // A classifier's prediction from run_export's "output" line, when the line holds every
    // value ("class 7 (score 12.3); top 5: 7, 1, 9, 4, 2"); empty otherwise.
    static QString predictionText(const QString& outputLine);

    // A compiler diagnostic's place: "src/model.cpp:12:5: error: ..." (GCC, Clang; column
    // optional). Not valid (line 0) for other lines.
    struct SourceLocation {
        QString file;
        int line = 0;
        int column = 0;
    };
    static SourceLocation compilerLocation(const QString& line);
    // Where a diagnostic's file is: as written when absolute, else under the build folder the
    // selected job's CMake reported or the folder it wrote. Empty when not found.
    QString resolveSource(const QString& file) const;
    // Opens the diagnostic on line `block` (0-based) of the log view in the source viewer;
    // false when the line names no file that exists.
    bool openLogLine(int block);
    SourceViewer* sourceViewer() const { return m_viewer; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void addJob(int id);
    void updateRow(int id);
    void updateElapsed();
    void showSelectedLog();
    void appendNewLines();
    void updateButtons();
    void followNewJob(int id);
    QString rowText(int id) const;
    QTreeWidgetItem* itemFor(int id) const;

    jobs::JobQueue* m_queue;
    QTreeWidget* m_list;
    QPlainTextEdit* m_log;
    QPushButton* m_cancel;
    QPushButton* m_clear;
    QPushButton* m_openFolder;
    QTimer* m_tick;
    int m_shownJob = -1;
    int m_shownLines = 0;
    QHash<int, QString> m_notes;
    SourceViewer* m_viewer = nullptr; // made on the first click on a diagnostic
};

} // namespace embark::ui

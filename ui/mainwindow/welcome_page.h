// The page the studio shows while no model is open, as Qt Creator's Welcome mode: open a
// model, the sample model as a link, the recent models and the recent runs (a click opens
// one). It only asks; the main window opens.
#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace embark::ui {

class WelcomePage : public QWidget {
    Q_OBJECT
public:
    struct RecentRun {
        qint64 id = 0;
        QString text; // "run #7 · resnet18 · sim-k230 · portable · 6 Dec 10:42 · 12.3 ms"
    };

    explicit WelcomePage(const QString& sampleModel, QWidget* parent = nullptr);
    void setRecentModels(const QStringList& paths);
    void setRecentRuns(const QList<RecentRun>& runs);

    QListWidget* recentModels() const { return m_models; }
    QListWidget* recentRuns() const { return m_runs; }
    QLabel* sampleLink() const { return m_sample; }
    QPushButton* openButton() const { return m_open; }

signals:
    void openRequested();
    void modelRequested(const QString& path);
    void runRequested(qint64 id);

private:
    QPushButton* m_open;
    QLabel* m_sample;
    QListWidget* m_models;
    QListWidget* m_runs;
};

} // namespace embark::ui

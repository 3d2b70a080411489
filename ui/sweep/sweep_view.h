// A sweep's result as the studio shows it, live while it runs: one table (latency and accuracy
// per cell, the fastest library of each model on each board highlighted) and the chart
// embark-cli sweep --chart draws (app/chartio), exported the same way. Cancel stops the whole
// sweep; a double-clicked cell opens its stored run.
#pragma once

#include "jobs/sweep.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace embark::ui {

// The sweep chart (chartio::paintSweepChart) as a widget: the picture the files get.
class SweepChartWidget : public QWidget {
    Q_OBJECT
public:
    explicit SweepChartWidget(QWidget* parent = nullptr);
    void setSweep(const jobs::SweepResult& sweep);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    jobs::SweepResult m_sweep;
};

class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);

    // The cells as they are now (running: some pending or running); `finished` once the job ended.
    void setCells(const jobs::SweepResult& sweep, bool finished, const QString& message = {});
    const jobs::SweepResult& sweep() const { return m_sweep; }

    // Writes the chart: .png, .svg or .pdf (the error names the file).
    Status exportChart(const QString& path) const;

    QTableWidget* table() const { return m_table; }
    SweepChartWidget* chart() const { return m_chart; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* status() const { return m_status; }
    // Rows whose cell is the fastest library of its model on its board.
    QList<int> bestRows() const;

signals:
    void cancelRequested();
    void runOpened(qint64 runId);

private:
    void exportChartWithDialog();
    static QString cellState(const jobs::SweepCell& cell);

    jobs::SweepResult m_sweep;
    QLabel* m_status;
    QPushButton* m_cancel;
    QPushButton* m_export;
    QTableWidget* m_table;
    SweepChartWidget* m_chart;
};

} // namespace embark::ui

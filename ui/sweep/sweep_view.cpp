#include "sweep_view.h"

#include "sweep_chart.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace embark::ui {

namespace {
enum Column {
    ModelColumn,
    BoardColumn,
    LibraryColumn,
    PrecisionColumn,
    StateColumn,
    MedianColumn,
    IntervalColumn,
    MaxRelColumn,
    CosineColumn,
    RunColumn,
    DeviceColumn,
    ColumnCount
};

// Milliseconds, or microseconds below 0.1 ms, in the user's locale.
QString duration(double ns) {
    const QLocale locale;
    if (ns < 1e5)
        return QCoreApplication::translate("embark::ui::SweepView", "%1 µs").arg(locale.toString(ns / 1e3, 'f', 1));
    return QCoreApplication::translate("embark::ui::SweepView", "%1 ms").arg(locale.toString(ns / 1e6, 'f', 3));
}
} // namespace

SweepChartWidget::SweepChartWidget(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void SweepChartWidget::setSweep(const jobs::SweepResult& sweep) {
    m_sweep = sweep;
    setMinimumHeight(chartio::sweepChartSize(m_sweep).height());
    updateGeometry();
    update();
}

QSize SweepChartWidget::sizeHint() const { return chartio::sweepChartSize(m_sweep); }

void SweepChartWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    chartio::paintSweepChart(p, size(), m_sweep);
}

SweepView::SweepView(QWidget* parent)
    : QWidget(parent),
      m_status(new QLabel(this)),
      m_cancel(new QPushButton(tr("Cancel sweep"), this)),
      m_export(new QPushButton(tr("Export chart..."), this)),
      m_table(new QTableWidget(0, ColumnCount, this)),
      m_chart(new SweepChartWidget(this)) {
    setWindowTitle(tr("Sweep"));
    m_table->setHorizontalHeaderLabels({tr("Model"), tr("Board"), tr("Library"), tr("Precision"), tr("State"),
                                        tr("Median"), tr("95% CI"), tr("max_rel"), tr("Cosine"), tr("Run"),
                                        tr("Device")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_status->setWordWrap(true);
    m_export->setEnabled(false);
    auto* top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_export);
    top->addWidget(m_cancel);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_chart);
    scroll->setWidgetResizable(true);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(scroll);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_cancel->setEnabled(false);
        m_status->setText(tr("Cancelling the sweep..."));
        emit cancelRequested();
    });
    connect(m_export, &QPushButton::clicked, this, &SweepView::exportChartWithDialog);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (row >= 0 && row < int(m_sweep.cells.size()) && m_sweep.cells[size_t(row)].runId > 0)
            emit runOpened(m_sweep.cells[size_t(row)].runId);
    });
    resize(1000, 600);
}

QString SweepView::cellState(const jobs::SweepCell& c) {
    using S = jobs::SweepCell::State;
    switch (c.state) {
    case S::Pending: return tr("pending");
    case S::Running: return tr("running");
    case S::Ok: return tr("ok");
    case S::Failed: return tr("failed");
    case S::Cancelled: return tr("cancelled");
    case S::Skipped: return tr("skipped");
    }
    return {};
}

void SweepView::setCells(const jobs::SweepResult& sweep, bool finished, const QString& message) {
    using S = jobs::SweepCell::State;
    m_sweep = sweep;
    jobs::markBestCells(m_sweep.cells); // live: the best among the cells done so far
    if (!m_sweep.sweepId.isEmpty()) setWindowTitle(tr("Sweep %1").arg(m_sweep.sweepId));
    const QLocale locale;
    m_table->setRowCount(int(m_sweep.cells.size()));
    int done = 0, failed = 0;
    for (int i = 0; i < int(m_sweep.cells.size()); ++i) {
        const jobs::SweepCell& c = m_sweep.cells[size_t(i)];
        const bool ok = c.state == S::Ok;
        done += c.state != S::Pending && c.state != S::Running;
        failed += c.state == S::Failed;
        const QStringList cells{
            QFileInfo(c.model).completeBaseName(),
            c.boardId,
            QString::fromStdString(c.library),
            c.quantized ? QStringLiteral("int8") : QStringLiteral("float32"),
            cellState(c),
            ok ? duration(c.medianNs) : QString(),
            ok && c.ci95HighNs > 0 ? duration(c.ci95LowNs) + QStringLiteral(" - ") + duration(c.ci95HighNs) : QString(),
            c.maxRel >= 0 ? locale.toString(c.maxRel, 'g', 3) : QString(),
            c.cosine >= 0 ? locale.toString(c.cosine, 'f', 6) : QString(),
            c.runId > 0 ? QStringLiteral("#%1").arg(c.runId) : QString(),
            c.device};
        for (int col = 0; col < ColumnCount; ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            item->setToolTip(col == StateColumn && !c.message.empty() ? QString::fromStdString(c.message) : cells[col]);
            if (col >= MedianColumn && col <= RunColumn) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c.bestOnBoard) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
                item->setBackground(QColor(200, 235, 200));
                item->setForeground(QColor(20, 20, 20));
                if (col == LibraryColumn)
                    item->setToolTip(tr("The fastest library of %1 on %2").arg(cells[ModelColumn], c.boardId));
            }
            if (c.state == S::Failed && col == StateColumn) item->setForeground(QColor(190, 40, 30));
            m_table->setItem(i, col, item);
        }
    }
    m_table->resizeColumnsToContents();
    m_chart->setSweep(m_sweep);
    const int count = int(m_sweep.cells.size());
    if (finished) {
        m_cancel->setEnabled(false);
        m_export->setEnabled(count > 0);
        QString text = tr("Sweep %1: %n cell(s)", nullptr, count).arg(m_sweep.sweepId);
        if (failed) text += QStringLiteral(", ") + tr("%n failed", nullptr, failed);
        if (!message.isEmpty()) text += QStringLiteral(" (") + message + QLatin1Char(')');
        text += QStringLiteral(". ") + tr("Every cell is a stored run (Run history); the best library of each "
                                          "model on each board is highlighted.");
        m_status->setText(text);
    } else if (m_cancel->isEnabled()) {
        m_status->setText(tr("%1 of %n cell(s) done", nullptr, count).arg(done));
    }
}

QList<int> SweepView::bestRows() const {
    QList<int> rows;
    for (int i = 0; i < int(m_sweep.cells.size()); ++i)
        if (m_sweep.cells[size_t(i)].bestOnBoard) rows << i;
    return rows;
}

Status SweepView::exportChart(const QString& path) const { return chartio::writeSweepChart(m_sweep, path); }

void SweepView::exportChartWithDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the sweep chart"),
                                                      QStringLiteral("sweep-%1.png").arg(m_sweep.sweepId),
                                                      tr("PNG image (*.png);;SVG image (*.svg);;PDF (*.pdf)"));
    if (path.isEmpty()) return;
    if (Status s = exportChart(path); !s)
        QMessageBox::warning(this, tr("Export chart"), QString::fromStdString(s.error().message));
}

} // namespace embark::ui

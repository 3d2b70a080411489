#include "chart_widget.h"

#include <qcustomplot.h>

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QVBoxLayout>

namespace embark::ui {

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent) {
    m_plot = new QCustomPlot(this);
    m_plot->setMinimumSize(320, 200);
    m_controls = new QHBoxLayout;
    m_controls->setContentsMargins(0, 0, 0, 0);
    auto* exportButton = new QPushButton(tr("Export..."), this);
    exportButton->setToolTip(tr("Save the chart as PNG, PDF or SVG, or its data as CSV"));
    connect(exportButton, &QPushButton::clicked, this, &ChartWidget::exportWithDialog);
    auto* top = new QHBoxLayout;
    top->addLayout(m_controls, 1);
    top->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top);
    layout->addWidget(m_plot, 1);
    applyPalette();
}

void ChartWidget::applyPalette() {
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::Text);
    QColor grid = pal.color(QPalette::Mid);
    m_plot->setBackground(pal.brush(QPalette::Base));
    for (QCPAxis* axis : m_plot->axisRect()->axes()) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
    }
    if (m_plot->legend) {
        m_plot->legend->setBrush(pal.brush(QPalette::Base));
        m_plot->legend->setTextColor(text);
        m_plot->legend->setBorderPen(QPen(grid));
    }
}

void ChartWidget::setCategoryLabels(QCPAxis* axis, const QStringList& labels) {
    // Long ONNX names ("/features/features.0/Conv") would leave no room for the plot: keep
    // their last path components, then their tail (the CSV and clicks keep the full name).
    constexpr int kMaxLabel = 22;
    auto shorten = [](QString label) {
        while (label.size() > kMaxLabel && label.indexOf(QLatin1Char('/'), 1) > 0)
            label = label.mid(label.indexOf(QLatin1Char('/'), 1) + (label.startsWith(QLatin1Char('/')) ? 0 : 1));
        if (label.startsWith(QLatin1Char('/'))) label.remove(0, 1);
        return label.size() > kMaxLabel ? QStringLiteral("…") + label.right(kMaxLabel - 1) : label;
    };
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i) ticker->addTick(i, shorten(labels.at(i)));
    axis->setTicker(ticker);
    axis->setTickLabelRotation(labels.size() > 6 ? 60 : 0);
    axis->setSubTicks(false);
    axis->setRange(-0.7, labels.size() - 0.3);
}

void ChartWidget::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        rebuild();
    }
    QWidget::changeEvent(event);
}

bool ChartWidget::exportTo(const QString& path, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    const int w = std::max(m_plot->width(), 800), h = std::max(m_plot->height(), 500);
    bool ok = false;
    if (suffix == QLatin1String("png")) {
        ok = m_plot->savePng(path, w, h);
    } else if (suffix == QLatin1String("pdf")) {
        ok = m_plot->savePdf(path, w, h);
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(QSize(w, h));
        generator.setViewBox(QRect(0, 0, w, h));
        generator.setTitle(windowTitle());
        QCPPainter painter;
        ok = painter.begin(&generator);
        if (ok) {
            m_plot->toPainter(&painter, w, h);
            ok = painter.end();
        }
    } else if (suffix == QLatin1String("csv")) {
        QSaveFile file(path);
        ok = file.open(QIODevice::WriteOnly | QIODevice::Text);
        if (ok) {
            // flush() first: Qt 6.4's commit() ignores a failed last buffered write (full disk).
            ok = file.write(toCsv().toUtf8()) >= 0 && file.flush() && file.commit();
        }
    } else {
        if (error) *error = tr("Cannot export to '%1': use a .png, .pdf, .svg or .csv file name.").arg(path);
        return false;
    }
    if (!ok && error) *error = tr("Cannot write '%1': check that the folder exists and is writable.").arg(path);
    return ok;
}

void ChartWidget::exportWithDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), windowTitle().isEmpty() ? QStringLiteral("chart.png") : windowTitle() + QStringLiteral(".png"),
        tr("PNG image (*.png);;PDF document (*.pdf);;SVG image (*.svg);;CSV data (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportTo(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace embark::ui

#include "chart_widget.h"

#include <qcustomplot.h>

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QResizeEvent>
#include <QSaveFile>
#include <QScrollBar>
#include <QScopeGuard>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace embark::ui {

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent) {
    m_plot = new QCustomPlot(this);
    // Room for a readable plot under the controls, whatever the dock's height.
    m_plot->setMinimumSize(320, 180);
    m_plot->installEventFilter(this);
    m_rowScroll = new QScrollBar(Qt::Vertical, this);
    m_rowScroll->hide();
    connect(m_rowScroll, &QScrollBar::valueChanged, this, [this] {
        if (!m_inRowUpdate) updateRowWindow();
    });
    m_placeholder = new QLabel(m_plot);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_placeholder->hide();
    m_controls = new QHBoxLayout;
    m_controls->setContentsMargins(0, 0, 0, 0);
    auto* exportButton = new QPushButton(tr("Export..."), this);
    exportButton->setToolTip(tr("Save the chart as PNG, PDF or SVG, or its data as CSV"));
    connect(exportButton, &QPushButton::clicked, this, &ChartWidget::exportWithDialog);
    auto* top = new QHBoxLayout;
    top->addLayout(m_controls, 1);
    top->addWidget(exportButton);
    auto* plotRow = new QHBoxLayout;
    plotRow->setSpacing(0);
    plotRow->addWidget(m_plot, 1);
    plotRow->addWidget(m_rowScroll);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top);
    layout->addLayout(plotRow, 1);
    applyPalette();
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        updatePlaceholder();
        if (fitLegend()) m_plot->replot(QCustomPlot::rpQueuedReplot);
        // The axis rect's height is known after a layout: fit the row window to it.
        if (m_rowsActive && !m_inRowUpdate) {
            const int fit = std::max(1, m_plot->axisRect()->height() / rowPixels());
            if (fit != m_visibleRows)
                QMetaObject::invokeMethod(
                    this, [this] { updateRowWindow(); }, Qt::QueuedConnection);
        }
    });
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
    QPalette hint = m_placeholder->palette();
    hint.setColor(QPalette::WindowText, pal.color(QPalette::PlaceholderText));
    m_placeholder->setPalette(hint);
}

QString ChartWidget::placeholderText() const { return m_placeholder->text(); }

bool ChartWidget::placeholderVisible() const { return !m_placeholder->isHidden(); }

void ChartWidget::setPlaceholderText(const QString& text) {
    m_placeholder->setText(text);
    updatePlaceholder();
}

void ChartWidget::updatePlaceholder() {
    const bool show = !m_placeholder->text().isEmpty() && !hasData();
    m_placeholder->setGeometry(m_plot->rect().adjusted(20, 10, -20, -10));
    m_placeholder->setVisible(show);
    // An empty chart is its hint alone: no squashed axes with overlapping tick labels.
    const bool axesShown = m_plot->xAxis->visible();
    if (axesShown == show) {
        m_plot->xAxis->setVisible(!show);
        m_plot->yAxis->setVisible(!show);
        m_plot->axisRect()->setVisible(!show);
        if (show) m_plot->legend->setVisible(false);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

QString ChartWidget::toolTipAt(const QPointF&) const { return {}; }

QString ChartWidget::elideMiddle(const QString& text, const QFont& font, int pixels) {
    QString t = text;
    if (t.startsWith(QLatin1Char('/'))) t.remove(0, 1);
    return QFontMetrics(font).elidedText(t, Qt::ElideMiddle, pixels);
}

void ChartWidget::placeLegendBelow(int columns) {
    QCPLegend* legend = m_plot->legend;
    if (!legend || m_plot->plotLayout()->rowCount() > 1) return;
    m_plot->axisRect()->insetLayout()->take(legend);
    m_plot->plotLayout()->addElement(1, 0, legend);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_plot->plotLayout()->setRowSpacing(2);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_legendColumns = columns;
    legend->setWrap(columns);
    legend->setMargins(QMargins(4, 2, 4, 2));
    legend->setRowSpacing(0);
    legend->setColumnSpacing(12);
    legend->setBorderPen(Qt::NoPen);
    legend->setMaximumSize(QWIDGETSIZE_MAX, 24 * 3);
}

bool ChartWidget::fitLegend() {
    QCPLegend* legend = m_plot->legend;
    if (m_legendColumns <= 0 || !legend->visible() || legend->itemCount() == 0) return false;
    int widest = 0;
    for (int i = 0; i < legend->itemCount(); ++i) // a grid: some cells are empty
        if (QCPAbstractLegendItem* item = legend->item(i))
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const int room = m_plot->width() - legend->margins().left() - legend->margins().right();
    const int columns = std::clamp((room + legend->columnSpacing()) / std::max(1, widest + legend->columnSpacing()), 1,
                                   m_legendColumns);
    if (columns == legend->wrap()) return false;
    legend->setWrap(columns);
    return true;
}

bool ChartWidget::setCategoryLabels(QCPAxis* axis, const QStringList& labels) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const QFont font = axis->tickLabelFont();
    const int n = int(labels.size());
    const int perLabel = n > 0 ? (std::max(m_plot->width(), 320) - 90) / n : 0;
    const int em = QFontMetrics(font).horizontalAdvance(QLatin1Char('M'));
    if (perLabel >= 6 * em) {
        for (int i = 0; i < n; ++i) ticker->addTick(i, elideMiddle(labels.at(i), font, perLabel - em));
    } else if (n > 0) {
        // Too many names side by side: layer numbers every `step`, at most one per ~5 em.
        const int fit = std::max(1, (std::max(m_plot->width(), 320) - 90) / (5 * em));
        int step = 1;
        for (int candidate : {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000}) {
            step = candidate;
            if ((n + step - 1) / step <= fit) break;
        }
        for (int i = 0; i < n; i += step) ticker->addTick(i, QString::number(i));
    }
    axis->setTicker(ticker);
    axis->setTickLabelRotation(0);
    axis->setSubTicks(false);
    axis->setRange(-0.7, n - 0.3);
    return perLabel >= 6 * em;
}

int ChartWidget::rowPixels() const { return QFontMetrics(m_plot->yAxis->tickLabelFont()).height() + 6; }

void ChartWidget::setRows(const QStringList& labels) {
    m_rowLabels = labels;
    m_rowsActive = true;
    QCPAxis* axis = m_plot->yAxis;
    const QFont font = axis->tickLabelFont();
    // Labels get up to ~40% of the width (at least 120 px, at most 420 px).
    const int budget = std::clamp(int(std::max(width(), 320) * 0.4), 120, 420);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i) ticker->addTick(i, elideMiddle(labels.at(i), font, budget));
    axis->setTicker(ticker);
    axis->setTickLabelRotation(0);
    axis->setSubTicks(false);
    axis->setRangeReversed(true);
    axis->grid()->setVisible(false);
    m_plot->xAxis->grid()->setVisible(true);
    updateRowWindow();
}

void ChartWidget::clearRows() {
    if (!m_rowsActive) return;
    m_rowsActive = false;
    m_rowLabels.clear();
    m_rowScroll->hide();
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_plot->yAxis->setRangeReversed(false);
    m_plot->yAxis->setSubTicks(true);
    m_plot->yAxis->grid()->setVisible(true);
}

QStringList ChartWidget::rowTickLabels() const {
    QStringList out;
    auto ticker = m_plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (ticker)
        for (const QString& s : ticker->ticks()) out << s;
    return out;
}

int ChartWidget::firstVisibleRow() const { return m_rowScroll->value(); }

void ChartWidget::scrollToRow(int row) { m_rowScroll->setValue(std::clamp(row, 0, m_rowScroll->maximum())); }

void ChartWidget::updateRowWindow() {
    if (!m_rowsActive) return;
    m_inRowUpdate = true;
    const int height = m_plot->axisRect()->height() > 20 ? m_plot->axisRect()->height() : m_plot->height() - 70;
    const int n = int(m_rowLabels.size());
    m_visibleRows = std::max(1, height / rowPixels());
    const int shown = std::min(n, m_visibleRows);
    m_rowScroll->setRange(0, std::max(0, n - m_visibleRows));
    m_rowScroll->setPageStep(std::max(1, m_visibleRows));
    m_rowScroll->setSingleStep(1);
    m_rowScroll->setVisible(n > m_visibleRows);
    const int first = m_rowScroll->value();
    // Few rows fill the plot (thick bars); many keep one row per line of text and scroll.
    m_plot->yAxis->setRange(first - 0.5, first + std::max(shown, 1) - 0.5);
    m_plot->replot();
    m_inRowUpdate = false;
}

int ChartWidget::rowAt(const QPointF& pos) const {
    if (!m_rowsActive || !m_plot->axisRect()->rect().contains(pos.toPoint())) return -1;
    const int row = int(std::lround(m_plot->yAxis->pixelToCoord(pos.y())));
    return row >= 0 && row < rowCount() ? row : -1;
}

bool ChartWidget::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_plot) {
        switch (event->type()) {
        case QEvent::ToolTip: {
            auto* help = static_cast<QHelpEvent*>(event);
            const QString tip = toolTipAt(help->pos());
            if (tip.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), tip, m_plot);
            return true;
        }
        case QEvent::Wheel:
            if (m_rowsActive && m_rowScroll->maximum() > 0) {
                auto* wheel = static_cast<QWheelEvent*>(event);
                m_rowScroll->setValue(m_rowScroll->value() - wheel->angleDelta().y() / 40); // 3 rows a notch
                return true;
            }
            break;
        case QEvent::Resize:
            updatePlaceholder();
            // Re-elide the labels for the new width and fit the rows to the new height; other
            // charts choose names or layer numbers by the width: redraw when it changed.
            if (m_rowsActive)
                QMetaObject::invokeMethod(
                    this, [this] { setRows(m_rowLabels); }, Qt::QueuedConnection);
            else if (static_cast<QResizeEvent*>(event)->oldSize().width() != m_plot->width())
                QMetaObject::invokeMethod(
                    this, [this] { rebuild(); }, Qt::QueuedConnection);
            break;
        default: break;
        }
    }
    return QWidget::eventFilter(watched, event);
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
    // The title goes in a row of its own above the plot for the export only.
    QCPTextElement* title = nullptr;
    const bool image =
        suffix == QLatin1String("png") || suffix == QLatin1String("pdf") || suffix == QLatin1String("svg");
    if (image && !m_exportTitle.isEmpty()) {
        m_plot->plotLayout()->insertRow(0);
        QFont bold = font();
        bold.setBold(true);
        title = new QCPTextElement(m_plot, m_exportTitle, bold);
        title->setTextColor(palette().color(QPalette::WindowText));
        m_plot->plotLayout()->addElement(0, 0, title);
    }
    const auto removeTitle = qScopeGuard([&] {
        if (!title) return;
        m_plot->plotLayout()->remove(title);
        m_plot->plotLayout()->simplify();
        m_plot->replot();
    });
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
        generator.setTitle(m_exportTitle.isEmpty() ? windowTitle() : m_exportTitle);
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
        this, tr("Export chart"),
        windowTitle().isEmpty() ? QStringLiteral("chart.png") : windowTitle() + QStringLiteral(".png"),
        tr("PNG image (*.png);;PDF document (*.pdf);;SVG image (*.svg);;CSV data (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportTo(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace embark::ui

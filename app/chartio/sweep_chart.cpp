#include "sweep_chart.h"

#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>

namespace embark::chartio {
namespace {

constexpr int kWidth = 1100;
constexpr int kRow = 26;
constexpr int kTop = 56;
constexpr int kBottom = 40;
constexpr int kLabel = 330;    // the cell's name
constexpr int kAccuracy = 250; // max_rel and cosine

QString cellLabel(const jobs::SweepCell& c) {
    return QStringLiteral("%1 · %2 · %3%4")
        .arg(QFileInfo(c.model).completeBaseName(), c.boardId, QString::fromStdString(c.library),
             c.quantized ? QStringLiteral(" · int8") : QString());
}

} // namespace

QSize sweepChartSize(const jobs::SweepResult& sweep) {
    return {kWidth, kTop + kBottom + kRow * std::max<int>(1, static_cast<int>(sweep.cells.size()))};
}

void paintSweepChart(QPainter& p, const QSize& size, const jobs::SweepResult& sweep) {
    const QColor text(0x20, 0x20, 0x20), grid(0xd0, 0xd0, 0xd0), bar(0x7a, 0x9c, 0xc6), best(0x2e, 0x8b, 0x57),
        bad(0xc0, 0x39, 0x2b);
    p.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    QFont font = p.font();
    font.setPixelSize(13);
    QFont bold = font;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(text);
    p.drawText(QRect(12, 8, size.width() - 24, 22), Qt::AlignLeft | Qt::AlignVCenter,
               QStringLiteral("Sweep %1: median latency (95% interval) and accuracy against the host reference")
                   .arg(sweep.sweepId));
    p.setFont(font);
    const int accuracyX = size.width() - kAccuracy, barLeft = kLabel + 20, barRight = accuracyX - 130;
    double maxNs = 0;
    for (const jobs::SweepCell& c : sweep.cells)
        if (c.state == jobs::SweepCell::State::Ok) maxNs = std::max({maxNs, c.medianNs, c.ci95HighNs});
    const auto x = [&](double ns) { return barLeft + (maxNs > 0 ? (barRight - barLeft) * ns / maxNs : 0.0); };
    p.drawText(QRect(barLeft, kTop - 22, barRight - barLeft, 18), Qt::AlignLeft, QStringLiteral("latency (ms)"));
    p.drawText(QRect(accuracyX, kTop - 22, kAccuracy, 18), Qt::AlignLeft, QStringLiteral("accuracy: max_rel, cosine"));
    const int rows = static_cast<int>(sweep.cells.size());
    p.setPen(grid);
    for (int k = 0; k <= 4 && maxNs > 0; ++k) {
        const double gx = x(maxNs * k / 4);
        p.setPen(grid);
        p.drawLine(QPointF(gx, kTop), QPointF(gx, kTop + rows * kRow));
        p.setPen(text);
        p.drawText(QRectF(gx - 40, kTop + rows * kRow + 2, 80, 16), Qt::AlignHCenter,
                   QString::number(maxNs * k / 4 / 1e6, 'g', 3));
    }
    for (int i = 0; i < rows; ++i) {
        const jobs::SweepCell& c = sweep.cells[static_cast<size_t>(i)];
        const int y = kTop + i * kRow;
        p.setPen(text);
        p.setFont(c.bestOnBoard ? bold : font);
        p.drawText(QRect(12, y, kLabel, kRow), Qt::AlignLeft | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(cellLabel(c), Qt::ElideMiddle, kLabel));
        p.setFont(font);
        if (c.state != jobs::SweepCell::State::Ok) {
            p.setPen(bad);
            p.drawText(QRect(barLeft, y, accuracyX + kAccuracy - barLeft, kRow), Qt::AlignLeft | Qt::AlignVCenter,
                       p.fontMetrics().elidedText(QString::fromLatin1(jobs::sweepCellStateName(c.state)) + ": " +
                                                      QString::fromStdString(c.message),
                                                  Qt::ElideRight, accuracyX + kAccuracy - barLeft));
            continue;
        }
        const QRectF r(barLeft, y + 5, std::max(1.0, x(c.medianNs) - barLeft), kRow - 10);
        p.fillRect(r, c.bestOnBoard ? best : bar);
        if (c.ci95HighNs > c.ci95LowNs) { // the interval as a whisker
            p.setPen(QPen(text, 1));
            const double my = y + kRow / 2.0;
            p.drawLine(QPointF(x(c.ci95LowNs), my), QPointF(x(c.ci95HighNs), my));
            p.drawLine(QPointF(x(c.ci95LowNs), my - 4), QPointF(x(c.ci95LowNs), my + 4));
            p.drawLine(QPointF(x(c.ci95HighNs), my - 4), QPointF(x(c.ci95HighNs), my + 4));
        }
        p.setPen(text);
        const QString value =
            QString::number(c.medianNs / 1e6, 'f', 3) + (c.bestOnBoard ? QStringLiteral(" ms (best)") : " ms");
        const double valueX = std::max(r.right(), c.ci95HighNs > c.ci95LowNs ? x(c.ci95HighNs) : 0.0) + 6;
        p.drawText(QRectF(valueX, y, 140, kRow), Qt::AlignLeft | Qt::AlignVCenter, value);
        const QString accuracy = c.maxRel >= 0 ? QStringLiteral("%1, %2").arg(QString::number(c.maxRel, 'g', 3),
                                                                              QString::number(c.cosine, 'f', 6))
                                               : QStringLiteral("-");
        p.drawText(QRect(accuracyX, y, kAccuracy, kRow), Qt::AlignLeft | Qt::AlignVCenter, accuracy);
    }
    const int ly = kTop + rows * kRow + 20;
    p.fillRect(QRect(12, ly + 4, 12, 12), best);
    p.drawText(QRect(30, ly, 400, 20), Qt::AlignLeft | Qt::AlignVCenter,
               QStringLiteral("the fastest library of the model on the board"));
}

Status writeSweepChart(const jobs::SweepResult& sweep, const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("pdf"))
        return makeError(ErrorKind::Usage,
                         ("cannot write a chart to '" + path + "': name the file .png, .svg or .pdf").toStdString());
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        return makeError(ErrorKind::External, "the chart needs a QGuiApplication to draw its text");
    const QSize size = sweepChartSize(sweep);
    const auto cannot = [&] {
        return makeError(ErrorKind::External,
                         ("cannot write '" + path + "': check that its folder exists and is writable").toStdString());
    };
    if (suffix == QLatin1String("png")) {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        {
            QPainter p(&image);
            paintSweepChart(p, size, sweep);
        }
        if (!image.save(path, "PNG")) return cannot();
        return {};
    }
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle("Sweep " + sweep.sweepId);
        QPainter p;
        if (!p.begin(&svg)) return cannot();
        paintSweepChart(p, size, sweep);
        if (!p.end()) return cannot();
        return {};
    }
    QPdfWriter pdf(path);
    pdf.setTitle("Sweep " + sweep.sweepId);
    pdf.setResolution(96);
    pdf.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / 96, size.height() * 72.0 / 96), QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter p;
    if (!p.begin(&pdf)) return cannot();
    paintSweepChart(p, size, sweep);
    if (!p.end()) return cannot();
    return {};
}

} // namespace embark::chartio

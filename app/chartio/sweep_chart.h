// The sweep chart: one row per cell (model, board, library, precision), its median latency as
// a bar with the 95% interval, the best library of the model on the board highlighted, and
// its accuracy against the host reference (worst max_rel and cosine) beside it. Painted with
// QPainter, so a file (PNG, SVG, PDF by suffix) and a widget show the same picture.
#pragma once

#include "jobs/sweep.h"

#include <QSize>
#include <QString>

class QPainter;

namespace embark::chartio {

// The size the chart wants for these cells (width fixed, one row per cell).
QSize sweepChartSize(const jobs::SweepResult& sweep);

void paintSweepChart(QPainter& painter, const QSize& size, const jobs::SweepResult& sweep);

// Writes the chart to `path`: .png, .svg or .pdf. Usage error for another suffix; External
// when the file cannot be written or no QGuiApplication runs (text needs one).
Status writeSweepChart(const jobs::SweepResult& sweep, const QString& path);

} // namespace embark::chartio

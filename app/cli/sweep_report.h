// A sweep's result as `sweep` and `runs compare --sweep` print it: one table (or JSON) of
// latency and accuracy per cell with the fastest library of each model on each board marked,
// and the chart (app/chartio) when --chart names a file.
#pragma once

#include "cli.h"

#include "jobs/sweep.h"

#include <QJsonObject>

namespace embark::cli {

QJsonObject sweepJson(const jobs::SweepResult& sweep);
void printSweepTable(const jobs::SweepResult& sweep, Io& io);
// Writes the chart and says so on stderr; the error names the file.
Status writeSweepChartFile(const jobs::SweepResult& sweep, const QString& path, Io& io);

} // namespace embark::cli

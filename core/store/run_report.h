// A run report: one self-contained HTML page for a stored run, or for a comparison of two, with
// the model, board, library and date, latency statistics, the plan summary (layers per kernel
// library, arena and weights bytes), the slowest layers, accuracy per output and the worst
// layers, and charts. Pure text from the records: `embark-cli runs report` writes it with SVG
// charts; the studio passes its own chart images (PNG data URLs, or document resources for a
// PDF) instead.
#pragma once

#include "run_record.h"

#include "ir/error.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

namespace embark::store {

struct ReportImage {
    QString title;             // a heading above the image; empty = none (a title drawn in the image)
    QString src;               // an <img> source: "data:image/png;base64,..." or a QTextDocument resource name
    int width = 0, height = 0; // in CSS pixels; 0 = the image's own
};

// Kernel library id -> its colour ("#1c7ed6"), from the library's report hook
// (targets::KernelLibrary::reportColour).
using LibraryColours = std::map<std::string, QString>;

struct ReportOptions {
    int topLayers = 25; // rows of the per-layer tables (the slowest, the largest changes, the worst errors)
    // Charts drawn by the caller, in this order; when empty the report draws its own as inline
    // SVG (the slowest layers and the latency of each iteration) unless svgCharts is false.
    std::vector<ReportImage> images;
    bool svgCharts = true;
    // The kernel libraries' colours; a library absent gets a fixed colour of its name.
    LibraryColours libraryColours;
};

// The report of `run`, or of `run` against `against` (the baseline, "A") when it is given.
QString runReportHtml(const RunRecord& run, const RunRecord* against = nullptr, const ReportOptions& options = {});

// Layers per kernel library in a run's schedule: library -> {layers, total ns}, sorted by name.
struct LibraryShare {
    std::string library;
    int layers = 0;
    double ns = 0;
};
std::vector<LibraryShare> libraryShares(const RunRecord& run);

// Writes `html` to `path` whole or not at all (a temporary file renamed over it).
Status writeReport(const QString& path, const QString& html);

} // namespace embark::store

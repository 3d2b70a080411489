#include "run_report.h"

#include "run_comparison.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace embark::store {

namespace {

QString esc(const QString& s) { return s.toHtmlEscaped(); }
QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString ms(double ns) { return QString::number(ns / 1e6, 'f', 3); }
QString sci(double v) { return std::isfinite(v) ? QString::number(v, 'g', 3) : QStringLiteral("-"); }

QString bytes(qint64 n) {
    if (n < 1024) return QStringLiteral("%1 B").arg(n);
    if (n < 1024 * 1024) return QStringLiteral("%1 KiB (%2 bytes)").arg(n / 1024.0, 0, 'f', 1).arg(n);
    return QStringLiteral("%1 MiB (%2 bytes)").arg(n / (1024.0 * 1024.0), 0, 'f', 2).arg(n);
}

// Long ONNX paths keep both ends: "/features/denseblock3/.../conv2/Conv".
QString elideMiddle(const QString& s, int max) {
    if (s.size() <= max) return s;
    const int head = (max - 1) / 2, tail = max - 1 - head;
    return s.left(head) + QChar(0x2026) + s.right(tail);
}

// Fixed colours per library so the charts and the table agree: a kernel library's own (given by
// the caller, ReportOptions::libraryColours), fixed ones for the other runtimes of a run.
QString libraryColour(const LibraryColours& colours, const std::string& lib) {
    if (auto it = colours.find(lib); it != colours.end()) return it->second;
    if (lib == "generic") return QStringLiteral("#2b8a3e");
    if (lib == "onnxruntime") return QStringLiteral("#7048e8");
    static const char* const others[] = {"#e67700", "#0b7285", "#862e9c", "#5c940d"};
    return QString::fromLatin1(others[std::hash<std::string>{}(lib) % 4]);
}

// Cells that read as numbers are right-aligned (not in the details table: dates, versions).
QString row(const QStringList& cells, bool header = false, bool alignNumbers = true) {
    const QString tag = header ? QStringLiteral("th") : QStringLiteral("td");
    QString out = QStringLiteral("<tr>");
    for (const QString& c : cells) {
        const bool number =
            alignNumbers && !header && !c.isEmpty() && (c.at(0).isDigit() || c.startsWith('-') || c.startsWith('+'));
        out += QStringLiteral("<%1%2>%3</%1>").arg(tag, number ? QStringLiteral(" align=\"right\"") : QString(), c);
    }
    return out + QStringLiteral("</tr>\n");
}

QString tableStart() { return QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\">\n"); }

double totalLayerNs(const RunRecord& r) {
    double t = 0;
    for (const LayerTiming& l : r.layers) t += l.ns;
    return t;
}

QString runTitle(const RunRecord& r) {
    return QStringLiteral("run #%1: %2 on %3 (%4)")
        .arg(r.id)
        .arg(esc(QFileInfo(QString::fromStdString(r.fingerprint.modelPath)).fileName()), esc(r.fingerprint.boardId),
             esc(r.fingerprint.kernelLibrary));
}

// A table with a column per run: a header row naming the runs when there are several, then
// one row per figure, `value(run)` giving each run's cell.
struct RunColumns {
    const std::vector<const RunRecord*>& runs;
    bool alignNumbers;
    QString html = tableStart();
    RunColumns(const std::vector<const RunRecord*>& r, bool align) : runs(r), alignNumbers(align) {
        QStringList head{QString()};
        for (const RunRecord* run : runs) head << QStringLiteral("run #%1").arg(run->id);
        if (runs.size() > 1) html += row(head, true);
    }
    template <typename Value>
    void line(const QString& label, Value value) {
        QStringList cells{QStringLiteral("<b>%1</b>").arg(label)};
        for (const RunRecord* run : runs) cells << value(*run);
        html += row(cells, false, alignNumbers);
    }
    QString finish() const { return html + QStringLiteral("</table>\n"); }
};

QString detailsTable(const std::vector<const RunRecord*>& runs) {
    RunColumns t(runs, false); // dates and versions read left-aligned
    auto line = [&](const QString& label, auto value) { t.line(label, value); };
    line(QStringLiteral("Model"), [](const RunRecord& r) { return esc(r.fingerprint.modelPath); });
    line(QStringLiteral("Model sha256"),
         [](const RunRecord& r) { return esc(r.fingerprint.modelSha256.substr(0, 16)); });
    line(QStringLiteral("Board"), [](const RunRecord& r) { return esc(r.fingerprint.boardId); });
    line(QStringLiteral("Kernel library"), [](const RunRecord& r) { return esc(r.fingerprint.kernelLibrary); });
    line(QStringLiteral("Threads"), [](const RunRecord& r) { return QString::number(r.fingerprint.threads); });
    line(QStringLiteral("Compiler"), [](const RunRecord& r) {
        return esc(r.fingerprint.compiler) + QStringLiteral(" <code>") + esc(r.fingerprint.compilerFlags) +
               QStringLiteral("</code>");
    });
    line(QStringLiteral("Date (UTC)"), [](const RunRecord& r) {
        return esc(r.fingerprint.date.toUTC().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss")));
    });
    line(QStringLiteral("Embark"), [](const RunRecord& r) { return esc(r.fingerprint.embarkVersion); });
    line(QStringLiteral("Status"), [](const RunRecord& r) {
        QString s = QString::fromLatin1(runStatusName(r.status));
        if (!r.message.empty()) s += QStringLiteral(": ") + esc(r.message);
        return s;
    });
    return t.finish();
}

QString latencyTable(const std::vector<const RunRecord*>& runs, const RunComparison* c) {
    QString h = tableStart();
    QStringList head{QString()};
    for (const RunRecord* r : runs) head << QStringLiteral("run #%1").arg(r->id);
    h += row(head, true);
    auto line = [&](const QString& label, auto value) {
        QStringList cells{QStringLiteral("<b>%1</b>").arg(label)};
        for (const RunRecord* r : runs) cells << (r->latency.empty() ? QStringLiteral("-") : value(r->latency));
        h += row(cells);
    };
    line(QStringLiteral("Median (ms)"), [](const LatencyStats& s) { return ms(s.medianNs); });
    line(QStringLiteral("95% interval of the median (ms)"),
         [](const LatencyStats& s) { return QStringLiteral("%1 - %2").arg(ms(s.ci95LowNs), ms(s.ci95HighNs)); });
    line(QStringLiteral("Mean (ms)"), [](const LatencyStats& s) { return ms(s.meanNs); });
    line(QStringLiteral("Min (ms)"), [](const LatencyStats& s) { return ms(s.minNs); });
    line(QStringLiteral("p90 (ms)"), [](const LatencyStats& s) { return ms(s.p90Ns); });
    line(QStringLiteral("Max (ms)"), [](const LatencyStats& s) { return ms(s.maxNs); });
    line(QStringLiteral("Stdev (ms)"), [](const LatencyStats& s) { return ms(s.stdevNs); });
    line(QStringLiteral("Iterations"), [](const LatencyStats& s) { return QString::number(s.count); });
    h += QStringLiteral("</table>\n");
    if (c && c->medianRatio > 0)
        h += QStringLiteral("<p>Run #%1 / run #%2 (median): <b>%3</b>, %4 ms. %5</p>\n")
                 .arg(c->idB)
                 .arg(c->idA)
                 .arg(QString::number(c->medianRatio, 'f', 3))
                 .arg((c->medianDeltaNs >= 0 ? QStringLiteral("+") : QString()) + ms(c->medianDeltaNs))
                 .arg(c->significant ? QStringLiteral("The 95% intervals do not overlap: a real difference.")
                                     : QStringLiteral("The 95% intervals overlap: not a significant difference."));
    return h;
}

QString planTable(const std::vector<const RunRecord*>& runs, const LibraryColours& colours) {
    RunColumns t(runs, true);
    auto line = [&](const QString& label, auto value) { t.line(label, value); };
    line(QStringLiteral("Layers timed"), [](const RunRecord& r) { return QString::number(r.layers.size()); });
    line(QStringLiteral("Layers per kernel library"), [&colours](const RunRecord& r) {
        QStringList parts;
        const double total = totalLayerNs(r);
        for (const LibraryShare& s : libraryShares(r))
            parts << QStringLiteral("<span style=\"color:%1\">&#9632;</span> %2: %3 layers, %4 ms (%5%)")
                         .arg(libraryColour(colours, s.library), esc(s.library))
                         .arg(s.layers)
                         .arg(ms(s.ns))
                         .arg(total > 0 ? QString::number(100.0 * s.ns / total, 'f', 1) : QStringLiteral("0"));
        return parts.isEmpty() ? QStringLiteral("-") : parts.join(QStringLiteral("<br>"));
    });
    auto extraBytes = [](const char* key) {
        return [key](const RunRecord& r) {
            const QJsonValue v = r.extra.value(QLatin1String(key));
            return v.isDouble() ? bytes(qint64(v.toDouble())) : QStringLiteral("-");
        };
    };
    line(QStringLiteral("Arena (activations)"), extraBytes("arena_bytes"));
    line(QStringLiteral("Weights"), extraBytes("weights_bytes"));
    line(QStringLiteral("Binary"), extraBytes("binary_bytes"));
    line(QStringLiteral("Partitions"), [](const RunRecord& r) {
        const QJsonValue v = r.extra.value(QLatin1String("partitions"));
        return v.isDouble() ? QString::number(v.toInt()) : QStringLiteral("-");
    });
    return t.finish();
}

QString layerTable(const RunRecord& r, int top) {
    std::vector<const LayerTiming*> order;
    for (const LayerTiming& l : r.layers) order.push_back(&l);
    std::stable_sort(order.begin(), order.end(),
                     [](const LayerTiming* a, const LayerTiming* b) { return a->ns > b->ns; });
    const double total = totalLayerNs(r);
    QString h = tableStart() + row({QStringLiteral("#"), QStringLiteral("Layer"), QStringLiteral("Library"),
                                    QStringLiteral("Time (ms)"), QStringLiteral("Share")},
                                   true);
    const int n = std::min<int>(top, int(order.size()));
    for (int i = 0; i < n; ++i)
        h += row({QString::number(i + 1), esc(order[i]->node), esc(order[i]->lib), ms(order[i]->ns),
                  total > 0 ? QString::number(100.0 * order[i]->ns / total, 'f', 1) + QLatin1Char('%') : QString()});
    h += QStringLiteral("</table>\n");
    if (int(order.size()) > n)
        h += QStringLiteral("<p>The %1 slowest of %2 layers (%3 ms in all).</p>\n")
                 .arg(n)
                 .arg(order.size())
                 .arg(ms(total));
    return h;
}

QString deltaTable(const RunComparison& c, int top) {
    std::vector<const LayerDelta*> order;
    for (const LayerDelta& d : c.layers) order.push_back(&d);
    auto weight = [](const LayerDelta* d) {
        return d->nsA && d->nsB ? std::abs(d->deltaNs) : std::max(d->nsA.value_or(0), d->nsB.value_or(0));
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](const LayerDelta* a, const LayerDelta* b) { return weight(a) > weight(b); });
    QString h = tableStart() + row({QStringLiteral("Layer"), QStringLiteral("#%1 (ms)").arg(c.idA),
                                    QStringLiteral("#%1 (ms)").arg(c.idB), QStringLiteral("Change (ms)"),
                                    QStringLiteral("Ratio"), QStringLiteral("Libraries")},
                                   true);
    const int n = std::min<int>(top, int(order.size()));
    for (int i = 0; i < n; ++i) {
        const LayerDelta& d = *order[i];
        QString libs = esc(d.libA.empty() ? d.libB : d.libA);
        if (!d.libA.empty() && !d.libB.empty() && d.libA != d.libB)
            libs = esc(d.libA) + QStringLiteral(" &rarr; ") + esc(d.libB);
        h += row({esc(d.node), d.nsA ? ms(*d.nsA) : QStringLiteral("-"), d.nsB ? ms(*d.nsB) : QStringLiteral("-"),
                  d.nsA && d.nsB ? (d.deltaNs >= 0 ? QStringLiteral("+") : QString()) + ms(d.deltaNs) : QString(),
                  d.ratio > 0 ? QString::number(d.ratio, 'f', 2) : QString(), libs});
    }
    h += QStringLiteral("</table>\n");
    if (int(order.size()) > n)
        h += QStringLiteral("<p>The %1 largest changes of %2 layers.</p>\n").arg(n).arg(order.size());
    return h;
}

QString accuracyTable(const std::vector<AccuracyEntry>& entries, const QString& nameHeader, int top, bool worstFirst) {
    std::vector<const AccuracyEntry*> order;
    for (const AccuracyEntry& e : entries) order.push_back(&e);
    if (worstFirst)
        std::stable_sort(order.begin(), order.end(), [](const AccuracyEntry* a, const AccuracyEntry* b) {
            const double x = std::isfinite(a->maxRel) ? a->maxRel : 1e300,
                         y = std::isfinite(b->maxRel) ? b->maxRel : 1e300;
            return x > y;
        });
    QString h = tableStart() + row({nameHeader, QStringLiteral("max_abs"), QStringLiteral("max_rel"),
                                    QStringLiteral("rmse"), QStringLiteral("cosine"), QStringLiteral("SNR (dB)")},
                                   true);
    const int n = std::min<int>(top, int(order.size()));
    for (int i = 0; i < n; ++i) {
        const AccuracyEntry& e = *order[i];
        h += row({esc(e.name), sci(e.maxAbs), sci(e.maxRel), sci(e.rmse),
                  std::isfinite(e.cosine) ? QString::number(e.cosine, 'f', 6) : QStringLiteral("-"),
                  std::isfinite(e.snrDb) ? QString::number(e.snrDb, 'f', 1) : QStringLiteral("-")});
    }
    h += QStringLiteral("</table>\n");
    if (int(order.size()) > n)
        h += QStringLiteral("<p>The %1 layers of %2 with the largest max_rel.</p>\n").arg(n).arg(order.size());
    return h;
}

// Horizontal bars of the slowest layers, coloured by library.
QString svgLayerBars(const RunRecord& r, int top, const LibraryColours& colours) {
    std::vector<const LayerTiming*> order;
    for (const LayerTiming& l : r.layers) order.push_back(&l);
    std::stable_sort(order.begin(), order.end(),
                     [](const LayerTiming* a, const LayerTiming* b) { return a->ns > b->ns; });
    const int n = std::min<int>(top, int(order.size()));
    if (n == 0) return {};
    const double maxNs = std::max(order[0]->ns, 1.0);
    const int labelW = 300, barW = 380, rowH = 18, legendH = 22, width = labelW + barW + 90,
              height = n * rowH + 10 + legendH;
    QString s = QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" "
                               "font-family=\"sans-serif\" font-size=\"11\">\n")
                    .arg(width)
                    .arg(height);
    // The libraries' colours, above the bars.
    int x = labelW;
    for (const LibraryShare& share : libraryShares(r)) {
        s += QStringLiteral(
                 "<rect x=\"%1\" y=\"4\" width=\"12\" height=\"12\" fill=\"%2\"/><text x=\"%3\" y=\"14\">%4</text>\n")
                 .arg(x)
                 .arg(libraryColour(colours, share.library))
                 .arg(x + 16)
                 .arg(esc(share.library));
        x += 24 + 7 * int(share.library.size());
    }
    s += QStringLiteral("<text x=\"%1\" y=\"14\">(time in ms)</text>\n").arg(x + 8);
    for (int i = 0; i < n; ++i) {
        const LayerTiming& l = *order[i];
        const int y = 5 + legendH + i * rowH;
        const double w = std::max(1.0, barW * l.ns / maxNs);
        s += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"end\">%3</text>")
                 .arg(labelW - 6)
                 .arg(y + 12)
                 .arg(esc(elideMiddle(QString::fromStdString(l.node), 44)));
        s += QStringLiteral(
                 "<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"%5\"><title>%6 (%7): %8 ms</title></rect>")
                 .arg(labelW)
                 .arg(y + 2)
                 .arg(w, 0, 'f', 1)
                 .arg(rowH - 4)
                 .arg(libraryColour(colours, l.lib), esc(l.node), esc(l.lib), ms(l.ns));
        s += QStringLiteral("<text x=\"%1\" y=\"%2\">%3</text>\n").arg(labelW + int(w) + 4).arg(y + 12).arg(ms(l.ns));
    }
    return s + QStringLiteral("</svg>\n");
}

// The latency of each timed iteration, one line per run, with the medians dashed.
QString svgLatency(const std::vector<const RunRecord*>& runs) {
    double maxNs = 0;
    size_t count = 0;
    for (const RunRecord* r : runs) {
        for (int64_t v : r->latencyNs) maxNs = std::max(maxNs, double(v));
        count = std::max(count, r->latencyNs.size());
    }
    if (count == 0 || maxNs <= 0) return {};
    const int left = 60, width = 700, height = 220, plotW = width - left - 10, plotH = height - 40;
    static const char* const colours[] = {"#1c7ed6", "#d9480f"};
    QString s = QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" "
                               "font-family=\"sans-serif\" font-size=\"11\">\n")
                    .arg(width)
                    .arg(height);
    const double top = maxNs * 1.1;
    for (int t = 0; t <= 4; ++t) { // y axis: 0 .. top in 4 steps
        const double v = top * t / 4;
        const int y = 10 + plotH - int(plotH * t / 4);
        s += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"#ddd\"/>"
                            "<text x=\"%4\" y=\"%5\" text-anchor=\"end\">%6</text>\n")
                 .arg(left)
                 .arg(y)
                 .arg(left + plotW)
                 .arg(left - 4)
                 .arg(y + 4)
                 .arg(ms(v));
    }
    s += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"middle\">iteration (latency in ms)</text>\n")
             .arg(left + plotW / 2)
             .arg(height - 8);
    for (size_t k = 0; k < runs.size(); ++k) {
        const RunRecord& r = *runs[k];
        if (r.latencyNs.empty()) continue;
        QStringList points;
        for (size_t i = 0; i < r.latencyNs.size(); ++i) {
            const double x = left + (count > 1 ? plotW * double(i) / double(count - 1) : plotW / 2.0);
            const double y = 10 + plotH - plotH * double(r.latencyNs[i]) / top;
            points << QStringLiteral("%1,%2").arg(x, 0, 'f', 1).arg(y, 0, 'f', 1);
        }
        const QString colour = QString::fromLatin1(colours[k % 2]);
        s += QStringLiteral("<polyline fill=\"none\" stroke=\"%1\" stroke-width=\"1.5\" points=\"%2\"/>\n")
                 .arg(colour, points.join(QLatin1Char(' ')));
        const double my = 10 + plotH - plotH * r.latency.medianNs / top;
        s += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"%4\" stroke-dasharray=\"4 3\"/>"
                            "<text x=\"%5\" y=\"%6\" fill=\"%4\">run #%7 median %8 ms</text>\n")
                 .arg(left)
                 .arg(my, 0, 'f', 1)
                 .arg(left + plotW)
                 .arg(colour)
                 .arg(left + 6 + int(k) * 220)
                 .arg(std::max(20.0, my - 4), 0, 'f', 1)
                 .arg(r.id)
                 .arg(ms(r.latency.medianNs));
    }
    return s + QStringLiteral("</svg>\n");
}

} // namespace

std::vector<LibraryShare> libraryShares(const RunRecord& run) {
    std::map<std::string, LibraryShare> by;
    for (const LayerTiming& l : run.layers) {
        LibraryShare& s = by[l.lib];
        s.library = l.lib;
        ++s.layers;
        s.ns += l.ns;
    }
    std::vector<LibraryShare> out;
    for (auto& [_, s] : by) out.push_back(s);
    return out;
}

QString runReportHtml(const RunRecord& run, const RunRecord* against, const ReportOptions& options) {
    std::vector<const RunRecord*> runs;
    if (against) runs.push_back(against);
    runs.push_back(&run);
    std::optional<RunComparison> comparison;
    if (against) comparison = compareRecords(*against, run);
    const int top = std::max(1, options.topLayers);

    const QString title = against
                              ? QStringLiteral("Embark report: %1 against %2").arg(runTitle(run), runTitle(*against))
                              : QStringLiteral("Embark report: %1").arg(runTitle(run));
    QString h;
    h += QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>%1</title>\n").arg(title);
    h += QStringLiteral("<style>body{font-family:sans-serif;margin:24px;max-width:1100px}"
                        "table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #bbb;padding:3px 8px}"
                        "th{background:#eee}h2{margin-top:28px;border-bottom:1px solid #ccc}"
                        ".warn{color:#b00}</style>\n</head><body>\n");
    h += QStringLiteral("<h1>%1</h1>\n").arg(title);
    if (against && against->fingerprint.modelSha256 != run.fingerprint.modelSha256 &&
        !(against->fingerprint.modelSha256.empty() && against->fingerprint.modelPath == run.fingerprint.modelPath))
        h += QStringLiteral("<p class=\"warn\"><b>The two runs are of different models</b>: their per-layer figures "
                            "do not compare.</p>\n");

    h += QStringLiteral("<h2>Run</h2>\n") + detailsTable(runs);
    h += QStringLiteral("<h2>Latency</h2>\n") + latencyTable(runs, comparison ? &*comparison : nullptr);
    h += QStringLiteral("<h2>Plan</h2>\n") + planTable(runs, options.libraryColours);

    if (!options.images.empty() || options.svgCharts) {
        QString charts;
        for (const ReportImage& image : options.images) {
            if (!image.title.isEmpty()) charts += QStringLiteral("<h3>%1</h3>\n").arg(esc(image.title));
            charts += QStringLiteral("<p><img src=\"%1\" alt=\"%2\"").arg(image.src, esc(image.title));
            if (image.width > 0) charts += QStringLiteral(" width=\"%1\"").arg(image.width);
            if (image.height > 0) charts += QStringLiteral(" height=\"%1\"").arg(image.height);
            charts += QStringLiteral("></p>\n");
        }
        if (options.images.empty()) {
            const QString bars = svgLayerBars(run, std::min(top, 25), options.libraryColours);
            if (!bars.isEmpty())
                charts +=
                    QStringLiteral("<h3>Slowest layers of run #%1 (colour: kernel library)</h3>\n").arg(run.id) + bars;
            const QString latency = svgLatency(runs);
            if (!latency.isEmpty()) charts += QStringLiteral("<h3>Latency of each iteration</h3>\n") + latency;
        }
        if (!charts.isEmpty()) h += QStringLiteral("<h2>Charts</h2>\n") + charts;
    }

    if (comparison) {
        h += QStringLiteral("<h2>Per-layer time: the largest changes</h2>\n") + deltaTable(*comparison, top);
    }
    for (const RunRecord* r : runs)
        if (!r->layers.empty())
            h += QStringLiteral("<h2>Per-layer time: the slowest layers of run #%1</h2>\n").arg(r->id) +
                 layerTable(*r, top);

    for (const RunRecord* r : runs) {
        if (r->outputAccuracy.empty() && r->layerAccuracy.empty()) continue;
        h += QStringLiteral("<h2>Accuracy of run #%1 against the reference</h2>\n").arg(r->id);
        if (!r->outputAccuracy.empty())
            h += accuracyTable(r->outputAccuracy, QStringLiteral("Output"), int(r->outputAccuracy.size()), false);
        if (!r->layerAccuracy.empty()) {
            h += QStringLiteral("<h3>Layers with the largest error</h3>\n");
            h += accuracyTable(r->layerAccuracy, QStringLiteral("Layer"), top, true);
        }
    }
    h += QStringLiteral("<p><small>Written by Embark %1 from the run store.</small></p>\n</body></html>\n")
             .arg(esc(run.fingerprint.embarkVersion));
    return h;
}

Status writeReport(const QString& path, const QString& html) {
    // A folder that does not exist yet is created, as export -o does.
    if (const QString parent = QFileInfo(path).absolutePath(); !QDir().mkpath(parent))
        return makeError(
            ErrorKind::External,
            QStringLiteral("cannot write the report %1: cannot create the folder %2").arg(path, parent).toStdString());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return makeError(ErrorKind::External,
                         QStringLiteral("cannot write the report %1: %2").arg(path, file.errorString()).toStdString());
    file.write(html.toUtf8());
    if (!file.commit())
        return makeError(ErrorKind::External,
                         QStringLiteral("cannot write the report %1: %2").arg(path, file.errorString()).toStdString());
    return {};
}

} // namespace embark::store

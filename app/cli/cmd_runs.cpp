// `embark-cli runs list|show ID|compare A B|delete ID [--csv|--json] [--db FILE]`: the run
// history kept by core/store, with totals (medians and 95% intervals) and per-layer deltas;
// `runs compare --sweep ID [--chart FILE]`: a sweep's runs as its table and chart;
// `runs report ID [--against ID] -o FILE.html`: one self-contained HTML report.
#include "commands.h"
#include "layer_report.h"
#include "model_args.h"
#include "run_json.h"
#include "sweep_report.h"

#include "export/kernel_libraries.h"
#include "store/run_report.h"
#include "store/run_store.h"
#include "targets/onnxruntime.h"

#include "text_table.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace embark::cli {
namespace {

using namespace embark::store;

QString q(const std::string& s) { return QString::fromStdString(s); }
QString ms(double ns) { return msText(ns); }
QString ns(double v) { return QString::number(v, 'f', 1); } // CSV: no exponent notation
QString statusText(RunStatus s) { return QString::fromLatin1(runStatusName(s)); }

// RFC 4180: quote a field that holds a separator, quote or line break.
QString csvField(const QString& s) {
    if (!s.contains(QRegularExpression("[\",\r\n]"))) return s;
    return '"' + QString(s).replace("\"", "\"\"") + '"';
}

Expected<RunFilter> filterFrom(const QCommandLineParser& p) {
    RunFilter f;
    f.model = p.value("model").toStdString();
    f.boardId = p.value("board").toStdString();
    f.kernelLibrary = p.value("lib").toStdString();
    for (const char* key : {"from", "to"}) {
        if (!p.isSet(key)) continue;
        QDateTime t = QDateTime::fromString(p.value(key), Qt::ISODate);
        if (!t.isValid()) t = QDate::fromString(p.value(key), Qt::ISODate).startOfDay(Qt::UTC);
        if (!t.isValid())
            return makeError(ErrorKind::Usage, QStringLiteral("--%1 '%2' is not a date: use "
                                                              "YYYY-MM-DD or an ISO 8601 time")
                                                   .arg(key, p.value(key))
                                                   .toStdString());
        (std::string(key) == "from" ? f.from : f.to) = t;
    }
    if (p.isSet("to") && p.value("to").size() == 10) f.to = f.to.addDays(1).addMSecs(-1); // whole day
    if (p.isSet("limit")) {
        auto limit = intOption(p, "limit", 1, 1000000000);
        if (!limit) return limit.error();
        f.limit = static_cast<int>(*limit);
    }
    return f;
}

int list(RunStore& store, const QCommandLineParser& p, Io& io) {
    auto filter = filterFrom(p);
    if (!filter) return fail(io, filter.error());
    auto runs = store.listRuns(*filter);
    if (!runs) return fail(io, runs.error());
    if (p.isSet("json")) {
        QJsonArray a;
        for (const RunSummary& r : *runs)
            a.append(withSchema({{"run_id", qint64(r.id)},
                                 {"date", r.date.toString(Qt::ISODateWithMs)},
                                 {"model", q(r.modelPath)},
                                 {"board", q(r.boardId)},
                                 {"emulated", isEmulatedBoard(q(r.boardId))},
                                 {"lib", q(r.kernelLibrary)},
                                 {"threads", r.threads},
                                 {"status", statusText(r.status)},
                                 {"message", q(r.message)},
                                 {"latency", latencyJson(r.latency)}}));
        io.out << QJsonDocument(a).toJson(QJsonDocument::Indented);
        return 0;
    }
    const bool csv = p.isSet("csv");
    if (csv) io.out << "run_id,date,model,board,lib,threads,status,median_ns,ci95_low_ns,ci95_high_ns\n";
    using A = TextTable::Align;
    TextTable table(
        {{"id", A::Right}, {"date"}, {"status"}, {"board"}, {"lib"}, {"median ms", A::Right}, {"(95% CI)"}, {"model"}});
    for (const RunSummary& r : *runs) {
        if (csv) {
            io.out << r.id << ',' << r.date.toString(Qt::ISODateWithMs) << ',' << csvField(q(r.modelPath)) << ','
                   << csvField(q(r.boardId)) << ',' << csvField(q(r.kernelLibrary)) << ',' << r.threads << ','
                   << statusText(r.status) << ',' << ns(r.latency.medianNs) << ',' << ns(r.latency.ci95LowNs) << ','
                   << ns(r.latency.ci95HighNs) << '\n';
            continue;
        }
        table.addRow(
            {QString::number(r.id), r.date.toString("yyyy-MM-dd hh:mm:ss"), statusText(r.status), q(r.boardId),
             q(r.kernelLibrary), r.latency.empty() ? QString("-") : ms(r.latency.medianNs),
             r.latency.empty() ? QString() : "[" + ms(r.latency.ci95LowNs) + ", " + ms(r.latency.ci95HighNs) + "]",
             q(r.modelPath)});
    }
    if (!csv) {
        table.print(io.out);
        io.out << runs->size() << " run(s) in " << store.path() << "\n";
    }
    return 0;
}

int show(RunStore& store, int64_t id, const QCommandLineParser& p, Io& io) {
    auto r = store.getRun(id);
    if (!r) return fail(io, r.error());
    if (p.isSet("json")) {
        io.out << QJsonDocument(runJson(*r)).toJson(QJsonDocument::Indented); // as bench --json and --save-json
        return 0;
    }
    if (p.isSet("csv")) { // the per-layer table, the part worth a spreadsheet
        io.out << "node,lib,ns\n";
        for (const LayerTiming& t : r->layers)
            io.out << csvField(q(t.node)) << ',' << csvField(q(t.lib)) << ',' << t.ns << '\n';
        return 0;
    }
    const RunFingerprint& f = r->fingerprint;
    io.out << "Run " << r->id << "  " << statusText(r->status) << (r->message.empty() ? "" : ": ") << q(r->message)
           << "\n"
           << "  model     " << q(f.modelPath) << "  (sha256 " << q(f.modelSha256).left(12) << ")\n"
           << "  board     " << q(f.boardId) << ", lib " << q(f.kernelLibrary) << ", threads " << f.threads << "\n"
           << "  compiler  " << q(f.compiler) << " " << q(f.compilerFlags) << "\n"
           << "  date      " << f.date.toString(Qt::ISODateWithMs) << ", Embark " << q(f.embarkVersion) << "\n";
    const LatencyStats& s = r->latency;
    if (!s.empty())
        io.out << "  latency   median " << ms(s.medianNs) << " ms [" << ms(s.ci95LowNs) << ", " << ms(s.ci95HighNs)
               << "] 95% CI, min " << ms(s.minNs) << ", mean " << ms(s.meanNs) << ", p90 " << ms(s.p90Ns) << ", stdev "
               << ms(s.stdevNs) << " (" << s.count << " samples)\n";
    for (const AccuracyEntry& a : r->outputAccuracy)
        io.out << "  output    " << q(a.name) << ": max_abs " << a.maxAbs << ", max_rel " << a.maxRel << ", cosine "
               << a.cosine << ", snr " << a.snrDb << " dB\n";
    if (isEmulatedBoard(q(f.boardId)))
        io.out << "  note      " << q(f.boardId) << " is simulated (qemu-user): times are emulation, not the board's\n";
    if (!r->layers.empty()) {
        io.out << "  layers\n";
        TextTable table({{"node"}, {"lib"}, {"ms", TextTable::Align::Right}}, "    ");
        for (const LayerTiming& t : r->layers) table.addRow({q(t.node), q(t.lib), ms(t.ns)});
        table.print(io.out);
    }
    if (r->extra.contains("float_reference")) { // bench --float-reference
        const QJsonObject fr = r->extra["float_reference"].toObject();
        io.out << "  per-layer error on the board against the float model " << fr["model"].toString() << "\n";
        printLayerDiff(io.out, bench::layerDiffFromJson(fr), 10, fr["snr_drop_db"].toDouble());
    }
    return 0;
}

int compare(RunStore& store, int64_t a, int64_t b, const QCommandLineParser& p, Io& io) {
    auto c = store.compareRuns(a, b);
    if (!c) return fail(io, c.error());
    // What ran each run (export or ONNX Runtime, its provider) and the EP options that differ.
    auto runA = store.getRun(a);
    if (!runA) return fail(io, runA.error());
    auto runB = store.getRun(b);
    if (!runB) return fail(io, runB.error());
    const targets::RuntimeComparison rt = targets::compareRuntimes(runA->extra, runB->extra);
    // Times of a qemu-user board measure the emulator on this computer, not the board.
    const bool emulated =
        isEmulatedBoard(q(runA->fingerprint.boardId)) || isEmulatedBoard(q(runB->fingerprint.boardId));
    auto optional = [](const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(); };
    if (p.isSet("json")) {
        QJsonArray layers;
        for (const LayerDelta& d : c->layers)
            layers.append(QJsonObject{{"name", q(d.node)},
                                      {"lib_a", q(d.libA)},
                                      {"lib_b", q(d.libB)},
                                      {"ns_a", optional(d.nsA)},
                                      {"ns_b", optional(d.nsB)},
                                      {"delta_ns", d.deltaNs},
                                      {"ratio", d.ratio}});
        auto valueOrNull = [](const QString& v) { return v.isEmpty() ? QJsonValue() : QJsonValue(v); };
        QJsonArray options;
        for (const targets::EpOptionChange& o : rt.epOptions)
            options.append(QJsonObject{{"key", o.key}, {"a", valueOrNull(o.a)}, {"b", valueOrNull(o.b)}});
        io.out << QJsonDocument(withSchema(QJsonObject{{"a", qint64(c->idA)},
                                                       {"b", qint64(c->idB)},
                                                       {"latency_a", latencyJson(c->a)},
                                                       {"latency_b", latencyJson(c->b)},
                                                       {"median_delta_ns", c->medianDeltaNs},
                                                       {"median_ratio", c->medianRatio},
                                                       {"significant", c->significant},
                                                       {"emulated", emulated},
                                                       {"runtime_a", rt.a.toJson()},
                                                       {"runtime_b", rt.b.toJson()},
                                                       {"ep_option_differences", options},
                                                       {"layers", layers}}))
                      .toJson(QJsonDocument::Indented);
        return 0;
    }
    auto cell = [](const std::optional<double>& v) { return v ? ns(*v) : QString(); };
    if (p.isSet("csv")) {
        io.out << "node,lib_a,lib_b,ns_a,ns_b,delta_ns,ratio\n";
        io.out << "TOTAL (median),,," << ns(c->a.medianNs) << ',' << ns(c->b.medianNs) << ',' << ns(c->medianDeltaNs)
               << ',' << c->medianRatio << '\n';
        for (const LayerDelta& d : c->layers)
            io.out << csvField(q(d.node)) << ',' << csvField(q(d.libA)) << ',' << csvField(q(d.libB)) << ','
                   << cell(d.nsA) << ',' << cell(d.nsB) << ',' << ns(d.deltaNs) << ',' << d.ratio << '\n';
        return 0;
    }
    auto total = [&](int64_t id, const LatencyStats& s) {
        io.out << "  run " << QString::number(id).leftJustified(6) << " median " << ms(s.medianNs).rightJustified(10)
               << " ms   95% CI [" << ms(s.ci95LowNs) << ", " << ms(s.ci95HighNs) << "]  (" << s.count << " samples)\n";
    };
    io.out << "Totals\n";
    total(c->idA, c->a);
    total(c->idB, c->b);
    io.out << "  B / A    " << QString::number(c->medianRatio, 'f', 3) << "  ("
           << (emulated
                   ? (c->significant ? "the intervals do not overlap, but the times are emulated (qemu-user on this "
                                       "computer): a difference of the emulation, not of the board"
                                     : "the intervals overlap; the times are emulated (qemu-user on this computer)")
               : c->significant ? "the intervals do not overlap: a real difference"
                                : "the intervals overlap: not a significant difference")
           << ")\n\nRuntime\n";
    io.out << "  run " << QString::number(c->idA).leftJustified(6) << " " << rt.a.describe() << "\n"
           << "  run " << QString::number(c->idB).leftJustified(6) << " " << rt.b.describe() << "\n";
    const bool anyEp =
        !rt.a.ep.isEmpty() || !rt.b.ep.isEmpty() || !rt.a.epOptions.isEmpty() || !rt.b.epOptions.isEmpty();
    if (!rt.epOptions.empty()) {
        io.out << "  EP options that differ (A -> B)\n";
        int width = 0;
        for (const targets::EpOptionChange& o : rt.epOptions) width = std::max(width, int(o.key.size()));
        auto value = [](const QString& v) { return v.isEmpty() ? QStringLiteral("(not set)") : v; };
        for (const targets::EpOptionChange& o : rt.epOptions)
            io.out << "    " << o.key.leftJustified(width) << "  " << value(o.a) << " -> " << value(o.b) << "\n";
    } else if (anyEp) {
        io.out << "  EP options the same in both runs (" << rt.a.epOptions.size() << " set)\n";
    }
    io.out << "\nPer layer (ms)\n";
    using A = TextTable::Align;
    TextTable table({{"node"}, {"A", A::Right}, {"B", A::Right}, {"B - A", A::Right}, {"B / A", A::Right}, {""}}, "  ");
    for (const LayerDelta& d : c->layers)
        table.addRow(
            {q(d.node), d.nsA ? ms(*d.nsA) : QString("-"), d.nsB ? ms(*d.nsB) : QString("-"),
             d.nsA && d.nsB ? ms(d.deltaNs) : QString(), d.ratio > 0 ? QString::number(d.ratio, 'f', 2) : QString(),
             !d.libA.empty() && !d.libB.empty() && d.libA != d.libB ? q(d.libA) + " -> " + q(d.libB) : QString()});
    table.print(io.out);
    return 0;
}

// runs compare --sweep ID: the sweep's table again from the store, and its chart.
int compareSweep(RunStore& store, const QCommandLineParser& p, Io& io) {
    auto sweep = jobs::loadSweep(store, p.value("sweep"));
    if (!sweep) return fail(io, sweep.error());
    if (p.isSet("json"))
        io.out << QJsonDocument(sweepJson(*sweep)).toJson(QJsonDocument::Indented);
    else
        printSweepTable(*sweep, io);
    if (p.isSet("chart"))
        if (Status s = writeSweepChartFile(*sweep, p.value("chart"), io); !s) return fail(io, s.error());
    return 0;
}

Expected<int64_t> runId(const QString& s) {
    bool ok = false;
    const qint64 id = s.toLongLong(&ok);
    if (!ok || id <= 0)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("'%1' is not a run id: see 'embark-cli runs list'").arg(s).toStdString());
    return int64_t(id);
}

int report(RunStore& store, int64_t id, const QCommandLineParser& p, Io& io) {
    const QString out = p.value("output");
    if (out.isEmpty()) return usage(io, "runs report needs -o FILE.html: the report to write");
    if (!out.endsWith(".html", Qt::CaseInsensitive) && !out.endsWith(".htm", Qt::CaseInsensitive))
        return usage(io, QStringLiteral("runs report writes HTML: name the file FILE.html, not '%1' "
                                        "(the studio's Export report also writes PDF)")
                             .arg(out));
    auto run = store.getRun(id);
    if (!run) return fail(io, run.error());
    std::optional<RunRecord> against;
    if (p.isSet("against")) {
        auto otherId = runId(p.value("against"));
        if (!otherId) return fail(io, otherId.error());
        auto other = store.getRun(*otherId);
        if (!other) return fail(io, other.error());
        against = std::move(*other);
    }
    ReportOptions options;
    for (const targets::KernelLibrary& lib : exporter::kernelLibraries())
        options.libraryColours[lib.id] = QString::fromStdString(lib.reportColour);
    if (p.isSet("top")) {
        auto top = intOption(p, "top", 1, 1000000);
        if (!top) return fail(io, top.error());
        options.topLayers = static_cast<int>(*top);
    }
    const Status written = writeReport(out, runReportHtml(*run, against ? &*against : nullptr, options));
    if (!written) return fail(io, written.error());
    io.out << "wrote " << out << " (run " << id;
    if (against) io.out << " against run " << against->id;
    io.out << ")\n";
    return 0;
}

} // namespace

int cmdRuns(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("The run history: list, show, compare or delete stored runs.");
    parser.addPositionalArgument("ACTION", "list | show ID | compare A B | report ID | delete ID");
    parser.addOption(
        {"db", "The run store (default: $EMBARK_DATA_DIR/runs.sqlite or the user's data folder).", "FILE"});
    parser.addOption({"model", "list: runs of models whose path contains TEXT (or whose sha256 is TEXT).", "TEXT"});
    parser.addOption({"board", "list: runs on this board.", "ID"});
    parser.addOption({"lib", "list: runs with this kernel library.", "LIB"});
    parser.addOption({"from", "list: runs on or after this date (YYYY-MM-DD or ISO 8601).", "DATE"});
    parser.addOption({"to", "list: runs on or before this date.", "DATE"});
    parser.addOption({"limit", "list: at most N runs, newest first.", "N"});
    parser.addOption({"against", "report: compare with this run (the baseline).", "ID"});
    parser.addOption({{"o", "output"}, "report: the HTML file to write.", "FILE"});
    parser.addOption({"top", "report: rows of the per-layer tables (default 25).", "N"});
    parser.addOption(
        {"sweep", "compare: every run of this sweep as one table, the best library per board marked.", "ID"});
    parser.addOption({"chart", "compare --sweep: also draw it as FILE.png, FILE.svg or FILE.pdf.", "FILE"});
    parser.addOption({"json", "Print JSON."});
    parser.addOption({"csv", "Print CSV."});
    const QString synopsis = "runs list|show ID|compare A B|compare --sweep ID [--chart FILE]|report ID [--against "
                             "ID] -o FILE.html|delete ID [--csv|--json] [--db FILE]";
    if (int rc = parseOrExit(parser, args, io, synopsis, 1, 3); rc >= 0) return rc;
    if (parser.isSet("json") && parser.isSet("csv")) return usage(io, "--json and --csv exclude each other");

    const QStringList pos = parser.positionalArguments();
    const QString action = pos.first();
    const bool sweep = action == "compare" && parser.isSet("sweep");
    const int wanted = action == "list" || sweep                                        ? 1
                       : action == "compare"                                            ? 3
                       : (action == "show" || action == "delete" || action == "report") ? 2
                                                                                        : -1;
    if (wanted < 0)
        return usage(io,
                     QStringLiteral("unknown runs action '%1': use list, show, compare, report or delete").arg(action));
    if (action != "report")
        for (const char* option : {"against", "output", "top"})
            if (parser.isSet(option))
                return usage(io, QStringLiteral("--%1 is an option of 'runs report'").arg(option));
    if (action != "compare" && (parser.isSet("sweep") || parser.isSet("chart")))
        return usage(io, "--sweep and --chart are options of 'runs compare'");
    if (parser.isSet("chart") && !sweep) return usage(io, "--chart draws a sweep: give --sweep ID");
    if (sweep && parser.isSet("csv")) return usage(io, "runs compare --sweep prints a table or --json, not --csv");
    if (parser.isSet("chart")) {
        const QString suffix = QFileInfo(parser.value("chart")).suffix().toLower();
        if (suffix != "png" && suffix != "svg" && suffix != "pdf")
            return usage(io, "--chart '" + parser.value("chart") + "': name the file .png, .svg or .pdf");
    }
    if (pos.size() != wanted) return usage(io, "usage: embark-cli " + synopsis);
    std::vector<int64_t> ids;
    for (int i = 1; i < pos.size(); ++i) {
        auto id = runId(pos[i]);
        if (!id) return fail(io, id.error());
        ids.push_back(*id);
    }

    if (action == "report" && parser.value("output").isEmpty())
        return usage(io, "runs report needs -o FILE.html: the report to write");
    // Reading a store never creates one: a --db that does not exist is an input error, and
    // without --db an absent default store has no runs yet.
    if (action == "list")
        if (auto filter = filterFrom(parser); !filter) return fail(io, filter.error());
    const QString dbPath = parser.isSet("db") ? parser.value("db") : RunStore::defaultPath();
    if (!QFileInfo::exists(dbPath)) {
        if (parser.isSet("db"))
            return fail(
                io, makeError(ErrorKind::InvalidInput, "--db '" + dbPath.toStdString() +
                                                           "' does not exist: bench --db FILE creates a run store"));
        if (action == "list") {
            if (parser.isSet("json"))
                io.out << "[]\n";
            else if (parser.isSet("csv"))
                io.out << "run_id,date,model,board,lib,threads,status,median_ns,ci95_low_ns,ci95_high_ns\n";
            else
                io.out << "0 run(s): no run store yet at " << dbPath << " (bench creates it)\n";
            return 0;
        }
        if (sweep)
            return usage(io, QStringLiteral("no sweep %1: there is no run store yet at %2 (sweep creates it)")
                                 .arg(parser.value("sweep"), dbPath));
        return usage(
            io,
            QStringLiteral("no run %1: there is no run store yet at %2 (bench creates it)").arg(ids[0]).arg(dbPath));
    }
    auto store = RunStore::open(dbPath);
    if (!store) return fail(io, store.error());
    if (action == "list") return list(**store, parser, io);
    if (action == "show") return show(**store, ids[0], parser, io);
    if (sweep) return compareSweep(**store, parser, io);
    if (action == "compare") return compare(**store, ids[0], ids[1], parser, io);
    if (action == "report") return report(**store, ids[0], parser, io);
    const Status deleted = (*store)->deleteRun(ids[0]);
    if (!deleted) return fail(io, deleted.error());
    io.out << "deleted run " << ids[0] << "\n";
    return 0;
}

} // namespace embark::cli

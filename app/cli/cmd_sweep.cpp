// `embark-cli sweep MODEL... --boards PATTERN --lib portable,xnnpack[,auto] [--quantized]`: the
// model x board x library (x precision) matrix as one job (core/jobs/sweep.h). Farm boards take
// cells in parallel up to their free devices, other boards run here one cell at a time; every
// cell is a stored run carrying the sweep id, and each (model, target) is built once. Prints one
// table (or --json) with latency and accuracy per cell, the fastest library of each model on
// each board marked, and draws it with --chart.
#include "commands.h"
#include "interrupt.h"
#include "model_args.h"
#include "sweep_report.h"

#include "jobs/sweep.h"

#include <QFileInfo>
#include <QJsonDocument>

namespace embark::cli {

int cmdSweep(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Benchmark every model on every matching board with every library.");
    parser.addPositionalArgument("MODEL", "ONNX models.", "MODEL...");
    parser.addOption({"boards", "Board ids or wildcards, comma-separated (e.g. 'sim-*,k1-farm').", "PATTERN"});
    parser.addOption(
        {"lib", "Kernel libraries, comma-separated: portable, xnnpack, auto (default portable).", "LIBS", "portable"});
    parser.addOption({"quantized", "Int8 cells too: each model quantized with its test data (test_data_set_N) "
                                   "as calibration."});
    parser.addOption({"iterations", "Timed iterations per cell (default 10).", "N", "10"});
    parser.addOption({"warmup", "Untimed iterations first (default 2).", "W", "2"});
    parser.addOption({"threads", "Threads on the board (default 1).", "T", "1"});
    parser.addOption({"work-dir", "Where exports and downloads go.", "DIR"});
    parser.addOption({{"db", "store"}, "The run store (default: the user's; '-' stores nothing).", "FILE"});
    parser.addOption({"json", "Print the result as one JSON object."});
    parser.addOption({"chart", "Also draw the result as a chart: FILE.png, FILE.svg or FILE.pdf.", "FILE"});
    parser.addOption({"verbose", "Stream every cell's log to stderr."});
    const QString synopsis =
        "sweep MODEL... --boards PATTERN [--lib portable,xnnpack,auto] [--quantized] [--iterations N] "
        "[--warmup W] [--threads T] [--work-dir DIR] [--db FILE] [--json] [--chart FILE] "
        "[--verbose]";
    if (int rc = parseOrExit(parser, args, io, synopsis, 1, 1000); rc >= 0) return rc;
    if (!parser.isSet("boards")) return usage(io, "sweep needs --boards PATTERN (board ids or wildcards)");
    if (parser.isSet("chart")) {
        const QString suffix = QFileInfo(parser.value("chart")).suffix().toLower();
        if (suffix != "png" && suffix != "svg" && suffix != "pdf")
            return usage(io, "--chart '" + parser.value("chart") + "': name the file .png, .svg or .pdf");
    }
    jobs::SweepOptions o;
    o.models = parser.positionalArguments();
    o.boardPatterns = parser.value("boards").split(',', Qt::SkipEmptyParts);
    o.libraries.clear();
    for (const QString& l : parser.value("lib").split(',', Qt::SkipEmptyParts))
        o.libraries.push_back(l.trimmed().toStdString());
    auto iterations = intOption(parser, "iterations", 1, 1000000);
    auto warmup = intOption(parser, "warmup", 0, 1000000);
    auto threads = intOption(parser, "threads", 1, 1024);
    if (!iterations) return fail(io, iterations.error());
    if (!warmup) return fail(io, warmup.error());
    if (!threads) return fail(io, threads.error());
    o.base.iterations = static_cast<int>(*iterations);
    o.base.warmup = static_cast<int>(*warmup);
    o.base.threads = static_cast<int>(*threads);
    o.base.workDir = parser.value("work-dir");
    o.base.storePath = parser.value("db");
    o.quantized = parser.isSet("quantized");
    if (parser.isSet("verbose"))
        o.base.log = [&](const QString& line) {
            io.err << line << "\n";
            io.err.flush();
        };
    o.cellChanged = [&](const jobs::SweepCell& c, int index, int count) {
        io.err << "[" << index + 1 << "/" << count << "] " << QFileInfo(c.model).completeBaseName() << " " << c.boardId
               << " " << QString::fromStdString(c.library) << (c.quantized ? " int8" : "") << ": "
               << jobs::sweepCellStateName(c.state);
        if (c.state == jobs::SweepCell::State::Ok) io.err << " " << QString::number(c.medianNs / 1e6, 'f', 3) << " ms";
        if (!c.device.isEmpty()) io.err << " on " << c.device;
        if (!c.message.empty() && c.state != jobs::SweepCell::State::Ok)
            io.err << " (" << QString::fromStdString(c.message) << ")";
        io.err << "\n";
        io.err.flush();
    };
    InterruptGuard interrupts; // Ctrl+C cancels the whole sweep
    o.base.cancel = interrupts.flag();
    auto r = jobs::runSweep(o);
    if (!r) return fail(io, r.error());

    if (parser.isSet("json"))
        io.out << QJsonDocument(sweepJson(*r)).toJson(QJsonDocument::Indented);
    else
        printSweepTable(*r, io);
    if (parser.isSet("chart"))
        if (Status s = writeSweepChartFile(*r, parser.value("chart"), io); !s) return fail(io, s.error());
    if (interrupts.flag()->load()) return fail(io, makeError(ErrorKind::External, "sweep cancelled"));
    return r->failed() ? static_cast<int>(ErrorKind::External) : 0;
}

} // namespace embark::cli

// `embark-cli bench MODEL [target options] ...`: the whole pipeline as one job (export,
// cross-build, deploy, run, compare, store) with latency statistics, per-layer timings and
// accuracy, and exports of the run (Chrome trace, CSV, JSON, ONNX test data).
#include "commands.h"
#include "interrupt.h"
#include "layer_report.h"
#include "model_args.h"
#include "run_json.h"
#include "target_options.h"
#include "text_table.h"

#include "results/metrics.h"
#include "results/run_exports.h"
#include "export/export_folder.h"
#include "deploy/transport_factory.h"
#include "jobs/bench_pipeline.h"
#include "targets/onnxruntime.h"
#include "onnx/tensor_io.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSaveFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QJsonDocument>

#include <algorithm>
#include <optional>
#include <cstdio>
#include <tuple>

namespace embark::cli {
namespace {

// Atomic (QSaveFile): an interrupted bench never leaves half a JSON, CSV or trace file.
Status writeFile(const QString& path, const QByteArray& data) {
    QSaveFile f(path);
    // flush() before commit(): Qt 6.4's commit() ignores an error of the last buffered write.
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.flush() || !f.commit())
        return makeError(ErrorKind::External,
                         "cannot write '" + path.toStdString() + "': " + f.errorString().toStdString());
    return {};
}

// The ONNX Runtime figures of a run (issue 17): version and provider, the latency percentiles,
// onnx_test_runner's verdict, the EP options and subgraphs.
void printOrt(const store::RunRecord& rec, QTextStream& out) {
    const QJsonObject& x = rec.extra;
    const QJsonObject l = x.value("ort_latency").toObject();
    out << "  runtime  " << QString::fromStdString(rec.fingerprint.compiler) << ", ep " << x.value("ep").toString()
        << "\n";
    if (!l.isEmpty()) {
        auto ms = [&](const char* k) { return msText(l.value(k).toDouble()); };
        out << "  onnxruntime  average " << ms("average_ns") << " ms  (min " << ms("min_ns") << ", max " << ms("max_ns")
            << ", p50 " << ms("p50_ns") << ", p90 " << ms("p90_ns") << ", p95 " << ms("p95_ns") << ", p99 "
            << ms("p99_ns") << " ms)";
        if (l.contains("peak_working_set_bytes"))
            out << "  peak working set "
                << QString::number(l.value("peak_working_set_bytes").toDouble() / 1048576.0, 'f', 1) << " MiB";
        out << "\n";
    }
    if (x.contains("test_runner")) {
        const QJsonObject t = x.value("test_runner").toObject();
        if (t.value("passed").isBool())
            out << "  onnx_test_runner  " << (t.value("passed").toBool() ? "passed" : "FAILED") << " ("
                << t.value("succeeded").toInt() << " of " << t.value("total").toInt() << " succeeded)\n";
        else
            out << "  onnx_test_runner  no verdict: " << t.value("message").toString() << "\n";
    }
    const QJsonObject ep = x.value("ep_options").toObject();
    if (!ep.isEmpty()) {
        QStringList kv;
        for (auto it = ep.begin(); it != ep.end(); ++it) kv << it.key() + "=" + it.value().toString();
        out << "  EP options  " << kv.join(' ') << "\n";
    }
    if (x.value("subgraph_count").toInt() > 0) out << "  EP subgraphs  " << x.value("subgraph_count").toInt() << "\n";
    int mapped = 0;
    const QJsonArray layers = x.value("ort_layers").toArray();
    for (const QJsonValue& v : layers) mapped += v.toObject().value("nodes").toArray().isEmpty() ? 0 : 1;
    if (!layers.isEmpty())
        out << "  profile  " << layers.size() << " ONNX Runtime nodes, " << mapped
            << " mapped onto the graph's nodes\n";
}

// Copies the ONNX Runtime run's bundle (model/test_data_set_0 of its work folder).
Status copyBundle(const QString& from, const QString& to) {
    if (!QDir().mkpath(to)) return makeError(ErrorKind::External, "cannot create '" + to.toStdString() + "'");
    for (const QString& f : QDir(from).entryList({"*.pb"}, QDir::Files)) {
        QFile in(from + "/" + f);
        if (!in.open(QIODevice::ReadOnly))
            return makeError(ErrorKind::External, "cannot read '" + in.fileName().toStdString() + "'");
        EMBARK_TRY(writeFile(to + "/" + f, in.readAll()));
    }
    return {};
}

// The board's outputs (downloaded into the export's results/ folder) against the model's own
// expected outputs of a test_data_set_N folder, as `run --expect` compares the host
// reference's: by TensorProto name, else by index; integer outputs exactly.
struct ExpectedCheck {
    QJsonObject json;
    QString text;
    bool ok = true;
};

Expected<ExpectedCheck> checkExpected(const QString& exportDir, const QString& setDir,
                                      const std::vector<onnx::NamedTensor>& expected, double tolerance) {
    auto folder = exporter::ExportFolder::open(exportDir);
    if (!folder) return folder.error();
    ExpectedCheck c;
    QJsonArray outputs;
    c.text = "  vs expected outputs of " + setDir + ":\n";
    for (size_t k = 0; k < folder->outputs.size(); ++k) {
        const exporter::ExportIo& io = folder->outputs[k];
        const ir::Tensor* ref = nullptr;
        for (const auto& e : expected)
            if (e.name == io.name) ref = &e.tensor;
        if (!ref && k < expected.size()) ref = &expected[k].tensor;
        if (!ref) continue;
        const QString file = folder->dir + QStringLiteral("/results/output_%1.bin").arg(k);
        // The board's file is in the output's own element type; compared as float32.
        const ir::DType dtype = io.dtype == ir::DType::Undefined ? ir::DType::Float32 : io.dtype;
        auto got = onnx::readRaw(file.toStdString(), dtype, ir::Shape(io.shape));
        if (!got) return got.error();
        const bench::Accuracy a =
            bench::compare(got->castTo(ir::DType::Float32), ref->castTo(ir::DType::Float32), io.name);
        const bool exact = !ir::isFloating(ref->dtype());
        const bool ok = exact ? a.shapeMatches && a.maxAbs == 0 : bench::withinTolerance(a, tolerance);
        c.ok = c.ok && ok;
        outputs.append(QJsonObject{{"name", QString::fromStdString(io.name)},
                                   {"max_abs", a.maxAbs},
                                   {"max_rel", a.maxRel},
                                   {"rmse", a.rmse},
                                   {"cosine", a.cosine},
                                   {"snr_db", a.snrDb},
                                   {"shape_matches", a.shapeMatches},
                                   {"exact", exact},
                                   {"ok", ok}});
        c.text += QStringLiteral("    output '%1': max_abs %2  max_rel %3  cosine %4  snr %5 dB  %6\n")
                      .arg(QString::fromStdString(io.name))
                      .arg(a.maxAbs, 0, 'g', 3)
                      .arg(a.maxRel, 0, 'g', 3)
                      .arg(a.cosine, 0, 'f', 7)
                      .arg(a.snrDb, 0, 'f', 1)
                      .arg(ok ? QStringLiteral("ok") : QStringLiteral("OUTSIDE TOLERANCE %1").arg(tolerance));
    }
    if (outputs.isEmpty())
        return makeError(ErrorKind::InvalidInput,
                         "'" + setDir.toStdString() + "' has no output_K.pb for the model's outputs");
    c.json = QJsonObject{{"dir", setDir}, {"tolerance", tolerance}, {"ok", c.ok}, {"outputs", outputs}};
    return c;
}

} // namespace

int cmdBench(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Benchmark a model on a board: export, build, deploy, run, compare, store.");
    parser.addPositionalArgument("MODEL", "The .onnx file.");
    addTargetOptions(parser);
    parser.addOption({"runtime", "export (Embark's export, default) or onnxruntime (the board's ONNX Runtime).",
                      "RUNTIME", "export"});
    parser.addOption(
        {"ep-option", "A SpacemiT EP option for --runtime onnxruntime, KEY=VALUE (repeatable).", "KEY=VALUE"});
    parser.addOption({"iterations", "Timed iterations (default 10).", "N", "10"});
    parser.addOption({"warmup", "Untimed iterations first (default 2).", "W", "2"});
    parser.addOption({"threads", "Threads on the board (default 1).", "T", "1"});
    parser.addOption({"affinity", "Pin to these CPUs with taskset, e.g. 0,1.", "CPU,CPU"});
    parser.addOption({"layers", "Per-layer timings."});
    parser.addOption({"accuracy-layers", "Per-layer accuracy against the host reference (dumps every layer)."});
    parser.addOption({"float-reference",
                      "Also compare every layer dump with this float model, the one the quantized "
                      "MODEL was made from (implies --accuracy-layers).",
                      "FLOAT.onnx"});
    parser.addOption({"snr-drop",
                      "With --float-reference: flag the first layer whose SNR falls this many dB below "
                      "its inputs' (default 10).",
                      "DB", "10"});
    parser.addOption({"input", "Input tensor, NAME=FILE (default: a fixed random sample).", "NAME=FILE"});
    parser.addOption({"work-dir", "Where exports and downloads go.", "DIR"});
    parser.addOption({{"db", "store"},
                      "Run history database, as for 'runs' (default: the user's data folder; '-' = none).",
                      "FILE"});
    parser.addOption(
        {"accept-new-host-key", "Trust an SSH board's unknown host key (changed keys are always refused)."});
    parser.addOption({"trace", "Write a Chrome trace (Perfetto opens it).", "FILE"});
    parser.addOption({"csv", "Write per-layer timings as CSV.", "FILE"});
    parser.addOption({"save-json", "Write the run as JSON.", "FILE"});
    parser.addOption({"test-data", "Write an ONNX test-data bundle (test_data_set_0) for onnx_test_runner.", "DIR"});
    parser.addOption({"expect",
                      "Also compare the board's outputs with a test_data_set_N folder's expected outputs "
                      "(its inputs are the sample unless --input is given).",
                      "DIR"});
    parser.addOption(
        {"tolerance", "With --expect: allowed max |diff| relative to max |expected| (default 1e-4).", "T", "1e-4"});
    parser.addOption({"json", "Print the result as one JSON object."});
    parser.addOption({"verbose", "Stream the build and run log to stderr."});
    addShapeOption(parser);
    const QString synopsis =
        QStringLiteral("bench MODEL %1 [--runtime export|onnxruntime] [--ep-option KEY=VALUE]... [--iterations N] "
                       "[--warmup W] [--threads T] [--affinity CPU,CPU...] [--layers] [--accuracy-layers] "
                       "[--float-reference FLOAT.onnx] [--snr-drop DB] [--input NAME=FILE]... [--work-dir DIR] "
                       "[--db FILE|-] [--accept-new-host-key] [--trace FILE] [--csv FILE] [--save-json FILE] "
                       "[--test-data DIR] [--expect DIR] [--tolerance TOL] [--verbose] [--shape NAME=DIMS]... [--json]")
            .arg(QLatin1String(kTargetSynopsis));
    if (int rc = parseOrExit(parser, args, io, synopsis, 1, 1); rc >= 0) return rc;

    jobs::BenchOptions o;
    o.modelPath = parser.positionalArguments().first();
    // The board is resolved (and checked) before anything is imported or built.
    auto request = targetRequest(parser);
    if (!request) return fail(io, request.error());
    auto target = jobs::resolveTarget(*request);
    if (!target) return fail(io, target.error());
    setTarget(*request, *target, o);
    o.runtime = parser.value("runtime");
    if (!targets::knownRuntimes().contains(o.runtime))
        return usage(io, QStringLiteral("--runtime '%1': use export or onnxruntime").arg(o.runtime));
    o.epOptions = parser.values("ep-option");
    if (!o.epOptions.isEmpty() && o.runtime != "onnxruntime")
        return usage(io, "--ep-option applies to --runtime onnxruntime only");
    if (o.runtime == "onnxruntime" && parser.isSet("lib"))
        return usage(io, "--lib chooses an export's kernel library: leave it out with --runtime onnxruntime");
    for (const auto& [name, target, min] : {std::tuple{"iterations", &o.iterations, 1},
                                            std::tuple{"warmup", &o.warmup, 0}, std::tuple{"threads", &o.threads, 1}}) {
        auto v = intOption(parser, name, min, 1000000);
        if (!v) return fail(io, v.error());
        *target = static_cast<int>(*v);
    }
    o.affinity = parser.value("affinity");
    if (!o.affinity.isEmpty() && !QRegularExpression("^[0-9]+([,-][0-9]+)*$").match(o.affinity).hasMatch())
        return usage(io, "--affinity takes CPU numbers like 0,1 or 0-3");
    o.layers = parser.isSet("layers");
    o.accuracyLayers = parser.isSet("accuracy-layers");
    if (o.accuracyLayers && o.runtime == "onnxruntime")
        if (auto board = targets::findBoard(o.boardId); board && board->onnxruntime && board->onnxruntime->isNode())
            return usage(io, QStringLiteral(
                                 "--accuracy-layers with --runtime onnxruntime needs the tensor dumps of SpacemiT-ORT "
                                 "(SPACEMIT_EP_DUMP_TENSORS), which npm's onnxruntime-node on board '%1' cannot "
                                 "write: leave --accuracy-layers out, or compare per layer with an export "
                                 "(bench --runtime export --accuracy-layers)")
                                 .arg(o.boardId));
    if (parser.isSet("snr-drop") && !parser.isSet("float-reference"))
        return usage(io, "--snr-drop applies to --float-reference only");
    if (parser.isSet("float-reference")) {
        if (o.runtime == "onnxruntime")
            return usage(io, "--float-reference compares an export's layer dumps: leave out --runtime onnxruntime");
        auto snrDrop = doubleOption(parser, "snr-drop", 0, 1000);
        if (!snrDrop) return fail(io, snrDrop.error());
        o.snrDropDb = *snrDrop;
        o.floatReferencePath = parser.value("float-reference");
        auto fp = loadModel(o.floatReferencePath, parser);
        if (!fp) return fail(io, fp.error());
        o.floatReference = std::make_shared<const ir::Graph>(std::move(*fp));
        o.accuracyLayers = true;
    }
    o.workDir = parser.value("work-dir");
    o.storePath = parser.value("db");
    auto shapes = shapeOverrides(parser);
    if (!shapes) return fail(io, shapes.error());
    // Free input dimensions: from the test data beside the model, else a usage error with the
    // --shape to pass, before anything runs (as every command that takes a model).
    if (Status s = fixFreeDimensions(o.modelPath.toStdString(), *shapes, parser.values("input")); !s)
        return fail(io, s.error());
    o.shapeOverrides = *shapes;
    if (parser.isSet("tolerance") && !parser.isSet("expect")) return usage(io, "--tolerance applies to --expect only");
    auto tolerance = doubleOption(parser, "tolerance", 0, 1e30);
    if (!tolerance) return fail(io, tolerance.error());
    std::optional<onnx::TestDataSet> expectSet;
    if (parser.isSet("expect")) {
        if (o.runtime == "onnxruntime")
            return usage(io, "--expect compares an export's outputs: with --runtime onnxruntime use onnx_test_runner's "
                             "verdict (docs/onnxruntime.md) or 'embark-cli run --expect' on the host");
        const QString dir = parser.value("expect");
        if (!QFileInfo(dir).isDir())
            return fail(io, makeError(ErrorKind::InvalidInput,
                                      "--expect '" + dir.toStdString() +
                                          "' is not a test_data_set_N folder (input_K.pb, output_K.pb)"));
        auto set = onnx::readTestDataSet(dir.toStdString());
        if (!set) return fail(io, set.error());
        expectSet = std::move(*set);
    }
    if (parser.isSet("input") || expectSet) {
        auto graph = loadModel(o.modelPath, parser, &io, parser.values("input"));
        if (!graph) return fail(io, graph.error());
        if (parser.isSet("input")) {
            auto in = readInputs(*graph, parser.values("input"));
            if (!in) return fail(io, in.error());
            o.inputs = *in;
        } else {
            o.inputs = testSetInputs(*graph, expectSet->inputs);
            if (o.inputs.size() < graph->inputs().size())
                return fail(io, makeError(ErrorKind::InvalidInput,
                                          "--expect '" + parser.value("expect").toStdString() +
                                              "' has no input_K.pb for every model input: give them with --input"));
        }
    }
    if (parser.isSet("accept-new-host-key"))
        o.ssh.confirmHostKey = [&io](const deploy::HostKeyInfo&) {
            io.err << "embark-cli: trusting the new host key (--accept-new-host-key)\n";
            return true;
        };
    const bool verbose = parser.isSet("verbose");
    o.log = [&](const QString& line) {
        if (verbose) {
            io.err << line << "\n";
            io.err.flush();
        }
    };
    o.stepStarted = [&](const QString& step, int index, int count) {
        if (!verbose && !parser.isSet("json")) {
            io.err << QStringLiteral("[%1/%2] %3\n").arg(index + 1).arg(count).arg(step);
            io.err.flush();
        }
    };

    InterruptGuard interrupts; // Ctrl+C cancels the running step
    o.cancel = interrupts.flag();
    // An SSH board is reached before anything is exported or built: an unreachable board
    // fails in seconds, not after the build (the run is then not stored).
    if (auto board = targets::findBoard(o.boardId); board && board->runner.kind == targets::BoardRunner::Kind::Ssh) {
        auto transport = deploy::makeTransport(*board, o.ssh);
        if (Status s = transport->connect(); !s) return fail(io, s.error());
    }
    auto r = jobs::runBenchmark(o);
    if (!r) return fail(io, r.error());
    QJsonObject json = runJson(r->record);
    std::optional<ExpectedCheck> expectCheck;
    if (expectSet && r->record.status == store::RunStatus::Ok) {
        auto c = checkExpected(r->exportDir, parser.value("expect"), expectSet->outputs, *tolerance);
        if (!c) return fail(io, c.error());
        expectCheck = std::move(*c);
        json["expected"] = expectCheck->json; // not stored: the run's own figures are against the reference
    }
    if (parser.isSet("trace"))
        if (Status s = writeFile(parser.value("trace"),
                                 bench::chromeTrace(r->medianLayers, static_cast<int64_t>(r->record.latency.medianNs),
                                                    r->record.fingerprint.boardId,
                                                    QFileInfo(o.modelPath).completeBaseName().toStdString()));
            !s)
            return fail(io, s.error());
    if (parser.isSet("csv"))
        if (Status s = writeFile(parser.value("csv"), bench::layersCsv(r->medianLayers)); !s)
            return fail(io, s.error());
    if (parser.isSet("save-json"))
        if (Status s = writeFile(parser.value("save-json"), QJsonDocument(json).toJson()); !s)
            return fail(io, s.error());
    if (parser.isSet("test-data") && o.runtime == "onnxruntime") {
        // The bundle the ONNX Runtime run used: the export's sample and the reference's outputs.
        if (Status s =
                copyBundle(r->exportDir + "/model/test_data_set_0", parser.value("test-data") + "/test_data_set_0");
            !s)
            return fail(io, s.error());
    } else if (parser.isSet("test-data")) {
        // The sample the export embeds and the host reference's outputs for it, as export.json
        // lists them.
        auto folder = exporter::ExportFolder::open(r->exportDir);
        if (!folder) return fail(io, folder.error());
        std::vector<onnx::NamedTensor> ins, outs;
        auto read = [&](const std::vector<exporter::ExportIo>& ios, std::vector<onnx::NamedTensor>& into) -> Status {
            for (const exporter::ExportIo& e : ios) {
                auto t = onnx::readRaw((folder->dir + "/" + e.dataFile).toStdString(), e.dtype, ir::Shape(e.shape));
                if (!t) return t.error();
                into.push_back({e.name, *t});
            }
            return {};
        };
        if (Status s = read(folder->inputs, ins); !s) return fail(io, s.error());
        if (Status s = read(folder->outputs, outs); !s) return fail(io, s.error());
        if (Status s =
                onnx::writeTestDataSet((parser.value("test-data") + "/test_data_set_0").toStdString(), ins, outs);
            !s)
            return fail(io, s.error());
    }
    const store::RunRecord& rec = r->record;
    if (parser.isSet("json")) {
        io.out << QJsonDocument(json).toJson(QJsonDocument::Indented);
    } else {
        io.out << "Run " << rec.id << " on " << QString::fromStdString(rec.fingerprint.boardId) << " with "
               << QString::fromStdString(rec.fingerprint.kernelLibrary) << ": "
               << (rec.status == store::RunStatus::Ok ? QStringLiteral("ok")
                                                      : QString::fromLatin1(store::runStatusName(rec.status)).toUpper())
               << "\n";
        if (rec.status != store::RunStatus::Ok) io.out << "  " << QString::fromStdString(rec.message) << "\n";
        const auto& l = rec.latency;
        if (l.count)
            io.out << QStringLiteral("  latency  median %1 ms  (min %2, mean %3, p90 %4, stdev %5; 95% CI of median "
                                     "%6..%7 ms; n=%8)\n")
                          .arg(msText(l.medianNs))
                          .arg(msText(l.minNs))
                          .arg(msText(l.meanNs))
                          .arg(msText(l.p90Ns))
                          .arg(msText(l.stdevNs))
                          .arg(msText(l.ci95LowNs))
                          .arg(msText(l.ci95HighNs))
                          .arg(l.count);
        if (l.count && isEmulatedBoard(QString::fromStdString(rec.fingerprint.boardId)))
            io.out << "  (emulated: " << QString::fromStdString(rec.fingerprint.boardId)
                   << " runs under qemu-user on this computer, so these times are the emulation's, not the board's)\n";
        if (rec.extra.value("runtime").toString() == "onnxruntime") printOrt(rec, io.out);
        for (const auto& a : rec.outputAccuracy)
            io.out << QStringLiteral("  output '%1': max_abs %2  max_rel %3  cosine %4  snr %5 dB\n")
                          .arg(QString::fromStdString(a.name))
                          .arg(a.maxAbs, 0, 'g', 3)
                          .arg(a.maxRel, 0, 'g', 3)
                          .arg(a.cosine, 0, 'f', 7)
                          .arg(a.snrDb, 0, 'f', 1);
        if (!r->medianLayers.empty()) {
            io.out << "  slowest layers:\n";
            auto sorted = r->medianLayers;
            std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.ns > b.ns; });
            for (size_t i = 0; i < std::min<size_t>(5, sorted.size()); ++i)
                io.out << QStringLiteral("    %1  %2 ms  (%3)\n")
                              .arg(QString::fromStdString(sorted[i].node).leftJustified(40))
                              .arg(msText(sorted[i].ns))
                              .arg(QString::fromStdString(sorted[i].lib));
        }
        if (r->firstDivergentLayer >= 0)
            io.out << "  first divergent layer: "
                   << QString::fromStdString(r->layerAccuracy[static_cast<size_t>(r->firstDivergentLayer)].node)
                   << "\n";
        else if (!r->layerAccuracy.empty())
            io.out << "  per-layer accuracy: " << r->layerAccuracy.size() << " layers compared, no divergence\n";
        if (expectCheck) io.out << expectCheck->text;
        if (rec.extra.contains("float_reference")) {
            const QJsonObject fr = rec.extra["float_reference"].toObject();
            io.out << "Per-layer error on the board against the float model "
                   << QFileInfo(o.floatReferencePath).fileName() << "\n";
            printLayerDiff(io.out, bench::layerDiffFromJson(fr), 10, fr["snr_drop_db"].toDouble());
        }
    }
    if (rec.status != store::RunStatus::Ok) {
        io.err << "embark-cli: error: run " << rec.id << " on " << QString::fromStdString(rec.fingerprint.boardId)
               << " " << store::runStatusName(rec.status) << ": " << QString::fromStdString(rec.message) << "\n";
        return static_cast<int>(ErrorKind::External);
    }
    if (expectCheck && !expectCheck->ok) {
        io.err << "embark-cli: error: the board's outputs are outside the tolerance of " << parser.value("expect")
               << "\n";
        return static_cast<int>(ErrorKind::Mismatch);
    }
    return 0;
}

} // namespace embark::cli

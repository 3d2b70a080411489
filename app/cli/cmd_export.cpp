// `embark-cli export MODEL --lib L -o DIR ...`: writes a standalone C++ export folder.
#include "commands.h"
#include "run_json.h"
#include "model_args.h"

#include "export/exporter.h"
#include "targets/board.h"
#include "targets/toolchain.h"
#include "xnnpack/export_link.h"

#include <QJsonDocument>

namespace embark::cli {
namespace {

Expected<std::map<std::string, std::string>> pairs(const QStringList& values, const char* option) {
    std::map<std::string, std::string> out;
    for (const QString& v : values) {
        const qsizetype eq = v.indexOf('=');
        if (eq <= 0 || eq == v.size() - 1)
            return makeError(ErrorKind::Usage, std::string("--") + option + " '" + v.toStdString() + "' is not NAME=LIB");
        out[v.left(eq).toStdString()] = v.mid(eq + 1).toStdString();
    }
    return out;
}

} // namespace

int cmdExport(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Write a standalone C++ export of a model.");
    parser.addPositionalArgument("MODEL", "The .onnx file.");
    parser.addOption({"lib", "Kernel library: portable or xnnpack (default portable).", "LIB", "portable"});
    parser.addOption({"arch", "Target architecture: x86_64, aarch64, riscv64 (default: the board's).", "ARCH"});
    parser.addOption({"board", "Target board id (default host); sets arch, flags and toolchain.", "BOARD", "host"});
    parser.addOption({"threads-max", "Most threads run_export will use (default: no cap).", "N", "0"});
    parser.addOption({{"o", "output"}, "The export folder to write.", "DIR"});
    parser.addOption({"force", "Replace a non-empty output folder."});
    parser.addOption({"override", "Run an op type on a library, e.g. Conv=portable (repeatable).", "OP=LIB"});
    parser.addOption({"override-node", "Run one node on a library (repeatable).", "NAME=LIB"});
    parser.addOption({"recipe", "Pass recipe: default, cleanup or none.", "NAME", "default"});
    parser.addOption({"input", "Sample input embedded in the export, NAME=FILE (default: random).", "NAME=FILE"});
    parser.addOption({"compiler", "Cross compiler preference: clang or gcc.", "CC"});
    parser.addOption({"concat-in-place", "Concatenation in place: auto (strided slices in buffers up to 1 MiB), all or off (default auto).", "MODE", "auto"});
    parser.addOption({"json", "Print the result as one JSON object."});
    addShapeOption(parser);
    const QString synopsis = "export MODEL --lib portable|xnnpack [--arch ARCH] [--board BOARD] [--threads-max N] -o DIR [--force]";
    if (int rc = parseOrExit(parser, args, io, synopsis, 1, 1); rc >= 0) return rc;
    if (!parser.isSet("output")) return usage(io, "export needs an output folder: -o DIR");

    exporter::ExportOptions o;
    o.library = parser.value("lib").toStdString();
    o.outDir = parser.value("output");
    o.force = parser.isSet("force");
    o.recipe = parser.value("recipe").toStdString();
    bool ok = false;
    o.threadsMax = parser.value("threads-max").toInt(&ok);
    if (!ok || o.threadsMax < 0) return usage(io, "--threads-max must be a number >= 0");
    if (!exporter::parseConcatInPlace(parser.value("concat-in-place").toStdString(), &o.concatInPlace))
        return usage(io, "--concat-in-place must be auto, all or off");
    auto ops = pairs(parser.values("override"), "override");
    if (!ops) return fail(io, ops.error());
    auto nodes = pairs(parser.values("override-node"), "override-node");
    if (!nodes) return fail(io, nodes.error());
    o.opOverrides = *ops;
    o.nodeOverrides = *nodes;

    auto board = targets::findBoard(parser.value("board"));
    if (!board) return fail(io, board.error());
    o.board = board->id.toStdString();
    o.arch = parser.isSet("arch") ? parser.value("arch").toStdString() : board->arch.toStdString();
    if (o.arch != board->arch.toStdString())
        return usage(io, QStringLiteral("--arch %1 does not match board '%2' (%3)").arg(parser.value("arch"), board->id, board->arch));
    o.targetFlags = board->cflags.join(' ').toStdString();
    const auto xnn = xnnpack::resolveXnnpack(board->arch, xnnpack::isaHasRvv(board->isa));
    o.havePrebuiltXnnpack = xnn.found();
    o.xnnpack = xnnpack::exportLink(xnn);
    targets::CompilerPreference pref = targets::CompilerPreference::Default;
    if (parser.value("compiler") == "gcc") pref = targets::CompilerPreference::Gcc;
    else if (parser.value("compiler") == "clang") pref = targets::CompilerPreference::Clang;
    else if (parser.isSet("compiler")) return usage(io, "--compiler must be clang or gcc");
    auto toolchain = targets::toolchainFor(*board, pref);
    if (!toolchain) return fail(io, toolchain.error());
    o.toolchainFile = toolchain->file;

    auto graph = loadModel(parser.positionalArguments().first(), parser, &io);
    if (!graph) return fail(io, graph.error());
    if (parser.isSet("input")) {
        auto in = readInputs(*graph, parser.values("input"));
        if (!in) return fail(io, in.error());
        o.sampleInputs = *in;
    }
    auto result = exporter::exportModel(*graph, o);
    if (!result) return fail(io, result.error());
    if (Status fits = targets::boardFits(*board, static_cast<qint64>(result->arenaBytes), result->weightsBytes); !fits)
        io.err << "embark-cli: warning: " << QString::fromStdString(fits.error().message) << "\n";

    QJsonArray libs;
    for (const auto& l : result->libraries) libs.append(QString::fromStdString(l));
    if (parser.isSet("json")) {
        io.out << QJsonDocument(withSchema(QJsonObject{{"dir", result->dir}, {"layers", result->layers},
                                            {"arena_bytes", static_cast<qint64>(result->arenaBytes)},
                                            {"lower_bound_bytes", static_cast<qint64>(result->lowerBoundBytes)},
                                            {"weights_bytes", static_cast<qint64>(result->weightsBytes)},
                                            {"libraries", libs}, {"partitions", result->partitions},
                                            {"conversions", result->conversions},
                                            {"export_hash", QString::fromStdString(result->exportHash)}}))
                      .toJson(QJsonDocument::Indented);
    } else {
        io.out << "Exported " << result->layers << " layers to " << result->dir << "\n"
               << "  libraries   " << QString::fromStdString([&] {
                      std::string s;
                      for (const auto& l : result->libraries) s += (s.empty() ? "" : ", ") + l;
                      return s;
                  }()) << " (" << result->partitions << " partitions, " << result->conversions << " layout conversions)\n"
               << "  arena       " << formatBytes(static_cast<int64_t>(result->arenaBytes)) << " (lower bound "
               << formatBytes(static_cast<int64_t>(result->lowerBoundBytes)) << ")\n"
               << "  weights     " << formatBytes(result->weightsBytes) << "\n"
               << "Build it with: embark-cli build " << result->dir << "\n";
    }
    return 0;
}

} // namespace embark::cli

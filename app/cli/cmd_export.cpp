// `embark-cli export MODEL -o DIR [target options]`: writes a standalone C++ export folder with
// the export recipe of jobs/pipeline.h.
#include "commands.h"
#include "run_json.h"
#include "model_args.h"

#include "target_options.h"

#include "export/exporter.h"
#include "jobs/pipeline.h"
#include "targets/board.h"

#include <QJsonDocument>

namespace embark::cli {

int cmdExport(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Write a standalone C++ export of a model.");
    parser.addPositionalArgument("MODEL", "The .onnx file.");
    addTargetOptions(parser);
    parser.addOption({{"o", "output"}, "The export folder to write.", "DIR"});
    parser.addOption({"force", "Replace a non-empty output folder."});
    parser.addOption({"input", "Sample input embedded in the export, NAME=FILE (default: random).", "NAME=FILE"});
    parser.addOption({"json", "Print the result as one JSON object."});
    addShapeOption(parser);
    const QString synopsis = QStringLiteral("export MODEL -o DIR %1 [--force] [--input NAME=FILE]... "
                                            "[--shape NAME=DIMS]... [--json]")
                                 .arg(QLatin1String(kTargetSynopsis));
    if (int rc = parseOrExit(parser, args, io, synopsis, 1, 1); rc >= 0) return rc;
    if (!parser.isSet("output")) return usage(io, "export needs an output folder: -o DIR");

    auto request = targetRequest(parser);
    if (!request) return fail(io, request.error());
    auto target = jobs::resolveTarget(*request);
    if (!target) return fail(io, target.error());
    auto graph = loadModel(parser.positionalArguments().first(), parser, &io, parser.values("input"));
    if (!graph) return fail(io, graph.error());

    // The export recipe (resolve, import, plan, export), as the studio and bench run it.
    jobs::PipelineState state;
    state.options.modelPath = parser.positionalArguments().first();
    setTarget(*request, *target, state.options);
    if (parser.isSet("input")) {
        auto in = readInputs(*graph, parser.values("input"));
        if (!in) return fail(io, in.error());
        state.options.inputs = *in;
    }
    state.graph = std::make_shared<const ir::Graph>(std::move(*graph));
    state.exportDir = parser.value("output");
    state.replaceExport = parser.isSet("force");
    const jobs::RecipeRun run = jobs::runRecipe(jobs::exportRecipe(), state, {});
    if (run.firstError) return fail(io, *run.firstError);
    const exporter::ExportResult* result = &*state.exported;
    const targets::Board& board = target->board;
    if (Status fits = targets::boardFits(board, static_cast<qint64>(result->arenaBytes), result->weightsBytes); !fits)
        io.err << "embark-cli: warning: " << QString::fromStdString(fits.error().message) << "\n";

    QJsonArray libs;
    for (const auto& l : result->libraries) libs.append(QString::fromStdString(l));
    if (parser.isSet("json")) {
        io.out << QJsonDocument(
                      withSchema(QJsonObject{{"dir", result->dir},
                                             {"layers", result->layers},
                                             {"arena_bytes", static_cast<qint64>(result->arenaBytes)},
                                             {"lower_bound_bytes", static_cast<qint64>(result->lowerBoundBytes)},
                                             {"weights_bytes", static_cast<qint64>(result->weightsBytes)},
                                             {"libraries", libs},
                                             {"partitions", result->partitions},
                                             {"conversions", result->conversions},
                                             {"export_hash", QString::fromStdString(result->exportHash)}}))
                      .toJson(QJsonDocument::Indented);
    } else {
        io.out << "Exported " << result->layers << " layers to " << result->dir << "\n"
               << "  libraries   " << QString::fromStdString([&] {
                      std::string s;
                      for (const auto& l : result->libraries) s += (s.empty() ? "" : ", ") + l;
                      return s;
                  }())
               << " (" << result->partitions << " partitions, " << result->conversions << " layout conversions)\n"
               << "  arena       " << formatBytes(static_cast<int64_t>(result->arenaBytes)) << " (lower bound "
               << formatBytes(static_cast<int64_t>(result->lowerBoundBytes)) << ")\n"
               << "  weights     " << formatBytes(result->weightsBytes) << "\n"
               << "Build it with: embark-cli build " << result->dir << "\n";
    }
    return 0;
}

} // namespace embark::cli

// `embark-cli build DIR` and `embark-cli exec DIR [-- run_export args]`: the host flow for an
// export folder (configure + build with a streamed log; run with the JSON lines passed through).
#include "commands.h"
#include "model_args.h"

#include "compile/export_builder.h"
#include "jobs/pipeline.h"

#include <QFileInfo>
#include <QJsonDocument>

namespace embark::cli {

int cmdBuild(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Configure and build an export folder with CMake.");
    parser.addPositionalArgument("DIR", "The export folder.");
    parser.addOption({"build-dir", "Where to build (default DIR/build).", "PATH"});
    parser.addOption({"jobs", "Parallel compile jobs (default: all cores).", "N", "0"});
    parser.addOption({"quiet", "Do not stream the build log."});
    if (int rc = parseOrExit(parser, args, io, "build DIR [--build-dir PATH] [--jobs N] [--quiet]", 1, 1); rc >= 0) return rc;
    // The build recipe of jobs/pipeline.h, as the studio and bench run it.
    jobs::PipelineState state;
    state.exportDir = parser.positionalArguments().first();
    state.buildDir = parser.value("build-dir");
    state.buildJobs = parser.value("jobs").toInt();
    // The export's own architecture is checked by buildExport (export_folder.h reads it).
    const bool quiet = parser.isSet("quiet");
    jobs::RecipeObserver observer;
    observer.log = [&](const QString& line) {
        // The compiler's output only: the recipe's own step lines ("== build", "build failed:
        // ...") would repeat the error printed below.
        if (line == QLatin1String("== build") || line.startsWith(QLatin1String("build failed: ")) ||
            line.startsWith(QLatin1String("build cancelled: ")))
            return;
        if (!quiet) {
            io.err << line << "\n";
            io.err.flush();
        }
    };
    const jobs::RecipeRun run = jobs::runRecipe(jobs::buildRecipe(), state, observer);
    if (run.firstError) return fail(io, *run.firstError);
    const build::BuildResult& r = *state.built;
    io.out << "Built " << r.binary << " (" << r.elfMachine << ", " << formatBytes(r.binaryBytes) << ")\n";
    return 0;
}

int cmdExec(const QStringList& args, Io& io) {
    // Everything after "--" goes to run_export untouched.
    const qsizetype dash = args.indexOf("--");
    const QStringList own = dash < 0 ? args : args.mid(0, dash);
    const QStringList passThrough = dash < 0 ? QStringList() : args.mid(dash + 1);
    QCommandLineParser parser;
    parser.setApplicationDescription("Run a built export on the host; its JSON lines go to stdout.");
    parser.addPositionalArgument("DIR", "The export folder (built with embark-cli build).");
    parser.addOption({"build-dir", "Where it was built (default DIR/build).", "PATH"});
    parser.addOption({"timeout", "Seconds before the run is stopped (default 600).", "S", "600"});
    if (int rc = parseOrExit(parser, own, io, "exec DIR [--build-dir PATH] [--timeout S] [-- run_export options]", 1, 1); rc >= 0) return rc;
    const QString dir = QFileInfo(parser.positionalArguments().first()).absoluteFilePath();
    const QString buildDir = parser.isSet("build-dir") ? parser.value("build-dir") : dir + "/build";
    const QString binary = buildDir + "/run_export";
    if (!QFileInfo(binary).isExecutable())
        return fail(io, makeError(ErrorKind::Usage, "no run_export in '" + buildDir.toStdString() + "': run 'embark-cli build " +
                                                        dir.toStdString() + "' first"));
    QString stderrText;
    auto rc = build::runProcess(binary, passThrough, dir, [&](const QString& line) {
        io.out << line << "\n";
        io.out.flush();
    }, nullptr, parser.value("timeout").toInt() * 1000);
    if (!rc) return fail(io, rc.error());
    // run_export: 0 ok, 1 check failed, 2 usage, 4 bad input, 5 model failure; the CLI's
    // statuses mean the same.
    return *rc;
}

} // namespace embark::cli

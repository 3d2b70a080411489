// `embark-cli build DIR` and `embark-cli exec DIR [-- run_export args]`: configure + build an
// export folder with a streamed log; run it on its board (host, qemu-user or SSH) with the
// JSON lines passed through.
#include "commands.h"
#include "model_args.h"

#include "interrupt.h"

#include "compile/export_builder.h"
#include "deploy/transport_factory.h"
#include "export/export_folder.h"
#include "jobs/pipeline.h"
#include "targets/toolchain.h"

#include <QDir>
#include <QJsonObject>
#include <QMap>
#include <QScopeGuard>

#include <QFileInfo>
#include <QJsonDocument>

namespace embark::cli {

int cmdBuild(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Configure and build an export folder with CMake.");
    parser.addPositionalArgument("DIR", "The export folder.");
    parser.addOption({"build-dir", "Where to build (default DIR/build).", "PATH"});
    parser.addOption({"jobs", "Parallel compile jobs, 1..1024 (default: all cores).", "N"});
    parser.addOption({"quiet", "Do not stream the build log."});
    if (int rc = parseOrExit(parser, args, io, "build DIR [--build-dir PATH] [--jobs N] [--quiet]", 1, 1); rc >= 0)
        return rc;
    // The build recipe of jobs/pipeline.h, as the studio and bench run it.
    jobs::PipelineState state;
    state.exportDir = parser.positionalArguments().first();
    state.buildDir = parser.value("build-dir");
    if (parser.isSet("jobs")) {
        auto jobs = intOption(parser, "jobs", 1, 1024);
        if (!jobs) return fail(io, jobs.error());
        state.buildJobs = static_cast<int>(*jobs);
    }
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

namespace {

// run_export's options that name local files or folders: inputs go up to the board, the
// --out and --dump folders come back.
struct RemoteArgs {
    QStringList args;                                 // as passed on the board
    std::vector<std::pair<QString, QString>> uploads; // local file -> run-folder name
    QMap<QString, QString> folders;                   // run-folder name ("out", "dump") -> local folder
};

RemoteArgs remoteArgs(const QStringList& passThrough) {
    RemoteArgs r;
    for (qsizetype i = 0; i < passThrough.size(); ++i) {
        const QString& a = passThrough[i];
        const bool hasValue = i + 1 < passThrough.size();
        if (a == "--input" && hasValue) {
            const QString local = passThrough[++i];
            const QString remote = QStringLiteral("input_%1.%2").arg(r.uploads.size()).arg(QFileInfo(local).suffix());
            r.uploads.push_back({local, remote});
            r.args << a << remote;
        } else if ((a == "--out" || a == "--dump") && hasValue) {
            const QString name = a.mid(2);
            r.folders[name] = passThrough[++i];
            r.args << a << name;
        } else {
            r.args << a;
        }
    }
    return r;
}

// The board an export runs on: --board, else the one export.json names.
Expected<targets::Board> execBoard(const exporter::ExportFolder& folder, const QString& requested) {
    const QString id = !requested.isEmpty()    ? requested
                       : !folder.board.empty() ? QString::fromStdString(folder.board)
                                               : QStringLiteral("host");
    auto board = targets::findBoard(id);
    if (!board) return board.error();
    const QString arch = QString::fromStdString(folder.arch);
    if (board->arch != arch)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("'%1' was exported for %2, but board '%3' is %4: give --board with "
                                        "a %2 board (see embark-cli boards) or export again with --board %3")
                             .arg(folder.dir, arch, board->id, board->arch)
                             .toStdString());
    return board;
}

} // namespace

int cmdExec(const QStringList& args, Io& io) {
    // Everything after "--" goes to run_export untouched.
    const qsizetype dash = args.indexOf("--");
    const QStringList own = dash < 0 ? args : args.mid(0, dash);
    const QStringList passThrough = dash < 0 ? QStringList() : args.mid(dash + 1);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Run a built export on the board it was built for (export.json's board: the host, "
        "a simulated board through its exec prefix, or an SSH board); its JSON lines go to stdout.");
    parser.addPositionalArgument("DIR", "The export folder (built with embark-cli build).");
    parser.addOption({"build-dir", "Where it was built (default DIR/build).", "PATH"});
    parser.addOption({"board", "Run on this board instead of the one export.json names (same architecture).", "BOARD"});
    parser.addOption({"timeout", "Seconds before the run is stopped, 1..86400 (default 600).", "S", "600"});
    parser.addOption(
        {"accept-new-host-key", "Trust an SSH board's unknown host key (changed keys are always refused)."});
    if (int rc = parseOrExit(parser, own, io,
                             "exec DIR [--build-dir PATH] [--board BOARD] [--timeout S] [--accept-new-host-key] "
                             "[-- run_export options]",
                             1, 1);
        rc >= 0)
        return rc;
    auto timeout = intOption(parser, "timeout", 1, 86400);
    if (!timeout) return fail(io, timeout.error());
    const QString dir = QFileInfo(parser.positionalArguments().first()).absoluteFilePath();
    auto folder = exporter::ExportFolder::open(dir);
    if (!folder) return fail(io, folder.error());
    auto board = execBoard(*folder, parser.value("board"));
    if (!board) return fail(io, board.error());
    const QString buildDir = parser.isSet("build-dir") ? parser.value("build-dir") : dir + "/build";
    const QString binary = QFileInfo(buildDir + "/run_export").absoluteFilePath();
    if (!QFileInfo(binary).isExecutable())
        return fail(io, makeError(ErrorKind::Usage, "no run_export in '" + buildDir.toStdString() +
                                                        "': run 'embark-cli build " + dir.toStdString() + "' first"));
    if (const QString machine = build::elfMachine(binary); !machine.isEmpty() && machine != board->arch)
        return fail(io,
                    makeError(ErrorKind::Usage, QStringLiteral("'%1' is a %2 binary, but board '%3' is %4: build the "
                                                               "export again (embark-cli build %5)")
                                                    .arg(binary, machine, board->id, board->arch, dir)
                                                    .toStdString()));
    if (Status s = targets::checkRunnerAvailable(*board); !s) return fail(io, s.error());

    deploy::SshOptions ssh;
    if (parser.isSet("accept-new-host-key"))
        ssh.confirmHostKey = [&io](const deploy::HostKeyInfo&) {
            io.err << "embark-cli: trusting the new host key (--accept-new-host-key)\n";
            return true;
        };
    ssh.log = [&io](const QString& line) { io.err << "embark-cli: note: " << line << "\n"; };
    auto transport = deploy::makeTransport(*board, ssh);
    if (Status s = transport->connect(); !s) return fail(io, s.error());

    const bool remote = board->runner.kind == targets::BoardRunner::Kind::Ssh;
    RemoteArgs ra = remote ? remoteArgs(passThrough) : RemoteArgs{passThrough, {}, {}};
    QString runDir;
    auto cleanup = qScopeGuard([&] {
        if (!runDir.isEmpty()) (void)transport->removeRunDir(runDir);
    });
    deploy::ExecRequest request;
    request.timeout = std::chrono::seconds(*timeout);
    InterruptGuard interrupts;
    request.cancel = interrupts.flag();
    if (remote) {
        auto made = transport->makeRunDir(QFileInfo(dir).fileName());
        if (!made) return fail(io, made.error());
        runDir = *made;
        if (Status s = transport->upload(binary, "run_export"); !s) return fail(io, s.error());
        if (const QString lib = QFileInfo(binary).absolutePath() + "/lib"; QFileInfo(lib).isDir())
            if (Status s = transport->upload(lib, "lib"); !s) return fail(io, s.error());
        for (const auto& [local, name] : ra.uploads) {
            if (Status s = requireTensorFile("input", local); !s) return fail(io, s.error());
            if (Status s = transport->upload(local, name); !s) return fail(io, s.error());
        }
        request.argv = QStringList{"./run_export"} + ra.args;
    } else {
        request.argv = QStringList{binary} + ra.args;
        request.workdir = dir; // relative --input/--out/--dump paths as before: from the export folder
    }

    // JSON lines are passed through as they arrive; over SSH, the files a line names are
    // fetched into the local folders --out/--dump gave, and the line names the local file.
    QByteArray pending;
    Status downloadError;
    auto emitLine = [&](const QByteArray& raw) {
        QByteArray line = raw;
        if (remote && !ra.folders.isEmpty()) {
            QJsonObject o = QJsonDocument::fromJson(line).object();
            const QString file = o.value("file").toString();
            const QString top = file.section('/', 0, 0);
            if (!file.isEmpty() && ra.folders.contains(top)) {
                const QString local = ra.folders[top] + file.mid(top.size());
                if (downloadError.ok()) {
                    if (!QDir().mkpath(QFileInfo(local).absolutePath()))
                        downloadError =
                            makeError(ErrorKind::External, "cannot create the folder of '" + local.toStdString() + "'");
                    else if (Status s = transport->download(file, local); !s)
                        downloadError = s;
                }
                o["file"] = local;
                line = QJsonDocument(o).toJson(QJsonDocument::Compact);
            }
        }
        io.out << QString::fromUtf8(line) << "\n";
        io.out.flush();
    };
    request.onStdout = [&](const QByteArray& chunk) {
        pending += chunk;
        for (qsizetype nl; (nl = pending.indexOf('\n')) >= 0;) {
            emitLine(pending.left(nl));
            pending.remove(0, nl + 1);
        }
    };
    request.onStderr = [&](const QByteArray& chunk) {
        io.err << QString::fromUtf8(chunk);
        io.err.flush();
    };
    auto result = transport->exec(request);
    if (!pending.isEmpty()) emitLine(pending);
    if (!result) return fail(io, result.error());
    if (!downloadError.ok()) return fail(io, downloadError.error());
    // run_export: 0 ok, 1 check failed, 2 usage, 4 bad input, 5 model failure; the CLI's
    // statuses mean the same. A crash, a timeout or Ctrl+C is an external failure.
    if (result->outcome != deploy::ExecResult::Outcome::Exited) {
        Status s = deploy::requireSuccess(*result, board->id, "run_export");
        return fail(io, s.ok() ? makeError(ErrorKind::External, "run_export did not finish") : s.error());
    }
    if (result->exitCode != 0) {
        static const char* const meaning[] = {"",
                                              "an output outside the --check tolerance",
                                              "a usage error",
                                              "unsupported",
                                              "a bad input file",
                                              "a model failure"};
        const int c = result->exitCode;
        io.err << "embark-cli: error: run_export on " << transport->describe() << " exited with status " << c
               << (c > 0 && c <= 5 ? QStringLiteral(" (%1)").arg(meaning[c]) : QString()) << "\n";
    }
    return result->exitCode;
}

} // namespace embark::cli

#include "job_recipes.h"

#include "deploy/transport_factory.h"
#include "onnx/importer.h"
#include "targets/board.h"
#include "targets/toolchain.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace embark::jobs {

namespace {

QString baseName(const QString& path) { return QFileInfo(path).completeBaseName(); }

} // namespace

std::shared_ptr<Job> makeExportJob(ExportRequest r, QString title) {
    if (title.isEmpty()) title = QStringLiteral("Export %1 for %2 (%3)").arg(baseName(r.modelPath), r.boardId,
                                                                     QString::fromStdString(r.library));
    return std::make_shared<Job>(title, JobKind::Export, [r = std::move(r)](JobContext& ctx) -> Status {
        ctx.progress(QStringLiteral("import"), 0, 2);
        auto board = targets::findBoard(r.boardId);
        if (!board) return board.error();
        auto toolchain = targets::toolchainFor(*board);
        if (!toolchain) return toolchain.error();
        std::shared_ptr<const ir::Graph> graph = r.graph;
        if (!graph) {
            ctx.log(QStringLiteral("importing %1").arg(r.modelPath));
            auto imported = onnx::importModel(r.modelPath.toStdString());
            if (!imported) return imported.error();
            graph = std::make_shared<const ir::Graph>(std::move(*imported));
        }
        if (ctx.cancelled()) return makeError(ErrorKind::External, "cancelled before the export was written");
        ctx.progress(QStringLiteral("export"), 1, 2);
        exporter::ExportOptions eo = exportOptionsFor(*board, *toolchain, r.library, r.opOverrides, r.nodeOverrides);
        eo.outDir = r.outDir;
        eo.force = r.force;
        auto exported = exporter::exportModel(*graph, eo);
        if (!exported) return exported.error();
        for (const std::string& line : exported->log) ctx.log(QString::fromStdString(line));
        ctx.progress(QStringLiteral("export"), 2, 2);
        const QString summary = QStringLiteral("%1 layers, arena %2 KiB, weights %3 KiB in %4")
                                    .arg(exported->layers)
                                    .arg(double(exported->arenaBytes) / 1024, 0, 'f', 1)
                                    .arg(double(exported->weightsBytes) / 1024, 0, 'f', 1)
                                    .arg(exported->dir);
        ctx.setResult(*exported, summary);
        return {};
    });
}

std::shared_ptr<Job> makeBuildJob(BuildRequest r, QString title) {
    if (title.isEmpty()) title = QStringLiteral("Build %1").arg(QFileInfo(r.exportDir).fileName());
    return std::make_shared<Job>(title, JobKind::Build, [r = std::move(r)](JobContext& ctx) -> Status {
        build::BuildOptions bo;
        bo.exportDir = r.exportDir;
        bo.jobs = r.parallel;
        if (!r.boardId.isEmpty()) {
            auto board = targets::findBoard(r.boardId);
            if (!board) return board.error();
            bo.expectedArch = board->arch;
        } else {
            QFile manifest(r.exportDir + "/export.json");
            if (manifest.open(QIODevice::ReadOnly))
                bo.expectedArch = QJsonDocument::fromJson(manifest.readAll()).object().value("arch").toString();
        }
        const QString buildDir = QFileInfo(r.exportDir).absoluteFilePath() + "/build";
        const bool freshBuildDir = !QFileInfo::exists(buildDir);
        bo.log = [&](const QString& line) { ctx.log(line); };
        bo.progress = [&](int done, int total) { ctx.progress(QStringLiteral("build"), done, total); };
        bo.cancel = ctx.cancelFlag();
        ctx.progress(QStringLiteral("configure"), 0, 0);
        auto built = build::buildExport(bo);
        if (!built) {
            // A cancelled first build leaves nothing behind: the export folder is as it was.
            if (ctx.cancelled() && freshBuildDir) QDir(buildDir).removeRecursively();
            return built.error();
        }
        const QString summary = QStringLiteral("%1 (%2, %3 KiB)")
                                    .arg(built->binary, built->elfMachine)
                                    .arg(double(built->binaryBytes) / 1024, 0, 'f', 1);
        ctx.setResult(*built, summary);
        return {};
    });
}

std::shared_ptr<Job> makeDeployJob(DeployRequest r, QString title) {
    if (title.isEmpty()) title = QStringLiteral("Deploy %1 to %2").arg(QFileInfo(r.binary).fileName(), r.boardId);
    return std::make_shared<Job>(title, JobKind::Deploy, [r = std::move(r)](JobContext& ctx) -> Status {
        auto board = targets::findBoard(r.boardId);
        if (!board) return board.error();
        EMBARK_TRY(targets::checkRunnerAvailable(*board));
        if (!QFileInfo(r.binary).isFile())
            return makeError(ErrorKind::Usage, "'" + r.binary.toStdString() + "' does not exist: build the export first");
        ctx.progress(QStringLiteral("connect"), 0, 3);
        auto transport = deploy::makeTransport(*board, r.ssh);
        EMBARK_TRY(transport->connect());
        ctx.log(QStringLiteral("connected to %1").arg(transport->describe()));
        auto dir = transport->makeRunDir(QStringLiteral("deploy"));
        if (!dir) return dir.error();
        struct Cleanup {
            deploy::Transport* t;
            QString dir;
            ~Cleanup() { (void)t->removeRunDir(dir); }
        } cleanup{transport.get(), *dir};
        ctx.progress(QStringLiteral("upload"), 1, 3);
        EMBARK_TRY(transport->upload(r.binary, "run_export"));
        const QString libDir = QFileInfo(r.binary).absolutePath() + "/lib";
        if (QFileInfo(libDir).isDir()) EMBARK_TRY(transport->upload(libDir, "lib"));
        if (ctx.cancelled()) return makeError(ErrorKind::External, "cancelled after the upload");
        ctx.progress(QStringLiteral("run"), 2, 3);
        deploy::ExecRequest req;
        req.argv = QStringList{"./run_export", "--warmup", "0", "--iterations", "1", "--out", "out"};
        req.timeout = std::chrono::seconds(r.timeoutSeconds);
        req.cancel = ctx.cancelFlag();
        QByteArray pending;
        req.onStdout = [&](const QByteArray& chunk) {
            pending += chunk;
            for (qsizetype nl; (nl = pending.indexOf('\n')) >= 0; pending.remove(0, nl + 1))
                ctx.log(QString::fromUtf8(pending.left(nl)));
        };
        auto exec = transport->exec(req);
        if (!exec) return exec.error();
        EMBARK_TRY(deploy::requireSuccess(*exec, board->id, QStringLiteral("run_export")));
        ctx.progress(QStringLiteral("run"), 3, 3);
        ctx.setResult(QString::fromUtf8(exec->stdoutData), QStringLiteral("ran once on %1").arg(transport->describe()));
        return {};
    });
}

std::shared_ptr<Job> makeBenchmarkJob(BenchOptions o, QString title) {
    if (title.isEmpty()) title = QStringLiteral("Benchmark %1 on %2 (%3)").arg(baseName(o.modelPath), o.boardId,
                                                                       QString::fromStdString(o.library));
    return std::make_shared<Job>(title, JobKind::Benchmark, [options = std::move(o)](JobContext& ctx) -> Status {
        BenchOptions o = options;
        o.log = [&](const QString& line) { ctx.log(line); };
        o.progress = [&](const QString& step, int done, int total) { ctx.progress(step, done, total); };
        o.cancel = ctx.cancelFlag();
        auto r = runBenchmark(o);
        if (!r) return r.error();
        const store::RunRecord& rec = r->record;
        if (rec.status != store::RunStatus::Ok) {
            ctx.setResult(*r, {});
            return makeError(ErrorKind::External, rec.message);
        }
        const QString summary = QStringLiteral("run %1: median %2 ms over %3 iterations")
                                    .arg(rec.id)
                                    .arg(double(rec.latency.medianNs) / 1e6, 0, 'f', 3)
                                    .arg(rec.latency.count);
        ctx.setResult(*r, summary);
        return {};
    });
}

std::shared_ptr<Job> makeXnnpackBuildJob(xnnpack::XnnpackBuildOptions o, QString title) {
    if (title.isEmpty()) title = QStringLiteral("Build XNNPACK for %1").arg(o.arch);
    return std::make_shared<Job>(title, JobKind::Build, [o = std::move(o)](JobContext& ctx) mutable -> Status {
        o.log = [&ctx](const QString& line) { ctx.log(line); };
        o.progress = [&ctx](int done, int total) { ctx.progress(QStringLiteral("build XNNPACK"), done, total); };
        o.cancel = ctx.cancelFlag();
        auto r = xnnpack::buildXnnpack(o);
        if (!r) return r.error();
        const QString summary = r->alreadyBuilt ? QStringLiteral("already built: %1").arg(r->dir)
                                                : QStringLiteral("XNNPACK %1 for %2 in %3 s: %4")
                                                      .arg(r->manifest.xnnpackCommit.left(12), o.arch)
                                                      .arg(r->manifest.buildSeconds, 0, 'f', 0)
                                                      .arg(r->dir);
        ctx.setResult(*r, summary);
        return {};
    });
}

} // namespace embark::jobs

#include "job_recipes.h"

#include "pipeline.h"

#include "targets/board.h"

#include <QFileInfo>

namespace embark::jobs {

namespace {

QString baseName(const QString& path) { return QFileInfo(path).completeBaseName(); }

// Runs a recipe as a job's work: the job's log, per-step progress and cancel; the first failed
// step's error is the job's.
Status runInJob(const Recipe& recipe, PipelineState& state, JobContext& ctx) {
    state.options.cancel = ctx.cancelFlag();
    RecipeObserver observer;
    observer.stepStarted = [&ctx](const QString& step, int index, int count) { ctx.stepStarted(step, index, count); };
    observer.progress = [&ctx](const QString& step, int done, int total) { ctx.progress(step, done, total); };
    observer.log = [&ctx](const QString& line) { ctx.log(line); };
    const RecipeRun run = runRecipe(recipe, state, observer);
    if (run.firstError) return *run.firstError;
    return {};
}

void fromExportRequest(const ExportRequest& r, PipelineState& state) {
    state.options.modelPath = r.modelPath;
    state.options.boardId = r.boardId;
    state.options.library = r.library;
    state.options.opOverrides = r.opOverrides;
    state.options.nodeOverrides = r.nodeOverrides;
    state.graph = r.graph;
    if (r.graph) state.plan = r.plan; // a plan is the plan of the graph it came with
    state.exportDir = r.outDir;
    state.replaceExport = r.force;
}

Status setBuildResult(const build::BuildResult& built, JobContext& ctx) {
    const QString summary = QStringLiteral("%1 (%2, %3 KiB)")
                                .arg(built.binary, built.elfMachine)
                                .arg(double(built.binaryBytes) / 1024, 0, 'f', 1);
    ctx.setResult(built, summary);
    return {};
}

} // namespace

std::shared_ptr<Job> makeExportJob(ExportRequest r, QString title) {
    if (title.isEmpty())
        title = QStringLiteral("Export %1 for %2 (%3)")
                    .arg(baseName(r.modelPath), r.boardId, QString::fromStdString(r.library));
    const JobKind kind = r.build ? JobKind::Build : JobKind::Export;
    return std::make_shared<Job>(title, kind, [r = std::move(r)](JobContext& ctx) -> Status {
        PipelineState state;
        fromExportRequest(r, state);
        EMBARK_TRY(runInJob(r.build ? exportBuildRecipe() : exportRecipe(), state, ctx));
        if (r.build) return setBuildResult(*state.built, ctx);
        const exporter::ExportResult& exported = *state.exported;
        const QString summary = QStringLiteral("%1 layers, arena %2 KiB, weights %3 KiB in %4")
                                    .arg(exported.layers)
                                    .arg(double(exported.arenaBytes) / 1024, 0, 'f', 1)
                                    .arg(double(exported.weightsBytes) / 1024, 0, 'f', 1)
                                    .arg(exported.dir);
        ctx.setResult(exported, summary);
        return {};
    });
}

std::shared_ptr<Job> makeBuildJob(BuildRequest r, QString title) {
    if (title.isEmpty()) title = QStringLiteral("Build %1").arg(QFileInfo(r.exportDir).fileName());
    return std::make_shared<Job>(title, JobKind::Build, [r = std::move(r)](JobContext& ctx) -> Status {
        PipelineState state;
        state.exportDir = r.exportDir;
        state.buildJobs = r.parallel;
        if (!r.boardId.isEmpty()) { // its architecture is checked against the binary
            auto board = targets::findBoard(r.boardId);
            if (!board) return board.error();
            state.board = *board;
        }
        EMBARK_TRY(runInJob(buildRecipe(), state, ctx));
        return setBuildResult(*state.built, ctx);
    });
}

std::shared_ptr<Job> makeDeployJob(DeployRequest r, QString title) {
    if (title.isEmpty()) title = QStringLiteral("Deploy %1 to %2").arg(QFileInfo(r.binary).fileName(), r.boardId);
    return std::make_shared<Job>(title, JobKind::Deploy, [r = std::move(r)](JobContext& ctx) -> Status {
        PipelineState state;
        if (r.exportFirst) fromExportRequest(*r.exportFirst, state);
        state.options.boardId = r.boardId;
        state.options.ssh = r.ssh;
        state.options.warmup = 0;
        state.options.iterations = 1;
        state.options.runTimeoutSeconds = r.timeoutSeconds;
        state.binary = r.binary;
        if (!r.exportFirst) state.exportDir = r.exportDir;
        EMBARK_TRY(runInJob(deployRunRecipe(!r.exportDir.isEmpty(), r.exportFirst.has_value()), state, ctx));
        ctx.setResult(QString::fromUtf8(state.runStdout),
                      QStringLiteral("ran once on %1").arg(state.transport->describe()));
        return {};
    });
}

std::shared_ptr<Job> makeBenchmarkJob(BenchOptions o, QString title) {
    if (title.isEmpty())
        title = QStringLiteral("Benchmark %1 on %2 (%3)")
                    .arg(baseName(o.modelPath), o.boardId, QString::fromStdString(o.library));
    return std::make_shared<Job>(title, JobKind::Benchmark, [options = std::move(o)](JobContext& ctx) -> Status {
        BenchOptions o = options;
        o.log = [&](const QString& line) { ctx.log(line); };
        o.stepStarted = [&](const QString& step, int index, int count) { ctx.stepStarted(step, index, count); };
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

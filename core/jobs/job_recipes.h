// The studio's jobs: the recipes of pipeline.h (export a model for a board, build an export
// with the board's toolchain, deploy a build to a board and run it once, the whole benchmark)
// as Jobs for a JobQueue, with per-step progress. Each job's result (Job::result) is the
// core call's own result type.
#pragma once

#include "bench_pipeline.h"
#include "job.h"

#include "compile/export_builder.h"
#include "deploy/ssh_connection.h"
#include "export/deployment_plan.h"
#include "export/exporter.h"
#include "ir/graph.h"
#include "xnnpack/xnnpack_builder.h"

#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace embark::jobs {

struct ExportRequest {
    QString modelPath;
    std::shared_ptr<const ir::Graph> graph; // already imported; null = import modelPath
    // The plan of `graph` for this board, library and overrides that the caller shows (the
    // studio's): written as it is; null = plan here.
    std::shared_ptr<const exporter::DeploymentPlan> plan;
    QString boardId = "sim-k230";
    std::string library = "portable";
    std::map<std::string, std::string> opOverrides, nodeOverrides;
    QString outDir;
    bool force = false; // replace a non-empty folder
    bool build = false; // build it too (one job: a failed export builds nothing)
};

struct BuildRequest {
    QString exportDir;
    QString boardId;  // its architecture is checked against the binary; empty = export.json's
    int parallel = 0; // compiler processes; 0 = all cores
};

struct DeployRequest {
    std::optional<ExportRequest> exportFirst; // set: export (into its outDir) and build first
    QString exportDir;                        // set: build it first (incremental; nothing to do when up to date)
    QString binary;                           // a built run_export (its lib/ folder goes along when present)
    QString boardId;
    deploy::SshOptions ssh;
    int timeoutSeconds = 300;
};

// Every recipe takes an optional title (the studio passes a translated one).

// Result: exporter::ExportResult, or with request.build a build::BuildResult (a Build job).
std::shared_ptr<Job> makeExportJob(ExportRequest request, QString title = {});
// Result: build::BuildResult. A cancelled build kills its process tree and removes the build
// folder it created, so the export folder is left as it was.
std::shared_ptr<Job> makeBuildJob(BuildRequest request, QString title = {});
// Result: QString, the smoke run's output. Builds the export first when exportDir is set
// (then `binary` is ignored), uploads to a fresh run folder, runs one iteration and removes
// the folder.
std::shared_ptr<Job> makeDeployJob(DeployRequest request, QString title = {});
// Result: BenchResult (a run that failed on the board is a result too, and the job Failed).
// The options' log, progress and cancel are replaced by the job's.
std::shared_ptr<Job> makeBenchmarkJob(BenchOptions options, QString title = {});
// Result: xnnpack::XnnpackBuildResult. Builds XNNPACK into the per-user cache: progress from
// Ninja's [n/m], every line to the job's log; a cancelled build kills its process tree and
// leaves no cache entry. The options' log, progress and cancel are replaced by the job's.
std::shared_ptr<Job> makeXnnpackBuildJob(xnnpack::XnnpackBuildOptions options, QString title = {});

} // namespace embark::jobs

// The pipeline as steps: resolve the target, import, plan, export, build, deploy, run,
// compare and store are short functions over one shared PipelineState (what Qt Creator's task
// trees call storage). Each step names the steps whose outputs it reads; a recipe is an ordered
// list of steps; runRecipe runs them, skips every step whose inputs failed (with the failing
// step's error), stops at cancel and reports progress per step.
//
// Recipes: bench (all steps), export (resolve, import, plan, export), build (build an export
// folder), deploy-and-run (build when needed, deploy, run once). embark-cli bench, the studio's
// jobs and the tests all run these.
#pragma once

#include "bench_pipeline.h"
#include "export_cache.h"

#include "compile/export_builder.h"
#include "deploy/transport.h"
#include "export/deployment_plan.h"
#include "export/deployment_target.h"
#include "export/export_folder.h"
#include "export/exporter.h"
#include "targets/board.h"
#include "targets/toolchain.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace embark::jobs {

struct OrtRunState; // ort_pipeline.h: the ONNX Runtime recipe's own part of the state

// Everything the steps share. The request is `options`; each step fills its own part.
struct PipelineState {
    BenchOptions options;

    // What the request adds for the recipes that do not start from a model.
    QString exportDir; // export: where to write (empty = a new run folder); build: the folder
    bool replaceExport = false;
    QString binary;    // deploy-and-run of a binary that was built elsewhere
    int buildJobs = 0; // compiler processes; 0 = all cores
    QString buildDir;  // build: where to build; empty = <export folder>/build

    // resolve: the target (resolve_target.h), and its board and toolchain for the steps after
    std::optional<exporter::DeploymentTarget> target;
    std::optional<targets::Board> board;
    std::optional<targets::Toolchain> toolchain;
    // import (or given by the caller, e.g. the studio's already imported graph)
    std::shared_ptr<const ir::Graph> graph;
    // plan (or given by the caller: the studio's current plan, which the export then writes
    // as it is; it must be the plan of this graph for this target)
    exporter::ExportOptions exportOptions;
    std::shared_ptr<const exporter::DeploymentPlan> plan;
    // export
    std::optional<exporter::ExportResult> exported;
    // build
    std::optional<build::BuildResult> built;
    // options.exportCache: this benchmark's entry, locked from export to build when this
    // benchmark makes it (the lock is released before the entry goes away)
    std::shared_ptr<ExportCache::Entry> sharedExport;
    std::unique_lock<std::mutex> sharedExportLock;
    bool reusedExport = false;
    // deploy: the connection and the board folder (removed when the state goes away)
    std::unique_ptr<deploy::Transport> transport;
    QString runDir;
    // run, compare, store
    QByteArray runStdout;
    BenchResult result;
    // The ONNX Runtime recipe (options.runtime "onnxruntime"): model bundle, EP options, the
    // runtime's figures and profile.
    std::shared_ptr<OrtRunState> ort;

    PipelineState() = default;
    PipelineState(const PipelineState&) = delete;
    PipelineState& operator=(const PipelineState&) = delete;
    ~PipelineState();
};

struct RecipeRun;

// What a step sees besides the state: its log, its own progress (build: Ninja's [n/m]), the
// cancel flag it must pass to long calls, and how the steps before it ended.
struct StepContext {
    const RecipeRun* run = nullptr;
    std::function<void(const QString& line)> log;
    std::function<void(int done, int total)> progress;
    const std::atomic_bool* cancel = nullptr;
    bool cancelled() const { return cancel && cancel->load(); }
};

using StepFn = Status (*)(PipelineState& state, StepContext& context);

struct Step {
    QString name;      // "import", "export", ... (what progress and logs show)
    QStringList needs; // steps whose outputs it reads: it runs only when they succeeded
    StepFn run = nullptr;
    // Runs even after cancel or after a failure of steps it does not need (store: a failed or
    // cancelled run on the board is stored as such).
    bool always = false;
};

using Recipe = std::vector<Step>;

enum class StepState { Pending, Succeeded, Failed, Skipped, Cancelled };
const char* stepStateName(StepState state);

struct StepOutcome {
    QString name;
    StepState state = StepState::Pending;
    std::optional<Error> error; // Failed or Cancelled: what the step returned
    std::string message;        // the error's message, or why the step was skipped
    qint64 ms = 0;
};

struct RecipeObserver {
    std::function<void(const QString& step, int index, int count)> stepStarted;
    std::function<void(const QString& step, int done, int total)> progress;
    std::function<void(const QString& line)> log;
};

struct RecipeRun {
    std::vector<StepOutcome> steps;
    std::optional<Error> firstError; // the first failed step's error (or "cancelled")
    const StepOutcome* outcome(const QString& step) const;
};

RecipeRun runRecipe(const Recipe& recipe, PipelineState& state, const RecipeObserver& observer);

// The steps, by name.
Status resolveTargetStep(PipelineState& s, StepContext& c);
Status checkToolsStep(PipelineState& s, StepContext& c); // the board's compiler and runner exist
Status importStep(PipelineState& s, StepContext& c);
Status planStep(PipelineState& s, StepContext& c);
Status exportStep(PipelineState& s, StepContext& c);
Status checkFitsStep(PipelineState& s, StepContext& c); // the board holds arena and weights
Status buildStep(PipelineState& s, StepContext& c);
Status deployStep(PipelineState& s, StepContext& c);
Status runStep(PipelineState& s, StepContext& c);
Status compareStep(PipelineState& s, StepContext& c);
Status storeStep(PipelineState& s, StepContext& c);

// A new folder for one run under the options' work folder (or the cache's bench/), named
// <base>-<UTC time>-<pid>-<counter>-<random>.
Expected<QString> makeRunFolder(const BenchOptions& options, const QString& base);

// The recipes.
// resolve → tools → import → plan → export → fits → build → deploy → run → compare → store
Recipe benchRecipe();
Recipe exportRecipe();      // resolve → import → plan → export
Recipe buildRecipe();       // build (the state's exportDir; the board when options.boardId is set)
Recipe exportBuildRecipe(); // resolve → import → plan → export → build
// resolve → [import → plan → export →] [build →] deploy → run
Recipe deployRunRecipe(bool buildFirst, bool exportFirst = false);

} // namespace embark::jobs

#include "pipeline.h"

#include <QElapsedTimer>

namespace embark::jobs {

PipelineState::~PipelineState() {
    // Nothing is left on the board: the run folder goes with the state, whatever happened.
    if (transport && !runDir.isEmpty()) (void)transport->removeRunDir(runDir);
}

const char* stepStateName(StepState s) {
    switch (s) {
    case StepState::Pending: return "pending";
    case StepState::Succeeded: return "succeeded";
    case StepState::Failed: return "failed";
    case StepState::Skipped: return "skipped";
    case StepState::Cancelled: return "cancelled";
    }
    return "?";
}

const StepOutcome* RecipeRun::outcome(const QString& step) const {
    for (const StepOutcome& o : steps)
        if (o.name == step) return &o;
    return nullptr;
}

namespace {

// Why `step` cannot run: the first of its needs that did not succeed, or empty.
std::string unmetNeed(const Step& step, const RecipeRun& run) {
    for (const QString& need : step.needs) {
        const StepOutcome* o = run.outcome(need);
        if (!o) continue; // not part of this recipe: its output was given by the caller
        if (o->state != StepState::Succeeded)
            return "skipped: '" + need.toStdString() + "' " + stepStateName(o->state) +
                   (o->message.empty() ? std::string() : " (" + o->message + ")");
    }
    return {};
}

} // namespace

RecipeRun runRecipe(const Recipe& recipe, PipelineState& state, const RecipeObserver& observer) {
    RecipeRun run;
    for (const Step& step : recipe) {
        StepOutcome outcome;
        outcome.name = step.name;
        run.steps.push_back(outcome);
    }
    const std::atomic_bool* cancel = state.options.cancel;
    auto log = [&](const QString& line) {
        if (observer.log) observer.log(line);
    };
    for (size_t i = 0; i < recipe.size(); ++i) {
        const Step& step = recipe[i];
        StepOutcome& out = run.steps[i];
        if (cancel && cancel->load() && !step.always) {
            out.state = StepState::Cancelled;
            if (!run.firstError)
                run.firstError = makeError(ErrorKind::External, "cancelled before " + step.name.toStdString());
            continue;
        }
        if (std::string why = unmetNeed(step, run); !why.empty()) {
            out.state = StepState::Skipped;
            out.message = why;
            continue;
        }
        if (observer.stepStarted) observer.stepStarted(step.name, static_cast<int>(i), static_cast<int>(recipe.size()));
        if (observer.progress) observer.progress(step.name, 0, 0);
        log(QStringLiteral("== %1").arg(step.name));
        StepContext context;
        context.run = &run;
        context.log = log;
        context.progress = [&](int done, int total) {
            if (observer.progress) observer.progress(step.name, done, total);
        };
        context.cancel = cancel;
        QElapsedTimer timer;
        timer.start();
        const Status status = step.run(state, context);
        out.ms = timer.elapsed();
        if (status) {
            out.state = StepState::Succeeded;
            continue;
        }
        const bool wasCancelled = cancel && cancel->load();
        out.state = wasCancelled ? StepState::Cancelled : StepState::Failed;
        out.error = status.error();
        out.message = status.error().message;
        log(QStringLiteral("%1 %2: %3")
                .arg(step.name, QString::fromLatin1(stepStateName(out.state)), QString::fromStdString(out.message)));
        if (!run.firstError) run.firstError = status.error();
    }
    return run;
}

Recipe benchRecipe() {
    return {
        {"resolve", {}, resolveTargetStep},
        {"tools", {"resolve"}, checkToolsStep},
        {"import", {}, importStep},
        {"plan", {"resolve", "import"}, planStep},
        {"export", {"plan", "tools"}, exportStep},
        {"fits", {"export"}, checkFitsStep},
        {"build", {"fits"}, buildStep},
        {"deploy", {"build"}, deployStep},
        {"run", {"deploy"}, runStep},
        {"compare", {"run"}, compareStep},
        {"store", {"build"}, storeStep, /*always=*/true},
    };
}

Recipe exportRecipe() {
    return {
        {"resolve", {}, resolveTargetStep},
        {"import", {}, importStep},
        {"plan", {"resolve", "import"}, planStep},
        {"export", {"plan"}, exportStep},
    };
}

Recipe buildRecipe() { return {{"build", {}, buildStep}}; }

Recipe exportBuildRecipe() {
    Recipe r = exportRecipe();
    r.push_back({"build", {"export"}, buildStep});
    return r;
}

Recipe deployRunRecipe(bool buildFirst, bool exportFirst) {
    Recipe r = exportFirst ? exportRecipe() : Recipe{{"resolve", {}, resolveTargetStep}};
    if (buildFirst || exportFirst) r.push_back({"build", {"resolve", "export"}, buildStep});
    r.push_back({"deploy", {"resolve", "build"}, deployStep});
    r.push_back({"run", {"deploy"}, runStep});
    return r;
}

} // namespace embark::jobs

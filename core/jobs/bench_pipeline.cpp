#include "bench_pipeline.h"

#include "ort_pipeline.h"
#include "pipeline.h"

#include "targets/board.h"
#include "targets/toolchain.h"

#include <cmath>

namespace embark::jobs {

int firstDivergentLayer(const std::vector<LayerAccuracy>& layers) {
    double previous = 0;
    for (size_t i = 0; i < layers.size(); ++i) {
        const double rel = layers[i].accuracy.maxRel;
        if (std::isnan(rel) || (rel > 1e-4 && rel > 10 * std::max(previous, 1e-7))) return static_cast<int>(i);
        previous = rel;
    }
    return -1;
}

Expected<BenchResult> runBenchmark(const BenchOptions& options) {
    if (options.runtime == QLatin1String("onnxruntime")) return runOrtBenchmark(options);
    if (options.runtime != QLatin1String("export"))
        return makeError(ErrorKind::Usage, "unknown runtime '" + options.runtime.toStdString() + "' (use " +
                                               targets::knownRuntimes().join(" or ").toStdString() + ")");
    if (!options.epOptions.isEmpty())
        return makeError(ErrorKind::Usage, "--ep-option applies to --runtime onnxruntime only");
    PipelineState state;
    state.options = options;
    const RecipeRun run = runRecipe(benchRecipe(), state, {options.stepStarted, options.progress, options.log});
    const StepOutcome* store = run.outcome(QStringLiteral("store"));
    if (store->state == StepState::Failed) return *store->error;      // the run store refused the record
    if (store->state != StepState::Succeeded) return *run.firstError; // failed before the board ran
    BenchResult result = std::move(state.result);
    result.exportDir = state.exported->dir;
    result.binary = state.built->binary;
    result.binaryBytes = state.built->binaryBytes;
    return result;
}

} // namespace embark::jobs

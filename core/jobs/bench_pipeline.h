// The benchmark: the bench recipe of pipeline.h (resolve, import, plan, export, build with the
// board's toolchain, deploy, run, compare with the host reference per output and per layer,
// store the run). Used by `embark-cli bench` and the studio's jobs; runs on the caller's (job)
// thread.
#pragma once

#include "results/metrics.h"
#include "results/run_protocol.h"
#include "deploy/ssh_connection.h"
#include "export/exporter.h"
#include "targets/board.h"
#include "targets/toolchain.h"
#include "ir/graph.h"
#include "store/run_record.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <map>
#include <memory>

namespace embark::jobs {

class ExportCache; // export_cache.h

struct BenchOptions {
    QString modelPath;
    std::map<std::string, ir::Shape> shapeOverrides;
    std::map<std::string, ir::Tensor> inputs; // empty: deterministic random sample
    QString boardId = "sim-k230";
    std::string library = "portable";
    // "export" (Embark's export of the model) or "onnxruntime" (the board's ONNX Runtime, see
    // ort_pipeline.h); epOptions are SpacemiT EP options, KEY=VALUE, validated by the recipe.
    QString runtime = QStringLiteral("export");
    QStringList epOptions;
    std::map<std::string, std::string> opOverrides, nodeOverrides;
    QString compiler; // "clang", "gcc" or empty (the board's default)
    // The rest of the target (resolve_target.h): the architecture (empty: the board's), the
    // pass recipe, concatenation in place, the dtype policy and the cap on run_export --threads.
    QString arch;
    std::string recipe = "default";
    exporter::ConcatInPlace concatInPlace = exporter::ConcatInPlace::Auto;
    exporter::DTypePolicy dtypePolicy = exporter::DTypePolicy::Int8;
    int threadsMax = 0;
    int iterations = 10;
    int warmup = 2;
    int threads = 1;
    QString affinity;            // "0,1": run under taskset on the board
    bool layers = false;         // per-layer timings
    bool accuracyLayers = false; // per-layer dumps compared with the reference
    // The float model a quantized model was made from (float_reference.h): the dumps are also
    // compared with it, layer by layer (needs accuracyLayers), stored as extra "float_reference".
    std::shared_ptr<const ir::Graph> floatReference;
    QString floatReferencePath;
    double snrDropDb = 10; // the float reference's first-drop threshold
    QString workDir;       // exports and downloads; empty = a cache folder
    deploy::SshOptions ssh;
    QString storePath; // empty = RunStore::defaultPath(); "-" = do not store
    QJsonObject extra; // added to the record's extra (a sweep's id: "sweep")
    // Exports shared with other benchmarks of the same model and target (a sweep's); none:
    // this benchmark exports and builds its own.
    std::shared_ptr<ExportCache> exportCache;
    int runTimeoutSeconds = 900;
    const std::atomic_bool* cancel = nullptr;
    std::function<void(const QString& line)> log;
    // A step begins (index of count in the recipe), and the running step's own progress
    // (done of total; 0 of 0 at its start; the build's Ninja [n/m]).
    std::function<void(const QString& step, int index, int count)> stepStarted;
    std::function<void(const QString& step, int done, int total)> progress;
};

struct LayerAccuracy {
    bench::Accuracy accuracy;
    std::string node;  // export node
    std::string value; // the reference value it was compared with
};

struct BenchResult {
    store::RunRecord record; // status Ok or Failed, with message
    bench::RunOutput output; // parsed run_export lines
    std::vector<bench::LayerSample> medianLayers;
    std::vector<LayerAccuracy> layerAccuracy;
    int firstDivergentLayer = -1; // index into layerAccuracy where the error jumps, or -1
    QString exportDir;
    QString binary;
    qint64 binaryBytes = 0;
};

// Errors before the board runs anything (bad model, unsupported op, board too small,
// missing toolchain, a failed or cancelled build) are returned as errors; a failure on the
// board (crash, timeout, transport lost) is a BenchResult whose record says Failed, and a run
// cancelled on the board one whose record says Cancelled (both stored as such).
Expected<BenchResult> runBenchmark(const BenchOptions& options);

// The layer where the error first jumps: max_rel above 1e-4 and 10x the previous layer's.
int firstDivergentLayer(const std::vector<LayerAccuracy>& layers);

} // namespace embark::jobs

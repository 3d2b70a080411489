// ONNX Runtime as a runtime beside Embark's exports (issue 17): the recipe `bench --runtime
// onnxruntime` runs, as the runtime's own tools run a model.
//
//   resolve → import → ort-tools → ort-prepare → deploy → run → compare → store
//
// - resolve: the board and its "onnxruntime" object; the SpacemiT EP options validated.
// - ort-tools: on the host (npm's onnxruntime-node), Node.js and the package, installed on
//   demand into the cache (npm install, ONNXRUNTIME_NODE_INSTALL=skip).
// - ort-prepare: a work folder with model/model.onnx (and its external data) and
//   model/test_data_set_0 (the export's fixed sample or --input, and the reference's outputs).
// - deploy: over the board's Transport (SFTP, temporary name then rename); on a SpacemiT-ORT
//   board first checks that <root> and <root>/bin/onnxruntime_perf_test exist.
// - run: host: Embark's runner (runtime/ort/ort_run.js: warm-up, timed iterations,
//   threads, ORT's profile with --layers, outputs saved). SpacemiT-ORT: onnxruntime_perf_test
//   (statistics, profile -p), then onnx_test_runner over the bundle (pass/fail), then the EP's
//   dumps (profile, subgraphs, .npy tensors) downloaded.
// - compare: outputs (host) or .npy dumps (K1) against the reference; the profile parsed and
//   mapped onto the graph's nodes (per-layer timings, the Chrome-trace export).
// - store: the run with runtime "onnxruntime" (fingerprint library "onnxruntime").
#pragma once

#include "pipeline.h"

#include "results/ort_output.h"
#include "targets/onnxruntime.h"

namespace embark::jobs {

struct OrtRunState {
    targets::OrtRuntime runtime;
    targets::EpOptions epOptions;
    QString dir;     // local work folder (model/, results/)
    QString nodeDir; // host: where onnxruntime-node is installed
    std::vector<std::string> outputNames;
    std::vector<ir::Tensor> referenceOutputs;
    std::map<std::string, ir::Tensor> referenceValues; // every value, for .npy dumps
    QString version;                                   // "onnxruntime-node 1.30.0", "SpacemiT-ORT (<root>)"
    bench::PerfTestStats perf;
    bench::TestRunnerResult testRunner;
    QString testRunnerProblem;            // why there is no verdict (no summary printed)
    QByteArray runnerOutput;              // ort_run.js JSON lines
    QStringList remoteFiles;              // files the run left in the board's run folder
    QString profileFile;                  // downloaded ORT profile
    QString epProfileFile;                // downloaded SpacemiT EP profile
    QStringList subgraphFiles, dumpFiles; // downloaded
    std::vector<bench::OrtLayer> layers;
    std::vector<bench::OrtLayer> epLayers; // from the EP's own profile
};

Status ortResolveStep(PipelineState& s, StepContext& c);
Status ortToolsStep(PipelineState& s, StepContext& c);
Status ortPrepareStep(PipelineState& s, StepContext& c);
Status ortDeployStep(PipelineState& s, StepContext& c);
Status ortRunStep(PipelineState& s, StepContext& c);
Status ortCompareStep(PipelineState& s, StepContext& c);
Status ortStoreStep(PipelineState& s, StepContext& c);

Recipe ortBenchRecipe();

// The benchmark through ONNX Runtime (runBenchmark calls it for options.runtime "onnxruntime").
Expected<BenchResult> runOrtBenchmark(const BenchOptions& options);

// The runner script Embark ships (runtime/ort/ort_run.js, or $EMBARK_RUNTIME_DIR/ort).
QString ortRunnerScript();

} // namespace embark::jobs

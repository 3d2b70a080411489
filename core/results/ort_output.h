// What ONNX Runtime's own tools print, parsed into typed records (issue 17):
// - onnxruntime_perf_test -s: its statistics (session creation, average, min, max, P50 to P999,
//   peak working set, CPU usage);
// - onnx_test_runner: the Succeeded / Failed / Not implemented counts and the failed cases;
// - an ORT profile (SessionOptions enable_profiling, perf_test -p) or an EP's own profile, both
//   Chrome-trace JSON: the node events, grouped by run, with their median per ORT node, and
//   mapped onto the graph's nodes (ORT names events "<node>_kernel_time"; a node ORT fused or
//   re-laid out is named after an original node or value, and links to every graph node it
//   stands for).
// Never fails on noise: unknown lines are ignored, a profile that is not JSON is an error.
#pragma once

#include "ir/error.h"
#include "ir/graph.h"

#include <QByteArray>

#include <optional>
#include <string>
#include <vector>

namespace embark::bench {

struct PerfTestStats {
    std::optional<double> sessionCreationS, firstInferenceMs, totalInferenceS, averageMs, totalRunS,
        inferencesPerSecond, avgCpuPercent;
    std::optional<int64_t> requests, runs, peakWorkingSetBytes;
    // Latency percentiles in seconds, as printed (P50 .. P999).
    std::optional<double> minS, maxS, p50S, p90S, p95S, p99S, p999S;
    std::string error; // a line the tool printed about a failure ("... failed: ...", "Error: ...")

    // Average, min, max and the percentiles were all printed (the run's latency figures).
    bool complete() const;
};
PerfTestStats parsePerfTestOutput(const QByteArray& text);

struct TestRunnerResult {
    bool parsed = false; // the "result:" summary was found
    int models = 0, total = 0, succeeded = 0, failed = 0, notImplemented = 0;
    std::vector<std::string> failedCases; // the lines under "Failed Test Cases:"
    bool passed() const { return parsed && total > 0 && failed == 0 && notImplemented == 0 && succeeded == total; }
};
TestRunnerResult parseTestRunnerOutput(const QByteArray& text);

// --- Profiles
struct ProfileEvent {
    std::string name;     // ORT node name (the event name without "_kernel_time"), or the EP's event name
    std::string op;       // args.op_name when given
    std::string provider; // args.provider when given ("CPUExecutionProvider", "SpaceMITExecutionProvider")
    double tsUs = 0, durUs = 0;
    int run = -1; // index of the model_run it falls in, -1 when the profile has none
};

struct OrtProfile {
    std::vector<ProfileEvent> nodes; // in the profile's order
    std::vector<double> runDurUs;    // each model_run event's duration
    std::vector<std::string> warnings;
};
// Accepts ORT's form (a JSON array of events) and the {"traceEvents": [...]} form. Node events
// are "X" events of category "Node" (ORT) or any "X" event of another category than
// "Session" (an EP's own profile); fence events are skipped.
Expected<OrtProfile> parseOrtProfile(const QByteArray& json);

struct OrtLayer {
    std::string ortName, op, provider;
    double medianNs = 0;            // per run (events of one node within a run summed)
    int runs = 0;                   // runs the median is over
    std::vector<std::string> nodes; // graph nodes it stands for, in graph order; empty = ORT's own (e.g. ReorderOutput)
    std::string how;                // "name", "provenance", "value", "fused", "" (unmapped)
};
// Per ORT node in first-seen order; the first `skipRuns` runs (warm-up) are left out when the
// profile has more runs than that.
std::vector<OrtLayer> ortLayers(const OrtProfile& profile, int skipRuns = 0);
// Fills each layer's graph nodes: by node name, by an original ONNX name in a node's
// provenance, by the value a fused/re-laid-out node is named after (walking back over the
// nodes ORT fused into it, to the node of its op), or by original names inside a fused name.
void mapToGraph(std::vector<OrtLayer>& layers, const ir::Graph& graph);
// Short library label for a provider: "CPUExecutionProvider" -> "ort-cpu".
std::string providerLabel(const std::string& provider);

} // namespace embark::bench

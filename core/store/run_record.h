// What a benchmark run is, as the run store keeps it: fingerprint, status, latency samples and
// statistics, per-layer timings, accuracy per output and per layer, free-form extra JSON.
#pragma once

#include "latency_stats.h"

#include <QDateTime>
#include <QJsonObject>

#include <cstdint>
#include <string>
#include <vector>

namespace embark::store {

// Everything that decides whether two runs are comparable.
struct RunFingerprint {
    std::string modelPath;
    std::string modelSha256;
    std::string exportHash;    // hash of the export folder's manifest and sources
    std::string boardId;       // e.g. "sim-k230"
    std::string kernelLibrary; // e.g. "xnnpack", "portable", or "mixed"
    std::string compiler;      // e.g. "clang-19 19.1.7"
    std::string compilerFlags;
    int threads = 1;
    QDateTime date; // when the run started; stored in UTC with milliseconds
    std::string embarkVersion;
};

enum class RunStatus { Ok, Failed, Cancelled };
const char* runStatusName(RunStatus status);      // "ok", "failed", "cancelled"
RunStatus runStatusFromName(const QString& name); // unknown names read as Failed

struct LayerTiming {
    std::string node; // export node name
    std::string lib;  // kernel library that ran it
    double ns = 0;    // median ns per iteration
};

struct AccuracyEntry {
    std::string name; // output name, or node name for per-layer entries
    double maxAbs = 0;
    double maxRel = 0;
    double rmse = 0;
    double cosine = 1;
    double snrDb = 0;
};

struct RunRecord {
    int64_t id = 0; // assigned by RunStore::addRun
    RunFingerprint fingerprint;
    RunStatus status = RunStatus::Ok;
    std::string message;             // why it failed (compiler error, exit status and stderr, ...)
    std::vector<int64_t> latencyNs;  // one sample per timed iteration, in run order
    LatencyStats latency;            // filled from latencyNs by addRun when left empty
    std::vector<LayerTiming> layers; // in schedule order
    std::vector<AccuracyEntry> outputAccuracy;
    std::vector<AccuracyEntry> layerAccuracy;
    QJsonObject extra;
};

// One row of RunStore::listRuns: enough for a history table, without samples and layers.
struct RunSummary {
    int64_t id = 0;
    QDateTime date;
    std::string modelPath;
    std::string boardId;
    std::string kernelLibrary;
    int threads = 1;
    RunStatus status = RunStatus::Ok;
    std::string message;
    LatencyStats latency;
};

} // namespace embark::store

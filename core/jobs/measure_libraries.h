// `--lib auto` (DESIGN.md "Choosing a library by measurement"): measures each node of a model
// on each candidate kernel library where the model will run, through the same export, build,
// deploy and run steps as a benchmark, caches the numbers per board, library version and node
// signature, and turns the target into a per-node choice (export/measured_choice.h).
#pragma once

#include "deploy/ssh_connection.h"
#include "export/deployment_target.h"
#include "ir/graph.h"

#include <QString>

#include <atomic>
#include <functional>

namespace embark::jobs {

struct MeasureOptions {
    int iterations = 5; // timed runs of each measurement export (the median is kept)
    int warmup = 1;
    QString cachePath; // empty: measurementCachePath()
    QString workDir;   // measurement exports; empty: a temporary folder, removed afterwards
    deploy::SshOptions ssh;
    const std::atomic_bool* cancel = nullptr;
    std::function<void(const QString& line)> log;
};

// $EMBARK_LIB_AUTO_CACHE, else $XDG_CACHE_HOME/embark/lib-auto.json (~/.cache when unset).
QString measurementCachePath();

// The cache's key of a node signature (exporter::nodeSignature) measured on `library` for
// the target's board, library version, compiler and unit: what a tool filling the cache writes.
QString measurementCacheKey(const exporter::DeploymentTarget& target, const std::string& library,
                            const std::string& signature);

// Only for target.library == "auto" (anything else is left alone). The candidates are portable
// and, where the board links one, XNNPACK (with their int8 kernels for the int8 nodes of a
// quantized model); a node or op the user overrides is not measured. Nodes whose signature is
// not in the cache for a candidate are put side by side into one model per library, exported,
// built, run on the board with --layers, and each node's median time is cached; on a simulated
// board (qemu-user, instruction_count.h) each node's retired instructions from one run instead
// (the choice's unit "instructions"; the cache key holds the unit, so the two never mix). The
// layout conversions those exports contain give the cost per byte of a conversion. On return the
// target says library "portable" with `measured` holding the choice and the numbers behind it.
// Errors: the plan of the model fails, the board cannot run a measurement (build, transport),
// or the cache file cannot be written.
Status chooseLibrariesByMeasurement(const ir::Graph& model, exporter::DeploymentTarget& target,
                                    const MeasureOptions& options = {});

} // namespace embark::jobs

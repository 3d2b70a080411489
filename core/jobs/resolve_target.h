// The one place a DeploymentTarget (export/deployment_target.h) is resolved: from the CLI's
// target flags, the studio's settings, a benchmark's options or a stored run. It finds the
// board, checks the architecture, picks the toolchain and answers "which XNNPACK, if any, does
// an export for this board link".
#pragma once

#include "bench_pipeline.h"

#include "export/deployment_target.h"
#include "store/run_record.h"
#include "targets/board.h"

#include <QString>

#include <map>
#include <string>

namespace embark::jobs {

// The board every command and the pipeline take when none is named.
inline constexpr const char* kDefaultBoard = "host";

struct TargetRequest {
    QString board; // board id; empty: from `arch`, else kDefaultBoard
    QString arch;  // empty: the board's; with a board it must be the board's
    std::string library = "portable";
    std::map<std::string, std::string> opOverrides, nodeOverrides;
    QString compiler; // "clang", "gcc" or empty (the board's default)
    std::string recipe = "default";
    exporter::ConcatInPlace concatInPlace = exporter::ConcatInPlace::Auto;
    exporter::DTypePolicy dtypePolicy = exporter::DTypePolicy::Int8;
    int threadsMax = 0;
};

// Errors: an unknown board (the message lists the known ones), an architecture that is not
// the board's or that no board has, an unknown compiler (Usage), or a compiler the board's
// architecture has no toolchain for (Unsupported). `arch` without `board` takes the host when
// it is this computer's architecture, else the first simulated built-in board of it (by id).
Expected<exporter::DeploymentTarget> resolveTarget(const TargetRequest& request, const targets::BoardCatalog& boards);
Expected<exporter::DeploymentTarget> resolveTarget(const TargetRequest& request); // the loaded boards

// The request a benchmark's (or the studio's jobs') options make.
TargetRequest targetRequest(const BenchOptions& options);
// The target a stored run ran on: its board, kernel library and compiler.
TargetRequest targetRequest(const store::RunRecord& run);

} // namespace embark::jobs

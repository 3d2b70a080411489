// The target flags every command that targets a board takes (export, plan, bench, quantize):
// declared once, with one set of defaults, and read into one jobs::TargetRequest. docs/cli.md
// documents them once ("Target options").
#pragma once

#include "cli.h"
#include "jobs/resolve_target.h"

#include <QCommandLineParser>

namespace embark::cli {

// --board, --arch, --lib, --override, --override-node, --compiler, --recipe,
// --concat-in-place, --threads-max.
void addTargetOptions(QCommandLineParser& parser);

// Their names (without dashes), to tell whether a command line gave one.
extern const QStringList kTargetOptionNames;

// Their synopsis, as each command's synopsis and docs/cli.md show it.
extern const char* const kTargetSynopsis;

// The request the flags make; Usage errors name the flag and what it takes.
Expected<jobs::TargetRequest> targetRequest(const QCommandLineParser& parser);

// targetRequest then jobs::resolveTarget: the board, its toolchain and XNNPACK.
Expected<exporter::DeploymentTarget> resolveTargetOptions(const QCommandLineParser& parser);

// Puts a resolved request into a pipeline's options (the board by its resolved id), so the
// pipeline's resolve step finds the same target.
void setTarget(const jobs::TargetRequest& request, const exporter::DeploymentTarget& target,
               jobs::BenchOptions& options);

} // namespace embark::cli

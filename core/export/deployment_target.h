// The target of a deployment as one value: where and how a model runs (board, architecture,
// kernel library and overrides, compiler, XNNPACK tree, recipe, concatenation, dtype policy and
// threads).
// jobs::resolveTarget builds it once; the plan's and the export's options derive from it here.
#pragma once

#include "concat_in_place.h"
#include "deployment_plan.h"
#include "export_options.h"
#include "targets/board.h"
#include "targets/toolchain.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <map>
#include <string>

namespace embark::exporter {

struct DeploymentTarget {
    targets::Board board;                             // arch, CPU flags, memory, how it is reached
    std::string arch;                                 // the board's: x86_64, aarch64 or riscv64
    std::string library = "portable";                 // the wanted kernel library
    std::map<std::string, std::string> opOverrides;   // ONNX op type -> library
    std::map<std::string, std::string> nodeOverrides; // node name -> library
    std::string recipe = "default";                   // pass recipe: default, cleanup or none
    targets::CompilerPreference compiler = targets::CompilerPreference::Default;
    targets::Toolchain toolchain; // for that compiler (file empty: a native build)
    ConcatInPlace concatInPlace = ConcatInPlace::Auto;
    DTypePolicy dtypePolicy = DTypePolicy::Int8; // what a quantized model computes in
    int threadsMax = 0;                          // cap for run_export --threads (0: none)
    // library "auto" until jobs::chooseLibrariesByMeasurement measured; then "portable" and this
    std::shared_ptr<const MeasuredChoice> measured;

    // The XNNPACK tree an export for this board links (kind "none" when there is none), with
    // how it was found, as `plan` and `boards` print it.
    XnnpackLink xnnpack;
    QString xnnpackDescription; // "Embark-built upstream XNNPACK ... from /path", or why none
    QStringList xnnpackWarnings;
    QJsonObject xnnpackJson; // the resolution as `plan --json` and `boards --json` print it

    bool xnnpackAvailable() const { return xnnpack.kind != "none"; }
};

// The export's options for the target; the caller adds the output folder, force and the
// sample inputs.
ExportOptions exportOptions(const DeploymentTarget& target);

// The plan an export for the target writes (the same as planOptions(exportOptions(target))).
PlanOptions planOptions(const DeploymentTarget& target);

} // namespace embark::exporter

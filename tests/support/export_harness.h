// Builds many export folders into ONE binary (kernels compiled once, models batched into a
// few translation units with renamed symbols) and runs each model on its embedded sample.
#pragma once

#include "export/exporter.h"
#include "ir/error.h"
#include "ir/tensor.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <string>
#include <vector>

namespace embark::test {

struct HarnessEntry {
    std::string id;    // printed in messages, e.g. "node/test_relu"
    QString exportDir; // a folder written by exporter::exportModel
};

struct HarnessOutput {
    std::string name;
    ir::Tensor data;    // float32, model layout, read back from the harness's output file
    double maxAbs = 0;  // vs the export's embedded expected output (the reference's)
    double maxRef = 0;  // max |expected|
    bool finite = true; // no NaN in |got - expected|
};

struct HarnessLayer {
    int index = 0;
    std::string node, lib;
    std::vector<std::string> provenance; // original ONNX node names
    std::string value;                   // the layer's output value name
    ir::Tensor data;                     // model layout (what forwardDump gives)
};

enum class HarnessStatus { Ok, BuildFailed, InitFailed, Crashed, NotRun };

struct HarnessResult {
    std::string id;
    HarnessStatus status = HarnessStatus::NotRun;
    std::string message; // the compiler's / init's / crash's message when not Ok
    std::vector<HarnessOutput> outputs;
    std::vector<HarnessLayer> layers; // only with HarnessOptions::dumpLayers
};

struct HarnessOptions {
    QString workDir;         // the generated project, its build folder and the outputs
    bool dumpLayers = false; // run forwardDump and read every layer back
    int jobs = 2;
    int modelsPerUnit = 24;     // models per translation unit (headers are parsed once per unit)
    QString modelFlags = "-O1"; // model.cpp is straight-line calls; the kernels get -O3
    int timeoutMs = 20 * 60 * 1000;
    // Cross builds for a simulated board: extra configure arguments (the board's toolchain
    // file, EMBARK_TARGET_FLAGS, XNNPACK_ROOT) and the command line the harness runs under
    // (e.g. qemu-riscv64-static -cpu rv64,v=true,vlen=128 -L /usr/riscv64-linux-gnu).
    QStringList cmakeArgs;
    QStringList execPrefix;
    std::function<void(const QString&)> log; // progress lines
};

// Export and harness options for models run on `boardId`: for a simulated board the board's
// flags and cross toolchain, and the harness built with that toolchain and run under the
// board's qemu prefix; with `upstream`, XNNPACK linked from ../shared/xnnpack/prebuilt/<arch>.
// An Unsupported error says why the row cannot run on this machine (a missing cross tool,
// qemu or tree: the caller skips with it); other errors are failures.
struct HarnessTarget {
    exporter::ExportOptions exportOptions; // board, arch, flags, toolchain, XNNPACK availability
    HarnessOptions harness;                // cmakeArgs and execPrefix (workDir left to the caller)
    QString arch;
};
Expected<HarnessTarget> harnessTarget(const QString& boardId, bool upstream);

// Generates, builds and runs the harness. One result per entry, in order. A model whose code
// does not compile is BuildFailed (with the compiler's message) and the rest still run; one
// that crashes is Crashed and the harness restarts after it. An Error means the harness
// itself could not be built (configure or link failure) or run.
Expected<std::vector<HarnessResult>> runExportHarness(const std::vector<HarnessEntry>& entries,
                                                      const HarnessOptions& options);

const char* harnessStatusName(HarnessStatus s);

// Empty when every result ran, agrees with the reference its export embeds within `tol` (of the
// reference's largest magnitude) and equals `expected[i]` (one tensor per output, e.g. ONNX
// Runtime's) element by element within `tol` relative; else the first difference, named.
std::string compareHarnessResults(const std::vector<HarnessResult>& results,
                                  const std::vector<std::vector<ir::Tensor>>& expected, double tol);

} // namespace embark::test

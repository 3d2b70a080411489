// The export's vocabulary: the options an export is made with and what it reports. Lower
// parts of the exporter (manifest, model source, deployment plan, deployment target) include
// this, never exporter.h, which declares the entry points over them.
#pragma once

#include "concat_in_place.h"
#include "measured_choice.h"
#include "ir/graph.h"

#include <QString>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace embark::exporter {

// Which XNNPACK the export links (xnnpack::resolveXnnpack, filled by the caller), recorded in
// export.json; `root` becomes XNNPACK_ROOT's default in the export's CMakeLists.txt.
struct XnnpackLink {
    std::string kind = "none"; // user, embark-built, debian, none
    std::string path;
    std::string root; // empty: xnnpack.cmake finds Debian's library itself
    std::string commit;
    std::string api;
};

// What element type a quantized (QDQ) model computes in: Int8 fuses its quantized operators into
// int8 kernels (fuse_qdq) where the library has them; Float32 keeps QuantizeLinear and
// DequantizeLinear as they are, so every operator computes in float32 between them (the model's
// simulated quantization, as ONNX Runtime runs it with its QDQ optimisations off). Float models
// are the same under both.
enum class DTypePolicy { Int8, Float32 };
// "int8", "float32" (false for anything else).
bool parseDTypePolicy(const std::string& text, DTypePolicy* out);
const char* dtypePolicyName(DTypePolicy p);

struct ExportOptions {
    std::string library = "portable"; // --lib
    std::string arch;                 // --arch; empty = the host's
    std::string board = "host";       // recorded in export.json
    std::string targetFlags;          // the board's -march/-mabi/-mcpu flags
    QString toolchainFile;            // copied to toolchain.cmake (cross builds)
    int threadsMax = 0;               // --threads-max: cap for run_export --threads (0: none)
    std::string recipe = "default";
    std::map<std::string, std::string> opOverrides;
    std::map<std::string, std::string> nodeOverrides;
    bool havePrebuiltXnnpack = false;
    ConcatInPlace concatInPlace = ConcatInPlace::Auto; // --concat-in-place
    DTypePolicy dtypePolicy = DTypePolicy::Int8;       // --dtype-policy
    // --lib auto: the measurements behind each node's library (library is then "portable",
    // the library of the nodes the measurements do not cover).
    std::shared_ptr<const MeasuredChoice> measured;
    XnnpackLink xnnpack;
    QString outDir;     // -o
    bool force = false; // replace a non-empty folder
    // Sample inputs embedded in the export (model layout); empty = deterministic random data
    // in [0, 1). The host reference's outputs for them become the expected outputs.
    std::map<std::string, ir::Tensor> sampleInputs;
    QString runtimeDir; // runtime; empty = the installed one
};

struct ExportResult {
    QString dir;
    int layers = 0;
    size_t arenaBytes = 0;
    size_t lowerBoundBytes = 0;
    int64_t weightsBytes = 0;
    std::vector<std::string> libraries;
    int partitions = 0;
    int conversions = 0;
    std::string exportHash; // sha256 of model.cpp + weights.bin
    std::vector<std::string> log;
};

std::string hostArch(); // "x86_64", "aarch64", "riscv64"

// The deployment-plan options an export with these options builds (deployment_plan.h). The
// one place PlanOptions are filled: the CLI's `plan`, the studio and the benchmarks reach it
// through exporter::planOptions(DeploymentTarget) (deployment_target.h), so they see the plan
// the export writes.
struct PlanOptions;
PlanOptions planOptions(const ExportOptions& options);

} // namespace embark::exporter

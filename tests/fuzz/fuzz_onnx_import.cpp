// libFuzzer target: arbitrary bytes as an ONNX model through the whole importer (protobuf
// parse, checker, shape inference, opset normalisation, initializers, external data).
#include "onnx/importer.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

// An empty folder of its own, so external-data references resolve against nothing real and a
// fuzzed path can only point outside it (which the importer must refuse).
const std::string& modelDir() {
    static const std::string dir = [] {
        std::string pattern = (std::filesystem::temp_directory_path() / "embark_fuzz_onnx_XXXXXX").string();
        const char* made = mkdtemp(pattern.data());
        return std::string(made ? made : "/nonexistent/embark_fuzz_onnx");
    }();
    return dir;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    embark::onnx::ImportOptions options;
    options.runChecker = true;
    auto graph = embark::onnx::importModelFromBytes(bytes, modelDir(), "fuzz.onnx", options);
    if (!graph) (void)graph.error().message; // an Error value is the expected outcome for garbage
    return 0;
}

// libFuzzer target: arbitrary bytes as a tensor file through the .pb (TensorProto), .npy and
// raw readers. There is no in-memory entry point, so each input goes through a temp file.
#include "onnx/tensor_io.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

std::string tempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "embark_fuzz_tensor_XXXXXX").string();
    const char* made = mkdtemp(pattern.data());
    return made ? std::string(made) : std::string("/tmp");
}

bool writeFile(const std::string& path, const uint8_t* data, size_t size) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return false;
    const bool ok = std::fwrite(data, 1, size, f) == size;
    return std::fclose(f) == 0 && ok;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string dir = tempDir();
    static const std::string pb = dir + "/input_0.pb", npy = dir + "/input_0.npy", raw = dir + "/input_0.bin";
    using embark::ir::DType;
    if (writeFile(pb, data, size))
        (void)embark::onnx::readTensorFile(pb);
    if (writeFile(npy, data, size))
        (void)embark::onnx::readTensorFile(npy);
    if (writeFile(raw, data, size)) {
        // The first byte picks a raw dtype/shape, so both size matches and mismatches occur.
        const int64_t n = size ? data[0] % 17 : 0;
        (void)embark::onnx::readRaw(raw, size && (data[0] & 0x80) ? DType::UInt8 : DType::Float32,
                                    embark::ir::Shape{n, 2});
    }
    return 0;
}

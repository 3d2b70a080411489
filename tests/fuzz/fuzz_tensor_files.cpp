// libFuzzer target: arbitrary bytes as a tensor file through the .pb (TensorProto), .npy and
// raw readers. There is no in-memory entry point, so each input goes through a temp file.
#include "onnx/tensor_io.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

// In /dev/shm when there is one: a tmpfs keeps the per-input file write cheap.
std::string tempDir() {
    const std::filesystem::path base =
        std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    std::string pattern = (base / "embark_fuzz_tensor_XXXXXX").string();
    const char* made = mkdtemp(pattern.data());
    return made ? std::string(made) : std::string("/tmp");
}

bool writeFile(const std::string& path, const uint8_t* data, size_t size) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const bool ok = std::fwrite(data, 1, size, f) == size;
    return std::fclose(f) == 0 && ok;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // One inode under three names: a single write per input feeds all three readers.
    static const std::string dir = tempDir();
    static const std::string pb = dir + "/input_0.pb", npy = dir + "/input_0.npy", raw = dir + "/input_0.bin";
    static const bool linked =
        writeFile(pb, data, 0) && link(pb.c_str(), npy.c_str()) == 0 && link(pb.c_str(), raw.c_str()) == 0;
    if (!linked || !writeFile(pb, data, size)) return 0;
    using embark::ir::DType;
    (void)embark::onnx::readTensorFile(pb);
    (void)embark::onnx::readTensorFile(npy);
    // The first byte picks a raw dtype/shape, so both size matches and mismatches occur.
    const int64_t n = size ? data[0] % 17 : 0;
    (void)embark::onnx::readRaw(raw, size && (data[0] & 0x80) ? DType::UInt8 : DType::Float32, embark::ir::Shape{n, 2});
    return 0;
}

// run_export: runs the exported model and speaks the JSON-Lines run protocol on stdout
// (DESIGN.md). Exit status: 0 ok, 1 --check failed, 2 usage, 4 bad input file, 5 failure
// while initialising or running the model.
#include "model_api.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock; // monotonic

struct Options {
    std::vector<std::string> inputs;
    int warmup = 1;
    int iterations = 1;
    int threads = 1;
    bool layers = false;
    std::string dumpDir;
    std::string outDir = "out";
    bool check = false;
    double tolerance = 1e-4;
};

void usage(const char* message) {
    std::fprintf(stderr,
                 "run_export: %s\n"
                 "usage: run_export [--input FILE]... [--warmup W] [--iterations N] [--threads T]\n"
                 "                  [--layers] [--dump DIR] [--out DIR] [--check TOL]\n"
                 "  --input FILE  float32 input in the model's layout: raw little-endian .bin or .npy;\n"
                 "                default: the embedded sample input\n"
                 "exit status: 0 ok, 1 check failed, 2 usage, 4 bad input file, 5 model failure\n",
                 message);
}

bool parseInt(const char* s, int* out, int minimum) {
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (!*s || *end || v < minimum || v > 1000000000) return false;
    *out = static_cast<int>(v);
    return true;
}

// Writes a string as a JSON string literal.
std::string jsonString(const char* s) {
    std::string out = "\"";
    for (; *s; ++s) {
        const unsigned char c = static_cast<unsigned char>(*s);
        if (c == '"' || c == '\\') { out += '\\'; out += static_cast<char>(c); }
        else if (c < 0x20) { char buf[8]; std::snprintf(buf, sizeof buf, "\\u%04x", c); out += buf; }
        else out += static_cast<char>(c);
    }
    return out + "\"";
}

std::string jsonNumber(double v) {
    if (std::isnan(v) || std::isinf(v)) return "null";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

std::string shapeJson(const embark_model::TensorInfo& t) {
    std::string s = "[";
    for (int i = 0; i < t.rank; ++i) s += (i ? "," : "") + std::to_string(t.dims[i]);
    return s + "]";
}

bool makeDir(const std::string& dir) {
    std::string partial;
    for (size_t i = 0; i <= dir.size(); ++i) {
        if (i == dir.size() || dir[i] == '/') {
            if (!partial.empty() && mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) return false;
        }
        if (i < dir.size()) partial += dir[i];
    }
    return true;
}

// A file name from a node name: [A-Za-z0-9._-] kept, anything else becomes '_'.
std::string safeName(const char* name) {
    std::string s;
    for (; *name; ++name) {
        const char c = *name;
        s += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
    }
    if (s.empty() || s == "." || s == "..") s = "node";
    return s;
}

// Reads a float32 input: .npy (little-endian '<f4', C order) or raw .bin; checks the size.
bool readInput(const std::string& path, const embark_model::TensorInfo& info, std::vector<float>& out) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) { std::fprintf(stderr, "run_export: cannot open input '%s': %s\n", path.c_str(), std::strerror(errno)); return false; }
    std::vector<char> bytes;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
    std::fclose(f);
    size_t offset = 0;
    if (bytes.size() >= 10 && std::memcmp(bytes.data(), "\x93NUMPY", 6) == 0) {
        const int major = static_cast<unsigned char>(bytes[6]);
        size_t headerLen = 0, pre = 0;
        if (major == 1) { headerLen = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8); pre = 10; }
        else if (bytes.size() >= 12) { headerLen = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8) |
                                                   (static_cast<size_t>(static_cast<unsigned char>(bytes[10])) << 16) |
                                                   (static_cast<size_t>(static_cast<unsigned char>(bytes[11])) << 24); pre = 12; }
        if (pre == 0 || pre + headerLen > bytes.size()) { std::fprintf(stderr, "run_export: '%s' has a broken .npy header\n", path.c_str()); return false; }
        const std::string header(bytes.data() + pre, headerLen);
        if (header.find("'<f4'") == std::string::npos || header.find("'fortran_order': True") != std::string::npos) {
            std::fprintf(stderr, "run_export: '%s' must be little-endian float32 in C order ('<f4')\n", path.c_str());
            return false;
        }
        offset = pre + headerLen;
    }
    const size_t expected = static_cast<size_t>(info.numel) * sizeof(float);
    if (bytes.size() - offset != expected) {
        std::fprintf(stderr, "run_export: input '%s' holds %zu bytes but input '%s' (shape %s, float32) needs %zu\n",
                     path.c_str(), bytes.size() - offset, info.name, shapeJson(info).c_str(), expected);
        return false;
    }
    out.resize(static_cast<size_t>(info.numel));
    std::memcpy(out.data(), bytes.data() + offset, expected);
    return true;
}

bool writeFile(const std::string& path, const void* data, size_t size) {
    const std::string tmp = path + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) return false;
    const bool ok = std::fwrite(data, 1, size, f) == size && std::fclose(f) == 0;
    if (!ok) { std::remove(tmp.c_str()); return false; }
    return std::rename(tmp.c_str(), path.c_str()) == 0;
}

struct DumpState {
    std::string dir;
    bool failed = false;
};

void dumpLayer(int layer, const float* data, void* user) {
    auto* state = static_cast<DumpState*>(user);
    const embark_model::LayerInfo& l = embark_model::kLayers[layer];
    const std::string file = state->dir + "/" + std::to_string(layer) + "_" + safeName(l.name) + ".bin";
    if (!writeFile(file, data, static_cast<size_t>(l.output.numel) * sizeof(float))) { state->failed = true; return; }
    std::printf("{\"type\":\"dump\",\"layer\":%d,\"node\":%s,\"lib\":%s,\"shape\":%s,\"file\":%s}\n", layer,
                jsonString(l.name).c_str(), jsonString(l.lib).c_str(), shapeJson(l.output).c_str(),
                jsonString(file.c_str()).c_str());
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&](const char* what) -> const char* {
            if (i + 1 >= argc) { usage((std::string(what) + " needs a value").c_str()); std::exit(2); }
            return argv[++i];
        };
        if (a == "--input") o.inputs.push_back(next("--input"));
        else if (a == "--warmup") { if (!parseInt(next("--warmup"), &o.warmup, 0)) { usage("--warmup must be >= 0"); return 2; } }
        else if (a == "--iterations") { if (!parseInt(next("--iterations"), &o.iterations, 1)) { usage("--iterations must be >= 1"); return 2; } }
        else if (a == "--threads") { if (!parseInt(next("--threads"), &o.threads, 1)) { usage("--threads must be >= 1"); return 2; } }
        else if (a == "--layers") o.layers = true;
        else if (a == "--dump") o.dumpDir = next("--dump");
        else if (a == "--out") o.outDir = next("--out");
        else if (a == "--check") {
            const char* v = next("--check");
            char* end = nullptr;
            o.tolerance = std::strtod(v, &end);
            if (!*v || *end || !(o.tolerance >= 0)) { usage("--check needs a non-negative tolerance"); return 2; }
            o.check = true;
        } else if (a == "--help" || a == "-h") { usage("runs the exported model"); return 0; }
        else { usage(("unknown option '" + a + "'").c_str()); return 2; }
    }
    using namespace embark_model;
    if (o.check && !o.inputs.empty()) {
        usage("--check compares with the expected outputs of the embedded sample input; leave out --input");
        return 2;
    }
    if (!o.inputs.empty() && static_cast<int>(o.inputs.size()) != kNumInputs) {
        usage(("the model has " + std::to_string(kNumInputs) + " input(s) but " + std::to_string(o.inputs.size()) + " --input given").c_str());
        return 2;
    }

    std::vector<std::vector<float>> inputData(static_cast<size_t>(kNumInputs));
    std::vector<const float*> inputs(static_cast<size_t>(kNumInputs));
    for (int k = 0; k < kNumInputs; ++k) {
        if (o.inputs.empty()) { inputs[static_cast<size_t>(k)] = sampleInput(k); continue; }
        if (!readInput(o.inputs[static_cast<size_t>(k)], kInputs[k], inputData[static_cast<size_t>(k)])) return 4;
        inputs[static_cast<size_t>(k)] = inputData[static_cast<size_t>(k)].data();
    }
    std::vector<std::vector<float>> outputData(static_cast<size_t>(kNumOutputs));
    std::vector<float*> outputs(static_cast<size_t>(kNumOutputs));
    for (int k = 0; k < kNumOutputs; ++k) {
        outputData[static_cast<size_t>(k)].assign(static_cast<size_t>(kOutputs[k].numel), 0.f);
        outputs[static_cast<size_t>(k)] = outputData[static_cast<size_t>(k)].data();
    }

    std::printf("{\"type\":\"meta\",\"model\":%s,\"arch\":%s,\"libs\":[", jsonString(kModelName).c_str(), jsonString(kArch).c_str());
    {
        std::string libs = kLibs;
        size_t start = 0;
        bool first = true;
        while (start <= libs.size()) {
            size_t end = libs.find(',', start);
            if (end == std::string::npos) end = libs.size();
            if (end > start) { std::printf("%s%s", first ? "" : ",", jsonString(libs.substr(start, end - start).c_str()).c_str()); first = false; }
            start = end + 1;
        }
    }
    // The meta line reports the threads the model runs, which the export's --threads-max caps;
    // a larger request is kept as threads_requested.
    const int requested = o.threads;
    if (kThreadsMax > 0 && o.threads > kThreadsMax) o.threads = kThreadsMax;
    std::printf("],\"arena_bytes\":%zu,\"layers\":%d,\"threads\":%d,", kArenaBytes, kNumLayers, o.threads);
    if (requested != o.threads) std::printf("\"threads_requested\":%d,\"threads_max\":%d,", requested, kThreadsMax);
    std::printf("\"warmup\":%d,\"iterations\":%d}\n", o.warmup, o.iterations);
    std::fflush(stdout);

    char error[512] = {0};
    if (!init(o.threads, error, sizeof error)) {
        std::printf("{\"type\":\"error\",\"stage\":\"init\",\"message\":%s}\n", jsonString(error).c_str());
        std::fprintf(stderr, "run_export: initialisation failed: %s\n", error);
        return 5;
    }

    for (int w = 0; w < o.warmup; ++w) forward(inputs.data(), outputs.data());
    std::vector<uint64_t> layerNs(static_cast<size_t>(kNumLayers > 0 ? kNumLayers : 1));
    for (int it = 0; it < o.iterations; ++it) {
        const auto t0 = Clock::now();
        if (o.layers) forwardProfiled(inputs.data(), outputs.data(), layerNs.data());
        else forward(inputs.data(), outputs.data());
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
        std::printf("{\"type\":\"latency\",\"iteration\":%d,\"ns\":%lld}\n", it, static_cast<long long>(ns));
        if (o.layers)
            for (int l = 0; l < kNumLayers; ++l)
                std::printf("{\"type\":\"layer\",\"iteration\":%d,\"index\":%d,\"node\":%s,\"lib\":%s,\"ns\":%llu}\n", it, l,
                            jsonString(kLayers[l].name).c_str(), jsonString(kLayers[l].lib).c_str(),
                            static_cast<unsigned long long>(layerNs[static_cast<size_t>(l)]));
        std::fflush(stdout);
    }

    if (!o.dumpDir.empty()) {
        if (!makeDir(o.dumpDir)) { std::fprintf(stderr, "run_export: cannot create dump folder '%s'\n", o.dumpDir.c_str()); shutdown(); return 5; }
        DumpState state{o.dumpDir};
        forwardDump(inputs.data(), outputs.data(), dumpLayer, &state);
        if (state.failed) { std::fprintf(stderr, "run_export: writing dumps into '%s' failed\n", o.dumpDir.c_str()); shutdown(); return 5; }
    }

    bool allOk = true;
    const bool writeOutputs = makeDir(o.outDir);
    for (int k = 0; k < kNumOutputs; ++k) {
        const TensorInfo& info = kOutputs[k];
        const float* data = outputs[static_cast<size_t>(k)];
        std::string file = o.outDir + "/" + safeName(info.name) + ".bin";
        if (!writeOutputs || !writeFile(file, data, static_cast<size_t>(info.numel) * sizeof(float))) file.clear();
        std::string head = "[";
        for (int64_t i = 0; i < std::min<int64_t>(info.numel, 10); ++i) head += (i ? "," : "") + jsonNumber(data[i]);
        head += "]";
        std::printf("{\"type\":\"output\",\"name\":%s,\"shape\":%s,\"file\":%s,\"head\":%s}\n", jsonString(info.name).c_str(),
                    shapeJson(info).c_str(), file.empty() ? "null" : jsonString(file.c_str()).c_str(), head.c_str());
        if (o.check) {
            const float* ref = expectedOutput(k);
            double maxAbs = 0, maxRef = 0;
            bool nan = false;
            for (int64_t i = 0; i < info.numel; ++i) {
                const double d = std::fabs(static_cast<double>(data[i]) - ref[i]);
                if (std::isnan(d)) nan = true;
                maxAbs = std::max(maxAbs, d);
                maxRef = std::max(maxRef, std::fabs(static_cast<double>(ref[i])));
            }
            const bool ok = !nan && maxAbs <= o.tolerance * std::max(maxRef, 1e-30);
            allOk = allOk && ok;
            std::printf("{\"type\":\"check\",\"output\":%s,\"max_abs\":%s,\"max_rel\":%s,\"tolerance\":%s,\"ok\":%s}\n",
                        jsonString(info.name).c_str(), nan ? "null" : jsonNumber(maxAbs).c_str(),
                        nan ? "null" : jsonNumber(maxAbs / std::max(maxRef, 1e-30)).c_str(), jsonNumber(o.tolerance).c_str(),
                        ok ? "true" : "false");
        }
    }
    std::fflush(stdout);
    shutdown();
    return allOk ? 0 : 1;
}

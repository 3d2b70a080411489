// run_export: runs the exported model and speaks the JSON-Lines run protocol on stdout
// (DESIGN.md). Exit status: 0 ok, 1 --check failed, 2 usage, 4 bad input file, 5 failure
// while initialising or running the model.
#include "model_api.h"
#include "output_compact.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
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
                 "  --input FILE  an input in the model's layout and element type: .npy, .pb (TensorProto)\n"
                 "                or raw little-endian .bin; default: the embedded sample input\n"
                 "  --out DIR     where each output is written as raw little-endian .bin (default: out)\n"
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
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else
            out += static_cast<char>(c);
    }
    return out + "\"";
}

std::string jsonNumber(double v) {
    if (std::isnan(v) || std::isinf(v)) return "null";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

std::string dimsJson(int rank, const int64_t* dims) {
    std::string s = "[";
    for (int i = 0; i < rank; ++i) s += (i ? "," : "") + std::to_string(dims[i]);
    return s + "]";
}

std::string shapeJson(const embark_model::TensorInfo& t) { return dimsJson(t.rank, t.dims); }

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

const char* dtypeName(int dtype) {
    switch (dtype) {
    case embark_model::kFloat32: return "float32";
    case embark_model::kUInt8: return "uint8";
    case embark_model::kInt8: return "int8";
    case embark_model::kInt32: return "int32";
    case embark_model::kInt64: return "int64";
    case embark_model::kBool: return "bool";
    case embark_model::kFloat16: return "float16";
    case embark_model::kFloat64: return "float64";
    case embark_model::kInt16: return "int16";
    case embark_model::kUInt16: return "uint16";
    case embark_model::kUInt32: return "uint32";
    case embark_model::kUInt64: return "uint64";
    }
    return "unknown";
}

size_t dtypeBytes(int dtype) {
    switch (dtype) {
    case embark_model::kUInt8:
    case embark_model::kInt8:
    case embark_model::kBool: return 1;
    case embark_model::kFloat16:
    case embark_model::kInt16:
    case embark_model::kUInt16: return 2;
    case embark_model::kInt64:
    case embark_model::kUInt64:
    case embark_model::kFloat64: return 8;
    }
    return 4;
}

// The .npy descr of a dtype, as numpy writes it ('<i8', '|b1', ...).
const char* npyDescr(int dtype) {
    switch (dtype) {
    case embark_model::kFloat32: return "<f4";
    case embark_model::kUInt8: return "|u1";
    case embark_model::kInt8: return "|i1";
    case embark_model::kInt32: return "<i4";
    case embark_model::kInt64: return "<i8";
    case embark_model::kBool: return "|b1";
    case embark_model::kFloat16: return "<f2";
    case embark_model::kFloat64: return "<f8";
    case embark_model::kInt16: return "<i2";
    case embark_model::kUInt16: return "<u2";
    case embark_model::kUInt32: return "<u4";
    case embark_model::kUInt64: return "<u8";
    }
    return "";
}

float halfToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    if (exp == 0) return (sign ? -1.f : 1.f) * std::ldexp(static_cast<float>(mant), -24);
    uint32_t bits = exp == 0x1f ? (sign | 0x7f800000u | (mant << 13)) : (sign | ((exp + 112) << 23) | (mant << 13));
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// Element i of a tensor of `dtype` as a double (for the head of an output and --check).
double elementAt(const void* data, int dtype, int64_t i) {
    switch (dtype) {
    case embark_model::kUInt8:
    case embark_model::kBool: return static_cast<const uint8_t*>(data)[i];
    case embark_model::kInt8: return static_cast<const int8_t*>(data)[i];
    case embark_model::kInt32: return static_cast<const int32_t*>(data)[i];
    case embark_model::kInt64: return static_cast<double>(static_cast<const int64_t*>(data)[i]);
    case embark_model::kFloat16: return halfToFloat(static_cast<const uint16_t*>(data)[i]);
    case embark_model::kFloat64: return static_cast<const double*>(data)[i];
    case embark_model::kInt16: return static_cast<const int16_t*>(data)[i];
    case embark_model::kUInt16: return static_cast<const uint16_t*>(data)[i];
    case embark_model::kUInt32: return static_cast<const uint32_t*>(data)[i];
    case embark_model::kUInt64: return static_cast<double>(static_cast<const uint64_t*>(data)[i]);
    }
    return static_cast<const float*>(data)[i];
}

// A minimal protobuf reader for onnx.TensorProto (the test_data_set_N/input_K.pb files).
struct ProtoReader {
    const unsigned char* p;
    const unsigned char* end;
    bool ok = true;
    uint64_t varint() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p >= end) {
                ok = false;
                return 0;
            }
            const unsigned char b = *p++;
            v |= static_cast<uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        ok = false;
        return 0;
    }
    bool bytes(const unsigned char** data, size_t* size) {
        const uint64_t n = varint();
        if (!ok || n > static_cast<uint64_t>(end - p)) {
            ok = false;
            return false;
        }
        *data = p;
        *size = static_cast<size_t>(n);
        p += n;
        return true;
    }
    bool skip(int wire) {
        const unsigned char* d;
        size_t n;
        switch (wire) {
        case 0: varint(); return ok;
        case 1:
            if (end - p < 8) return ok = false;
            p += 8;
            return true;
        case 2: return bytes(&d, &n);
        case 5:
            if (end - p < 4) return ok = false;
            p += 4;
            return true;
        }
        return ok = false;
    }
};

// Decodes a TensorProto into the element type's little-endian bytes; false with `error` set.
bool decodeTensorProto(const std::vector<char>& file, std::vector<char>& out, int* dtype, std::vector<int64_t>* dims,
                       std::string* error) {
    ProtoReader r{reinterpret_cast<const unsigned char*>(file.data()),
                  reinterpret_cast<const unsigned char*>(file.data()) + file.size()};
    std::vector<uint64_t> ints; // int32_data / int64_data / uint64_data, in order
    std::vector<char> floats, doubles, raw;
    bool haveRaw = false;
    *dtype = 0;
    while (r.ok && r.p < r.end) {
        const uint64_t key = r.varint();
        const int field = static_cast<int>(key >> 3), wire = static_cast<int>(key & 7);
        if (!r.ok) break;
        if (field == 1 && wire == 0)
            dims->push_back(static_cast<int64_t>(r.varint()));
        else if (field == 2 && wire == 0)
            *dtype = static_cast<int>(r.varint());
        else if (field == 9 && wire == 2) {
            const unsigned char* d;
            size_t n;
            if (r.bytes(&d, &n)) {
                raw.assign(d, d + n);
                haveRaw = true;
            }
        } else if ((field == 1 || field == 5 || field == 7 || field == 11) && wire == 2) { // packed varints
            const unsigned char* d;
            size_t n;
            if (!r.bytes(&d, &n)) break;
            ProtoReader inner{d, d + n};
            while (inner.ok && inner.p < inner.end) {
                const uint64_t v = inner.varint();
                if (field == 1)
                    dims->push_back(static_cast<int64_t>(v));
                else
                    ints.push_back(v);
            }
            r.ok = inner.ok;
        } else if ((field == 5 || field == 7 || field == 11) && wire == 0)
            ints.push_back(r.varint());
        else if (field == 10 && wire == 2) { // double_data, packed
            const unsigned char* d;
            size_t n;
            if (r.bytes(&d, &n)) doubles.insert(doubles.end(), d, d + n);
        } else if (field == 10 && wire == 1) {
            if (r.end - r.p < 8) {
                r.ok = false;
                break;
            }
            doubles.insert(doubles.end(), r.p, r.p + 8);
            r.p += 8;
        } else if (field == 4 && wire == 2) {
            const unsigned char* d;
            size_t n;
            if (r.bytes(&d, &n)) floats.insert(floats.end(), d, d + n);
        } else if (field == 4 && wire == 5) {
            if (r.end - r.p < 4) {
                r.ok = false;
                break;
            }
            floats.insert(floats.end(), r.p, r.p + 4);
            r.p += 4;
        } else if (field == 14 && wire == 0) {
            if (r.varint() == 1) {
                *error = "its data is stored externally; pass a .npy or .bin instead";
                return false;
            }
        } else
            r.skip(wire);
    }
    if (!r.ok) {
        *error = "it is not a valid TensorProto";
        return false;
    }
    const size_t bytes = dtypeBytes(*dtype);
    if (haveRaw)
        out = raw;
    else if (*dtype == embark_model::kFloat32)
        out = floats;
    else if (*dtype == embark_model::kFloat64)
        out = doubles;
    else {
        out.assign(ints.size() * bytes, 0);
        for (size_t i = 0; i < ints.size(); ++i) {
            const uint64_t v = ints[i];
            std::memcpy(out.data() + i * bytes, &v, bytes); // little-endian: the low bytes
        }
    }
    return true;
}

// Reads one input in its element type: .npy (little-endian, C order), .pb (onnx.TensorProto)
// or raw little-endian .bin; checks the type and the size.
bool readInput(const std::string& path, const embark_model::TensorInfo& info, std::vector<char>& out) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        std::fprintf(stderr, "run_export: cannot open input '%s': %s\n", path.c_str(), std::strerror(errno));
        return false;
    }
    std::vector<char> bytes;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
    std::fclose(f);
    const size_t expected = static_cast<size_t>(info.numel) * dtypeBytes(info.dtype);
    const auto wrongType = [&](const std::string& given) {
        std::fprintf(stderr, "run_export: input '%s' holds %s but input '%s' (shape %s) is %s\n", path.c_str(),
                     given.c_str(), info.name, shapeJson(info).c_str(), dtypeName(info.dtype));
        return false;
    };
    const bool isPb = path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0;
    if (bytes.size() >= 10 && std::memcmp(bytes.data(), "\x93NUMPY", 6) == 0) {
        const int major = static_cast<unsigned char>(bytes[6]);
        size_t headerLen = 0, pre = 0;
        if (major == 1) {
            headerLen = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
            pre = 10;
        } else if (bytes.size() >= 12) {
            headerLen = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8) |
                        (static_cast<size_t>(static_cast<unsigned char>(bytes[10])) << 16) |
                        (static_cast<size_t>(static_cast<unsigned char>(bytes[11])) << 24);
            pre = 12;
        }
        if (pre == 0 || pre + headerLen > bytes.size()) {
            std::fprintf(stderr, "run_export: '%s' has a broken .npy header\n", path.c_str());
            return false;
        }
        const std::string header(bytes.data() + pre, headerLen);
        if (header.find("'fortran_order': True") != std::string::npos) {
            std::fprintf(stderr, "run_export: '%s' must be in C order (fortran_order False)\n", path.c_str());
            return false;
        }
        const size_t d = header.find("'descr':");
        const size_t q1 = d == std::string::npos ? d : header.find('\'', d + 8);
        const size_t q2 = q1 == std::string::npos ? q1 : header.find('\'', q1 + 1);
        if (q2 == std::string::npos) {
            std::fprintf(stderr, "run_export: '%s' has no dtype in its .npy header\n", path.c_str());
            return false;
        }
        std::string descr = header.substr(q1 + 1, q2 - q1 - 1);
        if (descr.size() == 3 && descr[0] == '=') descr[0] = '<';
        if ((descr == "<u1" || descr == "<i1" || descr == "<b1")) descr[0] = '|';
        if (descr != npyDescr(info.dtype)) return wrongType("'" + descr + "' (.npy)");
        bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(pre + headerLen));
    } else if (isPb) {
        std::vector<char> data;
        std::vector<int64_t> dims;
        int dtype = 0;
        std::string error;
        if (!decodeTensorProto(bytes, data, &dtype, &dims, &error)) {
            std::fprintf(stderr, "run_export: '%s': %s\n", path.c_str(), error.c_str());
            return false;
        }
        if (dtype != info.dtype)
            return wrongType(std::string(dtypeName(dtype)) + " (TensorProto data_type " + std::to_string(dtype) + ")");
        bytes.swap(data);
    }
    if (bytes.size() != expected) {
        std::fprintf(stderr, "run_export: input '%s' holds %zu bytes but input '%s' (shape %s, %s) needs %zu\n",
                     path.c_str(), bytes.size(), info.name, shapeJson(info).c_str(), dtypeName(info.dtype), expected);
        return false;
    }
    out.swap(bytes);
    return true;
}

bool writeFile(const std::string& path, const void* data, size_t size) {
    const std::string tmp = path + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) return false;
    const bool ok = std::fwrite(data, 1, size, f) == size && std::fclose(f) == 0;
    if (!ok) {
        std::remove(tmp.c_str());
        return false;
    }
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
    if (!writeFile(file, data, static_cast<size_t>(l.output.numel) * sizeof(float))) {
        state->failed = true;
        return;
    }
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
            if (i + 1 >= argc) {
                usage((std::string(what) + " needs a value").c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--input")
            o.inputs.push_back(next("--input"));
        else if (a == "--warmup") {
            if (!parseInt(next("--warmup"), &o.warmup, 0)) {
                usage("--warmup must be >= 0");
                return 2;
            }
        } else if (a == "--iterations") {
            if (!parseInt(next("--iterations"), &o.iterations, 1)) {
                usage("--iterations must be >= 1");
                return 2;
            }
        } else if (a == "--threads") {
            if (!parseInt(next("--threads"), &o.threads, 1)) {
                usage("--threads must be >= 1");
                return 2;
            }
        } else if (a == "--layers")
            o.layers = true;
        else if (a == "--dump")
            o.dumpDir = next("--dump");
        else if (a == "--out")
            o.outDir = next("--out");
        else if (a == "--check") {
            const char* v = next("--check");
            char* end = nullptr;
            o.tolerance = std::strtod(v, &end);
            if (!*v || *end || !(o.tolerance >= 0)) {
                usage("--check needs a non-negative tolerance");
                return 2;
            }
            o.check = true;
        } else if (a == "--help" || a == "-h") {
            usage("runs the exported model");
            return 0;
        } else {
            usage(("unknown option '" + a + "'").c_str());
            return 2;
        }
    }
    using namespace embark_model;
    if (o.check && !o.inputs.empty()) {
        usage("--check compares with the expected outputs of the embedded sample input; leave out --input");
        return 2;
    }
    if (!o.inputs.empty() && static_cast<int>(o.inputs.size()) != kNumInputs) {
        usage(("the model has " + std::to_string(kNumInputs) + " input(s) but " + std::to_string(o.inputs.size()) +
               " --input given")
                  .c_str());
        return 2;
    }

    std::vector<std::vector<char>> inputData(static_cast<size_t>(kNumInputs));
    std::vector<const void*> inputs(static_cast<size_t>(kNumInputs));
    for (int k = 0; k < kNumInputs; ++k) {
        if (o.inputs.empty()) {
            inputs[static_cast<size_t>(k)] = sampleInput(k);
            continue;
        }
        if (!readInput(o.inputs[static_cast<size_t>(k)], kInputs[k], inputData[static_cast<size_t>(k)])) return 4;
        inputs[static_cast<size_t>(k)] = inputData[static_cast<size_t>(k)].data();
    }
    std::vector<std::vector<char>> outputData(static_cast<size_t>(kNumOutputs));
    std::vector<void*> outputs(static_cast<size_t>(kNumOutputs));
    for (int k = 0; k < kNumOutputs; ++k) {
        outputData[static_cast<size_t>(k)].assign(
            static_cast<size_t>(kOutputs[k].numel) * dtypeBytes(kOutputs[k].dtype), 0);
        outputs[static_cast<size_t>(k)] = outputData[static_cast<size_t>(k)].data();
    }

    std::printf("{\"type\":\"meta\",\"model\":%s,\"arch\":%s,\"libs\":[", jsonString(kModelName).c_str(),
                jsonString(kArch).c_str());
    {
        std::string libs = kLibs;
        size_t start = 0;
        bool first = true;
        while (start <= libs.size()) {
            size_t end = libs.find(',', start);
            if (end == std::string::npos) end = libs.size();
            if (end > start) {
                std::printf("%s%s", first ? "" : ",", jsonString(libs.substr(start, end - start).c_str()).c_str());
                first = false;
            }
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

    // A kernel that meets bad data (a Gather index out of range) throws: exit 5 with its message.
    try {
        for (int w = 0; w < o.warmup; ++w) forward(inputs.data(), outputs.data());
        std::vector<uint64_t> layerNs(static_cast<size_t>(kNumLayers > 0 ? kNumLayers : 1));
        for (int it = 0; it < o.iterations; ++it) {
            const auto t0 = Clock::now();
            if (o.layers)
                forwardProfiled(inputs.data(), outputs.data(), layerNs.data());
            else
                forward(inputs.data(), outputs.data());
            const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
            std::printf("{\"type\":\"latency\",\"iteration\":%d,\"ns\":%lld}\n", it, static_cast<long long>(ns));
            if (o.layers)
                for (int l = 0; l < kNumLayers; ++l)
                    std::printf(
                        "{\"type\":\"layer\",\"iteration\":%d,\"index\":%d,\"node\":%s,\"lib\":%s,\"ns\":%llu}\n", it,
                        l, jsonString(kLayers[l].name).c_str(), jsonString(kLayers[l].lib).c_str(),
                        static_cast<unsigned long long>(layerNs[static_cast<size_t>(l)]));
            std::fflush(stdout);
        }

        if (!o.dumpDir.empty()) {
            if (!makeDir(o.dumpDir)) {
                std::fprintf(stderr, "run_export: cannot create dump folder '%s'\n", o.dumpDir.c_str());
                shutdown();
                return 5;
            }
            DumpState state{o.dumpDir};
            forwardDump(inputs.data(), outputs.data(), dumpLayer, &state);
            if (state.failed) {
                std::fprintf(stderr, "run_export: writing dumps into '%s' failed\n", o.dumpDir.c_str());
                shutdown();
                return 5;
            }
        }
    } catch (const std::exception& e) {
        std::printf("{\"type\":\"error\",\"stage\":\"run\",\"message\":%s}\n", jsonString(e.what()).c_str());
        std::fprintf(stderr, "run_export: running the model failed: %s\n", e.what());
        shutdown();
        return 5;
    }

    bool allOk = true;
    const bool writeOutputs = makeDir(o.outDir);
    for (int k = 0; k < kNumOutputs; ++k) {
        const TensorInfo& info = kOutputs[k];
        const void* data = outputs[static_cast<size_t>(k)];
        // The run's dims: a data-dependent length (NonMaxSuppression, NonZero) was planned at its
        // upper bound, and the file and the line hold the actual shape.
        int64_t dims[8] = {};
        outputDims(k, dims);
        const int64_t numel = embark_run::compactOutput(static_cast<unsigned char*>(outputs[static_cast<size_t>(k)]),
                                                        dtypeBytes(info.dtype), info.rank, info.dims, dims);
        std::string file = o.outDir + "/" + safeName(info.name) + ".bin";
        if (!writeOutputs || !writeFile(file, data, static_cast<size_t>(numel) * dtypeBytes(info.dtype))) file.clear();
        std::string head = "[";
        for (int64_t i = 0; i < std::min<int64_t>(numel, 10); ++i)
            head += (i ? "," : "") + jsonNumber(elementAt(data, info.dtype, i));
        head += "]";
        std::printf("{\"type\":\"output\",\"name\":%s,\"shape\":%s,\"dtype\":\"%s\",\"file\":%s,\"head\":%s}\n",
                    jsonString(info.name).c_str(), dimsJson(info.rank, dims).c_str(), dtypeName(info.dtype),
                    file.empty() ? "null" : jsonString(file.c_str()).c_str(), head.c_str());
        if (o.check) {
            int64_t want[8] = {};
            expectedOutputDims(k, want);
            if (!std::equal(dims, dims + info.rank, want)) {
                allOk = false;
                std::printf("{\"type\":\"check\",\"output\":%s,\"shape\":%s,\"expected_shape\":%s,\"ok\":false}\n",
                            jsonString(info.name).c_str(), dimsJson(info.rank, dims).c_str(),
                            dimsJson(info.rank, want).c_str());
                continue;
            }
            const void* ref = expectedOutput(k);
            double maxAbs = 0, maxRef = 0;
            bool nan = false;
            for (int64_t i = 0; i < numel; ++i) {
                const double got = elementAt(data, info.dtype, i), want = elementAt(ref, info.dtype, i);
                if (std::isfinite(want)) maxRef = std::max(maxRef, std::fabs(want));
                if (got == want) continue; // also equal infinities
                const double d = std::fabs(got - want);
                if (std::isnan(d)) nan = true;
                maxAbs = std::max(maxAbs, d);
            }
            const bool ok = !nan && maxAbs <= o.tolerance * std::max(maxRef, 1e-30);
            allOk = allOk && ok;
            std::printf("{\"type\":\"check\",\"output\":%s,\"max_abs\":%s,\"max_rel\":%s,\"tolerance\":%s,\"ok\":%s}\n",
                        jsonString(info.name).c_str(), nan ? "null" : jsonNumber(maxAbs).c_str(),
                        nan ? "null" : jsonNumber(maxAbs / std::max(maxRef, 1e-30)).c_str(),
                        jsonNumber(o.tolerance).c_str(), ok ? "true" : "false");
        }
    }
    std::fflush(stdout);
    shutdown();
    return allOk ? 0 : 1;
}

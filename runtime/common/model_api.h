// The interface between a generated model (src/model.cpp) and the run_export driver
// (main.cpp). Inputs and outputs are in the ONNX model's own layout (e.g. NCHW) and element
// type (TensorInfo::dtype); any internal layout (NHWC for XNNPACK and Embark's convolution
// kernels) stays inside.
#pragma once

#include <cstddef>
#include <cstdint>

namespace embark_model {

// Element types, numbered as ONNX's TensorProto.DataType.
enum DType : int {
    kFloat32 = 1,
    kUInt8 = 2,
    kInt8 = 3,
    kUInt16 = 4,
    kInt16 = 5,
    kInt32 = 6,
    kInt64 = 7,
    kBool = 9,
    kFloat16 = 10,
    kFloat64 = 11,
    kUInt32 = 12,
    kUInt64 = 13
};

struct TensorInfo {
    const char* name;
    int rank;
    int64_t dims[8]; // model layout
    int64_t numel;
    int dtype; // DType
};

struct LayerInfo {
    const char* name;       // the export node's name
    const char* lib;        // "portable" or "xnnpack"
    const char* provenance; // original ONNX node names, comma-separated
    TensorInfo output;      // its first output, model layout (what --dump writes)
};

extern const char* const kModelName;
extern const char* const kArch;
extern const int kThreadsMax;   // export --threads-max (0: no cap); init() clamps to it
extern const char* const kLibs; // comma-separated, e.g. "xnnpack,portable"
extern const size_t kArenaBytes;
extern const int kNumInputs;
extern const int kNumOutputs;
extern const int kNumLayers;
extern const TensorInfo kInputs[];
extern const TensorInfo kOutputs[];
extern const LayerInfo kLayers[];

// Embedded sample data (data/input_K.bin and data/expected_K.bin, linked with .incbin), in
// each tensor's own element type.
const void* sampleInput(int index);
const void* expectedOutput(int index);

// Outputs whose length depends on the data (NonMaxSuppression, NonZero and what is gathered by
// them) are planned at their upper bound: kOutputs[index].dims is that capacity, and the
// output buffer holds the run's values in the first part of the data-dependent axis (rows of
// the capacity layout). outputDims writes the dims of output `index` after the last forward()
// (the capacity's for every other output); expectedOutputDims those of the embedded expected
// output (the host reference on the sample input).
void outputDims(int index, int64_t* dims);
void expectedOutputDims(int index, int64_t* dims);

// Packs weights and creates operators; false with a message on failure.
bool init(int threads, char* error, size_t errorSize);
void shutdown();

using DumpFn = void (*)(int layer, const float* data, void* user); // float32 data in model layout

// The schedule as straight-line calls. forwardProfiled stores each layer's wall-clock ns in
// layerNs[kNumLayers]; forwardDump calls fn after each layer. forward() pays for neither.
void forward(const void* const* inputs, void* const* outputs);
void forwardProfiled(const void* const* inputs, void* const* outputs, uint64_t* layerNs);
void forwardDump(const void* const* inputs, void* const* outputs, DumpFn fn, void* user);

} // namespace embark_model

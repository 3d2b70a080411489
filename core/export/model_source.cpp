// The model's C++ source (src/model.cpp of an export): each node of the adapted graph emitted
// by its kernel library into forward(), the layer tables run_export reports with, and the
// bookkeeping of the profiled and dump passes. writeExport (exporter.cpp) writes it out.
#include "model_source.h"
#include "embark_build_paths.h"

#include "concat_in_place.h"
#include "control_flow.h"
#include "kernel_libraries.h"
#include "reference/interpreter.h"

namespace embark::exporter {

namespace {

// Model-layout dims of a value whose physical shape may be NHWC.
std::vector<int64_t> modelDims(const EmitContext& ctx, const ir::Value* v) {
    auto d = v->shape.dims();
    if (ctx.isNhwc(v) && d.size() == 4) return {d[0], d[3], d[1], d[2]};
    return d;
}

// The run protocol's DType code (model_api.h: ONNX's numbering) of a tensor type; 0 for a type
// the run protocol has no code for.
int dtypeCode(ir::DType t) {
    switch (t) {
    case ir::DType::Float32: return 1;
    case ir::DType::UInt8: return 2;
    case ir::DType::Int8: return 3;
    case ir::DType::Int32: return 6;
    case ir::DType::Int64: return 7;
    case ir::DType::Bool: return 9;
    case ir::DType::Float16: return 10;
    default: return 0;
    }
}

std::string tensorInfo(const std::string& name, const std::vector<int64_t>& dims,
                       ir::DType dtype = ir::DType::Float32) {
    std::vector<int64_t> padded = dims;
    int64_t numel = 1;
    for (int64_t d : dims) numel *= d;
    padded.resize(8, 0);
    return "{" + cppString(name) + ", " + std::to_string(dims.size()) + ", " + cppInts(padded) + ", " +
           std::to_string(numel) + ", " + std::to_string(dtypeCode(dtype)) + "}";
}

std::string joined(const std::vector<std::string>& v, const char* sep) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
    return s;
}

// Graph inputs that every reader takes from the caller's buffer (graphInputReadInPlace). Readers
// never write it: each writes its own output buffer, which is kept distinct even where the plan
// let an element-wise op work in place, and a reshape alias becomes a copy.
bool readInPlace(const EmitContext& ctx, const ir::Value* v) { return graphInputReadInPlace(ctx.adaptation(), v); }

// The Mode 0 call of a fused block (see fused_blocks.h), chosen once at init() when the runtime
// can fuse it; Modes 1 and 2 and the fallback run its layers. Empty when a convolution of the
// block got no portable Conv2D object (then its layers simply run one by one).
std::string fusedBlockCall(EmitContext& ctx, const FusedBlock& b, int firstLayer) {
    const std::string flag = "g_fused_" + std::to_string(firstLayer);
    if (b.kind == FusedBlock::Kind::NchwConv) {
        auto conv = ctx.layerObjects.find(b.nodes[1]->name);
        if (conv == ctx.layerObjects.end()) return {};
        ctx.decls += "static bool " + flag + " = false;\n";
        ctx.init += "    " + flag + " = embark::portable::conv2d_reads_nchw(" + conv->second + ");\n";
        return "    // Layers " + std::to_string(firstLayer) + "-" + std::to_string(firstLayer + 1) +
               ": the convolution reads the NCHW input, transposing as it copies it, in the plain pass.\n" +
               "    if (Mode == 0 && " + flag + ") {\n    embark::portable::conv2d_nchw(" + conv->second + ", " +
               ctx.ptr(b.input) + ", " + ctx.ptr(b.output()) + ", g_pool.get());\n    } else {\n";
    }
    for (size_t i = 0; i < (b.expansion ? 3u : 2u); ++i)
        if (!ctx.layerObjects.count(b.nodes[i]->name)) return {};
    const size_t k = b.expansion ? 1 : 0;
    const std::string e = b.expansion ? "&" + ctx.layerObjects.at(b.nodes[0]->name) : std::string("nullptr");
    const std::string& d = ctx.layerObjects.at(b.nodes[k]->name);
    const std::string& p = ctx.layerObjects.at(b.nodes[k + 1]->name);
    ctx.decls += "static bool " + flag + " = false;\n";
    ctx.init += "    " + flag + " = embark::portable::bottleneck_fusable(" + e + ", " + d + ", " + p + ");\n";
    std::string call = "    // Layers " + std::to_string(firstLayer) + "-" +
                       std::to_string(firstLayer + b.nodes.size() - 1) + ": one " +
                       (b.expansion ? "inverted bottleneck" : "depthwise-separable block") +
                       ", row by row, in the plain pass.\n";
    call += "    if (Mode == 0 && " + flag + ") {\n";
    call += "    embark::portable::inverted_bottleneck(" + e + ", " + d + ", " + p + ", " + ctx.ptr(b.input) + ", " +
            ctx.ptr(b.output()) + ", " + (b.add ? ctx.ptr(b.input) : std::string("nullptr")) + ", " +
            (b.add ? portableActivation(*b.add) : std::string("embark::portable::Activation{}")) + ", g_pool.get());\n";
    call += "    } else {\n";
    return call;
}

} // namespace

Status emitNodeCode(EmitContext& ctx, const ir::Node& n) {
    ctx.forward.clear();
    // Int8 tensors run on the portable int8 kernels (fuse_qdq's ops, per-tensor
    // QuantizeLinear/DequantizeLinear, int8 data movement), tensors of other types on the
    // typed generic kernels (casts, gathers, reshapes, dynamic quantization, integer and
    // boolean arithmetic and comparisons) and in control-flow nodes; any other non-float
    // tensor is refused.
    const bool controlFlow = !n.subgraphs.empty();
    const bool typed = controlFlow || (isTypedNode(n) && ctx.library(n) == "portable");
    const bool quantized = typed || isQuantizedNode(n);
    for (const ir::Value* v : n.inputs())
        if (v && !v->isConstant() && v->dtype != ir::DType::Float32 && !quantized)
            return makeError(ErrorKind::Unsupported, "node " + n.describe() + " reads " + describeValue(v) +
                                                         " at run time; exports compute in float32, and in int8 "
                                                         "only where the fuse_qdq pass fused a quantized operator");
    const ir::Value* out = n.output(0);
    if (!out) return {};
    if (out->dtype != ir::DType::Float32 && !quantized)
        return makeError(ErrorKind::Unsupported, "node " + n.describe() + " produces " + describeValue(out) +
                                                     " at run time; exports compute in float32, and in int8 "
                                                     "only where the fuse_qdq pass fused a quantized operator");
    // XNNPACK runs the int8 ops its support table claims (QConv, QGemm, MaxPool).
    if (quantized && ctx.library(n) != "portable" &&
        !(ctx.library(n) == "xnnpack" && findKernelLibrary("xnnpack")->supports(n)))
        return makeError(ErrorKind::Unsupported, "node " + n.describe() +
                                                     " runs on int8 tensors, which only the "
                                                     "portable kernels run; assign it to portable (--override-node " +
                                                     n.name + "=portable)");
    bool allConstant = true;
    for (const ir::Value* v : n.inputs()) allConstant = allConstant && (!v || v->isConstant());
    if (allConstant && !controlFlow) {
        // Left unfolded (e.g. the recipe "none", or a node of a control-flow body): computed
        // here, once, by the reference.
        std::vector<ir::Tensor> ins;
        for (const ir::Value* v : n.inputs()) ins.push_back(v ? v->constant : ir::Tensor());
        auto outs = reference::evalNode(n, ins);
        if (!outs) return outs.error();
        for (size_t i = 0; i < n.outputs().size() && i < outs->size(); ++i)
            if (const ir::Value* v = n.output(i)) {
                // Its bytes in its own type (a float32 copy for a float32 value).
                const std::string src =
                    v->dtype == ir::DType::Float32
                        ? ctx.floats(v->name + ":folded", (*outs)[i].castTo(ir::DType::Float32).toFloatVector())
                        : "(embark_weights + " +
                              std::to_string(ctx.rawBytes(v->name + ":folded", (*outs)[i].castTo(v->dtype))) + ")";
                ctx.forward +=
                    "    std::memcpy(" + ctx.ptr(v) + ", " + src + ", " + std::to_string(v->byteSize()) + ");\n";
            }
        return {};
    }
    if (controlFlow) return emitControlFlow(ctx, n);
    EMBARK_TRY(checkStridedAccess(ctx.adaptation(), ctx.plan(), n));
    const std::string& lib = ctx.library(n);
    EMBARK_TRY(lib == "xnnpack" ? emitXnnpack(ctx, n) : emitPortable(ctx, n));
    // Dropout's mask: all true at inference (and with a ratio of 0), which is all an export runs.
    if (const ir::Value* mask = n.op == ir::OpKind::Dropout ? n.output(1) : nullptr; mask && !mask->isConstant())
        ctx.forward += "    std::memset(" + ctx.ptr(mask) + ", 1, " + std::to_string(mask->byteSize()) + ");\n";
    return {};
}

Expected<ModelSource> emitModelSource(EmitContext& ctx, const ir::Graph& g, const ExportOptions& o,
                                      const std::string& modelName, const std::vector<FusedBlock>& blocks) {
    std::string body, layerTable, layerPhys;
    int layer = 0;
    std::map<const ir::Node*, const FusedBlock*> blockEnding;
    for (const FusedBlock& b : blocks) blockEnding[b.nodes.back()] = &b;
    size_t blockStart = std::string::npos; // body offset of the current block's first layer
    int blockFirstLayer = 0;
    // Not copying a 224x224 image (600 KB) saves a pass over it per inference at 2 threads:
    // the copy would run on the caller alone, and the other thread would then read half of it
    // back from the caller's cache.
    std::vector<bool> inputInPlace(g.inputs().size());
    for (size_t k = 0; k < g.inputs().size(); ++k)
        if ((inputInPlace[k] = readInPlace(ctx, g.inputs()[k])))
            ctx.bind(g.inputs()[k]->name, "static_cast<float*>(const_cast<void*>(inputs[" + std::to_string(k) + "]))");
    for (const ir::Node* n : g.nodes()) {
        const bool controlFlow = !n->subgraphs.empty();
        const bool typed = controlFlow || (isTypedNode(*n) && ctx.library(*n) == "portable");
        const ir::Value* out = n->output(0);
        if (!out) continue;
        for (const FusedBlock& b : blocks)
            if (b.nodes.front() == n) {
                blockStart = body.size();
                blockFirstLayer = layer;
            }
        EMBARK_TRY(emitNodeCode(ctx, *n));
        const auto assigned = ctx.adaptation().nodes.find(n->name);
        const std::string lib = assigned == ctx.adaptation().nodes.end() ? "portable" : assigned->second.library;
        body += "    // [" + std::to_string(layer) + "] " + n->describe() + " on " + lib + ", " +
                std::string(targets::dataFormatName(ctx.format(*n))) + "; stands for: " + joined(n->provenance, ", ") +
                "\n";
        body += ctx.forward;
        float qScale = 1.f;
        int qZero = 0;
        if (out->dtype == ir::DType::Float32)
            body += "    endLayer<Mode>(" + std::to_string(layer) + ", t0, layerNs, fn, user, " + ctx.ptr(out) + ");\n";
        else if (typed && !elemTypeExpr(out->dtype).empty())
            // Dumps of other types are their values as float32, like every other layer's.
            body += "    endLayerT<Mode>(" + std::to_string(layer) +
                    ", t0, layerNs, fn, user, static_cast<const void*>(" + ctx.ptr(out) + "), " +
                    elemTypeExpr(out->dtype) + ", " + std::to_string(out->shape.numel()) + ");\n";
        else if (quantParamsOf(out, &qScale, &qZero))
            // Dumps of int8 layers are dequantized: model-layout floats like every other layer.
            body +=
                "    endLayerQ<Mode>(" + std::to_string(layer) + ", t0, layerNs, fn, user, reinterpret_cast<const " +
                (out->dtype == ir::DType::UInt8 ? "uint8_t" : "int8_t") + "*>(" + ctx.ptr(out) + "), " +
                std::to_string(out->shape.numel()) + ", " + cppFloat(qScale) + ", " + std::to_string(qZero) + ");\n";
        else
            return makeError(ErrorKind::Unsupported,
                             "node " + n->describe() + " produces " + describeValue(out) +
                                 " whose scale Embark cannot trace back to a quantization node");
        layerTable += "    {" + cppString(n->name) + ", " + cppString(lib) + ", " +
                      cppString(joined(n->provenance, ",")) + ", " + tensorInfo(out->name, modelDims(ctx, out)) +
                      "},\n";
        auto d = out->shape.dims();
        d.resize(4, 1);
        layerPhys += "    {" + std::string(ctx.isNhwc(out) && out->shape.rank() == 4 ? "true" : "false") + ", " +
                     cppInts(d) + ", " + std::to_string(ctx.rowStride(out)) + ", " +
                     std::to_string(out->shape.rank() ? out->shape[out->shape.rank() - 1] : 1) + "},\n";
        ++layer;
        if (auto end = blockEnding.find(n); end != blockEnding.end() && blockStart != std::string::npos) {
            const std::string call = fusedBlockCall(ctx, *end->second, blockFirstLayer);
            if (!call.empty()) {
                body.insert(blockStart, call);
                body += "    }\n";
            }
            blockStart = std::string::npos;
        }
    }

    std::string inputsCopy, outputsCopy, inputInfos, outputInfos;
    for (size_t k = 0; k < g.inputs().size(); ++k) {
        const ir::Value* v = g.inputs()[k];
        inputInfos += "    " + tensorInfo(v->name, v->shape.dims(), v->dtype) + ",\n";
        if ((!v->uses().empty() || v->isGraphOutput()) && !inputInPlace[k])
            inputsCopy += "    std::memcpy(" + ctx.ptr(v) + ", inputs[" + std::to_string(k) + "], " +
                          std::to_string(v->byteSize()) + ");\n";
    }
    for (size_t k = 0; k < g.outputs().size(); ++k) {
        const ir::Value* v = g.outputs()[k];
        outputInfos += "    " + tensorInfo(v->name, v->shape.dims(), v->dtype) + ",\n";
        // A constant output (folded, or an initializer) is copied from its bytes in its own type.
        outputsCopy += "    std::memcpy(outputs[" + std::to_string(k) + "], " + bytesOf(ctx, v) + ", " +
                       std::to_string(v->byteSize()) + ");\n";
    }

    std::string code;
    code += "// Generated by Embark " EMBARK_VERSION " from model '" + replaceAll(modelName, "\n", " ") +
            "'. Do not edit:\n";
    code += "// re-export instead. forward() is the schedule as straight-line calls into one arena.\n";
    code += "#include \"model_api.h\"\n\n#include \"generic.h\"\n#include \"portable.h\"\n#include \"typed.h\"\n";
    if (ctx.usesXnnpack) code += "#include \"embark_xnnpack.h\"\n";
    code += "\n#include <chrono>\n#include <cmath>\n#include <cstdio>\n#include <cstring>\n#include "
            "<exception>\n#include <limits>\n#include <memory>\n#include <stdexcept>\n#include <vector>\n\n";
    code += "extern \"C\" const unsigned char embark_weights[];\n";
    for (size_t k = 0; k < g.inputs().size(); ++k)
        code += "extern \"C\" const unsigned char embark_input_" + std::to_string(k) + "[];\n";
    for (size_t k = 0; k < g.outputs().size(); ++k)
        code += "extern \"C\" const unsigned char embark_expected_" + std::to_string(k) + "[];\n";
    code += "\nnamespace embark_model {\n\n";
    code += "const char* const kModelName = " + cppString(modelName) + ";\n";
    code += "const char* const kArch = " + cppString(o.arch) + ";\n";
    code += "const int kThreadsMax = " + std::to_string(o.threadsMax > 0 ? o.threadsMax : 0) + ";\n";
    code += "const char* const kLibs = " + cppString(joined(ctx.adaptation().librariesUsed, ",")) + ";\n";
    code += "const size_t kArenaBytes = " + std::to_string(ctx.plan().arenaBytes) + ";\n";
    code += "const int kNumInputs = " + std::to_string(g.inputs().size()) + ";\n";
    code += "const int kNumOutputs = " + std::to_string(g.outputs().size()) + ";\n";
    code += "const int kNumLayers = " + std::to_string(layer) + ";\n";
    code += "const TensorInfo kInputs[] = {\n" + inputInfos + "};\n";
    code += "const TensorInfo kOutputs[] = {\n" + outputInfos + "};\n";
    code += "const LayerInfo kLayers[] = {\n" +
            (layerTable.empty() ? std::string("    {\"\", \"\", \"\", {\"\", 0, {}, 0, 1}},\n") : layerTable) +
            "};\n\n";
    code += "namespace {\n\n";
    code += "using Clock = std::chrono::steady_clock;\n";
    code += "// The activation arena (+64 bytes: XNNPACK may read 16 bytes past an input).\n";
    code += "alignas(64) unsigned char g_arena[" + std::to_string(ctx.plan().arenaBytes + 64) + "];\n";
    code += "inline float* T(size_t offset) { return reinterpret_cast<float*>(g_arena + offset); }\n";
    code +=
        "inline const float* W(size_t offset) { return reinterpret_cast<const float*>(embark_weights + offset); }\n";
    code += "[[maybe_unused]] inline const int64_t* WI(size_t offset) { return reinterpret_cast<const "
            "int64_t*>(embark_weights + offset); }\n";
    code += "// The bytes of a value (control flow copies them by byte offsets).\n";
    code += "[[maybe_unused]] inline unsigned char* Bytes(const void* p) { return static_cast<unsigned "
            "char*>(const_cast<void*>(p)); }\n";
    code += "std::unique_ptr<embark::portable::ThreadPool> g_pool;\n";
    if (ctx.usesXnnpack) code += "std::unique_ptr<embark_xnn::Context> g_xnn;\n";
    code += "// A layer's output as stored: NHWC or not, its dims, and for a strided slice of a concatenation\n";
    code += "// the floats between rows of its last axis (0: contiguous) and that axis' length.\n";
    code += "struct Physical { bool nhwc; int64_t d[4]; int64_t rowStride, rowLength; };\n";
    code += "const Physical kLayerPhysical[] = {\n" +
            (layerPhys.empty() ? std::string("    {false, {1, 1, 1, 1}, 0, 1},\n") : layerPhys) + "};\n\n";
    code += ctx.decls + "\n";
    code += R"(// Layer bookkeeping: compiled away in forward() (Mode 0), wall-clock per layer in
// forwardProfiled() (Mode 1), a model-layout copy of each output in forwardDump() (Mode 2).
template <int Mode>
inline void endLayer(int layer, Clock::time_point& t0, uint64_t* layerNs, DumpFn fn, void* user, const float* data) {
    if constexpr (Mode == 1) {
        const auto t = Clock::now();
        layerNs[layer] = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t - t0).count());
        t0 = t;
    } else if constexpr (Mode == 2) {
        const Physical& p = kLayerPhysical[layer];
        std::vector<float> rows;
        if (p.rowStride) { // a strided slice: its rows gathered first
            const size_t count = static_cast<size_t>(kLayers[layer].output.numel), length = static_cast<size_t>(p.rowLength);
            rows.resize(count);
            for (size_t r = 0; r < count / length; ++r)
                std::memcpy(rows.data() + r * length, data + r * static_cast<size_t>(p.rowStride), length * sizeof(float));
            data = rows.data();
        }
        if (!p.nhwc) { fn(layer, data, user); return; }
        std::vector<float> nchw(static_cast<size_t>(p.d[0] * p.d[1] * p.d[2] * p.d[3]));
        for (int64_t n = 0; n < p.d[0]; ++n)
            for (int64_t h = 0; h < p.d[1]; ++h)
                for (int64_t w = 0; w < p.d[2]; ++w)
                    for (int64_t c = 0; c < p.d[3]; ++c)
                        nchw[static_cast<size_t>(((n * p.d[3] + c) * p.d[1] + h) * p.d[2] + w)] =
                            data[((n * p.d[1] + h) * p.d[2] + w) * p.d[3] + c];
        fn(layer, nchw.data(), user);
    } else {
        (void)layer, (void)t0, (void)layerNs, (void)fn, (void)user, (void)data;
    }
}

// An int8/uint8 layer: Mode 2 dumps it dequantized ((q - zero_point) * scale).
template <int Mode, typename Q>
inline void endLayerQ(int layer, Clock::time_point& t0, uint64_t* layerNs, DumpFn fn, void* user, const Q* data, size_t count,
                      float scale, int zeroPoint) {
    if constexpr (Mode == 2) {
        std::vector<float> f(count);
        for (size_t i = 0; i < count; ++i) f[i] = (static_cast<float>(data[i]) - static_cast<float>(zeroPoint)) * scale;
        endLayer<Mode>(layer, t0, layerNs, fn, user, f.data());
    } else {
        (void)data, (void)count, (void)scale, (void)zeroPoint;
        endLayer<Mode>(layer, t0, layerNs, fn, user, nullptr);
    }
}

// A layer of another element type: Mode 2 dumps its values as float32.
template <int Mode>
inline void endLayerT(int layer, Clock::time_point& t0, uint64_t* layerNs, DumpFn fn, void* user, const void* data,
                      embark::generic::ElemType type, size_t count) {
    if constexpr (Mode == 2) {
        std::vector<float> f(count);
        embark::generic::cast(data, type, f.data(), embark::generic::ElemType::Float32, static_cast<int64_t>(count));
        endLayer<Mode>(layer, t0, layerNs, fn, user, f.data());
    } else {
        (void)data, (void)type, (void)count;
        endLayer<Mode>(layer, t0, layerNs, fn, user, nullptr);
    }
}

template <int Mode>
void run(const void* const* inputs, void* const* outputs, uint64_t* layerNs, DumpFn fn, void* user) {
    Clock::time_point t0 = Mode == 1 ? Clock::now() : Clock::time_point();
)";
    code += inputsCopy + body + outputsCopy + "}\n\n} // namespace\n\n";
    std::string sample = "const void* sampleInput(int index) {\n    switch (index) {\n";
    for (size_t k = 0; k < g.inputs().size(); ++k)
        sample += "    case " + std::to_string(k) + ": return embark_input_" + std::to_string(k) + ";\n";
    sample +=
        "    default: return nullptr;\n    }\n}\n\nconst void* expectedOutput(int index) {\n    switch (index) {\n";
    for (size_t k = 0; k < g.outputs().size(); ++k)
        sample += "    case " + std::to_string(k) + ": return embark_expected_" + std::to_string(k) + ";\n";
    sample += "    default: return nullptr;\n    }\n}\n\n";
    code += sample;
    const std::string cap = o.threadsMax > 0 ? std::to_string(o.threadsMax) : "0";
    code += "bool init(int threads, char* error, size_t errorSize) {\n";
    code += "    if (" + cap + " > 0 && threads > " + cap + ") threads = " + cap + "; // --threads-max at export\n";
    code += "    if (threads < 1) threads = 1;\n    try {\n";
    code += "    g_pool = std::make_unique<embark::portable::ThreadPool>(threads);\n";
    if (ctx.usesXnnpack) code += "    g_xnn = std::make_unique<embark_xnn::Context>(static_cast<size_t>(threads));\n";
    code += ctx.init;
    code += "    } catch (const std::exception& e) {\n        std::snprintf(error, errorSize, \"%s\", e.what());\n     "
            "   return false;\n    }\n";
    code += "    // One untimed pass binds every operator to the arena.\n";
    code += "    std::vector<std::vector<int64_t>> outs(static_cast<size_t>(kNumOutputs));\n    std::vector<void*> "
            "outPtrs;\n";
    code += "    std::vector<const void*> inPtrs;\n    for (int k = 0; k < kNumInputs; ++k) "
            "inPtrs.push_back(sampleInput(k));\n";
    code += "    for (int k = 0; k < kNumOutputs; ++k) { "
            "outs[static_cast<size_t>(k)].resize(static_cast<size_t>(kOutputs[k].numel)); "
            "outPtrs.push_back(outs[static_cast<size_t>(k)].data()); }\n";
    code += "    try { forward(inPtrs.data(), outPtrs.data()); } catch (const std::exception& e) {\n";
    code += "        std::snprintf(error, errorSize, \"%s\", e.what());\n        return false;\n    }\n    return "
            "true;\n}\n\n";
    code += "void shutdown() {\n";
    // Objects are destroyed in reverse order of creation by resetting them explicitly.
    code += ctx.usesXnnpack ? "    // XNNPACK operators are released with the process; the context last.\n" : "";
    code += "    g_pool.reset();\n}\n\n";
    code += "void forward(const void* const* inputs, void* const* outputs) { run<0>(inputs, outputs, nullptr, nullptr, "
            "nullptr); }\n";
    code += "void forwardProfiled(const void* const* inputs, void* const* outputs, uint64_t* layerNs) { run<1>(inputs, "
            "outputs, layerNs, nullptr, nullptr); }\n";
    code += "void forwardDump(const void* const* inputs, void* const* outputs, DumpFn fn, void* user) { run<2>(inputs, "
            "outputs, nullptr, fn, user); }\n\n";
    code += "} // namespace embark_model\n";
    return ModelSource{code, layer};
}

} // namespace embark::exporter

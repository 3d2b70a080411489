// The model's C++ source (src/model.cpp of an export): each node of the adapted graph emitted
// by its kernel library into forward(), the layer tables run_export reports with, and the
// bookkeeping of the profiled and dump passes. writeExport (exporter.cpp) writes it out.
#include "model_source.h"

#include "concat_in_place.h"
#include "control_flow.h"
#include "kernel_libraries.h"
#include "slot_template.h"
#include "reference/interpreter.h"

#include <algorithm>

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
    case ir::DType::Float64: return 11;
    case ir::DType::Int16: return 5;
    case ir::DType::UInt16: return 4;
    case ir::DType::UInt32: return 12;
    case ir::DType::UInt64: return 13;
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

// Graph outputs that their producer writes straight into the caller's buffer instead of the
// arena (then a copy at the end of forward(): a one-op model's output, a model's last layer):
// float values of a portable node without subgraphs, read by no node, listed once among the
// outputs, of a fixed length, alone in their buffer of the memory plan (not a reshape alias,
// not written in place over an input, not hosting a concatenation's inputs, not a view).
bool writtenInPlace(const EmitContext& ctx, const ir::Graph& g, const ir::Value* v) {
    if (!v || v->dtype != ir::DType::Float32 || v->isConstant() || v->isGraphInput() || !v->uses().empty() ||
        std::count(g.outputs().begin(), g.outputs().end(), v) != 1 || ctx.dynamic.count(v->name))
        return false;
    const ir::Node* n = v->producer();
    if (!n || !n->subgraphs.empty() || ctx.kernelLibrary(*n).id != portableLibrary().id) return false;
    const MemoryPlan& plan = ctx.plan();
    const auto buffer = plan.bufferOfValue.find(v->name);
    if (buffer == plan.bufferOfValue.end() || plan.views.count(v->name)) return false;
    for (const auto& [name, id] : plan.bufferOfValue)
        if (id == buffer->second && name != v->name) return false;
    return true;
}

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
    const targets::KernelLibrary& lib = ctx.kernelLibrary(n);
    const bool typed = controlFlow || (isTypedNode(n) && lib.fallback);
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
    // Another library runs the int8 ops its support table claims (XNNPACK: QConv, QGemm, MaxPool).
    if (quantized && !lib.fallback && !lib.supports(n))
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
    EMBARK_TRY(lib.emitNode(ctx, n));
    // Dropout's mask: all true at inference (and with a ratio of 0), which is all an export runs.
    if (const ir::Value* mask = n.op == ir::OpKind::Dropout ? n.output(1) : nullptr; mask && !mask->isConstant())
        ctx.forward += "    std::memset(" + ctx.ptr(mask) + ", 1, " + std::to_string(mask->byteSize()) + ");\n";
    return {};
}

Expected<ModelSource> emitModelSource(EmitContext& ctx, const ir::Graph& g, const ExportOptions& o,
                                      const std::string& modelName, const std::vector<FusedBlock>& blocks,
                                      const std::vector<ir::Shape>& expectedShapes) {
    std::string body, layerTable, layerPhys;
    int layer = 0;
    std::map<const ir::Node*, const FusedBlock*> blockEnding;
    for (const FusedBlock& b : blocks) blockEnding[b.nodes.back()] = &b;
    size_t blockStart = std::string::npos; // body offset of the current block's first layer
    bool fusedBlocks = false;              // a block fused in the plain pass: init() binds its layers too
    int blockFirstLayer = 0;
    // Not copying a 224x224 image (600 KB) saves a pass over it per inference at 2 threads:
    // the copy would run on the caller alone, and the other thread would then read half of it
    // back from the caller's cache.
    std::vector<bool> inputInPlace(g.inputs().size());
    for (size_t k = 0; k < g.inputs().size(); ++k)
        if ((inputInPlace[k] = readInPlace(ctx, g.inputs()[k])))
            ctx.bind(g.inputs()[k]->name, "static_cast<float*>(const_cast<void*>(inputs[" + std::to_string(k) + "]))");
    std::vector<bool> outputInPlace(g.outputs().size());
    for (size_t k = 0; k < g.outputs().size(); ++k)
        if ((outputInPlace[k] = writtenInPlace(ctx, g, g.outputs()[k])))
            ctx.bind(g.outputs()[k]->name, "static_cast<float*>(outputs[" + std::to_string(k) + "])");
    for (const ir::Node* n : g.nodes()) {
        const ir::Value* out = n->output(0);
        if (!out) continue;
        for (const FusedBlock& b : blocks)
            if (b.nodes.front() == n) {
                blockStart = body.size();
                blockFirstLayer = layer;
            }
        EMBARK_TRY(emitNodeCode(ctx, *n));
        const auto assigned = ctx.adaptation().nodes.find(n->name);
        const std::string lib = assigned == ctx.adaptation().nodes.end() ? ctx.library(*n) : assigned->second.library;
        body += "    // [" + std::to_string(layer) + "] " + n->describe() + " on " + lib + ", " +
                std::string(targets::layoutName(ctx.format(*n))) + "; stands for: " + joined(n->provenance, ", ") +
                "\n";
        body += ctx.forward;
        float qScale = 1.f;
        int qZero = 0;
        const bool byteQuantized =
            (out->dtype == ir::DType::Int8 || out->dtype == ir::DType::UInt8) && quantParamsOf(out, &qScale, &qZero);
        if (out->dtype == ir::DType::Float32)
            body += "    endLayer<Mode>(" + std::to_string(layer) + ", t0, layerNs, fn, user, " + ctx.ptr(out) + ");\n";
        else if (!byteQuantized && !elemTypeExpr(out->dtype).empty())
            // Dumps of other types are their values as float32, like every other layer's (so are
            // int8 values whose scale traces back to no quantization node: a uint8 Transpose).
            body += "    endLayerT<Mode>(" + std::to_string(layer) +
                    ", t0, layerNs, fn, user, static_cast<const void*>(" + ctx.ptr(out) + "), " +
                    elemTypeExpr(out->dtype) + ", " + std::to_string(out->shape.numel()) + ");\n";
        else if (byteQuantized)
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
                fusedBlocks = true;
            }
            blockStart = std::string::npos;
        }
    }

    std::string inputsCopy, outputsCopy, inputInfos, outputInfos;
    for (size_t k = 0; k < g.inputs().size(); ++k) {
        const ir::Value* v = g.inputs()[k];
        inputInfos += "    " + tensorInfo(v->name, v->shape.dims(), v->dtype) + ",\n";
        if ((!v->uses().empty() || v->isGraphOutput()) && !inputInPlace[k])
            inputsCopy += "    embark::portable::copy_bytes(" + ctx.ptr(v) + ", inputs[" + std::to_string(k) + "], " +
                          std::to_string(v->byteSize()) + ");\n";
    }
    for (size_t k = 0; k < g.outputs().size(); ++k) {
        const ir::Value* v = g.outputs()[k];
        outputInfos += "    " + tensorInfo(v->name, v->shape.dims(), v->dtype) + ",\n";
        if (outputInPlace[k]) continue; // written there by its producer
        // A constant output (folded, or an initializer) is copied from its bytes in its own type.
        outputsCopy += "    embark::portable::copy_bytes(outputs[" + std::to_string(k) + "], " + bytesOf(ctx, v) +
                       ", " + std::to_string(v->byteSize()) + ");\n";
    }

    // The file is runtime/common/model.cpp.in with its slots filled (see slot_template.h).
    auto file = SlotTemplate::load(o.runtimeDir + "/common/model.cpp.in");
    if (!file) return file.error();
    std::string dataSymbols, sampleCases, expectedCases;
    for (size_t k = 0; k < g.inputs().size(); ++k) {
        dataSymbols += "extern \"C\" const unsigned char embark_input_" + std::to_string(k) + "[];\n";
        sampleCases += "    case " + std::to_string(k) + ": return embark_input_" + std::to_string(k) + ";\n";
    }
    for (size_t k = 0; k < g.outputs().size(); ++k) {
        dataSymbols += "extern \"C\" const unsigned char embark_expected_" + std::to_string(k) + "[];\n";
        expectedCases += "    case " + std::to_string(k) + ": return embark_expected_" + std::to_string(k) + ";\n";
    }
    std::string dynamicDims;
    for (size_t k = 0; k < g.outputs().size(); ++k)
        if (auto d = ctx.dynamic.find(g.outputs()[k]->name); d != ctx.dynamic.end())
            dynamicDims += "    if (index == " + std::to_string(k) + ") dims[" + std::to_string(d->second.axis) +
                           "] = " + d->second.count + ";\n";
    std::string expectedDims;
    for (size_t k = 0; k < expectedShapes.size(); ++k)
        for (size_t i = 0; i < expectedShapes[k].rank(); ++i)
            expectedDims += "    if (index == " + std::to_string(k) + ") dims[" + std::to_string(i) +
                            "] = " + std::to_string(expectedShapes[k][i]) + ";\n";
    std::string libIncludes, libGlobals, libInit, libShutdown;
    for (const targets::KernelLibrary& l : kernelLibraries())
        if (ctx.links(l)) {
            libIncludes += l.modelIncludes;
            libGlobals += l.modelGlobals;
            libInit += l.modelInit;
            libShutdown += l.modelShutdown;
        }
    file->set("EMBARK_VERSION", EMBARK_VERSION)
        .set("MODEL_NAME", replaceAll(modelName, "\n", " "))
        .set("LIBRARY_INCLUDES", libIncludes)
        .set("DATA_SYMBOLS", dataSymbols)
        .set("MODEL_NAME_STRING", cppString(modelName))
        .set("ARCH_STRING", cppString(o.arch))
        .set("THREADS_MAX", std::to_string(o.threadsMax > 0 ? o.threadsMax : 0))
        .set("LIBS_STRING", cppString(joined(ctx.adaptation().librariesUsed, ",")))
        .set("ARENA_BYTES", std::to_string(ctx.plan().arenaBytes))
        .set("NUM_INPUTS", std::to_string(g.inputs().size()))
        .set("NUM_OUTPUTS", std::to_string(g.outputs().size()))
        .set("NUM_LAYERS", std::to_string(layer))
        .set("INPUT_INFOS", inputInfos)
        .set("OUTPUT_INFOS", outputInfos)
        .set("LAYER_INFOS",
             layerTable.empty() ? std::string("    {\"\", \"\", \"\", {\"\", 0, {}, 0, 1}},\n") : layerTable)
        .set("ARENA_ALLOC_BYTES", std::to_string(ctx.plan().arenaBytes + 64))
        .set("LIBRARY_GLOBALS", libGlobals)
        .set("LAYER_PHYSICAL", layerPhys.empty() ? std::string("    {false, {1, 1, 1, 1}, 0, 1},\n") : layerPhys)
        .set("DECLARATIONS", ctx.decls)
        .set("INPUT_COPIES", inputsCopy)
        .set("LAYERS", body)
        .set("OUTPUT_COPIES", outputsCopy)
        .set("SAMPLE_INPUT_CASES", sampleCases)
        .set("EXPECTED_OUTPUT_CASES", expectedCases)
        .set("LIBRARY_INIT", libInit)
        .set("INIT", ctx.init)
        .set("FUSED_BLOCKS", fusedBlocks ? "true" : "false")
        .set("LIBRARY_SHUTDOWN", libShutdown)
        .set("DYNAMIC_OUTPUT_DIMS", dynamicDims)
        .set("EXPECTED_OUTPUT_DIMS", expectedDims);
    auto code = file->render();
    if (!code) return code.error();
    return ModelSource{*code, layer};
}

} // namespace embark::exporter

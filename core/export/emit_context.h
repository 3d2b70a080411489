// Shared state of the code emitters: where each value lives (arena offset or weights blob),
// the generated declarations, init and forward code, and helpers the per-library emitters
// use to write one layer each.
#pragma once

#include "adaptation.h"
#include "dynamic_length.h"
#include "memory_planner.h"
#include "weights_blob.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace embark::exporter {

class EmitContext {
public:
    EmitContext(const Adaptation& adaptation, const MemoryPlan& plan, WeightsBlob& blob)
        : m_a(adaptation), m_plan(plan), m_blob(blob) {}

    const Adaptation& adaptation() const { return m_a; }
    const MemoryPlan& plan() const { return m_plan; }
    WeightsBlob& blob() { return m_blob; }
    // A control-flow body's context (control_flow.cpp): its values live in the arena that the
    // generated function `arenaAccessor` addresses ("T" is the model's), and its identifiers
    // start with `identPrefix` so that they differ from the enclosing graph's.
    void setScope(std::string arenaAccessor, std::string identPrefix) {
        m_arena = std::move(arenaAccessor);
        m_identPrefix = std::move(identPrefix);
    }

    // C++ expression of a float pointer to the value: "T(4096)" in the arena, "W(128)" for a
    // constant (added to the blob as float32 on first use), or the expression it was bound to.
    std::string ptr(const ir::Value* v);
    // Byte offset of v in the arena, or -1 (a constant, a bound value, a value outside the arena).
    int64_t arenaOffset(const ir::Value* v) const;
    // Floats between rows of v's last axis when v is a strided slice of a concatenation, else 0
    // (memory_planner.h; the kernels that take such rows: concat_in_place.h).
    int64_t rowStride(const ir::Value* v) const;
    // Makes ptr(v) of the named value `expression` (a graph input read where the caller put it).
    void bind(const std::string& value, std::string expression) { m_bound[value] = std::move(expression); }
    // Blob offset of a constant converted to float32.
    int64_t constantOffset(const ir::Value* v);
    // Adds float data to the blob, returns "W(offset)".
    std::string floats(const std::string& key, const std::vector<float>& data);
    // Adds int64 data to the blob, returns "WI(offset)".
    std::string int64s(const std::string& key, const std::vector<int64_t>& data);
    // Adds a tensor's bytes as they are (int8 weights, int32 biases), returns its blob offset.
    int64_t rawBytes(const std::string& key, const ir::Tensor& data);

    bool isNhwc(const ir::Value* v) const;
    targets::Layout format(const ir::Node& n) const;
    const std::string& library(const ir::Node& n) const;

    // A fresh C++ identifier for a per-layer object ("L12_conv1").
    std::string ident(const ir::Node& n, const char* suffix = "");
    // A scratch buffer of `floats` floats owned by the model (outside the arena), returns its
    // C++ expression.
    std::string scratch(const ir::Node& n, int64_t floats);

    std::string decls;   // file-scope declarations (layer objects)
    std::string init;    // statements of init()
    std::string forward; // statements of the current layer in forward()
    // Ids of the libraries whose runtime the export links beyond the always-linked ones (an
    // emitter adds its own when it emits a node that needs it).
    std::set<std::string> linked;
    bool links(const targets::KernelLibrary& lib) const { return lib.alwaysLinked || linked.count(lib.id) > 0; }
    // Whether a library it links needs an XNNPACK tree (export.json's "xnnpack", the CMake link).
    bool linksXnnpack() const;
    // The library node n runs on (the fallback library when the adaptation assigned none).
    const targets::KernelLibrary& kernelLibrary(const ir::Node& n) const;
    // Values whose length depends on the data (dynamic_length.h), from the deployment plan.
    DynamicLengths dynamic;
    // node name -> the C++ identifier of its portable operator object (Conv2D), for fused blocks.
    std::map<std::string, std::string> layerObjects;

private:
    const Adaptation& m_a;
    const MemoryPlan& m_plan;
    WeightsBlob& m_blob;
    int m_counter = 0;
    std::map<std::string, std::string> m_bound;
    std::string m_arena = "T";
    std::string m_identPrefix;
};

// C++ literal helpers.
std::string cppString(const std::string& s);
std::string cppFloat(double v);
std::string cppInts(const std::vector<int64_t>& v); // "{1, 2, 3}"
std::string shapeInit(const ir::Shape& s);          // generic::Shape aggregate "{4, {1,2,3,4}}"

// The embark::portable::Activation aggregate of the activation fused into n ("{}" for none).
std::string portableActivation(const ir::Node& n);

// Per-library emitters (core/export/libraries/<id>/, beside each library's support table):
// append the layer's code to ctx (forward/init/decls). Errors are
// Unsupported with a message naming the node and what is missing.
Status emitPortable(EmitContext& ctx, const ir::Node& n);
Status emitPortableData(EmitContext& ctx, const ir::Node& n);      // the generic-kernel ops
Status emitPortableRecurrent(EmitContext& ctx, const ir::Node& n); // LSTM, GRU, RNN
Status emitPortableIndex(EmitContext& ctx, const ir::Node& n);     // indexing, einsum, signal ops (issue 31)
Status emitXnnpack(EmitContext& ctx, const ir::Node& n);
// The int8 part of the XNNPACK emitter (emit_xnnpack_quant.cpp): QConv, QGemm (QAdd runs on portable).
Status emitXnnpackQuantized(EmitContext& ctx, const ir::Node& n);
// The int8 part of the portable emitter (emit_portable_quant.cpp): the fuse_qdq ops, run-time
// QuantizeLinear/DequantizeLinear and data movement of int8 tensors.
Status emitPortableQuantized(EmitContext& ctx, const ir::Node& n);
// True when n reads or writes an int8/uint8 tensor at run time that emitPortableQuantized runs.
bool isQuantizedNode(const ir::Node& n);
// The typed part of the portable emitter (emit_portable_typed.cpp): run-time tensors of other
// types than float32 outside fuse_qdq's int8 ops (Cast, Gather by computed indices, reshapes,
// DynamicQuantizeLinear, MatMulInteger, ConvInteger), on the generic typed kernels.
Status emitPortableTyped(EmitContext& ctx, const ir::Node& n);
// True when n is one of those and reads or writes such a tensor (or is an integer op).
bool isTypedNode(const ir::Node& n);
// The byte address of a value in its own element type (a constant's bytes as they are).
std::string typedPtr(EmitContext& ctx, const ir::Value* v);
// A Pad node's constant parameters: begin and end pads for every axis of its input (ONNX's
// layout: all begins, then all ends) and the generic::PadMode name; Unsupported when they are
// computed at run time or do not match the input's rank.
struct PadSpec {
    std::vector<int64_t> pads;
    const char* mode = "Constant";
};
Expected<PadSpec> padSpec(const ir::Node& n);
// The generic::ConvNd literal of a window of `kernel` over x (model layout) giving y.
std::string convNdParams(const ir::Node& n, const ir::Value* x, const ir::Value* y, int64_t outChannels, int64_t group,
                         const std::vector<int64_t>& kernel);
// QLinearConv, QLinearMatMul and per-axis QuantizeLinear/DequantizeLinear on the generic kernels
// (emit_portable_qlinear.cpp); emitQuantizeLinearAxis also takes scales read at run time.
Status emitPortableQLinear(EmitContext& ctx, const ir::Node& n);
Status emitQuantizeLinearAxis(EmitContext& ctx, const ir::Node& n);
// Typed data ops (emit_portable_typed_data.cpp): Pad and Clip of non-float tensors, OneHot of
// run-time integer indices, ConstantOfShape and the window ops with their shape read at run time.
Status emitPortableTypedData(EmitContext& ctx, const ir::Node& n);
// A MaxPool whose Indices output is read (a later node or a graph output): the generic typed
// kernel runs it in the model's layout.
bool maxPoolIndicesRead(const ir::Node& n);
// Unsupported when a node reads or writes channels-last data: the generic kernels run in the
// model's layout.
Status needModelLayout(EmitContext& ctx, const ir::Node& n);
// The generic::ElemType expression of t ("embark::generic::ElemType::Int64"), "" when the
// generated code has no such type.
std::string elemTypeExpr(ir::DType t);
// Scale and zero point of an int8/uint8 run-time value (from its producer's parameters,
// through the data movement ops), for the dequantized layer dumps. False when unknown.
bool quantParamsOf(const ir::Value* v, float* scale, int* zeroPoint);

// The Unsupported error of an emitter: names the node, what `emitter`'s kernels lack and
// what to do instead.
enum class Emitter { Portable, Xnnpack };
Error unsupported(Emitter emitter, const ir::Node& n, const std::string& what);

// Input i of n when it is a constant, else nullptr (absent or computed at run time).
const ir::Tensor* constant(const ir::Node& n, size_t i);
// C++ expression of a `const void*` to v's bytes in its own element type: its place in the
// arena (or where it was bound), or for a constant its bytes as they are in the weights blob
// (ptr() of a constant is its float32 copy).
std::string bytesOf(EmitContext& ctx, const ir::Value* v);
// Appends a plain copy of `in` to `out` (same size) to ctx.forward.
void emitCopy(EmitContext& ctx, const ir::Value* in, const ir::Value* out);
// A Transpose node's perm: its attribute, or the axes reversed when it has none.
std::vector<int64_t> transposePerm(const ir::Node& n);

// Shared attribute helpers.
struct Spatial2D {
    int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
    int64_t pt = 0, pl = 0, pb = 0, pr = 0;
};
// Kernel, strides, dilations and explicit pads of a 2-D Conv/pool, auto_pad resolved against
// the input's spatial size (inH, inW) and the output's (outH, outW).
Spatial2D spatial2D(const ir::Node& n, int64_t kh, int64_t kw, int64_t inH, int64_t inW, int64_t outH, int64_t outW);

} // namespace embark::exporter

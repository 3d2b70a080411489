// The portable emitter for data ops on run-time tensors of other types than float32, and for
// ops whose output shape an input read at run time sets: Pad and Clip of integer tensors,
// OneHot of run-time integer indices, ConstantOfShape and HannWindow/HammingWindow/
// BlackmanWindow whose shape or size is computed at run time. As for Range with run-time bounds,
// such an output has the export's fixed shape: its values are computed at export time and the
// run checks that the input asks for that shape, else stops naming the node (run_export exit 5).
#include "export/emit_context.h"
#include "reference/interpreter.h"

#include <cstring>

namespace embark::exporter {

using ir::DType;
using ir::OpKind;

namespace {

Status needType(const ir::Node& n, const ir::Value* v, const char* what) {
    if (!v || elemTypeExpr(v->dtype).empty())
        return unsupported(Emitter::Portable, n,
                           std::string(what) + (v ? " of type " + std::string(ir::dtypeName(v->dtype)) : " absent"));
    return {};
}

// One element of `t` (cast to `type`) in the weights blob, as a const void* expression.
std::string elementBytes(EmitContext& ctx, const std::string& key, const ir::Tensor& t, int64_t i, DType type) {
    const ir::Tensor v = t.castTo(type);
    const size_t size = ir::dtypeSize(type);
    ir::Tensor e(type, ir::Shape{1});
    std::memcpy(e.mutableData(), static_cast<const unsigned char*>(v.data()) + static_cast<size_t>(i) * size, size);
    return "static_cast<const void*>(embark_weights + " + std::to_string(ctx.rawBytes(key, e)) + ")";
}

Status emitTypedPad(EmitContext& ctx, const ir::Node& n) {
    EMBARK_TRY(needModelLayout(ctx, n));
    const ir::Value *x = n.input(0), *y = n.output(0);
    EMBARK_TRY(needType(n, x, "data"));
    auto spec = padSpec(n);
    if (!spec) return spec.error();
    const auto& [pads, m] = *spec;
    const ir::Tensor* valueT = constant(n, 2);
    const ir::Tensor zero(x->dtype, ir::Shape{1});
    const std::string value =
        elementBytes(ctx, n.name + ":pad_value", valueT && valueT->numel() ? *valueT : zero, 0, x->dtype);
    ctx.forward += "    { static const int64_t p[] = " + cppInts(pads) + ";\n      embark::generic::padBytes(" +
                   typedPtr(ctx, x) + ", " + std::to_string(ir::dtypeSize(x->dtype)) + ", " + shapeInit(x->shape) +
                   ", p, embark::generic::PadMode::" + m + ", " + value + ", " + shapeInit(y->shape) + ", " +
                   typedPtr(ctx, y) + "); }\n";
    return {};
}

// Clip of a non-float tensor: max(x, min) then min(., max), bounds constant or read at run time.
Status emitTypedClip(EmitContext& ctx, const ir::Node& n) {
    EMBARK_TRY(needModelLayout(ctx, n));
    const ir::Value *x = n.input(0), *y = n.output(0);
    EMBARK_TRY(needType(n, x, "input"));
    if (y->dtype != x->dtype) return unsupported(Emitter::Portable, n, "a Clip changing the element type");
    const ir::Value* src = x;
    bool wrote = false;
    for (size_t i : {size_t{1}, size_t{2}}) {
        const ir::Value* bound = n.inputs().size() > i ? n.input(i) : nullptr;
        if (!bound) continue;
        if (bound->dtype != x->dtype || bound->shape.numel() != 1)
            return unsupported(Emitter::Portable, n,
                               "a Clip bound '" + bound->name + "' that is not one " +
                                   std::string(ir::dtypeName(x->dtype)) + " value");
        const std::string type = elemTypeExpr(x->dtype);
        ctx.forward += "    { const void* in[] = {" + typedPtr(ctx, src) + ", " + typedPtr(ctx, bound) +
                       "};\n      const embark::generic::ElemType types[] = {" + type + ", " + type +
                       "};\n      const embark::generic::Shape shapes[] = {" + shapeInit(x->shape) +
                       ", embark::generic::Shape{1, {1}}};\n      embark::generic::typedElementwise(" +
                       "embark::generic::TypedOp::" + (i == 1 ? "Max" : "Min") + ", 2, in, types, shapes, " +
                       typedPtr(ctx, y) + ", " + type + ", " + shapeInit(y->shape) + "); }\n";
        src = y;
        wrote = true;
    }
    if (!wrote)
        ctx.forward += "    std::memmove(" + typedPtr(ctx, y) + ", " + typedPtr(ctx, x) + ", " +
                       std::to_string(y->byteSize()) + ");\n";
    return {};
}

Status emitTypedOneHot(EmitContext& ctx, const ir::Node& n) {
    EMBARK_TRY(needModelLayout(ctx, n));
    const ir::Value *x = n.input(0), *y = n.output(0);
    EMBARK_TRY(needType(n, x, "indices"));
    EMBARK_TRY(needType(n, y, "output"));
    const ir::Tensor* depthT = constant(n, 1);
    const ir::Tensor* valuesT = constant(n, 2);
    if (!depthT || !valuesT || depthT->numel() != 1 || valuesT->numel() != 2)
        return unsupported(Emitter::Portable, n, "OneHot depth or values computed at run time (make them constants)");
    const size_t axis = static_cast<size_t>(y->shape.normAxis(n.attrInt("axis", -1)));
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < x->shape.rank(); ++d) (d < axis ? outer : inner) *= x->shape[d];
    const int64_t depth = static_cast<int64_t>(depthT->at(0));
    if (depth != y->shape[axis])
        return unsupported(Emitter::Portable, n, "a depth of " + std::to_string(depth) + " for " + y->shape.str());
    ctx.forward += "    embark::generic::oneHotBy(" + typedPtr(ctx, x) + ", " + elemTypeExpr(x->dtype) + ", " +
                   std::to_string(outer) + ", " + std::to_string(inner) + ", " + std::to_string(depth) + ", " +
                   elementBytes(ctx, n.name + ":off", *valuesT, 0, y->dtype) + ", " +
                   elementBytes(ctx, n.name + ":on", *valuesT, 1, y->dtype) + ", " +
                   std::to_string(ir::dtypeSize(y->dtype)) + ", " + typedPtr(ctx, y) + ");\n";
    return {};
}

// ConstantOfShape and the windows with their shape or size read at run time: the values for the
// export's shape from the reference at export time, and the run-time check of the input.
Status emitRunTimeShaped(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *s = n.input(0), *y = n.output(0);
    EMBARK_TRY(needType(n, y, "output"));
    if (!s || (s->dtype != DType::Int64 && s->dtype != DType::Int32))
        return unsupported(Emitter::Portable, n, "a shape or size input that is not int64 or int32");
    if (ctx.isNhwc(y)) return unsupported(Emitter::Portable, n, "a channels-last output");
    const bool window = n.op != OpKind::ConstantOfShape;
    std::vector<int64_t> expected = window ? std::vector<int64_t>{y->shape.numel()} : y->shape.dims();
    if (s->shape.numel() != static_cast<int64_t>(expected.size()))
        return unsupported(Emitter::Portable, n,
                           "a " + std::string(window ? "size" : "shape") + " input of " +
                               std::to_string(s->shape.numel()) + " values for the output " + y->shape.str());
    const ir::Tensor fixed = ir::Tensor::fromInt64s(s->shape, expected).castTo(s->dtype);
    auto out = reference::evalNode(n, {fixed});
    if (!out) return out.error();
    if ((*out)[0].shape() != y->shape || (*out)[0].dtype() != y->dtype)
        return unsupported(Emitter::Portable, n,
                           "an output of another shape or type than the export's " + y->shape.str());
    ctx.forward += "    embark::generic::checkRunTimeDims(" + typedPtr(ctx, s) + ", " + elemTypeExpr(s->dtype) + ", " +
                   ctx.int64s(n.name + ":fixed_dims", expected) + ", " + std::to_string(expected.size()) + ", " +
                   cppString("node " + n.describe()) + ");\n";
    if (y->byteSize())
        ctx.forward += "    std::memcpy(" + typedPtr(ctx, y) + ", embark_weights + " +
                       std::to_string(ctx.rawBytes("run_time_shaped:" + n.name, (*out)[0])) + ", " +
                       std::to_string(y->byteSize()) + ");\n";
    return {};
}

} // namespace

Status emitPortableTypedData(EmitContext& ctx, const ir::Node& n) {
    switch (n.op) {
    case OpKind::Pad: return emitTypedPad(ctx, n);
    case OpKind::Clip: return emitTypedClip(ctx, n);
    case OpKind::OneHot: return emitTypedOneHot(ctx, n);
    default: return emitRunTimeShaped(ctx, n);
    }
}

} // namespace embark::exporter

// The portable emitter for run-time tensors of other element types than float32 (outside the
// int8 ops of fuse_qdq): casts, gathers by computed indices, reshapes of any type and the
// integer ops of dynamic quantization (DynamicQuantizeLinear, MatMulInteger, ConvInteger), run
// by the generic typed kernels (runtime/generic/typed.h) in the model's layout.
#include "export/emit_context.h"
#include "reference/interpreter.h"

namespace embark::exporter {

using ir::DType;
using ir::OpKind;

// The byte address of a value in its own element type: the arena, or a constant's bytes as
// they are (a constant's ptr() is its float32 copy).
std::string typedPtr(EmitContext& ctx, const ir::Value* v) {
    if (!v) return "nullptr";
    if (!v->isConstant()) return "static_cast<void*>(" + ctx.ptr(v) + ")";
    if (v->dtype == DType::Float32) return "static_cast<const void*>(" + ctx.ptr(v) + ")";
    return "static_cast<const void*>(embark_weights + " +
           std::to_string(ctx.rawBytes("typed:" + v->name, v->constant)) + ")";
}

// The generic kernels' ConvNd literal of a window of `kernel` over x (model layout, 1 to 3
// spatial dims) giving y: ConvInteger's and MaxPool-with-Indices' strides, dilations and pads,
// auto_pad resolved against y's shape.
std::string convNdParams(const ir::Node& n, const ir::Value* x, const ir::Value* y, int64_t outChannels, int64_t group,
                         const std::vector<int64_t>& kernel) {
    const size_t spatial = x->shape.rank() - 2;
    const auto strides = n.attrInts("strides", std::vector<int64_t>(spatial, 1));
    const auto dil = n.attrInts("dilations", std::vector<int64_t>(spatial, 1));
    std::vector<int64_t> pads = n.attrInts("pads", std::vector<int64_t>(2 * spatial, 0));
    const std::string autoPad = n.attrString("auto_pad", "NOTSET");
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")
        for (size_t i = 0; i < spatial; ++i) {
            const int64_t k = (kernel[i] - 1) * dil[i] + 1;
            const int64_t total = std::max<int64_t>(0, (y->shape[2 + i] - 1) * strides[i] + k - x->shape[2 + i]);
            pads[i] = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
            pads[spatial + i] = total - pads[i];
        }
    else if (autoPad == "VALID")
        pads.assign(2 * spatial, 0);
    std::vector<int64_t> p6(6, 0);
    for (size_t i = 0; i < spatial; ++i) {
        p6[i] = pads[i];
        p6[spatial + i] = pads[spatial + i];
    }
    auto arr = [&](auto get) {
        std::vector<int64_t> v(3, 1);
        for (size_t i = 0; i < spatial; ++i) v[i] = get(i);
        return cppInts(v);
    };
    return "embark::generic::ConvNd{" + std::to_string(spatial) + ", " + std::to_string(x->shape[0]) + ", " +
           std::to_string(x->shape[1]) + ", " + std::to_string(outChannels) + ", " + std::to_string(group) + ", " +
           arr([&](size_t i) { return x->shape[2 + i]; }) + ", " + arr([&](size_t i) { return y->shape[2 + i]; }) +
           ", " + arr([&](size_t i) { return kernel[i]; }) + ", " + arr([&](size_t i) { return strides[i]; }) + ", " +
           arr([&](size_t i) { return dil[i]; }) + ", " + cppInts(p6) + "}";
}

namespace {

bool runtimeNonFloat(const ir::Value* v) { return v && !v->isConstant() && v->dtype != DType::Float32; }

Status checkType(const ir::Node& n, const ir::Value* v, const char* what) {
    if (elemTypeExpr(v->dtype).empty())
        return unsupported(Emitter::Portable, n,
                           std::string(what) + " '" + v->name + "' of type " + std::string(ir::dtypeName(v->dtype)));
    return {};
}

Status emitTypedGather(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* data = n.input(0);
    const ir::Value* idx = n.input(1);
    EMBARK_TRY(checkType(n, data, "data"));
    if (idx->dtype != DType::Int64 && idx->dtype != DType::Int32)
        return unsupported(Emitter::Portable, n, "Gather indices of type " + std::string(ir::dtypeName(idx->dtype)));
    if (ctx.isNhwc(data) || ctx.isNhwc(n.output(0)))
        return unsupported(Emitter::Portable, n, "a typed Gather on NHWC data");
    const int axis = static_cast<int>(data->shape.normAxis(n.attrInt("axis", 0)));
    ctx.forward += "    embark::generic::gatherBy(" + typedPtr(ctx, data) + ", " +
                   std::to_string(ir::dtypeSize(data->dtype)) + ", " + shapeInit(data->shape) + ", " +
                   std::to_string(axis) + ", " + typedPtr(ctx, idx) + ", " + elemTypeExpr(idx->dtype) + ", " +
                   std::to_string(idx->shape.numel()) + ", " + typedPtr(ctx, n.output(0)) + ", " +
                   cppString("node '" + n.name + "' (Gather)") + ");\n";
    return {};
}

// A zero point input (optional) as (pointer, element count).
std::pair<std::string, int64_t> zeroPoint(EmitContext& ctx, const ir::Node& n, size_t i) {
    const ir::Value* v = n.input(i);
    if (!v) return {"nullptr", 0};
    return {typedPtr(ctx, v), v->shape.numel()};
}

Status emitMatMulInteger(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* a = n.input(0);
    const ir::Value* b = n.input(1);
    for (const ir::Value* v : {a, b})
        if (v->dtype != DType::UInt8 && v->dtype != DType::Int8)
            return unsupported(Emitter::Portable, n, "MatMulInteger on " + std::string(ir::dtypeName(v->dtype)));
    const auto [az, azCount] = zeroPoint(ctx, n, 2);
    const auto [bz, bzCount] = zeroPoint(ctx, n, 3);
    ctx.forward += "    embark::generic::matmulInteger(" + typedPtr(ctx, a) + ", " + elemTypeExpr(a->dtype) + ", " +
                   shapeInit(a->shape) + ", " + typedPtr(ctx, b) + ", " + elemTypeExpr(b->dtype) + ", " +
                   shapeInit(b->shape) + ", " + az + ", " + std::to_string(azCount) + ", " + bz + ", " +
                   std::to_string(bzCount) + ", static_cast<int32_t*>(" + typedPtr(ctx, n.output(0)) + "));\n";
    return {};
}

Status emitConvInteger(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    const ir::Value* y = n.output(0);
    for (const ir::Value* v : {x, w})
        if (v->dtype != DType::UInt8 && v->dtype != DType::Int8)
            return unsupported(Emitter::Portable, n, "ConvInteger on " + std::string(ir::dtypeName(v->dtype)));
    if (x->shape.rank() < 3 || x->shape.rank() > 5 || ctx.isNhwc(x) || ctx.isNhwc(y))
        return unsupported(Emitter::Portable, n, "ConvInteger on " + x->shape.str() + " outside the model's layout");
    const size_t spatial = x->shape.rank() - 2;
    std::vector<int64_t> kernel(spatial);
    for (size_t i = 0; i < spatial; ++i) kernel[i] = w->shape[2 + i];
    const std::string params = convNdParams(n, x, y, y->shape[1], n.attrInt("group", 1), kernel);
    const auto [xz, xzCount] = zeroPoint(ctx, n, 2);
    const auto [wz, wzCount] = zeroPoint(ctx, n, 3);
    (void)xzCount;
    ctx.forward += "    embark::generic::convInteger(" + params + ", " + typedPtr(ctx, x) + ", " +
                   elemTypeExpr(x->dtype) + ", " + typedPtr(ctx, w) + ", " + elemTypeExpr(w->dtype) + ", " + xz + ", " +
                   wz + ", " + std::to_string(wzCount) + ", static_cast<int32_t*>(" + typedPtr(ctx, y) + "));\n";
    return {};
}

Status emitDynamicQuantizeLinear(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    if (x->dtype != DType::Float32)
        return unsupported(Emitter::Portable, n, "DynamicQuantizeLinear of " + std::string(ir::dtypeName(x->dtype)));
    if (ctx.isNhwc(x) != ctx.isNhwc(n.output(0)))
        return unsupported(Emitter::Portable, n, "a layout change inside DynamicQuantizeLinear");
    // An output nobody reads still needs somewhere to go.
    auto out = [&](size_t i, const char* type, const char* spare) {
        const ir::Value* v = n.output(i);
        return v ? "static_cast<" + std::string(type) + "*>(" + typedPtr(ctx, v) + ")" : std::string(spare);
    };
    ctx.forward += "    { float spareScale; uint8_t spareZero;\n      embark::generic::dynamicQuantizeLinear(" +
                   ctx.ptr(x) + ", " + std::to_string(x->shape.numel()) + ", " + out(0, "uint8_t", "nullptr") + ", " +
                   out(1, "float", "&spareScale") + ", " + out(2, "uint8_t", "&spareZero") + "); }\n";
    return {};
}

const char* typedOpName(OpKind op) {
    switch (op) {
    case OpKind::Equal: return "Equal";
    case OpKind::Less: return "Less";
    case OpKind::Greater: return "Greater";
    case OpKind::LessOrEqual: return "LessOrEqual";
    case OpKind::GreaterOrEqual: return "GreaterOrEqual";
    case OpKind::And: return "And";
    case OpKind::Or: return "Or";
    case OpKind::Xor: return "Xor";
    case OpKind::Not: return "Not";
    case OpKind::Where: return "Where";
    case OpKind::Add: return "Add";
    case OpKind::Sub: return "Sub";
    case OpKind::Mul: return "Mul";
    case OpKind::Div: return "Div";
    case OpKind::Mod: return "Mod";
    case OpKind::Min: return "Min";
    case OpKind::Max: return "Max";
    case OpKind::Neg: return "Neg";
    case OpKind::Abs: return "Abs";
    case OpKind::BitShift: return "ShiftLeft"; // or ShiftRight, by its direction
    case OpKind::IsNaN: return "IsNaN";
    case OpKind::IsInf: return "IsInf"; // or IsPosInf, IsNegInf, by its attributes
    case OpKind::Pow: return "Pow";
    default: return nullptr;
    }
}

// Comparisons, logic, Where and integer arithmetic on run-time values (attention masks, peak
// masks, index arithmetic), element by element with broadcasting, in the model's layout; on
// channels-last data only where every full-size operand is a run-time value in that layout
// (the same element order as the output) and the others are single values.
Status emitTypedElementwise(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* y = n.output(0);
    EMBARK_TRY(checkType(n, y, "output"));
    std::string op = typedOpName(n.op);
    if (n.op == OpKind::Mod && n.attrInt("fmod", 0)) op = "FMod";
    // And, Or, Xor and Not on integer tensors are bitwise (BitwiseAnd/Or/Xor/Not, opset 18).
    const bool logic = n.op == OpKind::And || n.op == OpKind::Or || n.op == OpKind::Xor || n.op == OpKind::Not;
    if (logic && y->dtype != DType::Bool) {
        if (!ir::isInteger(y->dtype))
            return unsupported(Emitter::Portable, n, op + " of type " + std::string(ir::dtypeName(y->dtype)));
        op = "Bit" + op;
    }
    if (n.op == OpKind::IsInf) {
        const bool pos = n.attrInt("detect_positive", 1) != 0, neg = n.attrInt("detect_negative", 1) != 0;
        if (!pos && !neg) return unsupported(Emitter::Portable, n, "IsInf detecting neither sign");
        op = pos && neg ? "IsInf" : pos ? "IsPosInf" : "IsNegInf";
    }
    if (n.op == OpKind::BitShift) {
        const std::string dir = n.attrString("direction", "");
        if (dir != "LEFT" && dir != "RIGHT")
            return unsupported(Emitter::Portable, n, "BitShift direction '" + dir + "' (LEFT or RIGHT)");
        for (const ir::Value* v : n.inputs())
            if (v && (v->dtype != y->dtype || !ir::isInteger(v->dtype)))
                return unsupported(Emitter::Portable, n,
                                   "BitShift of '" + v->name + "' (" + std::string(ir::dtypeName(v->dtype)) +
                                       "): both inputs must be unsigned integers of the output's type");
        op = dir == "LEFT" ? "ShiftLeft" : "ShiftRight";
    }
    const size_t count = n.inputs().size();
    if (count < 1 || count > 3 || (n.op == OpKind::Where) != (count == 3))
        return unsupported(Emitter::Portable, n, std::to_string(count) + " inputs to a typed " + op);
    const bool nhwc = ctx.isNhwc(y);
    std::string ptrs, types, shapes;
    for (size_t k = 0; k < count; ++k) {
        const ir::Value* v = n.input(k);
        if (!v) return unsupported(Emitter::Portable, n, "an absent input");
        EMBARK_TRY(checkType(n, v, "input"));
        ir::Shape shape = v->shape;
        if (nhwc || ctx.isNhwc(v)) {
            const bool single = v->shape.numel() == 1;
            if (!single && (v->isConstant() || !ctx.isNhwc(v) || !nhwc || v->shape != y->shape))
                return unsupported(Emitter::Portable, n,
                                   "a typed " + op + " broadcasting '" + v->name + "' " + v->shape.str() +
                                       " on channels-last data");
            shape = ir::Shape{single ? 1 : y->shape.numel()};
        }
        ptrs += (k ? ", " : "") + typedPtr(ctx, v);
        types += (k ? ", " : "") + elemTypeExpr(v->dtype);
        shapes += (k ? ", " : "") + shapeInit(shape);
    }
    const ir::Shape outShape = nhwc ? ir::Shape{y->shape.numel()} : y->shape;
    ctx.forward += "    { const void* in[] = {" + ptrs + "};\n      const embark::generic::ElemType types[] = {" +
                   types + "};\n      const embark::generic::Shape shapes[] = {" + shapes +
                   "};\n      embark::generic::typedElementwise(embark::generic::TypedOp::" + op + ", " +
                   std::to_string(count) + ", in, types, shapes, " + typedPtr(ctx, y) + ", " + elemTypeExpr(y->dtype) +
                   ", " + shapeInit(outShape) + "); }\n";
    return {};
}

} // namespace

bool maxPoolIndicesRead(const ir::Node& n) {
    const ir::Value* indices = n.op == OpKind::MaxPool && n.outputs().size() > 1 ? n.output(1) : nullptr;
    return indices && (!indices->uses().empty() || indices->isGraphOutput());
}

Status needModelLayout(EmitContext& ctx, const ir::Node& n) {
    for (const ir::Value* v : n.inputs())
        if (v && ctx.isNhwc(v)) return unsupported(Emitter::Portable, n, "channels-last data");
    if (ctx.isNhwc(n.output(0))) return unsupported(Emitter::Portable, n, "a channels-last output");
    return {};
}

std::string elemTypeExpr(DType t) {
    switch (t) {
    case DType::Float32: return "embark::generic::ElemType::Float32";
    case DType::UInt8: return "embark::generic::ElemType::UInt8";
    case DType::Int8: return "embark::generic::ElemType::Int8";
    case DType::Int32: return "embark::generic::ElemType::Int32";
    case DType::Int64: return "embark::generic::ElemType::Int64";
    case DType::Bool: return "embark::generic::ElemType::Bool";
    case DType::Float16: return "embark::generic::ElemType::Float16";
    case DType::Float64: return "embark::generic::ElemType::Float64";
    case DType::Int16: return "embark::generic::ElemType::Int16";
    case DType::UInt16: return "embark::generic::ElemType::UInt16";
    case DType::UInt32: return "embark::generic::ElemType::UInt32";
    case DType::UInt64: return "embark::generic::ElemType::UInt64";
    default: return {};
    }
}

namespace {
// A float op of a float64 model (CumSum, Einsum, Reduce*), computed in double on the typed route.
bool computedInDouble(const ir::Node& n) {
    return !isQuantizedNode(n) && n.output(0) && n.output(0)->dtype == DType::Float64 && !n.output(0)->isConstant();
}
} // namespace

bool isTypedNode(const ir::Node& n) {
    if (ir::isReduceOp(n.op)) return computedInDouble(n);
    switch (n.op) {
    case OpKind::DynamicQuantizeLinear:
    case OpKind::MatMulInteger:
    case OpKind::ConvInteger: return true;
    case OpKind::Cast:
    case OpKind::CastLike: // to the type of its second input (only the type is read)
        return !isQuantizedNode(n) && (runtimeNonFloat(n.input(0)) || runtimeNonFloat(n.output(0)));
    case OpKind::Equal:
    case OpKind::Less:
    case OpKind::Greater:
    case OpKind::LessOrEqual:
    case OpKind::GreaterOrEqual:
    case OpKind::And:
    case OpKind::Or:
    case OpKind::Xor:
    case OpKind::Not:
    case OpKind::Where: return !isQuantizedNode(n); // bool at run time (bitwise on integers)
    case OpKind::BitShift: return !isQuantizedNode(n);
    case OpKind::IsNaN: // bool out
    case OpKind::IsInf: return !isQuantizedNode(n) && n.output(0) && n.output(0)->dtype == DType::Bool;
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Mod:
    case OpKind::Min:
    case OpKind::Max:
    case OpKind::Neg:
    case OpKind::Abs:
    case OpKind::Pow: { // integer arithmetic at run time (float32 stays with the float kernels)
        if (isQuantizedNode(n) || n.inputs().size() > 2) return false;
        bool nonFloat = runtimeNonFloat(n.output(0));
        for (const ir::Value* v : n.inputs()) nonFloat = nonFloat || runtimeNonFloat(v);
        return nonFloat;
    }
    case OpKind::Transpose: // a bool mask's or an integer tensor's (layout conversions too)
        return !isQuantizedNode(n) && runtimeNonFloat(n.input(0));
    case OpKind::Gather: // by run-time indices, or of non-float data
        return !isQuantizedNode(n) && n.input(0) && n.input(1) &&
               (runtimeNonFloat(n.input(1)) || n.input(0)->dtype != DType::Float32);
    case OpKind::Slice: // starts or ends computed at run time (a loop counter), axes and steps fixed
        if (isQuantizedNode(n) || !n.input(0) || !n.input(1) || !n.input(2)) return false;
        for (size_t i = 3; i < n.inputs().size(); ++i)
            if (n.input(i) && !n.input(i)->isConstant()) return false;
        return !n.input(1)->isConstant() || !n.input(2)->isConstant();
    case OpKind::GatherND: // by run-time indices
        return !isQuantizedNode(n) && n.input(1) && !n.input(1)->isConstant();
    case OpKind::NonMaxSuppression: // int64 triples, a data-dependent count of them
    case OpKind::NonZero:
    case OpKind::Unique: // Y, indices, counts of a data-dependent length
    case OpKind::TopK:   // int64 indices
    case OpKind::ArgMax:
    case OpKind::ArgMin: return !isQuantizedNode(n);
    case OpKind::Expand: // of a non-float tensor, to a constant shape
        return !isQuantizedNode(n) && n.input(0) && runtimeNonFloat(n.input(0)) && n.input(1) &&
               n.input(1)->isConstant();
    case OpKind::Concat: {
        if (isQuantizedNode(n)) return false;
        bool nonFloat = runtimeNonFloat(n.output(0));
        for (const ir::Value* v : n.inputs()) nonFloat = nonFloat || runtimeNonFloat(v);
        return nonFloat;
    }
    case OpKind::GatherElements: // by run-time indices, or of non-float data
        return !isQuantizedNode(n) && n.input(0) && n.input(1) &&
               (runtimeNonFloat(n.input(1)) || runtimeNonFloat(n.input(0)));
    case OpKind::Range: // bounds computed at run time (constant ones are folded)
        if (isQuantizedNode(n)) return false;
        for (const ir::Value* v : n.inputs())
            if (v && !v->isConstant()) return true;
        return false;
    case OpKind::MaxPool: return !isQuantizedNode(n) && maxPoolIndicesRead(n);
    case OpKind::QLinearConv: // ONNX's QOperator form: generic integer sums, then requantized
    case OpKind::QLinearMatMul: return true;
    case OpKind::Pad: // of integer data, the bytes as they are
    case OpKind::Clip: return !isQuantizedNode(n) && runtimeNonFloat(n.input(0));
    case OpKind::OneHot: // of run-time integer indices, or into a non-float tensor
        return !isQuantizedNode(n) && (runtimeNonFloat(n.input(0)) || runtimeNonFloat(n.output(0)));
    case OpKind::ConstantOfShape: // the shape or size read at run time (constant ones are folded)
    case OpKind::HannWindow:
    case OpKind::HammingWindow:
    case OpKind::BlackmanWindow: return n.input(0) && !n.input(0)->isConstant();
    case OpKind::EyeLike: // of a non-float tensor: only its shape is read
        return !isQuantizedNode(n) && (runtimeNonFloat(n.input(0)) || runtimeNonFloat(n.output(0)));
    case OpKind::Trilu: // of an integer or bool tensor (k constant: the positions are the export's)
        return !isQuantizedNode(n) && runtimeNonFloat(n.input(0));
    case OpKind::CumSum:
    case OpKind::Einsum: return computedInDouble(n);
    case OpKind::Identity:
    case OpKind::Dropout:
    case OpKind::Reshape:
    case OpKind::Flatten:
    case OpKind::Squeeze:
    case OpKind::Unsqueeze:
        // Bytes moved as they are; a shape or axes computed at run time is not (the export's
        // shapes are fixed), so such a node stays with the float emitter, which refuses it.
        if (isQuantizedNode(n) || !n.input(0)) return false;
        for (size_t i = 1; i < n.inputs().size(); ++i)
            if (n.input(i) && !n.input(i)->isConstant()) return false;
        return runtimeNonFloat(n.input(0)) || runtimeNonFloat(n.output(0));
    default: return false;
    }
}

namespace {

// Slice by bounds read at run time: the output's shape is the export's, checked at run time.
Status emitTypedSlice(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *x = n.input(0), *starts = n.input(1), *ends = n.input(2), *y = n.output(0);
    if (ctx.isNhwc(x) || ctx.isNhwc(y)) return unsupported(Emitter::Portable, n, "a channels-last run-time slice");
    if (starts->dtype != ends->dtype || (starts->dtype != DType::Int64 && starts->dtype != DType::Int32))
        return unsupported(Emitter::Portable, n, "starts and ends of different or non-integer types");
    const int64_t count = starts->shape.numel();
    if (ends->shape.numel() != count) return unsupported(Emitter::Portable, n, "starts and ends of different lengths");
    const int64_t rank = static_cast<int64_t>(x->shape.rank());
    std::vector<int64_t> axes, steps;
    for (int64_t k = 0; k < count; ++k) {
        int64_t a = n.input(3) ? n.input(3)->constant.intAt(k) : k;
        if (a < 0) a += rank;
        if (a < 0 || a >= rank) return unsupported(Emitter::Portable, n, "an axis outside the data's rank");
        const int64_t st = n.input(4) ? n.input(4)->constant.intAt(k) : 1;
        if (st == 0) return unsupported(Emitter::Portable, n, "a step of 0");
        axes.push_back(a);
        steps.push_back(st);
    }
    ctx.forward += "    embark::generic::sliceBy(" + typedPtr(ctx, x) + ", " + std::to_string(ir::dtypeSize(x->dtype)) +
                   ", " + shapeInit(x->shape) + ", " + typedPtr(ctx, starts) + ", " + typedPtr(ctx, ends) + ", " +
                   elemTypeExpr(starts->dtype) + ", " + ctx.int64s(n.name + ":axes", axes) + ", " +
                   ctx.int64s(n.name + ":steps", steps) + ", " + std::to_string(count) + ", " + typedPtr(ctx, y) +
                   ", " + shapeInit(y->shape) + ", " + cppString("node " + n.describe()) + ");\n";
    return {};
}

// The count variable of a data-dependent output (dynamic_length.h), declared on first use.
Expected<std::string> lengthVariable(EmitContext& ctx, const ir::Node& n) {
    auto it = ctx.dynamic.find(n.output(0)->name);
    if (it == ctx.dynamic.end())
        return unsupported(Emitter::Portable, n,
                           "a data-dependent output inside a control-flow body (exports plan such outputs at "
                           "their upper bound in the main graph only)");
    ctx.decls += "int64_t " + it->second.count + " = 0; // the run's length of '" + n.output(0)->name + "'\n";
    return it->second.count;
}

// TopK, sorted, in the model's layout. A constant K gives the export's shapes; a K computed at
// run time sorts the whole axis into values and indices planned at that capacity
// (dynamic_length.h), and the run's K is their length.
Status emitTopK(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *x = n.input(0), *kv = n.input(1), *values = n.output(0);
    const ir::Value* indices = n.outputs().size() > 1 ? n.output(1) : nullptr;
    EMBARK_TRY(checkType(n, x, "input"));
    if (!kv || kv->shape.numel() != 1) return unsupported(Emitter::Portable, n, "TopK without a single K");
    if (ctx.isNhwc(x) || ctx.isNhwc(values) || (indices && ctx.isNhwc(indices)))
        return unsupported(Emitter::Portable, n, "TopK on channels-last data");
    if (indices && indices->dtype != DType::Int64)
        return unsupported(Emitter::Portable, n, "TopK indices of type " + std::string(ir::dtypeName(indices->dtype)));
    const int axis = static_cast<int>(x->shape.normAxis(n.attrInt("axis", -1)));
    const int64_t axisLength = x->shape[static_cast<size_t>(axis)];
    std::string k, prefix;
    if (kv->isConstant()) {
        const int64_t kc = kv->constant.intAt(0);
        if (kc < 0 || kc > axisLength || values->shape[static_cast<size_t>(axis)] != kc)
            return unsupported(Emitter::Portable, n, "K = " + std::to_string(kc) + " on " + x->shape.str());
        k = std::to_string(kc);
    } else {
        if (kv->dtype != DType::Int64 && kv->dtype != DType::Int32)
            return unsupported(Emitter::Portable, n, "K of type " + std::string(ir::dtypeName(kv->dtype)));
        Expected<std::string> len = lengthVariable(ctx, n);
        if (!len) return len.error();
        if (values->shape[static_cast<size_t>(axis)] != axisLength)
            return unsupported(Emitter::Portable, n, "values not planned at the axis length");
        prefix = "    " + *len + " = embark::generic::topKLength(" + typedPtr(ctx, kv) + ", " +
                 elemTypeExpr(kv->dtype) + ", " + std::to_string(axisLength) + ", " +
                 cppString("node " + n.describe()) + ");\n";
        k = std::to_string(axisLength); // the whole axis sorted: its first K are TopK's
    }
    const std::string call = "embark::generic::topK(" + typedPtr(ctx, x) + ", " + elemTypeExpr(x->dtype) + ", " +
                             shapeInit(x->shape) + ", " + std::to_string(axis) + ", " + k + ", " +
                             (n.attrInt("largest", 1) ? "true" : "false") + ", " + typedPtr(ctx, values) + ", ";
    ctx.forward += prefix;
    if (indices)
        ctx.forward += "    " + call + "static_cast<int64_t*>(" + typedPtr(ctx, indices) + "));\n";
    else // the indices nobody reads still need somewhere to go
        ctx.forward += "    { std::vector<int64_t> spare(" + std::to_string(values->shape.numel()) + ");\n      " +
                       call + "spare.data()); }\n";
    return {};
}

// Unique: Y, indices and counts planned at their capacity (numel, or the axis length), the
// run's count kept; inverse_indices has its fixed length.
Status emitUnique(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    EMBARK_TRY(checkType(n, x, "input"));
    if (ctx.isNhwc(x) || ctx.isNhwc(n.output(0)))
        return unsupported(Emitter::Portable, n, "Unique of channels-last data");
    Expected<std::string> len = lengthVariable(ctx, n);
    if (!len) return len.error();
    const bool hasAxis = n.has("axis");
    const int axis = hasAxis ? static_cast<int>(x->shape.normAxis(n.attrInt("axis", 0))) : -1;
    auto out = [&](size_t i) {
        const ir::Value* v = n.outputs().size() > i ? n.output(i) : nullptr;
        return v ? "static_cast<int64_t*>(" + typedPtr(ctx, v) + ")" : std::string("nullptr");
    };
    for (size_t i = 1; i < n.outputs().size() && i < 4; ++i)
        if (n.output(i) && n.output(i)->dtype != DType::Int64)
            return unsupported(Emitter::Portable, n, "Unique output " + std::to_string(i) + " that is not int64");
    ctx.forward += "    " + *len + " = embark::generic::unique(" + typedPtr(ctx, x) + ", " + elemTypeExpr(x->dtype) +
                   ", " + shapeInit(x->shape) + ", " + std::to_string(axis) + ", " +
                   (n.attrInt("sorted", 1) ? "true" : "false") + ", " + typedPtr(ctx, n.output(0)) + ", " + out(1) +
                   ", " + out(2) + ", " + out(3) + ");\n";
    return {};
}

// A scalar input's first element as a C++ expression of type `type` (constants inlined).
std::string scalarOf(EmitContext& ctx, const ir::Value* v, const char* type) {
    if (v->isConstant())
        return v->dtype == DType::Float32 ? cppFloat(v->constant.at(0)) : std::to_string(v->constant.intAt(0));
    return std::string("*static_cast<const ") + type + "*>(" + typedPtr(ctx, v) + ")";
}

// NonMaxSuppression: triples up to the planned capacity, the run's count kept.
Status emitNonMaxSuppression(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *boxes = n.input(0), *scores = n.input(1), *y = n.output(0);
    if (boxes->dtype != DType::Float32 || scores->dtype != DType::Float32 || y->dtype != DType::Int64)
        return unsupported(Emitter::Portable, n, "NonMaxSuppression on other types than float32 boxes and scores");
    if (ctx.isNhwc(boxes) || ctx.isNhwc(scores)) return unsupported(Emitter::Portable, n, "channels-last boxes");
    Expected<std::string> len = lengthVariable(ctx, n);
    if (!len) return len.error();
    const ir::Value *maxBoxes = n.input(2), *iou = n.input(3), *score = n.input(4);
    for (const ir::Value* v : {maxBoxes, iou, score})
        if (v && (v->shape.numel() != 1 || v->dtype != (v == maxBoxes ? DType::Int64 : DType::Float32)))
            return unsupported(Emitter::Portable, n, "input '" + v->name + "' that is not a single value");
    const std::string maxExpr = maxBoxes ? scalarOf(ctx, maxBoxes, "int64_t") : "0";
    ctx.forward += "    " + *len + " = embark::generic::nonMaxSuppression(" + ctx.ptr(boxes) + ", " + ctx.ptr(scores) +
                   ", " + std::to_string(boxes->shape[0]) + ", " + std::to_string(scores->shape[1]) + ", " +
                   std::to_string(boxes->shape[1]) + ", " + maxExpr + ", " +
                   (iou ? scalarOf(ctx, iou, "float") : "0.f") + ", " + (score ? "true" : "false") + ", " +
                   (score ? scalarOf(ctx, score, "float") : "0.f") + ", " +
                   (n.attrInt("center_point_box", 0) ? "true" : "false") + ", static_cast<int64_t*>(" +
                   typedPtr(ctx, y) + "), " + std::to_string(y->shape[0]) + ");\n";
    return {};
}

// NonZero: [rank][capacity] indices, the run's count kept.
Status emitNonZero(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *x = n.input(0), *y = n.output(0);
    EMBARK_TRY(checkType(n, x, "input"));
    if (ctx.isNhwc(x)) return unsupported(Emitter::Portable, n, "NonZero of channels-last data");
    Expected<std::string> len = lengthVariable(ctx, n);
    if (!len) return len.error();
    ctx.forward += "    " + *len + " = embark::generic::nonZero(" + typedPtr(ctx, x) + ", " + elemTypeExpr(x->dtype) +
                   ", " + shapeInit(x->shape) + ", static_cast<int64_t*>(" + typedPtr(ctx, y) + "), " +
                   std::to_string(y->shape[1]) + ");\n";
    return {};
}

// GatherND by run-time indices, in the model's layout.
Status emitTypedGatherND(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *data = n.input(0), *idx = n.input(1), *y = n.output(0);
    EMBARK_TRY(checkType(n, data, "data"));
    if (idx->dtype != DType::Int64 && idx->dtype != DType::Int32)
        return unsupported(Emitter::Portable, n, "GatherND indices of type " + std::string(ir::dtypeName(idx->dtype)));
    if (ctx.isNhwc(data) || ctx.isNhwc(idx) || ctx.isNhwc(y))
        return unsupported(Emitter::Portable, n, "a typed GatherND on channels-last data");
    if (idx->shape.rank() == 0) return unsupported(Emitter::Portable, n, "scalar GatherND indices");
    ctx.forward += "    embark::generic::gatherNDBy(" + typedPtr(ctx, data) + ", " +
                   std::to_string(ir::dtypeSize(data->dtype)) + ", " + shapeInit(data->shape) + ", " +
                   typedPtr(ctx, idx) + ", " + elemTypeExpr(idx->dtype) + ", " + shapeInit(idx->shape) + ", " +
                   std::to_string(n.attrInt("batch_dims", 0)) + ", " + typedPtr(ctx, y) + ", " +
                   cppString("node " + n.describe()) + ");\n";
    return {};
}

// Range of run-time scalars: the output's length is the export's, checked at run time.
Status emitRange(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* y = n.output(0);
    EMBARK_TRY(checkType(n, y, "output"));
    std::string args;
    for (size_t i = 0; i < 3; ++i) {
        const ir::Value* v = n.input(i);
        if (!v || v->shape.numel() != 1 || v->dtype != y->dtype)
            return unsupported(Emitter::Portable, n,
                               "Range input " + std::to_string(i) + " that is not a scalar of " +
                                   std::string(ir::dtypeName(y->dtype)));
        args += typedPtr(ctx, v) + ", ";
    }
    ctx.forward += "    embark::generic::range(" + args + elemTypeExpr(y->dtype) + ", " + typedPtr(ctx, y) + ", " +
                   std::to_string(y->shape.numel()) + ", " + cppString("node " + n.describe()) + ");\n";
    return {};
}

// MaxPool whose Indices output is read: both outputs in the model's layout (the indices count
// in it), 1 to 3 spatial dims.
Status emitMaxPoolWithIndices(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *x = n.input(0), *y = n.output(0), *indices = n.output(1);
    if (x->dtype != DType::Float32 || indices->dtype != DType::Int64)
        return unsupported(Emitter::Portable, n, "MaxPool with Indices on " + std::string(ir::dtypeName(x->dtype)));
    if (x->shape.rank() < 3 || x->shape.rank() > 5 || ctx.isNhwc(x) || ctx.isNhwc(y) || ctx.isNhwc(indices))
        return unsupported(Emitter::Portable, n,
                           "MaxPool's Indices output on " + x->shape.str() + " outside the model's layout");
    const size_t spatial = x->shape.rank() - 2;
    const auto kernel = n.attrInts("kernel_shape");
    if (kernel.size() != spatial) return unsupported(Emitter::Portable, n, "a kernel_shape of another rank than X");
    const std::string params = convNdParams(n, x, y, x->shape[1], 1, kernel);
    ctx.forward += "    embark::generic::maxPoolWithIndices(" + params + ", " +
                   (n.attrInt("storage_order", 0) ? "true" : "false") + ", " + ctx.ptr(x) + ", " + ctx.ptr(y) +
                   ", static_cast<int64_t*>(" + typedPtr(ctx, indices) + "));\n";
    return {};
}

// Expand of a non-float tensor to the export's shape, in the model's layout.
Status emitTypedExpand(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *x = n.input(0), *y = n.output(0);
    EMBARK_TRY(checkType(n, x, "input"));
    if (ctx.isNhwc(x) || ctx.isNhwc(y)) return unsupported(Emitter::Portable, n, "a channels-last typed Expand");
    ctx.forward += "    embark::generic::expandBytes(" + typedPtr(ctx, x) + ", " +
                   std::to_string(ir::dtypeSize(x->dtype)) + ", " + shapeInit(x->shape) + ", " + shapeInit(y->shape) +
                   ", " + typedPtr(ctx, y) + ");\n";
    return {};
}

// Concat of non-float tensors (of one type), in the model's layout.
Status emitTypedConcat(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* y = n.output(0);
    EMBARK_TRY(checkType(n, y, "output"));
    if (ctx.isNhwc(y)) return unsupported(Emitter::Portable, n, "a channels-last typed Concat");
    std::string ptrs, shapes;
    int count = 0;
    for (const ir::Value* v : n.inputs()) {
        if (!v || v->shape.numel() == 0) continue;
        if (v->dtype != y->dtype || ctx.isNhwc(v))
            return unsupported(Emitter::Portable, n,
                               "a typed Concat of '" + v->name + "' (" + std::string(ir::dtypeName(v->dtype)) +
                                   ") into " + std::string(ir::dtypeName(y->dtype)));
        ptrs += (count ? ", " : "") + typedPtr(ctx, v);
        shapes += (count ? ", " : "") + shapeInit(v->shape);
        ++count;
    }
    if (!count) return {};
    const int axis = static_cast<int>(y->shape.normAxis(n.attrInt("axis", 0)));
    ctx.forward += "    { const void* in[] = {" + ptrs + "};\n      const embark::generic::Shape shapes[] = {" +
                   shapes + "};\n      embark::generic::concatBytes(in, " + std::to_string(ir::dtypeSize(y->dtype)) +
                   ", shapes, " + std::to_string(count) + ", " + std::to_string(axis) + ", " + typedPtr(ctx, y) +
                   "); }\n";
    return {};
}

// GatherElements by run-time indices (or of non-float data), in the model's layout.
Status emitTypedGatherElements(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *data = n.input(0), *idx = n.input(1), *y = n.output(0);
    EMBARK_TRY(checkType(n, data, "data"));
    if (idx->dtype != DType::Int64 && idx->dtype != DType::Int32)
        return unsupported(Emitter::Portable, n,
                           "GatherElements indices of type " + std::string(ir::dtypeName(idx->dtype)));
    if (ctx.isNhwc(data) || ctx.isNhwc(idx) || ctx.isNhwc(y))
        return unsupported(Emitter::Portable, n, "a typed GatherElements on channels-last data");
    const int axis = static_cast<int>(data->shape.normAxis(n.attrInt("axis", 0)));
    ctx.forward += "    embark::generic::gatherElementsBy(" + typedPtr(ctx, data) + ", " +
                   std::to_string(ir::dtypeSize(data->dtype)) + ", " + shapeInit(data->shape) + ", " +
                   std::to_string(axis) + ", " + typedPtr(ctx, idx) + ", " + elemTypeExpr(idx->dtype) + ", " +
                   shapeInit(idx->shape) + ", " + typedPtr(ctx, y) + ", " + cppString("node " + n.describe()) + ");\n";
    return {};
}

// Trilu of a non-float tensor: the positions it keeps, computed at export time by the reference
// kernel on the positions themselves (k must be constant), the others zero.
Status emitTypedTrilu(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *x = n.input(0), *y = n.output(0);
    EMBARK_TRY(checkType(n, x, "input"));
    if (ctx.isNhwc(x) || ctx.isNhwc(y)) return unsupported(Emitter::Portable, n, "a channels-last typed Trilu");
    const ir::Value* k = n.inputs().size() > 1 ? n.input(1) : nullptr;
    if (k && !k->isConstant())
        return unsupported(Emitter::Portable, n, "the diagonal k computed at run time (make it a constant)");
    std::vector<int64_t> pos(static_cast<size_t>(x->shape.numel()));
    for (size_t i = 0; i < pos.size(); ++i) pos[i] = static_cast<int64_t>(i) + 1;
    ir::Node probe;
    probe.name = n.name;
    probe.op = OpKind::Trilu;
    probe.attrs = n.attrs;
    std::vector<ir::Tensor> in{ir::Tensor::fromInt64s(x->shape, pos)};
    if (k) in.push_back(k->constant);
    auto out = reference::evalNode(probe, in);
    if (!out) return out.error();
    pos = (*out)[0].toInt64Vector();
    for (int64_t& p : pos) --p; // a zero kept by Trilu reads nothing
    ctx.forward += "    embark::generic::gatherFlatBytes(" + typedPtr(ctx, x) + ", " +
                   std::to_string(ir::dtypeSize(x->dtype)) + ", " + ctx.int64s(n.name + ":positions", pos) + ", " +
                   std::to_string(static_cast<int64_t>(pos.size())) + ", " + typedPtr(ctx, y) + ");\n";
    return {};
}

// EyeLike reads only its input's shape, which the export fixes: the output is computed at
// export time and copied in its own type.
Status emitTypedEyeLike(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *x = n.input(0), *y = n.output(0);
    EMBARK_TRY(checkType(n, y, "output"));
    if (ctx.isNhwc(y)) return unsupported(Emitter::Portable, n, "a channels-last EyeLike");
    auto out = reference::evalNode(n, {ir::Tensor(x->dtype, x->shape)});
    if (!out) return out.error();
    ctx.forward += "    std::memcpy(" + typedPtr(ctx, y) + ", embark_weights + " +
                   std::to_string(ctx.rawBytes("eyelike:" + n.name, (*out)[0])) + ", " + std::to_string(y->byteSize()) +
                   ");\n";
    return {};
}

// ArgMax/ArgMin: int64 positions, in the model's layout.
Status emitArgExtreme(EmitContext& ctx, const ir::Node& n) {
    const ir::Value *x = n.input(0), *y = n.output(0);
    EMBARK_TRY(checkType(n, x, "input"));
    if (y->dtype != DType::Int64)
        return unsupported(Emitter::Portable, n, "an output of type " + std::string(ir::dtypeName(y->dtype)));
    if (ctx.isNhwc(x) || ctx.isNhwc(y)) return unsupported(Emitter::Portable, n, "channels-last data");
    const int axis = static_cast<int>(x->shape.normAxis(n.attrInt("axis", 0)));
    ctx.forward += "    embark::generic::argExtreme(" + typedPtr(ctx, x) + ", " + elemTypeExpr(x->dtype) + ", " +
                   shapeInit(x->shape) + ", " + std::to_string(axis) + ", " +
                   (n.op == OpKind::ArgMax ? "true" : "false") + ", " +
                   (n.attrInt("select_last_index", 0) ? "true" : "false") + ", static_cast<int64_t*>(" +
                   typedPtr(ctx, y) + "));\n";
    return {};
}

} // namespace

Status emitPortableTyped(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* y = n.output(0);
    if (typedOpName(n.op)) return emitTypedElementwise(ctx, n); // comparisons, logic, Where, integer arithmetic
    if (ir::isReduceOp(n.op)) return emitPortableData(ctx, n);  // float64: the emitter calls the double kernel
    switch (n.op) {
    case OpKind::DynamicQuantizeLinear: return emitDynamicQuantizeLinear(ctx, n);
    case OpKind::MatMulInteger: return emitMatMulInteger(ctx, n);
    case OpKind::ConvInteger: return emitConvInteger(ctx, n);
    case OpKind::Gather: return emitTypedGather(ctx, n);
    case OpKind::Slice: return emitTypedSlice(ctx, n);
    case OpKind::TopK: return emitTopK(ctx, n);
    case OpKind::NonMaxSuppression: return emitNonMaxSuppression(ctx, n);
    case OpKind::NonZero: return emitNonZero(ctx, n);
    case OpKind::Unique: return emitUnique(ctx, n);
    case OpKind::GatherND: return emitTypedGatherND(ctx, n);
    case OpKind::ArgMax:
    case OpKind::ArgMin: return emitArgExtreme(ctx, n);
    case OpKind::Expand: return emitTypedExpand(ctx, n);
    case OpKind::Concat: return emitTypedConcat(ctx, n);
    case OpKind::GatherElements: return emitTypedGatherElements(ctx, n);
    case OpKind::Range: return emitRange(ctx, n);
    case OpKind::MaxPool: return emitMaxPoolWithIndices(ctx, n);
    case OpKind::Trilu: return emitTypedTrilu(ctx, n);
    case OpKind::EyeLike: return emitTypedEyeLike(ctx, n);
    case OpKind::QLinearConv:
    case OpKind::QLinearMatMul: return emitPortableQLinear(ctx, n);
    case OpKind::Pad:
    case OpKind::Clip:
    case OpKind::OneHot:
    case OpKind::ConstantOfShape:
    case OpKind::HannWindow:
    case OpKind::HammingWindow:
    case OpKind::BlackmanWindow: return emitPortableTypedData(ctx, n);
    case OpKind::CumSum: // float64: the float emitters call the double kernels
    case OpKind::Einsum: return emitPortableIndex(ctx, n);
    case OpKind::Transpose: {
        const ir::Value* x = n.input(0);
        EMBARK_TRY(checkType(n, x, "input"));
        const std::vector<int64_t> perm = transposePerm(n);
        const std::string permVar = ctx.ident(n, "_perm");
        std::string list;
        for (size_t i = 0; i < perm.size(); ++i) list += (i ? ", " : "") + std::to_string(perm[i]);
        ctx.decls += "static const int " + permVar + "[] = {" + list + "};\n";
        ctx.forward += "    embark::generic::transposeBytes(" + typedPtr(ctx, x) + ", " +
                       std::to_string(ir::dtypeSize(x->dtype)) + ", " + shapeInit(x->shape) + ", " + permVar + ", " +
                       typedPtr(ctx, y) + ");\n";
        return {};
    }
    case OpKind::Cast:
    case OpKind::CastLike: {
        const ir::Value* x = n.input(0);
        EMBARK_TRY(checkType(n, x, "input"));
        EMBARK_TRY(checkType(n, y, "output"));
        ctx.forward += "    embark::generic::cast(" + typedPtr(ctx, x) + ", " + elemTypeExpr(x->dtype) + ", " +
                       typedPtr(ctx, y) + ", " + elemTypeExpr(y->dtype) + ", " + std::to_string(y->shape.numel()) +
                       ");\n";
        return {};
    }
    default: // Identity, Dropout, Reshape, Flatten, Squeeze, Unsqueeze: the bytes as they are
        if (ctx.isNhwc(n.input(0)) != ctx.isNhwc(y))
            return unsupported(Emitter::Portable, n, "a layout change of a non-float tensor");
        ctx.forward += "    std::memmove(" + typedPtr(ctx, y) + ", " + typedPtr(ctx, n.input(0)) + ", " +
                       std::to_string(y->byteSize()) + ");\n";
        return {};
    }
}

} // namespace embark::exporter

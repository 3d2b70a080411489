// The portable emitter for ONNX's QOperator ops and run-time quantization parameters:
// QLinearConv and QLinearMatMul (what ONNX Runtime's quantize_static writes in QOperator format)
// as the generic integer sums (convInteger, matmulInteger) then a requantization, and
// QuantizeLinear/DequantizeLinear per axis or with scales read at run time, on the generic
// kernels of runtime/generic/qlinear.h in the model's layout.
#include "export/emit_context.h"

namespace embark::exporter {

using ir::DType;
using ir::OpKind;

namespace {

// The generic::QuantAxis literal of a scale (input s) and zero point (input z, optional).
Expected<std::string> quantAxis(EmitContext& ctx, const ir::Node& n, size_t s, size_t z) {
    const ir::Value* scale = n.input(s);
    const ir::Value* zero = n.input(z);
    if (!scale) return unsupported(Emitter::Portable, n, "a missing scale (input " + std::to_string(s) + ")");
    if (!ir::isFloating(scale->dtype) || elemTypeExpr(scale->dtype).empty())
        return unsupported(Emitter::Portable, n,
                           "scale '" + scale->name + "' of type " + std::string(ir::dtypeName(scale->dtype)));
    if (zero && (zero->shape.numel() != scale->shape.numel() || elemTypeExpr(zero->dtype).empty()))
        return unsupported(Emitter::Portable, n,
                           "zero point '" + zero->name + "' of another length or type than its scale");
    return "embark::generic::QuantAxis{" + typedPtr(ctx, scale) + ", " + elemTypeExpr(scale->dtype) + ", " +
           typedPtr(ctx, zero) + ", " + elemTypeExpr(zero ? zero->dtype : DType::UInt8) + ", " +
           std::to_string(scale->shape.numel()) + "}";
}

Status emitQLinearConv(EmitContext& ctx, const ir::Node& n) {
    EMBARK_TRY(needModelLayout(ctx, n));
    const ir::Value *x = n.input(0), *w = n.input(3), *b = n.input(8), *y = n.output(0);
    if (!x || !w) return unsupported(Emitter::Portable, n, "a missing x or w");
    for (const ir::Value* v : {x, w, y})
        if (!ir::isByteInteger(v->dtype))
            return unsupported(Emitter::Portable, n,
                               "QLinearConv on '" + v->name + "' of type " + std::string(ir::dtypeName(v->dtype)));
    if (x->shape.rank() < 3 || x->shape.rank() > 5 || w->shape.rank() != x->shape.rank())
        return unsupported(Emitter::Portable, n, "QLinearConv on " + x->shape.str() + " (1 to 3 spatial dims)");
    if (b && b->dtype != DType::Int32) return unsupported(Emitter::Portable, n, "a bias that is not int32");
    if (n.input(2) && n.input(2)->shape.numel() != 1)
        return unsupported(Emitter::Portable, n, "a per-channel x zero point (ONNX allows a scalar only)");
    const size_t spatial = x->shape.rank() - 2;
    std::vector<int64_t> kernel(spatial);
    for (size_t i = 0; i < spatial; ++i) kernel[i] = w->shape[2 + i];
    const int64_t batches = y->shape[0], channels = y->shape[1];
    const int64_t plane = channels && batches ? y->shape.numel() / (batches * channels) : 0;
    const ir::Value* wz = n.input(5);
    auto xq = quantAxis(ctx, n, 1, 2);
    auto wq = quantAxis(ctx, n, 4, 5);
    auto yq = quantAxis(ctx, n, 6, 7);
    for (const auto* q : {&xq, &wq, &yq})
        if (!*q) return q->error();
    const std::string acc = "reinterpret_cast<int32_t*>(" + ctx.scratch(n, y->shape.numel()) + ")";
    ctx.forward += "    embark::generic::convInteger(" +
                   convNdParams(n, x, y, channels, n.attrInt("group", 1), kernel) + ", " + typedPtr(ctx, x) + ", " +
                   elemTypeExpr(x->dtype) + ", " + typedPtr(ctx, w) + ", " + elemTypeExpr(w->dtype) + ", " +
                   typedPtr(ctx, n.input(2)) + ", " + typedPtr(ctx, wz) + ", " +
                   std::to_string(wz ? wz->shape.numel() : 0) + ", " + acc + ");\n";
    ctx.forward += "    embark::generic::qlinearConvRequantize(" + acc + ", " +
                   (b ? "static_cast<const int32_t*>(" + typedPtr(ctx, b) + ")" : std::string("nullptr")) + ", " +
                   std::to_string(batches) + ", " + std::to_string(channels) + ", " + std::to_string(plane) + ", " +
                   *xq + ", " + *wq + ", " + *yq + ", " + typedPtr(ctx, y) + ", " + elemTypeExpr(y->dtype) + ");\n";
    return {};
}

Status emitQLinearMatMul(EmitContext& ctx, const ir::Node& n) {
    EMBARK_TRY(needModelLayout(ctx, n));
    const ir::Value *a = n.input(0), *b = n.input(3), *y = n.output(0);
    if (!a || !b) return unsupported(Emitter::Portable, n, "a missing a or b");
    for (const ir::Value* v : {a, b, y})
        if (!ir::isByteInteger(v->dtype))
            return unsupported(Emitter::Portable, n,
                               "QLinearMatMul on '" + v->name + "' of type " + std::string(ir::dtypeName(v->dtype)));
    if (a->shape.rank() < 1 || b->shape.rank() < 1) return unsupported(Emitter::Portable, n, "scalar operands");
    const int64_t rows = a->shape.rank() >= 2 ? a->shape[a->shape.rank() - 2] : 1;
    const int64_t cols = b->shape.rank() >= 2 ? b->shape[b->shape.rank() - 1] : 1;
    auto aq = quantAxis(ctx, n, 1, 2);
    auto bq = quantAxis(ctx, n, 4, 5);
    auto yq = quantAxis(ctx, n, 6, 7);
    for (const auto* q : {&aq, &bq, &yq})
        if (!*q) return q->error();
    auto zeroOf = [&](size_t i) {
        const ir::Value* z = n.input(i);
        return typedPtr(ctx, z) + ", " + std::to_string(z ? z->shape.numel() : 0);
    };
    const std::string acc = "reinterpret_cast<int32_t*>(" + ctx.scratch(n, y->shape.numel()) + ")";
    ctx.forward += "    embark::generic::matmulInteger(" + typedPtr(ctx, a) + ", " + elemTypeExpr(a->dtype) + ", " +
                   shapeInit(a->shape) + ", " + typedPtr(ctx, b) + ", " + elemTypeExpr(b->dtype) + ", " +
                   shapeInit(b->shape) + ", " + zeroOf(2) + ", " + zeroOf(5) + ", " + acc + ");\n";
    ctx.forward += "    embark::generic::qlinearMatMulRequantize(" + acc + ", " + std::to_string(y->shape.numel()) +
                   ", " + std::to_string(rows) + ", " + std::to_string(cols) + ", " + *aq + ", " + *bq + ", " + *yq +
                   ", " + typedPtr(ctx, y) + ", " + elemTypeExpr(y->dtype) + ");\n";
    return {};
}

} // namespace

Status emitQuantizeLinearAxis(EmitContext& ctx, const ir::Node& n) {
    const bool quantize = n.op == OpKind::QuantizeLinear;
    const ir::Value *x = n.input(0), *y = n.output(0);
    const ir::Value* q = quantize ? y : x;
    const ir::Value* f = quantize ? x : y;
    if (n.attrInt("block_size", 0) != 0)
        return unsupported(Emitter::Portable, n, "blocked quantization (block_size) at run time");
    if (f->dtype != DType::Float32 || !ir::isByteInteger(q->dtype))
        return unsupported(Emitter::Portable, n,
                           std::string(ir::dtypeName(f->dtype)) + " <-> " + std::string(ir::dtypeName(q->dtype)) +
                               " at run time (float32 and int8 or uint8)");
    if (ctx.isNhwc(x) != ctx.isNhwc(y))
        return unsupported(Emitter::Portable, n, "a layout change inside " + std::string(ir::opName(n.op)));
    const ir::Value* scale = n.input(1);
    const int64_t count = scale ? scale->shape.numel() : 1;
    int64_t inner = 1;
    if (count > 1) {
        const ir::Shape& s = x->shape;
        const int64_t onnxAxis = s.normAxis(n.attrInt("axis", 1));
        // Adaptation stores 4-D channels-last data as [N][H][W][C]: ONNX axis 1 is stored last.
        const int64_t axis =
            ctx.isNhwc(x) && s.rank() == 4 ? std::vector<int64_t>{0, 3, 1, 2}[static_cast<size_t>(onnxAxis)] : onnxAxis;
        if (s[static_cast<size_t>(axis)] != count)
            return unsupported(Emitter::Portable, n,
                               std::to_string(count) + " scales for axis " + std::to_string(onnxAxis) + " of " +
                                   s.str());
        for (size_t d = static_cast<size_t>(axis) + 1; d < s.rank(); ++d) inner *= s[d];
    }
    auto params = quantAxis(ctx, n, 1, 2);
    if (!params) return params.error();
    const std::string total = std::to_string(y->shape.numel());
    if (quantize)
        ctx.forward += "    embark::generic::quantizeLinear(" + ctx.ptr(x) + ", " + total + ", " +
                       std::to_string(inner) + ", " + *params + ", " + typedPtr(ctx, y) + ", " +
                       elemTypeExpr(y->dtype) + ");\n";
    else
        ctx.forward += "    embark::generic::dequantizeLinear(" + typedPtr(ctx, x) + ", " + elemTypeExpr(x->dtype) +
                       ", " + total + ", " + std::to_string(inner) + ", " + *params + ", " + ctx.ptr(y) + ");\n";
    return {};
}

Status emitPortableQLinear(EmitContext& ctx, const ir::Node& n) {
    switch (n.op) {
    case OpKind::QLinearConv: return emitQLinearConv(ctx, n);
    case OpKind::QLinearMatMul: return emitQLinearMatMul(ctx, n);
    default: return emitQuantizeLinearAxis(ctx, n);
    }
}

} // namespace embark::exporter

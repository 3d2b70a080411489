// The portable emitter for int8 tensors (quantized models after the fuse_qdq pass): QConv,
// QGemm, QAdd, QAveragePool and QLookup on the int8 kernels of runtime/portable/
// quant.h, run-time QuantizeLinear/DequantizeLinear (per tensor, int8 or uint8) at the float
// boundaries (per axis on the generic kernels, emit_portable_qlinear.cpp), and the data movement ops (Reshape, Flatten,
// Squeeze, Unsqueeze, Transpose, Concat, MaxPool) on int8 data. Everything else on int8 is refused (status 3) naming
// the node.
#include "export/emit_context.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace embark::exporter {

using ir::DType;
using ir::OpKind;

namespace {

const char* ctype(DType t) { return t == DType::UInt8 ? "uint8_t" : "int8_t"; }

// C++ pointer expression of a byte-typed value: the blob for constants, the arena otherwise.
std::string bytePtr(EmitContext& ctx, const ir::Value* v) {
    const std::string type = ctype(v->dtype);
    if (v->isConstant())
        return "reinterpret_cast<const " + type + "*>(W(" + std::to_string(ctx.rawBytes(v->name, v->constant)) + "))";
    return "reinterpret_cast<" + type + "*>(" + ctx.ptr(v) + ")";
}

std::string rawPtr(EmitContext& ctx, const std::string& key, const ir::Tensor& t, const char* type) {
    return "reinterpret_cast<const " + std::string(type) + "*>(W(" + std::to_string(ctx.rawBytes(key, t)) + "))";
}

std::string requantization(const ir::Node& n) {
    return "embark::portable::Requantization{" + std::to_string(n.attrInt("y_zero_point", 0)) + ", " +
           std::to_string(n.attrInt("out_min", -128)) + ", " + std::to_string(n.attrInt("out_max", 127)) + "}";
}

// A scalar constant input as float / int (scale, zero point).
bool scalarInput(const ir::Node& n, size_t i, double* out) {
    const ir::Tensor* t = constant(n, i);
    if (!t || t->numel() != 1) return false;
    *out = t->at(0);
    return true;
}

// [a][b][c][d] -> [a][d][b][c] of any 1-byte tensor (undoes adaptation's OHWI permutation).
ir::Tensor toChannelsSecondBytes(const ir::Tensor& t) {
    const auto& d = t.shape().dims();
    ir::Tensor out(t.dtype(), ir::Shape{d[0], d[3], d[1], d[2]});
    const auto* src = static_cast<const unsigned char*>(t.data());
    auto* dst = static_cast<unsigned char*>(out.mutableData());
    for (int64_t a = 0; a < d[0]; ++a)
        for (int64_t h = 0; h < d[1]; ++h)
            for (int64_t w = 0; w < d[2]; ++w)
                for (int64_t c = 0; c < d[3]; ++c)
                    dst[((a * d[3] + c) * d[1] + h) * d[2] + w] = src[((a * d[1] + h) * d[2] + w) * d[3] + c];
    return out;
}

Status needNhwc4D(EmitContext& ctx, const ir::Node& n) {
    if (ctx.format(n) != targets::Layout::NHWC || !n.input(0) || n.input(0)->shape.rank() != 4)
        return unsupported(Emitter::Portable, n, "int8 " + std::string(ir::opName(n.op)) + " outside NHWC 4-D data");
    return {};
}

Status emitQuantizeLinear(EmitContext& ctx, const ir::Node& n) {
    const bool quantize = n.op == OpKind::QuantizeLinear;
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const ir::Value* q = quantize ? y : x;
    double scale = 0, zp = 0;
    // Per axis, parameters read at run time or blocked: the generic kernel.
    if (!scalarInput(n, 1, &scale) || (n.input(2) && !scalarInput(n, 2, &zp)) || n.attrInt("block_size", 0) != 0)
        return emitQuantizeLinearAxis(ctx, n);
    if (!ir::isByteInteger(q->dtype))
        return unsupported(Emitter::Portable, n,
                           std::string(ir::dtypeName(q->dtype)) + " quantized data at run time (int8, uint8)");
    const std::string suffix = q->dtype == DType::UInt8 ? "u8" : "s8";
    const std::string count = std::to_string(y->shape.numel());
    if (quantize)
        ctx.forward += "    embark::portable::quantize_" + suffix + "(" + ctx.ptr(x) + ", " + bytePtr(ctx, y) + ", " +
                       count + ", " + cppFloat(scale) + ", " + std::to_string(static_cast<int>(zp)) + ");\n";
    else
        ctx.forward += "    embark::portable::dequantize_" + suffix + "(" + bytePtr(ctx, x) + ", " + ctx.ptr(y) + ", " +
                       count + ", " + cppFloat(scale) + ", " + std::to_string(static_cast<int>(zp)) + ");\n";
    return {};
}

Status emitQConv(EmitContext& ctx, const ir::Node& n) {
    EMBARK_TRY(needNhwc4D(ctx, n));
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    const ir::Value* b = n.input(2);
    const ir::Value* y = n.output(0);
    if (!w || !w->isConstant() || w->dtype != DType::Int8 || w->shape.rank() != 4)
        return unsupported(Emitter::Portable, n, "QConv without constant int8 4-D weights");
    const ir::Tensor wOnnx = ctx.isNhwc(w) ? toChannelsSecondBytes(w->constant) : w->constant;
    const int64_t kh = wOnnx.shape()[2], kw = wOnnx.shape()[3];
    const auto& xs = x->shape.dims();
    const auto& ys = y->shape.dims();
    const Spatial2D s = spatial2D(n, kh, kw, xs[1], xs[2], ys[1], ys[2]);
    const int64_t group = n.attrInt("group", 1);
    const std::string shape = "embark::portable::Conv2DShape{" + std::to_string(xs[0]) + ", " + std::to_string(xs[1]) +
                              ", " + std::to_string(xs[2]) + ", " + std::to_string(xs[3]) + ", " +
                              std::to_string(ys[3]) + ", " + std::to_string(kh) + ", " + std::to_string(kw) + ", " +
                              std::to_string(s.sh) + ", " + std::to_string(s.sw) + ", " + std::to_string(s.dh) + ", " +
                              std::to_string(s.dw) + ", " + std::to_string(s.pt) + ", " + std::to_string(s.pl) + ", " +
                              std::to_string(s.pb) + ", " + std::to_string(s.pr) + ", " + std::to_string(group) + "}";
    std::vector<float> m = n.attrFloats("multiplier");
    if (m.size() == 1) m.assign(static_cast<size_t>(ys[3]), m[0]);
    if (static_cast<int64_t>(m.size()) != ys[3])
        return unsupported(Emitter::Portable, n, "a multiplier count that is not the output channels");
    const std::string bias =
        b && b->isConstant() ? rawPtr(ctx, b->name, b->constant, "int32_t") : std::string("nullptr");
    const std::string obj = ctx.ident(n);
    ctx.decls += "static embark::portable::QConv2D " + obj + ";\n";
    ctx.init += "    " + obj + " = embark::portable::pack_qconv2d(" + shape + ", " + std::to_string(ys[1]) + ", " +
                std::to_string(ys[2]) + ", " + rawPtr(ctx, w->name + ":onnx", wOnnx, "int8_t") + ", " + bias + ", " +
                ctx.floats(n.name + ":multiplier", m) + ", " + std::to_string(n.attrInt("x_zero_point", 0)) + ", " +
                requantization(n) + ");\n";
    ctx.forward +=
        "    embark::portable::qconv2d(" + obj + ", " + bytePtr(ctx, x) + ", " + bytePtr(ctx, y) + ", g_pool.get());\n";
    return {};
}

Status emitQGemm(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    const ir::Value* b = n.input(2);
    const ir::Value* y = n.output(0);
    if (!w || !w->isConstant() || w->dtype != DType::Int8 || w->shape.rank() != 2)
        return unsupported(Emitter::Portable, n, "QGemm without constant int8 [N, K] weights");
    const int64_t N = w->shape[0], K = w->shape[1];
    const int64_t rows = K ? x->shape.numel() / K : 0;
    std::vector<float> m = n.attrFloats("multiplier");
    if (m.size() == 1) m.assign(static_cast<size_t>(N), m[0]);
    if (static_cast<int64_t>(m.size()) != N)
        return unsupported(Emitter::Portable, n, "a multiplier count that is not the output channels");
    if (rows < 1 || rows > INT32_MAX || K > INT32_MAX || N > INT32_MAX)
        return unsupported(Emitter::Portable, n, "an empty or oversized QGemm (" + std::to_string(rows) + " rows)");
    // A 1x1 QConv2D over `rows` pixels of K channels: [N][K] is ONNX's [M][C][1][1], and the
    // convolution's packed register tile is the fast int8 GEMM.
    const std::string shape = "embark::portable::Conv2DShape{1, 1, " + std::to_string(rows) + ", " + std::to_string(K) +
                              ", " + std::to_string(N) + ", 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}";
    const std::string bias =
        b && b->isConstant() ? rawPtr(ctx, b->name, b->constant, "int32_t") : std::string("nullptr");
    const std::string obj = ctx.ident(n);
    ctx.decls += "static embark::portable::QConv2D " + obj + ";\n";
    ctx.init += "    " + obj + " = embark::portable::pack_qconv2d(" + shape + ", 1, " + std::to_string(rows) + ", " +
                rawPtr(ctx, w->name, w->constant, "int8_t") + ", " + bias + ", " +
                ctx.floats(n.name + ":multiplier", m) + ", " + std::to_string(n.attrInt("x_zero_point", 0)) + ", " +
                requantization(n) + ");\n";
    ctx.forward +=
        "    embark::portable::qconv2d(" + obj + ", " + bytePtr(ctx, x) + ", " + bytePtr(ctx, y) + ", g_pool.get());\n";
    return {};
}

Status emitQAdd(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* a = n.input(0);
    const ir::Value* b = n.input(1);
    const ir::Value* y = n.output(0);
    if (a->shape != b->shape || a->shape != y->shape)
        return unsupported(Emitter::Portable, n, "QAdd of operands of different shapes");
    const std::string params = ctx.ident(n, "_params");
    ctx.decls += "static const embark::portable::QAddParams " + params + " = {" +
                 cppFloat(n.attrFloat("a_scale", 1.f)) + ", " + cppFloat(n.attrFloat("b_scale", 1.f)) + ", " +
                 cppFloat(n.attrFloat("y_scale", 1.f)) + ", " + std::to_string(n.attrInt("a_zero_point", 0)) + ", " +
                 std::to_string(n.attrInt("b_zero_point", 0)) + ", " + requantization(n) + "};\n";
    ctx.forward += "    embark::portable::qadd(" + params + ", " + bytePtr(ctx, a) + ", " + bytePtr(ctx, b) + ", " +
                   bytePtr(ctx, y) + ", " + std::to_string(y->shape.numel()) + ", g_pool.get());\n";
    return {};
}

std::string poolShape(const ir::Node& n, const ir::Value* x, const ir::Value* y, const Spatial2D& s) {
    const auto& xs = x->shape.dims();
    const auto& ys = y->shape.dims();
    return "embark::portable::Pool2DShape{" + std::to_string(xs[0]) + ", " + std::to_string(xs[1]) + ", " +
           std::to_string(xs[2]) + ", " + std::to_string(xs[3]) + ", " + std::to_string(ys[1]) + ", " +
           std::to_string(ys[2]) + ", " + std::to_string(s.kh) + ", " + std::to_string(s.kw) + ", " +
           std::to_string(s.sh) + ", " + std::to_string(s.sw) + ", " + std::to_string(s.dh) + ", " +
           std::to_string(s.dw) + ", " + std::to_string(s.pt) + ", " + std::to_string(s.pl) + ", " +
           std::to_string(s.pb) + ", " + std::to_string(s.pr) + "}";
    (void)n;
}

Status emitPools(EmitContext& ctx, const ir::Node& n) {
    EMBARK_TRY(needNhwc4D(ctx, n));
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    // uint8 max pooling: the int8 kernel on the bytes with their sign bit flipped (the same order).
    const bool flipped = n.op == OpKind::MaxPool && x->dtype == DType::UInt8 && y->dtype == DType::UInt8;
    if (x->dtype != DType::Int8 && !flipped)
        return unsupported(Emitter::Portable, n, std::string(ir::dtypeName(x->dtype)) + " pooling");
    const auto& xs = x->shape.dims();
    const auto& ys = y->shape.dims();
    Spatial2D s;
    if (n.attrInt("global", 0)) {
        s.kh = xs[1];
        s.kw = xs[2];
    } else {
        const auto kernel = n.attrInts("kernel_shape");
        if (kernel.size() != 2) return unsupported(Emitter::Portable, n, "int8 pooling that is not 2-D");
        s = spatial2D(n, kernel[0], kernel[1], xs[1], xs[2], ys[1], ys[2]);
    }
    if (flipped) {
        const std::string xs8 = "reinterpret_cast<int8_t*>(" + ctx.scratch(n, (x->shape.numel() + 3) / 4) + ")";
        const std::string ys8 = "reinterpret_cast<int8_t*>(" + bytePtr(ctx, y) + ")";
        ctx.forward += "    embark::generic::flipSignBit(" + bytePtr(ctx, x) + ", " + xs8 + ", " +
                       std::to_string(x->shape.numel()) + ");\n    embark::portable::max_pool2d_s8(" +
                       poolShape(n, x, y, s) + ", " + xs8 + ", " + ys8 + ", g_pool.get());\n" +
                       "    embark::generic::flipSignBit(" + ys8 + ", " + ys8 + ", " +
                       std::to_string(y->shape.numel()) + ");\n";
        return {};
    }
    if (n.op == OpKind::MaxPool) {
        ctx.forward += "    embark::portable::max_pool2d_s8(" + poolShape(n, x, y, s) + ", " + bytePtr(ctx, x) + ", " +
                       bytePtr(ctx, y) + ", g_pool.get());\n";
        return {};
    }
    s.dh = s.dw = 1;
    ctx.forward += "    embark::portable::average_pool2d_s8(" + poolShape(n, x, y, s) + ", " +
                   (n.attrInt("count_include_pad", 0) ? "true" : "false") + ", " +
                   std::to_string(n.attrInt("x_zero_point", 0)) + ", " + cppFloat(n.attrFloat("multiplier", 1.f)) +
                   ", " + requantization(n) + ", " + bytePtr(ctx, x) + ", " + bytePtr(ctx, y) + ", g_pool.get());\n";
    return {};
}

Status emitQLookup(EmitContext& ctx, const ir::Node& n) {
    const std::vector<int64_t> table = n.attrInts("table");
    if (table.size() != 256) return unsupported(Emitter::Portable, n, "a QLookup table without 256 entries");
    std::vector<int8_t> bytes(256);
    for (size_t i = 0; i < 256; ++i) bytes[i] = static_cast<int8_t>(table[i]);
    const ir::Tensor t = ir::Tensor::fromBytes(DType::Int8, ir::Shape{256}, bytes.data(), bytes.size());
    ctx.forward += "    embark::portable::qlookup(" + rawPtr(ctx, n.name + ":table", t, "int8_t") + ", " +
                   bytePtr(ctx, n.input(0)) + ", " + bytePtr(ctx, n.output(0)) + ", " +
                   std::to_string(n.output(0)->shape.numel()) + ");\n";
    return {};
}

Status emitByteMovement(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    if (!ir::isByteInteger(y->dtype) || (x && !ir::isByteInteger(x->dtype) && n.op != OpKind::Concat))
        return unsupported(Emitter::Portable, n,
                           "a conversion between integer and float types in " + std::string(ir::opName(n.op)));
    switch (n.op) {
    case OpKind::Reshape:
    case OpKind::Flatten:
    case OpKind::Squeeze:
    case OpKind::Unsqueeze:
    case OpKind::Identity:
    case OpKind::Dropout: {
        const std::string src = bytePtr(ctx, x), dst = bytePtr(ctx, y);
        ctx.forward += "    if (static_cast<const void*>(" + dst + ") != static_cast<const void*>(" + src +
                       ")) std::memcpy(" + dst + ", " + src + ", " + std::to_string(y->shape.numel()) + ");\n";
        return {};
    }
    case OpKind::Transpose: {
        const std::vector<int64_t> perm = transposePerm(n);
        if (perm.size() > 8) return unsupported(Emitter::Portable, n, "a transpose of more than 8 dimensions");
        const std::string var = ctx.ident(n, "_t");
        std::string permList;
        for (size_t i = 0; i < perm.size(); ++i) permList += (i ? ", " : "") + std::to_string(perm[i]);
        ctx.decls += "static const int64_t " + var +
                     "_dims[] = " + cppInts(x->shape.dims().empty() ? std::vector<int64_t>{1} : x->shape.dims()) +
                     ";\nstatic const int " + var + "_perm[] = {" + (permList.empty() ? std::string("0") : permList) +
                     "};\n";
        ctx.forward += "    embark::portable::transpose_bytes(" + bytePtr(ctx, x) + ", " + var + "_dims, " +
                       std::to_string(std::max<size_t>(1, perm.size())) + ", " + var + "_perm, " + bytePtr(ctx, y) +
                       ");\n";
        return {};
    }
    case OpKind::Concat: {
        const int64_t axis = y->shape.normAxis(n.attrInt("axis", 0));
        int64_t outer = 1, inner = 1;
        for (size_t i = 0; i < static_cast<size_t>(axis); ++i) outer *= y->shape[i];
        for (size_t i = static_cast<size_t>(axis) + 1; i < y->shape.rank(); ++i) inner *= y->shape[i];
        std::string ptrs, sizes;
        int count = 0;
        for (const ir::Value* v : n.inputs()) {
            if (!v || v->shape.numel() == 0) continue;
            if (!ir::isByteInteger(v->dtype))
                return unsupported(Emitter::Portable, n, "a Concat of int8 and float tensors");
            ptrs += (count ? ", " : "") + bytePtr(ctx, v);
            sizes += (count ? ", " : "") + std::to_string(v->shape[static_cast<size_t>(axis)]);
            ++count;
        }
        ctx.forward += "    { const void* ins[] = {" + ptrs + "};\n      static const int64_t sizes[] = {" + sizes +
                       "};\n      embark::portable::concat_bytes(ins, sizes, " + std::to_string(count) + ", " +
                       std::to_string(outer) + ", " + std::to_string(inner) + ", " + bytePtr(ctx, y) + "); }\n";
        return {};
    }
    case OpKind::MaxPool: return emitPools(ctx, n);
    default: break;
    }
    return unsupported(Emitter::Portable, n,
                       std::string(ir::opName(n.op)) + " on " + std::string(ir::dtypeName(y->dtype)) +
                           " data at run time (int8 runs convolutions, Gemm/MatMul, Add, pooling, Concat, "
                           "the layout ops and element-wise tables after the fuse_qdq pass)");
}

bool runtimeByteInt(const ir::Value* v) { return v && !v->isConstant() && ir::isByteInteger(v->dtype); }

} // namespace

bool isQuantizedNode(const ir::Node& n) {
    if (ir::isFusedQuantized(n.op)) return true;
    switch (n.op) {
    case OpKind::QuantizeLinear: return runtimeByteInt(n.output(0)) && n.input(0) && !n.input(0)->isConstant();
    case OpKind::DequantizeLinear: return runtimeByteInt(n.input(0));
    case OpKind::Reshape:
    case OpKind::Flatten:
    case OpKind::Squeeze:
    case OpKind::Unsqueeze:
    case OpKind::Identity:
    case OpKind::Dropout:
    case OpKind::Transpose:
    case OpKind::Concat:
    case OpKind::MaxPool: return runtimeByteInt(n.input(0)) || runtimeByteInt(n.output(0));
    default: return false;
    }
}

Status emitPortableQuantized(EmitContext& ctx, const ir::Node& n) {
    switch (n.op) {
    case OpKind::QuantizeLinear:
    case OpKind::DequantizeLinear: return emitQuantizeLinear(ctx, n);
    case OpKind::QConv: return emitQConv(ctx, n);
    case OpKind::QGemm: return emitQGemm(ctx, n);
    case OpKind::QAdd: return emitQAdd(ctx, n);
    case OpKind::QAveragePool: return emitPools(ctx, n);
    case OpKind::QLookup: return emitQLookup(ctx, n);
    default: return emitByteMovement(ctx, n);
    }
}

bool quantParamsOf(const ir::Value* v, float* scale, int* zeroPoint) {
    for (int depth = 0; v && depth < 64; ++depth) {
        const ir::Node* p = v->producer();
        if (!p) return false;
        if (p->op == OpKind::QuantizeLinear) {
            double s = 0, z = 0;
            if (!scalarInput(*p, 1, &s) || (p->input(2) && !scalarInput(*p, 2, &z))) return false;
            *scale = static_cast<float>(s);
            *zeroPoint = static_cast<int>(z);
            return true;
        }
        if (p->has("y_scale")) {
            *scale = p->attrFloat("y_scale", 1.f);
            *zeroPoint = static_cast<int>(p->attrInt("y_zero_point", 0));
            return true;
        }
        if (p->op == OpKind::QLinearConv || p->op == OpKind::QLinearMatMul) { // y's scale and zero point: inputs 6, 7
            double s = 0, z = 0;
            if (!scalarInput(*p, 6, &s) || (p->input(7) && !scalarInput(*p, 7, &z))) return false;
            *scale = static_cast<float>(s);
            *zeroPoint = static_cast<int>(z);
            return true;
        }
        switch (p->op) { // data movement keeps the parameters; any other op has its own
        case OpKind::Reshape:
        case OpKind::Flatten:
        case OpKind::Squeeze:
        case OpKind::Unsqueeze:
        case OpKind::Identity:
        case OpKind::Dropout:
        case OpKind::Transpose:
        case OpKind::Concat:
        case OpKind::MaxPool:
        case OpKind::Slice:
        case OpKind::Gather:
        case OpKind::Pad: v = p->input(0); break;
        default: return false;
        }
    }
    return false;
}

} // namespace embark::exporter

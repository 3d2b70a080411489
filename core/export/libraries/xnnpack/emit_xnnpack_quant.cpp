// The int8 half of the XNNPACK emitter: the fuse_qdq pass's QConv (grouped and depthwise
// included) and QGemm as embark_xnn::QConvolution2d / QFullyConnected, and MaxPool on int8
// data as embark_xnn::QMaxPool2d
// (runtime/xnnpack/embark_xnnpack_quant.cpp), on the parameters fuse_qdq keeps on
// each node (x_scale, x_zero_point, w_scale, y_scale, y_zero_point, out_min, out_max). The
// support table (xnnpack_library.cpp) only assigns nodes that keep XNNPACK's qs8-qc8w
// contract here (QAdd stays on portable: see xnnpack_library.cpp); what reaches this file
// otherwise is refused naming the node.
#include "export/emit_context.h"

namespace embark::exporter {
namespace {

using ir::DType;
using ir::OpKind;

std::string i8Ptr(EmitContext& ctx, const ir::Value* v) { return "reinterpret_cast<int8_t*>(" + ctx.ptr(v) + ")"; }

std::string constPtr(EmitContext& ctx, const std::string& key, const ir::Tensor& t, const char* type) {
    return "reinterpret_cast<const " + std::string(type) + "*>(W(" + std::to_string(ctx.rawBytes(key, t)) + "))";
}

std::string quantParams(const ir::Node& n, const char* scale, const char* zeroPoint) {
    return "embark_xnn::QuantParams{" + std::to_string(n.attrInt(zeroPoint, 0)) + ", " +
           cppFloat(n.attrFloat(scale, 1.f)) + "}";
}

std::string quantOutput(const ir::Node& n) {
    return "embark_xnn::QuantOutput{" + std::to_string(n.attrInt("y_zero_point", 0)) + ", " +
           cppFloat(n.attrFloat("y_scale", 1.f)) + ", " + std::to_string(n.attrInt("out_min", -128)) + ", " +
           std::to_string(n.attrInt("out_max", 127)) + "}";
}

// One scale per output channel (a per-tensor scale repeated), as XNNPACK's qc8w wants.
std::vector<float> kernelScales(const ir::Node& n, int64_t channels) {
    std::vector<float> s = n.attrFloats("w_scale");
    if (s.size() == 1) s.assign(static_cast<size_t>(channels), s[0]);
    return s;
}

std::string bias(EmitContext& ctx, const ir::Value* b) {
    return b && b->isConstant() ? constPtr(ctx, b->name, b->constant, "int32_t") : std::string("nullptr");
}

// [a][b][c][d] -> [a][c][d][b] of a 1-byte tensor (OIHW -> OHWI).
ir::Tensor toChannelsLastBytes(const ir::Tensor& t) {
    const auto& d = t.shape().dims();
    ir::Tensor out(t.dtype(), ir::Shape{d[0], d[2], d[3], d[1]});
    const auto* src = static_cast<const unsigned char*>(t.data());
    auto* dst = static_cast<unsigned char*>(out.mutableData());
    for (int64_t a = 0; a < d[0]; ++a)
        for (int64_t c = 0; c < d[1]; ++c)
            for (int64_t h = 0; h < d[2]; ++h)
                for (int64_t w = 0; w < d[3]; ++w)
                    dst[((a * d[2] + h) * d[3] + w) * d[1] + c] = src[((a * d[1] + c) * d[2] + h) * d[3] + w];
    return out;
}

Status emitXnnpackQConv(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    const ir::Value* y = n.output(0);
    if (x->shape.rank() != 4 || !w || !w->isConstant() || w->dtype != DType::Int8 || w->shape.rank() != 4 ||
        !ctx.isNhwc(x))
        return unsupported(Emitter::Xnnpack, n, "an int8 convolution outside NHWC 4-D data with constant int8 weights");
    const bool ohwi = ctx.isNhwc(w);
    const ir::Tensor filter = ohwi ? w->constant : toChannelsLastBytes(w->constant);
    const int64_t kh = filter.shape()[1], kw = filter.shape()[2], cout = y->shape[3];
    const std::vector<float> scales = kernelScales(n, cout);
    if (static_cast<int64_t>(scales.size()) != cout)
        return unsupported(Emitter::Xnnpack, n, "a w_scale count that is not the output channels");
    const Spatial2D s = spatial2D(n, kh, kw, x->shape[1], x->shape[2], y->shape[1], y->shape[2]);
    const std::string p = "embark_xnn::Conv2dParams{" + std::to_string(x->shape[0]) + ", " +
                          std::to_string(x->shape[1]) + ", " + std::to_string(x->shape[2]) + ", " +
                          std::to_string(x->shape[3]) + ", " + std::to_string(cout) + ", " + std::to_string(kh) + ", " +
                          std::to_string(kw) + ", " + std::to_string(s.sh) + ", " + std::to_string(s.sw) + ", " +
                          std::to_string(s.dh) + ", " + std::to_string(s.dw) + ", " + std::to_string(s.pt) + ", " +
                          std::to_string(s.pl) + ", " + std::to_string(s.pb) + ", " + std::to_string(s.pr) + ", " +
                          std::to_string(n.attrInt("group", 1)) + "}";
    const std::string obj = ctx.ident(n);
    ctx.decls += "static std::unique_ptr<embark_xnn::QConvolution2d> " + obj + ";\n";
    ctx.init += "    " + obj + " = std::make_unique<embark_xnn::QConvolution2d>(*g_xnn, " + cppString(n.name) + ", " +
                p + ", " + quantParams(n, "x_scale", "x_zero_point") + ", " +
                constPtr(ctx, w->name + ":ohwi", filter, "int8_t") + ", " +
                ctx.floats(n.name + ":kernel_scale", scales) + ", " + bias(ctx, n.input(2)) + ", " + quantOutput(n) +
                ");\n";
    ctx.forward += "    " + obj + "->forward(" + i8Ptr(ctx, x) + ", " + i8Ptr(ctx, y) + ");\n";
    return {};
}

Status emitXnnpackQGemm(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    const ir::Value* y = n.output(0);
    if (!w || !w->isConstant() || w->dtype != DType::Int8 || w->shape.rank() != 2)
        return unsupported(Emitter::Xnnpack, n, "an int8 Gemm without constant int8 [N, K] weights");
    const int64_t N = w->shape[0], K = w->shape[1];
    const int64_t rows = K ? x->shape.numel() / K : 0;
    if (rows < 1 || y->shape.numel() != rows * N)
        return unsupported(Emitter::Xnnpack, n, "an empty or reshaping int8 Gemm");
    const std::vector<float> scales = kernelScales(n, N);
    if (static_cast<int64_t>(scales.size()) != N)
        return unsupported(Emitter::Xnnpack, n, "a w_scale count that is not the output channels");
    const std::string obj = ctx.ident(n);
    ctx.decls += "static std::unique_ptr<embark_xnn::QFullyConnected> " + obj + ";\n";
    ctx.init += "    " + obj + " = std::make_unique<embark_xnn::QFullyConnected>(*g_xnn, " + cppString(n.name) + ", " +
                std::to_string(rows) + ", " + std::to_string(K) + ", " + std::to_string(N) + ", " +
                quantParams(n, "x_scale", "x_zero_point") + ", " + constPtr(ctx, w->name, w->constant, "int8_t") +
                ", " + ctx.floats(n.name + ":kernel_scale", scales) + ", " + bias(ctx, n.input(2)) + ", " +
                quantOutput(n) + ");\n";
    ctx.forward += "    " + obj + "->forward(" + i8Ptr(ctx, x) + ", " + i8Ptr(ctx, y) + ");\n";
    return {};
}

Status emitXnnpackQMaxPool(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const auto k = n.attrInts("kernel_shape");
    if (x->shape.rank() != 4 || y->dtype != DType::Int8 || k.size() != 2 || !ctx.isNhwc(x))
        return unsupported(Emitter::Xnnpack, n, "int8 max pooling outside NHWC 4-D data");
    const Spatial2D s = spatial2D(n, k[0], k[1], x->shape[1], x->shape[2], y->shape[1], y->shape[2]);
    const std::string p = "embark_xnn::Pool2dParams{" + std::to_string(x->shape[0]) + ", " +
                          std::to_string(x->shape[1]) + ", " + std::to_string(x->shape[2]) + ", " +
                          std::to_string(x->shape[3]) + ", " + std::to_string(s.kh) + ", " + std::to_string(s.kw) +
                          ", " + std::to_string(s.sh) + ", " + std::to_string(s.sw) + ", " + std::to_string(s.dh) +
                          ", " + std::to_string(s.dw) + ", " + std::to_string(s.pt) + ", " + std::to_string(s.pl) +
                          ", " + std::to_string(s.pb) + ", " + std::to_string(s.pr) + "}";
    const std::string obj = ctx.ident(n);
    ctx.decls += "static std::unique_ptr<embark_xnn::QMaxPool2d> " + obj + ";\n";
    ctx.init +=
        "    " + obj + " = std::make_unique<embark_xnn::QMaxPool2d>(*g_xnn, " + cppString(n.name) + ", " + p + ");\n";
    ctx.forward += "    " + obj + "->forward(" + i8Ptr(ctx, x) + ", " + i8Ptr(ctx, y) + ");\n";
    return {};
}

} // namespace

Status emitXnnpackQuantized(EmitContext& ctx, const ir::Node& n) {
    ctx.linked.insert("xnnpack");
    switch (n.op) {
    case OpKind::QConv: return emitXnnpackQConv(ctx, n);
    case OpKind::QGemm: return emitXnnpackQGemm(ctx, n);
    case OpKind::MaxPool: return emitXnnpackQMaxPool(ctx, n);
    default:
        return unsupported(Emitter::Xnnpack, n,
                           "int8 " + std::string(ir::opName(n.op)) +
                               " (XNNPACK runs int8 QConv, QGemm and MaxPool; assign it to portable)");
    }
}

} // namespace embark::exporter

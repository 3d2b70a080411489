// The XNNPACK emitter: one embark_xnn operator object per layer (runtime/xnnpack),
// created in init() so weights are packed once, and run in forward(). Shapes are physical
// (NHWC for 4-D activations); weights were permuted by the adaptation at export time.
#include "export/emit_context.h"

#include "ir/fused.h"

#include <cmath>

namespace embark::exporter {
namespace {

using ir::OpKind;

std::string range(const ir::Node& n) {
    const auto a = ir::fusedActivation(n);
    if (!a) return "embark_xnn::OutputRange::none()";
    if (a->op == OpKind::Relu) return "embark_xnn::OutputRange::relu()";
    if (a->op == OpKind::Clip)
        return "embark_xnn::OutputRange::clip(" + cppFloat(a->min) + ", " + cppFloat(a->max) + ")";
    return "";
}

std::string sizes(const std::vector<int64_t>& d) { return "std::vector<size_t>" + cppInts(d); }

// Declares a std::unique_ptr<T> layer object, creates it in init() with `args`.
std::string layer(EmitContext& ctx, const ir::Node& n, const std::string& type, const std::string& args) {
    const std::string obj = ctx.ident(n);
    ctx.decls += "static std::unique_ptr<embark_xnn::" + type + "> " + obj + ";\n";
    ctx.init += "    " + obj + " = std::make_unique<embark_xnn::" + type + ">(*g_xnn, " + cppString(n.name) + ", " +
                args + ");\n";
    return obj;
}

// ONNX ConvTranspose weights ([Cin][Cout/g][kh][kw], or [Cin][kh][kw][Cout/g] once the
// adaptation moved them to NHWC) repacked into XNNPACK's [g][Cout/g][kh][kw][Cin/g].
std::vector<float> deconvolutionFilter(const ir::Value* w, bool nhwc, int64_t groups) {
    const ir::Tensor& t = w->constant;
    const int64_t cin = w->shape[0], kh = nhwc ? w->shape[1] : w->shape[2], kw = nhwc ? w->shape[2] : w->shape[3];
    const int64_t coutg = nhwc ? w->shape[3] : w->shape[1], cing = cin / groups;
    std::vector<float> out(static_cast<size_t>(cin * coutg * kh * kw));
    size_t k = 0;
    for (int64_t g = 0; g < groups; ++g)
        for (int64_t oc = 0; oc < coutg; ++oc)
            for (int64_t y = 0; y < kh; ++y)
                for (int64_t x = 0; x < kw; ++x)
                    for (int64_t ic = 0; ic < cing; ++ic) {
                        const int64_t c = g * cing + ic;
                        out[k++] = static_cast<float>(nhwc ? t.at(((c * kh + y) * kw + x) * coutg + oc)
                                                           : t.at(((c * coutg + oc) * kh + y) * kw + x));
                    }
    return out;
}

Status emitDeconvolution(EmitContext& ctx, const ir::Node& n, const std::string& range) {
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    const ir::Value* b = n.input(2);
    const ir::Value* y = n.output(0);
    if (x->shape.rank() != 4 || !w->isConstant() || (b && !b->isConstant()))
        return unsupported(Emitter::Xnnpack, n, "this ConvTranspose");
    const bool nhwc = ctx.isNhwc(w);
    const int64_t groups = n.attrInt("group", 1);
    const int64_t kh = nhwc ? w->shape[1] : w->shape[2], kw = nhwc ? w->shape[2] : w->shape[3];
    const Spatial2D s = spatial2D(n, kh, kw, x->shape[1], x->shape[2], y->shape[1], y->shape[2]);
    const auto adjust = n.attrInts("output_padding", {0, 0});
    const int64_t ah = adjust.size() > 0 ? adjust[0] : 0, aw = adjust.size() > 1 ? adjust[1] : 0;
    // The output the operator makes must be the model's (output_shape and negative pads are
    // refused by the library description, so this holds for every node assigned here).
    const int64_t oh = s.sh * (x->shape[1] - 1) + ah + s.dh * (kh - 1) + 1 - s.pt - s.pb;
    const int64_t ow = s.sw * (x->shape[2] - 1) + aw + s.dw * (kw - 1) + 1 - s.pl - s.pr;
    if (oh != y->shape[1] || ow != y->shape[2] || ah >= s.sh || aw >= s.sw)
        return unsupported(Emitter::Xnnpack, n, "a ConvTranspose whose output size is not its natural size");
    const std::string p = "embark_xnn::Conv2dParams{" + std::to_string(x->shape[0]) + ", " +
                          std::to_string(x->shape[1]) + ", " + std::to_string(x->shape[2]) + ", " +
                          std::to_string(x->shape[3]) + ", " + std::to_string(y->shape[3]) + ", " + std::to_string(kh) +
                          ", " + std::to_string(kw) + ", " + std::to_string(s.sh) + ", " + std::to_string(s.sw) + ", " +
                          std::to_string(s.dh) + ", " + std::to_string(s.dw) + ", " + std::to_string(s.pt) + ", " +
                          std::to_string(s.pl) + ", " + std::to_string(s.pb) + ", " + std::to_string(s.pr) + ", " +
                          std::to_string(groups) + "}";
    const std::string filter = ctx.floats(n.name + ":deconvolution_filter", deconvolutionFilter(w, nhwc, groups));
    const std::string obj = layer(ctx, n, "Deconvolution2d",
                                  p + ", " + std::to_string(ah) + ", " + std::to_string(aw) + ", " + filter + ", " +
                                      (b ? ctx.ptr(b) : "nullptr") + ", " + range);
    ctx.forward += "    " + obj + "->forward(" + ctx.ptr(x) + ", " + ctx.ptr(y) + ");\n";
    return {};
}

} // namespace

Status emitXnnpack(EmitContext& ctx, const ir::Node& n) {
    if (ir::isFusedQuantized(n.op) || (n.input(0) && n.input(0)->dtype == ir::DType::Int8))
        return emitXnnpackQuantized(ctx, n);
    ctx.linked.insert("xnnpack");
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const std::string r = range(n);
    if (r.empty()) return unsupported(Emitter::Xnnpack, n, "a fused " + n.attrString(ir::kActivation, "?"));
    switch (n.op) {
    case OpKind::Conv: {
        const ir::Value* w = n.input(1);
        const ir::Value* b = n.input(2);
        if (x->shape.rank() != 4 || !w->isConstant()) return unsupported(Emitter::Xnnpack, n, "this convolution");
        const bool ohwi = ctx.isNhwc(w);
        const int64_t kh = ohwi ? w->shape[1] : w->shape[2], kw = ohwi ? w->shape[2] : w->shape[3];
        const Spatial2D s = spatial2D(n, kh, kw, x->shape[1], x->shape[2], y->shape[1], y->shape[2]);
        const std::string p = "embark_xnn::Conv2dParams{" + std::to_string(x->shape[0]) + ", " +
                              std::to_string(x->shape[1]) + ", " + std::to_string(x->shape[2]) + ", " +
                              std::to_string(x->shape[3]) + ", " + std::to_string(y->shape[3]) + ", " +
                              std::to_string(kh) + ", " + std::to_string(kw) + ", " + std::to_string(s.sh) + ", " +
                              std::to_string(s.sw) + ", " + std::to_string(s.dh) + ", " + std::to_string(s.dw) + ", " +
                              std::to_string(s.pt) + ", " + std::to_string(s.pl) + ", " + std::to_string(s.pb) + ", " +
                              std::to_string(s.pr) + ", " + std::to_string(n.attrInt("group", 1)) + "}";
        const std::string obj = layer(ctx, n, "Convolution2d",
                                      p + ", " + ctx.ptr(w) + ", " + (b ? ctx.ptr(b) : "nullptr") +
                                          ", embark_xnn::FilterLayout::" + (ohwi ? "OHWI" : "OIHW") + ", " + r);
        ctx.forward += "    " + obj + "->forward(" + ctx.ptr(x) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::ConvTranspose: return emitDeconvolution(ctx, n, r);
    case OpKind::Gemm: {
        const ir::Value* w = n.input(1);
        const ir::Value* c = n.input(2);
        if (!w->isConstant() || n.attrInt("transA", 0) || n.attrFloat("alpha", 1.f) != 1.f ||
            n.attrFloat("beta", 1.f) != 1.f)
            return unsupported(Emitter::Xnnpack, n, "this Gemm");
        const bool transB = n.attrInt("transB", 0) != 0;
        const int64_t k = x->shape[x->shape.rank() - 1], nOut = transB ? w->shape[0] : w->shape[1];
        std::string bias = "nullptr";
        if (c) {
            if (!c->isConstant()) return unsupported(Emitter::Xnnpack, n, "a Gemm bias computed at run time");
            std::vector<float> cv = c->constant.toFloatVector();
            if (cv.size() == 1) cv.assign(static_cast<size_t>(nOut), cv[0]);
            if (static_cast<int64_t>(cv.size()) != nOut)
                return unsupported(Emitter::Xnnpack, n, "a full-matrix Gemm C");
            bias = ctx.floats(n.name + ":bias", cv);
        }
        const std::string obj = layer(ctx, n, "FullyConnected",
                                      std::to_string(x->shape.numel() / k) + ", " + std::to_string(k) + ", " +
                                          std::to_string(nOut) + ", " + ctx.ptr(w) + ", " + bias +
                                          ", embark_xnn::WeightLayout::" + (transB ? "OutIn" : "InOut") + ", " + r);
        ctx.forward += "    " + obj + "->forward(" + ctx.ptr(x) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::MaxPool:
    case OpKind::AveragePool:
    case OpKind::GlobalMaxPool: {
        const bool global = n.op == OpKind::GlobalMaxPool;
        const auto k = global ? std::vector<int64_t>{x->shape[1], x->shape[2]} : n.attrInts("kernel_shape");
        Spatial2D s =
            global ? Spatial2D{} : spatial2D(n, k[0], k[1], x->shape[1], x->shape[2], y->shape[1], y->shape[2]);
        if (global) {
            s.kh = k[0];
            s.kw = k[1];
        }
        if (n.op == OpKind::AveragePool && n.attrInt("count_include_pad", 0) && (s.pt || s.pl || s.pb || s.pr))
            return unsupported(Emitter::Xnnpack, n, "AveragePool with count_include_pad=1 and padding");
        const std::string p = "embark_xnn::Pool2dParams{" + std::to_string(x->shape[0]) + ", " +
                              std::to_string(x->shape[1]) + ", " + std::to_string(x->shape[2]) + ", " +
                              std::to_string(x->shape[3]) + ", " + std::to_string(s.kh) + ", " + std::to_string(s.kw) +
                              ", " + std::to_string(s.sh) + ", " + std::to_string(s.sw) + ", " + std::to_string(s.dh) +
                              ", " + std::to_string(s.dw) + ", " + std::to_string(s.pt) + ", " + std::to_string(s.pl) +
                              ", " + std::to_string(s.pb) + ", " + std::to_string(s.pr) + "}";
        const std::string obj =
            layer(ctx, n, n.op == OpKind::AveragePool ? "AveragePool2d" : "MaxPool2d", p + ", " + r);
        ctx.forward += "    " + obj + "->forward(" + ctx.ptr(x) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::GlobalAveragePool: {
        const std::string obj = layer(ctx, n, "GlobalAveragePool",
                                      std::to_string(x->shape[0]) + ", " + std::to_string(x->shape[1]) + ", " +
                                          std::to_string(x->shape[2]) + ", " + std::to_string(x->shape[3]) + ", " + r);
        ctx.forward += "    " + obj + "->forward(" + ctx.ptr(x) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::Add:
    case OpKind::Mul: {
        const ir::Value* b = n.input(1);
        const std::string obj =
            layer(ctx, n, "Binary",
                  std::string("embark_xnn::BinaryOp::") + (n.op == OpKind::Add ? "Add" : "Multiply") + ", " +
                      sizes(x->shape.dims()) + ", " + sizes(b->shape.dims()) + ", " + r);
        ctx.forward += "    " + obj + "->forward(" + ctx.ptr(x) + ", " + ctx.ptr(b) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::Relu:
    case OpKind::Clip:
    case OpKind::Sigmoid:
    case OpKind::HardSwish:
    case OpKind::LeakyRelu: {
        std::string op = "Clamp", params = "embark_xnn::UnaryParams{0.f, INFINITY, 0.f}";
        if (n.op == OpKind::Clip) {
            auto bound = [&](size_t i, float fallback) {
                const ir::Tensor* t = constant(n, i);
                return t && t->numel() ? static_cast<float>(t->at(0)) : fallback;
            };
            params = "embark_xnn::UnaryParams{" + cppFloat(bound(1, -INFINITY)) + ", " + cppFloat(bound(2, INFINITY)) +
                     ", 0.f}";
        } else if (n.op == OpKind::Sigmoid) {
            op = "Sigmoid";
        } else if (n.op == OpKind::HardSwish) {
            op = "HardSwish";
        } else if (n.op == OpKind::LeakyRelu) {
            op = "LeakyRelu";
            params = "embark_xnn::UnaryParams{-INFINITY, INFINITY, " + cppFloat(n.attrFloat("alpha", 0.01f)) + "}";
        }
        const std::string obj = layer(
            ctx, n, "Unary", "embark_xnn::UnaryOp::" + op + ", " + std::to_string(y->shape.numel()) + ", " + params);
        ctx.forward += "    " + obj + "->forward(" + ctx.ptr(x) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::Softmax: {
        const int64_t channels = x->shape[x->shape.rank() - 1];
        const std::string obj =
            layer(ctx, n, "Softmax", std::to_string(x->shape.numel() / channels) + ", " + std::to_string(channels));
        ctx.forward += "    " + obj + "->forward(" + ctx.ptr(x) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::Concat: {
        const int64_t axis = y->shape.normAxis(n.attrInt("axis", 0));
        int64_t rows = 1;
        for (size_t i = 0; i < static_cast<size_t>(axis); ++i) rows *= y->shape[i];
        std::vector<int64_t> inner;
        std::string ptrs;
        for (const ir::Value* v : n.inputs()) {
            inner.push_back(v->shape.numel() / rows);
            ptrs += (ptrs.empty() ? "" : ", ") + ctx.ptr(v);
        }
        const std::string obj = layer(ctx, n, "Concat", std::to_string(rows) + ", " + sizes(inner));
        ctx.forward +=
            "    { const float* ins[] = {" + ptrs + "};\n      " + obj + "->forward(ins, " + ctx.ptr(y) + "); }\n";
        return {};
    }
    case OpKind::Transpose: {
        const std::vector<int64_t> perm = transposePerm(n);
        const std::string obj = layer(ctx, n, "Transpose", sizes(x->shape.dims()) + ", " + sizes(perm));
        ctx.forward += "    " + obj + "->forward(" + ctx.ptr(x) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    default: return unsupported(Emitter::Xnnpack, n, "op " + std::string(ir::opName(n.op)));
    }
}

} // namespace embark::exporter

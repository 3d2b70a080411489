// The portable emitter: one layer of generated C++ per node, calling Embark's fast NHWC
// kernels (runtime/portable) for convolutions, GEMMs, pooling and element-wise ops,
// and the generic kernels (runtime/generic) for everything else.
#include "export/emit_context.h"

#include "ir/fused.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

namespace embark::exporter {

using ir::OpKind;

std::string portableActivation(const ir::Node& n) {
    const auto a = ir::fusedActivation(n);
    if (!a) return "embark::portable::Activation{}";
    const char* kind = "None";
    switch (a->op) {
    case OpKind::Relu: kind = "Relu"; break;
    case OpKind::Clip: kind = "Clamp"; break;
    case OpKind::LeakyRelu: kind = "LeakyRelu"; break;
    case OpKind::HardSwish: kind = "HardSwish"; break;
    case OpKind::Sigmoid: kind = "Sigmoid"; break;
    case OpKind::Tanh: kind = "Tanh"; break;
    case OpKind::Swish: kind = "Swish"; break;
    case OpKind::Gelu: kind = "Gelu"; break;
    default: break;
    }
    return std::string("embark::portable::Activation{embark::portable::Act::") + kind + ", " + cppFloat(a->min) + ", " +
           cppFloat(a->max) + ", " + cppFloat(a->alpha) + "}";
}

namespace {

// Undoes adaptation's OHWI-style permutation of a 4-D constant: [a][b][c][d] -> [a][d][b][c].
std::vector<float> toChannelsSecond(const ir::Tensor& t) {
    const auto& d = t.shape().dims();
    std::vector<float> out(static_cast<size_t>(t.numel()));
    for (int64_t a = 0; a < d[0]; ++a)
        for (int64_t h = 0; h < d[1]; ++h)
            for (int64_t w = 0; w < d[2]; ++w)
                for (int64_t c = 0; c < d[3]; ++c)
                    out[static_cast<size_t>(((a * d[3] + c) * d[1] + h) * d[2] + w)] =
                        static_cast<float>(t.at(((a * d[1] + h) * d[2] + w) * d[3] + c));
    return out;
}

// Weights in ONNX layout as floats in the blob.
std::string onnxWeights(EmitContext& ctx, const ir::Value* w) {
    if (ctx.isNhwc(w) && w->shape.rank() == 4) return ctx.floats(w->name + ":onnx", toChannelsSecond(w->constant));
    return ctx.ptr(w);
}

std::string dims(const ir::Shape& s) {
    return "embark::portable::Dims" + cppInts(s.dims().empty() ? std::vector<int64_t>{1} : s.dims());
}

// y = activation(y) for an activation fused into n (nothing when there is none).
void applyActivation(EmitContext& ctx, const ir::Node& n, const ir::Value* y) {
    if (!ir::fusedActivation(n)) return;
    ctx.forward += "    embark::portable::apply_activation(" + portableActivation(n) + ", " + ctx.ptr(y) + ", " +
                   std::to_string(y->shape.numel()) + ");\n";
}

// y = activation(y + C), C broadcast: a Gemm's C that cannot be a fully connected bias.
void addMatrixC(EmitContext& ctx, const ir::Node& n, const ir::Value* c, const ir::Value* y) {
    ctx.forward += "    embark::portable::binary(embark::portable::BinaryOp::Add, " + ctx.ptr(y) + ", " +
                   dims(y->shape) + ", " + ctx.ptr(c) + ", " + dims(c->shape) + ", " + ctx.ptr(y) + ", " +
                   portableActivation(n) + ", g_pool.get());\n";
}

// A 1-D window's attributes (Conv, ConvTranspose, pools over [N][C][W]) as the 2-D kernels of
// a 1 x W image take them: explicit pads or VALID only (auto_pad SAME stays on the generic kernel).
struct Window1D {
    int64_t stride, dilation, padBegin, padEnd;
};

std::optional<Window1D> window1D(const ir::Node& n) {
    const std::string autoPad = n.attrString("auto_pad", "NOTSET");
    if (autoPad != "NOTSET" && autoPad != "VALID") return std::nullopt;
    const auto strides = n.attrInts("strides", {1});
    const auto dil = n.attrInts("dilations", {1});
    const auto pads = autoPad == "VALID" ? std::vector<int64_t>{0, 0} : n.attrInts("pads", {0, 0});
    if (strides.size() != 1 || dil.size() != 1 || pads.size() != 2) return std::nullopt;
    return Window1D{strides[0], dil[0], pads[0], pads[1]};
}

// A 1-D convolution ([N][C][W], the model's layout: adaptation makes only 4-D activations NHWC)
// on the 2-D kernels as a 1 x W image, between transposes to and from channels-last
// (conv2d_channels_first): their register tiles, Rows path for few input channels and long
// kernels, depthwise path, instead of the direct loop nest. Explicit pads only (auto_pad SAME and
// ConvTranspose's output_shape stay on the generic kernel).
bool emitConv1D(EmitContext& ctx, const ir::Node& n, bool transposed) {
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    const ir::Value* b = n.input(2);
    const ir::Value* y = n.output(0);
    if (x->shape.rank() != 3 || y->shape.rank() != 3 || w->shape.rank() != 3 || ctx.isNhwc(x) || ctx.isNhwc(y) ||
        ctx.rowStride(y) != 0)
        return false;
    const auto win = window1D(n);
    if (!win || (transposed && n.has("output_shape"))) return false;
    const int64_t group = n.attrInt("group", 1);
    const int64_t batch = x->shape[0], inC = x->shape[1], inW = x->shape[2], outC = y->shape[1], outW = y->shape[2];
    auto i = [](int64_t v) { return std::to_string(v); };
    const std::string shape = "embark::portable::Conv2DShape{" + i(batch) + ", 1, " + i(inW) + ", " + i(inC) + ", " +
                              i(outC) + ", 1, " + i(w->shape[2]) + ", 1, " + i(win->stride) + ", 1, " +
                              i(win->dilation) + ", 0, " + i(win->padBegin) + ", 0, " + i(win->padEnd) + ", " +
                              i(group) + "}";
    const std::string bias = b ? ctx.ptr(b) : "nullptr";
    const std::string obj = ctx.ident(n); // not in layerObjects: no fused block takes a 1-D layer
    ctx.decls += "static embark::portable::Conv2D " + obj + ";\n";
    // ONNX weights [out][in/g][k] (ConvTranspose: [in][out/g][k]) are the 2-D ones with kernel_h 1.
    if (transposed)
        ctx.init += "    " + obj + " = embark::portable::pack_conv_transpose2d(" + shape + ", 1, " + i(outW) + ", " +
                    onnxWeights(ctx, w) + ", " + bias + ", " + portableActivation(n) + ");\n";
    else
        ctx.init += "    " + obj + " = embark::portable::pack_conv2d(" + shape + ", " + onnxWeights(ctx, w) + ", " +
                    bias + ", " + portableActivation(n) + ");\n";
    const int64_t scratch = batch * (inW * inC + outW * outC);
    ctx.forward += "    embark::portable::conv2d_channels_first(" + obj + ", " + ctx.ptr(x) + ", " + ctx.ptr(y) + ", " +
                   ctx.scratch(n, scratch) + ", g_pool.get());\n";
    return true;
}

// A 2-D convolution of one input channel kept in the model's layout (adaptation does so when its
// output leaves the model, so no conversion follows it): portable::conv2d_planar writes the
// output planes directly; with one channel the input is the same in either layout. Explicit pads
// only, groups 1, stride_w 1 (conv2d_planar_applies).
bool emitConvPlanar(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    const ir::Value* b = n.input(2);
    const ir::Value* y = n.output(0);
    if (x->shape.rank() != 4 || y->shape.rank() != 4 || w->shape.rank() != 4 || ctx.isNhwc(x) || ctx.isNhwc(y) ||
        ctx.isNhwc(w) || ctx.rowStride(y) != 0 || x->shape[1] != 1 || n.attrInt("group", 1) != 1)
        return false;
    const std::string autoPad = n.attrString("auto_pad", "NOTSET");
    if (autoPad != "NOTSET" && autoPad != "VALID") return false;
    const auto st = n.attrInts("strides", {1, 1});
    const auto dl = n.attrInts("dilations", {1, 1});
    const auto p = autoPad == "VALID" ? std::vector<int64_t>(4, 0) : n.attrInts("pads", std::vector<int64_t>(4, 0));
    if (st.size() != 2 || dl.size() != 2 || p.size() != 4 || st[1] != 1) return false;
    auto i = [](int64_t v) { return std::to_string(v); };
    const std::string shape = "embark::portable::Conv2DShape{" + i(x->shape[0]) + ", " + i(x->shape[2]) + ", " +
                              i(x->shape[3]) + ", 1, " + i(y->shape[1]) + ", " + i(w->shape[2]) + ", " +
                              i(w->shape[3]) + ", " + i(st[0]) + ", 1, " + i(dl[0]) + ", " + i(dl[1]) + ", " + i(p[0]) +
                              ", " + i(p[1]) + ", " + i(p[2]) + ", " + i(p[3]) + ", 1}";
    const std::string obj = ctx.ident(n); // not in layerObjects: no fused block takes it
    ctx.decls += "static embark::portable::Conv2D " + obj + ";\n";
    ctx.init += "    " + obj + " = embark::portable::pack_conv2d_planar(" + shape + ", " + onnxWeights(ctx, w) + ", " +
                (b ? ctx.ptr(b) : std::string("nullptr")) + ", " + portableActivation(n) + ");\n";
    ctx.forward +=
        "    embark::portable::conv2d_planar(" + obj + ", " + ctx.ptr(x) + ", " + ctx.ptr(y) + ", g_pool.get());\n";
    return true;
}

// A 3-D convolution ([N][C][D][H][W]) as 2-D ones over stacked depth planes (portable::conv3d).
// Explicit pads only; ConvTranspose stays on the generic kernel.
bool emitConv3D(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    const ir::Value* b = n.input(2);
    const ir::Value* y = n.output(0);
    if (x->shape.rank() != 5 || y->shape.rank() != 5 || w->shape.rank() != 5 || ctx.rowStride(y) != 0) return false;
    const std::string autoPad = n.attrString("auto_pad", "NOTSET");
    if (autoPad != "NOTSET" && autoPad != "VALID") return false;
    const auto st = n.attrInts("strides", {1, 1, 1});
    const auto dl = n.attrInts("dilations", {1, 1, 1});
    const auto p = autoPad == "VALID" ? std::vector<int64_t>(6, 0) : n.attrInts("pads", std::vector<int64_t>(6, 0));
    if (st.size() != 3 || dl.size() != 3 || p.size() != 6) return false;
    auto i = [](int64_t v) { return std::to_string(v); };
    const std::string shape = "embark::portable::Conv2DShape{1, " + i(x->shape[3]) + ", " + i(x->shape[4]) + ", " +
                              i(x->shape[1]) + ", " + i(y->shape[1]) + ", " + i(w->shape[3]) + ", " + i(w->shape[4]) +
                              ", " + i(st[1]) + ", " + i(st[2]) + ", " + i(dl[1]) + ", " + i(dl[2]) + ", " + i(p[1]) +
                              ", " + i(p[2]) + ", " + i(p[4]) + ", " + i(p[5]) + ", " + i(n.attrInt("group", 1)) + "}";
    const std::string obj = ctx.ident(n);
    ctx.decls += "static embark::portable::Conv3D " + obj + ";\n";
    ctx.init += "    " + obj + " = embark::portable::pack_conv3d(" + shape + ", " + i(x->shape[0]) + ", " +
                i(x->shape[2]) + ", " + i(y->shape[2]) + ", " + i(w->shape[2]) + ", " + i(st[0]) + ", " + i(dl[0]) +
                ", " + i(p[0]) + ", " + ctx.ptr(w) + ", " + (b ? ctx.ptr(b) : std::string("nullptr")) + ", " +
                portableActivation(n) + ");\n";
    ctx.forward += "    embark::portable::conv3d(" + obj + ", " + ctx.ptr(x) + ", " + ctx.ptr(y) + ", g_pool.get());\n";
    return true;
}

Status emitConv(EmitContext& ctx, const ir::Node& n, bool transposed) {
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    const ir::Value* b = n.input(2);
    const ir::Value* y = n.output(0);
    if (!w->isConstant()) return unsupported(Emitter::Portable, n, "weights computed at run time");
    if (b && !b->isConstant()) return unsupported(Emitter::Portable, n, "a bias computed at run time");
    const int64_t group = n.attrInt("group", 1);
    const std::string bias = b ? ctx.ptr(b) : "nullptr";
    if (ctx.format(n) == targets::Layout::NHWC && x->shape.rank() == 4) {
        const auto& xs = x->shape.dims();
        const auto& ys = y->shape.dims();
        const int64_t kh = ctx.isNhwc(w) ? w->shape[1] : w->shape[2];
        const int64_t kw = ctx.isNhwc(w) ? w->shape[2] : w->shape[3];
        Spatial2D s = spatial2D(n, kh, kw, xs[1], xs[2], ys[1], ys[2]);
        if (transposed && (n.has("output_shape") || n.attrString("auto_pad", "NOTSET") != "NOTSET")) {
            // Pads implied by the output size (ONNX ConvTranspose shape rules).
            const auto op = n.attrInts("output_padding", {0, 0});
            auto split = [&](int64_t in, int64_t out, int64_t k, int64_t st, int64_t d, int64_t opad, int64_t* a,
                             int64_t* e) {
                const int64_t total = st * (in - 1) + opad + (k - 1) * d + 1 - out;
                const bool upper = n.attrString("auto_pad", "NOTSET") == "SAME_UPPER";
                const int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2); // floor, as ONNX's Python
                *a = upper ? half : total - half;
                *e = total - *a;
                // A negative end pad only makes the output longer (bias only there); the kernel
                // is given the output size, so it needs no pad for it.
                *e = std::max<int64_t>(*e, 0);
            };
            split(xs[1], ys[1], kh, s.sh, s.dh, op.size() > 0 ? op[0] : 0, &s.pt, &s.pb);
            split(xs[2], ys[2], kw, s.sw, s.dw, op.size() > 1 ? op[1] : 0, &s.pl, &s.pr);
        }
        const std::string shape = "embark::portable::Conv2DShape{" + std::to_string(xs[0]) + ", " +
                                  std::to_string(xs[1]) + ", " + std::to_string(xs[2]) + ", " + std::to_string(xs[3]) +
                                  ", " + std::to_string(ys[3]) + ", " + std::to_string(kh) + ", " + std::to_string(kw) +
                                  ", " + std::to_string(s.sh) + ", " + std::to_string(s.sw) + ", " +
                                  std::to_string(s.dh) + ", " + std::to_string(s.dw) + ", " + std::to_string(s.pt) +
                                  ", " + std::to_string(s.pl) + ", " + std::to_string(s.pb) + ", " +
                                  std::to_string(s.pr) + ", " + std::to_string(group) + "}";
        const std::string obj = ctx.ident(n);
        ctx.layerObjects[n.name] = obj;
        ctx.decls += "static embark::portable::Conv2D " + obj + ";\n";
        if (transposed)
            ctx.init += "    " + obj + " = embark::portable::pack_conv_transpose2d(" + shape + ", " +
                        std::to_string(ys[1]) + ", " + std::to_string(ys[2]) + ", " + onnxWeights(ctx, w) + ", " +
                        bias + ", " + portableActivation(n) + ");\n";
        else
            ctx.init += "    " + obj + " = embark::portable::pack_conv2d(" + shape + ", " + onnxWeights(ctx, w) + ", " +
                        bias + ", " + portableActivation(n) + ");\n";
        if (const int64_t stride = ctx.rowStride(y)) // a channel range of a concatenation
            ctx.init += "    " + obj + ".out_stride = " + std::to_string(stride) + ";\n";
        ctx.forward +=
            "    embark::portable::conv2d(" + obj + ", " + ctx.ptr(x) + ", " + ctx.ptr(y) + ", g_pool.get());\n";
        return {};
    }
    if (!transposed && emitConvPlanar(ctx, n)) return {};
    if (emitConv1D(ctx, n, transposed)) return {};
    if (!transposed && emitConv3D(ctx, n)) return {};
    // Model layout, 1 to 3 spatial dims: the direct generic convolution.
    const size_t spatial = x->shape.rank() - 2;
    if (spatial < 1 || spatial > 3)
        return unsupported(Emitter::Portable, n, std::to_string(spatial) + "-D convolution");
    std::string p = "{" + std::to_string(spatial) + ", " + std::to_string(x->shape[0]) + ", " +
                    std::to_string(x->shape[1]) + ", " + std::to_string(y->shape[1]) + ", " + std::to_string(group);
    auto arr = [&](auto get) {
        std::vector<int64_t> v(3, 1);
        for (size_t i = 0; i < spatial; ++i) v[i] = get(i);
        return cppInts(v);
    };
    const auto strides = n.attrInts("strides", std::vector<int64_t>(spatial, 1));
    const auto dil = n.attrInts("dilations", std::vector<int64_t>(spatial, 1));
    // ONNX pads are begin[spatial] then end[spatial], as ConvNd wants them.
    std::vector<int64_t> pads = n.attrInts("pads", std::vector<int64_t>(2 * spatial, 0));
    if (n.attrString("auto_pad", "NOTSET") != "NOTSET" && n.attrString("auto_pad", "") != "VALID")
        return unsupported(Emitter::Portable, n, "auto_pad SAME on a non-2-D convolution");
    pads.resize(6, 0);
    p += ", " + arr([&](size_t i) { return x->shape[2 + i]; }) + ", " + arr([&](size_t i) { return y->shape[2 + i]; }) +
         ", " + arr([&](size_t i) { return w->shape[2 + i]; }) + ", " + arr([&](size_t i) { return strides[i]; }) +
         ", " + arr([&](size_t i) { return dil[i]; }) + ", " + cppInts(pads) + "}";
    ctx.forward += std::string("    embark::generic::") + (transposed ? "convTransposeNd" : "convNd") +
                   "(embark::generic::ConvNd" + p + ", " + ctx.ptr(x) + ", " + ctx.ptr(w) + ", " + bias + ", " +
                   ctx.ptr(y) + ");\n";
    applyActivation(ctx, n, y);
    return {};
}

// Element offsets of the a and b matrices of each batch of a x b (numpy broadcasting of the
// batch dims, right-aligned), in the order of the product's batches.
void matmulBatchOffsets(const ir::Shape& as, const ir::Shape& bs, std::vector<int64_t>& aOff,
                        std::vector<int64_t>& bOff) {
    const int64_t m = as[as.rank() - 2], k = as[as.rank() - 1], n = bs[bs.rank() - 1];
    const size_t rank = std::max(as.rank(), bs.rank());
    std::vector<int64_t> batch(rank - 2), aStride(rank - 2, 0), bStride(rank - 2, 0);
    int64_t aAcc = m * k, bAcc = k * n;
    for (size_t i = rank - 2; i-- > 0;) {
        const int64_t ad = i + as.rank() >= rank ? as[i + as.rank() - rank] : 1;
        const int64_t bd = i + bs.rank() >= rank ? bs[i + bs.rank() - rank] : 1;
        batch[i] = std::max(ad, bd);
        aStride[i] = ad == 1 ? 0 : aAcc;
        bStride[i] = bd == 1 ? 0 : bAcc;
        aAcc *= ad;
        bAcc *= bd;
    }
    std::vector<int64_t> idx(batch.size(), 0);
    do {
        int64_t ao = 0, bo = 0;
        for (size_t i = 0; i < batch.size(); ++i) {
            ao += idx[i] * aStride[i];
            bo += idx[i] * bStride[i];
        }
        aOff.push_back(ao);
        bOff.push_back(bo);
        size_t i = batch.size();
        while (i > 0 && ++idx[i - 1] == batch[i - 1]) idx[--i] = 0;
        if (i == 0) break;
    } while (true);
}

// y = a x b with both operands computed at run time (attention's Q.K^T and A.V). Matrices of at
// least 8 rows: per (broadcast) batch, b packed into panels and the register tile
// (portable::matmul_runtime), the batch offsets known at export time. Fewer rows: the generic
// product, its output rows split over the thread pool when it is large enough to pay for the
// hand-off.
void emitRuntimeMatmul(EmitContext& ctx, const std::string& aPtr, const ir::Shape& as, const ir::Value* b,
                       const ir::Value* y) {
    const ir::Shape& bs = b->shape;
    if (as.rank() >= 2 && bs.rank() >= 2 && as[as.rank() - 2] >= 8) {
        const int64_t m = as[as.rank() - 2], k = as[as.rank() - 1], n = bs[bs.rank() - 1];
        std::vector<int64_t> aOff, bOff;
        matmulBatchOffsets(as, bs, aOff, bOff);
        ctx.forward += "    { static const int64_t ao[] = " + cppInts(aOff) + ", bo[] = " + cppInts(bOff) +
                       ";\n"
                       "      for (int64_t i = 0; i < " +
                       std::to_string(aOff.size()) +
                       "; ++i)\n"
                       "        embark::portable::matmul_runtime(" +
                       aPtr + " + ao[i], " + ctx.ptr(b) + " + bo[i], " + ctx.ptr(y) + " + i * " +
                       std::to_string(m * n) + ", " + std::to_string(m) + ", " + std::to_string(k) + ", " +
                       std::to_string(n) + ", g_pool.get()); }\n";
        return;
    }
    ctx.forward +=
        "    { static const embark::generic::Shape as = " + shapeInit(as) + ", bs = " + shapeInit(b->shape) +
        ";\n      const int64_t rows = embark::generic::matmulRows(as, bs);\n"
        "      auto part = [&](int64_t r0, int64_t r1) { embark::generic::matmul(" +
        aPtr + ", as, " + ctx.ptr(b) + ", bs, " + ctx.ptr(y) +
        ", r0, r1); };\n"
        "      if (g_pool && g_pool->threads() > 1 && rows > 1 && embark::generic::matmulMacs(as, bs) >= 65536)\n"
        "        g_pool->parallel_for(rows, part);\n      else part(0, rows); }\n";
}

Status emitGemmLike(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* a = n.input(0);
    const ir::Value* b = n.input(1);
    const ir::Value* c = n.op == OpKind::Gemm ? n.input(2) : nullptr;
    const ir::Value* y = n.output(0);
    const bool isGemm = n.op == OpKind::Gemm;
    const bool transA = isGemm && n.attrInt("transA", 0);
    const bool transB = isGemm && n.attrInt("transB", 0);
    const float alpha = isGemm ? n.attrFloat("alpha", 1.f) : 1.f;
    const float beta = isGemm ? n.attrFloat("beta", 1.f) : 1.f;
    std::string aPtr = ctx.ptr(a);
    ir::Shape aShape = a->shape;
    if (transA) { // A^T into a scratch matrix first: [K][M] -> [M][K]
        if (a->shape.rank() != 2) return unsupported(Emitter::Portable, n, "Gemm with transA=1 on " + a->shape.str());
        const std::string at = ctx.scratch(n, a->shape.numel());
        ctx.forward += "    { static const int perm[] = {1, 0};\n      embark::generic::transpose(" + aPtr + ", " +
                       shapeInit(a->shape) + ", perm, " + at + "); }\n";
        aPtr = at;
        aShape = ir::Shape{a->shape[1], a->shape[0]};
    }
    const int64_t k = aShape[aShape.rank() - 1];
    if (b->isConstant() && b->shape.rank() == 2) {
        const int64_t nOut = transB ? b->shape[0] : b->shape[1];
        std::string weights = ctx.ptr(b);
        if (alpha != 1.f) {
            std::vector<float> scaled = b->constant.toFloatVector();
            for (float& v : scaled) v *= alpha;
            weights = ctx.floats(n.name + ":B*alpha", scaled);
        }
        std::string bias = "nullptr";
        bool addC = false;
        if (c && c->isConstant() && (c->shape.numel() == nOut || c->shape.numel() == 1)) {
            std::vector<float> cv = c->constant.toFloatVector();
            if (cv.size() == 1) cv.assign(static_cast<size_t>(nOut), cv[0]);
            for (float& v : cv) v *= beta;
            bias = ctx.floats(n.name + ":C*beta", cv);
        } else if (c) {
            if (beta != 1.f) return unsupported(Emitter::Portable, n, "a Gemm with beta != 1 and a full C matrix");
            addC = true;
        }
        const std::string obj = ctx.ident(n);
        ctx.decls += "static embark::portable::FullyConnected " + obj + ";\n";
        ctx.init += "    " + obj + " = embark::portable::pack_fully_connected(" + std::to_string(k) + ", " +
                    std::to_string(nOut) + ", " + weights + ", " + (transB ? "true" : "false") + ", " + bias + ", " +
                    (addC ? "embark::portable::Activation{}" : portableActivation(n)) + ");\n";
        ctx.forward += "    embark::portable::fully_connected(" + obj + ", " + std::to_string(aShape.numel() / k) +
                       ", " + aPtr + ", " + ctx.ptr(y) + ", g_pool.get());\n";
        if (addC) addMatrixC(ctx, n, c, y);
        return {};
    }
    if (transB || alpha != 1.f) return unsupported(Emitter::Portable, n, "Gemm with a run-time B and transB/alpha");
    emitRuntimeMatmul(ctx, aPtr, aShape, b, y);
    if (c) {
        if (beta != 1.f) return unsupported(Emitter::Portable, n, "Gemm with a run-time B and beta != 1");
        addMatrixC(ctx, n, c, y);
    } else {
        applyActivation(ctx, n, y);
    }
    return {};
}

// A 1-D pool ([N][C][W], the model's layout) on the 2-D channels-last kernels as a 1 x W image,
// between transposes to and from channels-last (pool2d_channels_first), as 1-D convolutions run:
// the generic loop nest walks each channel's row one strided tap at a time. Explicit pads only.
bool emitPool1D(EmitContext& ctx, const ir::Node& n, const std::vector<int64_t>& kernel, bool isMax) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    if (x->shape.rank() != 3 || y->shape.rank() != 3 || kernel.size() != 1 || ctx.isNhwc(x) || ctx.isNhwc(y) ||
        ctx.rowStride(y) != 0)
        return false;
    const auto win = window1D(n);
    if (!win) return false;
    const int64_t batch = x->shape[0], channels = x->shape[1], inW = x->shape[2], outW = y->shape[2];
    auto i = [](int64_t v) { return std::to_string(v); };
    const std::string shape = "embark::portable::Pool2DShape{" + i(batch) + ", 1, " + i(inW) + ", " + i(channels) +
                              ", 1, " + i(outW) + ", 1, " + i(kernel[0]) + ", 1, " + i(win->stride) + ", 1, " +
                              i(win->dilation) + ", 0, " + i(win->padBegin) + ", 0, " + i(win->padEnd) + ", 0}";
    ctx.forward += "    embark::portable::pool2d_channels_first(" + shape + ", " + (isMax ? "true" : "false") + ", " +
                   (n.attrInt("count_include_pad", 0) ? "true" : "false") + ", " + ctx.ptr(x) + ", " + ctx.ptr(y) +
                   ", " + ctx.scratch(n, batch * (inW + outW) * channels) + ", g_pool.get());\n";
    return true;
}

Status emitPool(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const bool isMax = n.op == OpKind::MaxPool;
    if (n.outputs().size() > 1 && n.output(1) && !n.output(1)->uses().empty())
        return unsupported(Emitter::Portable, n, "MaxPool's Indices output");
    const auto kernel = n.attrInts("kernel_shape");
    if (ctx.format(n) == targets::Layout::NHWC && x->shape.rank() == 4 && kernel.size() == 2) {
        const auto& xs = x->shape.dims();
        const auto& ys = y->shape.dims();
        // AveragePool has dilations from opset 19 (absent before, so 1)
        Spatial2D s = spatial2D(n, kernel[0], kernel[1], xs[1], xs[2], ys[1], ys[2]);
        const std::string shape =
            "embark::portable::Pool2DShape{" + std::to_string(xs[0]) + ", " + std::to_string(xs[1]) + ", " +
            std::to_string(xs[2]) + ", " + std::to_string(xs[3]) + ", " + std::to_string(ys[1]) + ", " +
            std::to_string(ys[2]) + ", " + std::to_string(s.kh) + ", " + std::to_string(s.kw) + ", " +
            std::to_string(s.sh) + ", " + std::to_string(s.sw) + ", " + std::to_string(s.dh) + ", " +
            std::to_string(s.dw) + ", " + std::to_string(s.pt) + ", " + std::to_string(s.pl) + ", " +
            std::to_string(s.pb) + ", " + std::to_string(s.pr) + ", " + std::to_string(ctx.rowStride(y)) + "}";
        if (isMax)
            ctx.forward += "    embark::portable::max_pool2d(" + shape + ", " + ctx.ptr(x) + ", " + ctx.ptr(y) +
                           ", g_pool.get());\n";
        else
            ctx.forward += "    embark::portable::average_pool2d(" + shape + ", " +
                           (n.attrInt("count_include_pad", 0) ? "true" : "false") + ", " + ctx.ptr(x) + ", " +
                           ctx.ptr(y) + ", g_pool.get());\n";
        return {};
    }
    const size_t spatial = x->shape.rank() - 2;
    if (spatial < 1 || spatial > 3 || kernel.size() != spatial)
        return unsupported(Emitter::Portable, n, "this pooling shape");
    if (emitPool1D(ctx, n, kernel, isMax)) return {};
    if (n.attrString("auto_pad", "NOTSET") != "NOTSET" && n.attrString("auto_pad", "") != "VALID")
        return unsupported(Emitter::Portable, n, "auto_pad SAME on non-2-D pooling");
    const auto strides = n.attrInts("strides", std::vector<int64_t>(spatial, 1));
    const auto dil = n.attrInts("dilations", std::vector<int64_t>(spatial, 1));
    std::vector<int64_t> pads = n.attrInts("pads", std::vector<int64_t>(2 * spatial, 0));
    pads.resize(6, 0);
    auto arr = [&](auto get) {
        std::vector<int64_t> v(3, 1);
        for (size_t i = 0; i < spatial; ++i) v[i] = get(i);
        return cppInts(v);
    };
    const std::string p = "embark::generic::ConvNd{" + std::to_string(spatial) + ", " + std::to_string(x->shape[0]) +
                          ", " + std::to_string(x->shape[1]) + ", " + std::to_string(x->shape[1]) + ", 1, " +
                          arr([&](size_t i) { return x->shape[2 + i]; }) + ", " +
                          arr([&](size_t i) { return y->shape[2 + i]; }) + ", " +
                          arr([&](size_t i) { return kernel[i]; }) + ", " + arr([&](size_t i) { return strides[i]; }) +
                          ", " + arr([&](size_t i) { return dil[i]; }) + ", " + cppInts(pads) + "}";
    ctx.forward += "    embark::generic::poolNd(" + p + ", " + (isMax ? "true" : "false") + ", " +
                   (n.attrInt("count_include_pad", 0) ? "true" : "false") + ", " + ctx.ptr(x) + ", " + ctx.ptr(y) +
                   ");\n";
    return {};
}

Status emitGlobalPool(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const bool isMax = n.op == OpKind::GlobalMaxPool;
    if (ctx.isNhwc(x)) {
        const int64_t pixels = x->shape.numel() / (x->shape[0] * x->shape[x->shape.rank() - 1]);
        ctx.forward += std::string("    embark::portable::") + (isMax ? "global_max_pool(" : "global_average_pool(") +
                       std::to_string(x->shape[0]) + ", " + std::to_string(pixels) + ", " +
                       std::to_string(x->shape[x->shape.rank() - 1]) + ", " + ctx.ptr(x) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    std::vector<int64_t> axes(x->shape.rank(), 0);
    for (size_t i = 2; i < axes.size(); ++i) axes[i] = 1;
    std::string mask = "{";
    for (size_t i = 0; i < axes.size(); ++i) mask += std::string(i ? ", " : "") + (axes[i] ? "true" : "false");
    mask += "}";
    const std::string maskVar = ctx.ident(n, "_axes");
    ctx.decls += "static const bool " + maskVar + "[] = " + mask + ";\n";
    ctx.forward += std::string("    embark::generic::reduce(embark::generic::ReduceOp::") + (isMax ? "Max" : "Mean") +
                   ", " + ctx.ptr(x) + ", " + shapeInit(x->shape) + ", " + maskVar + ", " + ctx.ptr(y) + ");\n";
    return {};
}

Status emitBinary(EmitContext& ctx, const ir::Node& n) {
    const char* op = nullptr;
    switch (n.op) {
    case OpKind::Add:
    case OpKind::Sum:
    case OpKind::Mean: op = "Add"; break;
    case OpKind::Sub: op = "Sub"; break;
    case OpKind::Mul: op = "Mul"; break;
    case OpKind::Div: op = "Div"; break;
    case OpKind::Min: op = "Min"; break;
    case OpKind::Max: op = "Max"; break;
    case OpKind::Pow: op = "Pow"; break;
    default: return unsupported(Emitter::Portable, n, "this binary op");
    }
    const ir::Value* y = n.output(0);
    const size_t count = n.inputs().size();
    if (count == 1) {
        emitCopy(ctx, n.input(0), y);
        return {};
    }
    // Variadic ops fold left into the output; the first step reads the first two inputs.
    for (size_t i = 1; i < count; ++i) {
        const ir::Value* a = i == 1 ? n.input(0) : y;
        const ir::Value* b = n.input(i);
        const bool last = i + 1 == count && n.op != OpKind::Mean;
        ctx.forward += "    embark::portable::binary(embark::portable::BinaryOp::";
        ctx.forward += op;
        ctx.forward += ", " + ctx.ptr(a) + ", " + dims(a->shape) + ", " + ctx.ptr(b) + ", " + dims(b->shape) + ", " +
                       ctx.ptr(y) + ", " +
                       (last ? portableActivation(n) : std::string("embark::portable::Activation{}")) +
                       ", g_pool.get());\n";
    }
    if (n.op == OpKind::Mean) {
        const std::string inv = ctx.floats(n.name + ":1/n", {1.f / static_cast<float>(count)});
        ctx.forward += "    embark::portable::binary(embark::portable::BinaryOp::Mul, " + ctx.ptr(y) + ", " +
                       dims(y->shape) + ", " + inv + ", embark::portable::Dims{1}, " + ctx.ptr(y) +
                       ", embark::portable::Activation{}, g_pool.get());\n";
    }
    return {};
}

float constScalar(const ir::Node& n, size_t i, float fallback) {
    const ir::Tensor* t = constant(n, i);
    return t && t->numel() == 1 ? static_cast<float>(t->at(0)) : fallback;
}

Status emitUnary(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const std::string count = std::to_string(y->shape.numel());
    const char* fast = nullptr;
    std::string params = "embark::portable::UnaryParams{}";
    switch (n.op) {
    case OpKind::Relu: fast = "Relu"; break;
    case OpKind::Clip: {
        if ((n.input(1) && !constant(n, 1)) || (n.input(2) && !constant(n, 2)))
            return unsupported(Emitter::Portable, n, "Clip bounds computed at run time");
        fast = "Clip";
        params = "embark::portable::UnaryParams{" + cppFloat(constScalar(n, 1, -INFINITY)) + ", " +
                 cppFloat(constScalar(n, 2, INFINITY)) + ", 0.f, 0.f}";
        break;
    }
    case OpKind::LeakyRelu:
        fast = "LeakyRelu";
        params =
            "embark::portable::UnaryParams{-INFINITY, INFINITY, " + cppFloat(n.attrFloat("alpha", 0.01f)) + ", 0.f}";
        break;
    case OpKind::Sigmoid: fast = "Sigmoid"; break;
    case OpKind::Tanh: fast = "Tanh"; break;
    case OpKind::HardSwish: fast = "HardSwish"; break;
    case OpKind::HardSigmoid:
        fast = "HardSigmoid";
        params = "embark::portable::UnaryParams{-INFINITY, INFINITY, " + cppFloat(n.attrFloat("alpha", 0.2f)) + ", " +
                 cppFloat(n.attrFloat("beta", 0.5f)) + "}";
        break;
    case OpKind::Elu:
        fast = "Elu";
        params = "embark::portable::UnaryParams{-INFINITY, INFINITY, " + cppFloat(n.attrFloat("alpha", 1.f)) + ", 0.f}";
        break;
    case OpKind::Gelu: {
        const std::string approx = n.attrString("approximate", "none");
        if (approx != "none" && approx != "tanh")
            return unsupported(Emitter::Portable, n, "Gelu with approximate='" + approx + "'");
        fast = approx == "tanh" ? "GeluTanh" : "Gelu";
        break;
    }
    case OpKind::Swish:
        fast = "Swish";
        params = "embark::portable::UnaryParams{-INFINITY, INFINITY, " + cppFloat(n.attrFloat("alpha", 1.f)) + ", 0.f}";
        break;
    case OpKind::Erf: fast = "Erf"; break;
    case OpKind::Exp: fast = "Exp"; break;
    case OpKind::Neg: fast = "Neg"; break;
    case OpKind::Abs: fast = "Abs"; break;
    case OpKind::Sqrt: fast = "Sqrt"; break;
    default: break;
    }
    if (fast) {
        ctx.forward += std::string("    embark::portable::unary(embark::portable::UnaryOp::") + fast + ", " +
                       ctx.ptr(x) + ", " + ctx.ptr(y) + ", " + count + ", " + params + ");\n";
        return {};
    }
    const char* slow = nullptr;
    float alpha = 0, gamma = 0;
    switch (n.op) {
    case OpKind::Log: slow = "Log"; break;
    case OpKind::Floor: slow = "Floor"; break;
    case OpKind::Ceil: slow = "Ceil"; break;
    case OpKind::Round: slow = "Round"; break;
    case OpKind::Sign: slow = "Sign"; break;
    case OpKind::Reciprocal: slow = "Reciprocal"; break;
    case OpKind::Sin: slow = "Sin"; break;
    case OpKind::Cos: slow = "Cos"; break;
    case OpKind::Softplus: slow = "Softplus"; break;
    case OpKind::Softsign: slow = "Softsign"; break;
    case OpKind::Mish: slow = "Mish"; break;
    case OpKind::Selu:
        slow = "Selu";
        alpha = n.attrFloat("alpha", 1.67326319217681884765625f);
        gamma = n.attrFloat("gamma", 1.05070102214813232421875f);
        break;
    // issue 31
    case OpKind::Tan: slow = "Tan"; break;
    case OpKind::Asin: slow = "Asin"; break;
    case OpKind::Acos: slow = "Acos"; break;
    case OpKind::Atan: slow = "Atan"; break;
    case OpKind::Sinh: slow = "Sinh"; break;
    case OpKind::Cosh: slow = "Cosh"; break;
    case OpKind::Asinh: slow = "Asinh"; break;
    case OpKind::Acosh: slow = "Acosh"; break;
    case OpKind::Atanh: slow = "Atanh"; break;
    case OpKind::ThresholdedRelu: slow = "ThresholdedRelu", alpha = n.attrFloat("alpha", 1.f); break;
    case OpKind::Shrink: slow = "Shrink", alpha = n.attrFloat("lambd", 0.5f), gamma = n.attrFloat("bias", 0.f); break;
    case OpKind::Celu: slow = "Celu", alpha = n.attrFloat("alpha", 1.f); break;
    default: return unsupported(Emitter::Portable, n, "op " + std::string(ir::opName(n.op)));
    }
    ctx.forward += std::string("    embark::generic::unary(embark::generic::Unary::") + slow + ", " + ctx.ptr(x) +
                   ", " + ctx.ptr(y) + ", " + count + ", " + cppFloat(alpha) + ", " + cppFloat(gamma) + ");\n";
    return {};
}

} // namespace

Status emitPortable(EmitContext& ctx, const ir::Node& n) {
    if (isTypedNode(n)) return emitPortableTyped(ctx, n);
    if (isQuantizedNode(n)) return emitPortableQuantized(ctx, n);
    switch (n.op) {
    case OpKind::Conv: return emitConv(ctx, n, false);
    case OpKind::ConvTranspose: return emitConv(ctx, n, true);
    case OpKind::Gemm:
    case OpKind::MatMul: return emitGemmLike(ctx, n);
    case OpKind::MaxPool:
    case OpKind::AveragePool: return emitPool(ctx, n);
    case OpKind::GlobalAveragePool:
    case OpKind::GlobalMaxPool: return emitGlobalPool(ctx, n);
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Min:
    case OpKind::Max:
    case OpKind::Pow:
    case OpKind::Sum:
    case OpKind::Mean: return emitBinary(ctx, n);
    default: break;
    }
    const auto cat = ir::opCategory(n.op);
    if ((cat == ir::OpCategory::Activation || cat == ir::OpCategory::Elementwise) && n.op != OpKind::PRelu &&
        n.op != OpKind::Mod && n.inputs().size() <= 3)
        if (n.op != OpKind::Where && n.op != OpKind::Equal && n.op != OpKind::Less && n.op != OpKind::Greater &&
            n.op != OpKind::LessOrEqual && n.op != OpKind::GreaterOrEqual && n.op != OpKind::And &&
            n.op != OpKind::Or && n.op != OpKind::Xor && n.op != OpKind::Not)
            return emitUnary(ctx, n);
    return emitPortableData(ctx, n);
}

} // namespace embark::exporter

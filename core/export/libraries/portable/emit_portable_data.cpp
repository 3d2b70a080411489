// The portable emitter for data movement, normalisation, softmax, reductions and resize: the
// long tail of ops, run by the generic kernels (runtime/generic) in the layout the
// adaptation chose (shapes in the adapted graph are physical).
#include "export/emit_context.h"

#include "ir/fused.h"

#include <cmath>

namespace embark::exporter {
namespace {

using ir::OpKind;

std::vector<int64_t> intsInputOrAttr(const ir::Node& n, size_t input, const char* attr) {
    if (const ir::Tensor* t = constant(n, input)) return t->toInt64Vector();
    return n.attrInts(attr);
}

// The batched matrix transpose that `perm` reduces to once size-1 axes are dropped and axes
// that stay adjacent and in order are merged (NCHW -> NHWC is [N][C][H*W] -> [N][H*W][C]):
// sets batch/rows/cols and returns true, or false for any other permutation.
bool asMatrixTranspose(const ir::Shape& shape, const std::vector<int64_t>& perm, int64_t& batch, int64_t& rows,
                       int64_t& cols) {
    struct Group {
        int64_t first, last, size;
    };
    std::vector<Group> out; // in output order
    for (int64_t axis : perm) {
        const int64_t dim = shape[static_cast<size_t>(axis)];
        if (dim == 1) continue;
        if (!out.empty() && out.back().last + 1 == axis) {
            out.back().last = axis;
            out.back().size *= dim;
        } else
            out.push_back({axis, axis, dim});
    }
    // Merging can only happen when the groups' input order differs from their output order.
    if (out.size() == 2 && out[0].first > out[1].first) {
        batch = 1, rows = out[1].size, cols = out[0].size;
        return true;
    }
    if (out.size() == 3 && out[0].first < out[2].first && out[2].first < out[1].first) {
        batch = out[0].size, rows = out[2].size, cols = out[1].size;
        return true;
    }
    return false;
}

std::string transposeCall(EmitContext& ctx, const ir::Node& n, const std::string& in, const ir::Shape& shape,
                          const std::vector<int64_t>& perm, const std::string& out) {
    int64_t batch = 0, rows = 0, cols = 0;
    if (asMatrixTranspose(shape, perm, batch, rows, cols))
        return "    embark::portable::transpose_matrices(" + in + ", " + std::to_string(batch) + ", " +
               std::to_string(rows) + ", " + std::to_string(cols) + ", " + out + ", g_pool.get());\n";
    const std::string permVar = ctx.ident(n, "_perm");
    std::string list;
    for (size_t i = 0; i < perm.size(); ++i) list += (i ? ", " : "") + std::to_string(perm[i]);
    ctx.decls += "static const int " + permVar + "[] = {" + list + "};\n";
    return "    embark::generic::transpose(" + in + ", " + shapeInit(shape) + ", " + permVar + ", " + out + ");\n";
}

Status emitSlice(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const ir::Tensor* st = constant(n, 1);
    const ir::Tensor* en = constant(n, 2);
    if (!st || !en || (n.input(3) && !constant(n, 3)) || (n.input(4) && !constant(n, 4)))
        return unsupported(Emitter::Portable, n, "Slice parameters computed at run time");
    const auto starts = st->toInt64Vector();
    const size_t rank = x->shape.rank();
    std::vector<int64_t> axes = constant(n, 3) ? constant(n, 3)->toInt64Vector() : std::vector<int64_t>();
    if (axes.empty())
        for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
    const std::vector<int64_t> steps =
        constant(n, 4) ? constant(n, 4)->toInt64Vector() : std::vector<int64_t>(starts.size(), 1);
    std::vector<int64_t> s(rank, 0), step(rank, 1);
    for (size_t i = 0; i < axes.size(); ++i) {
        const int64_t a = x->shape.normAxis(axes[i]);
        const int64_t dim = x->shape[static_cast<size_t>(a)];
        int64_t b = starts[i] < 0 ? starts[i] + dim : starts[i];
        b = steps[i] > 0 ? std::clamp<int64_t>(b, 0, dim) : std::clamp<int64_t>(b, 0, dim - 1);
        s[static_cast<size_t>(a)] = b;
        step[static_cast<size_t>(a)] = steps[i];
    }
    ctx.forward += "    { static const int64_t s[] = " + cppInts(s) + ", st[] = " + cppInts(step) +
                   ";\n      embark::generic::slice(" + ctx.ptr(x) + ", " + shapeInit(x->shape) + ", s, st, " +
                   shapeInit(y->shape) + ", " + ctx.ptr(y) + "); }\n";
    return {};
}

Status emitSplit(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const int64_t axis = x->shape.normAxis(n.attrInt("axis", 0));
    int64_t offset = 0;
    for (const ir::Value* y : n.outputs()) {
        if (!y) continue;
        std::vector<int64_t> s(x->shape.rank(), 0), step(x->shape.rank(), 1);
        s[static_cast<size_t>(axis)] = offset;
        offset += y->shape[static_cast<size_t>(axis)];
        ctx.forward += "    { static const int64_t s[] = " + cppInts(s) + ", st[] = " + cppInts(step) +
                       ";\n      embark::generic::slice(" + ctx.ptr(x) + ", " + shapeInit(x->shape) + ", s, st, " +
                       shapeInit(y->shape) + ", " + ctx.ptr(y) + "); }\n";
    }
    return {};
}

// Each input that its producer did not write into its slice of the output (concatenation in
// place, memory_planner.h) is copied there, row by row when either side is a strided slice.
Status emitConcat(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* y = n.output(0);
    const size_t rank = y->shape.rank();
    const int64_t axis = y->shape.normAxis(n.attrInt("axis", 0));
    int64_t outer = 1, inner = 1;
    for (size_t i = 0; i < rank; ++i) {
        if (static_cast<int64_t>(i) < axis) outer *= y->shape[i];
        if (static_cast<int64_t>(i) > axis) inner *= y->shape[i];
    }
    const int64_t extent = y->shape[static_cast<size_t>(axis)];
    const int64_t dstStride = ctx.rowStride(y) ? ctx.rowStride(y) : extent * inner;
    const int64_t yOffset = ctx.arenaOffset(y);
    int64_t at = 0, inPlace = 0;
    std::string copies;
    for (const ir::Value* v : n.inputs()) {
        const int64_t size = v ? v->shape[static_cast<size_t>(axis)] : 0;
        const int64_t offset = at;
        at += size;
        if (!v || v->shape.numel() == 0) continue;
        const int64_t dstOffset = yOffset + offset * inner * static_cast<int64_t>(sizeof(float));
        if (yOffset >= 0 && ctx.arenaOffset(v) == dstOffset) {
            ++inPlace;
            continue;
        } // written there by its producer
        const int64_t len = size * inner;
        copies += "    embark::portable::copy_rows(" + ctx.ptr(v) + ", " + std::to_string(outer) + ", " +
                  std::to_string(len) + ", " + std::to_string(ctx.rowStride(v) ? ctx.rowStride(v) : len) + ", " + "(" +
                  ctx.ptr(y) + " + " + std::to_string(offset * inner) + ")" + ", " + std::to_string(dstStride) +
                  ", g_pool.get());\n";
    }
    if (inPlace) ctx.forward += "    // " + std::to_string(inPlace) + " input(s) written in place by their producers\n";
    ctx.forward += copies;
    return {};
}

Status emitGather(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Tensor* idx = constant(n, 1);
    if (!idx) return unsupported(Emitter::Portable, n, "Gather indices computed at run time");
    const int64_t axis = x->shape.normAxis(n.attrInt("axis", 0));
    std::vector<int64_t> indices = idx->toInt64Vector();
    const int64_t dim = x->shape[static_cast<size_t>(axis)];
    for (int64_t& i : indices) {
        if (i < 0) i += dim;
        if (i < 0 || i >= dim)
            return makeError(ErrorKind::InvalidInput,
                             "node " + n.describe() + ": Gather index out of range [0, " + std::to_string(dim) + ")");
    }
    ctx.forward += "    embark::generic::gather(" + ctx.ptr(x) + ", " + shapeInit(x->shape) + ", " +
                   std::to_string(axis) + ", " + ctx.int64s(n.name + ":indices", indices) + ", " +
                   std::to_string(indices.size()) + ", " + ctx.ptr(n.output(0)) + ");\n";
    return {};
}

Status emitPad(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    auto spec = padSpec(n);
    if (!spec) return spec.error();
    const auto& [pads, m] = *spec;
    const float value = constant(n, 2) && constant(n, 2)->numel() ? static_cast<float>(constant(n, 2)->at(0)) : 0.f;
    ctx.forward += "    { static const int64_t p[] = " + cppInts(pads) + ";\n      embark::generic::pad(" + ctx.ptr(x) +
                   ", " + shapeInit(x->shape) + ", p, embark::generic::PadMode::" + m + ", " + cppFloat(value) + ", " +
                   shapeInit(n.output(0)->shape) + ", " + ctx.ptr(n.output(0)) + "); }\n";
    return {};
}

// Source coordinate of output index o along one axis (ONNX Resize).
double sourceCoordinate(const std::string& mode, double o, int64_t in, int64_t out, double scale, double roiStart,
                        double roiEnd) {
    // align_corners uses the unrounded resized length in * scale, as ONNX (and the reference)
    // do; it differs from `out` when the scales do not divide evenly.
    const double resized = static_cast<double>(in) * scale;
    if (mode == "align_corners") return resized == 1 ? 0.0 : o * static_cast<double>(in - 1) / (resized - 1);
    if (mode == "asymmetric") return o / scale;
    if (mode == "pytorch_half_pixel") return out > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
    if (mode == "tf_half_pixel_for_nn") return (o + 0.5) / scale;
    if (mode == "tf_crop_and_resize") // the reference's expression, on the unrounded length too
        return resized > 1 ? roiStart * static_cast<double>(in - 1) +
                                 o * (roiEnd - roiStart) * static_cast<double>(in - 1) / (resized - 1)
                           : 0.5 * (roiStart + roiEnd) * static_cast<double>(in - 1);
    return (o + 0.5) / scale - 0.5; // half_pixel
}

Status emitResize(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const std::string mode = n.attrString("mode", "nearest");
    const std::string ctm = n.attrString("coordinate_transformation_mode", "half_pixel");
    const std::string nearest = n.attrString("nearest_mode", "round_prefer_floor");
    const float cubicA = n.attrFloat("cubic_coeff_a", -0.75f);
    const bool exclude = n.attrInt("exclude_outside", 0) != 0;
    if (n.has("axes") || n.attrString("keep_aspect_ratio_policy", "stretch") != "stretch")
        return unsupported(Emitter::Portable, n, "Resize with axes or keep_aspect_ratio_policy");
    // The coordinates are fixed here: a run-time scales/sizes input would be silently ignored.
    for (size_t i : {size_t{2}, size_t{3}})
        if (const ir::Value* v = n.input(i); v && !v->isConstant() && v->shape.numel() > 0)
            return unsupported(Emitter::Portable, n,
                               i == 2 ? "Resize scales computed at run time" : "Resize sizes computed at run time");
    std::vector<float> scales;
    if (const ir::Tensor* s = constant(n, 2)) scales = s->toFloatVector();
    const size_t rank = x->shape.rank();
    // tf_crop_and_resize: the region of interest (begin[rank], end[rank]); output elements whose
    // source falls outside the input on some axis take extrapolation_value (fillOutside).
    const bool crop = ctm == "tf_crop_and_resize";
    std::vector<float> roi;
    if (crop) {
        const ir::Tensor* r = constant(n, 1);
        if (!r || r->numel() != static_cast<int64_t>(2 * rank))
            return unsupported(Emitter::Portable, n, "tf_crop_and_resize without a constant roi of 2 x rank values");
        roi = r->toFloatVector();
    }
    std::vector<uint8_t> outside;
    bool anyOutside = false;
    const std::string axesVar = ctx.ident(n, "_axes");
    ctx.decls += "static embark::generic::ResizeAxis " + axesVar + "[" + std::to_string(rank) + "];\n";
    for (size_t a = 0; a < rank; ++a) {
        const int64_t in = x->shape[a], out = y->shape[a];
        const double scale = scales.size() == rank ? scales[a] : static_cast<double>(out) / static_cast<double>(in);
        const double roiStart = crop ? roi[a] : 0.0, roiEnd = crop ? roi[rank + a] : 1.0;
        for (int64_t o = 0; o < out && crop; ++o) {
            const double src = sourceCoordinate(ctm, static_cast<double>(o), in, out, scale, roiStart, roiEnd);
            outside.push_back(src < 0 || src > static_cast<double>(in - 1) ? 1 : 0);
            anyOutside = anyOutside || outside.back();
        }
        if (in == out && (scale == 1.0) && roiStart == 0.0 && roiEnd == 1.0) continue; // identity axis
        const int taps = mode == "nearest" ? 1 : mode == "linear" ? 2 : 4;
        std::vector<int64_t> index;
        std::vector<float> weight;
        for (int64_t o = 0; o < out; ++o) {
            const double src = sourceCoordinate(ctm, static_cast<double>(o), in, out, scale, roiStart, roiEnd);
            if (taps == 1) {
                double r;
                if (nearest == "floor")
                    r = std::floor(src);
                else if (nearest == "ceil")
                    r = std::ceil(src);
                else if (nearest == "round_prefer_ceil")
                    r = std::floor(src + 0.5);
                else
                    r = (src - std::floor(src) == 0.5) ? std::floor(src) : std::round(src);
                index.push_back(std::clamp<int64_t>(static_cast<int64_t>(r), 0, in - 1));
                weight.push_back(1.f);
            } else if (taps == 2) {
                const double c = std::clamp(src, 0.0, static_cast<double>(in - 1));
                const double f = std::floor(c);
                const double r = c - f;
                index.push_back(static_cast<int64_t>(f));
                index.push_back(std::min<int64_t>(static_cast<int64_t>(f) + 1, in - 1));
                weight.push_back(static_cast<float>(1 - r));
                weight.push_back(static_cast<float>(r));
            } else {
                const double f = std::floor(src);
                const double r = src - f;
                auto cubic = [cubicA](double t) {
                    t = std::fabs(t);
                    if (t <= 1) return ((cubicA + 2) * t - (cubicA + 3)) * t * t + 1;
                    if (t < 2) return ((cubicA * t - 5 * cubicA) * t + 8 * cubicA) * t - 4 * cubicA;
                    return 0.0;
                };
                double w[4] = {cubic(r + 1), cubic(r), cubic(1 - r), cubic(2 - r)};
                double sum = 0;
                int64_t idx[4];
                for (int k = 0; k < 4; ++k) {
                    idx[k] = static_cast<int64_t>(f) - 1 + k;
                    if (exclude && (idx[k] < 0 || idx[k] >= in)) w[k] = 0;
                    sum += w[k];
                }
                for (int k = 0; k < 4; ++k) {
                    index.push_back(std::clamp<int64_t>(idx[k], 0, in - 1));
                    weight.push_back(static_cast<float>(exclude && sum != 0 ? w[k] / sum : w[k]));
                }
            }
        }
        const std::string ai = axesVar + "[" + std::to_string(a) + "]";
        const std::string ip = ctx.int64s(n.name + ":idx" + std::to_string(a), index);
        const std::string wp = ctx.floats(n.name + ":w" + std::to_string(a), weight);
        ctx.init += "    " + ai + ".taps = " + std::to_string(taps) + ";\n    " + ai + ".index.assign(" + ip + ", " +
                    ip + " + " + std::to_string(index.size()) + ");\n    " + ai + ".weight.assign(" + wp + ", " + wp +
                    " + " + std::to_string(weight.size()) + ");\n";
    }
    int64_t bound = 2;
    for (size_t a = 0; a < rank; ++a) bound *= std::max(x->shape[a], y->shape[a]);
    ctx.forward += "    embark::generic::resize(" + ctx.ptr(x) + ", " + shapeInit(x->shape) + ", " + axesVar + ", " +
                   shapeInit(y->shape) + ", " + ctx.ptr(y) + ", " + ctx.scratch(n, bound) + ");\n";
    if (anyOutside) {
        const ir::Tensor flags = ir::Tensor::fromBytes(
            ir::DType::UInt8, ir::Shape{static_cast<int64_t>(outside.size())}, outside.data(), outside.size());
        ctx.forward += "    embark::generic::fillOutside(" + ctx.ptr(y) + ", " + shapeInit(y->shape) +
                       ", reinterpret_cast<const uint8_t*>(embark_weights + " +
                       std::to_string(ctx.rawBytes(n.name + ":outside", flags)) + "), " +
                       cppFloat(n.attrFloat("extrapolation_value", 0.f)) + ");\n";
    }
    return {};
}

Status emitSpaceDepth(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    if (x->shape.rank() != 4 || ctx.isNhwc(x)) return unsupported(Emitter::Portable, n, "this layout");
    const int64_t b = n.attrInt("blocksize", 1), N = x->shape[0], C = x->shape[1], H = x->shape[2], W = x->shape[3];
    ir::Shape six;
    std::vector<int64_t> perm;
    if (n.op == OpKind::DepthToSpace) {
        if (n.attrString("mode", "DCR") == "DCR") {
            six = ir::Shape{N, b, b, C / (b * b), H, W};
            perm = {0, 3, 4, 1, 5, 2};
        } else {
            six = ir::Shape{N, C / (b * b), b, b, H, W};
            perm = {0, 1, 4, 2, 5, 3};
        }
    } else {
        six = ir::Shape{N, C, H / b, b, W / b, b};
        perm = {0, 3, 5, 1, 2, 4};
    }
    ctx.forward += transposeCall(ctx, n, ctx.ptr(x), six, perm, ctx.ptr(n.output(0)));
    return {};
}

Status emitNormalization(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const bool nhwc = ctx.isNhwc(x);
    if (n.op == OpKind::BatchNormalization) {
        if (n.attrInt("training_mode", 0) != 0) { // batch statistics; the running ones as outputs 1 and 2
            if (nhwc || x->shape.rank() < 2)
                return unsupported(Emitter::Portable, n,
                                   "BatchNormalization in training mode on " + x->shape.str() +
                                       (nhwc ? " channels-last" : ""));
            const int64_t batch = x->shape[0], channels = x->shape[1];
            const int64_t plane = batch * channels != 0 ? x->shape.numel() / (batch * channels) : 0;
            auto out = [&](size_t i) {
                return n.outputs().size() > i && n.output(i) ? ctx.ptr(n.output(i)) : std::string("nullptr");
            };
            ctx.forward += "    embark::generic::batchNormTraining(" + ctx.ptr(x) + ", " + std::to_string(batch) +
                           ", " + std::to_string(channels) + ", " + std::to_string(plane) + ", " + ctx.ptr(n.input(1)) +
                           ", " + ctx.ptr(n.input(2)) + ", " + ctx.ptr(n.input(3)) + ", " + ctx.ptr(n.input(4)) + ", " +
                           cppFloat(n.attrFloat("epsilon", 1e-5f)) + ", " + cppFloat(n.attrFloat("momentum", 0.9f)) +
                           ", " + ctx.ptr(y) + ", " + out(1) + ", " + out(2) + ");\n";
            return {};
        }
        for (size_t i = 1; i < 5; ++i)
            if (!constant(n, i))
                return unsupported(Emitter::Portable, n, "BatchNormalization statistics computed at run time");
        const auto gamma = constant(n, 1)->toFloatVector(), beta = constant(n, 2)->toFloatVector();
        const auto mean = constant(n, 3)->toFloatVector(), var = constant(n, 4)->toFloatVector();
        const double eps = n.attrFloat("epsilon", 1e-5f);
        std::vector<float> scale(gamma.size()), shift(gamma.size());
        for (size_t c = 0; c < gamma.size(); ++c) {
            const double s = gamma[c] / std::sqrt(static_cast<double>(var[c]) + eps);
            scale[c] = static_cast<float>(s);
            shift[c] = static_cast<float>(beta[c] - mean[c] * s);
        }
        const size_t axis = nhwc ? x->shape.rank() - 1 : (x->shape.rank() > 1 ? 1 : 0);
        int64_t outer = 1, inner = 1;
        for (size_t i = 0; i < axis; ++i) outer *= x->shape[i];
        for (size_t i = axis + 1; i < x->shape.rank(); ++i) inner *= x->shape[i];
        ctx.forward += "    embark::portable::channel_affine(" + ctx.ptr(x) + ", " + std::to_string(outer) + ", " +
                       std::to_string(x->shape.rank() ? x->shape[axis] : 1) + ", " + std::to_string(inner) + ", " +
                       ctx.floats(n.name + ":scale", scale) + ", " + ctx.floats(n.name + ":shift", shift) + ", " +
                       ctx.ptr(y) + ", " + portableActivation(n) + ", g_pool.get()" +
                       (ctx.rowStride(x) || ctx.rowStride(y)
                            ? ", " + std::to_string(ctx.rowStride(x)) + ", " + std::to_string(ctx.rowStride(y))
                            : std::string()) +
                       ");\n";
        return {};
    }
    const int64_t N = x->shape[0];
    const int64_t C = nhwc ? x->shape[x->shape.rank() - 1] : (x->shape.rank() > 1 ? x->shape[1] : 1);
    const int64_t spatial = x->shape.numel() / std::max<int64_t>(1, N * C);
    if (n.op == OpKind::InstanceNormalization) {
        if (!constant(n, 1) || !constant(n, 2))
            return unsupported(Emitter::Portable, n, "InstanceNormalization scale/bias computed at run time");
        ctx.forward += "    embark::generic::instanceNorm(" + ctx.ptr(x) + ", " + std::to_string(N) + ", " +
                       std::to_string(C) + ", " + std::to_string(spatial) + ", " + (nhwc ? "true" : "false") + ", " +
                       ctx.ptr(n.input(1)) + ", " + ctx.ptr(n.input(2)) + ", " +
                       cppFloat(n.attrFloat("epsilon", 1e-5f)) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    if (n.op == OpKind::LRN) {
        ctx.forward += "    embark::generic::lrn(" + ctx.ptr(x) + ", " + std::to_string(N) + ", " + std::to_string(C) +
                       ", " + std::to_string(spatial) + ", " + (nhwc ? "true" : "false") + ", " +
                       std::to_string(n.attrInt("size", 1)) + ", " + cppFloat(n.attrFloat("alpha", 1e-4f)) + ", " +
                       cppFloat(n.attrFloat("beta", 0.75f)) + ", " + cppFloat(n.attrFloat("bias", 1.f)) + ", " +
                       ctx.ptr(y) + ");\n";
        return {};
    }
    // LayerNormalization over the dims from `axis` on.
    if (nhwc) return unsupported(Emitter::Portable, n, "LayerNormalization on channels-last data");
    // Mean and InvStdDev, when read: float32 (stash_type 1), one per row.
    std::string stats[2] = {"nullptr", "nullptr"};
    for (size_t i = 1; i < n.outputs().size() && i < 3; ++i)
        if (const ir::Value* extra = n.output(i); extra && (!extra->uses().empty() || extra->isGraphOutput())) {
            if (extra->dtype != ir::DType::Float32 || ctx.isNhwc(extra))
                return unsupported(Emitter::Portable, n,
                                   "LayerNormalization's " + std::string(i == 1 ? "Mean" : "InvStdDev") + " of type " +
                                       std::string(ir::dtypeName(extra->dtype)));
            stats[i - 1] = ctx.ptr(extra);
        }
    const int64_t axis = x->shape.normAxis(n.attrInt("axis", -1));
    int64_t inner = 1;
    for (size_t i = static_cast<size_t>(axis); i < x->shape.rank(); ++i) inner *= x->shape[i];
    auto expanded = [&](size_t i, const char* what) -> Expected<std::string> {
        const ir::Tensor* t = constant(n, i);
        if (!n.input(i)) return std::string("nullptr");
        if (!t)
            return unsupported(Emitter::Portable, n,
                               std::string("LayerNormalization ") + what + " computed at run time");
        std::vector<float> v = t->toFloatVector();
        if (static_cast<int64_t>(v.size()) == 1) v.assign(static_cast<size_t>(inner), v[0]);
        if (static_cast<int64_t>(v.size()) != inner)
            return unsupported(Emitter::Portable, n, std::string("a broadcast LayerNormalization ") + what);
        return ctx.floats(n.name + ":" + what, v);
    };
    auto scale = expanded(1, "scale");
    if (!scale) return scale.error();
    auto bias = expanded(2, "bias");
    if (!bias) return bias.error();
    // Rows split over the pool when there are enough of them (each row is normalised alone: the
    // same bits on any thread count).
    const int64_t outer = x->shape.numel() / inner;
    const std::string in = std::to_string(inner);
    // layerNorm over rows [first, first + count) of x into y.
    auto call = [&](const std::string& first, const std::string& count) {
        return "embark::generic::layerNorm(" + ctx.ptr(x) + " + " + first + " * " + in + ", " + count + ", " + in +
               ", " + *scale + ", " + *bias + ", " + cppFloat(n.attrFloat("epsilon", 1e-5f)) + ", " + ctx.ptr(y) +
               " + " + first + " * " + in + ")";
    };
    if (outer > 1 && outer * inner >= 16384)
        ctx.forward += "    { auto part = [&](int64_t r0, int64_t r1) { " + call("r0", "r1 - r0") +
                       "; };\n"
                       "      if (g_pool && g_pool->threads() > 1) g_pool->parallel_for(" +
                       std::to_string(outer) + ", part);\n      else part(0, " + std::to_string(outer) + "); }\n";
    else
        ctx.forward += "    " + call("0", std::to_string(outer)) + ";\n";
    if (stats[0] != "nullptr" || stats[1] != "nullptr")
        ctx.forward += "    embark::generic::layerNormStats(" + ctx.ptr(x) + ", " + std::to_string(outer) + ", " + in +
                       ", " + cppFloat(n.attrFloat("epsilon", 1e-5f)) + ", " + stats[0] + ", " + stats[1] + ");\n";
    return {};
}

Status emitReduce(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const bool isSoftmax = n.op == OpKind::Softmax || n.op == OpKind::LogSoftmax;
    if (isSoftmax) {
        const int64_t axis = x->shape.normAxis(n.attrInt("axis", -1));
        int64_t outer = 1, inner = 1;
        for (size_t i = 0; i < static_cast<size_t>(axis); ++i) outer *= x->shape[i];
        for (size_t i = static_cast<size_t>(axis) + 1; i < x->shape.rank(); ++i) inner *= x->shape[i];
        if (inner == 1 && n.op == OpKind::Softmax) { // last axis: the vectorized kernel
            ctx.forward += "    embark::portable::softmax(" + ctx.ptr(x) + ", " + std::to_string(outer) + ", " +
                           std::to_string(x->shape[static_cast<size_t>(axis)]) + ", " + ctx.ptr(y) +
                           ", g_pool.get());\n";
            return {};
        }
        ctx.forward += "    embark::generic::softmax(" + ctx.ptr(x) + ", " + std::to_string(outer) + ", " +
                       std::to_string(x->shape[static_cast<size_t>(axis)]) + ", " + std::to_string(inner) + ", " +
                       (n.op == OpKind::LogSoftmax ? "true" : "false") + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    if (n.input(1) && !constant(n, 1)) return unsupported(Emitter::Portable, n, "reduction axes computed at run time");
    std::vector<int64_t> axes = intsInputOrAttr(n, 1, "axes");
    // Float64 data (a float64 model) reduces in double on the generic typed kernel.
    const bool f64 = x->dtype == ir::DType::Float64;
    if (f64 && y->dtype != ir::DType::Float64)
        return unsupported(Emitter::Portable, n, "a float64 reduction to " + std::string(ir::dtypeName(y->dtype)));
    if (axes.empty() && n.attrInt("noop_with_empty_axes", 0)) {
        if (f64)
            ctx.forward += "    std::memmove(" + typedPtr(ctx, y) + ", " + typedPtr(ctx, x) + ", " +
                           std::to_string(y->byteSize()) + ");\n";
        else
            emitCopy(ctx, x, y);
        return {};
    }
    std::string mask = "{";
    for (size_t a = 0; a < x->shape.rank(); ++a) {
        bool r = axes.empty();
        for (int64_t ax : axes) r = r || x->shape.normAxis(ax) == static_cast<int64_t>(a);
        mask += std::string(a ? ", " : "") + (r ? "true" : "false");
    }
    mask += x->shape.rank() == 0 ? "false}" : "}";
    const char* op = n.op == OpKind::ReduceMean        ? "Mean"
                     : n.op == OpKind::ReduceSum       ? "Sum"
                     : n.op == OpKind::ReduceMax       ? "Max"
                     : n.op == OpKind::ReduceMin       ? "Min"
                     : n.op == OpKind::ReduceL1        ? "L1"
                     : n.op == OpKind::ReduceL2        ? "L2"
                     : n.op == OpKind::ReduceSumSquare ? "SumSquare"
                     : n.op == OpKind::ReduceLogSum    ? "LogSum"
                     : n.op == OpKind::ReduceLogSumExp ? "LogSumExp"
                                                       : "Prod";
    const std::string var = ctx.ident(n, "_mask");
    ctx.decls += "static const bool " + var + "[] = " + mask + ";\n";
    if (f64)
        ctx.forward += std::string("    embark::generic::reduceF64(embark::generic::ReduceOp::") + op +
                       ", static_cast<const double*>(" + typedPtr(ctx, x) + "), " + shapeInit(x->shape) + ", " + var +
                       ", static_cast<double*>(" + typedPtr(ctx, y) + "));\n";
    else
        ctx.forward += std::string("    embark::generic::reduce(embark::generic::ReduceOp::") + op + ", " + ctx.ptr(x) +
                       ", " + shapeInit(x->shape) + ", " + var + ", " + ctx.ptr(y) + ");\n";
    return {};
}

} // namespace

Expected<PadSpec> padSpec(const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Tensor* padsT = constant(n, 1);
    if (!padsT || (n.input(2) && !constant(n, 2)) || (n.input(3) && !constant(n, 3)))
        return unsupported(Emitter::Portable, n, "Pad parameters computed at run time");
    const size_t rank = x->shape.rank();
    const auto given = padsT->toInt64Vector();
    std::vector<int64_t> axes;
    if (const ir::Tensor* a = constant(n, 3))
        axes = a->toInt64Vector();
    else
        for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
    if (given.size() != 2 * axes.size())
        return unsupported(Emitter::Portable, n, std::to_string(given.size()) + " pads for " + x->shape.str());
    std::vector<int64_t> pads(2 * rank, 0);
    for (size_t i = 0; i < axes.size(); ++i) {
        const auto a = static_cast<size_t>(x->shape.normAxis(axes[i]));
        pads[a] = given[i];
        pads[rank + a] = given[axes.size() + i];
    }
    const std::string mode = n.attrString("mode", "constant");
    const char* m = mode == "reflect" ? "Reflect" : mode == "edge" ? "Edge" : mode == "wrap" ? "Wrap" : "Constant";
    return PadSpec{std::move(pads), m};
}

Status emitPortableData(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* y = n.output(0);
    if (ir::isReduceOp(n.op)) return emitReduce(ctx, n);
    switch (n.op) {
    case OpKind::Identity:
    case OpKind::Dropout:
    case OpKind::Reshape:
    case OpKind::Flatten:
    case OpKind::Squeeze:
    case OpKind::Unsqueeze: emitCopy(ctx, n.input(0), y); return {};
    case OpKind::Cast:
        if (n.input(0)->dtype != ir::DType::Float32 || y->dtype != ir::DType::Float32)
            return unsupported(Emitter::Portable, n, "Cast to or from a non-float32 type at run time");
        emitCopy(ctx, n.input(0), y);
        return {};
    case OpKind::Transpose: {
        const std::vector<int64_t> perm = transposePerm(n);
        ctx.forward += transposeCall(ctx, n, ctx.ptr(n.input(0)), n.input(0)->shape, perm, ctx.ptr(y));
        return {};
    }
    case OpKind::Concat: return emitConcat(ctx, n);
    case OpKind::Split: return emitSplit(ctx, n);
    case OpKind::Slice: return emitSlice(ctx, n);
    case OpKind::Gather: return emitGather(ctx, n);
    case OpKind::Pad: return emitPad(ctx, n);
    case OpKind::Expand:
        ctx.forward += "    embark::generic::broadcastTo(" + ctx.ptr(n.input(0)) + ", " + shapeInit(n.input(0)->shape) +
                       ", " + shapeInit(y->shape) + ", " + ctx.ptr(y) + ");\n";
        return {};
    case OpKind::Tile:
        ctx.forward += "    embark::generic::tile(" + ctx.ptr(n.input(0)) + ", " + shapeInit(n.input(0)->shape) + ", " +
                       shapeInit(y->shape) + ", " + ctx.ptr(y) + ");\n";
        return {};
    case OpKind::Resize: return emitResize(ctx, n);
    case OpKind::LSTM:
    case OpKind::GRU:
    case OpKind::RNN: return emitPortableRecurrent(ctx, n);
    case OpKind::DepthToSpace:
    case OpKind::SpaceToDepth: return emitSpaceDepth(ctx, n);
    case OpKind::BatchNormalization:
    case OpKind::InstanceNormalization:
    case OpKind::LRN:
    case OpKind::LayerNormalization: return emitNormalization(ctx, n);
    case OpKind::Softmax:
    case OpKind::LogSoftmax: return emitReduce(ctx, n);
    case OpKind::PRelu:
    case OpKind::Mod: {
        const char* op = n.op == OpKind::PRelu ? "PRelu" : (n.attrInt("fmod", 0) ? "FMod" : "Mod");
        ctx.forward += std::string("    embark::generic::binary(embark::generic::Binary::") + op + ", " +
                       ctx.ptr(n.input(0)) + ", " + shapeInit(n.input(0)->shape) + ", " + ctx.ptr(n.input(1)) + ", " +
                       shapeInit(n.input(1)->shape) + ", " + ctx.ptr(y) + ", " + shapeInit(y->shape) + ");\n";
        return {};
    }
    default: return emitPortableIndex(ctx, n);
    }
}

} // namespace embark::exporter

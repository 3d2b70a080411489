// The portable emitter for indexing, scatter, selection, einsum, loss and sampling/spectral
// ops, run by the generic kernels (runtime/generic/generic_index.cpp). Index tensors must be
// constants: the element positions they select are computed here, at export time, by running
// the reference kernel on a tensor of positions, so the export and the reference agree on
// every rule (negative indices, batch dims, diagonals).
#include "export/emit_context.h"

#include "ir/einsum_equation.h"
#include "reference/interpreter.h"

#include <numeric>

namespace embark::exporter {
namespace {

using ir::OpKind;

// int64 tensor of `shape` holding first, first + 1, ...
ir::Tensor positions(const ir::Shape& shape, int64_t first) {
    std::vector<int64_t> v(static_cast<size_t>(shape.numel()));
    std::iota(v.begin(), v.end(), first);
    return ir::Tensor::fromInt64s(shape, v);
}

// The flat positions in input 0 that `op` (with n's attributes) reads for each output element:
// the reference kernel run on positions + 1 instead of data; 0 read (Trilu's zeros) gives -1.
Expected<std::vector<int64_t>> readPositions(const ir::Node& n, OpKind op, std::vector<ir::Tensor> rest) {
    ir::Node probe;
    probe.name = n.name;
    probe.op = op;
    probe.attrs = n.attrs;
    probe.attrs.erase("reduction");
    rest.insert(rest.begin(), positions(n.input(0)->shape, 1));
    auto out = reference::evalNode(probe, rest);
    if (!out) return out.error();
    std::vector<int64_t> pos = (*out)[0].toInt64Vector();
    for (int64_t& p : pos) --p;
    return pos;
}

// Constant input i, or an Unsupported error saying what must be constant.
Expected<const ir::Tensor*> constantInput(const ir::Node& n, size_t i, const char* what) {
    if (const ir::Tensor* t = constant(n, i)) return t;
    return unsupported(Emitter::Portable, n, std::string(what) + " computed at run time (make them constants)");
}

void outerInner(const ir::Shape& s, size_t axis, int64_t* outer, int64_t* inner) {
    *outer = 1, *inner = 1;
    for (size_t d = 0; d < s.rank(); ++d) {
        if (d < axis) *outer *= s[d];
        if (d > axis) *inner *= s[d];
    }
}

std::string flag(bool b) { return b ? "true" : "false"; }

Status emitGatherLike(EmitContext& ctx, const ir::Node& n) {
    std::vector<ir::Tensor> rest;
    for (size_t i = 1; i < n.inputs().size(); ++i) {
        if (!n.input(i)) {
            rest.emplace_back();
            continue;
        }
        Expected<const ir::Tensor*> t = constantInput(n, i, n.op == OpKind::Trilu ? "the diagonal k" : "indices");
        if (!t) return t.error();
        rest.push_back(**t);
    }
    Expected<std::vector<int64_t>> pos = readPositions(n, n.op, rest);
    if (!pos) return pos.error();
    ctx.forward += "    embark::generic::gatherFlat(" + ctx.ptr(n.input(0)) + ", " +
                   ctx.int64s(n.name + ":positions", *pos) + ", " + std::to_string(static_cast<int64_t>(pos->size())) +
                   ", " + ctx.ptr(n.output(0)) + ");\n";
    return {};
}

Status emitScatter(EmitContext& ctx, const ir::Node& n) {
    Expected<const ir::Tensor*> indices = constantInput(n, 1, "indices");
    if (!indices) return indices.error();
    const std::string r = n.attrString("reduction", "none");
    const char* reduce = r == "add"    ? "Add"
                         : r == "mul"  ? "Mul"
                         : r == "max"  ? "Max"
                         : r == "min"  ? "Min"
                         : r == "none" ? "None"
                                       : nullptr;
    if (!reduce) return unsupported(Emitter::Portable, n, "reduction '" + r + "'");
    const ir::Shape& ds = n.input(0)->shape;
    std::vector<int64_t> dst;
    int64_t block = 1;
    if (n.op == OpKind::ScatterElements) {
        Expected<std::vector<int64_t>> pos = readPositions(n, OpKind::GatherElements, {**indices});
        if (!pos) return pos.error();
        dst = *pos;
    } else {
        // ScatterND writes the blocks GatherND would read: their first positions.
        const ir::Shape& is = (*indices)->shape();
        const size_t k = is.rank() ? static_cast<size_t>(is[is.rank() - 1]) : 0;
        for (size_t d = k; d < ds.rank(); ++d) block *= ds[d];
        Expected<std::vector<int64_t>> pos = readPositions(n, OpKind::GatherND, {**indices});
        if (!pos) return pos.error();
        for (size_t i = 0; i < pos->size(); i += static_cast<size_t>(block)) dst.push_back((*pos)[i]);
    }
    ctx.forward += "    embark::generic::scatterFlat(" + ctx.ptr(n.input(0)) + ", " + std::to_string(ds.numel()) +
                   ", " + ctx.ptr(n.input(2)) + ", " + ctx.int64s(n.name + ":positions", dst) + ", " +
                   std::to_string(static_cast<int64_t>(dst.size())) + ", " + std::to_string(block) +
                   ", embark::generic::ScatterReduce::" + reduce + ", " + ctx.ptr(n.output(0)) + ");\n";
    return {};
}

Status emitEinsum(EmitContext& ctx, const ir::Node& n) {
    std::vector<ir::Shape> shapes;
    for (const ir::Value* v : n.inputs()) shapes.push_back(v->shape);
    Expected<ir::EinsumEquation> eq = ir::parseEinsum(n.attrString("equation", ""), shapes);
    if (!eq) return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": " + eq.error().message);
    if (shapes.size() > 3 || eq->sizes.size() > 16)
        return unsupported(Emitter::Portable, n, "Einsum of more than 3 operands or 16 labels");
    std::vector<int> order = eq->output;
    for (size_t l = 0; l < eq->sizes.size(); ++l)
        if (std::find(order.begin(), order.end(), static_cast<int>(l)) == order.end())
            order.push_back(static_cast<int>(l));
    std::string sizes, strides;
    for (int l : order) sizes += (sizes.empty() ? "" : ", ") + std::to_string(eq->sizes[static_cast<size_t>(l)]);
    for (size_t i = 0; i < shapes.size(); ++i) {
        std::vector<int64_t> s(shapes[i].rank(), 1), per(eq->sizes.size(), 0);
        for (size_t d = shapes[i].rank(); d-- > 1;) s[d - 1] = s[d] * shapes[i][d];
        for (size_t d = 0; d < shapes[i].rank(); ++d)
            if (shapes[i][d] != 1) per[static_cast<size_t>(eq->operands[i][d])] += s[d];
        std::string row;
        for (int l : order) row += (row.empty() ? "" : ", ") + std::to_string(per[static_cast<size_t>(l)]);
        strides += (i ? ", " : "") + std::string("{") + row + "}";
    }
    // Float64 operands (a float64 model) are summed in double by the typed kernel.
    const bool f64 = n.output(0)->dtype == ir::DType::Float64;
    std::string ins;
    for (const ir::Value* v : n.inputs()) {
        if (f64 != (v->dtype == ir::DType::Float64))
            return unsupported(Emitter::Portable, n, "Einsum mixing float64 and other operand types");
        ins += (ins.empty() ? "" : ", ") + (f64 ? "static_cast<const double*>(" + typedPtr(ctx, v) + ")" : ctx.ptr(v));
    }
    const std::string plan = ctx.ident(n, "_einsum");
    ctx.decls += "static const embark::generic::EinsumPlan " + plan + "{" +
                 std::to_string(static_cast<int64_t>(shapes.size())) + ", " +
                 std::to_string(static_cast<int64_t>(order.size())) + ", " +
                 std::to_string(static_cast<int64_t>(eq->output.size())) + ", {" + sizes + "}, {" + strides + "}};\n";
    if (f64)
        ctx.forward += "    { const double* in[] = {" + ins + "};\n      embark::generic::einsumF64(" + plan +
                       ", in, static_cast<double*>(" + typedPtr(ctx, n.output(0)) + ")); }\n";
    else
        ctx.forward += "    { const float* in[] = {" + ins + "};\n      embark::generic::einsum(" + plan + ", in, " +
                       ctx.ptr(n.output(0)) + "); }\n";
    return {};
}

// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss with constant targets (and weights):
// loss = -logp[position] * weight per element, summed or averaged by the generic kernel.
Status emitLoss(EmitContext& ctx, const ir::Node& n) {
    Expected<const ir::Tensor*> target = constantInput(n, 1, "targets");
    if (!target) return target.error();
    if (n.input(2) && !constant(n, 2)) return unsupported(Emitter::Portable, n, "class weights computed at run time");
    const ir::Shape& s = n.input(0)->shape;
    if (s.rank() < 2)
        return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": input must be [N, C, d...]");
    const int64_t N = s[0], C = s[1], D = s.numel() / std::max<int64_t>(N * C, 1);
    const std::vector<int64_t> t = (*target)->toInt64Vector();
    const std::vector<float> w = constant(n, 2) ? constant(n, 2)->toFloatVector() : std::vector<float>();
    const bool hasIgnore = n.has("ignore_index");
    const int64_t ignore = n.attrInt("ignore_index", 0);
    std::vector<int64_t> pos(t.size(), -1);
    std::vector<float> weight(t.size(), 0.f);
    for (int64_t i = 0; i < static_cast<int64_t>(t.size()); ++i) {
        const int64_t c = t[static_cast<size_t>(i)], b = i / std::max<int64_t>(D, 1), d = i % std::max<int64_t>(D, 1);
        if (hasIgnore && c == ignore) continue;
        if (c < 0 || c >= C || (!w.empty() && static_cast<int64_t>(w.size()) != C))
            return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": target class " + std::to_string(c) +
                                                          " is outside [0, " + std::to_string(C) + ")");
        pos[static_cast<size_t>(i)] = (b * C + c) * D + d;
        weight[static_cast<size_t>(i)] = w.empty() ? 1.f : w[static_cast<size_t>(c)];
    }
    const std::string r = n.attrString("reduction", "mean");
    std::string logp = ctx.ptr(n.input(0));
    if (n.op == OpKind::SoftmaxCrossEntropyLoss) {
        const ir::Value* lp = n.output(1);
        const bool kept = lp && (!lp->uses().empty() || lp->isGraphOutput());
        logp = kept ? ctx.ptr(lp) : ctx.scratch(n, s.numel());
        ctx.forward += "    embark::generic::softmax(" + ctx.ptr(n.input(0)) + ", " + std::to_string(N) + ", " +
                       std::to_string(C) + ", " + std::to_string(D) + ", true, " + logp + ");\n";
    }
    ctx.forward += "    embark::generic::weightedLoss(" + logp + ", " + ctx.int64s(n.name + ":positions", pos) + ", " +
                   ctx.floats(n.name + ":weights", weight) + ", " + std::to_string(static_cast<int64_t>(pos.size())) +
                   ", " +
                   (r == "none"  ? "0"
                    : r == "sum" ? "1"
                                 : "2") +
                   ", " + ctx.ptr(n.output(0)) + ");\n";
    return {};
}

Status emitSignal(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const ir::Shape& xs = x->shape;
    switch (n.op) {
    case OpKind::GridSample: {
        std::string mode = n.attrString("mode", "bilinear"), pad = n.attrString("padding_mode", "zeros");
        const int m = mode == "nearest" ? 1 : (mode == "bicubic" || mode == "cubic") ? 2 : 0;
        const int p = pad == "border" ? 1 : pad == "reflection" ? 2 : 0;
        const ir::Shape& gs = n.input(1)->shape;
        if (xs.rank() != 4 || gs.rank() != 4) return unsupported(Emitter::Portable, n, "GridSample other than 2-D");
        ctx.forward += "    embark::generic::gridSample(embark::generic::GridSampleParams{" + std::to_string(xs[0]) +
                       ", " + std::to_string(xs[1]) + ", " + std::to_string(xs[2]) + ", " + std::to_string(xs[3]) +
                       ", " + std::to_string(gs[1]) + ", " + std::to_string(gs[2]) + ", " + std::to_string(m) + ", " +
                       std::to_string(p) + ", " + flag(n.attrInt("align_corners", 0) != 0) + "}, " + ctx.ptr(x) + ", " +
                       ctx.ptr(n.input(1)) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::RoiAlign: {
        Expected<const ir::Tensor*> batch = constantInput(n, 2, "batch indices");
        if (!batch) return batch.error();
        const int64_t rois = n.input(1)->shape[0];
        ctx.forward += "    embark::generic::roiAlign(embark::generic::RoiAlignParams{" + std::to_string(xs[0]) + ", " +
                       std::to_string(xs[1]) + ", " + std::to_string(xs[2]) + ", " + std::to_string(xs[3]) + ", " +
                       std::to_string(rois) + ", " + std::to_string(n.attrInt("output_height", 1)) + ", " +
                       std::to_string(n.attrInt("output_width", 1)) + ", " +
                       std::to_string(n.attrInt("sampling_ratio", 0)) + ", " +
                       cppFloat(n.attrFloat("spatial_scale", 1.f)) + ", " +
                       flag(n.attrString("coordinate_transformation_mode", "half_pixel") == "half_pixel") + ", " +
                       flag(n.attrString("mode", "avg") == "max") + "}, " + ctx.ptr(x) + ", " + ctx.ptr(n.input(1)) +
                       ", " + ctx.int64s(n.name + ":batch", (*batch)->toInt64Vector()) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::DFT: {
        if (n.input(1) && !constant(n, 1)) return unsupported(Emitter::Portable, n, "dft_length computed at run time");
        const size_t axis = static_cast<size_t>(
            ir::Shape(std::vector<int64_t>(xs.dims().begin(), xs.dims().end() - 1)).normAxis(n.attrInt("axis", 1)));
        const int64_t len = xs[axis], L = constant(n, 1) ? constant(n, 1)->intAt(0) : len;
        int64_t outer = 1, inner = 1;
        for (size_t d = 0; d + 1 < xs.rank(); ++d) {
            if (d < axis) outer *= xs[d];
            if (d > axis) inner *= xs[d];
        }
        ctx.forward += "    embark::generic::dft(" + ctx.ptr(x) + ", " + std::to_string(outer) + ", " +
                       std::to_string(len) + ", " + std::to_string(inner) + ", " + flag(xs[xs.rank() - 1] == 2) + ", " +
                       std::to_string(L) + ", " + std::to_string(y->shape[axis]) + ", " +
                       flag(n.attrInt("inverse", 0) != 0) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::STFT: {
        Expected<const ir::Tensor*> step = constantInput(n, 1, "frame_step");
        if (!step) return step.error();
        if (n.input(3) && !constant(n, 3))
            return unsupported(Emitter::Portable, n, "frame_length computed at run time");
        const ir::Value* window = n.input(2);
        const int64_t frame = constant(n, 3) ? constant(n, 3)->intAt(0) : window ? window->shape.numel() : 0;
        ctx.forward += "    embark::generic::stft(" + ctx.ptr(x) + ", " + std::to_string(xs[0]) + ", " +
                       std::to_string(xs[1]) + ", " + flag(xs[2] == 2) + ", " + std::to_string((*step)->intAt(0)) +
                       ", " + (window ? ctx.ptr(window) : std::string("nullptr")) + ", " + std::to_string(frame) +
                       ", " + std::to_string(y->shape[2]) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    default: return unsupported(Emitter::Portable, n, "op " + std::string(ir::opName(n.op)));
    }
}

} // namespace

Status emitPortableIndex(EmitContext& ctx, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    switch (n.op) {
    case OpKind::GatherElements:
    case OpKind::GatherND:
    case OpKind::Trilu:
    case OpKind::Compress:
    case OpKind::ReverseSequence: return emitGatherLike(ctx, n);
    case OpKind::MaxUnpool: {
        Expected<const ir::Tensor*> indices = constantInput(n, 1, "indices");
        if (!indices) return indices.error();
        // The reference places each index (counted in MaxPool's input shape) in the output.
        ir::Node probe;
        probe.name = n.name;
        probe.op = n.op;
        probe.attrs = n.attrs;
        std::vector<ir::Tensor> in{positions(x->shape, 1), **indices};
        if (n.input(2)) {
            Expected<const ir::Tensor*> shape = constantInput(n, 2, "output_shape");
            if (!shape) return shape.error();
            in.push_back(**shape);
        }
        auto placed = reference::evalNode(probe, in);
        if (!placed) return placed.error();
        std::vector<int64_t> from = (*placed)[0].toInt64Vector();
        for (int64_t& f : from) --f; // -1: no element lands there (0)
        ctx.forward += "    embark::generic::gatherFlat(" + ctx.ptr(x) + ", " +
                       ctx.int64s(n.name + ":positions", from) + ", " +
                       std::to_string(static_cast<int64_t>(from.size())) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::Det: {
        const ir::Shape& s = x->shape;
        const int64_t m = s.rank() >= 2 ? s[s.rank() - 1] : 0;
        if (m == 0 || s[s.rank() - 2] != m)
            return makeError(ErrorKind::InvalidInput, "node " + n.describe() + ": input must be [..., M, M]");
        ctx.forward += "    embark::generic::det(" + ctx.ptr(x) + ", " + std::to_string(s.numel() / (m * m)) + ", " +
                       std::to_string(m) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::MeanVarianceNormalization: {
        // Each element's statistics slot (its coordinates on the kept axes), computed here.
        const ir::Shape& s = x->shape;
        std::vector<bool> reduced(s.rank(), false);
        for (int64_t a : n.attrInts("axes", {0, 2, 3})) reduced[static_cast<size_t>(s.normAxis(a))] = true;
        std::vector<int64_t> slot(static_cast<size_t>(s.numel()), 0), strides(s.rank(), 1);
        for (size_t d = s.rank(); d-- > 1;) strides[d - 1] = strides[d] * s[d];
        int64_t nSlots = 1;
        for (size_t d = s.rank(); d-- > 0;) {
            if (reduced[d]) continue;
            for (int64_t i = 0; i < s.numel(); ++i) slot[static_cast<size_t>(i)] += i / strides[d] % s[d] * nSlots;
            nSlots *= s[d];
        }
        ctx.forward += "    embark::generic::meanVarianceNorm(" + ctx.ptr(x) + ", " + std::to_string(s.numel()) + ", " +
                       ctx.int64s(n.name + ":slots", slot) + ", " + std::to_string(nSlots) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::ScatterElements:
    case OpKind::ScatterND: return emitScatter(ctx, n);
    case OpKind::Einsum: return emitEinsum(ctx, n);
    case OpKind::NegativeLogLikelihoodLoss:
    case OpKind::SoftmaxCrossEntropyLoss: return emitLoss(ctx, n);
    case OpKind::GridSample:
    case OpKind::RoiAlign:
    case OpKind::DFT:
    case OpKind::STFT: return emitSignal(ctx, n);
    case OpKind::CumSum: {
        Expected<const ir::Tensor*> axisT = constantInput(n, 1, "the axis");
        if (!axisT) return axisT.error();
        const size_t axis = static_cast<size_t>(x->shape.normAxis((*axisT)->intAt(0)));
        int64_t outer, inner;
        outerInner(x->shape, axis, &outer, &inner);
        if (x->dtype == ir::DType::Float64 && y->dtype == ir::DType::Float64) { // in double (a float64 model)
            ctx.forward += "    embark::generic::cumsumF64(static_cast<const double*>(" + typedPtr(ctx, x) + "), " +
                           std::to_string(outer) + ", " + std::to_string(x->shape[axis]) + ", " +
                           std::to_string(inner) + ", " + flag(n.attrInt("exclusive", 0) != 0) + ", " +
                           flag(n.attrInt("reverse", 0) != 0) + ", static_cast<double*>(" + typedPtr(ctx, y) + "));\n";
            return {};
        }
        ctx.forward += "    embark::generic::cumsum(" + ctx.ptr(x) + ", " + std::to_string(outer) + ", " +
                       std::to_string(x->shape[axis]) + ", " + std::to_string(inner) + ", " +
                       flag(n.attrInt("exclusive", 0) != 0) + ", " + flag(n.attrInt("reverse", 0) != 0) + ", " +
                       ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::OneHot: {
        Expected<const ir::Tensor*> depth = constantInput(n, 1, "depth"), values = constantInput(n, 2, "values");
        if (!depth) return depth.error();
        if (!values) return values.error();
        const size_t axis = static_cast<size_t>(y->shape.normAxis(n.attrInt("axis", -1)));
        int64_t outer = 1, inner = 1;
        for (size_t d = 0; d < x->shape.rank(); ++d) (d < axis ? outer : inner) *= x->shape[d];
        ctx.forward += "    embark::generic::oneHot(" + ctx.ptr(x) + ", " + std::to_string(outer) + ", " +
                       std::to_string(inner) + ", " + std::to_string(static_cast<int64_t>((*depth)->at(0))) + ", " +
                       cppFloat((*values)->at(0)) + ", " + cppFloat((*values)->at(1)) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::Hardmax: {
        const size_t axis = static_cast<size_t>(x->shape.normAxis(n.attrInt("axis", -1)));
        int64_t outer, inner;
        outerInner(x->shape, axis, &outer, &inner);
        ctx.forward += "    embark::generic::hardmax(" + ctx.ptr(x) + ", " + std::to_string(outer) + ", " +
                       std::to_string(x->shape[axis]) + ", " + std::to_string(inner) + ", " + ctx.ptr(y) + ");\n";
        return {};
    }
    case OpKind::EyeLike:
        ctx.forward += "    embark::generic::eye(" + std::to_string(y->shape[0]) + ", " + std::to_string(y->shape[1]) +
                       ", " + std::to_string(n.attrInt("k", 0)) + ", " + ctx.ptr(y) + ");\n";
        return {};
    case OpKind::CastLike:
        if (x->dtype != ir::DType::Float32 || y->dtype != ir::DType::Float32)
            return unsupported(Emitter::Portable, n, "CastLike to or from a non-float32 type at run time");
        emitCopy(ctx, x, y);
        return {};
    default:
        return unsupported(Emitter::Portable, n,
                           "op " + std::string(ir::opName(n.op)) + " on float32 data at run time");
    }
}

} // namespace embark::exporter

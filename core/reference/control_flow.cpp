// If, Loop and Scan: the bodies are run by the same graph interpreter as the model, with
// their inputs bound by position and the owning node's implicit inputs bound to the body's
// outer-scope values by name (ir::Node::outerNames).
#include "kernels.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace embark::reference::detail {
namespace {

using ir::DType;
using ir::OpKind;

bool truth(const ir::Tensor& t) { return t.numel() > 0 && t.at(0) != 0.0; }

ir::Tensor boolScalar(bool b) {
    ir::Tensor t(DType::Bool, ir::Shape{});
    *t.mutableAs<uint8_t>() = b ? 1 : 0;
    return t;
}

Expected<Tensors> runBody(const ir::Node& node, const std::string& attr, const Tensors& bodyInputs,
                          const Tensors& outer, const Capture* capture) {
    const ir::Graph* body = node.subgraph(attr);
    if (!body) return invalid(node, "it has no '" + attr + "' body");
    if (bodyInputs.size() != body->inputs().size())
        return invalid(node, "its body '" + attr + "' takes " + std::to_string(body->inputs().size()) +
                                 " inputs, but the node gives it " + std::to_string(bodyInputs.size()));
    Environment env;
    for (size_t i = 0; i < bodyInputs.size(); ++i) {
        const ir::Value* v = body->inputs()[i];
        if (bodyInputs[i].isNull()) return invalid(node, "body input '" + v->name + "' of '" + attr + "' has no value");
        env[v] = bodyInputs[i];
    }
    for (size_t j = 0; j < node.outerNames.size() && j < outer.size(); ++j) {
        const ir::Value* v = body->findValue(node.outerNames[j]);
        if (v && v->isOuterScope()) env[v] = outer[j];
    }
    const Capture inner{capture ? capture->values : nullptr, capture ? capture->prefix + attr + "/" : ""};
    Expected<Tensors> outs = runGraph(*body, std::move(env), capture ? &inner : nullptr);
    if (!outs) return invalid(node, "in body '" + attr + "': " + outs.error().message);
    return outs;
}

// Element `index` of t along `axis`, that axis removed.
ir::Tensor sliceAt(const ir::Tensor& t, int64_t axis, int64_t index) {
    const auto& dims = t.shape().dims();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= dims[static_cast<size_t>(d)];
    for (size_t d = static_cast<size_t>(axis) + 1; d < dims.size(); ++d) inner *= dims[d];
    const int64_t len = dims[static_cast<size_t>(axis)];
    std::vector<int64_t> outDims;
    for (size_t d = 0; d < dims.size(); ++d)
        if (static_cast<int64_t>(d) != axis) outDims.push_back(dims[d]);
    ir::Tensor out(t.dtype(), ir::Shape(outDims));
    const size_t es = ir::dtypeSize(t.dtype());
    const auto* src = static_cast<const uint8_t*>(t.data());
    auto* dst = static_cast<uint8_t*>(out.mutableData());
    for (int64_t o = 0; o < outer; ++o)
        std::memcpy(dst + static_cast<size_t>(o * inner) * es,
                    src + static_cast<size_t>((o * len + index) * inner) * es, static_cast<size_t>(inner) * es);
    return out;
}

// The tensors of `parts` (equal dtype and shape) stacked along a new leading axis; `empty`
// gives the dtype and per-step shape when there are none.
Expected<ir::Tensor> stack(const ir::Node& node, const std::vector<ir::Tensor>& parts, const ir::Value* empty,
                           const std::string& what) {
    if (parts.empty()) {
        std::vector<int64_t> dims{0};
        for (int64_t d : empty->shape.dims()) dims.push_back(d);
        return ir::Tensor(empty->dtype, ir::Shape(dims));
    }
    std::vector<int64_t> dims{static_cast<int64_t>(parts.size())};
    for (int64_t d : parts[0].shape().dims()) dims.push_back(d);
    ir::Tensor out(parts[0].dtype(), ir::Shape(dims));
    auto* dst = static_cast<uint8_t*>(out.mutableData());
    const size_t step = parts[0].byteSize();
    for (size_t i = 0; i < parts.size(); ++i) {
        if (parts[i].dtype() != parts[0].dtype() || parts[i].shape() != parts[0].shape())
            return invalid(node, what + " is " + parts[i].shape().str() + " at iteration " + std::to_string(i) +
                                     " but " + parts[0].shape().str() +
                                     " at iteration 0; every iteration must "
                                     "give the same shape");
        if (step) std::memcpy(dst + i * step, parts[i].data(), step);
    }
    return out;
}

// [T, d0, d1, ...] with the leading axis moved to position `axis`.
ir::Tensor moveLeadingAxis(const ir::Tensor& t, int64_t axis) {
    if (axis == 0) return t;
    const int64_t rank = t.shape().rank();
    std::vector<int64_t> perm;
    for (int64_t d = 1; d <= axis; ++d) perm.push_back(d);
    perm.push_back(0);
    for (int64_t d = axis + 1; d < rank; ++d) perm.push_back(d);
    return transposeView(t, t.shape(), perm);
}

Expected<Tensors> runIf(const ir::Node& node, const Tensors& own, const Tensors& outer, const Capture* capture) {
    auto cond = requiredInput(node, own, 0);
    if (!cond) return cond.error();
    if ((*cond)->numel() != 1)
        return invalid(node, "its condition has " + std::to_string((*cond)->numel()) + " elements; it must have one");
    Expected<Tensors> outs = runBody(node, truth(**cond) ? "then_branch" : "else_branch", {}, outer, capture);
    if (!outs) return outs;
    if (outs->size() != node.outputs().size())
        return invalid(node, "its branch gives " + std::to_string(outs->size()) + " outputs, the node has " +
                                 std::to_string(node.outputs().size()));
    return outs;
}

Expected<Tensors> runLoop(const ir::Node& node, const Tensors& own, const Tensors& outer, const Capture* capture) {
    const ir::Tensor* tripCount = optionalInput(own, 0);
    const ir::Tensor* condIn = optionalInput(own, 1);
    if (!tripCount && !condIn)
        return invalid(node, "it has neither a trip count nor a condition, so it would never end");
    const int64_t maxTrip = tripCount ? tripCount->intAt(0) : std::numeric_limits<int64_t>::max();
    bool cond = condIn ? truth(*condIn) : true;
    Tensors carried;
    for (size_t i = 2; i < own.size(); ++i) {
        if (own[i].isNull()) return invalid(node, "loop-carried input " + std::to_string(i) + " is absent");
        carried.push_back(own[i]);
    }
    const size_t n = carried.size();
    if (node.outputs().size() < n)
        return invalid(node, "it has " + std::to_string(n) + " loop-carried values but only " +
                                 std::to_string(node.outputs().size()) + " outputs");
    const size_t k = node.outputs().size() - n;
    const ir::Graph* body = node.subgraph("body");
    if (!body) return invalid(node, "it has no 'body'");
    if (body->outputs().size() != 1 + n + k)
        return invalid(node, "its body gives " + std::to_string(body->outputs().size()) + " outputs; expected " +
                                 std::to_string(1 + n + k) + " (condition, " + std::to_string(n) + " loop-carried, " +
                                 std::to_string(k) + " scan outputs)");
    std::vector<std::vector<ir::Tensor>> scans(k);
    for (int64_t i = 0; i < maxTrip && cond; ++i) {
        Tensors in{ir::Tensor::scalarInt64(i), boolScalar(cond)};
        in.insert(in.end(), carried.begin(), carried.end());
        Expected<Tensors> outs = runBody(node, "body", in, outer, capture);
        if (!outs) return outs;
        if (condIn) cond = truth((*outs)[0]);
        for (size_t c = 0; c < n; ++c) carried[c] = (*outs)[1 + c];
        for (size_t s = 0; s < k; ++s) scans[s].push_back((*outs)[1 + n + s]);
    }
    Tensors result = carried;
    for (size_t s = 0; s < k; ++s) {
        auto stacked = stack(node, scans[s], body->outputs()[1 + n + s], "scan output " + std::to_string(s));
        if (!stacked) return stacked.error();
        result.push_back(std::move(*stacked));
    }
    return result;
}

// One scan over `scanInputs` (each iterated along its axis) from `states`; `length` steps
// (fewer than the axis when Scan-8's sequence_lens says so; the rest of the outputs stays zero).
Expected<Tensors> scanOnce(const ir::Node& node, Tensors states, const Tensors& scanInputs,
                           const std::vector<int64_t>& axes, const std::vector<int64_t>& dirs, int64_t length,
                           int64_t fullLength, const std::vector<int64_t>& outAxes, const std::vector<int64_t>& outDirs,
                           const Tensors& outer, const Capture* capture) {
    const ir::Graph* body = node.subgraph("body");
    if (!body) return invalid(node, "it has no 'body'");
    const size_t n = states.size();
    if (body->outputs().size() < n)
        return invalid(node, "its body gives fewer outputs than the " + std::to_string(n) + " states");
    const size_t k = body->outputs().size() - n;
    std::vector<std::vector<ir::Tensor>> scans(k);
    for (int64_t t = 0; t < length; ++t) {
        Tensors in = states;
        for (size_t j = 0; j < scanInputs.size(); ++j)
            in.push_back(sliceAt(scanInputs[j], axes[j], dirs[j] ? length - 1 - t : t));
        Expected<Tensors> outs = runBody(node, "body", in, outer, capture);
        if (!outs) return outs;
        for (size_t c = 0; c < n; ++c) states[c] = (*outs)[c];
        for (size_t s = 0; s < k; ++s) scans[s].push_back((*outs)[n + s]);
    }
    Tensors result = states;
    for (size_t s = 0; s < k; ++s) {
        std::vector<ir::Tensor>& parts = scans[s];
        if (s < outDirs.size() && outDirs[s]) std::reverse(parts.begin(), parts.end());
        for (int64_t t = length; t < fullLength && !parts.empty(); ++t)
            parts.emplace_back(parts[0].dtype(), parts[0].shape());
        auto stacked = stack(node, parts, body->outputs()[n + s], "scan output " + std::to_string(s));
        if (!stacked) return stacked.error();
        const int64_t axis = s < outAxes.size() ? outAxes[s] : 0;
        auto normalized = normalizedAxis(node, axis, stacked->shape().rank());
        if (!normalized) return normalized.error();
        result.push_back(moveLeadingAxis(*stacked, *normalized));
    }
    return result;
}

Expected<Tensors> runScan(const ir::Node& node, const Tensors& own, const Tensors& outer, const Capture* capture) {
    const bool scan8 = node.attrInt("embark_scan8", 0) != 0;
    const size_t first = scan8 ? 1 : 0; // Scan-8's input 0 is sequence_lens
    const int64_t m = node.attrInt("num_scan_inputs", -1);
    if (m < 1 || static_cast<size_t>(m) > own.size() - std::min(own.size(), first))
        return invalid(node, "num_scan_inputs is " + std::to_string(m) + " for " +
                                 std::to_string(own.size() - std::min(own.size(), first)) + " inputs");
    const size_t n = own.size() - first - static_cast<size_t>(m);
    Tensors states(own.begin() + static_cast<std::ptrdiff_t>(first),
                   own.begin() + static_cast<std::ptrdiff_t>(first + n));
    Tensors scanInputs(own.begin() + static_cast<std::ptrdiff_t>(first + n), own.end());
    for (const ir::Tensor& t : states)
        if (t.isNull()) return invalid(node, "a state input is absent");
    for (const ir::Tensor& t : scanInputs)
        if (t.isNull()) return invalid(node, "a scan input is absent");
    std::vector<int64_t> dirs = node.attrInts("scan_input_directions", std::vector<int64_t>(static_cast<size_t>(m), 0));
    std::vector<int64_t> axes = node.attrInts("scan_input_axes", std::vector<int64_t>(static_cast<size_t>(m), 0));
    if (dirs.size() != static_cast<size_t>(m) || axes.size() != static_cast<size_t>(m))
        return invalid(node, "scan_input_directions / scan_input_axes must have num_scan_inputs entries");
    const std::vector<int64_t> outAxes = node.attrInts("scan_output_axes");
    const std::vector<int64_t> outDirs = node.attrInts("scan_output_directions");

    if (!scan8) {
        int64_t length = -1;
        for (size_t j = 0; j < scanInputs.size(); ++j) {
            auto axis = normalizedAxis(node, axes[j], scanInputs[j].shape().rank());
            if (!axis) return axis.error();
            axes[j] = *axis;
            const int64_t len = scanInputs[j].shape().dims()[static_cast<size_t>(*axis)];
            if (length >= 0 && len != length)
                return invalid(node, "its scan inputs have different lengths (" + std::to_string(length) + " and " +
                                         std::to_string(len) + ")");
            length = len;
        }
        return scanOnce(node, states, scanInputs, axes, dirs, length, length, outAxes, outDirs, outer, capture);
    }

    // Scan-8: axis 0 of every state and scan input is the batch; each batch row is scanned
    // along its axis 1 for sequence_lens[b] steps (all of it when absent).
    const ir::Tensor* seqLens = optionalInput(own, 0);
    for (const ir::Tensor& t : states)
        if (t.shape().rank() < 1) return invalid(node, "a state has no batch axis (Scan-8)");
    for (const ir::Tensor& t : scanInputs)
        if (t.shape().rank() < 2) return invalid(node, "a scan input has no batch and sequence axes (Scan-8)");
    const int64_t batch = scanInputs[0].shape().dims()[0];
    const int64_t fullLength = scanInputs[0].shape().dims()[1];
    std::vector<Tensors> rows;
    for (int64_t b = 0; b < batch; ++b) {
        Tensors rowStates, rowInputs;
        for (const ir::Tensor& t : states) rowStates.push_back(sliceAt(t, 0, b));
        for (const ir::Tensor& t : scanInputs) rowInputs.push_back(sliceAt(t, 0, b));
        const int64_t length = seqLens ? seqLens->intAt(b) : fullLength;
        if (length < 0 || length > fullLength)
            return invalid(node, "sequence_lens[" + std::to_string(b) + "] is " + std::to_string(length) +
                                     ", outside 0.." + std::to_string(fullLength));
        auto out = scanOnce(node, rowStates, rowInputs, std::vector<int64_t>(axes.size(), 0), dirs, length, fullLength,
                            {}, {}, outer, capture);
        if (!out) return out;
        rows.push_back(std::move(*out));
    }
    Tensors result;
    for (size_t o = 0; o < node.outputs().size(); ++o) {
        std::vector<ir::Tensor> parts;
        for (const Tensors& r : rows) {
            if (o >= r.size()) return invalid(node, "its body gives fewer outputs than the node has");
            parts.push_back(r[o]);
        }
        const ir::Value* v = node.outputs()[o];
        auto stacked = stack(node, parts, v, "output " + std::to_string(o));
        if (!stacked) return stacked.error();
        result.push_back(std::move(*stacked));
    }
    return result;
}

} // namespace

Expected<Tensors> runControlFlow(const ir::Node& node, const Tensors& inputs, const Capture& capture) {
    const Capture* sink = capture.values ? &capture : nullptr;
    const size_t own = node.explicitInputCount();
    const Tensors ownInputs(inputs.begin(), inputs.begin() + static_cast<std::ptrdiff_t>(std::min(own, inputs.size())));
    const Tensors outer(inputs.begin() + static_cast<std::ptrdiff_t>(std::min(own, inputs.size())), inputs.end());
    switch (node.op) {
    case OpKind::If: return runIf(node, ownInputs, outer, sink);
    case OpKind::Loop: return runLoop(node, ownInputs, outer, sink);
    case OpKind::Scan: return runScan(node, ownInputs, outer, sink);
    default: return unsupported(node, "is not a control-flow op");
    }
}

Expected<Tensors> controlFlowKernel(const ir::Node& node, const Tensors& inputs) {
    return runControlFlow(node, inputs, Capture{});
}

} // namespace embark::reference::detail

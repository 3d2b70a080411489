#include "quantize_static.h"

#include "calibration.h"

#include "pass.h"
#include "reference/interpreter.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace embark::passes {
namespace {

using ir::DType;
using ir::OpKind;

struct Range {
    float lo = 0.f, hi = 0.f; // always includes 0
};

// The output-channel axis of a quantizable node's weight (input 1), or -1 when the node is
// not quantized (non-constant or non-float weights, a MatMul with a batched B).
int64_t weightAxis(const ir::Node& n) {
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    if (!x || !w || x->isConstant() || x->dtype != DType::Float32 || !w->isConstant() || w->dtype != DType::Float32 ||
        !n.output(0) || n.output(0)->dtype != DType::Float32)
        return -1;
    switch (n.op) {
    case OpKind::Conv: return w->shape.rank() >= 3 ? 0 : -1;
    case OpKind::Gemm: return w->shape.rank() == 2 ? (n.attrInt("transB", 0) ? 0 : 1) : -1;
    case OpKind::MatMul: return w->shape.rank() == 2 ? 1 : -1;
    default: return -1;
    }
}

// The value to quantize for a node's output: the output of the Relu or Clip that alone reads
// it, when there is one (its range is the one that matters, and a range that includes the
// negative values the activation drops would waste half of int8's codes).
ir::Value* activationAfter(ir::Value* out) {
    if (out->uses().size() != 1 || out->isGraphOutput()) return out;
    const ir::Node* u = out->uses().front().node;
    if ((u->op == OpKind::Relu || u->op == OpKind::Clip) && u->input(0) == out && u->output(0) &&
        u->output(0)->dtype == DType::Float32)
        return u->output(0);
    return out;
}

int64_t countOf(const ir::Shape& s, int64_t axis) { return s[static_cast<size_t>(axis)]; }

// Index along `axis` of flat element i of a tensor shaped `s`.
int64_t channelOf(const ir::Shape& s, int64_t axis, int64_t i) {
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < s.rank(); ++d) inner *= s[d];
    return (i / inner) % countOf(s, axis);
}

// Counts the sample runs of a calibration and asks `progress` whether to go on.
struct Progress {
    const CalibrationProgress& report;
    int done = 0;
    int total = 0;

    Status step() {
        if (report && !report(done, total))
            return makeError(ErrorKind::External, "cancelled while calibrating (" + std::to_string(done) + "/" +
                                                      std::to_string(total) + " sample runs done)");
        ++done;
        return {};
    }
};

// Runs every sample through the reference and calls fn(k, tensor, sample label) for each
// activation k (a graph input is read from the sample itself).
template <typename Fn>
Status forEachActivation(const ir::Graph& graph, const CalibrationSet& samples,
                         const std::vector<ir::Value*>& activations, Progress& progress, Fn fn) {
    for (size_t i = 0; i < samples.size; ++i) {
        EMBARK_TRY(progress.step());
        Expected<CalibrationSample> loaded = samples.load(i);
        if (!loaded) return loaded.error();
        const CalibrationSample& sample = *loaded;
        reference::RunOptions options;
        options.captureAll = true;
        Expected<reference::RunResult> r = reference::run(graph, sample.inputs, options);
        if (!r)
            return makeError(r.error().kind == ErrorKind::Unsupported ? ErrorKind::Unsupported
                                                                      : ErrorKind::InvalidInput,
                             "calibration sample " + sample.label + ": " + r.error().message);
        for (size_t k = 0; k < activations.size(); ++k) {
            auto it = r->values.find(activations[k]->name);
            const ir::Tensor* t = it != r->values.end() ? &it->second : nullptr;
            if (!t) {
                auto in = sample.inputs.find(activations[k]->name);
                if (in != sample.inputs.end()) t = &in->second;
            }
            if (t) EMBARK_TRY(fn(k, *t, sample.label));
        }
    }
    return {};
}

ir::Tensor int8Tensor(ir::Shape shape, const std::vector<int8_t>& v) {
    return ir::Tensor::fromBytes(DType::Int8, std::move(shape), v.data(), v.size());
}

// Inserts `value -> QuantizeLinear -> DequantizeLinear` and points every node that read
// `value` (the graph output slot excepted) at the dequantized copy. Returns the scale.
float insertActivationQdq(ir::Graph& g, ir::Value* value, const Range& r) {
    float scale = (r.hi - r.lo) / 255.f;
    if (!(scale > 0)) scale = 1.f; // a constant-zero activation: any scale represents it
    const double zp = std::clamp(std::nearbyint(-128.0 - static_cast<double>(r.lo) / scale), -128.0, 127.0);
    ir::Value* s = g.addConstant(g.uniqueName(value->name + "_scale"), ir::Tensor::scalarFloat(scale));
    ir::Value* z =
        g.addConstant(g.uniqueName(value->name + "_zero_point"), int8Tensor(ir::Shape{}, {static_cast<int8_t>(zp)}));
    const std::vector<ir::Use> uses = value->uses();
    ir::Value* q = g.addValue(g.uniqueName(value->name + "_quantized"), DType::Int8, value->shape);
    ir::Value* dq = g.addValue(g.uniqueName(value->name + "_dequantized"), DType::Float32, value->shape);
    g.addNode(OpKind::QuantizeLinear, g.uniqueName(value->name + "_QuantizeLinear"), {value, s, z}, {q});
    g.addNode(OpKind::DequantizeLinear, g.uniqueName(value->name + "_DequantizeLinear"), {q, s, z}, {dq});
    for (const ir::Use& u : uses) g.setInput(u.node, u.index, dq);
    return scale;
}

// Weight input 1 of `n` as int8 per output channel (symmetric, [-127, 127]) through a
// DequantizeLinear; returns the channel scales.
std::vector<float> quantizeWeights(ir::Graph& g, ir::Node* n, int64_t axis) {
    const ir::Value* w = n->input(1);
    const ir::Tensor& t = w->constant;
    const int64_t channels = countOf(t.shape(), axis);
    std::vector<float> maxAbs(static_cast<size_t>(channels), 0.f);
    const std::vector<float> v = t.toFloatVector();
    for (int64_t i = 0; i < t.numel(); ++i) {
        float& m = maxAbs[static_cast<size_t>(channelOf(t.shape(), axis, i))];
        m = std::max(m, std::fabs(v[static_cast<size_t>(i)]));
    }
    std::vector<float> scales(static_cast<size_t>(channels));
    for (size_t c = 0; c < scales.size(); ++c) scales[c] = maxAbs[c] > 0 ? maxAbs[c] / 127.f : 1.f;
    std::vector<int8_t> q(v.size());
    for (int64_t i = 0; i < t.numel(); ++i) {
        const float s = scales[static_cast<size_t>(channelOf(t.shape(), axis, i))];
        q[static_cast<size_t>(i)] = static_cast<int8_t>(
            std::clamp(std::nearbyint(static_cast<double>(v[static_cast<size_t>(i)] / s)), -127.0, 127.0));
    }
    ir::Value* wq = g.addConstant(g.uniqueName(w->name + "_quantized"), int8Tensor(t.shape(), q));
    ir::Value* ws =
        g.addConstant(g.uniqueName(w->name + "_scale"), ir::Tensor::fromFloats(ir::Shape{channels}, scales));
    ir::Value* wdq = g.addValue(g.uniqueName(w->name + "_dequantized"), DType::Float32, t.shape());
    ir::Node* dq = g.addNode(OpKind::DequantizeLinear, g.uniqueName(w->name + "_DequantizeLinear"), {wq, ws}, {wdq});
    dq->attrs["axis"] = axis;
    g.setInput(n, 1, wdq);
    return scales;
}

// A 1-D float bias of one value per output channel as int32 with scale x_scale * w_scale[c].
void quantizeBias(ir::Graph& g, ir::Node* n, float xScale, const std::vector<float>& wScales) {
    const ir::Value* b = n->input(2);
    if (!b || !b->isConstant() || b->dtype != DType::Float32 || b->shape.rank() != 1 ||
        b->shape[0] != static_cast<int64_t>(wScales.size()))
        return;
    const std::vector<float> v = b->constant.toFloatVector();
    std::vector<float> scales(v.size());
    std::vector<int32_t> q(v.size());
    for (size_t c = 0; c < v.size(); ++c) {
        scales[c] = xScale * wScales[c];
        q[c] = static_cast<int32_t>(
            std::clamp(std::nearbyint(static_cast<double>(v[c] / scales[c])), -2147483647.0, 2147483647.0));
    }
    const ir::Shape shape = b->shape;
    ir::Value* bq = g.addConstant(g.uniqueName(b->name + "_quantized"),
                                  ir::Tensor::fromBytes(DType::Int32, shape, q.data(), q.size() * sizeof(int32_t)));
    ir::Value* bs = g.addConstant(g.uniqueName(b->name + "_scale"), ir::Tensor::fromFloats(shape, scales));
    ir::Value* bdq = g.addValue(g.uniqueName(b->name + "_dequantized"), DType::Float32, shape);
    ir::Node* dq = g.addNode(OpKind::DequantizeLinear, g.uniqueName(b->name + "_DequantizeLinear"), {bq, bs}, {bdq});
    dq->attrs["axis"] = int64_t{0};
    g.setInput(n, 2, bdq);
}

// Identity removed, constants folded, BatchNormalization folded into the convolution before
// it, Pad into its consumer (standard ONNX rewrites, each to a fixed point), so that the
// ranges calibrated are those of the layers an int8 runtime computes.
Status prepare(ir::Graph& graph) {
    PassContext ctx;
    using Factory = std::unique_ptr<Pass> (*)();
    for (Factory make : {&makeRemoveIdentity, &makeConstantFolding, &makeFuseBatchNorm, &makeFusePad}) {
        const std::unique_ptr<Pass> pass = make();
        for (int round = 0; round < 16; ++round) {
            Expected<int> n = pass->run(graph, ctx);
            if (!n) return n.error();
            if (*n == 0) break;
        }
    }
    return graph.topoSort();
}

} // namespace

Expected<QuantizeReport> quantizeStatic(ir::Graph& graph, const std::vector<CalibrationSample>& samples,
                                        const QuantizeExclusions& exclude, const CalibrationOptions& calibration,
                                        const CalibrationProgress& progress) {
    CalibrationSet set;
    set.size = samples.size();
    set.load = [&samples](size_t i) -> Expected<CalibrationSample> { return samples[i]; };
    return quantizeStatic(graph, set, exclude, calibration, progress);
}

Expected<QuantizeReport> quantizeStatic(ir::Graph& graph, const CalibrationSet& samples,
                                        const QuantizeExclusions& exclude, const CalibrationOptions& calibration,
                                        const CalibrationProgress& progress) {
    if (samples.size == 0)
        return makeError(
            ErrorKind::Usage,
            "the calibration set is empty: give at least one --calib test_data_set_N folder, tensor file or image");
    for (const std::string& name : exclude.nodes)
        if (!graph.findNode(name))
            return makeError(ErrorKind::Usage, "--exclude-node '" + name + "': the model has no node of that name");
    QuantizeReport report;
    EMBARK_TRY(prepare(graph));
    // The quantized nodes and the activations to calibrate, in graph order.
    struct Target {
        ir::Node* node;
        int64_t axis;
        ir::Value* x; // the float data input, before its Q/DQ pair
    };
    std::vector<Target> targets;
    std::vector<ir::Value*> activations;
    std::set<const ir::Value*> seen;
    for (ir::Node* n : graph.nodes()) {
        const int64_t axis = weightAxis(*n);
        if (axis < 0) continue;
        if (exclude.nodes.count(n->name) || exclude.ops.count(n->op)) {
            ++report.excluded;
            continue;
        }
        targets.push_back({n, axis, n->input(0)});
        for (ir::Value* v : {n->input(0), activationAfter(n->output(0))})
            if (seen.insert(v).second) activations.push_back(v);
    }
    RangeCollector collector(activations.size());
    const int runs = static_cast<int>(samples.size) * (calibration.method == CalibrationMethod::MinMax ? 1 : 2);
    Progress counter{progress, 0, runs};
    EMBARK_TRY(forEachActivation(
        graph, samples, activations, counter, [&](size_t k, const ir::Tensor& t, const std::string& label) -> Status {
            const float* p = t.as<float>();
            for (int64_t i = 0; i < t.numel(); ++i)
                if (std::isnan(p[i]))
                    return makeError(ErrorKind::InvalidInput, "calibration sample " + label + ": value '" +
                                                                  activations[k]->name + "' holds NaN at element " +
                                                                  std::to_string(i) +
                                                                  "; calibration data must be finite");
            collector.observe(k, p, t.numel());
            return {};
        }));
    if (calibration.method != CalibrationMethod::MinMax)
        EMBARK_TRY(forEachActivation(graph, samples, activations, counter,
                                     [&](size_t k, const ir::Tensor& t, const std::string&) -> Status {
                                         collector.observeHistogram(k, t.as<float>(), t.numel());
                                         return {};
                                     }));
    if (progress && !progress(runs, runs))
        return makeError(ErrorKind::External, "cancelled after calibrating, before quantizing");
    report.samples = static_cast<int>(samples.size);
    std::map<const ir::Value*, float> scales;
    for (size_t k = 0; k < activations.size(); ++k) {
        const auto [lo, hi] = collector.range(k, calibration);
        scales[activations[k]] = insertActivationQdq(graph, activations[k], Range{lo, hi});
        ++report.activations;
    }
    for (const Target& t : targets) {
        const std::vector<float> wScales = quantizeWeights(graph, t.node, t.axis);
        if (t.node->op != OpKind::MatMul) quantizeBias(graph, t.node, scales[t.x], wScales);
        ++report.quantizedNodes;
    }
    EMBARK_TRY(graph.topoSort());
    graph.removeDeadValues();
    return report;
}

} // namespace embark::passes

#include "dynamic_length.h"

#include "ir/opkind.h"
#include "reference/interpreter.h"

#include <algorithm>
#include <optional>

namespace embark::exporter {
namespace {

using ir::OpKind;

std::string valueName(const ir::Value* v) { return "'" + v->name + "'"; }

Error refuse(const ir::Node& n, const std::string& what) {
    return makeError(ErrorKind::Unsupported, "node " + n.describe() + ": " + what);
}

// A node whose outputs' length depends on the data: NonMaxSuppression, NonZero, Unique, and
// TopK with K computed at run time.
bool isSource(const ir::Node& n) {
    if (n.op == OpKind::TopK) return n.input(1) && !n.input(1)->isConstant();
    return n.op == OpKind::NonMaxSuppression || n.op == OpKind::NonZero || n.op == OpKind::Unique;
}

// One data-dependent output of a source: which output, its capacity shape and its axis.
struct SourceOutput {
    size_t output;
    ir::Shape shape;
    int axis;
};

// The capacity shapes of a source's data-dependent outputs, or an error.
Expected<std::vector<SourceOutput>> capacity(const ir::Node& n) {
    const ir::Value* x = n.input(0);
    if (n.op == OpKind::NonZero) {
        if (!x || x->shape.rank() == 0) return refuse(n, "NonZero of a scalar is not exported");
        return std::vector<SourceOutput>{{0, ir::Shape{static_cast<int64_t>(x->shape.rank()), x->shape.numel()}, 1}};
    }
    if (n.op == OpKind::TopK) { // at most the whole axis: values and indices shaped like x
        if (!x || x->shape.rank() == 0) return refuse(n, "TopK of a scalar");
        const int axis = static_cast<int>(x->shape.normAxis(n.attrInt("axis", -1)));
        std::vector<SourceOutput> out{{0, x->shape, axis}};
        if (n.outputs().size() > 1 && n.output(1)) out.push_back({1, x->shape, axis});
        return out;
    }
    if (n.op == OpKind::Unique) { // at most every slice (or element) distinct; inverse_indices is fixed
        if (!x) return refuse(n, "Unique without an input");
        const bool hasAxis = n.has("axis");
        if (hasAxis && x->shape.rank() == 0) return refuse(n, "Unique along an axis of a scalar");
        const int axis = hasAxis ? static_cast<int>(x->shape.normAxis(n.attrInt("axis", 0))) : 0;
        const int64_t dim = hasAxis ? x->shape[static_cast<size_t>(axis)] : x->shape.numel();
        std::vector<SourceOutput> out{{0, hasAxis ? x->shape : ir::Shape{dim}, axis}};
        for (size_t k : {size_t{1}, size_t{3}})
            if (n.outputs().size() > k && n.output(k)) out.push_back({k, ir::Shape{dim}, 0});
        return out;
    }
    const ir::Value *boxes = n.input(0), *scores = n.input(1), *maxBoxes = n.input(2);
    if (!boxes || !scores || boxes->shape.rank() != 3 || scores->shape.rank() != 3)
        return refuse(n, "boxes and scores must be [batch, boxes, 4] and [batch, classes, boxes]");
    const int64_t count = boxes->shape[1];
    int64_t perClass = count; // a bound computed at run time is capped by the boxes there are
    if (!maxBoxes)
        perClass = 0;
    else if (maxBoxes->isConstant())
        perClass = std::clamp<int64_t>(maxBoxes->constant.numel() ? maxBoxes->constant.intAt(0) : 0, 0, count);
    return std::vector<SourceOutput>{{0, ir::Shape{boxes->shape[0] * scores->shape[1] * perClass, 3}, 0}};
}

// The constant integers of n's input i (axes, starts, ends), or nullopt when it is computed.
std::optional<std::vector<int64_t>> constantInts(const ir::Node& n, size_t i) {
    const ir::Value* v = n.input(i);
    if (!v) return std::vector<int64_t>{};
    if (!v->isConstant()) return std::nullopt;
    return v->constant.toInt64Vector();
}

// The output axis of the ops that move the data-dependent axis d of their input `which`, or keep
// it while working along other axes, without mixing its rows: Transpose, Squeeze and Unsqueeze
// (a reshape that only adds or drops axes of 1), Slice, Concat of values of the same length,
// Softmax / LogSoftmax / Hardmax, ArgMax / ArgMin and the reductions along other axes. Run at
// the capacity shape, each puts the run's rows first along the returned axis (NonZero's
// `x[mask]`: NonZero, Transpose, GatherND; a detector's scores: Softmax, ReduceMax, ArgMax over
// classes, per kept box). `dynamicInputs`: how many inputs have a data-dependent length.
template <typename Bad>
Expected<int> movedAxis(const ir::Node& n, size_t which, int d, size_t dynamicInputs, const Bad& bad) {
    const ir::Shape& in = n.input(which)->shape;
    const int rank = static_cast<int>(in.rank());
    if (dynamicInputs != 1 && n.op != OpKind::Concat) return bad("it also reads another data-dependent length");
    if (which != 0 && n.op != OpKind::Concat) return bad("only its first input may have a data-dependent length");
    // Marks the axes listed in input 1 (`axes`) of `shape`: nullopt when they are computed at run
    // time or one is out of range; none listed marks `none`.
    const auto listed = [&](const ir::Shape& shape, bool none) -> std::optional<std::vector<bool>> {
        const auto axes = constantInts(n, 1);
        if (!axes) return std::nullopt;
        std::vector<bool> marked(shape.rank(), axes->empty() && none);
        for (int64_t a : *axes) {
            const int64_t i = shape.normAxis(a);
            if (i < 0) return std::nullopt;
            marked[static_cast<size_t>(i)] = true;
        }
        return marked;
    };
    const auto before = [&](const std::vector<bool>& marked) {
        return static_cast<int>(std::count(marked.begin(), marked.begin() + d, true));
    };
    if (ir::isReduceOp(n.op)) {
        const bool noop = n.attrInt("noop_with_empty_axes", 0) != 0;
        const auto reduced = listed(in, !noop);
        if (!reduced) return bad("its axes are computed at run time or out of range");
        if ((*reduced)[static_cast<size_t>(d)]) return bad("it reduces the data-dependent axis");
        return n.attrInt("keepdims", 1) != 0 ? d : d - before(*reduced);
    }
    switch (n.op) {
    case OpKind::Transpose: {
        std::vector<int64_t> perm = n.attrInts("perm");
        if (perm.empty())
            for (int i = rank - 1; i >= 0; --i) perm.push_back(i);
        for (size_t j = 0; j < perm.size(); ++j)
            if (in.normAxis(perm[j]) == d) return static_cast<int>(j);
        return bad("its perm does not name every axis");
    }
    case OpKind::Squeeze: {
        auto dropped = listed(in, false);
        if (!dropped) return bad("its axes are computed at run time or out of range");
        if (constantInts(n, 1)->empty()) // every axis of 1
            for (int i = 0; i < rank; ++i) (*dropped)[static_cast<size_t>(i)] = in[static_cast<size_t>(i)] == 1;
        if ((*dropped)[static_cast<size_t>(d)]) return bad("it squeezes the data-dependent axis");
        return d - before(*dropped);
    }
    case OpKind::Unsqueeze: {
        const auto added = listed(n.output(0)->shape, false);
        if (!added) return bad("its axes are computed at run time or out of range");
        for (int j = 0, i = 0; j < static_cast<int>(added->size()); ++j)
            if (!(*added)[static_cast<size_t>(j)] && i++ == d) return j;
        return bad("its axes do not fit its output");
    }
    case OpKind::Slice: {
        const auto axes = constantInts(n, 3);
        const auto starts = constantInts(n, 1);
        if (!axes || !starts || !constantInts(n, 2) || !constantInts(n, 4))
            return bad("its starts, ends, axes or steps are computed at run time");
        if (n.input(3) == nullptr) {
            if (static_cast<int>(starts->size()) > d) return bad("it slices along the data-dependent axis");
        } else {
            for (int64_t a : *axes)
                if (in.normAxis(a) == d) return bad("it slices along the data-dependent axis");
        }
        return d;
    }
    case OpKind::Concat:
        for (const ir::Value* v : n.inputs())
            if (v && v->shape.rank() != in.rank()) return bad("its inputs differ in rank");
        if (dynamicInputs != n.inputs().size()) return bad("it joins it with a value of fixed length");
        if (in.normAxis(n.attrInt("axis", 0)) == d) return bad("it concatenates along the data-dependent axis");
        return d;
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
    case OpKind::Hardmax:
        if (in.normAxis(n.attrInt("axis", -1)) == d) return bad("it normalises along the data-dependent axis");
        return d;
    case OpKind::ArgMax:
    case OpKind::ArgMin: {
        const int64_t a = in.normAxis(n.attrInt("axis", 0));
        if (a < 0) return bad("its axis is out of range");
        if (a == d) return bad("it reduces the data-dependent axis");
        return n.attrInt("keepdims", 1) != 0 || d < a ? d : d - 1;
    }
    default: return bad("this op does not keep rows apart");
    }
}

// Output axis of n holding the data-dependent length of its dynamic input(s), or an error.
Expected<int> carriedAxis(const ir::Node& n, const DynamicLengths& dyn, std::string* count) {
    std::vector<std::pair<size_t, const DynamicLength*>> in;
    for (size_t i = 0; i < n.inputs().size(); ++i)
        if (const ir::Value* v = n.input(i))
            if (auto it = dyn.find(v->name); it != dyn.end()) in.push_back({i, &it->second});
    const ir::Value* firstIn = n.input(in[0].first);
    const auto bad = [&](const std::string& why) {
        return refuse(
            n, "it reads " + valueName(firstIn) + ", whose length along axis " + std::to_string(in[0].second->axis) +
                   " depends on the data (NonMaxSuppression, NonZero, Unique, TopK by a run-time K) and is "
                   "planned at its upper bound " +
                   firstIn->shape.str() + "; " + why +
                   ". Exports carry such a length through element-wise ops, Cast, Identity, Gather or GatherND "
                   "by such indices, Transpose, Squeeze, Unsqueeze, and Slice, Concat, Softmax, ArgMax and "
                   "reductions along other axes; compute the rest after the model");
    };
    for (const auto& input : in)
        if (input.second->count != in[0].second->count) return bad("it also reads another data-dependent length");
    *count = in[0].second->count;
    const ir::Value* y = n.output(0);
    if (!y || n.outputs().size() != 1 || !n.subgraphs.empty()) return bad("this op does not keep rows apart");
    const size_t outRank = y->shape.rank();
    const ir::OpCategory cat = ir::opCategory(n.op);
    if (n.op == OpKind::Cast || n.op == OpKind::Identity || cat == ir::OpCategory::Activation ||
        (cat == ir::OpCategory::Elementwise && !ir::isFusedQuantized(n.op))) {
        int axis = -1;
        for (const auto& [i, d] : in) {
            const int a = d->axis + static_cast<int>(outRank - n.input(i)->shape.rank());
            if (axis >= 0 && a != axis) return bad("its inputs align their data-dependent axes differently");
            axis = a;
        }
        for (size_t i = 0; i < n.inputs().size(); ++i) {
            const ir::Value* v = n.input(i);
            if (!v || dyn.count(v->name)) continue;
            const int a = axis - static_cast<int>(outRank - v->shape.rank());
            if (a >= 0 && v->shape[static_cast<size_t>(a)] != 1)
                return bad("input " + valueName(v) + " is not broadcast along that axis");
        }
        return axis;
    }
    if (n.op == OpKind::Gather) {
        const ir::Value *data = n.input(0), *idx = n.input(1);
        if (in.size() != 1) return bad("both its data and its indices have a data-dependent length");
        const int a = static_cast<int>(data->shape.normAxis(n.attrInt("axis", 0)));
        if (in[0].first == 1) return a + in[0].second->axis;
        const int d = in[0].second->axis;
        if (d == a) return bad("it gathers along the data-dependent axis");
        return d < a ? d : d + static_cast<int>(idx->shape.rank()) - 1;
    }
    if (n.op == OpKind::GatherND) {
        const ir::Value* idx = n.input(1);
        const int64_t batchDims = n.attrInt("batch_dims", 0);
        if (in.size() != 1 || in[0].first != 1) return bad("only GatherND's indices may have a data-dependent length");
        const int j = in[0].second->axis;
        if (j < batchDims || j + 1 >= static_cast<int>(idx->shape.rank()))
            return bad("GatherND's data-dependent axis must be a row of its indices");
        return j;
    }
    for (const auto& input : in)
        if (input.second->axis != in[0].second->axis)
            return bad("its inputs have their data-dependent lengths along different axes");
    return movedAxis(n, in[0].first, in[0].second->axis, in.size(), bad);
}

} // namespace

Expected<DynamicLengths> planDynamicLengths(ir::Graph& g) {
    DynamicLengths dyn;
    int sources = 0;
    for (ir::Node* n : g.nodes()) {
        const bool source = isSource(*n);
        bool reads = false;
        for (const ir::Value* v : n->inputs()) reads = reads || (v && dyn.count(v->name));
        if (!source && !reads) continue;
        ir::Value* y = n->output(0);
        if (!y) continue;
        if (source) {
            bool allConstant = true;
            for (const ir::Value* v : n->inputs()) allConstant = allConstant && (!v || v->isConstant());
            if (allConstant) continue; // computed at export time, its length is known
            if (reads) return refuse(*n, "it reads a value whose length depends on the data");
            Expected<std::vector<SourceOutput>> cap = capacity(*n);
            if (!cap) return cap.error();
            const std::string count = "g_len_" + std::to_string(sources++);
            for (const SourceOutput& o : *cap) {
                n->output(o.output)->shape = o.shape;
                dyn[n->output(o.output)->name] = {count, o.axis};
            }
            continue;
        }
        std::string count;
        Expected<int> axis = carriedAxis(*n, dyn, &count);
        if (!axis) return axis.error();
        // The output's capacity shape: the node run once on zeros of its inputs' shapes (a zero
        // index reads in range).
        std::vector<ir::Tensor> zeros;
        for (const ir::Value* v : n->inputs())
            zeros.push_back(!v ? ir::Tensor() : v->isConstant() ? v->constant : ir::Tensor(v->dtype, v->shape));
        auto out = reference::evalNode(*n, zeros);
        if (!out) return out.error();
        y->shape = (*out)[0].shape();
        dyn[y->name] = {count, *axis};
    }
    return dyn;
}

} // namespace embark::exporter

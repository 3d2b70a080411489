#include "opset_normalize.h"

#include "ir/recurrent.h"
#include "op_table.h"

#include <algorithm>

#include <optional>

namespace embark::onnx {
namespace {
using ir::OpKind;

std::optional<ir::Attribute> takeAttr(ir::Attributes& attrs, const std::string& name) {
    auto it = attrs.find(name);
    if (it == attrs.end()) return std::nullopt;
    ir::Attribute a = std::move(it->second);
    attrs.erase(it);
    return a;
}

std::vector<int64_t> asInts(const ir::Attribute& a) {
    if (auto p = std::get_if<std::vector<int64_t>>(&a)) return *p;
    if (auto p = std::get_if<int64_t>(&a)) return {*p};
    return {};
}

std::vector<float> asFloats(const ir::Attribute& a) {
    if (auto p = std::get_if<std::vector<float>>(&a)) return *p;
    if (auto p = std::get_if<float>(&a)) return {*p};
    if (auto p = std::get_if<int64_t>(&a)) return {static_cast<float>(*p)};
    return {};
}

int64_t asInt(const ir::Attribute& a, int64_t fallback) {
    const auto v = asInts(a);
    return v.empty() ? fallback : v.front();
}

std::string asString(const ir::Attributes& attrs, const std::string& name, const std::string& fallback) {
    auto it = attrs.find(name);
    if (it == attrs.end()) return fallback;
    auto p = std::get_if<std::string>(&it->second);
    return p ? *p : fallback;
}

float asFloat(const ir::Attribute& a, float fallback) {
    const auto v = asFloats(a);
    return v.empty() ? fallback : v.front();
}

void setInputAt(PendingNode& node, size_t index, ir::Value* v) {
    if (node.inputs.size() <= index) node.inputs.resize(index + 1, nullptr);
    node.inputs[index] = v;
}

ir::Value* constant(ir::Graph& g, const PendingNode& node, const std::string& what, ir::Tensor t) {
    return g.addConstant(g.uniqueName(node.name + "_" + what), std::move(t));
}

ir::Value* intsConstant(ir::Graph& g, const PendingNode& node, const std::string& what, const std::vector<int64_t>& v) {
    return constant(g, node, what, ir::Tensor::fromInt64s(ir::Shape{static_cast<int64_t>(v.size())}, v));
}

// A scalar of the data input's element type (Clip bounds, Pad value must match it).
ir::Value* scalarLike(ir::Graph& g, const PendingNode& node, const std::string& what, float v) {
    const ir::DType dtype = node.inputs.empty() || !node.inputs[0] ? ir::DType::Float32 : node.inputs[0]->dtype;
    return constant(g, node, what, ir::Tensor::scalarFloat(v).castTo(dtype));
}

// Moves attribute `attr` (a list of ints) into input `index`, if present.
void intsAttrToInput(ir::Graph& g, PendingNode& node, const std::string& attr, size_t index) {
    if (auto a = takeAttr(node.attrs, attr)) setInputAt(node, index, intsConstant(g, node, attr, asInts(*a)));
}

ir::Node* insertNode(ir::Graph& g, OpKind op, const std::string& name, const std::vector<ir::Value*>& ins,
                     const std::vector<ir::Value*>& outs, ir::Attributes attrs,
                     const std::vector<std::string>& provenance) {
    ir::Node* n = g.addNode(op, name, ins, outs);
    n->attrs = std::move(attrs);
    if (!provenance.empty()) n->provenance = provenance;
    return n;
}

// Softmax before opset 13 coerces its input to 2-D at `axis` and normalises over the whole
// second dimension; opset 13 normalises over `axis` alone.
Status addLegacySoftmax(ir::Graph& g, PendingNode node, const std::function<bool(const ir::Value*)>& shapeKnown) {
    ir::Value* x = node.inputs.empty() ? nullptr : node.inputs[0];
    ir::Value* y = node.outputs.empty() ? nullptr : node.outputs[0];
    if (!x || !y) return makeError(ErrorKind::InvalidInput, "node '" + node.name + "' has no input or output");
    const auto axisIt = node.attrs.find("axis");
    const int64_t axisAttr = axisIt == node.attrs.end() ? 1 : asInt(axisIt->second, 1);
    if (shapeKnown(x)) {
        const ir::Shape& s = x->shape;
        const int64_t rank = static_cast<int64_t>(s.rank());
        const int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
        if (axis < 0 || axis > rank)
            return makeError(ErrorKind::InvalidInput, "node '" + node.name + "' has axis " + std::to_string(axisAttr) +
                                                          " outside its input's rank " + std::to_string(rank));
        if (axis == rank - 1 || (rank > 0 && axis == rank)) {
            // Same result under both semantics when the softmax covers only the last axis.
            node.attrs["axis"] = int64_t{rank - 1};
            insertNode(g, node.op, node.name, {x}, {y}, node.attrs, node.provenance);
            return {};
        }
        int64_t outer = 1, inner = 1;
        for (int64_t i = 0; i < rank; ++i) (i < axis ? outer : inner) *= s[static_cast<size_t>(i)];
        ir::Value* flat = g.addValue(g.uniqueName(node.name + "_2d"), x->dtype, ir::Shape{outer, inner});
        ir::Value* soft = g.addValue(g.uniqueName(node.name + "_2d_out"), x->dtype, ir::Shape{outer, inner});
        insertNode(g, OpKind::Reshape, g.uniqueName(node.name + "_to_2d"),
                   {x, intsConstant(g, node, "shape_2d", {outer, inner})}, {flat}, {}, node.provenance);
        node.attrs["axis"] = int64_t{1};
        insertNode(g, node.op, node.name, {flat}, {soft}, node.attrs, node.provenance);
        insertNode(g, OpKind::Reshape, g.uniqueName(node.name + "_from_2d"),
                   {soft, intsConstant(g, node, "shape_back", s.dims())}, {y}, {}, node.provenance);
        return {};
    }
    // Unknown shape: Flatten does the coercion and Shape(x) gives the way back.
    ir::Value* flat = g.addValue(g.uniqueName(node.name + "_2d"), x->dtype, {});
    ir::Value* soft = g.addValue(g.uniqueName(node.name + "_2d_out"), x->dtype, {});
    ir::Value* shape = g.addValue(g.uniqueName(node.name + "_shape"), ir::DType::Int64, {});
    insertNode(g, OpKind::Flatten, g.uniqueName(node.name + "_to_2d"), {x}, {flat}, {{"axis", ir::Attribute(axisAttr)}},
               node.provenance);
    node.attrs["axis"] = int64_t{1};
    insertNode(g, node.op, node.name, {flat}, {soft}, node.attrs, node.provenance);
    insertNode(g, OpKind::Shape, g.uniqueName(node.name + "_input_shape"), {x}, {shape}, {}, node.provenance);
    insertNode(g, OpKind::Reshape, g.uniqueName(node.name + "_from_2d"), {soft, shape}, {y}, {}, node.provenance);
    return {};
}
// Opset 6: a binary op broadcasts only with broadcast=1, its second input aligned with the
// first at `axis` (numpy's right alignment without one): trailing 1s make it numpy's form.
Status legacyBroadcast(ir::Graph& g, PendingNode& node, const std::function<bool(const ir::Value*)>& shapeKnown) {
    auto broadcast = takeAttr(node.attrs, "broadcast");
    auto axisAttr = takeAttr(node.attrs, "axis");
    if (!broadcast || asInt(*broadcast, 0) == 0 || !axisAttr || node.inputs.size() < 2) return {};
    ir::Value* a = node.inputs[0];
    ir::Value* b = node.inputs[1];
    if (!a || !b || !shapeKnown(a) || !shapeKnown(b))
        return makeError(ErrorKind::Unsupported,
                         "node '" + node.name +
                             "' broadcasts its second input from an axis (opset 6) "
                             "but the input shapes are unknown: convert the model to opset 7 or newer");
    const int64_t rankA = static_cast<int64_t>(a->shape.rank()), rankB = static_cast<int64_t>(b->shape.rank());
    int64_t axis = asInt(*axisAttr, 0);
    if (axis < 0) axis += rankA;
    const int64_t trailing = rankA - axis - rankB;
    if (axis < 0 || trailing < 0)
        return makeError(ErrorKind::InvalidInput, "node '" + node.name + "' broadcasts a " + b->shape.str() +
                                                      " input from axis " + std::to_string(asInt(*axisAttr, 0)) +
                                                      " of a " + a->shape.str() + " input");
    if (trailing == 0) return {};
    std::vector<int64_t> dims = b->shape.dims(), axes;
    for (int64_t t = 0; t < trailing; ++t) {
        dims.push_back(1);
        axes.push_back(rankB + t);
    }
    if (b->isConstant()) {
        node.inputs[1] = constant(g, node, "broadcast", b->constant.reshaped(ir::Shape(dims)));
        return {};
    }
    ir::Value* b2 = g.addValue(g.uniqueName(node.name + "_broadcast"), b->dtype, ir::Shape(dims));
    insertNode(g, OpKind::Unsqueeze, g.uniqueName(node.name + "_broadcast"),
               {b, intsConstant(g, node, "broadcast_axes", axes)}, {b2}, {}, node.provenance);
    node.inputs[1] = b2;
    return {};
}

// GroupNormalization (opset 18: scale and bias per group; 21: per channel) in the IR's ops:
// Reshape to [N, G, -1], InstanceNormalization (unit scale, zero bias), Reshape back, then the
// scale and bias per channel.
Status addGroupNormalization(ir::Graph& g, PendingNode node, int opset,
                             const std::function<bool(const ir::Value*)>& shapeKnown) {
    const std::string what = "node '" + node.name + "' (GroupNormalization)";
    ir::Value* x = node.inputs.empty() ? nullptr : node.inputs[0];
    ir::Value* scale = node.inputs.size() > 1 ? node.inputs[1] : nullptr;
    ir::Value* bias = node.inputs.size() > 2 ? node.inputs[2] : nullptr;
    ir::Value* y = node.outputs.empty() ? nullptr : node.outputs[0];
    if (!x || !scale || !bias || !y) return makeError(ErrorKind::InvalidInput, what + " needs X, scale and bias");
    const auto groupsAttr = takeAttr(node.attrs, "num_groups");
    const int64_t groups = groupsAttr ? asInt(*groupsAttr, 0) : 0;
    const auto epsAttr = takeAttr(node.attrs, "epsilon");
    const float eps = epsAttr ? asFloat(*epsAttr, 1e-5f) : 1e-5f;
    if (groups <= 0) return makeError(ErrorKind::InvalidInput, what + " needs a positive num_groups");
    if (!shapeKnown(x) || x->shape.rank() < 2)
        return makeError(ErrorKind::Unsupported,
                         what + " needs an input of known shape [N, C, ...]: give it with --shape");
    const ir::Shape& s = x->shape;
    const int64_t n = s[0], c = s[1];
    if (c % groups != 0)
        return makeError(ErrorKind::InvalidInput, what + " has " + std::to_string(c) + " channels, not a multiple of " +
                                                      std::to_string(groups) + " groups");
    const int64_t k = n != 0 ? s.numel() / (n * groups) : 0;
    const auto value = [&](const std::string& suffix, const ir::Shape& shape) {
        return g.addValue(g.uniqueName(node.name + suffix), x->dtype, shape);
    };
    ir::Value* grouped = value("_grouped", ir::Shape{n, groups, k});
    insertNode(g, OpKind::Reshape, g.uniqueName(node.name + "_group"),
               {x, intsConstant(g, node, "grouped_shape", {n, groups, k})}, {grouped}, {}, node.provenance);
    ir::Value* normed = value("_normalized", ir::Shape{n, groups, k});
    const auto filled = [&](const std::string& what2, float v) {
        return constant(g, node, what2,
                        ir::Tensor::fromFloats(ir::Shape{groups}, std::vector<float>(static_cast<size_t>(groups), v))
                            .castTo(x->dtype));
    };
    insertNode(g, OpKind::InstanceNormalization, node.name,
               {grouped, filled("unit_scale", 1.f), filled("zero_bias", 0.f)}, {normed},
               {{"epsilon", ir::Attribute(eps)}}, node.provenance);
    ir::Value* back = value("_ungrouped", s);
    insertNode(g, OpKind::Reshape, g.uniqueName(node.name + "_ungroup"),
               {normed, intsConstant(g, node, "shape", s.dims())}, {back}, {}, node.provenance);
    // scale and bias as [C, 1, ...] (opset 18: each group's value repeated for its channels)
    std::vector<int64_t> perChannel(s.rank() - 1, 1);
    perChannel[0] = c;
    const auto channelwise = [&](ir::Value* v, const std::string& role) -> ir::Value* {
        ir::Value* from = v;
        if (opset < 21) {
            ir::Value* column = value("_" + role + "_column", ir::Shape{groups, 1});
            insertNode(g, OpKind::Reshape, g.uniqueName(node.name + "_" + role + "_column"),
                       {v, intsConstant(g, node, role + "_column_shape", {groups, 1})}, {column}, {}, node.provenance);
            from = value("_" + role + "_repeated", ir::Shape{groups, c / groups});
            insertNode(g, OpKind::Expand, g.uniqueName(node.name + "_" + role + "_repeat"),
                       {column, intsConstant(g, node, role + "_repeat_shape", {groups, c / groups})}, {from}, {},
                       node.provenance);
        }
        ir::Value* out = value("_" + role + "_per_channel", ir::Shape(perChannel));
        insertNode(g, OpKind::Reshape, g.uniqueName(node.name + "_" + role + "_per_channel"),
                   {from, intsConstant(g, node, role + "_channel_shape", perChannel)}, {out}, {}, node.provenance);
        return out;
    };
    ir::Value* scaled = value("_scaled", s);
    insertNode(g, OpKind::Mul, g.uniqueName(node.name + "_scale"), {back, channelwise(scale, "scale")}, {scaled}, {},
               node.provenance);
    insertNode(g, OpKind::Add, g.uniqueName(node.name + "_bias"), {scaled, channelwise(bias, "bias")}, {y}, {},
               node.provenance);
    return {};
}

// CenterCropPad (opset 18) as a Slice of the axes to crop and a Pad of the axes to pad, each
// centred (the odd element goes to the end).
Status addCenterCropPad(ir::Graph& g, PendingNode node, const std::function<bool(const ir::Value*)>& shapeKnown) {
    const std::string what = "node '" + node.name + "' (CenterCropPad)";
    ir::Value* x = node.inputs.empty() ? nullptr : node.inputs[0];
    ir::Value* shapeIn = node.inputs.size() > 1 ? node.inputs[1] : nullptr;
    ir::Value* y = node.outputs.empty() ? nullptr : node.outputs[0];
    if (!x || !shapeIn || !y) return makeError(ErrorKind::InvalidInput, what + " needs input_data and shape");
    if (!shapeKnown(x) || !shapeIn->isConstant())
        return makeError(ErrorKind::Unsupported,
                         what +
                             " needs an input of known shape and a constant target shape (Embark's shapes are static)");
    const ir::Shape& s = x->shape;
    const int64_t rank = static_cast<int64_t>(s.rank());
    const std::vector<int64_t> target = shapeIn->constant.toInt64Vector();
    std::vector<int64_t> axes;
    if (auto a = takeAttr(node.attrs, "axes")) axes = asInts(*a);
    if (axes.empty())
        for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
    if (axes.size() != target.size())
        return makeError(ErrorKind::InvalidInput, what + " has " + std::to_string(target.size()) +
                                                      " target sizes for " + std::to_string(axes.size()) + " axes");
    std::vector<int64_t> starts, ends, sliceAxes, pads(static_cast<size_t>(2 * rank), 0), mid = s.dims();
    bool padded = false;
    for (size_t i = 0; i < axes.size(); ++i) {
        const int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
        if (a < 0 || a >= rank)
            return makeError(ErrorKind::InvalidInput,
                             what + " has axis " + std::to_string(axes[i]) + " outside rank " + std::to_string(rank));
        const int64_t dim = s[static_cast<size_t>(a)], want = target[i];
        if (want < 0) return makeError(ErrorKind::InvalidInput, what + " has a negative target size");
        if (want < dim) {
            const int64_t begin = (dim - want) / 2;
            starts.push_back(begin);
            ends.push_back(begin + want);
            sliceAxes.push_back(a);
            mid[static_cast<size_t>(a)] = want;
        } else if (want > dim) {
            pads[static_cast<size_t>(a)] = (want - dim) / 2;
            pads[static_cast<size_t>(a + rank)] = want - dim - (want - dim) / 2;
            padded = true;
        }
    }
    ir::Value* cur = x;
    if (!sliceAxes.empty()) {
        ir::Value* cropped = padded ? g.addValue(g.uniqueName(node.name + "_cropped"), x->dtype, ir::Shape(mid)) : y;
        insertNode(g, OpKind::Slice, padded ? g.uniqueName(node.name + "_crop") : node.name,
                   {x, intsConstant(g, node, "starts", starts), intsConstant(g, node, "ends", ends),
                    intsConstant(g, node, "axes", sliceAxes)},
                   {cropped}, {}, node.provenance);
        cur = cropped;
    }
    if (padded || cur == x)
        insertNode(g, padded ? OpKind::Pad : OpKind::Identity, node.name,
                   padded ? std::vector<ir::Value*>{cur, intsConstant(g, node, "pads", pads)}
                          : std::vector<ir::Value*>{cur},
                   {y}, {}, node.provenance);
    return {};
}

// AffineGrid (opset 20) with a constant size: the base grid of normalised coordinates [x, y, 1]
// (or [x, y, z, 1]) is a constant, and the grid is MatMul(base, Transpose(theta)) reshaped.
Status addAffineGrid(ir::Graph& g, PendingNode node) {
    const std::string what = "node '" + node.name + "' (AffineGrid)";
    ir::Value* theta = node.inputs.empty() ? nullptr : node.inputs[0];
    ir::Value* size = node.inputs.size() > 1 ? node.inputs[1] : nullptr;
    ir::Value* y = node.outputs.empty() ? nullptr : node.outputs[0];
    if (!theta || !size || !y) return makeError(ErrorKind::InvalidInput, what + " needs theta and size");
    if (!size->isConstant())
        return makeError(ErrorKind::Unsupported, what + " computes its size at run time; Embark needs a constant size");
    const std::vector<int64_t> dims = size->constant.toInt64Vector();
    if (dims.size() != 4 && dims.size() != 5)
        return makeError(ErrorKind::InvalidInput, what + " needs a size of 4 or 5 values (N, C, [D,] H, W)");
    const auto alignAttr = takeAttr(node.attrs, "align_corners");
    const bool align = alignAttr && asInt(*alignAttr, 0) != 0;
    const size_t spatial = dims.size() - 2;                    // 2 or 3
    std::vector<int64_t> extent(dims.begin() + 2, dims.end()); // [D,] H, W
    int64_t points = 1;
    for (int64_t e : extent) points *= e;
    const auto coord = [align](int64_t i, int64_t len) {
        if (align) return len > 1 ? -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(len - 1) : 0.0;
        return (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(len) - 1.0;
    };
    std::vector<float> base;
    base.reserve(static_cast<size_t>(points) * (spatial + 1));
    for (int64_t p = 0; p < points; ++p) {
        // the innermost axis (W) is x, then y (H), then z (D)
        int64_t rest = p;
        std::vector<float> xyz(spatial);
        for (size_t a = 0; a < spatial; ++a) {
            const int64_t len = extent[spatial - 1 - a];
            xyz[a] = static_cast<float>(coord(rest % len, len));
            rest /= len;
        }
        base.insert(base.end(), xyz.begin(), xyz.end());
        base.push_back(1.f);
    }
    const int64_t k = static_cast<int64_t>(spatial) + 1, n = dims[0];
    ir::Value* baseV =
        constant(g, node, "base_grid", ir::Tensor::fromFloats(ir::Shape{points, k}, base).castTo(theta->dtype));
    ir::Value* thetaT =
        g.addValue(g.uniqueName(node.name + "_theta_t"), theta->dtype, ir::Shape{n, k, static_cast<int64_t>(spatial)});
    insertNode(g, OpKind::Transpose, g.uniqueName(node.name + "_transpose"), {theta}, {thetaT},
               {{"perm", ir::Attribute(std::vector<int64_t>{0, 2, 1})}}, node.provenance);
    ir::Value* flat = g.addValue(g.uniqueName(node.name + "_points"), theta->dtype,
                                 ir::Shape{n, points, static_cast<int64_t>(spatial)});
    insertNode(g, OpKind::MatMul, node.name, {baseV, thetaT}, {flat}, {}, node.provenance);
    std::vector<int64_t> outDims{n};
    outDims.insert(outDims.end(), extent.begin(), extent.end());
    outDims.push_back(static_cast<int64_t>(spatial));
    insertNode(g, OpKind::Reshape, g.uniqueName(node.name + "_grid"),
               {flat, intsConstant(g, node, "grid_shape", outDims)}, {y}, {}, node.provenance);
    return {};
}

// Resize-18's `axes`: scales, sizes and roi for the listed axes become full-rank ones.
void resizeAxesToFullRank(ir::Graph& g, PendingNode& node, const std::function<bool(const ir::Value*)>& shapeKnown) {
    auto it = node.attrs.find("axes");
    ir::Value* x = node.inputs.empty() ? nullptr : node.inputs[0];
    if (it == node.attrs.end() || !x || !shapeKnown(x)) return;
    const int64_t rank = static_cast<int64_t>(x->shape.rank());
    std::vector<int64_t> axes = asInts(it->second);
    for (int64_t& a : axes) a = a < 0 ? a + rank : a;
    for (int64_t a : axes)
        if (a < 0 || a >= rank) return; // the reference names the bad axis
    for (size_t i = 1; i < 4 && i < node.inputs.size(); ++i) {
        ir::Value* v = node.inputs[i];
        if (v && !v->isConstant()) return;
    }
    const auto expand = [&](size_t index, const std::string& what, auto fill) {
        ir::Value* v = node.inputs.size() > index ? node.inputs[index] : nullptr;
        if (!v || v->constant.numel() == 0) return;
        const std::vector<float> given = v->constant.toFloatVector();
        const size_t per = given.size() / axes.size();
        std::vector<float> full;
        for (size_t part = 0; part < per; ++part)
            for (int64_t d = 0; d < rank; ++d) {
                const auto pos = std::find(axes.begin(), axes.end(), d);
                full.push_back(pos == axes.end() ? fill(part, d)
                                                 : given[part * axes.size() + static_cast<size_t>(pos - axes.begin())]);
            }
        ir::Tensor t = ir::Tensor::fromFloats(ir::Shape{static_cast<int64_t>(full.size())}, full).castTo(v->dtype);
        node.inputs[index] = constant(g, node, what, std::move(t));
    };
    expand(1, "roi", [](size_t part, int64_t) { return part == 0 ? 0.f : 1.f; });
    expand(2, "scales", [](size_t, int64_t) { return 1.f; });
    expand(3, "sizes", [&](size_t, int64_t d) { return static_cast<float>(x->shape[static_cast<size_t>(d)]); });
    node.attrs.erase("axes");
}
} // namespace

Status addNormalizedNode(ir::Graph& g, PendingNode node, int opset,
                         const std::function<bool(const ir::Value*)>& shapeKnown) {
    switch (node.op) {
    case OpKind::Clip:
        if (opset < 11) {
            auto min = takeAttr(node.attrs, "min");
            auto max = takeAttr(node.attrs, "max");
            if (min) setInputAt(node, 1, scalarLike(g, node, "min", asFloat(*min, 0.f)));
            if (max) setInputAt(node, 2, scalarLike(g, node, "max", asFloat(*max, 0.f)));
        }
        break;
    case OpKind::Pad:
        if (node.onnxType == "CenterCropPad") return addCenterCropPad(g, std::move(node), shapeKnown);
        if (opset < 11) {
            intsAttrToInput(g, node, "pads", 1);
            if (auto value = takeAttr(node.attrs, "value"))
                setInputAt(node, 2, scalarLike(g, node, "value", asFloat(*value, 0.f)));
        }
        break;
    case OpKind::Squeeze:
    case OpKind::Unsqueeze:
    case OpKind::Split:
        if (opset < 13) intsAttrToInput(g, node, node.op == OpKind::Split ? "split" : "axes", 1);
        break;
    case OpKind::ReduceSum:
        if (opset < 13) intsAttrToInput(g, node, "axes", 1);
        break;
    case OpKind::ReduceMean:
    case OpKind::ReduceMax:
    case OpKind::ReduceMin:
    case OpKind::ReduceProd:
        intsAttrToInput(g, node, "axes", 1); // an input from opset 18
        break;
    case OpKind::Slice:
        if (opset < 10) {
            intsAttrToInput(g, node, "starts", 1);
            intsAttrToInput(g, node, "ends", 2);
            intsAttrToInput(g, node, "axes", 3);
        }
        break;
    case OpKind::Dropout:
        if (opset < 12) {
            takeAttr(node.attrs, "is_test");
            if (auto ratio = takeAttr(node.attrs, "ratio"))
                setInputAt(node, 1, constant(g, node, "ratio", ir::Tensor::scalarFloat(asFloat(*ratio, 0.5f))));
        }
        break;
    case OpKind::BatchNormalization: {
        takeAttr(node.attrs, "is_test");
        takeAttr(node.attrs, "consumed_inputs");
        auto spatial = takeAttr(node.attrs, "spatial");
        if (spatial && asInts(*spatial) == std::vector<int64_t>{0})
            return makeError(ErrorKind::Unsupported,
                             "node '" + node.name +
                                 "' uses BatchNormalization with spatial=0 (per-activation "
                                 "statistics, opset 7-8), which Embark does not support: re-export with spatial=1");
        break;
    }
    case OpKind::Resize:
        if (opset >= 18) {
            const std::string what = "node '" + node.name + "' (Resize-18)";
            if (auto a = node.attrs.find("antialias"); a != node.attrs.end() && asInt(a->second, 0) != 0)
                return makeError(ErrorKind::Unsupported,
                                 what + " uses antialias=1, which Embark does not support: export with antialias=0");
            if (asString(node.attrs, "keep_aspect_ratio_policy", "stretch") != "stretch")
                return makeError(ErrorKind::Unsupported,
                                 what + " uses keep_aspect_ratio_policy '" +
                                     asString(node.attrs, "keep_aspect_ratio_policy", "") +
                                     "', which Embark does not support: give the output sizes of every axis (stretch)");
            takeAttr(node.attrs, "antialias");
            takeAttr(node.attrs, "keep_aspect_ratio_policy");
            resizeAxesToFullRank(g, node, shapeKnown);
        }
        if (node.onnxType == "Upsample" || opset < 11) {
            // Upsample and Resize-10 take (X, scales) and index the input as out / scale.
            ir::Value* scales = node.inputs.size() > 1 ? node.inputs[1] : nullptr;
            if (auto s = takeAttr(node.attrs, "scales")) {
                const auto f = asFloats(*s);
                scales =
                    constant(g, node, "scales", ir::Tensor::fromFloats(ir::Shape{static_cast<int64_t>(f.size())}, f));
            }
            node.inputs.resize(1);
            setInputAt(node, 2, scales);
            std::string mode = asString(node.attrs, "mode", "nearest");
            if (mode == "bilinear" || mode == "trilinear") mode = "linear";
            node.attrs["mode"] = mode;
            node.attrs["coordinate_transformation_mode"] = std::string("asymmetric");
            if (mode == "nearest") node.attrs["nearest_mode"] = std::string("floor");
        }
        break;
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
        if (opset < 13) return addLegacySoftmax(g, std::move(node), shapeKnown);
        break;
    case OpKind::LSTM:
    case OpKind::GRU:
    case OpKind::RNN: {
        // Opsets 7-13 have no layout (sequence first); 14 added it. The attributes are checked
        // here so that a bad one is reported at import, naming the node.
        if (opset < 14) takeAttr(node.attrs, "layout");
        const ir::Value* r = node.inputs.size() > 2 ? node.inputs[2] : nullptr;
        const int64_t rHidden = r && shapeKnown(r) && r->shape.rank() == 3 ? r->shape[2] : -1;
        ir::Node* n =
            insertNode(g, node.op, node.name, node.inputs, node.outputs, std::move(node.attrs), node.provenance);
        if (auto spec = ir::recurrentSpec(*n, rHidden); !spec) return spec.error();
        return {};
    }
    // opset 6 (issue 31)
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Pow:
    case OpKind::And:
    case OpKind::Or:
    case OpKind::Xor:
    case OpKind::Equal:
    case OpKind::Greater:
    case OpKind::Less:
        if (opset < 7) EMBARK_TRY(legacyBroadcast(g, node, shapeKnown));
        break;
    case OpKind::Gemm:
        if (opset < 7) takeAttr(node.attrs, "broadcast"); // C broadcasts from opset 7 on
        break;
    case OpKind::PRelu: {
        // Opset 6: a 1-D slope of C values applies per channel (axis 1), not along the last axis.
        ir::Value* x = node.inputs.empty() ? nullptr : node.inputs[0];
        ir::Value* slope = node.inputs.size() > 1 ? node.inputs[1] : nullptr;
        if (opset < 7 && x && slope && shapeKnown(x) && slope->isConstant() && slope->shape.rank() == 1 &&
            x->shape.rank() > 2 && slope->shape[0] == x->shape[1] && slope->shape[0] != 1) {
            std::vector<int64_t> dims(x->shape.rank() - 1, 1);
            dims[0] = slope->shape[0];
            node.inputs[1] = constant(g, node, "slope", slope->constant.reshaped(ir::Shape(dims)));
        }
        break;
    }
    // indexing, scatter, selection and signal ops (issue 31)
    case OpKind::TopK:
        if (opset < 10) intsAttrToInput(g, node, "k", 1);
        break;
    case OpKind::RoiAlign:
        // Opset 10 has no coordinate_transformation_mode and does not shift by half a pixel.
        if (opset < 16 && !node.attrs.count("coordinate_transformation_mode"))
            node.attrs["coordinate_transformation_mode"] = std::string("output_half_pixel");
        break;
    case OpKind::ReduceL1:
    case OpKind::ReduceL2:
    case OpKind::ReduceLogSum:
    case OpKind::ReduceLogSumExp:
    case OpKind::ReduceSumSquare:
        intsAttrToInput(g, node, "axes", 1); // an input from opset 18
        break;
    // opsets 18-21 (issue 31)
    case OpKind::InstanceNormalization:
        if (node.onnxType == "GroupNormalization") return addGroupNormalization(g, std::move(node), opset, shapeKnown);
        break;
    case OpKind::Cast:
    case OpKind::CastLike:
        takeAttr(node.attrs, "saturate"); // opset 19: float8 only, which Embark refuses as a type
        break;
    case OpKind::QuantizeLinear:
    case OpKind::DequantizeLinear: {
        takeAttr(node.attrs, "saturate");
        takeAttr(node.attrs, "block_size"); // non-zero ones are refused by checkQuantization
        // Opset 21: without a zero point, output_dtype gives the quantized type (uint8 by default).
        auto outType = takeAttr(node.attrs, "output_dtype");
        const bool noZeroPoint = node.inputs.size() < 3 || !node.inputs[2];
        if (outType && asInt(*outType, 0) != 0 && noZeroPoint && node.op == OpKind::QuantizeLinear) {
            const auto dtype = dtypeFromOnnx(static_cast<int>(asInt(*outType, 0)));
            if (!dtype)
                return makeError(ErrorKind::Unsupported, "node '" + node.name + "' (QuantizeLinear) quantizes to " +
                                                             onnxDTypeName(static_cast<int>(asInt(*outType, 0))) +
                                                             ", which Embark does not support: use int8 or uint8");
            setInputAt(node, 2, constant(g, node, "zero_point", ir::Tensor::scalarInt64(0).castTo(*dtype)));
        }
        break;
    }
    case OpKind::DFT:
        if (opset >= 20) {
            // Opset 20: axis is an input (default -2, counting the trailing real/imaginary axis);
            // the IR keeps opset 17's attribute, whose negative values leave that axis out.
            ir::Value* axisIn = node.inputs.size() > 2 ? node.inputs[2] : nullptr;
            int64_t axis = -2;
            if (axisIn) {
                if (!axisIn->isConstant() || axisIn->constant.numel() != 1)
                    return makeError(ErrorKind::Unsupported,
                                     "node '" + node.name +
                                         "' (DFT-20) computes its axis at run time; Embark needs a "
                                         "constant axis");
                axis = axisIn->constant.toInt64Vector().front();
            }
            node.inputs.resize(std::min<size_t>(node.inputs.size(), 2));
            node.attrs["axis"] = int64_t{axis < 0 ? axis + 1 : axis};
        }
        break;
    case OpKind::GridSample:
        if (node.onnxType == "AffineGrid") return addAffineGrid(g, std::move(node));
        if (opset >= 20) {
            const std::string mode = asString(node.attrs, "mode", "linear");
            node.attrs["mode"] = mode == "linear"  ? std::string("bilinear")
                                 : mode == "cubic" ? std::string("bicubic")
                                                   : mode;
        }
        break;
    default: break;
    }
    insertNode(g, node.op, node.name, node.inputs, node.outputs, std::move(node.attrs), node.provenance);
    return {};
}

} // namespace embark::onnx

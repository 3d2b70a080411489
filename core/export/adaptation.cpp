#include "adaptation.h"

#include "reference/interpreter.h"
#include "kernel_libraries.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

namespace embark::exporter {

using targets::KernelLibrary;
using targets::Layout;

std::string_view assignmentRuleName(AssignmentRule r) {
    switch (r) {
    case AssignmentRule::NodeOverride: return "node override";
    case AssignmentRule::OpOverride: return "op override";
    case AssignmentRule::Measured: return "measured (auto)";
    case AssignmentRule::ChosenLibrary: return "chosen library";
    case AssignmentRule::PortableFallback: return "portable fallback";
    case AssignmentRule::Conversion: return "layout conversion";
    }
    return "?";
}

namespace {

constexpr int64_t kToNhwc[4] = {0, 2, 3, 1};
constexpr int64_t kToNchw[4] = {0, 3, 1, 2};

const int64_t* permFor(Layout target) { return target == Layout::NHWC ? kToNhwc : kToNchw; }

ir::Shape permuteShape(const ir::Shape& s, const int64_t* perm) {
    return ir::Shape{s[perm[0]], s[perm[1]], s[perm[2]], s[perm[3]]};
}

// out[i0,i1,i2,i3] = in[index with out dim k = in dim perm[k]], any dtype.
ir::Tensor permuteTensor(const ir::Tensor& in, const int64_t* perm) {
    const auto& d = in.shape().dims();
    const ir::Shape outShape = permuteShape(in.shape(), perm);
    ir::Tensor out(in.dtype(), outShape);
    const size_t es = ir::dtypeSize(in.dtype());
    const int64_t inStride[4] = {d[1] * d[2] * d[3], d[2] * d[3], d[3], 1};
    const auto* src = static_cast<const unsigned char*>(in.data());
    auto* dst = static_cast<unsigned char*>(out.mutableData());
    // Strides of the input seen in output order; weights of a large model are permuted here,
    // so the inner loop stays a strided copy.
    const int64_t s0 = inStride[perm[0]], s1 = inStride[perm[1]], s2 = inStride[perm[2]], s3 = inStride[perm[3]];
    int64_t o = 0;
    for (int64_t a = 0; a < outShape[0]; ++a)
        for (int64_t b = 0; b < outShape[1]; ++b)
            for (int64_t c = 0; c < outShape[2]; ++c) {
                const int64_t base = a * s0 + b * s1 + c * s2;
                if (es == 4) {
                    auto* d4 = reinterpret_cast<uint32_t*>(dst) + o;
                    const auto* s4 = reinterpret_cast<const uint32_t*>(src) + base;
                    for (int64_t e = 0; e < outShape[3]; ++e) d4[e] = s4[e * s3];
                    o += outShape[3];
                } else {
                    for (int64_t e = 0; e < outShape[3]; ++e, ++o)
                        std::memcpy(dst + o * es, src + (base + e * s3) * es, es);
                }
            }
    return out;
}

bool isElementwise(ir::OpKind op) {
    const auto c = ir::opCategory(op);
    return c == ir::OpCategory::Activation || c == ir::OpCategory::Elementwise;
}

// A layout change of a tensor with at most one non-unit dimension besides the batch moves
// no bytes.
bool conversionIsFree(const ir::Shape& s) {
    int nonUnit = 0;
    for (size_t i = 1; i < 4; ++i) nonUnit += s[i] != 1;
    return nonUnit <= 1;
}

class Adapter {
public:
    Adapter(Adaptation& a, const KernelLibrary& chosen, const AdaptationOptions& o)
        : m_a(a), m_g(a.graph), m_chosen(chosen), m_options(o) {}

    Status assign() {
        for (ir::Node* n : m_g.nodes()) {
            if (!n->subgraphs.empty()) {
                // If, Loop, Scan: generated as code (control_flow.cpp), their bodies on the
                // portable and generic kernels, whatever library was chosen.
                NodeAssignment cf;
                cf.library = portableLibrary().id;
                cf.rule = AssignmentRule::ChosenLibrary;
                cf.reason = "control flow: " + std::string(ir::opName(n->op)) +
                            " and its bodies generated as code on the portable kernels";
                m_a.nodes[n->name] = cf;
                continue;
            }
            NodeAssignment as;
            const std::string opName(ir::opName(n->op));
            const KernelLibrary* wanted = &m_chosen;
            as.rule = AssignmentRule::ChosenLibrary;
            if (auto it = m_options.nodeOverrides.find(n->name); it != m_options.nodeOverrides.end()) {
                wanted = exporter::findKernelLibrary(it->second);
                as.rule = AssignmentRule::NodeOverride;
            } else if (auto jt = m_options.opOverrides.find(opName); jt != m_options.opOverrides.end()) {
                wanted = exporter::findKernelLibrary(jt->second);
                as.rule = AssignmentRule::OpOverride;
            } else if (auto mt = m_options.measured.find(n->name); mt != m_options.measured.end()) {
                wanted = exporter::findKernelLibrary(mt->second);
                as.rule = AssignmentRule::Measured;
            }
            const std::string why = wanted->whyUnsupported(*n);
            if (why.empty()) {
                as.library = wanted->id;
                as.reason = std::string(assignmentRuleName(as.rule)) + ": " + wanted->id + " runs " + opName;
            } else {
                if (!reference::supports(n->op) || !exporter::portableLibrary().supports(*n))
                    return makeError(ErrorKind::Unsupported,
                                     "no kernel library supports " + n->describe() + " (" + why + ")");
                as.library = portableLibrary().id;
                as.reason = "portable fallback after " + std::string(assignmentRuleName(as.rule)) + ": " + why;
                as.rule = AssignmentRule::PortableFallback;
            }
            m_a.nodes[n->name] = as;
        }
        return {};
    }

    void layouts() {
        for (ir::Value* v : m_g.inputs()) m_a.valueLayouts[v->name] = Layout::NCHW;
        for (ir::Node* n : m_g.nodes()) {
            if (m_done.count(n) || layoutTranspose(n) || channelShuffle(n)) continue;
            NodeAssignment& as = m_a.nodes[n->name];
            const KernelLibrary* lib = exporter::findKernelLibrary(as.library);
            as.format = decide(*n, lib->layoutFor(*n));
            if (as.format == Layout::NHWC && aloneBetweenConversions(*n, *lib)) {
                as.format = Layout::NCHW;
                m_a.log.push_back(n->describe() + (n->op == ir::OpKind::Conv
                                                       ? ": writes the model's layout (one input channel; its "
                                                         "output would need a conversion)"
                                                       : ": runs in the model's layout (its input and output would "
                                                         "each need a conversion)"));
            }
            for (size_t i = 0; i < n->inputs().size(); ++i) adaptInput(n, i, as);
            if (as.format == Layout::NHWC) renumberAxes(n);
            for (ir::Value* out : n->outputs()) {
                if (!out) continue;
                const bool nhwc = as.format == Layout::NHWC && out->shape.rank() == 4;
                if (nhwc) out->shape = permuteShape(out->shape, kToNhwc);
                m_a.valueLayouts[out->name] = nhwc ? Layout::NHWC : Layout::NCHW;
            }
        }
        restoreGraphOutputs();
    }

    void summarise() {
        std::string previous;
        for (const ir::Node* n : m_g.nodes()) {
            const std::string& lib = m_a.nodes[n->name].library;
            if (lib != previous) ++m_a.partitions;
            previous = lib;
            if (std::find(m_a.librariesUsed.begin(), m_a.librariesUsed.end(), lib) == m_a.librariesUsed.end())
                m_a.librariesUsed.push_back(lib);
        }
    }

private:
    // NHWC only for 4-D activations; Any follows the first non-constant input.
    Layout decide(const ir::Node& n, Layout wanted) {
        if (wanted == Layout::Any && isReduction(n.op)) return decideReduction(n);
        // MaxPool's Indices count positions in the model's layout: the pool runs there.
        if (n.op == ir::OpKind::MaxPool && n.outputs().size() > 1 && n.output(1) &&
            (!n.output(1)->uses().empty() || n.output(1)->isGraphOutput()))
            return Layout::NCHW;
        const ir::Value* first = nullptr;
        for (const ir::Value* v : n.inputs())
            if (v && !v->isConstant()) {
                if (!first) first = v;
                if (v->shape.rank() != 4) return Layout::NCHW;
            }
        if (!first) return Layout::NCHW;
        for (const ir::Value* v : n.outputs())
            if (v && v->shape.rank() != 4) return Layout::NCHW;
        for (const ir::Value* v : n.inputs())
            if (v && v->isConstant() && v->shape.rank() > 4) return Layout::NCHW;
        if (wanted == Layout::Any) return m_a.valueLayouts[first->name];
        return wanted;
    }

    // A portable pool or InstanceNormalization reading only values in the model's layout and
    // writing only graph outputs would sit between two full-tensor conversions (there and back)
    // that cost more than the op itself (a one-op model): it runs in the model's layout instead.
    // Inside a model its output feeds other nodes, so this never applies there. The model-layout
    // pool works row by row: on rows narrower than kMinPlaneWidth its per-row cost exceeds the
    // conversions', and the pool stays channels-last. On riscv64 the model-layout pool is the
    // generic kernel's scalar loops, against the channels-last pool's RVV kernel: there it costs
    // more than the two conversions and the vector pool together (bench/README.md), and pools
    // stay channels-last.
    // A 2-D convolution of one input channel (its input is the same in either layout) writing
    // only graph outputs would need only the conversion of its output: it writes the output
    // planes directly instead (portable::conv2d_planar, see planarConv). Not on riscv64, where
    // the channels-last SingleChannel kernel stays (the planar one is not measured there).
    static constexpr int64_t kMinPlaneWidth = 32;
    bool aloneBetweenConversions(const ir::Node& n, const KernelLibrary& lib) {
        if (lib.id != portableLibrary().id || m_g.metadata.count(kStandsForInnerNodes)) return false;
        if (n.op != ir::OpKind::MaxPool && n.op != ir::OpKind::AveragePool &&
            n.op != ir::OpKind::InstanceNormalization && n.op != ir::OpKind::Conv)
            return false;
        if (n.op == ir::OpKind::Conv) {
            if (m_options.arch == "riscv64" || !planarConv(n)) return false;
        } else if (n.op != ir::OpKind::InstanceNormalization) {
            if (m_options.arch == "riscv64") return false;
            const std::string autoPad = n.attrString("auto_pad", "NOTSET");
            if ((autoPad != "NOTSET" && autoPad != "VALID") || n.attrInts("kernel_shape").size() != 2) return false;
            if (!n.input(0) || n.input(0)->shape.rank() != 4 || n.input(0)->shape[3] < kMinPlaneWidth) return false;
        }
        for (const ir::Value* v : n.inputs())
            if (v && !v->isConstant() && (v->dtype != ir::DType::Float32 || m_a.valueLayouts[v->name] != Layout::NCHW))
                return false;
        bool writesOutput = false;
        for (const ir::Value* v : n.outputs()) {
            if (!v) continue;
            if (!v->uses().empty()) return false;
            writesOutput = writesOutput || v->isGraphOutput();
        }
        return writesOutput;
    }

    // What the portable emitter runs as conv2d_planar: one input channel, groups 1, stride 1
    // along the width, explicit pads, constant weights (4-D) and bias.
    static bool planarConv(const ir::Node& n) {
        const ir::Value* x = n.input(0);
        const ir::Value* w = n.input(1);
        const ir::Value* b = n.input(2);
        if (!x || x->shape.rank() != 4 || x->shape[1] != 1 || !w || !w->isConstant() || w->shape.rank() != 4 ||
            (b && !b->isConstant()) || n.attrInt("group", 1) != 1)
            return false;
        const std::string autoPad = n.attrString("auto_pad", "NOTSET");
        if (autoPad != "NOTSET" && autoPad != "VALID") return false;
        const auto strides = n.attrInts("strides", {1, 1});
        return strides.size() == 2 && strides[1] == 1;
    }

    static bool isReduction(ir::OpKind op) {
        return op == ir::OpKind::ReduceMean || op == ir::OpKind::ReduceSum || op == ir::OpKind::ReduceMax ||
               op == ir::OpKind::ReduceMin || op == ir::OpKind::ReduceProd;
    }

    // A 4-D axis of the model's order at its position in NHWC storage.
    static int64_t storedAxis(int64_t axis) {
        axis = ir::Shape({1, 1, 1, 1}).normAxis(axis);
        for (int64_t k = 0; k < 4; ++k)
            if (kToNhwc[k] == axis) return k;
        return axis;
    }

    // A reduction's constant axes (attribute, or input 1 from opset 18), nullopt when computed
    // at run time; empty: all axes.
    static std::optional<std::vector<int64_t>> reductionAxes(const ir::Node& n) {
        if (const ir::Value* a = n.input(1)) {
            if (!a->isConstant()) return std::nullopt;
            return a->constant.toInt64Vector();
        }
        return n.attrInts("axes");
    }

    // A reduction follows an NHWC input when its result holds the same values in the same order
    // as the model's: it keeps its dims (the 4-D output is then stored NHWC like any other), or
    // the axes it keeps appear in storage in the model's order (a mean over H and W keeps N and
    // C, stored 0 and 3: the [N, C] result is the same bytes).
    Layout decideReduction(const ir::Node& n) {
        const ir::Value* x = n.input(0);
        if (!x || x->isConstant() || x->shape.rank() != 4 || m_a.valueLayouts[x->name] != Layout::NHWC)
            return Layout::NCHW;
        const std::optional<std::vector<int64_t>> axes = reductionAxes(n);
        if (!axes) return Layout::NCHW;
        if (axes->empty() || n.attrInt("keepdims", 1)) return Layout::NHWC;
        bool reduced[4] = {};
        for (int64_t a : *axes) {
            if (a < -4 || a > 3) return Layout::NCHW;
            reduced[x->shape.normAxis(a)] = true;
        }
        int64_t last = -1;
        for (int64_t a = 0; a < 4; ++a) {
            if (reduced[a]) continue;
            const int64_t at = storedAxis(a);
            if (at < last) return Layout::NCHW;
            last = at;
        }
        return Layout::NHWC;
    }

    // The axis of a node running NHWC on 4-D tensors, in its stored order: Concat's and Split's
    // attribute, Slice's constant axes (its default 0..n-1 made explicit), a reduction's axes.
    void renumberAxes(ir::Node* n) {
        auto stored = [](int64_t axis) { return storedAxis(axis); };
        if (isReduction(n->op)) {
            std::vector<int64_t> axes = reductionAxes(*n).value_or(std::vector<int64_t>{});
            if (axes.empty()) return; // all axes, or none with noop_with_empty_axes
            for (int64_t& a : axes) a = stored(a);
            if (n->input(1))
                m_g.setInput(
                    n, 1,
                    m_g.addConstant(m_g.uniqueName(n->name + "_axes_nhwc"),
                                    ir::Tensor::fromInt64s(ir::Shape{static_cast<int64_t>(axes.size())}, axes)));
            else
                n->attrs["axes"] = axes;
            return;
        }
        if (n->op == ir::OpKind::Concat) n->attrs["axis"] = stored(n->attrInt("axis", 1));
        if (n->op == ir::OpKind::Split) n->attrs["axis"] = stored(n->attrInt("axis", 0));
        if (n->op != ir::OpKind::Slice || !n->input(1) || !n->input(1)->isConstant()) return;
        std::vector<int64_t> axes;
        if (n->input(3) && n->input(3)->isConstant())
            axes = n->input(3)->constant.toInt64Vector();
        else
            for (int64_t i = 0; i < n->input(1)->constant.numel(); ++i) axes.push_back(i);
        for (int64_t& a : axes) a = stored(a);
        ir::Value* c = m_g.addConstant(m_g.uniqueName(n->name + "_axes_nhwc"),
                                       ir::Tensor::fromInt64s(ir::Shape{static_cast<int64_t>(axes.size())}, axes));
        while (n->inputs().size() < 4) m_g.appendInput(n, nullptr);
        m_g.setInput(n, 3, c);
    }

    // A model's own 4-D Transpose that is exactly a layout change of what its input holds
    // moves no bytes: perm (0,2,3,1) of a tensor stored NHWC (ConvNeXt and Swin going
    // channels-last after a convolution; its output, stored as the model's layout, holds the
    // same bytes), or perm (0,3,1,2) of a tensor stored in the model's layout (a TensorFlow
    // model's NHWC input going channels-first; its output, stored NHWC, holds the same bytes).
    // The node becomes a reshape to its input's shape, which the memory planner aliases, and
    // neither the Transpose nor a layout conversion in front of it runs.
    bool layoutTranspose(ir::Node* n) {
        if (n->op != ir::OpKind::Transpose || n->inputs().size() != 1 || n->outputs().size() != 1) return false;
        ir::Value* in = n->input(0);
        ir::Value* out = n->output(0);
        if (!in || !out || in->isConstant() || in->shape.rank() != 4 || out->shape.rank() != 4) return false;
        const std::vector<int64_t> perm = n->attrInts("perm");
        const Layout have = m_a.valueLayouts[in->name];
        Layout stored;
        if (have == Layout::NHWC && perm == std::vector<int64_t>(kToNhwc, kToNhwc + 4))
            stored = Layout::NCHW;
        else if (have == Layout::NCHW && perm == std::vector<int64_t>(kToNchw, kToNchw + 4))
            stored = Layout::NHWC;
        else
            return false;
        const ir::Shape storedShape = stored == Layout::NHWC ? permuteShape(out->shape, kToNhwc) : out->shape;
        if (storedShape != in->shape) return false; // not a valid Transpose: left to fail as it is
        out->shape = storedShape;
        n->op = ir::OpKind::Reshape;
        n->attrs.clear();
        m_g.appendInput(n, m_g.addConstant(m_g.uniqueName(n->name + "_shape"),
                                           ir::Tensor::fromInt64s(ir::Shape{4}, out->shape.dims())));
        NodeAssignment& as = m_a.nodes[n->name];
        const KernelLibrary* lib = exporter::findKernelLibrary(as.library);
        if (!lib || !lib->supports(*n)) as.library = portableLibrary().id;
        as.rule = AssignmentRule::Conversion;
        as.reason = "free layout change (reshape): the model's Transpose " + n->name + " (perm " +
                    (stored == Layout::NCHW ? "0,2,3,1" : "0,3,1,2") + ") of '" + in->name + "', stored " +
                    std::string(targets::layoutName(have)) + ", is the same bytes stored " +
                    std::string(targets::layoutName(stored));
        as.format = Layout::NCHW;
        m_a.valueLayouts[out->name] = stored;
        m_a.log.push_back(as.reason);
        ++m_a.freeConversions;
        return true;
    }

    // ShuffleNet's channel shuffle, Reshape [N,C,H,W] -> [N,g,C/g,H,W], Transpose (0,2,1,3,4),
    // Reshape back to [N,C,H,W], on a tensor stored NHWC: the same shuffle of the channels of
    // each pixel is Reshape [N,H,W,g,C/g], Transpose (0,1,2,4,3), Reshape [N,H,W,C], so it runs
    // on the stored bytes (one transpose of g x C/g matrices) instead of between two layout
    // conversions. `n` is the first Reshape; the other two are marked done.
    bool channelShuffle(ir::Node* n) {
        if (n->op != ir::OpKind::Reshape) return false;
        ir::Value* in = n->input(0);
        ir::Value* split = n->output(0);
        if (!in || in->isConstant() || in->shape.rank() != 4 || !split || split->shape.rank() != 5) return false;
        if (m_a.valueLayouts[in->name] != Layout::NHWC) return false;
        ir::Node* t = split->uses().size() == 1 && !split->isGraphOutput() ? split->uses().front().node : nullptr;
        if (!t || t->op != ir::OpKind::Transpose || t->attrInts("perm") != std::vector<int64_t>{0, 2, 1, 3, 4})
            return false;
        ir::Value* shuffled = t->output(0);
        ir::Node* merge = shuffled && shuffled->uses().size() == 1 && !shuffled->isGraphOutput()
                              ? shuffled->uses().front().node
                              : nullptr;
        if (!merge || merge->op != ir::OpKind::Reshape || merge->input(0) != shuffled || !merge->output(0))
            return false;
        ir::Value* out = merge->output(0);
        const ir::Shape& s = in->shape;     // stored: N, H, W, C
        const ir::Shape& g5 = split->shape; // N, g, C/g, H, W
        if (g5[0] != s[0] || g5[1] * g5[2] != s[3] || g5[3] != s[1] || g5[4] != s[2]) return false;
        if (out->shape != ir::Shape{s[0], s[3], s[1], s[2]}) return false;
        const std::string& lib1 = m_a.nodes[n->name].library;
        for (ir::Node* k : {n, t, merge})
            if (m_a.nodes[k->name].library != lib1) return false;
        auto reshapeTo = [&](ir::Node* r, const ir::Shape& shape) {
            r->output(0)->shape = shape;
            m_g.setInput(
                r, 1,
                m_g.addConstant(m_g.uniqueName(r->name + "_shape_nhwc"),
                                ir::Tensor::fromInt64s(ir::Shape{static_cast<int64_t>(shape.rank())}, shape.dims())));
        };
        reshapeTo(n, ir::Shape{s[0], s[1], s[2], g5[1], g5[2]});
        t->attrs["perm"] = std::vector<int64_t>{0, 1, 2, 4, 3};
        shuffled->shape = ir::Shape{s[0], s[1], s[2], g5[2], g5[1]};
        reshapeTo(merge, s);
        for (ir::Node* k : {n, t, merge}) {
            NodeAssignment& as = m_a.nodes[k->name];
            as.format = Layout::NCHW;
            as.reason += " (channel shuffle on NHWC data)";
            m_done.insert(k);
        }
        m_a.valueLayouts[split->name] = Layout::NCHW;
        m_a.valueLayouts[shuffled->name] = Layout::NCHW;
        m_a.valueLayouts[out->name] = Layout::NHWC;
        m_a.log.push_back("channel shuffle " + n->name + " -> " + merge->name + " runs on NHWC data");
        return true;
    }

    void adaptInput(ir::Node* n, size_t i, const NodeAssignment& as) {
        ir::Value* v = n->input(i);
        if (!v) return;
        if (v->isConstant()) {
            if (as.format != Layout::NHWC || v->shape.rank() == 0) return;
            if (v->shape.rank() == 4 || (isElementwise(n->op) && v->shape.rank() < 4))
                m_g.setInput(n, i, permutedConstant(v));
            return;
        }
        if (v->shape.rank() != 4) return;
        const Layout have = m_a.valueLayouts[v->name];
        if (have != as.format) m_g.setInput(n, i, convert(v, as.format, n, as.library));
    }

    ir::Value* permutedConstant(ir::Value* v) {
        if (auto it = m_permuted.find(v); it != m_permuted.end()) return it->second;
        std::vector<int64_t> dims = v->shape.dims();
        while (dims.size() < 4) dims.insert(dims.begin(), 1);
        ir::Tensor t = permuteTensor(v->constant.reshaped(ir::Shape(dims)), kToNhwc);
        ir::Value* c = m_g.addConstant(m_g.uniqueName(v->name + "_nhwc"), std::move(t));
        m_a.valueLayouts[c->name] = Layout::NHWC;
        m_permuted[v] = c;
        return c;
    }

    ir::Value* convert(ir::Value* v, Layout target, ir::Node* before, const std::string& consumerLib) {
        const auto key = std::make_pair(v, target);
        if (auto it = m_conversions.find(key); it != m_conversions.end()) return it->second;
        const std::string suffix = target == Layout::NHWC ? "_to_nhwc" : "_to_nchw";
        const std::string name = m_g.uniqueName(v->name + suffix);
        ir::Value* out = m_g.addValue(name, v->dtype, permuteShape(v->shape, permFor(target)));
        const bool free = conversionIsFree(v->shape);
        ir::Node* node;
        if (free) {
            ir::Value* shape = m_g.addConstant(m_g.uniqueName(name + "_shape"),
                                               ir::Tensor::fromInt64s(ir::Shape{4}, out->shape.dims()));
            node = m_g.insertNode(before, ir::OpKind::Reshape, name, {v, shape}, {out});
            ++m_a.freeConversions;
        } else {
            node = m_g.insertNode(before, ir::OpKind::Transpose, name, {v}, {out});
            node->attrs["perm"] = std::vector<int64_t>(permFor(target), permFor(target) + 4);
            ++m_a.conversions;
            m_a.conversionNodes.push_back(name);
        }
        node->provenance.clear(); // stands for no ONNX node
        const KernelLibrary* lib = exporter::findKernelLibrary(consumerLib);
        NodeAssignment as;
        as.library = lib && lib->supports(*node) ? consumerLib : portableLibrary().id;
        as.rule = AssignmentRule::Conversion;
        as.reason = std::string(free ? "free layout change (reshape) " : "layout conversion ") +
                    std::string(targets::layoutName(m_a.valueLayouts[v->name])) + " -> " +
                    std::string(targets::layoutName(target)) + " of '" + v->name + "' for " + before->describe();
        as.format = Layout::NCHW;
        m_a.nodes[name] = as;
        m_a.valueLayouts[name] = target;
        m_a.log.push_back(as.reason);
        m_conversions[key] = out;
        return out;
    }

    // Graph outputs keep the model's layout: an NHWC result is written to a new value and
    // converted back into the output's own name.
    void restoreGraphOutputs() {
        for (ir::Value* v : std::vector<ir::Value*>(m_g.outputs())) {
            if (m_a.valueLayouts[v->name] != Layout::NHWC || !v->producer()) continue;
            ir::Node* p = v->producer();
            const auto& outs = p->outputs();
            const size_t idx = static_cast<size_t>(std::find(outs.begin(), outs.end(), v) - outs.begin());
            ir::Value* inner = m_g.addValue(m_g.uniqueName(v->name + "_nhwc"), v->dtype, v->shape);
            m_a.valueLayouts[inner->name] = Layout::NHWC;
            const std::vector<ir::Use> uses = v->uses();
            for (const ir::Use& u : uses) m_g.setInput(u.node, static_cast<size_t>(u.index), inner);
            m_g.setOutput(p, idx, inner);
            v->shape = permuteShape(v->shape, kToNchw);
            const auto nodes = m_g.nodes();
            auto it = std::find(nodes.begin(), nodes.end(), p);
            ir::Node* next = (it + 1) == nodes.end() ? nullptr : *(it + 1);
            const std::string lib = m_a.nodes[p->name].library;
            // convert() creates a fresh value; reuse its node but write into `v`.
            ir::Value* converted = convert(inner, Layout::NCHW, next ? next : p, lib);
            ir::Node* conv = converted->producer();
            m_g.setOutput(conv, 0, nullptr);
            m_g.setOutput(conv, 0, v);
            m_a.valueLayouts.erase(converted->name);
            m_a.valueLayouts[v->name] = Layout::NCHW;
        }
    }

    Adaptation& m_a;
    ir::Graph& m_g;
    const KernelLibrary& m_chosen;
    const AdaptationOptions& m_options;
    std::map<ir::Value*, ir::Value*> m_permuted;
    std::set<const ir::Node*> m_done; // laid out ahead of their turn (channelShuffle)
    std::map<std::pair<ir::Value*, Layout>, ir::Value*> m_conversions;
};

Status checkOptions(const ir::Graph& g, const AdaptationOptions& o) {
    auto checkLib = [&](const std::string& id, const std::string& what) -> Status {
        auto lib = exporter::resolveKernelLibrary(id, o.arch, o.havePrebuiltXnnpack);
        if (!lib) return makeError(lib.error().kind, what + ": " + lib.error().message);
        return {};
    };
    for (const auto& [op, lib] : o.opOverrides) {
        if (!ir::opFromName(op))
            return makeError(ErrorKind::Usage, "--override " + op + "=" + lib + ": unknown op '" + op +
                                                   "' (use an ONNX op type such as Conv or Softmax)");
        EMBARK_TRY(checkLib(lib, "--override " + op + "=" + lib));
    }
    for (const auto& [node, lib] : o.nodeOverrides) {
        if (!g.findNode(node))
            return makeError(ErrorKind::Usage, "--override-node " + node + "=" + lib +
                                                   ": the fused graph has no node '" + node +
                                                   "' (see the node names in 'embark-cli plan MODEL')");
        EMBARK_TRY(checkLib(lib, "--override-node " + node + "=" + lib));
    }
    for (const auto& [node, lib] : o.measured) {
        if (!g.findNode(node))
            return makeError(ErrorKind::Usage, "--lib auto: the measurements name node '" + node +
                                                   "', which the fused graph does not have (measure this model again)");
        EMBARK_TRY(checkLib(lib, "--lib auto (node " + node + ")"));
    }
    return {};
}

} // namespace

const targets::KernelLibrary& assignedLibrary(const Adaptation& a, const ir::Node& n) {
    auto it = a.nodes.find(n.name);
    const targets::KernelLibrary* lib = it == a.nodes.end() ? nullptr : findKernelLibrary(it->second.library);
    return lib ? *lib : portableLibrary();
}

Expected<Adaptation> adapt(const ir::Graph& fused, const AdaptationOptions& options) {
    auto chosen = exporter::resolveKernelLibrary(options.library, options.arch, options.havePrebuiltXnnpack);
    if (!chosen) return chosen.error();
    EMBARK_TRY(checkOptions(fused, options));
    Adaptation a;
    a.graph = fused.clone();
    Adapter adapter(a, **chosen, options);
    EMBARK_TRY(adapter.assign());
    adapter.layouts();
    EMBARK_TRY(a.graph.topoSort());
    a.graph.removeDeadValues();
    adapter.summarise();
    return a;
}

} // namespace embark::exporter

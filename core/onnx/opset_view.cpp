#include "opset_view.h"

#include "model_checks.h"
#include "proto_tensor.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace embark::onnx {
namespace {
namespace pb = ::onnx;

constexpr const char* kAsideDomain = "embark.newer_opset"; // nodes libonnx 1.12 cannot check

// Constant tensors visible in a graph: its initializers and Constant nodes, then the enclosing
// graph's.
struct Constants {
    const Constants* parent = nullptr;
    std::unordered_map<std::string, const pb::TensorProto*> tensors;

    std::optional<std::vector<int64_t>> ints(const std::string& name) const {
        for (const Constants* c = this; c; c = c->parent)
            if (auto it = c->tensors.find(name); it != c->tensors.end()) {
                auto t = tensorFromProto(*it->second, name);
                if (!t) return std::nullopt;
                return t->toInt64Vector();
            }
        return std::nullopt;
    }
};

const pb::AttributeProto* findAttr(const pb::NodeProto& n, const std::string& name) {
    for (const auto& a : n.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}

void removeAttr(pb::NodeProto& n, const std::string& name) {
    auto* attrs = n.mutable_attribute();
    for (int i = 0; i < attrs->size(); ++i)
        if (attrs->Get(i).name() == name) {
            attrs->DeleteSubrange(i, 1);
            return;
        }
}

int64_t intAttr(const pb::NodeProto& n, const std::string& name, int64_t fallback) {
    const pb::AttributeProto* a = findAttr(n, name);
    return a ? a->i() : fallback;
}

bool hasInput(const pb::NodeProto& n, int index) { return n.input_size() > index && !n.input(index).empty(); }

void truncateInputs(pb::NodeProto& n, int count) {
    while (n.input_size() > count) n.mutable_input()->RemoveLast();
}

void setAside(pb::NodeProto& n) { n.set_domain(kAsideDomain); }

void rewriteGraph(pb::GraphProto& g, const Constants* parent);

void rewriteNode(pb::NodeProto& n, const Constants& constants) {
    for (auto& a : *n.mutable_attribute())
        if (a.type() == pb::AttributeProto::GRAPH) rewriteGraph(*a.mutable_g(), &constants);
    if (!isDefaultDomain(n.domain())) return;
    const std::string op = n.op_type();
    // Opset 18 moved `axes` of every reduction but ReduceSum (13) from an attribute to an input.
    static const std::unordered_set<std::string> kReductions18{"ReduceL1",        "ReduceL2",   "ReduceLogSum",
                                                               "ReduceLogSumExp", "ReduceMax",  "ReduceMean",
                                                               "ReduceMin",       "ReduceProd", "ReduceSumSquare"};
    if (kReductions18.count(op)) {
        std::optional<std::vector<int64_t>> axes;
        if (hasInput(n, 1)) {
            axes = constants.ints(n.input(1));
            if (!axes) return setAside(n);
        }
        const bool noop = intAttr(n, "noop_with_empty_axes", 0) != 0;
        removeAttr(n, "noop_with_empty_axes");
        truncateInputs(n, 1);
        if (noop && (!axes || axes->empty())) {
            n.set_op_type("Identity");
            n.clear_attribute();
            return;
        }
        if (axes && !axes->empty()) {
            pb::AttributeProto* a = n.add_attribute();
            a->set_name("axes");
            a->set_type(pb::AttributeProto::INTS);
            for (int64_t v : *axes) a->add_ints(v);
        }
        return;
    }
    if (op == "Split") {
        removeAttr(n, "num_outputs"); // opset 13 splits into as many equal parts as outputs
    } else if (op == "Pad") {
        if (hasInput(n, 3)) return setAside(n); // axes (opset 18)
    } else if (op == "Resize") {
        const pb::AttributeProto* policy = findAttr(n, "keep_aspect_ratio_policy");
        if (findAttr(n, "axes") || (policy && policy->s() != "stretch")) return setAside(n);
        removeAttr(n, "keep_aspect_ratio_policy");
        removeAttr(n, "antialias"); // the same output shape
    } else if (op == "AveragePool") {
        if (const pb::AttributeProto* d = findAttr(n, "dilations")) {
            if (std::any_of(d->ints().begin(), d->ints().end(), [](int64_t v) { return v != 1; })) return setAside(n);
            removeAttr(n, "dilations");
        }
    } else if (op == "Cast" || op == "CastLike") {
        removeAttr(n, "saturate");
    } else if (op == "QuantizeLinear" || op == "DequantizeLinear") {
        removeAttr(n, "saturate");
        removeAttr(n, "block_size");
        if (intAttr(n, "output_dtype", 0) != 0) return setAside(n); // the output type differs
        removeAttr(n, "output_dtype");
    } else if (op == "DFT") {
        return setAside(n); // opset 20 takes axis as an input
    } else if (op == "GridSample") {
        for (auto& a : *n.mutable_attribute())
            if (a.name() == "mode" && (a.s() == "linear" || a.s() == "cubic"))
                a.set_s(a.s() == "linear" ? "bilinear" : "bicubic"); // opset 20 names
    }
    if (!pb::OpSchemaRegistry::Schema(op, kLibonnxOpset, "")) setAside(n);
}

void rewriteGraph(pb::GraphProto& g, const Constants* parent) {
    Constants constants;
    constants.parent = parent;
    for (const auto& init : g.initializer()) constants.tensors[init.name()] = &init;
    for (auto& n : *g.mutable_node()) {
        rewriteNode(n, constants);
        if (n.op_type() == "Constant" && isDefaultDomain(n.domain()) && n.output_size() == 1)
            if (const pb::AttributeProto* value = findAttr(n, "value"); value && value->has_t())
                constants.tensors[n.output(0)] = &value->t();
    }
}
} // namespace

pb::ModelProto libonnxView(const pb::ModelProto& model) {
    pb::ModelProto view = model;
    if (view.ir_version() > pb::IR_VERSION) view.set_ir_version(pb::IR_VERSION);
    for (auto& imp : *view.mutable_opset_import())
        if (isDefaultDomain(imp.domain())) imp.set_version(kLibonnxOpset);
    pb::OperatorSetIdProto* aside = view.add_opset_import();
    aside->set_domain(kAsideDomain);
    aside->set_version(1);
    rewriteGraph(*view.mutable_graph(), nullptr);
    return view;
}

void takeInferredTypes(const pb::GraphProto& from, pb::GraphProto* to) {
    *to->mutable_value_info() = from.value_info();
    for (int i = 0; i < from.input_size() && i < to->input_size(); ++i)
        *to->mutable_input(i)->mutable_type() = from.input(i).type();
    for (int i = 0; i < from.output_size() && i < to->output_size(); ++i)
        *to->mutable_output(i)->mutable_type() = from.output(i).type();
    for (int i = 0; i < from.node_size() && i < to->node_size(); ++i) {
        const pb::NodeProto& a = from.node(i);
        pb::NodeProto* b = to->mutable_node(i);
        for (const auto& body : a.attribute())
            if (body.type() == pb::AttributeProto::GRAPH)
                for (auto& target : *b->mutable_attribute())
                    if (target.name() == body.name() && target.type() == pb::AttributeProto::GRAPH)
                        takeInferredTypes(body.g(), target.mutable_g());
    }
}

} // namespace embark::onnx

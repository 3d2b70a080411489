#include "model_checks.h"

#include "importer.h"
#include "op_table.h"

#include "ir/graph.h"

#include <onnx/checker.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace embark::onnx {
namespace {
namespace pb = ::onnx;

constexpr int kMinOpset = 6;  // opset 6 differs from 7 in broadcasting only (opset_normalize.cpp)
constexpr int kMaxOpset = 21; // 18-21 are checked and inferred through opset_view.h

// "?x3x224x224" for messages about a declared shape with unknown dims.
std::string declaredShape(const pb::TensorShapeProto& shape) {
    std::vector<std::string> dims;
    for (const auto& d : shape.dim()) dims.push_back(d.has_dim_value() ? std::to_string(d.dim_value()) : "?");
    return dims.empty() ? "scalar" : join(dims, "x");
}
} // namespace

std::string join(const std::vector<std::string>& items, const std::string& sep) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
    return out;
}

bool isDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

std::optional<ir::OpKind> opOf(const pb::NodeProto& n) {
    if (isDefaultDomain(n.domain())) return opFromOnnx(n.op_type());
    if (n.domain() == kEmbarkDomain && n.op_type().rfind(kFusedPrefix, 0) == 0)
        return opFromOnnx(n.op_type().substr(std::string(kFusedPrefix).size()));
    return std::nullopt;
}

Error ModelChecks::fail(ErrorKind kind, const std::string& message) const {
    return makeError(kind, m_display + ": " + message);
}

Status ModelChecks::checkOpsets() {
    bool found = false;
    for (const auto& imp : m_model.opset_import())
        if (isDefaultDomain(imp.domain())) {
            m_opset = static_cast<int>(imp.version());
            found = true;
        }
    if (!found) {
        std::vector<std::string> domains;
        for (const auto& imp : m_model.opset_import()) domains.push_back("'" + imp.domain() + "'");
        return fail(ErrorKind::Unsupported, "the model imports no default ONNX opset (only " +
                                                (domains.empty() ? std::string("nothing") : join(domains, ", ")) +
                                                "); Embark supports the default ONNX domain, opsets " +
                                                std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset));
    }
    // Older opsets import when every op of the model kept its semantics since opset 1.
    static const std::unordered_set<std::string> kSameSinceOpset1{
        "Not",   "Softplus", "Softsign", "GlobalAveragePool", "GlobalMaxPool", "Identity", "Transpose",
        "Shape", "Size",     "Flatten"};
    bool sameSinceOpset1 = m_opset >= 1 && m_opset < kMinOpset;
    for (const auto& n : m_model.graph().node())
        sameSinceOpset1 = sameSinceOpset1 && isDefaultDomain(n.domain()) && kSameSinceOpset1.count(n.op_type());
    if ((m_opset < kMinOpset && !sameSinceOpset1) || m_opset > kMaxOpset)
        return fail(ErrorKind::Unsupported, "the model uses opset " + std::to_string(m_opset) +
                                                "; Embark imports opsets " + std::to_string(kMinOpset) + " to " +
                                                std::to_string(kMaxOpset) +
                                                ": convert it (onnx.version_converter.convert_version(model, " +
                                                std::string(m_opset > kMaxOpset ? "21" : "13") + "))");
    return {};
}

Status ModelChecks::nameNodes() {
    std::unordered_set<std::string> used;
    for (const auto& n : m_model.graph().node())
        if (!n.name().empty()) used.insert(n.name());
    std::unordered_set<std::string> taken;
    int index = 0;
    for (const auto& n : m_model.graph().node()) {
        std::string base = n.name().empty() ? n.op_type() + "_" + std::to_string(index) : n.name();
        std::string name = base;
        for (int k = 2; taken.count(name) || (n.name().empty() && used.count(name) && name != n.name()); ++k)
            name = base + "_" + std::to_string(k);
        taken.insert(name);
        m_nodeNames.push_back(name);
        ++index;
    }
    return {};
}

Status ModelChecks::checkOps() const {
    const auto& nodes = m_model.graph().node();
    for (int i = 0; i < nodes.size(); ++i) {
        const auto& n = nodes[i];
        if (opOf(n)) continue;
        const std::string where = isDefaultDomain(n.domain()) ? "(opset " + std::to_string(m_opset) + ")"
                                                              : "from domain '" + n.domain() + "'";
        return fail(ErrorKind::Unsupported,
                    "node '" + m_nodeNames[static_cast<size_t>(i)] + "' uses op '" + n.op_type() + "' " + where +
                        ", which Embark does not support; supported ops: " + join(supportedOnnxOps(), ", "));
    }
    return {};
}

namespace {
bool isQuantizationOp(const pb::NodeProto& n) {
    static const std::unordered_set<std::string> ops{"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear",
                                                     "QLinearConv",    "QLinearMatMul",    "ConvInteger",
                                                     "MatMulInteger"};
    return isDefaultDomain(n.domain()) && ops.count(n.op_type());
}
} // namespace

Status ModelChecks::checkQuantization() const {
    const auto& g = m_model.graph();
    // Element types known before shape inference: initializers, graph inputs and outputs,
    // value_info, Constant nodes.
    std::unordered_map<std::string, int> types;
    for (const auto& init : g.initializer()) types[init.name()] = init.data_type();
    for (const auto* list : {&g.input(), &g.output(), &g.value_info()})
        for (const auto& vi : *list)
            if (vi.type().has_tensor_type() && vi.type().tensor_type().elem_type() != pb::TensorProto::UNDEFINED)
                types.emplace(vi.name(), vi.type().tensor_type().elem_type());
    for (const auto& n : g.node())
        if (n.op_type() == "Constant" && isDefaultDomain(n.domain()) && n.output_size() == 1)
            for (const auto& a : n.attribute())
                if (a.name() == "value" && a.has_t()) types[n.output(0)] = a.t().data_type();
    for (int i = 0; i < g.node_size(); ++i) {
        const auto& n = g.node(i);
        if (!isQuantizationOp(n)) continue;
        const std::string node = "node '" + m_nodeNames[static_cast<size_t>(i)] + "' (" + n.op_type() + ")";
        for (const auto& a : n.attribute()) {
            if (a.name() == "block_size" && a.i() != 0)
                return fail(ErrorKind::Unsupported,
                            node + " uses blocked quantization (block_size " + std::to_string(a.i()) +
                                "), which Embark does not support: quantize per tensor or per axis");
            if (a.name() == "output_dtype" && a.i() != 0 && !dtypeFromOnnx(static_cast<int>(a.i())))
                return fail(ErrorKind::Unsupported,
                            node + " quantizes to " + onnxDTypeName(static_cast<int>(a.i())) +
                                " (output_dtype), which Embark does not support: use int8 or uint8");
        }
        const auto checkValue = [&](const std::string& value, const char* role) -> Status {
            auto it = types.find(value);
            if (value.empty() || it == types.end() || dtypeFromOnnx(it->second)) return {};
            return fail(ErrorKind::Unsupported, node + " " + role + " '" + value + "' of type " +
                                                    onnxDTypeName(it->second) +
                                                    ", which Embark does not support: quantized tensors must "
                                                    "be int8 or uint8 (int32 for biases and accumulators)");
        };
        for (const auto& in : n.input()) EMBARK_TRY(checkValue(in, "reads"));
        for (const auto& out : n.output()) EMBARK_TRY(checkValue(out, "writes"));
    }
    return {};
}

namespace {
// The first tensor of `g` or its bodies (initializers, Constant values) whose element type is
// newer than ONNX 1.12 (float8, int4, uint4: the checker would only call it unrecognised).
const pb::TensorProto* newerTypedTensor(const pb::GraphProto& g, std::string* where) {
    constexpr int kNewestKnown = pb::TensorProto::BFLOAT16; // 16, the last type of ONNX 1.12
    // 17-23: the float8 kinds, uint4, int4 and float4 of later ONNX; any other number is no type.
    constexpr int kNewestLater = 23;
    auto newer = [](int type) { return type > kNewestKnown && type <= kNewestLater; };
    for (const auto& init : g.initializer())
        if (newer(init.data_type())) {
            *where = "initializer '" + init.name() + "'";
            return &init;
        }
    for (const auto& n : g.node())
        for (const auto& a : n.attribute()) {
            if (a.has_t() && newer(a.t().data_type())) {
                *where = "the value of node '" + (n.name().empty() ? n.op_type() : n.name()) + "'";
                return &a.t();
            }
            if (a.type() == pb::AttributeProto::GRAPH)
                if (const pb::TensorProto* t = newerTypedTensor(a.g(), where)) return t;
        }
    return nullptr;
}
} // namespace

Status ModelChecks::checkTensorTypes() const {
    std::string where;
    if (const pb::TensorProto* t = newerTypedTensor(m_model.graph(), &where))
        return fail(ErrorKind::Unsupported, where + " has element type " + onnxDTypeName(t->data_type()) +
                                                ", which Embark does not support (float8, int4 and uint4 "
                                                "tensors): store it as float32, int8 or uint8");
    return {};
}

Status ModelChecks::resolveInputShapes(const std::map<std::string, ir::Shape>& overrides) {
    auto* graph = m_model.mutable_graph();
    std::unordered_set<std::string> initializers;
    for (const auto& init : graph->initializer()) initializers.insert(init.name());
    std::vector<std::string> inputNames;
    for (const auto& in : graph->input())
        if (!initializers.count(in.name())) inputNames.push_back(in.name());
    for (const auto& [name, shape] : overrides)
        if (std::find(inputNames.begin(), inputNames.end(), name) == inputNames.end())
            return fail(ErrorKind::Usage,
                        "--shape names '" + name +
                            "', which is not an input of the model; its inputs are: " + join(inputNames, ", "));
    bool overridden = false;
    for (auto& in : *graph->mutable_input()) {
        if (initializers.count(in.name())) continue;
        if (!in.type().has_tensor_type())
            return fail(ErrorKind::Unsupported,
                        "input '" + in.name() +
                            "' is not a tensor (sequence, map or optional inputs are not supported)");
        auto* tensorType = in.mutable_type()->mutable_tensor_type();
        if (!dtypeFromOnnx(tensorType->elem_type()))
            return fail(ErrorKind::Unsupported, "input '" + in.name() + "' has element type " +
                                                    onnxDTypeName(tensorType->elem_type()) +
                                                    ", which Embark does not support");
        auto over = overrides.find(in.name());
        if (over != overrides.end()) {
            // A shape of another rank is a wrong --shape value, not a model Embark lacks support for.
            if (tensorType->has_shape() &&
                tensorType->shape().dim_size() != static_cast<int>(over->second.dims().size()))
                return fail(ErrorKind::Usage, "--shape " + in.name() + "=" +
                                                  join(
                                                      [&] {
                                                          std::vector<std::string> d;
                                                          for (int64_t x : over->second.dims())
                                                              d.push_back(std::to_string(x));
                                                          return d;
                                                      }(),
                                                      "x") +
                                                  " has rank " + std::to_string(over->second.dims().size()) +
                                                  ", but input '" + in.name() + "' has rank " +
                                                  std::to_string(tensorType->shape().dim_size()) + " (declared " +
                                                  declaredShape(tensorType->shape()) + "): give " +
                                                  std::to_string(tensorType->shape().dim_size()) + " dimensions");
            auto* shape = tensorType->mutable_shape();
            shape->clear_dim();
            for (int64_t d : over->second.dims()) shape->add_dim()->set_dim_value(d);
            overridden = true;
            continue;
        }
        if (!tensorType->has_shape())
            return fail(ErrorKind::InvalidInput, "input '" + in.name() + "' declares no shape: pass --shape " +
                                                     in.name() + "=DIMS (e.g. 1x3x224x224)");
        const auto& shape = tensorType->shape();
        std::vector<std::string> suggestion;
        for (const auto& d : shape.dim()) {
            if (d.has_dim_value() && d.dim_value() < 0)
                return fail(ErrorKind::InvalidInput, "input '" + in.name() + "' has a negative dimension " +
                                                         std::to_string(d.dim_value()) + " (shape " +
                                                         declaredShape(shape) + "): the model is broken");
            suggestion.push_back(d.has_dim_value() ? std::to_string(d.dim_value()) : "1");
        }
        for (const auto& d : shape.dim())
            if (!d.has_dim_value())
                return fail(ErrorKind::InvalidInput,
                            "input '" + in.name() + "' has " +
                                (d.has_dim_param() ? "symbolic dimension '" + d.dim_param() + "'"
                                                   : std::string("an unknown dimension")) +
                                " (shape " + declaredShape(shape) + "): pass --shape " + in.name() + "=" +
                                join(suggestion, "x"));
    }
    for (const auto& in : graph->input()) {
        if (initializers.count(in.name())) continue;
        std::vector<int64_t> dims;
        for (const auto& d : in.type().tensor_type().shape().dim()) dims.push_back(d.dim_value());
        const ir::Shape shape(dims);
        if (!shape.checkedNumel())
            return fail(ErrorKind::InvalidInput, "input '" + in.name() + "' has shape " + shape.str() +
                                                     ", whose element count overflows 64 bits");
    }
    if (overridden) {
        // Stale shapes recorded for the old input shape would contradict inference.
        graph->clear_value_info();
        for (auto& out : *graph->mutable_output())
            if (out.type().tensor_type().has_shape())
                for (auto& d : *out.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) d.Clear();
    }
    return {};
}

// Missing values and cycles get Embark's messages before the checker words them its way;
// an acyclic but unsorted graph is sorted so the checker accepts it.
Status ModelChecks::checkStructure() {
    const auto& g = m_model.graph();
    // The ONNX checker accepts such a graph, but nothing of it can be run, exported or compared.
    if (g.output_size() == 0)
        return fail(ErrorKind::InvalidInput,
                    "the model declares no graph outputs, so there is nothing to compute: list the values it "
                    "should produce in graph.output (e.g. model.graph.output.append("
                    "onnx.helper.make_tensor_value_info(NAME, onnx.TensorProto.FLOAT, None))) and save it again");
    std::unordered_map<std::string, std::string> producer; // value -> node name or "" for inputs
    for (const auto& init : g.initializer()) producer[init.name()] = "";
    for (const auto& in : g.input()) producer[in.name()] = "";
    for (int i = 0; i < g.node_size(); ++i)
        for (const auto& out : g.node(i).output()) {
            if (out.empty()) continue;
            auto [it, inserted] = producer.emplace(out, m_nodeNames[static_cast<size_t>(i)]);
            if (!inserted)
                return fail(ErrorKind::InvalidInput,
                            "value '" + out + "' is defined twice (by node '" + m_nodeNames[static_cast<size_t>(i)] +
                                "' and " +
                                (it->second.empty() ? "as a graph input or initializer" : "node '" + it->second + "'") +
                                "): ONNX values must have one producer");
        }
    for (int i = 0; i < g.node_size(); ++i)
        for (const auto& in : g.node(i).input())
            if (!in.empty() && !producer.count(in))
                return fail(ErrorKind::InvalidInput,
                            "node '" + m_nodeNames[static_cast<size_t>(i)] + "' reads '" + in +
                                "' which is neither an initializer, a graph input nor a node output "
                                "(missing initializer?)");
    for (const auto& out : g.output())
        if (!producer.count(out.name()))
            return fail(ErrorKind::InvalidInput, "graph output '" + out.name() + "' is produced by no node");

    // A skeleton IR graph gives the cycle check (and its message) and a valid order.
    ir::Graph skeleton;
    std::unordered_map<std::string, ir::Value*> values;
    auto valueOf = [&](const std::string& name) {
        auto& v = values[name];
        if (!v) v = skeleton.addValue(name, ir::DType::Float32, {});
        return v;
    };
    for (int i = 0; i < g.node_size(); ++i) {
        std::vector<ir::Value*> ins, outs;
        for (const auto& in : g.node(i).input())
            if (!in.empty()) ins.push_back(valueOf(in));
        for (const auto& out : g.node(i).output())
            if (!out.empty()) outs.push_back(valueOf(out));
        skeleton.addNode(opOf(g.node(i)).value_or(ir::OpKind::Identity), std::to_string(i), ins, outs)->name =
            m_nodeNames[static_cast<size_t>(i)];
    }
    if (Status s = skeleton.topoSort(); !s) return fail(s.error().kind, s.error().message);
    std::unordered_map<std::string, int> indexOf;
    for (int i = 0; i < g.node_size(); ++i) indexOf[m_nodeNames[static_cast<size_t>(i)]] = i;
    std::vector<int> order;
    for (ir::Node* n : skeleton.nodes()) order.push_back(indexOf[n->name]);
    bool sorted = true;
    for (size_t i = 0; i < order.size(); ++i) sorted = sorted && order[i] == static_cast<int>(i);
    if (!sorted) {
        google::protobuf::RepeatedPtrField<pb::NodeProto> reordered;
        std::vector<std::string> names;
        for (int i : order) {
            *reordered.Add() = g.node(i);
            names.push_back(m_nodeNames[static_cast<size_t>(i)]);
        }
        m_model.mutable_graph()->mutable_node()->Swap(&reordered);
        m_nodeNames = std::move(names);
    }
    return {};
}

Status ModelChecks::runChecker(const pb::ModelProto& model) const {
    try {
        pb::checker::check_model(model);
    } catch (const std::exception& e) {
        return fail(ErrorKind::InvalidInput, std::string("the ONNX checker rejects the model: ") + e.what());
    }
    return {};
}

} // namespace embark::onnx

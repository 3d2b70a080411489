#include "importer.h"

#include "op_table.h"
#include "opset_normalize.h"
#include "proto_tensor.h"
#include "reference/interpreter.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include <unordered_map>
#include <unordered_set>

namespace embark::onnx {
namespace {
namespace pb = ::onnx;

constexpr int kMinOpset = 7;
constexpr int kMaxOpset = 17;
constexpr const char* kProvenanceTag = "embark-provenance"; // also in writer.cpp

std::string join(const std::vector<std::string>& items, const std::string& sep) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
    return out;
}

bool isDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

// "?x3x224x224" for messages about a declared shape with unknown dims.
std::string declaredShape(const pb::TensorShapeProto& shape) {
    std::vector<std::string> dims;
    for (const auto& d : shape.dim())
        dims.push_back(d.has_dim_value() ? std::to_string(d.dim_value()) : "?");
    return dims.empty() ? "scalar" : join(dims, "x");
}

Expected<ir::Attribute> attributeFromProto(const pb::AttributeProto& a, const std::string& where) {
    switch (a.type()) {
    case pb::AttributeProto::FLOAT: return ir::Attribute(a.f());
    case pb::AttributeProto::INT: return ir::Attribute(static_cast<int64_t>(a.i()));
    case pb::AttributeProto::STRING: return ir::Attribute(a.s());
    case pb::AttributeProto::FLOATS: return ir::Attribute(std::vector<float>(a.floats().begin(), a.floats().end()));
    case pb::AttributeProto::INTS: return ir::Attribute(std::vector<int64_t>(a.ints().begin(), a.ints().end()));
    case pb::AttributeProto::STRINGS:
        return ir::Attribute(std::vector<std::string>(a.strings().begin(), a.strings().end()));
    case pb::AttributeProto::TENSOR: {
        auto t = tensorFromProto(a.t(), "attribute '" + a.name() + "' of " + where);
        if (!t) return t.error();
        return ir::Attribute(std::move(*t));
    }
    default:
        return makeError(ErrorKind::Unsupported, "attribute '" + a.name() + "' of " + where +
                                                     " has a kind (graph or sparse tensor) Embark does not support");
    }
}

class Importer {
public:
    Importer(const ImportOptions& options, std::string displayName, std::string baseDir)
        : m_options(options), m_display(std::move(displayName)), m_baseDir(std::move(baseDir)) {}

    Expected<ir::Graph> run(const std::string& bytes) {
        EMBARK_TRY(parse(bytes));
        EMBARK_TRY(checkOpsets());
        EMBARK_TRY(nameNodes());
        EMBARK_TRY(checkOps());
        EMBARK_TRY(inlineExternalData(&m_model, m_baseDir, m_display));
        EMBARK_TRY(resolveInputShapes());
        EMBARK_TRY(checkStructure());
        if (m_options.runChecker) EMBARK_TRY(runChecker());
        inferShapes();
        EMBARK_TRY(build());
        EMBARK_TRY(finish(bytes));
        return std::move(m_graph);
    }

private:
    const ImportOptions& m_options;
    std::string m_display, m_baseDir;
    pb::ModelProto m_model;
    int m_opset = 0;
    std::vector<std::string> m_nodeNames; // IR name of each ONNX node, in model order
    ir::Graph m_graph;
    std::unordered_map<std::string, ir::Value*> m_values; // ONNX name -> IR value
    std::unordered_map<std::string, const pb::TypeProto*> m_types;
    std::unordered_set<const ir::Value*> m_unknownShape;

    Error fail(ErrorKind kind, const std::string& message) const {
        return makeError(kind, m_display + ": " + message);
    }

    Status parse(const std::string& bytes) {
        if (bytes.empty()) return fail(ErrorKind::InvalidInput, "the file is empty; expected an ONNX model");
        if (!m_model.ParseFromString(bytes))
            return fail(ErrorKind::InvalidInput,
                        "not a valid ONNX model (the protobuf data does not parse: the file is truncated, "
                        "corrupt or not ONNX)");
        if (m_model.ir_version() <= 0 || !m_model.has_graph())
            return fail(ErrorKind::InvalidInput,
                        "not an ONNX model (no IR version or graph; it parsed as protobuf by chance)");
        return {};
    }

    Status checkOpsets() {
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
                                                    "); Embark supports the default ONNX domain, opsets 7 to 17");
        }
        if (m_opset < kMinOpset || m_opset > kMaxOpset)
            return fail(ErrorKind::Unsupported,
                        "the model uses opset " + std::to_string(m_opset) + "; Embark imports opsets " +
                            std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) +
                            ": convert it (onnx.version_converter.convert_version(model, 13))");
        return {};
    }

    Status nameNodes() {
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

    // The IR op of ONNX node i (Fused* ops of the embark domain map to their base op).
    std::optional<ir::OpKind> opOf(const pb::NodeProto& n) const {
        if (isDefaultDomain(n.domain())) return opFromOnnx(n.op_type());
        if (n.domain() == kEmbarkDomain && n.op_type().rfind(kFusedPrefix, 0) == 0)
            return opFromOnnx(n.op_type().substr(std::string(kFusedPrefix).size()));
        return std::nullopt;
    }

    Status checkOps() const {
        const auto& nodes = m_model.graph().node();
        for (int i = 0; i < nodes.size(); ++i) {
            const auto& n = nodes[i];
            if (opOf(n)) continue;
            const std::string where = isDefaultDomain(n.domain())
                                          ? "(opset " + std::to_string(m_opset) + ")"
                                          : "from domain '" + n.domain() + "'";
            return fail(ErrorKind::Unsupported, "node '" + m_nodeNames[static_cast<size_t>(i)] + "' uses op '" +
                                                    n.op_type() + "' " + where +
                                                    ", which Embark does not support; supported ops: " +
                                                    join(supportedOnnxOps(), ", "));
        }
        return {};
    }

    Status resolveInputShapes() {
        auto* graph = m_model.mutable_graph();
        std::unordered_set<std::string> initializers;
        for (const auto& init : graph->initializer()) initializers.insert(init.name());
        std::vector<std::string> inputNames;
        for (const auto& in : graph->input())
            if (!initializers.count(in.name())) inputNames.push_back(in.name());
        for (const auto& [name, shape] : m_options.shapeOverrides)
            if (std::find(inputNames.begin(), inputNames.end(), name) == inputNames.end())
                return fail(ErrorKind::Usage, "--shape names '" + name + "', which is not an input of the model; its inputs are: " +
                                                  join(inputNames, ", "));
        bool overridden = false;
        for (auto& in : *graph->mutable_input()) {
            if (initializers.count(in.name())) continue;
            if (!in.type().has_tensor_type())
                return fail(ErrorKind::Unsupported, "input '" + in.name() + "' is not a tensor (sequence, map or optional inputs are not supported)");
            auto* tensorType = in.mutable_type()->mutable_tensor_type();
            if (!dtypeFromOnnx(tensorType->elem_type()))
                return fail(ErrorKind::Unsupported, "input '" + in.name() + "' has element type " +
                                                        onnxDTypeName(tensorType->elem_type()) +
                                                        ", which Embark does not support");
            auto over = m_options.shapeOverrides.find(in.name());
            if (over != m_options.shapeOverrides.end()) {
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
                                    (d.has_dim_param() ? "symbolic dimension '" + d.dim_param() + "'" : std::string("an unknown dimension")) +
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
    Status checkStructure() {
        const auto& g = m_model.graph();
        std::unordered_map<std::string, std::string> producer; // value -> node name or "" for inputs
        for (const auto& init : g.initializer()) producer[init.name()] = "";
        for (const auto& in : g.input()) producer[in.name()] = "";
        for (int i = 0; i < g.node_size(); ++i)
            for (const auto& out : g.node(i).output()) {
                if (out.empty()) continue;
                auto [it, inserted] = producer.emplace(out, m_nodeNames[static_cast<size_t>(i)]);
                if (!inserted)
                    return fail(ErrorKind::InvalidInput, "value '" + out + "' is defined twice (by node '" +
                                                             m_nodeNames[static_cast<size_t>(i)] + "' and " +
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

    Status runChecker() const {
        try {
            pb::checker::check_model(m_model);
        } catch (const std::exception& e) {
            return fail(ErrorKind::InvalidInput, std::string("the ONNX checker rejects the model: ") + e.what());
        }
        return {};
    }

    void inferShapes() {
        try {
            pb::ShapeInferenceOptions options{/*check_type=*/true, /*error_mode=*/0, /*enable_data_propagation=*/true};
            pb::shape_inference::InferShapes(m_model, pb::OpSchemaRegistry::Instance(), options);
        } catch (const std::exception& e) {
            // Not fatal: the reference interpreter propagates the shapes inference missed.
            m_graph.metadata["shape_inference"] = std::string("incomplete: ") + e.what();
        }
        const auto& g = m_model.graph();
        for (const auto& vi : g.input()) m_types[vi.name()] = &vi.type();
        for (const auto& vi : g.value_info()) m_types[vi.name()] = &vi.type();
        for (const auto& vi : g.output()) m_types[vi.name()] = &vi.type();
    }

    // The IR value of ONNX value `name`, with its inferred dtype and shape when known.
    Expected<ir::Value*> newValue(const std::string& name) {
        ir::DType dtype = ir::DType::Float32;
        ir::Shape shape;
        bool known = false;
        auto it = m_types.find(name);
        if (it != m_types.end() && it->second->has_tensor_type()) {
            const auto& tt = it->second->tensor_type();
            if (tt.elem_type() != pb::TensorProto::UNDEFINED) {
                auto dt = dtypeFromOnnx(tt.elem_type());
                if (!dt)
                    return fail(ErrorKind::Unsupported, "value '" + name + "' has element type " +
                                                            onnxDTypeName(tt.elem_type()) +
                                                            ", which Embark does not support");
                dtype = *dt;
            }
            if (tt.has_shape()) {
                known = true;
                std::vector<int64_t> dims;
                for (const auto& d : tt.shape().dim()) {
                    known = known && d.has_dim_value();
                    dims.push_back(d.has_dim_value() ? d.dim_value() : 0);
                }
                shape = ir::Shape(std::move(dims));
            }
        }
        ir::Value* v = m_graph.addValue(name, dtype, shape);
        if (!known) m_unknownShape.insert(v);
        m_values[name] = v;
        return v;
    }

    Expected<ir::Tensor> constantNodeValue(const pb::NodeProto& n, const std::string& nodeName) {
        const std::string where = "Constant node '" + nodeName + "'";
        for (const auto& a : n.attribute()) {
            if (a.name() == "value") return tensorFromProto(a.t(), where);
            if (a.name() == "value_float") return ir::Tensor::scalarFloat(a.f());
            if (a.name() == "value_int") return ir::Tensor::scalarInt64(a.i());
            if (a.name() == "value_floats")
                return ir::Tensor::fromFloats(ir::Shape{a.floats_size()}, {a.floats().begin(), a.floats().end()});
            if (a.name() == "value_ints")
                return ir::Tensor::fromInt64s(ir::Shape{a.ints_size()}, {a.ints().begin(), a.ints().end()});
            return fail(ErrorKind::Unsupported, where + " holds a '" + a.name() +
                                                    "' value, which Embark does not support (only numeric tensors)");
        }
        return fail(ErrorKind::InvalidInput, where + " has no value attribute");
    }

    Status build() {
        const auto& g = m_model.graph();
        m_graph.name = g.name();
        for (const auto& init : g.initializer()) {
            auto t = tensorFromProto(init, "initializer '" + init.name() + "'");
            if (!t) return fail(t.error().kind, t.error().message);
            m_values[init.name()] = m_graph.addConstant(init.name(), std::move(*t));
        }
        for (const auto& in : g.input()) {
            if (m_values.count(in.name())) continue; // an initializer listed as input stays constant
            auto v = newValue(in.name());
            if (!v) return v.error();
            m_graph.addInput(*v);
        }
        const auto shapeKnown = [this](const ir::Value* v) { return v->isConstant() || !m_unknownShape.count(v); };
        for (int i = 0; i < g.node_size(); ++i) {
            const auto& n = g.node(i);
            const std::string& name = m_nodeNames[static_cast<size_t>(i)];
            const ir::OpKind op = *opOf(n);
            if (op == ir::OpKind::Constant && isDefaultDomain(n.domain()) && n.output_size() == 1) {
                auto t = constantNodeValue(n, name);
                if (!t) return t.error();
                m_values[n.output(0)] = m_graph.addConstant(n.output(0), std::move(*t));
                continue;
            }
            PendingNode node;
            node.onnxType = n.op_type();
            node.op = op;
            node.name = name;
            for (const auto& in : n.input()) node.inputs.push_back(in.empty() ? nullptr : m_values.at(in));
            for (const auto& out : n.output()) {
                if (out.empty()) {
                    // An omitted optional output still needs a value slot.
                    node.outputs.push_back(m_graph.addValue(m_graph.uniqueName(name + "_unused"), ir::DType::Float32, {}));
                    m_unknownShape.insert(node.outputs.back());
                    continue;
                }
                auto v = newValue(out);
                if (!v) return v.error();
                node.outputs.push_back(*v);
            }
            for (const auto& a : n.attribute()) {
                auto attr = attributeFromProto(a, "node '" + name + "'");
                if (!attr) return fail(attr.error().kind, attr.error().message);
                node.attrs[a.name()] = std::move(*attr);
            }
            node.provenance = provenanceOf(n, name);
            if (Status s = addNormalizedNode(m_graph, std::move(node), m_opset, shapeKnown); !s)
                return fail(s.error().kind, s.error().message);
        }
        for (const auto& out : g.output()) m_graph.addOutput(m_values.at(out.name()));
        return {};
    }

    // Files written by Embark keep a fused node's original names in its doc_string.
    static std::vector<std::string> provenanceOf(const pb::NodeProto& n, const std::string& name) {
        const std::string& doc = n.doc_string();
        if (doc.rfind(kProvenanceTag, 0) != 0) return {name};
        std::vector<std::string> names;
        size_t pos = doc.find('\n');
        while (pos != std::string::npos) {
            const size_t next = doc.find('\n', pos + 1);
            names.push_back(doc.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1));
            pos = next;
        }
        return names.empty() ? std::vector<std::string>{name} : names;
    }

    Status finish(const std::string& bytes) {
        for (const ir::Value* v : m_graph.values())
            if (!m_unknownShape.count(v) && !v->shape.checkedNumel())
                return fail(ErrorKind::InvalidInput, "value '" + v->name + "' has shape " + v->shape.str() +
                                                         ", whose element count is negative or overflows");
        bool missing = false;
        for (const ir::Value* v : m_unknownShape) missing = missing || v->uses().size() || v->isGraphOutput();
        if (missing) {
            if (Status s = reference::propagateShapes(m_graph); !s)
                return fail(s.error().kind, "cannot determine every tensor shape: " + s.error().message);
        }
        for (const ir::Value* v : m_graph.values())
            if (!v->shape.checkedNumel())
                return fail(ErrorKind::InvalidInput, "value '" + v->name + "' has shape " + v->shape.str() +
                                                         ", whose element count is negative or overflows");
        auto& md = m_graph.metadata;
        md["producer"] = m_model.producer_name() + (m_model.producer_version().empty() ? "" : " " + m_model.producer_version());
        md["ir_version"] = std::to_string(m_model.ir_version());
        md["opset"] = std::to_string(m_opset);
        md["sha256"] = QCryptographicHash::hash(QByteArray::fromRawData(bytes.data(), static_cast<qsizetype>(bytes.size())),
                                                QCryptographicHash::Sha256).toHex().toStdString();
        if (!md.count("model_name")) md["model_name"] = m_graph.name;
        return {};
    }
};
} // namespace

Expected<ir::Graph> importModelFromBytes(const std::string& bytes, const std::string& baseDir,
                                         const std::string& displayName, const ImportOptions& options) {
    Importer importer(options, displayName, baseDir);
    try {
        return importer.run(bytes);
    } catch (const std::exception& e) {
        // libonnx and protobuf report some malformed inputs by throwing.
        return makeError(ErrorKind::InvalidInput, displayName + ": cannot import the model: " + e.what());
    }
}

Expected<ir::Graph> importModel(const std::string& path, const ImportOptions& options) {
    const QFileInfo info(QString::fromStdString(path));
    if (!info.exists())
        return makeError(ErrorKind::InvalidInput, path + ": no such file; check the model path");
    if (info.isDir())
        return makeError(ErrorKind::InvalidInput, path + " is a directory, not an ONNX model file");
    QFile file(info.filePath());
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorKind::InvalidInput, path + ": cannot read the file (" + file.errorString().toStdString() + ")");
    const QByteArray data = file.readAll();
    auto graph = importModelFromBytes(data.toStdString(), info.absolutePath().toStdString(), path, options);
    if (graph) {
        graph->metadata["path"] = info.absoluteFilePath().toStdString();
        graph->metadata["model_name"] = info.completeBaseName().toStdString();
    }
    return graph;
}

std::vector<std::string> supportedOnnxOps() { return onnxOpTypes(); }

} // namespace embark::onnx

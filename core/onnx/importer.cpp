// The importer's second stage and its entry points: parse, external data, ONNX shape
// inference, then the IR graph (initializers and Constant nodes as constants, values with
// their inferred dtype and shape, attributes, provenance, opset normalisation) and the final
// shape checks and metadata. The checks run before (opset, ops, input shapes, structure,
// ONNX checker) are in model_checks.cpp.
#include "importer.h"

#include "ir/opkind.h"
#include "model_checks.h"
#include "op_table.h"
#include "opset_normalize.h"
#include "opset_view.h"
#include "proto_tensor.h"
#include "quant_checks.h"
#include "writer.h"
#include "reference/interpreter.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cctype>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace embark::onnx {
namespace {
namespace pb = ::onnx;

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
        EMBARK_TRY(m_checks.nameNodes());
        EMBARK_TRY(m_checks.checkQuantization()); // names the node before opset 19+ is refused
        EMBARK_TRY(m_checks.checkOpsets());
        if (!m_options.keepUnsupportedOps) EMBARK_TRY(m_checks.checkOps());
        EMBARK_TRY(m_checks.checkTensorTypes());
        EMBARK_TRY(inlineExternalData(&m_model, m_baseDir, m_display));
        EMBARK_TRY(m_checks.resolveInputShapes(m_options.shapeOverrides));
        EMBARK_TRY(m_checks.checkStructure());
        if (m_checks.opset() > kLibonnxOpset) m_view = libonnxView(m_model);
        if (m_options.runChecker) EMBARK_TRY(m_checks.runChecker(libonnxModel()));
        inferShapes();
        EMBARK_TRY(build());
        EMBARK_TRY(finish(bytes));
        checkDeclaredShapes();
        return std::move(m_graph);
    }

private:
    const ImportOptions& m_options;
    std::string m_display, m_baseDir;
    pb::ModelProto m_model;
    std::optional<pb::ModelProto> m_view; // what libonnx checks and infers for opsets 18+ (opset_view.h)
    ModelChecks m_checks{m_model, m_display};
    ir::Graph m_graph;
    std::unordered_map<std::string, const pb::TypeProto*> m_types;
    std::unordered_set<const ir::Value*> m_unknownShape;
    bool m_placeholders = false; // keepUnsupportedOps made a placeholder node
    std::vector<std::pair<std::string, std::vector<std::string>>> m_declared; // value -> declared dims
    std::vector<pb::ValueInfoProto> m_declaredInfo;                           // the same, as written

    // The values visible in one graph (the model's or a body's); a body's scope falls back to
    // the enclosing one, and a name found there becomes an outer-scope value of the body.
    struct Scope {
        Scope* parent = nullptr;
        ir::Graph* graph = nullptr;
        std::unordered_map<std::string, ir::Value*> values;
        std::vector<std::string> captured; // outer names this graph reads, in first-use order
    };

    pb::ModelProto& libonnxModel() { return m_view ? *m_view : m_model; }

    Error fail(ErrorKind kind, const std::string& message) const { return makeError(kind, m_display + ": " + message); }

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

    // Declared shapes are checked, never trusted: the shapes value_info and the graph outputs
    // declare are set aside, inference computes every shape it can, and a declared shape that
    // disagrees is reported (checkDeclaredShapes) while the computed one is used, as ONNX
    // Runtime does. Where inference cannot tell (a shape that depends on an input's values, such
    // as Reshape by a shape fed at run time), the declaration is all there is: it comes back
    // (restoreUninferredShapes), and what is still open goes to the reference's propagation.
    void setDeclaredShapesAside() {
        auto* g = m_model.mutable_graph();
        auto remember = [this](const pb::ValueInfoProto& vi) {
            if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape()) return;
            std::vector<std::string> dims;
            for (const auto& d : vi.type().tensor_type().shape().dim())
                dims.push_back(d.has_dim_value()   ? std::to_string(d.dim_value())
                               : d.has_dim_param() ? d.dim_param()
                                                   : "?");
            m_declared.push_back({vi.name(), dims});
            m_declaredInfo.push_back(vi);
        };
        for (const auto& vi : g->value_info()) remember(vi);
        for (const auto& vi : g->output()) remember(vi);
        for (pb::GraphProto* graph : {g, m_view ? m_view->mutable_graph() : nullptr}) {
            if (!graph) continue;
            graph->clear_value_info();
            for (auto& out : *graph->mutable_output())
                if (out.type().has_tensor_type()) out.mutable_type()->mutable_tensor_type()->clear_shape();
        }
    }

    void checkDeclaredShapes() {
        std::string warnings;
        for (const auto& [name, dims] : m_declared) {
            const ir::Value* value = m_graph.findValue(name);
            if (!value || value->isConstant()) continue;
            const ir::Shape& shape = value->shape;
            bool differs = shape.rank() != dims.size();
            std::string declared;
            for (size_t i = 0; i < dims.size(); ++i) {
                declared += (i ? "x" : "") + dims[i];
                const bool fixed = !dims[i].empty() && std::isdigit(static_cast<unsigned char>(dims[i][0]));
                if (fixed && !differs && std::stoll(dims[i]) != shape[i]) differs = true;
            }
            if (!differs) continue;
            std::string computed;
            for (size_t i = 0; i < shape.rank(); ++i) computed += (i ? "x" : "") + std::to_string(shape[i]);
            warnings += "value '" + name + "' is declared " + (declared.empty() ? "a scalar" : declared) +
                        " but its op computes " + (computed.empty() ? "a scalar" : computed) + "; Embark uses " +
                        (computed.empty() ? "a scalar" : computed) + "\n";
        }
        if (!warnings.empty()) m_graph.metadata["shape_warnings"] = warnings;
    }

    static bool fullyKnown(const pb::ValueInfoProto& vi) {
        if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape()) return false;
        for (const auto& d : vi.type().tensor_type().shape().dim())
            if (!d.has_dim_value()) return false;
        return true;
    }

    void restoreUninferredShapes() {
        auto* g = m_model.mutable_graph();
        std::unordered_set<std::string> inferred;
        for (const auto& vi : g->value_info())
            if (fullyKnown(vi)) inferred.insert(vi.name());
        for (const auto& vi : g->output())
            if (fullyKnown(vi)) inferred.insert(vi.name());
        for (const pb::ValueInfoProto& declared : m_declaredInfo) {
            if (inferred.count(declared.name()) || !fullyKnown(declared)) continue;
            bool isOutput = false;
            for (auto& out : *g->mutable_output())
                if (out.name() == declared.name()) {
                    *out.mutable_type() = declared.type();
                    isOutput = true;
                }
            if (isOutput) continue;
            for (int i = 0; i < g->value_info_size(); ++i)
                if (g->value_info(i).name() == declared.name()) {
                    g->mutable_value_info()->DeleteSubrange(i, 1);
                    break;
                }
            *g->add_value_info() = declared;
        }
    }

    void inferShapes() {
        setDeclaredShapesAside();
        try {
            pb::ShapeInferenceOptions options{/*check_type=*/true, /*error_mode=*/0, /*enable_data_propagation=*/true};
            pb::shape_inference::InferShapes(libonnxModel(), pb::OpSchemaRegistry::Instance(), options);
        } catch (const std::exception& e) {
            // Not fatal: the reference interpreter propagates the shapes inference missed.
            m_graph.metadata["shape_inference"] = std::string("incomplete: ") + e.what();
        }
        if (m_view) {
            takeInferredTypes(m_view->graph(), m_model.mutable_graph());
            m_view.reset();
        }
        restoreUninferredShapes();
        collectTypes(m_model.graph());
    }

    // Types of the values of g and of its bodies (ONNX names are unique across nested scopes).
    void collectTypes(const pb::GraphProto& g) {
        for (const auto& vi : g.input()) m_types[vi.name()] = &vi.type();
        for (const auto& vi : g.value_info()) m_types[vi.name()] = &vi.type();
        for (const auto& vi : g.output()) m_types[vi.name()] = &vi.type();
        for (const auto& n : g.node())
            for (const auto& a : n.attribute())
                if (a.type() == pb::AttributeProto::GRAPH) collectTypes(a.g());
    }

    // The IR value of ONNX value `name`, with its inferred dtype and shape when known.
    Expected<ir::Value*> newValue(Scope& scope, const std::string& name) {
        ir::DType dtype = ir::DType::Float32;
        ir::Shape shape;
        bool known = false;
        auto it = m_types.find(name);
        if (it != m_types.end() &&
            (it->second->has_sequence_type() || it->second->has_optional_type() || it->second->has_map_type()))
            return fail(ErrorKind::Unsupported, "value '" + name + "' is " +
                                                    (it->second->has_sequence_type()   ? "a sequence"
                                                     : it->second->has_optional_type() ? "an optional"
                                                                                       : "a map") +
                                                    ", which Embark does not support (only tensors)");
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
        ir::Value* v = scope.graph->addValue(name, dtype, shape);
        if (!known) m_unknownShape.insert(v);
        scope.values[name] = v;
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

    ir::Value* lookup(Scope& s, const std::string& name) {
        if (auto it = s.values.find(name); it != s.values.end()) return it->second;
        if (!s.parent) return nullptr;
        ir::Value* outer = lookup(*s.parent, name);
        if (!outer) return nullptr;
        ir::Value* v = s.graph->addValue(name, outer->dtype, outer->shape);
        s.graph->addOuterScopeValue(v);
        if (!outer->isConstant() && m_unknownShape.count(outer)) m_unknownShape.insert(v);
        s.values[name] = v;
        s.captured.push_back(name);
        return v;
    }

    Status build() {
        const auto& g = m_model.graph();
        m_graph.name = g.name();
        Scope top;
        top.graph = &m_graph;
        return buildGraph(g, top, m_checks.nodeNames(), "");
    }

    // Node names of a body graph: its own, or op_index, made unique within the body.
    static std::vector<std::string> bodyNodeNames(const pb::GraphProto& g) {
        std::vector<std::string> names;
        std::unordered_set<std::string> taken;
        for (int i = 0; i < g.node_size(); ++i) {
            const std::string base =
                g.node(i).name().empty() ? g.node(i).op_type() + "_" + std::to_string(i) : g.node(i).name();
            std::string name = base;
            for (int k = 2; taken.count(name); ++k) name = base + "_" + std::to_string(k);
            taken.insert(name);
            names.push_back(name);
        }
        return names;
    }

    // Builds graph `g` into scope.graph. `bodyOf` is empty for the model's graph, else the
    // path of the body ("loop1/body") for messages.
    Status buildGraph(const pb::GraphProto& g, Scope& scope, const std::vector<std::string>& nodeNames,
                      const std::string& bodyOf) {
        ir::Graph& graph = *scope.graph;
        const std::string in = bodyOf.empty() ? "" : " (in body '" + bodyOf + "')";
        if (!bodyOf.empty()) graph.name = g.name();
        for (const auto& init : g.initializer()) {
            auto t = tensorFromProto(init, "initializer '" + init.name() + "'" + in);
            if (!t) return fail(t.error().kind, t.error().message);
            scope.values[init.name()] = graph.addConstant(init.name(), std::move(*t));
        }
        for (const auto& input : g.input()) {
            if (scope.values.count(input.name())) continue; // an initializer listed as input stays constant
            auto v = newValue(scope, input.name());
            if (!v) return v.error();
            graph.addInput(*v);
        }
        const auto shapeKnown = [this](const ir::Value* v) { return v->isConstant() || !m_unknownShape.count(v); };
        for (int i = 0; i < g.node_size(); ++i) {
            const auto& n = g.node(i);
            const std::string& name = nodeNames[static_cast<size_t>(i)];
            const std::optional<ir::OpKind> kind = opOf(n);
            const std::string opWhere = isDefaultDomain(n.domain()) ? "(opset " + std::to_string(m_checks.opset()) + ")"
                                                                    : "from domain '" + n.domain() + "'";
            if (!kind && m_options.keepUnsupportedOps) {
                EMBARK_TRY(addPlaceholder(graph, scope, n, name, opWhere));
                continue;
            }
            if (!kind)
                return fail(ErrorKind::Unsupported, "node '" + name + "'" + in + " uses op '" + n.op_type() + "' " +
                                                        opWhere + ", which Embark does not support");
            const ir::OpKind op = *kind;
            if (op == ir::OpKind::Constant && isDefaultDomain(n.domain()) && n.output_size() == 1) {
                auto t = constantNodeValue(n, name);
                if (!t) return t.error();
                scope.values[n.output(0)] = graph.addConstant(n.output(0), std::move(*t));
                continue;
            }
            PendingNode node;
            node.onnxType = n.op_type();
            node.op = op;
            node.name = name;
            for (const auto& input : n.input()) {
                if (input.empty()) {
                    node.inputs.push_back(nullptr);
                    continue;
                }
                ir::Value* v = lookup(scope, input);
                if (!v)
                    return fail(ErrorKind::InvalidInput,
                                "node '" + name + "'" + in + " reads '" + input +
                                    "', which no graph input, initializer or earlier node defines");
                node.inputs.push_back(v);
            }
            for (const auto& out : n.output()) {
                if (out.empty()) {
                    // An omitted optional output still needs a value slot.
                    node.outputs.push_back(graph.addValue(graph.uniqueName(name + "_unused"), ir::DType::Float32, {}));
                    m_unknownShape.insert(node.outputs.back());
                    continue;
                }
                auto v = newValue(scope, out);
                if (!v) return v.error();
                node.outputs.push_back(*v);
            }
            std::vector<ir::Subgraph> bodies;
            std::vector<std::string> outerNames;
            for (const auto& a : n.attribute()) {
                if (a.type() == pb::AttributeProto::GRAPH) {
                    auto body = std::make_shared<ir::Graph>();
                    Scope child;
                    child.parent = &scope;
                    child.graph = body.get();
                    const std::string path = (bodyOf.empty() ? "" : bodyOf + "/") + name + "/" + a.name();
                    EMBARK_TRY(buildGraph(a.g(), child, bodyNodeNames(a.g()), path));
                    for (const std::string& outer : child.captured)
                        if (std::find(outerNames.begin(), outerNames.end(), outer) == outerNames.end())
                            outerNames.push_back(outer);
                    bodies.push_back(ir::Subgraph{a.name(), std::move(body)});
                    continue;
                }
                auto attr = attributeFromProto(a, "node '" + name + "'" + in);
                if (!attr) return fail(attr.error().kind, attr.error().message);
                node.attrs[a.name()] = std::move(*attr);
            }
            node.provenance = provenanceOf(n, name);
            if (!bodies.empty() || op == ir::OpKind::If || op == ir::OpKind::Loop || op == ir::OpKind::Scan) {
                EMBARK_TRY(addControlFlowNode(graph, scope, std::move(node), std::move(bodies), outerNames, in));
                continue;
            }
            if (Status s = addNormalizedNode(graph, std::move(node), m_checks.opset(), shapeKnown); !s)
                return fail(s.error().kind, s.error().message);
        }
        for (const auto& out : g.output()) {
            ir::Value* v = lookup(scope, out.name());
            if (!v)
                return fail(ErrorKind::InvalidInput,
                            "graph output '" + out.name() + "'" + in + " is produced by no node");
            graph.addOutput(v);
        }
        return {};
    }

    // A node of an op Embark lacks, kept for a preview (ImportOptions::keepUnsupportedOps).
    Status addPlaceholder(ir::Graph& graph, Scope& scope, const pb::NodeProto& n, const std::string& name,
                          const std::string& opWhere) {
        std::vector<ir::Value*> inputs, outputs;
        for (const auto& input : n.input()) inputs.push_back(input.empty() ? nullptr : lookup(scope, input));
        for (const auto& out : n.output()) {
            auto v =
                out.empty()
                    ? Expected<ir::Value*>(graph.addValue(graph.uniqueName(name + "_unused"), ir::DType::Float32, {}))
                    : newValue(scope, out);
            if (!v) return v.error();
            outputs.push_back(*v);
        }
        ir::Node* node = graph.addNode(ir::OpKind::Identity, name, inputs, outputs);
        node->attrs[kUnsupportedOpAttr] = n.op_type() + " " + opWhere;
        node->provenance = {name};
        m_placeholders = true;
        return {};
    }

    // If, Loop and Scan: the node with its bodies, the outer-scope values the bodies read as
    // trailing implicit inputs, and Scan-8's attributes under their opset-9 names.
    Status addControlFlowNode(ir::Graph& graph, Scope& scope, PendingNode node, std::vector<ir::Subgraph> bodies,
                              const std::vector<std::string>& outerNames, const std::string& in) {
        const auto need = [&](const char* attr) -> Status {
            for (const ir::Subgraph& b : bodies)
                if (b.attr == attr) return {};
            return fail(ErrorKind::InvalidInput, "node '" + node.name + "'" + in + " (" + node.onnxType + ") has no '" +
                                                     attr + "' graph attribute");
        };
        if (node.op == ir::OpKind::If) {
            EMBARK_TRY(need("then_branch"));
            EMBARK_TRY(need("else_branch"));
        } else if (node.op == ir::OpKind::Loop || node.op == ir::OpKind::Scan) {
            EMBARK_TRY(need("body"));
        } else {
            return fail(ErrorKind::Unsupported, "node '" + node.name + "'" + in + " (" + node.onnxType +
                                                    ") has a graph attribute, which Embark supports only on If, "
                                                    "Loop and Scan");
        }
        if (node.op == ir::OpKind::Scan && m_checks.opset() < 9) {
            node.attrs["embark_scan8"] = int64_t{1};
            auto it = node.attrs.find("directions");
            if (it != node.attrs.end()) {
                node.attrs["scan_input_directions"] = it->second;
                node.attrs.erase(it);
            }
        }
        std::vector<ir::Value*> inputs = node.inputs;
        for (const std::string& outer : outerNames) inputs.push_back(lookup(scope, outer));
        ir::Node* n = graph.addNode(node.op, node.name, inputs, node.outputs);
        n->attrs = std::move(node.attrs);
        n->provenance = std::move(node.provenance);
        n->subgraphs = std::move(bodies);
        n->outerNames = outerNames;
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
        for (const ir::Value* v : m_graph.values())
            missing = missing || (m_unknownShape.count(v) && (v->uses().size() || v->isGraphOutput()));
        // Past a placeholder, shapes the ONNX inference left unknown stay so in the preview
        // (propagating through a placeholder would make them up).
        if (missing && !m_placeholders) {
            if (Status s = reference::propagateShapes(m_graph, m_options.shapeSample); !s)
                return fail(s.error().kind, "cannot determine every tensor shape: " + s.error().message);
        }
        for (const ir::Value* v : m_graph.values())
            if (!v->shape.checkedNumel() && !m_placeholders)
                return fail(ErrorKind::InvalidInput, "value '" + v->name + "' has shape " + v->shape.str() +
                                                         ", whose element count is negative or overflows");
        if (Status s = checkQuantizationParams(m_graph); !s) return fail(s.error().kind, s.error().message);
        auto& md = m_graph.metadata;
        md["producer"] =
            m_model.producer_name() + (m_model.producer_version().empty() ? "" : " " + m_model.producer_version());
        md["ir_version"] = std::to_string(m_model.ir_version());
        md["opset"] = std::to_string(m_checks.opset());
        // The model's own "embark.*" metadata_props are hints to Embark's passes (e.g.
        // exporter::kStandsForInnerNodes, which bench/ops sets on its single-op models).
        for (const auto& prop : m_model.metadata_props())
            if (prop.key().rfind("embark.", 0) == 0) md[prop.key()] = prop.value();
        md["sha256"] =
            QCryptographicHash::hash(QByteArray::fromRawData(bytes.data(), static_cast<qsizetype>(bytes.size())),
                                     QCryptographicHash::Sha256)
                .toHex()
                .toStdString();
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
    if (!info.exists()) return makeError(ErrorKind::InvalidInput, path + ": no such file; check the model path");
    if (info.isDir()) return makeError(ErrorKind::InvalidInput, path + " is a directory, not an ONNX model file");
    QFile file(info.filePath());
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorKind::InvalidInput,
                         path + ": cannot read the file (" + file.errorString().toStdString() + ")");
    const QByteArray data = file.readAll();
    auto graph = importModelFromBytes(data.toStdString(), info.absolutePath().toStdString(), path, options);
    if (graph) {
        graph->metadata["path"] = info.absoluteFilePath().toStdString();
        graph->metadata["model_name"] = info.completeBaseName().toStdString();
    }
    return graph;
}

// The ONNX op types a model may use: the int8 operators fuse_qdq makes (QConv, QAdd, ...) are
// Embark's own and not listed.
std::vector<std::string> supportedOnnxOps() {
    std::vector<std::string> names;
    for (const std::string& name : onnxOpTypes())
        if (auto op = ir::opFromName(name); !op || !ir::isFusedQuantized(*op)) names.push_back(name);
    return names;
}

} // namespace embark::onnx

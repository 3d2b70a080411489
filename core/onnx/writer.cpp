#include "writer.h"

#include "ir/fused.h"
#include "op_table.h"
#include "proto_tensor.h"

#include <onnx/onnx_pb.h>

#include <QFileInfo>
#include <QSaveFile>

namespace embark::onnx {
namespace {
namespace pb = ::onnx;

constexpr int kIrVersion = 8;
constexpr int kOpset = 17;

void setType(const ir::Value& v, pb::ValueInfoProto* info) {
    info->set_name(v.name);
    auto* tt = info->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnxDType(v.dtype));
    auto* shape = tt->mutable_shape();
    for (int64_t d : v.shape.dims()) shape->add_dim()->set_dim_value(d);
}

void setAttribute(const std::string& name, const ir::Attribute& a, pb::AttributeProto* out) {
    out->set_name(name);
    struct Visitor {
        pb::AttributeProto* out;
        void operator()(int64_t v) const {
            out->set_type(pb::AttributeProto::INT);
            out->set_i(v);
        }
        void operator()(float v) const {
            out->set_type(pb::AttributeProto::FLOAT);
            out->set_f(v);
        }
        void operator()(const std::string& v) const {
            out->set_type(pb::AttributeProto::STRING);
            out->set_s(v);
        }
        void operator()(const std::vector<int64_t>& v) const {
            out->set_type(pb::AttributeProto::INTS);
            for (int64_t x : v) out->add_ints(x);
        }
        void operator()(const std::vector<float>& v) const {
            out->set_type(pb::AttributeProto::FLOATS);
            for (float x : v) out->add_floats(x);
        }
        void operator()(const std::vector<std::string>& v) const {
            out->set_type(pb::AttributeProto::STRINGS);
            for (const auto& x : v) out->add_strings(x);
        }
        void operator()(const ir::Tensor& t) const {
            out->set_type(pb::AttributeProto::TENSOR);
            tensorToProto(t, "", out->mutable_t());
        }
    };
    std::visit(Visitor{out}, a);
}

void writeGraph(const ir::Graph& graph, pb::GraphProto* g, bool* usesEmbarkDomain);

// A control-flow node's bodies as graph attributes. Its implicit inputs are not ONNX inputs:
// the bodies read them by name, so one renamed by a pass is first copied to that name.
void writeBodies(const ir::Node& n, pb::GraphProto* g, pb::NodeProto* node, bool* usesEmbarkDomain) {
    for (const ir::Subgraph& s : n.subgraphs) {
        auto* a = node->add_attribute();
        a->set_name(s.attr);
        a->set_type(pb::AttributeProto::GRAPH);
        writeGraph(*s.graph, a->mutable_g(), usesEmbarkDomain);
    }
    const size_t own = n.explicitInputCount();
    for (size_t j = 0; j < n.outerNames.size(); ++j) {
        const ir::Value* v = n.input(own + j);
        if (!v || v->name == n.outerNames[j]) continue;
        auto* copy = g->add_node();
        copy->set_name(n.name + "_outer_" + n.outerNames[j]);
        copy->set_op_type("Identity");
        copy->add_input(v->name);
        copy->add_output(n.outerNames[j]);
    }
}

void writeGraph(const ir::Graph& graph, pb::GraphProto* g, bool* usesEmbarkDomain) {
    g->set_name(graph.name.empty() ? "embark" : graph.name);
    for (const ir::Value* v : graph.values())
        if (v->isConstant()) tensorToProto(v->constant, v->name, g->add_initializer());
    for (const ir::Value* v : graph.inputs()) setType(*v, g->add_input());
    for (const ir::Value* v : graph.outputs()) setType(*v, g->add_output());
    for (const ir::Value* v : graph.values())
        if (!v->isConstant() && !v->isGraphInput() && !v->isGraphOutput() && v->producer())
            setType(*v, g->add_value_info());

    for (const ir::Node* n : graph.nodes()) {
        pb::NodeProto node;
        node.set_name(n->name);
        if (ir::fusedActivation(*n)) {
            // Standard ONNX has no fused activations; the embark domain carries them.
            node.set_domain(kEmbarkDomain);
            node.set_op_type(std::string(kFusedPrefix) + onnxOpType(n->op));
            *usesEmbarkDomain = true;
        } else {
            node.set_op_type(onnxOpType(n->op));
        }
        for (size_t i = 0; i < n->explicitInputCount(); ++i) node.add_input(n->input(i) ? n->input(i)->name : "");
        // Trailing absent inputs are dropped; absent ones in the middle stay as "".
        while (node.input_size() && node.input(node.input_size() - 1).empty()) node.mutable_input()->RemoveLast();
        for (const ir::Value* out : n->outputs()) node.add_output(out ? out->name : "");
        for (const auto& [name, value] : n->attrs) setAttribute(name, value, node.add_attribute());
        writeBodies(*n, g, &node, usesEmbarkDomain);
        if (n->provenance != std::vector<std::string>{n->name}) {
            std::string doc = kProvenanceTag;
            for (const auto& p : n->provenance) doc += "\n" + p;
            node.set_doc_string(doc);
        }
        *g->add_node() = std::move(node);
    }
}
} // namespace

Expected<std::string> serializeModel(const ir::Graph& graph) {
    pb::ModelProto model;
    model.set_ir_version(kIrVersion);
    model.set_producer_name("embark");
    model.set_producer_version(EMBARK_VERSION);
    auto* opset = model.add_opset_import();
    opset->set_domain("");
    opset->set_version(kOpset);
    bool usesEmbarkDomain = false;
    writeGraph(graph, model.mutable_graph(), &usesEmbarkDomain);
    if (usesEmbarkDomain) {
        auto* embark = model.add_opset_import();
        embark->set_domain(kEmbarkDomain);
        embark->set_version(1);
    }
    std::string bytes;
    if (!model.SerializeToString(&bytes))
        return makeError(ErrorKind::InvalidInput,
                         "cannot serialise graph '" + graph.name + "' to ONNX (protobuf messages are limited to 2 GB)");
    return bytes;
}

Status writeModel(const ir::Graph& graph, const std::string& path) {
    auto bytes = serializeModel(graph);
    if (!bytes) return bytes.error();
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly))
        return makeError(ErrorKind::External, path + ": cannot write (" + file.errorString().toStdString() + ")");
    // flush() first: Qt 6.4's commit() ignores an error of the final buffered write (disk
    // full) and would replace the old file with a truncated one.
    if (file.write(bytes->data(), static_cast<qint64>(bytes->size())) != static_cast<qint64>(bytes->size()) ||
        !file.flush() || !file.commit())
        return makeError(ErrorKind::External, path + ": cannot write (" + file.errorString().toStdString() + ")");
    return {};
}

} // namespace embark::onnx

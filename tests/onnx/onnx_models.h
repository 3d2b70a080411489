// Builds small ONNX ModelProtos in code for the core/onnx tests (good models, bad models
// and the same computation written for different opsets), so no binary fixture is needed.
#pragma once

#include "ir/tensor.h"

#include <onnx/onnx_pb.h>

#include <QFile>
#include <QString>

#include <string>
#include <vector>

namespace embark::test {

namespace pb = ::onnx;

class ProtoModel {
public:
    explicit ProtoModel(int opset = 13) {
        m.set_ir_version(opset >= 15 ? 8 : 7);
        m.set_producer_name("tst_onnx");
        auto* imp = m.add_opset_import();
        imp->set_domain("");
        imp->set_version(opset);
        m.mutable_graph()->set_name("test_graph");
    }

    // A dim of -1 becomes the symbolic dimension "batch".
    pb::ValueInfoProto* input(const std::string& name, std::vector<int64_t> dims, int elem = pb::TensorProto::FLOAT) {
        auto* vi = m.mutable_graph()->add_input();
        setType(vi, name, dims, elem, true);
        return vi;
    }
    // The checker wants a shape on outputs; its dims stay unknown for inference to fill.
    void output(const std::string& name, int rank, int elem = pb::TensorProto::FLOAT) {
        setType(m.mutable_graph()->add_output(), name, std::vector<int64_t>(static_cast<size_t>(rank), -2), elem, true);
    }
    pb::TensorProto* initializer(const std::string& name, const ir::Tensor& t) {
        auto* init = m.mutable_graph()->add_initializer();
        toProto(t, name, init);
        return init;
    }
    pb::NodeProto* node(const std::string& op, const std::vector<std::string>& ins,
                        const std::vector<std::string>& outs, const std::string& name = "") {
        auto* n = m.mutable_graph()->add_node();
        n->set_op_type(op);
        if (!name.empty()) n->set_name(name);
        for (const auto& i : ins) n->add_input(i);
        for (const auto& o : outs) n->add_output(o);
        return n;
    }
    std::string bytes() const { return m.SerializeAsString(); }
    bool save(const QString& path) const {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) return false;
        const std::string b = bytes();
        return f.write(b.data(), static_cast<qint64>(b.size())) == static_cast<qint64>(b.size());
    }

    static void toProto(const ir::Tensor& t, const std::string& name, pb::TensorProto* p) {
        p->set_name(name);
        p->set_data_type(dtypeOf(t.dtype()));
        for (int64_t d : t.shape().dims()) p->add_dims(d);
        p->set_raw_data(t.data(), t.byteSize());
    }
    static int dtypeOf(ir::DType d) {
        switch (d) {
        case ir::DType::Float32: return pb::TensorProto::FLOAT;
        case ir::DType::Int64: return pb::TensorProto::INT64;
        case ir::DType::Float16: return pb::TensorProto::FLOAT16;
        case ir::DType::Bool: return pb::TensorProto::BOOL;
        case ir::DType::Int32: return pb::TensorProto::INT32;
        case ir::DType::Int8: return pb::TensorProto::INT8;
        case ir::DType::UInt8: return pb::TensorProto::UINT8;
        default: return pb::TensorProto::UNDEFINED;
        }
    }

    pb::ModelProto m;

private:
    static void setType(pb::ValueInfoProto* vi, const std::string& name, const std::vector<int64_t>& dims, int elem,
                        bool withShape) {
        vi->set_name(name);
        auto* tt = vi->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(elem);
        if (!withShape) return;
        auto* shape = tt->mutable_shape();
        for (int64_t d : dims) {
            if (d == -2)
                shape->add_dim();
            else if (d == -1)
                shape->add_dim()->set_dim_param("batch");
            else
                shape->add_dim()->set_dim_value(d);
        }
    }
};

inline void attrInts(pb::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(pb::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
}
inline void attrInt(pb::NodeProto* n, const std::string& name, int64_t v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(pb::AttributeProto::INT);
    a->set_i(v);
}
inline void attrFloat(pb::NodeProto* n, const std::string& name, float v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(pb::AttributeProto::FLOAT);
    a->set_f(v);
}
inline void attrFloats(pb::NodeProto* n, const std::string& name, const std::vector<float>& v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(pb::AttributeProto::FLOATS);
    for (float x : v) a->add_floats(x);
}
inline void attrString(pb::NodeProto* n, const std::string& name, const std::string& v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(pb::AttributeProto::STRING);
    a->set_s(v);
}
inline void attrTensor(pb::NodeProto* n, const std::string& name, const ir::Tensor& t) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(pb::AttributeProto::TENSOR);
    ProtoModel::toProto(t, "", a->mutable_t());
}

inline ir::Tensor ramp(ir::Shape shape, float scale = 0.1f) {
    std::vector<float> v(static_cast<size_t>(shape.numel()));
    for (size_t i = 0; i < v.size(); ++i) v[i] = scale * static_cast<float>((static_cast<int>(i) * 7) % 13 - 6);
    return ir::Tensor::fromFloats(std::move(shape), v);
}

// x[1,3,8,8] -> Conv(4 filters, 3x3, pad 1) -> Relu -> GlobalAveragePool -> Flatten -> Softmax
// -> y[1,4]; the bias is a Constant node, as some exporters write every weight.
inline ProtoModel convModel(int opset = 13) {
    ProtoModel p(opset);
    p.input("x", {1, 3, 8, 8});
    p.initializer("w", ramp(ir::Shape{4, 3, 3, 3}));
    auto* bias = p.node("Constant", {}, {"b"}, "bias_const");
    attrTensor(bias, "value", ir::Tensor::fromFloats(ir::Shape{4}, {0.1f, -0.2f, 0.3f, 0.f}));
    auto* conv = p.node("Conv", {"x", "w", "b"}, {"c"}, "conv1");
    attrInts(conv, "kernel_shape", {3, 3});
    attrInts(conv, "pads", {1, 1, 1, 1});
    p.node("Relu", {"c"}, {"r"}, "relu1");
    p.node("GlobalAveragePool", {"r"}, {"g"}, "gap");
    p.node("Flatten", {"g"}, {"f"}, "flatten");
    attrInt(p.node("Softmax", {"f"}, {"y"}, "softmax"), "axis", 1);
    p.output("y", 2);
    return p;
}

} // namespace embark::test

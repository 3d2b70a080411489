// LSTM, GRU and RNN in the reference interpreter, on the cases ONNX's node tests miss
// (tests/data/recurrent, made by make_cases.py there, expected outputs from ONNX Runtime):
// bidirectional with per-row lengths, layout 1, clip, peepholes, input_forget,
// linear_before_reset, every non-default activation; and the importer's refusals.
#include "ir/recurrent.h"
#include "onnx/importer.h"
#include "onnx/tensor_io.h"
#include "reference/interpreter.h"
#include "support/test_paths.h"

#include <QDir>
#include <QTest>

#include <onnx/onnx_pb.h>

#include <cmath>

using namespace embark;

namespace {

// ONNX Runtime computes in float32; the reference in double.
constexpr double kTol = 1e-5;

std::string compare(const ir::Tensor& got, const ir::Tensor& want) {
    if (got.shape() != want.shape()) return "shape " + got.shape().str() + ", expected " + want.shape().str();
    for (int64_t i = 0; i < want.numel(); ++i)
        if (!(std::fabs(got.at(i) - want.at(i)) <= kTol * (1 + std::fabs(want.at(i)))))
            return "element " + std::to_string(i) + " is " + std::to_string(got.at(i)) + ", ONNX Runtime gives " +
                   std::to_string(want.at(i));
    return {};
}

// A one-node model: X -> op -> Y_h, W and R as initializers, with the given attributes.
std::string oneNodeModel(const std::string& op, int gates, const std::vector<::onnx::AttributeProto>& attrs) {
    ::onnx::ModelProto m;
    m.set_ir_version(7);
    m.add_opset_import()->set_version(14);
    auto* g = m.mutable_graph();
    g->set_name("rnn");
    auto tensor = [&](const char* name, std::vector<int64_t> dims) {
        auto* t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(::onnx::TensorProto::FLOAT);
        int64_t n = 1;
        for (int64_t d : dims) {
            t->add_dims(d);
            n *= d;
        }
        for (int64_t i = 0; i < n; ++i) t->add_float_data(0.1f);
    };
    tensor("W", {1, gates * 2, 3});
    tensor("R", {1, gates * 2, 2});
    auto io = [](::onnx::ValueInfoProto* v, const char* name, std::vector<int64_t> dims) {
        v->set_name(name);
        auto* tt = v->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(::onnx::TensorProto::FLOAT);
        for (int64_t d : dims) tt->mutable_shape()->add_dim()->set_dim_value(d);
    };
    io(g->add_input(), "X", {4, 1, 3});
    io(g->add_output(), "Y_h", {1, 1, 2});
    auto* n = g->add_node();
    n->set_op_type(op);
    n->set_name("layer");
    for (const char* in : {"X", "W", "R"}) n->add_input(in);
    n->add_output("");
    n->add_output("Y_h");
    for (const auto& a : attrs) *n->add_attribute() = a;
    return m.SerializeAsString();
}

::onnx::AttributeProto stringsAttr(const char* name, std::vector<std::string> v) {
    ::onnx::AttributeProto a;
    a.set_name(name);
    a.set_type(::onnx::AttributeProto::STRINGS);
    for (const auto& s : v) a.add_strings(s);
    return a;
}

::onnx::AttributeProto stringAttr(const char* name, const std::string& v) {
    ::onnx::AttributeProto a;
    a.set_name(name);
    a.set_type(::onnx::AttributeProto::STRING);
    a.set_s(v);
    return a;
}

} // namespace

class TestRecurrent : public QObject {
    Q_OBJECT

private slots:
    void matchesOnnxRuntime_data() {
        QTest::addColumn<QString>("dir");
        const QDir root(test::testDataDir() + "/recurrent");
        for (const QString& name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            QTest::newRow(qPrintable(name)) << root.filePath(name);
        QVERIFY(QDir(root).exists());
    }

    void matchesOnnxRuntime() {
        QFETCH(QString, dir);
        auto graph = embark::onnx::importModel((dir + "/model.onnx").toStdString());
        QVERIFY2(graph, graph ? "" : graph.error().message.c_str());
        auto data = embark::onnx::readTestDataSet((dir + "/test_data_set_0").toStdString());
        QVERIFY2(data, data ? "" : data.error().message.c_str());
        // X, and the initial states where the case makes them model inputs.
        const std::map<std::string, ir::Tensor> inputs = embark::onnx::pairTestSetInputs(*graph, data->inputs);
        auto r = reference::run(*graph, inputs);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->outputs.size(), data->outputs.size());
        for (size_t k = 0; k < r->outputs.size(); ++k) {
            const std::string why = compare(r->outputs[k], data->outputs[k].tensor);
            QVERIFY2(why.empty(), (r->outputNames[k] + ": " + why).c_str());
            // The graph's value carries the inferred shape too (the plan and the export read it).
            QCOMPARE(graph->outputs()[k]->shape, data->outputs[k].tensor.shape());
        }
    }

    // Every activation of ONNX's list, with its alpha/beta where it takes them.
    void activations() {
        ir::Graph g;
        ir::Value* x = g.addValue("x", ir::DType::Float32, ir::Shape{1});
        ir::Node* n = g.addNode(ir::OpKind::RNN, "n", {x}, {});
        n->attrs["direction"] = std::string("bidirectional");
        n->attrs["activations"] = std::vector<std::string>{"affine", "ScaledTanh"};
        n->attrs["activation_alpha"] = std::vector<float>{2.f, 0.5f};
        n->attrs["activation_beta"] = std::vector<float>{1.f, 3.f};
        auto s = ir::recurrentSpec(*n, 4);
        QVERIFY2(s, s ? "" : s.error().message.c_str());
        QCOMPARE(s->hidden, int64_t{4});
        QCOMPARE(s->activation(0, 0).apply(1.0), 3.0);                  // 2x + 1
        QCOMPARE(s->activation(1, 0).apply(1.0), 0.5 * std::tanh(3.0)); // alpha tanh(beta x)
        // Defaults: the ONNX operators' (LeakyRelu 0.01, HardSigmoid 0.2/0.5, Elu 1).
        n->attrs["activations"] = std::vector<std::string>{"LeakyRelu", "HardSigmoid"};
        n->attrs.erase("activation_alpha");
        n->attrs.erase("activation_beta");
        s = ir::recurrentSpec(*n, 4);
        QVERIFY(s);
        QVERIFY(std::fabs(s->activation(0, 0).apply(-1.0) + 0.01) < 1e-7);
        QVERIFY(std::fabs(s->activation(1, 0).apply(1.0) - 0.7) < 1e-7);
        // One list for both directions.
        n->attrs["activations"] = std::vector<std::string>{"Relu"};
        s = ir::recurrentSpec(*n, 4);
        QVERIFY2(s, s ? "" : s.error().message.c_str());
        QCOMPARE(s->activations.size(), size_t{2});
    }

    void refusals_data() {
        QTest::addColumn<QByteArray>("model");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown activation")
            << QByteArray::fromStdString(oneNodeModel("GRU", 3, {stringsAttr("activations", {"Sigmoid", "Swish"})}))
            << int(ErrorKind::Unsupported) << "activation 'Swish' is not one of the ONNX recurrent activations";
        QTest::newRow("activation count")
            << QByteArray::fromStdString(oneNodeModel("LSTM", 4, {stringsAttr("activations", {"Sigmoid", "Tanh"})}))
            << int(ErrorKind::InvalidInput) << "has 2 activations; LSTM takes 3 per direction";
        QTest::newRow("direction") << QByteArray::fromStdString(
                                          oneNodeModel("RNN", 1, {stringAttr("direction", "sideways")}))
                                   << int(ErrorKind::InvalidInput)
                                   << "direction 'sideways' is not one of forward, reverse, bidirectional";
    }

    void refusals() {
        QFETCH(QByteArray, model);
        QFETCH(int, kind);
        QFETCH(QString, message);
        auto g = embark::onnx::importModelFromBytes(model.toStdString(), ".", "rnn.onnx");
        QVERIFY(!g);
        QCOMPARE(int(g.error().kind), kind);
        QVERIFY2(QString::fromStdString(g.error().message).contains(message), g.error().message.c_str());
        QVERIFY2(QString::fromStdString(g.error().message).contains("'layer'"), g.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRecurrent)
#include "tst_recurrent.moc"

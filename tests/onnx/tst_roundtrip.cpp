// Writer round trip: import -> write -> import gives the same graph (nodes, ops, attributes,
// constants, provenance) and the same reference outputs; fused activations travel through the
// "embark" domain; written files pass the ONNX checker.
#include "ir/fused.h"
#include "onnx/importer.h"
#include "onnx/writer.h"
#include "onnx_models.h"
#include "reference/interpreter.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include <onnx/checker.h>

#include <QTemporaryDir>
#include <QtTest>

using namespace embark;
using namespace embark::test;

namespace {
std::string attrText(const ir::Attribute& a) {
    if (auto t = std::get_if<ir::Tensor>(&a)) {
        const auto v = t->toFloatVector();
        std::string s = ir::attributeToString(a);
        for (float x : v) s += " " + std::to_string(x);
        return s;
    }
    return ir::attributeToString(a);
}

// Empty when equal, else what differs.
QString graphDifference(const ir::Graph& a, const ir::Graph& b) {
    if (a.nodeCount() != b.nodeCount()) return QString("node counts %1 vs %2").arg(a.nodeCount()).arg(b.nodeCount());
    const auto na = a.nodes(), nb = b.nodes();
    for (size_t i = 0; i < na.size(); ++i) {
        const ir::Node* x = na[i];
        const ir::Node* y = nb[i];
        const QString where = QString::fromStdString(x->name);
        if (x->name != y->name || x->op != y->op) return "node " + where + " differs in name or op";
        if (x->provenance != y->provenance) return "node " + where + " differs in provenance";
        if (x->attrs.size() != y->attrs.size()) return "node " + where + " differs in attribute count";
        for (const auto& [k, v] : x->attrs) {
            auto it = y->attrs.find(k);
            if (it == y->attrs.end() || attrText(v) != attrText(it->second) || v.index() != it->second.index())
                return "node " + where + " differs in attribute " + QString::fromStdString(k);
        }
        if (x->inputs().size() != y->inputs().size()) return "node " + where + " differs in input count";
        for (size_t k = 0; k < x->inputs().size(); ++k) {
            const ir::Value* u = x->input(k);
            const ir::Value* w = y->input(k);
            if ((u == nullptr) != (w == nullptr)) return "node " + where + " differs in absent inputs";
            if (!u) continue;
            if (u->name != w->name || u->shape != w->shape || u->dtype != w->dtype)
                return "input " + QString::fromStdString(u->name) + " differs";
            if (u->isConstant() != w->isConstant() || (u->isConstant() && !u->constant.identical(w->constant)))
                return "constant " + QString::fromStdString(u->name) + " differs";
        }
    }
    if (a.inputs().size() != b.inputs().size() || a.outputs().size() != b.outputs().size())
        return "graph inputs/outputs differ";
    return {};
}

Expected<ir::Graph> reimport(const ir::Graph& g) {
    auto bytes = embark::onnx::serializeModel(g);
    if (!bytes) return bytes.error();
    return embark::onnx::importModelFromBytes(*bytes, "", "roundtrip.onnx");
}

void checkSameOutputs(const ir::Graph& a, const ir::Graph& b) {
    const auto inputs = randomInputs(a);
    auto ra = reference::run(a, inputs);
    auto rb = reference::run(b, inputs);
    QVERIFY2(ra.ok(), ra.ok() ? "" : ra.error().message.c_str());
    QVERIFY2(rb.ok(), rb.ok() ? "" : rb.error().message.c_str());
    for (size_t i = 0; i < ra->outputs.size(); ++i) QVERIFY(ra->outputs[i].identical(rb->outputs[i]));
}
} // namespace

class TstRoundTrip : public QObject {
    Q_OBJECT

private slots:
    void convModelRoundTrips() {
        auto first = embark::onnx::importModelFromBytes(convModel().bytes(), "", "conv.onnx");
        QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
        auto bytes = embark::onnx::serializeModel(*first);
        QVERIFY(bytes.ok());
        pb::ModelProto written;
        QVERIFY(written.ParseFromString(*bytes));
        pb::checker::check_model(written); // throws (and fails the test) when invalid
        QCOMPARE(written.opset_import(0).version(), int64_t(17));
        QCOMPARE(written.graph().initializer_size(), 2); // w and the former Constant node b
        auto second = reimport(*first);
        QVERIFY2(second.ok(), second.ok() ? "" : second.error().message.c_str());
        const QString diff = graphDifference(*first, *second);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        checkSameOutputs(*first, *second);
    }

    void fusedActivationGoesThroughEmbarkDomain() {
        GraphBuilder b("fused");
        ir::Value* x = b.input("x", ir::Shape{1, 2, 5, 5});
        ir::Value* y =
            b.op(ir::OpKind::Conv, {x, b.weights("w", ir::Shape{3, 2, 3, 3}), b.weights("bias", ir::Shape{3})},
                 {{"kernel_shape", std::vector<int64_t>{3, 3}}}, "conv");
        b.output(y);
        ir::Graph g = b.build();
        ir::Node* conv = g.findNode("conv");
        ir::FusedActivation act;
        act.op = ir::OpKind::Clip;
        act.min = 0.f;
        act.max = 6.f;
        ir::setFusedActivation(*conv, act);
        conv->provenance = {"conv", "clip6"};

        auto bytes = embark::onnx::serializeModel(g);
        QVERIFY(bytes.ok());
        pb::ModelProto written;
        QVERIFY(written.ParseFromString(*bytes));
        pb::checker::check_model(written);
        QCOMPARE(written.graph().node(0).domain(), std::string("embark"));
        QCOMPARE(written.graph().node(0).op_type(), std::string("FusedConv"));
        bool importsEmbark = false;
        for (const auto& imp : written.opset_import()) importsEmbark = importsEmbark || imp.domain() == "embark";
        QVERIFY(importsEmbark);

        auto back = reimport(g);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        const QString diff = graphDifference(g, *back);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        const auto fused = ir::fusedActivation(*back->findNode("conv"));
        QVERIFY(fused && fused->op == ir::OpKind::Clip && fused->max == 6.f);
        checkSameOutputs(g, *back);
    }

    void writesAtomicallyToAFile() {
        QTemporaryDir dir;
        auto g = embark::onnx::importModelFromBytes(convModel().bytes(), "", "conv.onnx");
        QVERIFY(g.ok());
        const std::string path = dir.filePath("out.onnx").toStdString();
        QVERIFY(embark::onnx::writeModel(*g, path).ok());
        auto back = embark::onnx::importModel(path);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QVERIFY(graphDifference(*g, *back).isEmpty());
        const Status bad = embark::onnx::writeModel(*g, dir.filePath("no/such/folder/out.onnx").toStdString());
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().kind == ErrorKind::External);
    }

    void sharedModelsRoundTrip_data() {
        QTest::addColumn<QString>("model");
        for (const char* m : {"lenet5", "digits", "squeezenet1_1", "mobilenet_v2", "resnet18"}) QTest::newRow(m) << m;
    }

    void sharedModelsRoundTrip() {
        EMBARK_REQUIRE_SHARED_MODELS();
        QFETCH(QString, model);
        auto first = embark::onnx::importModel(sharedModel(model).toStdString());
        QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
        auto second = reimport(*first);
        QVERIFY2(second.ok(), second.ok() ? "" : second.error().message.c_str());
        const QString diff = graphDifference(*first, *second);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }
};

QTEST_GUILESS_MAIN(TstRoundTrip)
#include "tst_roundtrip.moc"

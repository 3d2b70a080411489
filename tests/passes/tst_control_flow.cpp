// If, Loop and Scan end to end on the host: the importer keeps the bodies as subgraphs (with
// outer-scope values as implicit inputs, nested bodies included), the reference runs them and
// captures body values, the passes leave bodies working, the ONNX writer round-trips them and
// the export's adaptation gives the control-flow node to the portable library, which generates
// it as code (tests/export/tst_export_control_flow.cpp runs those exports). Models: tests/data/control_flow (made by
// make_control_flow_models.py, expected outputs computed with numpy).
#include "export/adaptation.h"
#include "onnx/importer.h"
#include "onnx/tensor_io.h"
#include "onnx/writer.h"
#include "pass_test_util.h"
#include "passes/pass_manager.h"
#include "support/test_paths.h"

#include <QDir>
#include <QTest>

#include <algorithm>

using namespace embark;
using ir::OpKind;

namespace {

QString modelPath(const QString& name) { return test::testDataDir() + "/control_flow/" + name + ".onnx"; }

ir::Graph importOrFail(const QString& name) {
    auto g = onnx::importModel(modelPath(name).toStdString());
    if (!g) qFatal("%s", g.error().message.c_str());
    return std::move(*g);
}

const ir::Node* nodeOf(const ir::Graph& g, OpKind op) {
    for (const ir::Node* n : g.nodes())
        if (n->op == op) return n;
    return nullptr;
}

bool contains(const std::vector<std::string>& list, const std::string& s) {
    return std::find(list.begin(), list.end(), s) != list.end();
}

// Empty when every output of `graph` on test_data_set `set` is within 1e-5 of the expected.
QString checkDataSet(const ir::Graph& graph, const QString& set) {
    auto data = onnx::readTestDataSet(set.toStdString());
    if (!data) return QString::fromStdString(data.error().message);
    auto result = reference::run(graph, onnx::pairTestSetInputs(graph, data->inputs));
    if (!result) return QString::fromStdString(result.error().message);
    if (result->outputs.size() != data->outputs.size()) return "output count differs";
    for (size_t k = 0; k < data->outputs.size(); ++k) {
        if (result->outputs[k].shape() != data->outputs[k].tensor.shape())
            return QString::fromStdString("output " + result->outputNames[k] + " is " +
                                          result->outputs[k].shape().str() + ", expected " +
                                          data->outputs[k].tensor.shape().str());
        const double d = test::relativeMaxDiff(result->outputs[k], data->outputs[k].tensor);
        if (d > 1e-5) return QString("output %1 differs by %2").arg(k).arg(d);
    }
    return {};
}

// x -> Identity -> y; If(cond) with then = Relu(y), else = Neg(y): the branches read y from
// the enclosing graph, so removing the Identity renames their outer value.
ir::Graph ifReadingIdentity() {
    ir::Graph g;
    g.name = "if_identity";
    ir::Value* x = g.addValue("x", ir::DType::Float32, ir::Shape{2, 3});
    ir::Value* cond = g.addValue("cond", ir::DType::Bool, ir::Shape{});
    g.addInput(x);
    g.addInput(cond);
    ir::Value* y = g.addValue("y", ir::DType::Float32, ir::Shape{2, 3});
    g.addNode(OpKind::Identity, "copy", {x}, {y});
    auto branch = [](const char* name, OpKind op) {
        auto b = std::make_shared<ir::Graph>();
        b->name = name;
        ir::Value* outer = b->addValue("y", ir::DType::Float32, ir::Shape{2, 3});
        b->addOuterScopeValue(outer);
        ir::Value* out = b->addValue(std::string(name) + "_out", ir::DType::Float32, ir::Shape{2, 3});
        b->addNode(op, std::string(name) + "_op", {outer}, {out});
        b->addOutput(out);
        return b;
    };
    ir::Value* z = g.addValue("z", ir::DType::Float32, ir::Shape{2, 3});
    ir::Node* n = g.addNode(OpKind::If, "choose", {cond, y}, {z});
    n->subgraphs = {{"then_branch", branch("then", OpKind::Relu)}, {"else_branch", branch("else", OpKind::Neg)}};
    n->outerNames = {"y"};
    g.addOutput(z);
    return g;
}

ir::Tensor boolScalar(bool b) {
    ir::Tensor t(ir::DType::Bool, ir::Shape{});
    *t.mutableAs<uint8_t>() = b;
    return t;
}

} // namespace

class TestControlFlow : public QObject {
    Q_OBJECT
private slots:
    void importKeepsBodies() {
        const ir::Graph g = importOrFail("if_sample_rate");
        const ir::Node* n = nodeOf(g, OpKind::If);
        QVERIFY(n);
        QCOMPARE(n->name, std::string("by_rate"));
        QCOMPARE(n->subgraphs.size(), size_t(2));
        QVERIFY(n->subgraph("then_branch") && n->subgraph("else_branch"));
        QCOMPARE(n->explicitInputCount(), size_t(1));
        for (const char* outer : {"audio", "w16", "w8", "bias"}) QVERIFY2(contains(n->outerNames, outer), outer);
        // the implicit inputs are real uses of the outer values
        const ir::Value* audio = g.findValue("audio");
        QVERIFY(std::any_of(audio->uses().begin(), audio->uses().end(), [&](const ir::Use& u) { return u.node == n; }));
        const ir::Graph* then = n->subgraph("then_branch");
        QVERIFY(then->findValue("audio")->isOuterScope());
        QVERIFY(then->findNode("then_matmul"));
        QCOMPARE(then->findNode("then_matmul")->provenance, std::vector<std::string>{"then_matmul"});
        QVERIFY(g.validate().ok() && then->validate().ok());
    }

    void importNestedOuterScope() {
        const ir::Graph g = importOrFail("loop_recurrence");
        const ir::Node* loop = nodeOf(g, OpKind::Loop);
        QVERIFY(loop);
        // x is read only by the If inside the body, two scopes down: the Loop reads it too
        QVERIFY(contains(loop->outerNames, "x"));
        QVERIFY(contains(loop->outerNames, "w"));
        const ir::Graph* body = loop->subgraph("body");
        QVERIFY(body);
        QCOMPARE(body->inputs().size(), size_t(3));
        const ir::Node* inner = nodeOf(*body, OpKind::If);
        QVERIFY(inner);
        QVERIFY(contains(inner->outerNames, "x"));
        QVERIFY(contains(inner->outerNames, "hw"));
        QVERIFY(body->findValue("x")->isOuterScope());
        QVERIFY(!body->findValue("hw")->isOuterScope());
        QCOMPARE(g.findValue("h_all")->shape, ir::Shape({5, 1, 4}));
    }

    void referenceMatchesExpected_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("set");
        QTest::newRow("if 16 kHz (then)") << "if_sample_rate"
                                          << "test_data_set_0";
        QTest::newRow("if 8 kHz (else)") << "if_sample_rate"
                                         << "test_data_set_1";
        QTest::newRow("loop with nested if") << "loop_recurrence"
                                             << "test_data_set_0";
    }
    void referenceMatchesExpected() {
        QFETCH(QString, model);
        QFETCH(QString, set);
        const ir::Graph g = importOrFail(model);
        const QString why = checkDataSet(g, test::testDataDir() + "/control_flow/" + model + "/" + set);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void referenceCapturesBodyValues() {
        const ir::Graph g = importOrFail("loop_recurrence");
        auto data = onnx::readTestDataSet(
            (test::testDataDir() + "/control_flow/loop_recurrence/test_data_set_0").toStdString());
        QVERIFY(data.ok());
        auto values = reference::runAllValues(g, onnx::pairTestSetInputs(g, data->inputs));
        QVERIFY2(values.ok(), values.ok() ? "" : values.error().message.c_str());
        QVERIFY(values->count("h_all"));
        // the last iteration (4, even) took the then branch of the nested If
        QVERIFY(values->count("recur/body/h_out"));
        QVERIFY(values->count("recur/body/body_if/then_branch/even_out"));
        const ir::Tensor& last = values->at("recur/body/h_out");
        const ir::Tensor& all = values->at("h_all");
        for (int64_t i = 0; i < 4; ++i) QCOMPARE(last.at(i), all.at(16 + i));
    }

    void scanForms_data() {
        QTest::addColumn<QString>("node");
        QTest::newRow("opset 8, batch axis") << "test_scan_sum";
        QTest::newRow("opset 9") << "test_scan9_sum";
        QTest::newRow("loop opset 11") << "test_loop11";
        QTest::newRow("if opset 11") << "test_if";
    }
    void scanForms() {
        QFETCH(QString, node);
        const QString root = test::onnxTestDataDir();
        if (root.isEmpty()) QSKIP("/usr/share/libonnx-testdata/data is absent (Debian package libonnx-testdata)");
        auto g = onnx::importModel((root + "/node/" + node + "/model.onnx").toStdString());
        QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
        const QString why = checkDataSet(*g, root + "/node/" + node + "/test_data_set_0");
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void passesKeepBodiesWorking_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("if") << "if_sample_rate";
        QTest::newRow("loop") << "loop_recurrence";
    }
    void passesKeepBodiesWorking() {
        QFETCH(QString, model);
        const ir::Graph g = importOrFail(model);
        auto run = passes::PassManager::run(g, "default");
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().message.c_str());
        QVERIFY(run->graph.validate().ok());
        QVERIFY(nodeOf(run->graph, OpKind::If) || nodeOf(run->graph, OpKind::Loop));
        const QString dir = test::testDataDir() + "/control_flow/" + model;
        for (const QString& set : QDir(dir).entryList({"test_data_set_*"}, QDir::Dirs)) {
            const QString why = checkDataSet(run->graph, dir + "/" + set);
            QVERIFY2(why.isEmpty(), qPrintable(set + ": " + why));
        }
        QVERIFY(passes::unaccountedNodes(g, run->graph).empty());
    }

    void outerValueRenamedByAPass() {
        const ir::Graph g = ifReadingIdentity();
        QVERIFY(g.validate().ok());
        auto run = passes::PassManager::run(g, "default");
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().message.c_str());
        QCOMPARE(test::countOps(run->graph, OpKind::Identity), 0);
        const ir::Node* n = nodeOf(run->graph, OpKind::If);
        QVERIFY(n);
        QCOMPARE(n->input(1)->name, std::string("x")); // the body still calls it y
        const ir::Tensor x = ir::Tensor::fromFloats(ir::Shape{2, 3}, {-1, 2, -3, 4, -5, 6});
        for (bool c : {true, false}) {
            auto r = reference::run(run->graph, {{"x", x}, {"cond", boolScalar(c)}});
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
            for (int64_t i = 0; i < 6; ++i) QCOMPARE(r->outputs[0].at(i), c ? std::max(x.at(i), 0.0) : -x.at(i));
        }
        // the writer copies the renamed value back to the name the bodies read
        auto bytes = onnx::serializeModel(run->graph);
        QVERIFY(bytes.ok());
        auto back = onnx::importModelFromBytes(*bytes, "", "roundtrip.onnx", {});
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        auto r = reference::run(*back, {{"x", x}, {"cond", boolScalar(false)}});
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->outputs[0].at(2), 3.0);
    }

    void writerRoundTrip_data() { passesKeepBodiesWorking_data(); }
    void writerRoundTrip() {
        QFETCH(QString, model);
        const ir::Graph g = importOrFail(model);
        auto bytes = onnx::serializeModel(g);
        QVERIFY(bytes.ok());
        auto back = onnx::importModelFromBytes(*bytes, "", model.toStdString() + ".onnx", {});
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        const QString dir = test::testDataDir() + "/control_flow/" + model;
        const QString why = checkDataSet(*back, dir + "/test_data_set_0");
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void exportAdaptsControlFlowToPortable() {
        const ir::Graph g = importOrFail("if_sample_rate");
        auto a = exporter::adapt(g, exporter::AdaptationOptions{});
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
        const auto it = a->nodes.find("by_rate");
        QVERIFY(it != a->nodes.end());
        QCOMPARE(it->second.library, std::string("portable"));
        QVERIFY2(it->second.reason.find("control flow") != std::string::npos, it->second.reason.c_str());
    }

    void bodyWithUnsupportedOpIsRefused() {
        const QString root = test::onnxTestDataDir();
        if (root.isEmpty()) QSKIP("/usr/share/libonnx-testdata/data is absent (Debian package libonnx-testdata)");
        auto g = onnx::importModel((root + "/node/test_if_seq/model.onnx").toStdString());
        QVERIFY(!g.ok());
        QCOMPARE(g.error().kind, ErrorKind::Unsupported);
    }
};

QTEST_GUILESS_MAIN(TestControlFlow)
#include "tst_control_flow.moc"

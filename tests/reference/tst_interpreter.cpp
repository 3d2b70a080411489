// The reference interpreter's run API: input validation (missing, extra, wrong dtype or
// shape), captured intermediates, shape propagation, dtype support and op coverage.
#include "op_test_util.h"

#include "ir/fused.h"

using namespace embark;
using namespace embark::test;
using ir::DType;
using ir::OpKind;
using ir::Shape;

namespace {
// x[1x2x4x4] -> Conv(3 filters, 3x3, pad 1) -> Relu -> Flatten -> output
ir::Graph smallNet() {
    GraphBuilder b("small");
    ir::Value* x = b.input("x", {1, 2, 4, 4});
    ir::Value* conv = b.op(OpKind::Conv, {x, b.weights("w", {3, 2, 3, 3}), b.weights("b", {3})},
                           {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "conv");
    ir::Value* relu = b.op(OpKind::Relu, {conv}, {}, "relu");
    b.output(b.op(OpKind::Flatten, {relu}, {}, "flatten"));
    return b.build();
}
} // namespace

class TestInterpreter : public QObject {
    Q_OBJECT

private slots:
    void propagatesShapes() {
        ir::Graph g = smallNet();
        QCOMPARE(g.findValue("conv_out")->shape, (Shape{1, 3, 4, 4}));
        QCOMPARE(g.outputs().front()->shape, (Shape{1, 48}));
        QCOMPARE(g.outputs().front()->dtype, DType::Float32);
    }

    void runsAndCaptures() {
        ir::Graph g = smallNet();
        reference::RunOptions options;
        options.captureAll = true;
        auto r = reference::run(g, randomInputs(g), options);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->outputNames, std::vector<std::string>{"flatten_out"});
        QCOMPARE(r->outputs.front().shape(), (Shape{1, 48}));
        QCOMPARE(r->values.size(), size_t{3});
        QVERIFY(r->values.count("conv_out"));
        QVERIFY(!r->values.count("x")); // inputs are not captured
        for (float v : r->outputs.front().toFloatVector()) QVERIFY(v >= 0.f);
        auto plain = reference::run(g, randomInputs(g));
        QVERIFY(plain.ok());
        QVERIFY(plain->values.empty());
        QVERIFY(plain->outputs.front().identical(r->outputs.front()));
    }

    void badInputs_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<ir::Tensor>("tensor");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("wrong shape") << "x" << ir::Tensor(DType::Float32, {1, 2, 5, 4}) << "1x2x5x4";
        QTest::newRow("wrong dtype") << "x" << ir::Tensor(DType::Int64, {1, 2, 4, 4}) << "int64";
        QTest::newRow("missing") << "" << ir::Tensor() << "input 'x'";
        QTest::newRow("extra") << "y" << ir::Tensor(DType::Float32, {1}) << "'y' is not an input";
    }
    void badInputs() {
        QFETCH(QString, name);
        QFETCH(ir::Tensor, tensor);
        QFETCH(QString, mentions);
        ir::Graph g = smallNet();
        std::map<std::string, ir::Tensor> inputs;
        if (name == "y") inputs = randomInputs(g);
        if (!name.isEmpty()) inputs[name.toStdString()] = tensor;
        auto r = reference::run(g, inputs);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ErrorKind::InvalidInput);
        QVERIFY2(r.error().message.find(mentions.toStdString()) != std::string::npos, r.error().message.c_str());
        if (name == "x") QVERIFY(r.error().message.find("1x2x4x4") != std::string::npos);
    }

    void unsupportedDtypeNamesNodeAndDtype() {
        auto r = evalOp(OpKind::Conv, {ir::Tensor(DType::Int8, {1, 1, 3, 3}), ir::Tensor(DType::Int8, {1, 1, 1, 1})});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ErrorKind::Unsupported);
        QCOMPARE(r.error().message,
                 std::string("node 'node' (Conv): dtype int8 is not supported by the reference interpreter"));
    }

    void float64RunsThroughFloatKernels() {
        auto r = evalOp(OpKind::Softmax, {F({2}, {0, 0}).castTo(DType::Float64)});
        QVERIFY(r.ok());
        QCOMPARE(r->at(0).dtype(), DType::Float64);
        QVERIFY(closeTo(r->at(0), Shape{2}, {0.5, 0.5}));
    }

    void fusedActivationOnAdd() {
        ir::Attributes attrs;
        attrs[ir::kActivation] = std::string("Clip");
        attrs[ir::kActivationMin] = 0.f;
        attrs[ir::kActivationMax] = 6.f;
        auto r = evalOp(OpKind::Add, {F({3}, {-5, 2, 9}), F({3}, {1, 1, 1})}, attrs);
        QVERIFY(r.ok());
        QVERIFY(closeTo(r->at(0), Shape{3}, {0, 3, 6}));
        attrs[ir::kActivation] = std::string("NoSuchOp");
        QVERIFY(!evalOp(OpKind::Add, {F({1}, {1}), F({1}, {1})}, attrs).ok());
    }

    void everyOpHasAKernel() {
        for (OpKind op : ir::allOps()) QVERIFY2(reference::supports(op), std::string(ir::opName(op)).c_str());
        QCOMPARE(reference::supportedOps().size(), ir::allOps().size());
    }

    void dropoutIsIdentityWithTrueMask() {
        auto r = evalOp(OpKind::Dropout, {F({2}, {1, 2})}, {}, 2);
        QVERIFY(r.ok());
        QVERIFY(closeTo(r->at(0), Shape{2}, {1, 2}));
        QCOMPARE(r->at(1).dtype(), DType::Bool);
        QVERIFY(closeTo(r->at(1), Shape{2}, {1, 1}));
    }

    void shapeSubgraphPropagates() {
        // Shape -> Gather -> Unsqueeze -> Concat -> Reshape: the int64 path of real exports.
        GraphBuilder b;
        ir::Value* x = b.input("x", {2, 3, 4});
        ir::Value* shape = b.op(OpKind::Shape, {x});
        ir::Value* batch = b.op(OpKind::Gather, {shape, b.constant("zero", ir::Tensor::scalarInt64(0))});
        ir::Value* batch1 = b.op(OpKind::Unsqueeze, {batch, b.ints("axes", {0})});
        ir::Value* target = b.op(OpKind::Concat, {batch1, b.ints("minus1", {-1})}, {{"axis", int64_t{0}}});
        b.output(b.op(OpKind::Reshape, {x, target}));
        ir::Graph g = b.build();
        QCOMPARE(g.outputs().front()->shape, (Shape{2, 12}));
        QCOMPARE(target->dtype, DType::Int64);
    }
};

QTEST_GUILESS_MAIN(TestInterpreter)
#include "tst_interpreter.moc"

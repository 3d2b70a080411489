// Opset normalisation: the same computation written with older and newer opsets imports to
// the same IR semantics (attribute parameters become constant inputs), checked on the IR and
// by running both through the reference interpreter on the same inputs.
#include "onnx/importer.h"
#include "onnx_models.h"
#include "reference/interpreter.h"
#include "support/graph_builder.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace embark;
using namespace embark::test;

using ModelMaker = std::function<ProtoModel()>;
Q_DECLARE_METATYPE(ModelMaker)

namespace {

ir::Graph importOrFail(const ProtoModel& p, const std::string& name) {
    auto g = embark::onnx::importModelFromBytes(p.bytes(), "", name);
    if (!g) qFatal("%s: %s", name.c_str(), g.error().message.c_str());
    return std::move(*g);
}

std::vector<ir::Tensor> runOrFail(const ir::Graph& g, const std::map<std::string, ir::Tensor>& inputs) {
    auto r = reference::run(g, inputs);
    if (!r) qFatal("reference: %s", r.error().message.c_str());
    return r->outputs;
}

const ir::Node* onlyNodeOf(const ir::Graph& g, ir::OpKind op) {
    for (const ir::Node* n : g.nodes())
        if (n->op == op) return n;
    return nullptr;
}

ProtoModel unary(int opset, const std::string& op, std::vector<int64_t> in,
                 const std::function<void(ProtoModel&, pb::NodeProto*)>& setup, int outputs = 1, int outRank = -1) {
    ProtoModel p(opset);
    if (outRank < 0) outRank = static_cast<int>(in.size());
    p.input("x", std::move(in));
    std::vector<std::string> outs;
    for (int i = 0; i < outputs; ++i) outs.push_back("y" + std::to_string(i));
    auto* n = p.node(op, {"x"}, outs, "op");
    setup(p, n);
    for (const auto& o : outs) p.output(o, outRank);
    return p;
}

// Adds an int64 initializer and makes it input `index` of `n`.
void intsInput(ProtoModel& p, pb::NodeProto* n, size_t index, const std::string& name, const std::vector<int64_t>& v) {
    p.initializer(name, ir::Tensor::fromInt64s(ir::Shape{static_cast<int64_t>(v.size())}, v));
    while (static_cast<size_t>(n->input_size()) < index) n->add_input("");
    n->add_input(name);
}
void floatInput(ProtoModel& p, pb::NodeProto* n, size_t index, const std::string& name, const std::vector<float>& v,
                bool scalar = false) {
    p.initializer(name, ir::Tensor::fromFloats(scalar ? ir::Shape{} : ir::Shape{static_cast<int64_t>(v.size())}, v));
    while (static_cast<size_t>(n->input_size()) < index) n->add_input("");
    n->add_input(name);
}
} // namespace

class TstOpset : public QObject {
    Q_OBJECT

private slots:
    void oldAndNewFormsAgree_data() {
        QTest::addColumn<ModelMaker>("oldForm");
        QTest::addColumn<ModelMaker>("newForm");
        QTest::addColumn<int>("op");
        QTest::addColumn<int>("constInputs"); // inputs of the old form's node that became constants

        QTest::newRow("Clip-6 vs Clip-11") << ModelMaker([] {
            return unary(7, "Clip", {2, 5}, [](ProtoModel&, pb::NodeProto* n) {
                attrFloat(n, "min", -0.25f);
                attrFloat(n, "max", 0.5f);
            });
        }) << ModelMaker([] {
            return unary(13, "Clip", {2, 5}, [](ProtoModel& p, pb::NodeProto* n) {
                floatInput(p, n, 1, "lo", {-0.25f}, true);
                floatInput(p, n, 2, "hi", {0.5f}, true);
            });
        }) << int(ir::OpKind::Clip) << 2;
        QTest::newRow("Clip-6 max only") << ModelMaker([] {
            return unary(9, "Clip", {2, 5}, [](ProtoModel&, pb::NodeProto* n) { attrFloat(n, "max", 0.5f); });
        }) << ModelMaker([] {
            return unary(12, "Clip", {2, 5},
                         [](ProtoModel& p, pb::NodeProto* n) { floatInput(p, n, 2, "hi", {0.5f}, true); });
        }) << int(ir::OpKind::Clip) << 1;
        QTest::newRow("Squeeze-11 vs 13") << ModelMaker([] {
            return unary(
                11, "Squeeze", {1, 4, 1, 3},
                [](ProtoModel&, pb::NodeProto* n) {
                    attrInts(n, "axes", {0, 2});
                },
                1, 2);
        }) << ModelMaker([] {
            return unary(
                13, "Squeeze", {1, 4, 1, 3},
                [](ProtoModel& p, pb::NodeProto* n) {
                    intsInput(p, n, 1, "axes", {0, 2});
                },
                1, 2);
        }) << int(ir::OpKind::Squeeze) << 1;
        QTest::newRow("Unsqueeze-11 vs 13") << ModelMaker([] {
            return unary(
                11, "Unsqueeze", {4, 3},
                [](ProtoModel&, pb::NodeProto* n) {
                    attrInts(n, "axes", {0, 3});
                },
                1, 4);
        }) << ModelMaker([] {
            return unary(
                13, "Unsqueeze", {4, 3},
                [](ProtoModel& p, pb::NodeProto* n) {
                    intsInput(p, n, 1, "axes", {0, 3});
                },
                1, 4);
        }) << int(ir::OpKind::Unsqueeze) << 1;
        QTest::newRow("ReduceSum-11 vs 13") << ModelMaker([] {
            return unary(11, "ReduceSum", {2, 3, 4}, [](ProtoModel&, pb::NodeProto* n) { attrInts(n, "axes", {1}); });
        }) << ModelMaker([] {
            return unary(13, "ReduceSum", {2, 3, 4},
                         [](ProtoModel& p, pb::NodeProto* n) { intsInput(p, n, 1, "axes", {1}); });
        }) << int(ir::OpKind::ReduceSum) << 1;
        QTest::newRow("Split-11 vs 13") << ModelMaker([] {
            return unary(
                11, "Split", {2, 6},
                [](ProtoModel&, pb::NodeProto* n) {
                    attrInt(n, "axis", 1);
                    attrInts(n, "split", {2, 4});
                },
                2);
        }) << ModelMaker([] {
            return unary(
                13, "Split", {2, 6},
                [](ProtoModel& p, pb::NodeProto* n) {
                    attrInt(n, "axis", 1);
                    intsInput(p, n, 1, "split", {2, 4});
                },
                2);
        }) << int(ir::OpKind::Split) << 1;
        QTest::newRow("Slice-1 vs 10") << ModelMaker([] {
            return unary(9, "Slice", {4, 6}, [](ProtoModel&, pb::NodeProto* n) {
                attrInts(n, "starts", {1, 0});
                attrInts(n, "ends", {3, 5});
                attrInts(n, "axes", {0, 1});
            });
        }) << ModelMaker([] {
            return unary(13, "Slice", {4, 6}, [](ProtoModel& p, pb::NodeProto* n) {
                intsInput(p, n, 1, "starts", {1, 0});
                intsInput(p, n, 2, "ends", {3, 5});
                intsInput(p, n, 3, "axes", {0, 1});
            });
        }) << int(ir::OpKind::Slice) << 3;
        QTest::newRow("Pad-2 vs 11") << ModelMaker([] {
            return unary(7, "Pad", {1, 2, 3}, [](ProtoModel&, pb::NodeProto* n) {
                attrInts(n, "pads", {0, 1, 2, 0, 0, 1});
                attrFloat(n, "value", 1.5f);
            });
        }) << ModelMaker([] {
            return unary(13, "Pad", {1, 2, 3}, [](ProtoModel& p, pb::NodeProto* n) {
                intsInput(p, n, 1, "pads", {0, 1, 2, 0, 0, 1});
                floatInput(p, n, 2, "value", {1.5f}, true);
            });
        }) << int(ir::OpKind::Pad) << 2;
        QTest::newRow("Upsample-7 vs Resize-13") << ModelMaker([] {
            return unary(7, "Upsample", {1, 1, 2, 3}, [](ProtoModel&, pb::NodeProto* n) {
                attrString(n, "mode", "nearest");
                attrFloats(n, "scales", {1.f, 1.f, 2.f, 2.f});
            });
        }) << ModelMaker([] {
            return unary(13, "Resize", {1, 1, 2, 3}, [](ProtoModel& p, pb::NodeProto* n) {
                floatInput(p, n, 2, "scales", {1.f, 1.f, 2.f, 2.f});
                attrString(n, "mode", "nearest");
                attrString(n, "coordinate_transformation_mode", "asymmetric");
                attrString(n, "nearest_mode", "floor");
            });
        }) << int(ir::OpKind::Resize) << 1;
        QTest::newRow("Add-6 broadcast from axis vs Add-7") << ModelMaker([] {
            return unary(6, "Add", {2, 3, 4}, [](ProtoModel& p, pb::NodeProto* n) {
                floatInput(p, n, 1, "b", {1.f, -2.f, 3.f});
                attrInt(n, "broadcast", 1);
                attrInt(n, "axis", 1);
            });
        }) << ModelMaker([] {
            return unary(7, "Add", {2, 3, 4}, [](ProtoModel& p, pb::NodeProto* n) {
                p.initializer("b", ir::Tensor::fromFloats(ir::Shape{3, 1}, {1.f, -2.f, 3.f}));
                n->add_input("b");
            });
        }) << int(ir::OpKind::Add) << 1;
        QTest::newRow("Dropout-10 vs 13") << ModelMaker([] {
            return unary(10, "Dropout", {2, 3}, [](ProtoModel&, pb::NodeProto* n) { attrFloat(n, "ratio", 0.3f); });
        }) << ModelMaker([] {
            return unary(13, "Dropout", {2, 3},
                         [](ProtoModel& p, pb::NodeProto* n) { floatInput(p, n, 1, "ratio", {0.3f}, true); });
        }) << int(ir::OpKind::Dropout) << 1;
    }

    void oldAndNewFormsAgree() {
        QFETCH(ModelMaker, oldForm);
        QFETCH(ModelMaker, newForm);
        QFETCH(int, op);
        QFETCH(int, constInputs);
        const ir::Graph oldGraph = importOrFail(oldForm(), "old.onnx");
        const ir::Graph newGraph = importOrFail(newForm(), "new.onnx");
        const ir::Node* oldNode = onlyNodeOf(oldGraph, static_cast<ir::OpKind>(op));
        const ir::Node* newNode = onlyNodeOf(newGraph, static_cast<ir::OpKind>(op));
        QVERIFY(oldNode && newNode);
        QCOMPARE(oldNode->inputs().size(), newNode->inputs().size());
        int constants = 0;
        for (size_t i = 1; i < oldNode->inputs().size(); ++i) {
            const ir::Value* a = oldNode->input(i);
            const ir::Value* b = newNode->input(i);
            QCOMPARE(a == nullptr, b == nullptr);
            if (!a) continue;
            QVERIFY2(a->isConstant(), a->name.c_str());
            QVERIFY2(a->constant.identical(b->constant), a->name.c_str());
            ++constants;
        }
        QCOMPARE(constants, constInputs);
        for (const ir::Value* out : oldGraph.outputs()) QVERIFY(out->shape.rank() > 0);

        const auto inputs = randomInputs(oldGraph);
        const auto a = runOrFail(oldGraph, inputs);
        const auto b = runOrFail(newGraph, inputs);
        QCOMPARE(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].shape(), b[i].shape());
            QVERIFY(relativeMaxDiff(a[i], b[i]) < 1e-6);
        }
    }

    // Before opset 13, Softmax normalises over all dims from `axis` on.
    void legacySoftmaxCoercesTo2D_data() {
        QTest::addColumn<int>("opset");
        QTest::addColumn<int>("axis");
        QTest::addColumn<bool>("logSoftmax");
        QTest::newRow("Softmax-11 axis 1") << 11 << 1 << false;
        QTest::newRow("Softmax-11 axis 2 (last)") << 11 << 2 << false;
        QTest::newRow("LogSoftmax-9 axis 0") << 9 << 0 << true;
        QTest::newRow("Softmax-13 axis 1") << 13 << 1 << false;
    }

    void legacySoftmaxCoercesTo2D() {
        QFETCH(int, opset);
        QFETCH(int, axis);
        QFETCH(bool, logSoftmax);
        const ProtoModel p = unary(opset, logSoftmax ? "LogSoftmax" : "Softmax", {2, 3, 4},
                                   [axis](ProtoModel&, pb::NodeProto* n) { attrInt(n, "axis", axis); });
        const ir::Graph g = importOrFail(p, "softmax.onnx");
        QCOMPARE(g.outputs()[0]->shape, (ir::Shape{2, 3, 4}));
        const auto inputs = randomInputs(g);
        const ir::Tensor& x = inputs.at("x");
        const ir::Tensor y = runOrFail(g, inputs)[0];
        // Expected: softmax over groups of `inner` consecutive elements (legacy) or over axis (13).
        const int64_t dims[] = {2, 3, 4};
        std::vector<double> expected(24);
        for (int64_t i = 0; i < 24; ++i) {
            std::vector<int64_t> group;
            if (opset < 13) {
                int64_t inner = 1;
                for (int d = axis; d < 3; ++d) inner *= dims[d];
                for (int64_t j = (i / inner) * inner; j < (i / inner + 1) * inner; ++j) group.push_back(j);
            } else {
                const int64_t stride = axis == 2 ? 1 : (axis == 1 ? 4 : 12);
                const int64_t start = i - ((i / stride) % dims[axis]) * stride;
                for (int64_t k = 0; k < dims[axis]; ++k) group.push_back(start + k * stride);
            }
            double sum = 0;
            for (int64_t j : group) sum += std::exp(x.at(j));
            expected[static_cast<size_t>(i)] = logSoftmax ? x.at(i) - std::log(sum) : std::exp(x.at(i)) / sum;
        }
        for (int64_t i = 0; i < 24; ++i)
            QVERIFY2(std::abs(y.at(i) - expected[static_cast<size_t>(i)]) < 1e-5, qPrintable(QString::number(i)));
    }

    void batchNormSpatialZeroIsUnsupported() {
        ProtoModel p(7);
        p.input("x", {1, 2, 2, 2});
        for (const char* name : {"s", "b", "m", "v"}) p.initializer(name, ramp(ir::Shape{2}));
        attrInt(p.node("BatchNormalization", {"x", "s", "b", "m", "v"}, {"y"}, "bn"), "spatial", 0);
        p.output("y", 4);
        auto g = embark::onnx::importModelFromBytes(p.bytes(), "", "bn.onnx");
        QVERIFY(!g.ok());
        QVERIFY(g.error().kind == ErrorKind::Unsupported);
        QVERIFY(g.error().message.find("'bn'") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstOpset)
#include "tst_opset.moc"

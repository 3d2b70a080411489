// Adaptation: library assignment rules and their reasons, override errors, architecture
// availability, NHWC layouts with conversions only where neighbours disagree, constants
// permuted at adaptation time, partitions.
#include "export/adaptation.h"
#include "export/kernel_libraries.h"
#include "onnx/importer.h"
#include "passes/pass_manager.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include <QTest>

using namespace embark;
using ir::OpKind;
using targets::Layout;

namespace {

// conv -> relu -> maxpool -> softmax(axis 1, not last: XNNPACK refuses) -> output
ir::Graph smallNet() {
    test::GraphBuilder b;
    auto* x = b.input("x", {1, 3, 8, 8});
    auto* y = b.op(OpKind::Conv, {x, b.weights("w", {4, 3, 3, 3}), b.weights("bias", {4})},
                   {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "conv");
    y = b.op(OpKind::Relu, {y}, {}, "relu");
    y = b.op(OpKind::Add, {y, b.weights("shift", {4, 1, 1})}, {}, "add");
    y = b.op(OpKind::MaxPool, {y},
             {{"kernel_shape", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}}, "pool");
    y = b.op(OpKind::Softmax, {y}, {{"axis", int64_t{1}}}, "softmax");
    b.output(y);
    return b.build();
}

int countOps(const ir::Graph& g, OpKind op) {
    int n = 0;
    for (const ir::Node* node : g.nodes()) n += node->op == op;
    return n;
}

} // namespace

class TestAdaptation : public QObject {
    Q_OBJECT
private slots:
    void assignmentRules() {
        const ir::Graph g = smallNet();
        exporter::AdaptationOptions o;
        o.library = "xnnpack";
        o.opOverrides["Add"] = "portable";
        o.nodeOverrides["relu"] = "portable";
        auto a = exporter::adapt(g, o);
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
        QCOMPARE(a->nodes.at("conv").library, std::string("xnnpack"));
        QCOMPARE(a->nodes.at("conv").rule, exporter::AssignmentRule::ChosenLibrary);
        QCOMPARE(a->nodes.at("relu").rule, exporter::AssignmentRule::NodeOverride);
        QCOMPARE(a->nodes.at("add").rule, exporter::AssignmentRule::OpOverride);
        QCOMPARE(a->nodes.at("add").library, std::string("portable"));
        QCOMPARE(a->nodes.at("softmax").rule, exporter::AssignmentRule::PortableFallback);
        QVERIFY(a->nodes.at("softmax").reason.find("last axis") != std::string::npos);
        // Layouts: conv/relu/add/pool NHWC, softmax in the model's layout.
        QCOMPARE(a->nodes.at("conv").format, Layout::NHWC);
        QCOMPARE(a->nodes.at("add").format, Layout::NHWC);
        QCOMPARE(a->nodes.at("softmax").format, Layout::NCHW);
        QCOMPARE(a->conversions, 2); // input to NHWC, pool output back for Softmax
        QCOMPARE(countOps(a->graph, OpKind::Transpose), 2);
        QCOMPARE(a->partitions, 4); // transpose, conv | relu, add | pool | transpose, softmax
        // The weights and the broadcast shift were permuted once, at adaptation time.
        const ir::Node* conv = a->graph.findNode("conv");
        QCOMPARE(conv->input(1)->shape, (ir::Shape{4, 3, 3, 3}));
        QCOMPARE(conv->input(0)->shape, (ir::Shape{1, 8, 8, 3}));
        QCOMPARE(a->graph.findNode("add")->input(1)->shape, (ir::Shape{1, 1, 1, 4}));
        // Graph inputs and outputs keep names, shapes and layout.
        QCOMPARE(a->graph.inputs()[0]->shape, (ir::Shape{1, 3, 8, 8}));
        QCOMPARE(a->graph.outputs()[0]->name, g.outputs()[0]->name);
        QCOMPARE(a->graph.outputs()[0]->shape, (ir::Shape{1, 4, 4, 4}));
        QVERIFY(a->graph.validate().ok());
    }

    // XNNPACK's average pooling divides by the taps inside the input: with count_include_pad=1
    // and pads the node falls back to portable, saying why; without pads it stays on XNNPACK.
    void averagePoolIncludingPadsFallsBack() {
        for (bool padded : {true, false}) {
            test::GraphBuilder b;
            auto* x = b.input("x", {1, 4, 6, 6});
            const std::vector<int64_t> pads =
                padded ? std::vector<int64_t>{1, 1, 1, 1} : std::vector<int64_t>{0, 0, 0, 0};
            auto* y =
                b.op(OpKind::AveragePool, {x},
                     {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", pads}, {"count_include_pad", int64_t{1}}},
                     "avg");
            b.output(y);
            exporter::AdaptationOptions o;
            o.library = "xnnpack";
            auto a = exporter::adapt(b.build(), o);
            QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
            const auto& as = a->nodes.at("avg");
            QCOMPARE(as.library, std::string(padded ? "portable" : "xnnpack"));
            if (padded) QVERIFY2(as.reason.find("count_include_pad") != std::string::npos, as.reason.c_str());
        }
    }

    // A portable pool or InstanceNormalization between the model's input and output runs in the
    // model's layout (no conversion there and back); one whose output feeds another node, a pool
    // over rows narrower than 32, one on XNNPACK, or a pool on riscv64 (RVV pools are channels-last)
    // keeps NHWC.
    void loneNodeRunsInModelLayout_data() {
        QTest::addColumn<int>("op");
        QTest::addColumn<QString>("library");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<bool>("followed");
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("modelLayout");
        QTest::newRow("maxpool alone") << int(OpKind::MaxPool) << "portable"
                                       << "x86_64" << false << 41 << true;
        QTest::newRow("averagepool alone") << int(OpKind::AveragePool) << "portable"
                                           << "x86_64" << false << 41 << true;
        QTest::newRow("averagepool alone, narrow") << int(OpKind::AveragePool) << "portable"
                                                   << "x86_64" << false << 7 << false;
        QTest::newRow("instancenorm alone, narrow") << int(OpKind::InstanceNormalization) << "portable"
                                                    << "x86_64" << false << 7 << true;
        QTest::newRow("maxpool then conv") << int(OpKind::MaxPool) << "portable"
                                           << "x86_64" << true << 41 << false;
        QTest::newRow("maxpool alone on riscv64") << int(OpKind::MaxPool) << "portable"
                                                  << "riscv64" << false << 41 << false;
        QTest::newRow("averagepool alone on riscv64") << int(OpKind::AveragePool) << "portable"
                                                      << "riscv64" << false << 41 << false;
        QTest::newRow("instancenorm alone on riscv64") << int(OpKind::InstanceNormalization) << "portable"
                                                       << "riscv64" << false << 7 << true;
        QTest::newRow("maxpool alone on xnnpack") << int(OpKind::MaxPool) << "xnnpack"
                                                  << "x86_64" << false << 41 << false;
    }

    void loneNodeRunsInModelLayout() {
        QFETCH(int, op);
        QFETCH(QString, library);
        QFETCH(QString, arch);
        QFETCH(bool, followed);
        QFETCH(int, width);
        QFETCH(bool, modelLayout);
        test::GraphBuilder b;
        auto* x = b.input("x", {1, 5, 9, width});
        ir::Value* y = nullptr;
        if (OpKind(op) == OpKind::InstanceNormalization)
            y = b.op(OpKind::InstanceNormalization, {x, b.weights("scale", {5}), b.weights("bias", {5})}, {}, "node");
        else
            y = b.op(OpKind(op), {x},
                     {{"kernel_shape", std::vector<int64_t>{3, 3}},
                      {"strides", std::vector<int64_t>{2, 2}},
                      {"pads", std::vector<int64_t>{1, 1, 1, 1}}},
                     "node");
        if (followed)
            y = b.op(OpKind::Conv, {y, b.weights("w", {4, 5, 1, 1})}, {{"kernel_shape", std::vector<int64_t>{1, 1}}},
                     "conv");
        b.output(y);
        exporter::AdaptationOptions o;
        o.library = library.toStdString();
        o.arch = arch.toStdString();
        auto a = exporter::adapt(b.build(), o);
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
        QCOMPARE(a->nodes.at("node").format, modelLayout ? Layout::NCHW : Layout::NHWC);
        QCOMPARE(a->conversions, modelLayout ? 0 : 2);
        QVERIFY(a->graph.validate().ok());
    }

    // A portable convolution from one input channel whose output leaves the model writes the
    // model's layout (conv2d_planar: no conversion after it; its input is the same in either
    // layout). Followed by another node, from 2 channels, strided along the width, on XNNPACK,
    // on riscv64 or in a model that stands for inner nodes (--lib auto's measurements) it stays
    // NHWC.
    void oneChannelConvWritesModelLayout_data() {
        QTest::addColumn<bool>("measurement");
        QTest::addColumn<int>("inC");
        QTest::addColumn<int>("strideW");
        QTest::addColumn<QString>("library");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<bool>("followed");
        QTest::addColumn<bool>("modelLayout");
        QTest::newRow("1 channel alone") << false << 1 << 1 << "portable"
                                         << "x86_64" << false << true;
        QTest::newRow("1 channel alone, stride_h 2") << false << 1 << 1 << "portable"
                                                     << "aarch64" << false << true;
        QTest::newRow("1 channel then conv") << false << 1 << 1 << "portable"
                                             << "x86_64" << true << false;
        QTest::newRow("2 channels alone") << false << 2 << 1 << "portable"
                                          << "x86_64" << false << false;
        QTest::newRow("1 channel stride_w 2") << false << 1 << 2 << "portable"
                                              << "x86_64" << false << false;
        QTest::newRow("1 channel on riscv64") << false << 1 << 1 << "portable"
                                              << "riscv64" << false << false;
        QTest::newRow("1 channel on xnnpack") << false << 1 << 1 << "xnnpack"
                                              << "x86_64" << false << false;
        QTest::newRow("1 channel, measurement model") << true << 1 << 1 << "portable"
                                                      << "x86_64" << false << false;
    }

    void oneChannelConvWritesModelLayout() {
        QFETCH(bool, measurement);
        QFETCH(int, inC);
        QFETCH(int, strideW);
        QFETCH(QString, library);
        QFETCH(QString, arch);
        QFETCH(bool, followed);
        QFETCH(bool, modelLayout);
        test::GraphBuilder b;
        auto* x = b.input("x", {1, inC, 20, 40});
        ir::Value* y = b.op(OpKind::Conv, {x, b.weights("w", {8, inC, 3, 3}), b.weights("b", {8})},
                            {{"kernel_shape", std::vector<int64_t>{3, 3}},
                             {"strides", std::vector<int64_t>{strideW == 1 && arch == "aarch64" ? 2 : 1, strideW}},
                             {"pads", std::vector<int64_t>{1, 1, 1, 1}}},
                            "node");
        if (followed)
            y = b.op(OpKind::Conv, {y, b.weights("w2", {4, 8, 1, 1})}, {{"kernel_shape", std::vector<int64_t>{1, 1}}},
                     "conv");
        b.output(y);
        exporter::AdaptationOptions o;
        o.library = library.toStdString();
        o.arch = arch.toStdString();
        ir::Graph g = b.build();
        if (measurement) g.metadata[exporter::kStandsForInnerNodes] = "test";
        auto a = exporter::adapt(g, o);
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
        QCOMPARE(a->nodes.at("node").format, modelLayout ? Layout::NCHW : Layout::NHWC);
        if (modelLayout) QCOMPARE(a->conversions, 0);
        QVERIFY(a->graph.validate().ok());
    }

    void portableNeedsNoFallback() {
        auto a = exporter::adapt(smallNet(), {});
        QVERIFY(a.ok());
        for (const auto& [name, as] : a->nodes) QCOMPARE(as.library, std::string("portable"));
        QCOMPARE(a->partitions, 1);
    }

    void badOptions_data() {
        QTest::addColumn<QString>("lib");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("opOverride");
        QTest::addColumn<QString>("nodeOverride");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown library") << "fastlib"
                                         << "x86_64"
                                         << ""
                                         << "" << 2 << "fastlib";
        QTest::newRow("unknown arch") << "portable"
                                      << "mips"
                                      << ""
                                      << "" << 2 << "mips";
        QTest::newRow("xnnpack on riscv64") << "xnnpack"
                                            << "riscv64"
                                            << ""
                                            << "" << 3 << "XNNPACK_ROOT";
        QTest::newRow("unknown op") << "portable"
                                    << "x86_64"
                                    << "Convolution=xnnpack"
                                    << "" << 2 << "Convolution";
        QTest::newRow("override library") << "portable"
                                          << "x86_64"
                                          << "Conv=nope"
                                          << "" << 2 << "nope";
        QTest::newRow("unknown node") << "portable"
                                      << "x86_64"
                                      << ""
                                      << "conv9=xnnpack" << 2 << "conv9";
        QTest::newRow("override unavailable") << "portable"
                                              << "riscv64"
                                              << "Conv=xnnpack"
                                              << "" << 3 << "riscv64";
    }
    void badOptions() {
        QFETCH(QString, lib);
        QFETCH(QString, arch);
        QFETCH(QString, opOverride);
        QFETCH(QString, nodeOverride);
        QFETCH(int, kind);
        QFETCH(QString, mentions);
        exporter::AdaptationOptions o;
        o.library = lib.toStdString();
        o.arch = arch.toStdString();
        if (!opOverride.isEmpty())
            o.opOverrides[opOverride.section('=', 0, 0).toStdString()] = opOverride.section('=', 1).toStdString();
        if (!nodeOverride.isEmpty())
            o.nodeOverrides[nodeOverride.section('=', 0, 0).toStdString()] = nodeOverride.section('=', 1).toStdString();
        auto a = exporter::adapt(smallNet(), o);
        QVERIFY(!a.ok());
        QCOMPARE(a.error().exitCode(), kind);
        QVERIFY2(QString::fromStdString(a.error().message).contains(mentions), a.error().message.c_str());
    }

    void prebuiltTreeEnablesRiscv() {
        exporter::AdaptationOptions o;
        o.library = "xnnpack";
        o.arch = "riscv64";
        o.havePrebuiltXnnpack = true;
        QVERIFY(exporter::adapt(smallNet(), o).ok());
    }

    void sharedModels_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("maxConversions");
        QTest::newRow("resnet18") << "resnet18" << 1;
        QTest::newRow("mobilenet_v2") << "mobilenet_v2" << 1;
        QTest::newRow("squeezenet1_1") << "squeezenet1_1" << 2;
    }
    void sharedModels() {
        EMBARK_REQUIRE_SHARED_MODELS();
        QFETCH(QString, model);
        QFETCH(int, maxConversions);
        auto g = onnx::importModel(test::sharedModel(model).toStdString());
        QVERIFY(g.ok());
        passes::PassOptions po;
        po.library = exporter::findKernelLibrary("xnnpack");
        auto fused = passes::PassManager::run(*g, "default", po);
        QVERIFY(fused.ok());
        exporter::AdaptationOptions o;
        o.library = "xnnpack";
        auto a = exporter::adapt(fused->graph, o);
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
        QVERIFY(a->graph.validate().ok());
        QVERIFY2(a->conversions <= maxConversions, qPrintable(QString::number(a->conversions)));
        for (const ir::Node* n : a->graph.nodes()) QVERIFY(a->nodes.count(n->name));
        qInfo("%s on xnnpack: %d conversions (+%d free), %d partitions", qPrintable(model), a->conversions,
              a->freeConversions, a->partitions);
    }
};

QTEST_GUILESS_MAIN(TestAdaptation)
#include "tst_adaptation.moc"

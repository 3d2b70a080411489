// Differential tests of each pass on graphs built in code: the reference interpreter gives
// the same outputs before and after the default recipe, the expected ops remain, and every
// original node is accounted for in some provenance.
#include "pass_test_util.h"
#include "export/kernel_libraries.h"
#include "passes/graph_rewrite.h"
#include "passes/pass_manager.h"
#include "ir/fused.h"

#include <QTest>
#include <functional>

using namespace embark;
using ir::OpKind;
using test::GraphBuilder;

namespace {

using Build = std::function<ir::Graph()>;
using Counts = std::map<OpKind, int>;

ir::Attributes conv3x3(int64_t group = 1) {
    return {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"group", group}};
}

ir::Value* batchNorm(GraphBuilder& b, ir::Value* x, int64_t c, const std::string& name) {
    std::vector<float> var(static_cast<size_t>(c));
    for (size_t i = 0; i < var.size(); ++i) var[i] = 0.5f + 0.1f * static_cast<float>(i);
    return b.op(OpKind::BatchNormalization,
                {x, b.weights(name + "_g", {c}), b.weights(name + "_b", {c}), b.weights(name + "_m", {c}),
                 b.floats(name + "_v", var)},
                {{"epsilon", 1e-5f}}, name);
}

ir::Graph convBnRelu() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 3, 8, 8});
    auto* y = b.op(OpKind::Conv, {x, b.weights("w", {4, 3, 3, 3}), b.weights("bias", {4})}, conv3x3(), "conv1");
    y = batchNorm(b, y, 4, "bn1");
    y = b.op(OpKind::Relu, {y}, {}, "relu1");
    b.output(y);
    return b.build();
}

ir::Graph depthwiseBnClip() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 4, 6, 6});
    auto* y = b.op(OpKind::Conv, {x, b.weights("w", {4, 1, 3, 3})}, conv3x3(4), "dw");
    y = batchNorm(b, y, 4, "bn");
    y = b.op(OpKind::Clip,
             {y, b.constant("lo", ir::Tensor::scalarFloat(0)), b.constant("hi", ir::Tensor::scalarFloat(6))}, {},
             "relu6");
    b.output(y);
    return b.build();
}

ir::Graph convTransposeBn() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 4, 5, 5});
    auto* y = b.op(OpKind::ConvTranspose, {x, b.weights("w", {4, 3, 3, 3})},
                   {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"group", int64_t{2}}}, "deconv");
    y = batchNorm(b, y, 6, "bn");
    b.output(y);
    return b.build();
}

ir::Graph gemmBnSigmoid() {
    GraphBuilder b;
    auto* x = b.input("x", {2, 5});
    auto* y = b.op(OpKind::Gemm, {x, b.weights("w", {3, 5}), b.weights("c", {3})},
                   {{"transB", int64_t{1}}, {"beta", 0.5f}}, "fc");
    y = batchNorm(b, y, 3, "bn");
    y = b.op(OpKind::Sigmoid, {y}, {}, "sig");
    b.output(y);
    return b.build();
}

ir::Graph identityDropout() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 8});
    auto* y = b.op(OpKind::Identity, {x}, {}, "id0");
    y = b.op(OpKind::Relu, {y}, {}, "relu");
    y = b.op(OpKind::Dropout, {y}, {}, "drop");
    y = b.op(OpKind::Identity, {y}, {}, "id_out");
    b.output(y);
    return b.build();
}

ir::Graph shapeChain() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 2, 3, 4});
    auto* s = b.op(OpKind::Shape, {x}, {}, "shape");
    auto* n = b.op(OpKind::Gather, {s, b.constant("i0", ir::Tensor::scalarInt64(0))}, {{"axis", int64_t{0}}}, "gather");
    auto* n1 = b.op(OpKind::Unsqueeze, {n, b.ints("ax", {0})}, {}, "unsq");
    auto* shape = b.op(OpKind::Concat, {n1, b.ints("minus1", {-1})}, {{"axis", int64_t{0}}}, "concat");
    auto* y = b.op(OpKind::Reshape, {x, shape}, {}, "reshape");
    auto* c = b.op(OpKind::Add, {b.weights("k1", {24}), b.weights("k2", {24})}, {}, "const_add");
    b.output(b.op(OpKind::Add, {y, c}, {}, "add"));
    return b.build();
}

ir::Graph padConvPool() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 2, 6, 6});
    auto* p = b.op(OpKind::Pad, {x, b.ints("pads", {0, 0, 1, 2, 0, 0, 1, 0})}, {}, "pad1");
    auto* y =
        b.op(OpKind::Conv, {p, b.weights("w", {3, 2, 3, 3})}, {{"kernel_shape", std::vector<int64_t>{3, 3}}}, "conv");
    auto* p2 = b.op(OpKind::Pad,
                    {y, b.ints("pads2", {0, 1, 1, 0, 1, 1}), b.constant("ninf", ir::Tensor::scalarFloat(-INFINITY)),
                     b.ints("axes2", {0, 2, 3})},
                    {}, "pad2");
    y = b.op(OpKind::MaxPool, {p2}, {{"kernel_shape", std::vector<int64_t>{2, 2}}}, "maxpool");
    auto* p3 = b.op(OpKind::Pad, {y, b.ints("pads3", {0, 0, 1, 1, 0, 0, 1, 1})}, {}, "pad3");
    y = b.op(OpKind::AveragePool, {p3}, {{"kernel_shape", std::vector<int64_t>{3, 3}}}, "avgpool");
    b.output(y);
    return b.build();
}

ir::Graph padNotFusable() {
    GraphBuilder b; // zero padding in front of MaxPool, and padding of the channel axis
    auto* x = b.input("x", {1, 2, 5, 5});
    auto* p = b.op(OpKind::Pad, {x, b.ints("pads", {0, 0, 1, 1, 0, 0, 1, 1})}, {}, "pad_zero");
    auto* y = b.op(OpKind::MaxPool, {p}, {{"kernel_shape", std::vector<int64_t>{2, 2}}}, "maxpool");
    auto* p2 = b.op(OpKind::Pad, {y, b.ints("pads2", {0, 1, 0, 0, 0, 0, 0, 0})}, {}, "pad_channel");
    b.output(
        b.op(OpKind::Conv, {p2, b.weights("w", {2, 3, 1, 1})}, {{"kernel_shape", std::vector<int64_t>{1, 1}}}, "conv"));
    return b.build();
}

ir::Graph matmulAddActivations() {
    GraphBuilder b;
    auto* x = b.input("x", {3, 6});
    auto* y = b.op(OpKind::MatMul, {x, b.weights("b", {6, 4})}, {}, "mm");
    y = b.op(OpKind::Add, {y, b.weights("c", {4})}, {}, "bias_add");
    y = b.op(OpKind::LeakyRelu, {y}, {{"alpha", 0.2f}}, "leaky");
    auto* z = b.op(OpKind::MatMul, {y, b.weights("b2", {4, 4})}, {}, "mm2");
    z = b.op(OpKind::HardSwish, {z}, {}, "hswish");
    auto* s = b.op(OpKind::Add, {z, y}, {}, "residual");
    b.output(b.op(OpKind::Relu, {s}, {}, "relu"));
    return b.build();
}

ir::Graph sharedIntermediate() {
    GraphBuilder b; // conv output read by BN and by another node: nothing may fuse
    auto* x = b.input("x", {1, 2, 4, 4});
    auto* y = b.op(OpKind::Conv, {x, b.weights("w", {2, 2, 3, 3})}, conv3x3(), "conv");
    auto* n = batchNorm(b, y, 2, "bn");
    auto* r = b.op(OpKind::Relu, {y}, {}, "relu");
    b.output(b.op(OpKind::Add, {n, r}, {}, "add"));
    return b.build();
}

ir::Graph flattenGemm() {
    GraphBuilder b;
    auto* x = b.input("x", {2, 6});
    auto* f = b.op(OpKind::Flatten, {x}, {{"axis", int64_t{1}}}, "flatten");
    b.output(b.op(OpKind::Gemm, {f, b.weights("w", {6, 3})}, {}, "fc"));
    return b.build();
}
// Conv -> BN -> x * Sigmoid(x) (EfficientNet's SiLU): one Conv with a fused Swish.
ir::Graph convBnSwish() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 3, 8, 8});
    auto* y = b.op(OpKind::Conv, {x, b.weights("w", {4, 3, 3, 3}), b.weights("bias", {4})}, conv3x3(), "conv1");
    y = batchNorm(b, y, 4, "bn1");
    auto* s = b.op(OpKind::Sigmoid, {y}, {}, "sig");
    y = b.op(OpKind::Mul, {s, y}, {}, "silu");
    b.output(y);
    return b.build();
}

// MobileNet-V3's hard-swish below opset 14: Conv -> x * HardSigmoid(x, alpha 1/6, beta 1/2)
// becomes one Conv with a fused HardSwish; its squeeze-excitation gate (a HardSigmoid scaling
// another tensor) and a HardSigmoid with ONNX's default alpha (0.2) stay as they are.
ir::Graph hardSwishForms() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 3, 8, 8});
    auto* y = b.op(OpKind::Conv, {x, b.weights("w", {4, 3, 3, 3})}, conv3x3(), "conv1");
    y = b.op(OpKind::Mul, {y, b.op(OpKind::HardSigmoid, {y}, {{"alpha", 1.f / 6.f}}, "hsig")}, {}, "hswish");
    auto* pooled = b.op(OpKind::GlobalAveragePool, {y}, {}, "se_pool");
    auto* gate = b.op(OpKind::HardSigmoid, {pooled}, {{"alpha", 1.f / 6.f}, {"beta", 0.5f}}, "se_gate");
    y = b.op(OpKind::Mul, {y, gate}, {}, "se_scale");
    auto* z = b.op(OpKind::Conv, {y, b.weights("w2", {4, 4, 3, 3})}, conv3x3(), "conv2");
    b.output(b.op(OpKind::Mul, {z, b.op(OpKind::HardSigmoid, {z}, {}, "hsig_default")}, {}, "not_hswish"));
    return b.build();
}

// SiLU after a pooling (no producer to fuse into): one Swish node; a Sigmoid with another use
// stays with its Mul; Conv -> Tanh fuses.
ir::Graph swishStandaloneAndShared() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 4, 8, 8});
    auto* p = b.op(OpKind::MaxPool, {x},
                   {{"kernel_shape", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}}, "pool");
    auto* y = b.op(OpKind::Mul, {p, b.op(OpKind::Sigmoid, {p}, {}, "sig1")}, {}, "silu1");
    auto* s2 = b.op(OpKind::Sigmoid, {y}, {}, "sig2");
    auto* y2 = b.op(OpKind::Mul, {y, s2}, {}, "mul2");
    auto* t =
        b.op(OpKind::Conv, {b.op(OpKind::Add, {y2, s2}, {}, "add"), b.weights("w", {4, 4, 3, 3})}, conv3x3(), "conv");
    b.output(b.op(OpKind::Tanh, {t}, {}, "tanh"));
    return b.build();
}

// A transformer MLP's GELU as torch.onnx writes it before opset 20: MatMul, then
// Div(sqrt 2) -> Erf -> Add(1) -> Mul(x) -> Mul(0.5). One MatMul with a fused Gelu.
ir::Graph matmulGelu() {
    GraphBuilder b;
    auto* x = b.input("x", {4, 8});
    auto* h = b.op(OpKind::MatMul, {x, b.weights("w", {8, 16})}, {}, "fc1");
    auto* e = b.op(OpKind::Erf, {b.op(OpKind::Div, {h, b.floats("sqrt2", {1.41421354f})}, {}, "div")}, {}, "erf");
    auto* a = b.op(OpKind::Add, {e, b.floats("one", {1.f})}, {}, "add");
    auto* m = b.op(OpKind::Mul, {h, a}, {}, "mul");
    b.output(b.op(OpKind::Mul, {m, b.floats("half", {0.5f})}, {}, "mul_1"));
    return b.build();
}

// A transformer MLP on [1, tokens, C] rows as torch.onnx writes it: MatMul, Add(bias), the erf
// GELU, then the second MatMul + Add: two Gemms over the rows between reshapes (which alias),
// the bias in each and the GELU fused into the first through its reshape.
ir::Graph tokenMlp() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 5, 8});
    auto* h = b.op(OpKind::MatMul, {x, b.weights("w1", {8, 16})}, {}, "fc1");
    h = b.op(OpKind::Add, {h, b.weights("b1", {16})}, {}, "fc1_bias");
    auto* e = b.op(OpKind::Erf, {b.op(OpKind::Div, {h, b.floats("sqrt2", {1.41421354f})}, {}, "div")}, {}, "erf");
    auto* a = b.op(OpKind::Add, {e, b.floats("one", {1.f})}, {}, "add");
    auto* m = b.op(OpKind::Mul, {b.op(OpKind::Mul, {h, a}, {}, "mul"), b.floats("half", {0.5f})}, {}, "mul_1");
    auto* y = b.op(OpKind::MatMul, {m, b.weights("w2", {16, 8})}, {}, "fc2");
    b.output(b.op(OpKind::Add, {b.weights("b2", {1, 1, 8}), y}, {}, "fc2_bias"));
    return b.build();
}

// The two other orders of 0.5 * x * (1 + erf(x / sqrt 2)), standalone (nothing to fuse
// into), then a look-alike that is not GELU (x / 2 inside the erf), which stays as it is.
ir::Graph geluForms() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 4, 6, 6});
    auto* half = b.floats("half", {0.5f});
    auto* one = b.floats("one", {1.f});
    // x * 0.5 * (1 + erf(x * (1 / sqrt 2)))
    auto* h = b.op(OpKind::Mul, {x, half}, {}, "a_half");
    auto* e =
        b.op(OpKind::Erf, {b.op(OpKind::Mul, {b.floats("rsqrt2", {0.707106769f}), x}, {}, "a_scale")}, {}, "a_erf");
    auto* y = b.op(OpKind::Mul, {h, b.op(OpKind::Add, {one, e}, {}, "a_add")}, {}, "a_mul");
    // 0.5 * (1 + erf(y / sqrt 2)) * y
    e = b.op(OpKind::Erf, {b.op(OpKind::Div, {y, b.floats("sqrt2", {1.41421354f})}, {}, "b_div")}, {}, "b_erf");
    auto* g = b.op(OpKind::Mul, {b.op(OpKind::Add, {e, one}, {}, "b_add"), half}, {}, "b_half");
    y = b.op(OpKind::Mul, {y, g}, {}, "b_mul");
    // Not GELU: erf(y / 2).
    e = b.op(OpKind::Erf, {b.op(OpKind::Div, {y, b.floats("two", {2.f})}, {}, "c_div")}, {}, "c_erf");
    auto* m = b.op(OpKind::Mul, {y, b.op(OpKind::Add, {e, one}, {}, "c_add")}, {}, "c_mul");
    b.output(b.op(OpKind::Mul, {m, half}, {}, "c_half"));
    return b.build();
}

// DenseNet's pre-activation: Concat -> BN -> ReLU -> Conv. No convolution before the BN can
// absorb it, so the ReLU fuses into the BN (one channel_affine pass in a portable export).
ir::Graph preActivationBnRelu() {
    GraphBuilder b;
    auto* x = b.input("x", {1, 2, 6, 6});
    auto* p = b.op(OpKind::MaxPool, {x},
                   {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "pool");
    auto* c = b.op(OpKind::Concat, {x, p}, {{"axis", int64_t{1}}}, "concat");
    auto* y = b.op(OpKind::Relu, {batchNorm(b, c, 4, "bn")}, {}, "relu");
    b.output(b.op(OpKind::Conv, {y, b.weights("w", {3, 4, 3, 3})}, conv3x3(), "conv"));
    return b.build();
}

} // namespace

class TestPasses : public QObject {
    Q_OBJECT
private slots:
    void defaultRecipe_data() {
        QTest::addColumn<Build>("build");
        QTest::addColumn<Counts>("counts");
        QTest::addColumn<int>("fusedActivations");
        QTest::newRow("conv+bn+relu") << Build(convBnRelu)
                                      << Counts{{OpKind::Conv, 1}, {OpKind::BatchNormalization, 0}, {OpKind::Relu, 0}}
                                      << 1;
        QTest::newRow("depthwise+bn+relu6")
            << Build(depthwiseBnClip) << Counts{{OpKind::Conv, 1}, {OpKind::BatchNormalization, 0}, {OpKind::Clip, 0}}
            << 1;
        QTest::newRow("convtranspose+bn")
            << Build(convTransposeBn) << Counts{{OpKind::ConvTranspose, 1}, {OpKind::BatchNormalization, 0}} << 0;
        QTest::newRow("gemm+bn+sigmoid") << Build(gemmBnSigmoid)
                                         << Counts{{OpKind::Gemm, 1},
                                                   {OpKind::BatchNormalization, 0},
                                                   {OpKind::Sigmoid, 0}}
                                         << 1;
        QTest::newRow("identity+dropout")
            << Build(identityDropout) << Counts{{OpKind::Identity, 0}, {OpKind::Dropout, 0}, {OpKind::Relu, 1}} << 0;
        QTest::newRow("shape chain") << Build(shapeChain)
                                     << Counts{{OpKind::Shape, 0},
                                               {OpKind::Gather, 0},
                                               {OpKind::Concat, 0},
                                               {OpKind::Reshape, 1},
                                               {OpKind::Add, 1}}
                                     << 0;
        QTest::newRow("pad into conv/pools")
            << Build(padConvPool)
            << Counts{{OpKind::Pad, 0}, {OpKind::Conv, 1}, {OpKind::MaxPool, 1}, {OpKind::AveragePool, 1}} << 0;
        QTest::newRow("pad kept") << Build(padNotFusable) << Counts{{OpKind::Pad, 2}} << 0;
        QTest::newRow("matmul+add, activations")
            << Build(matmulAddActivations) << Counts{{OpKind::Gemm, 1},      {OpKind::MatMul, 1},    {OpKind::Add, 1},
                                                     {OpKind::LeakyRelu, 0}, {OpKind::HardSwish, 0}, {OpKind::Relu, 0}}
            << 3;
        QTest::newRow("shared intermediate")
            << Build(sharedIntermediate) << Counts{{OpKind::BatchNormalization, 1}, {OpKind::Relu, 1}} << 0;
        QTest::newRow("conv+bn+silu") << Build(convBnSwish)
                                      << Counts{{OpKind::Conv, 1},
                                                {OpKind::BatchNormalization, 0},
                                                {OpKind::Sigmoid, 0},
                                                {OpKind::Mul, 0},
                                                {OpKind::Swish, 0}}
                                      << 1;
        QTest::newRow("hard-swish as HardSigmoid * x")
            << Build(hardSwishForms)
            << Counts{{OpKind::HardSwish, 0}, {OpKind::HardSigmoid, 2}, {OpKind::Mul, 2}, {OpKind::Conv, 2}} << 1;
        QTest::newRow("silu standalone, shared sigmoid, tanh")
            << Build(swishStandaloneAndShared)
            << Counts{{OpKind::Swish, 1}, {OpKind::Sigmoid, 1}, {OpKind::Mul, 1}, {OpKind::Tanh, 0}, {OpKind::Conv, 1}}
            << 1;
        QTest::newRow("matmul+gelu (erf form)")
            << Build(matmulGelu) << Counts{{OpKind::MatMul, 1}, {OpKind::Gelu, 0}, {OpKind::Erf, 0},
                                           {OpKind::Div, 0},    {OpKind::Add, 0},  {OpKind::Mul, 0}}
            << 1;
        QTest::newRow("token MLP: gemms over rows, gelu through a reshape")
            << Build(tokenMlp) << Counts{{OpKind::Gemm, 2}, {OpKind::MatMul, 0}, {OpKind::Add, 0}, {OpKind::Reshape, 4},
                                         {OpKind::Gelu, 0}, {OpKind::Erf, 0},    {OpKind::Mul, 0}}
            << 1;
        QTest::newRow("gelu forms and a look-alike")
            << Build(geluForms)
            << Counts{{OpKind::Gelu, 2}, {OpKind::Erf, 1}, {OpKind::Div, 1}, {OpKind::Add, 1}, {OpKind::Mul, 2}} << 0;
        QTest::newRow("pre-activation bn+relu")
            << Build(preActivationBnRelu)
            << Counts{{OpKind::BatchNormalization, 1}, {OpKind::Relu, 0}, {OpKind::Conv, 1}} << 1;
        QTest::newRow("flatten before gemm")
            << Build(flattenGemm) << Counts{{OpKind::Flatten, 0}, {OpKind::Gemm, 1}} << 0;
    }
    void defaultRecipe() {
        QFETCH(Build, build);
        QFETCH(Counts, counts);
        QFETCH(int, fusedActivations);
        const ir::Graph before = build();
        auto run = passes::PassManager::run(before, "default", {&exporter::portableLibrary()});
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().message.c_str());
        const ir::Graph& after = run->graph;
        QVERIFY(after.validate().ok());
        for (auto [op, n] : counts) QCOMPARE(test::countOps(after, op), n);
        int fused = 0;
        for (const ir::Node* n : after.nodes()) fused += ir::fusedActivation(*n).has_value();
        QCOMPARE(fused, fusedActivations);
        const QString diff = test::compareOutputs(before, after);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        const auto missing = passes::unaccountedNodes(before, after);
        QVERIFY2(missing.empty(), missing.empty() ? "" : missing.front().c_str());
        // Graph outputs keep their names.
        for (size_t i = 0; i < before.outputs().size(); ++i)
            QCOMPARE(after.outputs()[i]->name, before.outputs()[i]->name);
    }

    void provenanceIsMerged() {
        auto run = passes::PassManager::run(convBnRelu(), "default", {&exporter::portableLibrary()});
        QVERIFY(run.ok());
        const ir::Node* conv = run->graph.findNode("conv1");
        QVERIFY(conv);
        QCOMPARE(conv->provenance, (std::vector<std::string>{"conv1", "bn1", "relu1"}));
        // One log line per rewrite, in the stage that made it.
        bool logged = false;
        for (const auto& s : run->stages)
            for (const auto& line : s.log)
                logged = logged || line == "fused BatchNormalization 'bn1' into Conv 'conv1'";
        QVERIFY(logged);
        QCOMPARE(run->stages.front().name, std::string("imported"));
        QCOMPARE(run->stages.back().name, std::string("fuse"));
        QCOMPARE(static_cast<int>(run->stages.front().graph.nodeCount()), 3);
    }

    void xnnpackDeclaresOnlyClamps() {
        passes::PassOptions o;
        o.library = exporter::findKernelLibrary("xnnpack");
        auto run = passes::PassManager::run(matmulAddActivations(), "default", o);
        QVERIFY(run.ok());
        QCOMPARE(test::countOps(run->graph, OpKind::LeakyRelu), 1); // XNNPACK cannot fuse it
        QCOMPARE(test::countOps(run->graph, OpKind::HardSwish), 1);
        QCOMPARE(test::countOps(run->graph, OpKind::Relu), 0); // into the Add: a clamp
        // XNNPACK has no Swish: x * Sigmoid(x) stays two XNNPACK operators.
        auto silu = passes::PassManager::run(convBnSwish(), "default", o);
        QVERIFY(silu.ok());
        QCOMPARE(test::countOps(silu->graph, OpKind::Swish), 0);
        QCOMPARE(test::countOps(silu->graph, OpKind::Sigmoid), 1);
        QCOMPARE(test::countOps(silu->graph, OpKind::Mul), 1);
    }

    // Without a library the passes fuse no activation: which ones fuse is the library's to say.
    void noLibraryFusesNoActivation() {
        auto run = passes::PassManager::run(convBnRelu(), "default");
        QVERIFY(run.ok());
        QCOMPARE(test::countOps(run->graph, OpKind::BatchNormalization), 0); // not an activation
        QCOMPARE(test::countOps(run->graph, OpKind::Relu), 1);
    }

    void noneRecipeAndErrors() {
        auto run = passes::PassManager::run(convBnRelu(), "none");
        QVERIFY(run.ok());
        QCOMPARE(static_cast<int>(run->graph.nodeCount()), 3);
        auto bad = passes::PassManager::run(convBnRelu(), "nope");
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, ErrorKind::Usage);
        QVERIFY(passes::makePass("fuse_batchnorm"));
        QVERIFY(!passes::makePass("fuse_everything"));
    }
};

QTEST_GUILESS_MAIN(TestPasses)
#include "tst_passes.moc"

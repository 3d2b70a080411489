// XNNPACK's support table; its emitter is emit_xnnpack.cpp beside it.
#include "export/emit_context.h"
#include "export/kernel_libraries.h"

namespace embark::exporter {

using ir::OpKind;
using targets::Constraint;
using targets::KernelLibrary;
using C = targets::Constraint;
using F = targets::Layout;

// XNNPACK (2022 API and upstream): NHWC float32 operators. Its convolution, fully-connected
// and add operators clamp their output, so Relu and Clip fuse; the other activations are
// separate operators.
// Int8: the fuse_qdq pass's QConv (grouped and depthwise included) and QGemm run as XNNPACK's
// qs8 operators where its qs8-qc8w contract holds (Qs8Contract, Qs8ScaleRange), and MaxPool
// on int8 data as its s8 max pooling (exact: no requantization); other int8 nodes (pools,
// lookups, data movement, QuantizeLinear/DequantizeLinear) and those that break the contract
// fall back to portable, the reason in the plan. QAdd stays on portable: XNNPACK's qs8 add
// requantizes with fixed-point multipliers, not the reference's float32, so an element can
// round one quantum the other way, and through a deep residual network (RegNetX-400MF's 22
// additions) those quanta grow into outputs that fail the export's check; portable's QAdd is
// the reference's arithmetic and costs little next to the convolutions.
KernelLibrary xnnpackKernelLibrary() {
    KernelLibrary lib;
    lib.id = "xnnpack";
    lib.description = "XNNPACK operators (NHWC, float32; int8 convolution, Gemm and max pooling)";
    lib.preferredLayout = F::NHWC;
    lib.architectures = {"x86_64", "aarch64"};
    lib.prebuiltArchitectures = {"riscv64"};
    lib.displayName = "XNNPACK";
    lib.hue = 175;
    lib.reportColour = "#d9480f";
    lib.linksXnnpack = true;
    lib.runtimeFolders = {"xnnpack"};
    lib.modelIncludes = "#include \"embark_xnnpack.h\"\n";
    lib.modelGlobals = "std::unique_ptr<embark_xnn::Context> g_xnn;\n";
    lib.modelInit = "    g_xnn = std::make_unique<embark_xnn::Context>(static_cast<size_t>(threads));\n";
    lib.modelShutdown = "    // XNNPACK operators are released with the process; the context last.\n";
    lib.emitNode = emitXnnpack;
    const std::vector<Constraint> pool{C::Float32, C::Input4D, C::ExplicitPads, C::NoCeilMode};
    lib.ops = {
        {OpKind::Conv,
         F::NHWC,
         {C::Float32, C::Conv2D, C::ConstantWeights, C::ExplicitPads, C::FusedActivationDeclared}},
        {OpKind::ConvTranspose,
         F::NHWC,
         {C::Float32, C::Conv2D, C::ConstantWeights, C::ExplicitPads, C::DeconvNaturalOutput,
          C::FusedActivationDeclared}},
        {OpKind::Gemm, F::NCHW, {C::Float32, C::ConstantWeights, C::GemmPlain, C::FusedActivationDeclared}},
        {OpKind::MaxPool, F::NHWC, {C::Float32OrInt8, C::Input4D, C::ExplicitPads, C::NoCeilMode}},
        {OpKind::AveragePool,
         F::NHWC,
         {C::Float32, C::Input4D, C::ExplicitPads, C::NoCeilMode, C::AveragePadsExcluded, C::UnitDilations}},
        {OpKind::GlobalAveragePool, F::NHWC, {C::Float32, C::Input4D}},
        {OpKind::GlobalMaxPool, F::NHWC, {C::Float32, C::Input4D}},
        {OpKind::Add, F::Any, {C::Float32, C::BroadcastRank4, C::FusedActivationDeclared}},
        {OpKind::Mul, F::Any, {C::Float32, C::BroadcastRank4}},
        {OpKind::Relu, F::Any, {C::Float32}},
        {OpKind::Clip, F::Any, {C::Float32, C::ConstantClipBounds}},
        {OpKind::Sigmoid, F::Any, {C::Float32}},
        {OpKind::HardSwish, F::Any, {C::Float32}},
        {OpKind::LeakyRelu, F::Any, {C::Float32}},
        {OpKind::Softmax, F::NCHW, {C::Float32, C::LastAxis}},
        {OpKind::Concat, F::Any, {C::Float32, C::Input4D}},
        {OpKind::Transpose, F::NCHW, {C::Float32, C::BroadcastRank4}},
        {OpKind::QConv, F::NHWC, {C::Qs8Contract, C::Conv2D, C::ExplicitPads, C::Qs8ScaleRange}},
        {OpKind::QGemm, F::NCHW, {C::Qs8Contract, C::Qs8ScaleRange}},
    };
    const std::vector<OpKind> clamps{OpKind::Relu, OpKind::Clip};
    lib.fusions = {
        {OpKind::Conv, clamps}, {OpKind::ConvTranspose, clamps}, {OpKind::Gemm, clamps}, {OpKind::Add, clamps}};
    return lib;
}

} // namespace embark::exporter

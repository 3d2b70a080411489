// The portable library's support table; its emitter is emit_portable*.cpp beside it.
#include "export/emit_context.h"
#include "export/kernel_libraries.h"

namespace embark::exporter {

using ir::OpKind;
using targets::Constraint;
using targets::KernelLibrary;
using C = targets::Constraint;
using F = targets::Layout;

// Portable: every op, NHWC for convolutions and pooling (its kernels are written for
// channels-last), layout-agnostic where the op is element-wise, the model's layout elsewhere.
// Quantized models: the int8 ops of the fuse_qdq pass (QConv, QGemm, QAdd, QAveragePool,
// QLookup) and per-tensor QuantizeLinear/DequantizeLinear at the float boundaries; dynamic
// quantization (DynamicQuantizeLinear, ConvInteger, MatMulInteger) on the generic typed kernels
// in the model's layout, as ONNX's QOperator forms QLinearConv and QLinearMatMul.
KernelLibrary portableKernelLibrary() {
    KernelLibrary lib;
    lib.id = "portable";
    lib.description = "Embark's own C++ kernels (every op the reference interpreter runs)";
    lib.preferredLayout = F::NHWC;
    lib.architectures = {"x86_64", "aarch64", "riscv64"};
    lib.displayName = "Portable";
    lib.hue = 35;
    lib.reportColour = "#1c7ed6";
    lib.fallback = true;
    lib.fusesBlocks = true;
    lib.stridedConcat = true;
    lib.inputsReadOnly = true;
    lib.alwaysLinked = true;
    lib.runtimeFolders = {"portable", "generic"};
    lib.emitNode = emitPortable;
    for (OpKind op : ir::allOps()) {
        F format = F::NCHW;
        switch (ir::opCategory(op)) {
        case ir::OpCategory::Conv: format = F::NHWC; break;
        case ir::OpCategory::Pooling: format = F::NHWC; break;
        case ir::OpCategory::Activation:
        case ir::OpCategory::Elementwise: format = F::Any; break;
        default: break;
        }
        // Concat, Split and Slice work on any axis (adaptation renumbers it), so they follow their
        // inputs' layout instead of forcing one; BatchNormalization is a per-channel affine map in
        // either layout (channel_affine).
        if (op == OpKind::Concat || op == OpKind::Split || op == OpKind::Slice || op == OpKind::BatchNormalization)
            format = F::Any;
        // So do the reductions with constant axes (a global mean over H and W of NHWC data, as
        // MnasNet and ShuffleNet end, reads it in place): adaptation renumbers the axes and keeps
        // them in the model's layout where the kept axes would come out in another order.
        if (op == OpKind::ReduceMean || op == OpKind::ReduceSum || op == OpKind::ReduceMax || op == OpKind::ReduceMin ||
            op == OpKind::ReduceProd)
            format = F::Any;
        if (op == OpKind::ConvInteger || op == OpKind::QLinearConv) format = F::NCHW; // the generic integer convolution
        // Per-tensor quantization is element-wise (per axis, the emitter finds the axis in either).
        if (op == OpKind::QuantizeLinear || op == OpKind::DequantizeLinear) format = F::Any;
        // No shape constraints: a 1-D or 3-D convolution simply runs in the model's layout
        // (adaptation applies NHWC to 4-D activations only).
        std::vector<Constraint> cs;
        if (op == OpKind::Conv || op == OpKind::ConvTranspose || op == OpKind::Gemm || op == OpKind::MatMul ||
            op == OpKind::Add)
            cs = {C::FusedActivationDeclared};
        lib.ops.push_back({op, format, cs});
    }
    const std::vector<OpKind> acts{OpKind::Relu,    OpKind::Clip, OpKind::LeakyRelu, OpKind::HardSwish,
                                   OpKind::Sigmoid, OpKind::Tanh, OpKind::Swish,     OpKind::Gelu};
    for (OpKind p :
         {OpKind::Conv, OpKind::ConvTranspose, OpKind::Gemm, OpKind::MatMul, OpKind::Add, OpKind::BatchNormalization})
        lib.fusions.push_back({p, acts});
    return lib;
}

} // namespace embark::exporter

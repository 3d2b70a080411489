#include "kernel_library.h"

#include "ir/fused.h"

#include <algorithm>

namespace embark::targets {

using ir::OpKind;
using C = Constraint;
using F = Layout;

std::string_view layoutName(Layout f) {
    switch (f) {
    case F::Any: return "any";
    case F::NCHW: return "NCHW";
    case F::NHWC: return "NHWC";
    }
    return "?";
}

namespace {

struct ConstraintInfo {
    Constraint c;
    const char* text;
    bool (*holds)(const ir::Node&, const KernelLibrary&);
};

bool isFloat32(const ir::Node& n, const KernelLibrary&) {
    for (const ir::Value* v : n.inputs())
        if (v && !v->isConstant() && v->dtype != ir::DType::Float32) return false;
    for (const ir::Value* v : n.outputs())
        if (v && v->dtype != ir::DType::Float32) return false;
    return true;
}
bool isFloat32OrInt8(const ir::Node& n, const KernelLibrary& lib) {
    if (isFloat32(n, lib)) return true;
    for (const ir::Value* v : n.inputs())
        if (v && !v->isConstant() && v->dtype != ir::DType::Int8) return false;
    for (const ir::Value* v : n.outputs())
        if (v && v->dtype != ir::DType::Int8) return false;
    return true;
}
bool input4D(const ir::Node& n, const KernelLibrary&) { return n.input(0) && n.input(0)->shape.rank() == 4; }
bool constantWeights(const ir::Node& n, const KernelLibrary&) { return n.input(1) && n.input(1)->isConstant(); }
bool gemmPlain(const ir::Node& n, const KernelLibrary&) {
    return n.attrInt("transA", 0) == 0 && n.attrFloat("alpha", 1.f) == 1.f && n.attrFloat("beta", 1.f) == 1.f &&
           n.input(0) && n.input(0)->shape.rank() == 2;
}
bool explicitPads(const ir::Node& n, const KernelLibrary&) {
    const std::string autoPad = n.attrString("auto_pad", "NOTSET");
    if (autoPad != "NOTSET") return false;
    for (int64_t d : n.attrInts("dilations"))
        if (d != 1 && n.op != OpKind::Conv) return false;
    return true;
}
bool noCeilMode(const ir::Node& n, const KernelLibrary&) { return n.attrInt("ceil_mode", 0) == 0; }
bool lastAxis(const ir::Node& n, const KernelLibrary&) {
    const ir::Value* in = n.input(0);
    if (!in) return false;
    return in->shape.normAxis(n.attrInt("axis", -1)) == static_cast<int64_t>(in->shape.rank()) - 1;
}
bool fusedDeclared(const ir::Node& n, const KernelLibrary& lib) {
    auto act = ir::fusedActivation(n);
    return !act || lib.declaresFusion(n.op, act->op);
}
bool constantClip(const ir::Node& n, const KernelLibrary&) {
    for (size_t i = 1; i < 3; ++i)
        if (n.input(i) && !n.input(i)->isConstant()) return false;
    return true;
}
bool broadcastRank4(const ir::Node& n, const KernelLibrary&) {
    for (const ir::Value* v : n.inputs())
        if (v && v->shape.rank() > 4) return false;
    return true;
}
bool averagePadsExcluded(const ir::Node& n, const KernelLibrary&) {
    if (n.attrInt("count_include_pad", 0) == 0) return true;
    for (int64_t p : n.attrInts("pads"))
        if (p != 0) return false;
    return true;
}

bool unitDilations(const ir::Node& n, const KernelLibrary&) {
    for (int64_t d : n.attrInts("dilations"))
        if (d != 1) return false;
    return true;
}

// XNNPACK's deconvolution makes the natural output size (stride * (in - 1) + output_padding
// + extent - pads) with output_padding < stride: output_shape, which may ask for more, is left
// to portable.
bool deconvNaturalOutput(const ir::Node& n, const KernelLibrary&) {
    if (n.has("output_shape")) return false;
    const auto strides = n.attrInts("strides", {1, 1});
    const auto adjust = n.attrInts("output_padding", {});
    for (size_t i = 0; i < adjust.size(); ++i)
        if (adjust[i] < 0 || adjust[i] >= (i < strides.size() ? strides[i] : 1)) return false;
    for (int64_t p : n.attrInts("pads"))
        if (p < 0) return false;
    return true;
}

// Run-time QuantizeLinear/DequantizeLinear as the portable kernels run them: one scale and
// zero point (constants) for the whole tensor, int8 or uint8 on the integer side.
bool quantPerTensor(const ir::Node& n, const KernelLibrary&) {
    if (n.input(0) && n.input(0)->isConstant()) return true; // computed once at export
    const ir::Value* s = n.input(1);
    const ir::Value* z = n.input(2);
    if (!s || !s->isConstant() || s->constant.numel() != 1 || !ir::isFloating(s->dtype)) return false;
    if (z && (!z->isConstant() || z->constant.numel() != 1)) return false;
    const ir::Value* q = n.op == OpKind::QuantizeLinear ? n.output(0) : n.input(0);
    const ir::Value* f = n.op == OpKind::QuantizeLinear ? n.input(0) : n.output(0);
    if (!q || !f || f->dtype != ir::DType::Float32) return false;
    return q->isConstant() || q->dtype == ir::DType::Int8 || q->dtype == ir::DType::UInt8;
}

// XNNPACK's qs8-qc8w contract on a fused int8 node (core/passes/fuse_qdq.cpp): every run-time
// tensor int8 (uint8 activations are another operator family), the weights a constant int8
// tensor with one scale per output channel or one for all and no non-zero zero point, an Add's
// operands of one shape.
bool qs8Contract(const ir::Node& n, const KernelLibrary&) {
    for (const ir::Value* v : n.inputs())
        if (v && !v->isConstant() && v->dtype != ir::DType::Int8) return false;
    for (const ir::Value* v : n.outputs())
        if (v && v->dtype != ir::DType::Int8) return false;
    if (n.op == OpKind::QAdd)
        return n.input(0) && n.input(1) && !n.input(0)->isConstant() && !n.input(1)->isConstant() &&
               n.input(0)->shape == n.input(1)->shape;
    if (n.op != OpKind::QConv && n.op != OpKind::QGemm) return false;
    const ir::Value* w = n.input(1);
    if (!w || !w->isConstant() || w->dtype != ir::DType::Int8 || w->shape.rank() < 2) return false;
    for (int64_t z : n.attrInts("w_zero_point"))
        if (z != 0) return false;
    const size_t scales = n.attrFloats("w_scale").size();
    return scales == 1 || static_cast<int64_t>(scales) == w->shape[0];
}

// XNNPACK refuses a convolution or fully connected whose requantization scale x_scale *
// w_scale[c] / y_scale is 256 or more, and assumes an add's a_scale / y_scale and
// b_scale / y_scale in [2^-10, 2^8) (its fixed-point multipliers).
bool qs8ScaleRange(const ir::Node& n, const KernelLibrary&) {
    const float y = n.attrFloat("y_scale", 0.f);
    if (!(y > 0)) return false;
    if (n.op == OpKind::QAdd) {
        for (const char* k : {"a_scale", "b_scale"}) {
            const float r = n.attrFloat(k, 0.f) / y;
            if (!(r >= 0x1.0p-10f && r < 0x1.0p+8f)) return false;
        }
        return true;
    }
    const float x = n.attrFloat("x_scale", 0.f);
    for (float w : n.attrFloats("w_scale"))
        if (!(w > 0) || !(x * w / y < 256.f)) return false;
    return x > 0;
}

constexpr ConstraintInfo kConstraints[] = {
    {C::Float32, "float32 tensors only", isFloat32},
    {C::Conv2D, "2-D convolution (4-D input)", input4D},
    {C::ConstantWeights, "weights must be constant", constantWeights},
    {C::GemmPlain, "Gemm with 2-D A, transA=0, alpha=beta=1", gemmPlain},
    {C::ExplicitPads, "explicit pads (no auto_pad), no pooling dilation", explicitPads},
    {C::NoCeilMode, "ceil_mode=0", noCeilMode},
    {C::Input4D, "4-D input", input4D},
    {C::LastAxis, "softmax over the last axis", lastAxis},
    {C::FusedActivationDeclared, "fused activation not declared by the library", fusedDeclared},
    {C::ConstantClipBounds, "Clip bounds must be constants", constantClip},
    {C::BroadcastRank4, "inputs of at most 4 dimensions", broadcastRank4},
    {C::DeconvNaturalOutput, "ConvTranspose without output_shape, with output_padding < stride", deconvNaturalOutput},
    {C::QuantPerTensor, "per-tensor quantization (scalar scale and zero point, int8 or uint8)", quantPerTensor},
    {C::Qs8Contract,
     "int8 activations (not uint8) and symmetric int8 weights (per-channel or per-tensor scales, zero "
     "weight zero point): XNNPACK's qs8-qc8w operators",
     qs8Contract},
    {C::Qs8ScaleRange,
     "requantization scales XNNPACK accepts (x_scale * w_scale / y_scale < 256; an add's input/output "
     "scale ratios in [2^-10, 2^8))",
     qs8ScaleRange},
    {C::Float32OrInt8, "float32 or int8 tensors only", isFloat32OrInt8},
    {C::AveragePadsExcluded,
     "count_include_pad=1 with padding (the library averages over the taps inside the input only)",
     averagePadsExcluded},
    {C::UnitDilations, "dilations of 1", unitDilations},
};

const ConstraintInfo& info(Constraint c) {
    for (const ConstraintInfo& i : kConstraints)
        if (i.c == c) return i;
    return kConstraints[0];
}

} // namespace

std::string_view constraintText(Constraint c) { return info(c).text; }

const OpSupport* KernelLibrary::find(ir::OpKind op) const {
    for (const OpSupport& s : ops)
        if (s.op == op) return &s;
    return nullptr;
}

bool KernelLibrary::declaresFusion(ir::OpKind producer, ir::OpKind activation) const {
    for (const FusionPattern& f : fusions)
        if (f.producer == producer &&
            std::find(f.activations.begin(), f.activations.end(), activation) != f.activations.end())
            return true;
    return false;
}

std::string KernelLibrary::whyUnsupported(const ir::Node& node) const {
    const OpSupport* s = find(node.op);
    if (!s) return id + " has no " + std::string(ir::opName(node.op)) + " kernel";
    for (Constraint c : s->constraints) {
        const ConstraintInfo& i = info(c);
        if (!i.holds(node, *this)) return id + " " + std::string(ir::opName(node.op)) + ": " + i.text;
    }
    return {};
}

Layout KernelLibrary::layoutFor(const ir::Node& node) const {
    const OpSupport* s = find(node.op);
    return s ? s->format : Layout::NCHW;
}

bool KernelLibrary::availableOn(const std::string& arch, bool havePrebuiltTree) const {
    auto has = [&](const std::vector<std::string>& list) {
        return std::find(list.begin(), list.end(), arch) != list.end();
    };
    return has(architectures) || (havePrebuiltTree && has(prebuiltArchitectures));
}

const KernelLibrary& noKernelLibrary() {
    static const KernelLibrary none = [] {
        KernelLibrary lib;
        lib.id = "none";
        lib.description = "no kernel library";
        return lib;
    }();
    return none;
}

} // namespace embark::targets

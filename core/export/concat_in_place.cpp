#include "concat_in_place.h"

#include <memory>
#include <set>

namespace embark::exporter {

namespace {

using ir::OpKind;

// A node of a library whose kernels read and write strided slices.
bool strided(const Adaptation& a, const ir::Node& n) { return assignedLibrary(a, n).stridedConcat; }

bool nhwc(const Adaptation& a, const ir::Node& n) {
    auto it = a.nodes.find(n.name);
    return it != a.nodes.end() && it->second.format == targets::Layout::NHWC;
}

bool isFloat(const ir::Value* v) { return v && v->dtype == ir::DType::Float32; }

// A BatchNormalization whose channel axis is the last physical one (channel_affine's inner == 1).
bool affineOverLastAxis(const Adaptation& a, const ir::Node& n) {
    const ir::Value* x = n.input(0);
    if (n.op != OpKind::BatchNormalization || !isFloat(x) || !isFloat(n.output(0))) return false;
    auto layout = a.valueLayouts.find(x->name);
    const bool channelsLast = layout != a.valueLayouts.end() && layout->second == targets::Layout::NHWC;
    const size_t rank = x->shape.rank();
    const size_t axis = channelsLast ? rank - 1 : (rank > 1 ? 1 : 0);
    return rank > 0 && axis == rank - 1;
}

bool concatAlongLastAxis(const ir::Node& n) {
    const ir::Value* y = n.output(0);
    return n.op == OpKind::Concat && isFloat(y) && y->shape.rank() > 0 &&
           y->shape.normAxis(n.attrInt("axis", 0)) == static_cast<int64_t>(y->shape.rank()) - 1;
}

} // namespace

bool parseConcatInPlace(const std::string& text, ConcatInPlace* out) {
    if (text == "auto")
        *out = ConcatInPlace::Auto;
    else if (text == "all")
        *out = ConcatInPlace::All;
    else if (text == "off")
        *out = ConcatInPlace::Off;
    else
        return false;
    return true;
}

bool writesStridedRows(const Adaptation& a, const ir::Node& n) {
    if (!strided(a, n) || !isFloat(n.output(0))) return false;
    bool computed = false; // a layer of constants is folded and copied in whole (model_source.cpp)
    for (const ir::Value* v : n.inputs()) computed = computed || (v && !v->isConstant());
    if (!computed) return false;
    const ir::Value* x = n.input(0);
    switch (n.op) {
    case OpKind::Conv:
    case OpKind::ConvTranspose: return nhwc(a, n) && isFloat(x) && x->shape.rank() == 4;
    case OpKind::MaxPool:
    case OpKind::AveragePool:
        return nhwc(a, n) && x->shape.rank() == 4 && n.attrInts("kernel_shape").size() == 2 &&
               (n.outputs().size() < 2 || !n.output(1) || n.output(1)->uses().empty());
    case OpKind::BatchNormalization: return affineOverLastAxis(a, n);
    case OpKind::Concat: return concatAlongLastAxis(n);
    default: return false;
    }
}

bool readsStridedRows(const Adaptation& a, const ir::Node& n) {
    if (!strided(a, n)) return false;
    return affineOverLastAxis(a, n) || concatAlongLastAxis(n);
}

MemoryPlanOptions::ConcatRules concatInPlaceRules(const Adaptation& a, const std::vector<FusedBlock>& blocks) {
    auto inBottleneck = std::make_shared<std::set<const ir::Node*>>();
    for (const FusedBlock& b : blocks)
        if (b.kind == FusedBlock::Kind::Bottleneck) inBottleneck->insert(b.nodes.begin(), b.nodes.end());
    MemoryPlanOptions::ConcatRules rules;
    rules.inPlace = [&a](const ir::Node& n) { return strided(a, n) && isFloat(n.output(0)); };
    rules.writesAtOffset = [&a](const ir::Node& n) { return strided(a, n); };
    rules.writesStrided = [&a, inBottleneck](const ir::Node& n) {
        return !inBottleneck->count(&n) && writesStridedRows(a, n);
    };
    rules.readsStrided = [&a](const ir::Node& n) { return readsStridedRows(a, n); };
    return rules;
}

Status checkStridedAccess(const Adaptation& a, const MemoryPlan& plan, const ir::Node& n) {
    auto strided = [&](const ir::Value* v) { return v && !v->isConstant() && plan.viewOf(v->name).rowStride != 0; };
    for (const ir::Value* in : n.inputs())
        if (strided(in) && !readsStridedRows(a, n))
            return makeError(ErrorKind::Unsupported,
                             "export (an Embark bug, please report it): " + n.describe() + " reads '" + in->name +
                                 "', a strided slice of a concatenation, which its kernel cannot read");
    for (const ir::Value* out : n.outputs())
        if (strided(out) && !writesStridedRows(a, n))
            return makeError(ErrorKind::Unsupported,
                             "export (an Embark bug, please report it): " + n.describe() + " writes '" + out->name +
                                 "', a strided slice of a concatenation, which its kernel cannot write");
    return {};
}

} // namespace embark::exporter

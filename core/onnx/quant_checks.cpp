#include "quant_checks.h"

#include <cmath>

namespace embark::onnx {
namespace {

using ir::OpKind;

// Which operand a scale / zero-point pair describes: its data value and its axis (-1: the
// parameters must be per tensor).
struct ParamSlot {
    const char* what;
    const ir::Value* data;
    size_t scale, zeroPoint;
    int64_t axis;
};

std::vector<ParamSlot> slotsOf(const ir::Node& n) {
    switch (n.op) {
    case OpKind::QuantizeLinear: return {{"y", n.input(0), 1, 2, n.attrInt("axis", 1)}};
    case OpKind::DequantizeLinear: return {{"x", n.input(0), 1, 2, n.attrInt("axis", 1)}};
    case OpKind::QLinearConv:
        return {{"x", n.input(0), 1, 2, -1}, {"w", n.input(3), 4, 5, 0}, {"y", n.output(0), 6, 7, -1}};
    case OpKind::QLinearMatMul: {
        // a per row, b per column, y per row
        const auto rowAxis = [](const ir::Value* v) {
            return v && v->shape.rank() >= 2 ? int64_t(v->shape.rank()) - 2 : int64_t(0);
        };
        const auto colAxis = [](const ir::Value* v) {
            return v && v->shape.rank() >= 2 ? int64_t(v->shape.rank()) - 1 : int64_t(0);
        };
        return {{"a", n.input(0), 1, 2, rowAxis(n.input(0))},
                {"b", n.input(3), 4, 5, colAxis(n.input(3))},
                {"y", n.output(0), 6, 7, rowAxis(n.output(0))}};
    }
    default: return {};
    }
}

Error invalid(const ir::Node& n, const std::string& what) {
    return makeError(ErrorKind::InvalidInput, "node '" + n.name + "' (" + std::string(ir::opName(n.op)) + "): " + what);
}

Status checkSlot(const ir::Node& n, const ParamSlot& s) {
    const ir::Value* scale = n.input(s.scale);
    if (!scale || !scale->isConstant() || !ir::isFloating(scale->dtype)) return {};
    const ir::Tensor& t = scale->constant;
    const std::string name = std::string(s.what) + "_scale";
    for (int64_t i = 0; i < t.numel(); ++i) {
        const double v = t.at(i);
        if (!(v > 0) || !std::isfinite(v))
            return invalid(n, name + " value " + std::to_string(i) + " is " + std::to_string(v) +
                                  "; scales must be positive and finite (the model is broken)");
    }
    if (t.numel() > 1) {
        if (s.axis < 0 || t.shape().rank() != 1)
            return invalid(n, name + " has shape " + t.shape().str() + "; it must be a scalar" +
                                  (s.axis < 0 ? std::string(" (per tensor)") : std::string(" or 1-D (per axis)")));
        if (s.data && s.data->shape.rank()) {
            const int64_t rank = static_cast<int64_t>(s.data->shape.rank());
            const int64_t axis = s.axis < 0 ? s.axis + rank : s.axis;
            if (axis < 0 || axis >= rank)
                return invalid(n, "axis " + std::to_string(s.axis) + " is out of range for " + s.what + " " +
                                      s.data->shape.str());
            const int64_t count = s.data->shape[static_cast<size_t>(axis)];
            if (count != t.numel())
                return invalid(n, name + " has " + std::to_string(t.numel()) + " values but axis " +
                                      std::to_string(s.axis) + " of " + s.what + " " + s.data->shape.str() + " has " +
                                      std::to_string(count) + ": per-axis scales need one value per index of the axis");
        }
    }
    const ir::Value* zp = n.input(s.zeroPoint);
    if (zp && zp->shape.numel() != t.numel())
        return invalid(n, std::string(s.what) + "_zero_point has " + std::to_string(zp->shape.numel()) +
                              " values but " + name + " has " + std::to_string(t.numel()) +
                              ": they must have the same shape");
    return {};
}

} // namespace

Status checkQuantizationParams(const ir::Graph& graph) {
    for (const ir::Node* n : graph.nodes())
        for (const ParamSlot& s : slotsOf(*n)) EMBARK_TRY(checkSlot(*n, s));
    return {};
}

} // namespace embark::onnx

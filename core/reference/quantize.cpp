// QuantizeLinear, DequantizeLinear (per tensor and per axis) and DynamicQuantizeLinear, with
// the arithmetic of ONNX's reference: float32 division and multiplication, round half to
// even, saturation to the output type. Also the shared parameter checks (quantization.h).
#include "quantization.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace embark::reference::detail {
namespace {

using ir::DType;

std::string typeName(DType t) { return std::string(ir::dtypeName(t)); }

struct Range {
    double lo, hi;
};

Range rangeOf(DType t) {
    switch (t) {
    case DType::Int8: return {-128, 127};
    case DType::UInt8: return {0, 255};
    case DType::Int16: return {-32768, 32767};
    case DType::UInt16: return {0, 65535};
    case DType::Int32: return {-2147483648.0, 2147483647.0};
    default: return {0, 0};
    }
}

Expected<Tensors> quantizeLinear(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    EMBARK_TRY(requiredInput(node, inputs, 1));
    const ir::Tensor& x = inputs[0];
    const ir::Tensor* zp = optionalInput(inputs, 2);
    EMBARK_TRY(requireType(node, "input x", x.dtype(), {DType::Float32, DType::Float16, DType::Float64, DType::Int32}));
    const DType outType = zp ? zp->dtype() : DType::UInt8;
    EMBARK_TRY(requireType(node, "y_zero_point", outType, {DType::Int8, DType::UInt8, DType::Int16, DType::UInt16}));
    Expected<QuantParams> q = readQuantParams(node, "y", inputs[1], zp, x.shape(), node.attrInt("axis", 1));
    if (!q) return q.error();
    ir::Tensor y(outType, x.shape());
    std::vector<double> values(static_cast<size_t>(x.numel()));
    for (int64_t i = 0; i < x.numel(); ++i) {
        const int64_t c = q->channelOf(i);
        // float32 division as ONNX's reference (numpy on float32) and ONNX Runtime compute it.
        const float scaled = static_cast<float>(x.at(i)) / q->scale[static_cast<size_t>(c)];
        values[static_cast<size_t>(i)] =
            saturate(roundHalfEven(scaled) + static_cast<double>(q->zeroPoint[static_cast<size_t>(c)]), outType);
    }
    return Tensors{fromDoubles(outType, x.shape(), values)};
}

Expected<Tensors> dequantizeLinear(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    EMBARK_TRY(requiredInput(node, inputs, 1));
    const ir::Tensor& x = inputs[0];
    const ir::Tensor* zp = optionalInput(inputs, 2);
    EMBARK_TRY(requireType(node, "input x", x.dtype(),
                           {DType::Int8, DType::UInt8, DType::Int16, DType::UInt16, DType::Int32}));
    if (zp && zp->dtype() != x.dtype())
        return invalid(node, "x_zero_point is " + typeName(zp->dtype()) + " but x is " + typeName(x.dtype()) +
                                 ": they must have the same type");
    Expected<QuantParams> q = readQuantParams(node, "x", inputs[1], zp, x.shape(), node.attrInt("axis", 1));
    if (!q) return q.error();
    if (x.dtype() == DType::Int32)
        for (int64_t z : q->zeroPoint)
            if (z != 0) return invalid(node, "an int32 x needs a zero point of 0 (ONNX), not " + std::to_string(z));
    ir::Tensor y(DType::Float32, x.shape());
    float* out = y.mutableAs<float>();
    for (int64_t i = 0; i < x.numel(); ++i) {
        const int64_t c = q->channelOf(i);
        out[i] = (static_cast<float>(x.intAt(i)) - static_cast<float>(q->zeroPoint[static_cast<size_t>(c)])) *
                 q->scale[static_cast<size_t>(c)];
    }
    return Tensors{y};
}

// uint8 with the range [min(x, 0), max(x, 0)] mapped onto [0, 255] (ONNX's formula).
Expected<Tensors> dynamicQuantizeLinear(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    const ir::Tensor& x = inputs[0];
    EMBARK_TRY(requireType(node, "input x", x.dtype(), {DType::Float32}));
    const float* v = x.as<float>();
    float lo = 0.f, hi = 0.f;
    for (int64_t i = 0; i < x.numel(); ++i) {
        if (std::isnan(v[i])) return invalid(node, "input x holds NaN at element " + std::to_string(i));
        lo = std::min(lo, v[i]);
        hi = std::max(hi, v[i]);
    }
    const float scale = (hi - lo) / 255.f;
    double zeroPoint = 0;
    if (scale > 0) zeroPoint = saturate(roundHalfEven(0.f - lo / scale), DType::UInt8);
    std::vector<double> q(static_cast<size_t>(x.numel()), zeroPoint);
    if (scale > 0)
        for (int64_t i = 0; i < x.numel(); ++i)
            q[static_cast<size_t>(i)] = saturate(roundHalfEven(v[i] / scale) + zeroPoint, DType::UInt8);
    return Tensors{fromDoubles(DType::UInt8, x.shape(), q), ir::Tensor::scalarFloat(scale),
                   fromDoubles(DType::UInt8, ir::Shape{}, {zeroPoint})};
}

} // namespace

bool isQuantizedType(DType t) {
    return t == DType::Int8 || t == DType::UInt8 || t == DType::Int16 || t == DType::UInt16 || t == DType::Int32;
}

Status requireType(const ir::Node& node, const std::string& what, DType t, std::initializer_list<DType> allowed) {
    if (std::find(allowed.begin(), allowed.end(), t) != allowed.end()) return {};
    std::string list;
    for (DType a : allowed) list += (list.empty() ? "" : ", ") + typeName(a);
    return unsupported(node, what + " has dtype " + typeName(t) + ", which Embark's reference does not support here (" +
                                 list + ")");
}

double saturate(double v, DType t) {
    if (std::isnan(v)) return 0;
    const Range r = rangeOf(t);
    return std::clamp(v, r.lo, r.hi);
}

double roundHalfEven(double v) { return std::nearbyint(v); }

Expected<QuantParams> readQuantParams(const ir::Node& node, const std::string& what, const ir::Tensor& scale,
                                      const ir::Tensor* zeroPoint, const ir::Shape& dataShape, int64_t axis) {
    QuantParams q;
    const std::string scaleName = what + "_scale", zpName = what + "_zero_point";
    if (!ir::isFloating(scale.dtype()))
        return unsupported(node, scaleName + " has dtype " + typeName(scale.dtype()) + "; a scale must be a float");
    const int64_t n = scale.numel();
    if (n == 0 || scale.shape().rank() > 1)
        return invalid(node, scaleName + " has shape " + scale.shape().str() +
                                 "; it must be a scalar (per tensor) or 1-D (per axis)");
    if (n > 1) {
        const int64_t rank = static_cast<int64_t>(dataShape.rank());
        Expected<int64_t> a = normalizedAxis(node, axis, rank);
        if (!a) return a.error();
        q.axis = *a;
        q.count = dataShape[static_cast<size_t>(*a)];
        if (q.count != n)
            return invalid(node, scaleName + " has " + std::to_string(n) + " values but axis " + std::to_string(axis) +
                                     " of " + what + " " + dataShape.str() + " has " + std::to_string(q.count) +
                                     ": per-axis scales need one value per index of the axis");
        for (size_t i = static_cast<size_t>(*a) + 1; i < dataShape.rank(); ++i) q.inner *= dataShape[i];
    }
    for (int64_t i = 0; i < n; ++i) {
        const float s = static_cast<float>(scale.at(i));
        if (!(s > 0) || !std::isfinite(s))
            return invalid(node, scaleName + " value " + std::to_string(i) + " is " + std::to_string(s) +
                                     "; scales must be positive and finite (the model is broken)");
        q.scale.push_back(s);
    }
    if (zeroPoint) {
        if (zeroPoint->numel() != n)
            return invalid(node, zpName + " has " + std::to_string(zeroPoint->numel()) + " values but " + scaleName +
                                     " has " + std::to_string(n) + ": they must have the same shape");
        if (!isQuantizedType(zeroPoint->dtype()))
            return unsupported(
                node, zpName + " has dtype " + typeName(zeroPoint->dtype()) +
                          ", which Embark's reference does not quantize to (int8, uint8, int16, uint16, int32)");
        for (int64_t i = 0; i < n; ++i) q.zeroPoint.push_back(zeroPoint->intAt(i));
    } else {
        q.zeroPoint.assign(static_cast<size_t>(n), 0);
    }
    return q;
}

ir::Tensor centered(const ir::Tensor& q, const std::vector<int64_t>& zeroPoint,
                    const std::function<int64_t(int64_t)>& channelOf) {
    ir::Tensor out(DType::Float32, q.shape());
    float* p = out.mutableAs<float>();
    const bool single = zeroPoint.size() <= 1;
    const int64_t zp0 = zeroPoint.empty() ? 0 : zeroPoint[0];
    for (int64_t i = 0; i < q.numel(); ++i)
        p[i] = static_cast<float>(q.intAt(i) - (single ? zp0 : zeroPoint[static_cast<size_t>(channelOf(i))]));
    return out;
}

Expected<Tensors> quantizeKernel(const ir::Node& node, const Tensors& inputs) {
    switch (node.op) {
    case ir::OpKind::QuantizeLinear: return quantizeLinear(node, inputs);
    case ir::OpKind::DequantizeLinear: return dequantizeLinear(node, inputs);
    case ir::OpKind::DynamicQuantizeLinear: return dynamicQuantizeLinear(node, inputs);
    default: return unsupported(node, "not a quantize op");
    }
}

} // namespace embark::reference::detail

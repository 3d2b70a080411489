// Data creation and plumbing: Constant, ConstantOfShape, Range, Identity, Dropout
// (inference), Cast.
#include "kernels.h"

#include <cmath>
#include <cstring>
#include <optional>

namespace embark::reference::detail {
namespace {

using ir::DType;
using ir::OpKind;

// Cast's `to` keeps its ONNX meaning (a TensorProto element-type number); an IR dtype name
// ("float32") is accepted too, for graphs built in code.
std::optional<DType> castTarget(const ir::Node& node) {
    auto it = node.attrs.find("to");
    if (it == node.attrs.end()) return std::nullopt;
    if (auto s = std::get_if<std::string>(&it->second)) {
        DType t;
        if (ir::dtypeFromName(*s, &t)) return t;
        return std::nullopt;
    }
    switch (node.attrInt("to", 0)) {
    case 1: return DType::Float32;
    case 2: return DType::UInt8;
    case 3: return DType::Int8;
    case 4: return DType::UInt16;
    case 5: return DType::Int16;
    case 6: return DType::Int32;
    case 7: return DType::Int64;
    case 9: return DType::Bool;
    case 10: return DType::Float16;
    case 11: return DType::Float64;
    case 12: return DType::UInt32;
    case 13: return DType::UInt64;
    default: return std::nullopt;
    }
}

Expected<Tensors> constantValue(const ir::Node& node) {
    if (const ir::Tensor* t = node.attrTensor("value")) return Tensors{*t};
    if (node.has("value_float")) return Tensors{ir::Tensor::scalarFloat(node.attrFloat("value_float", 0))};
    if (node.has("value_int")) return Tensors{ir::Tensor::scalarInt64(node.attrInt("value_int", 0))};
    if (node.has("value_floats")) {
        const std::vector<float> v = node.attrFloats("value_floats");
        return Tensors{ir::Tensor::fromFloats(ir::Shape{static_cast<int64_t>(v.size())}, v)};
    }
    if (node.has("value_ints")) return Tensors{int64Vector(node.attrInts("value_ints"))};
    return unsupported(node, "needs a 'value' tensor attribute (string and sparse values are not supported)");
}

Expected<Tensors> rangeValue(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 3; ++i) {
        EMBARK_TRY(requiredInput(node, inputs, i));
        if (inputs[i].numel() != 1)
            return invalid(node, "input " + std::to_string(i) + " must be a scalar, got " + inputs[i].shape().str());
    }
    const DType dtype = inputs[0].dtype();
    const double start = inputs[0].at(0), limit = inputs[1].at(0), delta = inputs[2].at(0);
    if (delta == 0) return invalid(node, "delta is zero");
    const double count = std::ceil((limit - start) / delta);
    if (!(count < 1e9)) return invalid(node, "the range has too many elements (" + std::to_string(count) + ")");
    const int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
    std::vector<double> v(static_cast<size_t>(n));
    if (ir::isInteger(dtype)) {
        const int64_t s = inputs[0].intAt(0), d = inputs[2].intAt(0);
        for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<double>(s + i * d);
    } else {
        for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + static_cast<double>(i) * delta;
    }
    return Tensors{fromDoubles(dtype, ir::Shape{n}, v)};
}

} // namespace

Expected<Tensors> dataKernel(const ir::Node& node, const Tensors& inputs) {
    switch (node.op) {
    case OpKind::Constant: return constantValue(node);
    case OpKind::ConstantOfShape: {
        Expected<const ir::Tensor*> shapeT = requiredInput(node, inputs, 0);
        if (!shapeT) return shapeT.error();
        ir::Shape shape((*shapeT)->toInt64Vector());
        auto count = shape.checkedNumel();
        if (!count) return invalid(node, "shape " + shape.str() + " is invalid");
        ir::Tensor fill = ir::Tensor::scalarFloat(0.f);
        if (const ir::Tensor* t = node.attrTensor("value")) {
            if (t->numel() != 1) return invalid(node, "'value' must hold one element");
            fill = *t;
        }
        ir::Tensor out(fill.dtype(), shape);
        const size_t size = ir::dtypeSize(fill.dtype());
        auto* dst = static_cast<char*>(out.mutableData());
        for (int64_t i = 0; i < *count; ++i) std::memcpy(dst + static_cast<size_t>(i) * size, fill.data(), size);
        return Tensors{out};
    }
    case OpKind::Range: return rangeValue(node, inputs);
    case OpKind::Identity: {
        Expected<const ir::Tensor*> x = requiredInput(node, inputs, 0);
        if (!x) return x.error();
        return Tensors{**x};
    }
    case OpKind::Dropout: {
        Expected<const ir::Tensor*> x = requiredInput(node, inputs, 0);
        if (!x) return x.error();
        // Training mode drops at random, except with ratio 0 (then it is the identity).
        const ir::Tensor* ratio = optionalInput(inputs, 1);
        if (const ir::Tensor* training = optionalInput(inputs, 2);
            training && training->at(0) != 0 && !(ratio && ratio->at(0) == 0))
            return unsupported(node, "training mode is not supported (the reference runs inference)");
        ir::Tensor mask(DType::Bool, (*x)->shape());
        if (mask.numel() > 0) std::memset(mask.mutableData(), 1, mask.byteSize());
        return Tensors{**x, mask};
    }
    case OpKind::Cast: {
        Expected<const ir::Tensor*> x = requiredInput(node, inputs, 0);
        if (!x) return x.error();
        const std::optional<DType> to = castTarget(node);
        if (!to) return unsupported(node, "target type 'to' is missing or not supported");
        return Tensors{(*x)->castTo(*to)};
    }
    default: return unsupported(node, "not a data op");
    }
}

} // namespace embark::reference::detail

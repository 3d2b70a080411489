// Element-wise maths beyond elementwise.cpp (inverse and hyperbolic trigonometry,
// ThresholdedRelu, Shrink, Celu, IsNaN, IsInf), Hardmax, CastLike and EyeLike.
#include "kernels.h"

#include <cmath>

namespace embark::reference::detail {
namespace {

using ir::DType;
using ir::OpKind;

template <typename F> ir::Tensor mapped(const ir::Tensor& x, DType outType, F f) {
    std::vector<double> v = toDoubles(x);
    for (double& a : v) a = f(a);
    return fromDoubles(outType, x.shape(), v);
}

Expected<Tensors> hardmax(const ir::Node& node, const ir::Tensor& x) {
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", -1), rank);
    if (!axis) return axis.error();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < rank; ++d) {
        if (d < *axis) outer *= x.shape()[static_cast<size_t>(d)];
        if (d > *axis) inner *= x.shape()[static_cast<size_t>(d)];
    }
    const int64_t dim = x.shape()[static_cast<size_t>(*axis)];
    const std::vector<double> v = toDoubles(x);
    std::vector<double> out(v.size(), 0.0);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            int64_t best = 0; // the first maximum wins
            for (int64_t k = 1; k < dim; ++k)
                if (v[static_cast<size_t>((o * dim + k) * inner + i)] > v[static_cast<size_t>((o * dim + best) * inner + i)]) best = k;
            if (dim) out[static_cast<size_t>((o * dim + best) * inner + i)] = 1.0;
        }
    return Tensors{fromDoubles(x.dtype(), x.shape(), out)};
}

Expected<Tensors> eyeLike(const ir::Node& node, const ir::Tensor& x) {
    if (x.shape().rank() != 2) return invalid(node, "input must be 2-D, not " + x.shape().str());
    DType dtype = x.dtype();
    if (node.has("dtype")) {
        // ONNX TensorProto numbers, as Cast's `to`.
        static constexpr DType kByOnnx[] = {DType::Undefined, DType::Float32, DType::UInt8, DType::Int8, DType::UInt16,
                                            DType::Int16, DType::Int32, DType::Int64, DType::Undefined, DType::Bool,
                                            DType::Float16, DType::Float64, DType::UInt32, DType::UInt64};
        const int64_t t = node.attrInt("dtype", 1);
        if (t <= 0 || t >= 14 || kByOnnx[t] == DType::Undefined) return unsupported(node, "dtype " + std::to_string(t) + " is not supported");
        dtype = kByOnnx[t];
    }
    const int64_t rows = x.shape()[0], cols = x.shape()[1], k = node.attrInt("k", 0);
    std::vector<double> v(static_cast<size_t>(rows * cols), 0.0);
    for (int64_t r = 0; r < rows; ++r)
        if (r + k >= 0 && r + k < cols) v[static_cast<size_t>(r * cols + r + k)] = 1.0;
    return Tensors{fromDoubles(dtype, x.shape(), v)};
}

} // namespace

Expected<Tensors> mathKernel(const ir::Node& node, const Tensors& inputs) {
    Expected<const ir::Tensor*> in = requiredInput(node, inputs, 0);
    if (!in) return in.error();
    const ir::Tensor& x = **in;
    const DType t = x.dtype();
    switch (node.op) {
    case OpKind::Tan: return Tensors{mapped(x, t, [](double a) { return std::tan(a); })};
    case OpKind::Asin: return Tensors{mapped(x, t, [](double a) { return std::asin(a); })};
    case OpKind::Acos: return Tensors{mapped(x, t, [](double a) { return std::acos(a); })};
    case OpKind::Atan: return Tensors{mapped(x, t, [](double a) { return std::atan(a); })};
    case OpKind::Sinh: return Tensors{mapped(x, t, [](double a) { return std::sinh(a); })};
    case OpKind::Cosh: return Tensors{mapped(x, t, [](double a) { return std::cosh(a); })};
    case OpKind::Asinh: return Tensors{mapped(x, t, [](double a) { return std::asinh(a); })};
    case OpKind::Acosh: return Tensors{mapped(x, t, [](double a) { return std::acosh(a); })};
    case OpKind::Atanh: return Tensors{mapped(x, t, [](double a) { return std::atanh(a); })};
    case OpKind::IsNaN: return Tensors{mapped(x, DType::Bool, [](double a) { return std::isnan(a) ? 1.0 : 0.0; })};
    case OpKind::IsInf: {
        const bool pos = node.attrInt("detect_positive", 1) != 0, neg = node.attrInt("detect_negative", 1) != 0;
        return Tensors{mapped(x, DType::Bool, [=](double a) { return std::isinf(a) && ((a > 0 && pos) || (a < 0 && neg)) ? 1.0 : 0.0; })};
    }
    case OpKind::ThresholdedRelu: {
        const double alpha = node.attrFloat("alpha", 1.0f);
        return Tensors{mapped(x, t, [=](double a) { return a > alpha ? a : 0.0; })};
    }
    case OpKind::Shrink: {
        const double lambd = node.attrFloat("lambd", 0.5f), bias = node.attrFloat("bias", 0.0f);
        return Tensors{mapped(x, t, [=](double a) { return a < -lambd ? a + bias : a > lambd ? a - bias : 0.0; })};
    }
    case OpKind::Celu: {
        const double alpha = node.attrFloat("alpha", 1.0f);
        return Tensors{mapped(x, t, [=](double a) { return std::max(0.0, a) + std::min(0.0, alpha * (std::exp(a / alpha) - 1)); })};
    }
    case OpKind::Hardmax: return hardmax(node, x);
    case OpKind::CastLike: {
        Expected<const ir::Tensor*> like = requiredInput(node, inputs, 1);
        if (!like) return like.error();
        return Tensors{x.castTo((*like)->dtype())};
    }
    case OpKind::EyeLike: return eyeLike(node, x);
    default: return unsupported(node, "not a maths op");
    }
}

} // namespace embark::reference::detail

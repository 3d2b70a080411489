// Element-wise maths beyond elementwise.cpp (inverse and hyperbolic trigonometry,
// ThresholdedRelu, Shrink, Celu, IsNaN, IsInf), Hardmax, CastLike, EyeLike, Det,
// MeanVarianceNormalization and the Hann, Hamming and Blackman windows.
#include "kernels.h"

#include <cmath>
#include <numbers>
#include <optional>

namespace embark::reference::detail {
namespace {

using ir::DType;
using ir::OpKind;
using ir::Shape;

template <typename F>
ir::Tensor mapped(const ir::Tensor& x, DType outType, F f) {
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
                if (v[static_cast<size_t>((o * dim + k) * inner + i)] >
                    v[static_cast<size_t>((o * dim + best) * inner + i)])
                    best = k;
            if (dim) out[static_cast<size_t>((o * dim + best) * inner + i)] = 1.0;
        }
    return Tensors{fromDoubles(x.dtype(), x.shape(), out)};
}

Expected<Tensors> eyeLike(const ir::Node& node, const ir::Tensor& x) {
    if (x.shape().rank() != 2) return invalid(node, "input must be 2-D, not " + x.shape().str());
    DType dtype = x.dtype();
    if (node.has("dtype")) {
        // ONNX TensorProto numbers, as Cast's `to`.
        static constexpr DType kByOnnx[] = {DType::Undefined, DType::Float32, DType::UInt8,   DType::Int8,
                                            DType::UInt16,    DType::Int16,   DType::Int32,   DType::Int64,
                                            DType::Undefined, DType::Bool,    DType::Float16, DType::Float64,
                                            DType::UInt32,    DType::UInt64};
        const int64_t t = node.attrInt("dtype", 1);
        if (t <= 0 || t >= 14 || kByOnnx[t] == DType::Undefined)
            return unsupported(node, "dtype " + std::to_string(t) + " is not supported");
        dtype = kByOnnx[t];
    }
    const int64_t rows = x.shape()[0], cols = x.shape()[1], k = node.attrInt("k", 0);
    std::vector<double> v(static_cast<size_t>(rows * cols), 0.0);
    for (int64_t r = 0; r < rows; ++r)
        if (r + k >= 0 && r + k < cols) v[static_cast<size_t>(r * cols + r + k)] = 1.0;
    return Tensors{fromDoubles(dtype, x.shape(), v)};
}

std::optional<DType> onnxDType(int64_t t) {
    static constexpr DType kByOnnx[] = {
        DType::Undefined, DType::Float32,   DType::UInt8, DType::Int8,    DType::UInt16,  DType::Int16,  DType::Int32,
        DType::Int64,     DType::Undefined, DType::Bool,  DType::Float16, DType::Float64, DType::UInt32, DType::UInt64};
    if (t <= 0 || t >= 14 || kByOnnx[t] == DType::Undefined) return std::nullopt;
    return kByOnnx[t];
}

Expected<Tensors> det(const ir::Node& node, const ir::Tensor& x) {
    const Shape& s = x.shape();
    if (s.rank() < 2 || s[s.rank() - 1] != s[s.rank() - 2])
        return invalid(node, "input must be [..., M, M], not " + s.str());
    const int64_t m = s[s.rank() - 1], batch = m ? x.numel() / (m * m) : 0;
    const std::vector<double> v = toDoubles(x);
    std::vector<double> out(static_cast<size_t>(batch));
    for (int64_t b = 0; b < batch; ++b) {
        std::vector<double> a(v.begin() + b * m * m, v.begin() + (b + 1) * m * m);
        double d = 1;
        for (int64_t c = 0; c < m; ++c) { // Gaussian elimination with partial pivoting
            int64_t p = c;
            for (int64_t r = c + 1; r < m; ++r)
                if (std::fabs(a[static_cast<size_t>(r * m + c)]) > std::fabs(a[static_cast<size_t>(p * m + c)])) p = r;
            if (a[static_cast<size_t>(p * m + c)] == 0) {
                d = 0;
                break;
            }
            if (p != c) {
                for (int64_t k = 0; k < m; ++k)
                    std::swap(a[static_cast<size_t>(p * m + k)], a[static_cast<size_t>(c * m + k)]);
                d = -d;
            }
            const double pivot = a[static_cast<size_t>(c * m + c)];
            d *= pivot;
            for (int64_t r = c + 1; r < m; ++r) {
                const double f = a[static_cast<size_t>(r * m + c)] / pivot;
                for (int64_t k = c; k < m; ++k)
                    a[static_cast<size_t>(r * m + k)] -= f * a[static_cast<size_t>(c * m + k)];
            }
        }
        out[static_cast<size_t>(b)] = d;
    }
    return Tensors{fromDoubles(x.dtype(), Shape(std::vector<int64_t>(s.dims().begin(), s.dims().end() - 2)), out)};
}

// ONNX's function: (X - E[X]) / (sqrt(E[X^2] - E[X]^2) + 1e-9) over `axes`.
Expected<Tensors> meanVarianceNormalization(const ir::Node& node, const ir::Tensor& x) {
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    std::vector<bool> reduced(static_cast<size_t>(rank), false);
    for (int64_t a : node.attrInts("axes", {0, 2, 3})) {
        Expected<int64_t> ax = normalizedAxis(node, a, rank);
        if (!ax) return ax.error();
        reduced[static_cast<size_t>(*ax)] = true;
    }
    const std::vector<int64_t> strides = stridesOf(x.shape());
    // Output slot of each element: its coordinates on the kept axes.
    std::vector<int64_t> slot(static_cast<size_t>(x.numel()));
    int64_t slots = 1;
    for (int64_t d = rank - 1, scale = 1; d >= 0; --d) {
        if (reduced[static_cast<size_t>(d)]) continue;
        for (int64_t i = 0; i < x.numel(); ++i)
            slot[static_cast<size_t>(i)] +=
                i / strides[static_cast<size_t>(d)] % x.shape()[static_cast<size_t>(d)] * scale;
        scale *= x.shape()[static_cast<size_t>(d)];
        slots = scale;
    }
    const std::vector<double> v = toDoubles(x);
    std::vector<double> sum(static_cast<size_t>(slots)), sq(static_cast<size_t>(slots)), out(v.size());
    const double count = static_cast<double>(x.numel()) / static_cast<double>(std::max<int64_t>(slots, 1));
    for (size_t i = 0; i < v.size(); ++i) {
        sum[static_cast<size_t>(slot[i])] += v[i];
        sq[static_cast<size_t>(slot[i])] += v[i] * v[i];
    }
    for (size_t i = 0; i < v.size(); ++i) {
        const double mean = sum[static_cast<size_t>(slot[i])] / count,
                     var = sq[static_cast<size_t>(slot[i])] / count - mean * mean;
        out[i] = (v[i] - mean) / (std::sqrt(std::max(var, 0.0)) + 1e-9);
    }
    return Tensors{fromDoubles(x.dtype(), x.shape(), out)};
}

Expected<Tensors> window(const ir::Node& node, const ir::Tensor& sizeT) {
    if (sizeT.numel() != 1) return invalid(node, "size must be a scalar");
    const int64_t size = sizeT.intAt(0);
    if (size < 0) return invalid(node, "size must not be negative");
    const std::optional<DType> dtype = onnxDType(node.attrInt("output_datatype", 1));
    if (!dtype)
        return unsupported(node, "output_datatype " + std::to_string(node.attrInt("output_datatype", 1)) +
                                     " is not supported");
    const double N = static_cast<double>(node.attrInt("periodic", 1) != 0 ? size : size - 1);
    std::vector<double> w(static_cast<size_t>(size));
    for (int64_t n = 0; n < size; ++n) {
        const double c = std::cos(2 * std::numbers::pi * static_cast<double>(n) / N);
        const double c2 = std::cos(4 * std::numbers::pi * static_cast<double>(n) / N);
        double& v = w[static_cast<size_t>(n)];
        if (node.op == OpKind::HannWindow)
            v = 0.5 - 0.5 * c;
        else if (node.op == OpKind::HammingWindow)
            v = 25.0 / 46.0 - 21.0 / 46.0 * c;
        else
            v = 0.42 - 0.5 * c + 0.08 * c2;
    }
    return Tensors{fromDoubles(*dtype, Shape{size}, w)};
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
        return Tensors{mapped(
            x, DType::Bool, [=](double a) { return std::isinf(a) && ((a > 0 && pos) || (a < 0 && neg)) ? 1.0 : 0.0; })};
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
        return Tensors{mapped(
            x, t, [=](double a) { return std::max(0.0, a) + std::min(0.0, alpha * (std::exp(a / alpha) - 1)); })};
    }
    case OpKind::Hardmax: return hardmax(node, x);
    case OpKind::CastLike: {
        Expected<const ir::Tensor*> like = requiredInput(node, inputs, 1);
        if (!like) return like.error();
        return Tensors{x.castTo((*like)->dtype())};
    }
    case OpKind::EyeLike: return eyeLike(node, x);
    case OpKind::Det: return det(node, x);
    case OpKind::MeanVarianceNormalization: return meanVarianceNormalization(node, x);
    case OpKind::HannWindow:
    case OpKind::HammingWindow:
    case OpKind::BlackmanWindow: return window(node, x);
    default: return unsupported(node, "not a maths op");
    }
}

} // namespace embark::reference::detail

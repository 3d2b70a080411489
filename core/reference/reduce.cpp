// Softmax and LogSoftmax (opset-13 semantics: one axis), ReduceMean/Sum/Max/Min/Prod/L1/L2/
// SumSquare/LogSum/LogSumExp
// (axes input, keepdims, noop_with_empty_axes) and ArgMax/ArgMin (keepdims,
// select_last_index). Accumulation in double.
#include "kernels.h"

#include <cmath>
#include <limits>

namespace embark::reference::detail {
namespace {

using ir::OpKind;

// Maps each input element to its output element when the `reduced` axes collapse.
std::vector<int64_t> reductionIndex(const ir::Shape& in, const std::vector<bool>& reduced) {
    const size_t rank = in.rank();
    std::vector<int64_t> outStride(rank, 0);
    int64_t s = 1;
    for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
        const size_t u = static_cast<size_t>(d);
        if (reduced[u]) continue;
        outStride[u] = s;
        s *= in[u];
    }
    const int64_t n = in.numel();
    std::vector<int64_t> index(static_cast<size_t>(n));
    std::vector<int64_t> counter(rank, 0);
    int64_t pos = 0;
    for (int64_t i = 0; i < n; ++i) {
        index[static_cast<size_t>(i)] = pos;
        for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
            const size_t u = static_cast<size_t>(d);
            pos += outStride[u];
            if (++counter[u] < in[u]) break;
            pos -= outStride[u] * in[u];
            counter[u] = 0;
        }
    }
    return index;
}

ir::Shape reducedShape(const ir::Shape& in, const std::vector<bool>& reduced, bool keepDims) {
    std::vector<int64_t> dims;
    for (size_t d = 0; d < in.rank(); ++d) {
        if (!reduced[d])
            dims.push_back(in[d]);
        else if (keepDims)
            dims.push_back(1);
    }
    return ir::Shape(dims);
}

} // namespace

Expected<Tensors> softmaxKernel(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    const ir::Tensor& x = inputs[0];
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    if (rank == 0) return invalid(node, "input must not be a scalar");
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", -1), rank);
    if (!axis) return axis.error();
    int64_t outer = 1, inner = 1;
    const int64_t dim = x.shape()[static_cast<size_t>(*axis)];
    for (int64_t d = 0; d < rank; ++d) {
        if (d < *axis) outer *= x.shape()[static_cast<size_t>(d)];
        if (d > *axis) inner *= x.shape()[static_cast<size_t>(d)];
    }
    const bool logSoftmax = node.op == OpKind::LogSoftmax;
    ir::Tensor out(ir::DType::Float32, x.shape());
    const float* src = x.as<float>();
    float* dst = out.mutableAs<float>();
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const int64_t base = o * dim * inner + i;
            double maxV = -std::numeric_limits<double>::infinity();
            for (int64_t k = 0; k < dim; ++k) maxV = std::fmax(maxV, src[base + k * inner]);
            double sum = 0;
            for (int64_t k = 0; k < dim; ++k) sum += std::exp(src[base + k * inner] - maxV);
            for (int64_t k = 0; k < dim; ++k) {
                const double shifted = src[base + k * inner] - maxV;
                dst[base + k * inner] =
                    static_cast<float>(logSoftmax ? shifted - std::log(sum) : std::exp(shifted) / sum);
            }
        }
    return Tensors{out};
}

Expected<Tensors> reduceKernel(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    const ir::Tensor& x = inputs[0];
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    std::vector<int64_t> axes = node.attrInts("axes");
    if (const ir::Tensor* t = optionalInput(inputs, 1)) axes = t->toInt64Vector();
    const bool keepDims = node.attrInt("keepdims", 1) != 0;
    if (axes.empty() && node.attrInt("noop_with_empty_axes", 0) != 0) return Tensors{x};
    std::vector<bool> reduced(static_cast<size_t>(rank), axes.empty());
    for (int64_t a : axes) {
        Expected<int64_t> ax = normalizedAxis(node, a, rank);
        if (!ax) return ax.error();
        reduced[static_cast<size_t>(*ax)] = true;
    }
    const ir::Shape outShape = reducedShape(x.shape(), reduced, keepDims);
    const std::vector<int64_t> index = reductionIndex(x.shape(), reduced);
    std::vector<double> v = toDoubles(x);
    const double inf = std::numeric_limits<double>::infinity();
    // ReduceL1, L2, SumSquare, LogSum and LogSumExp: a sum of transformed values (issue 31).
    std::vector<double> shift;
    switch (node.op) {
    case OpKind::ReduceL1:
        for (double& a : v) a = std::fabs(a);
        break;
    case OpKind::ReduceL2:
    case OpKind::ReduceSumSquare:
        for (double& a : v) a *= a;
        break;
    case OpKind::ReduceLogSumExp:
        shift.assign(static_cast<size_t>(outShape.numel()), -inf);
        for (size_t i = 0; i < v.size(); ++i)
            shift[static_cast<size_t>(index[i])] = std::max(shift[static_cast<size_t>(index[i])], v[i]);
        for (double& m : shift) m = std::isfinite(m) ? m : 0.0;
        for (size_t i = 0; i < v.size(); ++i) v[i] = std::exp(v[i] - shift[static_cast<size_t>(index[i])]);
        break;
    default: break;
    }
    const bool sumOfTransformed = node.op == OpKind::ReduceL1 || node.op == OpKind::ReduceL2 ||
                                  node.op == OpKind::ReduceSumSquare || node.op == OpKind::ReduceLogSum ||
                                  node.op == OpKind::ReduceLogSumExp;
    double init = 0;
    if (node.op == OpKind::ReduceProd) init = 1;
    if (node.op == OpKind::ReduceMax) init = -inf;
    if (node.op == OpKind::ReduceMin) init = inf;
    std::vector<double> acc(static_cast<size_t>(outShape.numel()), init);
    for (size_t i = 0; i < v.size(); ++i) {
        double& a = acc[static_cast<size_t>(index[i])];
        switch (node.op) {
        case OpKind::ReduceMean:
        case OpKind::ReduceSum: a += v[i]; break;
        case OpKind::ReduceL1:
        case OpKind::ReduceL2:
        case OpKind::ReduceSumSquare:
        case OpKind::ReduceLogSum:
        case OpKind::ReduceLogSumExp: a += v[i]; break;
        case OpKind::ReduceProd: a *= v[i]; break;
        case OpKind::ReduceMax: a = (v[i] != v[i] || v[i] > a) ? v[i] : a; break;
        case OpKind::ReduceMin: a = (v[i] != v[i] || v[i] < a) ? v[i] : a; break;
        default: return unsupported(node, "not a reduction");
        }
    }
    if (sumOfTransformed)
        for (size_t o = 0; o < acc.size(); ++o) {
            double& a = acc[o];
            if (node.op == OpKind::ReduceL2) a = std::sqrt(a);
            if (node.op == OpKind::ReduceLogSum) a = std::log(a);
            if (node.op == OpKind::ReduceLogSumExp) a = std::log(a) + shift[o];
        }
    if (node.op == OpKind::ReduceMean) {
        const double count = acc.empty() ? 1.0 : static_cast<double>(v.size()) / static_cast<double>(acc.size());
        for (double& a : acc) a /= count;
    }
    return Tensors{fromDoubles(x.dtype(), outShape, acc)};
}

Expected<Tensors> argKernel(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    const ir::Tensor& x = inputs[0];
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", 0), rank);
    if (!axis) return axis.error();
    const bool keepDims = node.attrInt("keepdims", 1) != 0;
    const bool last = node.attrInt("select_last_index", 0) != 0;
    const bool isMax = node.op == OpKind::ArgMax;
    std::vector<bool> reduced(static_cast<size_t>(rank), false);
    reduced[static_cast<size_t>(*axis)] = true;
    const ir::Shape outShape = reducedShape(x.shape(), reduced, keepDims);
    const int64_t dim = x.shape()[static_cast<size_t>(*axis)];
    if (dim == 0) return invalid(node, "cannot take ArgMax/ArgMin over an empty axis");
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < rank; ++d) {
        if (d < *axis) outer *= x.shape()[static_cast<size_t>(d)];
        if (d > *axis) inner *= x.shape()[static_cast<size_t>(d)];
    }
    const std::vector<double> v = toDoubles(x);
    std::vector<int64_t> result(static_cast<size_t>(outer * inner));
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const int64_t base = o * dim * inner + i;
            int64_t best = 0;
            for (int64_t k = 1; k < dim; ++k) {
                const double c = v[static_cast<size_t>(base + k * inner)];
                const double b = v[static_cast<size_t>(base + best * inner)];
                const bool better = isMax ? (c > b || (last && c == b)) : (c < b || (last && c == b));
                if (better) best = k;
            }
            result[static_cast<size_t>(o * inner + i)] = best;
        }
    return Tensors{ir::Tensor::fromInt64s(outShape, result)};
}

} // namespace embark::reference::detail

// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (reduction none, sum, mean;
// class weights; ignore_index), in double, as ONNX defines them for inference graphs.
#include "kernels.h"

#include <cmath>

namespace embark::reference::detail {
namespace {

using ir::OpKind;
using ir::Shape;

// Loss of log-probabilities `logp` ([N, C, d...], as doubles) against `target` ([N, d...]).
Expected<ir::Tensor> nll(const ir::Node& node, const std::vector<double>& logp, const Shape& shape,
                         const ir::Tensor& target, const ir::Tensor* weight, ir::DType dtype) {
    if (shape.rank() < 2) return invalid(node, "input must be [N, C, d...], not " + shape.str());
    std::vector<int64_t> tdims = shape.dims();
    tdims.erase(tdims.begin() + 1);
    if (target.shape() != Shape(tdims))
        return invalid(node, "target " + target.shape().str() + " must be " + Shape(tdims).str() + " for input " +
                                 shape.str());
    const int64_t N = shape[0], C = shape[1], D = Shape(tdims).numel() / std::max<int64_t>(N, 1);
    const std::string reduction = node.attrString("reduction", "mean");
    if (reduction != "none" && reduction != "sum" && reduction != "mean")
        return invalid(node, "reduction '" + reduction + "' is not none, sum or mean");
    const bool hasIgnore = node.has("ignore_index");
    const int64_t ignore = node.attrInt("ignore_index", 0);
    const std::vector<int64_t> t = target.toInt64Vector();
    const std::vector<double> w = weight ? toDoubles(*weight) : std::vector<double>();
    if (weight && static_cast<int64_t>(w.size()) != C)
        return invalid(node, "weight must hold C = " + std::to_string(C) + " values");
    std::vector<double> loss(t.size(), 0.0);
    double sum = 0, weights = 0;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t d = 0; d < D; ++d) {
            const int64_t c = t[static_cast<size_t>(n * D + d)];
            if (hasIgnore && c == ignore) continue;
            if (c < 0 || c >= C)
                return invalid(node,
                               "target class " + std::to_string(c) + " is outside [0, " + std::to_string(C) + ")");
            const double wc = weight ? w[static_cast<size_t>(c)] : 1.0;
            const double l = -logp[static_cast<size_t>((n * C + c) * D + d)] * wc;
            loss[static_cast<size_t>(n * D + d)] = l;
            sum += l;
            weights += wc;
        }
    if (reduction == "none") return fromDoubles(dtype, Shape(tdims), loss);
    return fromDoubles(dtype, Shape{}, {reduction == "sum" ? sum : sum / weights});
}

} // namespace

Expected<Tensors> lossKernel(const ir::Node& node, const Tensors& inputs) {
    Expected<const ir::Tensor*> x = requiredInput(node, inputs, 0), target = requiredInput(node, inputs, 1);
    if (!x) return x.error();
    if (!target) return target.error();
    const ir::Tensor* weight = optionalInput(inputs, 2);
    const Shape& shape = (*x)->shape();
    std::vector<double> logp = toDoubles(**x);
    if (node.op == OpKind::NegativeLogLikelihoodLoss) {
        Expected<ir::Tensor> loss = nll(node, logp, shape, **target, weight, (*x)->dtype());
        if (!loss) return loss.error();
        return Tensors{*loss};
    }
    // SoftmaxCrossEntropyLoss: log-softmax over the class axis, then the NLL loss.
    if (shape.rank() < 2) return invalid(node, "scores must be [N, C, d...], not " + shape.str());
    const int64_t N = shape[0], C = shape[1], D = shape.numel() / std::max<int64_t>(N * C, 1);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t d = 0; d < D; ++d) {
            double m = -INFINITY, s = 0;
            for (int64_t c = 0; c < C; ++c) m = std::max(m, logp[static_cast<size_t>((n * C + c) * D + d)]);
            for (int64_t c = 0; c < C; ++c) s += std::exp(logp[static_cast<size_t>((n * C + c) * D + d)] - m);
            for (int64_t c = 0; c < C; ++c) logp[static_cast<size_t>((n * C + c) * D + d)] -= m + std::log(s);
        }
    Expected<ir::Tensor> loss = nll(node, logp, shape, **target, weight, (*x)->dtype());
    if (!loss) return loss.error();
    return Tensors{*loss, fromDoubles((*x)->dtype(), shape, logp)};
}

} // namespace embark::reference::detail

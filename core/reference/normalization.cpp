// Normalization kernels: BatchNormalization (inference), InstanceNormalization, LRN,
// LayerNormalization. Statistics are computed in double.
#include "kernels.h"

#include <algorithm>
#include <cmath>

namespace embark::reference::detail {
namespace {

using ir::OpKind;

Expected<Tensors> batchNorm(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 5; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    // Training mode (opset 14+): batch statistics normalise, and the running ones are updated.
    const bool training = node.attrInt("training_mode", 0) != 0;
    if ((!training && node.outputs().size() > 1) || (training && node.outputs().size() > 3))
        return unsupported(node, "training mode is not supported before opset 14 (the reference runs inference)");
    const ir::Tensor& x = inputs[0];
    if (x.shape().rank() < 2) return invalid(node, "X " + x.shape().str() + " needs a channel axis");
    const int64_t n = x.shape()[0], c = x.shape()[1], plane = x.numel() / std::max<int64_t>(1, n * c);
    for (size_t i = 1; i < 5; ++i)
        if (inputs[i].numel() != c)
            return invalid(node, "input " + std::to_string(i) + " has " + std::to_string(inputs[i].numel()) +
                                     " values for " + std::to_string(c) + " channels");
    const double eps = node.attrFloat("epsilon", 1e-5f);
    ir::Tensor out(ir::DType::Float32, x.shape());
    const float* src = x.as<float>();
    float* dst = out.mutableAs<float>();
    std::vector<double> mean(static_cast<size_t>(c)), var(static_cast<size_t>(c));
    for (int64_t ch = 0; ch < c; ++ch) {
        mean[static_cast<size_t>(ch)] = inputs[3].at(ch), var[static_cast<size_t>(ch)] = inputs[4].at(ch);
        if (!training) continue;
        double sum = 0, sq = 0;
        for (int64_t b = 0; b < n; ++b)
            for (int64_t i = 0; i < plane; ++i) {
                const double v = src[(b * c + ch) * plane + i];
                sum += v, sq += v * v;
            }
        const double count = static_cast<double>(std::max<int64_t>(n * plane, 1));
        mean[static_cast<size_t>(ch)] = sum / count;
        var[static_cast<size_t>(ch)] = sq / count - mean[static_cast<size_t>(ch)] * mean[static_cast<size_t>(ch)];
    }
    Tensors outs{out};
    if (training) {
        const double momentum = node.attrFloat("momentum", 0.9f);
        std::vector<float> runMean(static_cast<size_t>(c)), runVar(static_cast<size_t>(c));
        for (int64_t ch = 0; ch < c; ++ch) {
            runMean[static_cast<size_t>(ch)] =
                static_cast<float>(inputs[3].at(ch) * momentum + mean[static_cast<size_t>(ch)] * (1 - momentum));
            runVar[static_cast<size_t>(ch)] =
                static_cast<float>(inputs[4].at(ch) * momentum + var[static_cast<size_t>(ch)] * (1 - momentum));
        }
        outs.push_back(ir::Tensor::fromFloats(ir::Shape{c}, runMean));
        outs.push_back(ir::Tensor::fromFloats(ir::Shape{c}, runVar));
    }
    for (int64_t ch = 0; ch < c; ++ch) {
        const double scale = inputs[1].at(ch) / std::sqrt(var[static_cast<size_t>(ch)] + eps);
        const double shift = inputs[2].at(ch) - mean[static_cast<size_t>(ch)] * scale;
        for (int64_t b = 0; b < n; ++b) {
            const int64_t base = (b * c + ch) * plane;
            for (int64_t i = 0; i < plane; ++i) dst[base + i] = static_cast<float>(src[base + i] * scale + shift);
        }
    }
    outs[0] = out;
    return outs;
}

Expected<Tensors> instanceNorm(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 3; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    const ir::Tensor& x = inputs[0];
    if (x.shape().rank() < 3) return invalid(node, "X " + x.shape().str() + " needs spatial axes");
    const int64_t n = x.shape()[0], c = x.shape()[1], plane = x.numel() / std::max<int64_t>(1, n * c);
    if (inputs[1].numel() != c || inputs[2].numel() != c)
        return invalid(node, "scale and B need " + std::to_string(c) + " values");
    const double eps = node.attrFloat("epsilon", 1e-5f);
    ir::Tensor out(ir::DType::Float32, x.shape());
    const float* src = x.as<float>();
    float* dst = out.mutableAs<float>();
    for (int64_t b = 0; b < n; ++b)
        for (int64_t ch = 0; ch < c; ++ch) {
            const int64_t base = (b * c + ch) * plane;
            double mean = 0, var = 0;
            for (int64_t i = 0; i < plane; ++i) mean += src[base + i];
            mean /= static_cast<double>(plane);
            for (int64_t i = 0; i < plane; ++i) var += (src[base + i] - mean) * (src[base + i] - mean);
            var /= static_cast<double>(plane);
            const double scale = inputs[1].at(ch) / std::sqrt(var + eps), shift = inputs[2].at(ch);
            for (int64_t i = 0; i < plane; ++i)
                dst[base + i] = static_cast<float>((src[base + i] - mean) * scale + shift);
        }
    return Tensors{out};
}

Expected<Tensors> lrn(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    const ir::Tensor& x = inputs[0];
    if (x.shape().rank() < 2) return invalid(node, "X " + x.shape().str() + " needs a channel axis");
    const int64_t size = node.attrInt("size", 0);
    if (size <= 0) return invalid(node, "size must be positive");
    const double alpha = node.attrFloat("alpha", 1e-4f), beta = node.attrFloat("beta", 0.75f);
    const double bias = node.attrFloat("bias", 1.f);
    const int64_t n = x.shape()[0], c = x.shape()[1], plane = x.numel() / std::max<int64_t>(1, n * c);
    const int64_t before = (size - 1) / 2, after = size - 1 - before;
    ir::Tensor out(ir::DType::Float32, x.shape());
    const float* src = x.as<float>();
    float* dst = out.mutableAs<float>();
    for (int64_t b = 0; b < n; ++b)
        for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t i = 0; i < plane; ++i) {
                double sum = 0;
                for (int64_t k = std::max<int64_t>(0, ch - before); k <= std::min(c - 1, ch + after); ++k) {
                    const double v = src[(b * c + k) * plane + i];
                    sum += v * v;
                }
                const int64_t at = (b * c + ch) * plane + i;
                dst[at] = static_cast<float>(src[at] / std::pow(bias + alpha / static_cast<double>(size) * sum, beta));
            }
    return Tensors{out};
}

Expected<Tensors> layerNorm(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 2; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    const ir::Tensor& x = inputs[0];
    const ir::Tensor* bias = optionalInput(inputs, 2);
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", -1), rank);
    if (!axis) return axis.error();
    int64_t outer = 1, inner = 1;
    std::vector<int64_t> statDims;
    for (int64_t d = 0; d < rank; ++d) {
        const int64_t dim = x.shape()[static_cast<size_t>(d)];
        (d < *axis ? outer : inner) *= dim;
        statDims.push_back(d < *axis ? dim : 1);
    }
    const ir::Shape innerShape(std::vector<int64_t>(x.shape().dims().begin() + *axis, x.shape().dims().end()));
    Expected<ir::Shape> sb = broadcastShapes(node, {inputs[1].shape(), innerShape});
    if (!sb || *sb != innerShape)
        return invalid(node, "Scale " + inputs[1].shape().str() + " does not broadcast to " + innerShape.str());
    const std::vector<int64_t> scaleIndex = broadcastIndex(inputs[1].shape(), innerShape);
    std::vector<int64_t> biasIndex;
    if (bias) {
        Expected<ir::Shape> bb = broadcastShapes(node, {bias->shape(), innerShape});
        if (!bb || *bb != innerShape)
            return invalid(node, "B " + bias->shape().str() + " does not broadcast to " + innerShape.str());
        biasIndex = broadcastIndex(bias->shape(), innerShape);
    }
    const double eps = node.attrFloat("epsilon", 1e-5f);
    ir::Tensor out(ir::DType::Float32, x.shape()), meanT(ir::DType::Float32, ir::Shape(statDims)),
        invStdT(ir::DType::Float32, ir::Shape(statDims));
    const float* src = x.as<float>();
    float* dst = out.mutableAs<float>();
    for (int64_t o = 0; o < outer; ++o) {
        const float* row = src + o * inner;
        double mean = 0, var = 0;
        for (int64_t i = 0; i < inner; ++i) mean += row[i];
        mean /= static_cast<double>(inner);
        for (int64_t i = 0; i < inner; ++i) var += (row[i] - mean) * (row[i] - mean);
        var /= static_cast<double>(inner);
        const double invStd = 1.0 / std::sqrt(var + eps);
        meanT.mutableAs<float>()[o] = static_cast<float>(mean);
        invStdT.mutableAs<float>()[o] = static_cast<float>(invStd);
        for (int64_t i = 0; i < inner; ++i) {
            const size_t u = static_cast<size_t>(i);
            double v = (row[i] - mean) * invStd * inputs[1].at(scaleIndex.empty() ? i : scaleIndex[u]);
            if (bias) v += bias->at(biasIndex.empty() ? i : biasIndex[u]);
            dst[o * inner + i] = static_cast<float>(v);
        }
    }
    return Tensors{out, meanT, invStdT};
}

} // namespace

Expected<Tensors> normalizationKernel(const ir::Node& node, const Tensors& inputs) {
    switch (node.op) {
    case OpKind::BatchNormalization: return batchNorm(node, inputs);
    case OpKind::InstanceNormalization: return instanceNorm(node, inputs);
    case OpKind::LRN: return lrn(node, inputs);
    case OpKind::LayerNormalization: return layerNorm(node, inputs);
    default: return unsupported(node, "not a normalization op");
    }
}

} // namespace embark::reference::detail

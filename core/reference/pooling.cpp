// Pooling kernels for 1 to 3 spatial dims: MaxPool (dilations, ceil_mode, pads, optional
// Indices output with storage_order), AveragePool (count_include_pad, ceil_mode, pads),
// GlobalAveragePool, GlobalMaxPool.
#include "kernels.h"

#include <cmath>
#include <limits>

namespace embark::reference::detail {
namespace {

using ir::OpKind;

// Spatial dims padded to 3 at the front, like conv.cpp.
struct Window3 {
    int64_t in[3], out[3], k[3], s[3], d[3], pb[3], pe[3];
};

Window3 toWindow3(const std::vector<int64_t>& in, const SpatialGeometry& g) {
    Window3 w{};
    const size_t n = in.size(), off = 3 - n;
    for (size_t i = 0; i < 3; ++i) {
        const bool real = i >= off;
        const size_t j = real ? i - off : 0;
        w.in[i] = real ? in[j] : 1;
        w.out[i] = real ? g.out[j] : 1;
        w.k[i] = real ? g.kernel[j] : 1;
        w.s[i] = real ? g.strides[j] : 1;
        w.d[i] = real ? g.dilations[j] : 1;
        w.pb[i] = real ? g.padBegin[j] : 0;
        w.pe[i] = real ? g.padEnd[j] : 0;
    }
    return w;
}

} // namespace

Expected<Tensors> poolKernel(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    const ir::Tensor& x = inputs[0];
    const size_t rank = x.shape().rank();
    if (rank < 3 || rank > 5) return unsupported(node, "X " + x.shape().str() + " must have 1 to 3 spatial dims");
    const std::vector<int64_t> kernel = node.attrInts("kernel_shape");
    if (kernel.size() != rank - 2)
        return invalid(node, "kernel_shape must have " + std::to_string(rank - 2) + " values");
    const std::vector<int64_t> spatial(x.shape().dims().begin() + 2, x.shape().dims().end());
    Expected<SpatialGeometry> geom = spatialGeometry(node, spatial, kernel, node.attrInt("ceil_mode", 0) != 0);
    if (!geom) return geom.error();
    const Window3 w = toWindow3(spatial, *geom);
    const bool isMax = node.op == OpKind::MaxPool;
    const bool includePad = node.attrInt("count_include_pad", 0) != 0;
    const bool columnMajor = node.attrInt("storage_order", 0) != 0;
    const int64_t batches = x.shape()[0], channels = x.shape()[1];
    const int64_t inPlane = w.in[0] * w.in[1] * w.in[2], outPlane = w.out[0] * w.out[1] * w.out[2];

    std::vector<int64_t> outDims{batches, channels};
    outDims.insert(outDims.end(), geom->out.begin(), geom->out.end());
    ir::Tensor out(ir::DType::Float32, ir::Shape(outDims));
    ir::Tensor indices(ir::DType::Int64, ir::Shape(outDims));
    float* y = out.mutableAs<float>();
    int64_t* yi = indices.mutableAs<int64_t>();
    for (int64_t plane = 0; plane < batches * channels; ++plane) {
        const float* src = x.as<float>() + plane * inPlane;
        int64_t o = plane * outPlane;
        for (int64_t od = 0; od < w.out[0]; ++od)
            for (int64_t oh = 0; oh < w.out[1]; ++oh)
                for (int64_t ow = 0; ow < w.out[2]; ++ow, ++o) {
                    double best = -std::numeric_limits<double>::infinity(), sum = 0;
                    int64_t bestAt = -1, valid = 0, padded = 0;
                    for (int64_t kd = 0; kd < w.k[0]; ++kd)
                        for (int64_t kh = 0; kh < w.k[1]; ++kh)
                            for (int64_t kw = 0; kw < w.k[2]; ++kw) {
                                const int64_t p[3] = {od * w.s[0] - w.pb[0] + kd * w.d[0],
                                                      oh * w.s[1] - w.pb[1] + kh * w.d[1],
                                                      ow * w.s[2] - w.pb[2] + kw * w.d[2]};
                                bool inside = true, inPadded = true;
                                for (int i = 0; i < 3; ++i) {
                                    inside = inside && p[i] >= 0 && p[i] < w.in[i];
                                    inPadded = inPadded && p[i] >= -w.pb[i] && p[i] < w.in[i] + w.pe[i];
                                }
                                padded += inPadded;
                                if (!inside) continue;
                                ++valid;
                                const int64_t at = (p[0] * w.in[1] + p[1]) * w.in[2] + p[2];
                                const double v = src[at];
                                sum += v;
                                if (v > best || bestAt < 0) {
                                    best = v;
                                    bestAt = columnMajor ? (p[0] * w.in[2] + p[2]) * w.in[1] + p[1] : at;
                                }
                            }
                    if (isMax) {
                        y[o] = valid ? static_cast<float>(best) : -std::numeric_limits<float>::infinity();
                        yi[o] = plane * inPlane + (bestAt < 0 ? 0 : bestAt);
                    } else {
                        const int64_t count = includePad ? padded : valid;
                        y[o] = count ? static_cast<float>(sum / static_cast<double>(count)) : 0.f;
                    }
                }
    }
    if (isMax && node.outputs().size() > 1) return Tensors{out, indices};
    return Tensors{out};
}

Expected<Tensors> globalPoolKernel(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    const ir::Tensor& x = inputs[0];
    if (x.shape().rank() < 2) return invalid(node, "X " + x.shape().str() + " needs a channel axis");
    const int64_t batches = x.shape()[0], channels = x.shape()[1];
    const int64_t plane = (batches * channels) != 0 ? x.numel() / (batches * channels) : 0;
    std::vector<int64_t> outDims(x.shape().rank(), 1);
    outDims[0] = batches;
    outDims[1] = channels;
    ir::Tensor out(ir::DType::Float32, ir::Shape(outDims));
    float* y = out.mutableAs<float>();
    const bool isMax = node.op == OpKind::GlobalMaxPool;
    for (int64_t p = 0; p < batches * channels; ++p) {
        const float* src = x.as<float>() + p * plane;
        double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
        for (int64_t i = 0; i < plane; ++i) acc = isMax ? std::fmax(acc, src[i]) : acc + src[i];
        y[p] = static_cast<float>(isMax ? acc : acc / static_cast<double>(plane));
    }
    return Tensors{out};
}

} // namespace embark::reference::detail

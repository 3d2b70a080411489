// Conv and ConvTranspose for 1-D, 2-D and 3-D inputs (any spatial rank is viewed as 3-D
// with leading size-1 dims): im2col / col2im around the shared double GEMM, plus a direct
// loop for depthwise convolutions where a GEMM of one row would waste its blocking.
#include "gemm.h"
#include "kernels.h"

#include <algorithm>

namespace embark::reference::detail {
namespace {

using ir::Shape;

// Spatial dims padded to 3 at the front (size 1, kernel 1, stride 1, pad 0).
struct Geometry3 {
    int64_t in[3], out[3], k[3], s[3], d[3], pb[3];
};

Geometry3 toGeometry3(const std::vector<int64_t>& in, const SpatialGeometry& g) {
    Geometry3 r{};
    const size_t n = in.size(), off = 3 - n;
    for (size_t i = 0; i < 3; ++i) {
        const bool real = i >= off;
        const size_t j = real ? i - off : 0;
        r.in[i] = real ? in[j] : 1;
        r.out[i] = real ? g.out[j] : 1;
        r.k[i] = real ? g.kernel[j] : 1;
        r.s[i] = real ? g.strides[j] : 1;
        r.d[i] = real ? g.dilations[j] : 1;
        r.pb[i] = real ? g.padBegin[j] : 0;
    }
    return r;
}

// Columns of one group of one image: cols[(c, kd, kh, kw)][(od, oh, ow)].
void im2col(const float* x, int64_t channels, const Geometry3& g, float* cols) {
    const int64_t outSize = g.out[0] * g.out[1] * g.out[2];
    const int64_t inPlane = g.in[0] * g.in[1] * g.in[2];
    float* dst = cols;
    for (int64_t c = 0; c < channels; ++c) {
        const float* xc = x + c * inPlane;
        for (int64_t kd = 0; kd < g.k[0]; ++kd)
            for (int64_t kh = 0; kh < g.k[1]; ++kh)
                for (int64_t kw = 0; kw < g.k[2]; ++kw, dst += outSize) {
                    float* row = dst;
                    for (int64_t od = 0; od < g.out[0]; ++od) {
                        const int64_t id = od * g.s[0] - g.pb[0] + kd * g.d[0];
                        for (int64_t oh = 0; oh < g.out[1]; ++oh) {
                            const int64_t ih = oh * g.s[1] - g.pb[1] + kh * g.d[1];
                            const bool rowInside = id >= 0 && id < g.in[0] && ih >= 0 && ih < g.in[1];
                            const float* src = xc + (id * g.in[1] + ih) * g.in[2];
                            for (int64_t ow = 0; ow < g.out[2]; ++ow) {
                                const int64_t iw = ow * g.s[2] - g.pb[2] + kw * g.d[2];
                                *row++ = rowInside && iw >= 0 && iw < g.in[2] ? src[iw] : 0.f;
                            }
                        }
                    }
                }
    }
}

// One output channel of a depthwise group: a single input channel, summed in double.
void depthwiseChannel(const float* x, const float* w, const Geometry3& g, double* out) {
    for (int64_t od = 0; od < g.out[0]; ++od)
        for (int64_t oh = 0; oh < g.out[1]; ++oh)
            for (int64_t ow = 0; ow < g.out[2]; ++ow) {
                double acc = 0;
                for (int64_t kd = 0; kd < g.k[0]; ++kd) {
                    const int64_t id = od * g.s[0] - g.pb[0] + kd * g.d[0];
                    if (id < 0 || id >= g.in[0]) continue;
                    for (int64_t kh = 0; kh < g.k[1]; ++kh) {
                        const int64_t ih = oh * g.s[1] - g.pb[1] + kh * g.d[1];
                        if (ih < 0 || ih >= g.in[1]) continue;
                        for (int64_t kw = 0; kw < g.k[2]; ++kw) {
                            const int64_t iw = ow * g.s[2] - g.pb[2] + kw * g.d[2];
                            if (iw < 0 || iw >= g.in[2]) continue;
                            acc += static_cast<double>(x[(id * g.in[1] + ih) * g.in[2] + iw]) *
                                   w[(kd * g.k[1] + kh) * g.k[2] + kw];
                        }
                    }
                }
                *out++ += acc;
            }
}

struct ConvOperands {
    const ir::Tensor* x = nullptr;
    const ir::Tensor* w = nullptr;
    const ir::Tensor* b = nullptr;
    int64_t group = 1;
    std::vector<int64_t> spatialIn, kernel;
};

// Common checks of Conv and ConvTranspose: ranks, groups, bias size (`biasSize` channels).
Expected<ConvOperands> readOperands(const ir::Node& node, const Tensors& inputs, bool transposed) {
    ConvOperands o;
    for (size_t i = 0; i < 2; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    o.x = &inputs[0];
    o.w = &inputs[1];
    o.b = optionalInput(inputs, 2);
    const Shape &xs = o.x->shape(), &ws = o.w->shape();
    if (xs.rank() < 3 || xs.rank() > 5 || ws.rank() != xs.rank())
        return unsupported(node, "X " + xs.str() + " and W " + ws.str() +
                                     " must both be 3-D, 4-D or 5-D (1 to 3 spatial dims)");
    o.group = node.attrInt("group", 1);
    const int64_t channels = xs[1];
    if (o.group <= 0 || channels % o.group != 0)
        return invalid(node, "group " + std::to_string(o.group) + " does not divide the " + std::to_string(channels) +
                                 " input channels");
    const int64_t wChannels = transposed ? ws[0] : ws[1] * o.group;
    if (wChannels != channels)
        return invalid(node, "W " + ws.str() + " does not match the " + std::to_string(channels) +
                                 " input channels of X " + xs.str());
    if (!transposed && ws[0] % o.group != 0)
        return invalid(node,
                       "group " + std::to_string(o.group) + " does not divide the output channels of W " + ws.str());
    const int64_t outChannels = transposed ? ws[1] * o.group : ws[0];
    if (o.b && o.b->numel() != outChannels)
        return invalid(node, "B has " + std::to_string(o.b->numel()) + " values for " + std::to_string(outChannels) +
                                 " output channels");
    o.spatialIn.assign(xs.dims().begin() + 2, xs.dims().end());
    o.kernel.assign(ws.dims().begin() + 2, ws.dims().end());
    const std::vector<int64_t> declared = node.attrInts("kernel_shape");
    if (!declared.empty() && declared != o.kernel) return invalid(node, "kernel_shape does not match W " + ws.str());
    return o;
}

// Adds the bias and stores the double accumulators as float32.
void storeWithBias(const std::vector<double>& acc, const ir::Tensor* b, int64_t batches, int64_t channels,
                   int64_t plane, float* out) {
    for (int64_t n = 0; n < batches; ++n)
        for (int64_t c = 0; c < channels; ++c) {
            const double bias = b ? b->at(c) : 0.0;
            const double* src = acc.data() + (n * channels + c) * plane;
            float* dst = out + (n * channels + c) * plane;
            for (int64_t i = 0; i < plane; ++i) dst[i] = static_cast<float>(src[i] + bias);
        }
}

} // namespace

Expected<ConvAccumulation> convAccumulate(const ir::Node& node, const Tensors& inputs) {
    Expected<ConvOperands> ops = readOperands(node, inputs, false);
    if (!ops) return ops.error();
    const ConvOperands& o = *ops;
    Expected<SpatialGeometry> geom = spatialGeometry(node, o.spatialIn, o.kernel, false);
    if (!geom) return geom.error();
    const Geometry3 g = toGeometry3(o.spatialIn, *geom);
    const int64_t batches = o.x->shape()[0], channels = o.x->shape()[1], outChannels = o.w->shape()[0];
    const int64_t cg = channels / o.group, mg = outChannels / o.group;
    const int64_t kSize = g.k[0] * g.k[1] * g.k[2], K = cg * kSize;
    const int64_t inPlane = g.in[0] * g.in[1] * g.in[2], outPlane = g.out[0] * g.out[1] * g.out[2];

    std::vector<int64_t> outDims{batches, outChannels};
    outDims.insert(outDims.end(), geom->out.begin(), geom->out.end());
    ConvAccumulation r;
    r.shape = Shape(outDims);
    r.acc.assign(static_cast<size_t>(r.shape.numel()), 0.0);
    const float* x = o.x->as<float>();
    const float* w = o.w->as<float>();
    const bool pointwise = kSize == 1 && g.s[0] == 1 && g.s[1] == 1 && g.s[2] == 1 && g.pb[0] == 0 && g.pb[1] == 0 &&
                           g.pb[2] == 0 && outPlane == inPlane;
    std::vector<float> cols;
    if (!pointwise && !(cg == 1 && mg == 1)) cols.resize(static_cast<size_t>(K * outPlane));
    for (int64_t n = 0; n < batches; ++n)
        for (int64_t grp = 0; grp < o.group; ++grp) {
            const float* xg = x + (n * channels + grp * cg) * inPlane;
            const float* wg = w + grp * mg * K;
            double* cg0 = r.acc.data() + (n * outChannels + grp * mg) * outPlane;
            if (cg == 1 && mg == 1) {
                depthwiseChannel(xg, wg, g, cg0);
            } else if (pointwise) {
                gemmAccumulate(mg, outPlane, K, wg, K, xg, inPlane, cg0, outPlane);
            } else {
                im2col(xg, cg, g, cols.data());
                gemmAccumulate(mg, outPlane, K, wg, K, cols.data(), outPlane, cg0, outPlane);
            }
        }
    return r;
}

Expected<Tensors> convKernel(const ir::Node& node, const Tensors& inputs) {
    Expected<ConvAccumulation> r = convAccumulate(node, inputs);
    if (!r) return r.error();
    const Shape& shape = r->shape;
    ir::Tensor out(ir::DType::Float32, shape);
    int64_t plane = 1;
    for (size_t i = 2; i < shape.rank(); ++i) plane *= shape[i];
    storeWithBias(r->acc, optionalInput(inputs, 2), shape[0], shape[1], plane, out.mutableAs<float>());
    return Tensors{out};
}

Expected<Tensors> convTransposeKernel(const ir::Node& node, const Tensors& inputs) {
    Expected<ConvOperands> ops = readOperands(node, inputs, true);
    if (!ops) return ops.error();
    const ConvOperands& o = *ops;
    const size_t nsp = o.spatialIn.size();
    // Output size and padding per the ONNX ConvTranspose rules.
    SpatialGeometry sg;
    sg.kernel = o.kernel;
    sg.strides = node.attrInts("strides", std::vector<int64_t>(nsp, 1));
    sg.dilations = node.attrInts("dilations", std::vector<int64_t>(nsp, 1));
    std::vector<int64_t> pads = node.attrInts("pads", std::vector<int64_t>(2 * nsp, 0));
    const std::vector<int64_t> outPadding = node.attrInts("output_padding", std::vector<int64_t>(nsp, 0));
    const std::vector<int64_t> outputShape = node.attrInts("output_shape");
    const std::string autoPad = node.attrString("auto_pad", "NOTSET");
    if (sg.strides.size() != nsp || sg.dilations.size() != nsp || pads.size() != 2 * nsp || outPadding.size() != nsp ||
        (!outputShape.empty() && outputShape.size() != nsp))
        return invalid(node, "strides, dilations, pads, output_padding and output_shape must match the " +
                                 std::to_string(nsp) + " spatial dimensions");
    if (autoPad != "NOTSET" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER" && autoPad != "VALID")
        return unsupported(node, "auto_pad '" + autoPad + "' is not supported");
    sg.padBegin.resize(nsp);
    sg.padEnd.resize(nsp);
    sg.out.resize(nsp);
    for (size_t i = 0; i < nsp; ++i) {
        const int64_t s = sg.strides[i], window = (o.kernel[i] - 1) * sg.dilations[i] + 1;
        if (s <= 0 || sg.dilations[i] <= 0) return invalid(node, "strides and dilations must be positive");
        const int64_t full = s * (o.spatialIn[i] - 1) + outPadding[i] + window;
        int64_t target = -1;
        if (!outputShape.empty())
            target = outputShape[i];
        else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")
            target = o.spatialIn[i] * s;
        if (target >= 0) {
            const int64_t total = std::max<int64_t>(0, full - target);
            const bool upper = autoPad == "SAME_UPPER";
            sg.padBegin[i] = upper ? total / 2 : total - total / 2;
            sg.padEnd[i] = total - sg.padBegin[i];
            sg.out[i] = target;
        } else {
            if (autoPad == "VALID") pads[i] = pads[i + nsp] = 0;
            sg.padBegin[i] = pads[i];
            sg.padEnd[i] = pads[i + nsp];
            sg.out[i] = full - pads[i] - pads[i + nsp];
        }
        if (sg.out[i] <= 0) return invalid(node, "the output would be empty along spatial axis " + std::to_string(i));
    }
    // g.in is the input's spatial size, g.out the (larger) output's.
    const Geometry3 g = toGeometry3(o.spatialIn, sg);
    const int64_t batches = o.x->shape()[0], channels = o.x->shape()[1];
    const int64_t mg = o.w->shape()[1], outChannels = mg * o.group, cg = channels / o.group;
    const int64_t kSize = g.k[0] * g.k[1] * g.k[2], rows = mg * kSize;
    const int64_t inPlane = g.in[0] * g.in[1] * g.in[2], outPlane = g.out[0] * g.out[1] * g.out[2];

    std::vector<int64_t> outDims{batches, outChannels};
    outDims.insert(outDims.end(), sg.out.begin(), sg.out.end());
    ir::Tensor out(ir::DType::Float32, Shape(outDims));
    std::vector<double> acc(static_cast<size_t>(out.numel()), 0.0);
    // W of a group is [cg][mg*k]; the product needs its transpose [mg*k][cg].
    std::vector<float> wt(static_cast<size_t>(rows * cg));
    std::vector<double> cols(static_cast<size_t>(rows * inPlane));
    for (int64_t n = 0; n < batches; ++n)
        for (int64_t grp = 0; grp < o.group; ++grp) {
            const float* wg = o.w->as<float>() + grp * cg * rows;
            for (int64_t c = 0; c < cg; ++c)
                for (int64_t r = 0; r < rows; ++r) wt[static_cast<size_t>(r * cg + c)] = wg[c * rows + r];
            std::fill(cols.begin(), cols.end(), 0.0);
            const float* xg = o.x->as<float>() + (n * channels + grp * cg) * inPlane;
            gemmAccumulate(rows, inPlane, cg, wt.data(), cg, xg, inPlane, cols.data(), inPlane);
            // col2im: scatter every (m, kernel tap, input position) to its output position.
            for (int64_t m = 0; m < mg; ++m) {
                double* dst = acc.data() + (n * outChannels + grp * mg + m) * outPlane;
                for (int64_t kd = 0; kd < g.k[0]; ++kd)
                    for (int64_t kh = 0; kh < g.k[1]; ++kh)
                        for (int64_t kw = 0; kw < g.k[2]; ++kw) {
                            const int64_t r = ((m * g.k[0] + kd) * g.k[1] + kh) * g.k[2] + kw;
                            const double* src = cols.data() + r * inPlane;
                            for (int64_t id = 0; id < g.in[0]; ++id) {
                                const int64_t od = id * g.s[0] - g.pb[0] + kd * g.d[0];
                                if (od < 0 || od >= g.out[0]) continue;
                                for (int64_t ih = 0; ih < g.in[1]; ++ih) {
                                    const int64_t oh = ih * g.s[1] - g.pb[1] + kh * g.d[1];
                                    if (oh < 0 || oh >= g.out[1]) continue;
                                    for (int64_t iw = 0; iw < g.in[2]; ++iw) {
                                        const int64_t ow = iw * g.s[2] - g.pb[2] + kw * g.d[2];
                                        if (ow < 0 || ow >= g.out[2]) continue;
                                        dst[(od * g.out[1] + oh) * g.out[2] + ow] +=
                                            src[(id * g.in[1] + ih) * g.in[2] + iw];
                                    }
                                }
                            }
                        }
            }
        }
    storeWithBias(acc, o.b, batches, outChannels, outPlane, out.mutableAs<float>());
    return Tensors{out};
}

} // namespace embark::reference::detail

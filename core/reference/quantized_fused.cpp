// The quantized operators the fuse_qdq pass makes (QConv, QGemm, QAdd, QAveragePool, QLookup):
// int8 in and out, parameters in attributes. Their arithmetic is defined here, and the
// portable kernels (runtime/portable/quant.h) compute exactly the same, so an
// export's int8 tensors equal these byte for byte:
//
//  - Requantization of an int32 sum `acc` (QConv, QGemm): v = float(acc) * multiplier[c] in
//    float32, where multiplier[c] = float32(float32(x_scale * w_scale[c]) / y_scale) is
//    computed once by the pass and stored in the `multiplier` attribute; v is clamped to
//    [out_min - y_zero_point, out_max - y_zero_point] (integers), rounded half to even, and
//    y_zero_point is added. Clamping before rounding gives the same result as after (the
//    bounds are integers) and is what keeps the rounding exact in the kernels (XNNPACK's
//    "fp32" requantization, magic-number rounding, has the same definition).
//  - QConv, QGemm: acc = bias[c] + sum over the taps inside the input of (x - x_zero_point) *
//    w, in int32 (weights are symmetric: no zero point). Padding contributes nothing, as a
//    real zero does in float.
//  - QAdd: y = clamp(round_half_even(float32(fa + fb) / y_scale) + y_zero_point, out_min,
//    out_max) with fa = float32(a - a_zero_point) * a_scale (float32 multiply), likewise fb:
//    the float32 operations of DequantizeLinear -> Add -> QuantizeLinear, so QAdd equals the
//    QDQ graph it replaces exactly. Operands have the same shape.
//  - QAveragePool: acc = sum of (x - x_zero_point) over the taps counted (ONNX's
//    count_include_pad; padded taps add 0); v = (float(acc) / float(count)) * multiplier
//    (float32, multiplier = float32(x_scale / y_scale)), then clamped, rounded and offset as
//    above. `global` = 1: the whole plane (GlobalAveragePool).
//  - QLookup: y = table[x + 128] (256 int8 entries computed by the pass with the reference's
//    own DequantizeLinear -> op -> QuantizeLinear, so it is exact by construction).
// Activations are int8 (attributes out_min/out_max bound the output: a fused Relu or Clip).
#include "quantization.h"

#include <algorithm>
#include <cmath>

namespace embark::reference::detail {
namespace {

using ir::DType;
using ir::OpKind;

struct Requant {
    int64_t zeroPoint = 0, lo = -128, hi = 127;
};

Requant outputParams(const ir::Node& n) {
    Requant r;
    r.zeroPoint = n.attrInt("y_zero_point", 0);
    r.lo = n.attrInt("out_min", -128);
    r.hi = n.attrInt("out_max", 127);
    return r;
}

// The shared requantization: v (float32) clamped to the output range, rounded half to even.
int8_t requantizeValue(float v, const Requant& r) {
    const float lo = static_cast<float>(r.lo - r.zeroPoint), hi = static_cast<float>(r.hi - r.zeroPoint);
    v = std::min(std::max(v, lo), hi);
    return static_cast<int8_t>(static_cast<int64_t>(std::nearbyint(v)) + r.zeroPoint);
}

Status requireInt8(const ir::Node& node, const Tensors& inputs, size_t i, const char* what) {
    EMBARK_TRY(requiredInput(node, inputs, i));
    return requireType(node, what, inputs[i].dtype(), {DType::Int8});
}

Expected<std::vector<float>> multipliers(const ir::Node& node, int64_t channels) {
    std::vector<float> m = node.attrFloats("multiplier");
    if (m.size() == 1 && channels > 1) m.assign(static_cast<size_t>(channels), m[0]);
    if (static_cast<int64_t>(m.size()) != channels)
        return invalid(node, "attribute multiplier has " + std::to_string(m.size()) + " values for " +
                                 std::to_string(channels) + " output channels");
    return m;
}

Expected<Tensors> qconv(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requireInt8(node, inputs, 0, "input x"));
    EMBARK_TRY(requireInt8(node, inputs, 1, "weights w"));
    const ir::Tensor &x = inputs[0], &w = inputs[1];
    const ir::Tensor* b = optionalInput(inputs, 2);
    if (x.shape().rank() != 4 || w.shape().rank() != 4) return unsupported(node, "QConv is 2-D (4-D x and w)");
    if (b) EMBARK_TRY(requireType(node, "bias", b->dtype(), {DType::Int32}));
    const int64_t N = x.shape()[0], C = x.shape()[1], H = x.shape()[2], W = x.shape()[3];
    const int64_t M = w.shape()[0], kh = w.shape()[2], kw = w.shape()[3];
    const int64_t group = node.attrInt("group", 1);
    if (group < 1 || C % group || M % group || w.shape()[1] != C / group)
        return invalid(node, "weights " + w.shape().str() + " do not fit x " + x.shape().str() + " with group " +
                                 std::to_string(group));
    Expected<SpatialGeometry> g = spatialGeometry(node, {H, W}, {kh, kw}, false);
    if (!g) return g.error();
    auto m = multipliers(node, M);
    if (!m) return m.error();
    const Requant rq = outputParams(node);
    const int32_t xz = static_cast<int32_t>(node.attrInt("x_zero_point", 0));
    const int64_t OH = g->out[0], OW = g->out[1], cg = C / group, mg = M / group;
    ir::Tensor y(DType::Int8, ir::Shape{N, M, OH, OW});
    int8_t* out = y.mutableAs<int8_t>();
    const int8_t* xp = x.as<int8_t>();
    const int8_t* wp = w.as<int8_t>();
    for (int64_t n = 0; n < N; ++n)
        for (int64_t o = 0; o < M; ++o) {
            const int64_t grp = o / mg;
            for (int64_t oy = 0; oy < OH; ++oy)
                for (int64_t ox = 0; ox < OW; ++ox) {
                    int32_t acc = b ? static_cast<int32_t>(b->intAt(o)) : 0;
                    for (int64_t c = 0; c < cg; ++c)
                        for (int64_t ky = 0; ky < kh; ++ky) {
                            const int64_t iy = oy * g->strides[0] - g->padBegin[0] + ky * g->dilations[0];
                            if (iy < 0 || iy >= H) continue;
                            for (int64_t kx = 0; kx < kw; ++kx) {
                                const int64_t ix = ox * g->strides[1] - g->padBegin[1] + kx * g->dilations[1];
                                if (ix < 0 || ix >= W) continue;
                                const int32_t xv = xp[((n * C + grp * cg + c) * H + iy) * W + ix] - xz;
                                acc += xv * wp[((o * cg + c) * kh + ky) * kw + kx];
                            }
                        }
                    out[((n * M + o) * OH + oy) * OW + ox] =
                        requantizeValue(static_cast<float>(acc) * (*m)[static_cast<size_t>(o)], rq);
                }
        }
    return Tensors{y};
}

// x [..., K] (rows = numel / K), w [N, K] (transposed: one row per output), bias [N].
Expected<Tensors> qgemm(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requireInt8(node, inputs, 0, "input x"));
    EMBARK_TRY(requireInt8(node, inputs, 1, "weights w"));
    const ir::Tensor &x = inputs[0], &w = inputs[1];
    const ir::Tensor* b = optionalInput(inputs, 2);
    if (b) EMBARK_TRY(requireType(node, "bias", b->dtype(), {DType::Int32}));
    if (w.shape().rank() != 2 || x.shape().rank() < 1 || x.shape()[x.shape().rank() - 1] != w.shape()[1])
        return invalid(node, "weights " + w.shape().str() + " ([N, K]) do not fit x " + x.shape().str());
    const int64_t K = w.shape()[1], Nout = w.shape()[0], rows = K ? x.numel() / K : 0;
    auto m = multipliers(node, Nout);
    if (!m) return m.error();
    const Requant rq = outputParams(node);
    const int32_t xz = static_cast<int32_t>(node.attrInt("x_zero_point", 0));
    std::vector<int64_t> dims = x.shape().dims();
    dims.back() = Nout;
    ir::Tensor y(DType::Int8, ir::Shape(dims));
    int8_t* out = y.mutableAs<int8_t>();
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t o = 0; o < Nout; ++o) {
            int32_t acc = b ? static_cast<int32_t>(b->intAt(o)) : 0;
            for (int64_t k = 0; k < K; ++k) acc += (x.as<int8_t>()[r * K + k] - xz) * w.as<int8_t>()[o * K + k];
            out[r * Nout + o] = requantizeValue(static_cast<float>(acc) * (*m)[static_cast<size_t>(o)], rq);
        }
    return Tensors{y};
}

Expected<Tensors> qadd(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requireInt8(node, inputs, 0, "input a"));
    EMBARK_TRY(requireInt8(node, inputs, 1, "input b"));
    const ir::Tensor &a = inputs[0], &b = inputs[1];
    if (a.shape() != b.shape())
        return unsupported(node, "operands of different shapes (" + a.shape().str() + ", " + b.shape().str() + ")");
    const float as = node.attrFloat("a_scale", 1.f), bs = node.attrFloat("b_scale", 1.f);
    const float ys = node.attrFloat("y_scale", 1.f);
    const int32_t az = static_cast<int32_t>(node.attrInt("a_zero_point", 0));
    const int32_t bz = static_cast<int32_t>(node.attrInt("b_zero_point", 0));
    const Requant rq = outputParams(node);
    ir::Tensor y(DType::Int8, a.shape());
    int8_t* out = y.mutableAs<int8_t>();
    for (int64_t i = 0; i < a.numel(); ++i) {
        const float fa = static_cast<float>(a.as<int8_t>()[i] - az) * as;
        const float fb = static_cast<float>(b.as<int8_t>()[i] - bz) * bs;
        out[i] = requantizeValue((fa + fb) / ys, rq);
    }
    return Tensors{y};
}

Expected<Tensors> qaveragePool(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requireInt8(node, inputs, 0, "input x"));
    const ir::Tensor& x = inputs[0];
    if (x.shape().rank() != 4) return unsupported(node, "QAveragePool is 2-D (4-D x)");
    const int64_t N = x.shape()[0], C = x.shape()[1], H = x.shape()[2], W = x.shape()[3];
    const bool global = node.attrInt("global", 0) != 0;
    SpatialGeometry g;
    if (global) {
        g = SpatialGeometry{{H, W}, {1, 1}, {1, 1}, {0, 0}, {0, 0}, {1, 1}};
    } else {
        Expected<SpatialGeometry> e =
            spatialGeometry(node, {H, W}, node.attrInts("kernel_shape"), node.attrInt("ceil_mode", 0) != 0);
        if (!e) return e.error();
        g = *e;
    }
    const bool includePad = node.attrInt("count_include_pad", 0) != 0;
    const float m = node.attrFloat("multiplier", 1.f);
    const int32_t xz = static_cast<int32_t>(node.attrInt("x_zero_point", 0));
    const Requant rq = outputParams(node);
    const int64_t OH = g.out[0], OW = g.out[1];
    ir::Tensor y(DType::Int8, ir::Shape{N, C, OH, OW});
    int8_t* out = y.mutableAs<int8_t>();
    for (int64_t p = 0; p < N * C; ++p)
        for (int64_t oy = 0; oy < OH; ++oy)
            for (int64_t ox = 0; ox < OW; ++ox) {
                int32_t acc = 0, valid = 0, padded = 0;
                for (int64_t ky = 0; ky < g.kernel[0]; ++ky)
                    for (int64_t kx = 0; kx < g.kernel[1]; ++kx) {
                        const int64_t iy = oy * g.strides[0] - g.padBegin[0] + ky;
                        const int64_t ix = ox * g.strides[1] - g.padBegin[1] + kx;
                        padded += iy >= -g.padBegin[0] && iy < H + g.padEnd[0] && ix >= -g.padBegin[1] &&
                                  ix < W + g.padEnd[1];
                        if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                        ++valid;
                        acc += x.as<int8_t>()[(p * H + iy) * W + ix] - xz;
                    }
                const int32_t count = includePad ? padded : valid;
                const float v = count ? (static_cast<float>(acc) / static_cast<float>(count)) * m : 0.f;
                out[(p * OH + oy) * OW + ox] = requantizeValue(v, rq);
            }
    return Tensors{y};
}

Expected<Tensors> qlookup(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requireInt8(node, inputs, 0, "input x"));
    const std::vector<int64_t> table = node.attrInts("table");
    if (table.size() != 256) return invalid(node, "attribute table must have 256 entries");
    const ir::Tensor& x = inputs[0];
    ir::Tensor y(DType::Int8, x.shape());
    int8_t* out = y.mutableAs<int8_t>();
    for (int64_t i = 0; i < x.numel(); ++i)
        out[i] = static_cast<int8_t>(table[static_cast<size_t>(x.as<int8_t>()[i] + 128)]);
    return Tensors{y};
}

} // namespace

Expected<Tensors> fusedQuantizedKernel(const ir::Node& node, const Tensors& inputs) {
    switch (node.op) {
    case OpKind::QConv: return qconv(node, inputs);
    case OpKind::QGemm: return qgemm(node, inputs);
    case OpKind::QAdd: return qadd(node, inputs);
    case OpKind::QAveragePool: return qaveragePool(node, inputs);
    case OpKind::QLookup: return qlookup(node, inputs);
    default: return unsupported(node, "not a fused quantized op");
    }
}

} // namespace embark::reference::detail

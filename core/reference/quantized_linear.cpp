// ConvInteger, MatMulInteger (int32 results) and QLinearConv, QLinearMatMul (requantized
// results): zero points are subtracted first, then the float convolution and matmul
// accumulators run on the centred values, whose sums in double are exact integers. The
// requantization multiplies the int32 sum by scale_a * scale_b / scale_y (float32, as
// ONNX's reference computes the factor) in double, rounds half to even and saturates.
#include "quantization.h"

namespace embark::reference::detail {
namespace {

using ir::DType;
using ir::OpKind;

constexpr std::initializer_list<DType> kInt8Types{DType::Int8, DType::UInt8};

// Zero points of an …Integer op's operand: absent (0), a scalar, or one per `count` index.
Expected<std::vector<int64_t>> integerZeroPoint(const ir::Node& node, const std::string& what, const ir::Tensor* zp,
                                                DType dataType, int64_t count, const std::string& perWhat) {
    if (!zp) return std::vector<int64_t>{0};
    if (zp->dtype() != dataType)
        return invalid(node, what + " is " + std::string(ir::dtypeName(zp->dtype())) + " but its operand is " +
                                 std::string(ir::dtypeName(dataType)) + ": they must have the same type");
    if (zp->numel() != 1 && zp->numel() != count)
        return invalid(node, what + " has " + std::to_string(zp->numel()) + " values; expected 1 or " +
                                 std::to_string(count) + " (" + perWhat + ")");
    std::vector<int64_t> v;
    for (int64_t i = 0; i < zp->numel(); ++i) v.push_back(zp->intAt(i));
    return v;
}

// The convolution of centred X and W as double sums (ConvInteger and QLinearConv).
Expected<ConvAccumulation> centredConv(const ir::Node& node, const ir::Tensor& x, const std::vector<int64_t>& xZp,
                                       const ir::Tensor& w, const std::vector<int64_t>& wZp) {
    EMBARK_TRY(requireType(node, "input x", x.dtype(), kInt8Types));
    EMBARK_TRY(requireType(node, "input w", w.dtype(), kInt8Types));
    if (xZp.size() != 1) return unsupported(node, "a per-channel x zero point (ONNX allows a scalar only)");
    const int64_t outChannels = w.shape().rank() ? w.shape()[0] : 1;
    const int64_t perChannel = outChannels ? w.numel() / outChannels : 1;
    const Tensors operands{centered(x, xZp, [](int64_t) { return 0; }),
                           centered(w, wZp, [perChannel](int64_t i) { return i / perChannel; })};
    return convAccumulate(node, operands);
}

// numpy matmul of centred A and B: per-row A and per-column B zero points.
Expected<MatMulAccumulation> centredMatMul(const ir::Node& node, const ir::Tensor& a, const std::vector<int64_t>& aZp,
                                           const ir::Tensor& b, const std::vector<int64_t>& bZp) {
    EMBARK_TRY(requireType(node, "input a", a.dtype(), kInt8Types));
    EMBARK_TRY(requireType(node, "input b", b.dtype(), kInt8Types));
    const auto& ad = a.shape().dims();
    const auto& bd = b.shape().dims();
    if (ad.empty() || bd.empty()) return invalid(node, "operands must not be scalars");
    const int64_t k = ad.back(), m = ad.size() >= 2 ? ad[ad.size() - 2] : 1, n = bd.size() >= 2 ? bd.back() : 1;
    return matmulAccumulate(node, centered(a, aZp, [k, m](int64_t i) { return (i / k) % m; }),
                            centered(b, bZp, [n](int64_t i) { return i % n; }));
}

int64_t rowsOf(const ir::Tensor& t) { return t.shape().rank() >= 2 ? t.shape()[t.shape().rank() - 2] : 1; }
int64_t colsOf(const ir::Tensor& t) { return t.shape().rank() >= 2 ? t.shape()[t.shape().rank() - 1] : 1; }

ir::Tensor toInt32(const ir::Shape& shape, const std::vector<double>& acc) {
    ir::Tensor out(DType::Int32, shape);
    int32_t* p = out.mutableAs<int32_t>();
    for (size_t i = 0; i < acc.size(); ++i) p[i] = static_cast<int32_t>(static_cast<int64_t>(acc[i]));
    return out;
}

Expected<Tensors> convInteger(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 2; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    const ir::Tensor &x = inputs[0], &w = inputs[1];
    const int64_t outChannels = w.shape().rank() ? w.shape()[0] : 1;
    auto xZp = integerZeroPoint(node, "x_zero_point", optionalInput(inputs, 2), x.dtype(), 1, "per tensor");
    if (!xZp) return xZp.error();
    auto wZp = integerZeroPoint(node, "w_zero_point", optionalInput(inputs, 3), w.dtype(), outChannels,
                                "one per output channel");
    if (!wZp) return wZp.error();
    Expected<ConvAccumulation> r = centredConv(node, x, *xZp, w, *wZp);
    if (!r) return r.error();
    return Tensors{toInt32(r->shape, r->acc)};
}

Expected<Tensors> matmulInteger(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 2; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    const ir::Tensor &a = inputs[0], &b = inputs[1];
    auto aZp =
        integerZeroPoint(node, "a_zero_point", optionalInput(inputs, 2), a.dtype(), rowsOf(a), "one per row of a");
    if (!aZp) return aZp.error();
    auto bZp =
        integerZeroPoint(node, "b_zero_point", optionalInput(inputs, 3), b.dtype(), colsOf(b), "one per column of b");
    if (!bZp) return bZp.error();
    Expected<MatMulAccumulation> r = centredMatMul(node, a, *aZp, b, *bZp);
    if (!r) return r.error();
    return Tensors{toInt32(r->shape, r->acc)};
}

// round(acc * factor) + zero point, saturated to the type of y's zero point.
ir::Tensor requantize(const ir::Shape& shape, const std::vector<double>& acc, DType outType,
                      const std::function<double(int64_t)>& factorOf,
                      const std::function<int64_t(int64_t)>& zeroPointOf) {
    std::vector<double> values(acc.size());
    for (size_t i = 0; i < acc.size(); ++i) {
        const int64_t k = static_cast<int64_t>(i);
        values[i] = saturate(roundHalfEven(acc[i] * factorOf(k)) + static_cast<double>(zeroPointOf(k)), outType);
    }
    return fromDoubles(outType, shape, values);
}

// Required QLinear input i (scales and zero points are not optional in ONNX's QLinear ops
// before opset 21 either; a missing one is an invalid model).
Expected<QuantParams> qlinearParams(const ir::Node& node, const Tensors& inputs, const std::string& what,
                                    size_t scaleIndex, const ir::Shape& dataShape, int64_t axis) {
    EMBARK_TRY(requiredInput(node, inputs, scaleIndex));
    return readQuantParams(node, what, inputs[scaleIndex], optionalInput(inputs, scaleIndex + 1), dataShape, axis);
}

Expected<Tensors> qlinearConv(const ir::Node& node, const Tensors& inputs) {
    for (size_t i : {0, 3}) EMBARK_TRY(requiredInput(node, inputs, i));
    const ir::Tensor &x = inputs[0], &w = inputs[3];
    Expected<QuantParams> xq = qlinearParams(node, inputs, "x", 1, ir::Shape{}, 0);
    if (!xq) return xq.error();
    Expected<QuantParams> wq = qlinearParams(node, inputs, "w", 4, w.shape(), 0);
    if (!wq) return wq.error();
    Expected<QuantParams> yq = qlinearParams(node, inputs, "y", 6, ir::Shape{}, 0);
    if (!yq) return yq.error();
    const ir::Tensor* yZp = optionalInput(inputs, 7);
    const DType outType = yZp ? yZp->dtype() : x.dtype();
    EMBARK_TRY(requireType(node, "y_zero_point", outType, kInt8Types));
    if (optionalInput(inputs, 2) && inputs[2].dtype() != x.dtype())
        return invalid(node, "x_zero_point and x have different types");
    if (optionalInput(inputs, 5) && inputs[5].dtype() != w.dtype())
        return invalid(node, "w_zero_point and w have different types");
    Expected<ConvAccumulation> r = centredConv(node, x, xq->zeroPoint, w, wq->zeroPoint);
    if (!r) return r.error();
    const int64_t channels = r->shape[1];
    int64_t plane = 1;
    for (size_t i = 2; i < r->shape.rank(); ++i) plane *= r->shape[i];
    if (const ir::Tensor* b = optionalInput(inputs, 8)) {
        EMBARK_TRY(requireType(node, "bias B", b->dtype(), {DType::Int32}));
        if (b->numel() != channels)
            return invalid(node, "B has " + std::to_string(b->numel()) + " values for " + std::to_string(channels) +
                                     " output channels");
        for (size_t i = 0; i < r->acc.size(); ++i)
            r->acc[i] += static_cast<double>(b->intAt((static_cast<int64_t>(i) / plane) % channels));
    }
    const auto channelOf = [plane, channels](int64_t i) { return (i / plane) % channels; };
    return Tensors{requantize(
        r->shape, r->acc, outType,
        [&](int64_t i) {
            const float ws = wq->scale[static_cast<size_t>(wq->perTensor() ? 0 : channelOf(i))];
            return static_cast<double>(xq->scale[0] * ws / yq->scale[0]);
        },
        [&](int64_t) { return yq->zeroPoint[0]; })};
}

// a per row, b per column, y per row: scalar or 1-D parameters (ONNX QLinearMatMul).
Expected<Tensors> qlinearMatMul(const ir::Node& node, const Tensors& inputs) {
    for (size_t i : {0, 3}) EMBARK_TRY(requiredInput(node, inputs, i));
    const ir::Tensor &a = inputs[0], &b = inputs[3];
    const int64_t rows = rowsOf(a), cols = colsOf(b);
    Expected<QuantParams> aq = qlinearParams(node, inputs, "a", 1, ir::Shape{rows}, 0);
    if (!aq) return aq.error();
    Expected<QuantParams> bq = qlinearParams(node, inputs, "b", 4, ir::Shape{cols}, 0);
    if (!bq) return bq.error();
    Expected<QuantParams> yq = qlinearParams(node, inputs, "y", 6, ir::Shape{rows}, 0);
    if (!yq) return yq.error();
    const ir::Tensor* yZp = optionalInput(inputs, 7);
    const DType outType = yZp ? yZp->dtype() : a.dtype();
    EMBARK_TRY(requireType(node, "y_zero_point", outType, kInt8Types));
    if (optionalInput(inputs, 2) && inputs[2].dtype() != a.dtype())
        return invalid(node, "a_zero_point and a have different types");
    if (optionalInput(inputs, 5) && inputs[5].dtype() != b.dtype())
        return invalid(node, "b_zero_point and b have different types");
    Expected<MatMulAccumulation> r = centredMatMul(node, a, aq->zeroPoint, b, bq->zeroPoint);
    if (!r) return r.error();
    const int64_t outCols = b.shape().rank() >= 2 ? cols : 1;
    const int64_t outRows = a.shape().rank() >= 2 ? rows : 1;
    const auto rowOf = [outCols, outRows](int64_t i) { return (i / outCols) % outRows; };
    const auto colOf = [outCols](int64_t i) { return i % outCols; };
    return Tensors{requantize(
        r->shape, r->acc, outType,
        [&](int64_t i) {
            const float as = aq->scale[static_cast<size_t>(aq->channelOf(rowOf(i)))];
            const float bs = bq->scale[static_cast<size_t>(bq->channelOf(colOf(i)))];
            return static_cast<double>(as * bs / yq->scale[static_cast<size_t>(yq->channelOf(rowOf(i)))]);
        },
        [&](int64_t i) { return yq->zeroPoint[static_cast<size_t>(yq->channelOf(rowOf(i)))]; })};
}

} // namespace

Expected<Tensors> integerLinearKernel(const ir::Node& node, const Tensors& inputs) {
    switch (node.op) {
    case OpKind::ConvInteger: return convInteger(node, inputs);
    case OpKind::MatMulInteger: return matmulInteger(node, inputs);
    case OpKind::QLinearConv: return qlinearConv(node, inputs);
    case OpKind::QLinearMatMul: return qlinearMatMul(node, inputs);
    default: return unsupported(node, "not an integer linear op");
    }
}

} // namespace embark::reference::detail

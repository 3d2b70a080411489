// Element-wise kernels: activations and unary maths (through double), binary and variadic
// ops with multidirectional broadcasting (through double, or int64 when both operands are
// integers so shape arithmetic stays exact), Where, PRelu and Clip.
#include "kernels.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace embark::reference::detail {
namespace {

using ir::DType;
using ir::OpKind;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <typename F>
void mapInPlace(std::vector<double>& v, F f) {
    for (double& x : v) x = f(x);
}

double softplus(double x) { return x > 30 ? x : std::log1p(std::exp(x)); }

bool isIntegral(DType t) { return ir::isInteger(t) || t == DType::Bool; }

// Reads input i of the (possibly broadcast) operation as doubles in output order.
std::vector<double> broadcastDoubles(const ir::Tensor& t, const ir::Shape& out) {
    std::vector<double> v = toDoubles(t);
    if (t.shape() == out) return v;
    const std::vector<int64_t> index = broadcastIndex(t.shape(), out);
    std::vector<double> b(index.size());
    for (size_t i = 0; i < index.size(); ++i) b[i] = v[static_cast<size_t>(index[i])];
    return b;
}

std::vector<int64_t> broadcastInts(const ir::Tensor& t, const ir::Shape& out) {
    std::vector<int64_t> v = t.toInt64Vector();
    if (t.shape() == out) return v;
    const std::vector<int64_t> index = broadcastIndex(t.shape(), out);
    std::vector<int64_t> b(index.size());
    for (size_t i = 0; i < index.size(); ++i) b[i] = v[static_cast<size_t>(index[i])];
    return b;
}

bool isComparison(OpKind op) {
    switch (op) {
    case OpKind::Equal:
    case OpKind::Less:
    case OpKind::Greater:
    case OpKind::LessOrEqual:
    case OpKind::GreaterOrEqual:
    case OpKind::And:
    case OpKind::Or:
    case OpKind::Xor: return true;
    default: return false;
    }
}

// One binary step in double. `fmodAttr` is Mod's fmod attribute.
double binaryDouble(OpKind op, double a, double b, bool fmodAttr) {
    switch (op) {
    case OpKind::Add:
    case OpKind::Sum:
    case OpKind::Mean: return a + b;
    case OpKind::Sub: return a - b;
    case OpKind::Mul: return a * b;
    case OpKind::Div: return a / b;
    case OpKind::Pow: return std::pow(a, b);
    case OpKind::Min: return (a != a || b != b) ? kNaN : (a < b ? a : b);
    case OpKind::Max: return (a != a || b != b) ? kNaN : (a > b ? a : b);
    case OpKind::Mod: {
        const double r = std::fmod(a, b);
        if (fmodAttr || r == 0 || (r < 0) == (b < 0)) return r;
        return r + b; // Python-style: the sign follows the divisor
    }
    case OpKind::Equal: return a == b;
    case OpKind::Less: return a < b;
    case OpKind::Greater: return a > b;
    case OpKind::LessOrEqual: return a <= b;
    case OpKind::GreaterOrEqual: return a >= b;
    case OpKind::And: return (a != 0) && (b != 0);
    case OpKind::Or: return (a != 0) || (b != 0);
    case OpKind::Xor: return (a != 0) != (b != 0);
    default: return kNaN;
    }
}

// The same in int64; division or modulo by zero gives 0 rather than a crash.
int64_t binaryInt(OpKind op, int64_t a, int64_t b, bool fmodAttr) {
    switch (op) {
    case OpKind::Add:
    case OpKind::Sum:
    case OpKind::Mean: return a + b;
    case OpKind::Sub: return a - b;
    case OpKind::Mul: return a * b;
    case OpKind::Div: return b == 0 ? 0 : a / b;
    case OpKind::Min: return a < b ? a : b;
    case OpKind::Max: return a > b ? a : b;
    case OpKind::Mod: {
        if (b == 0) return 0;
        const int64_t r = a % b;
        if (fmodAttr || r == 0 || (r < 0) == (b < 0)) return r;
        return r + b;
    }
    // And, Or and Xor are bitwise on integers (BitwiseAnd/Or/Xor, opset 18), logical on bools.
    case OpKind::And: return a & b;
    case OpKind::Or: return a | b;
    case OpKind::Xor: return a ^ b;
    default: return static_cast<int64_t>(binaryDouble(op, static_cast<double>(a), static_cast<double>(b), fmodAttr));
    }
}

bool isLogical(OpKind op) { return op == OpKind::And || op == OpKind::Or || op == OpKind::Xor || op == OpKind::Not; }

// ~x of an integer tensor (BitwiseNot, opset 18), within the dtype's width.
ir::Tensor bitwiseNot(const ir::Tensor& x) {
    const int bits = static_cast<int>(ir::dtypeSize(x.dtype()) * 8);
    const bool isUnsigned = x.dtype() == DType::UInt8 || x.dtype() == DType::UInt16 || x.dtype() == DType::UInt32 ||
                            x.dtype() == DType::UInt64;
    std::vector<int64_t> v(static_cast<size_t>(x.numel()));
    for (int64_t i = 0; i < x.numel(); ++i) {
        int64_t r = ~x.intAt(i);
        if (isUnsigned && bits < 64) r &= (int64_t{1} << bits) - 1;
        v[static_cast<size_t>(i)] = r;
    }
    return ir::Tensor::fromInt64s(x.shape(), v).castTo(x.dtype());
}

} // namespace

Expected<Tensors> unaryKernel(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    const ir::Tensor& x = inputs[0];
    std::vector<double> v = toDoubles(x);
    switch (node.op) {
    case OpKind::Relu: mapInPlace(v, [](double a) { return a > 0 ? a : 0.0; }); break;
    case OpKind::LeakyRelu: {
        const double s = node.attrFloat("alpha", 0.01f);
        mapInPlace(v, [s](double a) { return a >= 0 ? a : a * s; });
        break;
    }
    case OpKind::Sigmoid: mapInPlace(v, [](double a) { return 1.0 / (1.0 + std::exp(-a)); }); break;
    case OpKind::Tanh: mapInPlace(v, [](double a) { return std::tanh(a); }); break;
    case OpKind::HardSigmoid: {
        const double al = node.attrFloat("alpha", 0.2f), be = node.attrFloat("beta", 0.5f);
        mapInPlace(v, [al, be](double a) { return std::fmax(0.0, std::fmin(1.0, al * a + be)); });
        break;
    }
    case OpKind::HardSwish:
        mapInPlace(v, [](double a) { return a * std::fmax(0.0, std::fmin(1.0, a / 6.0 + 0.5)); });
        break;
    case OpKind::Elu: {
        const double al = node.attrFloat("alpha", 1.f);
        mapInPlace(v, [al](double a) { return a < 0 ? al * (std::exp(a) - 1.0) : a; });
        break;
    }
    case OpKind::Selu: {
        const double al = node.attrFloat("alpha", 1.67326319217681884765625f);
        const double ga = node.attrFloat("gamma", 1.05070102214813232421875f);
        mapInPlace(v, [al, ga](double a) { return a > 0 ? ga * a : ga * (al * std::exp(a) - al); });
        break;
    }
    case OpKind::Softplus: mapInPlace(v, softplus); break;
    case OpKind::Softsign: mapInPlace(v, [](double a) { return a / (1.0 + std::fabs(a)); }); break;
    case OpKind::Gelu: {
        const std::string approx = node.attrString("approximate", "none");
        if (approx == "tanh") {
            const double k = std::sqrt(2.0 / M_PI);
            mapInPlace(v, [k](double a) { return 0.5 * a * (1.0 + std::tanh(k * (a + 0.044715 * a * a * a))); });
        } else if (approx == "none") {
            mapInPlace(v, [](double a) { return 0.5 * a * (1.0 + std::erf(a / std::sqrt(2.0))); });
        } else {
            return unsupported(node, "approximate='" + approx + "' is not supported (use none or tanh)");
        }
        break;
    }
    case OpKind::Mish: mapInPlace(v, [](double a) { return a * std::tanh(softplus(a)); }); break;
    case OpKind::Swish: { // ONNX opset 24: x * sigmoid(alpha * x); SiLU when alpha = 1
        const double al = node.attrFloat("alpha", 1.f);
        mapInPlace(v, [al](double a) { return a / (1.0 + std::exp(-al * a)); });
        break;
    }
    case OpKind::Sqrt: mapInPlace(v, [](double a) { return std::sqrt(a); }); break;
    case OpKind::Exp: mapInPlace(v, [](double a) { return std::exp(a); }); break;
    case OpKind::Log: mapInPlace(v, [](double a) { return std::log(a); }); break;
    case OpKind::Neg: mapInPlace(v, [](double a) { return -a; }); break;
    case OpKind::Abs: mapInPlace(v, [](double a) { return std::fabs(a); }); break;
    case OpKind::Reciprocal: mapInPlace(v, [](double a) { return 1.0 / a; }); break;
    case OpKind::Floor: mapInPlace(v, [](double a) { return std::floor(a); }); break;
    case OpKind::Ceil: mapInPlace(v, [](double a) { return std::ceil(a); }); break;
    case OpKind::Round: mapInPlace(v, [](double a) { return std::nearbyint(a); }); break; // half to even
    case OpKind::Sign: mapInPlace(v, [](double a) { return a > 0 ? 1.0 : (a < 0 ? -1.0 : a); }); break;
    case OpKind::Erf: mapInPlace(v, [](double a) { return std::erf(a); }); break;
    case OpKind::Sin: mapInPlace(v, [](double a) { return std::sin(a); }); break;
    case OpKind::Cos: mapInPlace(v, [](double a) { return std::cos(a); }); break;
    case OpKind::Not:
        if (ir::isInteger(x.dtype())) return Tensors{bitwiseNot(x)}; // BitwiseNot
        if (x.dtype() != DType::Bool) return unsupported(node, "Not needs a bool or integer input");
        mapInPlace(v, [](double a) { return a == 0 ? 1.0 : 0.0; });
        break;
    default: return unsupported(node, "not an element-wise unary op");
    }
    return Tensors{fromDoubles(x.dtype(), x.shape(), v)};
}

Expected<Tensors> binaryKernel(const ir::Node& node, const Tensors& inputs) {
    std::vector<const ir::Tensor*> operands;
    for (size_t i = 0; i < inputs.size(); ++i)
        if (const ir::Tensor* t = optionalInput(inputs, i)) operands.push_back(t);
    const bool variadic =
        node.op == OpKind::Sum || node.op == OpKind::Mean || node.op == OpKind::Min || node.op == OpKind::Max;
    if (operands.empty() || (!variadic && operands.size() != 2))
        return invalid(node, "expects " + std::string(variadic ? "at least one input" : "two inputs") + ", got " +
                                 std::to_string(operands.size()));
    const DType dtype = operands[0]->dtype();
    for (const ir::Tensor* t : operands)
        if (t->dtype() != dtype && node.op != OpKind::Pow)
            return invalid(node, "inputs have different dtypes (" + std::string(ir::dtypeName(dtype)) + " and " +
                                     std::string(ir::dtypeName(t->dtype())) + ")");
    std::vector<ir::Shape> shapes;
    for (const ir::Tensor* t : operands) shapes.push_back(t->shape());
    Expected<ir::Shape> outShape = broadcastShapes(node, shapes);
    if (!outShape) return outShape.error();
    const bool fmodAttr = node.attrInt("fmod", 0) != 0;
    const DType outType = isComparison(node.op) && !(isLogical(node.op) && ir::isInteger(dtype)) ? DType::Bool : dtype;

    bool intPath = node.op != OpKind::Pow;
    for (const ir::Tensor* t : operands) intPath = intPath && isIntegral(t->dtype());
    if (intPath) {
        std::vector<int64_t> acc = broadcastInts(*operands[0], *outShape);
        for (size_t k = 1; k < operands.size(); ++k) {
            const std::vector<int64_t> b = broadcastInts(*operands[k], *outShape);
            for (size_t i = 0; i < acc.size(); ++i) acc[i] = binaryInt(node.op, acc[i], b[i], fmodAttr);
        }
        if (node.op == OpKind::Mean)
            for (int64_t& a : acc) a /= static_cast<int64_t>(operands.size());
        return Tensors{ir::Tensor::fromInt64s(*outShape, acc).castTo(outType)};
    }
    std::vector<double> acc = broadcastDoubles(*operands[0], *outShape);
    if (operands.size() == 1 && !variadic) return invalid(node, "expects two inputs");
    for (size_t k = 1; k < operands.size(); ++k) {
        const std::vector<double> b = broadcastDoubles(*operands[k], *outShape);
        const OpKind op = node.op;
        if (op == OpKind::Add || op == OpKind::Sum || op == OpKind::Mean) {
            for (size_t i = 0; i < acc.size(); ++i) acc[i] += b[i];
        } else if (op == OpKind::Mul) {
            for (size_t i = 0; i < acc.size(); ++i) acc[i] *= b[i];
        } else {
            for (size_t i = 0; i < acc.size(); ++i) acc[i] = binaryDouble(op, acc[i], b[i], fmodAttr);
        }
    }
    if (node.op == OpKind::Mean)
        for (double& a : acc) a /= static_cast<double>(operands.size());
    if (node.op == OpKind::Pow && isIntegral(outType))
        for (double& a : acc) a = std::nearbyint(a);
    return Tensors{fromDoubles(outType, *outShape, acc)};
}

Expected<Tensors> whereKernel(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 3; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    const ir::Tensor &c = inputs[0], &x = inputs[1], &y = inputs[2];
    if (x.dtype() != y.dtype())
        return invalid(node, "X and Y have different dtypes (" + std::string(ir::dtypeName(x.dtype())) + " and " +
                                 std::string(ir::dtypeName(y.dtype())) + ")");
    Expected<ir::Shape> outShape = broadcastShapes(node, {c.shape(), x.shape(), y.shape()});
    if (!outShape) return outShape.error();
    ir::Tensor out(x.dtype(), *outShape);
    const int64_t n = out.numel();
    const std::vector<int64_t> ci = broadcastIndex(c.shape(), *outShape);
    const std::vector<int64_t> xi = broadcastIndex(x.shape(), *outShape);
    const std::vector<int64_t> yi = broadcastIndex(y.shape(), *outShape);
    const size_t size = ir::dtypeSize(x.dtype());
    auto* dst = static_cast<char*>(out.mutableData());
    const auto* xs = static_cast<const char*>(x.data());
    const auto* ys = static_cast<const char*>(y.data());
    for (int64_t i = 0; i < n; ++i) {
        const size_t u = static_cast<size_t>(i);
        const bool cond = c.at(ci.empty() ? i : ci[u]) != 0;
        const int64_t src = cond ? (xi.empty() ? i : xi[u]) : (yi.empty() ? i : yi[u]);
        std::memcpy(dst + u * size, (cond ? xs : ys) + static_cast<size_t>(src) * size, size);
    }
    return Tensors{out};
}

Expected<Tensors> preluKernel(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    EMBARK_TRY(requiredInput(node, inputs, 1));
    const ir::Tensor &x = inputs[0], &slope = inputs[1];
    Expected<ir::Shape> outShape = broadcastShapes(node, {x.shape(), slope.shape()});
    if (!outShape) return outShape.error();
    if (*outShape != x.shape())
        return invalid(node, "slope " + slope.shape().str() + " does not broadcast to X " + x.shape().str());
    std::vector<double> v = toDoubles(x);
    const std::vector<double> s = broadcastDoubles(slope, x.shape());
    for (size_t i = 0; i < v.size(); ++i) v[i] = v[i] < 0 ? v[i] * s[i] : v[i];
    return Tensors{fromDoubles(x.dtype(), x.shape(), v)};
}

Expected<Tensors> clipKernel(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    const ir::Tensor& x = inputs[0];
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    if (const ir::Tensor* t = optionalInput(inputs, 1)) {
        if (t->numel() != 1) return invalid(node, "min must be a scalar, got " + t->shape().str());
        lo = t->at(0);
    }
    if (const ir::Tensor* t = optionalInput(inputs, 2)) {
        if (t->numel() != 1) return invalid(node, "max must be a scalar, got " + t->shape().str());
        hi = t->at(0);
    }
    std::vector<double> v = toDoubles(x);
    for (double& a : v) a = a < lo ? lo : (a > hi ? hi : a);
    return Tensors{fromDoubles(x.dtype(), x.shape(), v)};
}

} // namespace embark::reference::detail

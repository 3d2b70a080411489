// Shape and data-movement kernels that work on any dtype by moving bytes: Flatten,
// Reshape, Transpose, Concat, Shape, Size, Expand, Tile, DepthToSpace, SpaceToDepth.
#include "kernels.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace embark::reference::detail {
namespace {

using ir::OpKind;
using ir::Shape;

Expected<Tensors> flatten(const ir::Node& node, const ir::Tensor& x) {
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    int64_t axis = node.attrInt("axis", 1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis > rank)
        return invalid(node, "axis " + std::to_string(node.attrInt("axis", 1)) + " is out of range for rank " +
                                 std::to_string(rank));
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < rank; ++i) (i < axis ? outer : inner) *= x.shape()[static_cast<size_t>(i)];
    return Tensors{withShape(x, Shape{outer, inner})};
}

Expected<Tensors> reshape(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& shapeT) {
    std::vector<int64_t> dims = shapeT.toInt64Vector();
    const bool allowZero = node.attrInt("allowzero", 0) != 0;
    int64_t inferred = -1, known = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == 0 && !allowZero) {
            if (i >= x.shape().rank())
                return invalid(node, "shape " + Shape(shapeT.toInt64Vector()).str() + " copies dimension " +
                                         std::to_string(i) + " that " + x.shape().str() + " lacks");
            dims[i] = x.shape()[i];
        }
        if (dims[i] == -1) {
            if (inferred >= 0) return invalid(node, "shape has more than one -1");
            inferred = static_cast<int64_t>(i);
        } else if (dims[i] < 0) {
            return invalid(node, "shape has a negative dimension " + std::to_string(dims[i]));
        } else {
            known *= dims[i];
        }
    }
    if (inferred >= 0) {
        if (known == 0 || x.numel() % known != 0)
            return invalid(node, "cannot reshape " + x.shape().str() + " with a -1 into " +
                                     Shape(shapeT.toInt64Vector()).str());
        dims[static_cast<size_t>(inferred)] = x.numel() / known;
    }
    Shape out(dims);
    if (out.numel() != x.numel())
        return invalid(node, "cannot reshape " + x.shape().str() + " (" + std::to_string(x.numel()) +
                                 " elements) into " + out.str());
    return Tensors{withShape(x, out)};
}

Expected<Tensors> transpose(const ir::Node& node, const ir::Tensor& x) {
    const size_t rank = x.shape().rank();
    std::vector<int64_t> perm = node.attrInts("perm");
    if (perm.empty()) {
        perm.resize(rank);
        for (size_t i = 0; i < rank; ++i) perm[i] = static_cast<int64_t>(rank - 1 - i);
    }
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i) {
        if (sorted.size() != rank || sorted[i] != static_cast<int64_t>(i))
            return invalid(node, "perm is not a permutation of the " + std::to_string(rank) + " axes");
    }
    return Tensors{transposeView(x, x.shape(), perm)};
}

Expected<Tensors> concat(const ir::Node& node, const Tensors& inputs) {
    std::vector<const ir::Tensor*> parts;
    for (size_t i = 0; i < inputs.size(); ++i)
        if (const ir::Tensor* t = optionalInput(inputs, i)) parts.push_back(t);
    if (parts.empty()) return invalid(node, "needs at least one input");
    const Shape& first = parts[0]->shape();
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", 0), static_cast<int64_t>(first.rank()));
    if (!axis) return axis.error();
    const size_t a = static_cast<size_t>(*axis);
    Shape out = first;
    out[a] = 0;
    for (const ir::Tensor* t : parts) {
        bool compatible = t->dtype() == parts[0]->dtype() && t->shape().rank() == first.rank();
        for (size_t d = 0; compatible && d < first.rank(); ++d) compatible = d == a || t->shape()[d] == first[d];
        if (!compatible)
            return invalid(node, "inputs " + first.str() + " and " + t->shape().str() +
                                     " cannot be concatenated on axis " + std::to_string(a));
        out[a] += t->shape()[a];
    }
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < first.rank(); ++d) {
        if (d < a) outer *= first[d];
        if (d > a) inner *= first[d];
    }
    ir::Tensor result(parts[0]->dtype(), out);
    const size_t size = ir::dtypeSize(parts[0]->dtype());
    auto* dst = static_cast<char*>(result.mutableData());
    const size_t rowBytes = static_cast<size_t>(out[a] * inner) * size;
    size_t offset = 0;
    for (const ir::Tensor* t : parts) {
        const size_t chunk = static_cast<size_t>(t->shape()[a] * inner) * size;
        const auto* src = static_cast<const char*>(t->data());
        for (int64_t o = 0; o < outer; ++o)
            if (chunk)
                std::memcpy(dst + static_cast<size_t>(o) * rowBytes + offset, src + static_cast<size_t>(o) * chunk,
                            chunk);
        offset += chunk;
    }
    return Tensors{result};
}

Expected<Tensors> shapeOf(const ir::Node& node, const ir::Tensor& x) {
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    auto clampAxis = [rank](int64_t a) { return std::clamp(a < 0 ? a + rank : a, int64_t{0}, rank); };
    const int64_t start = clampAxis(node.attrInt("start", 0));
    const int64_t end = clampAxis(node.attrInt("end", rank));
    std::vector<int64_t> dims;
    for (int64_t i = start; i < end; ++i) dims.push_back(x.shape()[static_cast<size_t>(i)]);
    return Tensors{int64Vector(dims)};
}

Expected<Tensors> expand(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& shapeT) {
    Expected<Shape> out = broadcastShapes(node, {x.shape(), Shape(shapeT.toInt64Vector())});
    if (!out) return out.error();
    if (x.shape() == *out) return Tensors{x};
    return Tensors{gatherByIndex(x, *out, broadcastIndex(x.shape(), *out))};
}

Expected<Tensors> tile(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& repeatsT) {
    const std::vector<int64_t> repeats = repeatsT.toInt64Vector();
    const size_t rank = x.shape().rank();
    if (repeats.size() != rank)
        return invalid(node,
                       "repeats has " + std::to_string(repeats.size()) + " values for rank " + std::to_string(rank));
    std::vector<int64_t> dims(rank);
    for (size_t i = 0; i < rank; ++i) {
        if (repeats[i] < 0) return invalid(node, "repeats must not be negative");
        dims[i] = x.shape()[i] * repeats[i];
    }
    const Shape out(dims);
    const std::vector<int64_t> inStrides = stridesOf(x.shape());
    const int64_t n = out.numel();
    std::vector<int64_t> index(static_cast<size_t>(n));
    std::vector<int64_t> counter(rank, 0);
    for (int64_t i = 0; i < n; ++i) {
        int64_t pos = 0;
        for (size_t d = 0; d < rank; ++d) pos += (counter[d] % x.shape()[d]) * inStrides[d];
        index[static_cast<size_t>(i)] = pos;
        for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
            if (++counter[static_cast<size_t>(d)] < dims[static_cast<size_t>(d)]) break;
            counter[static_cast<size_t>(d)] = 0;
        }
    }
    return Tensors{gatherByIndex(x, out, index)};
}

Expected<Tensors> depthSpace(const ir::Node& node, const ir::Tensor& x) {
    const int64_t b = node.attrInt("blocksize", 0);
    if (x.shape().rank() != 4) return invalid(node, "expects a 4-D input, got " + x.shape().str());
    if (b <= 0) return invalid(node, "blocksize must be positive");
    const int64_t n = x.shape()[0], c = x.shape()[1], h = x.shape()[2], w = x.shape()[3];
    if (node.op == OpKind::DepthToSpace) {
        if (c % (b * b) != 0)
            return invalid(node, "channels " + std::to_string(c) + " are not divisible by blocksize²");
        const int64_t oc = c / (b * b);
        const std::string mode = node.attrString("mode", "DCR");
        ir::Tensor t;
        if (mode == "DCR")
            t = transposeView(x, Shape{n, b, b, oc, h, w}, {0, 3, 4, 1, 5, 2});
        else if (mode == "CRD")
            t = transposeView(x, Shape{n, oc, b, b, h, w}, {0, 1, 4, 2, 5, 3});
        else
            return unsupported(node, "mode '" + mode + "' is not supported (use DCR or CRD)");
        return Tensors{withShape(t, Shape{n, oc, h * b, w * b})};
    }
    if (h % b != 0 || w % b != 0)
        return invalid(node, "spatial size " + x.shape().str() + " is not divisible by blocksize");
    ir::Tensor t = transposeView(x, Shape{n, c, h / b, b, w / b, b}, {0, 3, 5, 1, 2, 4});
    return Tensors{withShape(t, Shape{n, c * b * b, h / b, w / b})};
}

} // namespace

Expected<Tensors> shapeOpKernel(const ir::Node& node, const Tensors& inputs) {
    if (node.op == OpKind::Concat) return concat(node, inputs);
    Expected<const ir::Tensor*> x = requiredInput(node, inputs, 0);
    if (!x) return x.error();
    switch (node.op) {
    case OpKind::Flatten: return flatten(node, **x);
    case OpKind::Transpose: return transpose(node, **x);
    case OpKind::Shape: return shapeOf(node, **x);
    case OpKind::Size: return Tensors{ir::Tensor::scalarInt64((*x)->numel())};
    case OpKind::DepthToSpace:
    case OpKind::SpaceToDepth: return depthSpace(node, **x);
    default: break;
    }
    Expected<const ir::Tensor*> second = requiredInput(node, inputs, 1);
    if (!second) return second.error();
    switch (node.op) {
    case OpKind::Reshape: return reshape(node, **x, **second);
    case OpKind::Expand: return expand(node, **x, **second);
    case OpKind::Tile: return tile(node, **x, **second);
    default: return unsupported(node, "not a shape op");
    }
}

} // namespace embark::reference::detail

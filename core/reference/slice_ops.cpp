// Kernels that select or regroup elements along axes, for any dtype: Split, Slice
// (negative indices, steps, clamping), Squeeze, Unsqueeze, Gather.
#include "kernels.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace embark::reference::detail {
namespace {

using ir::OpKind;
using ir::Shape;

// Copies the block [begin, begin+count) along `axis` of x.
ir::Tensor sliceAxis(const ir::Tensor& x, size_t axis, int64_t begin, int64_t count) {
    Shape out = x.shape();
    out[axis] = count;
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < x.shape().rank(); ++d) {
        if (d < axis) outer *= x.shape()[d];
        if (d > axis) inner *= x.shape()[d];
    }
    ir::Tensor result(x.dtype(), out);
    const size_t size = ir::dtypeSize(x.dtype());
    const size_t chunk = static_cast<size_t>(count * inner) * size;
    const size_t srcRow = static_cast<size_t>(x.shape()[axis] * inner) * size;
    const auto* src = static_cast<const char*>(x.data()) + static_cast<size_t>(begin * inner) * size;
    auto* dst = static_cast<char*>(result.mutableData());
    for (int64_t o = 0; o < outer && chunk; ++o)
        std::memcpy(dst + static_cast<size_t>(o) * chunk, src + static_cast<size_t>(o) * srcRow, chunk);
    return result;
}

Expected<Tensors> split(const ir::Node& node, const ir::Tensor& x, const ir::Tensor* sizesT) {
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", 0), static_cast<int64_t>(x.shape().rank()));
    if (!axis) return axis.error();
    const int64_t dim = x.shape()[static_cast<size_t>(*axis)];
    std::vector<int64_t> sizes;
    if (sizesT) {
        sizes = sizesT->toInt64Vector();
    } else {
        const int64_t parts = node.attrInt("num_outputs", static_cast<int64_t>(node.outputs().size()));
        if (parts <= 0) return invalid(node, "needs at least one output");
        // Opset 18: chunks of ceil(dim / parts), the last one smaller.
        const int64_t chunk = (dim + parts - 1) / parts;
        for (int64_t i = 0, left = dim; i < parts; ++i, left -= chunk)
            sizes.push_back(std::max<int64_t>(0, std::min(chunk, left)));
    }
    int64_t total = 0;
    for (int64_t s : sizes) {
        if (s < 0) return invalid(node, "split sizes must not be negative");
        total += s;
    }
    if (total != dim)
        return invalid(node, "split sizes add up to " + std::to_string(total) + " but axis " + std::to_string(*axis) +
                                 " of " + x.shape().str() + " has " + std::to_string(dim));
    Tensors outs;
    int64_t begin = 0;
    for (int64_t s : sizes) {
        outs.push_back(sliceAxis(x, static_cast<size_t>(*axis), begin, s));
        begin += s;
    }
    return outs;
}

Expected<Tensors> slice(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 3; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    const ir::Tensor& x = inputs[0];
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    const std::vector<int64_t> starts = inputs[1].toInt64Vector(), ends = inputs[2].toInt64Vector();
    std::vector<int64_t> axes, steps;
    if (const ir::Tensor* t = optionalInput(inputs, 3))
        axes = t->toInt64Vector();
    else
        for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
    if (const ir::Tensor* t = optionalInput(inputs, 4))
        steps = t->toInt64Vector();
    else
        steps.assign(starts.size(), 1);
    if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
        return invalid(node, "starts, ends, axes and steps must have the same length");

    std::vector<int64_t> begin(static_cast<size_t>(rank), 0), step(static_cast<size_t>(rank), 1);
    std::vector<int64_t> outDims = x.shape().dims();
    for (size_t i = 0; i < starts.size(); ++i) {
        Expected<int64_t> a = normalizedAxis(node, axes[i], rank);
        if (!a) return a.error();
        const size_t ax = static_cast<size_t>(*a);
        const int64_t dim = x.shape()[ax], st = steps[i];
        if (st == 0) return invalid(node, "steps must not be zero");
        int64_t s = starts[i] < 0 ? starts[i] + dim : starts[i];
        int64_t e = ends[i] < 0 ? (ends[i] < std::numeric_limits<int64_t>::min() + dim ? -1 : ends[i] + dim) : ends[i];
        if (st > 0) {
            s = std::clamp<int64_t>(s, 0, dim);
            e = std::clamp<int64_t>(e, 0, dim);
            outDims[ax] = e > s ? (e - s + st - 1) / st : 0;
        } else {
            s = std::clamp<int64_t>(s, 0, dim - 1);
            e = std::clamp<int64_t>(e, -1, dim - 1);
            outDims[ax] = s > e ? (s - e + (-st) - 1) / (-st) : 0;
        }
        begin[ax] = s;
        step[ax] = st;
    }
    const Shape out(outDims);
    const std::vector<int64_t> inStrides = stridesOf(x.shape());
    const int64_t n = out.numel();
    std::vector<int64_t> index(static_cast<size_t>(n));
    std::vector<int64_t> counter(static_cast<size_t>(rank), 0);
    for (int64_t i = 0; i < n; ++i) {
        int64_t pos = 0;
        for (size_t d = 0; d < static_cast<size_t>(rank); ++d) pos += (begin[d] + counter[d] * step[d]) * inStrides[d];
        index[static_cast<size_t>(i)] = pos;
        for (int64_t d = rank - 1; d >= 0; --d) {
            if (++counter[static_cast<size_t>(d)] < outDims[static_cast<size_t>(d)]) break;
            counter[static_cast<size_t>(d)] = 0;
        }
    }
    return Tensors{gatherByIndex(x, out, index)};
}

Expected<Tensors> squeeze(const ir::Node& node, const ir::Tensor& x, const ir::Tensor* axesT) {
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    std::vector<bool> drop(static_cast<size_t>(rank), false);
    if (axesT) {
        for (int64_t a : axesT->toInt64Vector()) {
            Expected<int64_t> ax = normalizedAxis(node, a, rank);
            if (!ax) return ax.error();
            if (x.shape()[static_cast<size_t>(*ax)] != 1)
                return invalid(node, "cannot squeeze axis " + std::to_string(a) + " of " + x.shape().str() +
                                         ": its size is not 1");
            drop[static_cast<size_t>(*ax)] = true;
        }
    } else {
        for (int64_t d = 0; d < rank; ++d) drop[static_cast<size_t>(d)] = x.shape()[static_cast<size_t>(d)] == 1;
    }
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < rank; ++d)
        if (!drop[static_cast<size_t>(d)]) dims.push_back(x.shape()[static_cast<size_t>(d)]);
    return Tensors{withShape(x, Shape(dims))};
}

Expected<Tensors> unsqueeze(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& axesT) {
    const std::vector<int64_t> axes = axesT.toInt64Vector();
    const int64_t outRank = static_cast<int64_t>(x.shape().rank() + axes.size());
    std::vector<bool> inserted(static_cast<size_t>(outRank), false);
    for (int64_t a : axes) {
        Expected<int64_t> ax = normalizedAxis(node, a, outRank);
        if (!ax) return ax.error();
        if (inserted[static_cast<size_t>(*ax)]) return invalid(node, "axes repeat axis " + std::to_string(a));
        inserted[static_cast<size_t>(*ax)] = true;
    }
    std::vector<int64_t> dims;
    size_t next = 0;
    for (int64_t d = 0; d < outRank; ++d) dims.push_back(inserted[static_cast<size_t>(d)] ? 1 : x.shape()[next++]);
    return Tensors{withShape(x, Shape(dims))};
}

Expected<Tensors> gather(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& indicesT) {
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", 0), rank);
    if (!axis) return axis.error();
    const size_t a = static_cast<size_t>(*axis);
    const int64_t dim = x.shape()[a];
    std::vector<int64_t> indices = indicesT.toInt64Vector();
    for (int64_t& i : indices) {
        if (i < -dim || i >= dim)
            return invalid(node, "index " + std::to_string(i) + " is out of range for axis " + std::to_string(a) +
                                     " of size " + std::to_string(dim));
        if (i < 0) i += dim;
    }
    int64_t outer = 1, inner = 1;
    std::vector<int64_t> dims;
    for (size_t d = 0; d < a; ++d) {
        outer *= x.shape()[d];
        dims.push_back(x.shape()[d]);
    }
    for (int64_t d : indicesT.shape().dims()) dims.push_back(d);
    for (size_t d = a + 1; d < x.shape().rank(); ++d) {
        inner *= x.shape()[d];
        dims.push_back(x.shape()[d]);
    }
    std::vector<int64_t> index;
    index.reserve(static_cast<size_t>(outer * inner) * indices.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i : indices)
            for (int64_t k = 0; k < inner; ++k) index.push_back((o * dim + i) * inner + k);
    return Tensors{gatherByIndex(x, Shape(dims), index)};
}

} // namespace

Expected<Tensors> sliceLikeKernel(const ir::Node& node, const Tensors& inputs) {
    if (node.op == OpKind::Slice) return slice(node, inputs);
    Expected<const ir::Tensor*> x = requiredInput(node, inputs, 0);
    if (!x) return x.error();
    switch (node.op) {
    case OpKind::Split: return split(node, **x, optionalInput(inputs, 1));
    case OpKind::Squeeze: return squeeze(node, **x, optionalInput(inputs, 1));
    case OpKind::Unsqueeze: {
        Expected<const ir::Tensor*> axes = requiredInput(node, inputs, 1);
        if (!axes) return axes.error();
        return unsqueeze(node, **x, **axes);
    }
    case OpKind::Gather: {
        Expected<const ir::Tensor*> indices = requiredInput(node, inputs, 1);
        if (!indices) return indices.error();
        return gather(node, **x, **indices);
    }
    default: return unsupported(node, "not a slicing op");
    }
}

} // namespace embark::reference::detail

// Pad for any dtype: constant, reflect, edge and wrap modes, the pads / constant_value /
// axes inputs of the newest opset, and negative pads (cropping).
#include "kernels.h"

#include <cstring>

namespace embark::reference::detail {

Expected<Tensors> padKernel(const ir::Node& node, const Tensors& inputs) {
    for (size_t i = 0; i < 2; ++i) EMBARK_TRY(requiredInput(node, inputs, i));
    const ir::Tensor& x = inputs[0];
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    const std::vector<int64_t> given = inputs[1].toInt64Vector();
    std::vector<int64_t> axes;
    if (const ir::Tensor* t = optionalInput(inputs, 3)) {
        for (int64_t a : t->toInt64Vector()) {
            Expected<int64_t> ax = normalizedAxis(node, a, rank);
            if (!ax) return ax.error();
            axes.push_back(*ax);
        }
    } else {
        for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
    }
    if (given.size() != 2 * axes.size())
        return invalid(node, "pads has " + std::to_string(given.size()) + " values for " + std::to_string(axes.size()) +
                                 " axes (needs twice as many)");
    std::vector<int64_t> before(static_cast<size_t>(rank), 0), after(static_cast<size_t>(rank), 0);
    for (size_t i = 0; i < axes.size(); ++i) {
        before[static_cast<size_t>(axes[i])] = given[i];
        after[static_cast<size_t>(axes[i])] = given[i + axes.size()];
    }
    const std::string mode = node.attrString("mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
        return unsupported(node, "mode '" + mode + "' is not supported (constant, reflect, edge, wrap)");
    std::vector<int64_t> outDims(static_cast<size_t>(rank));
    for (size_t d = 0; d < static_cast<size_t>(rank); ++d) {
        outDims[d] = x.shape()[d] + before[d] + after[d];
        if (outDims[d] < 0) return invalid(node, "pads crop axis " + std::to_string(d) + " below zero");
        if (mode != "constant" && x.shape()[d] == 0 && outDims[d] > 0)
            return invalid(node, "cannot pad an empty axis in mode '" + mode + "'");
        if (mode == "reflect" && x.shape()[d] == 1 && (before[d] > 0 || after[d] > 0))
            return invalid(node, "reflect padding needs at least 2 elements along axis " + std::to_string(d));
    }
    const ir::Shape outShape(outDims);
    const std::vector<int64_t> inStrides = stridesOf(x.shape());
    const int64_t n = outShape.numel();
    // Source element per output element, -1 for the constant.
    std::vector<int64_t> index(static_cast<size_t>(n));
    std::vector<int64_t> counter(static_cast<size_t>(rank), 0);
    for (int64_t i = 0; i < n; ++i) {
        int64_t pos = 0;
        for (size_t d = 0; d < static_cast<size_t>(rank) && pos >= 0; ++d) {
            const int64_t dim = x.shape()[d];
            int64_t c = counter[d] - before[d];
            if (c < 0 || c >= dim) {
                if (mode == "constant") {
                    pos = -1;
                    break;
                }
                if (mode == "edge")
                    c = c < 0 ? 0 : dim - 1;
                else if (mode == "wrap")
                    c = ((c % dim) + dim) % dim;
                else {
                    const int64_t period = 2 * (dim - 1);
                    c = ((c % period) + period) % period;
                    if (c >= dim) c = period - c;
                }
            }
            pos += c * inStrides[d];
        }
        index[static_cast<size_t>(i)] = pos;
        for (int64_t d = rank - 1; d >= 0; --d) {
            if (++counter[static_cast<size_t>(d)] < outDims[static_cast<size_t>(d)]) break;
            counter[static_cast<size_t>(d)] = 0;
        }
    }
    ir::Tensor fill(x.dtype(), ir::Shape{});
    if (const ir::Tensor* v = optionalInput(inputs, 2)) {
        if (v->numel() != 1) return invalid(node, "constant_value must be a scalar");
        fill = v->castTo(x.dtype()).reshaped(ir::Shape{});
    }
    ir::Tensor out(x.dtype(), outShape);
    const size_t size = ir::dtypeSize(x.dtype());
    auto* dst = static_cast<char*>(out.mutableData());
    const auto* src = static_cast<const char*>(x.data());
    for (int64_t i = 0; i < n; ++i) {
        const int64_t from = index[static_cast<size_t>(i)];
        std::memcpy(dst + static_cast<size_t>(i) * size,
                    from < 0 ? static_cast<const char*>(fill.data()) : src + static_cast<size_t>(from) * size, size);
    }
    return Tensors{out};
}

} // namespace embark::reference::detail

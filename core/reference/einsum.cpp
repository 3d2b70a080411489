// Einsum, general: the equation parsed into one label list per operand (ellipsis expanded to
// the broadcast dims), then one loop over every combination of labels, products summed in
// double. Repeated labels in an operand take its diagonal; labels absent from the output
// are summed. The lower_einsum pass turns the common forms into Transpose/MatMul/ReduceSum.
#include "kernels.h"

#include "ir/einsum_equation.h"

#include <algorithm>
#include <map>

namespace embark::reference::detail {

Expected<Tensors> einsumKernel(const ir::Node& node, const Tensors& inputs) {
    std::vector<ir::Shape> shapes;
    for (size_t i = 0; i < node.inputs().size(); ++i) {
        Expected<const ir::Tensor*> t = requiredInput(node, inputs, i);
        if (!t) return t.error();
        shapes.push_back((*t)->shape());
    }
    Expected<ir::EinsumEquation> eq = ir::parseEinsum(node.attrString("equation", ""), shapes);
    if (!eq) return invalid(node, eq.error().message);
    const size_t labels = eq->sizes.size();
    std::vector<std::vector<double>> values;
    std::vector<std::vector<int64_t>> strides; // per operand, per label (0 when absent)
    for (size_t i = 0; i < shapes.size(); ++i) {
        values.push_back(toDoubles(inputs[i]));
        const std::vector<int64_t> s = stridesOf(shapes[i]);
        std::vector<int64_t> per(labels, 0);
        for (size_t d = 0; d < eq->operands[i].size(); ++d)
            if (shapes[i][d] != 1 || eq->sizes[static_cast<size_t>(eq->operands[i][d])] == 1)
                per[static_cast<size_t>(eq->operands[i][d])] += s[d];
        strides.push_back(per);
    }
    // Loop order: output labels first (row-major), then the summed ones.
    std::vector<int> order = eq->output;
    for (size_t l = 0; l < labels; ++l)
        if (std::find(eq->output.begin(), eq->output.end(), static_cast<int>(l)) == eq->output.end())
            order.push_back(static_cast<int>(l));
    std::vector<int64_t> outDims;
    for (int l : eq->output) outDims.push_back(eq->sizes[static_cast<size_t>(l)]);
    const ir::Shape outShape(outDims);
    int64_t summed = 1;
    for (size_t k = eq->output.size(); k < order.size(); ++k) summed *= eq->sizes[static_cast<size_t>(order[k])];
    std::vector<double> out(static_cast<size_t>(outShape.numel()), 0.0);
    std::vector<int64_t> counter(order.size(), 0), pos(shapes.size(), 0);
    const int64_t total = outShape.numel() * summed;
    for (int64_t step = 0; step < total; ++step) {
        double p = 1;
        for (size_t i = 0; i < shapes.size(); ++i) p *= values[i][static_cast<size_t>(pos[i])];
        out[static_cast<size_t>(step / std::max<int64_t>(summed, 1))] += p;
        for (int64_t k = static_cast<int64_t>(order.size()) - 1; k >= 0; --k) {
            const size_t l = static_cast<size_t>(order[static_cast<size_t>(k)]);
            for (size_t i = 0; i < shapes.size(); ++i) pos[i] += strides[i][l];
            if (++counter[static_cast<size_t>(k)] < eq->sizes[l]) break;
            for (size_t i = 0; i < shapes.size(); ++i) pos[i] -= strides[i][l] * eq->sizes[l];
            counter[static_cast<size_t>(k)] = 0;
        }
    }
    return Tensors{fromDoubles(inputs[0].dtype(), outShape, out)};
}

} // namespace embark::reference::detail

// An Einsum equation ("bij,bjk->bik", "...ii->...i") resolved against its operands' shapes:
// one label id per operand dim, the output's labels and every label's size. Shared by the
// reference kernel and the pass that lowers Einsum to Transpose/MatMul/ReduceSum.
#pragma once

#include "error.h"
#include "shape.h"

#include <string>
#include <vector>

namespace embark::ir {

struct EinsumEquation {
    std::vector<std::vector<int>> operands; // label id per dim of each operand
    std::vector<int> output;                // label id per output dim
    std::vector<int64_t> sizes;             // per label id (broadcast over the operands)
};

// Parses `equation` for operands of `shapes`. Ellipsis dims get their own label ids,
// broadcast right-aligned like numpy; without "->" the output is the ellipsis dims, then the
// labels used once, in alphabetical order.
Expected<EinsumEquation> parseEinsum(const std::string& equation, const std::vector<Shape>& shapes);

} // namespace embark::ir

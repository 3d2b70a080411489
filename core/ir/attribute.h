// Typed node attributes (ints, floats, strings, lists of them, tensors).
#pragma once

#include "tensor.h"

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace embark::ir {

using Attribute = std::variant<int64_t, float, std::string, std::vector<int64_t>, std::vector<float>,
                               std::vector<std::string>, Tensor>;

// Ordered so that printing, hashing and export are deterministic.
using Attributes = std::map<std::string, Attribute>;

std::string attributeToString(const Attribute& a); // for display and logs

} // namespace embark::ir

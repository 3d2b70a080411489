#include "shape.h"

#include <cstdlib>
#include <limits>

namespace embark::ir {

std::optional<int64_t> Shape::checkedNumel() const {
    int64_t n = 1;
    for (int64_t d : m_dims) {
        if (d < 0) return std::nullopt;
        if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) return std::nullopt;
        n *= d;
    }
    return n;
}

int64_t Shape::numel() const {
    int64_t n = 1;
    for (int64_t d : m_dims) n *= d;
    return n;
}

int64_t Shape::normAxis(int64_t axis) const {
    const int64_t r = static_cast<int64_t>(m_dims.size());
    if (axis < 0) axis += r;
    return (axis < 0 || axis >= r) ? -1 : axis;
}

std::string Shape::str() const {
    if (m_dims.empty()) return "scalar";
    std::string s;
    for (size_t i = 0; i < m_dims.size(); ++i) {
        if (i) s += 'x';
        s += std::to_string(m_dims[i]);
    }
    return s;
}

std::optional<Shape> Shape::parse(const std::string& text) {
    std::vector<int64_t> dims;
    if (text.empty()) return std::nullopt;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t end = text.find_first_of("x,", pos);
        if (end == std::string::npos) end = text.size();
        const std::string part = text.substr(pos, end - pos);
        if (part.empty()) return std::nullopt;
        char* stop = nullptr;
        const long long v = std::strtoll(part.c_str(), &stop, 10);
        if (*stop != '\0' || v < 0) return std::nullopt;
        dims.push_back(v);
        pos = end + 1;
        if (end == text.size()) break;
    }
    Shape s(std::move(dims));
    if (!s.checkedNumel()) return std::nullopt;
    return s;
}

} // namespace embark::ir

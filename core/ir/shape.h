// Static tensor shapes. Symbolic dimensions are resolved at import, so every IR shape is
// concrete; element counts are computed with overflow checks.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace embark::ir {

class Shape {
public:
    Shape() = default; // a scalar: rank 0, one element
    Shape(std::initializer_list<int64_t> dims) : m_dims(dims) {}
    explicit Shape(std::vector<int64_t> dims) : m_dims(std::move(dims)) {}

    size_t rank() const { return m_dims.size(); }
    int64_t operator[](size_t i) const { return m_dims[i]; }
    int64_t& operator[](size_t i) { return m_dims[i]; }
    const std::vector<int64_t>& dims() const { return m_dims; }
    std::vector<int64_t>& dims() { return m_dims; }

    // Number of elements, or nullopt when a dimension is negative or the product overflows
    // int64 (a hostile or broken model).
    std::optional<int64_t> checkedNumel() const;
    // Number of elements; the shape must be valid (checked at import).
    int64_t numel() const;

    // Normalises a possibly negative axis; returns -1 when out of range.
    int64_t normAxis(int64_t axis) const;

    std::string str() const; // "1x3x224x224", "scalar" for rank 0
    bool operator==(const Shape& o) const { return m_dims == o.m_dims; }
    bool operator!=(const Shape& o) const { return m_dims != o.m_dims; }

    // Parses "1x3x224x224" (also "1,3,224,224").
    static std::optional<Shape> parse(const std::string& text);

private:
    std::vector<int64_t> m_dims;
};

} // namespace embark::ir

// A dense tensor: dtype, static shape and row-major little-endian data. The storage is
// shared and immutable between copies (copy-on-write), so graph snapshots and constant
// values are cheap to copy even for ResNet-sized weights.
#pragma once

#include "dtype.h"
#include "shape.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace embark::ir {

class Tensor {
public:
    Tensor() = default;
    Tensor(DType dtype, Shape shape); // zero-filled

    static Tensor fromFloats(Shape shape, const std::vector<float>& values);
    static Tensor fromInt64s(Shape shape, const std::vector<int64_t>& values);
    static Tensor scalarFloat(float v) { return fromFloats(Shape{}, {v}); }
    static Tensor scalarInt64(int64_t v) { return fromInt64s(Shape{}, {v}); }
    // Copies `bytes` bytes; the caller guarantees bytes == numel * dtypeSize.
    static Tensor fromBytes(DType dtype, Shape shape, const void* data, size_t bytes);

    bool isNull() const { return m_dtype == DType::Undefined; }
    DType dtype() const { return m_dtype; }
    const Shape& shape() const { return m_shape; }
    int64_t numel() const { return m_shape.numel(); }
    size_t byteSize() const { return static_cast<size_t>(numel()) * dtypeSize(m_dtype); }

    const void* data() const { return m_storage ? m_storage->data() : nullptr; }
    void* mutableData(); // detaches shared storage
    template <typename T>
    const T* as() const {
        return static_cast<const T*>(data());
    }
    template <typename T>
    T* mutableAs() {
        return static_cast<T*>(mutableData());
    }

    // Same data, new shape with the same element count.
    Tensor reshaped(Shape shape) const;

    // Element i converted to double / int64, whatever the dtype (for reference kernels and
    // for reading small integer tensors such as axes or shapes).
    double at(int64_t i) const;
    int64_t intAt(int64_t i) const;
    std::vector<int64_t> toInt64Vector() const;
    std::vector<float> toFloatVector() const;
    // A copy converted to another dtype (float16 included).
    Tensor castTo(DType dtype) const;

    // True when both have the same dtype, shape and bytes.
    bool identical(const Tensor& other) const;

private:
    struct Storage {
        explicit Storage(size_t bytes);
        ~Storage();
        Storage(const Storage&) = delete;
        Storage& operator=(const Storage&) = delete;
        void* data() { return m_ptr; }
        size_t size() const { return m_size; }
        void* m_ptr = nullptr;
        size_t m_size = 0;
    };

    DType m_dtype = DType::Undefined;
    Shape m_shape;
    std::shared_ptr<Storage> m_storage;
};

float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);

} // namespace embark::ir

#include "tensor.h"

#include <cassert>
#include <cmath>
#include <cstdlib>
#include <new>

namespace embark::ir {

Tensor::Storage::Storage(size_t bytes) : m_size(bytes) {
    // 64-byte aligned so exported kernels and SIMD code may assume it.
    const size_t rounded = ((bytes + 63) / 64) * 64;
    m_ptr = std::aligned_alloc(64, rounded ? rounded : 64);
    if (!m_ptr) throw std::bad_alloc();
    std::memset(m_ptr, 0, rounded ? rounded : 64);
}

Tensor::Storage::~Storage() { std::free(m_ptr); }

Tensor::Tensor(DType dtype, Shape shape) : m_dtype(dtype), m_shape(std::move(shape)) {
    m_storage = std::make_shared<Storage>(byteSize());
}

Tensor Tensor::fromFloats(Shape shape, const std::vector<float>& values) {
    Tensor t(DType::Float32, std::move(shape));
    assert(static_cast<int64_t>(values.size()) == t.numel());
    if (!values.empty()) std::memcpy(t.mutableData(), values.data(), values.size() * sizeof(float));
    return t;
}

Tensor Tensor::fromInt64s(Shape shape, const std::vector<int64_t>& values) {
    Tensor t(DType::Int64, std::move(shape));
    assert(static_cast<int64_t>(values.size()) == t.numel());
    if (!values.empty()) std::memcpy(t.mutableData(), values.data(), values.size() * sizeof(int64_t));
    return t;
}

Tensor Tensor::fromBytes(DType dtype, Shape shape, const void* data, size_t bytes) {
    Tensor t(dtype, std::move(shape));
    assert(bytes == t.byteSize());
    if (bytes) std::memcpy(t.mutableData(), data, bytes);
    return t;
}

void* Tensor::mutableData() {
    if (!m_storage) return nullptr;
    if (m_storage.use_count() > 1) {
        auto copy = std::make_shared<Storage>(m_storage->size());
        if (m_storage->size()) std::memcpy(copy->data(), m_storage->data(), m_storage->size());
        m_storage = std::move(copy);
    }
    return m_storage->data();
}

Tensor Tensor::reshaped(Shape shape) const {
    assert(shape.numel() == numel());
    Tensor t = *this;
    t.m_shape = std::move(shape);
    return t;
}

double Tensor::at(int64_t i) const {
    switch (m_dtype) {
    case DType::Float32: return as<float>()[i];
    case DType::Float64: return as<double>()[i];
    case DType::Float16: return halfToFloat(as<uint16_t>()[i]);
    case DType::Int8: return as<int8_t>()[i];
    case DType::Int16: return as<int16_t>()[i];
    case DType::Int32: return as<int32_t>()[i];
    case DType::Int64: return static_cast<double>(as<int64_t>()[i]);
    case DType::UInt8: return as<uint8_t>()[i];
    case DType::UInt16: return as<uint16_t>()[i];
    case DType::UInt32: return as<uint32_t>()[i];
    case DType::UInt64: return static_cast<double>(as<uint64_t>()[i]);
    case DType::Bool: return as<uint8_t>()[i] ? 1.0 : 0.0;
    default: return 0.0;
    }
}

int64_t Tensor::intAt(int64_t i) const {
    switch (m_dtype) {
    case DType::Int64: return as<int64_t>()[i];
    case DType::Int32: return as<int32_t>()[i];
    case DType::UInt64: return static_cast<int64_t>(as<uint64_t>()[i]);
    default: return static_cast<int64_t>(at(i));
    }
}

std::vector<int64_t> Tensor::toInt64Vector() const {
    std::vector<int64_t> v(static_cast<size_t>(numel()));
    for (int64_t i = 0; i < numel(); ++i) v[static_cast<size_t>(i)] = intAt(i);
    return v;
}

std::vector<float> Tensor::toFloatVector() const {
    std::vector<float> v(static_cast<size_t>(numel()));
    for (int64_t i = 0; i < numel(); ++i) v[static_cast<size_t>(i)] = static_cast<float>(at(i));
    return v;
}

Tensor Tensor::castTo(DType dtype) const {
    if (dtype == m_dtype) return *this;
    Tensor out(dtype, m_shape);
    void* dst = out.mutableData();
    const int64_t n = numel();
    const bool srcInt = isInteger(m_dtype) || m_dtype == DType::Bool;
    for (int64_t i = 0; i < n; ++i) {
        const double d = at(i);
        const int64_t k = srcInt ? intAt(i) : static_cast<int64_t>(d);
        switch (dtype) {
        case DType::Float32: static_cast<float*>(dst)[i] = static_cast<float>(d); break;
        case DType::Float64: static_cast<double*>(dst)[i] = d; break;
        case DType::Float16: static_cast<uint16_t*>(dst)[i] = floatToHalf(static_cast<float>(d)); break;
        case DType::Int8: static_cast<int8_t*>(dst)[i] = static_cast<int8_t>(k); break;
        case DType::Int16: static_cast<int16_t*>(dst)[i] = static_cast<int16_t>(k); break;
        case DType::Int32: static_cast<int32_t*>(dst)[i] = static_cast<int32_t>(k); break;
        case DType::Int64: static_cast<int64_t*>(dst)[i] = k; break;
        case DType::UInt8: static_cast<uint8_t*>(dst)[i] = static_cast<uint8_t>(k); break;
        case DType::UInt16: static_cast<uint16_t*>(dst)[i] = static_cast<uint16_t>(k); break;
        case DType::UInt32: static_cast<uint32_t*>(dst)[i] = static_cast<uint32_t>(k); break;
        case DType::UInt64: static_cast<uint64_t*>(dst)[i] = static_cast<uint64_t>(k); break;
        case DType::Bool: static_cast<uint8_t*>(dst)[i] = d != 0.0 ? 1 : 0; break;
        default: break;
        }
    }
    return out;
}

bool Tensor::identical(const Tensor& other) const {
    if (m_dtype != other.m_dtype || m_shape != other.m_shape) return false;
    if (byteSize() == 0) return true;
    return std::memcmp(data(), other.data(), byteSize()) == 0;
}

float halfToFloat(uint16_t h) {
    const uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    float v;
    if (exp == 0)
        v = std::ldexp(static_cast<float>(mant), -24);
    else if (exp == 31)
        v = mant ? NAN : INFINITY;
    else
        v = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
    return sign ? -v : v;
}

uint16_t floatToHalf(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = static_cast<int32_t>((x >> 23) & 0xffu) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (((x >> 23) & 0xffu) == 0xffu) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
    if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
    if (exp <= 0) {
        if (exp < -10) return static_cast<uint16_t>(sign);
        mant |= 0x800000u;
        const uint32_t shift = static_cast<uint32_t>(14 - exp);
        uint32_t half = mant >> shift;
        const uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1u))) ++half;
        return static_cast<uint16_t>(sign | half);
    }
    uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
    const uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;
    return static_cast<uint16_t>(half);
}

} // namespace embark::ir

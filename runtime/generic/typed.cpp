#include "typed.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <vector>

namespace embark::generic {

size_t elemSize(ElemType t) {
    switch (t) {
    case ElemType::UInt8:
    case ElemType::Int8:
    case ElemType::Bool: return 1;
    case ElemType::Float16:
    case ElemType::Int16:
    case ElemType::UInt16: return 2;
    case ElemType::Float32:
    case ElemType::Int32:
    case ElemType::UInt32: return 4;
    case ElemType::Int64:
    case ElemType::UInt64:
    case ElemType::Float64: return 8;
    }
    return 4;
}

float halfToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0)
            bits = sign;
        else { // subnormal: normalise
            int e = -1;
            uint32_t m = mant;
            do {
                m <<= 1;
                ++e;
            } while (!(m & 0x400u));
            bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((m & 0x3ffu) << 13);
        }
    } else if (exp == 0x1f)
        bits = sign | 0x7f800000u | (mant << 13);
    else
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

uint16_t floatToHalf(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
    if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u); // rounds to >= 65520: infinity
    if (absx < 0x38800000u) {                      // below the smallest normal half: a subnormal, rounded to even
        const float a = std::fabs(f) * 16777216.f; // / 2^-24
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(a)));
    }
    const uint32_t mant = absx & 0x7fffffu;
    uint32_t h = ((absx >> 23) - 127 + 15) << 10 | (mant >> 13);
    const uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h; // a carry into the exponent is right
    return static_cast<uint16_t>(sign | h);
}

double elementAsDouble(const void* data, ElemType t, int64_t i) {
    switch (t) {
    case ElemType::Float32: return static_cast<const float*>(data)[i];
    case ElemType::UInt8: return static_cast<const uint8_t*>(data)[i];
    case ElemType::Int8: return static_cast<const int8_t*>(data)[i];
    case ElemType::Int32: return static_cast<const int32_t*>(data)[i];
    case ElemType::Int64: return static_cast<double>(static_cast<const int64_t*>(data)[i]);
    case ElemType::Bool: return static_cast<const uint8_t*>(data)[i] ? 1.0 : 0.0;
    case ElemType::Float16: return halfToFloat(static_cast<const uint16_t*>(data)[i]);
    case ElemType::Float64: return static_cast<const double*>(data)[i];
    case ElemType::Int16: return static_cast<const int16_t*>(data)[i];
    case ElemType::UInt16: return static_cast<const uint16_t*>(data)[i];
    case ElemType::UInt32: return static_cast<const uint32_t*>(data)[i];
    case ElemType::UInt64: return static_cast<double>(static_cast<const uint64_t*>(data)[i]);
    }
    return 0;
}

namespace {

template <typename T>
T fromDouble(double v) {
    if constexpr (std::is_floating_point_v<T>)
        return static_cast<T>(v);
    else {
        if (std::isnan(v)) return T(0);
        const double t = std::trunc(v);
        // Out-of-range values are undefined in ONNX; saturate rather than invoke UB.
        if (t <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
        if (t >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
        return static_cast<T>(t);
    }
}

template <typename T>
void castTo(const void* in, ElemType from, T* out, int64_t count) {
    for (int64_t i = 0; i < count; ++i) out[i] = fromDouble<T>(elementAsDouble(in, from, i));
}

int64_t indexAt(const void* indices, ElemType t, int64_t k) {
    return t == ElemType::Int32 ? static_cast<const int32_t*>(indices)[k] : static_cast<const int64_t*>(indices)[k];
}

int32_t quantAt(const void* data, ElemType t, int64_t i) {
    return t == ElemType::Int8 ? static_cast<const int8_t*>(data)[i] : static_cast<const uint8_t*>(data)[i];
}

bool isFloatType(ElemType t) { return t == ElemType::Float32 || t == ElemType::Float16 || t == ElemType::Float64; }

// The integer types beyond the first run protocol's (int16, uint16, uint32, uint64).
bool isWideInteger(ElemType t) {
    return t == ElemType::Int16 || t == ElemType::UInt16 || t == ElemType::UInt32 || t == ElemType::UInt64;
}

// Element i of an integer or bool tensor as 64 bits, sign-extended from a signed type.
uint64_t integerBits(const void* data, ElemType t, int64_t i) {
    switch (t) {
    case ElemType::UInt8:
    case ElemType::Bool: return static_cast<const uint8_t*>(data)[i];
    case ElemType::Int8: return static_cast<uint64_t>(int64_t{static_cast<const int8_t*>(data)[i]});
    case ElemType::Int16: return static_cast<uint64_t>(int64_t{static_cast<const int16_t*>(data)[i]});
    case ElemType::UInt16: return static_cast<const uint16_t*>(data)[i];
    case ElemType::Int32: return static_cast<uint64_t>(int64_t{static_cast<const int32_t*>(data)[i]});
    case ElemType::UInt32: return static_cast<const uint32_t*>(data)[i];
    case ElemType::Int64: return static_cast<uint64_t>(static_cast<const int64_t*>(data)[i]);
    case ElemType::UInt64: return static_cast<const uint64_t*>(data)[i];
    default: return static_cast<uint64_t>(static_cast<int64_t>(elementAsDouble(data, t, i)));
    }
}

// Stores the low bits of v into element i of an integer tensor (numpy's astype wraps).
void storeBits(void* out, ElemType t, int64_t i, uint64_t v) {
    switch (t) {
    case ElemType::UInt8:
    case ElemType::Int8: static_cast<uint8_t*>(out)[i] = static_cast<uint8_t>(v); return;
    case ElemType::Int16:
    case ElemType::UInt16: static_cast<uint16_t*>(out)[i] = static_cast<uint16_t>(v); return;
    case ElemType::Int32:
    case ElemType::UInt32: static_cast<uint32_t*>(out)[i] = static_cast<uint32_t>(v); return;
    case ElemType::Int64:
    case ElemType::UInt64: static_cast<uint64_t*>(out)[i] = v; return;
    case ElemType::Bool: static_cast<uint8_t*>(out)[i] = v != 0 ? 1 : 0; return;
    default: return;
    }
}

} // namespace

void cast(const void* in, ElemType from, void* out, ElemType to, int64_t count) {
    if (from == to) {
        std::memmove(out, in, static_cast<size_t>(count) * elemSize(to));
        return;
    }
    if (isWideInteger(from) || isWideInteger(to)) { // the types this path was added for
        if (!isFloatType(from) && !isFloatType(to) && to != ElemType::Bool) {
            for (int64_t i = 0; i < count; ++i) storeBits(out, to, i, integerBits(in, from, i));
            return;
        }
        if (to == ElemType::UInt64 && !isFloatType(from)) { // bool
            for (int64_t i = 0; i < count; ++i) static_cast<uint64_t*>(out)[i] = integerBits(in, from, i);
            return;
        }
    }
    switch (to) {
    case ElemType::Float32:
        if (from == ElemType::Int64) { // exact conversion (a double may round first)
            const auto* s = static_cast<const int64_t*>(in);
            for (int64_t i = 0; i < count; ++i) static_cast<float*>(out)[i] = static_cast<float>(s[i]);
        } else
            castTo(in, from, static_cast<float*>(out), count);
        return;
    case ElemType::UInt8: castTo(in, from, static_cast<uint8_t*>(out), count); return;
    case ElemType::Int8: castTo(in, from, static_cast<int8_t*>(out), count); return;
    case ElemType::Int32: castTo(in, from, static_cast<int32_t*>(out), count); return;
    case ElemType::Int64:
        if (from == ElemType::Int32 || from == ElemType::UInt8 || from == ElemType::Int8 || from == ElemType::Bool) {
            for (int64_t i = 0; i < count; ++i)
                static_cast<int64_t*>(out)[i] = static_cast<int64_t>(elementAsDouble(in, from, i));
        } else
            castTo(in, from, static_cast<int64_t*>(out), count);
        return;
    case ElemType::Bool:
        for (int64_t i = 0; i < count; ++i) static_cast<uint8_t*>(out)[i] = elementAsDouble(in, from, i) != 0 ? 1 : 0;
        return;
    case ElemType::Float16:
        for (int64_t i = 0; i < count; ++i)
            static_cast<uint16_t*>(out)[i] = floatToHalf(static_cast<float>(elementAsDouble(in, from, i)));
        return;
    case ElemType::Float64: castTo(in, from, static_cast<double*>(out), count); return;
    case ElemType::Int16: castTo(in, from, static_cast<int16_t*>(out), count); return;
    case ElemType::UInt16: castTo(in, from, static_cast<uint16_t*>(out), count); return;
    case ElemType::UInt32: castTo(in, from, static_cast<uint32_t*>(out), count); return;
    case ElemType::UInt64: castTo(in, from, static_cast<uint64_t*>(out), count); return;
    }
}

namespace {

int64_t elementAsInt(const void* data, ElemType t, int64_t i) {
    switch (t) {
    case ElemType::UInt8:
    case ElemType::Bool: return static_cast<const uint8_t*>(data)[i];
    case ElemType::Int8: return static_cast<const int8_t*>(data)[i];
    case ElemType::Int32: return static_cast<const int32_t*>(data)[i];
    case ElemType::Int64: return static_cast<const int64_t*>(data)[i];
    case ElemType::Int16:
    case ElemType::UInt16:
    case ElemType::UInt32:
    case ElemType::UInt64: return static_cast<int64_t>(integerBits(data, t, i)); // uint64: its bits
    default: return static_cast<int64_t>(elementAsDouble(data, t, i));
    }
}

template <typename T>
void storeAs(void* out, ElemType t, int64_t i, T v) {
    switch (t) {
    case ElemType::Float32: static_cast<float*>(out)[i] = static_cast<float>(v); return;
    case ElemType::Float16: static_cast<uint16_t*>(out)[i] = floatToHalf(static_cast<float>(v)); return;
    case ElemType::Bool: static_cast<uint8_t*>(out)[i] = v != 0 ? 1 : 0; return;
    case ElemType::UInt8: static_cast<uint8_t*>(out)[i] = static_cast<uint8_t>(v); return;
    case ElemType::Int8: static_cast<int8_t*>(out)[i] = static_cast<int8_t>(v); return;
    case ElemType::Int32: static_cast<int32_t*>(out)[i] = static_cast<int32_t>(v); return;
    case ElemType::Int64:
        if constexpr (std::is_floating_point_v<T>)
            static_cast<int64_t*>(out)[i] = fromDouble<int64_t>(v);
        else
            static_cast<int64_t*>(out)[i] = static_cast<int64_t>(v);
        return;
    case ElemType::Float64: static_cast<double*>(out)[i] = static_cast<double>(v); return;
    case ElemType::Int16:
    case ElemType::UInt16:
    case ElemType::UInt32:
    case ElemType::UInt64:
        if constexpr (std::is_floating_point_v<T>) {
            switch (t) {
            case ElemType::Int16: static_cast<int16_t*>(out)[i] = fromDouble<int16_t>(v); return;
            case ElemType::UInt16: static_cast<uint16_t*>(out)[i] = fromDouble<uint16_t>(v); return;
            case ElemType::UInt32: static_cast<uint32_t*>(out)[i] = fromDouble<uint32_t>(v); return;
            default: static_cast<uint64_t*>(out)[i] = fromDouble<uint64_t>(v); return;
            }
        } else
            storeBits(out, t, i, static_cast<uint64_t>(v));
        return;
    }
}

template <typename T>
T apply(TypedOp op, const T* v) {
    const T a = v[0], b = v[1];
    switch (op) {
    case TypedOp::Equal: return a == b;
    case TypedOp::Less: return a < b;
    case TypedOp::Greater: return a > b;
    case TypedOp::LessOrEqual: return a <= b;
    case TypedOp::GreaterOrEqual: return a >= b;
    case TypedOp::And: return (a != 0) && (b != 0);
    case TypedOp::Or: return (a != 0) || (b != 0);
    case TypedOp::Xor: return (a != 0) != (b != 0);
    case TypedOp::Not: return a == 0;
    case TypedOp::Where: return a != 0 ? b : v[2];
    case TypedOp::Add: return a + b;
    case TypedOp::Sub: return a - b;
    case TypedOp::Mul: return a * b;
    case TypedOp::Div:
        if constexpr (std::is_floating_point_v<T>)
            return a / b;
        else
            return b == 0 ? 0 : a / b;
    case TypedOp::Mod:
    case TypedOp::FMod:
        if constexpr (std::is_floating_point_v<T>) {
            const T r = std::fmod(a, b);
            return op == TypedOp::Mod && r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
        } else {
            if (b == 0) return 0;
            const T r = a % b;
            if constexpr (std::is_signed_v<T>)
                return op == TypedOp::Mod && r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
            else
                return r;
        }
    case TypedOp::Min: return a < b ? a : b;
    case TypedOp::Max: return a > b ? a : b;
    case TypedOp::Neg: return static_cast<T>(T(0) - a);
    case TypedOp::Abs:
        if constexpr (std::is_signed_v<T>)
            return a < 0 ? -a : a;
        else
            return a;
    case TypedOp::BitAnd:
    case TypedOp::BitOr:
    case TypedOp::BitXor:
    case TypedOp::BitNot:
    case TypedOp::ShiftLeft:
    case TypedOp::ShiftRight:
        if constexpr (std::is_floating_point_v<T>)
            return 0; // integer inputs only (the emitter never passes floats)
        else {
            const auto u = static_cast<uint64_t>(a), s = static_cast<uint64_t>(b);
            switch (op) {
            case TypedOp::BitAnd: return a & b;
            case TypedOp::BitOr: return a | b;
            case TypedOp::BitXor: return a ^ b;
            case TypedOp::BitNot: return ~a;
            case TypedOp::ShiftLeft: return s >= 64 ? 0 : static_cast<T>(u << s);
            default: return s >= 64 ? 0 : static_cast<T>(u >> s);
            }
        }
    case TypedOp::IsNaN:
    case TypedOp::IsInf:
    case TypedOp::IsPosInf:
    case TypedOp::IsNegInf:
        if constexpr (std::is_floating_point_v<T>)
            return op == TypedOp::IsNaN      ? std::isnan(a)
                   : op == TypedOp::IsInf    ? std::isinf(a)
                   : op == TypedOp::IsPosInf ? std::isinf(a) && a > 0
                                             : std::isinf(a) && a < 0;
        else
            return 0;
    case TypedOp::Pow: return static_cast<T>(std::pow(static_cast<double>(a), static_cast<double>(b)));
    }
    return 0;
}

} // namespace

void typedElementwise(TypedOp op, int count, const void* const* in, const ElemType* types, const Shape* shapes,
                      void* out, ElemType outType, const Shape& outShape) {
    // Where selects between x and y: its condition's type does not make the values floats.
    bool floats = false;
    // uint64 values at or above 2^63 compare and divide as unsigned, so uint64 inputs compute in
    // uint64 (ONNX's element-wise ops take inputs of one type).
    bool unsigned64 = false;
    for (int k = op == TypedOp::Where ? 1 : 0; k < count; ++k) {
        floats = floats || isFloatType(types[k]);
        unsigned64 = unsigned64 || types[k] == ElemType::UInt64;
    }
    // Per input, the stride of each output axis (0 where the input broadcasts).
    int64_t strides[3][kMaxRank] = {};
    for (int k = 0; k < count; ++k) {
        const Shape& s = shapes[k];
        int64_t stride = 1;
        for (int a = s.rank - 1; a >= 0; --a) {
            const int oa = outShape.rank - s.rank + a;
            strides[k][oa] = s.d[a] == 1 ? 0 : stride;
            stride *= s.d[a];
        }
    }
    const int64_t total = outShape.count();
    const bool shift = op == TypedOp::ShiftLeft || op == TypedOp::ShiftRight;
    const size_t width = elemSize(outType) * 8;
    const int64_t widthMask = width >= 64 ? int64_t{-1} : static_cast<int64_t>((uint64_t{1} << width) - 1);
    int64_t idx[kMaxRank] = {};
    int64_t off[3] = {};
    for (int64_t i = 0; i < total; ++i) {
        if (floats) {
            double v[3] = {};
            for (int k = 0; k < count; ++k) v[k] = elementAsDouble(in[k], types[k], off[k]);
            const bool boolOut = op <= TypedOp::Not || (op >= TypedOp::IsNaN && op <= TypedOp::IsNegInf);
            const double r = apply(op, v);
            storeAs(out, outType, i, boolOut ? (r != 0 ? 1.0 : 0.0) : r);
        } else if (unsigned64) {
            uint64_t v[3] = {};
            for (int k = 0; k < count; ++k) v[k] = integerBits(in[k], types[k], off[k]);
            storeAs(out, outType, i, apply(op, v));
        } else {
            int64_t v[3] = {};
            for (int k = 0; k < count; ++k) v[k] = elementAsInt(in[k], types[k], off[k]);
            if (shift) v[0] &= widthMask; // the shifted value, unsigned in the output's width
            storeAs(out, outType, i, apply(op, v));
        }
        for (int a = outShape.rank - 1; a >= 0; --a) { // next output index, offsets follow
            for (int k = 0; k < count; ++k) off[k] += strides[k][a];
            if (++idx[a] < outShape.d[a]) break;
            for (int k = 0; k < count; ++k) off[k] -= strides[k][a] * idx[a];
            idx[a] = 0;
        }
    }
}

void transposeBytes(const void* in, size_t elemBytes, const Shape& inShape, const int* perm, void* out) {
    const int rank = inShape.rank;
    int64_t inStride[kMaxRank] = {}, outDims[kMaxRank] = {}, stride[kMaxRank] = {};
    int64_t s = 1;
    for (int a = rank - 1; a >= 0; --a) {
        inStride[a] = s;
        s *= inShape.d[a];
    }
    for (int a = 0; a < rank; ++a) {
        outDims[a] = inShape.d[perm[a]];
        stride[a] = inStride[perm[a]]; // input step of output axis a
    }
    const auto* src = static_cast<const unsigned char*>(in);
    auto* dst = static_cast<unsigned char*>(out);
    int64_t idx[kMaxRank] = {}, off = 0;
    const int64_t total = inShape.count();
    for (int64_t i = 0; i < total; ++i) {
        std::memcpy(dst + static_cast<size_t>(i) * elemBytes, src + static_cast<size_t>(off) * elemBytes, elemBytes);
        for (int a = rank - 1; a >= 0; --a) {
            off += stride[a];
            if (++idx[a] < outDims[a]) break;
            off -= stride[a] * idx[a];
            idx[a] = 0;
        }
    }
}

void gatherBy(const void* data, size_t elemBytes, const Shape& dataShape, int axis, const void* indices,
              ElemType indexType, int64_t indexCount, void* out, const char* what) {
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; ++i) outer *= dataShape.d[i];
    for (int i = axis + 1; i < dataShape.rank; ++i) inner *= dataShape.d[i];
    const int64_t dim = dataShape.d[axis];
    const size_t row = static_cast<size_t>(inner) * elemBytes;
    for (int64_t k = 0; k < indexCount; ++k) {
        const int64_t i = indexAt(indices, indexType, k);
        if (i < -dim || i >= dim)
            throw std::out_of_range(std::string(what) + ": index " + std::to_string(i) + " outside [" +
                                    std::to_string(-dim) + ", " + std::to_string(dim) + ")");
    }
    auto* o = static_cast<unsigned char*>(out);
    const auto* d = static_cast<const unsigned char*>(data);
    for (int64_t b = 0; b < outer; ++b)
        for (int64_t k = 0; k < indexCount; ++k) {
            int64_t i = indexAt(indices, indexType, k);
            if (i < 0) i += dim;
            std::memcpy(o + static_cast<size_t>(b * indexCount + k) * row, d + static_cast<size_t>(b * dim + i) * row,
                        row);
        }
}

void dynamicQuantizeLinear(const float* x, int64_t count, uint8_t* y, float* scale, uint8_t* zeroPoint) {
    float lo = 0.f, hi = 0.f;
    for (int64_t i = 0; i < count; ++i) {
        lo = std::min(lo, x[i]);
        hi = std::max(hi, x[i]);
    }
    const float s = (hi - lo) / 255.f;
    *scale = s;
    if (s == 0.f) { // all zeros: x / scale is undefined; every value is the zero point 0
        *zeroPoint = 0;
        std::memset(y, 0, static_cast<size_t>(count));
        return;
    }
    const float zp = std::nearbyint(std::clamp(0.f - lo / s, 0.f, 255.f));
    *zeroPoint = static_cast<uint8_t>(zp);
    // round(x / s) + zp saturated to [0, 255]: x / s is clamped to [-zp, 255 - zp] first (the
    // bounds are integers, so clamping before rounding gives the same bytes) and rounded half
    // to even by adding 1.5 * 2^23, whose float's low mantissa bits are then the integer. No
    // float-to-integer conversion: vectorized for RVV, the cast would be vfncvt.rtz, which
    // qemu-user 7.2 (Debian 12's, the simulated boards') aborts on while translating it.
    const float lower = -zp, upper = 255.f - zp;
    const int32_t offset = static_cast<int32_t>(zp) - 0x400000;
    for (int64_t i = 0; i < count; ++i) {
        const float v = x[i] / s;
        const float r = (v != v ? -zp : std::min(std::max(v, lower), upper)) + 12582912.f;
        uint32_t bits;
        std::memcpy(&bits, &r, sizeof bits);
        y[i] = static_cast<uint8_t>(static_cast<int32_t>(bits & 0x7FFFFF) + offset);
    }
}

void matmulInteger(const void* a, ElemType aType, const Shape& aShape, const void* b, ElemType bType,
                   const Shape& bShape, const void* aZero, int64_t aZeroCount, const void* bZero, int64_t bZeroCount,
                   int32_t* out) {
    // 1-D operands are promoted as numpy does: a [K] -> [1, K], b [K] -> [K, 1].
    const bool aVec = aShape.rank == 1, bVec = bShape.rank == 1;
    const int64_t M = aVec ? 1 : aShape.d[aShape.rank - 2], K = aShape.d[aShape.rank - 1];
    const int64_t N = bVec ? 1 : bShape.d[bShape.rank - 1];
    const int aBatchRank = aVec ? 0 : aShape.rank - 2, bBatchRank = bVec ? 0 : bShape.rank - 2;
    const int batchRank = std::max(aBatchRank, bBatchRank);
    int64_t batchDims[kMaxRank] = {}, aDims[kMaxRank] = {}, bDims[kMaxRank] = {};
    int64_t batches = 1;
    for (int i = 0; i < batchRank; ++i) {
        const int ai = i - (batchRank - aBatchRank), bi = i - (batchRank - bBatchRank);
        aDims[i] = ai >= 0 ? aShape.d[ai] : 1;
        bDims[i] = bi >= 0 ? bShape.d[bi] : 1;
        batchDims[i] = std::max(aDims[i], bDims[i]);
        batches *= batchDims[i];
    }
    for (int64_t batch = 0; batch < batches; ++batch) {
        int64_t rem = batch, aOff = 0, bOff = 0, aStride = 1, bStride = 1;
        for (int i = batchRank - 1; i >= 0; --i) {
            const int64_t idx = rem % batchDims[i];
            rem /= batchDims[i];
            aOff += (aDims[i] == 1 ? 0 : idx) * aStride;
            bOff += (bDims[i] == 1 ? 0 : idx) * bStride;
            aStride *= aDims[i];
            bStride *= bDims[i];
        }
        const int64_t aBase = aOff * M * K, bBase = bOff * K * N;
        for (int64_t m = 0; m < M; ++m) {
            const int32_t za = aZero ? quantAt(aZero, aType, aZeroCount > 1 ? m : 0) : 0;
            for (int64_t n = 0; n < N; ++n) {
                const int32_t zb = bZero ? quantAt(bZero, bType, bZeroCount > 1 ? n : 0) : 0;
                int32_t acc = 0;
                for (int64_t k = 0; k < K; ++k)
                    acc += (quantAt(a, aType, aBase + m * K + k) - za) * (quantAt(b, bType, bBase + k * N + n) - zb);
                out[(batch * M + m) * N + n] = acc;
            }
        }
    }
}

void convInteger(const ConvNd& p, const void* x, ElemType xType, const void* w, ElemType wType, const void* xZero,
                 const void* wZero, int64_t wZeroCount, int32_t* y) {
    int64_t inSp = 1, outSp = 1, taps = 1;
    for (int a = 0; a < p.spatial; ++a) {
        inSp *= p.in[a];
        outSp *= p.out[a];
        taps *= p.kernel[a];
    }
    const int64_t cinG = p.inC / p.groups, coutG = p.outC / p.groups;
    const int32_t zx = xZero ? quantAt(xZero, xType, 0) : 0;
    for (int64_t n = 0; n < p.batch; ++n)
        for (int64_t oc = 0; oc < p.outC; ++oc) {
            const int64_t g = oc / coutG;
            const int32_t zw = wZero ? quantAt(wZero, wType, wZeroCount > 1 ? oc : 0) : 0;
            forEachPosition(p, p.out, [&](int64_t o, const int64_t* pos) {
                int32_t acc = 0;
                for (int64_t t = 0; t < taps; ++t) {
                    int64_t off = 0;
                    // A padded element equals the zero point: it contributes 0.
                    if (!convTapOffset(p, pos, t, p.in, off)) continue;
                    for (int64_t ic = 0; ic < cinG; ++ic)
                        acc += (quantAt(x, xType, (n * p.inC + g * cinG + ic) * inSp + off) - zx) *
                               (quantAt(w, wType, (oc * cinG + ic) * taps + t) - zw);
                }
                y[(n * p.outC + oc) * outSp + o] = acc;
            });
        }
}

void sliceBy(const void* data, size_t elemBytes, const Shape& dataShape, const void* starts, const void* ends,
             ElemType indexType, const int64_t* axes, const int64_t* steps, int count, void* out, const Shape& outShape,
             const char* what) {
    int64_t first[kMaxRank] = {}, step[kMaxRank];
    for (int d = 0; d < kMaxRank; ++d) step[d] = 1;
    for (int k = 0; k < count; ++k) {
        const int a = static_cast<int>(axes[k]);
        const int64_t dim = dataShape.d[a], st = steps[k];
        int64_t s = elementAsInt(starts, indexType, k), e = elementAsInt(ends, indexType, k);
        if (s < 0) s += dim;
        if (e < 0) e += dim;
        int64_t length;
        if (st > 0) {
            s = std::clamp<int64_t>(s, 0, dim);
            e = std::clamp<int64_t>(e, 0, dim);
            length = e > s ? (e - s + st - 1) / st : 0;
        } else {
            s = std::clamp<int64_t>(s, 0, dim - 1);
            e = std::clamp<int64_t>(e, -1, dim - 1);
            length = s > e ? (s - e - st - 1) / -st : 0;
        }
        if (length != outShape.d[a])
            throw std::runtime_error(std::string(what) + ": the bounds read at run time select " +
                                     std::to_string(length) + " elements on axis " + std::to_string(a) +
                                     ", the export fixed " + std::to_string(outShape.d[a]));
        first[a] = s;
        step[a] = st;
    }
    int64_t strides[kMaxRank] = {}, idx[kMaxRank] = {};
    int64_t stride = 1;
    for (int d = dataShape.rank - 1; d >= 0; --d) {
        strides[d] = stride;
        stride *= dataShape.d[d];
    }
    const int64_t total = outShape.count();
    auto* o = static_cast<unsigned char*>(out);
    const auto* in = static_cast<const unsigned char*>(data);
    for (int64_t i = 0; i < total; ++i) {
        int64_t at = 0;
        for (int d = 0; d < outShape.rank; ++d) at += (first[d] + idx[d] * step[d]) * strides[d];
        std::memcpy(o + static_cast<size_t>(i) * elemBytes, in + static_cast<size_t>(at) * elemBytes, elemBytes);
        for (int d = outShape.rank - 1; d >= 0; --d) {
            if (++idx[d] < outShape.d[d]) break;
            idx[d] = 0;
        }
    }
}

namespace {

// Inserts v (from position j) into the best `have` of at most k values kept in order in
// vals[] (and their positions in at[], when given): of equal values the earlier one stays first.
template <bool Largest>
void insertBest(float v, int64_t j, float* vals, int64_t* at, int64_t& have, int64_t k) {
    const auto better = [](float a, float b) { return Largest ? a > b : a < b; };
    if (have == k && !better(v, vals[k - 1])) return;
    int64_t pos = have < k ? have++ : k - 1;
    for (; pos > 0 && better(v, vals[pos - 1]); --pos) {
        vals[pos] = vals[pos - 1];
        if (at) at[pos] = at[pos - 1];
    }
    vals[pos] = v;
    if (at) at[pos] = j;
}

// TopK of one contiguous float32 line for K <= 32 (a classifier's or a detector's head), in two
// passes over the line read in place:
//   1. the best value of each block of 16 (and whether the line holds a NaN);
//   2. T = the K-th best of those block bests. K blocks reach T, so the line's K-th best value is
//      at least T, and a block whose best is below T holds nothing of the answer. The blocks that
//      reach T (about K of them) are visited in index order, each value inserted into the best K
//      kept in order (strict comparisons: of equal values the lower index stays first).
// `blockBest` is scratch of (len + 15) / 16 floats. Returns false, having written nothing final,
// when the line holds a NaN: the caller's general path ranks NaN.
template <bool Largest>
bool topKFloatLine(const float* src, int64_t len, int64_t k, int64_t* order, float* blockBest) {
    const auto better = [](float a, float b) { return Largest ? a > b : a < b; };
    constexpr int64_t kBlock = 16;
    const int64_t blocks = (len + kBlock - 1) / kBlock;
    // Pass 1 as lane-wise operations on 16 values (which compilers vectorize; a reduction of
    // floats they would not reorder): NaN flags per lane, then the block's best by halving.
    int32_t nan[kBlock] = {};
    const int64_t whole = len / kBlock;
    for (int64_t b = 0; b < whole; ++b) {
        const float* p = src + b * kBlock;
        float m[kBlock];
        for (int64_t u = 0; u < kBlock; ++u) {
            m[u] = p[u];
            nan[u] |= p[u] != p[u];
        }
        for (int64_t u = 0; u < 8; ++u) m[u] = better(m[u + 8], m[u]) ? m[u + 8] : m[u];
        for (int64_t u = 0; u < 4; ++u) m[u] = better(m[u + 4], m[u]) ? m[u + 4] : m[u];
        for (int64_t u = 0; u < 2; ++u) m[u] = better(m[u + 2], m[u]) ? m[u + 2] : m[u];
        blockBest[b] = better(m[1], m[0]) ? m[1] : m[0];
    }
    if (whole < blocks) {
        const float* p = src + whole * kBlock;
        float best = p[0];
        for (int64_t u = 0; u < len - whole * kBlock; ++u) {
            best = better(p[u], best) ? p[u] : best;
            nan[0] |= p[u] != p[u];
        }
        blockBest[whole] = best;
    }
    int32_t anyNan = 0;
    for (int64_t u = 0; u < kBlock; ++u) anyNan |= nan[u];
    if (anyNan != 0) return false;
    float threshold = Largest ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
    if (blocks >= k) {
        float picks[32];
        int64_t have = 0;
        for (int64_t b = 0; b < blocks; ++b) insertBest<Largest>(blockBest[b], b, picks, nullptr, have, k);
        threshold = picks[k - 1];
    }
    float top[32];
    int64_t have = 0;
    for (int64_t b = 0; b < blocks; ++b) {
        if (better(threshold, blockBest[b])) continue;
        const int64_t end = std::min(len, (b + 1) * kBlock);
        for (int64_t j = b * kBlock; j < end; ++j) insertBest<Largest>(src[j], j, top, order, have, k);
    }
    return true;
}

} // namespace

void topK(const void* x, ElemType t, const Shape& shape, int axis, int64_t k, bool largest, void* values,
          int64_t* indices) {
    const int64_t len = shape.d[axis];
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < shape.rank; ++d) {
        if (d < axis) outer *= shape.d[d];
        if (d > axis) inner *= shape.d[d];
    }
    const size_t bytes = elemSize(t);
    std::vector<int64_t> order(static_cast<size_t>(len));
    std::vector<double> line;
    // Contiguous float32 lines with few picks take topKFloatLine (unless a line holds a NaN).
    const bool floatLines = t == ElemType::Float32 && inner == 1 && k <= 32 && k < len;
    std::vector<float> blockBest(floatLines ? static_cast<size_t>((len + 15) / 16) : 0);
    // A strict order (equal values: the lower index first, as ONNX asks; NaN ranks above every
    // number), so that a partial sort picks the same K as a stable sort of the whole line while
    // costing len * log(K) comparisons instead of len * log(len).
    const auto before = [&](int64_t p, int64_t q) {
        const double vp = line[static_cast<size_t>(p)], vq = line[static_cast<size_t>(q)];
        const bool np = std::isnan(vp), nq = std::isnan(vq);
        if (np || nq) {
            if (np && nq) return p < q;
            return largest ? np : nq;
        }
        if (vp != vq) return largest ? vp > vq : vp < vq;
        return p < q;
    };
    // The general path: the line as doubles (any type, any stride, NaN ranked), its K picked into
    // `order`.
    const auto pickLine = [&](int64_t o, int64_t i) {
        if (line.empty()) line.resize(static_cast<size_t>(len));
        if (t == ElemType::Float32) {
            const float* src = static_cast<const float*>(x) + o * len * inner + i;
            for (int64_t j = 0; j < len; ++j) line[static_cast<size_t>(j)] = src[j * inner];
        } else {
            for (int64_t j = 0; j < len; ++j)
                line[static_cast<size_t>(j)] = elementAsDouble(x, t, (o * len + j) * inner + i);
        }
        if (k <= 32 && k < len) {
            // Few picks: one pass keeping the best K in order; a value that does not beat the
            // K-th best (most of a long line) costs one comparison.
            int64_t have = 0;
            for (int64_t j = 0; j < len; ++j) {
                if (have == k) {
                    const double v = line[static_cast<size_t>(j)],
                                 w = line[static_cast<size_t>(order[static_cast<size_t>(k - 1)])];
                    const bool better = !std::isnan(v) && !std::isnan(w) ? (largest ? v > w : v < w)
                                                                         : before(j, order[static_cast<size_t>(k - 1)]);
                    if (!better) continue;
                    --have;
                }
                int64_t pos = have++;
                for (; pos > 0 && before(j, order[static_cast<size_t>(pos - 1)]); --pos)
                    order[static_cast<size_t>(pos)] = order[static_cast<size_t>(pos - 1)];
                order[static_cast<size_t>(pos)] = j;
            }
        } else {
            std::iota(order.begin(), order.end(), int64_t(0));
            std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
        }
    };
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const bool fast = floatLines && (largest ? topKFloatLine<true>(static_cast<const float*>(x) + o * len, len,
                                                                           k, order.data(), blockBest.data())
                                                     : topKFloatLine<false>(static_cast<const float*>(x) + o * len, len,
                                                                            k, order.data(), blockBest.data()));
            if (!fast) pickLine(o, i);
            for (int64_t j = 0; j < k; ++j) {
                const int64_t from = order[static_cast<size_t>(j)], to = (o * k + j) * inner + i;
                indices[to] = from;
                std::memcpy(static_cast<unsigned char*>(values) + static_cast<size_t>(to) * bytes,
                            static_cast<const unsigned char*>(x) +
                                static_cast<size_t>((o * len + from) * inner + i) * bytes,
                            bytes);
            }
        }
}

void range(const void* start, const void* limit, const void* delta, ElemType t, void* out, int64_t count,
           const char* what) {
    const double s = elementAsDouble(start, t, 0), l = elementAsDouble(limit, t, 0), d = elementAsDouble(delta, t, 0);
    if (d == 0) throw std::runtime_error(std::string(what) + ": delta read at run time is 0");
    const double want = std::ceil((l - s) / d);
    const int64_t have = want > 0 ? static_cast<int64_t>(std::min(want, 9e18)) : 0;
    if (have != count)
        throw std::runtime_error(std::string(what) + ": the start, limit and delta read at run time give " +
                                 std::to_string(have) + " elements, the export fixed " + std::to_string(count));
    const bool integer = !isFloatType(t);
    std::vector<double> v(static_cast<size_t>(count));
    if (integer) {
        const int64_t si = elementAsInt(start, t, 0), di = elementAsInt(delta, t, 0);
        for (int64_t i = 0; i < count; ++i) v[static_cast<size_t>(i)] = static_cast<double>(si + i * di);
    } else {
        for (int64_t i = 0; i < count; ++i) v[static_cast<size_t>(i)] = s + static_cast<double>(i) * d;
    }
    if (t == ElemType::Int64) { // exact, where a double would round
        const int64_t si = elementAsInt(start, t, 0), di = elementAsInt(delta, t, 0);
        for (int64_t i = 0; i < count; ++i) static_cast<int64_t*>(out)[i] = si + i * di;
        return;
    }
    for (int64_t i = 0; i < count; ++i) {
        const double x = v[static_cast<size_t>(i)];
        switch (t) {
        case ElemType::Float32: static_cast<float*>(out)[i] = static_cast<float>(x); break;
        case ElemType::Float16: static_cast<uint16_t*>(out)[i] = floatToHalf(static_cast<float>(x)); break;
        case ElemType::Float64: static_cast<double*>(out)[i] = x; break;
        case ElemType::Int32: static_cast<int32_t*>(out)[i] = static_cast<int32_t>(x); break;
        case ElemType::Int8: static_cast<int8_t*>(out)[i] = static_cast<int8_t>(x); break;
        case ElemType::UInt8: static_cast<uint8_t*>(out)[i] = static_cast<uint8_t>(x); break;
        case ElemType::Bool: static_cast<uint8_t*>(out)[i] = x != 0 ? 1 : 0; break;
        default: storeBits(out, t, i, static_cast<uint64_t>(static_cast<int64_t>(x))); break;
        }
    }
}

void maxPoolWithIndices(const ConvNd& p, bool columnMajor, const float* x, float* y, int64_t* indices) {
    int64_t inSp = 1, outSp = 1, taps = 1;
    for (int a = 0; a < p.spatial; ++a) {
        inSp *= p.in[a];
        outSp *= p.out[a];
        taps *= p.kernel[a];
    }
    for (int64_t nc = 0; nc < p.batch * p.inC; ++nc)
        forEachPosition(p, p.out, [&](int64_t o, const int64_t* pos) {
            float best = -INFINITY;
            int64_t bestAt = -1;
            for (int64_t t = 0; t < taps; ++t) {
                int64_t off = 0;
                if (!convTapOffset(p, pos, t, p.in, off)) continue;
                const float v = x[nc * inSp + off];
                if (v > best || bestAt < 0) {
                    best = v;
                    bestAt = off;
                }
            }
            if (bestAt >= 0 && columnMajor && p.spatial >= 2) { // the last two spatial axes swapped
                const int64_t h = p.in[p.spatial - 2], w = p.in[p.spatial - 1];
                const int64_t lead = bestAt / (h * w), r = (bestAt / w) % h, c = bestAt % w;
                bestAt = (lead * w + c) * h + r;
            }
            y[nc * outSp + o] = best;
            indices[nc * outSp + o] = nc * inSp + (bestAt < 0 ? 0 : bestAt);
        });
}

void expandBytes(const void* in, size_t elemBytes, const Shape& inShape, const Shape& outShape, void* out) {
    int64_t strides[kMaxRank] = {}, idx[kMaxRank] = {};
    int64_t stride = 1;
    const int shift = outShape.rank - inShape.rank;
    for (int d = inShape.rank - 1; d >= 0; --d) {
        strides[d + shift] = inShape.d[d] == 1 ? 0 : stride;
        stride *= inShape.d[d];
    }
    const int64_t total = outShape.count();
    auto* o = static_cast<unsigned char*>(out);
    const auto* src = static_cast<const unsigned char*>(in);
    for (int64_t i = 0; i < total; ++i) {
        int64_t at = 0;
        for (int d = 0; d < outShape.rank; ++d) at += idx[d] * strides[d];
        std::memcpy(o + static_cast<size_t>(i) * elemBytes, src + static_cast<size_t>(at) * elemBytes, elemBytes);
        for (int d = outShape.rank - 1; d >= 0; --d) {
            if (++idx[d] < outShape.d[d]) break;
            idx[d] = 0;
        }
    }
}

void concatBytes(const void* const* inputs, size_t elemBytes, const Shape* shapes, int count, int axis, void* out) {
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= shapes[0].d[d];
    for (int d = axis + 1; d < shapes[0].rank; ++d) inner *= shapes[0].d[d];
    auto* o = static_cast<unsigned char*>(out);
    for (int64_t b = 0; b < outer; ++b)
        for (int k = 0; k < count; ++k) {
            const size_t chunk = static_cast<size_t>(shapes[k].d[axis] * inner) * elemBytes;
            std::memcpy(o, static_cast<const unsigned char*>(inputs[k]) + static_cast<size_t>(b) * chunk, chunk);
            o += chunk;
        }
}

void gatherElementsBy(const void* data, size_t elemBytes, const Shape& dataShape, int axis, const void* indices,
                      ElemType indexType, const Shape& indexShape, void* out, const char* what) {
    int64_t strides[kMaxRank] = {}, idx[kMaxRank] = {};
    int64_t stride = 1;
    for (int d = dataShape.rank - 1; d >= 0; --d) {
        strides[d] = stride;
        stride *= dataShape.d[d];
    }
    const int64_t dim = dataShape.d[axis], total = indexShape.count();
    auto* o = static_cast<unsigned char*>(out);
    const auto* src = static_cast<const unsigned char*>(data);
    for (int64_t i = 0; i < total; ++i) {
        int64_t j = indexAt(indices, indexType, i);
        if (j < -dim || j >= dim)
            throw std::out_of_range(std::string(what) + ": index " + std::to_string(j) + " outside [" +
                                    std::to_string(-dim) + ", " + std::to_string(dim) + ")");
        if (j < 0) j += dim;
        int64_t at = 0;
        for (int d = 0; d < indexShape.rank; ++d) at += (d == axis ? j : idx[d]) * strides[d];
        std::memcpy(o + static_cast<size_t>(i) * elemBytes, src + static_cast<size_t>(at) * elemBytes, elemBytes);
        for (int d = indexShape.rank - 1; d >= 0; --d) {
            if (++idx[d] < indexShape.d[d]) break;
            idx[d] = 0;
        }
    }
}

void argExtreme(const void* x, ElemType t, const Shape& shape, int axis, bool isMax, bool selectLast, int64_t* out) {
    const int64_t dim = shape.d[axis];
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < shape.rank; ++d) {
        if (d < axis) outer *= shape.d[d];
        if (d > axis) inner *= shape.d[d];
    }
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const int64_t base = o * dim * inner + i;
            int64_t best = 0;
            double b = elementAsDouble(x, t, base);
            for (int64_t k = 1; k < dim; ++k) {
                const double c = elementAsDouble(x, t, base + k * inner);
                if (isMax ? (c > b || (selectLast && c == b)) : (c < b || (selectLast && c == b))) {
                    best = k;
                    b = c;
                }
            }
            out[o * inner + i] = best;
        }
}

void gatherNDBy(const void* data, size_t elemBytes, const Shape& dataShape, const void* indices, ElemType indexType,
                const Shape& indexShape, int batchDims, void* out, const char* what) {
    const int r = indexShape.rank;
    const int64_t depth = indexShape.d[r - 1];
    int64_t batches = 1, rowsPerBatch = 1, slice = 1, dataBatch = 1;
    for (int d = 0; d < batchDims; ++d) batches *= indexShape.d[d];
    for (int d = batchDims; d < r - 1; ++d) rowsPerBatch *= indexShape.d[d];
    for (int d = batchDims + static_cast<int>(depth); d < dataShape.rank; ++d) slice *= dataShape.d[d];
    for (int d = batchDims; d < dataShape.rank; ++d) dataBatch *= dataShape.d[d];
    const size_t sliceBytes = static_cast<size_t>(slice) * elemBytes;
    auto* dst = static_cast<unsigned char*>(out);
    const auto* src = static_cast<const unsigned char*>(data);
    for (int64_t b = 0; b < batches; ++b)
        for (int64_t row = 0; row < rowsPerBatch; ++row) {
            const int64_t first = (b * rowsPerBatch + row) * depth;
            int64_t offset = 0;
            for (int64_t k = 0; k < depth; ++k) {
                const int64_t dim = dataShape.d[batchDims + k];
                int64_t i = static_cast<int64_t>(elementAsDouble(indices, indexType, first + k));
                if (i < -dim || i >= dim)
                    throw std::out_of_range(std::string(what) + ": index " + std::to_string(i) + " outside [-" +
                                            std::to_string(dim) + ", " + std::to_string(dim) + ")");
                if (i < 0) i += dim;
                offset = offset * dim + i;
            }
            std::memcpy(dst, src + static_cast<size_t>(b * dataBatch + offset * slice) * elemBytes, sliceBytes);
            dst += sliceBytes;
        }
}

namespace {

struct Box {
    double y1, x1, y2, x2;
};

// Intersection over union as the reference interpreter computes it (in double).
double iou(const Box& a, const Box& b) {
    const double areaA = (a.y2 - a.y1) * (a.x2 - a.x1), areaB = (b.y2 - b.y1) * (b.x2 - b.x1);
    if (areaA <= 0 || areaB <= 0) return 0;
    const double ih = std::max(0.0, std::min(a.y2, b.y2) - std::max(a.y1, b.y1));
    const double iw = std::max(0.0, std::min(a.x2, b.x2) - std::max(a.x1, b.x1));
    const double inter = ih * iw;
    return inter / (areaA + areaB - inter);
}

} // namespace

int64_t nonMaxSuppression(const float* boxes, const float* scores, int64_t batches, int64_t classes, int64_t n,
                          int64_t maxPerClass, float iouThreshold, bool haveScoreThreshold, float scoreThreshold,
                          bool centerPointBox, int64_t* selected, int64_t capacity) {
    int64_t count = 0;
    std::vector<Box> box(static_cast<size_t>(n));
    std::vector<int64_t> order, kept;
    for (int64_t b = 0; b < batches; ++b) {
        for (int64_t i = 0; i < n; ++i) {
            const float* p = boxes + (b * n + i) * 4;
            const double p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
            box[static_cast<size_t>(i)] =
                centerPointBox ? Box{p1 - p3 / 2, p0 - p2 / 2, p1 + p3 / 2, p0 + p2 / 2}
                               : Box{std::min(p0, p2), std::min(p1, p3), std::max(p0, p2), std::max(p1, p3)};
        }
        for (int64_t c = 0; c < classes; ++c) {
            const float* sc = scores + (b * classes + c) * n;
            order.clear();
            for (int64_t i = 0; i < n; ++i)
                if (!haveScoreThreshold || static_cast<double>(sc[i]) > static_cast<double>(scoreThreshold))
                    order.push_back(i);
            std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) { return sc[p] > sc[q]; });
            kept.clear();
            for (int64_t i : order) {
                if (static_cast<int64_t>(kept.size()) >= maxPerClass) break;
                bool keep = true;
                for (int64_t j : kept)
                    keep = keep && !(iou(box[static_cast<size_t>(i)], box[static_cast<size_t>(j)]) >
                                     static_cast<double>(iouThreshold));
                if (!keep) continue;
                kept.push_back(i);
                if (count >= capacity) throw std::runtime_error("NonMaxSuppression selects more boxes than planned");
                selected[count * 3] = b, selected[count * 3 + 1] = c, selected[count * 3 + 2] = i;
                ++count;
            }
        }
    }
    std::memset(selected + count * 3, 0, static_cast<size_t>((capacity - count) * 3) * sizeof(int64_t));
    return count;
}

int64_t nonZero(const void* x, ElemType t, const Shape& shape, int64_t* out, int64_t capacity) {
    const int64_t total = shape.count();
    std::memset(out, 0, static_cast<size_t>(shape.rank * capacity) * sizeof(int64_t));
    int64_t count = 0;
    for (int64_t i = 0; i < total; ++i) {
        if (elementAsDouble(x, t, i) == 0) continue;
        if (count >= capacity) throw std::runtime_error("NonZero finds more elements than planned");
        int64_t rest = i;
        for (int d = shape.rank - 1; d >= 0; --d) {
            out[d * capacity + count] = rest % shape.d[d];
            rest /= shape.d[d];
        }
        ++count;
    }
    return count;
}

int64_t topKLength(const void* k, ElemType kType, int64_t axisLength, const char* what) {
    const int64_t value = kType == ElemType::Int32 ? *static_cast<const int32_t*>(k) : *static_cast<const int64_t*>(k);
    if (value < 0 || value > axisLength)
        throw std::runtime_error(std::string(what) + ": K = " + std::to_string(value) + " is outside [0, " +
                                 std::to_string(axisLength) + "]");
    return value;
}

int64_t unique(const void* x, ElemType t, const Shape& shape, int axis, bool sorted, void* y, int64_t* indices,
               int64_t* inverse, int64_t* counts) {
    int64_t outer = 1, dim = shape.count(), inner = 1;
    if (axis >= 0) {
        dim = shape.d[axis];
        for (int i = 0; i < axis; ++i) outer *= shape.d[i];
        for (int i = axis + 1; i < shape.rank; ++i) inner *= shape.d[i];
    }
    // Slice j's elements in order (outer, inner), compared as doubles (as the reference does).
    std::vector<std::vector<double>> keys(static_cast<size_t>(dim));
    for (int64_t j = 0; j < dim; ++j)
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t i = 0; i < inner; ++i)
                keys[static_cast<size_t>(j)].push_back(elementAsDouble(x, t, (o * dim + j) * inner + i));
    std::vector<int64_t> firsts;
    for (int64_t j = 0; j < dim; ++j) {
        bool seen = false;
        for (int64_t f : firsts) seen = seen || keys[static_cast<size_t>(f)] == keys[static_cast<size_t>(j)];
        if (!seen) firsts.push_back(j);
    }
    if (sorted)
        std::stable_sort(firsts.begin(), firsts.end(), [&](int64_t p, int64_t q) {
            return keys[static_cast<size_t>(p)] < keys[static_cast<size_t>(q)];
        });
    const auto count = static_cast<int64_t>(firsts.size());
    const size_t bytes = elemSize(t);
    const size_t row = static_cast<size_t>(inner) * bytes;
    auto* out = static_cast<unsigned char*>(y);
    const auto* in = static_cast<const unsigned char*>(x);
    if (out) {
        std::memset(out, 0, static_cast<size_t>(outer * dim) * row);
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t u = 0; u < count; ++u)
                std::memcpy(out + static_cast<size_t>(o * dim + u) * row,
                            in + static_cast<size_t>(o * dim + firsts[static_cast<size_t>(u)]) * row, row);
    }
    for (int64_t u = 0; u < dim; ++u) {
        if (indices) indices[u] = u < count ? firsts[static_cast<size_t>(u)] : 0;
        if (counts) counts[u] = 0;
    }
    for (int64_t j = 0; j < dim; ++j)
        for (int64_t u = 0; u < count; ++u)
            if (keys[static_cast<size_t>(firsts[static_cast<size_t>(u)])] == keys[static_cast<size_t>(j)]) {
                if (inverse) inverse[j] = u;
                if (counts) ++counts[u];
                break;
            }
    return count;
}

void gatherFlatBytes(const void* in, size_t elemBytes, const int64_t* index, int64_t count, void* out) {
    const auto* src = static_cast<const unsigned char*>(in);
    auto* dst = static_cast<unsigned char*>(out);
    for (int64_t i = 0; i < count; ++i) {
        unsigned char* o = dst + static_cast<size_t>(i) * elemBytes;
        if (index[i] < 0)
            std::memset(o, 0, elemBytes);
        else
            std::memcpy(o, src + static_cast<size_t>(index[i]) * elemBytes, elemBytes);
    }
}

void cumsumF64(const double* in, int64_t outer, int64_t len, int64_t inner, bool exclusive, bool reverse, double* out) {
    std::vector<double> sum(static_cast<size_t>(inner));
    for (int64_t o = 0; o < outer; ++o) {
        std::fill(sum.begin(), sum.end(), 0.0);
        for (int64_t s = 0; s < len; ++s) {
            const int64_t base = (o * len + (reverse ? len - 1 - s : s)) * inner;
            for (int64_t c = 0; c < inner; ++c) {
                const double v = in[base + c];
                if (!exclusive) sum[static_cast<size_t>(c)] += v;
                out[base + c] = sum[static_cast<size_t>(c)];
                if (exclusive) sum[static_cast<size_t>(c)] += v;
            }
        }
    }
}

} // namespace embark::generic

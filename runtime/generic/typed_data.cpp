// Pad of any element type, OneHot of run-time indices, the run-time check of shape inputs.
#include "typed_data.h"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace embark::generic {
namespace {

std::string dimsText(const int64_t* v, int64_t count) {
    std::string s = "[";
    for (int64_t i = 0; i < count; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

} // namespace

void padBytes(const void* in, size_t elemBytes, const Shape& inShape, const int64_t* pads, PadMode mode,
              const void* value, const Shape& outShape, void* out) {
    const int r = inShape.rank;
    const int64_t total = outShape.count();
    const auto* src = static_cast<const unsigned char*>(in);
    auto* dst = static_cast<unsigned char*>(out);
    int64_t strides[kMaxRank] = {};
    int64_t acc = 1;
    for (int a = r - 1; a >= 0; --a) {
        strides[a] = acc;
        acc *= inShape.d[a];
    }
    int64_t idx[kMaxRank] = {};
    for (int64_t o = 0; o < total; ++o) {
        int64_t off = 0;
        bool inside = true;
        for (int a = 0; a < r && inside; ++a) {
            int64_t i = 0;
            inside = padSource(idx[a], pads[a], inShape.d[a], mode, i);
            off += i * strides[a];
        }
        std::memcpy(dst + static_cast<size_t>(o) * elemBytes,
                    inside ? src + static_cast<size_t>(off) * elemBytes : value, elemBytes);
        for (int a = r - 1; a >= 0; --a) {
            if (++idx[a] < outShape.d[a]) break;
            idx[a] = 0;
        }
    }
}

void oneHotBy(const void* indices, ElemType indexType, int64_t outer, int64_t inner, int64_t depth, const void* off,
              const void* on, size_t elemBytes, void* out) {
    auto* dst = static_cast<unsigned char*>(out);
    for (int64_t k = 0; k < outer * depth * inner; ++k)
        std::memcpy(dst + static_cast<size_t>(k) * elemBytes, off, elemBytes);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const double v = elementAsDouble(indices, indexType, o * inner + i);
            if (!std::isfinite(v)) continue;
            int64_t hot = static_cast<int64_t>(v);
            if (hot < 0) hot += depth;
            if (hot >= 0 && hot < depth)
                std::memcpy(dst + static_cast<size_t>((o * depth + hot) * inner + i) * elemBytes, on, elemBytes);
        }
}

void flipSignBit(const void* in, void* out, int64_t count) {
    const auto* src = static_cast<const uint8_t*>(in);
    auto* dst = static_cast<uint8_t*>(out);
    for (int64_t i = 0; i < count; ++i) dst[i] = static_cast<uint8_t>(src[i] ^ 0x80u);
}

void checkRunTimeDims(const void* values, ElemType t, const int64_t* expected, int64_t count, const char* what) {
    std::string got = "[";
    bool same = true;
    for (int64_t i = 0; i < count; ++i) {
        const double v = elementAsDouble(values, t, i);
        got += (i ? ", " : "") + std::to_string(static_cast<int64_t>(v));
        same = same && v == static_cast<double>(expected[i]);
    }
    got += "]";
    if (!same)
        throw std::runtime_error(std::string(what) + ": the input read at run time asks for " + got +
                                 ", the export fixed " + dimsText(expected, count) +
                                 " (export the model again with this input as its sample)");
}

} // namespace embark::generic

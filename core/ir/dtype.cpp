#include "dtype.h"

#include <array>

namespace embark::ir {
namespace {
struct Info {
    std::string_view name;
    size_t size;
};
constexpr std::array<Info, static_cast<size_t>(DType::Count_)> kInfo{{
    {"undefined", 0},
    {"float32", 4},
    {"float64", 8},
    {"float16", 2},
    {"int8", 1},
    {"int16", 2},
    {"int32", 4},
    {"int64", 8},
    {"uint8", 1},
    {"uint16", 2},
    {"uint32", 4},
    {"uint64", 8},
    {"bool", 1},
}};
} // namespace

size_t dtypeSize(DType t) { return kInfo[static_cast<size_t>(t)].size; }
std::string_view dtypeName(DType t) { return kInfo[static_cast<size_t>(t)].name; }

bool dtypeFromName(std::string_view name, DType* out) {
    for (size_t i = 0; i < kInfo.size(); ++i) {
        if (kInfo[i].name == name) {
            *out = static_cast<DType>(i);
            return true;
        }
    }
    return false;
}

bool isFloating(DType t) { return t == DType::Float32 || t == DType::Float64 || t == DType::Float16; }
bool isByteInteger(DType t) { return t == DType::Int8 || t == DType::UInt8; }

bool isInteger(DType t) {
    switch (t) {
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64: return true;
    default: return false;
    }
}

} // namespace embark::ir

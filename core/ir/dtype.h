// Element types of tensors, with their ONNX numbering kept only in core/onnx.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace embark::ir {

enum class DType : uint8_t {
    Undefined,
    Float32,
    Float64,
    Float16,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Bool,
    Count_
};

size_t dtypeSize(DType t);
std::string_view dtypeName(DType t); // "float32", "int64", ...
bool dtypeFromName(std::string_view name, DType* out);
bool isFloating(DType t);
bool isInteger(DType t);
bool isByteInteger(DType t); // int8 or uint8: the quantized element types

} // namespace embark::ir

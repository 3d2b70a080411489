// Generic data kernels on elements of any type (bytes moved as they are): Pad of integer
// tensors, OneHot of run-time integer indices, and the run-time check of an input that sets an
// output's shape the export fixed (ConstantOfShape's shape, a window's size). Standalone C++17.
#pragma once

#include "typed.h"

#include <cstddef>
#include <cstdint>

namespace embark::generic {

// Pad of elements of `elemBytes` bytes; pads: begin[rank] then end[rank] (negative crops);
// `value` is one element (the constant mode's fill).
void padBytes(const void* in, size_t elemBytes, const Shape& inShape, const int64_t* pads, PadMode mode,
              const void* value, const Shape& outShape, void* out);

// OneHot of indices (any integer or float type, [outer][inner], negative counting from the
// end, out of [-depth, depth) giving no hot element) into [outer][depth][inner] elements of
// `elemBytes` bytes, `off` and `on` one element each.
void oneHotBy(const void* indices, ElemType indexType, int64_t outer, int64_t inner, int64_t depth, const void* off,
              const void* on, size_t elemBytes, void* out);

// out[i] = in[i] ^ 0x80 over `count` bytes (in place allowed): uint8 <-> int8 keeping the order,
// so that an int8 kernel that only compares (max pooling) runs uint8 data.
void flipSignBit(const void* in, void* out, int64_t count);

// Checks that the `count` values read at run time (integers of type t, or floats holding
// integers) equal `expected`, the export's fixed shape or length; throws std::runtime_error
// naming `what` and both when they differ.
void checkRunTimeDims(const void* values, ElemType t, const int64_t* expected, int64_t count, const char* what);

} // namespace embark::generic

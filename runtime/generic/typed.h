// Generic kernels on tensors of any element type: the run-time casts, gathers by computed
// indices and the integer ops of dynamic quantization (DynamicQuantizeLinear, MatMulInteger,
// ConvInteger). Element types use ONNX's TensorProto numbering. Standalone C++17.
#pragma once

#include "generic.h"

#include <cstddef>
#include <cstdint>

namespace embark::generic {

enum class ElemType : int { Float32 = 1, UInt8 = 2, Int8 = 3, Int32 = 6, Int64 = 7, Bool = 9, Float16 = 10 };

size_t elemSize(ElemType t);
// IEEE half <-> float, round to nearest even.
float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);
// Element i of `data` as a double.
double elementAsDouble(const void* data, ElemType t, int64_t i);

// ONNX Cast: floats to integers truncate toward zero, anything to bool is "!= 0".
void cast(const void* in, ElemType from, void* out, ElemType to, int64_t count);

// Gather along `axis` of data (elements of `elemBytes` bytes) by run-time indices (int32 or
// int64, negative counting from the end). Throws std::out_of_range naming `what` for an index
// outside [-dim, dim).
void gatherBy(const void* data, size_t elemBytes, const Shape& dataShape, int axis, const void* indices,
              ElemType indexType, int64_t indexCount, void* out, const char* what);

// DynamicQuantizeLinear: scale = (max(0, max x) - min(0, min x)) / 255, zero point =
// saturate(round(-min / scale)), y = saturate(round(x / scale) + zero point); round half to even.
void dynamicQuantizeLinear(const float* x, int64_t count, uint8_t* y, float* scale, uint8_t* zeroPoint);

// MatMulInteger with numpy broadcasting over the leading dims: int32 sums of
// (a - aZero) * (b - bZero). a and b are uint8 or int8; aZero is one value or one per row of
// a (M), bZero one value or one per column of b (N); null means 0.
void matmulInteger(const void* a, ElemType aType, const Shape& aShape, const void* b, ElemType bType,
                   const Shape& bShape, const void* aZero, int64_t aZeroCount, const void* bZero, int64_t bZeroCount,
                   int32_t* out);

// ConvInteger in the model's layout [N][C][spatial...]: int32 sums of (x - xZero) * (w - wZero);
// xZero is one value, wZero one value or one per output channel; null means 0. Padding reads
// xZero (a padded element contributes 0).
void convInteger(const ConvNd& p, const void* x, ElemType xType, const void* w, ElemType wType, const void* xZero,
                 const void* wZero, int64_t wZeroCount, int32_t* y);

// Slice with starts and ends read at run time (int32 or int64, `count` entries, negative
// counting from the end, clamped as ONNX says) on `axes` (normalized) with `steps`; the
// output's shape was fixed at export time. Throws std::runtime_error naming `what` when the
// run-time bounds select another number of elements than `outShape` holds.
void sliceBy(const void* data, size_t elemBytes, const Shape& dataShape, const void* starts, const void* ends,
             ElemType indexType, const int64_t* axes, const int64_t* steps, int count, void* out, const Shape& outShape,
             const char* what);

// Element-wise ops on tensors of any element type with numpy broadcasting (shapes aligned on
// the right, a dimension of 1 repeated): the integer and boolean arithmetic, comparisons and
// logic that control flow computes at run time (trip counts, conditions, counters). Integer
// and bool operands compute in int64 (Div truncates, division by zero gives 0), others in
// double; Mod follows the divisor's sign unless `fmod`. A unary op ignores b.
enum class TypedOp : int {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Min,
    Max,
    Equal,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
    And,
    Or,
    Xor,
    Not,
    Neg,
    Abs
};
void elementwiseTyped(TypedOp op, bool fmod, const void* a, ElemType aType, const Shape& aShape, const void* b,
                      ElemType bType, const Shape& bShape, void* out, ElemType outType, const Shape& outShape);

} // namespace embark::generic

// Generic kernels on tensors of any element type: the run-time casts, gathers by computed
// indices and the integer ops of dynamic quantization (DynamicQuantizeLinear, MatMulInteger,
// ConvInteger). Element types use ONNX's TensorProto numbering. Standalone C++17.
#pragma once

#include "generic.h"

#include <cstddef>
#include <cstdint>

namespace embark::generic {

enum class ElemType : int {
    Float32 = 1,
    UInt8 = 2,
    Int8 = 3,
    UInt16 = 4,
    Int16 = 5,
    Int32 = 6,
    Int64 = 7,
    Bool = 9,
    Float16 = 10,
    Float64 = 11,
    UInt32 = 12,
    UInt64 = 13
};

size_t elemSize(ElemType t);
// IEEE half <-> float, round to nearest even.
float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);
// Element i of `data` as a double.
double elementAsDouble(const void* data, ElemType t, int64_t i);

// ONNX Cast: floats to integers truncate toward zero (saturating outside the target's range),
// integers to integers keep the low bits as numpy does (exact for 64-bit values), anything to
// bool is "!= 0".
void cast(const void* in, ElemType from, void* out, ElemType to, int64_t count);

// Gather along `axis` of data (elements of `elemBytes` bytes) by run-time indices (int32 or
// int64, negative counting from the end). Throws std::out_of_range naming `what` for an index
// outside [-dim, dim).
void gatherBy(const void* data, size_t elemBytes, const Shape& dataShape, int axis, const void* indices,
              ElemType indexType, int64_t indexCount, void* out, const char* what);

// Element-wise ops on tensors of any element types (masks and index arithmetic computed at run
// time): comparisons and logic give bool, Where selects, integer arithmetic divides as ONNX
// does (Div truncates toward zero, Mod takes the divisor's sign unless fmod; a zero divisor
// gives 0). `count` inputs (1 for Not/Neg/Abs, 3 for Where: cond, x, y) broadcast numpy-style
// to outShape. Integer and bool inputs compute exactly in int64 (uint64 ones in uint64), any
// float input in double.
// BitAnd/BitOr/BitXor/BitNot (ONNX's And/Or/Xor/Not on integer tensors: BitwiseAnd/Or/Xor/Not)
// and ShiftLeft/ShiftRight (BitShift) work on the bits of integer inputs, the shifted value
// taken as unsigned in the output type's width; a shift by the width or more gives 0.
// IsNaN/IsInf give bool (false for integers).
enum class TypedOp : int {
    Equal,
    Less,
    Greater,
    LessOrEqual,
    GreaterOrEqual,
    And,
    Or,
    Xor,
    Not,
    Where,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    FMod,
    Min,
    Max,
    Neg,
    Abs,
    BitAnd,
    BitOr,
    BitXor,
    BitNot,
    ShiftLeft,
    ShiftRight,
    IsNaN,
    IsInf,    // either sign
    IsPosInf, // IsInf with detect_negative = 0
    IsNegInf, // IsInf with detect_positive = 0
    Pow       // in double, converted to the output's type (an integer output truncates)
};
void typedElementwise(TypedOp op, int count, const void* const* in, const ElemType* types, const Shape* shapes,
                      void* out, ElemType outType, const Shape& outShape);

// Transpose of elements of `elemBytes` bytes (bool masks and integer tensors, e.g. a layout
// conversion of a mask computed on channels-last data): out dims are in dims permuted.
void transposeBytes(const void* in, size_t elemBytes, const Shape& inShape, const int* perm, void* out);

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

// TopK along `axis` of x (type t, shape `shape`): the k largest (or smallest) of each line,
// sorted, equal values keeping the lower index first and NaN counting as the largest;
// values in x's type, indices int64, both shaped like x with k on `axis`.
void topK(const void* x, ElemType t, const Shape& shape, int axis, int64_t k, bool largest, void* values,
          int64_t* indices);

// Range from run-time scalars start, limit and delta of type t: out[i] = start + i * delta for
// the `count` elements the export fixed. Throws std::runtime_error naming `what` when delta is 0
// or max(0, ceil((limit - start) / delta)) is another count.
void range(const void* start, const void* limit, const void* delta, ElemType t, void* out, int64_t count,
           const char* what);

// MaxPool in the model's layout [N][C][spatial...] (1 to 3 spatial dims) with its Indices
// output: the flattened index of each maximum in x (ONNX's formula: over [N][C][spatial...]
// in row-major order, or with the last two spatial axes swapped for storage_order = 1); the
// first of equal maxima wins. A window wholly in the padding gives -inf and index 0 of its plane.
void maxPoolWithIndices(const ConvNd& p, bool columnMajor, const float* x, float* y, int64_t* indices);

// Expand of elements of `elemBytes` bytes: in broadcast to outShape (numpy rules, right-aligned).
void expandBytes(const void* in, size_t elemBytes, const Shape& inShape, const Shape& outShape, void* out);

// Concat of `count` inputs of elements of `elemBytes` bytes along `axis` (other dims equal).
void concatBytes(const void* const* inputs, size_t elemBytes, const Shape* shapes, int count, int axis, void* out);

// GatherElements along `axis` by run-time indices (int32 or int64, negative counting from the
// end) shaped `indexShape`, which is also the output's shape. Throws std::out_of_range naming
// `what` for an index outside [-dim, dim).
void gatherElementsBy(const void* data, size_t elemBytes, const Shape& dataShape, int axis, const void* indices,
                      ElemType indexType, const Shape& indexShape, void* out, const char* what);

// ArgMax (isMax) or ArgMin along `axis` of x (type t): the int64 position of the first (or,
// with selectLast, the last) extreme of each line; out holds one index per line, in x's order
// with `axis` removed (keepdims only changes the shape).
void argExtreme(const void* x, ElemType t, const Shape& shape, int axis, bool isMax, bool selectLast, int64_t* out);

// GatherND by run-time indices (int32 or int64, negative counting from the end) shaped
// `indexShape` with `batchDims` leading batch dims: each index row of the last axis picks a
// slice of data. Throws std::out_of_range naming `what` for an index outside [-dim, dim).
void gatherNDBy(const void* data, size_t elemBytes, const Shape& dataShape, const void* indices, ElemType indexType,
                const Shape& indexShape, int batchDims, void* out, const char* what);

// Kernels whose output length depends on the data (NonMaxSuppression, NonZero). The export
// plans such an output at its upper bound (its capacity); the kernel fills the first `count`
// entries along the data-dependent axis, zeroes the rest (so that a Gather by these indices
// downstream still reads in range) and returns `count`, which the generated code keeps and
// reports as the output's actual length (model_api.h outputDims).

// NonMaxSuppression on boxes [batches][n][4] and scores [batches][classes][n] (float32): per
// batch and class, boxes above the score threshold (when given) by descending score, equal
// scores keeping the lower index first, each kept unless its IoU with a kept box exceeds the
// threshold, at most maxPerClass of them. Writes [count][3] int64 triples (batch, class, box)
// into `selected`, which holds `capacity` triples. centerPointBox: boxes are [x, y, w, h].
int64_t nonMaxSuppression(const float* boxes, const float* scores, int64_t batches, int64_t classes, int64_t n,
                          int64_t maxPerClass, float iouThreshold, bool haveScoreThreshold, float scoreThreshold,
                          bool centerPointBox, int64_t* selected, int64_t capacity);

// NonZero of x (type t, shape `shape`): the indices of its non-zero elements in row-major
// order, as [rank][capacity] int64 (the first `count` columns used).
int64_t nonZero(const void* x, ElemType t, const Shape& shape, int64_t* out, int64_t capacity);

// TopK with K read at run time (int64 or int32 scalar): the export plans values and indices at
// the whole axis (K's upper bound) and sorts it all; the first K along `axis` are TopK-K's
// result. Returns K; throws std::runtime_error naming `what` when K is outside [0, axisLength].
int64_t topKLength(const void* k, ElemType kType, int64_t axisLength, const char* what);

// Unique of x (type t) along `axis`, or of its flattened elements when axis < 0: the distinct
// slices (sorted ascending, or in order of first appearance) into y, planned at the capacity
// layout [outer][n][inner] (n: the axis length, or numel when flattened); `indices` (the first
// occurrence of each) and `counts` hold n entries, `inverse` (each slice's position in y) n.
// The entries past the returned count are zero. Null outputs are skipped.
int64_t unique(const void* x, ElemType t, const Shape& shape, int axis, bool sorted, void* y, int64_t* indices,
               int64_t* inverse, int64_t* counts);

// out[i] = in[index[i]] for elements of `elemBytes` bytes, or zero bytes where index[i] < 0
// (Trilu of an integer tensor, whose element positions the emitter computes from constant k).
void gatherFlatBytes(const void* in, size_t elemBytes, const int64_t* index, int64_t count, void* out);

// Float64 kernels (issue 31): the float ops of float64 models computed in double, as the
// float32 kernels of generic.h compute them (same arguments, double data).
// CumSum over the middle dim of [outer][len][inner].
void cumsumF64(const double* in, int64_t outer, int64_t len, int64_t inner, bool exclusive, bool reverse, double* out);
// Reduces the axes with reduceAxes[axis] != 0 (every ReduceOp); out has the kept dims.
void reduceF64(ReduceOp op, const double* in, const Shape& inShape, const bool* reduceAxes, double* out);
// General Einsum as one loop nest over the plan (generic.h's EinsumPlan), summed in double.
void einsumF64(const EinsumPlan& plan, const double* const* in, double* out);

} // namespace embark::generic

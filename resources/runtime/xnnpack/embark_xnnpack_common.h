// Internal helpers shared by the legacy and upstream XNNPACK wrappers: parameter checks,
// output sizes, filter repacking and the plain loops used where an API lacks an operator.
#pragma once

#include "embark_xnnpack.h"

#include <xnnpack.h>

#include <string>
#include <vector>

namespace embark_xnn::detail {

static_assert(kExtraBytes >= XNN_EXTRA_BYTES, "kExtraBytes must cover XNN_EXTRA_BYTES");

// Output extent of a window of `kernel` taps (dilated) sliding with `stride` over
// `input + padBefore + padAfter`; 0 when the window does not fit.
size_t slidingOutputSize(size_t input, uint32_t padBefore, uint32_t padAfter, uint32_t kernel,
                         uint32_t stride, uint32_t dilation);

// Returns an empty string when valid, else what is wrong (for Layer::fail).
std::string checkConv2d(const Conv2dParams& p);
std::string checkPool2d(const Pool2dParams& p, bool allowDilation);

// ONNX [Cout][Cin/g][kh][kw] -> XNNPACK [Cout][kh][kw][Cin/g] (groups are contiguous
// output-channel blocks in both, so no group reordering is needed).
std::vector<float> filterOIHWtoOHWI(const float* filter, const Conv2dParams& p);

// NumPy broadcast of two shapes; empty with `error` set when they do not broadcast.
std::vector<size_t> broadcastShapes(const std::vector<size_t>& a, const std::vector<size_t>& b,
                                    std::string* error);
size_t elementCount(const std::vector<size_t>& shape);

// Plain loops for what one API has no operator for.
void tanhLoop(const float* input, float* output, size_t count);
void transposeLoop(const float* input, float* output, const std::vector<size_t>& inputShape,
                   const std::vector<size_t>& perm);

const char* statusName(int status);

} // namespace embark_xnn::detail

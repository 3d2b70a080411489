// Internal helpers shared by the legacy and upstream XNNPACK wrappers: parameter checks,
// output sizes, filter repacking and the plain loops used where an API lacks an operator.
#pragma once

#include "embark_xnnpack.h"

#include <xnnpack.h>

#include <string>
#include <utility>
#include <vector>

// Inside a Layer member: creates m_op with call(args..., &op); a failure names the call.
#define EMBARK_XNN_CREATE(call, ...)                                                                                   \
  do {                                                                                                                 \
    xnn_operator_t raw_ = nullptr;                                                                                     \
    check(call(__VA_ARGS__, &raw_), #call);                                                                            \
    m_op.reset(raw_);                                                                                                  \
  } while (0)

// Inside a Layer member: runs call(args...) and checks its status under the call's name.
#define EMBARK_XNN_CHECK(call, ...) check(call(__VA_ARGS__), #call)

namespace embark_xnn::detail {

static_assert(kExtraBytes >= XNN_EXTRA_BYTES, "kExtraBytes must cover XNN_EXTRA_BYTES");

// Output extent of a window of `kernel` taps (dilated) sliding with `stride` over
// `input + padBefore + padAfter`; 0 when the window does not fit.
size_t slidingOutputSize(size_t input, uint32_t padBefore, uint32_t padAfter, uint32_t kernel, uint32_t stride,
                         uint32_t dilation);

// {height, width} of a window sliding over the padded input of Conv2dParams or Pool2dParams.
template <class Params>
std::pair<size_t, size_t> windowOutputSize(const Params& p, uint32_t dilationHeight, uint32_t dilationWidth) {
    return {slidingOutputSize(p.inputHeight, p.padTop, p.padBottom, p.kernelHeight, p.strideHeight, dilationHeight),
            slidingOutputSize(p.inputWidth, p.padLeft, p.padRight, p.kernelWidth, p.strideWidth, dilationWidth)};
}

// The check* functions return an empty string when valid, else what is wrong (for
// Layer::failIf); those with an output pointer also fill it in.
std::string checkConv2d(const Conv2dParams& p);
std::string checkPool2d(const Pool2dParams& p, bool allowDilation);
// Also computes the output size (see Deconvolution2d).
std::string checkDeconv2d(const Conv2dParams& p, uint32_t adjustmentHeight, uint32_t adjustmentWidth,
                          size_t* outputHeight, size_t* outputWidth);
std::string checkFullyConnected(size_t rows, size_t inputChannels, size_t outputChannels);
// Rank <= XNN_MAX_TENSOR_DIMS and NumPy broadcasting.
std::string checkBinary(const std::vector<size_t>& a, const std::vector<size_t>& b, std::vector<size_t>* outputShape);
// perm must permute 0..rank-1 (rank 0 only when allowScalar).
std::string checkPermutation(const std::vector<size_t>& inputShape, const std::vector<size_t>& perm, bool allowScalar,
                             std::vector<size_t>* outputShape);
// outputStride: the sum of innerSizes.
std::string checkConcat(size_t rows, const std::vector<size_t>& innerSizes, size_t* outputStride);

// The filter in XNNPACK's OHWI layout: `filter` itself, or its repacking kept in `storage`.
const float* filterOHWI(const float* filter, const Conv2dParams& p, FilterLayout layout, std::vector<float>* storage);
uint32_t fullyConnectedFlags(WeightLayout layout);

// ONNX [Cout][Cin/g][kh][kw] -> XNNPACK [Cout][kh][kw][Cin/g] (groups are contiguous
// output-channel blocks in both, so no group reordering is needed).
std::vector<float> filterOIHWtoOHWI(const float* filter, const Conv2dParams& p);

// NumPy broadcast of two shapes; empty with `error` set when they do not broadcast.
std::vector<size_t> broadcastShapes(const std::vector<size_t>& a, const std::vector<size_t>& b, std::string* error);
size_t elementCount(const std::vector<size_t>& shape);

// Plain loops for what one API has no operator for.
void tanhLoop(const float* input, float* output, size_t count);
void transposeLoop(const float* input, float* output, const std::vector<size_t>& inputShape,
                   const std::vector<size_t>& perm);

const char* statusName(int status);

} // namespace embark_xnn::detail

// The parts of the XNNPACK wrappers that do not depend on the XNNPACK API version: context,
// errors, parameter checks, filter repacking and plain-loop fallbacks.
#include "embark_xnnpack_common.h"

#include <pthreadpool.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace embark_xnn {

bool OutputRange::isNone() const { return std::isinf(min) && min < 0 && std::isinf(max) && max > 0; }

Context::Context(size_t threads) : m_threads(threads < 1 ? 1 : threads) {
    // xnn_initialize is idempotent; it checks the CPU once and selects micro-kernels.
    const xnn_status status = xnn_initialize(nullptr);
    if (status != xnn_status_success) {
        throw Error(std::string("XNNPACK: xnn_initialize failed with ") + detail::statusName(status) +
                    (status == xnn_status_unsupported_hardware
                         ? "; this CPU lacks the instructions this XNNPACK build needs, "
                           "re-export with --lib portable"
                         : ""));
    }
    if (m_threads > 1) {
        m_pool = pthreadpool_create(m_threads);
        if (!m_pool) {
            throw Error("XNNPACK: could not create a thread pool of " + std::to_string(m_threads) + " threads");
        }
    }
}

Context::~Context() {
    if (m_pool) pthreadpool_destroy(m_pool);
}

namespace detail {

void OperatorDeleter::operator()(xnn_operator* op) const noexcept { xnn_delete_operator(op); }

void AlignedDeleter::operator()(void* p) const noexcept { std::free(p); }

Layer::Layer(const Context& context, std::string name, const char* kind)
    : m_pool(context.pool()), m_name(std::move(name)), m_kind(kind) {}

void Layer::fail(const std::string& problem) const {
    throw Error("XNNPACK layer '" + m_name + "' (" + m_kind + "): " + problem);
}

void Layer::failIf(const std::string& problem) const {
    if (!problem.empty()) fail(problem);
}

void Layer::runOperator() { check(xnn_run_operator(m_op.get(), m_pool), "xnn_run_operator"); }

void Layer::check(int xnnStatus, const char* call) const {
    if (xnnStatus == xnn_status_success) return;
    std::string hint;
    switch (xnnStatus) {
    case xnn_status_invalid_parameter:
    case xnn_status_unsupported_parameter:
        hint = "; XNNPACK cannot run this layer's parameters: assign it to the portable library";
        break;
    case xnn_status_out_of_memory: hint = "; the board ran out of memory while packing weights"; break;
    case xnn_status_uninitialized: hint = "; create the embark_xnn::Context before any layer"; break;
    default: break;
    }
    fail(std::string(call) + " failed with " + statusName(xnnStatus) + hint);
}

bool Layer::rebind(const void* a, const void* b, const void* out) {
    if (m_bound && a == m_boundA && b == m_boundB && out == m_boundOut) return false;
    m_bound = true;
    m_boundA = a;
    m_boundB = b;
    m_boundOut = out;
    return true;
}

void Layer::allocateWorkspace(size_t bytes) {
    if (bytes == 0) {
        m_workspace.reset();
        return;
    }
    constexpr size_t alignment = 64; // XNN_ALLOCATION_ALIGNMENT on every target
    const size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    m_workspace.reset(std::aligned_alloc(alignment, rounded));
    if (!m_workspace) fail("cannot allocate a " + std::to_string(rounded) + "-byte workspace");
}

namespace {
template <class Params>
bool windowDoesNotFit(const Params& p) {
    const auto [height, width] = windowOutputSize(p, p.dilationHeight, p.dilationWidth);
    return height == 0 || width == 0;
}
} // namespace

size_t slidingOutputSize(size_t input, uint32_t padBefore, uint32_t padAfter, uint32_t kernel, uint32_t stride,
                         uint32_t dilation) {
    const size_t padded = input + padBefore + padAfter;
    const size_t extent = size_t(dilation) * (kernel - 1) + 1;
    if (stride == 0 || kernel == 0 || padded < extent) return 0;
    return (padded - extent) / stride + 1;
}

namespace {
// What a convolution and a deconvolution both require: an input, groups that divide the
// channels, and non-zero kernel, stride and dilation.
std::string checkConvWindow(const Conv2dParams& p) {
    if (p.batch == 0 || p.inputHeight == 0 || p.inputWidth == 0) return "empty input";
    if (p.groups == 0 || p.inputChannels % p.groups != 0 || p.outputChannels % p.groups != 0)
        return "groups=" + std::to_string(p.groups) + " does not divide input channels " +
               std::to_string(p.inputChannels) + " and output channels " + std::to_string(p.outputChannels);
    if (p.strideHeight == 0 || p.strideWidth == 0 || p.dilationHeight == 0 || p.dilationWidth == 0 ||
        p.kernelHeight == 0 || p.kernelWidth == 0)
        return "zero kernel size, stride or dilation";
    return {};
}
} // namespace

std::string checkConv2d(const Conv2dParams& p) {
    if (std::string problem = checkConvWindow(p); !problem.empty()) return problem;
    if (windowDoesNotFit(p)) return "the kernel is larger than the padded input";
    return {};
}

std::string checkDeconv2d(const Conv2dParams& p, uint32_t adjustmentHeight, uint32_t adjustmentWidth,
                          size_t* outputHeight, size_t* outputWidth) {
    if (std::string problem = checkConvWindow(p); !problem.empty()) return problem;
    if (adjustmentHeight >= p.strideHeight || adjustmentWidth >= p.strideWidth)
        return "output_padding must be smaller than the stride";
    auto side = [](size_t in, uint32_t stride, uint32_t adjustment, uint32_t dilation, uint32_t kernel,
                   uint32_t padBefore, uint32_t padAfter) -> size_t {
        const size_t full = size_t(stride) * (in - 1) + adjustment + size_t(dilation) * (kernel - 1) + 1;
        return full > size_t(padBefore) + padAfter ? full - padBefore - padAfter : 0;
    };
    *outputHeight =
        side(p.inputHeight, p.strideHeight, adjustmentHeight, p.dilationHeight, p.kernelHeight, p.padTop, p.padBottom);
    *outputWidth =
        side(p.inputWidth, p.strideWidth, adjustmentWidth, p.dilationWidth, p.kernelWidth, p.padLeft, p.padRight);
    if (*outputHeight == 0 || *outputWidth == 0) return "the pads crop the whole output";
    return {};
}

std::string checkPool2d(const Pool2dParams& p, bool allowDilation) {
    if (p.batch == 0 || p.inputHeight == 0 || p.inputWidth == 0 || p.channels == 0) return "empty input";
    if (p.strideHeight == 0 || p.strideWidth == 0 || p.kernelHeight == 0 || p.kernelWidth == 0 ||
        p.dilationHeight == 0 || p.dilationWidth == 0)
        return "zero kernel size, stride or dilation";
    if (!allowDilation && (p.dilationHeight != 1 || p.dilationWidth != 1))
        return "dilated average pooling is not supported by XNNPACK: assign it to portable";
    if (windowDoesNotFit(p)) return "the window is larger than the padded input";
    return {};
}

std::string checkFullyConnected(size_t rows, size_t inputChannels, size_t outputChannels) {
    if (rows == 0 || inputChannels == 0 || outputChannels == 0) return "empty input or output";
    return {};
}

std::string checkBinary(const std::vector<size_t>& a, const std::vector<size_t>& b, std::vector<size_t>* outputShape) {
    if (a.size() > XNN_MAX_TENSOR_DIMS || b.size() > XNN_MAX_TENSOR_DIMS)
        return "rank above " + std::to_string(XNN_MAX_TENSOR_DIMS);
    std::string problem;
    *outputShape = broadcastShapes(a, b, &problem);
    return problem;
}

std::string checkPermutation(const std::vector<size_t>& inputShape, const std::vector<size_t>& perm, bool allowScalar,
                             std::vector<size_t>* outputShape) {
    if (perm.size() != inputShape.size() || (!allowScalar && perm.empty()) || perm.size() > XNN_MAX_TENSOR_DIMS)
        return allowScalar ? "the permutation must have one entry per dimension (rank <= 6)"
                           : "the permutation must have one entry per dimension (rank 1..6)";
    std::vector<bool> seen(perm.size(), false);
    outputShape->clear();
    for (size_t d : perm) {
        if (d >= perm.size() || seen[d])
            return "the permutation is not a permutation of 0.." + std::to_string(perm.size() - 1);
        seen[d] = true;
        outputShape->push_back(inputShape[d]);
    }
    return {};
}

std::string checkConcat(size_t rows, const std::vector<size_t>& innerSizes, size_t* outputStride) {
    if (rows == 0 || innerSizes.empty()) return "empty input";
    *outputStride = 0;
    for (size_t inner : innerSizes) *outputStride += inner;
    return {};
}

const float* filterOHWI(const float* filter, const Conv2dParams& p, FilterLayout layout, std::vector<float>* storage) {
    if (layout != FilterLayout::OIHW) return filter;
    *storage = filterOIHWtoOHWI(filter, p);
    return storage->data();
}

uint32_t fullyConnectedFlags(WeightLayout layout) {
    return layout == WeightLayout::InOut ? XNN_FLAG_TRANSPOSE_WEIGHTS : 0;
}

std::vector<float> filterOIHWtoOHWI(const float* filter, const Conv2dParams& p) {
    const size_t cin = p.inputChannels / p.groups;
    const size_t taps = size_t(p.kernelHeight) * p.kernelWidth;
    std::vector<float> packed(p.outputChannels * taps * cin);
    for (size_t o = 0; o < p.outputChannels; ++o)
        for (size_t i = 0; i < cin; ++i)
            for (size_t t = 0; t < taps; ++t) packed[(o * taps + t) * cin + i] = filter[(o * cin + i) * taps + t];
    return packed;
}

std::vector<size_t> broadcastShapes(const std::vector<size_t>& a, const std::vector<size_t>& b, std::string* error) {
    const size_t rank = a.size() > b.size() ? a.size() : b.size();
    std::vector<size_t> out(rank);
    for (size_t d = 0; d < rank; ++d) {
        const size_t da = d + a.size() >= rank ? a[d + a.size() - rank] : 1;
        const size_t db = d + b.size() >= rank ? b[d + b.size() - rank] : 1;
        if (da != db && da != 1 && db != 1) {
            *error = "shapes do not broadcast: dimension " + std::to_string(d) + " is " + std::to_string(da) + " vs " +
                     std::to_string(db);
            return {};
        }
        out[d] = da == 1 ? db : da;
    }
    return out;
}

size_t elementCount(const std::vector<size_t>& shape) {
    size_t n = 1;
    for (size_t d : shape) n *= d;
    return n;
}

void tanhLoop(const float* input, float* output, size_t count) {
    for (size_t i = 0; i < count; ++i) output[i] = std::tanh(input[i]);
}

void transposeLoop(const float* input, float* output, const std::vector<size_t>& inputShape,
                   const std::vector<size_t>& perm) {
    const size_t rank = inputShape.size();
    // Input strides, read in output-dimension order, so the loop walks the output linearly.
    std::vector<size_t> inputStride(rank, 1), strideOfOutDim(rank), outShape(rank);
    for (size_t d = rank; d-- > 1;) inputStride[d - 1] = inputStride[d] * inputShape[d];
    for (size_t d = 0; d < rank; ++d) {
        strideOfOutDim[d] = inputStride[perm[d]];
        outShape[d] = inputShape[perm[d]];
    }
    const size_t total = elementCount(inputShape);
    std::vector<size_t> index(rank, 0);
    size_t offset = 0;
    for (size_t i = 0; i < total; ++i) {
        output[i] = input[offset];
        for (size_t d = rank; d-- > 0;) {
            offset += strideOfOutDim[d];
            if (++index[d] < outShape[d]) break;
            offset -= strideOfOutDim[d] * outShape[d];
            index[d] = 0;
        }
    }
}

const char* statusName(int status) {
    switch (status) {
    case xnn_status_success: return "xnn_status_success";
    case xnn_status_uninitialized: return "xnn_status_uninitialized";
    case xnn_status_invalid_parameter: return "xnn_status_invalid_parameter";
    case xnn_status_invalid_state: return "xnn_status_invalid_state";
    case xnn_status_unsupported_parameter: return "xnn_status_unsupported_parameter";
    case xnn_status_unsupported_hardware: return "xnn_status_unsupported_hardware";
    case xnn_status_out_of_memory: return "xnn_status_out_of_memory";
    default: return "an unknown xnn_status";
    }
}

} // namespace detail

bool Concat::rebindInputs(const float* const* inputs, float* output) {
    if (m_bound && output == m_boundOut && std::equal(m_boundInputs.begin(), m_boundInputs.end(), inputs)) return false;
    m_boundInputs.assign(inputs, inputs + m_innerSizes.size());
    m_bound = true;
    m_boundOut = output;
    return true;
}

} // namespace embark_xnn

// The XNNPACK wrappers for the 2022 API of Debian 12's libxnnpack: create, then setup with
// shapes and pointers (redone only when the pointers change), then run.
#ifndef EMBARK_XNN_API_UPSTREAM

#  include "embark_xnnpack_common.h"

#  include <tuple>
#  include <utility>

namespace embark_xnn {

const char* apiName() { return "legacy"; }

namespace detail {
void Layer::addTrailingClamp(OutputRange range, size_t count) {
    if (range.isNone()) return;
    xnn_operator_t raw = nullptr;
    check(xnn_create_clamp_nc_f32(1, 1, 1, range.min, range.max, 0, &raw), "xnn_create_clamp_nc_f32");
    m_clamp.reset(raw);
    m_clampCount = count;
}

void Layer::runTrailingClamp(float* output) {
    if (!m_clamp) return;
    if (output != m_clampBound) {
        check(xnn_setup_clamp_nc_f32(m_clamp.get(), m_clampCount, output, output, m_pool), "xnn_setup_clamp_nc_f32");
        m_clampBound = output;
    }
    check(xnn_run_operator(m_clamp.get(), m_pool), "xnn_run_operator (clamp)");
}
} // namespace detail

namespace {
// An XNNPACK function with its name, for Layer::check's messages.
template <class Fn>
struct Named {
    Fn fn = nullptr;
    const char* name = "";
};
#  define EMBARK_XNN_NAMED(fn)                                                                                         \
    { fn, #fn }

// The 2022 API has one create and one setup function per element-wise op, all of the same
// shape within binary and within unary ops (except the creates that take parameters).
using BinaryCreateRanged = xnn_status (*)(float, float, uint32_t, xnn_operator_t*);
using BinaryCreate = xnn_status (*)(uint32_t, xnn_operator_t*);
using BinarySetup = xnn_status (*)(xnn_operator_t, size_t, const size_t*, size_t, const size_t*, const float*,
                                   const float*, float*, pthreadpool_t);
using UnaryCreate = xnn_status (*)(size_t, size_t, size_t, uint32_t, xnn_operator_t*);
using UnarySetup = xnn_status (*)(xnn_operator_t, size_t, const float*, float*, pthreadpool_t);

struct BinaryCalls {
    Named<BinaryCreateRanged> createRanged; // ops with a fused output range
    Named<BinaryCreate> create;             // ops without (a trailing clamp does the range)
    Named<BinarySetup> setup;
};

BinaryCalls binaryCalls(BinaryOp op) {
    switch (op) {
    case BinaryOp::Add: return {EMBARK_XNN_NAMED(xnn_create_add_nd_f32), {}, EMBARK_XNN_NAMED(xnn_setup_add_nd_f32)};
    case BinaryOp::Subtract:
        return {EMBARK_XNN_NAMED(xnn_create_subtract_nd_f32), {}, EMBARK_XNN_NAMED(xnn_setup_subtract_nd_f32)};
    case BinaryOp::Multiply:
        return {EMBARK_XNN_NAMED(xnn_create_multiply_nd_f32), {}, EMBARK_XNN_NAMED(xnn_setup_multiply_nd_f32)};
    case BinaryOp::Divide:
        return {EMBARK_XNN_NAMED(xnn_create_divide_nd_f32), {}, EMBARK_XNN_NAMED(xnn_setup_divide_nd_f32)};
    case BinaryOp::Maximum:
        return {{}, EMBARK_XNN_NAMED(xnn_create_maximum_nd_f32), EMBARK_XNN_NAMED(xnn_setup_maximum_nd_f32)};
    case BinaryOp::Minimum:
        return {{}, EMBARK_XNN_NAMED(xnn_create_minimum_nd_f32), EMBARK_XNN_NAMED(xnn_setup_minimum_nd_f32)};
    }
    return {};
}

struct UnaryCalls {
    Named<UnaryCreate> create; // empty for the ops whose create takes parameters
    Named<UnarySetup> setup;   // empty for Tanh (a plain loop)
};

#  define EMBARK_XNN_UNARY(op)                                                                                         \
    UnaryCalls { EMBARK_XNN_NAMED(xnn_create_##op##_nc_f32), EMBARK_XNN_NAMED(xnn_setup_##op##_nc_f32) }

UnaryCalls unaryCalls(UnaryOp op) {
    switch (op) {
    case UnaryOp::Clamp: return {{}, EMBARK_XNN_NAMED(xnn_setup_clamp_nc_f32)};
    case UnaryOp::Sigmoid: return EMBARK_XNN_UNARY(sigmoid);
    case UnaryOp::HardSwish: return EMBARK_XNN_UNARY(hardswish);
    case UnaryOp::LeakyRelu: return {{}, EMBARK_XNN_NAMED(xnn_setup_leaky_relu_nc_f32)};
    case UnaryOp::Elu: return {{}, EMBARK_XNN_NAMED(xnn_setup_elu_nc_f32)};
    case UnaryOp::Tanh: return {}; // the 2022 API has tanh for quantised types only
    case UnaryOp::Abs: return EMBARK_XNN_UNARY(abs);
    case UnaryOp::Negate: return EMBARK_XNN_UNARY(negate);
    case UnaryOp::Square: return EMBARK_XNN_UNARY(square);
    case UnaryOp::SquareRoot: return EMBARK_XNN_UNARY(square_root);
    }
    return {};
}
} // namespace

Convolution2d::Convolution2d(const Context& context, std::string name, const Conv2dParams& params, const float* filter,
                             const float* bias, FilterLayout layout, OutputRange range)
    : Layer(context, std::move(name), "convolution 2-D"), m_params(params) {
    failIf(detail::checkConv2d(params));
    const Conv2dParams& p = params;
    std::tie(m_outputHeight, m_outputWidth) = detail::windowOutputSize(p, p.dilationHeight, p.dilationWidth);
    std::vector<float> repacked;
    filter = detail::filterOHWI(filter, p, layout, &repacked);
    // Without XNN_FLAG_DEPTHWISE_CONVOLUTION a depthwise filter is [C][kh][kw], which is what
    // OHWI with one input channel per group is; XNNPACK still picks its depthwise kernels.
    EMBARK_XNN_CREATE(xnn_create_convolution2d_nhwc_f32, p.padTop, p.padRight, p.padBottom, p.padLeft, p.kernelHeight,
                      p.kernelWidth, p.strideHeight, p.strideWidth, p.dilationHeight, p.dilationWidth, p.groups,
                      p.inputChannels / p.groups, p.outputChannels / p.groups, p.inputChannels, p.outputChannels,
                      filter, bias, range.min, range.max, 0);
}

void Convolution2d::forward(const float* input, float* output) {
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_convolution2d_nhwc_f32, m_op.get(), m_params.batch, m_params.inputHeight,
                         m_params.inputWidth, input, output, m_pool);
    runOperator();
}

Deconvolution2d::Deconvolution2d(const Context& context, std::string name, const Conv2dParams& params,
                                 uint32_t adjustmentHeight, uint32_t adjustmentWidth, const float* filter,
                                 const float* bias, OutputRange range)
    : Layer(context, std::move(name), "deconvolution 2-D"),
      m_params(params),
      m_adjustmentHeight(adjustmentHeight),
      m_adjustmentWidth(adjustmentWidth) {
    failIf(detail::checkDeconv2d(params, adjustmentHeight, adjustmentWidth, &m_outputHeight, &m_outputWidth));
    const Conv2dParams& p = params;
    EMBARK_XNN_CREATE(xnn_create_deconvolution2d_nhwc_f32, p.padTop, p.padRight, p.padBottom, p.padLeft, p.kernelHeight,
                      p.kernelWidth, p.strideHeight, p.strideWidth, p.dilationHeight, p.dilationWidth, p.groups,
                      p.inputChannels / p.groups, p.outputChannels / p.groups, p.inputChannels, p.outputChannels,
                      filter, bias, range.min, range.max, 0);
}

void Deconvolution2d::forward(const float* input, float* output) {
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_deconvolution2d_nhwc_f32, m_op.get(), m_params.batch, m_params.inputHeight,
                         m_params.inputWidth, m_adjustmentHeight, m_adjustmentWidth, input, output, m_pool);
    runOperator();
}

FullyConnected::FullyConnected(const Context& context, std::string name, size_t rows, size_t inputChannels,
                               size_t outputChannels, const float* weights, const float* bias, WeightLayout layout,
                               OutputRange range)
    : Layer(context, std::move(name), "fully connected"),
      m_rows(rows),
      m_inputChannels(inputChannels),
      m_outputChannels(outputChannels) {
    failIf(detail::checkFullyConnected(rows, inputChannels, outputChannels));
    EMBARK_XNN_CREATE(xnn_create_fully_connected_nc_f32, inputChannels, outputChannels, inputChannels, outputChannels,
                      weights, bias, range.min, range.max, detail::fullyConnectedFlags(layout));
}

void FullyConnected::forward(const float* input, float* output) {
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_fully_connected_nc_f32, m_op.get(), m_rows, input, output, m_pool);
    runOperator();
}

MaxPool2d::MaxPool2d(const Context& context, std::string name, const Pool2dParams& params, OutputRange range)
    : Layer(context, std::move(name), "max pooling 2-D"), m_params(params) {
    failIf(detail::checkPool2d(params, true));
    const Pool2dParams& p = params;
    std::tie(m_outputHeight, m_outputWidth) = detail::windowOutputSize(p, p.dilationHeight, p.dilationWidth);
    EMBARK_XNN_CREATE(xnn_create_max_pooling2d_nhwc_f32, p.padTop, p.padRight, p.padBottom, p.padLeft, p.kernelHeight,
                      p.kernelWidth, p.strideHeight, p.strideWidth, p.dilationHeight, p.dilationWidth, p.channels,
                      p.channels, p.channels, range.min, range.max, 0);
}

void MaxPool2d::forward(const float* input, float* output) {
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_max_pooling2d_nhwc_f32, m_op.get(), m_params.batch, m_params.inputHeight,
                         m_params.inputWidth, input, output, m_pool);
    runOperator();
}

AveragePool2d::AveragePool2d(const Context& context, std::string name, const Pool2dParams& params, OutputRange range)
    : Layer(context, std::move(name), "average pooling 2-D"), m_params(params) {
    failIf(detail::checkPool2d(params, false));
    const Pool2dParams& p = params;
    std::tie(m_outputHeight, m_outputWidth) = detail::windowOutputSize(p, 1, 1);
    EMBARK_XNN_CREATE(xnn_create_average_pooling2d_nhwc_f32, p.padTop, p.padRight, p.padBottom, p.padLeft,
                      p.kernelHeight, p.kernelWidth, p.strideHeight, p.strideWidth, p.channels, p.channels, p.channels,
                      range.min, range.max, 0);
}

void AveragePool2d::forward(const float* input, float* output) {
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_average_pooling2d_nhwc_f32, m_op.get(), m_params.batch, m_params.inputHeight,
                         m_params.inputWidth, input, output, m_pool);
    runOperator();
}

GlobalAveragePool::GlobalAveragePool(const Context& context, std::string name, size_t batch, size_t height,
                                     size_t width, size_t channels, OutputRange range)
    : Layer(context, std::move(name), "global average pooling"),
      m_batch(batch),
      m_pixels(height * width),
      m_channels(channels) {
    if (batch == 0 || m_pixels == 0 || channels == 0) fail("empty input");
    EMBARK_XNN_CREATE(xnn_create_global_average_pooling_nwc_f32, channels, channels, channels, range.min, range.max, 0);
}

void GlobalAveragePool::forward(const float* input, float* output) {
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_global_average_pooling_nwc_f32, m_op.get(), m_batch, m_pixels, input, output,
                         m_pool);
    runOperator();
}

Binary::Binary(const Context& context, std::string name, BinaryOp op, std::vector<size_t> shapeA,
               std::vector<size_t> shapeB, OutputRange range)
    : Layer(context, std::move(name), "binary element-wise"),
      m_binaryOp(op),
      m_shapeA(std::move(shapeA)),
      m_shapeB(std::move(shapeB)) {
    failIf(detail::checkBinary(m_shapeA, m_shapeB, &m_outputShape));
    // XNNPACK wants rank >= 1; a scalar is a 1-element vector.
    if (m_shapeA.empty()) m_shapeA = {1};
    if (m_shapeB.empty()) m_shapeB = {1};
    const BinaryCalls calls = binaryCalls(op);
    xnn_operator_t raw = nullptr;
    if (calls.createRanged.fn) {
        check(calls.createRanged.fn(range.min, range.max, 0, &raw), calls.createRanged.name);
        m_op.reset(raw);
    } else {
        check(calls.create.fn(0, &raw), calls.create.name);
        m_op.reset(raw);
        addTrailingClamp(range, detail::elementCount(m_outputShape));
    }
}

void Binary::forward(const float* a, const float* b, float* output) {
    if (rebind(a, b, output)) {
        const Named<BinarySetup> setup = binaryCalls(m_binaryOp).setup;
        check(setup.fn(m_op.get(), m_shapeA.size(), m_shapeA.data(), m_shapeB.size(), m_shapeB.data(), a, b, output,
                       m_pool),
              setup.name);
    }
    runOperator();
    runTrailingClamp(output);
}

Unary::Unary(const Context& context, std::string name, UnaryOp op, size_t count, UnaryParams params)
    : Layer(context, std::move(name), "unary element-wise"), m_unaryOp(op), m_count(count), m_params(params) {
    if (count == 0) fail("empty input");
    // One "row" of 1 channel per element: contiguous, so XNNPACK flattens it and splits the
    // whole range across threads.
    switch (op) {
    case UnaryOp::Clamp: EMBARK_XNN_CREATE(xnn_create_clamp_nc_f32, 1, 1, 1, params.min, params.max, 0); break;
    case UnaryOp::LeakyRelu: EMBARK_XNN_CREATE(xnn_create_leaky_relu_nc_f32, 1, 1, 1, params.alpha, 0); break;
    case UnaryOp::Elu: EMBARK_XNN_CREATE(xnn_create_elu_nc_f32, 1, 1, 1, params.alpha, 0); break;
    case UnaryOp::Tanh:
        m_loop = true; // the 2022 API has tanh for quantised types only
        break;
    default: {
        const Named<UnaryCreate> create = unaryCalls(op).create;
        xnn_operator_t raw = nullptr;
        check(create.fn(1, 1, 1, 0, &raw), create.name);
        m_op.reset(raw);
        break;
    }
    }
}

void Unary::forward(const float* input, float* output) {
    if (m_loop) {
        detail::tanhLoop(input, output, m_count);
        return;
    }
    if (rebind(input, nullptr, output)) {
        const Named<UnarySetup> setup = unaryCalls(m_unaryOp).setup;
        check(setup.fn(m_op.get(), m_count, input, output, m_pool), setup.name);
    }
    runOperator();
}

Softmax::Softmax(const Context& context, std::string name, size_t rows, size_t channels)
    : Layer(context, std::move(name), "softmax"), m_rows(rows), m_channels(channels) {
    if (rows == 0 || channels == 0) fail("empty input");
    EMBARK_XNN_CREATE(xnn_create_softmax_nc_f32, channels, channels, channels, 0);
}

void Softmax::forward(const float* input, float* output) {
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_softmax_nc_f32, m_op.get(), m_rows, input, output, m_pool);
    runOperator();
}

Transpose::Transpose(const Context& context, std::string name, std::vector<size_t> inputShape, std::vector<size_t> perm)
    : Layer(context, std::move(name), "transpose"), m_inputShape(std::move(inputShape)), m_perm(std::move(perm)) {
    failIf(detail::checkPermutation(m_inputShape, m_perm, /*allowScalar=*/true, &m_outputShape));
}

void Transpose::forward(const float* input, float* output) {
    // The 2022 API has no transpose operator.
    detail::transposeLoop(input, output, m_inputShape, m_perm);
}

Concat::Concat(const Context& context, std::string name, size_t rows, std::vector<size_t> innerSizes)
    : Layer(context, std::move(name), "concatenation"),
      m_rows(rows),
      m_outputStride(0),
      m_innerSizes(std::move(innerSizes)) {
    failIf(detail::checkConcat(rows, m_innerSizes, &m_outputStride));
    for (size_t inner : m_innerSizes) {
        xnn_operator_t raw = nullptr;
        check(xnn_create_copy_nc_x32(inner, inner, m_outputStride, 0, &raw), "xnn_create_copy_nc_x32");
        m_copies.emplace_back(raw);
    }
}

void Concat::forward(const float* const* inputs, float* output) {
    if (rebindInputs(inputs, output)) {
        size_t offset = 0;
        for (size_t i = 0; i < m_copies.size(); ++i) {
            check(xnn_setup_copy_nc_x32(m_copies[i].get(), m_rows, inputs[i], output + offset, m_pool),
                  "xnn_setup_copy_nc_x32");
            offset += m_innerSizes[i];
        }
    }
    for (auto& copy : m_copies) check(xnn_run_operator(copy.get(), m_pool), "xnn_run_operator");
}

} // namespace embark_xnn

#endif // EMBARK_XNN_API_UPSTREAM

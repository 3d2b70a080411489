// The int8 (qs8) XNNPACK wrappers for both APIs: QConvolution2d, QFullyConnected, QAdd,
// QMaxPool2d (max_pooling2d_nhwc_s8 on both; see embark_xnnpack.h for the contract). Upstream:
// convolution2d_nhwc_qs8_qc8w, fully_connected_nc_qs8_qc8w, binary add on qint8 (+ an s8 clamp for a fused Relu/Clip,
// the binary operator having no output range). Legacy (Debian's 2022 snapshot): convolution2d_nhwc_qc8 (fully connected
// as a 1x1 convolution over the rows: that API has no per-channel fully connected) and add_nd_qs8.
#include "embark_xnnpack_common.h"

#include <cmath>
#include <cstdint>
#include <tuple>
#include <utility>

namespace embark_xnn {

namespace {

// What XNNPACK checks at creation, said before it is called, so that the message names the
// value instead of a bare xnn_status_invalid_parameter.
std::string checkQuant(const char* what, int zeroPoint, float scale) {
    if (zeroPoint < -128 || zeroPoint > 127)
        return std::string(what) + " zero point " + std::to_string(zeroPoint) + " is outside int8";
    if (!(scale > 0.0f) || !std::isnormal(scale))
        return std::string(what) + " scale " + std::to_string(scale) + " must be positive and normal";
    return {};
}

std::string checkOutput(const QuantOutput& o) {
    std::string e = checkQuant("output", o.zeroPoint, o.scale);
    if (e.empty() && (o.min < -128 || o.max > 127 || o.min > o.max))
        e = "output range [" + std::to_string(o.min) + ", " + std::to_string(o.max) + "] is not an int8 range";
    return e;
}

// XNNPACK refuses a requantization scale (inputScale * kernelScale / outputScale) of 256 or
// more; kernel scales must be positive and normal.
std::string checkKernelScales(const float* scales, size_t channels, float inputScale, float outputScale) {
    if (!scales) return "no kernel scales";
    for (size_t c = 0; c < channels; ++c) {
        if (!(scales[c] > 0.0f) || !std::isnormal(scales[c]))
            return "kernel scale " + std::to_string(scales[c]) + " of output channel " + std::to_string(c) +
                   " must be positive and normal";
        const float r = inputScale * scales[c] / outputScale;
        if (!(r < 256.0f))
            return "requantization scale " + std::to_string(r) + " of output channel " + std::to_string(c) +
                   " is 256 or more (XNNPACK's limit)";
    }
    return {};
}

} // namespace

QConvolution2d::QConvolution2d(const Context& context, std::string name, const Conv2dParams& params, QuantParams input,
                               const int8_t* filter, const float* kernelScales, const int32_t* bias, QuantOutput output)
    : Layer(context, std::move(name), "int8 convolution 2-D"), m_params(params) {
    const Conv2dParams& p = params;
    failIf(detail::checkConv2d(p));
    failIf(checkQuant("input", input.zeroPoint, input.scale));
    failIf(checkOutput(output));
    failIf(checkKernelScales(kernelScales, p.outputChannels, input.scale, output.scale));
    if (!filter) fail("no filter");
#ifdef EMBARK_XNN_API_UPSTREAM
    EMBARK_XNN_CREATE(xnn_create_convolution2d_nhwc_qs8_qc8w, p.padTop, p.padRight, p.padBottom, p.padLeft,
                      p.kernelHeight, p.kernelWidth, p.strideHeight, p.strideWidth, p.dilationHeight, p.dilationWidth,
                      p.groups, p.inputChannels / p.groups, p.outputChannels / p.groups, p.inputChannels,
                      p.outputChannels, static_cast<int8_t>(input.zeroPoint), input.scale, kernelScales, filter, bias,
                      static_cast<int8_t>(output.zeroPoint), output.scale, static_cast<int8_t>(output.min),
                      static_cast<int8_t>(output.max), 0,
                      /*weights_cache=*/nullptr);
    size_t workspace = 0;
    EMBARK_XNN_CHECK(xnn_reshape_convolution2d_nhwc_qs8_qc8w, m_op.get(), p.batch, p.inputHeight, p.inputWidth,
                     &workspace, &m_outputHeight, &m_outputWidth, m_pool);
    allocateWorkspace(workspace);
#else
    EMBARK_XNN_CREATE(xnn_create_convolution2d_nhwc_qc8, p.padTop, p.padRight, p.padBottom, p.padLeft, p.kernelHeight,
                      p.kernelWidth, p.strideHeight, p.strideWidth, p.dilationHeight, p.dilationWidth, p.groups,
                      p.inputChannels / p.groups, p.outputChannels / p.groups, p.inputChannels, p.outputChannels,
                      static_cast<int8_t>(input.zeroPoint), input.scale, kernelScales, filter, bias,
                      static_cast<int8_t>(output.zeroPoint), output.scale, static_cast<int8_t>(output.min),
                      static_cast<int8_t>(output.max), 0);
    std::tie(m_outputHeight, m_outputWidth) = detail::windowOutputSize(p, p.dilationHeight, p.dilationWidth);
#endif
}

void QConvolution2d::forward(const int8_t* input, int8_t* output) {
#ifdef EMBARK_XNN_API_UPSTREAM
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_convolution2d_nhwc_qs8_qc8w, m_op.get(), m_workspace.get(), input, output);
#else
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_convolution2d_nhwc_qc8, m_op.get(), m_params.batch, m_params.inputHeight,
                         m_params.inputWidth, input, output, m_pool);
#endif
    runOperator();
}

QFullyConnected::QFullyConnected(const Context& context, std::string name, size_t rows, size_t inputChannels,
                                 size_t outputChannels, QuantParams input, const int8_t* weights,
                                 const float* kernelScales, const int32_t* bias, QuantOutput output)
    : Layer(context, std::move(name), "int8 fully connected"), m_rows(rows) {
    failIf(detail::checkFullyConnected(rows, inputChannels, outputChannels));
    failIf(checkQuant("input", input.zeroPoint, input.scale));
    failIf(checkOutput(output));
    failIf(checkKernelScales(kernelScales, outputChannels, input.scale, output.scale));
    if (!weights) fail("no weights");
#ifdef EMBARK_XNN_API_UPSTREAM
    EMBARK_XNN_CREATE(xnn_create_fully_connected_nc_qs8_qc8w, inputChannels, outputChannels, inputChannels,
                      outputChannels, static_cast<int8_t>(input.zeroPoint), input.scale, kernelScales, weights, bias,
                      static_cast<int8_t>(output.zeroPoint), output.scale, static_cast<int8_t>(output.min),
                      static_cast<int8_t>(output.max), 0,
                      /*weights_cache=*/nullptr);
    EMBARK_XNN_CHECK(xnn_reshape_fully_connected_nc_qs8_qc8w, m_op.get(), rows, m_pool);
#else
    // [N][K] weights are the OHWI filter of a 1x1 convolution of K -> N channels.
    EMBARK_XNN_CREATE(xnn_create_convolution2d_nhwc_qc8, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, inputChannels, outputChannels,
                      inputChannels, outputChannels, static_cast<int8_t>(input.zeroPoint), input.scale, kernelScales,
                      weights, bias, static_cast<int8_t>(output.zeroPoint), output.scale,
                      static_cast<int8_t>(output.min), static_cast<int8_t>(output.max), 0);
#endif
}

void QFullyConnected::forward(const int8_t* input, int8_t* output) {
#ifdef EMBARK_XNN_API_UPSTREAM
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_fully_connected_nc_qs8_qc8w, m_op.get(), input, output);
#else
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_convolution2d_nhwc_qc8, m_op.get(), 1, 1, m_rows, input, output, m_pool);
#endif
    runOperator();
}

QAdd::QAdd(const Context& context, std::string name, size_t count, QuantParams a, QuantParams b, QuantOutput output)
    : Layer(context, std::move(name), "int8 add"), m_count(count) {
    if (count == 0) fail("empty input");
    failIf(checkQuant("input A", a.zeroPoint, a.scale));
    failIf(checkQuant("input B", b.zeroPoint, b.scale));
    failIf(checkOutput(output));
    for (float s : {a.scale, b.scale}) {
        const float r = s / output.scale;
        if (!(r >= 0x1.0p-10f && r < 0x1.0p+8f))
            fail("input/output scale ratio " + std::to_string(r) + " is outside XNNPACK's [2^-10, 2^8)");
    }
#ifdef EMBARK_XNN_API_UPSTREAM
    const xnn_quantization_params qa{a.zeroPoint, a.scale}, qb{b.zeroPoint, b.scale},
        qy{output.zeroPoint, output.scale};
    EMBARK_XNN_CREATE(xnn_create_binary_elementwise_nd, xnn_binary_add, xnn_datatype_qint8, &qa, &qb, &qy, 0);
    const size_t shape[1] = {count};
    EMBARK_XNN_CHECK(xnn_reshape_binary_elementwise_nd, m_op.get(), 1, shape, 1, shape, m_pool);
    if (output.min > -128 || output.max < 127) {
        // The binary operator has no output range: an in-place int8 clamp after it. Its bounds
        // are quantized with scale 1 and zero point 0, i.e. taken as the int8 values they are.
        union xnn_unary_params cp;
        cp.clamp.min = static_cast<float>(output.min);
        cp.clamp.max = static_cast<float>(output.max);
        const xnn_quantization_params identity{0, 1.0f};
        xnn_operator_t raw = nullptr;
        check(xnn_create_unary_elementwise_nc(xnn_unary_clamp, xnn_datatype_qint8, xnn_datatype_qint8, &cp, nullptr,
                                              &identity, &identity, 0, &raw),
              "xnn_create_unary_elementwise_nc (int8 clamp)");
        m_clamp.reset(raw);
        check(xnn_reshape_unary_elementwise_nc(m_clamp.get(), 1, count, count, count, m_pool),
              "xnn_reshape_unary_elementwise_nc (int8 clamp)");
    }
#else
    EMBARK_XNN_CREATE(xnn_create_add_nd_qs8, static_cast<int8_t>(a.zeroPoint), a.scale,
                      static_cast<int8_t>(b.zeroPoint), b.scale, static_cast<int8_t>(output.zeroPoint), output.scale,
                      static_cast<int8_t>(output.min), static_cast<int8_t>(output.max), 0);
#endif
}

void QAdd::forward(const int8_t* a, const int8_t* b, int8_t* output) {
#ifdef EMBARK_XNN_API_UPSTREAM
    if (rebind(a, b, output)) EMBARK_XNN_CHECK(xnn_setup_binary_elementwise_nd, m_op.get(), a, b, output);
    runOperator();
    if (m_clamp) {
        if (output != m_clampBoundS8) {
            check(xnn_setup_unary_elementwise_nc(m_clamp.get(), output, output),
                  "xnn_setup_unary_elementwise_nc (int8 clamp)");
            m_clampBoundS8 = output;
        }
        check(xnn_run_operator(m_clamp.get(), m_pool), "xnn_run_operator (int8 clamp)");
    }
#else
    if (rebind(a, b, output)) {
        const size_t shape[1] = {m_count};
        EMBARK_XNN_CHECK(xnn_setup_add_nd_qs8, m_op.get(), 1, shape, 1, shape, a, b, output, m_pool);
    }
    runOperator();
#endif
}

QMaxPool2d::QMaxPool2d(const Context& context, std::string name, const Pool2dParams& params)
    : Layer(context, std::move(name), "int8 max pooling 2-D"), m_params(params) {
    failIf(detail::checkPool2d(params, true));
    const Pool2dParams& p = params;
#ifdef EMBARK_XNN_API_UPSTREAM
    EMBARK_XNN_CREATE(xnn_create_max_pooling2d_nhwc_s8, p.padTop, p.padRight, p.padBottom, p.padLeft, p.kernelHeight,
                      p.kernelWidth, p.strideHeight, p.strideWidth, p.dilationHeight, p.dilationWidth, INT8_MIN,
                      INT8_MAX, 0);
    EMBARK_XNN_CHECK(xnn_reshape_max_pooling2d_nhwc_s8, m_op.get(), p.batch, p.inputHeight, p.inputWidth, p.channels,
                     p.channels, p.channels, &m_outputHeight, &m_outputWidth, m_pool);
#else
    std::tie(m_outputHeight, m_outputWidth) = detail::windowOutputSize(p, p.dilationHeight, p.dilationWidth);
    EMBARK_XNN_CREATE(xnn_create_max_pooling2d_nhwc_s8, p.padTop, p.padRight, p.padBottom, p.padLeft, p.kernelHeight,
                      p.kernelWidth, p.strideHeight, p.strideWidth, p.dilationHeight, p.dilationWidth, p.channels,
                      p.channels, p.channels, INT8_MIN, INT8_MAX, 0);
#endif
}

void QMaxPool2d::forward(const int8_t* input, int8_t* output) {
#ifdef EMBARK_XNN_API_UPSTREAM
    if (rebind(input, nullptr, output)) EMBARK_XNN_CHECK(xnn_setup_max_pooling2d_nhwc_s8, m_op.get(), input, output);
#else
    if (rebind(input, nullptr, output))
        EMBARK_XNN_CHECK(xnn_setup_max_pooling2d_nhwc_s8, m_op.get(), m_params.batch, m_params.inputHeight,
                         m_params.inputWidth, input, output, m_pool);
#endif
    runOperator();
}

} // namespace embark_xnn

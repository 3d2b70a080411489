#include "kernels.h"

#include <algorithm>
#include <cstring>

namespace embark::reference::detail {

Error unsupported(const ir::Node& node, const std::string& what) {
    return makeError(ErrorKind::Unsupported,
                     "node '" + node.name + "' (" + std::string(ir::opName(node.op)) + "): " + what);
}

Error invalid(const ir::Node& node, const std::string& what) {
    return makeError(ErrorKind::InvalidInput,
                     "node '" + node.name + "' (" + std::string(ir::opName(node.op)) + "): " + what);
}

const ir::Tensor* optionalInput(const Tensors& inputs, size_t i) {
    if (i >= inputs.size() || inputs[i].isNull()) return nullptr;
    return &inputs[i];
}

Expected<const ir::Tensor*> requiredInput(const ir::Node& node, const Tensors& inputs, size_t i) {
    if (const ir::Tensor* t = optionalInput(inputs, i)) return t;
    return invalid(node, "input " + std::to_string(i) + " is required but absent");
}

Expected<int64_t> normalizedAxis(const ir::Node& node, int64_t axis, int64_t rank) {
    const int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank)
        return invalid(node, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    return a;
}

std::vector<int64_t> stridesOf(const ir::Shape& shape) {
    std::vector<int64_t> s(shape.rank(), 1);
    for (int64_t i = static_cast<int64_t>(shape.rank()) - 2; i >= 0; --i)
        s[static_cast<size_t>(i)] = s[static_cast<size_t>(i) + 1] * shape[static_cast<size_t>(i) + 1];
    return s;
}

Expected<ir::Shape> broadcastShapes(const ir::Node& node, const std::vector<ir::Shape>& shapes) {
    size_t rank = 0;
    for (const ir::Shape& s : shapes) rank = std::max(rank, s.rank());
    std::vector<int64_t> out(rank, 1);
    for (const ir::Shape& s : shapes) {
        const size_t offset = rank - s.rank();
        for (size_t i = 0; i < s.rank(); ++i) {
            int64_t& o = out[offset + i];
            const int64_t d = s[i];
            if (d == o || d == 1) continue;
            if (o == 1) {
                o = d;
                continue;
            }
            std::string list;
            for (const ir::Shape& t : shapes) list += (list.empty() ? "" : ", ") + t.str();
            return invalid(node, "shapes " + list + " cannot be broadcast together");
        }
    }
    return ir::Shape(out);
}

std::vector<int64_t> broadcastIndex(const ir::Shape& in, const ir::Shape& out) {
    if (in == out) return {};
    const size_t rank = out.rank();
    const size_t offset = rank - in.rank();
    // Stride of each output axis in the input (0 where the input is broadcast).
    std::vector<int64_t> inStrides = stridesOf(in);
    std::vector<int64_t> stride(rank, 0);
    for (size_t i = 0; i < in.rank(); ++i) stride[offset + i] = in[i] == 1 ? 0 : inStrides[i];
    const int64_t n = out.numel();
    std::vector<int64_t> index(static_cast<size_t>(n));
    if (n == 0) return index;
    std::vector<int64_t> counter(rank, 0);
    int64_t pos = 0;
    const int64_t inner = rank ? out[rank - 1] : 1;
    const int64_t innerStride = rank ? stride[rank - 1] : 0;
    for (int64_t i = 0; i < n; i += inner) {
        for (int64_t j = 0; j < inner; ++j) index[static_cast<size_t>(i + j)] = pos + j * innerStride;
        // advance the counter over the outer axes
        for (int64_t axis = static_cast<int64_t>(rank) - 2; axis >= 0; --axis) {
            const size_t a = static_cast<size_t>(axis);
            pos += stride[a];
            if (++counter[a] < out[a]) break;
            pos -= stride[a] * out[a];
            counter[a] = 0;
        }
    }
    return index;
}

std::vector<double> toDoubles(const ir::Tensor& t) {
    const int64_t n = t.numel();
    std::vector<double> v(static_cast<size_t>(n));
    if (t.dtype() == ir::DType::Float32) {
        const float* p = t.as<float>();
        for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = p[i];
    } else {
        for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = t.at(i);
    }
    return v;
}

namespace {
template <typename T>
void storeInts(ir::Tensor& t, const std::vector<double>& values) {
    T* p = t.mutableAs<T>();
    for (size_t i = 0; i < values.size(); ++i) {
        const double d = values[i];
        // Out-of-range conversions are undefined in C++; saturate NaN to 0 like most runtimes.
        p[i] = d != d ? T(0) : static_cast<T>(static_cast<int64_t>(d));
    }
}
} // namespace

ir::Tensor fromDoubles(ir::DType dtype, ir::Shape shape, const std::vector<double>& values) {
    ir::Tensor t(dtype, std::move(shape));
    switch (dtype) {
    case ir::DType::Float32: {
        float* p = t.mutableAs<float>();
        for (size_t i = 0; i < values.size(); ++i) p[i] = static_cast<float>(values[i]);
        break;
    }
    case ir::DType::Float64: // an empty vector may have no storage: memcpy from nullptr is undefined
        if (!values.empty()) std::memcpy(t.mutableData(), values.data(), values.size() * 8);
        break;
    case ir::DType::Float16: {
        uint16_t* p = t.mutableAs<uint16_t>();
        for (size_t i = 0; i < values.size(); ++i) p[i] = ir::floatToHalf(static_cast<float>(values[i]));
        break;
    }
    case ir::DType::Int8: storeInts<int8_t>(t, values); break;
    case ir::DType::Int16: storeInts<int16_t>(t, values); break;
    case ir::DType::Int32: storeInts<int32_t>(t, values); break;
    case ir::DType::Int64: storeInts<int64_t>(t, values); break;
    case ir::DType::UInt8: storeInts<uint8_t>(t, values); break;
    case ir::DType::UInt16: storeInts<uint16_t>(t, values); break;
    case ir::DType::UInt32: storeInts<uint32_t>(t, values); break;
    case ir::DType::UInt64: {
        uint64_t* p = t.mutableAs<uint64_t>();
        for (size_t i = 0; i < values.size(); ++i) p[i] = values[i] > 0 ? static_cast<uint64_t>(values[i]) : 0;
        break;
    }
    case ir::DType::Bool: {
        uint8_t* p = t.mutableAs<uint8_t>();
        for (size_t i = 0; i < values.size(); ++i) p[i] = values[i] != 0.0 ? 1 : 0;
        break;
    }
    default: break;
    }
    return t;
}

ir::Tensor withShape(const ir::Tensor& t, ir::Shape shape) { return t.reshaped(std::move(shape)); }

ir::Tensor gatherByIndex(const ir::Tensor& src, ir::Shape outShape, const std::vector<int64_t>& index) {
    ir::Tensor out(src.dtype(), std::move(outShape));
    const size_t size = ir::dtypeSize(src.dtype());
    auto* dst = static_cast<char*>(out.mutableData());
    const auto* from = static_cast<const char*>(src.data());
    switch (size) {
    case 4: {
        auto* d = reinterpret_cast<uint32_t*>(dst);
        const auto* s = reinterpret_cast<const uint32_t*>(from);
        for (size_t i = 0; i < index.size(); ++i) d[i] = s[index[i]];
        break;
    }
    case 8: {
        auto* d = reinterpret_cast<uint64_t*>(dst);
        const auto* s = reinterpret_cast<const uint64_t*>(from);
        for (size_t i = 0; i < index.size(); ++i) d[i] = s[index[i]];
        break;
    }
    default:
        for (size_t i = 0; i < index.size(); ++i)
            std::memcpy(dst + i * size, from + static_cast<size_t>(index[i]) * size, size);
    }
    return out;
}

ir::Tensor transposeView(const ir::Tensor& src, const ir::Shape& view, const std::vector<int64_t>& perm) {
    const size_t rank = view.rank();
    const std::vector<int64_t> inStrides = stridesOf(view);
    std::vector<int64_t> outDims(rank), stride(rank);
    for (size_t i = 0; i < rank; ++i) {
        outDims[i] = view[static_cast<size_t>(perm[i])];
        stride[i] = inStrides[static_cast<size_t>(perm[i])];
    }
    const ir::Shape outShape(outDims);
    const int64_t n = outShape.numel();
    std::vector<int64_t> index(static_cast<size_t>(n));
    std::vector<int64_t> counter(rank, 0);
    int64_t pos = 0;
    for (int64_t i = 0; i < n; ++i) {
        index[static_cast<size_t>(i)] = pos;
        for (int64_t axis = static_cast<int64_t>(rank) - 1; axis >= 0; --axis) {
            const size_t a = static_cast<size_t>(axis);
            pos += stride[a];
            if (++counter[a] < outDims[a]) break;
            pos -= stride[a] * outDims[a];
            counter[a] = 0;
        }
    }
    return gatherByIndex(src, outShape, index);
}

ir::Tensor int64Vector(const std::vector<int64_t>& values) {
    return ir::Tensor::fromInt64s(ir::Shape{static_cast<int64_t>(values.size())}, values);
}

} // namespace embark::reference::detail

namespace embark::reference::detail {

Expected<SpatialGeometry> spatialGeometry(const ir::Node& node, const std::vector<int64_t>& in,
                                          const std::vector<int64_t>& kernel, bool ceilMode) {
    const size_t n = in.size();
    SpatialGeometry g;
    g.kernel = kernel;
    g.strides = node.attrInts("strides", std::vector<int64_t>(n, 1));
    g.dilations = node.attrInts("dilations", std::vector<int64_t>(n, 1));
    std::vector<int64_t> pads = node.attrInts("pads", std::vector<int64_t>(2 * n, 0));
    if (g.kernel.size() != n || g.strides.size() != n || g.dilations.size() != n || pads.size() != 2 * n)
        return invalid(node, "kernel_shape, strides, dilations and pads must match the " + std::to_string(n) +
                                 " spatial dimensions");
    const std::string autoPad = node.attrString("auto_pad", "NOTSET");
    g.padBegin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(n));
    g.padEnd.assign(pads.begin() + static_cast<std::ptrdiff_t>(n), pads.end());
    g.out.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const int64_t s = g.strides[i], d = g.dilations[i], k = g.kernel[i];
        if (s <= 0 || d <= 0 || k <= 0) return invalid(node, "kernel, strides and dilations must be positive");
        const int64_t window = (k - 1) * d + 1;
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            g.out[i] = (in[i] + s - 1) / s;
            const int64_t total = std::max<int64_t>(0, (g.out[i] - 1) * s + window - in[i]);
            g.padBegin[i] = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
            g.padEnd[i] = total - g.padBegin[i];
            continue;
        }
        if (autoPad == "VALID") {
            g.padBegin[i] = g.padEnd[i] = 0;
        } else if (autoPad != "NOTSET") {
            return unsupported(node, "auto_pad '" + autoPad + "' is not supported");
        }
        if (g.padBegin[i] < 0 || g.padEnd[i] < 0) return invalid(node, "pads must not be negative");
        const int64_t span = in[i] + g.padBegin[i] + g.padEnd[i] - window;
        if (span < 0)
            return invalid(node, "the window (" + std::to_string(window) + ") is larger than the padded input (" +
                                     std::to_string(in[i] + g.padBegin[i] + g.padEnd[i]) + ")");
        g.out[i] = (ceilMode ? (span + s - 1) / s : span / s) + 1;
        // A last window that would start inside the end padding is dropped (PyTorch/ONNX).
        if (ceilMode && (g.out[i] - 1) * s >= in[i] + g.padBegin[i]) --g.out[i];
    }
    return g;
}

} // namespace embark::reference::detail

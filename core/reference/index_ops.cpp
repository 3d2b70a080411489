// Indexing, scatter and selection kernels for any dtype: ScatterND, ScatterElements (with
// reduction), GatherElements, GatherND, TopK, CumSum, OneHot, Trilu, BitShift,
// NonMaxSuppression, Unique, Compress, NonZero, ReverseSequence and MaxUnpool. Elements move
// by bytes; reductions run in the element type itself.
#include "kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace embark::reference::detail {
namespace {

using ir::DType;
using ir::OpKind;
using ir::Shape;

// Calls f(T{}) with T the C++ type of a numeric dtype (float16 travels as float).
template <typename F>
auto withType(DType t, F&& f) {
    switch (t) {
    case DType::Float64: return f(double{});
    case DType::Int8: return f(int8_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Int64: return f(int64_t{});
    case DType::UInt8:
    case DType::Bool: return f(uint8_t{});
    case DType::UInt16: return f(uint16_t{});
    case DType::UInt32: return f(uint32_t{});
    case DType::UInt64: return f(uint64_t{});
    default: return f(float{});
    }
}

// Index `i` of a dimension of size `dim`, negative from the end, or an error naming the node.
Expected<int64_t> normalizedIndex(const ir::Node& node, int64_t i, int64_t dim, const char* what) {
    if (i < -dim || i >= dim)
        return invalid(node, std::string(what) + " index " + std::to_string(i) + " is out of range [" +
                                 std::to_string(-dim) + ", " + std::to_string(dim) + ")");
    return i < 0 ? i + dim : i;
}

enum class Reduction { None, Add, Mul, Max, Min };

Expected<Reduction> reductionOf(const ir::Node& node) {
    const std::string r = node.attrString("reduction", "none");
    if (r == "none") return Reduction::None;
    if (r == "add") return Reduction::Add;
    if (r == "mul") return Reduction::Mul;
    if (r == "max") return Reduction::Max;
    if (r == "min") return Reduction::Min;
    return unsupported(node, "reduction '" + r + "' is not supported (none, add, mul, max, min)");
}

// out[dst[i]] (reduction)= updates[i], in order, so later duplicates win or accumulate.
Expected<Tensors> scatterFlat(const ir::Node& node, const ir::Tensor& data, const ir::Tensor& updates,
                              const std::vector<int64_t>& dst, int64_t block) {
    Expected<Reduction> red = reductionOf(node);
    if (!red) return red.error();
    if (updates.dtype() != data.dtype()) return invalid(node, "updates must have the dtype of data");
    ir::Tensor out = data.castTo(data.dtype() == DType::Float16 ? DType::Float32 : data.dtype());
    const ir::Tensor upd = updates.castTo(out.dtype());
    withType(out.dtype(), [&](auto tag) {
        using T = decltype(tag);
        T* o = out.mutableAs<T>();
        const T* u = upd.as<T>();
        for (size_t i = 0; i < dst.size(); ++i)
            for (int64_t k = 0; k < block; ++k) {
                T& a = o[dst[i] + k];
                const T b = u[static_cast<int64_t>(i) * block + k];
                switch (*red) {
                case Reduction::None: a = b; break;
                case Reduction::Add: a = static_cast<T>(a + b); break;
                case Reduction::Mul: a = static_cast<T>(a * b); break;
                case Reduction::Max: a = std::max(a, b); break;
                case Reduction::Min: a = std::min(a, b); break;
                }
            }
        return 0;
    });
    return Tensors{out.castTo(data.dtype())};
}

Expected<Tensors> scatterND(const ir::Node& node, const ir::Tensor& data, const ir::Tensor& indices,
                            const ir::Tensor& updates) {
    const Shape& ds = data.shape();
    const Shape& is = indices.shape();
    if (is.rank() == 0) return invalid(node, "indices must have rank >= 1");
    const size_t k = static_cast<size_t>(is[is.rank() - 1]);
    if (k > ds.rank())
        return invalid(node, "indices' last dim " + std::to_string(k) + " exceeds the rank of data " + ds.str());
    std::vector<int64_t> want(is.dims().begin(), is.dims().end() - 1);
    for (size_t d = k; d < ds.rank(); ++d) want.push_back(ds[d]);
    if (updates.shape() != Shape(want))
        return invalid(node, "updates have shape " + updates.shape().str() + ", expected " + Shape(want).str());
    const std::vector<int64_t> strides = stridesOf(ds);
    int64_t inner = 1;
    for (size_t d = k; d < ds.rank(); ++d) inner *= ds[d];
    const std::vector<int64_t> idx = indices.toInt64Vector();
    const int64_t count = Shape(std::vector<int64_t>(is.dims().begin(), is.dims().end() - 1)).numel();
    std::vector<int64_t> dst(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
        int64_t pos = 0;
        for (size_t j = 0; j < k; ++j) {
            Expected<int64_t> v = normalizedIndex(node, idx[static_cast<size_t>(i) * k + j], ds[j], "ScatterND");
            if (!v) return v.error();
            pos += *v * strides[j];
        }
        dst[static_cast<size_t>(i)] = pos;
    }
    return scatterFlat(node, data, updates, dst, inner);
}

// For each element of `indices` (shape of the index tensor), the flat position in a tensor
// of shape `target` at the same coordinates but with coordinate `axis` replaced by the index.
Expected<std::vector<int64_t>> elementPositions(const ir::Node& node, const Shape& target, const ir::Tensor& indices,
                                                int64_t axis) {
    const Shape& is = indices.shape();
    if (is.rank() != target.rank())
        return invalid(node, "indices " + is.str() + " and data " + target.str() + " must have the same rank");
    const std::vector<int64_t> strides = stridesOf(target);
    const std::vector<int64_t> idx = indices.toInt64Vector();
    const size_t rank = is.rank();
    std::vector<int64_t> pos(idx.size()), counter(rank, 0);
    for (size_t i = 0; i < idx.size(); ++i) {
        int64_t p = 0;
        for (size_t d = 0; d < rank; ++d) {
            if (static_cast<int64_t>(d) == axis) {
                Expected<int64_t> v = normalizedIndex(node, idx[i], target[d], "element");
                if (!v) return v.error();
                p += *v * strides[d];
            } else {
                if (counter[d] >= target[d])
                    return invalid(node, "indices " + is.str() + " exceed data " + target.str() + " outside the axis");
                p += counter[d] * strides[d];
            }
        }
        pos[i] = p;
        for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
            if (++counter[static_cast<size_t>(d)] < is[static_cast<size_t>(d)]) break;
            counter[static_cast<size_t>(d)] = 0;
        }
    }
    return pos;
}

Expected<Tensors> scatterElements(const ir::Node& node, const ir::Tensor& data, const ir::Tensor& indices,
                                  const ir::Tensor& updates) {
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", 0), static_cast<int64_t>(data.shape().rank()));
    if (!axis) return axis.error();
    if (updates.shape() != indices.shape())
        return invalid(node,
                       "updates " + updates.shape().str() + " must have the shape of indices " + indices.shape().str());
    Expected<std::vector<int64_t>> pos = elementPositions(node, data.shape(), indices, *axis);
    if (!pos) return pos.error();
    return scatterFlat(node, data, updates, *pos, 1);
}

Expected<Tensors> gatherElements(const ir::Node& node, const ir::Tensor& data, const ir::Tensor& indices) {
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", 0), static_cast<int64_t>(data.shape().rank()));
    if (!axis) return axis.error();
    Expected<std::vector<int64_t>> pos = elementPositions(node, data.shape(), indices, *axis);
    if (!pos) return pos.error();
    return Tensors{gatherByIndex(data, indices.shape(), *pos)};
}

Expected<Tensors> gatherND(const ir::Node& node, const ir::Tensor& data, const ir::Tensor& indices) {
    const Shape& ds = data.shape();
    const Shape& is = indices.shape();
    const int64_t b = node.attrInt("batch_dims", 0);
    if (is.rank() == 0) return invalid(node, "indices must have rank >= 1");
    const size_t k = static_cast<size_t>(is[is.rank() - 1]);
    if (b < 0 || static_cast<size_t>(b) >= is.rank() || b + k > ds.rank())
        return invalid(node,
                       "batch_dims " + std::to_string(b) + " and indices " + is.str() + " do not fit data " + ds.str());
    const size_t bd = static_cast<size_t>(b);
    int64_t batch = 1;
    for (size_t d = 0; d < bd; ++d) {
        if (ds[d] != is[d])
            return invalid(node, "the batch dims of data " + ds.str() + " and indices " + is.str() + " differ");
        batch *= ds[d];
    }
    std::vector<int64_t> outDims(is.dims().begin(), is.dims().end() - 1);
    int64_t inner = 1, perBatch = 1;
    for (size_t d = bd + k; d < ds.rank(); ++d) {
        inner *= ds[d];
        outDims.push_back(ds[d]);
    }
    for (size_t d = bd; d < ds.rank(); ++d) perBatch *= ds[d];
    const std::vector<int64_t> strides = stridesOf(ds);
    const std::vector<int64_t> idx = indices.toInt64Vector();
    const int64_t tuples = Shape(std::vector<int64_t>(is.dims().begin(), is.dims().end() - 1)).numel();
    const int64_t tuplesPerBatch = batch ? tuples / batch : 0;
    std::vector<int64_t> index;
    index.reserve(static_cast<size_t>(tuples * inner));
    for (int64_t t = 0; t < tuples; ++t) {
        int64_t pos = (tuplesPerBatch ? t / tuplesPerBatch : 0) * perBatch;
        for (size_t j = 0; j < k; ++j) {
            Expected<int64_t> v = normalizedIndex(node, idx[static_cast<size_t>(t) * k + j], ds[bd + j], "GatherND");
            if (!v) return v.error();
            pos += *v * strides[bd + j];
        }
        for (int64_t e = 0; e < inner; ++e) index.push_back(pos + e);
    }
    return Tensors{gatherByIndex(data, Shape(outDims), index)};
}

Expected<Tensors> topK(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& kT) {
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", -1), rank);
    if (!axis) return axis.error();
    if (kT.numel() != 1) return invalid(node, "K must hold one value");
    const int64_t k = kT.intAt(0);
    const size_t a = static_cast<size_t>(*axis);
    const int64_t len = x.shape()[a];
    if (k < 0 || k > len)
        return invalid(node, "K = " + std::to_string(k) + " is outside [0, " + std::to_string(len) + "]");
    const bool largest = node.attrInt("largest", 1) != 0;
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < x.shape().rank(); ++d) {
        if (d < a) outer *= x.shape()[d];
        if (d > a) inner *= x.shape()[d];
    }
    Shape outShape = x.shape();
    outShape[a] = k;
    const std::vector<double> v = toDoubles(x);
    std::vector<int64_t> from, picked;
    from.reserve(static_cast<size_t>(outShape.numel()));
    picked.reserve(from.capacity());
    std::vector<int64_t> order(static_cast<size_t>(len));
    // Output order [outer][k][inner]; equal values keep the lower index first (ONNX).
    std::vector<int64_t> slots(static_cast<size_t>(outShape.numel()));
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            std::iota(order.begin(), order.end(), 0);
            const auto at = [&](int64_t j) { return v[static_cast<size_t>((o * len + j) * inner + i)]; };
            std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) {
                const double vp = at(p), vq = at(q);
                if (std::isnan(vp) || std::isnan(vq)) return std::isnan(vp) && !std::isnan(vq) && largest;
                return largest ? vp > vq : vp < vq;
            });
            for (int64_t j = 0; j < k; ++j)
                slots[static_cast<size_t>((o * k + j) * inner + i)] = order[static_cast<size_t>(j)];
        }
    std::vector<int64_t> index(slots.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < k; ++j)
            for (int64_t i = 0; i < inner; ++i) {
                const size_t s = static_cast<size_t>((o * k + j) * inner + i);
                index[s] = (o * len + slots[s]) * inner + i;
            }
    return Tensors{gatherByIndex(x, outShape, index), ir::Tensor::fromInt64s(outShape, slots)};
}

Expected<Tensors> cumSum(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& axisT) {
    if (axisT.numel() != 1) return invalid(node, "axis must be a scalar");
    Expected<int64_t> axis = normalizedAxis(node, axisT.intAt(0), static_cast<int64_t>(x.shape().rank()));
    if (!axis) return axis.error();
    const bool exclusive = node.attrInt("exclusive", 0) != 0, reverse = node.attrInt("reverse", 0) != 0;
    const size_t a = static_cast<size_t>(*axis);
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < x.shape().rank(); ++d) {
        if (d < a) outer *= x.shape()[d];
        if (d > a) inner *= x.shape()[d];
    }
    const int64_t len = x.shape()[a];
    ir::Tensor out = x.castTo(x.dtype() == DType::Float16 ? DType::Float32 : x.dtype());
    withType(out.dtype(), [&](auto tag) {
        using T = decltype(tag);
        using Acc = std::conditional_t<std::is_floating_point_v<T>, double, T>;
        const T* in = x.dtype() == out.dtype() ? x.as<T>() : nullptr;
        const ir::Tensor copy = out;
        if (!in) in = copy.as<T>();
        T* y = out.mutableAs<T>();
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t i = 0; i < inner; ++i) {
                Acc sum = 0;
                for (int64_t s = 0; s < len; ++s) {
                    const int64_t j = reverse ? len - 1 - s : s;
                    const int64_t p = (o * len + j) * inner + i;
                    const T v = in[p];
                    if (!exclusive) sum = static_cast<Acc>(sum + v);
                    y[p] = static_cast<T>(sum);
                    if (exclusive) sum = static_cast<Acc>(sum + v);
                }
            }
        return 0;
    });
    return Tensors{out.castTo(x.dtype())};
}

Expected<Tensors> oneHot(const ir::Node& node, const ir::Tensor& indices, const ir::Tensor& depthT,
                         const ir::Tensor& values) {
    if (depthT.numel() != 1) return invalid(node, "depth must hold one value");
    if (values.numel() != 2) return invalid(node, "values must hold [off_value, on_value]");
    const int64_t depth = static_cast<int64_t>(depthT.at(0));
    if (depth <= 0) return invalid(node, "depth must be positive, not " + std::to_string(depth));
    const int64_t outRank = static_cast<int64_t>(indices.shape().rank()) + 1;
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", -1), outRank);
    if (!axis) return axis.error();
    std::vector<int64_t> dims = indices.shape().dims();
    dims.insert(dims.begin() + *axis, depth);
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < static_cast<int64_t>(indices.shape().rank()); ++d)
        (d < *axis ? outer : inner) *= indices.shape()[static_cast<size_t>(d)];
    // Element 0 of `values` is off, element 1 on: gather from them.
    std::vector<int64_t> index(static_cast<size_t>(outer * depth * inner), 0);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            int64_t hot = static_cast<int64_t>(indices.at(o * inner + i));
            if (hot < 0) hot += depth;
            if (hot >= 0 && hot < depth) index[static_cast<size_t>((o * depth + hot) * inner + i)] = 1;
        }
    return Tensors{gatherByIndex(values.reshaped(Shape{2}), Shape(dims), index)};
}

Expected<Tensors> trilu(const ir::Node& node, const ir::Tensor& x, const ir::Tensor* kT) {
    const Shape& s = x.shape();
    if (s.rank() < 2) return invalid(node, "input must have rank >= 2, not " + s.str());
    const int64_t k = kT ? kT->intAt(0) : 0;
    const bool upper = node.attrInt("upper", 1) != 0;
    const int64_t rows = s[s.rank() - 2], cols = s[s.rank() - 1];
    ir::Tensor out(x.dtype(), s);
    const size_t size = ir::dtypeSize(x.dtype());
    const auto* src = static_cast<const char*>(x.data());
    auto* dst = static_cast<char*>(out.mutableData());
    const int64_t n = s.numel();
    for (int64_t p = 0; p < n; ++p) {
        const int64_t j = p % cols, i = (p / cols) % rows;
        const bool keep = upper ? j - i >= k : j - i <= k;
        if (keep) std::memcpy(dst + static_cast<size_t>(p) * size, src + static_cast<size_t>(p) * size, size);
    }
    return Tensors{out};
}

Expected<Tensors> bitShift(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& y) {
    const std::string dir = node.attrString("direction", "");
    if (dir != "LEFT" && dir != "RIGHT") return invalid(node, "direction must be LEFT or RIGHT, not '" + dir + "'");
    if (x.dtype() != y.dtype() || !ir::isInteger(x.dtype()))
        return unsupported(node, "BitShift takes two unsigned integer tensors of one dtype");
    Expected<Shape> outShape = broadcastShapes(node, {x.shape(), y.shape()});
    if (!outShape) return outShape.error();
    const std::vector<int64_t> ix = broadcastIndex(x.shape(), *outShape), iy = broadcastIndex(y.shape(), *outShape);
    ir::Tensor out(x.dtype(), *outShape);
    withType(x.dtype(), [&](auto tag) {
        using T = decltype(tag);
        using U = std::make_unsigned_t<std::conditional_t<std::is_floating_point_v<T>, int, T>>;
        const T* a = x.as<T>();
        const T* b = y.as<T>();
        T* o = out.mutableAs<T>();
        constexpr int bits = static_cast<int>(sizeof(T) * 8);
        for (int64_t i = 0; i < outShape->numel(); ++i) {
            const U v = static_cast<U>(a[ix.empty() ? i : ix[static_cast<size_t>(i)]]);
            const U sh = static_cast<U>(b[iy.empty() ? i : iy[static_cast<size_t>(i)]]);
            // Shifting by the width or more is undefined in C++; ONNX gives 0.
            const U r = sh >= static_cast<U>(bits) ? U(0)
                        : dir == "LEFT"            ? static_cast<U>(v << sh)
                                                   : static_cast<U>(v >> sh);
            o[i] = static_cast<T>(r);
        }
        return 0;
    });
    return Tensors{out};
}

struct Box {
    double y1, x1, y2, x2;
};

double iou(const Box& a, const Box& b) {
    const double areaA = (a.y2 - a.y1) * (a.x2 - a.x1), areaB = (b.y2 - b.y1) * (b.x2 - b.x1);
    if (areaA <= 0 || areaB <= 0) return 0;
    const double ih = std::max(0.0, std::min(a.y2, b.y2) - std::max(a.y1, b.y1));
    const double iw = std::max(0.0, std::min(a.x2, b.x2) - std::max(a.x1, b.x1));
    const double inter = ih * iw;
    return inter / (areaA + areaB - inter);
}

Expected<Tensors> nonMaxSuppression(const ir::Node& node, const Tensors& inputs) {
    Expected<const ir::Tensor*> boxesT = requiredInput(node, inputs, 0), scoresT = requiredInput(node, inputs, 1);
    if (!boxesT) return boxesT.error();
    if (!scoresT) return scoresT.error();
    const Shape& bs = (*boxesT)->shape();
    const Shape& ss = (*scoresT)->shape();
    if (bs.rank() != 3 || bs[2] != 4 || ss.rank() != 3 || ss[0] != bs[0] || ss[2] != bs[1])
        return invalid(node, "boxes " + bs.str() + " must be [batch, boxes, 4] and scores " + ss.str() +
                                 " [batch, classes, boxes]");
    const ir::Tensor* maxT = optionalInput(inputs, 2);
    const ir::Tensor* iouT = optionalInput(inputs, 3);
    const ir::Tensor* scoreT = optionalInput(inputs, 4);
    const int64_t maxPerClass = maxT && maxT->numel() ? maxT->intAt(0) : 0;
    const double iouThreshold = iouT && iouT->numel() ? iouT->at(0) : 0.0;
    const bool centered = node.attrInt("center_point_box", 0) != 0;
    const std::vector<double> b = toDoubles(**boxesT), s = toDoubles(**scoresT);
    const int64_t batches = bs[0], n = bs[1], classes = ss[1];
    std::vector<int64_t> selected;
    for (int64_t bi = 0; bi < batches; ++bi) {
        std::vector<Box> boxes(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
            const double* p = &b[static_cast<size_t>((bi * n + i) * 4)];
            Box& box = boxes[static_cast<size_t>(i)];
            if (centered)
                box = {p[1] - p[3] / 2, p[0] - p[2] / 2, p[1] + p[3] / 2, p[0] + p[2] / 2};
            else
                box = {std::min(p[0], p[2]), std::min(p[1], p[3]), std::max(p[0], p[2]), std::max(p[1], p[3])};
        }
        for (int64_t c = 0; c < classes; ++c) {
            const double* sc = &s[static_cast<size_t>((bi * classes + c) * n)];
            std::vector<int64_t> order;
            for (int64_t i = 0; i < n; ++i)
                if (!scoreT || sc[i] > scoreT->at(0)) order.push_back(i);
            std::stable_sort(order.begin(), order.end(), [&](int64_t p, int64_t q) { return sc[p] > sc[q]; });
            std::vector<int64_t> kept;
            for (int64_t i : order) {
                if (static_cast<int64_t>(kept.size()) >= maxPerClass) break;
                bool keep = true;
                for (int64_t j : kept)
                    keep = keep && !(iou(boxes[static_cast<size_t>(i)], boxes[static_cast<size_t>(j)]) > iouThreshold);
                if (!keep) continue;
                kept.push_back(i);
                selected.insert(selected.end(), {bi, c, i});
            }
        }
    }
    return Tensors{ir::Tensor::fromInt64s(Shape{static_cast<int64_t>(selected.size() / 3), 3}, selected)};
}

// Slices j of `axis` ([outer][dim][inner]) as the flat positions they cover.
std::vector<int64_t> slicePositions(int64_t outer, int64_t dim, int64_t inner, const std::vector<int64_t>& picks) {
    std::vector<int64_t> index;
    index.reserve(static_cast<size_t>(outer * inner) * picks.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t j : picks)
            for (int64_t k = 0; k < inner; ++k) index.push_back((o * dim + j) * inner + k);
    return index;
}

Expected<Tensors> unique(const ir::Node& node, const ir::Tensor& x) {
    const bool hasAxis = node.has("axis");
    const bool sorted = node.attrInt("sorted", 1) != 0;
    const ir::Tensor t = hasAxis ? x : x.reshaped(Shape{x.numel()});
    const int64_t rank = static_cast<int64_t>(t.shape().rank());
    Expected<int64_t> axis =
        hasAxis ? normalizedAxis(node, node.attrInt("axis", 0), rank) : Expected<int64_t>(int64_t{0});
    if (!axis) return axis.error();
    const size_t a = static_cast<size_t>(*axis);
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < t.shape().rank(); ++d) {
        if (d < a) outer *= t.shape()[d];
        if (d > a) inner *= t.shape()[d];
    }
    const int64_t dim = t.shape()[a];
    const std::vector<double> v = toDoubles(t);
    std::vector<std::vector<double>> keys(static_cast<size_t>(dim));
    for (int64_t j = 0; j < dim; ++j)
        for (int64_t p : slicePositions(outer, dim, inner, {j}))
            keys[static_cast<size_t>(j)].push_back(v[static_cast<size_t>(p)]);
    std::vector<int64_t> firsts; // first occurrence of each distinct slice, in order of appearance
    std::vector<int64_t> inverse(static_cast<size_t>(dim));
    for (int64_t j = 0; j < dim; ++j) {
        auto it = std::find_if(firsts.begin(), firsts.end(),
                               [&](int64_t f) { return keys[static_cast<size_t>(f)] == keys[static_cast<size_t>(j)]; });
        if (it == firsts.end()) firsts.push_back(j);
    }
    if (sorted)
        std::stable_sort(firsts.begin(), firsts.end(), [&](int64_t p, int64_t q) {
            return keys[static_cast<size_t>(p)] < keys[static_cast<size_t>(q)];
        });
    std::vector<int64_t> counts(firsts.size(), 0);
    for (int64_t j = 0; j < dim; ++j)
        for (size_t u = 0; u < firsts.size(); ++u)
            if (keys[static_cast<size_t>(firsts[u])] == keys[static_cast<size_t>(j)]) {
                inverse[static_cast<size_t>(j)] = static_cast<int64_t>(u);
                ++counts[u];
                break;
            }
    Shape yShape = t.shape();
    yShape[a] = static_cast<int64_t>(firsts.size());
    const int64_t n = static_cast<int64_t>(firsts.size());
    return Tensors{gatherByIndex(t, yShape, slicePositions(outer, dim, inner, firsts)),
                   ir::Tensor::fromInt64s(Shape{n}, firsts), ir::Tensor::fromInt64s(Shape{dim}, inverse),
                   ir::Tensor::fromInt64s(Shape{n}, counts)};
}

Expected<Tensors> compress(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& condition) {
    const bool hasAxis = node.has("axis");
    const ir::Tensor t = hasAxis ? x : x.reshaped(Shape{x.numel()});
    Expected<int64_t> axis = hasAxis
                                 ? normalizedAxis(node, node.attrInt("axis", 0), static_cast<int64_t>(t.shape().rank()))
                                 : Expected<int64_t>(int64_t{0});
    if (!axis) return axis.error();
    const size_t a = static_cast<size_t>(*axis);
    const int64_t dim = t.shape()[a];
    if (condition.numel() > dim)
        return invalid(node, "condition has " + std::to_string(condition.numel()) + " values for an axis of " +
                                 std::to_string(dim));
    std::vector<int64_t> picks;
    for (int64_t j = 0; j < condition.numel(); ++j)
        if (condition.at(j) != 0) picks.push_back(j);
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < t.shape().rank(); ++d) {
        if (d < a) outer *= t.shape()[d];
        if (d > a) inner *= t.shape()[d];
    }
    Shape out = t.shape();
    out[a] = static_cast<int64_t>(picks.size());
    return Tensors{gatherByIndex(t, out, slicePositions(outer, dim, inner, picks))};
}

Expected<Tensors> nonZero(const ir::Tensor& x) {
    const Shape& s = x.shape();
    const std::vector<int64_t> strides = stridesOf(s);
    std::vector<int64_t> hits;
    for (int64_t i = 0; i < x.numel(); ++i)
        if (x.at(i) != 0) hits.push_back(i);
    const int64_t rank = static_cast<int64_t>(s.rank()), n = static_cast<int64_t>(hits.size());
    std::vector<int64_t> out(static_cast<size_t>(std::max<int64_t>(rank, 1) * n));
    for (int64_t k = 0; k < n; ++k)
        for (int64_t d = 0; d < rank; ++d)
            out[static_cast<size_t>(d * n + k)] =
                hits[static_cast<size_t>(k)] / strides[static_cast<size_t>(d)] % s[static_cast<size_t>(d)];
    return Tensors{ir::Tensor::fromInt64s(Shape{rank, n}, out)};
}

Expected<Tensors> reverseSequence(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& lensT) {
    const int64_t rank = static_cast<int64_t>(x.shape().rank());
    if (rank < 2) return invalid(node, "input must have rank >= 2, not " + x.shape().str());
    Expected<int64_t> batchAxis = normalizedAxis(node, node.attrInt("batch_axis", 1), rank);
    Expected<int64_t> timeAxis = normalizedAxis(node, node.attrInt("time_axis", 0), rank);
    if (!batchAxis) return batchAxis.error();
    if (!timeAxis) return timeAxis.error();
    const size_t b = static_cast<size_t>(*batchAxis), ta = static_cast<size_t>(*timeAxis);
    const std::vector<int64_t> lens = lensT.toInt64Vector();
    if (static_cast<int64_t>(lens.size()) != x.shape()[b])
        return invalid(node, "sequence_lens must hold one length per batch");
    const std::vector<int64_t> strides = stridesOf(x.shape());
    std::vector<int64_t> index(static_cast<size_t>(x.numel()));
    for (int64_t i = 0; i < x.numel(); ++i) {
        const int64_t bi = i / strides[b] % x.shape()[b], t = i / strides[ta] % x.shape()[ta];
        const int64_t len = std::clamp<int64_t>(lens[static_cast<size_t>(bi)], 0, x.shape()[ta]);
        index[static_cast<size_t>(i)] = t < len ? i + (len - 1 - 2 * t) * strides[ta] : i;
    }
    return Tensors{gatherByIndex(x, x.shape(), index)};
}

Expected<Tensors> maxUnpool(const ir::Node& node, const Tensors& inputs, const ir::Tensor& x,
                            const ir::Tensor& indices) {
    const Shape& xs = x.shape();
    if (xs.rank() < 3 || indices.shape() != xs) return invalid(node, "X must be [N, C, spatial...] and I of its shape");
    // Indices count in the shape MaxPool's input had (inferred from the attributes); an
    // output_shape larger than that keeps each element at the same coordinates.
    std::vector<int64_t> inferred = {xs[0], xs[1]};
    const size_t n = xs.rank() - 2;
    const std::vector<int64_t> k = node.attrInts("kernel_shape"),
                               st = node.attrInts("strides", std::vector<int64_t>(n, 1));
    const std::vector<int64_t> pads = node.attrInts("pads", std::vector<int64_t>(2 * n, 0));
    if (k.size() != n || st.size() != n || pads.size() != 2 * n)
        return invalid(node, "kernel_shape, strides and pads must match the spatial dims");
    for (size_t i = 0; i < n; ++i) inferred.push_back((xs[i + 2] - 1) * st[i] + k[i] - pads[i] - pads[i + n]);
    std::vector<int64_t> dims = inferred;
    if (const ir::Tensor* shapeT = optionalInput(inputs, 2)) dims = shapeT->toInt64Vector();
    if (dims.size() != inferred.size())
        return invalid(node, "output_shape must have rank " + std::to_string(inferred.size()));
    ir::Tensor out(x.dtype(), Shape(dims));
    const std::vector<int64_t> from = stridesOf(Shape(inferred)), to = stridesOf(out.shape());
    const size_t size = ir::dtypeSize(x.dtype());
    const std::vector<int64_t> idx = indices.toInt64Vector();
    for (size_t i = 0; i < idx.size(); ++i) {
        int64_t pos = 0;
        bool inside = idx[i] >= 0 && idx[i] < Shape(inferred).numel();
        for (size_t d = 0; d < inferred.size() && inside; ++d) {
            const int64_t c = idx[i] / from[d] % inferred[d];
            inside = c < dims[d];
            pos += c * to[d];
        }
        if (!inside)
            return invalid(node, "index " + std::to_string(idx[i]) + " is outside the output " + out.shape().str());
        std::memcpy(static_cast<char*>(out.mutableData()) + static_cast<size_t>(pos) * size,
                    static_cast<const char*>(x.data()) + i * size, size);
    }
    return Tensors{out};
}

} // namespace

Expected<Tensors> indexingKernel(const ir::Node& node, const Tensors& inputs) {
    if (node.op == OpKind::NonMaxSuppression) return nonMaxSuppression(node, inputs);
    if (node.op == OpKind::Unique || node.op == OpKind::NonZero) {
        Expected<const ir::Tensor*> x = requiredInput(node, inputs, 0);
        if (!x) return x.error();
        return node.op == OpKind::Unique ? unique(node, **x) : nonZero(**x);
    }
    std::vector<const ir::Tensor*> in;
    const size_t required =
        node.op == OpKind::ScatterND || node.op == OpKind::ScatterElements || node.op == OpKind::OneHot ? 3
        : node.op == OpKind::Trilu                                                                      ? 1
                                                                                                        : 2;
    for (size_t i = 0; i < required; ++i) {
        Expected<const ir::Tensor*> t = requiredInput(node, inputs, i);
        if (!t) return t.error();
        in.push_back(*t);
    }
    switch (node.op) {
    case OpKind::ScatterND: return scatterND(node, *in[0], *in[1], *in[2]);
    case OpKind::ScatterElements: return scatterElements(node, *in[0], *in[1], *in[2]);
    case OpKind::GatherElements: return gatherElements(node, *in[0], *in[1]);
    case OpKind::GatherND: return gatherND(node, *in[0], *in[1]);
    case OpKind::TopK: return topK(node, *in[0], *in[1]);
    case OpKind::CumSum: return cumSum(node, *in[0], *in[1]);
    case OpKind::OneHot: return oneHot(node, *in[0], *in[1], *in[2]);
    case OpKind::Trilu: return trilu(node, *in[0], optionalInput(inputs, 1));
    case OpKind::BitShift: return bitShift(node, *in[0], *in[1]);
    case OpKind::Compress: return compress(node, *in[0], *in[1]);
    case OpKind::ReverseSequence: return reverseSequence(node, *in[0], *in[1]);
    case OpKind::MaxUnpool: return maxUnpool(node, inputs, *in[0], *in[1]);
    default: return unsupported(node, "not an indexing op");
    }
}

} // namespace embark::reference::detail

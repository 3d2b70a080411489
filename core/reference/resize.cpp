// Resize (and the importer's normalised Upsample): nearest (every nearest_mode), linear and
// cubic, separably over every axis, with the coordinate transformation modes half_pixel,
// pytorch_half_pixel, align_corners, asymmetric and tf_crop_and_resize.
#include "kernels.h"

#include <cmath>

namespace embark::reference::detail {
namespace {

struct Tap {
    int64_t index;
    double weight;
};

// Taps of one output coordinate along one axis; `outside` marks tf_crop_and_resize
// coordinates that fall outside the input (they take extrapolation_value).
struct AxisTaps {
    std::vector<std::vector<Tap>> taps;
    std::vector<bool> outside;
};

std::vector<double> cubicCoefficients(double t, double a) {
    const double t1 = t + 1, t2 = 1 - t, t3 = 2 - t;
    return {((a * t1 - 5 * a) * t1 + 8 * a) * t1 - 4 * a, ((a + 2) * t - (a + 3)) * t * t + 1,
            ((a + 2) * t2 - (a + 3)) * t2 * t2 + 1, ((a * t3 - 5 * a) * t3 + 8 * a) * t3 - 4 * a};
}

struct Settings {
    std::string mode, transform, nearestMode;
    double cubicA = -0.75;
    bool excludeOutside = false;
};

Expected<AxisTaps> axisTaps(const ir::Node& node, const Settings& s, int64_t in, int64_t out, double scale,
                            double roiStart, double roiEnd) {
    AxisTaps r;
    r.taps.resize(static_cast<size_t>(out));
    r.outside.assign(static_cast<size_t>(out), false);
    // align_corners and tf_crop_and_resize use the unrounded output length in * scale (the
    // ONNX reference does), which differs from `out` when scales do not divide evenly.
    const double resized = static_cast<double>(in) * scale;
    for (int64_t o = 0; o < out; ++o) {
        const double x = static_cast<double>(o);
        double src;
        if (s.transform == "half_pixel")
            src = (x + 0.5) / scale - 0.5;
        else if (s.transform == "pytorch_half_pixel")
            src = out > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
        else if (s.transform == "align_corners")
            src = resized == 1 ? 0.0 : x * static_cast<double>(in - 1) / (resized - 1);
        else if (s.transform == "asymmetric")
            src = x / scale;
        else if (s.transform == "tf_half_pixel_for_nn")
            src = (x + 0.5) / scale;
        else if (s.transform == "tf_crop_and_resize") {
            src = resized > 1 ? roiStart * static_cast<double>(in - 1) +
                                    x * (roiEnd - roiStart) * static_cast<double>(in - 1) / (resized - 1)
                              : 0.5 * (roiStart + roiEnd) * static_cast<double>(in - 1);
            if (src < 0 || src > static_cast<double>(in - 1)) r.outside[static_cast<size_t>(o)] = true;
        } else {
            return unsupported(node, "coordinate_transformation_mode '" + s.transform + "' is not supported");
        }
        std::vector<Tap>& taps = r.taps[static_cast<size_t>(o)];
        auto clampIndex = [in](int64_t i) { return i < 0 ? int64_t{0} : (i >= in ? in - 1 : i); };
        if (s.mode == "nearest") {
            double f = std::floor(src);
            const double frac = src - f;
            int64_t i;
            if (s.nearestMode == "round_prefer_floor")
                i = static_cast<int64_t>(frac <= 0.5 ? f : f + 1);
            else if (s.nearestMode == "round_prefer_ceil")
                i = static_cast<int64_t>(frac < 0.5 ? f : f + 1);
            else if (s.nearestMode == "floor")
                i = static_cast<int64_t>(f);
            else if (s.nearestMode == "ceil")
                i = static_cast<int64_t>(std::ceil(src));
            else
                return unsupported(node, "nearest_mode '" + s.nearestMode + "' is not supported");
            taps.push_back({clampIndex(i), 1.0});
        } else if (s.mode == "linear") {
            const double c = std::fmin(std::fmax(src, 0.0), static_cast<double>(in - 1));
            const int64_t i0 = static_cast<int64_t>(std::floor(c));
            const double t = c - static_cast<double>(i0);
            taps.push_back({i0, 1 - t});
            if (t > 0) taps.push_back({clampIndex(i0 + 1), t});
        } else if (s.mode == "cubic") {
            const double f = std::floor(src);
            const std::vector<double> w = cubicCoefficients(src - f, s.cubicA);
            double total = 0;
            for (int k = 0; k < 4; ++k) {
                const int64_t i = static_cast<int64_t>(f) - 1 + k;
                if (s.excludeOutside && (i < 0 || i >= in)) continue;
                taps.push_back({clampIndex(i), w[static_cast<size_t>(k)]});
                total += w[static_cast<size_t>(k)];
            }
            if (s.excludeOutside && total != 0)
                for (Tap& t : taps) t.weight /= total;
        } else {
            return unsupported(node, "mode '" + s.mode + "' is not supported (nearest, linear, cubic)");
        }
    }
    return r;
}

} // namespace

Expected<Tensors> resizeKernel(const ir::Node& node, const Tensors& inputs) {
    EMBARK_TRY(requiredInput(node, inputs, 0));
    const ir::Tensor& x = inputs[0];
    const size_t rank = x.shape().rank();
    if (node.attrInt("antialias", 0) != 0) return unsupported(node, "antialias is not supported");
    const std::string policy = node.attrString("keep_aspect_ratio_policy", "stretch");
    if (policy != "stretch") return unsupported(node, "keep_aspect_ratio_policy '" + policy + "' is not supported");
    std::vector<int64_t> axes;
    for (int64_t a : node.attrInts("axes")) {
        Expected<int64_t> ax = normalizedAxis(node, a, static_cast<int64_t>(rank));
        if (!ax) return ax.error();
        axes.push_back(*ax);
    }
    if (axes.empty())
        for (size_t d = 0; d < rank; ++d) axes.push_back(static_cast<int64_t>(d));

    const ir::Tensor* roiT = optionalInput(inputs, 1);
    const ir::Tensor* scalesT = optionalInput(inputs, 2);
    const ir::Tensor* sizesT = optionalInput(inputs, 3);
    if (scalesT && scalesT->numel() == 0) scalesT = nullptr;
    if (sizesT && sizesT->numel() == 0) sizesT = nullptr;
    if (!scalesT == !sizesT) return invalid(node, "exactly one of scales and sizes must be given");
    std::vector<double> scales(rank, 1.0), roiStart(rank, 0.0), roiEnd(rank, 1.0);
    std::vector<int64_t> outDims = x.shape().dims();
    const ir::Tensor* given = scalesT ? scalesT : sizesT;
    if (given->numel() != static_cast<int64_t>(axes.size()))
        return invalid(node, std::string(scalesT ? "scales" : "sizes") + " has " + std::to_string(given->numel()) +
                                 " values for " + std::to_string(axes.size()) + " axes");
    for (size_t i = 0; i < axes.size(); ++i) {
        const size_t d = static_cast<size_t>(axes[i]);
        if (scalesT) {
            scales[d] = scalesT->at(static_cast<int64_t>(i));
            if (!(scales[d] > 0)) return invalid(node, "scales must be positive");
            outDims[d] = static_cast<int64_t>(std::floor(static_cast<double>(x.shape()[d]) * scales[d]));
        } else {
            outDims[d] = sizesT->intAt(static_cast<int64_t>(i));
            if (outDims[d] < 0) return invalid(node, "sizes must not be negative");
            scales[d] = x.shape()[d] ? static_cast<double>(outDims[d]) / static_cast<double>(x.shape()[d]) : 1.0;
        }
        if (roiT && roiT->numel() == static_cast<int64_t>(2 * axes.size())) {
            roiStart[d] = roiT->at(static_cast<int64_t>(i));
            roiEnd[d] = roiT->at(static_cast<int64_t>(i + axes.size()));
        }
    }
    Settings s;
    s.mode = node.attrString("mode", "nearest");
    s.transform = node.attrString("coordinate_transformation_mode", "half_pixel");
    s.nearestMode = node.attrString("nearest_mode", "round_prefer_floor");
    s.cubicA = node.attrFloat("cubic_coeff_a", -0.75f);
    s.excludeOutside = node.attrInt("exclude_outside", 0) != 0;
    const double extrapolation = node.attrFloat("extrapolation_value", 0.f);

    std::vector<AxisTaps> taps;
    for (size_t d = 0; d < rank; ++d) {
        if (x.shape()[d] == 0 && outDims[d] > 0) return invalid(node, "cannot resize an empty axis");
        Expected<AxisTaps> t = axisTaps(node, s, x.shape()[d], outDims[d], scales[d], roiStart[d], roiEnd[d]);
        if (!t) return t.error();
        taps.push_back(std::move(*t));
    }
    const ir::Shape outShape(outDims);
    ir::Tensor out(ir::DType::Float32, outShape);
    float* y = out.mutableAs<float>();
    const float* src = x.as<float>();
    const std::vector<int64_t> inStrides = stridesOf(x.shape());
    std::vector<int64_t> counter(rank, 0);
    const int64_t n = outShape.numel();
    for (int64_t i = 0; i < n; ++i) {
        bool outside = false;
        for (size_t d = 0; d < rank; ++d) outside = outside || taps[d].outside[static_cast<size_t>(counter[d])];
        double acc = 0;
        if (!outside) {
            // Sum over the cartesian product of every axis' taps.
            std::vector<size_t> pick(rank, 0);
            while (true) {
                double w = 1;
                int64_t pos = 0;
                for (size_t d = 0; d < rank; ++d) {
                    const Tap& t = taps[d].taps[static_cast<size_t>(counter[d])][pick[d]];
                    w *= t.weight;
                    pos += t.index * inStrides[d];
                }
                acc += w * src[pos];
                size_t d = rank;
                while (d > 0) {
                    --d;
                    if (++pick[d] < taps[d].taps[static_cast<size_t>(counter[d])].size()) break;
                    pick[d] = 0;
                    if (d == 0) {
                        d = rank + 1;
                        break;
                    }
                }
                if (d == rank + 1 || rank == 0) break;
            }
        }
        y[i] = static_cast<float>(outside ? extrapolation : acc);
        for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
            if (++counter[static_cast<size_t>(d)] < outDims[static_cast<size_t>(d)]) break;
            counter[static_cast<size_t>(d)] = 0;
        }
    }
    return Tensors{out};
}

} // namespace embark::reference::detail

// Sampling and spectral kernels on float data: GridSample (bilinear, nearest, bicubic; zeros,
// border, reflection padding), RoiAlign (avg, max), DFT and STFT (direct sums in double).
// Rounding and border rules follow ONNX Runtime's CPU kernels, which the ONNX tests match.
#include "kernels.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace embark::reference::detail {
namespace {

using ir::OpKind;
using ir::Shape;

// --- GridSample

double reflect(double x, double lo, double hi) {
    const double range = hi - lo;
    if (x < lo) {
        const double dx = lo - x;
        const int n = static_cast<int>(dx / range);
        const double r = dx - n * range;
        return n % 2 == 0 ? lo + r : hi - r;
    }
    if (x > hi) {
        const double dx = x - hi;
        const int n = static_cast<int>(dx / range);
        const double r = dx - n * range;
        return n % 2 == 0 ? hi - r : lo + r;
    }
    return x;
}

void cubicCoeffs(double x, double c[4]) {
    constexpr double A = -0.75;
    x = std::fabs(x);
    c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
    c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
    c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
    c[3] = ((A * (2 - x) - 5 * A) * (2 - x) + 8 * A) * (2 - x) - 4 * A;
}

Expected<Tensors> gridSample(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& grid) {
    const Shape& xs = x.shape();
    const Shape& gs = grid.shape();
    if (xs.rank() != 4 || gs.rank() != 4 || gs[0] != xs[0] || gs[3] != 2)
        return unsupported(node, "GridSample takes X [N, C, H, W] and grid [N, H_out, W_out, 2] (2-D sampling); got " +
                                     xs.str() + " and " + gs.str());
    std::string mode = node.attrString("mode", "bilinear");
    if (mode == "linear") mode = "bilinear"; // opset 20 names
    if (mode == "cubic") mode = "bicubic";
    const std::string padding = node.attrString("padding_mode", "zeros");
    if (mode != "bilinear" && mode != "nearest" && mode != "bicubic")
        return unsupported(node, "mode '" + mode + "' is not supported (bilinear, nearest, bicubic)");
    if (padding != "zeros" && padding != "border" && padding != "reflection")
        return unsupported(node, "padding_mode '" + padding + "' is not supported (zeros, border, reflection)");
    const bool align = node.attrInt("align_corners", 0) != 0;
    const int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3], Ho = gs[1], Wo = gs[2];
    const std::vector<double> in = toDoubles(x), g = toDoubles(grid);
    const double xMin = align ? 0 : -0.5, xMax = align ? W - 1.0 : W - 0.5;
    const double yMin = align ? 0 : -0.5, yMax = align ? H - 1.0 : H - 0.5;
    const auto denorm = [&](double v, int64_t len) {
        return align ? (v + 1) / 2 * (len - 1) : ((v + 1) * len - 1) / 2;
    };
    std::vector<double> out(static_cast<size_t>(N * C * Ho * Wo));
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c) {
            const double* img = &in[static_cast<size_t>((n * C + c) * H * W)];
            const auto pixel = [&](int64_t r, int64_t col) -> double {
                if (padding == "zeros") return r >= 0 && r < H && col >= 0 && col < W ? img[r * W + col] : 0.0;
                if (padding == "border") {
                    col = std::clamp<int64_t>(col, 0, W - 1);
                    r = std::clamp<int64_t>(r, 0, H - 1);
                } else {
                    col = static_cast<int64_t>(reflect(static_cast<double>(col), xMin, xMax));
                    r = static_cast<int64_t>(reflect(static_cast<double>(r), yMin, yMax));
                }
                return img[r * W + col];
            };
            for (int64_t oy = 0; oy < Ho; ++oy)
                for (int64_t ox = 0; ox < Wo; ++ox) {
                    const double* p = &g[static_cast<size_t>(((n * Ho + oy) * Wo + ox) * 2)];
                    double sx = denorm(p[0], W), sy = denorm(p[1], H);
                    if (mode == "nearest") {
                        sx = std::nearbyint(sx);
                        sy = std::nearbyint(sy);
                    }
                    if (sx < xMin || sx > xMax || sy < yMin || sy > yMax) {
                        if (padding == "border") {
                            sx = std::clamp(sx, 0.0, W - 1.0);
                            sy = std::clamp(sy, 0.0, H - 1.0);
                        } else if (padding == "reflection") {
                            sx = reflect(sx, xMin, xMax);
                            sy = reflect(sy, yMin, yMax);
                        }
                    }
                    double v = 0;
                    if (mode == "nearest") {
                        v = pixel(static_cast<int64_t>(sy), static_cast<int64_t>(sx));
                    } else if (mode == "bilinear") {
                        const int64_t x1 = static_cast<int64_t>(std::floor(sx)),
                                      y1 = static_cast<int64_t>(std::floor(sy));
                        const double dx1 = sx - x1, dx2 = x1 + 1 - sx, dy1 = sy - y1, dy2 = y1 + 1 - sy;
                        v = dy2 * (dx2 * pixel(y1, x1) + dx1 * pixel(y1, x1 + 1)) +
                            dy1 * (dx2 * pixel(y1 + 1, x1) + dx1 * pixel(y1 + 1, x1 + 1));
                    } else {
                        const int64_t x0 = static_cast<int64_t>(std::floor(sx)) - 1,
                                      y0 = static_cast<int64_t>(std::floor(sy)) - 1;
                        double cx[4], cy[4], rows[4];
                        cubicCoeffs(sx - x0 - 1, cx);
                        cubicCoeffs(sy - y0 - 1, cy);
                        for (int64_t h = 0; h < 4; ++h) {
                            rows[h] = 0;
                            for (int64_t w = 0; w < 4; ++w) rows[h] += cx[w] * pixel(y0 + h, x0 + w);
                        }
                        for (int64_t h = 0; h < 4; ++h) v += cy[h] * rows[h];
                    }
                    out[static_cast<size_t>(((n * C + c) * Ho + oy) * Wo + ox)] = v;
                }
        }
    return Tensors{fromDoubles(ir::DType::Float32, Shape{N, C, Ho, Wo}, out)};
}

// --- RoiAlign

Expected<Tensors> roiAlign(const ir::Node& node, const ir::Tensor& x, const ir::Tensor& roisT,
                           const ir::Tensor& batchT) {
    const Shape& xs = x.shape();
    if (xs.rank() != 4 || roisT.shape().rank() != 2 || roisT.shape()[1] != 4 || batchT.numel() != roisT.shape()[0])
        return invalid(node, "RoiAlign takes X [N, C, H, W], rois [R, 4] and batch_indices [R]; got " + xs.str() +
                                 ", " + roisT.shape().str() + " and " + batchT.shape().str());
    const std::string mode = node.attrString("mode", "avg");
    if (mode != "avg" && mode != "max") return unsupported(node, "mode '" + mode + "' is not supported (avg, max)");
    const std::string ctm = node.attrString("coordinate_transformation_mode", "half_pixel");
    if (ctm != "half_pixel" && ctm != "output_half_pixel")
        return unsupported(node, "coordinate_transformation_mode '" + ctm + "' is not supported");
    const int64_t ph = node.attrInt("output_height", 1), pw = node.attrInt("output_width", 1);
    const int64_t ratio = node.attrInt("sampling_ratio", 0);
    const double scale = node.attrFloat("spatial_scale", 1.0f);
    const int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3], R = roisT.shape()[0];
    const std::vector<double> in = toDoubles(x), rois = toDoubles(roisT);
    const std::vector<int64_t> batch = batchT.toInt64Vector();
    std::vector<double> out(static_cast<size_t>(R * C * ph * pw));
    const double offset = ctm == "half_pixel" ? 0.5 : 0.0;
    for (int64_t r = 0; r < R; ++r) {
        const int64_t b = batch[static_cast<size_t>(r)];
        if (b < 0 || b >= N)
            return invalid(node, "batch index " + std::to_string(b) + " is outside [0, " + std::to_string(N) + ")");
        const double* roi = &rois[static_cast<size_t>(r * 4)];
        const double x0 = roi[0] * scale - offset, y0 = roi[1] * scale - offset;
        double rw = roi[2] * scale - offset - x0, rh = roi[3] * scale - offset - y0;
        if (ctm != "half_pixel") {
            rw = std::max(rw, 1.0);
            rh = std::max(rh, 1.0);
        }
        const double binH = rh / static_cast<double>(ph), binW = rw / static_cast<double>(pw);
        const int64_t gridH = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rh / static_cast<double>(ph)));
        const int64_t gridW = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rw / static_cast<double>(pw)));
        const double count = static_cast<double>(std::max<int64_t>(gridH * gridW, 1));
        for (int64_t c = 0; c < C; ++c) {
            const double* img = &in[static_cast<size_t>((b * C + c) * H * W)];
            for (int64_t oy = 0; oy < ph; ++oy)
                for (int64_t ox = 0; ox < pw; ++ox) {
                    double acc = 0;
                    bool first = true;
                    for (int64_t iy = 0; iy < gridH; ++iy) {
                        double y = y0 + oy * binH + (iy + 0.5) * binH / static_cast<double>(gridH);
                        for (int64_t ix = 0; ix < gridW; ++ix) {
                            double xx = x0 + ox * binW + (ix + 0.5) * binW / static_cast<double>(gridW);
                            double w[4] = {0, 0, 0, 0};
                            int64_t pos[4] = {0, 0, 0, 0};
                            if (!(y < -1.0 || y > H || xx < -1.0 || xx > W)) {
                                double yy = std::max(y, 0.0), xc = std::max(xx, 0.0);
                                int64_t yl = static_cast<int64_t>(yy), xl = static_cast<int64_t>(xc), yh, xh;
                                if (yl >= H - 1) {
                                    yh = yl = H - 1;
                                    yy = static_cast<double>(yl);
                                } else
                                    yh = yl + 1;
                                if (xl >= W - 1) {
                                    xh = xl = W - 1;
                                    xc = static_cast<double>(xl);
                                } else
                                    xh = xl + 1;
                                const double ly = yy - yl, lx = xc - xl, hy = 1 - ly, hx = 1 - lx;
                                w[0] = hy * hx, w[1] = hy * lx, w[2] = ly * hx, w[3] = ly * lx;
                                pos[0] = yl * W + xl, pos[1] = yl * W + xh, pos[2] = yh * W + xl, pos[3] = yh * W + xh;
                            }
                            if (mode == "avg") {
                                for (int k = 0; k < 4; ++k) acc += w[k] * img[pos[k]];
                            } else {
                                double v = w[0] * img[pos[0]];
                                for (int k = 1; k < 4; ++k) v = std::max(v, w[k] * img[pos[k]]);
                                acc = first ? v : std::max(acc, v);
                                first = false;
                            }
                        }
                    }
                    out[static_cast<size_t>(((r * C + c) * ph + oy) * pw + ox)] = mode == "avg" ? acc / count : acc;
                }
        }
    }
    return Tensors{fromDoubles(ir::DType::Float32, Shape{R, C, ph, pw}, out)};
}

// --- DFT and STFT: X[k] = sum_n x[n] e^(-+2 pi i k n / L), the inverse divided by L.

void dft(const double* re, const double* im, int64_t len, int64_t stride, int64_t outLen, int64_t L, bool inverse,
         double* outRe, double* outIm, int64_t outStride) {
    const double sign = inverse ? 1.0 : -1.0;
    for (int64_t k = 0; k < outLen; ++k) {
        double sr = 0, si = 0;
        for (int64_t n = 0; n < std::min(len, L); ++n) {
            const double a = sign * 2 * std::numbers::pi * static_cast<double>((k * n) % L) / static_cast<double>(L);
            const double c = std::cos(a), s = std::sin(a);
            const double xr = re[n * stride], xi = im ? im[n * stride] : 0.0;
            sr += xr * c - xi * s;
            si += xr * s + xi * c;
        }
        if (inverse) {
            sr /= static_cast<double>(L);
            si /= static_cast<double>(L);
        }
        outRe[k * outStride] = sr;
        outIm[k * outStride] = si;
    }
}

Expected<Tensors> dftKernel(const ir::Node& node, const ir::Tensor& x, const ir::Tensor* lengthT) {
    const Shape& xs = x.shape();
    const int64_t rank = static_cast<int64_t>(xs.rank());
    if (rank < 3 || (xs[static_cast<size_t>(rank - 1)] != 1 && xs[static_cast<size_t>(rank - 1)] != 2))
        return invalid(node, "input must be [batch, signal..., 1 or 2], not " + xs.str());
    Expected<int64_t> axis = normalizedAxis(node, node.attrInt("axis", 1), rank - 1);
    if (!axis) return axis.error();
    if (*axis == 0) return invalid(node, "axis 0 is the batch axis");
    const bool inverse = node.attrInt("inverse", 0) != 0, onesided = node.attrInt("onesided", 0) != 0;
    const size_t a = static_cast<size_t>(*axis);
    const int64_t len = xs[a];
    const int64_t L = lengthT ? lengthT->intAt(0) : len;
    if (L <= 0) return invalid(node, "dft_length must be positive, not " + std::to_string(L));
    const int64_t outLen = onesided ? L / 2 + 1 : L;
    const bool complexIn = xs[static_cast<size_t>(rank - 1)] == 2;
    std::vector<int64_t> dims = xs.dims();
    dims[a] = outLen;
    dims.back() = 2;
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d + 1 < xs.rank(); ++d) {
        if (d < a) outer *= xs[d];
        if (d > a) inner *= xs[d];
    }
    const std::vector<double> in = toDoubles(x);
    const int64_t cin = complexIn ? 2 : 1;
    std::vector<double> out(static_cast<size_t>(Shape(dims).numel()));
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const double* src = &in[static_cast<size_t>(((o * len) * inner + i) * cin)];
            double* dst = &out[static_cast<size_t>(((o * outLen) * inner + i) * 2)];
            dft(src, complexIn ? src + 1 : nullptr, len, inner * cin, outLen, L, inverse, dst, dst + 1, inner * 2);
        }
    return Tensors{fromDoubles(ir::DType::Float32, Shape(dims), out)};
}

Expected<Tensors> stftKernel(const ir::Node& node, const Tensors& inputs) {
    Expected<const ir::Tensor*> xT = requiredInput(node, inputs, 0), stepT = requiredInput(node, inputs, 1);
    if (!xT) return xT.error();
    if (!stepT) return stepT.error();
    const ir::Tensor* window = optionalInput(inputs, 2);
    const ir::Tensor* lengthT = optionalInput(inputs, 3);
    const Shape& xs = (*xT)->shape();
    if (xs.rank() != 3 || (xs[2] != 1 && xs[2] != 2))
        return invalid(node, "signal must be [batch, length, 1 or 2], not " + xs.str());
    const int64_t step = (*stepT)->intAt(0);
    const int64_t frame = lengthT ? lengthT->intAt(0) : window ? window->numel() : 0;
    if (frame <= 0) return invalid(node, "needs frame_length or a window to know the frame length");
    if (window && window->numel() != frame)
        return invalid(node, "the window has " + std::to_string(window->numel()) + " values, frame_length is " +
                                 std::to_string(frame));
    if (step <= 0 || frame > xs[1])
        return invalid(node, "frame_step must be positive and the frame no longer than the signal");
    const bool onesided = node.attrInt("onesided", 1) != 0;
    const int64_t B = xs[0], len = xs[1], cin = xs[2];
    const int64_t frames = (len - frame) / step + 1, bins = onesided ? frame / 2 + 1 : frame;
    const std::vector<double> in = toDoubles(**xT);
    const std::vector<double> win = window ? toDoubles(*window) : std::vector<double>(static_cast<size_t>(frame), 1.0);
    std::vector<double> out(static_cast<size_t>(B * frames * bins * 2));
    std::vector<double> re(static_cast<size_t>(frame)), im(static_cast<size_t>(frame));
    for (int64_t b = 0; b < B; ++b)
        for (int64_t f = 0; f < frames; ++f) {
            for (int64_t t = 0; t < frame; ++t) {
                const double* p = &in[static_cast<size_t>((b * len + f * step + t) * cin)];
                re[static_cast<size_t>(t)] = p[0] * win[static_cast<size_t>(t)];
                im[static_cast<size_t>(t)] = cin == 2 ? p[1] * win[static_cast<size_t>(t)] : 0.0;
            }
            double* dst = &out[static_cast<size_t>(((b * frames + f) * bins) * 2)];
            dft(re.data(), im.data(), frame, 1, bins, frame, false, dst, dst + 1, 2);
        }
    return Tensors{fromDoubles(ir::DType::Float32, Shape{B, frames, bins, 2}, out)};
}

} // namespace

Expected<Tensors> signalKernel(const ir::Node& node, const Tensors& inputs) {
    if (node.op == OpKind::STFT) return stftKernel(node, inputs);
    Expected<const ir::Tensor*> x = requiredInput(node, inputs, 0);
    if (!x) return x.error();
    switch (node.op) {
    case OpKind::DFT: return dftKernel(node, **x, optionalInput(inputs, 1));
    case OpKind::GridSample: {
        Expected<const ir::Tensor*> grid = requiredInput(node, inputs, 1);
        if (!grid) return grid.error();
        return gridSample(node, **x, **grid);
    }
    case OpKind::RoiAlign: {
        Expected<const ir::Tensor*> rois = requiredInput(node, inputs, 1), batch = requiredInput(node, inputs, 2);
        if (!rois) return rois.error();
        if (!batch) return batch.error();
        return roiAlign(node, **x, **rois, **batch);
    }
    default: return unsupported(node, "not a sampling or spectral op");
    }
}

} // namespace embark::reference::detail

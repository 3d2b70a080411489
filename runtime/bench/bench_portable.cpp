// Per-layer GFLOP/s of Embark's portable kernels against Debian's XNNPACK (2022 API) on the
// ResNet-18 and MobileNet-V2 layer shapes, 1 and 2 threads, measured side by side in one run.
// Built and run by bench/bench_portable.sh (standalone: no Qt, no Embark headers).
#include "portable.h"

#include <pthreadpool.h>
#include <xnnpack.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace ep = embark::portable;

namespace {

struct Layer {
    const char* name;
    bool fc;           // fully connected: in_c -> out_c with batch rows
    ep::Conv2DShape s; // for conv layers
    ep::Act act;
};

std::vector<float> random_vector(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> v(n);
    for (auto& x : v) x = dist(rng);
    return v;
}

// Median seconds per call over `samples` batches, each batch long enough (>= 20 ms) to
// swamp the clock's resolution.
// BENCH_CLOCK=cpu measures the process's CPU time instead of wall time: steadier for 1-thread
// figures on a loaded machine (meaningless for 2 threads, which add their CPU times).
struct CpuClock {
    using duration = std::chrono::nanoseconds;
    using time_point = std::chrono::time_point<CpuClock, duration>;
    static time_point now() {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return time_point(duration(int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec));
    }
};

template <typename clock>
double time_call_with(const std::function<void()>& fn) {
    fn(); // warm-up: packs caches, builds indirection buffers
    int reps = 1;
    for (;;) {
        const auto t0 = clock::now();
        for (int i = 0; i < reps; ++i) fn();
        const double dt = std::chrono::duration<double>(clock::now() - t0).count();
        if (dt >= 0.02) break;
        reps *= 2;
    }
    std::vector<double> samples;
    for (int s = 0; s < 5; ++s) {
        const auto t0 = clock::now();
        for (int i = 0; i < reps; ++i) fn();
        samples.push_back(std::chrono::duration<double>(clock::now() - t0).count() / reps);
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

double time_call(const std::function<void()>& fn) {
    const char* which = std::getenv("BENCH_CLOCK");
    if (which && std::string(which) == "cpu") return time_call_with<CpuClock>(fn);
    return time_call_with<std::chrono::steady_clock>(fn);
}

struct Result {
    double portable_s = 0, xnnpack_s = 0, max_diff = 0;
};

void minmax_of(ep::Act act, float& lo, float& hi) {
    lo = -INFINITY;
    hi = INFINITY;
    if (act == ep::Act::Relu) lo = 0;
    if (act == ep::Act::Clamp) lo = 0, hi = 6;
}

Result run_layer(const Layer& layer, int threads, ep::ThreadPool* pool, pthreadpool_t xpool) {
    const ep::Conv2DShape& s = layer.s;
    Result r;
    float lo, hi;
    minmax_of(layer.act, lo, hi);
    ep::Activation act{layer.act, lo, hi};
    (void)threads;
    if (layer.fc) {
        const int rows = s.batch, k = s.in_c, n = s.out_c;
        auto x = random_vector(static_cast<size_t>(rows) * k, 1);
        auto w = random_vector(static_cast<size_t>(n) * k, 2);
        auto b = random_vector(n, 3);
        std::vector<float> y1(static_cast<size_t>(rows) * n), y2(y1.size());
        auto op = ep::pack_fully_connected(k, n, w.data(), true, b.data(), act);
        r.portable_s = time_call([&] { ep::fully_connected(op, rows, x.data(), y1.data(), pool); });
        xnn_operator_t xop = nullptr;
        xnn_create_fully_connected_nc_f32(k, n, k, n, w.data(), b.data(), lo, hi, 0, &xop);
        xnn_setup_fully_connected_nc_f32(xop, rows, x.data(), y2.data(), xpool);
        r.xnnpack_s = time_call([&] { xnn_run_operator(xop, xpool); });
        xnn_delete_operator(xop);
        for (size_t i = 0; i < y1.size(); ++i) r.max_diff = std::max(r.max_diff, (double)std::fabs(y1[i] - y2[i]));
        return r;
    }
    const int taps = s.kernel_h * s.kernel_w;
    const int cin_g = s.in_c / s.groups, cout_g = s.out_c / s.groups;
    auto x = random_vector(static_cast<size_t>(s.batch) * s.in_h * s.in_w * s.in_c, 1);
    auto w = random_vector(static_cast<size_t>(s.out_c) * cin_g * taps, 2);
    auto b = random_vector(s.out_c, 3);
    const size_t out_size = static_cast<size_t>(s.batch) * s.out_h() * s.out_w() * s.out_c;
    std::vector<float> y1(out_size), y2(out_size);
    auto op = ep::pack_conv2d(s, w.data(), b.data(), act);
    r.portable_s = time_call([&] { ep::conv2d(op, x.data(), y1.data(), pool); });

    // XNNPACK wants [groups][cout_g][kh][kw][cin_g], or [kh][kw][channels] for a depthwise
    // convolution; ONNX gives [cout][cin_g][kh][kw].
    const bool depthwise = s.groups > 1 && cin_g == 1 && cout_g == 1;
    std::vector<float> wx(w.size());
    for (int co = 0; co < s.out_c; ++co)
        for (int ci = 0; ci < cin_g; ++ci)
            for (int t = 0; t < taps; ++t)
                wx[depthwise ? static_cast<size_t>(t) * s.out_c + co
                             : (static_cast<size_t>(co) * taps + t) * cin_g + ci] =
                    w[(static_cast<size_t>(co) * cin_g + ci) * taps + t];
    xnn_operator_t xop = nullptr;
    const uint32_t flags = depthwise ? XNN_FLAG_DEPTHWISE_CONVOLUTION : 0;
    xnn_status st = xnn_create_convolution2d_nhwc_f32(
        s.pad_top, s.pad_right, s.pad_bottom, s.pad_left, s.kernel_h, s.kernel_w, s.stride_h, s.stride_w, s.dilation_h,
        s.dilation_w, s.groups, cin_g, cout_g, s.in_c, s.out_c, wx.data(), b.data(), lo, hi, flags, &xop);
    if (st != xnn_status_success) {
        std::fprintf(stderr, "%s: xnn_create_convolution2d_nhwc_f32 failed (%d)\n", layer.name, st);
        std::exit(5);
    }
    xnn_setup_convolution2d_nhwc_f32(xop, s.batch, s.in_h, s.in_w, x.data(), y2.data(), xpool);
    r.xnnpack_s = time_call([&] { xnn_run_operator(xop, xpool); });
    xnn_delete_operator(xop);
    for (size_t i = 0; i < out_size; ++i) r.max_diff = std::max(r.max_diff, (double)std::fabs(y1[i] - y2[i]));
    return r;
}

double flops(const Layer& l) {
    const ep::Conv2DShape& s = l.s;
    if (l.fc) return 2.0 * s.batch * s.in_c * s.out_c;
    return 2.0 * s.batch * s.out_h() * s.out_w() * s.out_c * (s.in_c / s.groups) * s.kernel_h * s.kernel_w;
}

// Conv2DShape{batch, in_h, in_w, in_c, out_c, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, groups}
std::vector<Layer> layers() {
    using A = ep::Act;
    return {
        {"r18 conv1 7x7/2 3->64 224", false, {1, 224, 224, 3, 64, 7, 7, 2, 2, 1, 1, 3, 3, 3, 3, 1}, A::Relu},
        {"r18 3x3 64->64 56", false, {1, 56, 56, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::Relu},
        {"r18 3x3/2 64->128 56", false, {1, 56, 56, 64, 128, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}, A::Relu},
        {"r18 1x1/2 64->128 56", false, {1, 56, 56, 64, 128, 1, 1, 2, 2, 1, 1, 0, 0, 0, 0, 1}, A::None},
        {"r18 3x3 128->128 28", false, {1, 28, 28, 128, 128, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::Relu},
        {"r18 3x3/2 128->256 28", false, {1, 28, 28, 128, 256, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}, A::Relu},
        {"r18 3x3 256->256 14", false, {1, 14, 14, 256, 256, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::Relu},
        {"r18 3x3/2 256->512 14", false, {1, 14, 14, 256, 512, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}, A::Relu},
        {"r18 3x3 512->512 7", false, {1, 7, 7, 512, 512, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, A::Relu},
        {"r18 fc 512->1000", true, {1, 1, 1, 512, 1000}, A::None},
        {"mv2 3x3/2 3->32 224", false, {1, 224, 224, 3, 32, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1}, A::Clamp},
        {"mv2 dw3x3 32 112", false, {1, 112, 112, 32, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 32}, A::Clamp},
        {"mv2 1x1 32->16 112", false, {1, 112, 112, 32, 16, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::None},
        {"mv2 1x1 16->96 112", false, {1, 112, 112, 16, 96, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::Clamp},
        {"mv2 dw3x3/2 96 112", false, {1, 112, 112, 96, 96, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 96}, A::Clamp},
        {"mv2 1x1 96->24 56", false, {1, 56, 56, 96, 24, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::None},
        {"mv2 1x1 24->144 56", false, {1, 56, 56, 24, 144, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::Clamp},
        {"mv2 dw3x3 144 56", false, {1, 56, 56, 144, 144, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 144}, A::Clamp},
        {"mv2 1x1 144->24 56", false, {1, 56, 56, 144, 24, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::None},
        {"mv2 1x1 160->960 7", false, {1, 7, 7, 160, 960, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::Clamp},
        {"mv2 dw3x3 960 7", false, {1, 7, 7, 960, 960, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 960}, A::Clamp},
        {"mv2 1x1 320->1280 7", false, {1, 7, 7, 320, 1280, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1}, A::Clamp},
        {"mv2 fc 1280->1000", true, {1, 1, 1, 1280, 1000}, A::None},
    };
}

} // namespace

int main(int argc, char** argv) {
    std::string only = argc > 1 ? argv[1] : "";
    if (xnn_initialize(nullptr) != xnn_status_success) {
        std::fprintf(stderr, "xnn_initialize failed: is this CPU supported by libxnnpack?\n");
        return 5;
    }
    std::printf("portable tile: %d pixels x %d channels\n", ep::kTilePixels, ep::kTileChannels);
    std::printf("%-28s %8s | %9s %9s %6s | %9s %9s %6s | %6s %6s | %s\n", "layer", "MFLOP", "port 1T", "xnn 1T",
                "ratio", "port 2T", "xnn 2T", "ratio", "p2/p1", "x2/x1", "max|diff|");
    ep::ThreadPool pool2(2);
    pthreadpool_t xpool2 = pthreadpool_create(2);
    double total[4] = {0, 0, 0, 0};
    for (const Layer& layer : layers()) {
        if (!only.empty() && std::string(layer.name).find(only) == std::string::npos) continue;
        const double f = flops(layer);
        const Result one = run_layer(layer, 1, nullptr, nullptr);
        const Result two = run_layer(layer, 2, &pool2, xpool2);
        total[0] += one.portable_s, total[1] += one.xnnpack_s;
        total[2] += two.portable_s, total[3] += two.xnnpack_s;
        // ratio > 1 means the portable kernel is faster.
        std::printf("%-28s %8.1f | %9.1f %9.1f %6.2f | %9.1f %9.1f %6.2f | %6.2f %6.2f | %.1e\n", layer.name, f * 1e-6,
                    f / one.portable_s * 1e-9, f / one.xnnpack_s * 1e-9, one.xnnpack_s / one.portable_s,
                    f / two.portable_s * 1e-9, f / two.xnnpack_s * 1e-9, two.xnnpack_s / two.portable_s,
                    one.portable_s / two.portable_s, one.xnnpack_s / two.xnnpack_s,
                    std::max(one.max_diff, two.max_diff));
    }
    std::printf("GFLOP/s columns; ratio = xnnpack time / portable time (> 1: portable faster)\n");
    std::printf("sum of layer times: portable 1T %.3f ms, xnnpack 1T %.3f ms (ratio %.2f); "
                "portable 2T %.3f ms, xnnpack 2T %.3f ms (ratio %.2f); portable 2T speed-up %.2fx\n",
                total[0] * 1e3, total[1] * 1e3, total[1] / total[0], total[2] * 1e3, total[3] * 1e3,
                total[3] / total[2], total[0] / total[2]);
    pthreadpool_destroy(xpool2);
    return 0;
}

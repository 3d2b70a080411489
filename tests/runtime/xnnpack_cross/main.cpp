// A tiny program for xnnpack_cross_check.sh: runs a few XNNPACK wrappers on the target (or
// under qemu-user) with 2 threads and compares them with plain double loops. Exit 0 when ok.
#include "embark_xnnpack.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace embark_xnn;

int main() {
    try {
        Context context(2);
        // 3x3 convolution, pad 1, 8 -> 16 channels on 10x10, fused ReLU, then a sigmoid,
        // an add with a per-channel constant and a global average pooling.
        Conv2dParams p;
        p.inputHeight = p.inputWidth = 10;
        p.inputChannels = 8;
        p.outputChannels = 16;
        p.kernelHeight = p.kernelWidth = 3;
        p.padTop = p.padLeft = p.padBottom = p.padRight = 1;
        const size_t pixels = 100, extra = kExtraBytes / sizeof(float);
        std::vector<float> input(pixels * 8 + extra), weights(16 * 8 * 9), bias(16);
        std::vector<float> channelShift(16 + extra);
        for (size_t i = 0; i < input.size(); ++i) input[i] = float(std::sin(0.37 * double(i)));
        for (size_t i = 0; i < weights.size(); ++i) weights[i] = float(std::cos(0.11 * double(i))) * 0.2f;
        for (size_t i = 0; i < 16; ++i) {
            bias[i] = 0.01f * float(i) - 0.05f;
            channelShift[i] = 0.5f - 0.03f * float(i);
        }
        Convolution2d conv(context, "conv", p, weights.data(), bias.data(), FilterLayout::OIHW, OutputRange::relu());
        Unary sigmoid(context, "sigmoid", UnaryOp::Sigmoid, pixels * 16);
        Binary add(context, "add", BinaryOp::Add, {1, 10, 10, 16}, {1, 1, 1, 16});
        GlobalAveragePool gap(context, "gap", 1, 10, 10, 16);
        std::vector<float> a(pixels * 16 + extra), b(pixels * 16 + extra), out(16 + extra);
        conv.forward(input.data(), a.data());
        sigmoid.forward(a.data(), a.data());
        add.forward(a.data(), channelShift.data(), b.data());
        gap.forward(b.data(), out.data());

        double maxDiff = 0, maxRef = 0;
        for (size_t o = 0; o < 16; ++o) {
            double sum = 0;
            for (long y = 0; y < 10; ++y)
                for (long x = 0; x < 10; ++x) {
                    double acc = bias[o];
                    for (long ky = 0; ky < 3; ++ky)
                        for (long kx = 0; kx < 3; ++kx) {
                            const long iy = y + ky - 1, ix = x + kx - 1;
                            if (iy < 0 || ix < 0 || iy >= 10 || ix >= 10) continue;
                            for (size_t c = 0; c < 8; ++c)
                                acc += double(input[(iy * 10 + ix) * 8 + c]) * weights[((o * 8 + c) * 3 + ky) * 3 + kx];
                        }
                    sum += 1 / (1 + std::exp(-std::max(acc, 0.0))) + channelShift[o];
                }
            const double want = sum / 100;
            maxDiff = std::max(maxDiff, std::abs(want - out[o]));
            maxRef = std::max(maxRef, std::abs(want));
        }
        const double rel = maxDiff / maxRef;
        std::printf("{\"api\":\"%s\",\"max_rel\":%.3g,\"ok\":%s}\n", apiName(), rel, rel <= 1e-5 ? "true" : "false");
        return rel <= 1e-5 ? 0 : 1;
    } catch (const Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
}

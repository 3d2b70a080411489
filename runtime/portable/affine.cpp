// A per-channel affine map with a fused activation: an inference BatchNormalization that no
// convolution before it absorbs (DenseNet's and pre-activation ResNets' BN + ReLU in front of
// a convolution), in one pass over the tensor, in either layout.
#include "portable.h"

#include <algorithm>

namespace embark::portable {

void channel_affine(const float* x, int64_t outer, int64_t channels, int64_t inner, const float* scale,
                    const float* shift, float* y, Activation act, ThreadPool* pool, int64_t x_stride,
                    int64_t y_stride) {
    const int64_t total = outer * channels * inner;
    if (inner == 1 && ((x_stride > 0 && x_stride != channels) || (y_stride > 0 && y_stride != channels))) {
        // Pixels of a wider tensor (a concatenation's channel range): the same pass, pixel by pixel.
        const int64_t xs = x_stride > 0 ? x_stride : channels, ys = y_stride > 0 ? y_stride : channels;
        parallel_for(
            total >= (1 << 12) ? pool : nullptr, outer,
            [&](int64_t begin, int64_t end) {
                for (int64_t o = begin; o < end; ++o) {
                    const float* __restrict xi = x + o * xs;
                    float* __restrict yi = y + o * ys;
                    for (int64_t c = 0; c < channels; ++c) yi[c] = xi[c] * scale[c] + shift[c];
                    apply_activation(act, yi, static_cast<size_t>(channels));
                }
            },
            kFineParts);
        return;
    }
    if (inner == 1) {
        // Channels last: each pixel's channels are one vector loop; a part is a run of pixels.
        parallel_for(
            total >= (1 << 12) ? pool : nullptr, outer,
            [&](int64_t begin, int64_t end) {
                for (int64_t o = begin; o < end; ++o) {
                    const float* __restrict xi = x + o * channels;
                    float* __restrict yi = y + o * channels;
                    for (int64_t c = 0; c < channels; ++c) yi[c] = xi[c] * scale[c] + shift[c];
                }
                apply_activation(act, y + begin * channels, static_cast<size_t>((end - begin) * channels));
            },
            kFineParts);
        return;
    }
    parallel_for(
        total >= (1 << 12) ? pool : nullptr, outer * channels,
        [&](int64_t begin, int64_t end) {
            for (int64_t r = begin; r < end; ++r) {
                const float s = scale[r % channels], t = shift[r % channels];
                const float* __restrict xi = x + r * inner;
                float* __restrict yi = y + r * inner;
                for (int64_t i = 0; i < inner; ++i) yi[i] = xi[i] * s + t;
            }
            apply_activation(act, y + begin * inner, static_cast<size_t>((end - begin) * inner));
        },
        kFineParts);
}

} // namespace embark::portable

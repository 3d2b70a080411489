// The extrapolated elements of Resize's tf_crop_and_resize.
#include "resize_roi.h"

namespace embark::generic {

void fillOutside(float* y, const Shape& shape, const uint8_t* outside, float value) {
    const int r = shape.rank;
    const int64_t total = shape.count();
    int64_t idx[kMaxRank] = {};
    for (int64_t i = 0; i < total; ++i) {
        const uint8_t* flags = outside;
        bool out = false;
        for (int a = 0; a < r && !out; ++a) {
            out = flags[idx[a]] != 0;
            flags += shape.d[a];
        }
        if (out) y[i] = value;
        for (int a = r - 1; a >= 0; --a) {
            if (++idx[a] < shape.d[a]) break;
            idx[a] = 0;
        }
    }
}

} // namespace embark::generic

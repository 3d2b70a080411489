// Resize's tf_crop_and_resize: output elements whose source coordinate falls outside the input
// on any axis take extrapolation_value. Standalone C++17.
#pragma once

#include "generic.h"

#include <cstdint>

namespace embark::generic {

// y (shape `shape`): every element whose index along some axis a is flagged in `outside`
// (shape.d[0] flags for axis 0, then shape.d[1] for axis 1, ...) becomes `value`.
void fillOutside(float* y, const Shape& shape, const uint8_t* outside, float value);

} // namespace embark::generic

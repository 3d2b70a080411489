// Decodes PNG and JPEG files for calibration through QImage (QtGui), for core's
// jobs::ImageDecoder interface (core links QtCore only).
#pragma once

#include "jobs/calibration_data.h"

namespace embark::imageio {

// The file as 8-bit RGB (alpha dropped, grayscale and palette images expanded, EXIF
// orientation not applied, as PIL's Image.open(...).convert("RGB")), scaled and cropped as
// `request` asks with Qt's smooth scaling (area averaging when shrinking, bilinear when
// enlarging; short side rounded to nearest, crop offsets floor((scaled - crop) / 2)).
// InvalidInput naming the file when it cannot be read or decoded.
Expected<jobs::DecodedImage> decodeImage(const jobs::ImageRequest& request);

} // namespace embark::imageio

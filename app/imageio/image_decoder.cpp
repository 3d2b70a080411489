#include "image_decoder.h"

#include <QImage>
#include <QImageReader>

#include <cmath>
#include <cstring>

namespace embark::imageio {

Expected<jobs::DecodedImage> decodeImage(const jobs::ImageRequest& request) {
    const QString path = QString::fromStdString(request.path);
    QImageReader reader(path);
    reader.setAutoTransform(false);
    QImage image = reader.read();
    if (image.isNull())
        return makeError(ErrorKind::InvalidInput, "calibration image '" + request.path +
                                                      "' cannot be decoded (Qt: " + reader.errorString().toStdString() +
                                                      "): is it a complete PNG or JPEG file?");
    jobs::DecodedImage out;
    out.sourceWidth = image.width();
    out.sourceHeight = image.height();
    image = image.convertToFormat(QImage::Format_RGB888);
    if (request.shortSide > 0) {
        const double scale = static_cast<double>(request.shortSide) / std::min(image.width(), image.height());
        const int w =
            image.width() <= image.height() ? request.shortSide : static_cast<int>(std::lround(image.width() * scale));
        const int h =
            image.height() < image.width() ? request.shortSide : static_cast<int>(std::lround(image.height() * scale));
        if (w != image.width() || h != image.height())
            image = image.scaled(w, h, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        if (request.width > 0 && request.height > 0 && request.width <= w && request.height <= h)
            image = image.copy((w - request.width) / 2, (h - request.height) / 2, request.width, request.height);
    } else if (request.width > 0 && request.height > 0 &&
               (request.width != image.width() || request.height != image.height())) {
        image = image.scaled(request.width, request.height, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    }
    if (image.format() != QImage::Format_RGB888) image = image.convertToFormat(QImage::Format_RGB888);
    out.width = image.width();
    out.height = image.height();
    const size_t row = static_cast<size_t>(out.width) * 3;
    out.rgb.resize(row * static_cast<size_t>(out.height));
    for (int y = 0; y < out.height; ++y) // QImage rows are padded to 4 bytes
        std::memcpy(&out.rgb[row * static_cast<size_t>(y)], image.constScanLine(y), row);
    return out;
}

} // namespace embark::imageio

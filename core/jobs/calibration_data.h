// Calibration data for quantization (embark-cli quantize --calib, later the studio's Quantize
// dialog): test_data_set_N folders, tensor files (.pb, .npy) and images (PNG, JPEG), listed
// once and loaded one sample at a time (passes::CalibrationSet).
//
// Images: core links QtCore only, so the decoding (QImage) lives outside core, in
// app/imageio, which the programs install at start-up (installImageDecoder). The decoder
// returns 8-bit RGB pixels, already resized and cropped as asked; everything after that (the
// checks against the model's input, grayscale, [0,1] scaling, mean/std, layout) is here, so it
// is the same for every program and testable without QtGui.
#pragma once

#include "ir/error.h"
#include "ir/graph.h"
#include "passes/quantize_static.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace embark::jobs {

enum class ImageLayout { NCHW, NHWC };

// How an image becomes a model input.
struct ImageOptions {
    // --resize WxH: stretched to exactly W x H (aspect ratio not kept).
    int resizeWidth = 0, resizeHeight = 0;
    // --resize N: scaled so that the short side is N (aspect ratio kept), then the centred crop
    // of the model input's size (torchvision's Resize(N) + CenterCrop). N >= the input's H, W.
    int shortSide = 0;
    // Per channel (one value: every channel), applied to pixels scaled to [0, 1]:
    // x = (pixel / 255 - mean[c]) / std[c].
    std::vector<double> mean{0.0};
    std::vector<double> std{1.0};
    ImageLayout layout = ImageLayout::NCHW;
};

// What a decoder is asked for.
struct ImageRequest {
    std::string path;
    int width = 0, height = 0; // > 0: scale to exactly this size (with shortSide: the crop)
    int shortSide = 0;         // > 0: scale the short side to this, then crop width x height at the centre
};

struct DecodedImage {
    int sourceWidth = 0, sourceHeight = 0; // as stored in the file
    int width = 0, height = 0;             // after scaling and cropping
    std::vector<uint8_t> rgb;              // width * height * 3 bytes, row-major, R G B
};

// Decodes a PNG/JPEG file (errors: InvalidInput naming the file and why).
using ImageDecoder = std::function<Expected<DecodedImage>(const ImageRequest&)>;
void installImageDecoder(ImageDecoder decoder);
const ImageDecoder& installedImageDecoder(); // empty when none was installed

// The extensions read as images (lower case, without the dot): png, jpg, jpeg.
bool isImageFile(const QString& path);

struct CalibrationSource {
    enum class Kind { TestSet, TensorFile, Image };
    Kind kind;
    QString path;
};

// The samples of each spec, in order: a folder holding input_K.pb files is one test set; a
// folder with test_data_set_* subfolders gives those (sorted by name); any other folder gives
// the tensor files (.pb, .npy) and images (.png, .jpg, .jpeg, any case) in it and its
// subfolders, sorted by path; a file is one sample. InvalidInput naming the spec when it does
// not exist or gives no sample.
Expected<std::vector<CalibrationSource>> listCalibrationSources(const QStringList& specs);

// The (height, width, channels) an image must have to fill `input` in `layout`: a float32
// input of rank 4, batch 1, 1 (grayscale) or 3 (RGB) channels. InvalidInput naming the input
// and its shape otherwise.
struct ImageGeometry {
    int height = 0, width = 0, channels = 0;
};
Expected<ImageGeometry> imageGeometry(const ir::Value& input, ImageLayout layout);

// What to ask the decoder for an image that is to fill `geometry` (see ImageOptions).
ImageRequest imageRequest(const std::string& path, const ImageOptions& options, const ImageGeometry& geometry);

// The input tensor of a decoded image: InvalidInput naming the file, its decoded size and the
// model input's shape when the size differs from `geometry`. One channel: luma
// (299 R + 587 G + 114 B) / 1000, rounded, as PIL's convert("L").
Expected<ir::Tensor> imageTensor(const DecodedImage& image, const std::string& path, const ImageOptions& options,
                                 const ir::Value& input, const ImageGeometry& geometry);

// One sample of `graph` from a source (images through installedImageDecoder()).
Expected<passes::CalibrationSample> loadCalibrationSample(const ir::Graph& graph, const CalibrationSource& source,
                                                          const ImageOptions& image);

// The sources as a set loaded on demand; `graph` must outlive it and keep its inputs. Checks
// first what it can without decoding: an image source with a model input that cannot take an
// image (InvalidInput), --resize N smaller than the input (Usage), no decoder installed
// (Unsupported).
Expected<passes::CalibrationSet> calibrationSet(const ir::Graph& graph, std::vector<CalibrationSource> sources,
                                                const ImageOptions& image);

} // namespace embark::jobs

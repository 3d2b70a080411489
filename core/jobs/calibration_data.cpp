#include "calibration_data.h"

#include "onnx/tensor_io.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include <algorithm>

namespace embark::jobs {
namespace {

std::string str(const QString& s) { return s.toStdString(); }
std::string quoted(const QString& s) { return (QLatin1Char('\'') + s + QLatin1Char('\'')).toStdString(); }

ImageDecoder& decoderSlot() {
    static ImageDecoder decoder;
    return decoder;
}

bool isTensorFile(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("pb") || suffix == QLatin1String("npy");
}

std::vector<const ir::Value*> dataInputs(const ir::Graph& graph) {
    std::vector<const ir::Value*> inputs;
    for (const ir::Value* v : graph.inputs())
        if (!v->isConstant()) inputs.push_back(v);
    return inputs;
}

std::string layoutName(ImageLayout layout) { return layout == ImageLayout::NCHW ? "NCHW" : "NHWC"; }

std::string sizeText(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

// The value of channel c of a per-channel option (one value: every channel).
double perChannel(const std::vector<double>& v, int c) { return v.size() == 1 ? v[0] : v[static_cast<size_t>(c)]; }

Expected<passes::CalibrationSample> loadImage(const ir::Value& input, const CalibrationSource& source,
                                              const ImageOptions& options) {
    auto geometry = imageGeometry(input, options.layout);
    if (!geometry) return geometry.error();
    const ImageDecoder& decode = installedImageDecoder();
    if (!decode)
        return makeError(ErrorKind::Unsupported,
                         "calibration image '" + str(source.path) + "': this program reads no images");
    const std::string path = str(source.path);
    auto image = decode(imageRequest(path, options, *geometry));
    if (!image) return image.error();
    auto tensor = imageTensor(*image, path, options, input, *geometry);
    if (!tensor) return tensor.error();
    passes::CalibrationSample sample;
    sample.label = quoted(source.path);
    sample.inputs[input.name] = std::move(*tensor);
    return sample;
}

// "3 channels: give 1 value or 3", "1 channel: give 1 value".
std::string channelsHint(int channels) {
    return channels == 1 ? std::string("1 channel: give 1 value")
                         : std::to_string(channels) + " channels: give 1 value or " + std::to_string(channels);
}

} // namespace

void installImageDecoder(ImageDecoder decoder) { decoderSlot() = std::move(decoder); }
const ImageDecoder& installedImageDecoder() { return decoderSlot(); }

bool isImageFile(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("png") || suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg");
}

Expected<std::vector<CalibrationSource>> listCalibrationSources(const QStringList& specs) {
    using Kind = CalibrationSource::Kind;
    std::vector<CalibrationSource> out;
    for (const QString& spec : specs) {
        const QFileInfo info(spec);
        if (!info.exists()) return makeError(ErrorKind::InvalidInput, "--calib '" + str(spec) + "' does not exist");
        if (!info.isDir()) { // a file, or a pipe (a FIFO, or bash's <(...) as /dev/fd/N)
            out.push_back({isImageFile(spec) ? Kind::Image : Kind::TensorFile, spec});
            continue;
        }
        const QDir dir(spec);
        if (!dir.entryList({QStringLiteral("input_*.pb")}, QDir::Files).isEmpty()) {
            out.push_back({Kind::TestSet, spec});
            continue;
        }
        const size_t before = out.size();
        for (const QString& s : dir.entryList({QStringLiteral("test_data_set_*")}, QDir::Dirs, QDir::Name))
            out.push_back({Kind::TestSet, dir.filePath(s)});
        if (out.size() == before) {
            QStringList files;
            for (QDirIterator it(spec, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
                const QString f = it.next();
                if (isImageFile(f) || isTensorFile(f)) files << f;
            }
            files.sort(); // by path, byte order: the same on every machine
            for (const QString& f : files) out.push_back({isImageFile(f) ? Kind::Image : Kind::TensorFile, f});
        }
        if (out.size() == before)
            return makeError(ErrorKind::InvalidInput,
                             "--calib '" + str(spec) +
                                 "' holds no input_K.pb files, no test_data_set_N folders, no tensor "
                                 "files (.pb, .npy) and no images (.png, .jpg, .jpeg): the calibration "
                                 "set would be empty");
    }
    return out;
}

Expected<ImageGeometry> imageGeometry(const ir::Value& input, ImageLayout layout) {
    const ir::Shape& s = input.shape;
    const std::string what = "model input '" + input.name + "' [" + s.str() + "]";
    if (input.dtype != ir::DType::Float32)
        return makeError(ErrorKind::InvalidInput, what + " is not float32: images calibrate float32 inputs only");
    if (s.rank() != 4 || s[0] != 1)
        return makeError(ErrorKind::InvalidInput,
                         what + " is not an image batch of one (" + layoutName(layout) +
                             " with N = 1); fix it with --shape, or calibrate with tensor files");
    ImageGeometry g;
    const bool nchw = layout == ImageLayout::NCHW;
    g.channels = static_cast<int>(nchw ? s[1] : s[3]);
    g.height = static_cast<int>(nchw ? s[2] : s[1]);
    g.width = static_cast<int>(nchw ? s[3] : s[2]);
    if (g.channels != 1 && g.channels != 3)
        return makeError(ErrorKind::InvalidInput,
                         what + " read as " + layoutName(layout) + " has " + std::to_string(g.channels) +
                             " channels; images give 1 (grayscale) or 3 (RGB)" +
                             (nchw ? ": is it NHWC (--layout NHWC)?" : ": is it NCHW (--layout NCHW)?"));
    return g;
}

ImageRequest imageRequest(const std::string& path, const ImageOptions& options, const ImageGeometry& geometry) {
    ImageRequest r;
    r.path = path;
    if (options.shortSide > 0) {
        r.shortSide = options.shortSide;
        r.width = geometry.width;
        r.height = geometry.height;
    } else if (options.resizeWidth > 0 && options.resizeHeight > 0) {
        r.width = options.resizeWidth;
        r.height = options.resizeHeight;
    }
    return r;
}

Expected<ir::Tensor> imageTensor(const DecodedImage& image, const std::string& path, const ImageOptions& options,
                                 const ir::Value& input, const ImageGeometry& g) {
    if (image.width != g.width || image.height != g.height) {
        std::string size = "decodes to " + sizeText(image.sourceWidth, image.sourceHeight);
        if (image.width != image.sourceWidth || image.height != image.sourceHeight)
            size += ", " + sizeText(image.width, image.height) + " after --resize";
        return makeError(ErrorKind::InvalidInput,
                         "calibration image '" + path + "' " + size + " (width x height), but model input '" +
                             input.name + "' [" + input.shape.str() + "] (" + layoutName(options.layout) + ") takes " +
                             sizeText(g.width, g.height) + ": give --resize " + sizeText(g.width, g.height) +
                             " (stretch) or --resize N with N >= " + std::to_string(std::max(g.width, g.height)) +
                             " (short side, then centre crop)");
    }
    if (image.rgb.size() != static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 3)
        return makeError(ErrorKind::InvalidInput,
                         "calibration image '" + path + "': the decoder returned a wrong pixel count");
    if (options.mean.size() != 1 && options.mean.size() != static_cast<size_t>(g.channels))
        return makeError(ErrorKind::Usage, "--mean has " + std::to_string(options.mean.size()) +
                                               " values; model input '" + input.name + "' has " +
                                               channelsHint(g.channels));
    if (options.std.size() != 1 && options.std.size() != static_cast<size_t>(g.channels))
        return makeError(ErrorKind::Usage, "--std has " + std::to_string(options.std.size()) +
                                               " values; model input '" + input.name + "' has " +
                                               channelsHint(g.channels));
    const size_t pixels = static_cast<size_t>(g.width) * static_cast<size_t>(g.height);
    const size_t channels = static_cast<size_t>(g.channels);
    std::vector<float> values(pixels * channels);
    for (size_t p = 0; p < pixels; ++p) {
        const uint8_t* rgb = &image.rgb[p * 3];
        for (size_t c = 0; c < channels; ++c) {
            const int pixel = channels == 1 ? (299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2] + 500) / 1000 : rgb[c];
            const double x = (pixel / 255.0 - perChannel(options.mean, int(c))) / perChannel(options.std, int(c));
            const size_t at = options.layout == ImageLayout::NCHW ? c * pixels + p : p * channels + c;
            values[at] = static_cast<float>(x);
        }
    }
    return ir::Tensor::fromFloats(input.shape, values);
}

Expected<passes::CalibrationSample> loadCalibrationSample(const ir::Graph& graph, const CalibrationSource& source,
                                                          const ImageOptions& image) {
    passes::CalibrationSample sample;
    sample.label = quoted(source.path);
    const std::vector<const ir::Value*> inputs = dataInputs(graph);
    if (source.kind != CalibrationSource::Kind::TestSet && inputs.size() != 1)
        return makeError(ErrorKind::InvalidInput,
                         "--calib '" + str(source.path) + "' is one tensor, but the model has " +
                             std::to_string(inputs.size()) + " inputs: give test_data_set_N folders");
    if (source.kind == CalibrationSource::Kind::Image) return loadImage(*inputs[0], source, image);
    if (source.kind == CalibrationSource::Kind::TensorFile) {
        auto t = onnx::readTensorFile(str(source.path), inputs[0]->dtype, inputs[0]->shape);
        if (!t) return t.error();
        sample.inputs[inputs[0]->name] = std::move(t->tensor);
        return sample;
    }
    auto set = onnx::readTestDataSet(str(source.path));
    if (!set) return set.error();
    if (set->inputs.size() != inputs.size())
        return makeError(ErrorKind::InvalidInput, "calibration folder '" + str(source.path) + "' holds " +
                                                      std::to_string(set->inputs.size()) + " input(s); the model has " +
                                                      std::to_string(inputs.size()));
    sample.inputs = onnx::pairTestSetInputs(graph, set->inputs);
    return sample;
}

Expected<passes::CalibrationSet> calibrationSet(const ir::Graph& graph, std::vector<CalibrationSource> sources,
                                                const ImageOptions& image) {
    const bool images = std::any_of(sources.begin(), sources.end(), [](const CalibrationSource& s) {
        return s.kind == CalibrationSource::Kind::Image;
    });
    const std::vector<const ir::Value*> inputs = dataInputs(graph);
    if (images) {
        if (!installedImageDecoder())
            return makeError(ErrorKind::Unsupported,
                             "this program reads no images: calibrate with test_data_set_N folders or tensor files");
        if (inputs.size() != 1)
            return makeError(ErrorKind::InvalidInput, "images calibrate a model of one input; this one has " +
                                                          std::to_string(inputs.size()) +
                                                          ": give test_data_set_N folders");
        auto g = imageGeometry(*inputs[0], image.layout);
        if (!g) return g.error();
        if (image.shortSide > 0 && image.shortSide < std::max(g->width, g->height))
            return makeError(ErrorKind::Usage, "--resize " + std::to_string(image.shortSide) +
                                                   " is smaller than model input '" + inputs[0]->name + "' (" +
                                                   sizeText(g->width, g->height) +
                                                   "): the short side must be at least " +
                                                   std::to_string(std::max(g->width, g->height)) + " to crop it");
        for (const auto* v : {&image.mean, &image.std})
            if (v->size() != 1 && v->size() != static_cast<size_t>(g->channels))
                return makeError(ErrorKind::Usage, std::string(v == &image.mean ? "--mean" : "--std") + " has " +
                                                       std::to_string(v->size()) + " values; model input '" +
                                                       inputs[0]->name + "' has " + channelsHint(g->channels));
    }
    passes::CalibrationSet set;
    set.size = sources.size();
    set.load = [&graph, sources = std::move(sources), image](size_t i) {
        return loadCalibrationSample(graph, sources[i], image);
    };
    return set;
}

} // namespace embark::jobs

#include "quantize_args.h"

#include "onnx/op_table.h"

#include <cmath>

namespace embark::cli {
namespace {

// "a,b,c" (or one value) of finite numbers; false when malformed.
bool parseNumbers(const QString& text, std::vector<double>* out) {
    out->clear();
    for (const QString& part : text.split(',')) {
        bool ok = false;
        const double v = part.trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(v)) return false;
        out->push_back(v);
    }
    return !out->empty();
}

// "WxH" or "N".
bool parseResize(const QString& text, jobs::ImageOptions* image) {
    const QStringList parts = text.toLower().split('x');
    bool okW = false, okH = true;
    const int w = parts[0].toInt(&okW);
    const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
    if (!okW || !okH || parts.size() > 2 || w <= 0 || (parts.size() == 2 && h <= 0)) return false;
    if (parts.size() == 2) {
        image->resizeWidth = w;
        image->resizeHeight = h;
    } else {
        image->shortSide = w;
    }
    return true;
}

} // namespace

const char* const kQuantizeSynopsis =
    "quantize MODEL -o OUT.onnx --calib SRC... [--method minmax|percentile|entropy] [--percentile P] "
    "[--resize WxH|N] [--mean M[,M,M]] [--std S[,S,S]] [--layout NCHW|NHWC] [--exclude-node NAME]... [--exclude-op "
    "OP]... "
    "[--report] [--json]";

void addQuantizeOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription("Quantize a float model to a QDQ model (int8, static, calibrated).");
    parser.addPositionalArgument("MODEL", "The float .onnx file.");
    parser.addOption({{"o", "output"}, "The quantized .onnx file to write.", "OUT"});
    parser.addOption(
        {"calib",
         "A test_data_set_N folder, a folder of them, a tensor file (.pb, .npy), an image (.png, .jpg), or a "
         "folder of tensor files and images (repeatable).",
         "SRC"});
    parser.addOption(
        {"method", "Calibration method: minmax, percentile or entropy (default minmax).", "METHOD", "minmax"});
    parser.addOption(
        {"percentile", "Share of the values the percentile method keeps, in percent (default 99.999).", "P", "99.999"});
    parser.addOption({"resize",
                      "Images: stretch to WxH, or scale the short side to N then centre-crop to the model input.",
                      "WxH|N"});
    parser.addOption(
        {"mean", "Images: per-channel mean subtracted from pixels scaled to [0,1] (default 0).", "M[,M,M]"});
    parser.addOption({"std", "Images: per-channel divisor applied after --mean (default 1).", "S[,S,S]"});
    parser.addOption({"layout", "Images: the model input's layout, NCHW (default) or NHWC.", "LAYOUT", "NCHW"});
    parser.addOption({"exclude-node", "Keep this node in float (repeatable).", "NAME"});
    parser.addOption({"exclude-op", "Keep every node of this ONNX op in float (repeatable).", "OP"});
    parser.addOption(
        {"report", "Also print the per-layer error against the float model on the first sample (as `compare`)."});
    parser.addOption({"json", "Print a JSON summary."});
}

int readQuantizeArgs(const QCommandLineParser& parser, Io& io, QuantizeArgs* a) {
    a->model = parser.positionalArguments().first();
    if (!parser.isSet("output")) return usage(io, "quantize needs -o OUT.onnx");
    a->output = parser.value("output");
    if (!parser.isSet("calib"))
        return usage(io,
                     "quantize needs calibration data: --calib test_data_set_N, tensor files or images (repeatable)");
    a->calib = parser.values("calib");
    if (!passes::calibrationMethodFromName(parser.value("method").toStdString(), &a->calibration.method))
        return usage(io, "unknown --method '" + parser.value("method") + "'; supported: minmax, percentile, entropy");
    bool percentileOk = false;
    a->calibration.percentile = parser.value("percentile").toDouble(&percentileOk);
    if (!percentileOk || !(a->calibration.percentile > 0 && a->calibration.percentile <= 100))
        return usage(io, "--percentile '" + parser.value("percentile") + "': give a number in (0, 100], e.g. 99.99");
    if (parser.isSet("percentile") && a->calibration.method != passes::CalibrationMethod::Percentile)
        return usage(io, "--percentile applies to --method percentile only (the method is " + parser.value("method") +
                             "): add --method percentile or leave --percentile out");
    if (parser.isSet("resize") && !parseResize(parser.value("resize"), &a->image))
        return usage(io, "--resize '" + parser.value("resize") +
                             "': give WxH (e.g. 224x224) or N (e.g. 256), positive integers");
    if (parser.isSet("mean") && !parseNumbers(parser.value("mean"), &a->image.mean))
        return usage(io, "--mean '" + parser.value("mean") +
                             "': give one number or one per channel, e.g. 0.485,0.456,0.406");
    if (parser.isSet("std")) {
        if (!parseNumbers(parser.value("std"), &a->image.std))
            return usage(io, "--std '" + parser.value("std") +
                                 "': give one number or one per channel, e.g. 0.229,0.224,0.225");
        for (double s : a->image.std)
            if (!(s > 0)) return usage(io, "--std values must be greater than 0");
    }
    const QString layout = parser.value("layout").toUpper();
    if (layout != "NCHW" && layout != "NHWC")
        return usage(io, "--layout '" + parser.value("layout") + "': give NCHW or NHWC");
    a->image.layout = layout == "NCHW" ? jobs::ImageLayout::NCHW : jobs::ImageLayout::NHWC;
    a->imageOptionsGiven =
        parser.isSet("resize") || parser.isSet("mean") || parser.isSet("std") || parser.isSet("layout");
    for (const QString& op : parser.values("exclude-op")) {
        const auto kind = onnx::opFromOnnx(op.toStdString());
        if (!kind) return usage(io, "--exclude-op '" + op + "' is not an ONNX op Embark knows");
        a->exclude.ops.insert(*kind);
    }
    for (const QString& name : parser.values("exclude-node")) a->exclude.nodes.insert(name.toStdString());
    a->report = parser.isSet("report");
    a->json = parser.isSet("json");
    return -1;
}

} // namespace embark::cli

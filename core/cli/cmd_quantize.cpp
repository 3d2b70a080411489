// `embark-cli quantize MODEL -o OUT.onnx --calib DIR...`: static post-training quantization
// (minmax, percentile or entropy calibration) into a standard QDQ model, calibrated on test_data_set_N folders.
#include "commands.h"
#include "layer_report.h"
#include "model_args.h"

#include "onnx/tensor_io.h"
#include "onnx/writer.h"
#include "onnx/op_table.h"
#include "passes/quantize_static.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

namespace embark::cli {
namespace {

// The test_data_set_N folders of `spec`: the folder itself when it holds input_K.pb files,
// else its test_data_set_* subfolders (a model's test folder), sorted; a tensor file (.pb,
// .npy) is itself one sample of a single-input model.
QStringList calibrationFolders(const QString& spec) {
    if (QFileInfo(spec).isFile()) return {spec};
    const QDir dir(spec);
    if (!dir.entryList({"input_*.pb"}, QDir::Files).isEmpty()) return {spec};
    QStringList sets;
    for (const QString& s : dir.entryList({"test_data_set_*"}, QDir::Dirs, QDir::Name)) sets << dir.filePath(s);
    return sets;
}

Expected<passes::CalibrationSample> readSample(const ir::Graph& graph, const QString& folder) {
    passes::CalibrationSample sample;
    sample.label = "'" + folder.toStdString() + "'";
    std::vector<const ir::Value*> inputs;
    for (const ir::Value* v : graph.inputs())
        if (!v->isConstant()) inputs.push_back(v);
    if (QFileInfo(folder).isFile()) {
        if (inputs.size() != 1)
            return makeError(ErrorKind::Usage, "--calib '" + folder.toStdString() + "' is one tensor file, but the model has " +
                                                   std::to_string(inputs.size()) + " inputs: give test_data_set_N folders");
        auto t = onnx::readTensorFile(folder.toStdString(), inputs[0]->dtype, inputs[0]->shape);
        if (!t) return t.error();
        sample.inputs[inputs[0]->name] = std::move(t->tensor);
        return sample;
    }
    auto set = onnx::readTestDataSet(folder.toStdString());
    if (!set) return set.error();
    if (set->inputs.size() != inputs.size())
        return makeError(ErrorKind::InvalidInput, "calibration folder '" + folder.toStdString() + "' holds " +
                                                      std::to_string(set->inputs.size()) + " input(s); the model has " +
                                                      std::to_string(inputs.size()));
    sample.inputs = testSetInputs(graph, set->inputs);
    return sample;
}

} // namespace

int cmdQuantize(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Quantize a float model to a QDQ model (int8, static, calibrated).");
    parser.addPositionalArgument("MODEL", "The float .onnx file.");
    addShapeOption(parser);
    parser.addOption({{"o", "output"}, "The quantized .onnx file to write.", "OUT"});
    parser.addOption({"calib", "A test_data_set_N folder, or a folder of them (repeatable).", "DIR"});
    parser.addOption({"method", "Calibration method: minmax, percentile or entropy (default minmax).", "METHOD", "minmax"});
    parser.addOption({"percentile", "Share of the values the percentile method keeps, in percent (default 99.999).", "P", "99.999"});
    parser.addOption({"exclude-node", "Keep this node in float (repeatable).", "NAME"});
    parser.addOption({"exclude-op", "Keep every node of this ONNX op in float (repeatable).", "OP"});
    parser.addOption({"report", "Also print the per-layer error against the float model on the first sample (as `compare`)."});
    parser.addOption({"json", "Print a JSON summary."});
    if (int rc = parseOrExit(parser, args, io, "quantize MODEL -o OUT.onnx --calib DIR|FILE... [--method minmax|percentile|entropy] [--percentile P] [--exclude-node NAME]... "
                               "[--exclude-op OP]... [--report] [--json]", 1, 1);
        rc >= 0)
        return rc;
    const QString path = parser.positionalArguments().first();
    if (!parser.isSet("output")) return usage(io, "quantize needs -o OUT.onnx");
    if (!parser.isSet("calib")) return usage(io, "quantize needs calibration data: --calib test_data_set_N (repeatable)");
    passes::CalibrationOptions calibration;
    if (!passes::calibrationMethodFromName(parser.value("method").toStdString(), &calibration.method))
        return usage(io, "unknown --method '" + parser.value("method") + "'; supported: minmax, percentile, entropy");
    bool percentileOk = false;
    calibration.percentile = parser.value("percentile").toDouble(&percentileOk);
    if (!percentileOk || !(calibration.percentile > 0 && calibration.percentile <= 100))
        return usage(io, "--percentile must be a number in (0, 100], e.g. 99.99");
    const QString method = QString::fromLatin1(passes::calibrationMethodName(calibration.method));
    passes::QuantizeExclusions exclude;
    for (const QString& op : parser.values("exclude-op")) {
        const auto kind = onnx::opFromOnnx(op.toStdString());
        if (!kind) return usage(io, "--exclude-op '" + op + "' is not an ONNX op Embark knows");
        exclude.ops.insert(*kind);
    }
    for (const QString& name : parser.values("exclude-node")) exclude.nodes.insert(name.toStdString());
    auto graph = loadModel(path, parser);
    if (!graph) return fail(io, graph.error());

    std::vector<passes::CalibrationSample> samples;
    for (const QString& spec : parser.values("calib")) {
        if (!QFileInfo::exists(spec))
            return fail(io, makeError(ErrorKind::InvalidInput, "--calib '" + spec.toStdString() + "' does not exist"));
        const QStringList folders = calibrationFolders(spec);
        if (folders.isEmpty())
            return fail(io, makeError(ErrorKind::InvalidInput, "--calib '" + spec.toStdString() +
                                                                   "' holds no input_K.pb files and no test_data_set_N folders"));
        for (const QString& folder : folders) {
            auto sample = readSample(*graph, folder);
            if (!sample) return fail(io, sample.error());
            samples.push_back(std::move(*sample));
        }
    }
    const ir::Graph fp = parser.isSet("report") ? graph->clone() : ir::Graph{};
    auto report = passes::quantizeStatic(*graph, samples, exclude, calibration);
    if (!report) return fail(io, report.error());
    const QString out = parser.value("output");
    if (Status s = onnx::writeModel(*graph, out.toStdString()); !s) return fail(io, s.error());
    // --report: the model as written, against the float model, on the first sample.
    std::optional<bench::LayerDiff> diff;
    constexpr double kSnrDrop = 10;
    constexpr int kTop = 10;
    if (parser.isSet("report")) {
        auto written = loadModel(out, parser);
        if (!written) return fail(io, written.error());
        auto d = diffModels(fp, *written, samples.front().inputs, kSnrDrop);
        if (!d) return fail(io, d.error());
        diff = std::move(*d);
    }

    if (parser.isSet("json")) {
        io.out << QJsonDocument(QJsonObject{{"model", path},
                                            {"output", out},
                                            {"method", method},
                                            {"samples", report->samples},
                                            {"quantized_nodes", report->quantizedNodes},
                                            {"quantized_activations", report->activations},
                                            {"excluded_nodes", report->excluded},
                                            {"report", diff ? QJsonValue(layerDiffJson(*diff, kTop, kSnrDrop)) : QJsonValue()}})
                      .toJson(QJsonDocument::Indented);
    } else {
        io.out << QStringLiteral("Quantized %1 node(s) and %2 activation(s) of %3 (%4 over %5 sample(s)) into %6\n")
                      .arg(report->quantizedNodes)
                      .arg(report->activations)
                      .arg(QFileInfo(path).fileName(), method)
                      .arg(report->samples)
                      .arg(out);
        if (diff) {
            io.out << QStringLiteral("Per-layer error against %1 on %2:\n")
                          .arg(QFileInfo(path).fileName(), QString::fromStdString(samples.front().label));
            printLayerDiff(io.out, *diff, kTop, kSnrDrop);
        }
    }
    return 0;
}

} // namespace embark::cli

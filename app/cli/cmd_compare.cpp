// `embark-cli compare FLOAT.onnx OTHER.onnx`: per-layer error of a model (typically the QDQ
// model `quantize` made) against the float model it came from, on the host reference.
#include "commands.h"
#include "layer_report.h"
#include "model_args.h"

#include "onnx/tensor_io.h"

#include <QFileInfo>
#include <QJsonDocument>

namespace embark::cli {
namespace {

// --input values: NAME=FILE / FILE as `run` takes them, or one test_data_set_N folder.
Expected<std::map<std::string, ir::Tensor>> compareInputs(const ir::Graph& fp, const QStringList& specs) {
    if (specs.size() == 1 && QFileInfo(specs.first()).isDir()) {
        auto set = onnx::readTestDataSet(specs.first().toStdString());
        if (!set) return set.error();
        if (set->inputs.size() < fp.inputs().size())
            return makeError(ErrorKind::InvalidInput, "'" + specs.first().toStdString() + "' has no input_" +
                                                          std::to_string(set->inputs.size()) + ".pb for input '" +
                                                          fp.inputs()[set->inputs.size()]->name + "'");
        return testSetInputs(fp, set->inputs);
    }
    return readInputs(fp, specs);
}

} // namespace

int cmdCompare(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Per-layer error of a model (e.g. a quantized one) against the float model it came from.");
    parser.addPositionalArgument("FLOAT", "The float .onnx file (the reference).");
    parser.addPositionalArgument("OTHER", "The .onnx file compared with it (e.g. the QDQ model of `quantize`).");
    addShapeOption(parser);
    parser.addOption({"input", "An input: NAME=FILE, FILE for a one-input model, or a test_data_set_N folder.", "SPEC"});
    parser.addOption({"seed", "Seed of the random inputs used when no --input is given (default 0).", "N", "0"});
    parser.addOption({"snr-drop", "Flag the first layer whose SNR falls this many dB below its inputs' (default 10).", "DB", "10"});
    parser.addOption({"top", "How many of the worst layers to list (default 10).", "N", "10"});
    parser.addOption({"json", "Print JSON."});
    if (int rc = parseOrExit(parser, args, io, "compare FLOAT.onnx OTHER.onnx [--input SPEC]... [--seed N] [--snr-drop DB] "
                                               "[--top N] [--shape NAME=DIMS]... [--json]", 2, 2);
        rc >= 0)
        return rc;
    bool ok = false;
    const double snrDrop = parser.value("snr-drop").toDouble(&ok);
    if (!ok || snrDrop < 0) return usage(io, "--snr-drop must be a non-negative number of dB");
    const int top = parser.value("top").toInt(&ok);
    if (!ok || top < 0) return usage(io, "--top must be a non-negative integer");
    const quint64 seed = parser.value("seed").toULongLong(&ok);
    if (!ok) return usage(io, "--seed must be a non-negative integer");

    const QStringList paths = parser.positionalArguments();
    auto fp = loadModel(paths[0], parser);
    if (!fp) return fail(io, fp.error());
    auto other = loadModel(paths[1], parser);
    if (!other) return fail(io, other.error());
    std::map<std::string, ir::Tensor> inputs;
    if (parser.isSet("input")) {
        auto in = compareInputs(*fp, parser.values("input"));
        if (!in) return fail(io, in.error());
        inputs = std::move(*in);
    } else {
        inputs = randomInputs(*fp, seed);
        io.err << "compare: no --input given: running on random values (floats in [0,1)) from --seed " << seed
               << "; quantization error is only meaningful on real data\n";
    }
    auto diff = diffModels(*fp, *other, inputs, snrDrop);
    if (!diff) return fail(io, diff.error());
    if (diff->layers.empty())
        return fail(io, makeError(ErrorKind::InvalidInput, "no value of '" + paths[0].toStdString() + "' has a float32 "
                                                           "counterpart of the same name in '" + paths[1].toStdString() +
                                                           "': compare needs the model made from it (quantize keeps names)"));
    if (parser.isSet("json")) {
        QJsonObject o = layerDiffJson(*diff, top, snrDrop);
        o["float"] = paths[0];
        o["other"] = paths[1];
        io.out << QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else {
        io.out << QStringLiteral("Per-layer error of %1 against %2\n").arg(QFileInfo(paths[1]).fileName(), QFileInfo(paths[0]).fileName());
        printLayerDiff(io.out, *diff, top, snrDrop);
    }
    return 0;
}

} // namespace embark::cli

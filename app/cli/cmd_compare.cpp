// `embark-cli compare FLOAT.onnx OTHER.onnx`: per-layer error of a model (typically the QDQ
// model `quantize` made) against the float model it came from, on the host reference.
#include "commands.h"
#include "run_json.h"
#include "layer_report.h"
#include "model_args.h"

#include "onnx/tensor_io.h"

#include <QFileInfo>
#include <QJsonDocument>

namespace embark::cli {
int cmdCompare(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Per-layer error of a model (e.g. a quantized one) against the float model it came from.");
    parser.addPositionalArgument("FLOAT", "The float .onnx file (the reference).");
    parser.addPositionalArgument("OTHER", "The .onnx file compared with it (e.g. the QDQ model of `quantize`).");
    addShapeOption(parser);
    parser.addOption(
        {"input", "An input: NAME=FILE, FILE for a one-input model, or a test_data_set_N folder.", "SPEC"});
    parser.addOption({"seed", "Seed of the random inputs used when no --input is given (default 0).", "N", "0"});
    parser.addOption(
        {"snr-drop", "Flag the first layer whose SNR falls this many dB below its inputs' (default 10).", "DB", "10"});
    parser.addOption({"top", "How many of the worst layers to list (default 10).", "N", "10"});
    parser.addOption({"json", "Print JSON."});
    if (int rc = parseOrExit(parser, args, io,
                             "compare FLOAT.onnx OTHER.onnx [--input SPEC]... [--seed N] [--snr-drop DB] "
                             "[--top N] [--shape NAME=DIMS]... [--json]",
                             2, 2);
        rc >= 0)
        return rc;
    bool ok = false;
    auto snrDropOpt = doubleOption(parser, "snr-drop", 0, 1000);
    if (!snrDropOpt) return fail(io, snrDropOpt.error());
    const double snrDrop = *snrDropOpt;
    auto topOpt = intOption(parser, "top", 0, 1000000);
    if (!topOpt) return fail(io, topOpt.error());
    const int top = static_cast<int>(*topOpt);
    const quint64 seed = parser.value("seed").toULongLong(&ok);
    if (!ok) return usage(io, "--seed '" + parser.value("seed") + "': give an integer in 0..18446744073709551615");

    const QStringList paths = parser.positionalArguments();
    auto fp = loadModel(paths[0], parser, nullptr, parser.values("input"));
    if (!fp) return fail(io, fp.error());
    auto other = loadModel(paths[1], parser, nullptr, parser.values("input"));
    if (!other) return fail(io, other.error());
    std::map<std::string, ir::Tensor> inputs;
    if (parser.isSet("input")) {
        auto in = readInputs(*fp, parser.values("input"));
        if (!in) return fail(io, in.error());
        inputs = std::move(*in);
    } else {
        inputs = randomInputs(*fp, seed);
        io.err << "embark-cli: note: no --input given: running on random values (floats in [0,1)) from --seed " << seed
               << "; quantization error is only meaningful on real data\n";
    }
    auto diff = diffModels(*fp, *other, inputs, snrDrop);
    if (!diff) return fail(io, diff.error());
    if (diff->layers.empty())
        return fail(io, makeError(ErrorKind::InvalidInput,
                                  "no value of '" + paths[0].toStdString() +
                                      "' has a float32 "
                                      "counterpart of the same name in '" +
                                      paths[1].toStdString() +
                                      "': compare needs the model made from it (quantize keeps names)"));
    if (parser.isSet("json")) {
        QJsonObject o = layerDiffJson(*diff, top, snrDrop);
        o["float"] = paths[0];
        o["other"] = paths[1];
        io.out << QJsonDocument(withSchema(o)).toJson(QJsonDocument::Indented);
    } else {
        io.out << QStringLiteral("Per-layer error of %1 against %2\n")
                      .arg(QFileInfo(paths[1]).fileName(), QFileInfo(paths[0]).fileName());
        printLayerDiff(io.out, *diff, top, snrDrop);
    }
    return 0;
}

} // namespace embark::cli

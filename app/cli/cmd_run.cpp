// `embark-cli run MODEL ...`: runs the host reference interpreter, prints the outputs (top-5
// for a classifier) and, with --expect, the accuracy of each output against expected data.
#include "commands.h"
#include "run_json.h"
#include "model_args.h"

#include "results/metrics.h"
#include "onnx/tensor_io.h"
#include "reference/interpreter.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSaveFile>
#include <QJsonDocument>

#include <cctype>
#include <cmath>

namespace embark::cli {
namespace {

bool isClassifier(const ir::Tensor& t) {
    const auto& d = t.shape().dims();
    return t.numel() >= 2 && (d.size() == 1 || (d.size() == 2 && d[0] == 1));
}

// A file name for a value: keeps [A-Za-z0-9._-], replaces the rest, never "." or "..".
QString safeFileName(const std::string& name) {
    QString s;
    for (char c : name)
        s += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? QChar(c) : QChar('_');
    return s.isEmpty() ? QStringLiteral("value") : s;
}

struct Expected_ {
    std::vector<onnx::NamedTensor> outputs;
    std::vector<onnx::NamedTensor> inputs; // from a test_data_set folder
};

Expected<Expected_> readExpect(const QStringList& specs) {
    Expected_ e;
    if (specs.size() == 1 && QFileInfo(specs.first()).isDir()) {
        auto set = onnx::readTestDataSet(specs.first().toStdString());
        if (!set) return set.error();
        e.inputs = std::move(set->inputs);
        e.outputs = std::move(set->outputs);
        return e;
    }
    for (const QString& f : specs) {
        EMBARK_TRY(requireTensorFile("expect", f));
        auto t = onnx::readTensorFile(f.toStdString());
        if (!t) return t.error();
        e.outputs.push_back(std::move(*t));
    }
    return e;
}

// Pairs expected tensors with graph outputs: by TensorProto name when it matches, else by index.
const ir::Tensor* expectedFor(const Expected_& e, const std::string& name, size_t index) {
    for (const auto& t : e.outputs)
        if (t.name == name) return &t.tensor;
    return index < e.outputs.size() ? &e.outputs[index].tensor : nullptr;
}

std::vector<const ir::Value*> missingInputs(const ir::Graph& graph, const std::map<std::string, ir::Tensor>& inputs) {
    std::vector<const ir::Value*> missing;
    for (const ir::Value* v : graph.inputs())
        if (!inputs.count(v->name)) missing.push_back(v);
    return missing;
}

// "'image' (float32 1x1x16x16), 'mask' (bool 1x16)"
QString describeInputs(const std::vector<const ir::Value*>& values) {
    QStringList parts;
    for (const ir::Value* v : values)
        parts << QStringLiteral("'%1' (%2 %3)")
                     .arg(QString::fromStdString(v->name), QString::fromLatin1(ir::dtypeName(v->dtype).data()),
                          QString::fromStdString(v->shape.str()));
    return parts.join(", ");
}

Status dumpValues(const QString& dir, const reference::RunResult& result) {
    if (!QDir().mkpath(dir))
        return makeError(ErrorKind::External, "cannot create dump folder '" + dir.toStdString() + "'");
    QJsonArray manifest;
    for (const auto& [name, tensor] : result.values) {
        const QString file = safeFileName(name) + ".npy";
        EMBARK_TRY(onnx::writeNpy((dir + "/" + file).toStdString(), tensor));
        manifest.append(QJsonObject{{"value", QString::fromStdString(name)},
                                    {"file", file},
                                    {"dtype", QString::fromLatin1(ir::dtypeName(tensor.dtype()).data())},
                                    {"shape", shapeToJson(tensor.shape())}});
    }
    QSaveFile f(dir + "/manifest.json");
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(manifest).toJson()) < 0 || !f.flush() || !f.commit())
        return makeError(ErrorKind::External, "cannot write '" + f.fileName().toStdString() + "'");
    return {};
}

} // namespace

int cmdRun(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Run a model through the host reference interpreter.");
    parser.addPositionalArgument("MODEL", "The .onnx file.");
    addShapeOption(parser);
    parser.addOption(
        {"input", "Input tensor file (.pb, .npy, raw .bin), NAME=FILE or FILE (repeatable).", "NAME=FILE"});
    parser.addOption(
        {"expect", "Expected outputs: a test_data_set_N folder or output files (repeatable).", "DIR|FILE"});
    parser.addOption({"tolerance", "Allowed max |diff| relative to max |expected| (default 1e-4).", "T", "1e-4"});
    parser.addOption({"dump", "Write every intermediate value as .npy into DIR.", "DIR"});
    parser.addOption({"seed", "Seed of the random inputs used when no data is given (default 0).", "N", "0"});
    parser.addOption({"json", "Print one JSON object."});
    const QString synopsis = "run MODEL [--shape NAME=DIMS]... [--input NAME=FILE]... [--expect DIR|FILE]... "
                             "[--seed N] [--tolerance T] [--dump DIR] [--json]";
    if (int rc = parseOrExit(parser, args, io, synopsis, 1, 1); rc >= 0) return rc;
    bool tolOk = false;
    const double tolerance = parser.value("tolerance").toDouble(&tolOk);
    if (!tolOk || !(tolerance >= 0) || std::isinf(tolerance))
        return usage(io, "--tolerance '" + parser.value("tolerance") + "': give a finite number >= 0 (e.g. 1e-4)");
    bool seedOk = false;
    const quint64 seed = parser.value("seed").toULongLong(&seedOk);
    if (!seedOk) return usage(io, "--seed '" + parser.value("seed") + "': give an integer in 0..18446744073709551615");

    const QString path = parser.positionalArguments().first();
    auto graph = loadModel(path, parser, &io, parser.values("input"));
    if (!graph) return fail(io, graph.error());

    Expected_ expected;
    if (parser.isSet("expect")) {
        auto e = readExpect(parser.values("expect"));
        if (!e) return fail(io, e.error());
        expected = std::move(*e);
    }
    std::map<std::string, ir::Tensor> inputs;
    if (parser.isSet("input")) {
        auto in = readInputs(*graph, parser.values("input"));
        if (!in) return fail(io, in.error());
        inputs = std::move(*in);
    } else {
        inputs = testSetInputs(*graph, expected.inputs);
    }
    // Like onnxruntime_perf_test: inputs given no data run on seeded random values, except
    // against expected outputs, which belong to particular inputs.
    const std::vector<const ir::Value*> missing = missingInputs(*graph, inputs);
    if (!missing.empty() && parser.isSet("expect"))
        return usage(io, "no data for input(s) " + describeInputs(missing) +
                             ": expected outputs need their inputs, give them with --input NAME=FILE "
                             "(or a test_data_set_N folder with input_K.pb files to --expect)");
    if (!missing.empty()) {
        inputs = randomInputs(*graph, seed, inputs);
        io.err << "embark-cli: note: no data given for input(s) " << describeInputs(missing)
               << ": running on random values (floats in [0,1), integers in [0,10)) from --seed " << seed << "\n";
    }

    reference::RunOptions options;
    options.captureAll = parser.isSet("dump");
    QElapsedTimer timer;
    timer.start();
    auto result = reference::run(*graph, inputs, options);
    const double ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    if (!result) return fail(io, result.error());
    if (parser.isSet("dump"))
        if (Status s = dumpValues(parser.value("dump"), *result); !s) return fail(io, s.error());

    bool allOk = true;
    QJsonArray outputsJson, comparisonJson;
    QString text =
        QStringLiteral("Reference run of %1 took %2 ms\n").arg(QFileInfo(path).fileName()).arg(ms, 0, 'f', 1);
    if (!missing.empty())
        text += QStringLiteral("Random inputs (--seed %1): %2\n").arg(seed).arg(describeInputs(missing));
    for (size_t i = 0; i < result->outputs.size(); ++i) {
        const ir::Tensor& t = result->outputs[i];
        const std::string& name = result->outputNames[i];
        QJsonObject o{{"name", QString::fromStdString(name)},
                      {"dtype", QString::fromLatin1(ir::dtypeName(t.dtype()).data())},
                      {"shape", shapeToJson(t.shape())}};
        QJsonArray head;
        for (int64_t k = 0; k < std::min<int64_t>(t.numel(), 10); ++k) head.append(t.at(k));
        o["head"] = head;
        text += QStringLiteral("Output '%1' %2 %3\n")
                    .arg(QString::fromStdString(name), QString::fromLatin1(ir::dtypeName(t.dtype()).data()),
                         QString::fromStdString(t.shape().str()));
        if (isClassifier(t)) {
            QJsonArray top;
            text += "  top-5:";
            for (int64_t idx : bench::topK(t, 5)) {
                top.append(QJsonObject{{"index", static_cast<qint64>(idx)}, {"value", t.at(idx)}});
                text += QStringLiteral(" %1 (%2)").arg(idx).arg(t.at(idx), 0, 'g', 6);
            }
            text += "\n";
            o["top5"] = top;
        } else {
            text += "  first values:";
            for (const auto& v : head) text += " " + QString::number(v.toDouble(), 'g', 6);
            text += "\n";
        }
        outputsJson.append(o);
        if (const ir::Tensor* ref = expectedFor(expected, name, i)) {
            const bench::Accuracy a = bench::compare(t, *ref, name);
            // Integer and bool outputs (quantized tensors, indices) have no rounding error to
            // allow for: they must be identical, dtype included, whatever --tolerance says.
            const bool exact = !ir::isFloating(ref->dtype());
            const bool ok = exact ? a.shapeMatches && a.maxAbs == 0 && t.dtype() == ref->dtype()
                                  : bench::withinTolerance(a, tolerance);
            allOk = allOk && ok;
            comparisonJson.append(QJsonObject{{"name", QString::fromStdString(name)},
                                              {"max_abs", a.maxAbs},
                                              {"max_rel", a.maxRel},
                                              {"rmse", a.rmse},
                                              {"cosine", a.cosine},
                                              {"snr_db", a.snrDb},
                                              {"shape_matches", a.shapeMatches},
                                              {"exact", exact},
                                              {"ok", ok}});
            const QString verdict =
                ok      ? QStringLiteral("ok")
                : exact ? QStringLiteral("NOT IDENTICAL (%1 %2 output, expected %3 %4: compared exactly)")
                              .arg(QString::fromLatin1(ir::dtypeName(t.dtype()).data()),
                                   QString::fromStdString(t.shape().str()),
                                   QString::fromLatin1(ir::dtypeName(ref->dtype()).data()),
                                   QString::fromStdString(ref->shape().str()))
                        : QStringLiteral("OUTSIDE TOLERANCE %1").arg(tolerance);
            text += QStringLiteral("  vs expected: max_abs %1  max_rel %2  rmse %3  cosine %4  snr %5 dB  %6\n")
                        .arg(a.maxAbs, 0, 'g', 3)
                        .arg(a.maxRel, 0, 'g', 3)
                        .arg(a.rmse, 0, 'g', 3)
                        .arg(a.cosine, 0, 'f', 7)
                        .arg(a.snrDb, 0, 'f', 1)
                        .arg(verdict);
        }
    }
    if (parser.isSet("json")) {
        QJsonObject root{{"model", path}, {"reference_ms", ms}, {"outputs", outputsJson}};
        if (!missing.empty()) {
            QJsonArray names;
            for (const ir::Value* v : missing) names.append(QString::fromStdString(v->name));
            root["random_inputs"] = QJsonObject{{"seed", static_cast<qint64>(seed)}, {"inputs", names}};
        }
        if (!comparisonJson.isEmpty()) {
            root["accuracy"] = QJsonObject{{"outputs", comparisonJson}}; // as bench's accuracy.outputs
            root["tolerance"] = tolerance;
            root["ok"] = allOk;
        }
        io.out << QJsonDocument(withSchema(root)).toJson(QJsonDocument::Indented);
    } else {
        io.out << text;
    }
    return allOk ? 0 : static_cast<int>(ErrorKind::Mismatch);
}

} // namespace embark::cli

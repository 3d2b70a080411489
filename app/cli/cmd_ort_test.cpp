// `embark-cli ort-test DIR`: onnx_test_runner's job with the host's ONNX Runtime (npm's
// onnxruntime-node, Embark's runner runtime/ort/ort_run.js): every test_data_set_N of an ONNX
// test folder (model.onnx beside test_data_set_0, test_data_set_1, ...) runs once and its
// outputs are compared with the set's output_K.pb, pass or fail per set.
#include "commands.h"
#include "model_args.h"
#include "run_json.h"

#include "compile/export_builder.h"
#include "jobs/ort_pipeline.h"
#include "onnx/tensor_io.h"
#include "results/metrics.h"
#include "targets/board.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>

namespace embark::cli {
namespace {

// test_data_set_N folders of DIR in N order.
QStringList testSets(const QString& dir) {
    QStringList sets = QDir(dir).entryList({"test_data_set_*"}, QDir::Dirs);
    auto index = [](const QString& s) { return s.section('_', -1).toInt(); };
    std::sort(sets.begin(), sets.end(), [&](const QString& a, const QString& b) { return index(a) < index(b); });
    return sets;
}

struct SetResult {
    QString name;
    bool ok = true;
    QString problem; // why it failed to run
    QJsonArray outputs;
};

// Runs one set with ort_run.js and compares its outputs with the set's expected ones.
SetResult runSet(const QString& model, const QString& setDir, const QString& nodeModules, const QString& work,
                 double tolerance) {
    SetResult r;
    r.name = QFileInfo(setDir).fileName();
    auto set = onnx::readTestDataSet(setDir.toStdString());
    if (!set) {
        r.ok = false;
        r.problem = QString::fromStdString(set.error().message);
        return r;
    }
    if (set->outputs.empty()) {
        r.ok = false;
        r.problem = "the set has no output_K.pb to compare with: add the expected outputs (e.g. from "
                    "'embark-cli run MODEL --input " +
                    setDir + " --dump DIR')";
        return r;
    }
    QStringList args{jobs::ortRunnerScript(), model, "--iterations", "1", "--warmup", "0", "--out", r.name};
    for (const QString& f : QDir(setDir).entryList({"input_*.pb"}, QDir::Files, QDir::Name))
        args << "--input" << setDir + "/" + f;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("NODE_PATH", nodeModules);
    QByteArray lines;
    auto rc = build::runProcess(
        "node", args, work, [&](const QString& line) { lines += line.toUtf8() + '\n'; }, nullptr, 10 * 60 * 1000, &env);
    if (!rc || *rc != 0) {
        r.ok = false;
        r.problem = rc ? QStringLiteral("ort_run.js exited with status %1: %2")
                             .arg(*rc)
                             .arg(QString::fromUtf8(lines.right(400)))
                       : QString::fromStdString(rc.error().message);
        return r;
    }
    size_t k = 0;
    for (const QByteArray& raw : lines.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(raw).object();
        if (o.value("type").toString() != "output") continue;
        const std::string name = o.value("name").toString().toStdString();
        const size_t index = k++;
        const ir::Tensor* ref = nullptr;
        for (const auto& e : set->outputs)
            if (e.name == name) ref = &e.tensor;
        if (!ref && index < set->outputs.size()) ref = &set->outputs[index].tensor;
        if (!ref) continue;
        ir::DType dtype = ir::DType::Float32;
        if (!ir::dtypeFromName(o.value("dtype").toString().toStdString(), &dtype)) dtype = ir::DType::Float32;
        std::vector<int64_t> dims;
        for (const QJsonValue& d : o.value("shape").toArray()) dims.push_back(d.toInteger());
        auto got = onnx::readRaw((work + "/" + o.value("file").toString()).toStdString(), dtype, ir::Shape(dims));
        if (!got) {
            r.ok = false;
            r.problem = QString::fromStdString(got.error().message);
            return r;
        }
        const bench::Accuracy a = bench::compare(*got, *ref, name);
        const bool exact = !ir::isFloating(ref->dtype());
        const bool ok = exact ? a.shapeMatches && a.maxAbs == 0 : bench::withinTolerance(a, tolerance);
        r.ok = r.ok && ok;
        r.outputs.append(QJsonObject{{"name", QString::fromStdString(name)},
                                     {"max_abs", a.maxAbs},
                                     {"max_rel", a.maxRel},
                                     {"rmse", a.rmse},
                                     {"cosine", a.cosine},
                                     {"snr_db", a.snrDb},
                                     {"shape_matches", a.shapeMatches},
                                     {"exact", exact},
                                     {"ok", ok}});
    }
    if (r.outputs.isEmpty()) {
        r.ok = false;
        r.problem = "no output of ONNX Runtime matches the set's output_K.pb";
    }
    return r;
}

} // namespace

int cmdOrtTest(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Run every test_data_set_N of an ONNX test folder with the host's ONNX Runtime "
                                     "(onnx_test_runner's job): pass or fail per set.");
    parser.addPositionalArgument("DIR",
                                 "A folder with model.onnx and test_data_set_N folders (or MODEL.onnx beside them).");
    parser.addOption({"tolerance", "Allowed max |diff| relative to max |expected| (default 1e-4).", "T", "1e-4"});
    parser.addOption({"json", "Print one JSON object."});
    if (int rc = parseOrExit(parser, args, io, "ort-test DIR|MODEL.onnx [--tolerance T] [--json]", 1, 1); rc >= 0)
        return rc;
    auto tolerance = doubleOption(parser, "tolerance", 0, 1e30);
    if (!tolerance) return fail(io, tolerance.error());
    const QFileInfo arg(parser.positionalArguments().first());
    const QString dir = arg.isDir() ? arg.absoluteFilePath() : arg.absolutePath();
    const QString model = arg.isDir() ? dir + "/model.onnx" : arg.absoluteFilePath();
    if (!QFileInfo(model).isFile())
        return fail(io, makeError(ErrorKind::InvalidInput, "'" + model.toStdString() +
                                                               "' does not exist: give a folder "
                                                               "with model.onnx and test_data_set_N folders"));
    // MODEL.onnx with its sets beside it, or in a folder named after it (resources/models/digits_cnn/).
    QString setsDir = dir;
    if (!arg.isDir() && testSets(dir).isEmpty() && QFileInfo(dir + "/" + arg.completeBaseName()).isDir())
        setsDir = dir + "/" + arg.completeBaseName();
    const QStringList sets = testSets(setsDir);
    if (sets.isEmpty())
        return fail(
            io, makeError(ErrorKind::InvalidInput, "'" + setsDir.toStdString() + "' has no test_data_set_N folder"));

    // The host's ONNX Runtime: the host board's onnxruntime object, installed by bench.
    auto host = targets::findBoard("host");
    if (!host) return fail(io, host.error());
    if (!host->onnxruntime || !host->onnxruntime->isNode())
        return fail(io, makeError(ErrorKind::Unsupported,
                                  "board 'host' names no npm onnxruntime-node (its \"onnxruntime\" object)"));
    const QString nodeDir = targets::ortNodeInstallDir(*host->onnxruntime);
    if (!QFileInfo::exists(nodeDir + "/node_modules/onnxruntime-node/package.json"))
        return fail(io,
                    makeError(ErrorKind::External,
                              "onnxruntime-node is not installed in '" + nodeDir.toStdString() +
                                  "': 'embark-cli bench MODEL --board host --runtime onnxruntime' installs it (npm)"));
    QTemporaryDir work;
    if (!work.isValid()) return fail(io, makeError(ErrorKind::External, "cannot create a temporary folder"));

    QJsonArray results;
    int passed = 0;
    QString text;
    for (const QString& s : sets) {
        const SetResult r = runSet(model, setsDir + "/" + s, nodeDir + "/node_modules", work.path(), *tolerance);
        passed += r.ok ? 1 : 0;
        QJsonObject o{{"name", r.name}, {"ok", r.ok}, {"outputs", r.outputs}};
        if (!r.problem.isEmpty()) o["problem"] = r.problem;
        results.append(o);
        double worst = 0;
        for (const QJsonValue& v : r.outputs) worst = std::max(worst, v.toObject().value("max_rel").toDouble());
        text += QStringLiteral("%1  %2").arg(r.name, r.ok ? QStringLiteral("passed") : QStringLiteral("FAILED"));
        text +=
            r.problem.isEmpty() ? QStringLiteral("  (max_rel %1)\n").arg(worst, 0, 'g', 3) : "  " + r.problem + "\n";
    }
    const int total = static_cast<int>(sets.size());
    if (parser.isSet("json")) {
        io.out << QJsonDocument(withSchema({{"model", model},
                                            {"runtime", "onnxruntime"},
                                            {"tolerance", *tolerance},
                                            {"total", total},
                                            {"passed", passed},
                                            {"failed", total - passed},
                                            {"sets", results}}))
                      .toJson(QJsonDocument::Indented);
    } else {
        io.out << text << "result: " << passed << " of " << total << " test set(s) passed with ONNX Runtime (tolerance "
               << *tolerance << ")\n";
    }
    if (passed != total) {
        io.err << "embark-cli: error: " << total - passed << " of " << total << " test set(s) of " << setsDir
               << " outside the tolerance or failed\n";
        return static_cast<int>(ErrorKind::Mismatch);
    }
    return 0;
}

} // namespace embark::cli

#include "model_args.h"

#include "onnx/importer.h"
#include "onnx/model_inputs.h"
#include "onnx/tensor_io.h"

#include <QFileInfo>
#include <QLocale>

#include <random>

namespace embark::cli {

std::map<std::string, ir::Tensor> testSetInputs(const ir::Graph& graph, const std::vector<onnx::NamedTensor>& set) {
    return onnx::pairTestSetInputs(graph, set);
}

namespace {

// An `--input` value: NAME=FILE, or a FILE (name empty) when no '=' splits it or the whole value
// names an existing file.
struct InputSpec {
    std::string name;
    QString file;
};
InputSpec splitInputSpec(const QString& spec) {
    const qsizetype eq = spec.indexOf('=');
    if (eq > 0 && !QFileInfo::exists(spec)) return {spec.left(eq).toStdString(), spec.mid(eq + 1)};
    return {{}, spec};
}

// The tensors of `--input` specs whose files carry a shape (.pb, .npy; raw .bin takes the
// model's): a test_data_set_N folder's input_K.pb, NAME=FILE or a lone FILE. Unreadable files
// are left to readInputs, which names them.
std::vector<onnx::NamedTensor> inputSpecTensors(const QStringList& specs, bool* named) {
    std::vector<onnx::NamedTensor> out;
    *named = false;
    if (specs.size() == 1 && QFileInfo(specs.first()).isDir()) {
        if (auto set = onnx::readTestDataSet(specs.first().toStdString())) out = std::move(set->inputs);
        return out;
    }
    for (const QString& spec : specs) {
        const auto [name, file] = splitInputSpec(spec);
        const QString suffix = QFileInfo(file).suffix().toLower();
        if (suffix != QLatin1String("pb") && suffix != QLatin1String("npy")) continue;
        auto t = onnx::readTensorFile(file.toStdString());
        if (!t) continue;
        if (!name.empty()) {
            t->name = name;
            *named = true;
        }
        out.push_back(std::move(*t));
    }
    return out;
}

} // namespace

Status fixFreeDimensions(const std::string& path, std::map<std::string, ir::Shape>& overrides,
                         const QStringList& inputSpecs) {
    return fixFreeDimensions(path, overrides, inputSpecs, nullptr);
}

Status fixFreeDimensions(const std::string& path, std::map<std::string, ir::Shape>& overrides,
                         const QStringList& inputSpecs, std::map<std::string, ir::Tensor>* sample) {
    auto declared = onnx::declaredInputs(path);
    if (!declared) return {}; // the import names what is wrong with the file
    std::vector<const onnx::DeclaredInput*> free;
    for (const onnx::DeclaredInput& in : *declared)
        if (in.hasFreeDims() && !overrides.count(in.name)) free.push_back(&in);
    if (free.empty() && !sample) return {};
    // The tensors --input gives, else the test data beside the model: read once, for the free
    // dimensions and for the values the import's shape propagation runs on.
    bool named = false;
    const std::vector<onnx::NamedTensor> given = inputSpecTensors(inputSpecs, &named);
    const std::vector<onnx::NamedTensor> beside = onnx::testDataBesideInputs(path);
    if (sample) {
        for (const auto& [name, t] : onnx::pairTensors(*declared, given, named)) (*sample)[name] = *t;
        for (const auto& [name, t] : onnx::pairTensors(*declared, beside)) sample->emplace(name, *t);
    }
    if (free.empty()) return {};
    auto fromData = onnx::shapesFromTensors(*declared, given, named);
    for (const auto& [name, shape] : onnx::shapesFromTensors(*declared, beside)) fromData.emplace(name, shape);
    std::string missing, options;
    for (const onnx::DeclaredInput* in : free) {
        if (auto it = fromData.find(in->name); it != fromData.end()) {
            overrides[in->name] = it->second;
            continue;
        }
        missing += (missing.empty() ? "" : "; ") + ("input '" + in->name + "' has " + onnx::freeDimsText(*in));
        options += (options.empty() ? "" : " ") + onnx::shapeOption(*in);
    }
    if (missing.empty()) return {};
    return makeError(ErrorKind::Usage, path + ": " + missing +
                                           ", and neither --input nor test data beside the model "
                                           "(test_data_set_0/input_K.pb) fixes them: pass " +
                                           options +
                                           " with the sizes you deploy (the free dimensions are given as 1 here)");
}

void addShapeOption(QCommandLineParser& parser) {
    parser.addOption({"shape", "Fix an input's shape, e.g. input=1x3x224x224 (repeatable).", "NAME=DIMS"});
}

Expected<std::map<std::string, ir::Shape>> shapeOverrides(const QCommandLineParser& parser) {
    std::map<std::string, ir::Shape> out;
    for (const QString& spec : parser.values("shape")) {
        const qsizetype eq = spec.lastIndexOf('=');
        auto shape = eq > 0 ? ir::Shape::parse(spec.mid(eq + 1).toStdString()) : std::nullopt;
        if (!shape)
            return makeError(ErrorKind::Usage,
                             "--shape '" + spec.toStdString() + "' is not NAME=DIMS (e.g. input=1x3x224x224)");
        out[spec.left(eq).toStdString()] = *shape;
    }
    return out;
}

Expected<ir::Graph> loadModel(const QString& path, const QCommandLineParser& parser, Io* io,
                              const QStringList& inputSpecs) {
    auto overrides = shapeOverrides(parser);
    if (!overrides) return overrides.error();
    onnx::ImportOptions options;
    EMBARK_TRY(fixFreeDimensions(path.toStdString(), *overrides, inputSpecs, &options.shapeSample));
    options.shapeOverrides = std::move(*overrides);
    auto graph = onnx::importModel(path.toStdString(), options);
    if (graph && io)
        if (auto w = graph->metadata.find("shape_warnings"); w != graph->metadata.end())
            for (const QString& line : QString::fromStdString(w->second).split('\n', Qt::SkipEmptyParts))
                io->err << "embark-cli: warning: " << path << ": " << line << "\n";
    return graph;
}

Status requireTensorFile(const QString& option, const QString& path) {
    const QFileInfo info(path);
    if (!info.exists())
        return makeError(ErrorKind::InvalidInput,
                         "--" + option.toStdString() + " '" + path.toStdString() + "' does not exist");
    if (info.isDir())
        return makeError(ErrorKind::InvalidInput,
                         "--" + option.toStdString() + " '" + path.toStdString() +
                             "' is a folder, not a tensor file (.pb, .npy or .bin); a "
                             "test_data_set_N folder is accepted only as the option's one value");
    return {};
}

Expected<qint64> intOption(const QCommandLineParser& parser, const QString& name, qint64 min, qint64 max) {
    bool ok = false;
    const QString text = parser.value(name);
    const qint64 v = text.toLongLong(&ok);
    if (!ok || v < min || v > max)
        return makeError(
            ErrorKind::Usage,
            QStringLiteral("--%1 '%2': give an integer in %3..%4").arg(name, text).arg(min).arg(max).toStdString());
    return v;
}

Expected<double> doubleOption(const QCommandLineParser& parser, const QString& name, double min, double max) {
    bool ok = false;
    const QString text = parser.value(name);
    const double v = text.toDouble(&ok);
    if (!ok || !(v >= min && v <= max))
        return makeError(
            ErrorKind::Usage,
            QStringLiteral("--%1 '%2': give a number in [%3, %4]").arg(name, text).arg(min).arg(max).toStdString());
    return v;
}

Expected<std::map<std::string, ir::Tensor>> readInputs(const ir::Graph& graph, const QStringList& specs) {
    std::map<std::string, ir::Tensor> inputs;
    // One test_data_set_N folder gives every input, as compare and quantize --calib take it.
    if (specs.size() == 1 && QFileInfo(specs.first()).isDir()) {
        auto set = onnx::readTestDataSet(specs.first().toStdString());
        if (!set) return set.error();
        if (set->inputs.size() < graph.inputs().size())
            return makeError(ErrorKind::InvalidInput, "'" + specs.first().toStdString() + "' has no input_" +
                                                          std::to_string(set->inputs.size()) + ".pb for input '" +
                                                          graph.inputs()[set->inputs.size()]->name + "'");
        return testSetInputs(graph, set->inputs);
    }
    for (const QString& spec : specs) {
        auto [name, file] = splitInputSpec(spec);
        if (name.empty() && graph.inputs().size() == 1) {
            name = graph.inputs().front()->name;
        } else if (name.empty()) {
            return makeError(ErrorKind::Usage,
                             "--input '" + spec.toStdString() + "': the model has several inputs, use NAME=FILE");
        }
        const ir::Value* input = graph.findValue(name);
        if (!input || !input->isGraphInput()) {
            std::string names;
            for (const ir::Value* v : graph.inputs()) names += (names.empty() ? "" : ", ") + v->name;
            return makeError(ErrorKind::Usage, "--input names '" + name +
                                                   "', which is not an input of the model (inputs: " + names + ")");
        }
        EMBARK_TRY(requireTensorFile("input", file));
        auto tensor = onnx::readTensorFile(file.toStdString(), input->dtype, input->shape);
        if (!tensor) return tensor.error();
        const ir::Tensor& t = tensor->tensor;
        if (t.dtype() != input->dtype || t.shape() != input->shape)
            return makeError(ErrorKind::InvalidInput,
                             "--input " + name + "=" + file.toStdString() + ": the file holds " +
                                 std::string(ir::dtypeName(t.dtype())) + " " + t.shape().str() + ", but input '" +
                                 name + "' is " + std::string(ir::dtypeName(input->dtype)) + " " + input->shape.str() +
                                 "; give a tensor of that dtype and shape");
        inputs[name] = t;
    }
    return inputs;
}

std::map<std::string, ir::Tensor> randomInputs(const ir::Graph& graph, uint64_t seed,
                                               const std::map<std::string, ir::Tensor>& given) {
    std::map<std::string, ir::Tensor> inputs = given;
    std::mt19937_64 rng(seed);
    for (const ir::Value* v : graph.inputs()) {
        if (inputs.count(v->name)) continue;
        const bool integral = !ir::isFloating(v->dtype);
        const int range = v->dtype == ir::DType::Bool ? 2 : 10;
        std::vector<float> data(static_cast<size_t>(v->shape.numel()));
        for (float& x : data) {
            const uint64_t bits = rng();
            x = integral ? static_cast<float>(bits % static_cast<uint64_t>(range))
                         : static_cast<float>(bits >> 40) * (1.0f / 16777216.0f); // 24 bits: [0,1)
        }
        const ir::Tensor t = ir::Tensor::fromFloats(v->shape, data);
        inputs[v->name] = v->dtype == ir::DType::Float32 ? t : t.castTo(v->dtype);
    }
    return inputs;
}

int parseOrExit(QCommandLineParser& parser, const QStringList& args, Io& io, const QString& synopsis, int minPositional,
                int maxPositional) {
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help({"h", "help"}, "Show this help.");
    parser.addOption(help);
    if (!parser.parse(QStringList{"embark-cli"} + args)) return usage(io, parser.errorText());
    if (parser.isSet(help)) {
        io.out << "Usage: embark-cli " << synopsis << "\n\n"
               << parser.helpText().section('\n', 2) << "\n"
               << exitStatusHelp();
        return 0;
    }
    const auto n = parser.positionalArguments().size();
    if (n < minPositional || (maxPositional >= 0 && n > maxPositional))
        return usage(io, "usage: embark-cli " + synopsis);
    return -1;
}

QJsonArray shapeToJson(const ir::Shape& s) {
    QJsonArray a;
    for (int64_t d : s.dims()) a.append(static_cast<qint64>(d));
    return a;
}

QString formatCount(int64_t n) { return QLocale(QLocale::English).toString(static_cast<qlonglong>(n)); }

QString formatBytes(int64_t bytes) {
    QString s = formatCount(bytes) + " B";
    if (bytes >= 1024 * 1024)
        s += QStringLiteral(" (%1 MiB)").arg(bytes / 1048576.0, 0, 'f', 2);
    else if (bytes >= 1024)
        s += QStringLiteral(" (%1 KiB)").arg(bytes / 1024.0, 0, 'f', 1);
    return s;
}

} // namespace embark::cli

// `embark-cli quantize MODEL -o OUT.onnx --calib SRC...`: static post-training quantization
// (minmax, percentile or entropy calibration) into a standard QDQ model, calibrated on
// test_data_set_N folders, tensor files or images (jobs/calibration_data; images decoded by
// app/imageio). Progress on stderr; Ctrl+C cancels (status 5) and nothing is written.
#include "commands.h"
#include "run_json.h"
#include "interrupt.h"
#include "layer_report.h"
#include "model_args.h"
#include "quantize_args.h"
#include "target_options.h"

#include "jobs/calibration_data.h"
#include "export/deployment_plan.h"
#include "onnx/writer.h"
#include "passes/quantize_static.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <optional>

namespace embark::cli {
namespace {

// "embark-cli: calibrating D/T" on stderr, at most one line every kInterval ms; false
// (cancel) once Ctrl+C or SIGTERM was received.
class ProgressPrinter {
public:
    static constexpr qint64 kInterval = 1000;

    ProgressPrinter(Io& io, const std::atomic_bool* interrupted, int samples)
        : m_io(io), m_interrupted(interrupted), m_samples(samples) {
        m_clock.start();
    }
    bool operator()(int done, int total) {
        if (m_interrupted->load()) return false;
        if (done > 0 && done < total && m_clock.elapsed() >= kInterval) {
            m_clock.restart();
            m_io.err << "embark-cli: calibrating " << done << "/" << total;
            if (total > m_samples) m_io.err << " (" << m_samples << " samples, two passes)";
            m_io.err << "\n";
            m_io.err.flush();
        }
        return true;
    }

private:
    Io& m_io;
    const std::atomic_bool* m_interrupted;
    int m_samples;
    QElapsedTimer m_clock;
};

// The quantized model's plan for the target: which library runs how many nodes, the arena.
Expected<QJsonObject> targetPlanSummary(const ir::Graph& model, const exporter::DeploymentTarget& target) {
    auto plan = exporter::buildDeploymentPlan(model, exporter::planOptions(target));
    if (!plan) return plan.error();
    std::map<std::string, int> perLibrary;
    for (const auto& [name, assignment] : (*plan)->adaptation.nodes)
        if (assignment.rule != exporter::AssignmentRule::Conversion) ++perLibrary[assignment.library];
    QJsonObject nodes;
    for (const auto& [lib, count] : perLibrary) nodes[QString::fromStdString(lib)] = count;
    return QJsonObject{{"board", target.board.id},
                       {"arch", QString::fromStdString(target.arch)},
                       {"library", QString::fromStdString(target.library)},
                       {"nodes_per_library", nodes},
                       {"arena_bytes", static_cast<qint64>((*plan)->memory.arenaBytes)}};
}

QString targetPlanLine(const QJsonObject& t) {
    QStringList libs;
    const QJsonObject nodes = t["nodes_per_library"].toObject();
    for (auto it = nodes.begin(); it != nodes.end(); ++it)
        libs << QStringLiteral("%1 on %2").arg(it.value().toInt()).arg(it.key());
    return QStringLiteral("Planned for %1 (%2, --lib %3): %4; arena %5")
        .arg(t["board"].toString(), t["arch"].toString(), t["library"].toString(), libs.join(", "),
             formatBytes(static_cast<int64_t>(t["arena_bytes"].toDouble())));
}

} // namespace

int cmdQuantize(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    addQuantizeOptions(parser);
    addTargetOptions(parser);
    addShapeOption(parser);
    const QString synopsis = QStringLiteral("%1 %2 [--shape NAME=DIMS]...")
                                 .arg(QLatin1String(kQuantizeSynopsis), QLatin1String(kTargetSynopsis));
    if (int rc = parseOrExit(parser, args, io, synopsis, 1, 1); rc >= 0) return rc;
    QuantizeArgs a;
    if (int rc = readQuantizeArgs(parser, io, &a); rc >= 0) return rc;
    // The target the quantized model is planned for (resolved before calibrating, so a bad
    // board fails at once); the plan is reported when a target option is given.
    auto target = resolveTargetOptions(parser);
    if (!target) return fail(io, target.error());
    bool targetGiven = false;
    for (const QString& name : parser.optionNames()) targetGiven = targetGiven || kTargetOptionNames.contains(name);
    if (QFileInfo(a.output).isDir())
        return fail(io, makeError(ErrorKind::InvalidInput,
                                  "-o '" + a.output.toStdString() + "' is a folder; give the file to write, e.g. " +
                                      QDir(a.output).filePath("model_int8.onnx").toStdString()));
    const QString& path = a.model;
    const QString method = QString::fromLatin1(passes::calibrationMethodName(a.calibration.method));
    auto graph = loadModel(path, parser);
    if (!graph) return fail(io, graph.error());

    auto sources = jobs::listCalibrationSources(a.calib);
    if (!sources) return fail(io, sources.error());
    const auto images = std::count_if(sources->begin(), sources->end(), [](const jobs::CalibrationSource& s) {
        return s.kind == jobs::CalibrationSource::Kind::Image;
    });
    if (a.imageOptionsGiven && images == 0)
        return usage(io, "--resize, --mean, --std and --layout apply to images, and --calib gives none");
    const int count = static_cast<int>(sources->size());
    auto samples = jobs::calibrationSet(*graph, std::move(*sources), a.image);
    if (!samples) return fail(io, samples.error());

    const ir::Graph fp = a.report ? graph->clone() : ir::Graph{};
    InterruptGuard interrupts; // Ctrl+C cancels the calibration; nothing is written
    io.err << "embark-cli: calibrating on " << count << " sample(s), " << method
           << (a.calibration.method == passes::CalibrationMethod::MinMax ? "" : " (two passes)") << "\n";
    io.err.flush();
    ProgressPrinter progress(io, interrupts.flag(), count);
    auto report = passes::quantizeStatic(*graph, *samples, a.exclude, a.calibration, std::ref(progress));
    if (!report && interrupts.flag()->load())
        return fail(io, makeError(ErrorKind::External, report.error().message + "; nothing written"));
    if (!report) return fail(io, report.error());
    if (interrupts.flag()->load())
        return fail(io, makeError(ErrorKind::External, "cancelled before writing; nothing written"));
    const QString& out = a.output;
    // -o into a folder that does not exist yet creates it, as export -o and run --dump do.
    if (const QString parent = QFileInfo(out).absolutePath(); !QDir().mkpath(parent))
        return fail(io, makeError(ErrorKind::External, "-o '" + out.toStdString() + "': cannot create the folder '" +
                                                           parent.toStdString() + "'; check its path and permissions"));
    if (Status s = onnx::writeModel(*graph, out.toStdString()); !s) return fail(io, s.error());
    // --report: the model as written, against the float model, on the first sample.
    std::optional<bench::LayerDiff> diff;
    std::string firstLabel;
    constexpr double kSnrDrop = 10;
    constexpr int kTop = 10;
    if (a.report) {
        auto written = loadModel(out, parser);
        if (!written) return fail(io, written.error());
        auto first = samples->load(0);
        if (!first) return fail(io, first.error());
        firstLabel = first->label;
        auto d = diffModels(fp, *written, first->inputs, kSnrDrop);
        if (!d) return fail(io, d.error());
        diff = std::move(*d);
    }

    std::optional<QJsonObject> planned;
    if (targetGiven) {
        auto written = loadModel(out, parser);
        if (!written) return fail(io, written.error());
        auto plan = targetPlanSummary(*written, *target);
        if (!plan) return fail(io, plan.error());
        planned = *plan;
    }

    if (a.json) {
        io.out << QJsonDocument(withSchema(QJsonObject{
                                    {"model", path},
                                    {"output", out},
                                    {"method", method},
                                    {"samples", report->samples},
                                    {"quantized_nodes", report->quantizedNodes},
                                    {"quantized_activations", report->activations},
                                    {"excluded_nodes", report->excluded},
                                    {"report", diff ? QJsonValue(layerDiffJson(*diff, kTop, kSnrDrop)) : QJsonValue()},
                                    {"target", planned ? QJsonValue(*planned) : QJsonValue()}}))
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
                          .arg(QFileInfo(path).fileName(), QString::fromStdString(firstLabel));
            printLayerDiff(io.out, *diff, kTop, kSnrDrop);
        }
        if (planned) io.out << targetPlanLine(*planned) << "\n";
    }
    return 0;
}

} // namespace embark::cli

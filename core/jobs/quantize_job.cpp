#include "quantize_job.h"

#include "calibration_data.h"

#include "onnx/importer.h"
#include "onnx/op_table.h"
#include "onnx/writer.h"
#include "reference/interpreter.h"

#include <QFileInfo>

namespace embark::jobs {

namespace {

bool quantizable(const ir::Node& n) {
    if (n.op != ir::OpKind::Conv && n.op != ir::OpKind::Gemm && n.op != ir::OpKind::MatMul) return false;
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    return x && w && !x->isConstant() && w->isConstant() && w->dtype == ir::DType::Float32;
}

Error cancelled() { return makeError(ErrorKind::External, "quantization cancelled"); }

} // namespace

std::string keepInFloatTarget(const ir::Graph& fp, const std::string& node) {
    const ir::Node* n = fp.findNode(node);
    if (!n) return {};
    if (quantizable(*n)) return n->name;
    if (n->op != ir::OpKind::Relu && n->op != ir::OpKind::Clip) return {};
    // Back through a BatchNormalization that quantize folds into the convolution before it.
    const ir::Node* p = n;
    for (int step = 0; step < 2; ++step) {
        const ir::Value* in = p->input(0);
        if (!in || !in->producer() || in->uses().size() != 1) return {};
        p = in->producer();
        if (quantizable(*p)) return p->name;
        if (p->op != ir::OpKind::BatchNormalization) return {};
    }
    return {};
}

std::vector<NodeError> nodeErrors(const ir::Graph& written, const bench::LayerDiff& diff) {
    std::map<std::string, size_t> byValue; // value -> its index in diff.layers
    for (size_t i = 0; i < diff.layers.size(); ++i) byValue[diff.layers[i].value] = i;
    const QStringList int8 = quantizedNodeNames(written);
    std::vector<NodeError> out;
    bool flagged = false;
    for (const ir::Node* n : written.nodes()) {
        const bool quantized = int8.contains(QString::fromStdString(n->name));
        if ((!quantized && !quantizable(*n)) || !n->output(0)) continue;
        // The activation quantize gives the Q/DQ pair: the Relu's or Clip's that alone follows.
        const ir::Value* v = n->output(0);
        if (v->uses().size() == 1 && !v->isGraphOutput()) {
            const ir::Node* u = v->uses().front().node;
            if ((u->op == ir::OpKind::Relu || u->op == ir::OpKind::Clip) && u->input(0) == v && u->output(0))
                v = u->output(0);
        }
        auto it = byValue.find(v->name);
        if (it == byValue.end()) it = byValue.find(n->output(0)->name);
        if (it == byValue.end()) continue;
        NodeError e;
        e.node = n->name;
        e.op = std::string(ir::opName(n->op));
        e.quantized = quantized;
        e.error = diff.layers[it->second];
        if (!flagged && diff.firstDrop >= 0 && it->second >= size_t(diff.firstDrop)) flagged = e.firstDrop = true;
        out.push_back(std::move(e));
    }
    return out;
}

QStringList quantizedNodeNames(const ir::Graph& quantized) {
    QStringList names;
    for (const ir::Node* n : quantized.nodes()) {
        if (n->op != ir::OpKind::Conv && n->op != ir::OpKind::Gemm && n->op != ir::OpKind::MatMul) continue;
        const ir::Value* w = n->input(1);
        if (w && w->producer() && w->producer()->op == ir::OpKind::DequantizeLinear)
            names << QString::fromStdString(n->name);
    }
    return names;
}

std::shared_ptr<Job> makeQuantizeJob(QuantizeRequest r, QString title) {
    if (title.isEmpty()) title = QStringLiteral("Quantize %1").arg(QFileInfo(r.modelPath).completeBaseName());
    return std::make_shared<Job>(title, JobKind::Quantize, [r = std::move(r)](JobContext& ctx) -> Status {
        constexpr int kSteps = 4;
        onnx::ImportOptions io;
        io.shapeOverrides = r.shapeOverrides;
        passes::QuantizeExclusions exclude;
        for (const QString& op : r.excludeOps) {
            const auto kind = onnx::opFromOnnx(op.toStdString());
            if (!kind)
                return makeError(ErrorKind::Usage,
                                 "'" + op.toStdString() + "' (kept in float) is not an ONNX op Embark knows");
            exclude.ops.insert(*kind);
        }
        for (const QString& name : r.excludeNodes) exclude.nodes.insert(name.toStdString());

        ctx.stepStarted(QStringLiteral("calibration data"), 0, kSteps);
        auto fp = onnx::importModel(r.modelPath.toStdString(), io);
        if (!fp) return fp.error();
        auto sources = listCalibrationSources(r.calibration);
        if (!sources) return sources.error();
        auto samples = calibrationSet(*fp, std::move(*sources), r.image);
        if (!samples) return samples.error();
        ctx.log(QStringLiteral("calibrating on %1 sample(s), method %2")
                    .arg(samples->size)
                    .arg(QString::fromLatin1(passes::calibrationMethodName(r.options.method))));

        if (ctx.cancelled()) return cancelled();
        ctx.stepStarted(QStringLiteral("quantize"), 1, kSteps);
        ir::Graph q = fp->clone();
        // Sample runs done of the total (percentile and entropy run the set twice); false cancels.
        auto report = passes::quantizeStatic(q, *samples, exclude, r.options, [&ctx](int done, int total) {
            ctx.progress(QStringLiteral("quantize"), done, total);
            return !ctx.cancelled();
        });
        if (!report) return ctx.cancelled() ? cancelled() : report.error();
        ctx.log(QStringLiteral("quantized %1 node(s) and %2 activation(s); %3 kept in float")
                    .arg(report->quantizedNodes)
                    .arg(report->activations)
                    .arg(report->excluded));

        if (ctx.cancelled()) return cancelled();
        ctx.stepStarted(QStringLiteral("write"), 2, kSteps);
        if (Status s = onnx::writeModel(q, r.outPath.toStdString()); !s) return s.error();
        ctx.log(QStringLiteral("wrote %1").arg(r.outPath));

        if (ctx.cancelled()) return cancelled();
        ctx.stepStarted(QStringLiteral("compare"), 3, kSteps);
        // The model as written, as `embark-cli quantize --report` compares it.
        auto written = onnx::importModel(r.outPath.toStdString(), io);
        if (!written) return written.error();
        auto first = samples->load(0);
        if (!first) return first.error();
        const auto& inputs = first->inputs;
        auto fpValues = reference::runAllValues(*fp, inputs);
        if (!fpValues) return fpValues.error();
        auto qValues = reference::runAllValues(*written, inputs);
        if (!qValues) return qValues.error();

        QuantizeResult result;
        result.request = r;
        result.report = *report;
        result.diff = bench::diffLayers(*fp, *fpValues, *written, *qValues, r.snrDropDb);
        result.diffSample = QString::fromStdString(first->label);
        result.quantizedNodes = quantizedNodeNames(*written);
        result.nodes = nodeErrors(*written, result.diff);
        ctx.log(QStringLiteral("per-layer error on sample %1: %2 layer(s) compared")
                    .arg(result.diffSample)
                    .arg(result.diff.layers.size()));
        const QString summary = QStringLiteral("%1 node(s) quantized, %2 kept in float, into %3")
                                    .arg(report->quantizedNodes)
                                    .arg(report->excluded)
                                    .arg(r.outPath);
        ctx.setResult(std::move(result), summary);
        return {};
    });
}

} // namespace embark::jobs

#include "manifest.h"

#include "deployment_plan.h"
#include "export_folder.h"
#include "ir/json_lists.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace embark::exporter {
namespace {

QJsonArray dimsJson(const std::vector<int64_t>& d) {
    QJsonArray a;
    for (int64_t x : d) a.append(static_cast<qint64>(x));
    return a;
}

QString str(const std::string& s) { return QString::fromStdString(s); }

QJsonObject valueJson(const ManifestInput& in, const ir::Value* v) {
    const bool nhwc = in.ctx.isNhwc(v);
    auto d = v->shape.dims();
    std::vector<int64_t> model = d;
    if (nhwc && d.size() == 4) model = {d[0], d[3], d[1], d[2]};
    QJsonObject o{{"name", str(v->name)},
                  {"dtype", QString::fromLatin1(ir::dtypeName(v->dtype).data())},
                  {"shape", dimsJson(model)},
                  {"physical_shape", dimsJson(d)},
                  {"layout", nhwc ? "NHWC" : "model"},
                  {"bytes", static_cast<qint64>(v->byteSize())}};
    if (const PlannedBuffer* b = in.plan.bufferFor(v->name)) {
        const ValueView view = in.plan.viewOf(v->name);
        o["buffer"] = b->id;
        o["offset"] = static_cast<qint64>(b->offset + view.byteOffset);
        if (view.rowStride) o["row_stride"] = static_cast<qint64>(view.rowStride);
    }
    return o;
}

} // namespace

QByteArray manifestJson(const ManifestInput& in) {
    const ir::Graph& g = in.adaptation.graph;
    QJsonArray schedule;
    int index = 0;
    for (const ir::Node* n : g.nodes()) {
        if (!n->output(0)) continue;
        QJsonObject node{{"index", index++},
                         {"name", str(n->name)},
                         {"op", QString::fromLatin1(ir::opName(n->op).data())},
                         {"provenance", ir::jsonStrings(n->provenance)}};
        auto it = in.adaptation.nodes.find(n->name);
        if (it != in.adaptation.nodes.end()) {
            node["lib"] = str(it->second.library);
            node["rule"] = QString::fromLatin1(assignmentRuleName(it->second.rule).data());
            node["reason"] = str(it->second.reason);
            node["layout"] = QString::fromLatin1(targets::layoutName(it->second.format).data());
            if (in.options.measured)
                if (auto m = in.options.measured->nodes.find(n->name); m != in.options.measured->nodes.end())
                    node["measurement"] = nodeChoiceJson(m->second, in.options.measured->unit);
        }
        QJsonArray ins, outs;
        for (const ir::Value* v : n->inputs()) ins.append(v ? str(v->name) : QString());
        for (const ir::Value* v : n->outputs())
            if (v) outs.append(valueJson(in, v));
        node["inputs"] = ins;
        node["outputs"] = outs;
        schedule.append(node);
    }
    QJsonArray inputs, outputs;
    for (size_t k = 0; k < in.model.inputs().size(); ++k) {
        const ir::Value* v = in.model.inputs()[k];
        inputs.append(QJsonObject{{"name", str(v->name)},
                                  {"shape", dimsJson(v->shape.dims())},
                                  {"dtype", str(std::string(ir::dtypeName(v->dtype)))},
                                  {"sample", QStringLiteral("data/input_%1.bin").arg(k)}});
    }
    for (size_t k = 0; k < in.model.outputs().size(); ++k) {
        const ir::Value* v = in.model.outputs()[k];
        outputs.append(QJsonObject{{"name", str(v->name)},
                                   {"shape", dimsJson(v->shape.dims())},
                                   {"dtype", str(std::string(ir::dtypeName(v->dtype)))},
                                   {"expected", QStringLiteral("data/expected_%1.bin").arg(k)}});
    }
    auto meta = [&](const char* key) {
        auto it = in.model.metadata.find(key);
        return it == in.model.metadata.end() ? QString() : str(it->second);
    };
    QJsonObject root{
        {"format", kExportFormat},
        {"embark_version", EMBARK_VERSION},
        // "name" is the file's base name, as run_export's meta line and the run store say it
        // (graph names are often generic, like "torch_jit"); "graph" keeps the ONNX one.
        {"model",
         QJsonObject{{"name", meta("model_name").isEmpty() ? str(in.model.name.empty() ? "model" : in.model.name)
                                                           : meta("model_name")},
                     {"graph", str(in.model.name)},
                     {"path", meta("path")},
                     {"sha256", meta("sha256")},
                     {"opset", meta("opset")}}},
        {"export_hash", str(in.result.exportHash)},
        {"library", str(in.options.measured ? std::string("auto") : in.options.library)},
        {"libraries", ir::jsonStrings(in.adaptation.librariesUsed)},
        {"arch", str(in.options.arch)},
        {"board", str(in.options.board)},
        {"target_flags", str(in.options.targetFlags)},
        {"threads_max", in.options.threadsMax},
        {"recipe", str(in.options.recipe)},
        {"dtype_policy", exporter::dtypePolicyName(in.options.dtypePolicy)},
        {"partitions", in.adaptation.partitions},
        {"conversions", in.adaptation.conversions},
        {"inputs", inputs},
        {"outputs", outputs},
        {"weights_bytes", static_cast<qint64>(in.result.weightsBytes)},
        {"memory", memoryPlanJson(in.plan)},
        {"schedule", schedule},
        {"fused_blocks", fusedBlocksJson(in.fusedBlocks)},
        {"xnnpack", in.ctx.linksXnnpack() ? QJsonValue(QJsonObject{{"kind", str(in.options.xnnpack.kind)},
                                                                   {"path", str(in.options.xnnpack.path)},
                                                                   {"commit", str(in.options.xnnpack.commit)},
                                                                   {"api", str(in.options.xnnpack.api)}})
                                          : QJsonValue()},
    };
    if (in.options.measured) root["auto"] = measuredChoiceJson(*in.options.measured);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

std::string exportReadme(const ManifestInput& in) {
    std::string s = "# Embark export of `" + in.model.name + "`\n\n";
    s += "Kernel libraries: " +
         [&] {
             std::string l;
             for (const auto& x : in.adaptation.librariesUsed) l += (l.empty() ? "" : ", ") + x;
             return l;
         }() +
         "; architecture " + in.options.arch + "; " + std::to_string(in.result.layers) + " layers; activation arena " +
         std::to_string(in.plan.arenaBytes) + " bytes; weights " + std::to_string(in.result.weightsBytes) +
         " bytes.\n\n";
    s += "## Build\n\n    cmake -B build" +
         std::string(in.options.toolchainFile.isEmpty() ? "" : " --toolchain toolchain.cmake") +
         " && cmake --build build\n\n";
    s += "## Run\n\n    ./build/run_export [--input FILE]... [--warmup W] [--iterations N] [--threads T]\n"
         "                     [--layers] [--dump DIR] [--out DIR] [--check TOL]\n\n"
         "Inputs are float32 in the ONNX model's own layout (raw little-endian `.bin` or `.npy`);\n"
         "without `--input` the embedded sample input (`data/input_K.bin`) is used, and `--check TOL`\n"
         "compares the outputs with the host reference's (`data/expected_K.bin`). Output is JSON Lines\n"
         "(`meta`, `latency`, `layer`, `dump`, `output`, `check`). Exit status: 0 ok, 1 check failed,\n"
         "2 usage, 4 bad input file, 5 model failure.\n\n";
    s += "`export.json` lists every layer with its kernel library, layout, provenance and memory offset.\n";
    return s;
}

} // namespace embark::exporter

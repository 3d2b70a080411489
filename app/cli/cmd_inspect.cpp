// `embark-cli inspect MODEL [--json]`: inputs/outputs, op histogram, parameters, MACs per
// node and in total, activation sizes.
#include "commands.h"
#include "run_json.h"
#include "model_args.h"
#include "text_table.h"

#include "ir/model_stats.h"

#include <QFileInfo>
#include <QJsonDocument>

namespace embark::cli {
namespace {

QJsonObject valueJson(const ir::Value* v) {
    return QJsonObject{{"name", QString::fromStdString(v->name)},
                       {"dtype", QString::fromLatin1(ir::dtypeName(v->dtype).data())},
                       {"shape", shapeToJson(v->shape)},
                       {"bytes", static_cast<qint64>(v->byteSize())}};
}

QJsonObject inspectJson(const ir::Graph& g, const QString& path) {
    const ir::ModelStats stats = ir::modelStats(g);
    QJsonArray inputs, outputs, nodes;
    for (const ir::Value* v : g.inputs()) inputs.append(valueJson(v));
    for (const ir::Value* v : g.outputs()) outputs.append(valueJson(v));
    QJsonObject ops;
    for (const auto& [op, count] : stats.opHistogram) ops[QString::fromStdString(op)] = count;
    for (const ir::Node* n : g.nodes()) {
        QJsonArray outs;
        for (const ir::Value* v : n->outputs())
            if (v) outs.append(valueJson(v));
        const ir::ParamCount p = ir::nodeParams(*n);
        nodes.append(QJsonObject{{"name", QString::fromStdString(n->name)},
                                 {"op", QString::fromLatin1(ir::opName(n->op).data())},
                                 {"outputs", outs},
                                 {"macs", static_cast<qint64>(ir::nodeMacs(*n))},
                                 {"parameters", static_cast<qint64>(p.count)}});
    }
    auto meta = [&g](const char* key) {
        auto it = g.metadata.find(key);
        return it == g.metadata.end() ? QString() : QString::fromStdString(it->second);
    };
    return QJsonObject{{"model", path},
                       {"producer", meta("producer")},
                       {"opset", meta("opset")},
                       {"sha256", meta("sha256")},
                       {"node_count", static_cast<qint64>(g.nodeCount())},
                       {"inputs", inputs},
                       {"outputs", outputs},
                       {"ops", ops},
                       {"parameters", QJsonObject{{"count", static_cast<qint64>(stats.params.count)},
                                                  {"bytes", static_cast<qint64>(stats.params.bytes)}}},
                       {"macs", static_cast<qint64>(stats.macs)},
                       {"activations", QJsonObject{{"total_bytes", static_cast<qint64>(stats.activationBytes)},
                                                   {"largest_bytes", static_cast<qint64>(stats.largestActivation)}}},
                       {"nodes", nodes}};
}

void printText(const ir::Graph& g, const QString& path, QTextStream& out) {
    const ir::ModelStats stats = ir::modelStats(g);
    auto meta = [&g](const char* key) {
        auto it = g.metadata.find(key);
        return it == g.metadata.end() ? QString("?") : QString::fromStdString(it->second);
    };
    out << "Model     " << QFileInfo(path).fileName() << "  (producer " << meta("producer") << ", opset "
        << meta("opset") << ", " << g.nodeCount() << " nodes)\n";
    auto printValues = [&out](const char* title, const std::vector<ir::Value*>& values) {
        out << title << "\n";
        TextTable t({{"name"}, {"dtype"}, {"shape"}}, "  ");
        for (const ir::Value* v : values)
            t.addRow({QString::fromStdString(v->name), QString::fromLatin1(ir::dtypeName(v->dtype).data()),
                      QString::fromStdString(v->shape.str())});
        t.print(out);
    };
    printValues("Inputs", g.inputs());
    printValues("Outputs", g.outputs());
    out << "Ops\n";
    for (const auto& [op, count] : stats.opHistogram)
        out << "  " << QString::fromStdString(op).leftJustified(24) << " " << count << "\n";
    out << "Parameters  " << formatCount(stats.params.count) << " (" << formatBytes(stats.params.bytes) << ")\n";
    out << "MACs        " << formatCount(stats.macs) << "\n";
    out << "Activations " << formatBytes(stats.activationBytes) << " in total, largest "
        << formatBytes(stats.largestActivation) << "\n\n";
    using A = TextTable::Align;
    TextTable t({{"node"}, {"op"}, {"output"}, {"MACs", A::Right}, {"bytes", A::Right}});
    for (const ir::Node* n : g.nodes()) {
        const ir::Value* o = n->output(0);
        t.addRow({QString::fromStdString(n->name), QString::fromLatin1(ir::opName(n->op).data()),
                  QString::fromStdString(o ? o->shape.str() : "-"), formatCount(ir::nodeMacs(*n)),
                  formatCount(o ? static_cast<int64_t>(o->byteSize()) : 0)});
    }
    t.print(out);
}

} // namespace

int cmdInspect(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Summarise an ONNX model.");
    parser.addPositionalArgument("MODEL", "The .onnx file.");
    parser.addOption({"json", "Print one JSON object."});
    addShapeOption(parser);
    if (int rc = parseOrExit(parser, args, io, "inspect MODEL [--json] [--shape NAME=DIMS]...", 1, 1); rc >= 0)
        return rc;
    const QString path = parser.positionalArguments().first();
    auto graph = loadModel(path, parser, &io);
    if (!graph) return fail(io, graph.error());
    if (parser.isSet("json"))
        io.out << QJsonDocument(withSchema(inspectJson(*graph, path))).toJson(QJsonDocument::Indented);
    else
        printText(*graph, path, io.out);
    return 0;
}

} // namespace embark::cli

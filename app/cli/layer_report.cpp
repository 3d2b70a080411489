#include "layer_report.h"

#include "reference/interpreter.h"

#include <algorithm>

namespace embark::cli {
Expected<bench::LayerDiff> diffModels(const ir::Graph& fp, const ir::Graph& other,
                                      const std::map<std::string, ir::Tensor>& inputs, double snrDropDb) {
    for (const ir::Value* v : fp.inputs()) {
        if (v->isConstant()) continue;
        const ir::Value* o = other.findValue(v->name);
        if (!o || !o->isGraphInput() || o->shape != v->shape)
            return makeError(ErrorKind::InvalidInput,
                             "input '" + v->name + "' of the float model " +
                                 (o && o->isGraphInput() ? "has another shape in" : "is not an input of") +
                                 " the model compared with it: the two models must take the same inputs");
    }
    auto fpValues = reference::runAllValues(fp, inputs);
    if (!fpValues) return fpValues.error();
    auto otherValues = reference::runAllValues(other, inputs);
    if (!otherValues) return otherValues.error();
    return bench::diffLayers(fp, *fpValues, other, *otherValues, snrDropDb);
}

void printLayerDiff(QTextStream& out, const bench::LayerDiff& diff, int top, double snrDropDb) {
    out << QStringLiteral("%1 layer(s) compared; the %2 with the lowest SNR:\n")
               .arg(diff.layers.size())
               .arg(std::min<size_t>(static_cast<size_t>(std::max(top, 0)), diff.layers.size()));
    int width = 5;
    for (const bench::LayerError& e : diff.layers) width = std::max(width, static_cast<int>(e.value.size()));
    width = std::min(width, 64);
    out << QStringLiteral("  %1 %2 %3 %4 %5 %6\n")
               .arg(QStringLiteral("value"), -width)
               .arg(QStringLiteral("op"), -18)
               .arg(QStringLiteral("SNR dB"), 8)
               .arg(QStringLiteral("drop dB"), 8)
               .arg(QStringLiteral("cosine"), 10)
               .arg(QStringLiteral("max_abs"), 11);
    const auto order = bench::worstFirst(diff);
    for (size_t i = 0; i < order.size() && static_cast<int>(i) < top; ++i) {
        const bench::LayerError& e = diff.layers[order[i]];
        out << QStringLiteral("  %1 %2 %3 %4 %5 %6%7\n")
                   .arg(QString::fromStdString(e.value), -width)
                   .arg(QString::fromStdString(e.op), -18)
                   .arg(e.accuracy.snrDb, 8, 'f', 1)
                   .arg(e.snrDropDb, 8, 'f', 1)
                   .arg(e.accuracy.cosine, 10, 'f', 6)
                   .arg(e.accuracy.maxAbs, 11, 'g', 4)
                   .arg(static_cast<int>(order[i]) == diff.firstDrop ? QStringLiteral("  <- first drop") : QString());
    }
    if (diff.firstDrop >= 0) {
        const bench::LayerError& e = diff.layers[static_cast<size_t>(diff.firstDrop)];
        out << QStringLiteral("First layer whose SNR fell by more than %1 dB: '%2' (%3, node '%4'): %5 dB, %6 dB below "
                              "its inputs\n")
                   .arg(snrDropDb)
                   .arg(QString::fromStdString(e.value), QString::fromStdString(e.op), QString::fromStdString(e.node))
                   .arg(e.accuracy.snrDb, 0, 'f', 1)
                   .arg(e.snrDropDb, 0, 'f', 1);
    } else {
        out << QStringLiteral("No layer's SNR fell by more than %1 dB below its inputs'.\n").arg(snrDropDb);
    }
}

QJsonObject layerDiffJson(const bench::LayerDiff& diff, int top, double snrDropDb) {
    return bench::layerDiffToJson(diff, top, snrDropDb);
}

} // namespace embark::cli

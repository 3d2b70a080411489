#include "chart_data.h"

#include "export/memory_planner.h"

#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace embark::ui {

MemoryTimeline memoryTimeline(const exporter::MemoryPlan& plan) {
    MemoryTimeline t;
    for (const std::string& s : plan.schedule) t.schedule << QString::fromStdString(s);
    for (const exporter::PlannedBuffer& b : plan.buffers) {
        if (!b.inArena) continue;
        QStringList values;
        for (const std::string& v : b.values) values << QString::fromStdString(v);
        t.buffers.push_back({b.id, qint64(b.offset), qint64(b.bytes), b.firstStep, b.lastStep, values.join(", ")});
    }
    for (size_t bytes : plan.liveBytesPerStep()) t.liveBytes.push_back(qint64(bytes));
    t.arenaBytes = qint64(plan.arenaBytes);
    t.lowerBoundBytes = qint64(plan.lowerBoundBytes);
    return t;
}

bool isLayoutConversionName(const QString& node) {
    static const QRegularExpression conversion(QStringLiteral("_to_(nhwc|nchw)(_\\d+)?$"));
    return conversion.match(node).hasMatch();
}

QString layerOpType(const LayerTiming& layer) {
    if (isLayoutConversionName(layer.node)) return QStringLiteral("layout conversion");
    if (!layer.op.isEmpty()) return layer.op;
    // torch.onnx names: "/features/features.0/Conv", "/Relu_3", "Conv_12"
    static const QRegularExpression opAtEnd(QStringLiteral("(?:^|/)([A-Z][A-Za-z0-9]*?)(?:_\\d+)?$"));
    const QRegularExpressionMatch m = opAtEnd.match(layer.node);
    return m.hasMatch() ? m.captured(1) : QStringLiteral("other");
}

std::vector<OpTotal> opTotals(const std::vector<LayerTiming>& layers) {
    std::map<QString, OpTotal> byOp;
    std::map<QString, std::set<QString>> libs;
    for (const LayerTiming& l : layers) {
        const QString op = layerOpType(l);
        OpTotal& t = byOp[op];
        t.op = op;
        ++t.layers;
        t.ms += l.ms;
        if (!l.library.isEmpty()) libs[op].insert(l.library);
    }
    std::vector<OpTotal> out;
    for (auto& [op, t] : byOp) {
        for (const QString& lib : libs[op]) t.libraries << lib;
        out.push_back(t);
    }
    std::stable_sort(out.begin(), out.end(), [](const OpTotal& a, const OpTotal& b) { return a.ms > b.ms; });
    return out;
}

MeanInterval meanInterval(const std::vector<double>& samples) {
    MeanInterval r;
    if (samples.empty()) return r;
    double sum = 0;
    for (double s : samples) sum += s;
    r.mean = sum / double(samples.size());
    if (samples.size() < 2) return r;
    double sq = 0;
    for (double s : samples) sq += (s - r.mean) * (s - r.mean);
    const double sd = std::sqrt(sq / double(samples.size() - 1));
    r.halfWidth = 1.96 * sd / std::sqrt(double(samples.size()));
    return r;
}

double percentile(std::vector<double> samples, double p) {
    if (samples.empty()) return 0;
    std::sort(samples.begin(), samples.end());
    const double pos = std::clamp(p, 0.0, 1.0) * double(samples.size() - 1);
    const size_t lo = size_t(std::floor(pos)), hi = size_t(std::ceil(pos));
    return samples[lo] + (samples[hi] - samples[lo]) * (pos - double(lo));
}

int firstDivergentLayer(const std::vector<LayerAccuracy>& layers, double minCosine, double maxRel) {
    for (size_t i = 0; i < layers.size(); ++i)
        if (layers[i].cosine < minCosine || layers[i].maxRel > maxRel || std::isnan(layers[i].cosine)) return int(i);
    return -1;
}

TimeUnit timeUnitFor(double maxMs) {
    if (maxMs < 1.0) return {1000.0, QStringLiteral("\u00b5s")};
    if (maxMs >= 10000.0) return {1e-3, QStringLiteral("s")};
    return {};
}

QString formatTime(double ms, const TimeUnit& unit) {
    const double v = ms * unit.perMs;
    const double a = std::abs(v);
    const int decimals = a >= 100 ? 1 : a >= 10 ? 2 : 3;
    return QLocale().toString(v, 'f', decimals) + QLatin1Char(' ') + unit.symbol;
}

QString formatTime(double ms) { return formatTime(ms, timeUnitFor(std::abs(ms))); }

} // namespace embark::ui

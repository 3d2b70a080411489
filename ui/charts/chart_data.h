// The plain data the charts draw, independent of where it came from (a benchmark run, the
// run store, a memory plan, or synthetic rows in tests).
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace embark::exporter {
struct MemoryPlan;
}

namespace embark::ui {

struct LayerTiming {
    QString node;
    QString library;
    double ms = 0; // mean over the iterations
    QString op;    // ONNX op type; empty = inferred from the name (layerOpType)
};

// What a layer is for the "totals by op type" view: its op, "layout conversion" for a
// Transpose or Reshape the exporter inserted (named <value>_to_nhwc / _to_nchw), else the op
// at the end of an ONNX path ("/layer1/layer1.0/conv1/Conv" -> "Conv"), else "other".
QString layerOpType(const LayerTiming& layer);
// True for a layout conversion the exporter inserted (by its name).
bool isLayoutConversionName(const QString& node);

// The time of every layer of one op type, summed.
struct OpTotal {
    QString op;
    int layers = 0;
    double ms = 0;
    QStringList libraries; // that ran them, sorted
};
// Slowest op type first.
std::vector<OpTotal> opTotals(const std::vector<LayerTiming>& layers);

struct LayerAccuracy {
    QString node;
    double cosine = 1;
    double snrDb = 0;
    double maxRel = 0;
};

// One run as the comparison chart needs it: total latencies and per-layer means.
struct RunSeries {
    QString label;
    std::vector<double> latenciesMs;
    std::vector<LayerTiming> layers;
    QString modelPath; // empty = unknown
};

struct MemoryBuffer {
    int id = 0;
    qint64 offset = 0;
    qint64 bytes = 0;
    int firstStep = 0, lastStep = 0;
    QString values; // the values sharing it, comma-separated
};

struct MemoryTimeline {
    QStringList schedule; // node run at each step
    std::vector<MemoryBuffer> buffers;
    std::vector<qint64> liveBytes; // per step
    qint64 arenaBytes = 0;
    qint64 lowerBoundBytes = 0;
};

MemoryTimeline memoryTimeline(const exporter::MemoryPlan& plan);

// The unit a set of times reads best in: microseconds below 1 ms, milliseconds below 10 s,
// else seconds. `perMs` converts a time in ms to the unit.
struct TimeUnit {
    double perMs = 1;
    QString symbol = QStringLiteral("ms");
};
TimeUnit timeUnitFor(double maxMs);
// A time in `unit` with at least 3 significant digits, in the interface locale's number
// format: "4.21 µs", "12.35 ms" ("4,21 µs" in French).
QString formatTime(double ms, const TimeUnit& unit);
QString formatTime(double ms); // in timeUnitFor(ms)

// Mean and the half-width of its 95% confidence interval (normal approximation).
struct MeanInterval {
    double mean = 0;
    double halfWidth = 0;
};
MeanInterval meanInterval(const std::vector<double>& samples);
double percentile(std::vector<double> samples, double p); // p in [0, 1]

// The first layer whose cosine falls below `minCosine` or whose max relative error exceeds
// `maxRel`; -1 when every layer agrees.
int firstDivergentLayer(const std::vector<LayerAccuracy>& layers, double minCosine = 0.999, double maxRel = 1e-3);

} // namespace embark::ui

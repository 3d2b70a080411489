#include "run_protocol.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <limits>

namespace embark::bench {
namespace {

std::string s(const QJsonObject& o, const char* key) { return o.value(key).toString().toStdString(); }

// JSON numbers are doubles: one past int64's range (a corrupted line, 1e30) must not reach the
// undefined double -> int64 conversion, so it saturates.
int64_t toInt64(const QJsonValue& v) {
    const double d = v.toDouble();
    if (!(d == d)) return 0;
    if (d >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
    if (d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(d);
}

std::vector<int64_t> ints(const QJsonValue& v) {
    std::vector<int64_t> out;
    for (const QJsonValue& x : v.toArray()) out.push_back(toInt64(x));
    return out;
}

} // namespace

RunOutput parseRunOutput(const QByteArray& jsonLines) {
    RunOutput r;
    int lineNo = 0;
    for (const QByteArray& raw : jsonLines.split('\n')) {
        ++lineNo;
        const QByteArray line = raw.trimmed();
        if (line.isEmpty()) continue;
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &err);
        if (err.error != QJsonParseError::NoError || !doc.isObject()) {
            if (r.warnings.size() < 100)
                r.warnings.push_back("line " + std::to_string(lineNo) +
                                     ": not a JSON object: " + line.left(80).toStdString());
            continue;
        }
        const QJsonObject o = doc.object();
        const QString type = o.value("type").toString();
        if (type == "meta") {
            r.haveMeta = true;
            r.meta.model = s(o, "model");
            r.meta.arch = s(o, "arch");
            for (const QJsonValue& l : o.value("libs").toArray()) r.meta.libs.push_back(l.toString().toStdString());
            r.meta.arenaBytes = toInt64(o.value("arena_bytes"));
            r.meta.layers = o.value("layers").toInt();
            r.meta.threads = o.value("threads").toInt(1);
            r.meta.warmup = o.value("warmup").toInt();
            r.meta.iterations = o.value("iterations").toInt();
        } else if (type == "latency") {
            r.latencyNs.push_back(toInt64(o.value("ns")));
        } else if (type == "layer") {
            r.layers.push_back({o.value("iteration").toInt(), o.value("index").toInt(), s(o, "node"), s(o, "lib"),
                                toInt64(o.value("ns"))});
        } else if (type == "output") {
            OutputLine out{s(o, "name"), s(o, "file"), ints(o.value("shape")), {}};
            for (const QJsonValue& h : o.value("head").toArray()) out.head.push_back(h.toDouble());
            r.outputs.push_back(std::move(out));
        } else if (type == "dump") {
            r.dumps.push_back(
                {o.value("layer").toInt(), s(o, "node"), s(o, "lib"), s(o, "file"), ints(o.value("shape"))});
        } else if (type == "check") {
            r.checks.push_back({s(o, "output"), o.value("max_abs").toDouble(), o.value("max_rel").toDouble(),
                                o.value("tolerance").toDouble(), o.value("ok").toBool()});
        } else if (type == "error") {
            r.error = s(o, "message");
        } else if (r.warnings.size() < 100) {
            r.warnings.push_back("line " + std::to_string(lineNo) + ": unknown type '" + type.toStdString() + "'");
        }
    }
    return r;
}

std::vector<LayerSample> RunOutput::medianLayers() const {
    std::map<int, std::vector<int64_t>> byIndex;
    std::map<int, const LayerSample*> first;
    for (const LayerSample& l : layers) {
        byIndex[l.index].push_back(l.ns);
        first.emplace(l.index, &l);
    }
    std::vector<LayerSample> out;
    for (auto& [index, samples] : byIndex) {
        std::sort(samples.begin(), samples.end());
        LayerSample m = *first[index];
        const size_t n = samples.size();
        // Halves summed: (a + b) / 2 overflows for garbage ns near int64's limits (found by
        // tests/fuzz/fuzz_run_protocol).
        const int64_t a = samples[n / 2 - (n % 2 ? 0 : 1)], b = samples[n / 2];
        m.ns = n % 2 ? b : a / 2 + b / 2 + (a % 2 + b % 2) / 2;
        out.push_back(m);
    }
    return out;
}

} // namespace embark::bench

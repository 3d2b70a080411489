#include "ort_output.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QString>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

namespace embark::bench {

bool PerfTestStats::complete() const { return averageMs && minS && maxS && p50S && p90S && p95S && p99S; }

PerfTestStats parsePerfTestOutput(const QByteArray& text) {
    PerfTestStats s;
    static const QRegularExpression line(
        QStringLiteral("^\\s*([A-Za-z][A-Za-z0-9 ]*?)\\s*:\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)"));
    for (const QByteArray& raw : text.split('\n')) {
        const QString l = QString::fromUtf8(raw).trimmed();
        if (l.isEmpty()) continue;
        if (s.error.empty() &&
            (l.contains(QLatin1String("[E:onnxruntime")) || l.startsWith(QLatin1String("Error")) ||
             l.contains(QLatin1String("failed to initialize")) || l.startsWith(QLatin1String("Failed"))))
            s.error = l.toStdString();
        const QRegularExpressionMatch m = line.match(l);
        if (!m.hasMatch()) continue;
        const QString key = m.captured(1).toLower();
        bool ok = false;
        const double v = m.captured(2).toDouble(&ok);
        if (!ok || !std::isfinite(v)) continue;
        const auto i64 = [v] { return static_cast<int64_t>(std::clamp(v, -9.2e18, 9.2e18)); };
        if (key == "session creation time cost")
            s.sessionCreationS = v;
        else if (key == "first inference time cost")
            s.firstInferenceMs = v;
        else if (key == "total inference time cost")
            s.totalInferenceS = v;
        else if (key == "total inference requests")
            s.requests = i64();
        else if (key == "average inference time cost")
            s.averageMs = v;
        else if (key == "total inference run time")
            s.totalRunS = v;
        else if (key == "number of inferences per second")
            s.inferencesPerSecond = v;
        else if (key == "avg cpu usage")
            s.avgCpuPercent = v;
        else if (key == "peak working set size")
            s.peakWorkingSetBytes = i64();
        else if (key == "runs")
            s.runs = i64();
        else if (key == "min latency")
            s.minS = v;
        else if (key == "max latency")
            s.maxS = v;
        else if (key == "p50 latency")
            s.p50S = v;
        else if (key == "p90 latency")
            s.p90S = v;
        else if (key == "p95 latency")
            s.p95S = v;
        else if (key == "p99 latency")
            s.p99S = v;
        else if (key == "p999 latency")
            s.p999S = v;
    }
    return s;
}

TestRunnerResult parseTestRunnerOutput(const QByteArray& text) {
    TestRunnerResult r;
    static const QRegularExpression count(
        QStringLiteral("^\\s*(Models|Total test cases|Succeeded|Not implemented|Failed)\\s*:\\s*([0-9]+)\\s*$"));
    bool inResult = false, inFailedCases = false;
    for (const QByteArray& raw : text.split('\n')) {
        const QString l = QString::fromUtf8(raw);
        const QString t = l.trimmed();
        if (t.startsWith(QLatin1String("result:"))) {
            inResult = true;
            r.parsed = true;
            continue;
        }
        if (t.startsWith(QLatin1String("Failed Test Cases:"))) {
            inFailedCases = true;
            const QString rest = t.mid(QStringLiteral("Failed Test Cases:").size()).trimmed();
            if (!rest.isEmpty()) r.failedCases.push_back(rest.toStdString());
            continue;
        }
        if (inFailedCases) {
            if (!t.isEmpty()) r.failedCases.push_back(t.toStdString());
            continue;
        }
        if (!inResult) continue;
        if (t.startsWith(QLatin1String("Stats by Operator type"))) {
            inResult = false; // the per-op "Failed:" lines below are not counts
            continue;
        }
        const QRegularExpressionMatch m = count.match(l);
        if (!m.hasMatch()) continue;
        const int n = m.captured(2).toInt();
        const QString k = m.captured(1);
        if (k == "Models")
            r.models = n;
        else if (k == "Total test cases")
            r.total = n;
        else if (k == "Succeeded")
            r.succeeded = n;
        else if (k == "Not implemented")
            r.notImplemented = n;
        else if (k == "Failed")
            r.failed = n;
    }
    return r;
}

Expected<OrtProfile> parseOrtProfile(const QByteArray& json) {
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError)
        return makeError(ErrorKind::External, "the profile is not JSON (offset " + std::to_string(err.offset) + ": " +
                                                  err.errorString().toStdString() + ")");
    QJsonArray events;
    if (doc.isArray())
        events = doc.array();
    else if (doc.isObject() && doc.object().value("traceEvents").isArray())
        events = doc.object().value("traceEvents").toArray();
    else
        return makeError(ErrorKind::External,
                         "the profile is neither a JSON array of events nor {\"traceEvents\": [...]}");

    OrtProfile p;
    struct Run {
        double ts, end;
    };
    std::vector<Run> runs;
    for (const QJsonValue& v : events) {
        const QJsonObject e = v.toObject();
        if (e.value("ph").toString() != QLatin1String("X")) continue;
        const QString cat = e.value("cat").toString();
        const QString name = e.value("name").toString();
        const double ts = e.value("ts").toDouble(), dur = e.value("dur").toDouble();
        if (!std::isfinite(ts) || !std::isfinite(dur) || dur < 0) {
            if (p.warnings.size() < 100) p.warnings.push_back("event '" + name.toStdString() + "' has no valid ts/dur");
            continue;
        }
        if (cat == QLatin1String("Session")) {
            if (name == QLatin1String("model_run")) runs.push_back({ts, ts + dur});
            continue;
        }
        if (name.endsWith(QLatin1String("_fence_before")) || name.endsWith(QLatin1String("_fence_after"))) continue;
        ProfileEvent ev;
        static const QLatin1String kernel("_kernel_time");
        ev.name = (name.endsWith(kernel) ? name.chopped(kernel.size()) : name).toStdString();
        const QJsonObject args = e.value("args").toObject();
        ev.op = args.value("op_name").toString().toStdString();
        ev.provider = args.value("provider").toString().toStdString();
        ev.tsUs = ts;
        ev.durUs = dur;
        p.nodes.push_back(std::move(ev));
    }
    std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.ts < b.ts; });
    for (const Run& r : runs) p.runDurUs.push_back(r.end - r.ts);
    for (ProfileEvent& ev : p.nodes) {
        // The run whose window holds the event's start (runs are sequential: -c 1).
        auto it = std::upper_bound(runs.begin(), runs.end(), ev.tsUs, [](double t, const Run& r) { return t < r.ts; });
        if (it == runs.begin()) continue;
        --it;
        if (ev.tsUs <= it->end) ev.run = static_cast<int>(it - runs.begin());
    }
    return p;
}

std::vector<OrtLayer> ortLayers(const OrtProfile& profile, int skipRuns) {
    const int runCount = static_cast<int>(profile.runDurUs.size());
    const int skip = runCount > skipRuns ? skipRuns : 0;
    std::vector<OrtLayer> layers;
    std::unordered_map<std::string, size_t> index;
    std::vector<std::map<int, double>> perRun; // layer -> run -> summed µs
    int loose = 0;                             // events outside any run: each is its own sample
    for (const ProfileEvent& ev : profile.nodes) {
        if (ev.run >= 0 && ev.run < skip) continue;
        auto [it, added] = index.emplace(ev.name, layers.size());
        if (added) {
            layers.push_back({ev.name, ev.op, ev.provider, 0, 0, {}, {}});
            perRun.emplace_back();
        }
        OrtLayer& l = layers[it->second];
        if (l.op.empty()) l.op = ev.op;
        if (l.provider.empty()) l.provider = ev.provider;
        perRun[it->second][ev.run >= 0 ? ev.run : runCount + loose++] += ev.durUs;
    }
    for (size_t i = 0; i < layers.size(); ++i) {
        std::vector<double> v;
        for (const auto& [run, us] : perRun[i]) v.push_back(us);
        std::sort(v.begin(), v.end());
        const size_t n = v.size();
        layers[i].runs = static_cast<int>(n);
        layers[i].medianNs = n == 0 ? 0 : 1000.0 * (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
    }
    return layers;
}

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// ORT's op ("Conv", "FusedConv", "NchwcConv", "FusedMatMul") names the graph node's op.
bool sameOp(const std::string& ortOp, const ir::Node* n) {
    if (ortOp.empty()) return false;
    const std::string a = lower(ortOp), b = lower(std::string(ir::opName(n->op)));
    return !b.empty() &&
           (a == b || a.find(b) != std::string::npos || (b.find(a) != std::string::npos && a.size() >= 3));
}

// A value computed from the model's input: not an initializer, nor the output of a node whose
// own inputs are all constant (a Constant node, a folded shape computation).
bool computed(const ir::Value* v) {
    if (!v || v->isConstant() || !v->producer()) return false;
    for (const ir::Value* in : v->producer()->inputs())
        if (in && (in->isGraphInput() || (!in->isConstant() && in->producer()))) return true;
    return false;
}

// Names ORT derives from a node or value: "<x>_nchwc", "<x>_token_8", "<x>_output_0_nchwc"...
std::vector<std::string> baseNames(std::string name) {
    std::vector<std::string> out{name};
    static const QRegularExpression suffix(QStringLiteral("(_nchwc|_token_[0-9]+|_fused|_[0-9]+)$"));
    for (int i = 0; i < 4; ++i) {
        const QString q = QString::fromStdString(name);
        const QRegularExpressionMatch m = suffix.match(q);
        if (!m.hasMatch() || m.capturedStart() == 0) break;
        name = q.left(m.capturedStart()).toStdString();
        out.push_back(name);
    }
    return out;
}

} // namespace

std::string providerLabel(const std::string& provider) {
    if (provider.empty()) return "ort";
    std::string p = provider;
    const std::string suffix = "ExecutionProvider";
    if (p.size() > suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0)
        p.resize(p.size() - suffix.size());
    return "ort-" + lower(p);
}

void mapToGraph(std::vector<OrtLayer>& layers, const ir::Graph& graph) {
    const std::vector<ir::Node*> nodes = graph.nodes();
    std::unordered_map<const ir::Node*, size_t> order;
    std::unordered_map<std::string, const ir::Node*> byName, byOriginal;
    for (size_t i = 0; i < nodes.size(); ++i) {
        order[nodes[i]] = i;
        byName.emplace(nodes[i]->name, nodes[i]);
        for (const std::string& o : nodes[i]->provenance) byOriginal.emplace(o, nodes[i]);
    }
    auto finish = [&](OrtLayer& l, std::vector<const ir::Node*> found, const char* how) {
        std::sort(found.begin(), found.end(),
                  [&](const ir::Node* a, const ir::Node* b) { return order[a] < order[b]; });
        found.erase(std::unique(found.begin(), found.end()), found.end());
        l.nodes.clear();
        for (const ir::Node* n : found) l.nodes.push_back(n->name);
        l.how = how;
    };
    for (OrtLayer& l : layers) {
        l.nodes.clear();
        l.how.clear();
        if (auto it = byName.find(l.ortName); it != byName.end()) {
            finish(l, {it->second}, "name");
            continue;
        }
        if (auto it = byOriginal.find(l.ortName); it != byOriginal.end()) {
            finish(l, {it->second}, "provenance");
            continue;
        }
        bool done = false;
        for (const std::string& base : baseNames(l.ortName)) {
            const ir::Node* hit = nullptr;
            if (auto it = byName.find(base); it != byName.end())
                hit = it->second;
            else if (auto jt = byOriginal.find(base); jt != byOriginal.end())
                hit = jt->second;
            if (hit && base != l.ortName) {
                finish(l, {hit}, "provenance");
                done = true;
                break;
            }
            const ir::Value* v = graph.findValue(base);
            if (!v || !v->producer()) continue;
            // A node named after the value it writes: ORT fused its producer chain (Conv+Relu
            // written as Relu's output). Walk back over single-use producers to the node of
            // ORT's op; without one, the producer alone.
            std::vector<const ir::Node*> chain{v->producer()};
            const ir::Node* n = v->producer();
            bool matched = sameOp(l.op, n);
            for (int step = 0; step < 4 && !matched; ++step) {
                const ir::Node* prev = nullptr;
                for (const ir::Value* in : n->inputs())
                    if (computed(in)) {
                        if (prev) {
                            prev = nullptr;
                            break;
                        } // more than one computed input: not a fused chain
                        prev = in->producer();
                        if (in->uses().size() != 1) prev = nullptr;
                    }
                if (!prev) break;
                chain.push_back(prev);
                n = prev;
                matched = sameOp(l.op, n);
            }
            if (!matched) chain.resize(1);
            finish(l, chain, chain.size() > 1 ? "fused" : "value");
            done = true;
            break;
        }
        if (done) continue;
        // "Conv_0_Relu_1", "fused Conv_0": the original names it contains.
        std::vector<const ir::Node*> inside;
        for (const auto& [original, node] : byOriginal)
            if (original.size() >= 3 && l.ortName.find(original) != std::string::npos) inside.push_back(node);
        if (!inside.empty()) finish(l, inside, "fused");
    }
}

} // namespace embark::bench

#include "measured_choice.h"

#include "kernel_libraries.h"

#include <QCryptographicHash>
#include <QJsonArray>

#include <algorithm>
#include <limits>

namespace embark::exporter {

using targets::Layout;

namespace {

// Constants up to this many elements (axes, shapes, scales, zero points) enter the signature
// by value: they change what a kernel does, where weights only change the numbers it reads.
constexpr int64_t kSmallConstant = 16;

std::string valueText(const ir::Value* v) {
    if (!v) return "-";
    std::string s = std::string(ir::dtypeName(v->dtype)) + " " + v->shape.str();
    if (!v->isConstant()) return s;
    s += " const";
    if (v->constant.numel() <= kSmallConstant && v->constant.data()) {
        const auto* b = static_cast<const unsigned char*>(v->constant.data());
        static const char* hex = "0123456789abcdef";
        s += ' ';
        for (size_t i = 0; i < v->constant.byteSize(); ++i) s += {hex[b[i] >> 4], hex[b[i] & 15]};
    }
    return s;
}

bool isFourD(const ir::Value* v) { return v && !v->isConstant() && v->shape.rank() == 4; }

// A layout change moving no bytes (at most one non-unit dimension besides the batch) is a
// Reshape the memory planner aliases (adaptation.h): it costs nothing.
bool movesBytes(const ir::Value* v) {
    int nonUnit = 0;
    for (size_t i = 1; i < 4; ++i) nonUnit += v->shape[i] != 1;
    return nonUnit > 1;
}

} // namespace

std::string nodeSignature(const ir::Node& n) {
    std::string s(ir::opName(n.op));
    for (const auto& [name, value] : n.attrs) s += ";" + name + "=" + ir::attributeToString(value);
    s += "|in";
    for (const ir::Value* v : n.inputs()) s += ";" + valueText(v);
    s += "|out";
    for (const ir::Value* v : n.outputs()) s += ";" + valueText(v);
    return s;
}

std::string signatureKey(const std::string& signature) {
    return QCryptographicHash::hash(QByteArray::fromStdString(signature), QCryptographicHash::Sha256)
        .toHex()
        .left(24)
        .toStdString();
}

FormatOf kernelLibraryFormats() {
    return [](const std::string& library, const ir::Node& node) {
        const targets::KernelLibrary* lib = findKernelLibrary(library);
        return lib ? lib->layoutFor(node) : Layout::NCHW;
    };
}

namespace {

// One walk over the fused graph in topological order: per measured node, each supported
// candidate's conversion given the layouts its producers were picked in, then pick(node, its
// candidates) names the library it runs on. Returns the estimated total (cost + conversion of
// each picked candidate).
using Pick = std::function<std::string(NodeChoice&)>;
double walk(const ir::Graph& fused, MeasuredChoice& choice, const FormatOf& formatOf, const Pick& pick) {
    std::map<const ir::Value*, Layout> layout; // picked layout of each 4-D value produced
    auto layoutOf = [&](const ir::Value* v) {
        auto it = layout.find(v);
        return it == layout.end() ? Layout::NCHW : it->second;
    };
    double total = 0;
    for (const ir::Node* n : fused.nodes()) {
        auto it = choice.nodes.find(n->name);
        const ir::Value* first = nullptr;
        for (const ir::Value* v : n->inputs())
            if (isFourD(v)) {
                first = v;
                break;
            }
        auto runsIn = [&](const std::string& lib) {
            const Layout f = formatOf(lib, *n);
            return f == Layout::Any ? (first ? layoutOf(first) : Layout::NCHW) : f;
        };
        auto conversionBytes = [&](Layout f) {
            double bytes = 0;
            for (const ir::Value* v : n->inputs())
                if (isFourD(v) && movesBytes(v) && layoutOf(v) != f) bytes += static_cast<double>(v->byteSize());
            for (const ir::Value* v : n->outputs())
                if (isFourD(v) && movesBytes(v) && v->isGraphOutput() && f != Layout::NCHW)
                    bytes += static_cast<double>(v->byteSize());
            return bytes;
        };
        std::string picked = portableLibrary().id;
        if (it != choice.nodes.end()) {
            for (Candidate& c : it->second.candidates)
                if (c.supported) c.conversion = conversionBytes(runsIn(c.library)) * choice.conversionPerByte;
            picked = pick(it->second);
            for (const Candidate& c : it->second.candidates)
                if (c.supported && c.library == picked) total += c.cost + c.conversion;
        }
        const Layout f = runsIn(picked);
        for (const ir::Value* v : n->outputs())
            if (isFourD(v)) layout[v] = f;
    }
    return total;
}

// The greedy pick: the least cost + conversion, another library than portable only by
// `margin`; portable when no candidate is supported.
std::string cheapest(const NodeChoice& nc, double margin) {
    std::string chosen = portableLibrary().id;
    double best = std::numeric_limits<double>::infinity(), portable = best;
    for (const Candidate& c : nc.candidates) {
        if (!c.supported) continue;
        if (c.library == portableLibrary().id) portable = c.cost + c.conversion;
        if (c.cost + c.conversion < best) {
            best = c.cost + c.conversion;
            chosen = c.library;
        }
    }
    if (chosen != portableLibrary().id && best > portable * (1 - margin)) chosen = portableLibrary().id;
    return chosen;
}

// One library for every node it supports; the others on portable (or on the first supported
// candidate when portable has none).
std::string onlyOrFallback(const NodeChoice& nc, const std::string& library) {
    const Candidate* fallback = nullptr;
    for (const Candidate& c : nc.candidates) {
        if (!c.supported) continue;
        if (c.library == library) return library;
        if (!fallback || c.library == portableLibrary().id) fallback = &c;
    }
    return fallback ? fallback->library : portableLibrary().id;
}

} // namespace

void choose(const ir::Graph& fused, MeasuredChoice& choice, const FormatOf& formatOf) {
    std::vector<std::string> libraries;
    for (const auto& [name, nc] : choice.nodes)
        for (const Candidate& c : nc.candidates)
            if (std::find(libraries.begin(), libraries.end(), c.library) == libraries.end())
                libraries.push_back(c.library);
    choice.estimates.clear();
    for (const std::string& lib : libraries)
        choice.estimates[lib] = walk(fused, choice, formatOf, [&](NodeChoice& nc) { return onlyOrFallback(nc, lib); });
    const double margin = switchMargin(choice.unit);
    const double mixed =
        walk(fused, choice, formatOf, [margin](NodeChoice& nc) { return nc.chosen = cheapest(nc, margin); });
    choice.estimates["mixed"] = mixed;
    // The mixed assignment pays what the per-node measurements do not show (one more
    // partition, a kernel's warm caches across a switch): it is kept only when its estimate
    // beats the best single library's by switchMargin, else every node takes that library.
    std::string single;
    for (const std::string& lib : libraries)
        if (single.empty() || choice.estimates[lib] < choice.estimates[single]) single = lib;
    choice.singleLibrary.clear();
    if (!single.empty() && mixed > choice.estimates[single] * (1 - margin)) {
        bool differs = false;
        for (const auto& [name, nc] : choice.nodes) differs = differs || nc.chosen != onlyOrFallback(nc, single);
        if (differs) {
            choice.singleLibrary = single;
            walk(fused, choice, formatOf, [&](NodeChoice& nc) { return nc.chosen = onlyOrFallback(nc, single); });
        }
    }
}

QJsonObject nodeChoiceJson(const NodeChoice& node, const std::string& unit) {
    QJsonArray candidates;
    for (const Candidate& c : node.candidates) {
        QJsonObject o{{"library", QString::fromStdString(c.library)}, {"supported", c.supported}};
        if (c.supported) {
            o["cost"] = c.cost;
            o["conversion"] = c.conversion;
            o["total"] = c.cost + c.conversion;
            o["source"] = QString::fromStdString(c.source);
        }
        if (!c.note.empty()) o["note"] = QString::fromStdString(c.note);
        candidates.append(o);
    }
    return QJsonObject{{"chosen", QString::fromStdString(node.chosen)},
                       {"unit", QString::fromStdString(unit)},
                       {"signature", QString::fromStdString(signatureKey(node.signature))},
                       {"candidates", candidates}};
}

QJsonObject measuredChoiceJson(const MeasuredChoice& choice) {
    QJsonObject estimates;
    for (const auto& [name, total] : choice.estimates) estimates[QString::fromStdString(name)] = total;
    return QJsonObject{{"board", QString::fromStdString(choice.board)},
                       {"unit", QString::fromStdString(choice.unit)},
                       {"conversion_model", QString::fromStdString(choice.conversionModel)},
                       {"conversion_per_byte", choice.conversionPerByte},
                       {"switch_margin", switchMargin(choice.unit)},
                       {"measured", choice.measuredCount},
                       {"cached", choice.cachedCount},
                       {"nodes", static_cast<qint64>(choice.nodes.size())},
                       {"estimates", estimates},
                       {"single_library", QString::fromStdString(choice.singleLibrary)}};
}

} // namespace embark::exporter

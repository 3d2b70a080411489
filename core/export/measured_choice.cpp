#include "measured_choice.h"

#include "kernel_libraries.h"

#include <QCryptographicHash>
#include <QJsonArray>

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

void choose(const ir::Graph& fused, MeasuredChoice& choice, const FormatOf& formatOf) {
    std::map<const ir::Value*, Layout> layout; // chosen layout of each 4-D value produced
    auto layoutOf = [&](const ir::Value* v) {
        auto it = layout.find(v);
        return it == layout.end() ? Layout::NCHW : it->second;
    };
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
        std::string chosen = portableLibrary().id;
        if (it != choice.nodes.end()) {
            double best = std::numeric_limits<double>::infinity(), portable = best;
            for (Candidate& c : it->second.candidates) {
                if (!c.supported) continue;
                c.conversion = conversionBytes(runsIn(c.library)) * choice.conversionPerByte;
                if (c.library == portableLibrary().id) portable = c.cost + c.conversion;
                if (c.cost + c.conversion < best) {
                    best = c.cost + c.conversion;
                    chosen = c.library;
                }
            }
            if (chosen != portableLibrary().id && best > portable * (1 - kSwitchMargin)) chosen = portableLibrary().id;
            it->second.chosen = chosen;
        }
        const Layout f = runsIn(chosen);
        for (const ir::Value* v : n->outputs())
            if (isFourD(v)) layout[v] = f;
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
    return QJsonObject{{"board", QString::fromStdString(choice.board)},
                       {"unit", QString::fromStdString(choice.unit)},
                       {"conversion_model", QString::fromStdString(choice.conversionModel)},
                       {"conversion_per_byte", choice.conversionPerByte},
                       {"switch_margin", kSwitchMargin},
                       {"measured", choice.measuredCount},
                       {"cached", choice.cachedCount},
                       {"nodes", static_cast<qint64>(choice.nodes.size())}};
}

} // namespace embark::exporter

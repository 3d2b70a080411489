#include "run_plan.h"
#include "ir/json_lists.h"

#include <QJsonObject>

#include <map>
#include <set>
#include <unordered_map>

namespace embark::store {

namespace {

Expected<std::vector<std::string>> stringsFrom(const QJsonObject& o, const char* key, size_t entry) {
    std::vector<std::string> out;
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) return out;
    if (!v.isArray())
        return makeError(ErrorKind::InvalidInput,
                         "the run's plan entry " + std::to_string(entry) + ": '" + key + "' is not a list of names");
    for (const QJsonValue& s : v.toArray()) {
        if (!s.isString())
            return makeError(ErrorKind::InvalidInput, "the run's plan entry " + std::to_string(entry) + ": '" + key +
                                                          "' holds something other than a name");
        out.push_back(s.toString().toStdString());
    }
    return out;
}

using Index = std::unordered_map<std::string, std::vector<size_t>>;

std::vector<std::string> originsOf(const PlanNode& n) {
    return n.origins.empty() ? std::vector<std::string>{n.name} : n.origins;
}

Index indexOf(const std::vector<PlanNode>& plan) {
    Index by;
    for (size_t i = 0; i < plan.size(); ++i)
        for (const std::string& o : originsOf(plan[i])) {
            auto& v = by[o];
            if (v.empty() || v.back() != i) v.push_back(i);
        }
    return by;
}

std::set<size_t> linked(const PlanNode& n, const Index& other) {
    std::set<size_t> to;
    for (const std::string& o : originsOf(n))
        if (auto it = other.find(o); it != other.end()) to.insert(it->second.begin(), it->second.end());
    return to;
}

// Each node of `mine` against `theirs`.
std::vector<PlanNodeChange> changesOf(const std::vector<PlanNode>& mine, const std::vector<PlanNode>& theirs,
                                      bool isA) {
    const Index theirIndex = indexOf(theirs), myIndex = indexOf(mine);
    std::vector<PlanNodeChange> out;
    for (const PlanNode& n : mine) {
        PlanNodeChange c;
        c.node = n.name;
        const std::set<size_t> to = linked(n, theirIndex);
        for (size_t i : to) c.counterparts.push_back(theirs[i].name);
        if (to.empty()) {
            c.change = isA ? PlanChange::Removed : PlanChange::Added;
        } else {
            bool fused = to.size() > 1;
            for (size_t i : to) fused = fused || linked(theirs[i], myIndex).size() > 1;
            const PlanNode& m = theirs[*to.begin()];
            if (!fused) {
                (isA ? c.libraryA : c.libraryB) = n.library;
                (isA ? c.libraryB : c.libraryA) = m.library;
                (isA ? c.layoutA : c.layoutB) = n.layout;
                (isA ? c.layoutB : c.layoutA) = m.layout;
            }
            c.change = fused                                            ? PlanChange::Fused
                       : n.library != m.library || n.layout != m.layout ? PlanChange::Reassigned
                       : n.op != m.op                                   ? PlanChange::Rewritten
                                                                        : PlanChange::Unchanged;
        }
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace

QJsonArray planToJson(const std::vector<PlanNode>& plan) {
    QJsonArray a;
    for (const PlanNode& n : plan) {
        QJsonArray shapes;
        for (const auto& s : n.shapes) {
            QJsonArray dims;
            for (int64_t d : s) dims.append(qint64(d));
            shapes.append(dims);
        }
        // The node shape of plan --json and export.json: name, op, lib, provenance.
        QJsonObject o{{"name", QString::fromStdString(n.name)},
                      {"op", QString::fromStdString(n.op)},
                      {"lib", QString::fromStdString(n.library)},
                      {"layout", QString::fromStdString(n.layout)},
                      {"inputs", ir::jsonStrings(n.inputs)},
                      {"outputs", ir::jsonStrings(n.outputs)},
                      {"shapes", shapes}};
        if (!n.origins.empty()) o["provenance"] = ir::jsonStrings(n.origins);
        a.append(o);
    }
    return a;
}

Expected<std::vector<PlanNode>> planFromJson(const QJsonArray& plan) {
    std::vector<PlanNode> out;
    for (qsizetype i = 0; i < plan.size(); ++i) {
        const size_t entry = size_t(i);
        if (!plan[i].isObject())
            return makeError(ErrorKind::InvalidInput,
                             "the run's plan entry " + std::to_string(entry) + " is not an object");
        const QJsonObject o = plan[i].toObject();
        PlanNode n;
        // Runs stored before the names were unified say "node" and "from".
        n.name = o.value(o.contains("name") ? "name" : "node").toString().toStdString();
        n.op = o.value("op").toString().toStdString();
        if (n.name.empty() || n.op.empty())
            return makeError(ErrorKind::InvalidInput,
                             "the run's plan entry " + std::to_string(entry) + " has no 'name' or 'op'");
        n.library = o.value("lib").toString().toStdString();
        n.layout = o.value("layout").toString().toStdString();
        for (auto [key, field] : {std::pair{"inputs", &n.inputs}, std::pair{"outputs", &n.outputs},
                                  std::pair{o.contains("provenance") ? "provenance" : "from", &n.origins}}) {
            auto v = stringsFrom(o, key, entry);
            if (!v) return v.error();
            *field = std::move(*v);
        }
        for (const QJsonValue& s : o.value("shapes").toArray()) {
            std::vector<int64_t> dims;
            for (const QJsonValue& d : s.toArray()) dims.push_back(d.toInteger());
            n.shapes.push_back(std::move(dims));
        }
        out.push_back(std::move(n));
    }
    return out;
}

Expected<std::vector<PlanNode>> runPlan(const RunRecord& run) {
    const QJsonValue v = run.extra.value("plan");
    if (v.isUndefined() || v.isNull()) return std::vector<PlanNode>{};
    if (!v.isArray())
        return makeError(ErrorKind::InvalidInput, "run " + std::to_string(run.id) + ": its stored plan is not a list");
    auto plan = planFromJson(v.toArray());
    if (!plan) return makeError(plan.error().kind, "run " + std::to_string(run.id) + ": " + plan.error().message);
    return plan;
}

const char* planChangeName(PlanChange change) {
    switch (change) {
    case PlanChange::Added: return "added";
    case PlanChange::Removed: return "removed";
    case PlanChange::Fused: return "fused differently";
    case PlanChange::Reassigned: return "re-assigned";
    case PlanChange::Rewritten: return "rewritten";
    case PlanChange::Unchanged: return "unchanged";
    }
    return "unchanged";
}

PlanDiff diffPlans(const std::vector<PlanNode>& a, const std::vector<PlanNode>& b) {
    PlanDiff d;
    d.a = changesOf(a, b, true);
    d.b = changesOf(b, a, false);
    for (const PlanNodeChange& c : d.a) {
        d.removed += c.change == PlanChange::Removed;
        d.fusedA += c.change == PlanChange::Fused;
    }
    for (const PlanNodeChange& c : d.b) {
        d.added += c.change == PlanChange::Added;
        d.fusedB += c.change == PlanChange::Fused;
        d.reassigned += c.change == PlanChange::Reassigned;
        d.rewritten += c.change == PlanChange::Rewritten;
    }
    return d;
}

Expected<std::unique_ptr<ir::Graph>> planGraph(const std::vector<PlanNode>& plan) {
    auto g = std::make_unique<ir::Graph>();
    std::set<std::string> read, written;
    for (const PlanNode& n : plan) {
        read.insert(n.inputs.begin(), n.inputs.end());
        for (const std::string& o : n.outputs)
            if (!written.insert(o).second)
                return makeError(ErrorKind::InvalidInput,
                                 "the run's plan writes value '" + o + "' twice (node '" + n.name + "')");
    }
    std::map<std::string, ir::Value*> values;
    auto value = [&](const std::string& name, const std::vector<int64_t>* dims) {
        auto it = values.find(name);
        if (it != values.end()) return it->second;
        ir::Value* v = g->addValue(name, ir::DType::Float32, dims ? ir::Shape(*dims) : ir::Shape());
        values.emplace(name, v);
        if (!written.count(name)) g->addInput(v);
        return v;
    };
    for (const PlanNode& n : plan) {
        const auto op = ir::opFromName(n.op);
        if (!op)
            return makeError(ErrorKind::InvalidInput,
                             "the run's plan names an unknown op '" + n.op + "' (node '" + n.name + "')");
        std::vector<ir::Value*> in, out;
        for (const std::string& i : n.inputs) in.push_back(value(i, nullptr));
        for (size_t k = 0; k < n.outputs.size(); ++k) {
            // Created here, by its writer, with its shape (a reader met first has none).
            auto it = values.find(n.outputs[k]);
            ir::Value* v =
                it != values.end() ? it->second : value(n.outputs[k], k < n.shapes.size() ? &n.shapes[k] : nullptr);
            if (k < n.shapes.size()) v->shape = ir::Shape(n.shapes[k]);
            out.push_back(v);
        }
        ir::Node* node = g->addNode(*op, n.name, in, out);
        node->provenance = n.origins;
    }
    for (const auto& [name, v] : values)
        if (!read.count(name) && written.count(name)) g->addOutput(v);
    return g;
}

} // namespace embark::store

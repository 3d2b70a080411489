#include "memory_planner.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>

namespace embark::exporter {

namespace {

bool isPureReshape(ir::OpKind op) {
    return op == ir::OpKind::Reshape || op == ir::OpKind::Flatten || op == ir::OpKind::Squeeze ||
           op == ir::OpKind::Unsqueeze;
}

// Ops that read element i of a same-sized input before writing element i of the output.
bool isElementwise(const ir::Node& n) {
    const ir::OpCategory c = ir::opCategory(n.op);
    return c == ir::OpCategory::Activation || c == ir::OpCategory::Elementwise;
}

size_t alignUp(size_t v, size_t a) { return a ? (v + a - 1) / a * a : v; }

// Union of values into buffers, tracking each group's lifetime.
struct Group {
    std::vector<const ir::Value*> members;
    size_t bytes = 0;
    int first = 0, last = 0;
    bool inArena = true;
};

// A value's place in the buffer of `root` (another value): elements from its start, and the
// stride of its last-axis rows (0 = contiguous).
struct Placement {
    const ir::Value* root = nullptr;
    int64_t offset = 0;
    int64_t stride = 0;
    bool operator==(const Placement& o) const { return root == o.root && offset == o.offset && stride == o.stride; }
};

int64_t lastDim(const ir::Value* v) { return v->shape.rank() ? v->shape[v->shape.rank() - 1] : 1; }

bool isPlainFloat(const ir::Value* v) {
    return v && !v->isConstant() && v->dtype == ir::DType::Float32 && v->shape.checkedNumel().has_value() &&
           v->shape.numel() > 0;
}

// Step 2's concatenation in place: which values are views of which Concat's output, decided from
// the last Concat of the schedule to the first, so that an outer Concat's placement is known
// before the Concats that feed it. The result maps each slice to its place in its root.
std::unordered_map<const ir::Value*, Placement> placeConcatenations(const std::vector<ir::Node*>& nodes,
                                                                    const MemoryPlanOptions& options) {
    std::unordered_map<const ir::Value*, Placement> placed;
    const MemoryPlanOptions::ConcatRules& rules = options.concat;
    if (!rules.inPlace || !rules.writesAtOffset || !rules.writesStrided || !rules.readsStrided) return placed;
    std::set<std::string> apart;
    for (const auto& [a, b] : options.apart) {
        apart.insert(a);
        apart.insert(b);
    }
    auto readersReadStrided = [&](const ir::Value* v) {
        for (const ir::Use& u : v->uses())
            if (!rules.readsStrided(*u.node)) return false;
        return true;
    };
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        const ir::Node& n = **it;
        if (n.op != ir::OpKind::Concat || !rules.inPlace(n)) continue;
        const ir::Value* y = n.output(0);
        if (!isPlainFloat(y)) continue;
        const size_t rank = y->shape.rank();
        const int64_t axis = y->shape.normAxis(n.attrInt("axis", 0));
        if (axis < 0 || static_cast<size_t>(axis) >= rank) continue;
        int64_t outer = 1, inner = 1;
        for (size_t i = 0; i < rank; ++i) {
            if (static_cast<int64_t>(i) < axis) outer *= y->shape[i];
            if (static_cast<int64_t>(i) > axis) inner *= y->shape[i];
        }
        const int64_t extent = y->shape[static_cast<size_t>(axis)];
        // The inputs with their offsets along the axis; empty inputs take no room.
        std::vector<std::pair<const ir::Value*, int64_t>> slices;
        bool usable = true;
        int64_t at = 0;
        for (const ir::Value* in : n.inputs()) {
            if (!in || in->shape.rank() != rank) {
                usable = false;
                break;
            }
            const int64_t size = in->shape[static_cast<size_t>(axis)];
            if (in->shape.numel() > 0) slices.push_back({in, at});
            at += size;
        }
        if (!usable || at != extent || slices.empty()) continue;
        // Where input slice `offset` lies when y lies at `py`, or nothing if that is not a view.
        auto expected = [&](const Placement& py, int64_t offset, const ir::Value* in) -> std::optional<Placement> {
            Placement p{py.root, py.offset + offset * inner, 0};
            if (py.stride != 0 || outer > 1) {
                if (inner != 1) return std::nullopt;
                p.stride = py.stride != 0 ? py.stride : extent;
            }
            if (in->shape.numel() == lastDim(in) || p.stride == lastDim(in)) p.stride = 0; // one row, or whole rows
            return p;
        };
        // A Concat whose inputs already lie side by side: its output is their union.
        if (!placed.count(y) && !y->isGraphOutput()) {
            auto first = placed.find(slices.front().first);
            std::optional<Placement> union_;
            if (first != placed.end()) { // y starts where its first input starts, rows as far apart
                union_ = first->second;
                if (y->shape.numel() == lastDim(y) || union_->stride == lastDim(y)) union_->stride = 0;
            }
            bool all = union_.has_value() && (union_->stride == 0 || readersReadStrided(y));
            for (size_t i = 0; all && i < slices.size(); ++i) {
                auto p = placed.find(slices[i].first);
                auto e = expected(*union_, slices[i].second, slices[i].first);
                all = p != placed.end() && e && p->second == *e;
            }
            if (all) {
                placed[y] = *union_;
                continue;
            }
        }
        // Otherwise y's buffer (or the slice of a buffer that y is) hosts the inputs it can.
        if (!placed.count(y) && (y->isGraphInput() || y->isGraphOutput())) continue;
        const Placement py = placed.count(y) ? placed.at(y) : Placement{y, 0, 0};
        const bool stridedFits = py.root->byteSize() <= rules.stridedMaxBytes;
        for (const auto& [in, offset] : slices) {
            if (!isPlainFloat(in) || placed.count(in) || in->isGraphInput() || in->isGraphOutput() || !in->producer() ||
                apart.count(in->name))
                continue;
            const std::optional<Placement> e = expected(py, offset, in);
            if (!e) continue;
            const ir::Node& producer = *in->producer();
            const bool ok = e->stride == 0 ? rules.writesAtOffset(producer)
                                           : stridedFits && rules.writesStrided(producer) && readersReadStrided(in);
            if (ok) placed[in] = *e;
        }
    }
    return placed;
}

} // namespace

ValueView MemoryPlan::viewOf(const std::string& value) const {
    auto it = views.find(value);
    return it == views.end() ? ValueView{} : it->second;
}

const PlannedBuffer* MemoryPlan::bufferFor(const std::string& value) const {
    auto it = bufferOfValue.find(value);
    return it == bufferOfValue.end() ? nullptr : &buffers[static_cast<size_t>(it->second)];
}

std::vector<size_t> MemoryPlan::liveBytesPerStep() const {
    std::vector<size_t> live(std::max<size_t>(schedule.size(), 1), 0);
    for (const PlannedBuffer& b : buffers)
        if (b.inArena)
            for (int s = b.firstStep; s <= b.lastStep; ++s) live[static_cast<size_t>(s)] += b.bytes;
    return live;
}

Expected<MemoryPlan> planMemory(const ir::Graph& graph, const MemoryPlanOptions& options) {
    MemoryPlan plan;
    plan.alignment = options.alignment;
    const std::vector<ir::Node*> nodes = graph.nodes();
    const int lastStep = std::max(0, static_cast<int>(nodes.size()) - 1);
    std::unordered_map<const ir::Node*, int> stepOf;
    for (size_t i = 0; i < nodes.size(); ++i) {
        stepOf[nodes[i]] = static_cast<int>(i);
        plan.schedule.push_back(nodes[i]->name);
    }

    std::set<std::pair<std::string, std::string>> apart;
    for (const auto& [a, b] : options.apart) {
        apart.insert({a, b});
        apart.insert({b, a});
    }
    auto keptApart = [&](const std::vector<const ir::Value*>& x, const std::vector<const ir::Value*>& y) {
        for (const ir::Value* a : x)
            for (const ir::Value* b : y)
                if (apart.count({a->name, b->name})) return true;
        return false;
    };

    // Lifetime of each value on its own.
    auto valueLast = [&](const ir::Value* v) {
        int last = v->producer() ? stepOf.at(v->producer()) : 0;
        for (const ir::Use& u : v->uses()) last = std::max(last, stepOf.at(u.node));
        if (v->isGraphOutput()) last = lastStep;
        return last;
    };
    auto isIo = [](const ir::Value* v) { return v->isGraphInput() || v->isGraphOutput(); };

    std::vector<Group> groups;
    std::unordered_map<const ir::Value*, size_t> groupOf;
    auto newGroup = [&](const ir::Value* v, int first) -> Expected<size_t> {
        auto numel = v->shape.checkedNumel();
        if (!numel)
            return makeError(ErrorKind::InvalidInput, "value '" + v->name + "' has an invalid shape " + v->shape.str());
        Group g;
        g.members = {v};
        g.bytes = alignUp(static_cast<size_t>(*numel) * ir::dtypeSize(v->dtype), options.alignment);
        g.first = first;
        g.last = valueLast(v);
        g.inArena = options.ioInArena || !isIo(v);
        groups.push_back(std::move(g));
        groupOf[v] = groups.size() - 1;
        return groups.size() - 1;
    };
    auto join = [&](size_t gi, const ir::Value* v) {
        Group& g = groups[gi];
        g.members.push_back(v);
        g.last = std::max(g.last, valueLast(v));
        groupOf[v] = gi;
    };

    const std::unordered_map<const ir::Value*, Placement> slices = placeConcatenations(nodes, options);
    std::unordered_map<const ir::Value*, int> rootLast; // the last step of any value in a root's buffer
    for (const auto& [v, p] : slices) {
        int& last = rootLast.emplace(p.root, valueLast(p.root)).first->second;
        last = std::max(last, valueLast(v));
    }

    for (const ir::Value* v : graph.inputs())
        if (!v->isConstant()) EMBARK_TRY(newGroup(v, 0));
    for (size_t step = 0; step < nodes.size(); ++step) {
        const ir::Node* n = nodes[step];
        for (const ir::Value* in : n->inputs())
            if (in && !in->isConstant() && !groupOf.count(in))
                return makeError(ErrorKind::InvalidInput, "memory planner: " + n->describe() + " reads '" + in->name +
                                                              "' before it is produced (the graph is not sorted)");
        for (size_t k = 0; k < n->outputs().size(); ++k) {
            const ir::Value* out = n->output(k);
            if (!out || out->isConstant()) continue;
            if (auto p = slices.find(out); p != slices.end()) {
                // A slice of a concatenation: its root's buffer, created by its first slice.
                const ir::Value* root = p->second.root;
                if (!groupOf.count(root)) {
                    auto created = newGroup(root, static_cast<int>(step));
                    if (!created.ok()) return created.error();
                    groups[*created].last = rootLast.at(root);
                }
                join(groupOf.at(root), out);
                plan.views[out->name] =
                    ValueView{static_cast<size_t>(p->second.offset) * ir::dtypeSize(out->dtype), p->second.stride};
                continue;
            }
            if (groupOf.count(out)) continue; // a concatenation whose slices were written first
            const ir::Value* in0 = n->input(0);
            const bool sameClass = in0 && !in0->isConstant() && (options.ioInArena || isIo(in0) == isIo(out));
            if (k == 0 && sameClass && options.aliasReshapes && isPureReshape(n->op) &&
                in0->byteSize() == out->byteSize() && plan.viewOf(in0->name).rowStride == 0) {
                join(groupOf.at(in0), out);
                if (auto v = plan.views.find(in0->name); v != plan.views.end()) plan.views[out->name] = v->second;
                continue;
            }
            if (k == 0 && options.inPlace && isElementwise(*n) && (options.ioInArena || !isIo(out))) {
                bool placed = false;
                for (const ir::Value* in : n->inputs()) {
                    if (!in || in->isConstant() || in->isGraphInput() || in->byteSize() != out->byteSize() ||
                        plan.views.count(in->name))
                        continue;
                    const size_t gi = groupOf.at(in);
                    if (groups[gi].last != static_cast<int>(step) || !groups[gi].inArena) continue;
                    if (keptApart(groups[gi].members, {out})) continue;
                    // A model output is copied out after the last step: never written over.
                    if (std::any_of(groups[gi].members.begin(), groups[gi].members.end(),
                                    [](const ir::Value* m) { return m->isGraphOutput(); }))
                        continue;
                    // Another input in the same buffer under a different view would be overwritten.
                    bool clash = false;
                    for (const ir::Value* other : n->inputs())
                        if (other && other != in && !other->isConstant() && groupOf.at(other) == gi) clash = true;
                    if (clash) continue;
                    join(gi, out);
                    placed = true;
                    break;
                }
                if (placed) continue;
            }
            EMBARK_TRY(newGroup(out, static_cast<int>(step)));
        }
    }

    // Greedy best fit, largest first.
    std::vector<size_t> order(groups.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (groups[a].bytes != groups[b].bytes) return groups[a].bytes > groups[b].bytes;
        return groups[a].first < groups[b].first;
    });
    std::vector<size_t> offsets(groups.size(), 0);
    std::vector<size_t> placed;
    for (size_t gi : order) {
        const Group& g = groups[gi];
        if (!g.inArena || g.bytes == 0) continue;
        std::vector<std::pair<size_t, size_t>> busy; // [offset, end) of overlapping lifetimes
        for (size_t pj : placed)
            if ((groups[pj].first <= g.last && g.first <= groups[pj].last) || keptApart(groups[pj].members, g.members))
                busy.push_back({offsets[pj], offsets[pj] + groups[pj].bytes});
        std::sort(busy.begin(), busy.end());
        size_t cursor = 0, best = SIZE_MAX, bestGap = SIZE_MAX;
        for (auto [start, end] : busy) {
            if (start > cursor && start - cursor >= g.bytes && start - cursor < bestGap) {
                best = cursor;
                bestGap = start - cursor;
            }
            cursor = std::max(cursor, end);
        }
        offsets[gi] = best != SIZE_MAX ? best : cursor;
        placed.push_back(gi);
        plan.arenaBytes = std::max(plan.arenaBytes, offsets[gi] + g.bytes);
    }

    for (size_t gi = 0; gi < groups.size(); ++gi) {
        PlannedBuffer b;
        b.id = static_cast<int>(gi);
        for (const ir::Value* v : groups[gi].members) {
            b.values.push_back(v->name);
            plan.bufferOfValue[v->name] = b.id;
        }
        b.bytes = groups[gi].bytes;
        b.offset = offsets[gi];
        b.firstStep = groups[gi].first;
        b.lastStep = groups[gi].last;
        b.inArena = groups[gi].inArena;
        plan.buffers.push_back(std::move(b));
    }
    const std::vector<size_t> live = plan.liveBytesPerStep();
    for (size_t s = 0; s < live.size(); ++s)
        if (live[s] > plan.lowerBoundBytes) {
            plan.lowerBoundBytes = live[s];
            plan.peakStep = static_cast<int>(s);
        }
    return plan;
}

Status checkMemoryPlan(const MemoryPlan& plan) {
    std::vector<const PlannedBuffer*> arena;
    for (const PlannedBuffer& b : plan.buffers) {
        if (!b.inArena || b.bytes == 0) continue;
        if (b.offset + b.bytes > plan.arenaBytes)
            return makeError(ErrorKind::InvalidInput, "memory plan: buffer " + std::to_string(b.id) + " ('" +
                                                          b.values.front() + "') ends past the arena");
        if (plan.alignment && b.offset % plan.alignment)
            return makeError(ErrorKind::InvalidInput, "memory plan: buffer " + std::to_string(b.id) + " is misaligned");
        arena.push_back(&b);
    }
    // Sweep by offset so the check is O(n log n + overlaps) rather than all pairs.
    std::sort(arena.begin(), arena.end(), [](auto* a, auto* b) { return a->offset < b->offset; });
    for (size_t i = 0; i < arena.size(); ++i)
        for (size_t j = i + 1; j < arena.size() && arena[j]->offset < arena[i]->offset + arena[i]->bytes; ++j) {
            const PlannedBuffer& a = *arena[i];
            const PlannedBuffer& b = *arena[j];
            if (a.firstStep <= b.lastStep && b.firstStep <= a.lastStep)
                return makeError(ErrorKind::InvalidInput, "memory plan: buffers " + std::to_string(a.id) + " ('" +
                                                              a.values.front() + "') and " + std::to_string(b.id) +
                                                              " ('" + b.values.front() +
                                                              "') are live at the same time and overlap");
        }
    return {};
}

std::string MemoryPlan::table() const {
    std::ostringstream out;
    out << "buffer      offset        bytes  steps      values\n";
    for (const PlannedBuffer& b : buffers) {
        std::string values;
        for (const std::string& v : b.values) {
            values += (values.empty() ? "" : ", ") + v;
            if (auto view = views.find(v); view != views.end()) {
                values += " @+" + std::to_string(view->second.byteOffset);
                if (view->second.rowStride) values += "/rows " + std::to_string(view->second.rowStride);
            }
        }
        char line[96];
        std::snprintf(line, sizeof line, "%6d  %10s  %11zu  %4d..%-4d ", b.id,
                      b.inArena ? std::to_string(b.offset).c_str() : "outside", b.bytes, b.firstStep, b.lastStep);
        out << line << values << "\n";
    }
    out << "arena " << arenaBytes << " bytes, lower bound " << lowerBoundBytes << " bytes (step " << peakStep << ")\n";
    return out.str();
}

std::string MemoryPlan::asciiSteps(int width) const {
    static const char kSymbols[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    std::ostringstream out;
    const std::vector<size_t> live = liveBytesPerStep();
    const double bytesPerChar = arenaBytes ? static_cast<double>(arenaBytes) / width : 1.0;
    for (size_t s = 0; s < schedule.size(); ++s) {
        std::string row(static_cast<size_t>(width), '.');
        for (const PlannedBuffer& b : buffers) {
            if (!b.inArena || b.bytes == 0 || static_cast<int>(s) < b.firstStep || static_cast<int>(s) > b.lastStep)
                continue;
            // Every character whose byte range intersects the buffer; at least one.
            auto from = static_cast<size_t>(b.offset / bytesPerChar);
            auto to = static_cast<size_t>((b.offset + b.bytes - 1) / bytesPerChar);
            for (size_t c = from; c <= to && c < row.size(); ++c) row[c] = kSymbols[b.id % 62];
        }
        char prefix[32];
        std::snprintf(prefix, sizeof prefix, "%4zu ", s);
        out << prefix << row << " " << live[s] << "  " << schedule[s] << "\n";
    }
    return out.str();
}

} // namespace embark::exporter

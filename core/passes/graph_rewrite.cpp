#include "graph_rewrite.h"

#include <algorithm>
#include <sstream>

namespace embark::passes {

ir::Node* soleConsumer(const ir::Value* v) {
    if (!v || v->isGraphOutput() || v->uses().size() != 1) return nullptr;
    return v->uses().front().node;
}

ir::Node* exclusiveProducer(const ir::Node* n, size_t i) {
    const ir::Value* v = n->input(i);
    if (!v || !v->producer() || soleConsumer(v) != n) return nullptr;
    return v->producer();
}

std::optional<std::vector<ir::Node*>> matchChain(ir::Node* start, const std::vector<ir::OpKind>& ops) {
    if (!start || ops.empty() || start->op != ops.front()) return std::nullopt;
    std::vector<ir::Node*> chain{start};
    for (size_t k = 1; k < ops.size(); ++k) {
        ir::Node* next = soleConsumer(chain.back()->output(0));
        if (!next || next->op != ops[k] || next->input(0) != chain.back()->output(0)) return std::nullopt;
        chain.push_back(next);
    }
    return chain;
}

const ir::Tensor* constantInput(const ir::Node* n, size_t i) {
    const ir::Value* v = n->input(i);
    return v && v->isConstant() ? &v->constant : nullptr;
}

void appendProvenance(ir::Node* into, const ir::Node* from) {
    for (const std::string& name : from->provenance)
        if (std::find(into->provenance.begin(), into->provenance.end(), name) == into->provenance.end())
            into->provenance.push_back(name);
}

void prependProvenance(ir::Node* into, const std::vector<std::string>& earlier) {
    std::vector<std::string> merged;
    for (const std::string& name : earlier)
        if (std::find(merged.begin(), merged.end(), name) == merged.end()) merged.push_back(name);
    for (const std::string& name : into->provenance)
        if (std::find(merged.begin(), merged.end(), name) == merged.end()) merged.push_back(name);
    into->provenance = std::move(merged);
}

void absorbConsumer(ir::Graph& g, ir::Node* producer, ir::Node* consumer) {
    ir::Value* out = consumer->output(0);
    appendProvenance(producer, consumer);
    g.removeNode(consumer);
    g.setOutput(producer, 0, out);
}

static size_t outputIndex(const ir::Node* n, const ir::Value* v) {
    const auto& outs = n->outputs();
    return static_cast<size_t>(std::find(outs.begin(), outs.end(), v) - outs.begin());
}

bool bypassNode(ir::Graph& g, ir::Node* n) {
    ir::Value* in = n->input(0);
    ir::Value* out = n->output(0);
    if (!in || !out) return false;
    ir::Node* producer = in->producer();
    const bool inputExclusive = soleConsumer(in) == n;
    if (out->isGraphOutput()) {
        // Keep the output's name: the producer writes it directly, if nothing else reads `in`.
        if (!producer || !inputExclusive) return false;
        const size_t idx = outputIndex(producer, in);
        appendProvenance(producer, n);
        g.removeNode(n);
        g.setOutput(producer, idx, out);
        return true;
    }
    if (producer && inputExclusive) {
        appendProvenance(producer, n);
    } else if (!out->uses().empty()) {
        prependProvenance(out->uses().front().node, n->provenance);
    } else if (producer) {
        appendProvenance(producer, n);
    } else {
        recordFolded(g, n->provenance);
    }
    g.replaceAllUses(out, in);
    g.removeNode(n);
    return true;
}

void recordFolded(ir::Graph& g, const std::vector<std::string>& names) {
    std::string& list = g.metadata[kFoldedNodesKey];
    for (const std::string& name : names) list += name + "\n";
}

std::vector<std::string> foldedNodes(const ir::Graph& g) {
    std::vector<std::string> out;
    auto it = g.metadata.find(kFoldedNodesKey);
    if (it == g.metadata.end()) return out;
    std::istringstream in(it->second);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.push_back(line);
    return out;
}

} // namespace embark::passes

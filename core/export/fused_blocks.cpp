#include "fused_blocks.h"

#include "emit_context.h"

#include <algorithm>

namespace embark::exporter {

namespace {

// An NHWC node of a library whose convolutions fuse into blocks.
bool fusesNhwc(const Adaptation& a, const ir::Node& n) {
    auto it = a.nodes.find(n.name);
    return it != a.nodes.end() && assignedLibrary(a, n).fusesBlocks && it->second.format == targets::Layout::NHWC;
}

// A 2-D Conv whose input and output are 4-D NHWC activations and whose weights (and bias) are
// constants.
bool plainConv(const ir::Node& n) {
    if (n.op != ir::OpKind::Conv || n.inputs().size() < 2) return false;
    const ir::Value* x = n.input(0);
    const ir::Value* w = n.input(1);
    const ir::Value* b = n.inputs().size() > 2 ? n.input(2) : nullptr;
    const ir::Value* y = n.output(0);
    return x && w && y && x->shape.rank() == 4 && y->shape.rank() == 4 && w->isConstant() && w->shape.rank() == 4 &&
           (!b || b->isConstant()) && !x->isConstant();
}

bool allOf(const std::vector<int64_t>& v, int64_t value) {
    return std::all_of(v.begin(), v.end(), [&](int64_t x) { return x == value; });
}

// 1x1, stride 1, no pads, one group: the runtime's Pointwise path.
bool pointwise(const ir::Node& n) {
    if (!plainConv(n)) return false;
    const ir::Value* x = n.input(0);
    const ir::Value* y = n.output(0);
    const int64_t cin = x->shape[3], cout = y->shape[3];
    return n.attrInt("group", 1) == 1 && n.input(1)->shape.numel() == cin * cout &&
           allOf(n.attrInts("strides", {1, 1}), 1) && allOf(n.attrInts("pads", {0, 0, 0, 0}), 0) &&
           n.attrString("auto_pad", "NOTSET") != "SAME_UPPER" && n.attrString("auto_pad", "NOTSET") != "SAME_LOWER" &&
           x->shape[1] == y->shape[1] && x->shape[2] == y->shape[2];
}

bool depthwise(const ir::Node& n) {
    if (!plainConv(n)) return false;
    const int64_t c = n.input(0)->shape[3];
    return c > 1 && n.attrInt("group", 1) == c && n.output(0)->shape[3] == c;
}

// `v` is read by `next` alone and is no graph output.
bool onlyFeeds(const ir::Value* v, const ir::Node* next) {
    if (!v || v->isGraphOutput() || v->uses().empty()) return false;
    for (const ir::Use& u : v->uses())
        if (u.node != next) return false;
    return true;
}

} // namespace

bool graphInputReadInPlace(const Adaptation& adaptation, const ir::Value* v) {
    if (!v || !v->isGraphInput() || v->uses().empty() || v->isGraphOutput()) return false;
    for (const ir::Use& use : v->uses()) {
        auto it = adaptation.nodes.find(use.node->name);
        if (it == adaptation.nodes.end() || !assignedLibrary(adaptation, *use.node).inputsReadOnly) return false;
    }
    return true;
}

std::vector<FusedBlock> findFusedBlocks(const Adaptation& adaptation) {
    std::vector<FusedBlock> blocks;
    const std::vector<ir::Node*> nodes = adaptation.graph.nodes();
    auto fusable = [&](size_t i) { return i < nodes.size() && fusesNhwc(adaptation, *nodes[i]); };

    for (size_t i = 0; i + 1 < nodes.size(); ++i) {
        FusedBlock block;
        // A portable NCHW -> NHWC Transpose feeding only a convolution with few input channels and
        // a kernel wider than 1x1 (a 1x1 one may start a bottleneck instead).
        const ir::Node* t = nodes[i];
        if (t->op == ir::OpKind::Transpose && t->input(0) && t->input(0)->shape.rank() == 4 &&
            transposePerm(*t) == std::vector<int64_t>{0, 2, 3, 1} && adaptation.nodes.count(t->name) &&
            assignedLibrary(adaptation, *t).fusesBlocks && fusable(i + 1) && plainConv(*nodes[i + 1]) &&
            nodes[i + 1]->attrInt("group", 1) == 1 && nodes[i + 1]->input(0)->shape[3] < 16 &&
            !pointwise(*nodes[i + 1]) && onlyFeeds(t->output(0), nodes[i + 1]) &&
            nodes[i + 1]->input(0) == t->output(0)) {
            block.kind = FusedBlock::Kind::NchwConv;
            block.nodes = {t, nodes[i + 1]};
            block.input = t->input(0);
            blocks.push_back(std::move(block));
            ++i;
            continue;
        }
        // [expansion ->] depthwise -> projection, each feeding only the next.
        const bool expanded = fusable(i) && fusable(i + 1) && fusable(i + 2) && pointwise(*nodes[i]) &&
                              depthwise(*nodes[i + 1]) && pointwise(*nodes[i + 2]) &&
                              onlyFeeds(nodes[i]->output(0), nodes[i + 1]) &&
                              nodes[i + 1]->input(0) == nodes[i]->output(0);
        const size_t dw = expanded ? i + 1 : i;
        if (!fusable(dw) || !fusable(dw + 1) || !depthwise(*nodes[dw]) || !pointwise(*nodes[dw + 1]) ||
            !onlyFeeds(nodes[dw]->output(0), nodes[dw + 1]) || nodes[dw + 1]->input(0) != nodes[dw]->output(0))
            continue;
        if (expanded) block.nodes.push_back(nodes[i]);
        block.nodes.push_back(nodes[dw]);
        block.nodes.push_back(nodes[dw + 1]);
        block.expansion = expanded;
        block.input = block.nodes.front()->input(0);
        if (dw + 2 < nodes.size()) {
            const ir::Node* add = nodes[dw + 2];
            const ir::Value* y = nodes[dw + 1]->output(0);
            if (add->op == ir::OpKind::Add && add->inputs().size() == 2 && fusesNhwc(adaptation, *add) &&
                onlyFeeds(y, add) && add->output(0) && add->output(0)->shape == y->shape &&
                block.input->shape == y->shape &&
                ((add->input(0) == y && add->input(1) == block.input) ||
                 (add->input(1) == y && add->input(0) == block.input))) {
                block.nodes.push_back(add);
                block.add = add;
            }
        }
        i += block.nodes.size() - 1;
        blocks.push_back(std::move(block));
    }
    return blocks;
}

} // namespace embark::exporter

#include "stored_plan.h"

namespace embark::jobs {

std::vector<store::PlanNode> storedPlan(const exporter::DeploymentPlan& plan) {
    const exporter::Adaptation& a = plan.adaptation;
    std::vector<store::PlanNode> out;
    for (const ir::Node* n : a.graph.nodes()) {
        store::PlanNode p;
        p.name = n->name;
        p.op = std::string(ir::opName(n->op));
        if (auto it = a.nodes.find(n->name); it != a.nodes.end()) {
            p.library = it->second.library;
            p.layout = std::string(targets::layoutName(it->second.format));
        }
        for (const ir::Value* v : n->inputs())
            if (v && !v->isConstant()) p.inputs.push_back(v->name);
        for (const ir::Value* v : n->outputs())
            if (v) {
                p.outputs.push_back(v->name);
                p.shapes.push_back(v->shape.dims());
            }
        p.origins = n->provenance;
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace embark::jobs

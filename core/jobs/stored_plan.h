// The deployment plan a benchmark ran, as the run store keeps it (store/run_plan.h): every
// node of the adapted graph (fused nodes and layout conversions) in schedule order with its
// op, kernel library, layout, values and original ONNX nodes (issue 19: diffing two runs' plans).
#pragma once

#include "export/deployment_plan.h"
#include "store/run_plan.h"

namespace embark::jobs {

std::vector<store::PlanNode> storedPlan(const exporter::DeploymentPlan& plan);

} // namespace embark::jobs

// Time of import + the deployment plan (recipe, adaptation, fused blocks, memory plan) for every shared model and
// for a synthetic 1,000-node graph (target: under 1 s each). Median of 5 runs per figure.
#include "export/deployment_plan.h"
#include "embark_build_paths.h"
#include "export/memory_planner.h"
#include "jobs/resolve_target.h"
#include "onnx/importer.h"
#include "passes/pass_manager.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <random>

using namespace embark;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// 250 blocks of Conv(1x1) -> BatchNormalization -> Relu -> Add(residual): 1,000 nodes that
// every fusion pass has work on.
ir::Graph synthetic() {
    ir::Graph g;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-0.1f, 0.1f);
    auto weights = [&](const std::string& name, ir::Shape s) {
        std::vector<float> d(static_cast<size_t>(s.numel()));
        for (float& x : d) x = dist(rng);
        return g.addConstant(name, ir::Tensor::fromFloats(s, d));
    };
    const int64_t c = 16;
    ir::Value* x = g.addValue("input", ir::DType::Float32, ir::Shape{1, c, 14, 14});
    g.addInput(x);
    for (int i = 0; i < 250; ++i) {
        const std::string p = "b" + std::to_string(i) + "_";
        auto* y = g.addValue(p + "conv", ir::DType::Float32, x->shape);
        g.addNode(ir::OpKind::Conv, p + "conv", {x, weights(p + "w", {c, c, 1, 1})}, {y})->attrs["kernel_shape"] =
            std::vector<int64_t>{1, 1};
        std::vector<float> ones(c, 1.f);
        auto* n = g.addValue(p + "bn", ir::DType::Float32, x->shape);
        g.addNode(ir::OpKind::BatchNormalization, p + "bn",
                  {y, weights(p + "g", {c}), weights(p + "be", {c}), weights(p + "m", {c}),
                   g.addConstant(p + "v", ir::Tensor::fromFloats(ir::Shape{c}, ones))},
                  {n});
        auto* r = g.addValue(p + "relu", ir::DType::Float32, x->shape);
        g.addNode(ir::OpKind::Relu, p + "relu", {n}, {r});
        auto* s = g.addValue(p + "add", ir::DType::Float32, x->shape);
        g.addNode(ir::OpKind::Add, p + "add", {r, x}, {s});
        x = s;
    }
    g.addOutput(x);
    return g;
}

struct Timing {
    double import = 0, plan = 0;
    size_t arena = 0, bound = 0, nodes = 0;
};

// Import, then the whole deployment plan (passes, adaptation, fused blocks, memory plan) as
// the export builds it: the bench times what the studio and `embark-cli plan` run.
Timing once(const std::function<Expected<ir::Graph>()>& load, const char* lib) {
    jobs::TargetRequest request; // the default board, as `embark-cli plan --lib LIB`
    request.library = lib;
    auto target = jobs::resolveTarget(request);
    if (!target) {
        std::fprintf(stderr, "%s\n", target.error().message.c_str());
        std::exit(1);
    }
    auto t0 = Clock::now();
    auto g = load();
    if (!g) {
        std::fprintf(stderr, "%s\n", g.error().message.c_str());
        std::exit(1);
    }
    auto t1 = Clock::now();
    exporter::PlanOptions po = exporter::planOptions(*target);
    po.keepSnapshots = true; // as the studio builds it
    auto plan = exporter::buildDeploymentPlan(*g, po);
    auto t2 = Clock::now();
    if (!plan) {
        std::fprintf(stderr, "plan failed: %s\n", plan.error().message.c_str());
        std::exit(1);
    }
    const exporter::DeploymentPlan& dp = **plan;
    return {ms(t1 - t0), ms(t2 - t1), dp.memory.arenaBytes, dp.memory.lowerBoundBytes, dp.passes.graph.nodeCount()};
}

void report(const std::string& name, const std::function<Expected<ir::Graph>()>& load, const char* lib) {
    std::vector<Timing> runs;
    for (int i = 0; i < 5; ++i) runs.push_back(once(load, lib));
    auto median = [&](double Timing::*f) {
        std::vector<double> v;
        for (auto& r : runs) v.push_back(r.*f);
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    const double total = median(&Timing::import) + median(&Timing::plan);
    std::printf("%-16s %-9s %5zu %9.1f %9.1f %9.1f %s %11zu %11zu\n", name.c_str(), lib, runs[0].nodes,
                median(&Timing::import), median(&Timing::plan), total, total < 1000 ? "ok " : "SLOW", runs[0].arena,
                runs[0].bound);
}

} // namespace

int main() {
    std::printf("%-16s %-9s %5s %9s %9s %9s %s %11s %11s\n", "model", "lib", "nodes", "import", "plan", "total ms",
                "<1s", "arena", "lower bound");
    const std::string dir = EMBARK_SHARED_DIR "/models";
    for (const char* m : {"resnet18", "mobilenet_v2", "squeezenet1_1", "lenet5"}) {
        const std::string path = dir + "/" + m + ".onnx";
        if (!std::filesystem::exists(path)) {
            std::printf("%-16s absent (../shared/models)\n", m);
            continue;
        }
        for (const char* lib : {"portable", "xnnpack"})
            report(
                m, [path] { return onnx::importModel(path); }, lib);
    }
    for (const char* lib : {"portable", "xnnpack"})
        report(
            "synthetic-1000", [] { return Expected<ir::Graph>(synthetic()); }, lib);
    return 0;
}

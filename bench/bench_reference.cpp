// Reference interpreter speed on the shared models (resnet18, mobilenet_v2 from
// ../shared/models): median wall time of a few single-threaded runs, in milliseconds.
// Also prints the process CPU time per run, which stays meaningful on a loaded machine.
// Prints a skip line per absent model and exits 0, so it runs anywhere.
#include "onnx/importer.h"
#include "embark_build_paths.h"
#include "reference/interpreter.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace embark;

namespace {

ir::Tensor randomInput(const ir::Value& v, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> data(static_cast<size_t>(v.shape.numel()));
    for (float& x : data) x = dist(rng);
    return ir::Tensor::fromFloats(v.shape, data).castTo(v.dtype);
}

} // namespace

int main(int argc, char** argv) {
    const std::string dir = argc > 1 ? argv[1] : EMBARK_SHARED_DIR "/models";
    const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    for (const std::string name : {"resnet18", "mobilenet_v2"}) {
        const std::string path = dir + "/" + name + ".onnx";
        if (!std::filesystem::exists(path)) {
            std::printf("%-14s skipped: %s is absent\n", name.c_str(), path.c_str());
            continue;
        }
        Expected<ir::Graph> graph = onnx::importModel(path);
        if (!graph) {
            std::printf("%-14s import failed: %s\n", name.c_str(), graph.error().message.c_str());
            return 1;
        }
        std::map<std::string, ir::Tensor> inputs;
        unsigned seed = 1;
        for (const ir::Value* v : graph->inputs())
            if (!v->isConstant()) inputs[v->name] = randomInput(*v, seed++);
        std::vector<double> ms, cpuMs;
        for (int i = 0; i < runs; ++i) {
            const std::clock_t cpuStart = std::clock();
            const auto start = std::chrono::steady_clock::now();
            Expected<reference::RunResult> r = reference::run(*graph, inputs);
            const auto end = std::chrono::steady_clock::now();
            if (!r) {
                std::printf("%-14s run failed: %s\n", name.c_str(), r.error().message.c_str());
                return 1;
            }
            ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
            cpuMs.push_back(1000.0 * static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC);
        }
        std::sort(ms.begin(), ms.end());
        std::sort(cpuMs.begin(), cpuMs.end());
        std::printf("%-14s median %8.1f ms wall, %8.1f ms CPU  (wall min %.1f, max %.1f; %d runs, 1 thread, "
                    "double accumulation)\n",
                    name.c_str(), ms[ms.size() / 2], cpuMs[cpuMs.size() / 2], ms.front(), ms.back(), runs);
    }
    return 0;
}

// Parses run_export's JSON-Lines output (DESIGN.md "run protocol") into typed records, so
// nothing downstream scrapes text. Unknown line types are kept as warnings, never fatal.
#pragma once

#include "ir/error.h"

#include <QByteArray>
#include <QString>

#include <map>
#include <string>
#include <vector>

namespace embark::bench {

struct RunMeta {
    std::string model, arch;
    std::vector<std::string> libs;
    int64_t arenaBytes = 0;
    int layers = 0, threads = 1, warmup = 0, iterations = 0;
};

struct LayerSample {
    int iteration = 0, index = 0;
    std::string node, lib;
    int64_t ns = 0;
};

struct OutputLine {
    std::string name, file;
    std::vector<int64_t> shape;
    std::vector<double> head;
};

struct DumpLine {
    int layer = 0;
    std::string node, lib, file;
    std::vector<int64_t> shape;
};

struct CheckLine {
    std::string output;
    double maxAbs = 0, maxRel = 0, tolerance = 0;
    bool ok = false;
};

struct RunOutput {
    bool haveMeta = false;
    RunMeta meta;
    std::vector<int64_t> latencyNs; // per timed iteration
    std::vector<LayerSample> layers;
    std::vector<OutputLine> outputs;
    std::vector<DumpLine> dumps;
    std::vector<CheckLine> checks;
    std::string error;                 // an {"type":"error"} line's message
    std::vector<std::string> warnings; // malformed or unknown lines (line number + why)

    // Median ns per layer index over the iterations, in schedule order.
    std::vector<LayerSample> medianLayers() const;
};

// Never fails on garbage: malformed lines become warnings (a board may print noise).
RunOutput parseRunOutput(const QByteArray& jsonLines);

} // namespace embark::bench

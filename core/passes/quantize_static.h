// Static post-training quantization of a float graph into a standard QDQ graph (what
// `embark-cli quantize` writes): calibration of activations (minmax, percentile, entropy) on the reference
// interpreter, then QuantizeLinear/DequantizeLinear pairs around Conv, Gemm and MatMul.
#pragma once

#include "calibration.h"
#include "ir/error.h"
#include "ir/graph.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace embark::passes {

// One calibration sample: a value for every graph input, and a label for messages.
struct CalibrationSample {
    std::string label; // e.g. the test_data_set folder
    std::map<std::string, ir::Tensor> inputs;
};

// Calibration samples loaded one at a time, so that a large set (hundreds of images) never
// has to fit in memory: load(i) for i in [0, size). load may fail (an unreadable file, a
// sample that does not fit the model); quantizeStatic stops with that error.
struct CalibrationSet {
    size_t size = 0;
    std::function<Expected<CalibrationSample>(size_t index)> load;
};

// Progress of the calibration: called before each sample is run with the number of sample
// runs done and the total (percentile and entropy run the set twice, so the total is twice
// the set's size), and once more with done == total. Returning false cancels: quantizeStatic
// then stops before the next sample with an External error ("cancelled", exit status 5).
using CalibrationProgress = std::function<bool(int done, int total)>;

// Nodes kept in float32: by name, or every node of an op.
struct QuantizeExclusions {
    std::set<std::string> nodes;
    std::set<ir::OpKind> ops;
};

struct QuantizeReport {
    int quantizedNodes = 0; // Conv/Gemm/MatMul whose weights became int8
    int activations = 0;    // activation values given a Q/DQ pair
    int samples = 0;
    int excluded = 0; // quantizable nodes kept in float by `exclude`
};

// Rewrites `graph` in place. Each activation (the data input and the output of
// every Conv, Gemm and MatMul with constant float32 weights, or the output of the Relu or Clip
// that alone follows it) gets asymmetric int8 parameters
// from the range `calibration` gives it over `samples` (calibration.h; the range always includes 0: scale =
// (max - min) / 255, zero point = round(-128 - min / scale)). Weights become int8 symmetric per
// output channel (scale = max |w| / 127, no zero point: XNNPACK's qs8-qc8w contract), biases
// int32 with scale x_scale * w_scale. Nodes keep their names; the result depends only on the
// graph and the samples (deterministic). Errors: no samples (Usage), a sample that does not
// fit the model or holds NaN (InvalidInput, naming the sample and the value).
// `exclude` keeps nodes in float (an excluded node name that the graph lacks is a Usage error).
// `progress` (optional) reports the calibration and may cancel it; on any error (cancel
// included) `graph` may already be simplified (prepare step) but holds no Q/DQ node.
Expected<QuantizeReport> quantizeStatic(ir::Graph& graph, const CalibrationSet& samples,
                                        const QuantizeExclusions& exclude = {},
                                        const CalibrationOptions& calibration = {},
                                        const CalibrationProgress& progress = {});
// The same on samples already in memory.
Expected<QuantizeReport> quantizeStatic(ir::Graph& graph, const std::vector<CalibrationSample>& samples,
                                        const QuantizeExclusions& exclude = {},
                                        const CalibrationOptions& calibration = {},
                                        const CalibrationProgress& progress = {});

} // namespace embark::passes

// Files a benchmark run can be exported to: a Chrome trace (Perfetto opens it), CSV and JSON
// of the run, and an ONNX test-data bundle (test_data_set_0/input_K.pb, output_K.pb).
#pragma once

#include "run_protocol.h"

#include <QByteArray>

namespace embark::bench {

// One "X" (complete) event per layer of the median iteration, laid end to end, in µs, plus
// one event for the whole inference; process = board, thread = kernel library.
QByteArray chromeTrace(const std::vector<LayerSample>& medianLayers, int64_t totalNs, const std::string& board,
                       const std::string& model);

// node,lib,median_ns rows (with a header).
QByteArray layersCsv(const std::vector<LayerSample>& medianLayers);

} // namespace embark::bench

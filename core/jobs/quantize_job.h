// The studio's quantization as a background job: calibration samples from test_data_set
// folders, tensor files or images (calibration_data.h), passes::quantizeStatic, the QDQ model
// written, then the per-layer error of the written model against the float one
// (bench::diffLayers on the first sample).
#pragma once

#include "calibration_data.h"
#include "job.h"

#include "results/layer_diff.h"
#include "ir/graph.h"
#include "passes/quantize_static.h"

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <string>

namespace embark::jobs {

struct QuantizeRequest {
    QString modelPath;                               // the float .onnx
    std::map<std::string, ir::Shape> shapeOverrides; // as the model was opened
    // Each: a test_data_set_N folder (input_K.pb), a folder of test_data_set_* folders, a
    // folder of .npy/.pb files or PNG/JPEG images (one sample each), or one such file
    // (listCalibrationSources, as `embark-cli quantize --calib`).
    QStringList calibration;
    ImageOptions image; // how images become the model's input (--resize, --mean, --std, --layout)
    passes::CalibrationOptions options;
    QStringList excludeOps;   // ONNX op types kept in float
    QStringList excludeNodes; // node names kept in float
    QString outPath;          // the QDQ .onnx to write (atomically)
    double snrDropDb = 10;    // flags the first layer whose SNR falls more than this
};

// A node quantize can quantize (Conv, Gemm, MatMul with constant float weights) and the error
// of the activation it produces: the output of the Relu or Clip that alone follows it (where
// quantize puts the node's Q/DQ pair), else its own output.
struct NodeError {
    std::string node;
    std::string op;
    bool quantized = false; // int8 in the compared model (false: excluded, kept in float)
    // The first node at or after the layer diff.firstDrop flags (SNR fell by more than
    // QuantizeRequest::snrDropDb below its inputs').
    bool firstDrop = false;
    bench::LayerError error;
};

struct QuantizeResult {
    QuantizeRequest request;
    passes::QuantizeReport report;
    bench::LayerDiff diff;        // the written model against the float model, first sample
    QString diffSample;           // that sample's label
    QStringList quantizedNodes;   // float-model nodes whose weights are int8 in the written model
    std::vector<NodeError> nodes; // the written model's int8 or quantizable nodes (nodeErrors)
};

// The node to exclude so that `node` of the float graph stays in float: itself when quantize
// would quantize it (Conv, Gemm, MatMul with constant float weights), the quantizable node
// feeding a Relu or Clip directly or through a BatchNormalization (the activation carries that
// node's range), else empty.
std::string keepInFloatTarget(const ir::Graph& fp, const std::string& node);

// The Conv/Gemm/MatMul nodes of the written QDQ graph that are int8 or could be (kept in
// float), in its order, with the error `diff` (float model against it) measured for their
// activations. The written graph is the one quantize simplified (BatchNormalization folded
// into its convolution), so the activation is found there; node and value names are the float
// model's. Nodes without a compared value are left out.
std::vector<NodeError> nodeErrors(const ir::Graph& written, const bench::LayerDiff& diff);

// Conv/Gemm/MatMul nodes of a QDQ graph whose weights come from a DequantizeLinear.
QStringList quantizedNodeNames(const ir::Graph& quantized);

// Steps: list calibration data, quantize (progress per sample run), write, compare. The
// result is a QuantizeResult; cancel stops it before the next sample or step, and nothing is
// written once it was asked.
std::shared_ptr<Job> makeQuantizeJob(QuantizeRequest request, QString title = {});

} // namespace embark::jobs

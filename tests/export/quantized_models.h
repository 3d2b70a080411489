// The quantized models both export suites run (tst_export_quantized with the portable int8
// kernels, tst_export_quantized_xnnpack with XNNPACK's qs8 operators): the QDQ graphs of
// qdq_graphs.h on random inputs, digits_cnn quantized by `embark-cli quantize` on its own test
// sets, and MobileNet-V2 quantized on one test set when ../shared/models exists.
#pragma once

#include "export/qdq_graphs.h"
#include "onnx/importer.h"
#include "onnx/tensor_io.h"
#include "support/cli_process.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include <QDir>
#include <QtGlobal>

#include <map>
#include <string>
#include <vector>

namespace embark::test {

struct QuantizedSource {
    std::string name;
    ir::Graph graph; // the QDQ model
    std::map<std::string, ir::Tensor> inputs;
};

inline Expected<ir::Graph> quantizedModel(const QString& floatModel, const QString& calib, const QString& out) {
    const CliResult r = runCli({"quantize", floatModel, "-o", out, "--calib", calib}, 1200000);
    if (r.code != 0) return makeError(ErrorKind::External, "embark-cli quantize failed: " + r.err.toStdString());
    return onnx::importModel(out.toStdString());
}

// The quantized model written as DIR/FILE_NAME from FLOAT_MODEL calibrated on CALIB, with the
// input of SAMPLE (an input_0.pb).
inline Expected<QuantizedSource> quantizedSource(const std::string& name, const QString& floatModel,
                                                 const QString& calib, const QString& sample, const QString& out) {
    auto g = quantizedModel(floatModel, calib, out);
    if (!g) return g.error();
    auto in = onnx::readTensorProto(sample.toStdString());
    if (!in) return in.error();
    const std::string input = g->inputs().front()->name;
    return QuantizedSource{name, std::move(*g), {{input, in->tensor}}};
}

// DIR receives the quantized .onnx files (digits_int8.onnx, mobilenet_v2_int8.onnx).
inline Expected<std::vector<QuantizedSource>> quantizedSources(const QString& dir) {
    std::vector<QuantizedSource> out;
    for (const qdq::Case& c : qdq::cases()) {
        ir::Graph g = c.build();
        auto inputs = randomInputs(g, 7);
        out.push_back({"qdq " + c.name, std::move(g), std::move(inputs)});
    }
    const QString digits = sourceDir() + "/resources/models/digits_cnn";
    auto d = quantizedSource("digits int8", digits + ".onnx", digits, digits + "/test_data_set_3/input_0.pb",
                             QDir(dir).filePath("digits_int8.onnx"));
    if (!d) return d.error();
    out.push_back(std::move(*d));
    const QString shared = sharedModelsDir();
    if (shared.isEmpty()) {
        qInfo("../shared/models is absent: MobileNet-V2 int8 is skipped");
        return out;
    }
    const QString set = shared + "/mobilenet_v2/test_data_set_0";
    auto m = quantizedSource("mobilenet_v2 int8", shared + "/mobilenet_v2.onnx", set, set + "/input_0.pb",
                             QDir(dir).filePath("mobilenet_v2_int8.onnx"));
    if (!m) return m.error();
    out.push_back(std::move(*m));
    return out;
}

} // namespace embark::test

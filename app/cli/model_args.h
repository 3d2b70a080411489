// Option handling shared by the commands that take a model: --shape overrides, loading the
// model, --input files, and JSON/number formatting helpers.
#pragma once

#include "cli.h"
#include "ir/graph.h"
#include "onnx/tensor_io.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <map>

namespace embark::cli {

// Adds --shape NAME=DIMS (repeatable) to a parser.
void addShapeOption(QCommandLineParser& parser);

// Parses the --shape values; Usage error on a malformed one.
Expected<std::map<std::string, ir::Shape>> shapeOverrides(const QCommandLineParser& parser);

// Fixes the free (symbolic or unknown) input dimensions the overrides leave open: from the
// tensors the command's `--input` values give (`inputSpecs`, as readInputs takes them), else
// from the test data beside the model (onnx::testDataBeside); Usage error naming the exact
// --shape options when some stay free.
Status fixFreeDimensions(const std::string& path, std::map<std::string, ir::Shape>& overrides,
                         const QStringList& inputSpecs = {});
// Same, and fills `sample` with the tensors those inputs and that test data give, keyed by input
// name: the values the import runs the model on to fix its shapes (ImportOptions::shapeSample).
Status fixFreeDimensions(const std::string& path, std::map<std::string, ir::Shape>& overrides,
                         const QStringList& inputSpecs, std::map<std::string, ir::Tensor>* sample);

// Imports MODEL with the parser's --shape overrides, free dimensions fixed by fixFreeDimensions
// (with the command's --input values, for the commands that take them). With `io`, the import's
// warnings (a declared shape that disagrees with the computed one) go to its error stream.
Expected<ir::Graph> loadModel(const QString& path, const QCommandLineParser& parser, Io* io = nullptr,
                              const QStringList& inputSpecs = {});

// Reads `--input NAME=FILE` values (or a bare FILE for a single-input model, or one
// test_data_set_N folder) into tensors keyed by input name; raw .bin files take the input's
// declared dtype and shape. A file that does not exist, or a folder where a tensor file is
// expected, is InvalidInput (4) naming it.
Expected<std::map<std::string, ir::Tensor>> readInputs(const ir::Graph& graph, const QStringList& specs);

// Checks that a tensor file named on the command line exists and is a file (4 otherwise,
// naming the option and the path).
Status requireTensorFile(const QString& option, const QString& path);

// An integer option within [min, max]; Usage (2) naming the option, the value and the range.
Expected<qint64> intOption(const QCommandLineParser& parser, const QString& name, qint64 min, qint64 max);
// A floating-point option within [min, max] (maxOpen: the upper bound is excluded).
Expected<double> doubleOption(const QCommandLineParser& parser, const QString& name, double min, double max);

// The inputs of a test_data_set_N folder (onnx::readTestDataSet) paired with the graph's
// inputs: by TensorProto name when one matches, else by index; inputs past the set's end are
// left out.
std::map<std::string, ir::Tensor> testSetInputs(const ir::Graph& graph, const std::vector<onnx::NamedTensor>& set);

// Seeded random data for every graph input not in `given`, in the input's declared dtype and
// shape: floats uniform in [0,1), integers in [0,10), bools 0/1. The same seed gives the same
// bytes on every machine (no std:: distributions, whose output is implementation-defined).
std::map<std::string, ir::Tensor> randomInputs(const ir::Graph& graph, uint64_t seed,
                                               const std::map<std::string, ir::Tensor>& given = {});

// Parses the command line into `parser` (with --help); returns -1 to go on, else an exit code.
int parseOrExit(QCommandLineParser& parser, const QStringList& args, Io& io, const QString& synopsis, int minPositional,
                int maxPositional);

QJsonArray shapeToJson(const ir::Shape& s);
QString formatBytes(int64_t bytes); // "5,619,712 B (5.36 MiB)"
QString formatCount(int64_t n);     // "11,689,512"

} // namespace embark::cli

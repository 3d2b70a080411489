// `--lib auto`: the kernel library of each node chosen from measurements of the candidate
// libraries on that node's shape, charging each switch of layout its conversion cost. This is
// the pure half (node signatures, the choice, its JSON); core/jobs/measure_libraries measures.
#pragma once

#include "ir/graph.h"
#include "targets/kernel_library.h"

#include <QJsonObject>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace embark::exporter {

// What decides a kernel's speed: op, attributes, input and output dtypes and shapes, which
// inputs are constants (and the values of small constants: axes, scales, zero points).
// Node and value names do not enter it, so two models with the same layers share it.
std::string nodeSignature(const ir::Node& node);
std::string signatureKey(const std::string& signature); // short stable hash of it (hex)

struct Candidate {
    std::string library;
    bool supported = true; // false: the library has no kernel for the node (why in `note`)
    double cost = 0;       // median per run of the node, in the choice's unit
    double conversion = 0; // layout conversions this candidate adds, same unit
    std::string source;    // "measured" (this run) or "cached"
    std::string note;
};

struct NodeChoice {
    std::string signature;
    std::string chosen;
    std::vector<Candidate> candidates;
};

struct MeasuredChoice {
    std::string board;
    std::string unit = "ns";                 // "ns" (wall clock) or "instructions" (retired, under qemu)
    std::string conversionModel;             // how conversions were costed, in words
    double conversionPerByte = 0;            // its rate (unit per byte moved)
    std::map<std::string, NodeChoice> nodes; // by node name of the fused graph
    // Estimated totals over the measured nodes (cost + conversions, the choice's unit): one
    // per candidate library (every node it supports on it, the others on portable) and
    // "mixed" (each node's cheapest).
    std::map<std::string, double> estimates;
    std::string singleLibrary; // set when the mixed assignment did not pay: every node on it
    int measuredCount = 0;     // (node, library) pairs measured in this run
    int cachedCount = 0;       // ... taken from the cache
};

// A node leaves portable only for a candidate at least this much cheaper (a fraction of
// portable's cost), and a mix of libraries is kept only when its estimate beats the best single
// library's by as much: a switch has costs a node measured alone does not show (the portable
// export's concatenation in place and fused blocks, one more partition). Timed on a clock
// (unit "ns": the host, a real board) a near tie is also within the noise of a median of a few
// runs: 10%. Counted in retired instructions (a simulated board) the measurements do not vary
// from run to run: 1%.
inline constexpr double kSwitchMargin = 0.1;
inline constexpr double kSwitchMarginInstructions = 0.01;
inline double switchMargin(const std::string& unit) {
    return unit == "instructions" ? kSwitchMarginInstructions : kSwitchMargin;
}

// How the choice sees layouts: the format a library runs a node in (Any: its input's).
using FormatOf = std::function<targets::Layout(const std::string& library, const ir::Node& node)>;
FormatOf kernelLibraryFormats(); // from the kernel libraries' declarations

// Per node of `fused` (topological order) that has candidates in choice.nodes, the supported
// candidate with the least cost + conversion (another than portable only by switchMargin), where conversion is
// conversionPerByte times the bytes of each 4-D non-constant input whose producer's chosen layout differs from the one
// the candidate runs in (graph inputs are NCHW), plus the 4-D graph outputs it would have to convert back. The mixed
// assignment stays only if its estimated total beats every single library's (each node it supports on it) by
// switchMargin; else every node takes the best single library (`singleLibrary`). Fills `conversion`, `chosen` and
// `estimates`; a node with no supported candidate keeps "portable".
void choose(const ir::Graph& fused, MeasuredChoice& choice, const FormatOf& formatOf = kernelLibraryFormats());

// For plan --json and export.json: {board, unit, conversion_model, conversion_per_byte,
// measured, cached} and, per node, {signature, chosen, candidates: [{library, supported, cost,
// conversion, total, source, note}]}.
QJsonObject measuredChoiceJson(const MeasuredChoice& choice);
QJsonObject nodeChoiceJson(const NodeChoice& node, const std::string& unit);

} // namespace embark::exporter

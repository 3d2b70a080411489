// ONNX Runtime as a runtime beside Embark's exports (issue 17): where a board's ONNX Runtime
// lives (a SpacemiT-ORT folder with bin/ and lib/ on the board, or npm's onnxruntime-node on
// the host), which execution provider it uses, the SpacemiT EP's options as typed, validated
// fields, and the command lines of the runtime's own tools (onnxruntime_perf_test,
// onnx_test_runner) built from them. Nothing here runs anything: core/jobs does.
#pragma once

#include "ir/error.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <vector>

namespace embark::targets {

// A board file's "onnxruntime" object: exactly one of root and node.
struct OrtRuntime {
    QString root;                       // a folder on the board with bin/onnxruntime_perf_test and lib/ (SpacemiT-ORT)
    QString node;                       // an npm package spec run by Node.js on this computer ("onnxruntime-node@1.30")
    QString ep = QStringLiteral("cpu"); // "spacemit" or "cpu"

    bool isNode() const { return !node.isEmpty(); }
    QString describe() const; // "SpacemiT-ORT in /opt/spacemit-ort (ep spacemit)"
    QJsonObject toJson() const;
};

// The execution providers a board file may name.
const QStringList& knownExecutionProviders();
// The runtimes `bench --runtime` accepts: "export" (Embark's own export) and "onnxruntime".
const QStringList& knownRuntimes();

// "FILE: field 'FIELD' WHAT" (InvalidInput): the error of a board or runtime file's bad field.
Error fieldError(const QString& file, const QString& field, const QString& what);

// Parses the "onnxruntime" object of `fileName` (field paths in errors: onnxruntime.ep).
Expected<OrtRuntime> parseOrtRuntime(const QJsonObject& object, const QString& fileName);

// --- SpacemiT execution provider options (SpacemiT-ORT's guide), passed as environment
// variables of onnxruntime_perf_test and onnx_test_runner.
struct EpOptionSpec {
    enum class Type { Count, Bool, CpuList, OpTypes, NodeNames, Level, FileName };
    const char* key; // SPACEMIT_EP_INTRA_THREAD_NUM
    Type type;
    int min = 0, max = 0; // Count and Level
    const char* help;
};
const std::vector<EpOptionSpec>& spacemitEpOptions();
const EpOptionSpec* findEpOption(const QString& key); // full key or the part after SPACEMIT_EP_

// Validated options, by full key, values normalised (booleans "0"/"1").
using EpOptions = std::map<QString, QString>;

// Parses KEY=VALUE entries (KEY with or without the SPACEMIT_EP_ prefix, any case) against the
// typed list. `threads` is the run's thread number: SPACEMIT_EP_INTRA_THREAD_NUM defaults to it
// (set explicitly: ORT's intra-op threads alone would start twice as many compute threads), and
// SPACEMIT_EP_INTRA_THREAD_AFFINITY must name exactly that many CPUs. Errors name the option,
// the value and what it takes.
Expected<EpOptions> parseEpOptions(const QStringList& keyValues, int threads);
// "NAME=value" environment entries for the options.
QStringList epEnvironment(const EpOptions& options);
QJsonObject epOptionsJson(const EpOptions& options);
// Keys whose values differ between two runs' stored options (a key only one has counts).
QStringList epOptionDifferences(const QJsonObject& a, const QJsonObject& b);

// What ran a stored run, from its extra data ("runtime", "ep", "ep_options"): a run without
// "runtime" is an Embark export's.
struct StoredRuntime {
    QString runtime = QStringLiteral("export"); // "export" or "onnxruntime"
    QString ep;                                 // the execution provider of an ONNX Runtime run
    QJsonObject epOptions;                      // SpacemiT EP options, by full key
    QString describe() const;                   // "export", "onnxruntime, ep spacemit"
    QJsonObject toJson() const;                 // {"runtime", "ep", "ep_options"}
};
StoredRuntime storedRuntime(const QJsonObject& extra);

// An EP option whose value differs between two runs (empty: not set in that run).
struct EpOptionChange {
    QString key, a, b;
};
// Two runs' runtimes side by side: the runtime or provider changed, and the EP options whose
// values differ (epOptionDifferences' keys, with both values).
struct RuntimeComparison {
    StoredRuntime a, b;
    std::vector<EpOptionChange> epOptions;
    bool runtimeDiffers() const { return a.runtime != b.runtime || a.ep != b.ep; }
};
RuntimeComparison compareRuntimes(const QJsonObject& extraA, const QJsonObject& extraB);

// --- Command lines (argv: data, never parsed by a shell) on a board with `runtime.root`.
struct PerfTestRequest {
    QString model;         // path on the board
    int iterations = 10;   // -r
    int threads = 1;       // -x
    int concurrent = 1;    // -c
    QString profilePrefix; // -p (ORT appends _<date>.json); empty = no profile
};
QString perfTestPath(const OrtRuntime& runtime);   // <root>/bin/onnxruntime_perf_test
QString testRunnerPath(const OrtRuntime& runtime); // <root>/bin/onnx_test_runner
QString libraryPath(const OrtRuntime& runtime);    // <root>/lib
// onnxruntime_perf_test -e EP -r N -x T -c C -S 1 -I -s [-p PREFIX] MODEL
QStringList perfTestArgv(const OrtRuntime& runtime, const PerfTestRequest& request);
// onnx_test_runner -e EP MODEL_DIR (a folder with model.onnx and test_data_set_0/)
QStringList testRunnerArgv(const OrtRuntime& runtime, const QString& modelDir);
// LD_LIBRARY_PATH=<root>/lib plus the EP options.
QStringList runtimeEnvironment(const OrtRuntime& runtime, const EpOptions& options);

// What a user needs to get SpacemiT-ORT, for errors about a missing runtime folder.
QString spacemitOrtHelp();

// npm's package spec -> its version ("onnxruntime-node@1.30" -> "1.30"; "" for none).
QString npmPackageVersion(const QString& spec);
// Where the host's npm package is installed: $EMBARK_ORT_NODE_DIR, else
// ${XDG_CACHE_HOME:-~/.cache}/embark/onnxruntime-node-<version> (the bench scripts' folder).
QString ortNodeInstallDir(const OrtRuntime& runtime);

} // namespace embark::targets

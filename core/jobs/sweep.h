// A sweep: the model x board x library matrix as one job. Every cell is a normal benchmark
// (bench_pipeline.h) stored as a normal run with the sweep's id in its extra ("sweep"). Cells
// on a farm board run in parallel, up to the devices of its type that can take a job (LAVA
// queues the rest); cells on simulated, host and SSH boards run one at a time on this computer.
// One cancel flag stops the whole sweep: running cells are cancelled (a LAVA job too), the
// cells not started are marked cancelled.
#pragma once

#include "bench_pipeline.h"

#include "targets/board.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace embark::store {
class RunStore;
}

namespace embark::jobs {

struct SweepCell {
    enum class State { Pending, Running, Ok, Failed, Cancelled, Skipped };
    QString model;
    QString boardId;
    std::string library;
    bool quantized = false; // the int8 (QDQ) model the sweep made from `model`
    State state = State::Pending;
    std::string message;
    int64_t runId = 0;    // the stored run, 0 when none
    double medianNs = 0;  // latency median
    double ci95LowNs = 0; // its 95% confidence interval
    double ci95HighNs = 0;
    double maxRel = -1;       // worst output max_rel against the host reference, -1 unknown
    double cosine = -1;       // worst output cosine
    QString device;           // a farm cell's LAVA device
    bool bestOnBoard = false; // the fastest library of this model (and precision) on this board
    QString exportDir;        // the export it ran (shared by the cells of the same target)
};

const char* sweepCellStateName(SweepCell::State state);

struct SweepOptions {
    QStringList models;
    // Board ids or wildcards ("sim-*", "k1-farm"), matched against the catalog's ids.
    QStringList boardPatterns;
    std::vector<std::string> libraries{"portable"};
    // Int8 cells too: each model quantized once (QDQ, minmax) with its own test data as the
    // calibration set (test_data_set_* beside the model or in the folder named after it, as
    // `embark-cli quantize --calib`), the quantized model then run like the float one.
    bool quantized = false;
    // Template for every cell: iterations, warmup, threads, work folder, store, SSH options,
    // cancel flag and log; model, board and library are set per cell.
    BenchOptions base;
    // A cell changed state (called from the cell's thread, one call at a time).
    std::function<void(const SweepCell& cell, int index, int count)> cellChanged;
    // How many devices a farm board may use at once: given the board, the number of its
    // devices that can take a job (tests and the CLI leave the default, which asks LAVA).
    std::function<int(const targets::Board& board)> farmLanes;
};

struct SweepResult {
    QString sweepId;
    std::vector<SweepCell> cells;
    int builds = 0;                       // exports built: one per (model, target), not per cell
    std::map<QString, QString> quantized; // model -> the int8 model the sweep wrote
    int failed() const;
};

// The test data a model's calibration uses: the folder beside the model holding
// test_data_set_* folders (the model's own folder, or the one named after the model, as
// resources/models/digits_cnn/), or an error naming the model and where it looked.
Expected<QString> modelTestData(const QString& modelPath);

// Quantizes a model for a sweep's int8 cells (modelTestData as calibration, minmax) into
// `outPath`; cancel stops it between samples.
Status quantizeForSweep(const QString& modelPath, const QString& outPath, const std::atomic_bool* cancel);

// Marks each ok cell whose median is the lowest of its model, precision and board.
void markBestCells(std::vector<SweepCell>& cells);

// A sweep read back from a run store: its runs (extra "sweep" == sweepId) as cells, in the
// order they were stored, the best marked. InvalidInput naming the id when no run has it.
Expected<SweepResult> loadSweep(store::RunStore& store, const QString& sweepId);

// Resolves the boards (an error names a pattern that matched nothing, listing the known ids)
// and runs every cell. Errors only for bad requests; a failed cell is a cell.
Expected<SweepResult> runSweep(const SweepOptions& options);

// The boards a list of patterns names, in catalog order, each once.
Expected<std::vector<targets::Board>> matchBoards(const targets::BoardCatalog& catalog, const QStringList& patterns);

} // namespace embark::jobs

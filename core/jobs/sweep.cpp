#include "sweep.h"

#include "calibration_data.h"
#include "export_cache.h"
#include "pipeline.h"

#include "deploy/lava_client.h"
#include "onnx/importer.h"
#include "onnx/writer.h"
#include "passes/quantize_static.h"
#include "store/run_store.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <mutex>
#include <thread>

namespace embark::jobs {

const char* sweepCellStateName(SweepCell::State state) {
    switch (state) {
    case SweepCell::State::Pending: return "pending";
    case SweepCell::State::Running: return "running";
    case SweepCell::State::Ok: return "ok";
    case SweepCell::State::Failed: return "failed";
    case SweepCell::State::Cancelled: return "cancelled";
    case SweepCell::State::Skipped: return "skipped";
    }
    return "?";
}

int SweepResult::failed() const {
    return static_cast<int>(std::count_if(cells.begin(), cells.end(),
                                          [](const SweepCell& c) { return c.state == SweepCell::State::Failed; }));
}

Expected<std::vector<targets::Board>> matchBoards(const targets::BoardCatalog& catalog, const QStringList& patterns) {
    std::vector<targets::Board> out;
    QStringList ids;
    for (const targets::Board& b : catalog.boards) ids << b.id;
    for (const QString& raw : patterns) {
        const QString pattern = raw.trimmed();
        if (pattern.isEmpty()) continue;
        const QRegularExpression re(QRegularExpression::wildcardToRegularExpression(pattern));
        bool any = false;
        for (const targets::Board& b : catalog.boards) {
            if (!re.match(b.id).hasMatch()) continue;
            any = true;
            if (std::none_of(out.begin(), out.end(), [&](const targets::Board& o) { return o.id == b.id; }))
                out.push_back(b);
        }
        if (!any)
            return makeError(ErrorKind::Usage, QStringLiteral("--boards '%1' matches no board (known: %2)")
                                                   .arg(pattern, ids.join(", "))
                                                   .toStdString());
    }
    if (out.empty()) return makeError(ErrorKind::Usage, "--boards names no board");
    return out;
}

namespace {

int askFarmLanes(const targets::Board& board) {
    deploy::LavaClient client(QUrl(board.farm->lava), deploy::lavaToken(QUrl(board.farm->lava)));
    auto devices = client.devices(board.farm->deviceType);
    if (!devices) return 1; // the cell's own connect reports the problem
    int n = 0;
    for (const deploy::LavaDevice& d : *devices) {
        bool tagged = true;
        for (const QString& t : board.farm->tags) tagged = tagged && d.tags.contains(t);
        if (tagged && d.usable()) ++n;
    }
    return std::max(1, n);
}

} // namespace

Expected<QString> modelTestData(const QString& modelPath) {
    const QFileInfo model(modelPath);
    const QStringList candidates{model.absolutePath(), model.absolutePath() + "/" + model.completeBaseName()};
    for (const QString& dir : candidates)
        if (!QDir(dir).entryList({QStringLiteral("test_data_set_*")}, QDir::Dirs).isEmpty()) return dir;
    return makeError(ErrorKind::InvalidInput,
                     ("model '" + modelPath +
                      "' has no test data to calibrate its int8 model: put test_data_set_N "
                      "folders (input_K.pb) in " +
                      candidates.join(" or ") + ", or quantize it with `embark-cli quantize` and sweep the result")
                         .toStdString());
}

Status quantizeForSweep(const QString& modelPath, const QString& outPath, const std::atomic_bool* cancel) {
    auto data = modelTestData(modelPath);
    if (!data) return data.error();
    auto graph = onnx::importModel(modelPath.toStdString(), {});
    if (!graph) return graph.error();
    auto sources = listCalibrationSources({*data});
    if (!sources) return sources.error();
    auto samples = calibrationSet(*graph, std::move(*sources), ImageOptions{});
    if (!samples) return samples.error();
    auto report =
        passes::quantizeStatic(*graph, *samples, {}, {}, [cancel](int, int) { return !(cancel && cancel->load()); });
    if (!report) return report.error();
    return onnx::writeModel(*graph, outPath.toStdString());
}

Expected<SweepResult> runSweep(const SweepOptions& options) {
    if (options.models.isEmpty()) return makeError(ErrorKind::Usage, "a sweep needs at least one model");
    for (const QString& m : options.models)
        if (!QFileInfo(m).isFile())
            return makeError(ErrorKind::InvalidInput, ("model '" + m + "' does not exist").toStdString());
    if (options.libraries.empty()) return makeError(ErrorKind::Usage, "a sweep needs at least one library");
    for (const std::string& lib : options.libraries)
        if (lib != "portable" && lib != "xnnpack" && lib != "auto")
            return makeError(ErrorKind::Usage, "--lib takes portable, xnnpack and auto (not '" + lib + "')");
    const targets::BoardCatalog catalog = targets::loadBoards();
    auto boards = matchBoards(catalog, options.boardPatterns);
    if (!boards) return boards.error();

    SweepResult result;
    result.sweepId = QDateTime::currentDateTimeUtc().toString("yyyyMMdd-HHmmss") + "-" +
                     QString::number(QRandomGenerator::global()->generate() & 0xffff, 16);
    // Lanes: one per usable device of each farm board, one for everything local.
    std::map<QString, std::vector<size_t>> laneCells; // lane key -> cell indexes
    std::map<QString, int> laneWidth;
    std::vector<bool> precisions{false};
    if (options.quantized) precisions.push_back(true);
    for (const QString& model : options.models) {
        for (const targets::Board& board : *boards) {
            for (const bool quantized : precisions) {
                for (const std::string& lib : options.libraries) {
                    SweepCell cell;
                    cell.model = model;
                    cell.boardId = board.id;
                    cell.library = lib;
                    cell.quantized = quantized;
                    if (lib == "xnnpack" && !board.xnnpack) {
                        cell.state = SweepCell::State::Skipped;
                        cell.message = "board '" + board.id.toStdString() + "' has no XNNPACK (\"xnnpack\": false)";
                    }
                    const QString lane = board.isFarm() ? "farm:" + board.id : QStringLiteral("local");
                    if (cell.state == SweepCell::State::Pending) laneCells[lane].push_back(result.cells.size());
                    if (!laneWidth.count(lane))
                        laneWidth[lane] =
                            board.isFarm() ? (options.farmLanes ? options.farmLanes(board) : askFarmLanes(board)) : 1;
                    result.cells.push_back(cell);
                }
            }
        }
    }
    const int count = static_cast<int>(result.cells.size());
    std::mutex mutex; // guards the cells, the callbacks and the store
    auto changed = [&](size_t i) {
        if (options.cellChanged) options.cellChanged(result.cells[i], static_cast<int>(i), count);
    };
    for (size_t i = 0; i < result.cells.size(); ++i)
        if (result.cells[i].state == SweepCell::State::Skipped) changed(i);

    // The int8 models, one per model, before any cell runs; a model that cannot be quantized
    // fails its int8 cells with the reason.
    std::map<QString, std::string> quantizeErrors;
    if (options.quantized) {
        auto folder = makeRunFolder(options.base, "sweep-" + result.sweepId);
        if (!folder) return folder.error();
        for (const QString& model : options.models) {
            const QString out = *folder + "/" + QFileInfo(model).completeBaseName() + "-int8.onnx";
            if (options.base.log) options.base.log(QStringLiteral("quantizing %1 into %2").arg(model, out));
            if (Status q = quantizeForSweep(model, out, options.base.cancel); !q)
                quantizeErrors[model] = "quantizing '" + model.toStdString() + "' failed: " + q.error().message;
            else
                result.quantized[model] = out;
        }
    }

    auto exportCache = std::make_shared<ExportCache>();
    auto runCell = [&](size_t i) {
        BenchOptions o = options.base;
        o.exportCache = exportCache;
        {
            std::lock_guard lock(mutex);
            SweepCell& c = result.cells[i];
            if (o.cancel && o.cancel->load()) {
                c.state = SweepCell::State::Cancelled;
                c.message = "sweep cancelled before this cell started";
                changed(i);
                return;
            }
            if (c.quantized && quantizeErrors.count(c.model)) {
                c.state = SweepCell::State::Failed;
                c.message = quantizeErrors[c.model];
                changed(i);
                return;
            }
            c.state = SweepCell::State::Running;
            changed(i);
            o.modelPath = c.quantized ? result.quantized[c.model] : c.model;
            o.boardId = c.boardId;
            o.library = c.library;
        }
        o.storePath = "-"; // stored below, one cell at a time
        o.extra["sweep"] = result.sweepId;
        o.extra["sweep_lib"] = QString::fromStdString(o.library);
        if (result.cells[i].quantized)
            o.extra["sweep_float_model"] = QFileInfo(result.cells[i].model).absoluteFilePath();
        if (options.base.log) {
            const QString tag =
                QStringLiteral("[%1 %2 %3] ")
                    .arg(QFileInfo(o.modelPath).completeBaseName(), o.boardId, QString::fromStdString(o.library));
            o.log = [&, tag](const QString& line) {
                std::lock_guard lock(mutex);
                options.base.log(tag + line);
            };
        }
        o.stepStarted = nullptr;
        o.progress = nullptr;
        auto r = runBenchmark(o);
        std::lock_guard lock(mutex);
        SweepCell& c = result.cells[i];
        if (!r) {
            c.state = o.cancel && o.cancel->load() ? SweepCell::State::Cancelled : SweepCell::State::Failed;
            c.message = r.error().message;
            changed(i);
            return;
        }
        store::RunRecord& rec = r->record;
        c.state = rec.status == store::RunStatus::Ok          ? SweepCell::State::Ok
                  : rec.status == store::RunStatus::Cancelled ? SweepCell::State::Cancelled
                                                              : SweepCell::State::Failed;
        c.message = rec.message;
        c.medianNs = rec.latency.medianNs;
        c.ci95LowNs = rec.latency.ci95LowNs;
        c.ci95HighNs = rec.latency.ci95HighNs;
        c.exportDir = r->exportDir;
        c.device = rec.extra.value("lava_device").toString();
        for (const store::AccuracyEntry& a : rec.outputAccuracy) {
            c.maxRel = std::max(c.maxRel, a.maxRel);
            c.cosine = c.cosine < 0 ? a.cosine : std::min(c.cosine, a.cosine);
        }
        if (options.base.storePath != "-") {
            if (Status s = store::addRunAt(options.base.storePath, rec); !s) {
                c.state = SweepCell::State::Failed;
                c.message = "the run could not be stored: " + s.error().message;
            } else {
                c.runId = rec.id;
            }
        }
        changed(i);
    };

    std::vector<std::thread> threads;
    for (auto& [lane, cells] : laneCells) {
        const int width = std::max(1, std::min(laneWidth[lane], static_cast<int>(cells.size())));
        auto next = std::make_shared<std::atomic_size_t>(0);
        for (int w = 0; w < width; ++w) {
            threads.emplace_back([&, next, cellsOfLane = cells] {
                for (size_t k = (*next)++; k < cellsOfLane.size(); k = (*next)++) runCell(cellsOfLane[k]);
            });
        }
    }
    for (std::thread& t : threads) t.join();
    result.builds = exportCache->builds();

    markBestCells(result.cells);
    return result;
}

void markBestCells(std::vector<SweepCell>& cells) {
    // The best library of each model on each board: the lowest median among its ok cells.
    for (SweepCell& c : cells) {
        c.bestOnBoard = false;
        if (c.state != SweepCell::State::Ok) continue;
        bool best = true;
        for (const SweepCell& o : cells)
            if (&o != &c && o.state == SweepCell::State::Ok && o.model == c.model && o.boardId == c.boardId &&
                o.quantized == c.quantized && o.medianNs < c.medianNs)
                best = false;
        c.bestOnBoard = best;
    }
}

static SweepCell cellOfRun(const store::RunRecord& rec) {
    SweepCell c;
    const QString floatModel = rec.extra.value("sweep_float_model").toString();
    c.quantized = !floatModel.isEmpty();
    c.model = c.quantized ? floatModel : QString::fromStdString(rec.fingerprint.modelPath);
    c.boardId = QString::fromStdString(rec.fingerprint.boardId);
    c.library = rec.extra.contains("sweep_lib") ? rec.extra.value("sweep_lib").toString().toStdString()
                                                : rec.fingerprint.kernelLibrary;
    c.state = rec.status == store::RunStatus::Ok          ? SweepCell::State::Ok
              : rec.status == store::RunStatus::Cancelled ? SweepCell::State::Cancelled
                                                          : SweepCell::State::Failed;
    c.message = rec.message;
    c.runId = rec.id;
    c.medianNs = rec.latency.medianNs;
    c.ci95LowNs = rec.latency.ci95LowNs;
    c.ci95HighNs = rec.latency.ci95HighNs;
    c.device = rec.extra.value("lava_device").toString();
    for (const store::AccuracyEntry& a : rec.outputAccuracy) {
        c.maxRel = std::max(c.maxRel, a.maxRel);
        c.cosine = c.cosine < 0 ? a.cosine : std::min(c.cosine, a.cosine);
    }
    return c;
}

Expected<SweepResult> loadSweep(store::RunStore& store, const QString& sweepId) {
    auto runs = store.listRuns();
    if (!runs) return runs.error();
    SweepResult result;
    result.sweepId = sweepId;
    // listRuns is newest first: the sweep's cells in the order they were stored.
    for (auto it = runs->rbegin(); it != runs->rend(); ++it) {
        auto rec = store.getRun(it->id);
        if (!rec) return rec.error();
        if (rec->extra.value("sweep").toString() == sweepId) result.cells.push_back(cellOfRun(*rec));
    }
    if (result.cells.empty())
        return makeError(ErrorKind::InvalidInput, ("no run of sweep '" + sweepId + "' in " + store.path() +
                                                   ": the sweep id is printed above the sweep's table")
                                                      .toStdString());
    markBestCells(result.cells);
    return result;
}

} // namespace embark::jobs

#include "sweep.h"

#include "deploy/lava_client.h"
#include "store/run_store.h"

#include <QDateTime>
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
    for (const QString& model : options.models) {
        for (const targets::Board& board : *boards) {
            for (const std::string& lib : options.libraries) {
                SweepCell cell;
                cell.model = model;
                cell.boardId = board.id;
                cell.library = lib;
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
    const int count = static_cast<int>(result.cells.size());
    std::mutex mutex; // guards the cells, the callbacks and the store
    auto changed = [&](size_t i) {
        if (options.cellChanged) options.cellChanged(result.cells[i], static_cast<int>(i), count);
    };
    for (size_t i = 0; i < result.cells.size(); ++i)
        if (result.cells[i].state == SweepCell::State::Skipped) changed(i);

    auto runCell = [&](size_t i) {
        BenchOptions o = options.base;
        {
            std::lock_guard lock(mutex);
            SweepCell& c = result.cells[i];
            if (o.cancel && o.cancel->load()) {
                c.state = SweepCell::State::Cancelled;
                c.message = "sweep cancelled before this cell started";
                changed(i);
                return;
            }
            c.state = SweepCell::State::Running;
            changed(i);
            o.modelPath = c.model;
            o.boardId = c.boardId;
            o.library = c.library;
        }
        o.storePath = "-"; // stored below, one cell at a time
        o.extra["sweep"] = result.sweepId;
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

    // The best library of each model on each board: the lowest median among its ok cells.
    for (SweepCell& c : result.cells) {
        if (c.state != SweepCell::State::Ok) continue;
        bool best = true;
        for (const SweepCell& o : result.cells)
            if (&o != &c && o.state == SweepCell::State::Ok && o.model == c.model && o.boardId == c.boardId &&
                o.medianNs < c.medianNs)
                best = false;
        c.bestOnBoard = best;
    }
    return result;
}

} // namespace embark::jobs

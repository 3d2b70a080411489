// The JSON dialect of embark-cli (docs/cli.md "JSON"): the schema version every --json object
// carries, and the one shape of a run that bench --json, bench --save-json and runs show
// --json print, so the same run reads the same wherever it comes from.
#pragma once

#include "store/run_record.h"

#include <QJsonArray>
#include <QJsonObject>

namespace embark::cli {

// The version of the dialect; every --json object has it as "schema".
inline constexpr const char* kJsonSchema = "embark-cli/1";

// Adds "schema" to a command's top-level JSON object.
QJsonObject withSchema(QJsonObject o);

QJsonObject latencyJson(const store::LatencyStats& s);
// {"name", "max_abs", "max_rel", "rmse", "cosine", "snr_db"} per entry; non-finite figures are null.
QJsonArray accuracyJson(const std::vector<store::AccuracyEntry>& entries);

// True when board `id` runs under an emulator (a local runner with an exec prefix such as
// qemu-user): its wall-clock times measure the emulation on this computer, not the board. A
// board no longer known counts as emulated when its id starts with "sim-".
bool isEmulatedBoard(const QString& id);

// A stored (or just finished) run in the one run shape.
QJsonObject runJson(const store::RunRecord& rec);

} // namespace embark::cli

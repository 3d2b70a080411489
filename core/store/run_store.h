// The run history: an SQLite database (QtSql, WAL, synchronous=FULL) of benchmark runs with a
// versioned schema. One RunStore is one connection: use it from one thread, open another
// RunStore (same path) in each job thread; writers serialise on SQLite's lock.
#pragma once

#include "run_comparison.h"
#include "run_record.h"

#include "ir/error.h"

#include <QString>

#include <memory>
#include <optional>

namespace embark::store {

struct RunFilter {
    std::string model;         // substring of the model path, or the model's sha256
    std::string boardId;       // exact
    std::string kernelLibrary; // exact
    QDateTime from;            // inclusive; invalid = unbounded
    QDateTime to;              // inclusive; invalid = unbounded
    int limit = 0;             // newest first; 0 = all
};

class RunStore {
public:
    // $EMBARK_DATA_DIR/runs.sqlite when set, else runs.sqlite in the user's app data folder.
    static QString defaultPath();
    // Creates the file (and folder) if needed and migrates an older schema.
    static Expected<std::unique_ptr<RunStore>> open(const QString& path);

    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    QString path() const { return m_path; }
    int schemaVersion() const;

    // Writes the whole record in one transaction and returns its id; fills the latency
    // statistics from the samples when the record's are empty.
    Expected<int64_t> addRun(const RunRecord& record);
    Expected<std::vector<RunSummary>> listRuns(const RunFilter& filter = {});
    Expected<RunRecord> getRun(int64_t id);
    Status deleteRun(int64_t id);
    Expected<RunComparison> compareRuns(int64_t a, int64_t b);
    // PRAGMA integrity_check's answer: "ok" for a sound database.
    Expected<QString> integrityCheck();

private:
    RunStore(QString path, QString connection);
    QString m_path;
    QString m_connection;
};

// Stores RECORD in the run store at PATH (empty: RunStore::defaultPath(); "-": not stored) and
// sets its id.
Status addRunAt(const QString& path, RunRecord& record);

} // namespace embark::store

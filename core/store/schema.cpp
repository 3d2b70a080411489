// Migration steps are append-only: a released step never changes, a new version adds a step.
#include "schema.h"

#include "latency_stats.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <map>

namespace embark::store::detail {

Error sqlError(const QString& path, const QString& what, const QString& sqlMessage) {
    return makeError(ErrorKind::External,
                     QStringLiteral("run store '%1': %2: %3").arg(path, what, sqlMessage).toStdString());
}

Status exec(QSqlDatabase& db, const QString& sql, const QString& path) {
    QSqlQuery q(db);
    if (!q.exec(sql)) return sqlError(path, sql.simplified().left(60), q.lastError().text());
    return {};
}

namespace {

// v1: runs with their fingerprint, latency samples, per-layer timings, accuracy.
Status toV1(QSqlDatabase& db, const QString& path) {
    const char* statements[] = {
        "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL,"
        " model_path TEXT NOT NULL DEFAULT '', model_sha256 TEXT NOT NULL DEFAULT '',"
        " export_hash TEXT NOT NULL DEFAULT '', board TEXT NOT NULL DEFAULT '',"
        " kernel_lib TEXT NOT NULL DEFAULT '', compiler TEXT NOT NULL DEFAULT '',"
        " compiler_flags TEXT NOT NULL DEFAULT '', threads INTEGER NOT NULL DEFAULT 1,"
        " embark_version TEXT NOT NULL DEFAULT '', status TEXT NOT NULL,"
        " message TEXT NOT NULL DEFAULT '')",
        "CREATE TABLE latency_samples (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
        " iteration INTEGER NOT NULL, ns INTEGER NOT NULL, PRIMARY KEY (run_id, iteration))",
        "CREATE TABLE layer_timings (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
        " position INTEGER NOT NULL, node TEXT NOT NULL, lib TEXT NOT NULL, ns REAL NOT NULL,"
        " PRIMARY KEY (run_id, position))",
        "CREATE TABLE accuracy (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
        " scope TEXT NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL, max_abs REAL,"
        " max_rel REAL, rmse REAL, cosine REAL, snr_db REAL, PRIMARY KEY (run_id, scope, position))",
    };
    for (const char* sql : statements) EMBARK_TRY(exec(db, QString::fromLatin1(sql), path));
    return {};
}

// v2: latency statistics and extra JSON on the run row (so listing needs no samples), indexes
// for the history filters; statistics of existing runs are computed from their samples.
Status toV2(QSqlDatabase& db, const QString& path) {
    const char* columns[] = {"sample_count INTEGER", "min_ns REAL",      "max_ns REAL",
                             "median_ns REAL",       "mean_ns REAL",     "p90_ns REAL",
                             "stdev_ns REAL",        "ci95_low_ns REAL", "ci95_high_ns REAL"};
    for (const char* column : columns)
        EMBARK_TRY(exec(db, QStringLiteral("ALTER TABLE runs ADD COLUMN %1 NOT NULL DEFAULT 0").arg(column), path));
    EMBARK_TRY(exec(db, "ALTER TABLE runs ADD COLUMN extra_json TEXT NOT NULL DEFAULT '{}'", path));
    EMBARK_TRY(exec(db, "CREATE INDEX runs_by_model ON runs (model_sha256)", path));
    EMBARK_TRY(exec(db, "CREATE INDEX runs_by_board ON runs (board, kernel_lib)", path));
    EMBARK_TRY(exec(db, "CREATE INDEX runs_by_date ON runs (created_at)", path));

    std::map<qint64, std::vector<int64_t>> samples;
    QSqlQuery read(db);
    if (!read.exec("SELECT run_id, ns FROM latency_samples ORDER BY run_id, iteration"))
        return sqlError(path, "reading samples for migration", read.lastError().text());
    while (read.next()) samples[read.value(0).toLongLong()].push_back(read.value(1).toLongLong());
    QSqlQuery write(db);
    write.prepare("UPDATE runs SET sample_count = ?, min_ns = ?, max_ns = ?, median_ns = ?, mean_ns = ?,"
                  " p90_ns = ?, stdev_ns = ?, ci95_low_ns = ?, ci95_high_ns = ? WHERE id = ?");
    for (auto& [id, ns] : samples) {
        const LatencyStats s = summarizeLatency(ns);
        const QVariant values[] = {qint64(s.count), s.minNs,   s.maxNs,     s.medianNs,   s.meanNs,
                                   s.p90Ns,         s.stdevNs, s.ci95LowNs, s.ci95HighNs, id};
        for (int i = 0; i < 10; ++i) write.bindValue(i, values[i]);
        if (!write.exec()) return sqlError(path, "migrating statistics", write.lastError().text());
    }
    return {};
}

using Step = Status (*)(QSqlDatabase&, const QString&);
constexpr Step kSteps[] = {toV1, toV2}; // kSteps[i] takes version i to i + 1
static_assert(std::size(kSteps) == kSchemaVersion, "one migration step per schema version");

Expected<int> userVersion(QSqlDatabase& db, const QString& path) {
    QSqlQuery q(db);
    if (!q.exec("PRAGMA user_version") || !q.next())
        return sqlError(path, "reading the schema version", q.lastError().text());
    const int version = q.value(0).toInt();
    q.finish();
    return version;
}

} // namespace

Status migrate(QSqlDatabase& db, const QString& path) {
    for (;;) {
        // IMMEDIATE takes the write lock first, so two processes opening an old database
        // at once run each step exactly once.
        EMBARK_TRY(exec(db, "BEGIN IMMEDIATE", path));
        auto version = userVersion(db, path);
        Status status = version ? Status{} : Status{version.error()};
        if (status && *version > kSchemaVersion)
            status =
                makeError(ErrorKind::External, QStringLiteral("run store '%1' has schema version %2, newer than this "
                                                              "Embark's %3: upgrade Embark or set EMBARK_DATA_DIR to "
                                                              "another folder")
                                                   .arg(path)
                                                   .arg(*version)
                                                   .arg(kSchemaVersion)
                                                   .toStdString());
        if (status && *version < 0)
            status =
                makeError(ErrorKind::InvalidInput, QStringLiteral("run store '%1' has an invalid schema version %2: "
                                                                  "it is not an Embark run store")
                                                       .arg(path)
                                                       .arg(*version)
                                                       .toStdString());
        if (status && *version == kSchemaVersion) return exec(db, "COMMIT", path);
        if (status) status = kSteps[*version](db, path);
        if (status) status = exec(db, QStringLiteral("PRAGMA user_version = %1").arg(*version + 1), path);
        if (status) status = exec(db, "COMMIT", path);
        if (!status) {
            QSqlQuery(db).exec("ROLLBACK");
            return status;
        }
    }
}

} // namespace embark::store::detail

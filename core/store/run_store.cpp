#include "run_store.h"

#include "schema.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QVariant>

#include <atomic>
#include <cmath>

namespace embark::store {

using detail::exec;
using detail::sqlError;

const char* runStatusName(RunStatus s) {
    switch (s) {
    case RunStatus::Ok: return "ok";
    case RunStatus::Failed: return "failed";
    case RunStatus::Cancelled: return "cancelled";
    }
    return "failed";
}

RunStatus runStatusFromName(const QString& name) {
    if (name == QLatin1String("ok")) return RunStatus::Ok;
    if (name == QLatin1String("cancelled")) return RunStatus::Cancelled;
    return RunStatus::Failed;
}

namespace {

// SQLite stores NaN as NULL; keep "not a number" (e.g. a shape mismatch) through a round trip.
QVariant real(double v) { return std::isnan(v) ? QVariant() : QVariant(v); }
double realOf(const QVariant& v) { return v.isNull() ? std::nan("") : v.toDouble(); }

QString text(const std::string& s) { return QString::fromStdString(s); }
std::string str(const QVariant& v) { return v.toString().toStdString(); }

QString isoUtc(const QDateTime& t) { return t.toUTC().toString(Qt::ISODateWithMs); }
QDateTime fromIso(const QVariant& v) { return QDateTime::fromString(v.toString(), Qt::ISODateWithMs); }

const char* statusName(RunStatus s) { return runStatusName(s); }
RunStatus statusOf(const QVariant& v) { return runStatusFromName(v.toString()); }

// Columns of the run row shared by listRuns and getRun, in this order.
constexpr const char* kRunColumns =
    "id, created_at, model_path, model_sha256, export_hash, board, kernel_lib, compiler,"
    " compiler_flags, threads, embark_version, status, message, sample_count, min_ns, max_ns,"
    " median_ns, mean_ns, p90_ns, stdev_ns, ci95_low_ns, ci95_high_ns, extra_json";

LatencyStats statsFromRow(const QSqlQuery& q, int first) {
    LatencyStats s;
    s.count = q.value(first).toLongLong();
    double* fields[] = {&s.minNs, &s.maxNs, &s.medianNs, &s.meanNs, &s.p90Ns, &s.stdevNs, &s.ci95LowNs, &s.ci95HighNs};
    for (int i = 0; i < 8; ++i) *fields[i] = q.value(first + 1 + i).toDouble();
    return s;
}

// Rolls back unless committed, so every early return leaves the database untouched.
class WriteTransaction {
public:
    WriteTransaction(QSqlDatabase& db, const QString& path) : m_db(db) { m_status = exec(db, "BEGIN IMMEDIATE", path); }
    ~WriteTransaction() {
        if (m_status.ok() && !m_committed) QSqlQuery(m_db).exec("ROLLBACK");
    }
    const Status& begun() const { return m_status; }
    Status commit(const QString& path) {
        Status s = exec(m_db, "COMMIT", path);
        m_committed = s.ok();
        return s;
    }

private:
    QSqlDatabase& m_db;
    Status m_status;
    bool m_committed = false;
};

std::atomic<int> g_connectionCounter{0};

} // namespace

QString RunStore::defaultPath() {
    QString dir = qEnvironmentVariable("EMBARK_DATA_DIR");
    if (dir.isEmpty()) dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(dir).filePath("runs.sqlite");
}

RunStore::RunStore(QString path, QString connection) : m_path(std::move(path)), m_connection(std::move(connection)) {}

RunStore::~RunStore() {
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

Expected<std::unique_ptr<RunStore>> RunStore::open(const QString& path) {
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return makeError(ErrorKind::External, QStringLiteral("run store: cannot create the folder '%1': check its "
                                                             "permissions or set EMBARK_DATA_DIR")
                                                  .arg(info.absolutePath())
                                                  .toStdString());
    const QString name = QStringLiteral("embark-store-%1").arg(g_connectionCounter++);
    std::unique_ptr<RunStore> store(new RunStore(info.absoluteFilePath(), name));
    QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", name);
    db.setDatabaseName(store->m_path);
    // Concurrent writers wait for the lock instead of failing at once.
    db.setConnectOptions("QSQLITE_BUSY_TIMEOUT=30000");
    if (!db.open()) return sqlError(store->m_path, "cannot open", db.lastError().text());

    QSqlQuery q(db);
    if (!q.exec("PRAGMA journal_mode = WAL") || !q.next())
        return makeError(ErrorKind::InvalidInput,
                         QStringLiteral("run store '%1' is not an SQLite database (%2): move it "
                                        "away or set EMBARK_DATA_DIR to another folder")
                             .arg(store->m_path, q.lastError().text())
                             .toStdString());
    q.finish(); // an unfinished statement would keep the migration's COMMIT from completing
    EMBARK_TRY(exec(db, "PRAGMA synchronous = FULL", store->m_path));
    EMBARK_TRY(exec(db, "PRAGMA foreign_keys = ON", store->m_path));
    EMBARK_TRY(detail::migrate(db, store->m_path));
    return store;
}

int RunStore::schemaVersion() const {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    return q.exec("PRAGMA user_version") && q.next() ? q.value(0).toInt() : -1;
}

Expected<int64_t> RunStore::addRun(const RunRecord& record) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    const LatencyStats s = record.latency.empty() ? summarizeLatency(record.latencyNs) : record.latency;
    const RunFingerprint& f = record.fingerprint;
    const QDateTime date = f.date.isValid() ? f.date : QDateTime::currentDateTimeUtc();

    WriteTransaction tx(db, m_path);
    EMBARK_TRY(tx.begun());
    QSqlQuery q(db);
    q.prepare("INSERT INTO runs (created_at, model_path, model_sha256, export_hash, board, kernel_lib,"
              " compiler, compiler_flags, threads, embark_version, status, message, sample_count,"
              " min_ns, max_ns, median_ns, mean_ns, p90_ns, stdev_ns, ci95_low_ns, ci95_high_ns,"
              " extra_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    const QVariant values[] = {isoUtc(date),
                               text(f.modelPath),
                               text(f.modelSha256),
                               text(f.exportHash),
                               text(f.boardId),
                               text(f.kernelLibrary),
                               text(f.compiler),
                               text(f.compilerFlags),
                               f.threads,
                               text(f.embarkVersion),
                               statusName(record.status),
                               text(record.message),
                               qint64(s.count),
                               s.minNs,
                               s.maxNs,
                               s.medianNs,
                               s.meanNs,
                               s.p90Ns,
                               s.stdevNs,
                               s.ci95LowNs,
                               s.ci95HighNs,
                               QString::fromUtf8(QJsonDocument(record.extra).toJson(QJsonDocument::Compact))};
    for (int i = 0; i < static_cast<int>(std::size(values)); ++i) q.bindValue(i, values[i]);
    if (!q.exec()) return sqlError(m_path, "adding a run", q.lastError().text());
    const qint64 id = q.lastInsertId().toLongLong();

    QSqlQuery sample(db);
    sample.prepare("INSERT INTO latency_samples (run_id, iteration, ns) VALUES (?, ?, ?)");
    for (size_t i = 0; i < record.latencyNs.size(); ++i) {
        sample.bindValue(0, id);
        sample.bindValue(1, qint64(i));
        sample.bindValue(2, qint64(record.latencyNs[i]));
        if (!sample.exec()) return sqlError(m_path, "adding latency samples", sample.lastError().text());
    }
    QSqlQuery layer(db);
    layer.prepare("INSERT INTO layer_timings (run_id, position, node, lib, ns) VALUES (?, ?, ?, ?, ?)");
    for (size_t i = 0; i < record.layers.size(); ++i) {
        const LayerTiming& t = record.layers[i];
        const QVariant row[] = {id, qint64(i), text(t.node), text(t.lib), t.ns};
        for (int k = 0; k < 5; ++k) layer.bindValue(k, row[k]);
        if (!layer.exec()) return sqlError(m_path, "adding layer timings", layer.lastError().text());
    }
    QSqlQuery acc(db);
    acc.prepare("INSERT INTO accuracy (run_id, scope, position, name, max_abs, max_rel, rmse, cosine,"
                " snr_db) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const auto& [scope, entries] :
         {std::pair{"output", &record.outputAccuracy}, std::pair{"layer", &record.layerAccuracy}}) {
        for (size_t i = 0; i < entries->size(); ++i) {
            const AccuracyEntry& a = (*entries)[i];
            const QVariant row[] = {id,           scope,          qint64(i),
                                    text(a.name), real(a.maxAbs), real(a.maxRel),
                                    real(a.rmse), real(a.cosine), real(a.snrDb)};
            for (int k = 0; k < 9; ++k) acc.bindValue(k, row[k]);
            if (!acc.exec()) return sqlError(m_path, "adding accuracy", acc.lastError().text());
        }
    }
    EMBARK_TRY(tx.commit(m_path));
    return int64_t(id);
}

Expected<std::vector<RunSummary>> RunStore::listRuns(const RunFilter& filter) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QStringList where;
    QVariantList binds;
    if (!filter.model.empty()) {
        where << "(instr(model_path, ?) > 0 OR model_sha256 = ?)";
        binds << text(filter.model) << text(filter.model);
    }
    if (!filter.boardId.empty()) {
        where << "board = ?";
        binds << text(filter.boardId);
    }
    if (!filter.kernelLibrary.empty()) {
        where << "kernel_lib = ?";
        binds << text(filter.kernelLibrary);
    }
    if (filter.from.isValid()) {
        where << "created_at >= ?";
        binds << isoUtc(filter.from);
    }
    if (filter.to.isValid()) {
        where << "created_at <= ?";
        binds << isoUtc(filter.to);
    }
    QString sql = QStringLiteral("SELECT %1 FROM runs").arg(kRunColumns);
    if (!where.isEmpty()) sql += " WHERE " + where.join(" AND ");
    sql += " ORDER BY created_at DESC, id DESC";
    if (filter.limit > 0) sql += QStringLiteral(" LIMIT %1").arg(filter.limit);

    QSqlQuery q(db);
    q.prepare(sql);
    for (int i = 0; i < binds.size(); ++i) q.bindValue(i, binds[i]);
    if (!q.exec()) return sqlError(m_path, "listing runs", q.lastError().text());
    std::vector<RunSummary> runs;
    while (q.next()) {
        RunSummary r;
        r.id = q.value(0).toLongLong();
        r.date = fromIso(q.value(1));
        r.modelPath = str(q.value(2));
        r.boardId = str(q.value(5));
        r.kernelLibrary = str(q.value(6));
        r.threads = q.value(9).toInt();
        r.status = statusOf(q.value(11));
        r.message = str(q.value(12));
        r.latency = statsFromRow(q, 13);
        runs.push_back(std::move(r));
    }
    return runs;
}

Expected<RunRecord> RunStore::getRun(int64_t id) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    // One read transaction: a concurrent delete cannot leave half a record.
    EMBARK_TRY(exec(db, "BEGIN", m_path));
    struct EndRead {
        QSqlDatabase& db;
        ~EndRead() { QSqlQuery(db).exec("COMMIT"); }
    } endRead{db};

    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT %1 FROM runs WHERE id = ?").arg(kRunColumns));
    q.bindValue(0, qint64(id));
    if (!q.exec()) return sqlError(m_path, "reading a run", q.lastError().text());
    if (!q.next())
        return makeError(ErrorKind::Usage, QStringLiteral("run store '%1' has no run %2: see "
                                                          "'embark-cli runs list'")
                                               .arg(m_path)
                                               .arg(id)
                                               .toStdString());
    RunRecord r;
    r.id = id;
    RunFingerprint& f = r.fingerprint;
    f.date = fromIso(q.value(1));
    f.modelPath = str(q.value(2));
    f.modelSha256 = str(q.value(3));
    f.exportHash = str(q.value(4));
    f.boardId = str(q.value(5));
    f.kernelLibrary = str(q.value(6));
    f.compiler = str(q.value(7));
    f.compilerFlags = str(q.value(8));
    f.threads = q.value(9).toInt();
    f.embarkVersion = str(q.value(10));
    r.status = statusOf(q.value(11));
    r.message = str(q.value(12));
    r.latency = statsFromRow(q, 13);
    r.extra = QJsonDocument::fromJson(q.value(22).toString().toUtf8()).object();

    QSqlQuery rows(db);
    rows.prepare("SELECT ns FROM latency_samples WHERE run_id = ? ORDER BY iteration");
    rows.bindValue(0, qint64(id));
    if (!rows.exec()) return sqlError(m_path, "reading latency samples", rows.lastError().text());
    while (rows.next()) r.latencyNs.push_back(rows.value(0).toLongLong());

    rows.prepare("SELECT node, lib, ns FROM layer_timings WHERE run_id = ? ORDER BY position");
    rows.bindValue(0, qint64(id));
    if (!rows.exec()) return sqlError(m_path, "reading layer timings", rows.lastError().text());
    while (rows.next()) r.layers.push_back({str(rows.value(0)), str(rows.value(1)), rows.value(2).toDouble()});

    rows.prepare("SELECT scope, name, max_abs, max_rel, rmse, cosine, snr_db FROM accuracy"
                 " WHERE run_id = ? ORDER BY scope, position");
    rows.bindValue(0, qint64(id));
    if (!rows.exec()) return sqlError(m_path, "reading accuracy", rows.lastError().text());
    while (rows.next()) {
        AccuracyEntry a{str(rows.value(1)),    realOf(rows.value(2)), realOf(rows.value(3)),
                        realOf(rows.value(4)), realOf(rows.value(5)), realOf(rows.value(6))};
        (rows.value(0).toString() == "output" ? r.outputAccuracy : r.layerAccuracy).push_back(std::move(a));
    }
    return r;
}

Status RunStore::deleteRun(int64_t id) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    WriteTransaction tx(db, m_path);
    EMBARK_TRY(tx.begun());
    QSqlQuery q(db);
    q.prepare("DELETE FROM runs WHERE id = ?"); // samples, layers, accuracy cascade
    q.bindValue(0, qint64(id));
    if (!q.exec()) return sqlError(m_path, "deleting a run", q.lastError().text());
    if (q.numRowsAffected() == 0)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("run store '%1' has no run %2 to delete").arg(m_path).arg(id).toStdString());
    return tx.commit(m_path);
}

Expected<RunComparison> RunStore::compareRuns(int64_t a, int64_t b) {
    auto ra = getRun(a);
    if (!ra) return ra.error();
    auto rb = getRun(b);
    if (!rb) return rb.error();
    return compareRecords(*ra, *rb);
}

Expected<QString> RunStore::integrityCheck() {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (!q.exec("PRAGMA integrity_check")) return sqlError(m_path, "integrity check", q.lastError().text());
    QStringList lines;
    while (q.next()) lines << q.value(0).toString();
    return lines.join('\n');
}

Status addRunAt(const QString& path, RunRecord& record) {
    if (path == "-") return {};
    auto st = RunStore::open(path.isEmpty() ? RunStore::defaultPath() : path);
    if (!st) return st.error();
    auto id = (*st)->addRun(record);
    if (!id) return id.error();
    record.id = *id;
    return {};
}

} // namespace embark::store

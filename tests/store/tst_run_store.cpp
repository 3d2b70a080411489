// Tests of the run store: full round trip, filters, delete, comparison, latency statistics,
// migration from a v1 database, refusal of foreign or newer files, concurrent writers.
#include "store/run_store.h"

#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <thread>

using namespace embark;
using namespace embark::store;

namespace {

RunRecord sampleRecord(const std::string& model, const std::string& board, const std::string& lib, int64_t base) {
    RunRecord r;
    r.fingerprint = {model,
                     "sha-" + model,
                     "exp123",
                     board,
                     lib,
                     "clang-19",
                     "-O3 -march=rv64gcv",
                     2,
                     QDateTime(QDate(2024, 5, 1), QTime(10, 0), Qt::UTC),
                     "0.1.0"};
    for (int i = 0; i < 30; ++i) r.latencyNs.push_back(base + (i * 37) % 11);
    r.layers = {{"conv1", lib, double(base) / 4}, {"relu1", "portable", 12.5}, {"fc", lib, 99}};
    r.outputAccuracy = {{"logits", 1e-6, 2e-7, 3e-7, 0.999999, 120.5}};
    r.layerAccuracy = {{"conv1", 1e-7, 1e-8, 1e-8, 1.0, 140}, {"fc", 2e-6, 3e-7, 4e-7, 0.99, 80}};
    return r;
}

Q_DECL_UNUSED bool sameAccuracy(const AccuracyEntry& a, const AccuracyEntry& b) {
    auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; };
    return a.name == b.name && same(a.maxAbs, b.maxAbs) && same(a.maxRel, b.maxRel) && same(a.rmse, b.rmse) &&
           same(a.cosine, b.cosine) && same(a.snrDb, b.snrDb);
}

// Count rows with a connection of our own, to see what the store left behind.
int countRows(const QString& path, const QString& sql) {
    int n = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "probe");
        db.setDatabaseName(path);
        db.open();
        QSqlQuery q(db);
        if (q.exec(sql) && q.next()) n = q.value(0).toInt();
    }
    QSqlDatabase::removeDatabase("probe");
    return n;
}

} // namespace

class TestRunStore : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString freshPath(const QString& name) { return m_dir.filePath(name + ".sqlite"); }

private slots:
    void roundTrip() {
        auto store = RunStore::open(freshPath("roundtrip"));
        QVERIFY2(store.ok(), store.ok() ? "" : store.error().message.c_str());
        QCOMPARE((*store)->schemaVersion(), 2);
        RunRecord in = sampleRecord("models/ré sumé; 'x'.onnx", "sim-k230", "xnnpack", 1000);
        in.status = RunStatus::Failed;
        in.message = "exit status 139\nstderr: Segmentation fault";
        in.layerAccuracy.push_back({"shape-mismatch", NAN, NAN, NAN, NAN, NAN});
        in.extra = QJsonObject{{"qemu", "rv64,v=true"}, {"affinity", QJsonArray{0, 1}}};
        auto id = (*store)->addRun(in);
        QVERIFY(id.ok());
        QVERIFY(*id > 0);

        auto out = (*store)->getRun(*id);
        QVERIFY(out.ok());
        const RunFingerprint &a = in.fingerprint, &b = out->fingerprint;
        QCOMPARE(out->id, *id);
        QCOMPARE(b.modelPath, a.modelPath);
        QCOMPARE(b.modelSha256, a.modelSha256);
        QCOMPARE(b.exportHash, a.exportHash);
        QCOMPARE(b.boardId, a.boardId);
        QCOMPARE(b.kernelLibrary, a.kernelLibrary);
        QCOMPARE(b.compiler, a.compiler);
        QCOMPARE(b.compilerFlags, a.compilerFlags);
        QCOMPARE(b.threads, a.threads);
        QCOMPARE(b.date, a.date);
        QCOMPARE(b.embarkVersion, a.embarkVersion);
        QCOMPARE(out->status, RunStatus::Failed);
        QCOMPARE(out->message, in.message);
        QCOMPARE(out->latencyNs, in.latencyNs);
        const LatencyStats expected = summarizeLatency(in.latencyNs);
        QCOMPARE(out->latency.count, expected.count);
        QCOMPARE(out->latency.medianNs, expected.medianNs);
        QCOMPARE(out->latency.ci95HighNs, expected.ci95HighNs);
        QCOMPARE(out->layers.size(), in.layers.size());
        for (size_t i = 0; i < in.layers.size(); ++i) {
            QCOMPARE(out->layers[i].node, in.layers[i].node);
            QCOMPARE(out->layers[i].lib, in.layers[i].lib);
            QCOMPARE(out->layers[i].ns, in.layers[i].ns);
        }
        QCOMPARE(out->outputAccuracy.size(), in.outputAccuracy.size());
        QCOMPARE(out->layerAccuracy.size(), in.layerAccuracy.size());
        for (size_t i = 0; i < in.layerAccuracy.size(); ++i)
            QVERIFY(sameAccuracy(out->layerAccuracy[i], in.layerAccuracy[i]));
        QVERIFY(sameAccuracy(out->outputAccuracy[0], in.outputAccuracy[0]));
        QCOMPARE(out->extra, in.extra);
        QCOMPARE(*(*store)->integrityCheck(), QString("ok"));
    }

    void filters_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("board");
        QTest::addColumn<QString>("lib");
        QTest::addColumn<int>("fromDay"); // May 2024; 0 = unbounded
        QTest::addColumn<int>("toDay");
        QTest::addColumn<int>("expected");
        QTest::newRow("all") << ""
                             << ""
                             << "" << 0 << 0 << 6;
        QTest::newRow("model path substring") << "resnet"
                                              << ""
                                              << "" << 0 << 0 << 4;
        QTest::newRow("model sha") << "sha-lenet.onnx"
                                   << ""
                                   << "" << 0 << 0 << 2;
        QTest::newRow("board") << ""
                               << "sim-k230"
                               << "" << 0 << 0 << 3;
        QTest::newRow("board and lib") << ""
                                       << "rpi5"
                                       << "xnnpack" << 0 << 0 << 2;
        QTest::newRow("from day 3") << ""
                                    << ""
                                    << "" << 3 << 0 << 4;
        QTest::newRow("days 2..3") << ""
                                   << ""
                                   << "" << 2 << 3 << 2;
        QTest::newRow("nothing") << "vgg"
                                 << ""
                                 << "" << 0 << 0 << 0;
    }
    void filters() {
        QFETCH(QString, model);
        QFETCH(QString, board);
        QFETCH(QString, lib);
        QFETCH(int, fromDay);
        QFETCH(int, toDay);
        QFETCH(int, expected);
        auto store = RunStore::open(freshPath(QString("filters-%1").arg(QTest::currentDataTag())));
        QVERIFY(store.ok());
        const struct {
            const char* model;
            const char* board;
            const char* lib;
        } runs[] = {{"zoo/resnet18.onnx", "sim-k230", "portable"},
                    {"zoo/resnet18.onnx", "rpi5", "xnnpack"},
                    {"lenet.onnx", "sim-k230", "xnnpack"},
                    {"zoo/resnet50.onnx", "rpi5", "xnnpack"},
                    {"lenet.onnx", "host", "portable"},
                    {"zoo/resnet50.onnx", "sim-k230", "portable"}};
        int day = 1;
        for (const auto& r : runs) {
            RunRecord rec = sampleRecord(r.model, r.board, r.lib, 500);
            rec.fingerprint.date = QDateTime(QDate(2024, 5, day++), QTime(12, 0), Qt::UTC);
            QVERIFY((*store)->addRun(rec).ok());
        }
        RunFilter f;
        f.model = model.toStdString();
        f.boardId = board.toStdString();
        f.kernelLibrary = lib.toStdString();
        if (fromDay) f.from = QDateTime(QDate(2024, 5, fromDay), QTime(0, 0), Qt::UTC);
        if (toDay) f.to = QDateTime(QDate(2024, 5, toDay), QTime(23, 59), Qt::UTC);
        auto list = (*store)->listRuns(f);
        QVERIFY(list.ok());
        QCOMPARE(int(list->size()), expected);
        for (size_t i = 1; i < list->size(); ++i) QVERIFY((*list)[i - 1].date >= (*list)[i].date);
        f.limit = 1;
        QCOMPARE(int((*store)->listRuns(f)->size()), std::min(expected, 1));
    }

    void deleteRemovesEverything() {
        const QString path = freshPath("delete");
        auto store = RunStore::open(path);
        QVERIFY(store.ok());
        const int64_t keep = *(*store)->addRun(sampleRecord("a.onnx", "host", "portable", 100));
        const int64_t drop = *(*store)->addRun(sampleRecord("b.onnx", "host", "portable", 200));
        QVERIFY((*store)->deleteRun(drop).ok());
        const auto missing = (*store)->getRun(drop);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().kind, ErrorKind::Usage);
        QVERIFY((*store)->getRun(keep).ok());
        const Status again = (*store)->deleteRun(drop);
        QVERIFY(!again.ok());
        const QString where = QString(" WHERE run_id = %1").arg(drop);
        QCOMPARE(countRows(path, "SELECT count(*) FROM latency_samples" + where), 0);
        QCOMPARE(countRows(path, "SELECT count(*) FROM layer_timings" + where), 0);
        QCOMPARE(countRows(path, "SELECT count(*) FROM accuracy" + where), 0);
        QCOMPARE(countRows(path, "SELECT count(*) FROM latency_samples"), 30);
    }

    void compare() {
        auto store = RunStore::open(freshPath("compare"));
        QVERIFY(store.ok());
        RunRecord a = sampleRecord("m.onnx", "host", "portable", 1000);
        RunRecord b = sampleRecord("m.onnx", "host", "xnnpack", 2000);
        b.layers = {{"fc", "xnnpack", 50}, {"conv1", "xnnpack", 400}, {"new_node", "xnnpack", 7}};
        const int64_t ia = *(*store)->addRun(a), ib = *(*store)->addRun(b);
        auto c = (*store)->compareRuns(ia, ib);
        QVERIFY(c.ok());
        QCOMPARE(c->idA, ia);
        QCOMPARE(c->medianDeltaNs, c->b.medianNs - c->a.medianNs);
        QVERIFY(c->significant); // 1000..1010 against 2000..2010
        QVERIFY(qAbs(c->medianRatio - 2.0) < 0.02);
        QCOMPARE(c->layers.size(), size_t(4)); // conv1, relu1, fc from A; new_node from B
        QCOMPARE(c->layers[0].node, std::string("conv1"));
        QCOMPARE(c->layers[0].deltaNs, 400.0 - 250.0);
        QCOMPARE(c->layers[0].libB, std::string("xnnpack"));
        QVERIFY(!c->layers[1].nsB.has_value()); // relu1 only in A
        QCOMPARE(c->layers[2].ratio, 50.0 / 99.0);
        QVERIFY(!c->layers[3].nsA.has_value());
        QCOMPARE(c->layers[3].node, std::string("new_node"));
        QVERIFY(!(*store)->compareRuns(ia, 999).ok());

        const RunComparison same = compareRecords(a, a);
        QVERIFY(!same.significant);
        QCOMPARE(same.medianRatio, 1.0);
    }

    void latencyStatistics_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("median");
        QTest::addColumn<double>("p90");
        QTest::addColumn<double>("ciLow");
        QTest::addColumn<double>("ciHigh");
        // samples 1..n shuffled; ranks n/2 -/+ 1.96 sqrt(n)/2
        QTest::newRow("n=1") << 1 << 1.0 << 1.0 << 1.0 << 1.0;
        QTest::newRow("n=5 (range)") << 5 << 3.0 << 4.6 << 1.0 << 5.0;
        QTest::newRow("n=100") << 100 << 50.5 << 90.1 << 40.0 << 61.0;
        QTest::newRow("n=1000") << 1000 << 500.5 << 900.1 << 469.0 << 532.0;
    }
    void latencyStatistics() {
        QFETCH(int, n);
        QFETCH(double, median);
        QFETCH(double, p90);
        QFETCH(double, ciLow);
        QFETCH(double, ciHigh);
        std::vector<int64_t> samples;
        for (int i = 0; i < n; ++i) samples.push_back((i * 7919) % n + 1); // a permutation
        const LatencyStats s = summarizeLatency(samples);
        QCOMPARE(s.count, int64_t(n));
        QCOMPARE(s.minNs, 1.0);
        QCOMPARE(s.maxNs, double(n));
        QCOMPARE(s.meanNs, (n + 1) / 2.0);
        QVERIFY(qAbs(s.medianNs - median) < 1e-9);
        QVERIFY(qAbs(s.p90Ns - p90) < 1e-9);
        QCOMPARE(s.ci95LowNs, ciLow);
        QCOMPARE(s.ci95HighNs, ciHigh);
        QVERIFY(s.ci95LowNs <= s.medianNs && s.medianNs <= s.ci95HighNs);
        QVERIFY(summarizeLatency({}).empty());
    }

    void migratesV1() {
        const QString path = freshPath("v1");
        {
            // The v1 schema exactly as released; never edit it to follow later versions.
            QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "v1");
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            const char* v1[] = {
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
                "INSERT INTO runs (created_at, model_path, board, kernel_lib, status)"
                " VALUES ('2024-01-02T03:04:05.006Z', 'old.onnx', 'k230', 'portable', 'ok')",
                "INSERT INTO latency_samples VALUES (1, 0, 300), (1, 1, 100), (1, 2, 200)",
                "INSERT INTO layer_timings VALUES (1, 0, 'conv', 'portable', 42.0)",
                "PRAGMA user_version = 1",
            };
            for (const char* sql : v1) QVERIFY2(q.exec(sql), sql);
        }
        QSqlDatabase::removeDatabase("v1");

        auto store = RunStore::open(path);
        QVERIFY2(store.ok(), store.ok() ? "" : store.error().message.c_str());
        QCOMPARE((*store)->schemaVersion(), 2);
        auto old = (*store)->getRun(1);
        QVERIFY(old.ok());
        QCOMPARE(old->fingerprint.modelPath, std::string("old.onnx"));
        QCOMPARE(old->fingerprint.date, QDateTime(QDate(2024, 1, 2), QTime(3, 4, 5, 6), Qt::UTC));
        QCOMPARE(old->latencyNs, (std::vector<int64_t>{300, 100, 200}));
        QCOMPARE(old->latency.medianNs, 200.0); // statistics computed by the migration
        QCOMPARE(old->latency.count, int64_t(3));
        QCOMPARE(old->layers.size(), size_t(1));
        QVERIFY(old->extra.isEmpty());
        QCOMPARE((*store)->listRuns()->front().latency.medianNs, 200.0);
        QVERIFY((*store)->addRun(sampleRecord("new.onnx", "k230", "portable", 10)).ok());
        store->reset();
        // opening again is a no-op
        QCOMPARE((*RunStore::open(path))->schemaVersion(), 2);
    }

    void refusesForeignAndNewerFiles() {
        const QString garbage = freshPath("garbage");
        QFile f(garbage);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
        f.close();
        auto bad = RunStore::open(garbage);
        QVERIFY(!bad.ok());
        QVERIFY(QString::fromStdString(bad.error().message).contains(garbage));

        const QString newer = freshPath("newer");
        QVERIFY(RunStore::open(newer).ok());
        QCOMPARE(countRows(newer, "PRAGMA user_version"), 2);
        countRows(newer, "PRAGMA user_version = 99");
        auto refused = RunStore::open(newer);
        QVERIFY(!refused.ok());
        QVERIFY(QString::fromStdString(refused.error().message).contains("newer"));
    }

    void concurrentWriters() {
        const QString path = freshPath("concurrent");
        QVERIFY(RunStore::open(path).ok()); // create the schema once
        const int perThread = 40;
        std::vector<int64_t> ids[2];
        std::string errors[2];
        auto writer = [&](int t) {
            auto store = RunStore::open(path);
            if (!store) {
                errors[t] = store.error().message;
                return;
            }
            for (int i = 0; i < perThread; ++i) {
                auto id = (*store)->addRun(sampleRecord("t" + std::to_string(t), "host", "portable", i));
                if (!id) {
                    errors[t] = id.error().message;
                    return;
                }
                ids[t].push_back(*id);
            }
        };
        std::thread a(writer, 0), b(writer, 1);
        a.join();
        b.join();
        QVERIFY2(errors[0].empty(), errors[0].c_str());
        QVERIFY2(errors[1].empty(), errors[1].c_str());
        auto store = RunStore::open(path);
        QCOMPARE(int((*store)->listRuns()->size()), 2 * perThread);
        for (int t = 0; t < 2; ++t)
            for (int i = 0; i < perThread; ++i) {
                auto r = (*store)->getRun(ids[t][i]);
                QVERIFY(r.ok());
                QCOMPARE(r->fingerprint.modelPath, "t" + std::to_string(t));
                QCOMPARE(r->latencyNs.front(), int64_t(i));
            }
        QCOMPARE(*(*store)->integrityCheck(), QString("ok"));
    }

    void defaultPathFollowsEnvironment() {
        qputenv("EMBARK_DATA_DIR", m_dir.path().toUtf8());
        QCOMPARE(RunStore::defaultPath(), m_dir.filePath("runs.sqlite"));
        qunsetenv("EMBARK_DATA_DIR");
    }
};

QTEST_GUILESS_MAIN(TestRunStore)
#include "tst_run_store.moc"

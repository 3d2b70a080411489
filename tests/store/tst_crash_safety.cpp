// Crash safety of the run store: a writer process is killed with SIGKILL at random points;
// after each kill PRAGMA integrity_check must say "ok" and every run the writer reported as
// committed (and every run present at all) must be intact. 20 trials by default; set
// EMBARK_STORE_CRASH_TRIALS=100 for the full series.
#include "store/run_store.h"
#include "store_writer_record.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <random>
#include <thread>

using namespace embark::store;

class TestCrashSafety : public QObject {
    Q_OBJECT

    static bool intact(const RunRecord& got, int seq) {
        const RunRecord want = crashTestRecord(seq);
        if (got.fingerprint.modelPath != want.fingerprint.modelPath) return false;
        if (got.fingerprint.date != want.fingerprint.date) return false;
        if (got.latencyNs != want.latencyNs || got.layers.size() != want.layers.size()) return false;
        for (size_t i = 0; i < want.layers.size(); ++i)
            if (got.layers[i].node != want.layers[i].node || got.layers[i].ns != want.layers[i].ns) return false;
        if (got.layerAccuracy.size() != want.layerAccuracy.size()) return false;
        if (got.outputAccuracy.size() != want.outputAccuracy.size()) return false;
        return got.latency.count == int64_t(want.latencyNs.size()) && got.extra == want.extra;
    }

private slots:
    void survivesSigkill() {
        const int trials = qEnvironmentVariableIntValue("EMBARK_STORE_CRASH_TRIALS") > 0
                               ? qEnvironmentVariableIntValue("EMBARK_STORE_CRASH_TRIALS")
                               : 20;
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        std::mt19937 rng(20240501);      // kill points vary per trial, the series is reproducible
        std::map<qint64, int> committed; // id -> seq, as reported by the writers
        int seq = 0, killedMidRun = 0;
        for (int trial = 0; trial < trials; ++trial) {
            QProcess writer;
            writer.start(STORE_WRITER_PATH, {db, QString::number(seq)});
            QVERIFY2(writer.waitForStarted(), qPrintable(writer.errorString()));
            // the first trials also kill during schema creation and the first commits
            const int delayMs = trial < 3 ? 5 + 20 * trial : 10 + int(rng() % 400);
            std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
            const bool stillRunning = writer.state() == QProcess::Running;
            writer.kill(); // SIGKILL
            QVERIFY(writer.waitForFinished(10000));
            killedMidRun += stillRunning;
            const QList<QByteArray> lines = writer.readAllStandardOutput().split('\n');
            for (const QByteArray& line : lines) {
                const QList<QByteArray> f = line.split(' ');
                if (f.size() != 3 || f[0] != "committed") continue;
                committed[f[1].toLongLong()] = f[2].toInt();
                seq = std::max(seq, f[2].toInt() + 1);
            }
            if (!QFile::exists(db)) continue; // killed before the file was created

            auto store = RunStore::open(db);
            QVERIFY2(store.ok(), store.ok() ? "" : store.error().message.c_str());
            QCOMPARE(*(*store)->integrityCheck(), QString("ok"));
            for (auto [id, s] : committed) {
                auto run = (*store)->getRun(id);
                QVERIFY2(run.ok(), qPrintable(QString("trial %1: committed run %2 lost").arg(trial).arg(id)));
                QVERIFY2(intact(*run, s), qPrintable(QString("trial %1: run %2 damaged").arg(trial).arg(id)));
            }
            // runs committed but not yet reported when the kill came must be whole too
            const auto all = (*store)->listRuns();
            QVERIFY(all.ok());
            for (const RunSummary& summary : *all) {
                auto run = (*store)->getRun(summary.id);
                QVERIFY2(run.ok(), run.ok() ? "" : run.error().message.c_str());
                QVERIFY(intact(*run, run->extra.value("seq").toInt()));
                seq = std::max(seq, run->extra.value("seq").toInt() + 1);
            }
        }
        qInfo("%d trials, %d writers killed while running, %zu committed runs checked", trials, killedMidRun,
              committed.size());
        QVERIFY(killedMidRun >= trials / 2);
        QVERIFY(!committed.empty());
    }
};

QTEST_GUILESS_MAIN(TestCrashSafety)
#include "tst_crash_safety.moc"

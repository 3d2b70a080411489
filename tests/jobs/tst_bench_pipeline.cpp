// End-to-end benchmark runs (issue 5): export → cross-build → deploy → run → compare → store on
// simulated boards (real qemu-user) through LocalTransport and through a real OpenSSH server
// (tests/support/sshd_fixture) whose user board adds the qemu prefix, plus the failure cases
// (unknown board, board too small, crash on the board) and the CLI's --json/--trace/--csv/
// --test-data. Every row builds an export, so rows are few and iterations small.
#include "jobs/bench_pipeline.h"
#include "store/run_store.h"
#include "support/sshd_fixture.h"
#include "support/test_paths.h"
#include "xnnpack/xnnpack_resolve.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QScopeGuard>
#include <QTest>

using namespace embark;

namespace {

// Each row cross-builds an export; on a loaded 2-core machine a row can take minutes, longer
// than QtTest's default 5-minute watchdog. Set before main(), where QtTest reads it.
const bool kLongWatchdog = [] {
    if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT")) qputenv("QTEST_FUNCTION_TIMEOUT", "3600000");
    return true;
}();

QString bundledDigits() { return test::sourceDir() + "/resources/models/digits_cnn.onnx"; }

QString modelPath(const QString& name) { return name == "digits" ? bundledDigits() : test::sharedModel(name); }

bool writeJson(const QString& path, const QJsonObject& o) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(o).toJson()) > 0;
}

QJsonArray strings(const QStringList& l) { return QJsonArray::fromStringList(l); }

const QStringList kRiscvPrefix{"qemu-riscv64-static", "-cpu", "rv64,v=true,vlen=128,vext_spec=v1.0", "-L",
                               "/usr/riscv64-linux-gnu"};
const QStringList kAarch64Prefix{"qemu-aarch64-static", "-cpu", "cortex-a76", "-L", "/usr/aarch64-linux-gnu"};

QJsonObject boardJson(const QString& id, bool riscv, qint64 memory, const QJsonObject& runner) {
    QJsonObject b{{"id", id},
                  {"name", "test board " + id},
                  {"arch", riscv ? "riscv64" : "aarch64"},
                  {"isa", riscv ? "rv64gcv" : "armv8.2-a"},
                  {"cflags", riscv ? strings({"-march=rv64gcv", "-mabi=lp64d"}) : strings({"-mcpu=cortex-a76"})},
                  {"cores", 1},
                  {"memory_bytes", memory},
                  {"runner", runner}};
    if (riscv) b["vlen_bits"] = 128;
    b["xnnpack"] = true;
    return b;
}

int countFilesNamed(const QString& dir, const QString& name) {
    int n = 0;
    for (QDirIterator it(dir, {name}, QDir::Files, QDirIterator::Subdirectories); it.hasNext(); it.next()) ++n;
    return n;
}

QString messageOf(const Error& e) { return QString::fromStdString(e.message); }

} // namespace

class TestBenchPipeline : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    test::SshdFixture m_sshd;
    bool m_haveSshd = false;
    QString m_sshdError;

    QString storePath() const { return m_tmp.path() + "/runs.db"; }
    QString workDir() const { return m_tmp.path() + "/work"; }

    jobs::BenchOptions options(const QString& model, const QString& board, const QString& lib) const {
        jobs::BenchOptions o;
        o.modelPath = model;
        o.boardId = board;
        o.library = lib.toStdString();
        o.iterations = 3;
        o.warmup = 0;
        o.workDir = workDir();
        o.storePath = storePath();
        o.runTimeoutSeconds = 600;
        o.ssh.configFile = m_sshd.sshConfig();
        o.ssh.knownHostsFile = m_sshd.knownHosts();
        o.ssh.connectTimeout = std::chrono::seconds(10);
        o.ssh.ioTimeout = std::chrono::seconds(60);
        return o;
    }

    static void checkLatency(const store::LatencyStats& l, int iterations) {
        QCOMPARE(l.count, int64_t(iterations));
        QVERIFY(l.minNs > 0);
        QVERIFY(l.minNs <= l.medianNs && l.medianNs <= l.p90Ns && l.p90Ns <= l.maxNs);
        QVERIFY(l.minNs <= l.meanNs && l.meanNs <= l.maxNs);
        QVERIFY(l.stdevNs >= 0);
        QVERIFY(l.ci95LowNs <= l.medianNs && l.medianNs <= l.ci95HighNs);
    }

    static void checkOutputs(const std::vector<store::AccuracyEntry>& outputs) {
        QVERIFY(!outputs.empty());
        for (const auto& a : outputs) {
            QVERIFY2(a.maxRel <= 1e-4, qPrintable(QStringLiteral("%1: max_rel %2").arg(a.name.c_str()).arg(a.maxRel)));
            QVERIFY2(a.cosine >= 0.99999,
                     qPrintable(QStringLiteral("%1: cosine %2").arg(a.name.c_str()).arg(a.cosine)));
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QVERIFY(QDir().mkpath(m_tmp.path() + "/config/boards"));
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());
        m_haveSshd = m_sshd.start(&m_sshdError) && m_sshd.writeKnownHosts(true);
        const QString boards = m_tmp.path() + "/config/boards/";
        auto sshRunner = [&](const QStringList& prefix) {
            return QJsonObject{{"kind", "ssh"},         {"host", "127.0.0.1"},       {"port", m_sshd.port()},
                               {"user", m_sshd.user()}, {"key", m_sshd.clientKey()}, {"exec_prefix", strings(prefix)}};
        };
        QVERIFY(writeJson(boards + "ssh-k230.json", boardJson("ssh-k230", true, 502083584, sshRunner(kRiscvPrefix))));
        QVERIFY(
            writeJson(boards + "ssh-rpi5.json", boardJson("ssh-rpi5", false, 4294967296, sshRunner(kAarch64Prefix))));
        QVERIFY(
            writeJson(boards + "tiny-k230.json",
                      boardJson("tiny-k230", true, 1000, {{"kind", "local"}, {"exec_prefix", strings(kRiscvPrefix)}})));
        // A "board" whose runner segfaults after a word on stderr: a binary that crashes there.
        const QString crasher = m_tmp.path() + "/segfaulting-runner.sh";
        QFile script(crasher);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\necho 'board says: about to crash' >&2\nkill -SEGV $$\n");
        script.close();
        QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QVERIFY(writeJson(
            boards + "crashing-k230.json",
            boardJson("crashing-k230", true, 502083584, {{"kind", "local"}, {"exec_prefix", strings({crasher})}})));
    }

    // "upstream": XNNPACK_ROOT points at ../shared/xnnpack/prebuilt/<arch> for the row (skipped
    // when absent): the riscv64 boards run upstream's RVV kernels, sim-rpi5 its NEON ones.
    // SqueezeNet on riscv64 with upstream XNNPACK is checked layer by layer in
    // tst_export_models (the pipeline rows keep the suite's time down).
    void benchmark_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("board");
        QTest::addColumn<QString>("lib");
        QTest::addColumn<bool>("upstream");
        // digits on sim-k230 through LocalTransport is the CLI case below (one build less); SSH
        // to a riscv64 board with upstream XNNPACK is the ssh-k230 row (the same export as a
        // sim-k230 row would build), Debian's XNNPACK on aarch64 the ssh-rpi5 row
        // (tst_jobs_pipeline covers the recipes, cancel and deploy-and-run).
        QTest::newRow("digits sim-rpi5 portable") << "digits"
                                                  << "sim-rpi5"
                                                  << "portable" << false;
        QTest::newRow("digits ssh-rpi5 xnnpack") << "digits"
                                                 << "ssh-rpi5"
                                                 << "xnnpack" << false;
        QTest::newRow("lenet5 sim-k230 portable") << "lenet5"
                                                  << "sim-k230"
                                                  << "portable" << false;
        QTest::newRow("squeezenet1_1 sim-k230 portable") << "squeezenet1_1"
                                                         << "sim-k230"
                                                         << "portable" << false;
        QTest::newRow("lenet5 sim-k1 xnnpack upstream") << "lenet5"
                                                        << "sim-k1"
                                                        << "xnnpack" << true;
        QTest::newRow("digits ssh-k230 xnnpack upstream") << "digits"
                                                          << "ssh-k230"
                                                          << "xnnpack" << true;
        QTest::newRow("squeezenet1_1 sim-rpi5 xnnpack upstream") << "squeezenet1_1"
                                                                 << "sim-rpi5"
                                                                 << "xnnpack" << true;
    }
    void benchmark() {
        QFETCH(QString, model);
        QFETCH(QString, board);
        QFETCH(QString, lib);
        QFETCH(bool, upstream);
        if (model != "digits") EMBARK_REQUIRE_SHARED_MODELS();
        if (board.startsWith("ssh") && !m_haveSshd) QSKIP(qPrintable("no sshd fixture: " + m_sshdError));
        const QByteArray savedRoot = qgetenv("XNNPACK_ROOT");
        auto restoreRoot = qScopeGuard([&] {
            if (savedRoot.isEmpty())
                qunsetenv("XNNPACK_ROOT");
            else
                qputenv("XNNPACK_ROOT", savedRoot);
        });
        if (upstream) {
            const QString arch = board.endsWith("rpi5") ? "aarch64" : "riscv64";
            EMBARK_REQUIRE_SHARED_XNNPACK(arch, tree);
            qputenv("XNNPACK_ROOT", tree.toUtf8());
        }
        jobs::BenchOptions o = options(modelPath(model), board, lib);
        o.layers = true;
        o.accuracyLayers = true;
        auto r = jobs::runBenchmark(o);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        const store::RunRecord& rec = r->record;
        QVERIFY2(rec.status == store::RunStatus::Ok, rec.message.c_str());
        QVERIFY(r->binaryBytes > 0);
        checkLatency(rec.latency, o.iterations);
        checkOutputs(rec.outputAccuracy);
        // Per-layer accuracy (dumps compared through provenance) and per-layer timings.
        QVERIFY(!r->layerAccuracy.empty());
        for (const auto& la : r->layerAccuracy) QVERIFY2(la.accuracy.cosine >= 0.9999, la.node.c_str());
        QCOMPARE(r->firstDivergentLayer, -1);
        QVERIFY(!r->medianLayers.empty());
        QCOMPARE(r->output.layers.size(), r->medianLayers.size() * size_t(o.iterations));
        for (const auto& l : r->medianLayers) QVERIFY(!l.node.empty() && !l.lib.empty() && l.ns >= 0);
        if (lib == "xnnpack") {
            bool ranXnnpack = false;
            for (const auto& l : r->medianLayers) ranXnnpack |= l.lib == "xnnpack";
            QVERIFY(ranXnnpack);
        }

        // The store holds the same run with its fingerprint.
        auto st = store::RunStore::open(storePath());
        QVERIFY(st);
        auto stored = (*st)->getRun(rec.id);
        QVERIFY2(stored, stored ? "" : stored.error().message.c_str());
        const store::RunFingerprint& f = stored->fingerprint;
        QVERIFY(stored->status == store::RunStatus::Ok);
        QCOMPARE(QString::fromStdString(f.boardId), board);
        QCOMPARE(QString::fromStdString(f.kernelLibrary), lib);
        QVERIFY(!f.modelSha256.empty() && !f.exportHash.empty() && !f.compiler.empty() && !f.embarkVersion.empty());
        QVERIFY(f.date.isValid());
        QCOMPARE(f.threads, 1);
        QCOMPARE(stored->latencyNs, rec.latencyNs);
        QCOMPARE(stored->layers.size(), r->medianLayers.size());
        QCOMPARE(stored->layerAccuracy.size(), r->layerAccuracy.size());
        QCOMPARE(stored->outputAccuracy.size(), rec.outputAccuracy.size());
    }

    void xnnpackOnRiscvNeedsPrebuiltRoot() {
        if (xnnpack::haveXnnpackFor("riscv64")) QSKIP("riscv64 has an XNNPACK tree (XNNPACK_ROOT or the cache)");
        auto r = jobs::runBenchmark(options(bundledDigits(), "sim-k230", "xnnpack"));
        QVERIFY(!r);
        QVERIFY2(messageOf(r.error()).contains("embark-cli xnnpack build --arch riscv64"), r.error().message.c_str());
        QCOMPARE(int(r.error().kind), int(ErrorKind::Unsupported));
    }

    void unknownBoard() {
        auto r = jobs::runBenchmark(options(bundledDigits(), "no-such-board", "portable"));
        QVERIFY(!r);
        QVERIFY2(messageOf(r.error()).contains("no-such-board"), r.error().message.c_str());
        // The CLI says the same with a usage/invalid-input status, not a crash.
        QProcess cli;
        cli.start(test::cliPath(),
                  {"bench", bundledDigits(), "--board", "no-such-board", "--store", "-", "--work-dir", workDir()});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY(cli.exitStatus() == QProcess::NormalExit);
        QVERIFY2(cli.exitCode() >= 2 && cli.exitCode() <= 4, qPrintable(QString::number(cli.exitCode())));
        QVERIFY(cli.readAllStandardError().contains("no-such-board"));
    }

    void boardTooSmallIsRefusedBeforeBuilding() {
        jobs::BenchOptions o = options(bundledDigits(), "tiny-k230", "portable");
        o.workDir = m_tmp.path() + "/work-tiny";
        auto r = jobs::runBenchmark(o);
        QVERIFY(!r);
        const QString message = messageOf(r.error());
        // Both figures: the board's 1000 bytes and what the export needs (arena + weights).
        static const QRegularExpression figure(QStringLiteral("\\(([\\d,]+) bytes\\)"));
        std::vector<qint64> figures;
        for (auto it = figure.globalMatch(message); it.hasNext();)
            figures.push_back(it.next().captured(1).remove(',').toLongLong());
        QVERIFY2(figures.size() >= 2 && figures[0] == 1000 && figures[1] > 1000, qPrintable(message));
        QVERIFY2(message.contains("tiny-k230"), qPrintable(message));
        QCOMPARE(countFilesNamed(o.workDir, "run_export"), 0);
        QCOMPARE(countFilesNamed(o.workDir, "CMakeCache.txt"), 0);
    }

    void crashOnBoardIsAFailedRun() {
        jobs::BenchOptions o = options(bundledDigits(), "crashing-k230", "portable");
        auto r = jobs::runBenchmark(o);
        QVERIFY2(r, r ? "" : r.error().message.c_str()); // a failure on the board is a result...
        const store::RunRecord& rec = r->record;
        QVERIFY(rec.status == store::RunStatus::Failed); // ...recorded as failed, not as a timing
        const QString message = QString::fromStdString(rec.message);
        QVERIFY2(message.contains("SIGSEGV") || message.contains("signal"), qPrintable(message));
        QVERIFY2(message.contains("board says: about to crash"), qPrintable(message));
        QVERIFY(rec.latencyNs.empty());
        auto st = store::RunStore::open(storePath());
        QVERIFY(st);
        auto stored = (*st)->getRun(rec.id);
        QVERIFY(stored);
        QVERIFY(stored->status == store::RunStatus::Failed);
        QCOMPARE(stored->message, rec.message);
        QVERIFY(stored->latency.empty());
    }

    void cliJsonTraceCsvTestData() {
        const QString out = m_tmp.path() + "/cli";
        QVERIFY(QDir().mkpath(out));
        QProcess cli;
        cli.start(test::cliPath(), {"bench",        bundledDigits(),
                                    "--board",      "sim-k230",
                                    "--lib",        "portable",
                                    "--iterations", "3",
                                    "--warmup",     "0",
                                    "--layers",     "--accuracy-layers",
                                    "--store",      storePath(),
                                    "--work-dir",   workDir(),
                                    "--trace",      out + "/trace.json",
                                    "--csv",        out + "/layers.csv",
                                    "--test-data",  out + "/data",
                                    "--json"});
        QVERIFY(cli.waitForFinished(1200000));
        const QByteArray err = cli.readAllStandardError();
        QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0, err.constData());
        QJsonParseError pe;
        const QJsonObject j = QJsonDocument::fromJson(cli.readAllStandardOutput(), &pe).object();
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));

        QVERIFY(j.value("run_id").toInteger() > 0);
        const QJsonObject lat = j.value("latency").toObject();
        for (const char* key : {"min_ns", "median_ns", "mean_ns", "p90_ns", "stdev_ns"})
            QVERIFY2(lat.value(key).isDouble(), key);
        QVERIFY(lat.value("min_ns").toDouble() > 0);
        QVERIFY(lat.value("min_ns").toDouble() <= lat.value("median_ns").toDouble());
        QVERIFY(lat.value("median_ns").toDouble() <= lat.value("p90_ns").toDouble());
        QCOMPARE(lat.value("ci95_ns").toArray().size(), 2);
        const QJsonObject acc = j.value("accuracy").toObject();
        const QJsonArray outputs = acc.value("outputs").toArray(), layerAcc = acc.value("layers").toArray();
        QVERIFY(!outputs.isEmpty() && !layerAcc.isEmpty());
        for (const QJsonArray& list : {outputs, layerAcc})
            for (const QJsonValue& v : list) {
                const QJsonObject a = v.toObject();
                QVERIFY(!a.value("name").toString().isEmpty());
                for (const char* key : {"max_abs", "max_rel", "cosine", "snr_db"})
                    QVERIFY2(a.value(key).isDouble(), key);
            }
        for (const QJsonValue& v : outputs) {
            QVERIFY(v.toObject().value("max_rel").toDouble() <= 1e-4);
            QVERIFY(v.toObject().value("cosine").toDouble() >= 0.99999);
        }
        const QJsonArray layers = j.value("layers").toArray();
        QVERIFY(!layers.isEmpty());
        for (const QJsonValue& v : layers) QVERIFY(v.toObject().value("median_ns").isDouble());

        // The run is in the store under run_id.
        auto st = store::RunStore::open(storePath());
        QVERIFY(st);
        auto stored = (*st)->getRun(j.value("run_id").toInteger());
        QVERIFY(stored && stored->status == store::RunStatus::Ok);
        QCOMPARE(stored->fingerprint.boardId, std::string("sim-k230"));

        // Chrome trace: valid JSON with one complete event per layer plus the inference.
        QFile trace(out + "/trace.json");
        QVERIFY(trace.open(QIODevice::ReadOnly));
        const QJsonDocument traceDoc = QJsonDocument::fromJson(trace.readAll(), &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        const QJsonArray events = traceDoc.object().value("traceEvents").toArray();
        QVERIFY(events.size() > layers.size());

        QFile csv(out + "/layers.csv");
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = csv.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), layers.size() + 1);
        QVERIFY2(rows[0].contains("node") && rows[0].contains("ns"), rows[0].constData());

        // The ONNX test-data bundle is accepted by the host reference.
        const QString set = out + "/data/test_data_set_0";
        QVERIFY(QFile::exists(set + "/input_0.pb") && QFile::exists(set + "/output_0.pb"));
        QProcess run;
        run.start(test::cliPath(), {"run", bundledDigits(), "--expect", set});
        QVERIFY(run.waitForFinished(300000));
        QVERIFY2(run.exitStatus() == QProcess::NormalExit && run.exitCode() == 0,
                 run.readAllStandardError().constData());
    }

    void cleanupTestCase() { m_sshd.stop(); }
};

QTEST_GUILESS_MAIN(TestBenchPipeline)
#include "tst_bench_pipeline.moc"

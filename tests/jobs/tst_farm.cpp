// Boards in a farm (issue 35) against a real LAVA instance started once for the suite
// (tests/support/lava_fixture: PostgreSQL, lava-server, the scheduler, one lava-worker and two
// `ssh` devices, each a local sshd): a benchmark that runs as a LAVA job and is stored with the
// job and device, queueing when every device is busy, cancel while queued and while running, a
// device marked bad mid-run, a wrong token; plus the board file's "farm" object. The farm
// board is this computer (x86_64), so the export builds natively. Skipped with the reason when
// the LAVA packages are not installed.
#include "deploy/lava_client.h"
#include "deploy/lava_transport.h"
#include "jobs/bench_pipeline.h"
#include "jobs/sweep.h"
#include "store/run_store.h"
#include "support/lava_fixture.h"
#include "support/test_paths.h"
#include "targets/board.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QProcess>
#include <QRegularExpression>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <thread>

using namespace embark;

namespace {

QJsonObject farmBoard(const QString& id, const QString& url) {
    return QJsonObject{{"id", id},
                       {"name", "farm test board"},
                       {"arch", "x86_64"},
                       {"cflags", QJsonArray{}},
                       {"cores", 1},
                       {"memory_bytes", 1073741824.0},
                       {"farm", QJsonObject{{"lava", url}, {"device_type", "ssh"}}}};
}

QString messageOf(const Error& e) { return QString::fromStdString(e.message); }

// One command on the farm through a LavaTransport on its own thread, its status lines kept.
struct FarmCommand {
    std::atomic_bool cancel{false};
    std::atomic_bool done{false};
    std::optional<Expected<deploy::ExecResult>> result;
    QMutex mutex;
    QStringList status;
    qint64 jobId = 0;
    QString device;
    std::thread thread;

    FarmCommand(const targets::Board& board, const QStringList& argv) {
        thread = std::thread([this, board, argv] {
            deploy::LavaTransport t(board);
            t.setPollIntervalMs(200);
            deploy::ExecRequest req;
            req.argv = argv;
            req.timeout = std::chrono::seconds(300);
            req.cancel = &cancel;
            req.onStatus = [this](const QString& line) {
                QMutexLocker lock(&mutex);
                status << line;
                static const QRegularExpression submitted("LAVA job (\\d+) submitted");
                static const QRegularExpression running("running on device '([^']+)'");
                if (auto m = submitted.match(line); m.hasMatch()) jobId = m.captured(1).toLongLong();
                if (auto m = running.match(line); m.hasMatch()) device = m.captured(1);
            };
            auto dir = t.makeRunDir("farm-test");
            auto r = dir ? t.exec(req) : Expected<deploy::ExecResult>(dir.error());
            {
                QMutexLocker lock(&mutex);
                result = std::move(r);
            }
            done = true;
        });
    }
    ~FarmCommand() {
        cancel = true;
        if (thread.joinable()) thread.join();
        test::LavaFixture::removeJobLeftovers(jobId);
    }
    bool sawStatus(const QString& part) {
        QMutexLocker lock(&mutex);
        for (const QString& s : status)
            if (s.contains(part)) return true;
        return false;
    }
    QString runningOn() {
        QMutexLocker lock(&mutex);
        return device;
    }
    qint64 job() {
        QMutexLocker lock(&mutex);
        return jobId;
    }
    bool waitDone(int ms) {
        QElapsedTimer t;
        t.start();
        while (!done && t.elapsed() < ms) QThread::msleep(50);
        if (done && thread.joinable()) thread.join();
        return done;
    }
};

} // namespace

class TestFarm : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    test::LavaFixture m_lava;
    bool m_up = false;
    QString m_why;
    std::optional<targets::Board> m_board;

    QString releaseFile(const QString& name) const { return m_tmp.path() + "/release-" + name; }
    // A command that holds its device until the test creates its release file.
    QStringList holder(const QString& name) const {
        return {"sh", "-c", "while [ ! -f " + releaseFile(name) + " ]; do sleep 0.2; done; echo released"};
    }
    bool release(const QString& name) const {
        QFile f(releaseFile(name));
        return f.open(QIODevice::WriteOnly);
    }
    static bool waitFor(const std::function<bool()>& condition, int ms) {
        QElapsedTimer t;
        t.start();
        while (!condition()) {
            if (t.elapsed() > ms) return false;
            QThread::msleep(100);
        }
        return true;
    }
    deploy::LavaClient client() const { return deploy::LavaClient(QUrl(m_lava.url()), m_lava.token()); }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QVERIFY(QDir().mkpath(m_tmp.path() + "/config/boards"));
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());
        qunsetenv("EMBARK_LAVA_TOKEN");
        if (QSysInfo::currentCpuArchitecture() != "x86_64") {
            m_why = "the farm board of these tests is an x86_64 host";
            return;
        }
        bool skipped = false;
        m_up = m_lava.start(2, &m_why, &skipped);
        if (!m_up && !skipped) QFAIL(qPrintable("the LAVA fixture failed: " + m_why));
        if (!m_up) return;
        qInfo("LAVA started in %lld ms", m_lava.startMs());
        const QJsonObject json = farmBoard("farm-host", m_lava.url());
        QFile f(m_tmp.path() + "/config/boards/farm-host.json");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(json).toJson());
        f.close();
        auto board = targets::parseBoard(QJsonDocument(json).toJson(), "farm-host.json");
        QVERIFY2(board, board ? "" : board.error().message.c_str());
        m_board = *board;
        QVERIFY(deploy::saveLavaToken(QUrl(m_lava.url()), m_lava.token()));
    }

    // The board file's "farm" object, no LAVA needed.
    void boardFile_data() {
        QTest::addColumn<QByteArray>("farm");
        QTest::addColumn<QString>("error");
        QTest::newRow("ok") << QByteArray(
                                   "{\"lava\": \"http://lab:8000/\", \"device_type\": \"k1\", \"tags\": [\"a\"]}")
                            << QString();
        QTest::newRow("no device type") << QByteArray("{\"lava\": \"http://lab:8000\"}")
                                        << "b.json: field 'farm.device_type' is missing";
        QTest::newRow("bad url") << QByteArray("{\"lava\": \"lab\", \"device_type\": \"k1\"}")
                                 << "b.json: field 'farm.lava' must be the LAVA server's http";
        QTest::newRow("token in file") << QByteArray(
                                              "{\"lava\": \"http://lab\", \"device_type\": \"k1\", \"token\": \"x\"}")
                                       << "b.json: field 'farm.token' must not be in a board file";
        QTest::newRow("tags mistyped") << QByteArray(
                                              "{\"lava\": \"http://lab\", \"device_type\": \"k1\", \"tags\": \"a\"}")
                                       << "b.json: field 'farm.tags' must be an array of strings";
        QTest::newRow("share half") << QByteArray(
                                           "{\"lava\": \"http://lab\", \"device_type\": \"k1\", \"share_dir\": \"/x\"}")
                                    << "b.json: field 'farm.share_url' is missing";
        QTest::newRow("not an object") << QByteArray("\"http://lab\"") << "b.json: field 'farm' must be an object";
    }
    void boardFile() {
        QFETCH(QByteArray, farm);
        QFETCH(QString, error);
        const QByteArray json =
            "{\"id\": \"b\", \"name\": \"B\", \"arch\": \"riscv64\", \"cores\": 1, \"memory_bytes\": 1000, \"farm\": " +
            farm + "}";
        auto b = targets::parseBoard(json, "b.json");
        if (error.isEmpty()) {
            QVERIFY2(b, b ? "" : b.error().message.c_str());
            QVERIFY(b->isFarm());
            QCOMPARE(b->farm->lava, QString("http://lab:8000"));
            QCOMPARE(b->farm->tags, QStringList{"a"});
            // Written back and read again, the same.
            auto again = targets::parseBoard(QJsonDocument(b->toJson()).toJson(), "b.json");
            QVERIFY(again && again->farm && again->farm->deviceType == "k1");
            QVERIFY(!QJsonDocument(b->toJson()).toJson().contains("runner"));
            return;
        }
        QVERIFY(!b);
        QVERIFY2(messageOf(b.error()).startsWith(error), qPrintable(messageOf(b.error())));
        // "runner" and "farm" exclude each other.
        auto both = targets::parseBoard(
            "{\"id\": \"b\", \"name\": \"B\", \"arch\": \"riscv64\", \"cores\": 1, \"memory_bytes\": 1000, \"runner\": "
            "{\"kind\": \"local\"}, \"farm\": {\"lava\": \"http://lab\", \"device_type\": \"k1\"}}",
            "b.json");
        QVERIFY(!both);
        QVERIFY(messageOf(both.error()).contains("exclude each other"));
    }

    void wrongToken() {
        if (!m_up) QSKIP(qPrintable(m_why));
        deploy::LavaClient bad(QUrl(m_lava.url()), "not-a-valid-token");
        auto devices = bad.devices("ssh");
        QVERIFY(!devices);
        QVERIFY2(messageOf(devices.error()).contains("refused the token"), qPrintable(messageOf(devices.error())));
        QVERIFY(!messageOf(devices.error()).contains("not-a-valid-token")); // never echoed
        // The benchmark stops at deploy with the same message, before anything is submitted.
        qputenv("EMBARK_LAVA_TOKEN", "not-a-valid-token");
        jobs::BenchOptions o;
        o.modelPath = test::sourceDir() + "/resources/models/digits_cnn.onnx";
        o.boardId = "farm-host";
        o.workDir = m_tmp.path() + "/work";
        o.storePath = "-";
        auto r = jobs::runBenchmark(o);
        qunsetenv("EMBARK_LAVA_TOKEN");
        const QString message = r ? QString::fromStdString(r->record.message) : messageOf(r.error());
        QVERIFY2(message.contains("refused the token") && message.contains("farm-host"), qPrintable(message));
    }

    void benchmarkRunsAndIsStored() {
        if (!m_up) QSKIP(qPrintable(m_why));
        jobs::BenchOptions o;
        o.modelPath = test::sourceDir() + "/resources/models/digits_cnn.onnx";
        o.boardId = "farm-host";
        o.iterations = 3;
        o.warmup = 0;
        o.workDir = m_tmp.path() + "/work";
        o.storePath = m_tmp.path() + "/runs.db";
        QStringList log;
        o.log = [&](const QString& line) { log << line; };
        auto r = jobs::runBenchmark(o);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        const qint64 job = static_cast<qint64>(r->record.extra.value("lava_job").toDouble());
        test::LavaFixture::removeJobLeftovers(job);
        QVERIFY2(r->record.status == store::RunStatus::Ok,
                 qPrintable(QString::fromStdString(r->record.message) + "\n" + log.join('\n')));
        QCOMPARE(r->record.latencyNs.size(), size_t(3));
        QVERIFY(!r->record.outputAccuracy.empty());
        for (const auto& a : r->record.outputAccuracy) QVERIFY(a.maxRel <= 1e-4);
        QVERIFY(job > 0);
        QVERIFY(m_lava.deviceNames().contains(r->record.extra.value("lava_device").toString()));
        QVERIFY(r->record.extra.value("lava_url").toString().endsWith(QStringLiteral("/scheduler/job/%1").arg(job)));
        QVERIFY(log.join('\n').contains(QStringLiteral("LAVA job %1 submitted").arg(job)));
        // Stored like any run, with the job and device.
        auto st = store::RunStore::open(o.storePath);
        QVERIFY(st);
        auto runs = (*st)->listRuns();
        QVERIFY(runs && runs->size() == 1);
        auto stored = (*st)->getRun(runs->front().id);
        QVERIFY(stored);
        QCOMPARE(static_cast<qint64>(stored->extra.value("lava_job").toDouble()), job);
        auto lavaJob = client().job(job);
        QVERIFY(lavaJob && lavaJob->finished() && lavaJob->health == "Complete");
    }

    // Both devices busy: a third job waits in LAVA's queue; cancelled there it never runs; a
    // fourth runs once a device is free; a running one is cancelled on its device.
    void queueAndCancel() {
        if (!m_up) QSKIP(qPrintable(m_why));
        FarmCommand a(*m_board, holder("a")), b(*m_board, holder("b"));
        QVERIFY2(waitFor([&] { return !a.runningOn().isEmpty() && !b.runningOn().isEmpty(); }, 120000),
                 "two holder jobs did not both start");
        QVERIFY(a.runningOn() != b.runningOn());

        FarmCommand queued(*m_board, {"echo", "never"});
        QVERIFY(waitFor([&] { return queued.sawStatus("waiting for a free 'ssh' device"); }, 60000));
        QThread::msleep(1500); // several scheduler passes with both devices busy
        auto state = client().job(queued.job());
        QVERIFY(state && state->queued());
        queued.cancel = true;
        QVERIFY(queued.waitDone(60000));
        QVERIFY2(queued.result && *queued.result, "cancel while queued returned an error");
        QCOMPARE(int((*queued.result)->outcome), int(deploy::ExecResult::Outcome::Cancelled));
        state = client().job(queued.job());
        QVERIFY(state && state->finished() && state->health == "Canceled" && state->device.isEmpty());

        FarmCommand next(*m_board, {"sh", "-c", "mkdir -p out && echo 42 > out/answer.txt && echo done"});
        QVERIFY(waitFor([&] { return next.sawStatus("waiting for a free"); }, 60000));
        QVERIFY(release("a"));
        QVERIFY(a.waitDone(120000));
        QVERIFY(a.result && *a.result && (*a.result)->succeeded());
        QCOMPARE((*a.result)->stdoutData, QByteArray("released\n"));
        QVERIFY(next.waitDone(120000));
        QVERIFY(next.result && *next.result && (*next.result)->succeeded());
        QCOMPARE((*next.result)->stdoutData, QByteArray("done\n"));
        QCOMPARE(next.runningOn(), a.runningOn()); // the device a freed

        // b still holds its device: cancelled while running.
        b.cancel = true;
        QVERIFY(b.waitDone(120000));
        QVERIFY(b.result && *b.result);
        QCOMPARE(int((*b.result)->outcome), int(deploy::ExecResult::Outcome::Cancelled));
        state = client().job(b.job());
        QVERIFY(state && state->finished() && state->health == "Canceled");
    }

    void deviceBadMidRun() {
        if (!m_up) QSKIP(qPrintable(m_why));
        FarmCommand c(*m_board, holder("never"));
        QVERIFY(waitFor([&] { return !c.runningOn().isEmpty(); }, 120000));
        const QString device = c.runningOn();
        QString error;
        QVERIFY2(m_lava.setDeviceHealth(device, "Bad", &error), qPrintable(error));
        QVERIFY(c.waitDone(120000));
        QVERIFY(c.result && !*c.result);
        const QString message = messageOf(c.result->error());
        QVERIFY2(message.contains("'" + device + "' went Bad") && message.contains(QString::number(c.job())),
                 qPrintable(message));
        // Nothing left running: the job is over and the device's holder loop gone.
        auto state = client().job(c.job());
        QVERIFY(state && state->finished());
        QVERIFY(m_lava.setDeviceHealth(device, "Good", &error));
    }

    // The model x board x library matrix: the host board here and, when LAVA is up, the farm
    // board; every cell a stored run with the sweep's id.
    void sweep() {
        jobs::SweepOptions o;
        o.models = {test::sourceDir() + "/resources/models/digits_cnn.onnx"};
        o.boardPatterns = {"host"};
        if (m_up) o.boardPatterns << "farm-*";
        o.libraries = {"portable"};
        o.base.iterations = 2;
        o.base.warmup = 0;
        o.base.workDir = m_tmp.path() + "/work";
        o.base.storePath = m_tmp.path() + "/sweep.db";
        QStringList progress;
        o.cellChanged = [&](const jobs::SweepCell& c, int, int) {
            progress << c.boardId + " " + jobs::sweepCellStateName(c.state);
        };
        auto r = jobs::runSweep(o);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(int(r->cells.size()), m_up ? 2 : 1);
        auto st = store::RunStore::open(o.base.storePath);
        QVERIFY(st);
        for (const jobs::SweepCell& c : r->cells) {
            QVERIFY2(c.state == jobs::SweepCell::State::Ok, c.message.c_str());
            QVERIFY(c.bestOnBoard && c.medianNs > 0 && c.maxRel >= 0 && c.maxRel <= 1e-4);
            QVERIFY(progress.contains(c.boardId + " running") && progress.contains(c.boardId + " ok"));
            auto run = (*st)->getRun(c.runId);
            QVERIFY(run);
            QCOMPARE(run->extra.value("sweep").toString(), r->sweepId);
            if (c.boardId == "farm-host") {
                QVERIFY(m_lava.deviceNames().contains(c.device));
                test::LavaFixture::removeJobLeftovers(static_cast<qint64>(run->extra.value("lava_job").toDouble()));
            }
        }
        // A pattern that matches nothing names it and the known boards.
        o.boardPatterns = {"no-such-*"};
        auto bad = jobs::runSweep(o);
        QVERIFY(!bad);
        QVERIFY2(messageOf(bad.error()).contains("--boards 'no-such-*' matches no board (known: "),
                 qPrintable(messageOf(bad.error())));
    }

    // embark-cli farm token (from standard input, into a private settings file) and farm devices.
    void cli() {
        if (!m_up) QSKIP(qPrintable(m_why));
        QTemporaryDir config;
        QProcess token;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("EMBARK_CONFIG_DIR", config.path());
        token.setProcessEnvironment(env);
        token.start(test::cliPath(), {"farm", "token", m_lava.url() + "/"});
        token.write(m_lava.token() + "\n");
        token.closeWriteChannel();
        QVERIFY(token.waitForFinished(60000));
        QCOMPARE(token.exitCode(), 0);
        const QString ini = config.path() + "/farm.ini";
        QCOMPARE(QFile::permissions(ini) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                 QFileDevice::Permissions());
        qputenv("EMBARK_CONFIG_DIR", config.path().toUtf8());
        QCOMPARE(deploy::lavaToken(QUrl(m_lava.url())), m_lava.token()); // the URL without its slash
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());

        QProcess devices;
        devices.start(test::cliPath(), {"farm", "devices", "farm-host", "--json"});
        QVERIFY(devices.waitForFinished(60000));
        QVERIFY2(devices.exitCode() == 0, devices.readAllStandardError().constData());
        const QJsonObject o = QJsonDocument::fromJson(devices.readAllStandardOutput()).object();
        const QJsonArray rows = o.value("devices").toArray();
        QCOMPARE(rows.size(), 2);
        for (const QJsonValue& v : rows) {
            QVERIFY(m_lava.deviceNames().contains(v.toObject().value("device").toString()));
            QCOMPARE(v.toObject().value("health").toString(), QString("Good"));
        }
    }

    void cleanupTestCase() { m_lava.stop(); }
};

QTEST_GUILESS_MAIN(TestFarm)
#include "tst_farm.moc"

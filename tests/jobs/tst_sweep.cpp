// A sweep without a farm (issue 35): digits_cnn on the host board and on a twin of it (another
// board file of the same target), float and int8 (quantized with the model's own test data).
// Each (model, target) is built once and run on both boards; every cell is a stored run; the
// store gives the sweep back (`runs compare --sweep`), as a table, JSON and a chart file.
#include "jobs/sweep.h"
#include "store/run_store.h"
#include "support/test_paths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

class TestSweep : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::optional<jobs::SweepResult> m_sweep; // the sweep every test reads
    QString m_db;

    QString model() const { return test::sourceDir() + "/resources/models/digits_cnn.onnx"; }

    // embark-cli ARGS: exit code, stdout and stderr.
    static int cli(const QStringList& args, QByteArray* out, QByteArray* err) {
        QProcess p;
        p.start(test::cliPath(), args);
        if (!p.waitForFinished(120000)) return -1;
        *out = p.readAllStandardOutput();
        *err = p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QVERIFY(QDir().mkpath(m_tmp.path() + "/config/boards"));
        qputenv("EMBARK_CONFIG_DIR", (m_tmp.path() + "/config").toUtf8());
        // A twin of the host board: the same target under another id (as two SSH boards of
        // one kind, or a simulated board and a farm device type of the same CPU).
        QFile host(test::sourceDir() + "/boards/host.json");
        QVERIFY(host.open(QIODevice::ReadOnly));
        QJsonObject twin = QJsonDocument::fromJson(host.readAll()).object();
        twin["id"] = "host-twin";
        twin["name"] = "This computer, again";
        QFile f(m_tmp.path() + "/config/boards/host-twin.json");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(twin).toJson());
        f.close();

        jobs::SweepOptions o;
        o.models = {model()};
        o.boardPatterns = {"host", "host-twin"};
        o.libraries = {"portable"};
        o.quantized = true;
        o.base.iterations = 2;
        o.base.warmup = 0;
        o.base.workDir = m_tmp.path() + "/work";
        o.base.storePath = m_db = m_tmp.path() + "/runs.db";
        QStringList log;
        o.base.log = [&](const QString& line) { log << line; };
        auto r = jobs::runSweep(o);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        for (const jobs::SweepCell& c : r->cells)
            QVERIFY2(c.state == jobs::SweepCell::State::Ok,
                     qPrintable(QString::fromStdString(c.message) + "\n" + log.join('\n')));
        m_sweep = *r;
    }

    // Four cells (two boards x float/int8), two builds: each export made once for the target
    // and run on both boards.
    void buildsOncePerTarget() {
        QVERIFY(m_sweep);
        const auto& cells = m_sweep->cells;
        QCOMPARE(int(cells.size()), 4);
        QCOMPARE(m_sweep->builds, 2);
        for (const bool quantized : {false, true}) {
            QStringList dirs, boards;
            for (const jobs::SweepCell& c : cells)
                if (c.quantized == quantized) {
                    dirs << c.exportDir;
                    boards << c.boardId;
                }
            QCOMPARE(boards, (QStringList{"host", "host-twin"}));
            QVERIFY(!dirs[0].isEmpty());
            QCOMPARE(dirs[1], dirs[0]);
        }
        QVERIFY(cells[0].exportDir != cells[1].exportDir); // float and int8 differ
    }

    // The int8 cells run the model quantized with its test data; all are accurate against
    // their host reference, each the best (only) library of its board and precision.
    void quantizedCells() {
        QVERIFY(m_sweep);
        QVERIFY(m_sweep->quantized.count(model()));
        const QString int8 = m_sweep->quantized.at(model());
        QVERIFY(QFileInfo(int8).isFile());
        auto st = store::RunStore::open(m_db);
        QVERIFY(st);
        for (const jobs::SweepCell& c : m_sweep->cells) {
            QVERIFY(c.bestOnBoard && c.medianNs > 0);
            QVERIFY2(c.maxRel >= 0 && c.maxRel <= 1e-4, qPrintable(QString::number(c.maxRel)));
            auto run = (*st)->getRun(c.runId);
            QVERIFY(run);
            QCOMPARE(run->extra.value("sweep").toString(), m_sweep->sweepId);
            QCOMPARE(QString::fromStdString(run->fingerprint.modelPath) == int8, c.quantized);
        }
        // Where a model has no test data, the error says where it looked and what to do.
        QVERIFY(QFile::copy(model(), m_tmp.path() + "/bare.onnx"));
        auto none = jobs::modelTestData(m_tmp.path() + "/bare.onnx");
        QVERIFY(!none);
        const QString message = QString::fromStdString(none.error().message);
        QVERIFY2(message.contains("has no test data") && message.contains("embark-cli quantize"), qPrintable(message));
    }

    // The store gives the sweep back: in process, and as `runs compare --sweep` prints it.
    void compareFromStore() {
        QVERIFY(m_sweep);
        auto st = store::RunStore::open(m_db);
        QVERIFY(st);
        auto loaded = jobs::loadSweep(**st, m_sweep->sweepId);
        QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
        QCOMPARE(loaded->cells.size(), m_sweep->cells.size());
        for (size_t i = 0; i < loaded->cells.size(); ++i) {
            const jobs::SweepCell &a = loaded->cells[i], &b = m_sweep->cells[i];
            QCOMPARE(a.runId, b.runId);
            QCOMPARE(a.model, b.model);
            QCOMPARE(a.boardId, b.boardId);
            QCOMPARE(a.quantized, b.quantized);
            QCOMPARE(a.library, b.library);
            QCOMPARE(a.bestOnBoard, b.bestOnBoard);
        }
        auto missing = jobs::loadSweep(**st, "no-such-sweep");
        QVERIFY(!missing &&
                QString::fromStdString(missing.error().message).contains("no run of sweep 'no-such-sweep'"));

        QByteArray out, err;
        QCOMPARE(cli({"runs", "compare", "--sweep", m_sweep->sweepId, "--db", m_db, "--json"}, &out, &err), 0);
        const QJsonObject json = QJsonDocument::fromJson(out).object();
        QCOMPARE(json.value("sweep").toString(), m_sweep->sweepId);
        const QJsonArray cells = json.value("cells").toArray();
        QCOMPARE(cells.size(), 4);
        int int8 = 0;
        for (const QJsonValue& v : cells) {
            QVERIFY(v.toObject().value("best").toBool());
            int8 += v.toObject().value("dtype").toString() == "int8";
        }
        QCOMPARE(int8, 2);
        QCOMPARE(cli({"runs", "compare", "--sweep", m_sweep->sweepId, "--db", m_db}, &out, &err), 0);
        QVERIFY2(out.contains("Sweep " + m_sweep->sweepId.toUtf8()) && out.contains("host-twin") &&
                     out.contains("int8"),
                 out.constData());
        QVERIFY(cli({"runs", "compare", "--sweep", "no-such-sweep", "--db", m_db}, &out, &err) != 0);
        QVERIFY2(err.contains("no run of sweep 'no-such-sweep'"), err.constData());
    }

    // The chart, drawn offscreen, in each format the other charts export.
    void chartFiles_data() {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << "png" << QByteArray("\x89PNG");
        QTest::newRow("svg") << "svg" << QByteArray("<?xml");
        QTest::newRow("pdf") << "pdf" << QByteArray("%PDF");
    }
    void chartFiles() {
        QVERIFY(m_sweep);
        QFETCH(QString, suffix);
        QFETCH(QByteArray, magic);
        const QString path = m_tmp.path() + "/sweep." + suffix;
        QByteArray out, err;
        QCOMPARE(cli({"runs", "compare", "--sweep", m_sweep->sweepId, "--db", m_db, "--chart", path}, &out, &err), 0);
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), err.constData());
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.startsWith(magic));
        QVERIFY(bytes.size() > 1000);
        if (suffix == "svg") QVERIFY(bytes.contains("host-twin")); // the cells' labels as text
    }

    void chartBadSuffix() {
        QByteArray out, err;
        QCOMPARE(cli({"runs", "compare", "--sweep", "x", "--db", m_db, "--chart", m_tmp.path() + "/c.gif"}, &out, &err),
                 2);
        QVERIFY2(err.contains("name the file .png, .svg or .pdf"), err.constData());
        QVERIFY(cli({"runs", "compare", "1", "2", "--db", m_db, "--chart", m_tmp.path() + "/c.png"}, &out, &err) != 0);
        QVERIFY2(err.contains("--chart draws a sweep: give --sweep ID"), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"

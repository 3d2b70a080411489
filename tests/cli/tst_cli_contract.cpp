// embark-cli as one contract (issue 34), through the real binary as docs/cli.md documents it:
// exec runs a cross-built export on its board, one error form with the documented statuses,
// every numeric value validated, reading commands never create a store, tables that never cut
// names, sim-* times marked as emulated, and one JSON dialect checked against the schema that
// docs/cli.md itself holds.
#include "support/cli_process.h"
#include "support/sshd_fixture.h"
#include "support/test_paths.h"

#include "store/run_store.h"
#include "xnnpack/xnnpack_builder.h"
#include "xnnpack/xnnpack_resolve.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <onnx/onnx_pb.h>

#include <fstream>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace embark;
using namespace embark::test;

namespace {

QString digits() { return sourceDir() + "/resources/models/digits_cnn.onnx"; }
QString digitsSet(int k) {
    return sourceDir() + QStringLiteral("/resources/models/digits_cnn/test_data_set_%1").arg(k);
}

QJsonObject jsonObject(const QByteArray& text) { return QJsonDocument::fromJson(text).object(); }

// The schema block of docs/cli.md ("JSON" section): one line per output, `NAME: key:type ...`,
// with types s (string), n (number), b (bool), a (array), o (object), ? suffix for nullable.
QMap<QString, QStringList> documentedSchema() {
    QFile f(sourceDir() + "/docs/cli.md");
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QString doc = QString::fromUtf8(f.readAll());
    const qsizetype start = doc.indexOf("<!-- json-schema -->");
    const qsizetype end = doc.indexOf("<!-- /json-schema -->");
    QMap<QString, QStringList> out;
    if (start < 0 || end < start) return out;
    for (const QString& line : doc.mid(start, end - start).split('\n')) {
        const QRegularExpressionMatch m = QRegularExpression("^([a-z][a-z .-]*[a-z]):\\s+(.*)$").match(line.trimmed());
        if (m.hasMatch()) out[m.captured(1)] = m.captured(2).split(' ', Qt::SkipEmptyParts);
    }
    return out;
}

// Empty when `o` has every key of `spec` with its documented type and the schema version.
QString checkAgainst(const QJsonObject& o, const QStringList& spec) {
    if (o.value("schema").toString() != "embark-cli/1") return "no \"schema\": \"embark-cli/1\"";
    for (const QString& field : spec) {
        const QString key = field.section(':', 0, 0);
        QString type = field.section(':', 1);
        const bool nullable = type.endsWith('?');
        if (nullable) type.chop(1);
        if (!o.contains(key)) return "missing \"" + key + "\"";
        const QJsonValue v = o.value(key);
        if (nullable && v.isNull()) continue;
        const bool ok = type == "s"   ? v.isString()
                        : type == "n" ? v.isDouble()
                        : type == "b" ? v.isBool()
                        : type == "a" ? v.isArray()
                        : type == "o" ? v.isObject()
                                      : false;
        if (!ok) return "\"" + key + "\" is not of type " + type;
    }
    return {};
}

// A board file in a user config folder (EMBARK_CONFIG_DIR) for the commands this test runs.
bool writeBoard(const QString& configDir, const QJsonObject& board) {
    QDir().mkpath(configDir + "/boards");
    QFile f(configDir + "/boards/" + board["id"].toString() + ".json");
    return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(board).toJson()) > 0;
}

// A TCP port on 127.0.0.1 nothing listens on (bound once, then released).
int closedPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 1;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0) ::close(fd);
    return port;
}

} // namespace

class TestCliContract : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_simExport; // digits_cnn exported for sim-k230 with --threads-max 1 and built, or empty
    QString m_simSkip;   // why there is none

    QString configDir() const { return m_tmp.filePath("config"); }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        qputenv("EMBARK_CONFIG_DIR", configDir().toUtf8());
        QVERIFY(writeBoard(
            configDir(),
            QJsonObject{{"id", "unreachable-k230"},
                        {"name", "a K230 nothing answers for"},
                        {"arch", "riscv64"},
                        {"cores", 1},
                        {"memory_bytes", 502083584},
                        {"runner", QJsonObject{{"kind", "ssh"}, {"host", "127.0.0.1"}, {"port", closedPort()}}}}));
    }

    // --- 1 and 3: exec runs a cross-built export on the board export.json names ----------
    void execRunsACrossBuiltExportOnItsSimulatedBoard() {
        if (QStandardPaths::findExecutable("qemu-riscv64-static").isEmpty())
            QSKIP("qemu-riscv64-static is not installed (Debian package qemu-user-static)");
        const QString dir = m_tmp.filePath("digits-sim-k230");
        const CliResult exported =
            runCli({"export", digits(), "--board", "sim-k230", "--lib", "portable", "--threads-max", "1", "-o", dir});
        QVERIFY2(exported.code == 0, exported.err.constData());
        const QJsonObject manifest = [&] {
            QFile f(dir + "/export.json");
            return f.open(QIODevice::ReadOnly) ? jsonObject(f.readAll()) : QJsonObject();
        }();
        QCOMPARE(manifest["board"].toString(), QString("sim-k230"));
        // One model name everywhere: the file's, as run_export's meta line and the run store say.
        QCOMPARE(manifest["model"].toObject()["name"].toString(), QString("digits_cnn"));
        const CliResult built = runCli({"build", dir, "--quiet"});
        if (built.code == 5 && built.err.contains("install")) {
            m_simSkip = "no riscv64 toolchain: " + QString::fromUtf8(built.err);
            QSKIP(qPrintable(m_simSkip));
        }
        QVERIFY2(built.code == 0, built.err.constData());
        m_simExport = dir;

        const CliResult ran = runCli({"exec", dir, "--", "--check", "1e-4", "--iterations", "1", "--warmup", "0"});
        QVERIFY2(ran.code == 0, (ran.err + ran.out).constData());
        const QJsonObject meta = jsonObject(ran.out.left(ran.out.indexOf('\n')));
        QCOMPARE(meta["type"].toString(), QString("meta"));
        QCOMPARE(meta["arch"].toString(), QString("riscv64"));
        QCOMPARE(meta["model"].toString(), QString("digits_cnn"));
        QVERIFY2(ran.out.contains("\"type\":\"check\"") && ran.out.contains("\"ok\":true"), ran.out.constData());

        // --threads-max 1 at export: the meta line says the 1 thread the model runs.
        const CliResult threads = runCli({"exec", dir, "--", "--threads", "4", "--iterations", "1", "--warmup", "0"});
        QVERIFY2(threads.code == 0, threads.err.constData());
        const QJsonObject meta4 = jsonObject(threads.out.left(threads.out.indexOf('\n')));
        QCOMPARE(meta4["threads"].toInt(), 1);
        QCOMPARE(meta4["threads_requested"].toInt(), 4);

        // Another board of another architecture: refused with how to run it.
        const CliResult host = runCli({"exec", dir, "--board", "host"});
        QCOMPARE(host.code, 2);
        QVERIFY2(host.err.startsWith("embark-cli: error: ") && host.err.contains("riscv64"), host.err.constData());
    }

    // --- 1: exec runs an export on the real SSH board export.json names (a local sshd) ------
    void execRunsAnExportOnItsSshBoard() {
        SshdFixture sshd;
        QString why;
        if (!sshd.start(&why)) QSKIP(qPrintable("no sshd fixture: " + why));
        const QString workdir = m_tmp.filePath("ssh-board-work");
        QVERIFY(QDir().mkpath(workdir));
        QVERIFY(writeBoard(configDir(), QJsonObject{{"id", "ssh-host"},
                                                    {"name", "this computer over SSH"},
                                                    {"arch", QSysInfo::currentCpuArchitecture() == "arm64"
                                                                 ? "aarch64"
                                                                 : QSysInfo::currentCpuArchitecture()},
                                                    {"cores", 2},
                                                    {"memory_bytes", qint64(1) << 30},
                                                    {"runner", QJsonObject{{"kind", "ssh"},
                                                                           {"host", "127.0.0.1"},
                                                                           {"port", sshd.port()},
                                                                           {"user", sshd.user()},
                                                                           {"key", sshd.clientKey()},
                                                                           {"workdir", workdir}}}}));
        const QString dir = m_tmp.filePath("digits-ssh");
        const CliResult exported = runCli({"export", digits(), "--board", "ssh-host", "--lib", "portable", "-o", dir});
        QVERIFY2(exported.code == 0, exported.err.constData());
        const CliResult built = runCli({"build", dir, "--quiet"});
        QVERIFY2(built.code == 0, built.err.constData());
        // An unknown host key is refused with how to trust it; accepted, the run happens there.
        const CliResult refused = runCli({"exec", dir, "--", "--iterations", "1"});
        QCOMPARE(refused.code, 5);
        QVERIFY2(refused.err.startsWith("embark-cli: error: ") && refused.err.contains("--accept-new-host-key"),
                 refused.err.constData());
        const CliResult ran = runCli(
            {"exec", dir, "--accept-new-host-key", "--", "--check", "1e-4", "--iterations", "1", "--warmup", "0"});
        QVERIFY2(ran.code == 0, (ran.err + ran.out).constData());
        const QJsonObject meta = jsonObject(ran.out.left(ran.out.indexOf('\n')));
        QCOMPARE(meta["type"].toString(), QString("meta"));
        QCOMPARE(meta["model"].toString(), QString("digits_cnn"));
        QVERIFY2(ran.out.contains("\"type\":\"check\"") && ran.out.contains("\"ok\":true"), ran.out.constData());
        // The run really went through the server, and left nothing in the board's folder.
        QFile log(sshd.sshdLog());
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY2(log.readAll().contains("Accepted publickey"), "sshd logged no login");
        QVERIFY2(QDir(workdir).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty(),
                 qPrintable(QDir(workdir).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).join(", ")));
    }

    // --- 6 and 11: an unreachable SSH board fails at once, on stderr ----------------------
    void unreachableBoardFailsBeforeAnythingIsBuilt() {
        QTemporaryDir work;
        const CliResult r = runCli({"bench", digits(), "--board", "unreachable-k230", "--lib", "portable", "--work-dir",
                                    work.path(), "--db", work.filePath("runs.sqlite")});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.startsWith("embark-cli: error: ") && r.err.contains("127.0.0.1"), r.err.constData());
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        QVERIFY2(!r.err.contains("export"), r.err.constData()); // no step ran
        QVERIFY(QDir(work.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());

        if (m_simExport.isEmpty()) QSKIP("no sim-k230 export (see execRunsACrossBuiltExportOnItsSimulatedBoard)");
        const CliResult ex = runCli({"exec", m_simExport, "--board", "unreachable-k230"});
        QCOMPARE(ex.code, 5);
        QVERIFY2(ex.err.startsWith("embark-cli: error: ") && ex.err.contains("127.0.0.1"), ex.err.constData());
    }

    // --- 2: per-layer accuracy against npm's ONNX Runtime is refused with the reason ------
    void ortAccuracyLayersOnTheHostIsRefused() {
        const CliResult r = runCli(
            {"bench", digits(), "--board", "host", "--runtime", "onnxruntime", "--accuracy-layers", "--db", "-"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("embark-cli: error: ") && r.err.contains("SPACEMIT_EP_DUMP_TENSORS"),
                 r.err.constData());
    }

    // --- 7: usage errors in the one error form --------------------------------------------
    void usageErrorsHaveTheErrorPrefix_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("words");
        QTest::newRow("unknown option") << QStringList{"inspect", digits(), "--bogus"} << "unknown option 'bogus'";
        QTest::newRow("tolerance") << QStringList{"run", digits(), "--expect", digitsSet(0), "--tolerance", "-1"}
                                   << "--tolerance '-1'";
        QTest::newRow("no command") << QStringList{} << "no command given";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command 'frobnicate'";
    }
    void usageErrorsHaveTheErrorPrefix() {
        QFETCH(QStringList, args);
        QFETCH(QString, words);
        const CliResult r = runCli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("embark-cli: error: ") && r.err.contains(words.toUtf8()), r.err.constData());
    }

    // --- 9: every numeric value is validated, with the accepted range ---------------------
    void numbersAreValidated_data() {
        QTest::addColumn<QStringList>("args");
        const QString dir = m_tmp.filePath("nothing");
        QTest::newRow("exec --timeout abc") << QStringList{"exec", dir, "--timeout", "abc"};
        QTest::newRow("exec --timeout 0") << QStringList{"exec", dir, "--timeout", "0"};
        QTest::newRow("build --jobs abc") << QStringList{"build", dir, "--jobs", "abc"};
        QTest::newRow("build --jobs 0") << QStringList{"build", dir, "--jobs", "0"};
        QTest::newRow("runs list --limit abc") << QStringList{"runs", "list", "--limit", "abc"};
        QTest::newRow("runs list --limit 0") << QStringList{"runs", "list", "--limit", "0"};
        QTest::newRow("bench --iterations 0") << QStringList{"bench", digits(), "--iterations", "0", "--db", "-"};
        QTest::newRow("compare --top x") << QStringList{"compare", digits(), digits(), "--top", "x"};
        QTest::newRow("plan --threads-max -1") << QStringList{"plan", digits(), "--threads-max", "-1"};
        QTest::newRow("export --threads-max abc")
            << QStringList{"export", digits(), "-o", m_tmp.filePath("tm"), "--threads-max", "abc"};
        QTest::newRow("xnnpack build --jobs -1")
            << QStringList{"xnnpack", "build", "--arch", "riscv64", "--jobs", "-1"};
    }
    void numbersAreValidated() {
        QFETCH(QStringList, args);
        const CliResult r = runCli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("embark-cli: error: --") && r.err.contains(".."), r.err.constData());
    }
    void percentileNeedsItsMethod() {
        const CliResult r = runCli(
            {"quantize", digits(), "-o", m_tmp.filePath("q.onnx"), "--calib", digitsSet(0), "--percentile", "50"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--method percentile"), r.err.constData());
        QVERIFY(!QFileInfo::exists(m_tmp.filePath("q.onnx")));
        const CliResult bad = runCli({"quantize", digits(), "-o", m_tmp.filePath("q.onnx"), "--calib", digitsSet(0),
                                      "--method", "percentile", "--percentile", "abc"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.startsWith("embark-cli: error: --percentile 'abc'") && bad.err.contains("(0, 100]"),
                 bad.err.constData());
    }

    // quantize -o into a folder that does not exist yet creates it (as export -o does); -o
    // naming a folder is refused before calibrating; compare's notes use the one prefix.
    void quantizeOutputFolders() {
        const QString out = m_tmp.filePath("fresh/sub/q.onnx");
        const CliResult r = runCli({"quantize", digits(), "-o", out, "--calib", digitsSet(0)});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFileInfo::exists(out));
        const CliResult folder = runCli({"quantize", digits(), "-o", m_tmp.filePath("fresh"), "--calib", digitsSet(0)});
        QCOMPARE(folder.code, 4);
        QVERIFY2(folder.err.startsWith("embark-cli: error: -o ") && folder.err.contains("is a folder"),
                 folder.err.constData());
        QVERIFY(!folder.err.contains("calibrating"));
        const CliResult cmp = runCli({"compare", digits(), out});
        QVERIFY2(cmp.code == 0, cmp.err.constData());
        for (const QByteArray& line : cmp.err.split('\n'))
            QVERIFY2(line.isEmpty() || line.startsWith("embark-cli: "), line.constData());
    }

    // --- 8: a folder where a file is expected; test-set folders accepted everywhere -------
    void foldersAndMissingFiles() {
        const CliResult missing =
            runCli({"run", digits(), "--expect", sourceDir() + "/resources/models/digits_cnn/test_data_set_99"});
        QCOMPARE(missing.code, 4);
        QVERIFY2(missing.err.startsWith("embark-cli: error: ") && missing.err.contains("does not exist"),
                 missing.err.constData());

        // --input takes a test_data_set_N folder, as compare --input and quantize --calib do.
        const CliResult set = runCli({"run", digits(), "--input", digitsSet(3), "--json"});
        QVERIFY2(set.code == 0, set.err.constData());
        QCOMPARE(jsonObject(set.out)["outputs"]
                     .toArray()
                     .first()
                     .toObject()["top5"]
                     .toArray()
                     .first()
                     .toObject()["index"]
                     .toInt(),
                 3);

        // A folder among several values, or named NAME=FOLDER, is not a tensor file.
        const CliResult folder = runCli({"run", digits(), "--input", "image=" + m_tmp.path()});
        QCOMPARE(folder.code, 4);
        QVERIFY2(folder.err.contains("is a folder"), folder.err.constData());
        // A tensor of another dtype or shape names the file, the input and what it needs.
        const QString wrong = digitsSet(0) + "/output_0.pb";
        const CliResult mismatch = runCli({"run", digits(), "--input", "image=" + wrong});
        QCOMPARE(mismatch.code, 4);
        QVERIFY2(mismatch.err.startsWith("embark-cli: error: --input image=" + wrong.toUtf8()) &&
                     mismatch.err.contains("float32 1x10") && mismatch.err.contains("float32 1x1x16x16"),
                 mismatch.err.constData());
        const CliResult bench =
            runCli({"bench", digits(), "--board", "host", "--input", m_tmp.filePath("none.pb"), "--db", "-"});
        QCOMPARE(bench.code, 4);
        QVERIFY2(bench.err.contains("does not exist"), bench.err.constData());
    }

    // --- 10: reading commands never create a store ----------------------------------------
    void readingCommandsNeverCreateAStore() {
        const QString db = m_tmp.filePath("no/such/dir/runs.sqlite");
        for (const QStringList& args :
             {QStringList{"runs", "list", "--db", db}, QStringList{"runs", "show", "1", "--db", db},
              QStringList{"runs", "compare", "1", "2", "--db", db}}) {
            const CliResult r = runCli(args);
            QCOMPARE(r.code, 4);
            QVERIFY2(r.err.startsWith("embark-cli: error: --db") && r.err.contains("does not exist"),
                     r.err.constData());
        }
        QVERIFY(!QFileInfo::exists(m_tmp.filePath("no")));
    }

    // bench of a model with a free input dimension: the same usage error as every command.
    void benchOfAFreeDimensionIsUsage() {
        ::onnx::ModelProto model;
        QFile f(digits());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(model.ParseFromString(f.readAll().toStdString()));
        auto* dim = model.mutable_graph()
                        ->mutable_input(0)
                        ->mutable_type()
                        ->mutable_tensor_type()
                        ->mutable_shape()
                        ->mutable_dim(0);
        dim->set_dim_param("batch");
        const QString path = m_tmp.filePath("free/batch.onnx");
        QVERIFY(QDir().mkpath(m_tmp.filePath("free")));
        {
            std::ofstream out(path.toStdString(), std::ios::binary);
            QVERIFY(model.SerializeToOstream(&out));
        }
        for (const QString& runtime : {QString("export"), QString("onnxruntime")}) {
            const CliResult r = runCli({"bench", path, "--runtime", runtime, "--db", "-"});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.startsWith("embark-cli: error: ") && r.err.contains("--shape image=1x1x16x16"),
                     r.err.constData());
        }
    }

    // --- 12: a --shape of the wrong rank is a usage error ---------------------------------
    void wrongRankShapeIsUsage() {
        const CliResult r = runCli({"inspect", digits(), "--shape", "image=1x1x16"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("rank 3") && r.err.contains("rank 4"), r.err.constData());
    }

    // --- 5 and 15: emulated times, and tables that size to their content -----------------
    // Layers of a small model take well under a microsecond; their times read apart.
    void subMicrosecondTimesReadApart() {
        const QString db = m_tmp.filePath("small.sqlite");
        {
            auto store = store::RunStore::open(db);
            QVERIFY(store);
            store::RunRecord r;
            r.fingerprint.modelPath = "/models/tiny.onnx";
            r.fingerprint.boardId = "host";
            r.fingerprint.kernelLibrary = "portable";
            r.fingerprint.date = QDateTime::currentDateTimeUtc();
            r.status = store::RunStatus::Ok;
            for (int k = 0; k < 5; ++k) r.latencyNs.push_back(1500 + k * 100);
            r.layers = {{"ln", "portable", 412.0}, {"softmax", "portable", 230.0}};
            QVERIFY((*store)->addRun(r));
        }
        const CliResult show = runCli({"runs", "show", "1", "--db", db});
        QCOMPARE(show.code, 0);
        QVERIFY2(show.out.contains("0.000412") && show.out.contains("0.000230") && show.out.contains("median 0.00170"),
                 show.out.constData());
    }

    // runs report -o into a folder that does not exist yet creates it, as export -o does.
    void reportIntoAFreshFolder() {
        const QString db = m_tmp.filePath("report.sqlite");
        {
            auto store = store::RunStore::open(db);
            QVERIFY(store);
            store::RunRecord r;
            r.fingerprint.modelPath = "/models/tiny.onnx";
            r.fingerprint.boardId = "host";
            r.fingerprint.kernelLibrary = "portable";
            r.fingerprint.date = QDateTime::currentDateTimeUtc();
            r.status = store::RunStatus::Ok;
            r.latencyNs = {1000, 1100, 1200};
            QVERIFY((*store)->addRun(r));
        }
        const QString out = m_tmp.filePath("reports/new/run1.html");
        const CliResult r = runCli({"runs", "report", "1", "-o", out, "--db", db});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFileInfo(out).size() > 0);
    }

    void storedRunsReadWithoutAmbiguity() {
        const QString db = m_tmp.filePath("tables.sqlite");
        {
            auto store = store::RunStore::open(db);
            QVERIFY(store);
            for (int i = 0; i < 2; ++i) {
                store::RunRecord r;
                r.fingerprint.modelPath = "/models/digits_cnn.onnx";
                r.fingerprint.boardId = "sim-k230";
                r.fingerprint.kernelLibrary = i == 0 ? "portable" : "onnxruntime";
                r.fingerprint.date = QDateTime::currentDateTimeUtc();
                r.status = i == 0 ? store::RunStatus::Cancelled : store::RunStatus::Ok;
                for (int k = 0; k < 20; ++k) r.latencyNs.push_back((i == 0 ? 1000000 : 2000000) + k * 1000);
                // Two names that agree in their first 40 characters.
                r.layers = {{"/features/features.0/block/conv_depthwise/Conv_a", "portable", 1000.0},
                            {"/features/features.0/block/conv_depthwise/Conv_b", "portable", 2000.0}};
                QVERIFY((*store)->addRun(r));
            }
        }
        const CliResult list = runCli({"runs", "list", "--db", db});
        QCOMPARE(list.code, 0);
        QVERIFY2(!list.out.contains("cancelledsim") && list.out.contains("cancelled  sim-k230"), list.out.constData());
        const QList<QByteArray> lines = list.out.split('\n');
        QVERIFY(lines.size() >= 3);
        // Both rows put their model in the same column, whatever the library's length.
        QCOMPARE(lines[1].indexOf("/models"), lines[2].indexOf("/models"));

        const CliResult show = runCli({"runs", "show", "1", "--db", db});
        QVERIFY2(show.out.contains("Conv_a") && show.out.contains("Conv_b") && show.out.contains("emulation"),
                 show.out.constData());

        const CliResult compare = runCli({"runs", "compare", "1", "2", "--db", db});
        QCOMPARE(compare.code, 0);
        QVERIFY2(compare.out.contains("Conv_a") && compare.out.contains("Conv_b"), compare.out.constData());
        QVERIFY2(compare.out.contains("emulated") && !compare.out.contains("a real difference"),
                 compare.out.constData());
        const CliResult json = runCli({"runs", "compare", "1", "2", "--db", db, "--json"});
        QVERIFY(jsonObject(json.out)["emulated"].toBool());
    }

    // --- 14: one JSON dialect, checked against the schema docs/cli.md holds ---------------
    void everyJsonOutputMatchesTheDocumentedSchema() {
        const QMap<QString, QStringList> schema = documentedSchema();
        QVERIFY2(!schema.isEmpty(), "docs/cli.md has no <!-- json-schema --> block");
        QTemporaryDir work;
        const QString db = work.filePath("runs.sqlite");
        const QString saved = work.filePath("saved.json");
        const CliResult bench =
            runCli({"bench", digits(), "--board", "host", "--lib", "portable", "--iterations", "2", "--warmup", "0",
                    "--layers", "--work-dir", work.path(), "--db", db, "--json", "--save-json", saved});
        QVERIFY2(bench.code == 0, bench.err.constData());
        const QJsonObject run = jsonObject(bench.out);
        const QString id = QString::number(run["run_id"].toInteger());

        struct Case {
            const char* schema;
            QStringList args;
            const char* member;
        };
        const QList<Case> cases{
            {"inspect", {"inspect", digits(), "--json"}, nullptr},
            {"run", {"run", digits(), "--expect", digitsSet(0), "--json"}, nullptr},
            {"accuracy entry", {"run", digits(), "--expect", digitsSet(0), "--json"}, "accuracy.outputs"},
            {"plan", {"plan", digits(), "--json"}, nullptr},
            {"plan node", {"plan", digits(), "--json"}, "nodes"},
            {"compare", {"compare", digits(), digits(), "--json"}, nullptr},
            {"quantize",
             {"quantize", digits(), "-o", work.filePath("q.onnx"), "--calib", digitsSet(0), "--json"},
             nullptr},
            {"boards", {"boards", "--json"}, "[]"},
            {"run record", {"runs", "show", id, "--db", db, "--json"}, nullptr},
            {"run layer", {"runs", "show", id, "--db", db, "--json"}, "layers"},
            {"latency", {"runs", "show", id, "--db", db, "--json"}, "latency"},
            {"runs list entry", {"runs", "list", "--db", db, "--json"}, "[]"},
            {"runs compare", {"runs", "compare", id, id, "--db", db, "--json"}, nullptr},
            {"xnnpack list", {"xnnpack", "list", "--json"}, nullptr},
        };
        for (const Case& c : cases) {
            QVERIFY2(schema.contains(c.schema), c.schema);
            const CliResult r = runCli(c.args);
            QVERIFY2(r.code == 0, (c.args.join(' ') + ": " + r.err).toUtf8().constData());
            const QJsonDocument doc = QJsonDocument::fromJson(r.out);
            QList<QJsonObject> objects;
            if (!c.member)
                objects << doc.object();
            else if (QByteArray(c.member) == "[]")
                for (const QJsonValue& v : doc.array()) objects << v.toObject();
            else {
                QJsonValue v = doc.object();
                for (const QString& part : QString(c.member).split('.')) v = v.toObject().value(part);
                if (v.isArray())
                    for (const QJsonValue& e : v.toArray()) objects << withSchemaOf(e.toObject());
                else
                    objects << withSchemaOf(v.toObject());
            }
            QVERIFY2(!objects.isEmpty(), c.schema);
            for (const QJsonObject& o : objects) {
                const QString problem = checkAgainst(o, schema[c.schema]);
                QVERIFY2(problem.isEmpty(),
                         qPrintable(QString("%1 (%2): %3").arg(c.schema, c.args.join(' '), problem)));
            }
        }
        // The same run reads the same from bench --json, --save-json and runs show --json.
        QFile f(saved);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(jsonObject(f.readAll()), run);
        QCOMPARE(jsonObject(runCli({"runs", "show", id, "--db", db, "--json"}).out), run);
        // run --json has its comparison where bench has it.
        QVERIFY(jsonObject(runCli({"run", digits(), "--expect", digitsSet(0), "--json"}).out)["accuracy"]
                    .toObject()["outputs"]
                    .isArray());
    }

    // --- 4: one set of percentiles for an ONNX Runtime run --------------------------------
    void ortPercentilesAgree() {
        if (QDir(QDir::homePath() + "/.cache/embark").entryList({"onnxruntime-node*"}, QDir::Dirs).isEmpty())
            QSKIP("npm's onnxruntime-node is not in ~/.cache/embark (bench --runtime onnxruntime installs it)");
        const CliResult r = runCli({"bench", digits(), "--board", "host", "--runtime", "onnxruntime", "--iterations",
                                    "10", "--warmup", "1", "--db", "-", "--work-dir", m_tmp.filePath("ort"), "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = jsonObject(r.out);
        const QJsonObject latency = o["latency"].toObject();
        const QJsonObject ort = o["extra"].toObject()["ort_latency"].toObject();
        QCOMPARE(ort["p50_ns"].toDouble(), latency["median_ns"].toDouble());
        QCOMPARE(ort["p90_ns"].toDouble(), latency["p90_ns"].toDouble());
        QCOMPARE(o["runtime"].toString(), QString("onnxruntime"));
    }

    // --- 15: texts that read right ----------------------------------------------------------
    void unsupportedOpListsOnlyOnnxOps() {
        QTemporaryDir dir;
        const QString model = dir.filePath("frobnicate.onnx");
        {
            onnx::ModelProto m;
            std::ifstream in(digits().toStdString(), std::ios::binary);
            QVERIFY(m.ParseFromIstream(&in));
            m.mutable_graph()->mutable_node(0)->set_op_type("Frobnicate");
            std::ofstream out(model.toStdString(), std::ios::binary);
            QVERIFY(m.SerializeToOstream(&out));
        }
        const CliResult r = runCli({"inspect", model});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("Frobnicate") && r.err.contains("Conv"), r.err.constData());
        for (const char* internal : {"QAdd", "QConv", "QGemm", "QLookup", "QAveragePool"})
            QVERIFY2(!r.err.contains(QByteArray(internal) + ","), r.err.constData());
    }
    void smallFiguresReadInKiB() {
        QVERIFY(writeBoard(configDir(), QJsonObject{{"id", "tiny"},
                                                    {"name", "a board with 20,000 bytes"},
                                                    {"arch", "native"},
                                                    {"cores", 1},
                                                    {"memory_bytes", 20000},
                                                    {"runner", QJsonObject{{"kind", "local"}}}}));
        QTemporaryDir work;
        const CliResult r = runCli({"bench", digits(), "--board", "tiny", "--work-dir", work.path(), "--db", "-"});
        QVERIFY2(r.code != 0 && r.err.contains("19.5 KiB (20,000 bytes)") && !r.err.contains("0.0 MiB"),
                 r.err.constData());
        QVERIFY2(r.err.contains("embark-cli: error: "), r.err.constData());
    }

    // --- bench --expect: the board's outputs against the model's own expected outputs -----
    void benchComparesWithTheModelsExpectedOutputs() {
        // Digit 4's input with digit 7's expected output: the run is fine against the host
        // reference, but not against these expectations.
        QTemporaryDir set;
        QVERIFY(QFile::copy(digitsSet(4) + "/input_0.pb", set.filePath("input_0.pb")));
        QVERIFY(QFile::copy(digitsSet(7) + "/output_0.pb", set.filePath("output_0.pb")));
        QTemporaryDir work;
        const CliResult r =
            runCli({"bench", digits(), "--board", "host", "--lib", "portable", "--iterations", "1", "--warmup", "0",
                    "--work-dir", work.path(), "--db", "-", "--expect", set.path(), "--json"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith("embark-cli: error: ") && r.err.contains("tolerance"), r.err.constData());
        const QJsonObject o = jsonObject(r.out);
        QCOMPARE(o["status"].toString(), QString("ok"));
        QVERIFY(o["accuracy"].toObject()["outputs"].toArray().first().toObject()["max_rel"].toDouble() < 1e-4);
        const QJsonObject expected = o["expected"].toObject();
        QCOMPARE(expected["ok"].toBool(), false);
        QVERIFY(expected["outputs"].toArray().first().toObject()["max_rel"].toDouble() > 0.1);
        QCOMPARE(runCli({"bench", digits(), "--tolerance", "1e-3", "--db", "-"}).code, 2); // --tolerance needs --expect
    }

    // --- onnx_test_runner's job with the host's ONNX Runtime: pass/fail per test set -------
    void ortTestRunsEveryTestSet() {
        if (QDir(QDir::homePath() + "/.cache/embark").entryList({"onnxruntime-node*"}, QDir::Dirs).isEmpty())
            QSKIP("npm's onnxruntime-node is not in ~/.cache/embark (bench --runtime onnxruntime installs it)");
        const CliResult all = runCli({"ort-test", digits(), "--json"});
        QVERIFY2(all.code == 0, all.err.constData());
        const QJsonObject o = jsonObject(all.out);
        QCOMPARE(o["total"].toInt(), 10);
        QCOMPARE(o["passed"].toInt(), 10);
        QVERIFY(checkAgainst(o, documentedSchema()["ort-test"]).isEmpty());

        // A set whose expected output belongs to another input fails, and only that one.
        QTemporaryDir dir;
        QVERIFY(QFile::copy(digits(), dir.filePath("model.onnx")));
        for (int k : {0, 1}) {
            QDir().mkpath(dir.filePath(QStringLiteral("test_data_set_%1").arg(k)));
            QVERIFY(QFile::copy(digitsSet(k) + "/input_0.pb",
                                dir.filePath(QStringLiteral("test_data_set_%1/input_0.pb").arg(k))));
            QVERIFY(QFile::copy(digitsSet(k == 0 ? 0 : 5) + "/output_0.pb",
                                dir.filePath(QStringLiteral("test_data_set_%1/output_0.pb").arg(k))));
        }
        // A set with inputs only has nothing to compare with, and says so.
        QDir().mkpath(dir.filePath("test_data_set_2"));
        QVERIFY(QFile::copy(digitsSet(2) + "/input_0.pb", dir.filePath("test_data_set_2/input_0.pb")));
        const CliResult mixed = runCli({"ort-test", dir.path()});
        QCOMPARE(mixed.code, 1);
        QVERIFY2(mixed.out.contains("test_data_set_0  passed") && mixed.out.contains("test_data_set_1  FAILED") &&
                     mixed.out.contains("test_data_set_2  FAILED  the set has no output_K.pb") &&
                     mixed.out.contains("1 of 3"),
                 mixed.out.constData());
        QVERIFY2(mixed.err.startsWith("embark-cli: error: "), mixed.err.constData());
    }

    // --- xnnpack build of an entry that exists answers without unpacking anything ----------
    void xnnpackBuildOfAnExistingEntryAnswersAtOnce() {
        EMBARK_REQUIRE_SHARED_XNNPACK("riscv64", tree);
        QTemporaryDir cache, tarballs;
        QVERIFY(QFile::link(tree,
                            cache.filePath(xnnpack::xnnpackCacheEntryName("riscv64", xnnpack::kPinnedXnnpackCommit))));
        // Empty files named as the four tarballs: unpacking them would fail, so an answer
        // means nothing was unpacked.
        for (const char* name : {"XNNPACK-fb000666d5c2.tar.gz", "cpuinfo-f9a0324.tar.gz", "pthreadpool-0e6ca13.tar.gz",
                                 "FXdiv-b408327.tar.gz"}) {
            QFile f(tarballs.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        qputenv("EMBARK_XNNPACK_CACHE", cache.path().toUtf8());
        const CliResult r = runCli({"xnnpack", "build", "--arch", "riscv64", "--tarballs", tarballs.path()});
        qunsetenv("EMBARK_XNNPACK_CACHE");
        QVERIFY2(r.code == 0 && r.out.contains("Already built"), (r.out + r.err).constData());
    }

private:
    // A nested object checked with the member's own keys: it carries no schema of its own.
    static QJsonObject withSchemaOf(QJsonObject o) {
        o.insert("schema", "embark-cli/1");
        return o;
    }
};

QTEST_GUILESS_MAIN(TestCliContract)
#include "tst_cli_contract.moc"

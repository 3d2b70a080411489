// The target options through the real CLI: one default board (host) for export and plan,
// `plan --arch` alone, `quantize` planning its model for a target, the dtype policy of a quantized
// model, and a bad board refused by every command before any work.
#include "support/cli_process.h"
#include "support/test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace embark::test;

namespace {
QString models() { return sourceDir() + QStringLiteral("/resources/models"); }
QJsonObject json(const CliResult& r) { return QJsonDocument::fromJson(r.out).object(); }
} // namespace

class TestTargetOptions : public QObject {
    Q_OBJECT
    QTemporaryDir m_config;
    QTemporaryDir m_tmp;

private slots:
    void initTestCase() { qputenv("EMBARK_CONFIG_DIR", m_config.path().toUtf8()); }

    void oneDefaultBoard() {
        const CliResult plan = runCli({"plan", models() + "/digits_cnn.onnx", "--json"});
        QVERIFY2(plan.code == 0, plan.err.constData());
        QCOMPARE(json(plan)["board"].toString(), QStringLiteral("host"));
        const QString dir = m_tmp.filePath("export-default");
        const CliResult e = runCli({"export", models() + "/digits_cnn.onnx", "-o", dir});
        QVERIFY2(e.code == 0, e.err.constData());
        QFile f(dir + "/export.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(f.readAll()).object()["board"].toString(), QStringLiteral("host"));
    }

    void planArchAlone() {
        const CliResult r = runCli({"plan", models() + "/digits_cnn.onnx", "--arch", "riscv64", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(json(r)["arch"].toString(), QStringLiteral("riscv64"));
        QCOMPARE(json(r)["board"].toString(), QStringLiteral("sim-k1"));
        const CliResult mismatch =
            runCli({"plan", models() + "/digits_cnn.onnx", "--board", "sim-k230", "--arch", "aarch64"});
        QCOMPARE(mismatch.code, 2);
        QVERIFY2(mismatch.err.contains("--arch aarch64 does not match board 'sim-k230'"), mismatch.err.constData());
    }

    void quantizePlansForTheTarget() {
        const QString out = m_tmp.filePath("q.onnx");
        const CliResult r = runCli({"quantize", models() + "/digits_cnn.onnx", "-o", out, "--calib",
                                    models() + "/digits_cnn/test_data_set_0", "--board", "sim-k230", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject target = json(r)["target"].toObject();
        QCOMPARE(target["board"].toString(), QStringLiteral("sim-k230"));
        QCOMPARE(target["library"].toString(), QStringLiteral("portable"));
        QVERIFY(target["nodes_per_library"].toObject()["portable"].toInt() > 0);
        QVERIFY(target["arena_bytes"].toInt() > 0);
        // Without a target option there is no plan.
        const CliResult plain = runCli({"quantize", models() + "/digits_cnn.onnx", "-o", m_tmp.filePath("q2.onnx"),
                                        "--calib", models() + "/digits_cnn/test_data_set_0", "--json"});
        QVERIFY2(plain.code == 0, plain.err.constData());
        QVERIFY(json(plain)["target"].isNull());
    }

    // A QDQ model's quantized operators run on int8 kernels by default; --dtype-policy float32
    // keeps its QuantizeLinear/DequantizeLinear and runs it in float32, in the plan and the export.
    void dtypePolicyDecidesInt8Kernels() {
        const QString q = m_tmp.filePath("policy.onnx");
        const CliResult made = runCli(
            {"quantize", models() + "/digits_cnn.onnx", "-o", q, "--calib", models() + "/digits_cnn/test_data_set_0"});
        QVERIFY2(made.code == 0, made.err.constData());
        auto ops = [](const QJsonObject& plan) {
            QStringList out;
            for (const QJsonValue& n : plan["nodes"].toArray()) out << n.toObject()["op"].toString();
            return out;
        };
        const CliResult int8 = runCli({"plan", q, "--json"});
        QVERIFY2(int8.code == 0, int8.err.constData());
        QCOMPARE(json(int8)["dtype_policy"].toString(), QStringLiteral("int8"));
        QVERIFY2(ops(json(int8)).contains("QConv"), qPrintable(ops(json(int8)).join(' ')));
        const CliResult fp = runCli({"plan", q, "--dtype-policy", "float32", "--json"});
        QVERIFY2(fp.code == 0, fp.err.constData());
        QCOMPARE(json(fp)["dtype_policy"].toString(), QStringLiteral("float32"));
        const QStringList fpOps = ops(json(fp));
        QVERIFY2(!fpOps.contains("QConv") && fpOps.contains("QuantizeLinear") && fpOps.contains("Conv"),
                 qPrintable(fpOps.join(' ')));

        const QString dir = m_tmp.filePath("export-float32");
        const CliResult e = runCli({"export", q, "-o", dir, "--dtype-policy", "float32"});
        QVERIFY2(e.code == 0, e.err.constData());
        QFile f(dir + "/export.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(f.readAll()).object()["dtype_policy"].toString(), QStringLiteral("float32"));
        const CliResult b = runCli({"build", dir});
        QVERIFY2(b.code == 0, b.err.constData());
        const CliResult run = runCli({"exec", dir, "--", "--check", "1e-4"});
        QVERIFY2(run.code == 0, (run.out + run.err).constData());
        QVERIFY2(run.out.contains("\"ok\":true"), run.out.constData());

        const CliResult bad = runCli({"plan", q, "--dtype-policy", "fp16"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--dtype-policy 'fp16': use int8 or float32"), bad.err.constData());
    }

    void badBoardRefusedFirst_data() {
        QTest::addColumn<QStringList>("args");
        const QString m = models() + "/digits_cnn.onnx";
        QTest::newRow("export") << QStringList{"export", m, "-o", m_tmp.filePath("never"), "--board", "nope"};
        QTest::newRow("plan") << QStringList{"plan", m, "--board", "nope"};
        QTest::newRow("bench") << QStringList{"bench", m,   "--board",    "nope",
                                              "--db",  "-", "--work-dir", m_tmp.filePath("work")};
        QTest::newRow("quantize") << QStringList{
            "quantize", m,     "-o", m_tmp.filePath("never.onnx"), "--calib", models() + "/digits_cnn/test_data_set_0",
            "--board",  "nope"};
        QTest::newRow("compiler") << QStringList{"plan", m, "--compiler", "icc"};
    }

    void badBoardRefusedFirst() {
        QFETCH(QStringList, args);
        const CliResult r = runCli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("embark-cli: error:"), r.err.constData());
        QVERIFY(!QFileInfo::exists(m_tmp.filePath("never")) && !QFileInfo::exists(m_tmp.filePath("never.onnx")));
        QVERIFY(!QFileInfo::exists(m_tmp.filePath("work")));
    }
};

QTEST_GUILESS_MAIN(TestTargetOptions)
#include "tst_target_options.moc"

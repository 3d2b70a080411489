// run_export's JSON-Lines protocol parser: well-formed streams, noise from the board (shell
// banners, qemu warnings), truncated lines (a run killed mid-print), unknown line types, huge
// numbers, and the per-layer median over iterations.
#include "results/run_protocol.h"

#include <QTest>

#include <limits>

using namespace embark;

namespace {

const QByteArray kWellFormed =
    R"({"type":"meta","model":"digits","arch":"riscv64","libs":["portable","xnnpack"],"arena_bytes":4096,"layers":2,"threads":2,"warmup":1,"iterations":3}
{"type":"layer","iteration":0,"index":0,"node":"conv","lib":"portable","ns":300}
{"type":"layer","iteration":0,"index":1,"node":"fc","lib":"xnnpack","ns":50}
{"type":"latency","iteration":0,"ns":400}
{"type":"layer","iteration":1,"index":0,"node":"conv","lib":"portable","ns":100}
{"type":"layer","iteration":1,"index":1,"node":"fc","lib":"xnnpack","ns":70}
{"type":"latency","iteration":1,"ns":200}
{"type":"layer","iteration":2,"index":0,"node":"conv","lib":"portable","ns":200}
{"type":"layer","iteration":2,"index":1,"node":"fc","lib":"xnnpack","ns":60}
{"type":"latency","iteration":2,"ns":300}
{"type":"dump","layer":0,"node":"conv","lib":"portable","shape":[1,8,4,4],"file":"dumps/0000_conv.bin"}
{"type":"output","name":"logits","shape":[1,10],"file":"out/logits.bin","head":[0.5,-1.25]}
{"type":"check","output":"logits","max_abs":1e-6,"max_rel":2e-7,"tolerance":1e-4,"ok":true}
)";

} // namespace

class TestRunProtocol : public QObject {
    Q_OBJECT

private slots:
    void wellFormedStream() {
        const bench::RunOutput r = bench::parseRunOutput(kWellFormed);
        QVERIFY(r.haveMeta);
        QCOMPARE(r.meta.model, std::string("digits"));
        QCOMPARE(r.meta.arch, std::string("riscv64"));
        QCOMPARE(r.meta.libs, (std::vector<std::string>{"portable", "xnnpack"}));
        QCOMPARE(r.meta.arenaBytes, int64_t(4096));
        QCOMPARE(r.meta.layers, 2);
        QCOMPARE(r.meta.threads, 2);
        QCOMPARE(r.meta.warmup, 1);
        QCOMPARE(r.meta.iterations, 3);
        QCOMPARE(r.latencyNs, (std::vector<int64_t>{400, 200, 300}));
        QCOMPARE(r.layers.size(), size_t(6));
        QCOMPARE(r.dumps.size(), size_t(1));
        QCOMPARE(r.dumps[0].shape, (std::vector<int64_t>{1, 8, 4, 4}));
        QCOMPARE(r.dumps[0].file, std::string("dumps/0000_conv.bin"));
        QCOMPARE(r.outputs.size(), size_t(1));
        QCOMPARE(r.outputs[0].name, std::string("logits"));
        QCOMPARE(r.outputs[0].file, std::string("out/logits.bin"));
        QCOMPARE(r.outputs[0].head, (std::vector<double>{0.5, -1.25}));
        QCOMPARE(r.checks.size(), size_t(1));
        QVERIFY(r.checks[0].ok);
        QCOMPARE(r.checks[0].tolerance, 1e-4);
        QVERIFY(r.error.empty());
        QVERIFY(r.warnings.empty());
    }

    void medianLayers() {
        const auto medians = bench::parseRunOutput(kWellFormed).medianLayers();
        QCOMPARE(medians.size(), size_t(2));
        QCOMPARE(medians[0].node, std::string("conv"));
        QCOMPARE(medians[0].lib, std::string("portable"));
        QCOMPARE(medians[0].ns, int64_t(200)); // of 300, 100, 200
        QCOMPARE(medians[1].node, std::string("fc"));
        QCOMPARE(medians[1].ns, int64_t(60)); // of 50, 70, 60
    }

    void medianLayersEvenCountAndScheduleOrder() {
        // Index order, not arrival order; an even count averages the middle two.
        const QByteArray stream = R"({"type":"layer","iteration":0,"index":1,"node":"b","lib":"portable","ns":10}
{"type":"layer","iteration":0,"index":0,"node":"a","lib":"portable","ns":1}
{"type":"layer","iteration":1,"index":1,"node":"b","lib":"portable","ns":20}
{"type":"layer","iteration":1,"index":0,"node":"a","lib":"portable","ns":3}
)";
        const auto medians = bench::parseRunOutput(stream).medianLayers();
        QCOMPARE(medians.size(), size_t(2));
        QCOMPARE(medians[0].node, std::string("a"));
        QCOMPARE(medians[0].ns, int64_t(2));
        QCOMPARE(medians[1].node, std::string("b"));
        QCOMPARE(medians[1].ns, int64_t(15));
        QVERIFY(bench::parseRunOutput("").medianLayers().empty());
    }

    void noiseAndTruncatedLines_data() {
        QTest::addColumn<QByteArray>("junk");
        QTest::newRow("shell banner") << QByteArray("Welcome to K230 Linux\n");
        QTest::newRow("qemu warning") << QByteArray("qemu-riscv64-static: warning: ignoring unknown CPU option\n");
        QTest::newRow("truncated object") << QByteArray(R"({"type":"latency","iteration":3,"ns":12)"
                                                        "\n");
        QTest::newRow("JSON array") << QByteArray("[1,2,3]\n");
        QTest::newRow("bare number") << QByteArray("42\n");
        QTest::newRow("binary garbage") << QByteArray("\x01\x02\xff\xfe{\n", 6);
        QTest::newRow("CRLF blank lines") << QByteArray("\r\n\r\n");
    }
    void noiseAndTruncatedLines() {
        QFETCH(QByteArray, junk);
        // Junk at the start, in the middle and as an unterminated last line.
        const QByteArray lines = kWellFormed;
        const int middle = lines.indexOf("{\"type\":\"latency\",\"iteration\":1");
        QByteArray stream = junk + lines.left(middle) + junk + lines.mid(middle) + junk.trimmed();
        const bench::RunOutput r = bench::parseRunOutput(stream);
        QVERIFY(r.haveMeta);
        QCOMPARE(r.latencyNs, (std::vector<int64_t>{400, 200, 300}));
        QCOMPARE(r.layers.size(), size_t(6));
        QCOMPARE(r.outputs.size(), size_t(1));
        if (junk.trimmed().isEmpty())
            QVERIFY(r.warnings.empty());
        else {
            QCOMPARE(r.warnings.size(), size_t(3));
            QVERIFY2(r.warnings[0].rfind("line 1:", 0) == 0, r.warnings[0].c_str());
        }
    }

    void truncatedStreamKeepsWhatArrived() {
        // A run killed mid-print: the complete lines count, the cut one is a warning.
        const QByteArray cut = kWellFormed.left(kWellFormed.indexOf("{\"type\":\"latency\",\"iteration\":2") + 20);
        const bench::RunOutput r = bench::parseRunOutput(cut);
        QCOMPARE(r.latencyNs, (std::vector<int64_t>{400, 200}));
        QVERIFY(r.outputs.empty());
        QCOMPARE(r.warnings.size(), size_t(1));
    }

    void unknownTypesAreWarnings() {
        const QByteArray stream = R"({"type":"latency","iteration":0,"ns":5}
{"type":"future_thing","x":1}
{"no_type":true}
)";
        const bench::RunOutput r = bench::parseRunOutput(stream);
        QCOMPARE(r.latencyNs, (std::vector<int64_t>{5}));
        QCOMPARE(r.warnings.size(), size_t(2));
        QVERIFY2(r.warnings[0].find("future_thing") != std::string::npos, r.warnings[0].c_str());
        QVERIFY(r.warnings[0].rfind("line 2:", 0) == 0);
        QVERIFY(r.warnings[1].rfind("line 3:", 0) == 0);
        QVERIFY(!r.haveMeta);
    }

    void warningsAreCapped() {
        QByteArray stream;
        for (int i = 0; i < 1000; ++i) stream += "noise\n";
        stream += R"({"type":"latency","iteration":0,"ns":7})";
        const bench::RunOutput r = bench::parseRunOutput(stream);
        QCOMPARE(r.warnings.size(), size_t(100));
        QCOMPARE(r.latencyNs, (std::vector<int64_t>{7}));
    }

    void errorLine() {
        const bench::RunOutput r = bench::parseRunOutput(R"({"type":"error","message":"cannot open weights.bin"})"
                                                         "\n");
        QCOMPARE(r.error, std::string("cannot open weights.bin"));
        QVERIFY(r.latencyNs.empty());
    }

    void hugeNumbers_data() {
        QTest::addColumn<QByteArray>("ns");
        QTest::addColumn<qint64>("expected");
        // An hour and a year of nanoseconds are exact in a double, and so is 2^60.
        QTest::newRow("an hour") << QByteArray("3600000000000") << qint64(3600000000000);
        QTest::newRow("a year") << QByteArray("31536000000000000") << qint64(31536000000000000);
        QTest::newRow("2^60") << QByteArray("1152921504606846976") << qint64(1152921504606846976);
        QTest::newRow("exponent") << QByteArray("1.5e9") << qint64(1500000000);
        QTest::newRow("zero") << QByteArray("0") << qint64(0);
        // Past int64: saturates instead of the undefined conversion.
        QTest::newRow("1e30") << QByteArray("1e30") << std::numeric_limits<qint64>::max();
        QTest::newRow("-1e30") << QByteArray("-1e30") << std::numeric_limits<qint64>::min();
    }
    void hugeNumbers() {
        QFETCH(QByteArray, ns);
        QFETCH(qint64, expected);
        const bench::RunOutput r = bench::parseRunOutput(R"({"type":"latency","iteration":0,"ns":)" + ns + "}\n" +
                                                         R"({"type":"meta","arena_bytes":)" + ns + "}\n");
        QCOMPARE(r.latencyNs.size(), size_t(1));
        QCOMPARE(r.latencyNs[0], expected);
        QCOMPARE(r.meta.arenaBytes, expected);
        QVERIFY(r.warnings.empty());
    }

    void missingFieldsDefault() {
        const bench::RunOutput r = bench::parseRunOutput(R"({"type":"meta"})"
                                                         "\n"
                                                         R"({"type":"output","name":"y"})");
        QVERIFY(r.haveMeta);
        QCOMPARE(r.meta.threads, 1);
        QCOMPARE(r.meta.iterations, 0);
        QCOMPARE(r.outputs.size(), size_t(1));
        QVERIFY(r.outputs[0].file.empty());
        QVERIFY(r.outputs[0].shape.empty());
    }
};

QTEST_GUILESS_MAIN(TestRunProtocol)
#include "tst_run_protocol.moc"

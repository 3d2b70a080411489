// bench QUANT.onnx --float-reference FLOAT.onnx: the board's layer dumps of the quantized digits
// model's export against the float model, per layer. On the host and sim-k230 (under qemu) the
// board's figures equal the host's QDQ-vs-float ones (`compare`) for every int8 layer both
// compute; the run stores them (runs show); a float model that does not fit is refused before
// anything is built.
#include "onnx/onnx_models.h"
#include "support/cli_process.h"
#include "support/test_paths.h"
#include "targets/board.h"
#include "targets/toolchain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace embark;
using namespace embark::test;

namespace {

// The board's compiler and runner (sim-k230: clang-19 or riscv64 g++, qemu-riscv64-static).
bool boardAvailable(const QString& id) {
    auto board = targets::findBoard(id);
    if (!board) return false;
    auto tc = targets::toolchainFor(*board);
    return tc && targets::checkAvailable(*tc) && targets::checkRunnerAvailable(*board);
}

QJsonObject jsonOf(const CliResult& r) { return QJsonDocument::fromJson(r.out).object(); }

std::map<QString, QJsonObject> byValue(const QJsonArray& layers) {
    std::map<QString, QJsonObject> m;
    for (const QJsonValue v : layers) m[v.toObject()["value"].toString()] = v.toObject();
    return m;
}

// input 'image' of `dims` -> Relu 'other' -> 'y': no name in common with digits' layers.
QString unrelatedModel(const QTemporaryDir& dir, const QString& name, std::vector<int64_t> dims) {
    ProtoModel m(13);
    m.input("image", std::move(dims));
    m.node("Relu", {"image"}, {"y"}, "other");
    m.output("y", 4);
    const QString path = dir.filePath(name);
    return m.save(path) ? path : QString();
}

} // namespace

class TestFloatReference : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_digits, m_set0, m_quant;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_digits = sourceDir() + "/resources/models/digits_cnn.onnx";
        m_set0 = sourceDir() + "/resources/models/digits_cnn/test_data_set_0";
        m_quant = m_dir.filePath("digits_int8.onnx");
        const CliResult q =
            runCli({"quantize", m_digits, "-o", m_quant, "--calib", sourceDir() + "/resources/models/digits_cnn"});
        QVERIFY2(q.code == 0, q.err.constData());
    }

    void boardAgainstFloatPerLayer_data() {
        QTest::addColumn<QString>("board");
        QTest::newRow("host") << "host";
        QTest::newRow("sim-k230") << "sim-k230";
    }

    // Every layer the host report has gets a row from the board, except the convolutions' own
    // outputs: the board runs Conv and its Relu as one QConv, which writes the Relu's output
    // only. Where both compute the same int8 value (X_quantized on the board, X's
    // QuantizeLinear -> DequantizeLinear on the host) the SNR and cosine agree: the export's
    // int8 arithmetic is exact against the fused reference, within a quantum of the QDQ model.
    void boardAgainstFloatPerLayer() {
        QFETCH(QString, board);
        if (!boardAvailable(board))
            QSKIP(qPrintable(
                board +
                " needs its compiler (clang-19 or riscv64 g++) and qemu-riscv64-static: run scripts/install-deps.sh"));
        const CliResult host = runCli({"compare", m_digits, m_quant, "--input", m_set0, "--top", "100", "--json"});
        QVERIFY2(host.code == 0, host.err.constData());
        const QString db = m_dir.filePath(board + ".db");
        const CliResult r = runCli({"bench",
                                    m_quant,
                                    "--board",
                                    board,
                                    "--lib",
                                    "portable",
                                    "--iterations",
                                    "1",
                                    "--warmup",
                                    "0",
                                    "--float-reference",
                                    m_digits,
                                    "--snr-drop",
                                    "5",
                                    "--input",
                                    m_set0 + "/input_0.pb",
                                    "--json",
                                    "--db",
                                    db,
                                    "--work-dir",
                                    m_dir.filePath("work")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject bench = jsonOf(r);
        const QJsonObject fr = bench["accuracy"].toObject()["float_reference"].toObject();
        QCOMPARE(fr["snr_drop_db"].toDouble(), 5.0);
        QVERIFY2(fr["model"].toString().endsWith("digits_cnn.onnx"), qPrintable(fr["model"].toString()));

        const auto boardRows = byValue(fr["layers"].toArray());
        int same = 0;
        for (const QJsonValue v : jsonOf(host)["layers"].toArray()) {
            const QJsonObject h = v.toObject();
            const QString value = h["value"].toString();
            if (h["op"].toString() == "Conv") continue;
            QVERIFY2(boardRows.count(value), qPrintable("no board row for " + value));
            const QJsonObject b = boardRows.at(value);
            if (h["compared"].toString() != value + "_dequantized" || b["compared"].toString() != value + "_quantized")
                continue;
            ++same;
            QVERIFY2(std::abs(b["snr_db"].toDouble() - h["snr_db"].toDouble()) <= 0.5,
                     qPrintable(QStringLiteral("%1: board %2 dB, host %3 dB")
                                    .arg(value)
                                    .arg(b["snr_db"].toDouble())
                                    .arg(h["snr_db"].toDouble())));
            QVERIFY(std::abs(b["cosine"].toDouble() - h["cosine"].toDouble()) <= 1e-4);
            QVERIFY(b["max_abs"].toDouble() > 0);
        }
        QVERIFY2(same >= 5, qPrintable(QString::number(same))); // 3 Relu, 2 MaxPool, Flatten
        QCOMPARE(int(boardRows.size()), 8);                     // those, GlobalAveragePool and logits
        for (const auto& [value, row] : boardRows)
            QVERIFY2(row["cosine"].toDouble() > 0.99 && row["snr_db"].toDouble() > 25, qPrintable(value));

        // Worst first; the first layer (execution order) whose SNR fell more than 5 dB is flagged.
        const QJsonArray worst = fr["worst"].toArray();
        QCOMPARE(worst.size(), int(boardRows.size()));
        for (int i = 1; i < worst.size(); ++i)
            QVERIFY(boardRows.at(worst[i - 1].toString())["snr_db"].toDouble() <=
                    boardRows.at(worst[i].toString())["snr_db"].toDouble());
        QString expectedDrop;
        for (const QJsonValue v : fr["layers"].toArray())
            if (expectedDrop.isEmpty() && v.toObject()["snr_drop_db"].toDouble() > 5)
                expectedDrop = v.toObject()["value"].toString();
        QVERIFY(!expectedDrop.isEmpty()); // features.6's Relu: ~8 dB below features.3's MaxPool
        QCOMPARE(fr["first_drop"].toObject()["value"].toString(), expectedDrop);

        // Stored with the run: runs show prints the table, --json keeps the object.
        const QString id = QString::number(bench["run_id"].toInteger());
        const CliResult show = runCli({"runs", "show", id, "--db", db});
        QVERIFY2(show.code == 0, show.err.constData());
        QVERIFY2(show.out.contains("per-layer error on the board against the float model") &&
                     show.out.contains(worst.first().toString().toUtf8()) &&
                     show.out.contains("First layer whose SNR fell by more than 5 dB: '" + expectedDrop.toUtf8()),
                 show.out.constData());
        const CliResult showJson = runCli({"runs", "show", id, "--db", db, "--json"});
        QCOMPARE(jsonOf(showJson)["extra"].toObject()["float_reference"].toObject(), fr);
    }

    // A float model that does not fit is refused (exit 4) before the export is built, and no
    // run is stored; option errors exit 2.
    void floatReferenceErrors() {
        const QString db = m_dir.filePath("errors.db");
        auto bench = [&](const QString& fp, const QStringList& more = {}) {
            return runCli(QStringList{"bench", m_quant, "--board", "host", "--iterations", "1", "--warmup", "0",
                                      "--float-reference", fp, "--db", db, "--work-dir",
                                      m_dir.filePath("work-errors")} +
                          more);
        };
        const CliResult otherShape = bench(unrelatedModel(m_dir, "small.onnx", {1, 1, 8, 8}));
        QCOMPARE(otherShape.code, 4);
        QVERIFY2(otherShape.err.contains("'image' is 1x1x8x8 but 1x1x16x16") && otherShape.err.contains("same inputs"),
                 otherShape.err.constData());

        ProtoModel renamed(13);
        renamed.input("pixels", {1, 1, 16, 16});
        renamed.node("Relu", {"pixels"}, {"y"}, "other");
        renamed.output("y", 4);
        QVERIFY(renamed.save(m_dir.filePath("renamed.onnx")));
        const CliResult otherInput = bench(m_dir.filePath("renamed.onnx"));
        QCOMPARE(otherInput.code, 4);
        QVERIFY2(otherInput.err.contains("'pixels' is not an input of the model benchmarked"),
                 otherInput.err.constData());

        const CliResult unmatched = bench(unrelatedModel(m_dir, "unrelated.onnx", {1, 1, 16, 16}));
        QCOMPARE(unmatched.code, 4);
        QVERIFY2(unmatched.err.contains("no layer of it has a float32 counterpart") &&
                     unmatched.err.contains("quantize keeps"),
                 unmatched.err.constData());

        const CliResult missing = bench(m_dir.filePath("no-such.onnx"));
        QVERIFY(missing.code != 0);
        QVERIFY2(missing.err.contains("no-such.onnx"), missing.err.constData());

        QCOMPARE(bench(m_digits, {"--snr-drop", "-1"}).code, 2);
        QCOMPARE(runCli({"bench", m_quant, "--board", "host", "--snr-drop", "3", "--db", db}).code,
                 2); // without --float-reference
        QCOMPARE(bench(m_digits, {"--runtime", "onnxruntime"}).code, 2);

        // Nothing reached the board: no run stored.
        const CliResult list = runCli({"runs", "list", "--db", db, "--json"});
        QVERIFY(list.code == 0 || list.code == 4);
        QVERIFY2(list.code != 0 || QJsonDocument::fromJson(list.out).array().isEmpty(), list.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestFloatReference)
#include "tst_float_reference.moc"

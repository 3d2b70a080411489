// The bad-model corpus (tests/data/bad/*.onnx, made by make_bad_models.py) and the inputs the
// fuzzers found (tests/fuzz/regressions/): each file gives a clean error of the right kind,
// naming the file and the node/value, through the importer and through `embark-cli inspect`.
#include "ir/error.h"
#include "onnx/importer.h"
#include "support/test_paths.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTest>

#include <vector>

using namespace embark;

namespace {

QString badDir() { return test::testDataDir() + "/bad"; }

struct Row {
    const char* file;
    int kind;             // ErrorKind == CLI exit status
    const char* mentions; // the node/value/detail the message must name
};

const std::vector<Row>& corpusRows() {
    const int invalid = int(ErrorKind::InvalidInput), unsupported = int(ErrorKind::Unsupported);
    static const std::vector<Row> rows = {
        {"truncated.onnx", invalid, "does not parse"},
        {"bitflipped.onnx", invalid, "does not parse"},
        {"empty.onnx", invalid, "empty"},
        {"not_onnx.onnx", invalid, "not a valid ONNX model"},
        {"cyclic.onnx", invalid, "add_a"},
        {"duplicate_names.onnx", invalid, "'y'"},
        {"dangling_input.onnx", invalid, "add_dangling"},
        {"huge_dims.onnx", invalid, "'x'"},
        // Used to print "= 0 bytes" after a signed overflow in the size text (UB).
        {"huge_initializer_dims.onnx", invalid, "more than 2^63 bytes"},
        {"negative_dims.onnx", invalid, "'x'"},
        {"wrong_dtype.onnx", unsupported, "'x'"},
        {"unknown_initializer_dtype.onnx", invalid, "w"},
        {"zero_byte_initializer.onnx", invalid, "w"},
        {"short_raw_initializer.onnx", invalid, "'w'"},
        {"external_outside.onnx", invalid, "outside the model's folder"},
        {"external_absolute.onnx", invalid, "outside the model's folder"},
        {"external_missing.onnx", invalid, "missing_weights.bin"},
        {"opset_99.onnx", unsupported, "opset 99"},
        {"long_node_name.onnx", unsupported, "NoSuchOp"},
    };
    return rows;
}

} // namespace

class BadModels : public QObject {
    Q_OBJECT
private slots:
    void corpusIsComplete();
    void importer_data();
    void importer();
    void cliInspect_data() { importer_data(); }
    void cliInspect();
};

// A file added to tests/data/bad without a row here would go untested.
void BadModels::corpusIsComplete() {
    const QStringList files = QDir(badDir()).entryList({"*.onnx"}, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 15, qPrintable(badDir() + " holds too few models: run make_bad_models.py"));
    QStringList withRows;
    for (const Row& r : corpusRows()) withRows << r.file;
    for (const QString& f : files) QVERIFY2(withRows.contains(f), qPrintable(f + " has no row in tst_bad_models.cpp"));
}

void BadModels::importer_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("mentions");
    for (const Row& r : corpusRows()) QTest::newRow(r.file) << QString(r.file) << r.kind << QString(r.mentions);
    // Inputs the fuzzers once crashed on: any clean error (or a model that imports) is fine.
    const QString regressions = test::sourceDir() + "/tests/fuzz/regressions/onnx_import";
    for (const QString& f : QDir(regressions).entryList(QDir::Files, QDir::Name))
        QTest::newRow(qPrintable("regression/" + f)) << QString(regressions + "/" + f) << -1 << QString();
}

void BadModels::importer() {
    QFETCH(QString, file);
    QFETCH(int, kind);
    QFETCH(QString, mentions);
    const QString path = QFileInfo(file).isAbsolute() ? file : badDir() + "/" + file;
    auto graph = onnx::importModel(path.toStdString());
    if (kind < 0) // a fuzz regression: reaching here without a crash is the test
        return;
    QVERIFY2(!graph, qPrintable(file + " imported, but it is broken"));
    const QString message = QString::fromStdString(graph.error().message);
    QVERIFY2(int(graph.error().kind) == kind,
             qPrintable(QString("kind %1: %2").arg(int(graph.error().kind)).arg(message)));
    QVERIFY2(message.contains(QFileInfo(path).fileName()), qPrintable("does not name the file: " + message));
    QVERIFY2(message.contains(mentions), qPrintable("does not mention " + mentions + ": " + message));
    QVERIFY2(!message.contains('\n'), qPrintable("a multi-line message: " + message));
}

void BadModels::cliInspect() {
    QFETCH(QString, file);
    QFETCH(int, kind);
    const QString path = QFileInfo(file).isAbsolute() ? file : badDir() + "/" + file;
    QProcess p;
    p.start(test::cliPath(), {"inspect", path});
    QVERIFY2(p.waitForStarted(), qPrintable(p.errorString()));
    QVERIFY2(p.waitForFinished(120 * 1000), "embark-cli inspect did not finish in 2 minutes");
    const QString err = QString::fromUtf8(p.readAllStandardError());
    // A crash (signal) is the one outcome no input may cause.
    QVERIFY2(p.exitStatus() == QProcess::NormalExit, qPrintable("embark-cli crashed: " + err.right(2000)));
    if (kind < 0) {
        QVERIFY2(p.exitCode() == 0 || p.exitCode() == 3 || p.exitCode() == 4, qPrintable(err));
        return;
    }
    QVERIFY2(p.exitCode() == kind, qPrintable(QString("exit %1: %2").arg(p.exitCode()).arg(err)));
    QVERIFY2(err.startsWith("embark-cli: error: "), qPrintable(err));
    QVERIFY2(err.trimmed().count('\n') == 0, qPrintable("stderr is not one line: " + err.left(2000)));
    QVERIFY2(err.contains(QFileInfo(path).fileName()), qPrintable(err));
}

QTEST_GUILESS_MAIN(BadModels)
#include "tst_bad_models.moc"

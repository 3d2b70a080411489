// The fuzz targets' inputs replayed in the normal build: the committed seeds and every crasher
// the fuzzers found (tests/fuzz/regressions/<target>/), each through the same entry point as
// its fuzz target. Passing means no crash and, for the readers, a clean Error value.
#include "results/run_protocol.h"
#include "onnx/tensor_io.h"
#include "support/test_paths.h"
#include "targets/board.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace embark;

namespace {

QString fuzzDir() { return test::sourceDir() + "/tests/fuzz"; }

void addRows(const QString& target, const QStringList& folders) {
    for (const QString& folder : folders)
        for (const QFileInfo& f : QDir(folder).entryInfoList(QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(target + "/" + QDir(fuzzDir()).relativeFilePath(f.filePath())))
                << target << f.filePath();
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class FuzzInputs : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

private slots:
    void replay_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("file");
        addRows("tensor_files", {fuzzDir() + "/seeds/tensor_files", fuzzDir() + "/regressions/tensor_files"});
        addRows("run_protocol", {fuzzDir() + "/seeds/run_protocol", fuzzDir() + "/regressions/run_protocol"});
        addRows("board_file", {test::sourceDir() + "/boards", fuzzDir() + "/regressions/board_file"});
    }

    void replay() {
        QFETCH(QString, target);
        QFETCH(QString, file);
        const QByteArray bytes = readAll(file);
        if (target == "run_protocol") {
            const bench::RunOutput run = bench::parseRunOutput(bytes);
            (void)run.medianLayers();
        } else if (target == "board_file") {
            auto board = targets::parseBoard(bytes, QFileInfo(file).fileName());
            // The regressions are broken boards: each must be refused, naming its file.
            if (file.contains("/regressions/")) QVERIFY2(!board, qPrintable(file + " parsed as a board"));
            if (!board)
                QVERIFY2(QString::fromStdString(board.error().message).contains(QFileInfo(file).fileName()),
                         board.error().message.c_str());
        } else if (target == "tensor_files") {
            // The same bytes as each kind of tensor file, as fuzz_tensor_files does.
            for (const char* ext : {".pb", ".npy"}) {
                const QString path = m_tmp.path() + "/input_0" + ext;
                QFile out(path);
                QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate) && out.write(bytes) == bytes.size());
                out.close();
                auto tensor = onnx::readTensorFile(path.toStdString());
                if (!tensor)
                    QVERIFY2(graphErrorNamesFile(tensor.error().message, path), tensor.error().message.c_str());
            }
        }
    }

    // The median of two layer times near int64's limit used to overflow (a + b) / 2.
    void medianOfHugeLayerTimes() {
        bench::RunOutput run;
        const int64_t top = std::numeric_limits<int64_t>::max();
        run.layers = {{0, 0, "conv", "portable", top - 1}, {1, 0, "conv", "portable", top - 3}};
        QCOMPARE(run.medianLayers().at(0).ns, top - 2);
        run.layers = {{0, 0, "conv", "portable", -top}, {1, 0, "conv", "portable", -top - 1}};
        QCOMPARE(run.medianLayers().at(0).ns, -top); // -top - 0.5 rounded towards zero
    }

private:
    static bool graphErrorNamesFile(const std::string& message, const QString& path) {
        return QString::fromStdString(message).contains(QFileInfo(path).fileName());
    }
};

QTEST_GUILESS_MAIN(FuzzInputs)
#include "tst_fuzz_inputs.moc"

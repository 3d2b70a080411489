// Crash-safe files: user boards and exports are replaced atomically (the studio's settings
// file: tests/ui/tst_settings_file). A write that fails half-way (RLIMIT_FSIZE makes write(2)
// fail with EFBIG, as a full disk would, for root too) leaves the previous file or folder exactly as it was and no
// temporary behind, and a process SIGKILLed at random points while saving a board never leaves a torn file.
#include "export/exporter.h"
#include "onnx/importer.h"
#include "support/file_size_limit.h"
#include "support/test_paths.h"
#include "targets/board.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace embark;

namespace {

using test::FileSizeLimit;

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray hashTree(const QString& dir) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    QStringList files;
    for (QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();)
        files << it.next();
    files.sort();
    for (const QString& f : files) {
        h.addData(QDir(dir).relativeFilePath(f).toUtf8());
        h.addData(readAll(f));
    }
    return h.result().toHex();
}

targets::Board board(const QString& name) {
    targets::Board b;
    b.id = "my-board";
    b.name = name;
    b.arch = "riscv64";
    b.isa = "rv64gcv";
    b.cflags = {"-march=rv64gcv", "-mabi=lp64d"};
    b.cores = 1;
    b.memoryBytes = 1 << 30;
    b.runner.kind = targets::BoardRunner::Kind::Ssh;
    b.runner.host = "k230";
    return b;
}

QString messageOf(const Status& s) { return s.ok() ? QString() : QString::fromStdString(s.error().message); }

} // namespace

class TestAtomicFiles : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void failedBoardSaveKeepsTheOldFile() {
        const QString dir = m_tmp.path() + "/boards";
        QVERIFY(targets::saveBoardFile(board("first version"), dir).ok());
        const QByteArray before = readAll(dir + "/my-board.json");
        QVERIFY(before.contains("first version"));
        Status s;
        {
            FileSizeLimit limit(64); // the new file is ~400 bytes
            QVERIFY(limit.ok());
            s = targets::saveBoardFile(board("second version, " + QString(300, 'x')), dir);
        }
        QVERIFY(!s.ok());
        QVERIFY2(messageOf(s).contains(dir + "/my-board.json"), qPrintable(messageOf(s)));
        QCOMPARE(readAll(dir + "/my-board.json"), before);
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden), QStringList{"my-board.json"}); // no temporary left
        auto loaded = targets::loadBoardFile(dir + "/my-board.json");
        QVERIFY(loaded && loaded->name == "first version");
    }

    void boardIdsCannotLeaveTheFolder() {
        const QString dir = m_tmp.path() + "/ids/boards";
        for (const QString id : {"../escaped", "a/../../escaped", "/tmp/escaped", "..", ""}) {
            targets::Board b = board("x");
            b.id = id;
            const Status s = targets::saveBoardFile(b, dir);
            QVERIFY2(!s.ok() && messageOf(s).contains("board id"), qPrintable(id + ": " + messageOf(s)));
        }
        QVERIFY(!QFileInfo::exists(m_tmp.path() + "/ids/escaped"));
        QVERIFY(!QFileInfo::exists(m_tmp.path() + "/escaped"));
    }

    void boardSaveSurvivesSigkillAtRandomPoints() {
        const QString dir = m_tmp.path() + "/killed";
        const targets::Board a = board(QString(4000, 'a')), b = board(QString(8000, 'b'));
        QVERIFY(targets::saveBoardFile(a, dir).ok());
        const int trials = 50;
        int torn = 0;
        for (int t = 0; t < trials; ++t) {
            const pid_t child = ::fork();
            if (child == 0) { // saves one version after the other until killed
                for (int i = 0;; ++i) (void)targets::saveBoardFile(i % 2 ? a : b, dir);
            }
            QVERIFY(child > 0);
            ::usleep(static_cast<useconds_t>(QRandomGenerator::global()->bounded(20000)));
            ::kill(child, SIGKILL);
            ::waitpid(child, nullptr, 0);
            auto loaded = targets::loadBoardFile(dir + "/my-board.json");
            if (!loaded || (loaded->name != a.name && loaded->name != b.name)) ++torn;
        }
        qInfo("%d SIGKILL trials while saving a board, %d torn files", trials, torn);
        QCOMPARE(torn, 0);
    }

    void failedExportKeepsTheOldExport() {
        auto graph = onnx::importModel((test::sourceDir() + "/resources/models/digits_cnn.onnx").toStdString());
        QVERIFY2(graph, graph ? "" : graph.error().message.c_str());
        exporter::ExportOptions eo;
        eo.outDir = m_tmp.path() + "/exports/digits";
        QVERIFY(exporter::exportModel(*graph, eo));
        const QByteArray before = hashTree(eo.outDir);
        eo.force = true; // replace it...
        Expected<exporter::ExportResult> r = makeError(ErrorKind::External, "not run");
        {
            FileSizeLimit limit(4096); // ...with writes that fail half-way (weights.bin is bigger)
            QVERIFY(limit.ok());
            r = exporter::exportModel(*graph, eo);
        }
        QVERIFY(!r);
        QVERIFY2(r.error().message.find("digits") != std::string::npos, r.error().message.c_str());
        QCOMPARE(hashTree(eo.outDir), before);
        QCOMPARE(QDir(m_tmp.path() + "/exports").entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{"digits"}); // no staging folder left
    }
};

QTEST_GUILESS_MAIN(TestAtomicFiles)
#include "tst_atomic_files.moc"

// Exports stay byte-identical through the one-target refactoring: `embark-cli export` (target
// options -> jobs::resolveTarget -> the export recipe) writes, file for file, what
// exporter::exportModel writes with the ExportOptions assembled field by field from the board
// as `export` did before (board flags, toolchain file, XNNPACK resolution). digits_cnn for
// host and sim-k230, portable and XNNPACK; a pair that cannot export fails both ways alike.
#include "support/cli_process.h"
#include "support/test_paths.h"

#include "export/exporter.h"
#include "onnx/importer.h"
#include "targets/board.h"
#include "targets/toolchain.h"
#include "xnnpack/export_link.h"
#include "xnnpack/xnnpack_resolve.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

namespace {

// Relative path -> bytes of every file under `dir`.
std::map<QString, QByteArray> folderBytes(const QString& dir) {
    std::map<QString, QByteArray> out;
    for (QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
        const QString path = it.next();
        QFile f(path);
        if (f.open(QIODevice::ReadOnly)) out[QDir(dir).relativeFilePath(path)] = f.readAll();
    }
    return out;
}

// The export as `embark-cli export MODEL --board B --lib L` assembled it before the target.
Expected<exporter::ExportResult> exportFieldByField(const QString& model, const QString& boardId,
                                                    const std::string& lib, const QString& outDir) {
    auto board = targets::findBoard(boardId);
    if (!board) return board.error();
    exporter::ExportOptions o;
    o.library = lib;
    o.outDir = outDir;
    o.board = board->id.toStdString();
    o.arch = board->arch.toStdString();
    o.targetFlags = board->cflags.join(' ').toStdString();
    const auto xnn = xnnpack::resolveXnnpack(board->arch, xnnpack::isaHasRvv(board->isa));
    o.havePrebuiltXnnpack = xnn.found();
    o.xnnpack = xnnpack::exportLink(xnn);
    auto toolchain = targets::toolchainFor(*board);
    if (!toolchain) return toolchain.error();
    o.toolchainFile = toolchain->file;
    auto graph = onnx::importModel(model.toStdString());
    if (!graph) return graph.error();
    return exporter::exportModel(*graph, o);
}

} // namespace

class TestExportIdentity : public QObject {
    Q_OBJECT
    QTemporaryDir m_config;
    QTemporaryDir m_tmp;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("EMBARK_CONFIG_DIR", m_config.path().toUtf8()); // built-in boards only
    }

    void sameBytes_data() {
        QTest::addColumn<QString>("board");
        QTest::addColumn<QString>("lib");
        for (const char* board : {"host", "sim-k230"})
            for (const char* lib : {"portable", "xnnpack"})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(board, lib))) << board << lib;
    }

    void sameBytes() {
        QFETCH(QString, board);
        QFETCH(QString, lib);
        const QString model = test::sourceDir() + QStringLiteral("/resources/models/digits_cnn.onnx");
        // Both write the same path (in case a file names its folder), one after the other.
        const QString out = m_tmp.filePath(board + "-" + lib);
        auto before = exportFieldByField(model, board, lib.toStdString(), out);
        const auto expected = before ? folderBytes(out) : std::map<QString, QByteArray>{};
        QDir(out).removeRecursively();
        const test::CliResult r = test::runCli({"export", model, "--board", board, "--lib", lib, "-o", out});
        if (!before) {
            // Unavailable here (XNNPACK with no tree for riscv64): refused the same way.
            QCOMPARE(r.code, before.error().exitCode());
            QVERIFY2(r.err.contains(QByteArray::fromStdString(before.error().message)), r.err.constData());
            QVERIFY(!QFileInfo::exists(out));
            return;
        }
        QVERIFY2(r.code == 0, r.err.constData());
        const auto got = folderBytes(out);
        QVERIFY(expected.size() > 10);
        QStringList names, gotNames;
        for (const auto& [name, bytes] : expected) names << name;
        for (const auto& [name, bytes] : got) gotNames << name;
        QCOMPARE(gotNames, names);
        for (const auto& [name, bytes] : expected) QVERIFY2(got.at(name) == bytes, qPrintable(name + " differs"));
        QDir(out).removeRecursively();
    }
};

QTEST_GUILESS_MAIN(TestExportIdentity)
#include "tst_export_identity.moc"

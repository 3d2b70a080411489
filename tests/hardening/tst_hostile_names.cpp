// Hostile names end to end: a model whose node and value names hold quotes, ;, $(...),
// backticks, ../ and newlines is exported, built and run with the real embark-cli; nothing
// runs the injected commands, nothing lands outside the export/dump folders, the generated
// C++ compiles (names escaped in literals and comments) and dump files have safe names. Also
// export folders given with `..`, and shellQuote round-tripping hostile text through sh -c.
#include "deploy/shell_quote.h"
#include "onnx/writer.h"
#include "support/graph_builder.h"
#include "support/test_paths.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;

namespace {

struct CliRun {
    bool normalExit = false;
    int code = -1;
    QString out, err;
    QByteArray describe() const {
        return ("exit " + QString::number(code) + (normalExit ? "" : " (crashed)") + "\nstdout: " + out.right(1500) +
                "\nstderr: " + err.right(2500))
            .toUtf8();
    }
};

CliRun cli(const QStringList& args, const QString& workDir) {
    QProcess p;
    p.setWorkingDirectory(workDir);
    p.start(test::cliPath(), args);
    CliRun r;
    if (!p.waitForStarted() || !p.waitForFinished(20 * 60 * 1000)) {
        p.kill();
        p.waitForFinished();
        r.err = "embark-cli did not start or finish: " + p.errorString();
        return r;
    }
    r.normalExit = p.exitStatus() == QProcess::NormalExit;
    r.code = r.normalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// Every file under `root`, relative to it.
QStringList filesUnder(const QString& root) {
    QStringList files;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) files << QDir(root).relativeFilePath(it.next());
    files.sort();
    return files;
}

// Names that would run `touch <marker>` if any shell ever saw them unquoted.
QStringList hostileStrings(const QString& marker) {
    return {
        "it's",
        "say \"hi\"",
        "a;touch " + marker,
        "$(touch " + marker + ")",
        "`touch " + marker + "`",
        "../../x",
        "with spaces  and\ttab",
        "line\nbreak; touch " + marker,
        "*/ #error injected\n// ?"
        "?/",
        "\\\" $HOME ${PATH} !! ~ & | > < *",
        "",
    };
}

} // namespace

class HostileNames : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void shellQuoteRoundTrip_data() {
        QTest::addColumn<QString>("text");
        const QStringList strings = hostileStrings(m_tmp.path() + "/pwned_quote");
        for (int i = 0; i < strings.size(); ++i) QTest::newRow(qPrintable(QString::number(i))) << strings[i];
        QTest::newRow("unicode") << QString::fromUtf8("naïve ✓ 'ü'");
    }

    // The shell reads back the exact bytes and runs nothing in them.
    void shellQuoteRoundTrip() {
        QFETCH(QString, text);
        QProcess sh;
        sh.start("sh", {"-c", "printf '%s' " + deploy::shellQuote(text)});
        QVERIFY(sh.waitForFinished(30000));
        QCOMPARE(sh.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()), text);
        QVERIFY(!QFileInfo::exists(m_tmp.path() + "/pwned_quote"));

        // shellJoin keeps word boundaries: sh sees exactly three arguments.
        QProcess join;
        join.start("sh", {"-c", "printf '[%s]' " + deploy::shellJoin({text, "b", text})});
        QVERIFY(join.waitForFinished(30000));
        QCOMPARE(QString::fromUtf8(join.readAllStandardOutput()), "[" + text + "][b][" + text + "]");
    }

    void exportBuildExec() {
        const QString root = m_tmp.path() + "/hostile";
        const QString cwd = root + "/cwd/deeper"; // a relative ../../x write would land in root
        QVERIFY(QDir().mkpath(cwd));
        const QString marker = root + "/pwned";
        const QStringList names = hostileStrings(marker);

        // Value names must be unique and non-empty; node names may repeat the hostile set.
        test::GraphBuilder b("hostile $(touch " + marker.toStdString() + ")");
        ir::Value* x = b.input(("x " + names[0] + names[2]).toStdString(), ir::Shape{1, 3, 4, 4});
        ir::Value* w = b.weights(("w " + names[8] + names[7]).toStdString(), ir::Shape{1, 3, 4, 4});
        ir::Value* sum = b.op(ir::OpKind::Add, {x, w}, {}, names[8].toStdString());
        sum->name = ("sum " + names[3] + names[5]).toStdString();
        ir::Value* act = b.op(ir::OpKind::Relu, {sum}, {}, (names[4] + names[6] + names[1]).toStdString());
        act->name = ("y " + names[9] + names[4]).toStdString();
        ir::Value* out = b.op(ir::OpKind::Sigmoid, {act}, {}, names[5].toStdString());
        out->name = names[5].toStdString() + "/out\n" + names[2].toStdString();
        b.output(out);
        const ir::Graph graph = b.build();
        const QString model = root + "/model.onnx";
        const Status written = onnx::writeModel(graph, model.toStdString());
        QVERIFY2(written, written ? "" : written.error().message.c_str());

        const QString exportDir = root + "/export";
        const CliRun e = cli({"export", model, "--lib", "portable", "-o", exportDir}, cwd);
        QVERIFY2(e.code == 0, e.describe());
        const CliRun bld = cli({"build", exportDir, "--jobs", "2"}, cwd);
        QVERIFY2(bld.code == 0, bld.describe()); // the generated C++ compiles with the names in it
        const QString dumps = root + "/dumps";
        const CliRun x1 = cli({"exec", exportDir, "--", "--check", "1e-4", "--layers", "--dump", dumps, "--out",
                               root + "/outputs", "--iterations", "1"},
                              cwd);
        QVERIFY2(x1.code == 0, x1.describe());

        QVERIFY2(!QFileInfo::exists(marker), "an injected command ran");
        // Every file sits in the model, the export, the dump or the output folder.
        for (const QString& f : filesUnder(root))
            QVERIFY2(f == "model.onnx" || f.startsWith("export/") || f.startsWith("dumps/") || f.startsWith("outputs/"),
                     qPrintable("a file outside the export/dump folders: " + f));
        // Dump and output file names are sanitised: one level, no shell or path syntax.
        const QRegularExpression safe("^[A-Za-z0-9_.+-]+$");
        for (const QString& dir : QStringList{dumps, root + "/outputs"}) {
            const QStringList files = filesUnder(dir);
            QVERIFY2(!files.isEmpty() || dir.endsWith("outputs"), qPrintable("nothing in " + dir));
            for (const QString& f : files)
                QVERIFY2(safe.match(f).hasMatch(), qPrintable("unsafe file name in " + dir + ": " + f));
        }
        // The names still reach the run protocol intact: every line is one JSON object, and the
        // node name with a newline and */ in it reads back exactly.
        bool sawHostileNode = false;
        for (const QString& line : x1.out.split('\n', Qt::SkipEmptyParts)) {
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(line.toUtf8(), &error);
            QVERIFY2(error.error == QJsonParseError::NoError && doc.isObject(),
                     qPrintable("not one JSON object: " + line));
            sawHostileNode |= doc.object().value("node").toString() == names[8];
        }
        QVERIFY2(sawHostileNode, qPrintable(x1.out.left(2000)));
    }

    // `-o` with `..` components is normalised: the export lands where the path points,
    // lexically, and nothing is created along the `..` detour.
    void exportFolderWithDotDot() {
        const QString root = m_tmp.path() + "/dotdot";
        QVERIFY(QDir().mkpath(root + "/cwd"));
        const QString model = test::sourceDir() + "/resources/models/digits_cnn.onnx";
        const CliRun e =
            cli({"export", model, "--lib", "portable", "-o", root + "/detour/a/../../target/out"}, root + "/cwd");
        QVERIFY2(e.normalExit, e.describe());
        if (e.code == 0) {
            QVERIFY2(QFileInfo::exists(root + "/target/out/export.json"), qPrintable(filesUnder(root).join('\n')));
            QVERIFY2(!QFileInfo::exists(root + "/detour"), "the .. detour was created");
        } else {
            QVERIFY2(e.code == 2 || e.code == 4 || e.code == 5, e.describe());
            QVERIFY2(e.err.startsWith("embark-cli: error: "), e.describe());
        }
        for (const QString& f : filesUnder(root))
            QVERIFY2(f.startsWith("target/out/"), qPrintable("written outside the target: " + f));

        // A relative `..` path from the working directory resolves the same way.
        const CliRun r = cli({"export", model, "--lib", "portable", "-o", "../target/rel"}, root + "/cwd");
        QVERIFY2(r.code == 0, r.describe());
        QVERIFY(QFileInfo::exists(root + "/target/rel/export.json"));
        for (const QString& f : filesUnder(root))
            QVERIFY2(f.startsWith("target/"), qPrintable("written outside the target: " + f));
    }
};

QTEST_GUILESS_MAIN(HostileNames)
#include "tst_hostile_names.moc"

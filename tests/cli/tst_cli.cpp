// embark-cli as a user runs it: exit statuses, JSON fields and error messages of inspect/run
// and the dispatcher, through a real child process; models without inputs or outputs; run on
// seeded random inputs; concurrent benchmarks of one model and board.
#include "support/cli_process.h"
#include "support/test_paths.h"

#include <onnx/onnx_pb.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace embark::test;

namespace {
using Result = CliResult;
Result cli(const QStringList& args) { return runCli(args); }

QString digits() { return sourceDir() + "/resources/models/digits_cnn.onnx"; }
QString digitsSet(int k) {
    return sourceDir() + QStringLiteral("/resources/models/digits_cnn/test_data_set_%1").arg(k);
}

// digits_cnn.onnx edited by `edit` and saved as `path`.
template <typename Edit>
bool writeEditedDigits(const QString& path, Edit edit) {
    onnx::ModelProto model;
    std::ifstream in(digits().toStdString(), std::ios::binary);
    if (!model.ParseFromIstream(&in)) return false;
    edit(model);
    std::ofstream out(path.toStdString(), std::ios::binary);
    return model.SerializeToOstream(&out) && out.flush();
}

QJsonArray firstOutputHead(const Result& r) {
    return QJsonDocument::fromJson(r.out).object()["outputs"].toArray().first().toObject()["head"].toArray();
}
} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void helpListsCommandsAndExitStatuses() {
        const Result r = cli({"--help"});
        QCOMPARE(r.code, 0);
        for (const char* word :
             {"inspect", "run", "plan", "export", "build", "exec", "bench", "boards", "runs", "Exit status"})
            QVERIFY2(r.out.contains(word), word);
    }

    void usageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no command") << QStringList{};
        QTest::newRow("unknown command") << QStringList{"frobnicate"};
        QTest::newRow("run without model") << QStringList{"run"};
        QTest::newRow("unknown option") << QStringList{"inspect", digits(), "--no-such-option"};
        QTest::newRow("bad shape") << QStringList{"inspect", digits(), "--shape", "image=1xbanana"};
        QTest::newRow("unknown shape input") << QStringList{"inspect", digits(), "--shape", "nope=1x1x16x16"};
        QTest::newRow("bad tolerance") << QStringList{"run", digits(), "--expect", digitsSet(0), "--tolerance", "-1"};
        QTest::newRow("bad seed") << QStringList{"run", digits(), "--seed", "-3"};
        // Expected outputs belong to particular inputs: never compared with random ones.
        QTest::newRow("expect without inputs")
            << QStringList{"run", digits(), "--expect", digitsSet(0) + "/output_0.pb"};
    }
    void usageErrors() {
        QFETCH(QStringList, args);
        const Result r = cli(args);
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.startsWith("embark-cli"));
    }

    void inspectJson() {
        const Result r = cli({"inspect", digits(), "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["node_count"].toInt(), 11);
        QCOMPARE(o["inputs"].toArray().first().toObject()["name"].toString(), QString("image"));
        QCOMPARE(o["parameters"].toObject()["count"].toInt(), 6218);
        QVERIFY(o["macs"].toDouble() > 100000);
        QCOMPARE(o["ops"].toObject()["Conv"].toInt(), 3);
        QCOMPARE(o["nodes"].toArray().size(), 11);
    }

    void runPredictsEveryDigit() {
        for (int k = 0; k < 10; ++k) {
            const Result r = cli({"run", digits(), "--expect", digitsSet(k), "--json"});
            QCOMPARE(r.code, 0);
            const QJsonObject o = QJsonDocument::fromJson(r.out).object();
            QCOMPARE(o["outputs"].toArray().first().toObject()["top5"].toArray().first().toObject()["index"].toInt(),
                     k);
            const QJsonObject c = o["accuracy"].toObject()["outputs"].toArray().first().toObject();
            for (const char* f : {"max_abs", "max_rel", "rmse", "cosine", "snr_db"}) QVERIFY2(c.contains(f), f);
            QVERIFY(c["ok"].toBool());
        }
    }

    void runWithoutInputsUsesSeededRandomInputs() {
        const Result r = cli({"run", digits(), "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("random") && r.err.contains("'image' (float32 1x1x16x16)") &&
                     r.err.contains("--seed 0"),
                 r.err.constData());
        const QJsonObject random = QJsonDocument::fromJson(r.out).object()["random_inputs"].toObject();
        QCOMPARE(random["seed"].toInt(), 0);
        QCOMPARE(random["inputs"].toArray(), QJsonArray{"image"});
        QCOMPARE(firstOutputHead(r).size(), 10);

        const Result again = cli({"run", digits(), "--json", "--seed", "0"});
        QCOMPARE(firstOutputHead(again), firstOutputHead(r)); // same seed, same inputs
        const Result other = cli({"run", digits(), "--json", "--seed", "7"});
        QCOMPARE(other.code, 0);
        QVERIFY(firstOutputHead(other) != firstOutputHead(r));

        const Result text = cli({"run", digits(), "--seed", "7"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("Random inputs (--seed 7): 'image'"), text.out.constData());
    }

    void runWithFreeDimensionStillNeedsShape() {
        QTemporaryDir dir;
        const QString model = dir.filePath("free_batch.onnx");
        QVERIFY(writeEditedDigits(model, [](onnx::ModelProto& m) {
            m.mutable_graph()
                ->mutable_input(0)
                ->mutable_type()
                ->mutable_tensor_type()
                ->mutable_shape()
                ->mutable_dim(0)
                ->set_dim_param("N");
        }));
        // No test data beside it: a usage error (2) naming the --shape to pass.
        const Result r = cli({"run", model});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("symbolic dimension 'N'") && r.err.contains("--shape image=1x1x16x16"),
                 r.err.constData());
        const Result fixed = cli({"run", model, "--shape", "image=2x1x16x16", "--json"});
        QCOMPARE(fixed.code, 0);
        QVERIFY(fixed.err.contains("'image' (float32 2x1x16x16)"));
    }

    // A model whose graph declares no outputs computes nothing: refused at import.
    void modelWithoutOutputsIsRefused_data() {
        QTest::addColumn<QString>("command");
        QTest::newRow("inspect") << "inspect";
        QTest::newRow("run") << "run";
        QTest::newRow("export") << "export";
    }
    void modelWithoutOutputsIsRefused() {
        QFETCH(QString, command);
        QTemporaryDir dir;
        const QString model = dir.filePath("no_outputs.onnx");
        QVERIFY(writeEditedDigits(model, [](onnx::ModelProto& m) { m.mutable_graph()->clear_output(); }));
        QStringList args{command, model};
        if (command == "export")
            args << "--lib"
                 << "portable"
                 << "-o" << dir.filePath("export");
        const Result r = cli(args);
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.startsWith("embark-cli: error: ") && r.err.contains("no_outputs.onnx") &&
                     r.err.contains("declares no graph outputs") && r.err.contains("graph.output"),
                 r.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath("export")));
    }

    // The ONNX suite's test_constant: no inputs, one Constant output.
    void modelWithoutInputsRuns() {
        if (onnxTestDataDir().isEmpty()) QSKIP("libonnx-testdata is not installed (Debian package libonnx-testdata)");
        const QString test = onnxTestDataDir() + "/node/test_constant";
        const Result r = cli({"run", test + "/model.onnx", "--expect", test + "/test_data_set_0", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o["accuracy"].toObject()["outputs"].toArray().first().toObject()["ok"].toBool());
        QVERIFY(!o.contains("random_inputs"));
        QVERIFY2(!r.err.contains("random"), r.err.constData());
        QCOMPARE(cli({"run", test + "/model.onnx"}).code, 0);

        // Exported, built and run standalone, it reproduces the expected output exactly.
        QTemporaryDir dir;
        const QString out = dir.filePath("constant");
        const Result exported = cli({"export", test + "/model.onnx", "--lib", "portable", "-o", out});
        QVERIFY2(exported.code == 0, exported.err.constData());
        const Result built = cli({"build", out, "--quiet"});
        QVERIFY2(built.code == 0, built.err.constData());
        const Result ran = cli({"exec", out, "--", "--check", "0"});
        QVERIFY2(ran.code == 0 && ran.out.contains("\"type\":\"check\",\"output\":\"values\",\"max_abs\":0,"),
                 ran.out.constData());
    }

    // Six benchmarks of the same model on the same board started at once: each gets its own
    // run folder (they were named by the millisecond, and clashing ones failed with exit 2).
    void concurrentBenchmarksGetTheirOwnFolders() {
        QTemporaryDir work;
        const QStringList args{
            "bench", digits(),   "--board", "host",       "--lib",     "portable", "--iterations",
            "1",     "--warmup", "0",       "--work-dir", work.path(), "--db",     work.filePath("runs.db"),
            "--json"};
        std::vector<std::unique_ptr<QProcess>> runs;
        for (int i = 0; i < 6; ++i) {
            runs.push_back(std::make_unique<QProcess>());
            runs.back()->start(cliPath(), args);
        }
        QSet<QString> folders;
        for (auto& p : runs) {
            QVERIFY(p->waitForFinished(20 * 60 * 1000));
            const QByteArray err = p->readAllStandardError();
            QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0, err.constData());
            const QJsonObject o = QJsonDocument::fromJson(p->readAllStandardOutput()).object();
            QCOMPARE(o["status"].toString(), QString("ok"));
            const QString folder = o["extra"].toObject()["export_dir"].toString();
            QVERIFY2(QFileInfo(folder + "/export.json").isFile(), qPrintable(folder));
            folders.insert(folder);
        }
        QCOMPARE(folders.size(), 6);
    }

    void outsideToleranceExitsOne() {
        const Result r =
            cli({"run", digits(), "--input", digitsSet(1) + "/input_0.pb", "--expect", digitsSet(2) + "/output_0.pb"});
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.contains("OUTSIDE TOLERANCE"));
    }

    void dumpWritesEveryValue() {
        QTemporaryDir dir;
        const Result r = cli({"run", digits(), "--expect", digitsSet(0), "--dump", dir.path()});
        QCOMPARE(r.code, 0);
        QFile manifest(dir.path() + "/manifest.json");
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        const QJsonArray values = QJsonDocument::fromJson(manifest.readAll()).array();
        QVERIFY(values.size() >= 11);
        for (const auto& v : values) QVERIFY(QFile::exists(dir.path() + "/" + v.toObject()["file"].toString()));
    }

    void planJson() {
        const Result r = cli({"plan", digits(), "--lib", "xnnpack", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject mem = o["memory"].toObject();
        QVERIFY(mem["arena_bytes"].toDouble() > 0);
        QVERIFY(mem["arena_bytes"].toDouble() >= mem["lower_bound_bytes"].toDouble());
        bool sawConv = false;
        for (const auto& n : o["nodes"].toArray()) {
            const QJsonObject node = n.toObject();
            for (const char* f : {"name", "op", "lib", "provenance"}) QVERIFY2(node.contains(f), f);
            if (node["op"].toString() == "Conv") {
                sawConv = true;
                QCOMPARE(node["lib"].toString(), QString("xnnpack"));
                QVERIFY(node["provenance"].toArray().size() >= 2); // Conv + its fused Relu
            }
        }
        QVERIFY(sawConv);
    }

    void planBadOverrides_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("code");
        QTest::newRow("unknown op") << QStringList{"--override", "Foo=portable"} << 2;
        QTest::newRow("unknown node") << QStringList{"--override-node", "nope=xnnpack"} << 2;
        QTest::newRow("unknown library") << QStringList{"--lib", "tensorrt"} << 2;
        QTest::newRow("xnnpack on riscv64") << QStringList{"--lib", "xnnpack", "--arch", "riscv64"} << 3;
    }
    void planBadOverrides() {
        QFETCH(QStringList, extra);
        QFETCH(int, code);
        const Result r = cli(QStringList{"plan", digits()} + extra);
        QCOMPARE(r.code, code);
        QVERIFY(r.err.startsWith("embark-cli: error:"));
    }

    void badFiles_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("code");
        QTest::newRow("missing model") << "missing" << 4;
        QTest::newRow("not onnx") << "text" << 4;
        QTest::newRow("wrong input size") << "badinput" << 4;
        QTest::newRow("unknown input name") << "badname" << 2;
    }
    void badFiles() {
        QFETCH(QString, kind);
        QFETCH(int, code);
        QTemporaryDir dir;
        QStringList args;
        if (kind == "missing") {
            args = {"inspect", dir.path() + "/nope.onnx"};
        } else if (kind == "text") {
            QFile f(dir.path() + "/model.onnx");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("this is not a model\n");
            f.close();
            args = {"inspect", f.fileName()};
        } else if (kind == "badinput") {
            QFile f(dir.path() + "/in.bin");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(100, '\0'));
            f.close();
            args = {"run", digits(), "--input", "image=" + f.fileName()};
        } else {
            args = {"run", digits(), "--input", "nope=" + digitsSet(0) + "/input_0.pb"};
        }
        const Result r = cli(args);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.startsWith("embark-cli"), r.err.constData());
        QVERIFY(!r.err.contains("Segmentation"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"

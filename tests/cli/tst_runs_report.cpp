// The run report (issue #19): core's HTML from stored runs, and `embark-cli runs report` on a
// real SQLite run store: one run, one run against another, the errors (no -o, not .html,
// unknown run) leave no file behind.
#include "store/run_report.h"
#include "store/run_store.h"
#include "support/cli_process.h"
#include "targets/onnxruntime.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <QFile>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QTest>

using namespace embark;
using namespace embark::store;

namespace {

RunRecord sampleRun(const std::string& model, int64_t baseNs, const std::string& convLib) {
    RunRecord r;
    r.fingerprint = {model,
                     "sha-" + model,
                     "exp123",
                     "sim-k230",
                     "mixed",
                     "clang-19",
                     "-O3 -march=rv64gcv",
                     1,
                     QDateTime(QDate(2026, 5, 1), QTime(10, 0), Qt::UTC),
                     "0.4.0"};
    for (int i = 0; i < 20; ++i) r.latencyNs.push_back(baseNs + (i * 37) % 11 * 1000);
    r.layers = {{"/features/denseblock3/denselayer1/conv1/Conv", convLib, double(baseNs) / 2},
                {"relu1", "portable", 12500},
                {"fc", "xnnpack", 99000},
                {"x_to_nhwc", "portable", 3000}};
    r.outputAccuracy = {{"logits", 1e-6, 2e-7, 3e-7, 0.999999, 120.5}};
    r.layerAccuracy = {{"relu1", 1e-7, 1e-8, 1e-8, 1.0, 140}, {"fc", 2e-6, 3e-4, 4e-7, 0.99, 80}};
    r.extra = QJsonObject{
        {"arena_bytes", 3 * 1024 * 1024}, {"weights_bytes", 2048}, {"binary_bytes", 90000}, {"partitions", 2}};
    return r;
}

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestRunsReport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void reportOfOneRun() {
        RunRecord r = sampleRun("/models/densenet121.onnx", 4000000, "xnnpack");
        r.id = 7;
        r.latency = summarizeLatency(r.latencyNs);
        const QString html = runReportHtml(r);
        QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
        for (const char* expected :
             {"run #7", "densenet121.onnx", "sim-k230", "clang-19", "2026-05-01 10:00:00", "Median (ms)", "2.000",
              "Arena (activations)", "3.00 MiB", "xnnpack: 2 layers", "portable: 2 layers",
              "/features/denseblock3/denselayer1/conv1/Conv", "logits", "max_rel", "0.0003", "<svg", "Slowest layers"})
            QVERIFY2(html.contains(QLatin1String(expected)), expected);
        // Self-contained: no script, no external resource.
        QVERIFY(!html.contains(QStringLiteral("<script")));
        QVERIFY(!html.contains(QStringLiteral("src=\"http")));
        // The slowest layer comes first in the per-layer table.
        QVERIFY(html.indexOf(QStringLiteral("<td>/features/denseblock3")) <
                html.indexOf(QStringLiteral("<td>fc</td>")));
        // Names are escaped.
        RunRecord hostile = r;
        hostile.layers[1].node = "<b>relu</b>";
        QVERIFY(runReportHtml(hostile).contains(QStringLiteral("&lt;b&gt;relu&lt;/b&gt;")));
        // Charts supplied by the caller replace the SVG ones.
        ReportOptions withImages;
        withImages.images = {
            {QStringLiteral("Per-layer time"), QStringLiteral("data:image/png;base64,iVBOR"), 600, 300}};
        const QString imaged = runReportHtml(r, nullptr, withImages);
        QVERIFY(imaged.contains(QStringLiteral("<img src=\"data:image/png;base64,iVBOR\"")));
        QVERIFY(!imaged.contains(QStringLiteral("<svg")));
        const auto shares = libraryShares(r);
        QCOMPARE(shares.size(), size_t(2));
        QCOMPARE(shares[0].library, std::string("portable"));
        QCOMPARE(shares[0].layers, 2);
    }

    void cliWritesReportsFromTheStore() {
        const QString db = m_dir.filePath(QStringLiteral("runs.sqlite"));
        int64_t a = 0, b = 0, other = 0;
        {
            auto store = RunStore::open(db);
            QVERIFY(store);
            auto idA = (*store)->addRun(sampleRun("/models/resnet18.onnx", 10000000, "portable"));
            auto idB = (*store)->addRun(sampleRun("/models/resnet18.onnx", 8000000, "xnnpack"));
            auto idC = (*store)->addRun(sampleRun("/models/mobilenet.onnx", 3000000, "xnnpack"));
            QVERIFY(idA && idB && idC);
            a = *idA;
            b = *idB;
            other = *idC;
        }
        const QString one = m_dir.filePath(QStringLiteral("one.html"));
        auto r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QString::number(a),
                               QStringLiteral("-o"), one, QStringLiteral("--db"), db});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("wrote"), r.out.constData());
        const QString html = readAll(one);
        QVERIFY(html.contains(QStringLiteral("run #%1").arg(a)));
        QVERIFY(html.contains(QStringLiteral("resnet18.onnx")));
        QVERIFY(html.contains(QStringLiteral("5.000"))); // the conv layer, in ms
        QVERIFY(html.endsWith(QStringLiteral("</html>\n")));

        const QString two = m_dir.filePath(QStringLiteral("two.html"));
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QString::number(b),
                          QStringLiteral("--against"), QString::number(a), QStringLiteral("-o"), two,
                          QStringLiteral("--db"), db, QStringLiteral("--top"), QStringLiteral("3")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString cmp = readAll(two);
        QVERIFY(cmp.contains(QStringLiteral("against")));
        QVERIFY2(cmp.contains(QStringLiteral("Run #%1 / run #%2 (median): <b>0.800</b>").arg(b).arg(a)),
                 qPrintable(cmp));
        QVERIFY(cmp.contains(QStringLiteral("largest changes")));
        QVERIFY(cmp.contains(QStringLiteral("portable &rarr; xnnpack"))); // the conv changed library
        QVERIFY(!cmp.contains(QStringLiteral("different models")));

        const QString mixed = m_dir.filePath(QStringLiteral("mixed.html"));
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QString::number(other),
                          QStringLiteral("--against"), QString::number(a), QStringLiteral("-o"), mixed,
                          QStringLiteral("--db"), db});
        QCOMPARE(r.code, 0);
        QVERIFY(readAll(mixed).contains(QStringLiteral("different models")));

        // Errors: usage (2) or a clear message, and no file written.
        const QString none = m_dir.filePath(QStringLiteral("none.html"));
        r = test::runCli(
            {QStringLiteral("runs"), QStringLiteral("report"), QString::number(a), QStringLiteral("--db"), db});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("-o FILE.html"), r.err.constData());
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QString::number(a), QStringLiteral("-o"),
                          m_dir.filePath(QStringLiteral("r.txt")), QStringLiteral("--db"), db});
        QCOMPARE(r.code, 2);
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("r.txt"))));
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QStringLiteral("999"), QStringLiteral("-o"),
                          none, QStringLiteral("--db"), db});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("999"), r.err.constData());
        QVERIFY(!QFile::exists(none));
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QString::number(a),
                          QStringLiteral("--against"), QStringLiteral("x"), QStringLiteral("-o"), none,
                          QStringLiteral("--db"), db});
        QCOMPARE(r.code, 2);
        QVERIFY(!QFile::exists(none));
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("show"), QString::number(a),
                          QStringLiteral("--against"), QString::number(b), QStringLiteral("--db"), db});
        QCOMPARE(r.code, 2);
        // Issue #33: `runs show` cut layer names at 32 characters, so many read the same.
        r = test::runCli(
            {QStringLiteral("runs"), QStringLiteral("show"), QString::number(a), QStringLiteral("--db"), db});
        QCOMPARE(r.code, 0);
        static const QRegularExpression whole("/features/denseblock3/denselayer1/conv1/Conv +portable");
        QVERIFY2(QString::fromUtf8(r.out).contains(whole), r.out.constData());
    }

    // Issue 17: the run stores the SpacemiT EP options, and a comparison shows which differ
    // (and what ran each run: an export, or ONNX Runtime with its provider).
    void runtimeComparison() {
        const QJsonObject exportRun{{"arena_bytes", 1024}};
        const QJsonObject k1a{{"runtime", "onnxruntime"},
                              {"ep", "spacemit"},
                              {"ep_options", QJsonObject{{"SPACEMIT_EP_INTRA_THREAD_NUM", "1"},
                                                         {"SPACEMIT_EP_DUMP_SUBGRAPHS", "1"},
                                                         {"SPACEMIT_EP_DENSE_ACCURACY_LEVEL", "2"}}}};
        const QJsonObject k1b{{"runtime", "onnxruntime"},
                              {"ep", "spacemit"},
                              {"ep_options", QJsonObject{{"SPACEMIT_EP_INTRA_THREAD_NUM", "4"},
                                                         {"SPACEMIT_EP_DENSE_ACCURACY_LEVEL", 2},
                                                         {"SPACEMIT_EP_DISABLE_OP_TYPE_FILTER", "Softmax"}}}};
        const targets::RuntimeComparison same = targets::compareRuntimes(exportRun, exportRun);
        QCOMPARE(same.a.runtime, QStringLiteral("export"));
        QVERIFY(!same.runtimeDiffers() && same.epOptions.empty());
        const targets::RuntimeComparison mixed = targets::compareRuntimes(exportRun, k1a);
        QVERIFY(mixed.runtimeDiffers());
        QCOMPARE(mixed.b.describe(), QStringLiteral("onnxruntime, ep spacemit"));
        QCOMPARE(mixed.epOptions.size(), size_t(3)); // all of B's, not set in A
        QVERIFY(mixed.epOptions[0].a.isEmpty());
        const targets::RuntimeComparison k1 = targets::compareRuntimes(k1a, k1b);
        QVERIFY(!k1.runtimeDiffers());
        QStringList keys;
        for (const targets::EpOptionChange& o : k1.epOptions) keys << o.key + ':' + o.a + '>' + o.b;
        // The accuracy level is "2" in one run and 2 in the other: the same setting.
        QCOMPARE(keys, (QStringList{"SPACEMIT_EP_DISABLE_OP_TYPE_FILTER:>Softmax", "SPACEMIT_EP_DUMP_SUBGRAPHS:1>",
                                    "SPACEMIT_EP_INTRA_THREAD_NUM:1>4"}));
    }

    void cliComparesRuntimesAndEpOptions() {
        const QString db = m_dir.filePath(QStringLiteral("runtimes.sqlite"));
        int64_t exported = 0, ortA = 0, ortB = 0, ortC = 0;
        {
            auto store = RunStore::open(db);
            QVERIFY(store);
            RunRecord e = sampleRun("/models/resnet18.onnx", 10000000, "portable");
            RunRecord a = sampleRun("/models/resnet18.onnx", 9000000, "ort-spacemit");
            a.fingerprint.kernelLibrary = "onnxruntime";
            a.extra = QJsonObject{{"runtime", "onnxruntime"},
                                  {"ep", "spacemit"},
                                  {"ep_options", QJsonObject{{"SPACEMIT_EP_INTRA_THREAD_NUM", "1"},
                                                             {"SPACEMIT_EP_DUMP_SUBGRAPHS", "1"}}}};
            RunRecord b = a;
            b.extra["ep_options"] =
                QJsonObject{{"SPACEMIT_EP_INTRA_THREAD_NUM", "4"}, {"SPACEMIT_EP_INTRA_THREAD_AFFINITY", "0,1,2,3"}};
            auto ids = std::vector<Expected<int64_t>>{(*store)->addRun(e), (*store)->addRun(a), (*store)->addRun(b),
                                                      (*store)->addRun(a)};
            for (const auto& id : ids) QVERIFY(id);
            exported = *ids[0];
            ortA = *ids[1];
            ortB = *ids[2];
            ortC = *ids[3];
        }
        auto compare = [&](int64_t x, int64_t y, const QStringList& more = {}) {
            return test::runCli(QStringList{QStringLiteral("runs"), QStringLiteral("compare"), QString::number(x),
                                            QString::number(y), QStringLiteral("--db"), db} +
                                more);
        };
        auto r = compare(ortA, ortB);
        QVERIFY2(r.code == 0, r.err.constData());
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.contains(QStringLiteral("Runtime\n  run %1 onnxruntime, ep spacemit\n")
                                   .arg(QString::number(ortA).leftJustified(6))),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("  EP options that differ (A -> B)\n"
                                              "    SPACEMIT_EP_DUMP_SUBGRAPHS         1 -> (not set)\n"
                                              "    SPACEMIT_EP_INTRA_THREAD_AFFINITY  (not set) -> 0,1,2,3\n"
                                              "    SPACEMIT_EP_INTRA_THREAD_NUM       1 -> 4\n")),
                 qPrintable(text));
        QVERIFY(text.indexOf(QStringLiteral("Runtime")) < text.indexOf(QStringLiteral("Per layer")));
        // The same options: said so.
        r = compare(ortA, ortC);
        QVERIFY2(QString::fromUtf8(r.out).contains(QStringLiteral("EP options the same in both runs (2 set)")),
                 r.out.constData());
        // An export against ONNX Runtime.
        r = compare(exported, ortA);
        QVERIFY2(QString::fromUtf8(r.out).contains(QStringLiteral(" export\n")), r.out.constData());
        QVERIFY(QString::fromUtf8(r.out).contains(QStringLiteral("(not set) -> 1")));
        // Two exports: the runtime lines only.
        r = compare(exported, exported);
        QVERIFY(r.code == 0 && !r.out.contains("EP options"));
        // --json carries both runtimes and the differences; --csv stays the per-layer table.
        r = compare(ortA, ortB, {QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(json.value("runtime_a").toObject().value("ep").toString(), QStringLiteral("spacemit"));
        QCOMPARE(json.value("runtime_b")
                     .toObject()
                     .value("ep_options")
                     .toObject()
                     .value("SPACEMIT_EP_INTRA_THREAD_NUM")
                     .toString(),
                 QStringLiteral("4"));
        const QJsonArray diffs = json.value("ep_option_differences").toArray();
        QCOMPARE(diffs.size(), 3);
        QCOMPARE(diffs[0].toObject().value("key").toString(), QStringLiteral("SPACEMIT_EP_DUMP_SUBGRAPHS"));
        QVERIFY(diffs[0].toObject().value("b").isNull());
        r = compare(exported, ortA, {QStringLiteral("--json")});
        QVERIFY(QJsonDocument::fromJson(r.out).object().value("runtime_a").toObject().value("ep").isNull());
        r = compare(ortA, ortB, {QStringLiteral("--csv")});
        QVERIFY(r.out.startsWith("node,lib_a,lib_b,ns_a,ns_b,delta_ns,ratio\n") && !r.out.contains("SPACEMIT"));
    }
};

QTEST_MAIN(TestRunsReport)
#include "tst_runs_report.moc"

// The run report (issue #19): core's HTML from stored runs, and `embark-cli runs report` on a
// real SQLite run store: one run, one run against another, the errors (no -o, not .html,
// unknown run) leave no file behind.
#include "store/run_report.h"
#include "store/run_store.h"
#include "support/cli_process.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;
using namespace embark::store;

namespace {

RunRecord sampleRun(const std::string& model, int64_t baseNs, const std::string& convLib) {
    RunRecord r;
    r.fingerprint = {model, "sha-" + model, "exp123", "sim-k230", "mixed", "clang-19", "-O3 -march=rv64gcv", 1,
                     QDateTime(QDate(2026, 5, 1), QTime(10, 0), Qt::UTC), "0.4.0"};
    for (int i = 0; i < 20; ++i) r.latencyNs.push_back(baseNs + (i * 37) % 11 * 1000);
    r.layers = {{"/features/denseblock3/denselayer1/conv1/Conv", convLib, double(baseNs) / 2},
                {"relu1", "portable", 12500},
                {"fc", "xnnpack", 99000},
                {"x_to_nhwc", "portable", 3000}};
    r.outputAccuracy = {{"logits", 1e-6, 2e-7, 3e-7, 0.999999, 120.5}};
    r.layerAccuracy = {{"relu1", 1e-7, 1e-8, 1e-8, 1.0, 140}, {"fc", 2e-6, 3e-4, 4e-7, 0.99, 80}};
    r.extra = QJsonObject{{"arena_bytes", 3 * 1024 * 1024}, {"weights_bytes", 2048}, {"binary_bytes", 90000}, {"partitions", 2}};
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
        for (const char* expected : {"run #7", "densenet121.onnx", "sim-k230", "clang-19", "2026-05-01 10:00:00",
                                     "Median (ms)", "2.000", "Arena (activations)", "3.00 MiB", "xnnpack: 2 layers",
                                     "portable: 2 layers", "/features/denseblock3/denselayer1/conv1/Conv", "logits",
                                     "max_rel", "0.0003", "<svg", "Slowest layers"})
            QVERIFY2(html.contains(QLatin1String(expected)), expected);
        // Self-contained: no script, no external resource.
        QVERIFY(!html.contains(QStringLiteral("<script")));
        QVERIFY(!html.contains(QStringLiteral("src=\"http")));
        // The slowest layer comes first in the per-layer table.
        QVERIFY(html.indexOf(QStringLiteral("<td>/features/denseblock3")) < html.indexOf(QStringLiteral("<td>fc</td>")));
        // Names are escaped.
        RunRecord hostile = r;
        hostile.layers[1].node = "<b>relu</b>";
        QVERIFY(runReportHtml(hostile).contains(QStringLiteral("&lt;b&gt;relu&lt;/b&gt;")));
        // Charts supplied by the caller replace the SVG ones.
        ReportOptions withImages;
        withImages.images = {{QStringLiteral("Per-layer time"), QStringLiteral("data:image/png;base64,iVBOR"), 600, 300}};
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
        auto r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QString::number(a), QStringLiteral("-o"), one,
                               QStringLiteral("--db"), db});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("wrote"), r.out.constData());
        const QString html = readAll(one);
        QVERIFY(html.contains(QStringLiteral("run #%1").arg(a)));
        QVERIFY(html.contains(QStringLiteral("resnet18.onnx")));
        QVERIFY(html.contains(QStringLiteral("5.000"))); // the conv layer, in ms
        QVERIFY(html.endsWith(QStringLiteral("</html>\n")));

        const QString two = m_dir.filePath(QStringLiteral("two.html"));
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QString::number(b), QStringLiteral("--against"),
                          QString::number(a), QStringLiteral("-o"), two, QStringLiteral("--db"), db, QStringLiteral("--top"),
                          QStringLiteral("3")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString cmp = readAll(two);
        QVERIFY(cmp.contains(QStringLiteral("against")));
        QVERIFY2(cmp.contains(QStringLiteral("Run #%1 / run #%2 (median): <b>0.800</b>").arg(b).arg(a)), qPrintable(cmp));
        QVERIFY(cmp.contains(QStringLiteral("largest changes")));
        QVERIFY(cmp.contains(QStringLiteral("portable &rarr; xnnpack"))); // the conv changed library
        QVERIFY(!cmp.contains(QStringLiteral("different models")));

        const QString mixed = m_dir.filePath(QStringLiteral("mixed.html"));
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QString::number(other), QStringLiteral("--against"),
                          QString::number(a), QStringLiteral("-o"), mixed, QStringLiteral("--db"), db});
        QCOMPARE(r.code, 0);
        QVERIFY(readAll(mixed).contains(QStringLiteral("different models")));

        // Errors: usage (2) or a clear message, and no file written.
        const QString none = m_dir.filePath(QStringLiteral("none.html"));
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QString::number(a), QStringLiteral("--db"), db});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("-o FILE.html"), r.err.constData());
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QString::number(a), QStringLiteral("-o"),
                          m_dir.filePath(QStringLiteral("r.txt")), QStringLiteral("--db"), db});
        QCOMPARE(r.code, 2);
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("r.txt"))));
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QStringLiteral("999"), QStringLiteral("-o"), none,
                          QStringLiteral("--db"), db});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("999"), r.err.constData());
        QVERIFY(!QFile::exists(none));
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("report"), QString::number(a), QStringLiteral("--against"),
                          QStringLiteral("x"), QStringLiteral("-o"), none, QStringLiteral("--db"), db});
        QCOMPARE(r.code, 2);
        QVERIFY(!QFile::exists(none));
        r = test::runCli({QStringLiteral("runs"), QStringLiteral("show"), QString::number(a), QStringLiteral("--against"),
                          QString::number(b), QStringLiteral("--db"), db});
        QCOMPARE(r.code, 2);
    }
};

QTEST_MAIN(TestRunsReport)
#include "tst_runs_report.moc"

// Building upstream XNNPACK into the cache from ../shared/xnnpack/src: refused dependency
// commits, a corrupt tarball, a cancelled build, then a real riscv64 build that an export for
// sim-k230 links with no XNNPACK_ROOT and runs under qemu.
#include "support/test_paths.h"
#include "xnnpack/xnnpack_builder.h"
#include "xnnpack/xnnpack_resolve.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace embark;

namespace {

QString sharedSources() {
    const QString d = (embark::test::sharedDir() + "/xnnpack/src");
    return QFileInfo::exists(d + "/XNNPACK-fb000666.tar.gz") ? d : QString();
}

#define REQUIRE_SOURCES(var)                                                                                           \
  const QString var = sharedSources();                                                                                 \
  if (var.isEmpty()) QSKIP("../shared/xnnpack/src is absent: the XNNPACK build tier runs only where it exists")

// A tarball folder made of links to the shared tarballs, with `cpuinfoName` for cpuinfo.
QString linkTarballs(const QString& src, const QString& dir, const QString& cpuinfoName) {
    QDir().mkpath(dir);
    for (const char* t : {"XNNPACK-fb000666.tar.gz", "pthreadpool-0e6ca13.tar.gz", "FXdiv-b408327.tar.gz"})
        QFile::link(src + "/" + t, dir + "/" + t);
    if (!cpuinfoName.isEmpty()) QFile::link(src + "/cpuinfo-f9a0324.tar.gz", dir + "/" + cpuinfoName);
    return dir;
}

// What the cache holds besides logs/: entries and staging folders alike.
QStringList cacheFolders(const QString& cache) {
    QStringList d = QDir(cache).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden);
    d.removeAll("logs");
    return d;
}

// Processes whose command line mentions `text` (the build's own work folder).
QStringList processesMentioning(const QString& text) {
    QStringList found;
    for (const QString& pid : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool isPid = false;
        pid.toInt(&isPid);
        if (!isPid) continue;
        QFile f("/proc/" + pid + "/cmdline");
        if (!f.open(QIODevice::ReadOnly)) continue;
        QByteArray cmd = f.readAll();
        cmd.replace('\0', ' ');
        if (cmd.contains(text.toUtf8())) found << pid + ": " + QString::fromUtf8(cmd.left(200));
    }
    return found;
}

struct CliRun {
    int code = -1;
    QString out, err;
    QByteArray describe() const {
        return ("exit " + QString::number(code) + "\nstdout: " + out.right(2000) + "\nstderr: " + err.right(2000))
            .toUtf8();
    }
};

CliRun cli(const QStringList& args, const QProcessEnvironment& env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(test::cliPath(), args);
    CliRun r;
    if (!p.waitForStarted() || !p.waitForFinished(25 * 60 * 1000)) {
        p.kill();
        r.err = "embark-cli did not start or finish: " + p.errorString();
        return r;
    }
    r.code = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestXnnpackBuild : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    xnnpack::XnnpackBuildOptions options(const QString& cache, const QString& tarballs) {
        xnnpack::XnnpackBuildOptions o;
        o.arch = "riscv64";
        o.tarballsDir = tarballs;
        o.cacheRoot = cache;
        o.workRoot = m_tmp.path();
        o.jobs = 2;
        return o;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        qunsetenv("XNNPACK_ROOT");
    }

    // The known trap: XNNPACK links against another cpuinfo without a word, then crashes.
    void mismatchedDependencyIsRefused() {
        REQUIRE_SOURCES(src);
        const QString cache = m_tmp.path() + "/cache-mismatch";
        auto o = options(cache, linkTarballs(src, m_tmp.path() + "/wrong-cpuinfo", "cpuinfo-d610881.tar.gz"));
        auto r = xnnpack::buildXnnpack(o);
        QVERIFY(!r);
        QCOMPARE(int(r.error().kind), int(ErrorKind::InvalidInput));
        const QString msg = QString::fromStdString(r.error().message);
        QVERIFY2(msg.contains("cpuinfo source is commit d610881") &&
                     msg.contains("f9a03241f8c3d4ed0c9728f5d70bff873d43d4e0") && msg.contains("DownloadCpuinfo.cmake"),
                 qPrintable(msg));
        QVERIFY2(cacheFolders(cache).isEmpty(), qPrintable(cacheFolders(cache).join(',')));
    }

    void corruptTarballFailsWithTheLogPath() {
        REQUIRE_SOURCES(src);
        const QString dir = linkTarballs(src, m_tmp.path() + "/corrupt", "");
        QFile in(src + "/cpuinfo-f9a0324.tar.gz");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QFile out(dir + "/cpuinfo-f9a0324.tar.gz");
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(in.read(200000)); // cut short, as an interrupted download would be
        out.close();
        const QString cache = m_tmp.path() + "/cache-corrupt";
        auto r = xnnpack::buildXnnpack(options(cache, dir));
        QVERIFY(!r);
        QCOMPARE(int(r.error().kind), int(ErrorKind::External));
        const QString msg = QString::fromStdString(r.error().message);
        QVERIFY2(msg.contains("cpuinfo-f9a0324.tar.gz") && msg.contains("Full log: " + cache + "/logs/"),
                 qPrintable(msg));
        const QString log = msg.section("Full log: ", 1).trimmed();
        QVERIFY2(QFileInfo::exists(log), qPrintable(log));
        QVERIFY(cacheFolders(cache).isEmpty());
    }

    void cancelledBuildLeavesNothing() {
        REQUIRE_SOURCES(src);
        const QString cache = m_tmp.path() + "/cache-cancel";
        const QString work = m_tmp.path() + "/work-cancel";
        QVERIFY(QDir().mkpath(work));
        auto o = options(cache, src);
        o.workRoot = work;
        std::atomic_bool cancel{false};
        int progressLines = 0;
        o.cancel = &cancel;
        o.progress = [&](int, int) {
            ++progressLines;
            cancel = true; // after the first [n/m] line
        };
        auto r = xnnpack::buildXnnpack(o);
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error().message).contains("cancelled"), r.error().message.c_str());
        QVERIFY(progressLines >= 1);
        QVERIFY2(cacheFolders(cache).isEmpty(), qPrintable(cacheFolders(cache).join(',')));
        QVERIFY2(QDir(work).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty(), "the work folder was left behind");
        const QStringList left = processesMentioning(work);
        QVERIFY2(left.isEmpty(), qPrintable(left.join('\n')));
    }

    // The whole path: build from the tarballs, then export, build and run digits_cnn on
    // sim-k230 with that cache and no XNNPACK_ROOT.
    void builtTreeIsLinkedByExports() {
        REQUIRE_SOURCES(src);
        const QString cache = m_tmp.path() + "/cache";
        auto o = options(cache, src);
        int lastDone = 0, total = 0;
        o.progress = [&](int done, int all) {
            lastDone = done;
            total = all;
        };
        auto r = xnnpack::buildXnnpack(o);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY(!r->alreadyBuilt);
        QVERIFY(total > 0 && lastDone == total);
        QVERIFY2(QFileInfo(r->dir).fileName().startsWith("riscv64-fb000666d5c2-"), qPrintable(r->dir));
        QVERIFY(QFileInfo::exists(r->logPath));
        qInfo("riscv64 XNNPACK built in %.0f s", r->manifest.buildSeconds);
        auto tree = xnnpack::inspectXnnpackTree(r->dir, "riscv64");
        QVERIFY2(tree, tree ? "" : tree.error().message.c_str());
        QVERIFY(tree->hasRvv);
        QCOMPARE(tree->api, QString("upstream"));
        QVERIFY(tree->manifest);
        const auto& m = *tree->manifest;
        QCOMPARE(m.arch, QString("riscv64"));
        QCOMPARE(m.xnnpackCommit, QString(xnnpack::kPinnedXnnpackCommit));
        QCOMPARE(m.cpuinfoCommit, QString("f9a03241f8c3d4ed0c9728f5d70bff873d43d4e0"));
        QCOMPARE(m.pthreadpoolCommit, QString("0e6ca13779b57d397a5ba6bfdcaa8a275bc8ea2e"));
        QCOMPARE(m.fxdivCommit, QString("b408327ac2a15ec3e43352421954f5b1967701d1"));
        QVERIFY(m.rvv);
        QVERIFY2(m.compiler.startsWith("clang-19"), qPrintable(m.compiler));
        QVERIFY(m.flags.contains("-march=rv64gcv") || m.flags.contains("-DCMAKE_C_FLAGS=-march=rv64gcv"));
        QVERIFY(m.flags.contains("-DXNNPACK_ENABLE_RISCV_VECTOR=ON"));
        QVERIFY(!m.buildDate.isEmpty());
        QCOMPARE(cacheFolders(cache), QStringList{QFileInfo(r->dir).fileName()});

        auto again = xnnpack::buildXnnpack(o);
        QVERIFY2(again && again->alreadyBuilt && again->dir == r->dir, again ? "" : again.error().message.c_str());

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("XNNPACK_ROOT");
        env.insert("EMBARK_XNNPACK_CACHE", cache);
        const QString model = test::sourceDir() + "/resources/models/digits_cnn.onnx";
        CliRun plan = cli({"plan", model, "--arch", "riscv64", "--lib", "xnnpack", "--json"}, env);
        QVERIFY2(plan.code == 0, plan.describe());
        const QJsonObject planXnn = QJsonDocument::fromJson(plan.out.toUtf8()).object().value("xnnpack").toObject();
        QCOMPARE(planXnn.value("kind").toString(), QString("embark-built"));
        QCOMPARE(planXnn.value("path").toString(), r->dir);

        const QString out = m_tmp.path() + "/digits-k230";
        CliRun e = cli({"export", model, "--board", "sim-k230", "--lib", "xnnpack", "-o", out}, env);
        QVERIFY2(e.code == 0, e.describe());
        QFile manifest(out + "/export.json");
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        const QJsonObject xnn = QJsonDocument::fromJson(manifest.readAll()).object().value("xnnpack").toObject();
        QCOMPARE(xnn.value("kind").toString(), QString("embark-built"));
        QCOMPARE(xnn.value("path").toString(), r->dir);
        QCOMPARE(xnn.value("commit").toString(), QString(xnnpack::kPinnedXnnpackCommit));
        QCOMPARE(xnn.value("api").toString(), QString("upstream"));
        CliRun b = cli({"build", out, "--jobs", "2", "--quiet"}, env);
        QVERIFY2(b.code == 0 && b.out.contains("riscv64"), b.describe());

        // The bench pipeline resolves the same tree, runs on qemu and compares with the reference.
        CliRun bench = cli({"bench", model, "--board", "sim-k230", "--lib", "xnnpack", "--iterations", "2", "--json",
                            "--db", "-", "--work-dir", m_tmp.path() + "/bench"},
                           env);
        QVERIFY2(bench.code == 0, bench.describe());
        const QJsonObject j = QJsonDocument::fromJson(bench.out.toUtf8()).object();
        QCOMPARE(j.value("status").toString(), QString("ok"));
        const QJsonArray outputs = j.value("accuracy").toObject().value("outputs").toArray();
        QVERIFY(!outputs.isEmpty());
        QVERIFY2(outputs.first().toObject().value("max_abs").toDouble() < 1e-3, bench.describe());
    }
};

QTEST_GUILESS_MAIN(TestXnnpackBuild)
#include "tst_build.moc"

// XNNPACK trees checked before anything links (ELF machine of archive members, missing
// libraries, RVV kernels, API) and the resolution order XNNPACK_ROOT > cache > Debian's.
#include "support/test_paths.h"
#include "xnnpack/xnnpack_builder.h"
#include "xnnpack/xnnpack_resolve.h"
#include "xnnpack/xnnpack_tree.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace embark;

namespace {

QString sharedTree(const QString& arch) {
    const QString d = (embark::test::sharedDir() + "/xnnpack/prebuilt/") + arch;
    return QFileInfo::exists(d + "/include/xnnpack.h") ? d : QString();
}

bool run(const QString& program, const QStringList& args, const QString& dir, QString* output = nullptr) {
    QProcess p;
    p.setWorkingDirectory(dir);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    const bool ok = p.waitForFinished(120000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (output) *output = QString::fromUtf8(p.readAll());
    return ok;
}

// Compiles one C function per member name with a real compiler for `arch` and archives them
// with `ar`, so the archive's members carry that ELF machine (and the names XNNPACK gives).
QString makeArchive(const QString& dir, const QString& arch, const QString& lib, const QStringList& members) {
    QDir().mkpath(dir + "/obj-" + lib);
    QStringList objects;
    for (const QString& m : members) {
        const QString src = dir + "/obj-" + lib + "/" + m + ".c";
        QFile f(src);
        if (!f.open(QIODevice::WriteOnly)) return "cannot write " + src;
        QString fn = m;
        fn.replace('-', '_');
        f.write(QStringLiteral("int xnn_%1__%2(int x) { return x + 1; }\n")
                    .arg(fn, m.contains("rvv") ? "rvv_u4v" : "scalar_u4")
                    .toUtf8());
        f.close();
        const QString obj = dir + "/obj-" + lib + "/" + m + ".c.o";
        QStringList args{"-c", "-O1", src, "-o", obj};
        if (arch != "x86_64") args << "--target=" + arch + "-linux-gnu";
        if (arch == "riscv64") args << (m.contains("rvv") ? "-march=rv64gcv" : "-march=rv64gc");
        QString out;
        if (!run("clang-19", args, dir, &out)) return "clang-19 failed: " + out;
        objects << obj;
    }
    QDir().mkpath(dir + "/lib");
    QString out;
    if (!run(arch == "x86_64" ? "ar" : arch + "-linux-gnu-ar",
             QStringList{"rcs", dir + "/lib/lib" + lib + ".a"} + objects, dir, &out))
        return "ar failed: " + out;
    return {};
}

// A small static tree: include/xnnpack.h (upstream API when `upstream`), the four archives.
QString makeTree(const QString& dir, const QString& arch, bool rvv, bool upstream = true,
                 const QStringList& skip = {}) {
    QDir().mkpath(dir + "/include");
    QFile h(dir + "/include/xnnpack.h");
    if (!h.open(QIODevice::WriteOnly)) return "cannot write xnnpack.h";
    h.write(upstream ? "enum xnn_status xnn_reshape_convolution2d_nhwc_f32(void*);\n"
                     : "enum xnn_status xnn_setup_convolution2d_nhwc_f32(void*);\n");
    h.close();
    const QList<QPair<QString, QStringList>> libs{
        {"XNNPACK", {"init", "operator-run"}},
        {"xnnpack-microkernels-prod",
         rvv ? QStringList{"f32-vadd-scalar", "f32-vadd-rvv"} : QStringList{"f32-vadd-scalar"}},
        {"pthreadpool", {"pthreads"}},
        {"cpuinfo", {"api", "init"}}};
    for (const auto& [lib, members] : libs) {
        if (skip.contains(lib)) continue;
        if (QString e = makeArchive(dir, arch, lib, members); !e.isEmpty()) return e;
    }
    return {};
}

QString message(const Error& e) { return QString::fromStdString(e.message); }

void writeManifest(const QString& dir, const QString& arch, const QString& commit, const QString& date) {
    xnnpack::XnnpackManifest m;
    m.arch = arch;
    m.xnnpackCommit = commit;
    m.rvv = arch == "riscv64";
    m.buildDate = date;
    QFile f(dir + "/" + xnnpack::kManifestName);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(m.toJson()).toJson());
}

bool copyTree(const QString& from, const QString& to) { return run("cp", {"-r", from, to}, QDir::tempPath()); }

} // namespace

class TestXnnpackTree : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_rvTree, m_rvScalarTree, m_x86Tree;

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        if (QStandardPaths::findExecutable("clang-19").isEmpty() ||
            QStandardPaths::findExecutable("riscv64-linux-gnu-ar").isEmpty())
            QSKIP("clang-19 and riscv64-linux-gnu-ar are needed to make the test archives");
        m_rvTree = m_tmp.path() + "/rv";
        m_rvScalarTree = m_tmp.path() + "/rv-scalar";
        m_x86Tree = m_tmp.path() + "/x86";
        QString e = makeTree(m_rvTree, "riscv64", true);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        e = makeTree(m_rvScalarTree, "riscv64", false, false);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        e = makeTree(m_x86Tree, "x86_64", false);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        // Nothing from the environment of whoever runs the test.
        qunsetenv("XNNPACK_ROOT");
        qputenv("EMBARK_XNNPACK_CACHE", QFile::encodeName(m_tmp.path() + "/cache"));
    }

    void archiveMachineIsTheFirstElfMember() {
        QStringList members;
        QByteArray symbols;
        QCOMPARE(xnnpack::archiveElfMachine(m_rvTree + "/lib/libxnnpack-microkernels-prod.a", &members, &symbols),
                 QString("riscv64"));
        QVERIFY2(members.contains("f32-vadd-rvv.c.o"), qPrintable(members.join(',')));
        QVERIFY(symbols.contains("__rvv"));
        QCOMPARE(xnnpack::archiveElfMachine(m_x86Tree + "/lib/libcpuinfo.a"), QString("x86_64"));
        QCOMPARE(xnnpack::archiveElfMachine(m_x86Tree + "/obj-cpuinfo/api.c.o"), QString("x86_64"));
        QCOMPARE(xnnpack::archiveElfMachine(m_x86Tree + "/include/xnnpack.h"), QString());
    }

    void rvvTreeIsAccepted() {
        auto t = xnnpack::inspectXnnpackTree(m_rvTree, "riscv64");
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QVERIFY(t->isStatic);
        QVERIFY(t->hasRvv);
        QCOMPARE(t->api, QString("upstream"));
        QCOMPARE(t->libraries.size(), 4);
        QVERIFY(t->warnings.isEmpty());
    }

    void otherMachineIsRefusedNamingIt() {
        auto t = xnnpack::inspectXnnpackTree(m_x86Tree, "riscv64");
        QVERIFY(!t);
        QCOMPARE(int(t.error().kind), int(ErrorKind::InvalidInput));
        QVERIFY2(message(t.error()).contains("built for x86_64 (ELF machine), not riscv64"), t.error().message.c_str());
        QVERIFY2(message(t.error()).contains(m_x86Tree) && message(t.error()).contains("libXNNPACK.a"),
                 t.error().message.c_str());
        QVERIFY2(message(t.error()).contains("embark-cli xnnpack build --arch riscv64"), t.error().message.c_str());
    }

    void missingLibraryIsRefused_data() {
        QTest::addColumn<QString>("lib");
        QTest::newRow("cpuinfo") << "cpuinfo";
        QTest::newRow("pthreadpool") << "pthreadpool";
        QTest::newRow("micro-kernels") << "xnnpack-microkernels-prod";
    }
    void missingLibraryIsRefused() {
        QFETCH(QString, lib);
        const QString dir = m_tmp.path() + "/no-" + lib;
        QString e = makeTree(dir, "riscv64", true, true, {lib});
        QVERIFY2(e.isEmpty(), qPrintable(e));
        auto t = xnnpack::inspectXnnpackTree(dir, "riscv64");
        QVERIFY(!t);
        QVERIFY2(message(t.error()).contains("lib" + lib) && message(t.error()).contains(dir),
                 t.error().message.c_str());
    }

    void missingHeaderIsRefused() {
        auto t = xnnpack::inspectXnnpackTree(m_tmp.path() + "/rv/lib", "riscv64");
        QVERIFY(!t);
        QVERIFY2(message(t.error()).contains("include/xnnpack.h"), t.error().message.c_str());
    }

    void scalarTreeWarnsForAnRvvBoard() {
        auto t = xnnpack::inspectXnnpackTree(m_rvScalarTree, "riscv64", true);
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QVERIFY(!t->hasRvv);
        QCOMPARE(t->api, QString("legacy"));
        QCOMPARE(t->warnings.size(), 1);
        QVERIFY2(t->warnings.first().contains("no RVV") && t->warnings.first().contains("scalar"),
                 qPrintable(t->warnings.first()));
        auto quiet = xnnpack::inspectXnnpackTree(m_rvScalarTree, "riscv64", false);
        QVERIFY(quiet && quiet->warnings.isEmpty());
    }

    void sharedPrebuiltTreesAreValid_data() {
        QTest::addColumn<QString>("arch");
        QTest::newRow("riscv64") << "riscv64";
        QTest::newRow("aarch64") << "aarch64";
        QTest::newRow("x86_64") << "x86_64";
    }
    void sharedPrebuiltTreesAreValid() {
        QFETCH(QString, arch);
        const QString dir = sharedTree(arch);
        if (dir.isEmpty()) QSKIP("../shared/xnnpack/prebuilt is absent");
        auto t = xnnpack::inspectXnnpackTree(dir, arch);
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(t->api, QString("upstream"));
        QCOMPARE(t->hasRvv, arch == "riscv64");
        QVERIFY(t->warnings.isEmpty());
        if (arch != "x86_64") QVERIFY(!xnnpack::inspectXnnpackTree(dir, "x86_64"));
    }

    void isaNamesRvv_data() {
        QTest::addColumn<QString>("isa");
        QTest::addColumn<bool>("rvv");
        QTest::newRow("rv64gcv") << "rv64gcv" << true;
        QTest::newRow("rv64imafdcv_zba") << "rv64imafdcv_zba" << true;
        QTest::newRow("rv64gc") << "rv64gc" << false;
        QTest::newRow("rv64gc_zvl") << "rv64gc_zvl128b" << false;
        QTest::newRow("armv8.2-a") << "armv8.2-a" << false;
    }
    void isaNamesRvv() {
        QFETCH(QString, isa);
        QFETCH(bool, rvv);
        QCOMPARE(xnnpack::isaHasRvv(isa), rvv);
    }

    // XNNPACK_ROOT beats the cache, the cache beats Debian's, nothing gives the reason and the fix.
    void resolutionOrder() {
        const QString cache = m_tmp.path() + "/cache";
        QDir(cache).removeRecursively();
        QVERIFY(QDir().mkpath(cache));
        auto none = xnnpack::resolveXnnpack("riscv64");
        QCOMPARE(none.kind, xnnpack::XnnpackKind::None);
        QVERIFY2(none.reason.contains(cache), qPrintable(none.reason));
        QCOMPARE(none.fix, QString("embark-cli xnnpack build --arch riscv64"));
        QVERIFY(!xnnpack::haveXnnpackFor("riscv64"));

        // A staging folder (an interrupted build) is not an entry.
        QVERIFY(copyTree(m_rvTree, cache + "/.tmp-riscv64-fb000666d5c2-0123abcd-x"));
        QCOMPARE(xnnpack::resolveXnnpack("riscv64").kind, xnnpack::XnnpackKind::None);

        const QString entry = cache + "/riscv64-fb000666d5c2-0123abcd";
        QVERIFY(copyTree(m_rvTree, entry));
        writeManifest(entry, "riscv64", xnnpack::kPinnedXnnpackCommit, "2026-12-01T10:00:00Z");
        auto cached = xnnpack::resolveXnnpack("riscv64");
        QCOMPARE(cached.kind, xnnpack::XnnpackKind::EmbarkBuilt);
        QCOMPARE(cached.path, entry);
        QCOMPARE(cached.commit, QString(xnnpack::kPinnedXnnpackCommit));
        QCOMPARE(cached.rootForExport(), entry);
        QVERIFY2(cached.describe().contains("Embark-built upstream XNNPACK fb000666d5c2"),
                 qPrintable(cached.describe()));
        QCOMPARE(xnnpack::cacheEntries().size(), size_t(1));

        qputenv("XNNPACK_ROOT", QFile::encodeName(m_rvScalarTree));
        auto user = xnnpack::resolveXnnpack("riscv64");
        QCOMPARE(user.kind, xnnpack::XnnpackKind::UserTree);
        QCOMPARE(user.path, m_rvScalarTree);
        QCOMPARE(user.warnings.size(), 1); // no RVV kernels for an RVV board

        qputenv("XNNPACK_ROOT", QFile::encodeName(m_x86Tree)); // set but for another CPU
        auto wrong = xnnpack::resolveXnnpack("riscv64");
        QCOMPARE(wrong.kind, xnnpack::XnnpackKind::None);
        QVERIFY2(wrong.reason.contains("XNNPACK_ROOT") && wrong.reason.contains("x86_64"), qPrintable(wrong.reason));
        qunsetenv("XNNPACK_ROOT");
    }

    void cacheBeatsDebianOnTheHost() {
        if (!QFileInfo::exists("/usr/include/xnnpack.h") || QSysInfo::currentCpuArchitecture() != "x86_64")
            QSKIP("needs an x86_64 host with Debian's libxnnpack-dev");
        const QString cache = m_tmp.path() + "/cache";
        QDir(cache).removeRecursively();
        QVERIFY(QDir().mkpath(cache));
        auto debian = xnnpack::resolveXnnpack("x86_64");
        QCOMPARE(debian.kind, xnnpack::XnnpackKind::Debian);
        QCOMPARE(debian.path, QString("/usr"));
        QCOMPARE(debian.api, QString("legacy"));
        QVERIFY(debian.rootForExport().isEmpty()); // xnnpack.cmake finds it itself
        const QString entry = cache + "/x86_64-fb000666d5c2-0123abcd";
        QVERIFY(copyTree(m_x86Tree, entry));
        writeManifest(entry, "x86_64", xnnpack::kPinnedXnnpackCommit, "2026-12-01T10:00:00Z");
        QCOMPARE(xnnpack::resolveXnnpack("x86_64").kind, xnnpack::XnnpackKind::EmbarkBuilt);
    }

    void pinnedCommitsAreReadFromTheDownloadFiles() {
        const QString src = m_tmp.path() + "/xnn-src/cmake";
        QVERIFY(QDir().mkpath(src));
        auto write = [&](const QString& name, const QString& sha) {
            QFile f(src + "/" + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("ExternalProject_Add(x\n  URL "
                                   "https://github.com/o/p/archive/%1.zip\n  URL_HASH SHA256=00\n)\n")
                        .arg(sha)
                        .toUtf8());
        };
        write("DownloadCpuinfo.cmake", QString(40, 'a'));
        write("DownloadPThreadPool.cmake", QString(40, 'b'));
        write("DownloadFXdiv.cmake", QString(40, 'c'));
        auto p = xnnpack::readPinnedCommits(m_tmp.path() + "/xnn-src");
        QVERIFY2(p, p ? "" : p.error().message.c_str());
        QCOMPARE(p->cpuinfo, QString(40, 'a'));
        QCOMPARE(p->pthreadpool, QString(40, 'b'));
        QCOMPARE(p->fxdiv, QString(40, 'c'));
        QFile::remove(src + "/DownloadFXdiv.cmake");
        auto missing = xnnpack::readPinnedCommits(m_tmp.path() + "/xnn-src");
        QVERIFY(!missing);
        QVERIFY2(message(missing.error()).contains("DownloadFXdiv.cmake"), missing.error().message.c_str());
    }

    // embark-cli: no tree for riscv64 names the fix; a cache entry is what plan reports.
    void cliNamesTheFixAndTheTree() {
        const QString cache = m_tmp.path() + "/cli-cache";
        QDir(cache).removeRecursively();
        QVERIFY(QDir().mkpath(cache));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("XNNPACK_ROOT");
        env.insert("EMBARK_XNNPACK_CACHE", cache);
        auto cli = [&](const QStringList& args, QString* out, QString* err) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(test::cliPath(), args);
            if (!p.waitForFinished(300000)) return -1;
            *out = QString::fromUtf8(p.readAllStandardOutput());
            *err = QString::fromUtf8(p.readAllStandardError());
            return p.exitCode();
        };
        const QString model = test::sourceDir() + "/resources/models/digits_cnn.onnx";
        QString out, err;
        QCOMPARE(cli({"export", model, "--board", "sim-k230", "--lib", "xnnpack", "-o", m_tmp.path() + "/no-tree"},
                     &out, &err),
                 3);
        QVERIFY2(err.contains("embark-cli xnnpack build --arch riscv64"), qPrintable(err));
        QCOMPARE(cli({"xnnpack", "build", "--arch", "riscv64"}, &out, &err), 2);
        QVERIFY2(err.contains("git clone https://github.com/google/XNNPACK"), qPrintable(err));
        QCOMPARE(cli({"xnnpack", "list", "--json"}, &out, &err), 0);
        const QJsonObject list = QJsonDocument::fromJson(out.toUtf8()).object();
        QCOMPARE(list.value("cache").toString(), cache);
        bool sawRiscv = false;
        for (const QJsonValue& v : list.value("resolved").toArray())
            if (v.toObject().value("arch").toString() == "riscv64") {
                sawRiscv = true;
                QCOMPARE(v.toObject().value("kind").toString(), QString("none"));
                QCOMPARE(v.toObject().value("fix").toString(), QString("embark-cli xnnpack build --arch riscv64"));
            }
        QVERIFY(sawRiscv);

        const QString entry = cache + "/riscv64-fb000666d5c2-0123abcd";
        QVERIFY(copyTree(m_rvTree, entry));
        writeManifest(entry, "riscv64", xnnpack::kPinnedXnnpackCommit, "2026-12-01T10:00:00Z");
        QCOMPARE(cli({"plan", model, "--arch", "riscv64", "--lib", "xnnpack", "--json"}, &out, &err), 0);
        const QJsonObject xnn = QJsonDocument::fromJson(out.toUtf8()).object().value("xnnpack").toObject();
        QCOMPARE(xnn.value("kind").toString(), QString("embark-built"));
        QCOMPARE(xnn.value("path").toString(), entry);
        QCOMPARE(cli({"plan", model, "--arch", "riscv64", "--lib", "xnnpack"}, &out, &err), 0);
        QVERIFY2(out.contains("XNNPACK   Embark-built upstream XNNPACK fb000666d5c2"), qPrintable(out));
    }

    // xnnpack.cmake stops the configure, naming the library, when XNNPACK_ROOT is for another CPU.
    void exportCmakeRefusesAnotherMachine() {
        const QString project = m_tmp.path() + "/cmake-check";
        QVERIFY(QDir().mkpath(project));
        QFile f(project + "/CMakeLists.txt");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("cmake_minimum_required(VERSION 3.16)\nproject(check C "
                               "CXX)\ninclude(\"%1/runtime/xnnpack/xnnpack.cmake\")\n")
                    .arg(test::sourceDir())
                    .toUtf8());
        f.close();
        QString out;
        QVERIFY(!run("cmake", {"-S", project, "-B", project + "/build", "-DXNNPACK_ROOT=" + m_rvTree}, project, &out));
        out = out.simplified(); // CMake wraps its messages
        QVERIFY2(out.contains("libXNNPACK.a") && out.contains("is built for riscv64, but this build targets x86_64"),
                 qPrintable(out));
        QVERIFY(QDir(project + "/build").removeRecursively());
        QVERIFY(!run("cmake",
                     {"-S", project, "-B", project + "/build", "-DXNNPACK_ROOT=" + m_tmp.path() + "/no-cpuinfo"},
                     project, &out));
        QVERIFY2(out.simplified().contains("missing: libcpuinfo"), qPrintable(out));
    }

    void buildWithoutSourcesSaysWhereToGetThem() {
        xnnpack::XnnpackBuildOptions o;
        o.arch = "riscv64";
        o.cacheRoot = m_tmp.path() + "/cache-nosrc";
        auto r = xnnpack::buildXnnpack(o);
        QVERIFY(!r);
        QCOMPARE(int(r.error().kind), int(ErrorKind::Usage));
        QVERIFY2(message(r.error()).contains("git clone https://github.com/google/XNNPACK") &&
                     message(r.error()).contains(xnnpack::kPinnedXnnpackCommit),
                 r.error().message.c_str());
        o.tarballsDir = m_tmp.path();
        o.arch = "mips";
        QCOMPARE(int(xnnpack::buildXnnpack(o).error().kind), int(ErrorKind::Usage));
    }
};

QTEST_GUILESS_MAIN(TestXnnpackTree)
#include "tst_tree.moc"

// Build faults on a real export of the sample model (native toolchain): a toolchain whose
// compiler does not exist, a compiler missing from PATH, a corrupted generated source, and a
// cancel at random points of a full build (EMBARK_CANCEL_TRIALS trials, default 4, spread over
// the build). Each ends with the right state and the compiler's (or CMake's) message, leaves no
// process of the build behind, and changes nothing in the export folder but build/.
#include "compile/export_builder.h"
#include "export/exporter.h"
#include "onnx/importer.h"
#include "support/test_paths.h"
#include "targets/toolchain.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>

using namespace embark;

namespace {

const bool kLongWatchdog = [] {
    if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT")) qputenv("QTEST_FUNCTION_TIMEOUT", "3600000");
    return true;
}();

// Relative path -> sha256 of every file of an export, build/ excepted.
std::map<QString, QByteArray> hashTree(const QString& dir) {
    std::map<QString, QByteArray> out;
    for (QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();) {
        const QString path = it.next();
        const QString rel = QDir(dir).relativeFilePath(path);
        if (rel.startsWith("build/")) continue;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) continue;
        out[rel] = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
    }
    return out;
}

// Processes whose command line names `dir` (cmake, ninja, the compilers of that build).
QString processesUsing(const QString& dir) {
    QProcess p;
    p.start("pgrep", {"-a", "-f", QRegularExpression::escape(dir)});
    p.waitForFinished(10000);
    return QString::fromLocal8Bit(p.readAllStandardOutput()).trimmed();
}

bool copyTree(const QString& from, const QString& to) { return QProcess::execute("cp", {"-a", from, to}) == 0; }

QString messageOf(const Error& e) { return QString::fromStdString(e.message); }

} // namespace

class TestBuildFaults : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_export;

    build::BuildOptions options(const QString& dir, const std::atomic_bool* cancel = nullptr) const {
        build::BuildOptions o;
        o.exportDir = dir;
        o.jobs = 2;
        o.cancel = cancel;
        return o;
    }

private slots:
    void initTestCase() {
        // The cancel trials need real compiler runs: a compiler cache would finish them first.
        qputenv("EMBARK_CCACHE", "0");
        QVERIFY(m_tmp.isValid());
        auto graph = onnx::importModel((test::sourceDir() + "/resources/models/digits_cnn.onnx").toStdString());
        QVERIFY2(graph, graph ? "" : graph.error().message.c_str());
        exporter::ExportOptions eo;
        eo.library = "portable";
        eo.outDir = m_tmp.path() + "/digits";
        auto exported = exporter::exportModel(*graph, eo);
        QVERIFY2(exported, exported ? "" : exported.error().message.c_str());
        m_export = eo.outDir;
    }

    // With ccache installed, builds compile through it (EMBARK_CCACHE=0 turns it off), so
    // exports in other folders reuse the kernels' objects.
    void compilerCacheWhenInstalled() {
        if (QStandardPaths::findExecutable("ccache").isEmpty()) QSKIP("ccache is not installed");
        const QString dir = m_tmp.path() + "/cached";
        QVERIFY(copyTree(m_export, dir));
        auto launcher = [&] {
            QFile f(dir + "/build/CMakeCache.txt");
            if (!f.open(QIODevice::ReadOnly)) return QStringLiteral("(no CMakeCache.txt)");
            for (const QByteArray& line : f.readAll().split('\n'))
                if (line.startsWith("CMAKE_CXX_COMPILER_LAUNCHER:"))
                    return QString::fromUtf8(line.mid(line.indexOf('=') + 1));
            return QStringLiteral("(not set)");
        };
        qunsetenv("EMBARK_CCACHE");
        auto r = build::buildExport(options(dir));
        qputenv("EMBARK_CCACHE", "0");
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(launcher(), QStandardPaths::findExecutable("ccache"));
        // EMBARK_CCACHE=0: the configure drops the launcher. Checked once the compiles have
        // started, then cancelled: cancelAtRandomPoints runs whole builds without the cache.
        std::atomic_bool started{false};
        build::BuildOptions o = options(dir, &started);
        o.progress = [&](int, int) { started = true; };
        r = build::buildExport(o);
        QVERIFY2(r || messageOf(r.error()).startsWith("cancelled"), r ? "" : r.error().message.c_str());
        QCOMPARE(launcher(), QString());
    }

    void compilerThatDoesNotExist() {
        const QString dir = m_tmp.path() + "/missing-compiler";
        QVERIFY(copyTree(m_export, dir));
        const QString toolchain = m_tmp.path() + "/missing.toolchain.cmake";
        QFile f(toolchain);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("set(CMAKE_SYSTEM_NAME Linux)\nset(CMAKE_SYSTEM_PROCESSOR riscv64)\n"
                "set(CMAKE_C_COMPILER /opt/no-such-toolchain/bin/riscv64-linux-gnu-gcc)\n"
                "set(CMAKE_CXX_COMPILER /opt/no-such-toolchain/bin/riscv64-linux-gnu-g++)\n");
        f.close();
        const auto before = hashTree(dir);
        build::BuildOptions o = options(dir);
        o.toolchainFile = toolchain;
        auto r = build::buildExport(o);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, ErrorKind::External);
        const QString message = messageOf(r.error());
        QVERIFY2(message.contains("CMake configuration of '" + dir + "' failed") &&
                     message.contains("/opt/no-such-toolchain/bin/riscv64-linux-gnu-"),
                 qPrintable(message)); // CMake's own words, naming the compiler
        QVERIFY(hashTree(dir) == before);
        QCOMPARE(processesUsing(dir), QString());
        qInfo("missing compiler: %s", qPrintable(message.left(400)));
    }

    void compilerMissingFromPath() {
        targets::Board b;
        b.id = "k230-like";
        b.arch = "riscv64";
        b.runner.kind = targets::BoardRunner::Kind::Ssh; // a real board: the cross toolchain
        auto tc = targets::toolchainFor(b, targets::CompilerPreference::Gcc);
        QVERIFY2(tc, tc ? "" : tc.error().message.c_str());
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", (m_tmp.path() + "/empty-bin").toUtf8()); // no compiler anywhere
        const Status s = targets::checkAvailable(*tc);
        qputenv("PATH", path);
        QVERIFY(!s.ok());
        const QString message = QString::fromStdString(s.error().message);
        QVERIFY2(message.contains("riscv64-linux-gnu-g") && message.contains("install"), qPrintable(message));
        qInfo("compiler not on PATH: %s", qPrintable(message));
    }

    void compileErrorIsSurfaced() {
        const QString dir = m_tmp.path() + "/corrupt";
        QVERIFY(copyTree(m_export, dir));
        QFile model(dir + "/src/model.cpp");
        QVERIFY(model.open(QIODevice::Append));
        model.write("\nint embark_corrupted( { this is not C++ }\n");
        model.close();
        const auto before = hashTree(dir);
        auto r = build::buildExport(options(dir));
        QVERIFY(!r);
        const QString message = messageOf(r.error());
        QVERIFY2(message.contains("the build of '" + dir + "' failed") && message.contains("model.cpp") &&
                     message.contains("error"),
                 qPrintable(message));
        QVERIFY(hashTree(dir) == before);
        QCOMPARE(processesUsing(dir), QString());
        qInfo("compile error: %s", qPrintable(message.left(400)));
    }

    void cancelAtRandomPoints() {
        const QString dir = m_tmp.path() + "/cancel";
        QVERIFY(copyTree(m_export, dir));
        const auto before = hashTree(dir);
        // One complete build first: its length bounds the random cancel points.
        QElapsedTimer clock;
        clock.start();
        auto full = build::buildExport(options(dir));
        QVERIFY2(full, full ? "" : full.error().message.c_str());
        const qint64 fullMs = clock.elapsed();
        const int trials = qEnvironmentVariableIsSet("EMBARK_CANCEL_TRIALS")
                               ? qEnvironmentVariableIntValue("EMBARK_CANCEL_TRIALS")
                               : 4;
        const quint32 seed = QRandomGenerator::global()->generate();
        QRandomGenerator rng(seed);
        qInfo("full build %lld ms; %d cancel trials, seed %u", fullMs, trials, seed);
        int cancelled = 0, finished = 0;
        for (int t = 0; t < trials; ++t) {
            QVERIFY(QDir(dir + "/build").removeRecursively()); // each trial is a full build
            // Trial t cancels at a random point of its own slice of the first 3/4 of the build,
            // so that the trials spread from the configure step to the link.
            const qint64 slice = fullMs * 3 / 4 / std::max(trials, 1);
            const int delayMs = static_cast<int>(slice * t + rng.bounded(static_cast<quint32>(slice + 1)));
            std::atomic_bool cancel{false};
            std::thread canceller([&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
                cancel = true;
            });
            auto r = build::buildExport(options(dir, &cancel));
            canceller.join();
            const QString left = processesUsing(dir);
            QVERIFY2(left.isEmpty(),
                     qPrintable(QStringLiteral("trial %1 (%2 ms) left: %3").arg(t).arg(delayMs).arg(left)));
            QVERIFY2(hashTree(dir) == before, qPrintable(QStringLiteral("trial %1 changed the export").arg(t)));
            if (r) {
                ++finished; // the build won the race: a complete, valid binary
                QVERIFY(QFileInfo(r->binary).isExecutable());
            } else {
                ++cancelled;
                QVERIFY2(messageOf(r.error()).startsWith("cancelled"), qPrintable(messageOf(r.error())));
            }
        }
        qInfo("cancel trials: %d cancelled, %d finished first, %d with nothing left behind", cancelled, finished,
              trials);
        QVERIFY(cancelled > 0 || trials == 0);
    }
};

QTEST_GUILESS_MAIN(TestBuildFaults)
#include "tst_build_faults.moc"

#include "export_builder.h"

#include "export/export_folder.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QThread>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>

namespace embark::build {

QString elfMachine(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray h = f.read(20);
    if (h.size() < 20 || !h.startsWith("\x7f"
                                       "ELF"))
        return {};
    const auto m = static_cast<uint16_t>(static_cast<uint8_t>(h[18]) | (static_cast<uint8_t>(h[19]) << 8));
    switch (m) {
    case 62: return "x86_64";
    case 183: return "aarch64";
    case 243: return "riscv64";
    case 40: return "arm";
    case 3: return "x86";
    default: return QStringLiteral("machine %1").arg(m);
    }
}

Expected<int> runProcess(const QString& program, const QStringList& args, const QString& workDir,
                         const std::function<void(const QString&)>& log, const std::atomic_bool* cancel, int timeoutMs,
                         const QProcessEnvironment* environment) {
    if (cancel && cancel->load())
        return makeError(ErrorKind::External, "cancelled: '" + program.toStdString() + "' was not started");
    QProcess p;
    p.setWorkingDirectory(workDir);
    if (environment) p.setProcessEnvironment(*environment);
    p.setProcessChannelMode(QProcess::MergedChannels);
    // Its own process group, so cancel and timeout kill compilers spawned by make/ninja too.
    p.setChildProcessModifier([] { ::setpgid(0, 0); });
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return makeError(ErrorKind::External,
                         "cannot start '" + program.toStdString() + "': " + p.errorString().toStdString());
    const qint64 pid = p.processId();
    QElapsedTimer timer;
    timer.start();
    QByteArray pending;
    auto flush = [&](bool all) {
        for (;;) {
            const qsizetype nl = pending.indexOf('\n');
            if (nl < 0) break;
            if (log) log(QString::fromUtf8(pending.left(nl)));
            pending.remove(0, nl + 1);
        }
        if (all && !pending.isEmpty()) {
            if (log) log(QString::fromUtf8(pending));
            pending.clear();
        }
    };
    // The group may hold stragglers (a compiler that outlived make or ninja): none may stay,
    // so SIGKILL it and wait until the kernel says it is empty (zombies excepted).
    auto reapGroup = [&] {
        for (int i = 0; i < 100 && ::kill(-static_cast<pid_t>(pid), SIGKILL) == 0; ++i) {
            if (QDir(QStringLiteral("/proc")).exists()) {
                bool onlyZombies = true;
                for (const QString& entry : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
                    bool isPid = false;
                    entry.toInt(&isPid);
                    if (!isPid) continue;
                    QFile stat("/proc/" + entry + "/stat");
                    if (!stat.open(QIODevice::ReadOnly)) continue;
                    // "pid (comm) state ppid pgrp ...": comm may hold spaces, so parse after ')'.
                    const QByteArray line = stat.readAll();
                    const QList<QByteArray> f = line.mid(line.lastIndexOf(')') + 2).split(' ');
                    if (f.size() > 2 && f[2].toLongLong() == pid && f[0] != "Z") onlyZombies = false;
                }
                if (onlyZombies) return;
            }
            QThread::msleep(20);
        }
    };
    auto killGroup = [&] {
        ::kill(-static_cast<pid_t>(pid), SIGTERM);
        if (!p.waitForFinished(2000)) {
            ::kill(-static_cast<pid_t>(pid), SIGKILL);
            p.waitForFinished(2000);
        }
        reapGroup();
    };
    while (!p.waitForFinished(100)) {
        pending += p.readAll();
        flush(false);
        if (cancel && cancel->load()) {
            killGroup();
            return makeError(ErrorKind::External,
                             "cancelled: '" + program.toStdString() + "' and its children were stopped");
        }
        if (timer.elapsed() > timeoutMs) {
            killGroup();
            return makeError(ErrorKind::External, "'" + program.toStdString() + "' timed out after " +
                                                      std::to_string(timeoutMs / 1000) + " s and was stopped");
        }
        if (p.state() == QProcess::NotRunning) break;
    }
    pending += p.readAll();
    flush(true);
    reapGroup();
    if (p.exitStatus() == QProcess::CrashExit)
        return makeError(ErrorKind::External, "'" + program.toStdString() + "' crashed");
    return p.exitCode();
}

Expected<BuildResult> buildExport(const BuildOptions& o) {
    // An export folder of this Embark's format, or a clear error before anything is built.
    auto folder = exporter::ExportFolder::open(o.exportDir);
    if (!folder) return folder.error();
    const QString dir = folder->dir;
    const QString expectedArch = o.expectedArch.isEmpty() ? QString::fromStdString(folder->arch) : o.expectedArch;
    const QString buildDir = o.buildDir.isEmpty() ? dir + "/build" : QFileInfo(o.buildDir).absoluteFilePath();
    QString toolchain = o.toolchainFile;
    if (toolchain.isEmpty() && QFileInfo::exists(dir + "/toolchain.cmake")) toolchain = dir + "/toolchain.cmake";
    QDir().mkpath(buildDir);

    QString firstError;
    QStringList tail;
    int errorContext = 0; // indented lines of a CMake error block still to append
    auto log = [&](const QString& line) {
        if (errorContext > 0) {
            if (!line.isEmpty() && !line.startsWith(' '))
                errorContext = 0;
            else if (!line.trimmed().isEmpty()) {
                firstError += ' ' + line.trimmed();
                --errorContext;
            }
        }
        if (firstError.isEmpty() &&
            (line.contains(": error:") || line.contains("CMake Error") || line.contains("fatal error"))) {
            firstError = line.trimmed();
            // CMake says what is wrong on the indented lines after "CMake Error at ...:".
            if (line.contains("CMake Error")) errorContext = 8;
        }
        tail << line;
        if (tail.size() > 30) tail.removeFirst();
        static const QRegularExpression re(QStringLiteral("^\\[\\s*(\\d+)\\s*/\\s*(\\d+)\\]"));
        static const QRegularExpression pct(QStringLiteral("^\\[\\s*(\\d+)%\\]"));
        if (o.progress) {
            if (auto m = re.match(line); m.hasMatch())
                o.progress(m.captured(1).toInt(), m.captured(2).toInt());
            else if (auto m2 = pct.match(line); m2.hasMatch())
                o.progress(m2.captured(1).toInt(), 100);
        }
        if (o.log) o.log(line);
    };
    QStringList configure{"-S", dir, "-B", buildDir, "-DCMAKE_BUILD_TYPE=Release"};
    if (!toolchain.isEmpty()) configure << "--toolchain" << toolchain;
    // Every export for a board compiles the same kernel sources: with ccache installed (and
    // EMBARK_CCACHE not 0) they compile once. Its base folder is the export's, so the paths it
    // hashes are relative and the same whichever folder an export is in. Only C and C++ go
    // through it: the weights' assembly (.incbin of the weights file) is always assembled.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString ccache = env.value("EMBARK_CCACHE") == "0" ? QString() : QStandardPaths::findExecutable("ccache");
    configure << "-DCMAKE_C_COMPILER_LAUNCHER=" + ccache << "-DCMAKE_CXX_COMPILER_LAUNCHER=" + ccache; // empty: none
    if (!ccache.isEmpty()) {
        env.insert("CCACHE_BASEDIR", QFileInfo(dir).canonicalFilePath());
        env.insert("CCACHE_NOHASHDIR", "true");
    }
    auto rc = runProcess("cmake", configure, dir, log, o.cancel, o.timeoutMs, &env);
    if (!rc) return rc.error();
    auto failure = [&](const char* stage) {
        std::string msg = std::string(stage) + " of '" + dir.toStdString() + "' failed";
        if (!firstError.isEmpty())
            msg += ": " + firstError.toStdString();
        else if (!tail.isEmpty())
            msg += ":\n" + tail.join('\n').toStdString();
        return makeError(ErrorKind::External, msg);
    };
    if (*rc != 0) return failure("CMake configuration");
    QStringList buildArgs{"--build", buildDir, "--parallel",
                          QString::number(o.jobs > 0 ? o.jobs : QThread::idealThreadCount())};
    rc = runProcess("cmake", buildArgs, dir, log, o.cancel, o.timeoutMs, &env);
    if (!rc) return rc.error();
    if (*rc != 0) return failure("the build");

    BuildResult r;
    r.binary = buildDir + "/run_export";
    if (!QFileInfo::exists(r.binary))
        return makeError(ErrorKind::External,
                         "the build of '" + dir.toStdString() + "' finished without producing run_export");
    r.binaryBytes = QFileInfo(r.binary).size();
    r.elfMachine = elfMachine(r.binary);
    if (!expectedArch.isEmpty() && r.elfMachine != expectedArch)
        return makeError(ErrorKind::External, "'" + r.binary.toStdString() + "' is built for " +
                                                  r.elfMachine.toStdString() + " but the board needs " +
                                                  expectedArch.toStdString() + ": check the toolchain file");
    return r;
}

} // namespace embark::build

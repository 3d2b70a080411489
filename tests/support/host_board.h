// For tests whose SSH "board" is this machine: the architecture name boards use for it, its
// board file, the run_export processes and remote pids the fault tests look for, and a QtTest
// watchdog long enough for rows that build an export on a loaded 2-core machine.
#pragma once

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSysInfo>
#include <QString>
#include <QtGlobal>

namespace embark::test {

// The board is this machine over SSH: its architecture builds with the native compiler.
inline QString hostArch() {
    const QString a = QSysInfo::currentCpuArchitecture();
    return a == "arm64" ? QStringLiteral("aarch64") : a;
}

// Writes <boardsDir>/<id>.json: this machine as a board (its arch, 1 core, 8 GiB) reached through
// `runner` (an "ssh" runner object).
inline bool writeHostBoard(const QString& boardsDir, const QString& id, const QString& name,
                           const QJsonObject& runner) {
    const QJsonObject board{{"id", id},
                            {"name", name},
                            {"arch", hostArch()},
                            {"isa", hostArch()},
                            {"cflags", QJsonArray{}},
                            {"cores", 1},
                            {"memory_bytes", qint64(8) << 30},
                            {"xnnpack", false},
                            {"runner", runner}};
    QFile f(boardsDir + "/" + id + ".json");
    return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(board).toJson()) > 0;
}

// Whether a run_export started with `--warmup 0 --iterations <iterations>` still runs here.
inline bool runExportAlive(int iterations) {
    QProcess p; // not QProcess::execute: pgrep's output would clutter the test log
    p.start("pgrep", {"-f", QStringLiteral("run_export --warmup 0 --iterations %1").arg(iterations)});
    return p.waitForFinished(10000) && p.exitCode() == 0;
}

// The pid of the command the SSH transport runs under `boardWork`, from the pid file it keeps
// in the run folder (.embark-exec-*.pid); 0 when there is none yet.
inline qint64 remoteExecPid(const QString& boardWork) {
    for (QDirIterator it(boardWork, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();) {
        const QString path = it.next();
        if (!it.fileName().contains(".embark-exec-")) continue;
        QFile f(path);
        if (const qint64 pid = f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toLongLong() : 0; pid > 0)
            return pid;
    }
    return 0;
}

// Set before QTest starts (static initialisation of the including test): one hour per function.
inline const bool kLongWatchdog = [] {
    if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT")) qputenv("QTEST_FUNCTION_TIMEOUT", "3600000");
    return true;
}();

} // namespace embark::test

// Configures and builds an export folder with CMake (and the board's toolchain file) in a
// cancellable child process group; streams the log, parses CMake/Ninja "[n/m]" progress and
// checks the binary's ELF machine against the target architecture.
#pragma once

#include "ir/error.h"

#include <QProcessEnvironment>
#include <QString>

#include <atomic>
#include <functional>

namespace embark::build {

struct BuildOptions {
    QString exportDir;
    QString buildDir;      // default: <exportDir>/build
    QString toolchainFile; // default: <exportDir>/toolchain.cmake when it exists
    QString expectedArch;  // "x86_64", "aarch64", "riscv64"; empty = no check
    int jobs = 0;          // 0 = all cores
    int timeoutMs = 30 * 60 * 1000;
    std::function<void(const QString& line)> log;      // every output line
    std::function<void(int done, int total)> progress; // from "[n/m]" lines
    const std::atomic_bool* cancel = nullptr;          // polled; kills the process tree
};

struct BuildResult {
    QString binary; // absolute path of run_export
    qint64 binaryBytes = 0;
    QString elfMachine;      // "x86_64", "aarch64", "riscv64", ...
    QString compilerMessage; // the first compiler error, on failure
};

// External (5) on a failed configure/build, with the compiler's first error in the message;
// Usage (2) for a folder that is not an export; cancelled builds fail with "cancelled".
Expected<BuildResult> buildExport(const BuildOptions& options);

// The ELF e_machine of a file as an architecture name, or an empty string.
QString elfMachine(const QString& path);

// Runs a command in its own process group with streamed output, timeout and cancel; returns
// its exit code (or an error when it could not start, timed out, crashed or was cancelled).
Expected<int> runProcess(const QString& program, const QStringList& args, const QString& workDir,
                         const std::function<void(const QString&)>& log, const std::atomic_bool* cancel, int timeoutMs,
                         const QProcessEnvironment* environment = nullptr);

} // namespace embark::build

// Which CMake toolchain file (toolchains/*.cmake) builds for a board, the programs and Debian
// packages it needs, and a check that says which package to install when one is missing.
#pragma once

#include "board.h"

#include <QString>
#include <QStringList>

namespace embark::targets {

enum class CompilerPreference { Default, Clang, Gcc };

struct Toolchain {
    QString id;        // "riscv64-clang", "riscv64-gcc", "aarch64-gcc", "native"
    QString arch;      // the board's architecture
    QString compiler;  // "clang" or "gcc"
    QString file;      // absolute path of the toolchain file; empty for a native build
    QString cxx;       // the C++ compiler program
    QStringList flags; // the board's cflags, passed as EMBARK_TARGET_FLAGS

    // Programs that must be on PATH, each with the Debian package that provides it.
    struct Requirement {
        QString program;
        QString package;
    };
    std::vector<Requirement> requirements;

    bool isCross() const { return !file.isEmpty(); }
    // Arguments for `cmake -S . -B build ...`: the toolchain and the board flags.
    QStringList cmakeArguments() const;
};

// toolchains/ in the source tree ($EMBARK_SOURCE_DIR overrides the compiled-in path).
QString toolchainsDir();

// The toolchain for a board: riscv64 defaults to Clang (it vectorizes for RVV), aarch64 to
// GCC, the host to the native compiler. Unsupported when the preference has no file.
Expected<Toolchain> toolchainFor(const Board& board, CompilerPreference preference = CompilerPreference::Default);

// An error naming the first missing compiler (or linker) and the package to install.
Status checkAvailable(const Toolchain& toolchain);

// The programs a board's runner needs locally (qemu-user for simulated boards), checked the
// same way: "qemu-riscv64-static not found: install the Debian package qemu-user-static".
Status checkRunnerAvailable(const Board& board);

// The Debian package that provides `program`, for messages ("" when unknown).
QString debianPackageFor(const QString& program);

} // namespace embark::targets

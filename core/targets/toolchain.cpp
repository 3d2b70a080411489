#include "toolchain.h"

#include "source_tree.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QSysInfo>

namespace embark::targets {
namespace {

Error unsupported(const QString& message) { return makeError(ErrorKind::Unsupported, message.toStdString()); }

Toolchain cross(const Board& board, const QString& id, const QString& compiler, const QString& cxx,
                std::vector<Toolchain::Requirement> requirements) {
    Toolchain t;
    t.id = id;
    t.arch = board.arch;
    t.compiler = compiler;
    t.file = QDir(toolchainsDir()).filePath(id + ".toolchain.cmake");
    t.cxx = cxx;
    t.flags = board.cflags;
    t.requirements = std::move(requirements);
    return t;
}

} // namespace

QString toolchainsDir() { return sourceTree() + "/toolchains"; }

QString debianPackageFor(const QString& program) {
    static const QList<QPair<QString, QString>> table{
        {"clang-19", "clang-19"},
        {"clang++-19", "clang-19"},
        {"ld.lld-19", "lld-19"},
        {"riscv64-linux-gnu-gcc", "gcc-riscv64-linux-gnu"},
        {"riscv64-linux-gnu-g++", "g++-riscv64-linux-gnu"},
        {"aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"},
        {"aarch64-linux-gnu-g++", "g++-aarch64-linux-gnu"},
        {"qemu-riscv64-static", "qemu-user-static"},
        {"qemu-aarch64-static", "qemu-user-static"},
        {"qemu-riscv64", "qemu-user"},
        {"qemu-aarch64", "qemu-user"},
        {"c++", "g++"},
        {"g++", "g++"},
        {"cmake", "cmake"},
        {"ninja", "ninja-build"},
    };
    for (const auto& [p, pkg] : table)
        if (p == program) return pkg;
    return {};
}

QStringList Toolchain::cmakeArguments() const {
    QStringList args;
    if (isCross()) args << "--toolchain" << file;
    // One cache string: the toolchain file splits it into the compiler's flag list.
    args << "-DEMBARK_TARGET_FLAGS=" + flags.join(' ');
    return args;
}

Expected<Toolchain> toolchainFor(const Board& board, CompilerPreference preference) {
    const bool wantGcc = preference == CompilerPreference::Gcc;
    const bool wantClang = preference == CompilerPreference::Clang;
    auto native = [&] {
        Toolchain t;
        t.id = "native";
        t.arch = board.arch;
        t.compiler = wantClang ? "clang" : "gcc";
        t.cxx = wantClang ? "clang++-19" : "c++";
        t.flags = board.cflags;
        t.requirements = {{t.cxx, debianPackageFor(t.cxx)}};
        return t;
    };
    if (board.isHost()) return native();
    if (board.arch == "riscv64") {
        // The sysroot libraries come from the GNU cross compiler in both cases.
        if (wantGcc)
            return cross(board, "riscv64-gcc", "gcc", "riscv64-linux-gnu-g++",
                         {{"riscv64-linux-gnu-g++", "g++-riscv64-linux-gnu"}});
        return cross(
            board, "riscv64-clang", "clang", "clang++-19",
            {{"clang++-19", "clang-19"}, {"ld.lld-19", "lld-19"}, {"riscv64-linux-gnu-g++", "g++-riscv64-linux-gnu"}});
    }
    if (board.arch == "aarch64") {
        if (wantClang)
            return unsupported(QStringLiteral("board '%1' (aarch64): there is no Clang toolchain "
                                              "for aarch64 yet; use the GCC one (--compiler gcc)")
                                   .arg(board.id));
        return cross(board, "aarch64-gcc", "gcc", "aarch64-linux-gnu-g++",
                     {{"aarch64-linux-gnu-g++", "g++-aarch64-linux-gnu"}});
    }
    // A board of the host's own architecture reached over SSH (an x86_64 mini PC) needs no
    // cross compiler: the native one with the board's flags.
    QString hostArch = QSysInfo::currentCpuArchitecture();
    if (hostArch == "arm64") hostArch = "aarch64";
    if (board.arch == hostArch) return native();
    return unsupported(QStringLiteral("board '%1': no cross toolchain for architecture '%2' "
                                      "(supported: riscv64, aarch64, or the host itself)")
                           .arg(board.id, board.arch));
}

Status checkAvailable(const Toolchain& toolchain) {
    if (toolchain.isCross() && !QFileInfo::exists(toolchain.file))
        return makeError(ErrorKind::External, QStringLiteral("toolchain file %1 is missing: reinstall Embark or set "
                                                             "EMBARK_SOURCE_DIR to its source tree")
                                                  .arg(toolchain.file)
                                                  .toStdString());
    for (const Toolchain::Requirement& r : toolchain.requirements) {
        if (!QStandardPaths::findExecutable(r.program).isEmpty()) continue;
        return makeError(ErrorKind::External,
                         QStringLiteral("%1 not found on PATH (needed by the %2 toolchain): install "
                                        "the Debian package %3 (sudo apt-get install %3, or "
                                        "scripts/install-deps.sh)")
                             .arg(r.program, toolchain.id, r.package)
                             .toStdString());
    }
    return {};
}

Status checkRunnerAvailable(const Board& board) {
    // An SSH runner's prefix runs on the board, not here.
    if (board.runner.kind != BoardRunner::Kind::Local || board.runner.execPrefix.isEmpty()) return {};
    const QString program = board.runner.execPrefix.first();
    if (!QStandardPaths::findExecutable(program).isEmpty() || QFileInfo(program).isExecutable()) return {};
    const QString package = debianPackageFor(program);
    return makeError(
        ErrorKind::External,
        QStringLiteral("board '%1' runs programs through %2, which is not installed%3")
            .arg(board.id, program, package.isEmpty() ? QString() : ": install the Debian package " + package)
            .toStdString());
}

} // namespace embark::targets

// Builds upstream XNNPACK (+ pthreadpool, cpuinfo, FXdiv at the commits it pins) for one
// architecture with clang-19 into the per-user cache, staged and renamed in only when complete.
#pragma once

#include "xnnpack_tree.h"

#include <QString>

#include <atomic>
#include <functional>

namespace embark::xnnpack {

struct XnnpackBuildOptions {
    QString arch;        // x86_64, aarch64, riscv64
    QString sourceDir;   // a local XNNPACK checkout (--source)
    QString tarballsDir; // a folder with XNNPACK-*, cpuinfo-*, pthreadpool-*, FXdiv-*.tar.gz
    // Dependency sources for --source (else tarballs beside the checkout, else XNNPACK downloads
    // them).
    QString cpuinfoSourceDir;
    QString pthreadpoolSourceDir;
    QString fxdivSourceDir;
    int jobs = 0;       // 0: all cores
    bool force = false; // rebuild an entry that already exists
    QString cacheRoot;  // default xnnpackCacheRoot()
    QString workRoot;   // where the temporary sources and build folder go (default: temp)
    int timeoutMs = 60 * 60 * 1000;
    std::function<void(const QString& line)> log;      // every line (tools' output and ours)
    std::function<void(int done, int total)> progress; // Ninja's "[n/m]"
    const std::atomic_bool* cancel = nullptr;          // kills the whole process tree
};

struct XnnpackBuildResult {
    QString dir; // the cache entry
    XnnpackManifest manifest;
    bool alreadyBuilt = false;
    QString logPath;
    QStringList warnings;
};

// The pinned dependency commits read from XNNPACK's
// cmake/Download{Cpuinfo,PThreadPool,FXdiv}.cmake.
struct PinnedCommits {
    QString cpuinfo, pthreadpool, fxdiv;
};
Expected<PinnedCommits> readPinnedCommits(const QString& xnnpackSourceDir);

// Usage for bad options, InvalidInput for sources at the wrong commits, External for a failed
// tool (the message names the log file and the last compiler error) or a cancelled build.
Expected<XnnpackBuildResult> buildXnnpack(const XnnpackBuildOptions& options);

// The configure options for `arch`, as the shared README gives them (without source dirs).
QStringList xnnpackConfigureFlags(const QString& arch);

// The cache entry's folder name for a build of XNNPACK `commit` for `arch`:
// "<arch>-<commit, 12 hex>-<hash of the configure flags and compiler version, 8 hex>".
QString xnnpackCacheEntryName(const QString& arch, const QString& commit);

// "How to get the sources" for a message: the pinned commits and the git commands.
QString sourcesHelp();

} // namespace embark::xnnpack

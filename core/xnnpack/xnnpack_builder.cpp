// Builds XNNPACK for a board (xnnpack_builder.h): configure, build, stage the tree and its
// manifest, and move it into the cache (the sources: xnnpack_sources.cpp).
#include "xnnpack_builder.h"
#include "xnnpack_builder_detail.h"

#include "compile/export_builder.h"
#include "xnnpack_resolve.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

namespace embark::xnnpack {

using namespace detail;

QStringList xnnpackConfigureFlags(const QString& arch) {
    QStringList f{"-G",
                  "Ninja",
                  "-DCMAKE_BUILD_TYPE=Release",
                  "-DCMAKE_C_COMPILER=clang-19",
                  "-DCMAKE_CXX_COMPILER=clang++-19",
                  "-DCMAKE_ASM_COMPILER=clang-19",
                  "-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld-19",
                  "-DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld-19",
                  "-DXNNPACK_LIBRARY_TYPE=static",
                  "-DXNNPACK_BUILD_TESTS=OFF",
                  "-DXNNPACK_BUILD_BENCHMARKS=OFF",
                  "-DXNNPACK_BUILD_ALL_MICROKERNELS=OFF",
                  "-DXNNPACK_ENABLE_KLEIDIAI=OFF"};
    if (arch == "x86_64") return f;
    const QString triple = arch + "-linux-gnu";
    f << "-DCMAKE_SYSTEM_NAME=Linux"
      << "-DCMAKE_SYSTEM_PROCESSOR=" + arch;
    for (const char* lang : {"C", "CXX", "ASM"}) f << QStringLiteral("-DCMAKE_%1_COMPILER_TARGET=%2").arg(lang, triple);
    f << "-DCMAKE_AR=/usr/bin/" + triple + "-ar"
      << "-DCMAKE_RANLIB=/usr/bin/" + triple + "-ranlib";
    if (arch == "riscv64")
        // -march is global (XNNPACK sets no per-kernel ISA flags for RVV): the tree needs a V CPU.
        f << "-DCMAKE_C_FLAGS=-march=rv64gcv"
          << "-DCMAKE_CXX_FLAGS=-march=rv64gcv"
          << "-DXNNPACK_ENABLE_RISCV_VECTOR=ON";
    return f;
}

namespace {

QString compilerVersion() {
    auto v = runText("clang-19", {"--version"}, QDir::tempPath());
    return v ? "clang-19 (" + v->section('\n', 0, 0) + ")" : QStringLiteral("clang-19 (version unknown)");
}

// The first file named `name` under any of `roots`.
QString findFile(const QStringList& roots, const QString& name) {
    for (const QString& r : roots) {
        if (r.isEmpty()) continue;
        QDirIterator it(r, {name}, QDir::Files, QDirIterator::Subdirectories);
        if (it.hasNext()) return it.next();
    }
    return {};
}

Status stageTree(const QString& staging, const QString& buildDir, const Sources& s) {
    QDir().mkpath(staging + "/include");
    QDir().mkpath(staging + "/lib");
    const QStringList headerRoots{s.xnnpack + "/include", s.dep[0], s.dep[1], s.dep[2], buildDir};
    for (const char* h : {"xnnpack.h", "pthreadpool.h", "cpuinfo.h", "fxdiv.h"}) {
        const QString from = findFile(headerRoots, h);
        if (from.isEmpty() || !QFile::copy(from, staging + "/include/" + h))
            return makeError(ErrorKind::External,
                             std::string("cannot copy ") + h + " into '" + staging.toStdString() + "'");
    }
    for (const char* lib : {"libXNNPACK.a", "libxnnpack-microkernels-prod.a", "libpthreadpool.a", "libcpuinfo.a"}) {
        const QString from = findFile({buildDir}, lib);
        if (from.isEmpty() || !QFile::copy(from, staging + "/lib/" + lib))
            return makeError(ErrorKind::External,
                             std::string("the build produced no ") + lib + " under '" + buildDir.toStdString() + "'");
    }
    return {};
}

Status writeManifest(const QString& dir, const XnnpackManifest& m) {
    QFile f(dir + "/" + kManifestName);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(QJsonDocument(m.toJson()).toJson(QJsonDocument::Indented)) < 0)
        return makeError(ErrorKind::External, "cannot write " + f.fileName().toStdString());
    return {};
}

// Removes a folder when it goes out of scope unless released (failed or cancelled builds).
struct RemoveOnExit {
    QString dir;
    ~RemoveOnExit() {
        if (!dir.isEmpty()) QDir(dir).removeRecursively();
    }
};

Error toolFailure(const char* stage, const QString& arch, BuildLog& log) {
    std::string msg = std::string(stage) + " of XNNPACK for " + arch.toStdString() + " failed";
    if (!log.lastError().isEmpty()) msg += ": " + log.lastError().toStdString();
    msg += "\nFull log: " + log.path().toStdString();
    return makeError(ErrorKind::External, msg);
}

Expected<int> runLogged(const QStringList& args, const QString& dir, BuildLog& log, const XnnpackBuildOptions& o) {
    log("$ cmake " + args.join(' '));
    return build::runProcess("cmake", args, dir, std::ref(log), o.cancel, o.timeoutMs);
}

Status configureAndBuild(const Sources& s, const QString& buildDir, const QStringList& flags, BuildLog& log,
                         const XnnpackBuildOptions& o) {
    QStringList configure{"-S", s.xnnpack, "-B", buildDir};
    configure << flags;
    const char* vars[3] = {"CPUINFO_SOURCE_DIR", "PTHREADPOOL_SOURCE_DIR", "FXDIV_SOURCE_DIR"};
    for (int i = 0; i < 3; ++i)
        if (!s.dep[i].isEmpty()) configure << QStringLiteral("-D%1=%2").arg(vars[i], s.dep[i]);
    auto rc = runLogged(configure, s.xnnpack, log, o);
    if (!rc) return makeError(rc.error().kind, rc.error().message + " (log: " + log.path().toStdString() + ")");
    if (*rc != 0) return toolFailure("the configure", o.arch, log);
    const int jobs = o.jobs > 0 ? o.jobs : QThread::idealThreadCount();
    QStringList build{"--build",
                      buildDir,
                      "--parallel",
                      QString::number(jobs),
                      "--target",
                      "XNNPACK",
                      "xnnpack-microkernels-prod",
                      "pthreadpool",
                      "cpuinfo"};
    // XNNPACK compiles through ccache when it is installed (its CMakeLists sets the launcher).
    // CCACHE_BASEDIR at the work folder takes its random name off the paths ccache hashes, so a
    // rebuild (--force, another cache root, the tests) reuses the last build's compiler output.
    if (!QStandardPaths::findExecutable("ccache").isEmpty())
        build = QStringList{"-E", "env", "CCACHE_BASEDIR=" + QFileInfo(buildDir).absolutePath(),
                            "CCACHE_NOHASHDIR=true", "cmake"} +
                build;
    rc = runLogged(build, s.xnnpack, log, o);
    if (!rc) return makeError(rc.error().kind, rc.error().message + " (log: " + log.path().toStdString() + ")");
    if (*rc != 0) return toolFailure("the build", o.arch, log);
    return {};
}

// Moves the complete staging folder into place (replacing an older entry when forced).
Status commitEntry(const QString& staging, const QString& entry) {
    const QString old = entry + ".tmp-old";
    if (QFileInfo::exists(entry)) {
        QDir(old).removeRecursively();
        if (!QDir().rename(entry, old))
            return makeError(ErrorKind::External, "cannot replace '" + entry.toStdString() + "'");
    }
    if (!QDir().rename(staging, entry))
        return makeError(ErrorKind::External, "cannot move the build into '" + entry.toStdString() + "'");
    QDir(old).removeRecursively();
    return {};
}

} // namespace

QString xnnpackCacheEntryName(const QString& arch, const QString& commit) {
    const QByteArray key = (arch + '\n' + xnnpackConfigureFlags(arch).join('\n') + '\n' + compilerVersion()).toUtf8();
    const QString hash = QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(8));
    return arch + "-" + commit.left(12) + "-" + hash;
}

Expected<XnnpackBuildResult> buildXnnpack(const XnnpackBuildOptions& o) {
    if (o.arch != "x86_64" && o.arch != "aarch64" && o.arch != "riscv64")
        return makeError(ErrorKind::Usage,
                         "unknown architecture '" + o.arch.toStdString() + "' (known: x86_64, aarch64, riscv64)");
    if (o.sourceDir.isEmpty() == o.tarballsDir.isEmpty())
        return makeError(ErrorKind::Usage,
                         (o.sourceDir.isEmpty() ? std::string("no XNNPACK sources given. ")
                                                : std::string("give either --source or --tarballs, not both. ")) +
                             sourcesHelp().toStdString());
    const QString cacheRoot = o.cacheRoot.isEmpty() ? xnnpackCacheRoot() : QFileInfo(o.cacheRoot).absoluteFilePath();
    if (!QDir().mkpath(cacheRoot))
        return makeError(ErrorKind::External, "cannot create the XNNPACK cache '" + cacheRoot.toStdString() + "'");
    const QStringList flags = xnnpackConfigureFlags(o.arch);
    const QString compiler = compilerVersion();
    // An entry that already exists answers at once: its name needs only the commit, which the
    // tarball's name (or the checkout's HEAD) tells without unpacking anything.
    if (!o.force) {
        QString commit = xnnpackCommitOfSources(o);
        if (sameCommit(commit, kPinnedXnnpackCommit)) commit = kPinnedXnnpackCommit;
        const QString entry = cacheRoot + "/" + xnnpackCacheEntryName(o.arch, commit);
        if (!commit.isEmpty())
            if (auto t = inspectXnnpackTree(entry, o.arch)) {
                XnnpackBuildResult result;
                result.dir = entry;
                result.alreadyBuilt = true;
                if (t->manifest) result.manifest = *t->manifest;
                if (o.log) o.log("already built: " + entry + " (use --force to rebuild)");
                return result;
            }
    }
    QTemporaryDir work((o.workRoot.isEmpty() ? QDir::tempPath() : o.workRoot) + "/embark-xnnpack-" + o.arch +
                       "-XXXXXX");
    if (!work.isValid())
        return makeError(ErrorKind::External,
                         "cannot create a temporary work folder: " + work.errorString().toStdString());
    QElapsedTimer timer;
    timer.start();
    BuildLog log(
        cacheRoot + "/logs/" + o.arch + "-" + QDateTime::currentDateTimeUtc().toString("yyyyMMdd-hhmmss") + ".log", o);
    XnnpackBuildResult result;
    result.logPath = log.path();

    auto sources =
        o.tarballsDir.isEmpty() ? sourcesFromCheckout(o, work.path(), log) : sourcesFromTarballs(o, work.path(), log);
    if (!sources) return sources.error();
    Sources& s = *sources;
    if (sameCommit(s.xnnpackCommit, kPinnedXnnpackCommit)) s.xnnpackCommit = kPinnedXnnpackCommit;
    auto pins = readPinnedCommits(s.xnnpack);
    if (!pins) return pins.error();
    EMBARK_TRY(checkPins(s, *pins, result.warnings));
    for (const QString& w : result.warnings) log("warning: " + w);

    const QString entry = cacheRoot + "/" + xnnpackCacheEntryName(o.arch, s.xnnpackCommit);
    result.dir = entry;
    if (!o.force && inspectXnnpackTree(entry, o.arch)) {
        result.alreadyBuilt = true;
        if (auto t = inspectXnnpackTree(entry, o.arch); t && t->manifest) result.manifest = *t->manifest;
        log("already built: " + entry + " (use --force to rebuild)");
        return result;
    }

    EMBARK_TRY(configureAndBuild(s, work.path() + "/build", flags, log, o));
    RemoveOnExit staging{cacheRoot + "/.tmp-" + QFileInfo(entry).fileName() + "-" + QFileInfo(work.path()).fileName()};
    EMBARK_TRY(stageTree(staging.dir, work.path() + "/build", s));
    XnnpackManifest& m = result.manifest;
    m.arch = o.arch;
    m.xnnpackCommit = s.xnnpackCommit;
    m.cpuinfoCommit = pins->cpuinfo;
    m.pthreadpoolCommit = pins->pthreadpool;
    m.fxdivCommit = pins->fxdiv;
    m.compiler = compiler;
    m.flags = flags;
    m.rvv = o.arch == "riscv64";
    m.buildDate = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    m.buildSeconds = static_cast<double>(timer.elapsed()) / 1000.0;
    m.source = s.description;
    EMBARK_TRY(writeManifest(staging.dir, m));
    auto tree = inspectXnnpackTree(staging.dir, o.arch);
    if (!tree) return makeError(ErrorKind::External, "the fresh build is not a usable tree: " + tree.error().message);
    if (o.arch == "riscv64" && !tree->hasRvv)
        return makeError(ErrorKind::External,
                         "the riscv64 build has no RVV micro-kernels (was -DXNNPACK_ENABLE_RISCV_VECTOR=ON "
                         "ignored?); log: " +
                             log.path().toStdString());
    if (o.cancel && o.cancel->load()) return makeError(ErrorKind::External, "cancelled");
    EMBARK_TRY(commitEntry(staging.dir, entry));
    staging.dir.clear();
    log(QStringLiteral("XNNPACK %1 for %2 is in %3 (%4 s)")
            .arg(m.xnnpackCommit.left(12), o.arch, entry)
            .arg(m.buildSeconds, 0, 'f', 0));
    return result;
}

} // namespace embark::xnnpack

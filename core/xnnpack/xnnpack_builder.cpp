#include "xnnpack_builder.h"

#include "build/export_builder.h"
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

QString sourcesHelp() {
    return QStringLiteral(
               "Get the sources with:\n"
               "  git clone %1 XNNPACK && git -C XNNPACK checkout %2\n"
               "  then give --source XNNPACK (online, XNNPACK downloads the cpuinfo, pthreadpool "
               "and FXdiv\n"
               "  commits it pins in cmake/Download*.cmake; offline, put cpuinfo-<sha>.tar.gz,\n"
               "  pthreadpool-<sha>.tar.gz and FXdiv-<sha>.tar.gz of those commits beside the "
               "checkout),\n"
               "or give --tarballs DIR with XNNPACK-<sha>.tar.gz and the three dependency "
               "tarballs\n"
               "  (cpuinfo f9a03241f8c3, pthreadpool 0e6ca13779b5, FXdiv b408327ac2a1 for XNNPACK "
               "%3).")
        .arg(kXnnpackRepository, kPinnedXnnpackCommit,
             QString::fromLatin1(kPinnedXnnpackCommit).left(12));
}

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
    for (const char* lang : {"C", "CXX", "ASM"})
        f << QStringLiteral("-DCMAKE_%1_COMPILER_TARGET=%2").arg(lang, triple);
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

constexpr const char* kDeps[] = {"cpuinfo", "pthreadpool", "FXdiv"};

// Every line goes to the log file and the caller; remembers the last error-looking line.
class BuildLog {
public:
    BuildLog(const QString& path, const XnnpackBuildOptions& o) : m_file(path), m_o(o) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        m_file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text);
    }
    void operator()(const QString& line) {
        if (m_file.isOpen()) {
            m_file.write(line.toUtf8() + '\n');
            m_file.flush();
        }
        static const QRegularExpression progress(
            QStringLiteral("^\\[\\s*(\\d+)\\s*/\\s*(\\d+)\\]"));
        if (auto m = progress.match(line); m.hasMatch() && m_o.progress)
            m_o.progress(m.captured(1).toInt(), m.captured(2).toInt());
        if (line.contains(": error:") || line.contains("CMake Error") ||
            line.contains("fatal error") || line.startsWith("tar:") || line.startsWith("gzip:") ||
            line.startsWith("ninja: error"))
            m_lastError = line.trimmed();
        if (m_o.log) m_o.log(line);
    }
    QString path() const { return m_file.fileName(); }
    QString lastError() const { return m_lastError; }

private:
    QFile m_file;
    const XnnpackBuildOptions& m_o;
    QString m_lastError;
};

struct Sources {
    QString xnnpack;       // source folder
    QString xnnpackCommit; // full or short sha
    QString dep[3];        // source folders (empty: XNNPACK downloads them)
    QString depCommit[3];  // what the source says it is (empty: unknown)
    QString description;
};

bool sameCommit(const QString& a, const QString& b) {
    if (a.size() < 7 || b.size() < 7) return false;
    return a.startsWith(b, Qt::CaseInsensitive) || b.startsWith(a, Qt::CaseInsensitive);
}

// "cpuinfo-f9a0324.tar.gz" -> "f9a0324".
QString shaInName(const QString& name) {
    static const QRegularExpression re(
        QStringLiteral("-([0-9a-fA-F]{7,40})(\\.tar\\.gz|\\.tgz|\\.tar\\.xz|\\.tar)?$"));
    const auto m = re.match(name);
    return m.hasMatch() ? m.captured(1).toLower() : QString();
}

Expected<QString> tarballFor(const QString& dir, const QString& project) {
    const QStringList found =
        QDir(dir).entryList({project + "-*.tar.gz", project + "-*.tgz", project + "-*.tar.xz"},
                            QDir::Files, QDir::Name | QDir::IgnoreCase);
    if (found.isEmpty())
        return makeError(ErrorKind::Usage, "no " + project.toStdString() + "-<sha>.tar.gz in '" +
                                               dir.toStdString() + "'\n" +
                                               sourcesHelp().toStdString());
    if (found.size() > 1)
        return makeError(ErrorKind::Usage, "several " + project.toStdString() + " tarballs in '" +
                                               dir.toStdString() + "' (" +
                                               found.join(", ").toStdString() + "): keep one");
    return dir + "/" + found.first();
}

Expected<QString> runText(const QString& program, const QStringList& args, const QString& workDir) {
    QString text;
    auto rc = build::runProcess(
        program, args, workDir, [&](const QString& l) { text += l + '\n'; }, nullptr, 60000);
    if (!rc) return rc.error();
    if (*rc != 0)
        return makeError(ErrorKind::External,
                         program.toStdString() + " failed: " + text.trimmed().toStdString());
    return text.trimmed();
}

// The commit of a source folder: git's HEAD, else a sha in the folder's name; empty if neither.
QString commitOf(const QString& dir) {
    if (QFileInfo::exists(dir + "/.git")) {
        auto head = runText("git", {"-C", dir, "rev-parse", "HEAD"}, dir);
        if (head) return head->toLower();
    }
    return shaInName(QFileInfo(dir).fileName());
}

// Unpacks a tarball into its own folder under `into` with `tar`; returns its single top folder.
Expected<QString> unpack(const QString& tarball, const QString& into, BuildLog& log,
                         const XnnpackBuildOptions& o) {
    QDir().mkpath(into);
    log("== unpacking " + tarball);
    auto rc = build::runProcess("tar", {"-xf", tarball, "-C", into}, into, std::ref(log), o.cancel,
                                o.timeoutMs);
    if (!rc) return rc.error();
    if (*rc != 0)
        return makeError(ErrorKind::External,
                         "cannot unpack '" + tarball.toStdString() + "' (tar exit " +
                             std::to_string(*rc) + "): " + log.lastError().toStdString() +
                             "; is the file complete? Full log: " + log.path().toStdString());
    const QStringList top = QDir(into).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    if (top.size() != 1)
        return makeError(ErrorKind::InvalidInput, "'" + tarball.toStdString() +
                                                      "' should unpack into one folder, not " +
                                                      std::to_string(top.size()));
    return into + "/" + top.first();
}

Expected<Sources> sourcesFromTarballs(const XnnpackBuildOptions& o, const QString& work,
                                      BuildLog& log) {
    Sources s;
    const QString dir = QFileInfo(o.tarballsDir).absoluteFilePath();
    s.description = "tarballs " + dir;
    auto xnn = tarballFor(dir, "XNNPACK");
    if (!xnn) return xnn.error();
    QString tarballs[3];
    for (int i = 0; i < 3; ++i) {
        auto t = tarballFor(dir, kDeps[i]);
        if (!t) return t.error();
        tarballs[i] = *t;
        s.depCommit[i] = shaInName(QFileInfo(*t).fileName());
    }
    s.xnnpackCommit = shaInName(QFileInfo(*xnn).fileName());
    auto x = unpack(*xnn, work + "/src/XNNPACK", log, o);
    if (!x) return x.error();
    s.xnnpack = *x;
    // Check the pins before unpacking the rest: a mismatch is refused without more work.
    auto pins = readPinnedCommits(s.xnnpack);
    if (!pins) return pins.error();
    for (int i = 0; i < 3; ++i) {
        const QString pinned = i == 0 ? pins->cpuinfo : i == 1 ? pins->pthreadpool : pins->fxdiv;
        if (!sameCommit(s.depCommit[i], pinned)) continue; // reported with the others in checkPins
        auto d = unpack(tarballs[i], work + "/src/" + kDeps[i], log, o);
        if (!d) return d.error();
        s.dep[i] = *d;
    }
    return s;
}

Expected<Sources> sourcesFromCheckout(const XnnpackBuildOptions& o, const QString& work,
                                      BuildLog& log) {
    Sources s;
    s.xnnpack = QFileInfo(o.sourceDir).absoluteFilePath();
    if (!QFileInfo::exists(s.xnnpack + "/CMakeLists.txt") ||
        !QFileInfo::exists(s.xnnpack + "/include/xnnpack.h"))
        return makeError(ErrorKind::Usage, "'" + s.xnnpack.toStdString() +
                                               "' is not an XNNPACK checkout (no CMakeLists.txt "
                                               "and include/xnnpack.h)\n" +
                                               sourcesHelp().toStdString());
    s.description = "checkout " + s.xnnpack;
    s.xnnpackCommit = commitOf(s.xnnpack);
    if (s.xnnpackCommit.isEmpty())
        return makeError(ErrorKind::Usage,
                         "cannot tell the commit of '" + s.xnnpack.toStdString() +
                             "': give a git checkout (git rev-parse HEAD) or --tarballs");
    const QString given[3] = {o.cpuinfoSourceDir, o.pthreadpoolSourceDir, o.fxdivSourceDir};
    const QString beside = QFileInfo(s.xnnpack).absolutePath();
    for (int i = 0; i < 3; ++i) {
        if (!given[i].isEmpty()) {
            s.dep[i] = QFileInfo(given[i]).absoluteFilePath();
            s.depCommit[i] = commitOf(s.dep[i]);
            continue;
        }
        const QStringList t = QDir(beside).entryList({QString(kDeps[i]) + "-*.tar.gz"}, QDir::Files,
                                                     QDir::Name | QDir::IgnoreCase);
        if (t.size() != 1) continue; // XNNPACK's configure downloads its pinned commit
        s.depCommit[i] = shaInName(t.first());
        auto d = unpack(beside + "/" + t.first(), work + "/src/" + kDeps[i], log, o);
        if (!d) return d.error();
        s.dep[i] = *d;
    }
    return s;
}

// The known trap: XNNPACK builds and links against other dependency commits silently, then
// crashes at start-up. Refuse them; warn when a folder's commit cannot be told.
Status checkPins(const Sources& s, const PinnedCommits& pins, QStringList& warnings) {
    const char* files[3] = {"cmake/DownloadCpuinfo.cmake", "cmake/DownloadPThreadPool.cmake",
                            "cmake/DownloadFXdiv.cmake"};
    for (int i = 0; i < 3; ++i) {
        const QString pinned = i == 0 ? pins.cpuinfo : i == 1 ? pins.pthreadpool : pins.fxdiv;
        if (s.depCommit[i].isEmpty()) {
            if (!s.dep[i].isEmpty())
                warnings << QStringLiteral("cannot tell the commit of %1 (not a git checkout, no "
                                           "sha in its name): make sure "
                                           "it is %2, which XNNPACK pins")
                                .arg(s.dep[i], pinned);
            continue;
        }
        if (!sameCommit(s.depCommit[i], pinned))
            return makeError(
                ErrorKind::InvalidInput,
                QStringLiteral("%1 source is commit %2 but XNNPACK %3 pins %4 (%5): XNNPACK would "
                               "build and link "
                               "against it and crash at start-up; use %1 at %4")
                    .arg(kDeps[i], s.depCommit[i], s.xnnpackCommit.left(12), pinned, files[i])
                    .toStdString());
    }
    return {};
}

QString compilerVersion() {
    auto v = runText("clang-19", {"--version"}, QDir::tempPath());
    return v ? "clang-19 (" + v->section('\n', 0, 0) + ")"
             : QStringLiteral("clang-19 (version unknown)");
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
            return makeError(ErrorKind::External, std::string("cannot copy ") + h + " into '" +
                                                      staging.toStdString() + "'");
    }
    for (const char* lib :
         {"libXNNPACK.a", "libxnnpack-microkernels-prod.a", "libpthreadpool.a", "libcpuinfo.a"}) {
        const QString from = findFile({buildDir}, lib);
        if (from.isEmpty() || !QFile::copy(from, staging + "/lib/" + lib))
            return makeError(ErrorKind::External, std::string("the build produced no ") + lib +
                                                      " under '" + buildDir.toStdString() + "'");
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

Expected<int> runLogged(const QStringList& args, const QString& dir, BuildLog& log,
                        const XnnpackBuildOptions& o) {
    log("$ cmake " + args.join(' '));
    return build::runProcess("cmake", args, dir, std::ref(log), o.cancel, o.timeoutMs);
}

Status configureAndBuild(const Sources& s, const QString& buildDir, const QStringList& flags,
                         BuildLog& log, const XnnpackBuildOptions& o) {
    QStringList configure{"-S", s.xnnpack, "-B", buildDir};
    configure << flags;
    const char* vars[3] = {"CPUINFO_SOURCE_DIR", "PTHREADPOOL_SOURCE_DIR", "FXDIV_SOURCE_DIR"};
    for (int i = 0; i < 3; ++i)
        if (!s.dep[i].isEmpty()) configure << QStringLiteral("-D%1=%2").arg(vars[i], s.dep[i]);
    auto rc = runLogged(configure, s.xnnpack, log, o);
    if (!rc)
        return makeError(rc.error().kind,
                         rc.error().message + " (log: " + log.path().toStdString() + ")");
    if (*rc != 0) return toolFailure("the configure", o.arch, log);
    const int jobs = o.jobs > 0 ? o.jobs : QThread::idealThreadCount();
    QStringList build{"--build", buildDir, "--parallel", QString::number(jobs), "--target", "XNNPACK",
                      "xnnpack-microkernels-prod", "pthreadpool", "cpuinfo"};
    // XNNPACK compiles through ccache when it is installed (its CMakeLists sets the launcher).
    // CCACHE_BASEDIR at the work folder takes its random name off the paths ccache hashes, so a
    // rebuild (--force, another cache root, the tests) reuses the last build's compiler output.
    if (!QStandardPaths::findExecutable("ccache").isEmpty())
        build = QStringList{"-E", "env", "CCACHE_BASEDIR=" + QFileInfo(buildDir).absolutePath(),
                            "CCACHE_NOHASHDIR=true", "cmake"} + build;
    rc = runLogged(build, s.xnnpack, log, o);
    if (!rc)
        return makeError(rc.error().kind,
                         rc.error().message + " (log: " + log.path().toStdString() + ")");
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
        return makeError(ErrorKind::External,
                         "cannot move the build into '" + entry.toStdString() + "'");
    QDir(old).removeRecursively();
    return {};
}

} // namespace

Expected<PinnedCommits> readPinnedCommits(const QString& src) {
    auto pin = [&](const QString& file) -> Expected<QString> {
        QFile f(src + "/cmake/" + file);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(ErrorKind::InvalidInput, "no " + f.fileName().toStdString() +
                                                          ": is this an XNNPACK source tree?");
        static const QRegularExpression re(
            QStringLiteral("/archive/([0-9a-fA-F]{40})\\.(zip|tar\\.gz)"));
        const auto m = re.match(QString::fromUtf8(f.readAll()));
        if (!m.hasMatch())
            return makeError(ErrorKind::InvalidInput,
                             "no pinned commit (URL .../archive/<sha>.zip) in " +
                                 f.fileName().toStdString());
        return m.captured(1).toLower();
    };
    PinnedCommits p;
    auto c = pin("DownloadCpuinfo.cmake");
    if (!c) return c.error();
    // Upstream spells it DownloadPThreadPool.cmake; older trees DownloadPthreadpool.cmake.
    auto t = pin(QFileInfo::exists(src + "/cmake/DownloadPThreadPool.cmake")
                     ? "DownloadPThreadPool.cmake"
                     : "DownloadPthreadpool.cmake");
    if (!t) return t.error();
    auto f = pin("DownloadFXdiv.cmake");
    if (!f) return f.error();
    p.cpuinfo = *c;
    p.pthreadpool = *t;
    p.fxdiv = *f;
    return p;
}

Expected<XnnpackBuildResult> buildXnnpack(const XnnpackBuildOptions& o) {
    if (o.arch != "x86_64" && o.arch != "aarch64" && o.arch != "riscv64")
        return makeError(ErrorKind::Usage, "unknown architecture '" + o.arch.toStdString() +
                                               "' (known: x86_64, aarch64, riscv64)");
    if (o.sourceDir.isEmpty() == o.tarballsDir.isEmpty())
        return makeError(ErrorKind::Usage,
                         (o.sourceDir.isEmpty()
                              ? std::string("no XNNPACK sources given. ")
                              : std::string("give either --source or --tarballs, not both. ")) +
                             sourcesHelp().toStdString());
    const QString cacheRoot =
        o.cacheRoot.isEmpty() ? xnnpackCacheRoot() : QFileInfo(o.cacheRoot).absoluteFilePath();
    if (!QDir().mkpath(cacheRoot))
        return makeError(ErrorKind::External,
                         "cannot create the XNNPACK cache '" + cacheRoot.toStdString() + "'");
    QTemporaryDir work((o.workRoot.isEmpty() ? QDir::tempPath() : o.workRoot) + "/embark-xnnpack-" +
                       o.arch + "-XXXXXX");
    if (!work.isValid())
        return makeError(ErrorKind::External, "cannot create a temporary work folder: " +
                                                  work.errorString().toStdString());
    QElapsedTimer timer;
    timer.start();
    BuildLog log(cacheRoot + "/logs/" + o.arch + "-" +
                     QDateTime::currentDateTimeUtc().toString("yyyyMMdd-hhmmss") + ".log",
                 o);
    XnnpackBuildResult result;
    result.logPath = log.path();

    auto sources = o.tarballsDir.isEmpty() ? sourcesFromCheckout(o, work.path(), log)
                                           : sourcesFromTarballs(o, work.path(), log);
    if (!sources) return sources.error();
    Sources& s = *sources;
    if (sameCommit(s.xnnpackCommit, kPinnedXnnpackCommit)) s.xnnpackCommit = kPinnedXnnpackCommit;
    auto pins = readPinnedCommits(s.xnnpack);
    if (!pins) return pins.error();
    EMBARK_TRY(checkPins(s, *pins, result.warnings));
    for (const QString& w : result.warnings)
        log("warning: " + w);

    const QStringList flags = xnnpackConfigureFlags(o.arch);
    const QString compiler = compilerVersion();
    const QByteArray key = (o.arch + '\n' + flags.join('\n') + '\n' + compiler).toUtf8();
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(8));
    const QString entry = cacheRoot + "/" + o.arch + "-" + s.xnnpackCommit.left(12) + "-" + hash;
    result.dir = entry;
    if (!o.force && inspectXnnpackTree(entry, o.arch)) {
        result.alreadyBuilt = true;
        if (auto t = inspectXnnpackTree(entry, o.arch); t && t->manifest)
            result.manifest = *t->manifest;
        log("already built: " + entry + " (use --force to rebuild)");
        return result;
    }

    EMBARK_TRY(configureAndBuild(s, work.path() + "/build", flags, log, o));
    RemoveOnExit staging{cacheRoot + "/.tmp-" + QFileInfo(entry).fileName() + "-" +
                         QFileInfo(work.path()).fileName()};
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
    if (!tree)
        return makeError(ErrorKind::External,
                         "the fresh build is not a usable tree: " + tree.error().message);
    if (o.arch == "riscv64" && !tree->hasRvv)
        return makeError(
            ErrorKind::External,
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

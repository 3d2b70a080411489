// XNNPACK's sources for a build (xnnpack_builder.h): a checkout or tarballs, unpacked, and
// their dependency commits checked against the ones XNNPACK pins.
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

QString sourcesHelp() {
    return QStringLiteral("Get the sources with:\n"
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
        .arg(kXnnpackRepository, kPinnedXnnpackCommit, QString::fromLatin1(kPinnedXnnpackCommit).left(12));
}
namespace detail {

bool sameCommit(const QString& a, const QString& b) {
    if (a.size() < 7 || b.size() < 7) return false;
    return a.startsWith(b, Qt::CaseInsensitive) || b.startsWith(a, Qt::CaseInsensitive);
}
Expected<QString> runText(const QString& program, const QStringList& args, const QString& workDir) {
    QString text;
    auto rc = build::runProcess(
        program, args, workDir, [&](const QString& l) { text += l + '\n'; }, nullptr, 60000);
    if (!rc) return rc.error();
    if (*rc != 0)
        return makeError(ErrorKind::External, program.toStdString() + " failed: " + text.trimmed().toStdString());
    return text.trimmed();
}
namespace {

// "cpuinfo-f9a0324.tar.gz" -> "f9a0324".
QString shaInName(const QString& name) {
    static const QRegularExpression re(QStringLiteral("-([0-9a-fA-F]{7,40})(\\.tar\\.gz|\\.tgz|\\.tar\\.xz|\\.tar)?$"));
    const auto m = re.match(name);
    return m.hasMatch() ? m.captured(1).toLower() : QString();
}

Expected<QString> tarballFor(const QString& dir, const QString& project) {
    const QStringList found = QDir(dir).entryList({project + "-*.tar.gz", project + "-*.tgz", project + "-*.tar.xz"},
                                                  QDir::Files, QDir::Name | QDir::IgnoreCase);
    if (found.isEmpty())
        return makeError(ErrorKind::Usage, "no " + project.toStdString() + "-<sha>.tar.gz in '" + dir.toStdString() +
                                               "'\n" + sourcesHelp().toStdString());
    if (found.size() > 1)
        return makeError(ErrorKind::Usage, "several " + project.toStdString() + " tarballs in '" + dir.toStdString() +
                                               "' (" + found.join(", ").toStdString() + "): keep one");
    return dir + "/" + found.first();
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
Expected<QString> unpack(const QString& tarball, const QString& into, BuildLog& log, const XnnpackBuildOptions& o) {
    QDir().mkpath(into);
    log("== unpacking " + tarball);
    auto rc = build::runProcess("tar", {"-xf", tarball, "-C", into}, into, std::ref(log), o.cancel, o.timeoutMs);
    if (!rc) return rc.error();
    if (*rc != 0)
        return makeError(ErrorKind::External, "cannot unpack '" + tarball.toStdString() + "' (tar exit " +
                                                  std::to_string(*rc) + "): " + log.lastError().toStdString() +
                                                  "; is the file complete? Full log: " + log.path().toStdString());
    const QStringList top = QDir(into).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    // std::string("'") + ...: GCC 12 at -O3 gives a false -Wrestrict on "'" + std::string
    // once this is inlined into its callers (here and in sourcesFromCheckout).
    if (top.size() != 1)
        return makeError(ErrorKind::InvalidInput, std::string("'") + tarball.toStdString() +
                                                      "' should unpack into one folder, not " +
                                                      std::to_string(top.size()));
    return into + "/" + top.first();
}
} // namespace

QString xnnpackCommitOfSources(const XnnpackBuildOptions& o) {
    if (!o.sourceDir.isEmpty()) return commitOf(QFileInfo(o.sourceDir).absoluteFilePath());
    auto xnn = tarballFor(QFileInfo(o.tarballsDir).absoluteFilePath(), "XNNPACK");
    return xnn ? shaInName(QFileInfo(*xnn).fileName()) : QString();
}

Expected<Sources> sourcesFromTarballs(const XnnpackBuildOptions& o, const QString& work, BuildLog& log) {
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

Expected<Sources> sourcesFromCheckout(const XnnpackBuildOptions& o, const QString& work, BuildLog& log) {
    Sources s;
    s.xnnpack = QFileInfo(o.sourceDir).absoluteFilePath();
    if (!QFileInfo::exists(s.xnnpack + "/CMakeLists.txt") || !QFileInfo::exists(s.xnnpack + "/include/xnnpack.h"))
        return makeError(ErrorKind::Usage, std::string("'") + s.xnnpack.toStdString() +
                                               "' is not an XNNPACK checkout (no CMakeLists.txt "
                                               "and include/xnnpack.h)\n" +
                                               sourcesHelp().toStdString());
    s.description = "checkout " + s.xnnpack;
    s.xnnpackCommit = commitOf(s.xnnpack);
    if (s.xnnpackCommit.isEmpty())
        return makeError(ErrorKind::Usage, "cannot tell the commit of '" + s.xnnpack.toStdString() +
                                               "': give a git checkout (git rev-parse HEAD) or --tarballs");
    const QString given[3] = {o.cpuinfoSourceDir, o.pthreadpoolSourceDir, o.fxdivSourceDir};
    const QString beside = QFileInfo(s.xnnpack).absolutePath();
    for (int i = 0; i < 3; ++i) {
        if (!given[i].isEmpty()) {
            s.dep[i] = QFileInfo(given[i]).absoluteFilePath();
            s.depCommit[i] = commitOf(s.dep[i]);
            continue;
        }
        const QStringList t =
            QDir(beside).entryList({QString(kDeps[i]) + "-*.tar.gz"}, QDir::Files, QDir::Name | QDir::IgnoreCase);
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
            return makeError(ErrorKind::InvalidInput,
                             QStringLiteral("%1 source is commit %2 but XNNPACK %3 pins %4 (%5): XNNPACK would "
                                            "build and link "
                                            "against it and crash at start-up; use %1 at %4")
                                 .arg(kDeps[i], s.depCommit[i], s.xnnpackCommit.left(12), pinned, files[i])
                                 .toStdString());
    }
    return {};
}
} // namespace detail

Expected<PinnedCommits> readPinnedCommits(const QString& src) {
    auto pin = [&](const QString& file) -> Expected<QString> {
        QFile f(src + "/cmake/" + file);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(ErrorKind::InvalidInput,
                             "no " + f.fileName().toStdString() + ": is this an XNNPACK source tree?");
        static const QRegularExpression re(QStringLiteral("/archive/([0-9a-fA-F]{40})\\.(zip|tar\\.gz)"));
        const auto m = re.match(QString::fromUtf8(f.readAll()));
        if (!m.hasMatch())
            return makeError(ErrorKind::InvalidInput,
                             "no pinned commit (URL .../archive/<sha>.zip) in " + f.fileName().toStdString());
        return m.captured(1).toLower();
    };
    PinnedCommits p;
    auto c = pin("DownloadCpuinfo.cmake");
    if (!c) return c.error();
    // Upstream spells it DownloadPThreadPool.cmake; older trees DownloadPthreadpool.cmake.
    auto t = pin(QFileInfo::exists(src + "/cmake/DownloadPThreadPool.cmake") ? "DownloadPThreadPool.cmake"
                                                                             : "DownloadPthreadpool.cmake");
    if (!t) return t.error();
    auto f = pin("DownloadFXdiv.cmake");
    if (!f) return f.error();
    p.cpuinfo = *c;
    p.pthreadpool = *t;
    p.fxdiv = *f;
    return p;
}
} // namespace embark::xnnpack

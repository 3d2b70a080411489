#include "xnnpack_resolve.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSysInfo>

#include <algorithm>

namespace embark::xnnpack {

QString xnnpackCacheRoot() {
    const QString env = qEnvironmentVariable("EMBARK_XNNPACK_CACHE");
    if (!env.isEmpty()) return QFileInfo(env).absoluteFilePath();
    QString base = qEnvironmentVariable("XDG_CACHE_HOME");
    if (base.isEmpty()) base = QDir::homePath() + "/.cache";
    return base + "/embark/xnnpack";
}

std::vector<CacheEntry> cacheEntries(const QString& cacheRoot) {
    std::vector<CacheEntry> out;
    static const QRegularExpression entryName(QStringLiteral("^(x86_64|aarch64|riscv64)-[0-9a-f]{7,40}-[0-9a-f]+$"));
    for (const QString& name : QDir(cacheRoot).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const auto m = entryName.match(name);
        if (!m.hasMatch()) continue; // .tmp-* staging folders, logs/
        CacheEntry e;
        e.dir = cacheRoot + "/" + name;
        e.name = name;
        e.tree = inspectXnnpackTree(e.dir, m.captured(1));
        if (e.tree && e.tree->manifest) e.manifest = *e.tree->manifest;
        if (e.manifest.arch.isEmpty()) e.manifest.arch = m.captured(1);
        out.push_back(std::move(e));
    }
    std::stable_sort(out.begin(), out.end(), [](const CacheEntry& a, const CacheEntry& b) {
        return a.manifest.buildDate > b.manifest.buildDate;
    });
    return out;
}

QString XnnpackResolution::kindId() const {
    switch (kind) {
    case XnnpackKind::UserTree: return "user";
    case XnnpackKind::EmbarkBuilt: return "embark-built";
    case XnnpackKind::Debian: return "debian";
    case XnnpackKind::None: break;
    }
    return "none";
}

QString XnnpackResolution::describe() const {
    switch (kind) {
    case XnnpackKind::UserTree:
        return QStringLiteral("XNNPACK_ROOT tree %1 (%2 API%3)")
            .arg(path, api, commit.isEmpty() ? QString() : ", commit " + commit.left(12));
    case XnnpackKind::EmbarkBuilt:
        return QStringLiteral("Embark-built upstream XNNPACK %1 (%2 API) from %3").arg(commit.left(12), api, path);
    case XnnpackKind::Debian: return QStringLiteral("Debian's XNNPACK 2022 snapshot (%1 API) from %2").arg(api, path);
    case XnnpackKind::None: break;
    }
    return QStringLiteral("none: %1; run '%2'").arg(reason, fix);
}

QJsonObject XnnpackResolution::toJson() const {
    QJsonObject o{{"kind", kindId()}, {"arch", arch},     {"path", path},
                  {"api", api},       {"commit", commit}, {"warnings", QJsonArray::fromStringList(warnings)}};
    if (!found()) {
        o["reason"] = reason;
        o["fix"] = fix;
    }
    return o;
}

bool isaHasRvv(const QString& isa) {
    // rv64gcv, rv64imafdcv, rv64gcv_zba...: the single-letter extensions end at the first '_'.
    const QString base = isa.toLower().section('_', 0, 0);
    return base.startsWith("rv") && base.mid(4).contains('v');
}

namespace {

QString hostArch() {
    const QString cpu = QSysInfo::currentCpuArchitecture();
    return cpu == "arm64" ? QStringLiteral("aarch64") : cpu;
}

XnnpackResolution fromTree(XnnpackKind kind, const QString& arch, const XnnpackTree& t) {
    XnnpackResolution r;
    r.kind = kind;
    r.arch = arch;
    r.path = t.dir;
    r.api = t.api;
    r.warnings = t.warnings;
    if (t.manifest) r.commit = t.manifest->xnnpackCommit;
    return r;
}

QStringList arm64Sysroots() {
    QStringList roots{qEnvironmentVariable("EMBARK_XNNPACK_SYSROOT"), QStringLiteral("/opt/embark/sysroot-arm64")};
    QString base = qEnvironmentVariable("XDG_CACHE_HOME");
    if (base.isEmpty()) base = QDir::homePath() + "/.cache";
    roots << base + "/embark/sysroot-arm64";
    roots.removeAll(QString());
    return roots;
}

// Debian's packages: the host's /usr for a native build, the arm64 sysroot for aarch64.
std::optional<XnnpackResolution> debianTree(const QString& arch, bool boardHasRvv) {
    QStringList prefixes;
    if (arch == hostArch()) prefixes << "/usr";
    if (arch == "aarch64")
        for (const QString& root : arm64Sysroots()) prefixes << root + "/usr";
    for (const QString& p : prefixes) {
        auto t = inspectXnnpackTree(p, arch, boardHasRvv);
        if (t) return fromTree(XnnpackKind::Debian, arch, *t);
    }
    return std::nullopt;
}

} // namespace

XnnpackResolution resolveXnnpack(const QString& arch, bool boardHasRvv) {
    const QString fix = "embark-cli xnnpack build --arch " + arch;
    const QString root = qEnvironmentVariable("XNNPACK_ROOT");
    if (!root.isEmpty()) {
        auto t = inspectXnnpackTree(root, arch, boardHasRvv);
        if (t) return fromTree(XnnpackKind::UserTree, arch, *t);
        XnnpackResolution r;
        r.arch = arch;
        r.path = root;
        r.reason = QStringLiteral("XNNPACK_ROOT is set but not usable for %1: %2")
                       .arg(arch, QString::fromStdString(t.error().message));
        r.fix = "unset XNNPACK_ROOT or " + fix;
        return r;
    }
    for (const CacheEntry& e : cacheEntries()) {
        if (e.manifest.arch != arch || !e.tree) continue;
        XnnpackResolution r = fromTree(XnnpackKind::EmbarkBuilt, arch, *e.tree);
        return r;
    }
    if (auto d = debianTree(arch, boardHasRvv)) return *d;
    XnnpackResolution r;
    r.arch = arch;
    r.fix = fix;
    if (arch == "riscv64")
        r.reason = "Debian packages no XNNPACK for riscv64, XNNPACK_ROOT is not set and the cache (" +
                   xnnpackCacheRoot() + ") has no riscv64 build";
    else if (arch == "aarch64")
        r.reason = "no XNNPACK_ROOT, no aarch64 build in the cache (" + xnnpackCacheRoot() +
                   ") and no arm64 sysroot (scripts/xnnpack-sysroot.sh)";
    else
        r.reason = "no XNNPACK_ROOT, no " + arch + " build in the cache (" + xnnpackCacheRoot() +
                   ") and no libxnnpack-dev on this host";
    return r;
}

bool haveXnnpackFor(const QString& arch) { return resolveXnnpack(arch).found(); }

XnnpackResolution resolveXnnpackFor(const targets::Board& board) {
    return resolveXnnpack(board.arch, isaHasRvv(board.isa));
}

} // namespace embark::xnnpack

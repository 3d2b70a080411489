// Which XNNPACK an export for an architecture links, and the per-user cache that
// `embark-cli xnnpack build` fills. First match: XNNPACK_ROOT, the cache, Debian's packages.
#pragma once

#include "xnnpack_tree.h"

#include "targets/board.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace embark::xnnpack {

// The XNNPACK commit Embark builds, and the dependency commits it pins (cmake/Download*.cmake).
constexpr const char* kPinnedXnnpackCommit = "fb000666d5c20d22c28cd0364aa171fa94f9a01f";
constexpr const char* kXnnpackRepository = "https://github.com/google/XNNPACK";

// ${EMBARK_XNNPACK_CACHE}, else ${XDG_CACHE_HOME:-~/.cache}/embark/xnnpack.
QString xnnpackCacheRoot();

struct CacheEntry {
    QString dir;
    QString name;             // <arch>-<commit 12 hex>-<flags hash>
    XnnpackManifest manifest; // empty fields when the entry has none
    Expected<XnnpackTree> tree = makeError(ErrorKind::InvalidInput, "not inspected");
};

// Every complete entry of the cache (staging folders and logs excluded), newest build first.
std::vector<CacheEntry> cacheEntries(const QString& cacheRoot = xnnpackCacheRoot());

enum class XnnpackKind { UserTree, EmbarkBuilt, Debian, None };

struct XnnpackResolution {
    XnnpackKind kind = XnnpackKind::None;
    QString arch;
    QString path;   // the tree (XNNPACK_ROOT, cache entry, /usr or the arm64 sysroot's usr)
    QString api;    // "upstream" or "legacy"
    QString commit; // XNNPACK commit when known (manifest), else empty
    QStringList warnings;
    QString reason; // kind None: why, and fix: the command that fixes it
    QString fix;

    bool found() const { return kind != XnnpackKind::None; }
    // What the export's CMake must be told: the tree for XNNPACK_ROOT's default, empty when
    // xnnpack.cmake finds the library itself (Debian's).
    QString rootForExport() const {
        return kind == XnnpackKind::UserTree || kind == XnnpackKind::EmbarkBuilt ? path : QString();
    }
    QString kindId() const; // "user", "embark-built", "debian", "none"
    // "Embark-built upstream XNNPACK fb000666d5c2 (upstream API) from /path" or the reason.
    QString describe() const;
    QJsonObject toJson() const;
};

// The tree an export for `arch` links. A set XNNPACK_ROOT that is not usable for `arch` is
// kind None with its problem as the reason (it would stop the export's configure anyway).
XnnpackResolution resolveXnnpack(const QString& arch, bool boardHasRvv = true);

// The tree an export for `board` links: its architecture, and for riscv64 whether its ISA
// has the V extension. What every caller with a board asks (jobs::resolveTarget, `boards`,
// the target panel).
XnnpackResolution resolveXnnpackFor(const targets::Board& board);

// An XNNPACK tree exists for `arch` (any board of it): for tests and messages that have no board.
bool haveXnnpackFor(const QString& arch);

// True when the board's ISA string names the V extension (rv64gcv, rv64imafdcv_zba...).
bool isaHasRvv(const QString& isa);

} // namespace embark::xnnpack

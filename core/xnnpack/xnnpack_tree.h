// A prebuilt XNNPACK tree (include/ + lib/) checked before anything links against it: headers,
// libraries, the ELF machine of its archives or shared objects, RVV kernels, API, manifest.
#pragma once

#include "ir/error.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace embark::xnnpack {

// embark-xnnpack.json: how an Embark-built tree was made.
struct XnnpackManifest {
    QString arch;
    QString xnnpackCommit;
    QString cpuinfoCommit;
    QString pthreadpoolCommit;
    QString fxdivCommit;
    QString compiler;  // "clang-19 (Debian clang version 19.1.7 ...)"
    QStringList flags; // the CMake options that shaped the binaries
    bool rvv = false;
    QString buildDate; // ISO 8601, UTC
    QString source;    // "tarballs DIR" or "checkout DIR"
    double buildSeconds = 0;

    QJsonObject toJson() const;
    static XnnpackManifest fromJson(const QJsonObject& o);
};

constexpr const char* kManifestName = "embark-xnnpack.json";

struct XnnpackTree {
    QString dir;
    QString arch; // what the libraries were built for (their ELF machine)
    QString includeDir;
    QString libDir;
    QStringList libraries; // absolute paths, in link order
    bool isStatic = false;
    bool hasRvv = false; // riscv64: RVV micro-kernels present
    QString api;         // "upstream" (reshape/setup) or "legacy" (Debian's 2022 API)
    std::optional<XnnpackManifest> manifest;
    QStringList warnings;
};

// Checks `dir` as an XNNPACK tree for `arch` ("x86_64", "aarch64", "riscv64"). InvalidInput
// when a header or library is missing or a library is built for another machine, naming the
// path and what to do. `boardHasRvv`: a riscv64 tree without RVV kernels is then a warning.
Expected<XnnpackTree> inspectXnnpackTree(const QString& dir, const QString& arch, bool boardHasRvv = true);

// The ELF machine ("x86_64", "riscv64", ...) of the first ELF member of a static archive, or
// of a plain ELF file; empty when neither. `members` receives the archive's member names.
QString archiveElfMachine(const QString& path, QStringList* members = nullptr, QByteArray* symbols = nullptr);

} // namespace embark::xnnpack

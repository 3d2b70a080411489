#include "xnnpack_tree.h"

#include "compile/export_builder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace embark::xnnpack {

QJsonObject XnnpackManifest::toJson() const {
    return QJsonObject{{"arch", arch},
                       {"xnnpack_commit", xnnpackCommit},
                       {"cpuinfo_commit", cpuinfoCommit},
                       {"pthreadpool_commit", pthreadpoolCommit},
                       {"fxdiv_commit", fxdivCommit},
                       {"compiler", compiler},
                       {"flags", QJsonArray::fromStringList(flags)},
                       {"rvv", rvv},
                       {"build_date", buildDate},
                       {"build_seconds", buildSeconds},
                       {"source", source}};
}

XnnpackManifest XnnpackManifest::fromJson(const QJsonObject& o) {
    XnnpackManifest m;
    m.arch = o.value("arch").toString();
    m.xnnpackCommit = o.value("xnnpack_commit").toString();
    m.cpuinfoCommit = o.value("cpuinfo_commit").toString();
    m.pthreadpoolCommit = o.value("pthreadpool_commit").toString();
    m.fxdivCommit = o.value("fxdiv_commit").toString();
    m.compiler = o.value("compiler").toString();
    for (const QJsonValue& v : o.value("flags").toArray()) m.flags << v.toString();
    m.rvv = o.value("rvv").toBool();
    m.buildDate = o.value("build_date").toString();
    m.buildSeconds = o.value("build_seconds").toDouble();
    m.source = o.value("source").toString();
    return m;
}

namespace {

QString machineName(uint16_t m) {
    switch (m) {
    case 62: return "x86_64";
    case 183: return "aarch64";
    case 243: return "riscv64";
    case 40: return "arm";
    case 3: return "x86";
    default: return QStringLiteral("machine %1").arg(m);
    }
}

QString elfHeaderMachine(const QByteArray& h) {
    if (h.size() < 20 || !h.startsWith("\x7f"
                                       "ELF"))
        return {};
    return machineName(static_cast<uint16_t>(static_cast<uint8_t>(h[18]) | (static_cast<uint8_t>(h[19]) << 8)));
}

// A member's name from its 16-byte field: "name/" (GNU), "/123" (offset into the "//" table).
QString memberName(const QByteArray& field, const QByteArray& longNames) {
    QByteArray n = field.trimmed();
    if (n.startsWith('/') && n.size() > 1 && n != "//" && n != "/SYM64/") {
        bool ok = false;
        const int off = n.mid(1).toInt(&ok);
        if (ok && off >= 0 && off < longNames.size()) {
            const qsizetype end = longNames.indexOf('\n', off);
            n = longNames.mid(off, end < 0 ? -1 : end - off);
        }
    }
    if (n.endsWith('/') && n.size() > 1) n.chop(1);
    return QString::fromUtf8(n);
}

} // namespace

QString archiveElfMachine(const QString& path, QStringList* members, QByteArray* symbols) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray magic = f.read(8);
    if (magic != "!<arch>\n") {
        f.seek(0);
        return elfHeaderMachine(f.read(20));
    }
    QString machine;
    QByteArray longNames;
    qint64 pos = 8;
    while (pos + 60 <= f.size()) {
        f.seek(pos);
        const QByteArray header = f.read(60);
        if (header.size() < 60 || header.mid(58, 2) != "`\n") break; // corrupt: stop where it breaks
        bool ok = false;
        const qint64 size = header.mid(48, 10).trimmed().toLongLong(&ok);
        if (!ok || size < 0) break;
        const QByteArray rawName = header.left(16).trimmed();
        const qint64 data = pos + 60;
        if (rawName == "//") {
            longNames = f.read(size);
        } else if (rawName == "/" || rawName == "/SYM64/") {
            if (symbols) *symbols += f.read(size);
        } else {
            if (members) *members << memberName(header.left(16), longNames);
            if (machine.isEmpty()) machine = elfHeaderMachine(f.read(20));
            if (!members && !symbols && !machine.isEmpty()) return machine;
        }
        pos = data + size + (size & 1);
    }
    return machine;
}

namespace {

// Where the libraries live: lib/, lib64/ or Debian's lib/<multiarch>/.
QStringList libDirCandidates(const QString& dir, const QString& arch) {
    return {dir + "/lib", dir + "/lib64", dir + "/lib/" + arch + "-linux-gnu"};
}

// lib<name>.a or lib<name>.so in `libDir`; empty when neither.
QString findLibrary(const QString& libDir, const QString& name) {
    for (const char* ext : {".a", ".so"}) {
        const QString p = libDir + "/lib" + name + ext;
        if (QFileInfo::exists(p)) return p;
    }
    return {};
}

QString nameOf(const QString& path) { return QFileInfo(path).fileName(); }

Error treeError(const QString& dir, const QString& problem) {
    return makeError(ErrorKind::InvalidInput, "XNNPACK tree '" + dir.toStdString() + "': " + problem.toStdString());
}

QString findLibDir(const QString& dir, const QString& arch) {
    for (const QString& d : libDirCandidates(dir, arch))
        if (!findLibrary(d, "XNNPACK").isEmpty()) return d;
    return {};
}

std::optional<XnnpackManifest> readManifest(const QString& dir, QStringList& warnings) {
    QFile f(dir + "/" + kManifestName);
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (!doc.isObject()) {
        warnings << QStringLiteral("%1 is not valid JSON (%2): ignored").arg(f.fileName(), pe.errorString());
        return std::nullopt;
    }
    return XnnpackManifest::fromJson(doc.object());
}

} // namespace

Expected<XnnpackTree> inspectXnnpackTree(const QString& dirIn, const QString& arch, bool boardHasRvv) {
    XnnpackTree t;
    t.dir = QFileInfo(dirIn).absoluteFilePath();
    const QString& dir = t.dir;
    const QString rebuild = arch == "x86_64" || arch == "aarch64" || arch == "riscv64"
                                ? "; 'embark-cli xnnpack build --arch " + arch + "' makes one"
                                : QString();
    if (!QFileInfo(dir).isDir()) return treeError(dir, "no such folder" + rebuild);
    t.includeDir = dir + "/include";
    if (!QFileInfo::exists(t.includeDir + "/xnnpack.h"))
        return treeError(dir, "no include/xnnpack.h: it must hold XNNPACK's headers" + rebuild);
    t.libDir = findLibDir(dir, arch);
    if (t.libDir.isEmpty())
        return treeError(dir,
                         "no libXNNPACK.a or libXNNPACK.so in lib/, lib64/ or lib/" + arch + "-linux-gnu/" + rebuild);
    const QString xnn = findLibrary(t.libDir, "XNNPACK");
    t.isStatic = xnn.endsWith(".a");
    t.libraries << xnn;
    if (t.isStatic) {
        // Upstream's static build keeps the micro-kernels apart (older trees call it
        // microkernels-prod).
        QString mk = findLibrary(t.libDir, "xnnpack-microkernels-prod");
        if (mk.isEmpty()) mk = findLibrary(t.libDir, "microkernels-prod");
        if (mk.isEmpty())
            return treeError(dir, "static libXNNPACK.a without libxnnpack-microkernels-prod.a in " + t.libDir +
                                      " (copy it from XNNPACK's build folder)" + rebuild);
        t.libraries << mk;
        if (QString k = findLibrary(t.libDir, "kleidiai"); !k.isEmpty()) t.libraries << k;
    }
    for (const char* dep : {"pthreadpool", "cpuinfo"}) {
        const QString p = findLibrary(t.libDir, dep);
        if (p.isEmpty())
            return treeError(dir, QStringLiteral("no lib%1.a or lib%1.so in %2: XNNPACK needs it (copy it from "
                                                 "XNNPACK's build folder)")
                                          .arg(dep, t.libDir) +
                                      rebuild);
        t.libraries << p;
    }
    QByteArray kernelSymbols;
    QStringList kernelMembers;
    for (const QString& lib : t.libraries) {
        const bool kernels = lib.contains("microkernels-prod");
        const QString real = QFileInfo(lib).canonicalFilePath();
        const QString m =
            archiveElfMachine(real, kernels ? &kernelMembers : nullptr, kernels ? &kernelSymbols : nullptr);
        if (m.isEmpty())
            return treeError(dir,
                             nameOf(lib) + " is neither an ELF shared object nor an archive of ELF objects" + rebuild);
        if (m != arch)
            return treeError(dir, nameOf(lib) + " is built for " + m + " (ELF machine), not " + arch +
                                      ": point XNNPACK_ROOT at a tree built for " + arch + rebuild);
    }
    t.arch = arch;
    QFile header(t.includeDir + "/xnnpack.h");
    if (!header.open(QIODevice::ReadOnly)) return treeError(dir, "cannot read include/xnnpack.h");
    t.api = header.readAll().contains("xnn_reshape_convolution2d_nhwc_f32") ? "upstream" : "legacy";
    t.manifest = readManifest(dir, t.warnings);
    if (t.manifest && !t.manifest->arch.isEmpty() && t.manifest->arch != arch)
        return treeError(dir, QStringLiteral("its %1 says arch %2, not %3").arg(kManifestName, t.manifest->arch, arch));
    if (arch == "riscv64") {
        t.hasRvv = kernelSymbols.contains("__rvv") || std::any_of(kernelMembers.begin(), kernelMembers.end(),
                                                                  [](const QString& n) { return n.contains("rvv"); });
        if (t.manifest) t.hasRvv = t.hasRvv || t.manifest->rvv;
        if (!t.hasRvv && boardHasRvv)
            t.warnings << QStringLiteral("XNNPACK tree '%1' has no RVV micro-kernels: exports will "
                                         "run its scalar kernels "
                                         "(rebuild with 'embark-cli xnnpack build --arch riscv64', "
                                         "which enables RVV)")
                              .arg(dir);
    }
    return t;
}

} // namespace embark::xnnpack

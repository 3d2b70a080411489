// `embark-cli xnnpack build|list`: build upstream XNNPACK for an architecture into the per-user
// cache, and list the cache with what each architecture's exports link.
#include "commands.h"
#include "run_json.h"
#include "interrupt.h"
#include "model_args.h"

#include "xnnpack/xnnpack_builder.h"
#include "xnnpack/xnnpack_resolve.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <atomic>

namespace embark::cli {
namespace {

int xnnpackBuild(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Build upstream XNNPACK for an architecture into the per-user cache.");
    parser.addOption({"arch", "Target CPU: riscv64, aarch64 or x86_64.", "ARCH"});
    parser.addOption({"source", "A local XNNPACK checkout.", "DIR"});
    parser.addOption(
        {"tarballs", "A folder with XNNPACK-<sha>, cpuinfo-<sha>, pthreadpool-<sha> and FXdiv-<sha>.tar.gz.", "DIR"});
    parser.addOption(
        {"cpuinfo-source", "cpuinfo sources for --source (default: a tarball beside it, else downloaded).", "DIR"});
    parser.addOption({"pthreadpool-source", "pthreadpool sources for --source.", "DIR"});
    parser.addOption({"fxdiv-source", "FXdiv sources for --source.", "DIR"});
    parser.addOption({"jobs", "Parallel compile jobs (default: all cores).", "N", "0"});
    parser.addOption({"force", "Rebuild even when the cache already has this build."});
    parser.addOption({"verbose", "Stream the whole build log (default: progress lines only)."});
    const QString synopsis = "xnnpack build --arch riscv64|aarch64|x86_64 [--source DIR | --tarballs DIR] "
                             "[--cpuinfo-source DIR] [--pthreadpool-source DIR] [--fxdiv-source DIR] "
                             "[--jobs N] [--force] [--verbose]";
    if (int rc = parseOrExit(parser, args, io, synopsis, 0, 0); rc >= 0) return rc;
    if (!parser.isSet("arch")) return usage(io, "xnnpack build needs --arch riscv64|aarch64|x86_64");
    xnnpack::XnnpackBuildOptions o;
    o.arch = parser.value("arch");
    o.sourceDir = parser.value("source");
    o.tarballsDir = parser.value("tarballs");
    o.cpuinfoSourceDir = parser.value("cpuinfo-source");
    o.pthreadpoolSourceDir = parser.value("pthreadpool-source");
    o.fxdivSourceDir = parser.value("fxdiv-source");
    o.force = parser.isSet("force");
    auto jobs = intOption(parser, "jobs", 0, 1024);
    if (!jobs) return fail(io, jobs.error());
    o.jobs = static_cast<int>(*jobs); // 0: all cores
    const bool verbose = parser.isSet("verbose");
    o.log = [&](const QString& line) {
        // Ninja's "[n/m]" lines are the progress; the rest is in the log file.
        if (verbose || line.startsWith('[') || line.startsWith("== ") || line.startsWith("warning:")) {
            io.err << line << "\n";
            io.err.flush();
        }
    };
    io.err << "Building XNNPACK for " << o.arch << " into " << xnnpack::xnnpackCacheRoot() << "\n";
    io.err.flush();
    Expected<xnnpack::XnnpackBuildResult> r = [&] {
        // Ctrl+C stops the tools and removes the staging folder.
        InterruptGuard interrupts;
        o.cancel = interrupts.flag();
        return xnnpack::buildXnnpack(o);
    }();
    if (!r) return fail(io, r.error());
    for (const QString& w : r->warnings) io.err << "embark-cli: warning: " << w << "\n";
    if (r->alreadyBuilt)
        io.out << "Already built: " << r->dir << " (--force rebuilds it)\n";
    else
        io.out << "Built XNNPACK " << r->manifest.xnnpackCommit.left(12) << " for " << o.arch << " in "
               << QString::number(r->manifest.buildSeconds, 'f', 0) << " s: " << r->dir << "\n"
               << "Log: " << r->logPath << "\n";
    io.out << "Exports for " << o.arch << " now link: " << xnnpack::resolveXnnpack(o.arch).describe() << "\n";
    return 0;
}

int xnnpackList(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("List the XNNPACK builds in the cache and what each architecture links.");
    parser.addOption({"json", "Print one JSON object."});
    if (int rc = parseOrExit(parser, args, io, "xnnpack list [--json]", 0, 0); rc >= 0) return rc;
    const auto entries = xnnpack::cacheEntries();
    if (parser.isSet("json")) {
        QJsonArray list, resolved;
        for (const auto& e : entries) {
            QJsonObject o{{"name", e.name}, {"dir", e.dir}, {"usable", e.tree.ok()}, {"manifest", e.manifest.toJson()}};
            if (!e.tree) o["problem"] = QString::fromStdString(e.tree.error().message);
            list.append(o);
        }
        for (const char* a : {"x86_64", "aarch64", "riscv64"})
            resolved.append(xnnpack::resolveXnnpack(QString::fromLatin1(a)).toJson());
        io.out << QJsonDocument(withSchema(QJsonObject{
                                    {"cache", xnnpack::xnnpackCacheRoot()}, {"entries", list}, {"resolved", resolved}}))
                      .toJson(QJsonDocument::Indented);
        return 0;
    }
    io.out << "Cache " << xnnpack::xnnpackCacheRoot() << "\n";
    if (entries.empty()) io.out << "  (empty)\n";
    for (const auto& e : entries) {
        io.out << "  " << e.name << "  " << e.manifest.arch << "  XNNPACK " << e.manifest.xnnpackCommit.left(12)
               << (e.manifest.rvv ? "  RVV" : "") << "  " << e.manifest.buildDate;
        if (!e.tree) io.out << "  UNUSABLE: " << QString::fromStdString(e.tree.error().message);
        io.out << "\n";
    }
    io.out << "Exports link:\n";
    for (const char* a : {"x86_64", "aarch64", "riscv64"})
        io.out << "  " << QString::fromLatin1(a).leftJustified(8) << " " << xnnpack::resolveXnnpack(a).describe()
               << "\n";
    return 0;
}

} // namespace

int cmdXnnpack(const QStringList& args, Io& io) {
    const QString sub = args.value(0);
    if (sub == "build") return xnnpackBuild(args.mid(1), io);
    if (sub == "list") return xnnpackList(args.mid(1), io);
    if (sub == "--help" || sub == "-h") {
        io.out << "Usage: embark-cli xnnpack build --arch ARCH [--source DIR | --tarballs DIR] "
                  "[--jobs N] [--force]\n"
               << "       embark-cli xnnpack list [--json]\n\n"
               << xnnpack::sourcesHelp() << "\n\n"
               << exitStatusHelp();
        return 0;
    }
    return usage(io, sub.isEmpty() ? QStringLiteral("xnnpack needs a subcommand: build or list")
                                   : QStringLiteral("unknown xnnpack subcommand '%1' (build or list)").arg(sub));
}

} // namespace embark::cli

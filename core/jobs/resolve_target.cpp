#include "resolve_target.h"

#include "export/exporter.h"
#include "xnnpack/export_link.h"
#include "xnnpack/xnnpack_resolve.h"

namespace embark::jobs {
namespace {

Expected<targets::Board> boardFor(const TargetRequest& r, const targets::BoardCatalog& boards) {
    if (!r.arch.isEmpty() && !targets::knownArchitectures().contains(r.arch))
        return makeError(ErrorKind::Usage, "--arch '" + r.arch.toStdString() + "': use " +
                                               targets::knownArchitectures().join(", ").toStdString());
    if (!r.board.isEmpty() || r.arch.isEmpty()) {
        auto board = targets::findBoard(boards, r.board.isEmpty() ? QString::fromLatin1(kDefaultBoard) : r.board);
        if (!board) return board.error();
        if (!r.arch.isEmpty() && r.arch != board->arch)
            return makeError(ErrorKind::Usage, QStringLiteral("--arch %1 does not match board '%2' (%3)")
                                                   .arg(r.arch, board->id, board->arch)
                                                   .toStdString());
        return board;
    }
    // An architecture alone: this computer when it is one, else a simulated board of it.
    if (const targets::Board* host = boards.find(QString::fromLatin1(kDefaultBoard)); host && host->arch == r.arch)
        return *host;
    for (const targets::Board& b : boards.boards)
        if (b.arch == r.arch && b.builtIn && b.isSimulated()) return b;
    QStringList ids;
    for (const targets::Board& b : boards.boards)
        if (b.arch == r.arch) ids << b.id;
    return makeError(ErrorKind::Usage,
                     "--arch " + r.arch.toStdString() + ": no simulated board of that architecture" +
                         (ids.isEmpty() ? std::string(" and no other board either")
                                        : "; name one with --board (" + ids.join(", ").toStdString() + ")"));
}

} // namespace

Expected<exporter::DeploymentTarget> resolveTarget(const TargetRequest& r, const targets::BoardCatalog& boards) {
    auto board = boardFor(r, boards);
    if (!board) return board.error();
    exporter::DeploymentTarget t;
    t.board = *board;
    t.arch = board->arch.toStdString();
    t.library = r.library;
    t.opOverrides = r.opOverrides;
    t.nodeOverrides = r.nodeOverrides;
    t.recipe = r.recipe;
    t.concatInPlace = r.concatInPlace;
    t.dtypePolicy = r.dtypePolicy;
    t.threadsMax = r.threadsMax;
    if (r.compiler == QLatin1String("gcc"))
        t.compiler = targets::CompilerPreference::Gcc;
    else if (r.compiler == QLatin1String("clang"))
        t.compiler = targets::CompilerPreference::Clang;
    else if (!r.compiler.isEmpty())
        return makeError(ErrorKind::Usage, "--compiler '" + r.compiler.toStdString() + "': use clang or gcc");
    auto toolchain = targets::toolchainFor(*board, t.compiler);
    if (!toolchain) return toolchain.error();
    t.toolchain = *toolchain;
    // The one place that asks which XNNPACK this board's exports link.
    const xnnpack::XnnpackResolution xnn = xnnpack::resolveXnnpackFor(*board);
    t.xnnpack = xnnpack::exportLink(xnn);
    t.xnnpackDescription = xnn.describe();
    t.xnnpackWarnings = xnn.warnings;
    t.xnnpackJson = xnn.toJson();
    return t;
}

Expected<exporter::DeploymentTarget> resolveTarget(const TargetRequest& request) {
    return resolveTarget(request, targets::loadBoards());
}

TargetRequest targetRequest(const BenchOptions& o) {
    TargetRequest r;
    r.board = o.boardId;
    r.arch = o.arch;
    r.library = o.library;
    r.opOverrides = o.opOverrides;
    r.nodeOverrides = o.nodeOverrides;
    r.compiler = o.compiler;
    r.recipe = o.recipe;
    r.concatInPlace = o.concatInPlace;
    r.dtypePolicy = o.dtypePolicy;
    r.threadsMax = o.threadsMax;
    return r;
}

TargetRequest targetRequest(const store::RunRecord& run) {
    TargetRequest r;
    const store::RunFingerprint& f = run.fingerprint;
    r.board = QString::fromStdString(f.boardId);
    if (f.kernelLibrary != "mixed" && f.kernelLibrary != "onnxruntime" && !f.kernelLibrary.empty())
        r.library = f.kernelLibrary;
    // The pipeline records "clang (riscv64-clang)": the compiler is the first word.
    const QString compiler = QString::fromStdString(f.compiler).section(' ', 0, 0);
    if (compiler == QLatin1String("clang") || compiler == QLatin1String("gcc")) r.compiler = compiler;
    return r;
}

} // namespace embark::jobs

// `embark-cli boards [--json]`: the built-in and user boards (id, name, arch, ISA, cores,
// memory, runner), which XNNPACK each architecture links and which boards have ONNX Runtime; malformed board files are
// reported on stderr and make the status 4.
#include "commands.h"
#include "model_args.h"

#include "targets/board.h"
#include "xnnpack/xnnpack_resolve.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace embark::cli {

int cmdBoards(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "List the boards: built-ins from boards/*.json, then the user's from " + targets::userBoardsDir() +
        " (EMBARK_CONFIG_DIR overrides the folder), which add to or override them.");
    parser.addOption({"json", "Print a JSON array of board objects (the board file schema)."});
    if (int rc = parseOrExit(parser, args, io, "boards [--json]", 0, 0); rc >= 0) return rc;

    const targets::BoardCatalog catalog = targets::loadBoards();
    for (const QString& note : catalog.notes) io.err << "embark-cli: note: " << note << "\n";
    if (parser.isSet("json")) {
        QJsonArray boards;
        for (const targets::Board& b : catalog.boards) {
            QJsonObject o = b.toJson();
            o["source"] = b.sourceFile;
            o["built_in"] = b.builtIn;
            // Which XNNPACK an export for this board links (embark-cli xnnpack list explains).
            if (b.xnnpack) o["xnnpack_link"] = xnnpack::resolveXnnpackFor(b).toJson();
            // The runtimes `bench --runtime` can use on it.
            o["runtimes"] = QJsonArray::fromStringList(b.onnxruntime ? QStringList{"export", "onnxruntime"} : QStringList{"export"});
            boards.append(o);
        }
        io.out << QJsonDocument(boards).toJson(QJsonDocument::Indented);
    } else {
        io.out << QString("id").leftJustified(13) << QString("name").leftJustified(52) << QString("arch").leftJustified(9)
               << QString("isa").leftJustified(11) << QString("cores").rightJustified(5)
               << QString("memory").rightJustified(12) << "  runner\n";
        for (const targets::Board& b : catalog.boards)
            io.out << b.id.leftJustified(12) << " " << b.name.leftJustified(51, ' ', true) << " "
                   << b.arch.leftJustified(8) << " " << b.isa.leftJustified(10) << " "
                   << QString::number(b.cores).rightJustified(5)
                   << QString::number(double(b.memoryBytes) / (1024.0 * 1024.0), 'f', 0).append(" MiB").rightJustified(12)
                   << "  " << b.runnerSummary() << "\n";
        QStringList archs;
        for (const targets::Board& b : catalog.boards)
            if (b.xnnpack && !archs.contains(b.arch)) archs << b.arch;
        if (!archs.isEmpty()) io.out << "\nXNNPACK for --lib xnnpack:\n";
        for (const QString& a : archs)
            io.out << "  " << a.leftJustified(8) << " " << xnnpack::resolveXnnpack(a).describe() << "\n";
        // Every board runs Embark's exports; some also have ONNX Runtime (bench --runtime onnxruntime).
        bool header = false;
        for (const targets::Board& b : catalog.boards) {
            if (!b.onnxruntime) continue;
            if (!header) io.out << "\nONNX Runtime for --runtime onnxruntime (every board runs --runtime export):\n";
            header = true;
            io.out << "  " << b.id.leftJustified(12) << " " << b.onnxruntime->describe() << "\n";
        }
    }
    io.out.flush();
    if (catalog.problems.empty()) return 0;
    for (const Error& e : catalog.problems) io.err << "embark-cli: error: " << QString::fromStdString(e.message) << "\n";
    io.err.flush();
    return static_cast<int>(ErrorKind::InvalidInput);
}

} // namespace embark::cli

// `embark-cli boards [--json]`: the built-in and user boards (id, name, arch, ISA, cores,
// memory, runner), which XNNPACK each architecture links and which boards have ONNX Runtime; malformed board files are
// reported on stderr and make the status 4.
#include "commands.h"
#include "run_json.h"
#include "text_table.h"
#include "model_args.h"

#include "targets/board.h"
#include "xnnpack/xnnpack_resolve.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace embark::cli {

int cmdBoards(const QStringList& args, Io& io) {
    QCommandLineParser parser;
    parser.setApplicationDescription("List the boards: built-ins from boards/*.json, then the user's from " +
                                     targets::userBoardsDir() +
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
            // A farm board is reached through LAVA: its file's "farm" object, runner kind "farm".
            if (b.farm) o["runner"] = QJsonObject{{"kind", "farm"}};
            // Which XNNPACK an export for this board links (embark-cli xnnpack list explains).
            if (b.xnnpack) o["xnnpack_link"] = xnnpack::resolveXnnpackFor(b).toJson();
            // The runtimes `bench --runtime` can use on it.
            o["runtimes"] = QJsonArray::fromStringList(b.onnxruntime ? QStringList{"export", "onnxruntime"}
                                                                     : QStringList{"export"});
            boards.append(withSchema(o));
        }
        io.out << QJsonDocument(boards).toJson(QJsonDocument::Indented);
    } else {
        using A = TextTable::Align;
        TextTable table({{"id"}, {"name"}, {"arch"}, {"isa"}, {"cores", A::Right}, {"memory", A::Right}, {"runner"}});
        for (const targets::Board& b : catalog.boards)
            table.addRow({b.id, b.name, b.arch, b.isa, QString::number(b.cores),
                          QString::number(double(b.memoryBytes) / (1024.0 * 1024.0), 'f', 0) + " MiB",
                          b.runnerSummary()});
        table.print(io.out);
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
    for (const Error& e : catalog.problems)
        io.err << "embark-cli: error: " << QString::fromStdString(e.message) << "\n";
    io.err.flush();
    return static_cast<int>(ErrorKind::InvalidInput);
}

} // namespace embark::cli

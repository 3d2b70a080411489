#include "cli.h"

#include "commands.h"

#include <cstdio>

namespace embark::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> table{
        {"inspect", "summarise a model: inputs/outputs, ops, parameters, MACs, activations", cmdInspect},
        {"run", "run a model through the host reference interpreter and compare outputs", cmdRun},
        {"quantize", "quantize a float model to int8 QDQ (static, calibrated on test data sets)", cmdQuantize},
        {"compare", "per-layer error of a model (e.g. quantized) against the float model it came from", cmdCompare},
        {"export", "write a standalone C++ export (portable or XNNPACK kernels)", cmdExport},
        {"build", "configure and build an export folder with CMake", cmdBuild},
        {"exec", "run a built export on its board: host, qemu-user or SSH (JSON lines on stdout)", cmdExec},
        {"bench", "benchmark on a board: export, build, deploy, run, compare, store", cmdBench},
        {"sweep", "the model x board x library matrix: every cell a stored run, one table", cmdSweep},
        {"ort-test", "run every test_data_set_N of an ONNX test folder with the host's ONNX Runtime", cmdOrtTest},
        {"plan", "fuse a model, assign kernel libraries and layouts, plan its memory", cmdPlan},
        {"boards", "list the boards (built-in and user) and how each is reached", cmdBoards},
        {"runs", "the run history: list, show, compare or delete stored runs", cmdRuns},
        {"farm", "boards in a LAVA farm: store the API token, list a farm board's devices", cmdFarm},
        {"xnnpack", "build upstream XNNPACK for an architecture into the cache, list the cache", cmdXnnpack},
    };
    return table;
}

QString exitStatusHelp() {
    return QStringLiteral("Exit status (every command):\n"
                          "  0  success\n"
                          "  1  outputs outside the tolerance\n"
                          "  2  usage error\n"
                          "  3  the model needs something unsupported (op, attribute, dtype)\n"
                          "  4  invalid model or input file\n"
                          "  5  external failure (toolchain, board, network, file system)\n");
}

static void printHelp(QTextStream& out) {
    out << "Usage: embark-cli <command> [options]\n\n"
        << "Embark takes an ONNX model to a board: inspect, run, plan, export, build, deploy, bench.\n\n"
        << "Commands:\n";
    for (const Command& c : commands())
        out << "  " << QString::fromLatin1(c.name).leftJustified(10) << " " << c.summary << "\n";
    out << "\nRun 'embark-cli <command> --help' for a command's options.\n\n" << exitStatusHelp();
}

int fail(Io& io, const Error& error) {
    io.err << "embark-cli: error: " << QString::fromStdString(error.message) << "\n";
    io.err.flush();
    return error.exitCode();
}

int usage(Io& io, const QString& message) {
    // One line in the form of every other error; Qt's parser texts ("Unknown option 'x'.")
    // lose their capital and full stop so they read the same.
    QString text = message.trimmed();
    if (text.endsWith('.')) text.chop(1);
    if (text.size() > 1 && text[0].isUpper() && text[1].isLower()) text[0] = text[0].toLower();
    io.err << "embark-cli: error: " << text << " (see 'embark-cli --help')\n";
    io.err.flush();
    return static_cast<int>(ErrorKind::Usage);
}

int run(const QStringList& args, QTextStream& out, QTextStream& err) {
    Io io{out, err};
    if (args.isEmpty()) {
        // No command is a usage error: the help goes to stderr, like every other usage error.
        err << "embark-cli: error: no command given\n\n";
        printHelp(err);
        err.flush();
        return static_cast<int>(ErrorKind::Usage);
    }
    if (args.first() == "--help" || args.first() == "-h" || args.first() == "help") {
        printHelp(out);
        out.flush();
        return 0;
    }
    if (args.first() == "--version") {
        out << "embark-cli " << EMBARK_VERSION << "\n";
        return 0;
    }
    for (const Command& c : commands()) {
        if (args.first() == QLatin1String(c.name)) {
            const int rc = c.fn(args.mid(1), io);
            out.flush();
            err.flush();
            return rc;
        }
    }
    return usage(io, QStringLiteral("unknown command '%1'").arg(args.first()));
}

int run(const QStringList& args) {
    QTextStream out(stdout);
    QTextStream err(stderr);
    return run(args, out, err);
}

} // namespace embark::cli

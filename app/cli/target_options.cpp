#include "target_options.h"

#include "model_args.h"

namespace embark::cli {
namespace {

Expected<std::map<std::string, std::string>> pairs(const QStringList& values, const char* option) {
    std::map<std::string, std::string> out;
    for (const QString& v : values) {
        const qsizetype eq = v.indexOf('=');
        if (eq <= 0 || eq == v.size() - 1)
            return makeError(ErrorKind::Usage,
                             std::string("--") + option + " '" + v.toStdString() + "' is not NAME=LIB");
        out[v.left(eq).toStdString()] = v.mid(eq + 1).toStdString();
    }
    return out;
}

} // namespace

const QStringList kTargetOptionNames{"board",         "arch",       "lib",    "override",
                                     "override-node", "compiler",   "recipe", "concat-in-place",
                                     "dtype-policy",  "threads-max"};

const char* const kTargetSynopsis =
    "[--board BOARD] [--arch ARCH] [--lib portable|xnnpack|auto] [--override OP=LIB]... [--override-node NAME=LIB]... "
    "[--compiler clang|gcc] [--recipe default|cleanup|none] [--concat-in-place auto|all|off] "
    "[--dtype-policy int8|float32] [--threads-max N]";

void addTargetOptions(QCommandLineParser& parser) {
    parser.addOption({"board",
                      QStringLiteral("Target board id (see embark-cli boards; default %1): sets the "
                                     "architecture, CPU flags, toolchain and XNNPACK tree.")
                          .arg(QLatin1String(jobs::kDefaultBoard)),
                      "BOARD", QString::fromLatin1(jobs::kDefaultBoard)});
    parser.addOption({"arch",
                      "Target architecture: x86_64, aarch64 or riscv64 (default: the board's; alone, "
                      "the host or the first simulated board of it).",
                      "ARCH"});
    parser.addOption({"lib",
                      "Kernel library: portable, xnnpack, or auto (each node on the library measured "
                      "fastest for its shape on the board; default portable).",
                      "LIB", "portable"});
    parser.addOption({"override", "Run every node of op type OP on LIB (repeatable).", "OP=LIB"});
    parser.addOption({"override-node", "Run node NAME on LIB (repeatable).", "NAME=LIB"});
    parser.addOption({"compiler", "Cross compiler: clang or gcc (default: the board's).", "CC"});
    parser.addOption({"recipe", "Pass recipe: default, cleanup or none (default default).", "RECIPE", "default"});
    parser.addOption({"concat-in-place",
                      "Concatenation in place: auto (strided slices in buffers up to 1 MiB), "
                      "all or off (default auto).",
                      "MODE", "auto"});
    parser.addOption({"dtype-policy",
                      "What a quantized (QDQ) model computes in: int8 (its quantized operators on int8 "
                      "kernels) or float32 (float operators between its QuantizeLinear/DequantizeLinear; "
                      "default int8).",
                      "POLICY", "int8"});
    parser.addOption({"threads-max", "Most threads run_export will use (default 0: no cap).", "N", "0"});
}

Expected<jobs::TargetRequest> targetRequest(const QCommandLineParser& parser) {
    jobs::TargetRequest r;
    r.board = parser.isSet("board") ? parser.value("board") : QString();
    r.arch = parser.value("arch");
    r.library = parser.value("lib").toStdString();
    auto ops = pairs(parser.values("override"), "override");
    if (!ops) return ops.error();
    auto nodes = pairs(parser.values("override-node"), "override-node");
    if (!nodes) return nodes.error();
    r.opOverrides = *ops;
    r.nodeOverrides = *nodes;
    r.compiler = parser.value("compiler");
    if (!r.compiler.isEmpty() && r.compiler != "clang" && r.compiler != "gcc")
        return makeError(ErrorKind::Usage, "--compiler must be clang or gcc");
    r.recipe = parser.value("recipe").toStdString();
    if (!exporter::parseConcatInPlace(parser.value("concat-in-place").toStdString(), &r.concatInPlace))
        return makeError(ErrorKind::Usage, "--concat-in-place must be auto, all or off");
    if (!exporter::parseDTypePolicy(parser.value("dtype-policy").toStdString(), &r.dtypePolicy))
        return makeError(ErrorKind::Usage,
                         "--dtype-policy '" + parser.value("dtype-policy").toStdString() + "': use int8 or float32");
    auto threadsMax = intOption(parser, "threads-max", 0, 1024);
    if (!threadsMax) return threadsMax.error();
    r.threadsMax = static_cast<int>(*threadsMax);
    return r;
}

Expected<exporter::DeploymentTarget> resolveTargetOptions(const QCommandLineParser& parser) {
    auto request = targetRequest(parser);
    if (!request) return request.error();
    return jobs::resolveTarget(*request);
}

void setTarget(const jobs::TargetRequest& r, const exporter::DeploymentTarget& t, jobs::BenchOptions& o) {
    o.boardId = t.board.id;
    o.arch.clear(); // the board's, checked when it was resolved
    o.library = r.library;
    o.opOverrides = r.opOverrides;
    o.nodeOverrides = r.nodeOverrides;
    o.compiler = r.compiler;
    o.recipe = r.recipe;
    o.concatInPlace = r.concatInPlace;
    o.dtypePolicy = r.dtypePolicy;
    o.threadsMax = r.threadsMax;
}

} // namespace embark::cli

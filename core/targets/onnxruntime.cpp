#include "onnxruntime.h"

#include <QDir>
#include <QJsonValue>
#include <QRegularExpression>
#include <QSet>
#include <QVariant>
#include <algorithm>

namespace embark::targets {
namespace {

Error optionError(const QString& key, const QString& value, const QString& what) {
    return makeError(ErrorKind::Usage,
                     QStringLiteral("SpacemiT EP option %1='%2': %3").arg(key, value, what).toStdString());
}

const QString kPrefix = QStringLiteral("SPACEMIT_EP_");

} // namespace

Error fieldError(const QString& file, const QString& field, const QString& what) {
    return makeError(ErrorKind::InvalidInput, QStringLiteral("%1: field '%2' %3").arg(file, field, what).toStdString());
}

QString OrtRuntime::describe() const {
    if (isNode()) return QStringLiteral("ONNX Runtime from npm (%1, ep %2)").arg(node, ep);
    return QStringLiteral("SpacemiT-ORT in %1 (ep %2)").arg(root, ep);
}

QJsonObject OrtRuntime::toJson() const {
    QJsonObject o{{"ep", ep}};
    if (isNode())
        o["node"] = node;
    else
        o["root"] = root;
    return o;
}

const QStringList& knownExecutionProviders() {
    static const QStringList eps{"spacemit", "cpu"};
    return eps;
}

const QStringList& knownRuntimes() {
    static const QStringList runtimes{"export", "onnxruntime"};
    return runtimes;
}

Expected<OrtRuntime> parseOrtRuntime(const QJsonObject& o, const QString& file) {
    OrtRuntime r;
    for (const char* key : {"root", "node", "ep"}) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isNull() && !v.isString())
            return fieldError(file, QStringLiteral("onnxruntime.%1").arg(QLatin1String(key)), "must be a string");
    }
    r.root = o.value("root").toString();
    r.node = o.value("node").toString();
    r.ep = o.value("ep").toString(r.isNode() ? QStringLiteral("cpu") : QStringLiteral("spacemit"));
    if (r.root.isEmpty() == r.node.isEmpty())
        return fieldError(file, "onnxruntime",
                          "must give exactly one of \"root\" (the folder of an unpacked SpacemiT-ORT release on the "
                          "board, with bin/ and lib/) and \"node\" (an npm package such as onnxruntime-node@1.30, run "
                          "on this computer)");
    if (!r.root.isEmpty() && !r.root.startsWith('/'))
        return fieldError(file, "onnxruntime.root", "must be an absolute path on the board (not '" + r.root + "')");
    static const QRegularExpression npmSpec(QStringLiteral("^onnxruntime-node(@[0-9][0-9A-Za-z.^~<>=*-]*)?$"));
    if (r.isNode() && !npmSpec.match(r.node).hasMatch())
        return fieldError(file, "onnxruntime.node",
                          "must be onnxruntime-node with an optional version, e.g. onnxruntime-node@1.30 (not '" +
                              r.node + "')");
    if (!knownExecutionProviders().contains(r.ep))
        return fieldError(file, "onnxruntime.ep",
                          "must be one of " + knownExecutionProviders().join(", ") + " (not '" + r.ep + "')");
    if (r.isNode() && r.ep != "cpu")
        return fieldError(file, "onnxruntime.ep", "must be cpu for npm's onnxruntime-node (not '" + r.ep + "')");
    return r;
}

const std::vector<EpOptionSpec>& spacemitEpOptions() {
    using T = EpOptionSpec::Type;
    static const std::vector<EpOptionSpec> specs{
        {"SPACEMIT_EP_INTRA_THREAD_NUM", T::Count, 1, 256,
         "compute threads of the EP (Embark sets it to --threads unless given)"},
        {"SPACEMIT_EP_INTRA_THREAD_AFFINITY", T::CpuList, 0, 0,
         "CPUs the EP's threads are pinned to, e.g. 0,1,2,3 (one per thread)"},
        {"SPACEMIT_EP_INTER_THREAD_NUM", T::Count, 1, 256, "threads running independent subgraphs"},
        {"SPACEMIT_EP_USE_GLOBAL_INTRA_THREAD", T::Bool, 0, 1, "sessions of one process share one EP thread pool"},
        {"SPACEMIT_EP_DUMP_SUBGRAPHS", T::Bool, 0, 1, "write the subgraph models the EP compiled"},
        {"SPACEMIT_EP_DEBUG_PROFILE", T::FileName, 0, 0,
         "write the EP's own profile (Chrome-trace JSON) to this file in the run folder"},
        {"SPACEMIT_EP_DUMP_TENSORS", T::Bool, 0, 1, "write every intermediate tensor as .npy"},
        {"SPACEMIT_EP_DISABLE_OP_TYPE_FILTER", T::OpTypes, 0, 0,
         "op types the EP leaves to the CPU provider, e.g. Softmax,LayerNormalization"},
        {"SPACEMIT_EP_DISABLE_OP_NAME_FILTER", T::NodeNames, 0, 0,
         "node names the EP leaves to the CPU provider, comma-separated"},
        {"SPACEMIT_EP_DISABLE_FLOAT16_EPILOGUE", T::Bool, 0, 1, "keep epilogues (bias, activation) in float32"},
        {"SPACEMIT_EP_DENSE_ACCURACY_LEVEL", T::Level, 0, 4, "accuracy level of dense (GEMM/conv) kernels"},
    };
    return specs;
}

const EpOptionSpec* findEpOption(const QString& key) {
    QString full = key.trimmed().toUpper();
    if (!full.startsWith(kPrefix)) full = kPrefix + full;
    for (const EpOptionSpec& s : spacemitEpOptions())
        if (full == QLatin1String(s.key)) return &s;
    return nullptr;
}

namespace {

Expected<QString> normalise(const EpOptionSpec& spec, const QString& key, const QString& raw) {
    const QString v = raw.trimmed();
    using T = EpOptionSpec::Type;
    switch (spec.type) {
    case T::Count:
    case T::Level: {
        bool ok = false;
        const int n = v.toInt(&ok);
        if (!ok || n < spec.min || n > spec.max)
            return optionError(key, raw, QStringLiteral("takes an integer from %1 to %2").arg(spec.min).arg(spec.max));
        return QString::number(n);
    }
    case T::Bool: {
        const QString l = v.toLower();
        if (l == "1" || l == "true" || l == "on" || l == "yes") return QStringLiteral("1");
        if (l == "0" || l == "false" || l == "off" || l == "no") return QStringLiteral("0");
        return optionError(key, raw, "takes 0 or 1");
    }
    case T::CpuList: {
        static const QRegularExpression list(QStringLiteral("^[0-9]+(,[0-9]+)*$"));
        if (!list.match(v).hasMatch())
            return optionError(key, raw, "takes CPU numbers separated by commas, e.g. 0,1,2,3");
        const QStringList cpus = v.split(',');
        if (QSet<QString>(cpus.begin(), cpus.end()).size() != cpus.size())
            return optionError(key, raw, "names a CPU twice");
        return v;
    }
    case T::OpTypes: {
        static const QRegularExpression list(QStringLiteral("^[A-Za-z][A-Za-z0-9_]*(,[A-Za-z][A-Za-z0-9_]*)*$"));
        if (!list.match(v).hasMatch())
            return optionError(key, raw, "takes ONNX op types separated by commas, e.g. Softmax,Gemm");
        return v;
    }
    case T::NodeNames:
        if (v.isEmpty() || v.split(',').contains(QString()))
            return optionError(key, raw, "takes node names separated by commas (none empty)");
        return v;
    case T::FileName: {
        static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9_.-]+$"));
        if (!name.match(v).hasMatch() || v == "." || v == "..")
            return optionError(key, raw, "takes a file name in the run folder, e.g. ep_profile.json (no '/')");
        return v;
    }
    }
    return v;
}

} // namespace

Expected<EpOptions> parseEpOptions(const QStringList& keyValues, int threads) {
    EpOptions out;
    for (const QString& kv : keyValues) {
        const qsizetype eq = kv.indexOf('=');
        if (eq <= 0)
            return makeError(ErrorKind::Usage,
                             QStringLiteral("--ep-option '%1' is not KEY=VALUE (e.g. SPACEMIT_EP_DUMP_SUBGRAPHS=1)")
                                 .arg(kv)
                                 .toStdString());
        const QString key = kv.left(eq).trimmed();
        const EpOptionSpec* spec = findEpOption(key);
        if (!spec) {
            QStringList keys;
            for (const EpOptionSpec& s : spacemitEpOptions()) keys << QLatin1String(s.key);
            return makeError(
                ErrorKind::Usage,
                QStringLiteral("unknown SpacemiT EP option '%1' (known: %2)").arg(key, keys.join(", ")).toStdString());
        }
        const QString full = QLatin1String(spec->key);
        if (out.count(full))
            return makeError(ErrorKind::Usage,
                             QStringLiteral("SpacemiT EP option %1 is given twice").arg(full).toStdString());
        auto value = normalise(*spec, full, kv.mid(eq + 1));
        if (!value) return value.error();
        out[full] = *value;
    }
    const QString threadKey = QStringLiteral("SPACEMIT_EP_INTRA_THREAD_NUM");
    if (!out.count(threadKey)) out[threadKey] = QString::number(std::max(1, threads));
    const int n = out[threadKey].toInt();
    if (auto it = out.find(QStringLiteral("SPACEMIT_EP_INTRA_THREAD_AFFINITY")); it != out.end()) {
        const qsizetype cpus = it->second.split(',').size();
        if (cpus != n)
            return makeError(
                ErrorKind::Usage,
                QStringLiteral("SpacemiT EP option SPACEMIT_EP_INTRA_THREAD_AFFINITY='%1' names %2 CPU(s) but "
                               "the EP runs %3 thread(s) (SPACEMIT_EP_INTRA_THREAD_NUM or --threads): give "
                               "one CPU per thread")
                    .arg(it->second)
                    .arg(cpus)
                    .arg(n)
                    .toStdString());
    }
    return out;
}

QStringList epEnvironment(const EpOptions& options) {
    QStringList env;
    for (const auto& [k, v] : options) env << k + "=" + v;
    return env;
}

QJsonObject epOptionsJson(const EpOptions& options) {
    QJsonObject o;
    for (const auto& [k, v] : options) o[k] = v;
    return o;
}

QStringList epOptionDifferences(const QJsonObject& a, const QJsonObject& b) {
    QStringList keys = a.keys();
    for (const QString& k : b.keys())
        if (!keys.contains(k)) keys << k;
    keys.sort();
    QStringList differ;
    for (const QString& k : keys)
        if (a.value(k) != b.value(k)) differ << k;
    return differ;
}

namespace {
// Option values are stored as strings; a number or boolean written by hand reads the same.
QString optionText(const QJsonValue& v) {
    if (v.isUndefined() || v.isNull()) return {};
    if (v.isBool()) return v.toBool() ? QStringLiteral("1") : QStringLiteral("0");
    return v.toVariant().toString();
}
} // namespace

QString StoredRuntime::describe() const { return ep.isEmpty() ? runtime : runtime + ", ep " + ep; }

QJsonObject StoredRuntime::toJson() const {
    QJsonObject o{{"runtime", runtime}, {"ep_options", epOptions}};
    o["ep"] = ep.isEmpty() ? QJsonValue() : QJsonValue(ep);
    return o;
}

StoredRuntime storedRuntime(const QJsonObject& extra) {
    StoredRuntime r;
    const QString runtime = extra.value("runtime").toString();
    if (!runtime.isEmpty()) r.runtime = runtime;
    r.ep = extra.value("ep").toString();
    r.epOptions = extra.value("ep_options").toObject();
    return r;
}

RuntimeComparison compareRuntimes(const QJsonObject& extraA, const QJsonObject& extraB) {
    RuntimeComparison c{storedRuntime(extraA), storedRuntime(extraB), {}};
    for (const QString& key : epOptionDifferences(c.a.epOptions, c.b.epOptions)) {
        EpOptionChange change{key, optionText(c.a.epOptions.value(key)), optionText(c.b.epOptions.value(key))};
        if (change.a != change.b) c.epOptions.push_back(change); // "4" and 4 are the same setting
    }
    return c;
}

QString perfTestPath(const OrtRuntime& r) { return r.root + "/bin/onnxruntime_perf_test"; }
QString testRunnerPath(const OrtRuntime& r) { return r.root + "/bin/onnx_test_runner"; }
QString libraryPath(const OrtRuntime& r) { return r.root + "/lib"; }

QStringList perfTestArgv(const OrtRuntime& r, const PerfTestRequest& q) {
    QStringList argv{perfTestPath(r),
                     "-e",
                     r.ep,
                     "-r",
                     QString::number(q.iterations),
                     "-x",
                     QString::number(q.threads),
                     "-c",
                     QString::number(q.concurrent),
                     "-S",
                     "1",
                     "-I",
                     "-s"};
    if (!q.profilePrefix.isEmpty()) argv << "-p" << q.profilePrefix;
    argv << q.model;
    return argv;
}

QStringList testRunnerArgv(const OrtRuntime& r, const QString& modelDir) {
    return {testRunnerPath(r), "-e", r.ep, modelDir};
}

QStringList runtimeEnvironment(const OrtRuntime& r, const EpOptions& options) {
    QStringList env{"LD_LIBRARY_PATH=" + libraryPath(r)};
    if (r.ep == "spacemit") env << epEnvironment(options);
    return env;
}

QString spacemitOrtHelp() {
    return QStringLiteral(
        "get SpacemiT-ORT by unpacking a spacemit-ort.riscv64.<version>.tar.gz release from SpacemiT "
        "(https://archive.spacemit.com/spacemit-ai/onnxruntime/) on the board and pointing the board file's "
        "\"onnxruntime\": {\"root\": ...} at that folder, or on Bianbu by 'sudo apt install spacemit-onnxruntime' "
        "(then \"root\" is the folder holding its bin/ and lib/); see docs/onnxruntime.md");
}

QString npmPackageVersion(const QString& spec) {
    const qsizetype at = spec.indexOf('@');
    return at < 0 ? QString() : spec.mid(at + 1);
}

QString ortNodeInstallDir(const OrtRuntime& r) {
    const QString env = qEnvironmentVariable("EMBARK_ORT_NODE_DIR");
    if (!env.isEmpty()) return env;
    QString cache = qEnvironmentVariable("XDG_CACHE_HOME");
    if (cache.isEmpty()) cache = QDir::homePath() + "/.cache";
    const QString version = npmPackageVersion(r.node);
    return cache + "/embark/onnxruntime-node" + (version.isEmpty() ? QString() : "-" + version);
}

} // namespace embark::targets

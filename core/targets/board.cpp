#include "board.h"

#include "source_tree.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QSysInfo>
#include <QThread>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <map>

namespace embark::targets {
namespace {

// Reads typed fields out of one JSON object, naming "runner.host"-style paths in errors.
class FieldReader {
public:
    FieldReader(const QJsonObject& obj, QString file, QString prefix = {})
        : m_obj(obj), m_file(std::move(file)), m_prefix(std::move(prefix)) {}

    QString path(const QString& key) const { return m_prefix.isEmpty() ? key : m_prefix + "." + key; }

    Expected<QString> string(const QString& key, bool required, const QString& fallback = {}) const {
        const QJsonValue v = m_obj.value(key);
        if (v.isUndefined() || v.isNull()) {
            if (required) return fieldError(m_file, path(key), "is missing (a string)");
            return fallback;
        }
        if (!v.isString()) return fieldError(m_file, path(key), "must be a string");
        return v.toString();
    }

    Expected<qint64> integer(const QString& key, bool required, qint64 min, qint64 max, qint64 fallback = 0) const {
        const QJsonValue v = m_obj.value(key);
        if (v.isUndefined() || v.isNull()) {
            if (required) return fieldError(m_file, path(key), "is missing (an integer)");
            return fallback;
        }
        const double d = v.toDouble();
        // JSON numbers are doubles: 2^53 keeps every byte count of a real board exact. The
        // range is checked before any cast: casting a double outside qint64 (1e300, NaN) is
        // undefined behaviour (found by tests/fuzz/fuzz_board_file).
        if (!v.isDouble() || !(d >= double(min) && d <= double(max)) || std::fabs(d) >= 0x1p62 || d != std::trunc(d))
            return fieldError(m_file, path(key), QStringLiteral("must be an integer from %1 to %2").arg(min).arg(max));
        return static_cast<qint64>(d);
    }

    Expected<bool> boolean(const QString& key, bool fallback) const {
        const QJsonValue v = m_obj.value(key);
        if (v.isUndefined() || v.isNull()) return fallback;
        if (!v.isBool()) return fieldError(m_file, path(key), "must be true or false");
        return v.toBool();
    }

    Expected<QStringList> strings(const QString& key) const {
        const QJsonValue v = m_obj.value(key);
        if (v.isUndefined() || v.isNull()) return QStringList{};
        if (!v.isArray()) return fieldError(m_file, path(key), "must be an array of strings");
        QStringList out;
        for (const QJsonValue& item : v.toArray()) {
            if (!item.isString()) return fieldError(m_file, path(key), "must be an array of strings");
            out << item.toString();
        }
        return out;
    }

private:
    QJsonObject m_obj;
    QString m_file;
    QString m_prefix;
};

QString hostArchitecture() {
    const QString a = QSysInfo::currentCpuArchitecture();
    if (a == "arm64") return QStringLiteral("aarch64");
    return a; // x86_64, riscv64 as they are
}

qint64 hostMemoryBytes() {
    QFile f(QStringLiteral("/proc/meminfo"));
    if (!f.open(QIODevice::ReadOnly)) return 0;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (!line.startsWith("MemTotal:")) continue;
        const QList<QByteArray> parts = line.simplified().split(' ');
        if (parts.size() >= 2) return parts[1].toLongLong() * 1024;
    }
    return 0;
}

Expected<BoardRunner> parseRunner(const QJsonObject& root, const QString& file) {
    const QJsonValue v = root.value("runner");
    if (v.isUndefined()) return fieldError(file, "runner", "is missing (an object with \"kind\")");
    if (!v.isObject()) return fieldError(file, "runner", "must be an object");
    FieldReader r(v.toObject(), file, "runner");
    BoardRunner runner;
    auto kind = r.string("kind", true);
    EMBARK_TRY(kind);
    if (*kind == "ssh")
        runner.kind = BoardRunner::Kind::Ssh;
    else if (*kind == "local")
        runner.kind = BoardRunner::Kind::Local;
    else
        return fieldError(file, "runner.kind", "must be one of ssh, local (not '" + *kind + "')");

    auto host = r.string("host", runner.kind == BoardRunner::Kind::Ssh);
    auto user = r.string("user", false);
    auto port = r.integer("port", false, 0, 65535);
    auto workdir = r.string("workdir", false);
    auto prefix = r.strings("exec_prefix");
    auto key = r.string("key", false);
    EMBARK_TRY(host);
    EMBARK_TRY(user);
    EMBARK_TRY(port);
    EMBARK_TRY(workdir);
    EMBARK_TRY(prefix);
    EMBARK_TRY(key);
    if (runner.kind == BoardRunner::Kind::Ssh && host->trimmed().isEmpty())
        return fieldError(file, "runner.host", "must name an SSH host or ~/.ssh/config alias");
    if (runner.kind == BoardRunner::Kind::Ssh && !workdir->isEmpty() && !workdir->startsWith('/'))
        return fieldError(file, "runner.workdir", "must be an absolute path on the board");
    runner.host = *host;
    runner.user = *user;
    runner.port = static_cast<int>(*port);
    runner.workdir = *workdir;
    runner.execPrefix = *prefix;
    // "~/" in a key path is the user's home, as in ssh_config.
    runner.key = key->startsWith("~/") ? QDir::homePath() + key->mid(1) : *key;
    return runner;
}

Expected<BoardFarm> parseFarm(const QJsonValue& v, const QString& file) {
    if (!v.isObject())
        return fieldError(file, "farm", "must be an object with \"lava\" (the LAVA server's URL) and \"device_type\"");
    const QJsonObject o = v.toObject();
    FieldReader r(o, file, "farm");
    auto lava = r.string("lava", true);
    auto type = r.string("device_type", true);
    auto tags = r.strings("tags");
    auto queue = r.integer("queue_timeout_seconds", false, 0, 30 * 24 * 3600);
    auto prompts = r.strings("prompts");
    auto shareDir = r.string("share_dir", false);
    auto shareUrl = r.string("share_url", false);
    EMBARK_TRY(prompts);
    EMBARK_TRY(shareDir);
    EMBARK_TRY(shareUrl);
    if (shareDir->isEmpty() != shareUrl->isEmpty())
        return fieldError(file, shareDir->isEmpty() ? "farm.share_dir" : "farm.share_url",
                          "is missing: share_dir (where Embark writes a run's payload) and share_url (where the LAVA "
                          "worker downloads it) go together");
    EMBARK_TRY(lava);
    EMBARK_TRY(type);
    EMBARK_TRY(tags);
    EMBARK_TRY(queue);
    const QUrl url(*lava, QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != "http" && url.scheme() != "https") || url.host().isEmpty())
        return fieldError(file, "farm.lava", "must be the LAVA server's http:// or https:// URL (not '" + *lava + "')");
    if (type->trimmed().isEmpty()) return fieldError(file, "farm.device_type", "must name a LAVA device type");
    for (const QString& key : {QStringLiteral("token"), QStringLiteral("password")})
        if (o.contains(key))
            return fieldError(file, "farm." + key,
                              "must not be in a board file: the API token lives in the user's settings "
                              "(`embark-cli farm token URL` or $EMBARK_LAVA_TOKEN)");
    BoardFarm farm;
    farm.lava = url.toString();
    while (farm.lava.endsWith('/')) farm.lava.chop(1);
    farm.deviceType = *type;
    farm.tags = *tags;
    farm.queueTimeoutSeconds = static_cast<int>(*queue);
    if (!prompts->isEmpty()) farm.prompts = *prompts;
    farm.shareDir = *shareDir;
    farm.shareUrl = *shareUrl;
    while (farm.shareUrl.endsWith('/')) farm.shareUrl.chop(1);
    return farm;
}

} // namespace

const QStringList& knownArchitectures() {
    static const QStringList archs{"x86_64", "aarch64", "riscv64"};
    return archs;
}

Expected<Board> parseBoard(const QByteArray& json, const QString& fileName) {
    QJsonParseError perr{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &perr);
    if (perr.error != QJsonParseError::NoError)
        return makeError(ErrorKind::InvalidInput, QStringLiteral("%1: not valid JSON at offset %2: %3")
                                                      .arg(fileName)
                                                      .arg(perr.offset)
                                                      .arg(perr.errorString())
                                                      .toStdString());
    if (!doc.isObject())
        return makeError(ErrorKind::InvalidInput,
                         (fileName + ": must hold one JSON object describing a board").toStdString());
    const QJsonObject root = doc.object();
    FieldReader r(root, fileName);
    Board b;
    b.sourceFile = fileName;

    auto id = r.string("id", true);
    EMBARK_TRY(id);
    static const QRegularExpression idPattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]*$"));
    if (!idPattern.match(*id).hasMatch())
        return fieldError(fileName, "id", "must be letters, digits, '.', '_' or '-' (not '" + *id + "')");
    b.id = *id;

    auto name = r.string("name", true);
    auto arch = r.string("arch", true);
    auto isa = r.string("isa", false);
    auto cflags = r.strings("cflags");
    auto xnnpack = r.boolean("xnnpack", false);
    EMBARK_TRY(name);
    EMBARK_TRY(arch);
    EMBARK_TRY(isa);
    EMBARK_TRY(cflags);
    EMBARK_TRY(xnnpack);
    const bool native = *arch == "native";
    if (!native && !knownArchitectures().contains(*arch))
        return fieldError(fileName, "arch",
                          "must be one of " + knownArchitectures().join(", ") + " or native (not '" + *arch + "')");
    // A native board may leave cores and memory to detection (0 or absent).
    auto cores = r.integer("cores", !native, native ? 0 : 1, 4096);
    auto memory = r.integer("memory_bytes", !native, native ? 0 : 1, qint64(1) << 50);
    auto vlen = r.integer("vlen_bits", false, 0, 65536);
    EMBARK_TRY(cores);
    EMBARK_TRY(memory);
    EMBARK_TRY(vlen);
    if (*vlen % 8 != 0) return fieldError(fileName, "vlen_bits", "must be a multiple of 8");

    const QJsonValue farmValue = root.value("farm");
    const bool inFarm = !farmValue.isUndefined() && !farmValue.isNull();
    if (inFarm && root.contains("runner"))
        return fieldError(fileName, "farm",
                          "and \"runner\" exclude each other: a farm board is reached through LAVA, drop \"runner\"");
    Expected<BoardRunner> runner = inFarm ? Expected<BoardRunner>(BoardRunner{}) : parseRunner(root, fileName);
    EMBARK_TRY(runner);
    if (inFarm) {
        auto farm = parseFarm(farmValue, fileName);
        EMBARK_TRY(farm);
        b.farm = *farm;
        runner->kind = BoardRunner::Kind::Farm;
    }
    if (const QJsonValue ort = root.value("onnxruntime"); !ort.isUndefined() && !ort.isNull()) {
        if (!ort.isObject())
            return fieldError(fileName, "onnxruntime", "must be an object with \"root\" or \"node\" and \"ep\"");
        auto runtime = parseOrtRuntime(ort.toObject(), fileName);
        EMBARK_TRY(runtime);
        b.onnxruntime = *runtime;
    }

    b.name = *name;
    b.arch = native ? hostArchitecture() : *arch;
    b.isa = *isa;
    b.cflags = *cflags;
    b.cores = static_cast<int>(*cores);
    b.memoryBytes = *memory;
    if (native && b.cores == 0) b.cores = QThread::idealThreadCount();
    if (native && b.memoryBytes == 0) b.memoryBytes = hostMemoryBytes();
    b.vlenBits = static_cast<int>(*vlen);
    b.xnnpack = *xnnpack;
    b.runner = std::move(runner).value();
    if (native && b.runner.kind != BoardRunner::Kind::Local)
        return fieldError(fileName, "arch", "may be native only for a board with a local runner");
    if (b.onnxruntime && b.onnxruntime->isNode() && !b.isHost())
        return fieldError(fileName, "onnxruntime.node",
                          "runs on this computer only: a board reached over SSH or through an exec prefix needs "
                          "\"root\", the ONNX Runtime folder on the board");
    return b;
}

Expected<Board> loadBoardFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorKind::InvalidInput,
                         QStringLiteral("%1: cannot read the board file: %2").arg(path, f.errorString()).toStdString());
    return parseBoard(f.readAll(), path);
}

QString Board::runnerSummary() const {
    if (farm) return "lava " + farm->deviceType + " @ " + farm->lava;
    if (runner.kind == BoardRunner::Kind::Ssh) {
        QString target = runner.user.isEmpty() ? runner.host : runner.user + "@" + runner.host;
        if (runner.port) target += ":" + QString::number(runner.port);
        return runner.execPrefix.isEmpty() ? "ssh " + target : "ssh " + target + " " + runner.execPrefix.first();
    }
    return runner.execPrefix.isEmpty() ? QStringLiteral("local") : "local " + runner.execPrefix.first();
}

QJsonObject Board::toJson() const {
    QJsonObject r{{"kind", runner.kind == BoardRunner::Kind::Ssh ? "ssh" : "local"}};
    QJsonObject f;
    if (farm) {
        f = QJsonObject{{"lava", farm->lava}, {"device_type", farm->deviceType}};
        if (!farm->tags.isEmpty()) f["tags"] = QJsonArray::fromStringList(farm->tags);
        if (farm->queueTimeoutSeconds) f["queue_timeout_seconds"] = farm->queueTimeoutSeconds;
        if (farm->prompts != BoardFarm{}.prompts) f["prompts"] = QJsonArray::fromStringList(farm->prompts);
        if (!farm->shareDir.isEmpty()) f["share_dir"] = farm->shareDir;
        if (!farm->shareUrl.isEmpty()) f["share_url"] = farm->shareUrl;
    }
    if (!runner.host.isEmpty()) r["host"] = runner.host;
    if (!runner.user.isEmpty()) r["user"] = runner.user;
    if (runner.port) r["port"] = runner.port;
    if (!runner.workdir.isEmpty()) r["workdir"] = runner.workdir;
    if (!runner.execPrefix.isEmpty()) r["exec_prefix"] = QJsonArray::fromStringList(runner.execPrefix);
    if (!runner.key.isEmpty()) r["key"] = runner.key;
    QJsonObject board{{"id", id},
                      {"name", name},
                      {"arch", arch},
                      {"isa", isa},
                      {"cflags", QJsonArray::fromStringList(cflags)},
                      {"cores", cores},
                      {"memory_bytes", memoryBytes},
                      {"vlen_bits", vlenBits},
                      {"xnnpack", xnnpack}};
    if (farm)
        board["farm"] = f;
    else
        board["runner"] = r;
    if (onnxruntime) board["onnxruntime"] = onnxruntime->toJson();
    return board;
}

QString formatBytes(qint64 bytes) {
    QLocale grouped = QLocale::c(); // the C locale omits group separators unless told not to
    grouped.setNumberOptions({});
    // Small figures in KiB, so a 20,000-byte model does not read "0.0 MiB".
    if (bytes < 1024 * 1024)
        return QStringLiteral("%1 KiB (%2 bytes)").arg(double(bytes) / 1024.0, 0, 'f', 1).arg(grouped.toString(bytes));
    return QStringLiteral("%1 MiB (%2 bytes)")
        .arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1)
        .arg(grouped.toString(bytes));
}

Status Board::fits(qint64 arenaBytes, qint64 weightBytes) const {
    const qint64 need = arenaBytes + weightBytes;
    if (need <= memoryBytes) return {};
    return makeError(ErrorKind::External, QStringLiteral("board '%1' has %2 of memory but the model needs %3 "
                                                         "(activation arena %4 + weights %5): pick a bigger board or a "
                                                         "smaller model/input shape")
                                              .arg(id, formatBytes(memoryBytes), formatBytes(need),
                                                   formatBytes(arenaBytes), formatBytes(weightBytes))
                                              .toStdString());
}

Status boardFits(const Board& board, qint64 arenaBytes, qint64 weightBytes) {
    return board.fits(arenaBytes, weightBytes);
}

Status saveBoardFile(const Board& board, const QString& dir) {
    // The id names the file: one that could leave `dir` ("../x", "a/b") is refused.
    static const QRegularExpression idPattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]*$"));
    if (!idPattern.match(board.id).hasMatch())
        return makeError(ErrorKind::Usage, QStringLiteral("cannot save board '%1' in %2: a board id must be letters, "
                                                          "digits, '.', '_' or '-', starting with a letter or digit")
                                               .arg(board.id, dir)
                                               .toStdString());
    if (!QDir().mkpath(dir))
        return makeError(ErrorKind::External, ("cannot create the boards folder " + dir).toStdString());
    const QString path = QDir(dir).filePath(board.id + ".json");
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return makeError(
            ErrorKind::External,
            QStringLiteral("%1: cannot write the board file: %2").arg(path, f.errorString()).toStdString());
    const QByteArray data = QJsonDocument(board.toJson()).toJson(QJsonDocument::Indented);
    // flush() first: Qt 6.4's commit() ignores an error of the final buffered write (disk
    // full) and would replace the old file with a truncated one.
    if (f.write(data) != data.size() || !f.flush() || !f.commit())
        return makeError(ErrorKind::External,
                         QStringLiteral("%1: cannot save the board file: %2").arg(path, f.errorString()).toStdString());
    return {};
}

QString builtInBoardsDir() { return sourceTree() + "/boards"; }

QString userBoardsDir() {
    const QString env = qEnvironmentVariable("EMBARK_CONFIG_DIR");
    const QString base = env.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) : env;
    return base + "/boards";
}

const Board* BoardCatalog::find(const QString& id) const {
    for (const Board& b : boards)
        if (b.id == id) return &b;
    return nullptr;
}

BoardCatalog loadBoards(const QString& builtInDir, const QString& userDir) {
    BoardCatalog catalog;
    std::map<QString, Board> byId;
    auto loadDir = [&](const QString& dir, bool builtIn) {
        if (dir.isEmpty() || !QFileInfo(dir).isDir()) return;
        const QStringList files = QDir(dir).entryList({"*.json"}, QDir::Files, QDir::Name);
        for (const QString& name : files) {
            const QString path = QDir(dir).filePath(name);
            auto board = loadBoardFile(path);
            if (!board) {
                catalog.problems.push_back(board.error());
                continue;
            }
            board->builtIn = builtIn;
            auto it = byId.find(board->id);
            if (it != byId.end()) {
                if (builtIn || it->second.builtIn == builtIn) {
                    catalog.problems.push_back(
                        makeError(ErrorKind::InvalidInput,
                                  QStringLiteral("%1: board id '%2' is already defined by %3: rename one of them")
                                      .arg(path, board->id, it->second.sourceFile)
                                      .toStdString()));
                    continue;
                }
                catalog.notes << QStringLiteral("user board '%1' (%2) overrides the built-in (%3)")
                                     .arg(board->id, path, it->second.sourceFile);
            }
            byId[board->id] = std::move(board).value();
        }
    };
    loadDir(builtInDir, true);
    loadDir(userDir, false);
    for (auto& [id, board] : byId) catalog.boards.push_back(std::move(board));
    return catalog;
}

BoardCatalog loadBoards() { return loadBoards(builtInBoardsDir(), userBoardsDir()); }

Expected<Board> findBoard(const BoardCatalog& catalog, const QString& id) {
    if (const Board* b = catalog.find(id)) return *b;
    QStringList ids;
    for (const Board& b : catalog.boards) ids << b.id;
    QString message =
        QStringLiteral("unknown board '%1' (known: %2; 'embark-cli boards' lists them)").arg(id, ids.join(", "));
    for (const Error& e : catalog.problems) message += "; note: " + QString::fromStdString(e.message);
    return makeError(ErrorKind::Usage, message.toStdString());
}

Expected<Board> findBoard(const QString& id) { return findBoard(loadBoards(), id); }

} // namespace embark::targets

// Boards described as data (boards/<id>.json plus the user's config folder): CPU, flags,
// memory, and how to reach the board (an SSH alias or a local runner such as qemu-user).
#pragma once

#include "ir/error.h"
#include "onnxruntime.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace embark::targets {

struct BoardRunner {
    // Farm: a device of a LAVA instance's device type (the board file's "farm" object).
    enum class Kind { Ssh, Local, Farm };
    Kind kind = Kind::Local;
    QString host;           // ssh: an ~/.ssh/config alias or a host name
    QString user;           // ssh: empty = from ~/.ssh/config or the local user
    int port = 0;           // ssh: 0 = from ~/.ssh/config or 22
    QString workdir;        // parent of the fresh per-run folders; empty = /tmp or the host's temp
    QStringList execPrefix; // prepended to every command (e.g. qemu-riscv64-static -cpu ...)
    QString key;            // ssh: a private key file; empty = agent and default keys
};

// A board in a farm: any free device of a LAVA instance's device type (and tags). The user's
// API token lives in the user's settings (deploy/lava_client.h), never in a board file.
struct BoardFarm {
    QString lava;                // the instance's URL, "http://lab:8000"
    QString deviceType;          // LAVA device type, e.g. "spacemit-k1"
    QStringList tags;            // LAVA device tags the device must have
    int queueTimeoutSeconds = 0; // give up waiting in LAVA's queue after this; 0 = wait
    // The devices' shell prompts after an SSH login (regular expressions, LAVA's boot prompts).
    QStringList prompts{QStringLiteral("# "), QStringLiteral("\\$ ")};
    // Where the LAVA worker downloads each run's payload: Embark writes it into share_dir,
    // the worker fetches share_url/NAME (http://, https://, scp:// or file://). Both empty:
    // file:// of a local temp file (a worker on this computer).
    QString shareDir;
    QString shareUrl;
};

struct Board {
    QString id;
    QString name;
    QString arch; // x86_64, aarch64 or riscv64 (a file may say "native": detected at load)
    QString isa;  // e.g. rv64gcv, armv8.2-a
    QStringList cflags;
    int cores = 1;
    qint64 memoryBytes = 0;
    int vlenBits = 0; // SIMD/vector register width the kernels tile for
    bool xnnpack = false;
    BoardRunner runner;
    std::optional<BoardFarm> farm; // set when runner.kind is Farm
    // Where ONNX Runtime lives for `bench --runtime onnxruntime` (the file's "onnxruntime"
    // object); none = the board runs Embark's exports only.
    std::optional<OrtRuntime> onnxruntime;

    QString sourceFile; // the JSON file it was read from
    bool builtIn = false;

    bool isSimulated() const { return runner.kind == BoardRunner::Kind::Local && !runner.execPrefix.isEmpty(); }
    bool isHost() const { return runner.kind == BoardRunner::Kind::Local && runner.execPrefix.isEmpty(); }
    bool isFarm() const { return runner.kind == BoardRunner::Kind::Farm; }
    // "ssh k230", "local qemu-riscv64-static", "local" for tables and messages.
    QString runnerSummary() const;
    QJsonObject toJson() const;
    // Refuses a model whose activation arena plus weights exceed the board's memory, with
    // both figures in the message.
    Status fits(qint64 arenaBytes, qint64 weightBytes) const;
};

// The architectures a board may name, in messages and validation.
const QStringList& knownArchitectures();

// Parses one board file's bytes; `fileName` only names the file in errors. Unknown fields are
// ignored (forward compatibility), missing or mistyped ones are errors naming the field.
Expected<Board> parseBoard(const QByteArray& json, const QString& fileName);
Expected<Board> loadBoardFile(const QString& path);

// Writes `board` as <dir>/<id>.json atomically (QSaveFile): a crash never leaves half a file.
Status saveBoardFile(const Board& board, const QString& dir);

// boards/ in the source tree ($EMBARK_SOURCE_DIR overrides the compiled-in path).
QString builtInBoardsDir();
// <AppConfigLocation>/boards, or $EMBARK_CONFIG_DIR/boards when set (tests, portable setups).
QString userBoardsDir();

struct BoardCatalog {
    std::vector<Board> boards;   // sorted by id; a user board replaces a built-in of the same id
    QStringList notes;           // "user board 'k230' (path) overrides the built-in (path)"
    std::vector<Error> problems; // malformed files, each naming the file and the field

    const Board* find(const QString& id) const;
};

BoardCatalog loadBoards(const QString& builtInDir, const QString& userDir);
BoardCatalog loadBoards(); // from builtInBoardsDir() and userBoardsDir()

// The board with this id, or an error listing the known ids (and any malformed file, which
// may be the one the user meant).
Expected<Board> findBoard(const BoardCatalog& catalog, const QString& id);
Expected<Board> findBoard(const QString& id);

// Free function form of Board::fits for callers holding only figures.
Status boardFits(const Board& board, qint64 arenaBytes, qint64 weightBytes);

QString formatBytes(qint64 bytes); // "478.8 MiB (502,083,584 bytes)"

} // namespace embark::targets

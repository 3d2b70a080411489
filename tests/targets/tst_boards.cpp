// Board files: every built-in loads with the figures the boards really have, malformed files
// name the file and the field, user boards add and override, memory fit, toolchain choice.
#include "targets/board.h"
#include "targets/toolchain.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace embark;
using namespace embark::targets;

class TestBoards : public QObject {
    Q_OBJECT

private:
    static void write(const QString& path, const QByteArray& text) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }

private slots:
    void builtInsLoad_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<int>("cores");
        QTest::addColumn<qint64>("memory");
        QTest::addColumn<int>("vlen");
        QTest::addColumn<bool>("ssh");
        QTest::addColumn<QString>("prefix0");
        QTest::newRow("k230") << "k230"
                              << "riscv64" << 1 << qint64(502083584) << 128 << true << "";
        QTest::newRow("spacemit-k1") << "spacemit-k1"
                                     << "riscv64" << 8 << qint64(4294967296) << 256 << true << "";
        QTest::newRow("rpi4") << "rpi4"
                              << "aarch64" << 4 << qint64(4294967296) << 128 << true << "";
        QTest::newRow("rpi5") << "rpi5"
                              << "aarch64" << 4 << qint64(4294967296) << 128 << true << "";
        QTest::newRow("sim-k230") << "sim-k230"
                                  << "riscv64" << 1 << qint64(502083584) << 128 << false << "qemu-riscv64-static";
        QTest::newRow("sim-k1") << "sim-k1"
                                << "riscv64" << 8 << qint64(4294967296) << 256 << false << "qemu-riscv64-static";
        QTest::newRow("sim-rpi5") << "sim-rpi5"
                                  << "aarch64" << 4 << qint64(4294967296) << 128 << false << "qemu-aarch64-static";
    }

    void builtInsLoad() {
        QFETCH(QString, id);
        QFETCH(QString, arch);
        QFETCH(int, cores);
        QFETCH(qint64, memory);
        QFETCH(int, vlen);
        QFETCH(bool, ssh);
        QFETCH(QString, prefix0);
        const BoardCatalog catalog = loadBoards(builtInBoardsDir(), QString());
        QVERIFY2(catalog.problems.empty(), catalog.problems.empty() ? "" : catalog.problems.front().message.c_str());
        auto board = findBoard(catalog, id);
        QVERIFY2(board.ok(), board.ok() ? "" : board.error().message.c_str());
        QCOMPARE(board->arch, arch);
        QCOMPARE(board->cores, cores);
        QCOMPARE(board->memoryBytes, memory);
        QCOMPARE(board->vlenBits, vlen);
        QVERIFY(board->builtIn);
        QCOMPARE(board->runner.kind == BoardRunner::Kind::Ssh, ssh);
        QCOMPARE(board->runner.execPrefix.value(0), prefix0);
        // riscv64: V, and a VLEN above 128 told to the compiler (zvl<VLEN>b): the portable
        // runtime's wider register tile needs it (config.h).
        if (arch == "riscv64") {
            const QString march = vlen > 128 ? QString("-march=rv64gcv_zvl%1b").arg(vlen) : QString("-march=rv64gcv");
            QVERIFY2(board->cflags.contains(march), qPrintable(board->cflags.join(' ')));
        }
        // toJson round-trips through the parser.
        auto again = parseBoard(QJsonDocument(board->toJson()).toJson(), "roundtrip.json");
        QVERIFY(again.ok());
        QCOMPARE(again->toJson(), board->toJson());
    }

    void simulatedPrefixesMatchTheHardware() {
        const BoardCatalog catalog = loadBoards(builtInBoardsDir(), QString());
        QVERIFY(catalog.find("sim-k230")->runner.execPrefix.join(' ').contains("vlen=128,vext_spec=v1.0"));
        QVERIFY(catalog.find("sim-k1")->runner.execPrefix.join(' ').contains("vlen=256"));
        QVERIFY(catalog.find("sim-rpi5")->runner.execPrefix.join(' ').contains("cortex-a76"));
        QCOMPARE(catalog.find("k230")->runner.host, QStringLiteral("k230"));
    }

    void hostIsDetected() {
        auto host = findBoard(loadBoards(builtInBoardsDir(), QString()), "host");
        QVERIFY(host.ok());
        QVERIFY(knownArchitectures().contains(host->arch));
        QVERIFY(host->cores >= 1);
        QVERIFY(host->memoryBytes > 0);
        QVERIFY(host->isHost());
    }

    void malformed_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected"); // part of the message after the file name
        const QByteArray runner = R"("runner": {"kind": "local"})";
        QTest::newRow("not json") << QByteArray("{ \"id\": ") << "not valid JSON";
        QTest::newRow("array") << QByteArray("[]") << "must hold one JSON object";
        QTest::newRow("missing id")
            << QByteArray(R"({"name": "x", "arch": "riscv64", "cores": 1, "memory_bytes": 1, )" + runner + "}")
            << "field 'id' is missing";
        QTest::newRow("missing arch") << QByteArray(R"({"id": "x", "name": "x", "cores": 1, "memory_bytes": 1, )" +
                                                    runner + "}")
                                      << "field 'arch' is missing";
        QTest::newRow("unknown arch")
            << QByteArray(R"({"id": "x", "name": "x", "arch": "mips", "cores": 1, "memory_bytes": 1, )" + runner + "}")
            << "field 'arch' must be one of x86_64, aarch64, riscv64";
        QTest::newRow("cores string")
            << QByteArray(R"({"id": "x", "name": "x", "arch": "riscv64", "cores": "8", "memory_bytes": 1, )" + runner +
                          "}")
            << "field 'cores' must be an integer";
        QTest::newRow("memory fraction")
            << QByteArray(R"({"id": "x", "name": "x", "arch": "riscv64", "cores": 1, "memory_bytes": 1.5, )" + runner +
                          "}")
            << "field 'memory_bytes' must be an integer";
        QTest::newRow("cflags not strings")
            << QByteArray(
                   R"({"id": "x", "name": "x", "arch": "riscv64", "cores": 1, "memory_bytes": 1, "cflags": [1], )" +
                   runner + "}")
            << "field 'cflags' must be an array of strings";
        QTest::newRow("no runner")
            << QByteArray(R"({"id": "x", "name": "x", "arch": "riscv64", "cores": 1, "memory_bytes": 1})")
            << "field 'runner' is missing";
        QTest::newRow("bad runner kind")
            << QByteArray(
                   R"({"id": "x", "name": "x", "arch": "riscv64", "cores": 1, "memory_bytes": 1, "runner": {"kind": "telnet"}})")
            << "field 'runner.kind' must be one of ssh, local";
        QTest::newRow("ssh without host")
            << QByteArray(
                   R"({"id": "x", "name": "x", "arch": "riscv64", "cores": 1, "memory_bytes": 1, "runner": {"kind": "ssh"}})")
            << "field 'runner.host' is missing";
        QTest::newRow("port out of range")
            << QByteArray(
                   R"({"id": "x", "name": "x", "arch": "riscv64", "cores": 1, "memory_bytes": 1, "runner": {"kind": "ssh", "host": "h", "port": 70000}})")
            << "field 'runner.port' must be an integer from 0 to 65535";
        QTest::newRow("hostile id")
            << QByteArray(R"({"id": "../x", "name": "x", "arch": "riscv64", "cores": 1, "memory_bytes": 1, )" + runner +
                          "}")
            << "field 'id' must be letters";
    }

    void malformed() {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath("broken.json");
        write(path, json);
        auto board = loadBoardFile(path);
        QVERIFY(!board.ok());
        const QString message = QString::fromStdString(board.error().message);
        QVERIFY2(message.startsWith(path + ":"), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
        QCOMPARE(board.error().kind, ErrorKind::InvalidInput);

        // In a catalog the broken file is reported and the rest still loads.
        const BoardCatalog catalog = loadBoards(builtInBoardsDir(), dir.path());
        QCOMPARE(catalog.problems.size(), size_t(1));
        QVERIFY(catalog.find("k230"));
    }

    void userBoardsAddAndOverride() {
        QTemporaryDir config;
        qputenv("EMBARK_CONFIG_DIR", config.path().toUtf8());
        auto k230 = findBoard(loadBoards(), "k230");
        QVERIFY(k230.ok());
        Board mine = *k230;
        mine.runner.host = "my-k230";
        mine.runner.user = "canaan";
        QVERIFY(saveBoardFile(mine, userBoardsDir()).ok());
        Board extra = mine;
        extra.id = "lab-k230";
        QVERIFY(saveBoardFile(extra, userBoardsDir()).ok());

        const BoardCatalog catalog = loadBoards();
        qunsetenv("EMBARK_CONFIG_DIR");
        QVERIFY(catalog.problems.empty());
        QCOMPARE(catalog.find("k230")->runner.host, QStringLiteral("my-k230"));
        QVERIFY(!catalog.find("k230")->builtIn);
        QVERIFY(catalog.find("lab-k230"));
        QVERIFY(catalog.find("rpi5"));
        QCOMPARE(catalog.notes.size(), 1);
        QVERIFY(catalog.notes.first().contains("overrides the built-in"));
    }

    void unknownBoardListsKnownOnes() {
        auto b = findBoard(loadBoards(builtInBoardsDir(), QString()), "k231");
        QVERIFY(!b.ok());
        QCOMPARE(b.error().kind, ErrorKind::Usage);
        QVERIFY(QString::fromStdString(b.error().message).contains("unknown board 'k231'"));
        QVERIFY(QString::fromStdString(b.error().message).contains("sim-k230"));
    }

    void memoryFit() {
        auto k230 = findBoard(loadBoards(builtInBoardsDir(), QString()), "k230");
        QVERIFY(k230->fits(100'000'000, 46'000'000).ok());
        const Status s = boardFits(*k230, 400'000'000, 200'000'000);
        QVERIFY(!s.ok());
        const QString m = QString::fromStdString(s.error().message);
        QVERIFY2(m.contains("502,083,584 bytes") && m.contains("600,000,000 bytes") && m.contains("400,000,000") &&
                     m.contains("200,000,000"),
                 qPrintable(m));
    }

    void toolchainChoice_data() {
        QTest::addColumn<QString>("board");
        QTest::addColumn<int>("preference");
        QTest::addColumn<QString>("toolchain");
        QTest::newRow("k230 default") << "k230" << int(CompilerPreference::Default) << "riscv64-clang";
        QTest::newRow("k230 gcc") << "sim-k230" << int(CompilerPreference::Gcc) << "riscv64-gcc";
        QTest::newRow("rpi5") << "sim-rpi5" << int(CompilerPreference::Default) << "aarch64-gcc";
        QTest::newRow("host") << "host" << int(CompilerPreference::Default) << "native";
        QTest::newRow("rpi4 clang") << "rpi4" << int(CompilerPreference::Clang) << "";
    }

    void toolchainChoice() {
        QFETCH(QString, board);
        QFETCH(int, preference);
        QFETCH(QString, toolchain);
        auto b = findBoard(loadBoards(builtInBoardsDir(), QString()), board);
        QVERIFY(b.ok());
        auto t = toolchainFor(*b, static_cast<CompilerPreference>(preference));
        if (toolchain.isEmpty()) {
            QVERIFY(!t.ok());
            QCOMPARE(t.error().kind, ErrorKind::Unsupported);
            return;
        }
        QVERIFY(t.ok());
        QCOMPARE(t->id, toolchain);
        const QStringList args = t->cmakeArguments();
        QVERIFY(args.last().startsWith("-DEMBARK_TARGET_FLAGS="));
        if (t->isCross()) {
            QVERIFY(QFile::exists(t->file));
            QCOMPARE(args.value(1), t->file);
        }
        // Everything is installed here (scripts/install-deps.sh).
        const Status available = checkAvailable(*t);
        QVERIFY2(available.ok(), available.ok() ? "" : available.error().message.c_str());
        QVERIFY(checkRunnerAvailable(*b).ok());
    }

    void missingProgramsNamePackages() {
        Board b = *findBoard(loadBoards(builtInBoardsDir(), QString()), "sim-k230");
        b.runner.execPrefix[0] = "qemu-riscv64-static-absent";
        QVERIFY(!checkRunnerAvailable(b).ok());
        b.runner.execPrefix[0] = "qemu-aarch64-static";
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", "/nonexistent");
        const Status runner = checkRunnerAvailable(b);
        auto t = toolchainFor(b);
        const Status compiler = checkAvailable(*t);
        qputenv("PATH", path);
        QVERIFY(!runner.ok());
        QVERIFY2(QString::fromStdString(runner.error().message).contains("install the Debian package qemu-user-static"),
                 runner.error().message.c_str());
        QVERIFY(!compiler.ok());
        QVERIFY2(QString::fromStdString(compiler.error().message).contains("clang++-19 not found") &&
                     QString::fromStdString(compiler.error().message).contains("clang-19"),
                 compiler.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestBoards)
#include "tst_boards.moc"

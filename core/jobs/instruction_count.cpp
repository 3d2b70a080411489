#include "instruction_count.h"
#include "pipeline_detail.h"

#include "targets/toolchain.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

#include <map>

namespace embark::jobs {
namespace {

using detail::external;

// "qemu-riscv64-static" -> "qemu-riscv64" (a path keeps its folder).
QString dynamicQemu(const QString& program) {
    QString p = program;
    if (p.endsWith(QLatin1String("-static"))) p.chop(7);
    return p;
}

} // namespace

bool countsInstructions(const targets::Board& board) {
    if (board.runner.kind != targets::BoardRunner::Kind::Local || board.runner.execPrefix.isEmpty()) return false;
    return QFileInfo(board.runner.execPrefix.first()).fileName().startsWith(QLatin1String("qemu-"));
}

Expected<QString> instructionCountPlugin(const QString& runtimeDir) {
    const QString source = runtimeDir + "/tools/insn_count.c";
    QFile f(source);
    if (!f.open(QIODevice::ReadOnly))
        return external("counting instructions needs the qemu plugin's source " + source +
                        ", which cannot be read: set EMBARK_RUNTIME_DIR to Embark's runtime folder");
    const QByteArray text = f.readAll();
    QString base = qEnvironmentVariable("XDG_CACHE_HOME");
    if (base.isEmpty()) base = QDir::homePath() + "/.cache";
    const QString dir = base + "/embark/qemu-plugins";
    const QString hash =
        QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex().left(16));
    const QString plugin = dir + "/insn_count-" + hash + ".so";
    if (QFileInfo(plugin).isFile()) return plugin;
    if (!QDir().mkpath(dir)) return external("cannot create " + dir + " for the qemu plugin");
    // Built under a name of this process's own and renamed, so concurrent builds never see half a file.
    const QString partial = plugin + "." + QString::number(QCoreApplication::applicationPid());
    QString compiler = QStandardPaths::findExecutable("cc");
    if (compiler.isEmpty()) compiler = QStandardPaths::findExecutable("gcc");
    if (compiler.isEmpty())
        return external("counting instructions under qemu needs a host C compiler (cc) to build the plugin " + source +
                        ": install the Debian package gcc");
    QProcess cc;
    cc.setProcessChannelMode(QProcess::MergedChannels);
    cc.start(compiler, {"-O2", "-shared", "-fPIC", "-o", partial, source});
    if (!cc.waitForFinished(120000) || cc.exitStatus() != QProcess::NormalExit || cc.exitCode() != 0) {
        QFile::remove(partial);
        return external("building the qemu plugin " + source + " with " + compiler +
                        " failed: " + QString::fromLocal8Bit(cc.readAll()).trimmed());
    }
    if (!QFile::rename(partial, plugin)) {
        QFile::remove(partial);
        if (!QFileInfo(plugin).isFile()) return external("cannot move the qemu plugin to " + plugin);
    }
    return plugin;
}

Expected<QStringList> instructionCountCommand(const targets::Board& board, const QString& plugin,
                                              const QString& logFile, const QStringList& argv) {
    if (!countsInstructions(board))
        return makeError(ErrorKind::Usage, "board '" + board.id.toStdString() +
                                               "' does not run exports under qemu-user: nothing counts its "
                                               "instructions");
    const QString qemu = dynamicQemu(board.runner.execPrefix.first());
    const QString found = QFileInfo(qemu).isAbsolute() ? qemu : QStandardPaths::findExecutable(qemu);
    if (found.isEmpty() || !QFileInfo(found).isExecutable()) {
        const QString package = targets::debianPackageFor(QFileInfo(qemu).fileName());
        return external(
            QStringLiteral("board '%1': counting instructions needs %2 (qemu-*-static loads no "
                           "plugins), which is not installed%3")
                .arg(board.id, qemu, package.isEmpty() ? QString() : ": install the Debian package " + package));
    }
    return QStringList{found, "-plugin", plugin + ",marks=on", "-d", "plugin", "-D", logFile} +
           board.runner.execPrefix.mid(1) + argv;
}

Expected<InstructionCounts> parseInstructionMarks(const QByteArray& pluginLog, const bench::RunOutput& run) {
    struct Mark {
        bool write = false;
        uint64_t a1 = 0, count = 0;
    };
    std::vector<Mark> marks;
    for (const QByteArray& line : pluginLog.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() == 2 && f[0] == "marks_lost")
            return external("the qemu plugin lost " + QString::fromLatin1(f[1]) + " marks: too many system calls");
        if (f.size() != 5 || f[0] != "mark") continue;
        bool ok1 = false, ok2 = false;
        Mark m{f[2] == "write", f[3].toULongLong(&ok1), f[4].toULongLong(&ok2)};
        if (ok1 && ok2) marks.push_back(m);
    }
    if (marks.empty())
        return external("the qemu plugin's log has no marks: was run_export run under qemu with "
                        "-plugin insn_count.so,marks=on -d plugin?");
    if (!run.haveMeta) return external("run_export printed no meta line: it did not start");
    std::vector<size_t> stdoutWrites;
    for (size_t i = 0; i < marks.size(); ++i)
        if (marks[i].write && marks[i].a1 == 1) stdoutWrites.push_back(i);
    if (stdoutWrites.size() < 2)
        return external("the qemu plugin saw fewer than two writes to stdout: run_export stopped before its first "
                        "timed inference");
    std::vector<uint64_t> clocks;
    for (size_t i = stdoutWrites[0] + 1; i < stdoutWrites[1]; ++i)
        if (!marks[i].write) clocks.push_back(marks[i].count);
    const size_t n = static_cast<size_t>(run.meta.layers);
    if (clocks.size() < n + 3)
        return external(QStringLiteral("%1 clock reads around the first timed inference, expected at least %2 (layers "
                                       "+ 3): run_export must run with --warmup 0 --iterations 1 --layers")
                            .arg(clocks.size())
                            .arg(n + 3));
    clocks.erase(clocks.begin(), clocks.end() - static_cast<std::ptrdiff_t>(n + 3));
    InstructionCounts out;
    out.inference = clocks.back() - clocks.front();
    std::map<int, const bench::LayerSample*> byIndex;
    for (const bench::LayerSample& l : run.layers)
        if (l.iteration == 0) byIndex[l.index] = &l;
    for (size_t i = 0; i < n; ++i) {
        LayerInstructions l;
        l.index = static_cast<int>(i);
        if (auto it = byIndex.find(l.index); it != byIndex.end()) {
            l.node = it->second->node;
            l.lib = it->second->lib;
        }
        l.instructions = clocks[2 + i] - clocks[1 + i];
        out.layers.push_back(std::move(l));
    }
    return out;
}

} // namespace embark::jobs

#include "local_transport.h"

#include "targets/toolchain.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUuid>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace embark::deploy {
namespace {

Error external(const QString& message) { return makeError(ErrorKind::External, message.toStdString()); }

QString safeLabel(const QString& label) {
    QString s = label;
    s.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    return s.left(40);
}

} // namespace

QString signalName(int signal) {
    if (const char* abbrev = sigabbrev_np(signal)) return QString::fromLatin1(abbrev);
    return QString::number(signal);
}

int signalNumber(const QString& name) {
    const QString bare = name.startsWith("SIG") ? name.mid(3) : name;
    for (int s = 1; s < NSIG; ++s)
        if (const char* abbrev = sigabbrev_np(s); abbrev && bare == QLatin1String(abbrev)) return s;
    return 0;
}

Status copyFileAtomically(const QString& from, const QString& to, const QString& context, const ProgressFn& progress) {
    QFile in(from);
    if (!in.open(QIODevice::ReadOnly))
        return external(QStringLiteral("%1: cannot read %2: %3").arg(context, from, in.errorString()));
    const QString temp = to + ".embark-part-" + QUuid::createUuid().toString(QUuid::Id128).left(8);
    QFile out(temp);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return external(QStringLiteral("%1: cannot create %2: %3").arg(context, temp, out.errorString()));
    const qint64 total = in.size();
    qint64 done = 0;
    QByteArray chunk;
    while (!(chunk = in.read(1 << 20)).isEmpty()) {
        if (out.write(chunk) != chunk.size() || !out.flush()) {
            const QString why = out.errorString();
            out.close();
            QFile::remove(temp);
            return external(QStringLiteral("%1: writing %2 failed after %3 of %4 bytes: %5")
                                .arg(context, to)
                                .arg(done)
                                .arg(total)
                                .arg(why));
        }
        done += chunk.size();
        if (progress && !progress(done, total)) {
            out.close();
            QFile::remove(temp);
            return external(QStringLiteral("%1: copy of %2 cancelled").arg(context, from));
        }
    }
    out.setPermissions(in.permissions());
    out.close();
    // rename(2) replaces an existing file atomically; QFile::rename would refuse.
    if (::rename(QFile::encodeName(temp).constData(), QFile::encodeName(to).constData()) != 0) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        QFile::remove(temp);
        return external(QStringLiteral("%1: cannot rename %2 to %3: %4").arg(context, temp, to, why));
    }
    return {};
}

LocalTransport::LocalTransport(targets::Board board) : Transport(board.id), m_board(std::move(board)) {}

LocalTransport::~LocalTransport() = default;

QString LocalTransport::describe() const {
    return QStringLiteral("board '%1' (%2)").arg(m_board.id, m_board.runnerSummary());
}

Status LocalTransport::connect() { return targets::checkRunnerAvailable(m_board); }

Expected<QString> LocalTransport::makeRunDir(const QString& label) {
    const QString base = m_board.runner.workdir.isEmpty() ? QDir::tempPath() : m_board.runner.workdir;
    if (!QDir().mkpath(base))
        return external(QStringLiteral("board '%1': cannot create the work folder %2").arg(m_board.id, base));
    QTemporaryDir dir(QDir(base).filePath("embark-" + safeLabel(label) + "-XXXXXX"));
    if (!dir.isValid())
        return external(QStringLiteral("board '%1': cannot create a run folder in %2: %3")
                            .arg(m_board.id, base, dir.errorString()));
    dir.setAutoRemove(false);
    m_runDir = dir.path();
    m_ownDirs.insert(m_runDir);
    return m_runDir;
}

Status LocalTransport::removeRunDir(const QString& dir) {
    if (!m_ownDirs.contains(dir))
        return makeError(ErrorKind::Usage, QStringLiteral("board '%1': refusing to remove %2, which this transport did "
                                                          "not create")
                                               .arg(m_board.id, dir)
                                               .toStdString());
    if (!QDir(dir).removeRecursively())
        return external(QStringLiteral("board '%1': cannot remove the run folder %2").arg(m_board.id, dir));
    m_ownDirs.remove(dir);
    if (m_runDir == dir) m_runDir.clear();
    return {};
}

Status LocalTransport::copyTree(const QString& from, const QString& to, const QString& verb,
                                const ProgressFn& progress) {
    const QString context = QStringLiteral("board '%1': %2").arg(m_board.id, verb);
    const QFileInfo info(from);
    if (!info.exists()) return external(QStringLiteral("%1: %2 does not exist").arg(context, from));
    if (info.isFile()) {
        QDir().mkpath(QFileInfo(to).absolutePath());
        return copyFileAtomically(from, to, context, progress);
    }
    if (!QDir().mkpath(to)) return external(QStringLiteral("%1: cannot create %2").arg(context, to));
    QDirIterator it(from, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString src = it.next();
        const QString dst = to + "/" + QDir(from).relativeFilePath(src);
        if (it.fileInfo().isDir()) {
            if (!QDir().mkpath(dst)) return external(QStringLiteral("%1: cannot create %2").arg(context, dst));
        } else {
            EMBARK_TRY(copyFileAtomically(src, dst, context, progress));
        }
    }
    return {};
}

Status LocalTransport::upload(const QString& localPath, const QString& remotePath, const ProgressFn& progress) {
    return copyTree(localPath, resolve(remotePath), "uploading " + localPath, progress);
}

Status LocalTransport::download(const QString& remotePath, const QString& localPath) {
    return copyTree(resolve(remotePath), localPath, "downloading " + remotePath, {});
}

Expected<ExecResult> LocalTransport::exec(const ExecRequest& request) {
    if (request.argv.isEmpty()) return makeError(ErrorKind::Usage, "exec: no command given");
    QStringList command = request.usePrefix ? m_board.runner.execPrefix : QStringList{};
    command += request.argv;

    QProcess proc;
    proc.setProgram(command.first());
    proc.setArguments(command.mid(1));
    proc.setWorkingDirectory(request.workdir.isEmpty() ? m_runDir : resolve(request.workdir));
    proc.setStandardInputFile(QProcess::nullDevice());
    if (!request.environment.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString& kv : request.environment) env.insert(kv.section('=', 0, 0), kv.section('=', 1));
        proc.setProcessEnvironment(env);
    }
    // Its own process group, so timeout and cancel reach every child it spawned.
    proc.setChildProcessModifier([] { ::setpgid(0, 0); });
    proc.start();
    if (!proc.waitForStarted(30000)) {
        const QString package = targets::debianPackageFor(command.first());
        return external(QStringLiteral("board '%1': cannot start %2: %3%4")
                            .arg(m_board.id, command.first(), proc.errorString(),
                                 package.isEmpty() ? QString() : " (install the Debian package " + package + ")"));
    }
    const qint64 pgid = proc.processId();

    ExecResult result;
    auto drain = [&] {
        if (QByteArray out = proc.readAllStandardOutput(); !out.isEmpty()) {
            if (request.onStdout) request.onStdout(out);
            appendCapped(result.stdoutData, out);
        }
        if (QByteArray err = proc.readAllStandardError(); !err.isEmpty()) {
            if (request.onStderr) request.onStderr(err);
            appendCapped(result.stderrData, err);
        }
    };
    QElapsedTimer clock;
    clock.start();
    bool stopped = false;
    while (proc.state() != QProcess::NotRunning) {
        proc.waitForFinished(50);
        drain();
        if (proc.state() == QProcess::NotRunning) break;
        const bool cancelled = request.cancel && request.cancel->load();
        const bool timedOut = request.timeout.count() > 0 && clock.elapsed() >= request.timeout.count();
        if (cancelled || timedOut) {
            // The leader is not reaped yet, so its group id cannot have been reused.
            ::kill(-static_cast<pid_t>(pgid), SIGKILL);
            proc.waitForFinished(-1);
            drain();
            result.outcome = cancelled ? ExecResult::Outcome::Cancelled : ExecResult::Outcome::TimedOut;
            stopped = true;
            break;
        }
    }
    drain();
    if (!stopped) {
        if (proc.exitStatus() == QProcess::CrashExit) {
            result.outcome = ExecResult::Outcome::Signalled;
            result.signal = signalName(proc.exitCode()); // QProcess keeps the signal number there
        } else {
            result.exitCode = proc.exitCode();
        }
    }
    return result;
}

} // namespace embark::deploy

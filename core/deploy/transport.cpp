#include "transport.h"

#include <QDir>

namespace embark::deploy {

void appendCapped(QByteArray& buffer, const QByteArray& chunk) {
    buffer += chunk;
    if (buffer.size() > ExecResult::kOutputCap) buffer.remove(0, buffer.size() - ExecResult::kOutputCap);
}

QString Transport::resolve(const QString& path) const {
    if (path.startsWith('/') || m_runDir.isEmpty()) return path;
    return m_runDir + "/" + path;
}

Status requireSuccess(const ExecResult& result, const QString& boardId, const QString& what) {
    if (result.succeeded()) return {};
    QString detail;
    switch (result.outcome) {
    case ExecResult::Outcome::Exited: detail = QStringLiteral("exited with status %1").arg(result.exitCode); break;
    case ExecResult::Outcome::Signalled:
        if (result.signal == "KILL") // nothing in a program raises it: something killed it
            detail = QStringLiteral("was killed with signal SIGKILL (by the board's out-of-memory killer or "
                                    "another process: check dmesg on the board)");
        else
            detail = QStringLiteral("crashed with signal SIG%1").arg(result.signal);
        break;
    case ExecResult::Outcome::TimedOut: detail = QStringLiteral("timed out and was killed"); break;
    case ExecResult::Outcome::Cancelled: detail = QStringLiteral("was cancelled"); break;
    }
    QString message = QStringLiteral("board '%1': %2 %3").arg(boardId, what, detail);
    // The last lines of stderr usually say why (an assertion, a missing library).
    const QByteArray tail = result.stderrData.right(2000).trimmed();
    if (!tail.isEmpty()) message += ": " + QString::fromUtf8(tail);
    return makeError(ErrorKind::External, message.toStdString());
}

} // namespace embark::deploy

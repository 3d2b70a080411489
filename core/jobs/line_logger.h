// Passes a command's streamed output to a job's log line by line as it arrives (the steps that
// run a compiler, a board's command or ONNX Runtime's tools).
#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

namespace embark::jobs {

struct LineLogger {
    const std::function<void(const QString&)>& log;
    QByteArray pending;
    void operator()(const QByteArray& chunk) {
        pending += chunk;
        for (qsizetype nl; (nl = pending.indexOf('\n')) >= 0; pending.remove(0, nl + 1))
            if (log) log(QString::fromUtf8(pending.left(nl)));
    }
};

} // namespace embark::jobs

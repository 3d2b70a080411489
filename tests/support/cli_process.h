// Runs embark-cli (the one the tests are built with) and keeps its exit code and output.
#pragma once

#include "test_paths.h"

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace embark::test {

struct CliResult {
    int code = -1; // -1: it crashed or did not finish
    QByteArray out, err;
};

inline CliResult runCli(const QStringList& args, int timeoutMs = 120000) {
    QProcess p;
    p.start(cliPath(), args);
    p.waitForFinished(timeoutMs);
    CliResult r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace embark::test

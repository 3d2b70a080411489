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

// The timeout is generous: under the sanitizers on 2 busy cores, an export's build and run
// through the CLI took over two minutes (a hung CLI is still killed, and reads as code -1).
inline CliResult runCli(const QStringList& args, int timeoutMs = 10 * 60 * 1000) {
    QProcess p;
    p.start(cliPath(), args);
    CliResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "embark-cli did not finish within the timeout: " + args.join(' ').toUtf8();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace embark::test

// embark-cli's command dispatcher. Each command is a function in its own cmd_*.cpp file,
// listed in the table in cli.cpp; app/cli/main.cpp only calls run().
#pragma once

#include "ir/error.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

namespace embark::cli {

// Streams a command writes to: results on out, diagnostics on err.
struct Io {
    QTextStream& out;
    QTextStream& err;
};

using CommandFn = int (*)(const QStringList& args, Io& io);

struct Command {
    const char* name;
    const char* summary;
    CommandFn fn;
};

const std::vector<Command>& commands();

// Runs `embark-cli <args...>` and returns the exit status (see exitStatusHelp()).
int run(const QStringList& args);
int run(const QStringList& args, QTextStream& out, QTextStream& err);

// The exit-status table printed by --help and documented in docs/cli.md.
QString exitStatusHelp();

// Prints "embark-cli: error: <message>" and returns the error's exit status.
int fail(Io& io, const Error& error);
int usage(Io& io, const QString& message);

} // namespace embark::cli

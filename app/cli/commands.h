// One function per embark-cli command, each defined in its own cmd_<name>.cpp.
#pragma once

#include "cli.h"

namespace embark::cli {

int cmdInspect(const QStringList& args, Io& io);
int cmdRun(const QStringList& args, Io& io);
int cmdExport(const QStringList& args, Io& io);
int cmdBuild(const QStringList& args, Io& io);
int cmdExec(const QStringList& args, Io& io);
int cmdBench(const QStringList& args, Io& io);
int cmdPlan(const QStringList& args, Io& io);
int cmdBoards(const QStringList& args, Io& io);
int cmdRuns(const QStringList& args, Io& io);
int cmdXnnpack(const QStringList& args, Io& io);
int cmdQuantize(const QStringList& args, Io& io);
int cmdCompare(const QStringList& args, Io& io);
int cmdOrtTest(const QStringList& args, Io& io);
int cmdFarm(const QStringList& args, Io& io);
int cmdSweep(const QStringList& args, Io& io);

} // namespace embark::cli

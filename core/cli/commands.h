// One function per embark-cli command, each defined in its own cmd_<name>.cpp.
#pragma once

#include "cli.h"

namespace embark::cli {

int cmdInspect(const QStringList& args, Io& io);
int cmdRun(const QStringList& args, Io& io);

} // namespace embark::cli

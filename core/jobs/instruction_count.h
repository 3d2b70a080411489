// Retired instructions per layer of an export run on a simulated board (qemu-user): what
// `--lib auto` measures there instead of wall clock (DESIGN.md "Choosing a library by
// measurement"). run_export runs under the board's qemu with the TCG plugin
// runtime/tools/insn_count.c (marks=on), which records the instruction count at every clock read
// and every write system call; the clock reads run_export makes around the timed inference and
// after each layer (--layers) then delimit the instructions of each layer. Counts are exact and
// deterministic: one run, no warm-up, no median.
#pragma once

#include "ir/error.h"
#include "results/run_protocol.h"
#include "targets/board.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace embark::jobs {

// Whether the board runs exports under qemu-user (a local runner whose exec prefix starts with
// qemu-<arch>[-static]): there, instructions are counted instead of timed.
bool countsInstructions(const targets::Board& board);

// The plugin built for this host from runtime/tools/insn_count.c (`runtimeDir`'s), cached under
// $XDG_CACHE_HOME/embark/qemu-plugins by a hash of its source. Errors: the source is missing, or
// the host C compiler (cc) fails or is absent.
Expected<QString> instructionCountPlugin(const QString& runtimeDir);

// The command that runs `argv` (./run_export ...) under the board's qemu with the plugin: the
// dynamic qemu of the exec prefix (qemu-*-static loads no plugins), "-plugin PLUGIN,marks=on -d
// plugin -D LOG", then the prefix's own arguments. Error: that qemu is not installed.
Expected<QStringList> instructionCountCommand(const targets::Board& board, const QString& plugin,
                                              const QString& logFile, const QStringList& argv);

struct LayerInstructions {
    int index = 0;
    std::string node, lib;
    uint64_t instructions = 0;
};

struct InstructionCounts {
    uint64_t inference = 0;                // the whole timed inference (forwardProfiled)
    std::vector<LayerInstructions> layers; // in schedule order
};

// From the plugin's log (its "mark I write|clock A1 COUNT" lines) and run_export's output of a run
// with --warmup 0 --iterations 1 --layers: the marks between the meta line (the first write to fd
// 1) and the latency line (the second) are the clock reads of the inference; the last layers + 3
// of them are t0, forwardProfiled's start, one after each layer, and the end. Errors name what is
// missing (no marks: not run with the plugin or with marks=on; too few clock reads: not one
// iteration with --layers).
Expected<InstructionCounts> parseInstructionMarks(const QByteArray& pluginLog, const bench::RunOutput& run);

} // namespace embark::jobs

#!/usr/bin/env python3
# Turns one qemu run of run_export under runtime/tools/insn_count.c (marks=on) into retired
# instructions, as JSON lines like run_export's own:
#   `run_export --warmup 0 --iterations 1`           -> {"type":"insns","forward":N}
#   `run_export --warmup 0 --iterations 1 --layers`  -> {"type":"insns","profiled":N} and
#                                     {"type":"layer","index":I,"node":..,"lib":..,"insns":N}
# run_export flushes its meta line (a write to fd 1), initialises (which runs one untimed
# forward() to bind the operators), then the timed loop reads the clock (t0), runs forward()
# (no clock reads) or forwardProfiled() (one clock read at its start and one after each layer)
# and reads the clock again, and prints the latency line (the next write to fd 1). So the last
# 2 (or layers + 3) clock reads before that write delimit the inference and its layers; clock
# reads during initialisation come before them and do not matter.
# Usage: marks.py PLUGIN_OUTPUT RUN_JSONL
import json
import sys


def main():
    plugin_path, run_path = sys.argv[1], sys.argv[2]
    marks = []  # (kind, fd or clock id, count)
    for line in open(plugin_path):
        f = line.split()
        if len(f) == 5 and f[0] == "mark":
            marks.append((f[2], int(f[3]), int(f[4])))
    meta, layers = None, {}
    for line in open(run_path):
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        if obj.get("type") == "meta":
            meta = obj
        elif obj.get("type") == "layer":
            layers[obj["index"]] = obj
    if meta is None:
        sys.exit("marks.py: %s has no meta line (did run_export start?)" % run_path)
    n = meta["layers"]
    stdout_writes = [i for i, m in enumerate(marks) if m[0] == "write" and m[1] == 1]
    if len(stdout_writes) < 2:
        sys.exit("marks.py: %s has fewer than two writes to stdout (the plugin needs marks=on)" % plugin_path)
    first, second = stdout_writes[0], stdout_writes[1]
    clocks = [m[2] for m in marks[first + 1:second] if m[0] == "clock"]
    if not layers:
        if len(clocks) < 2:
            sys.exit("marks.py: fewer than 2 clock reads around the inference (was it --iterations 1?)")
        print(json.dumps({"type": "insns", "forward": clocks[-1] - clocks[-2]}))
        return
    if len(clocks) < n + 3:
        sys.exit("marks.py: %d clock reads before the latency line, expected at least %d (layers + 3): "
                 "was the run --warmup 0 --iterations 1 --layers?" % (len(clocks), n + 3))
    clocks = clocks[-(n + 3):]
    print(json.dumps({"type": "insns", "profiled": clocks[-1] - clocks[0]}))
    for i in range(n):
        info = layers.get(i, {})
        print(json.dumps({"type": "layer", "index": i, "node": info.get("node", "?"), "lib": info.get("lib", "?"),
                          "insns": clocks[2 + i] - clocks[1 + i]}))


if __name__ == "__main__":
    main()

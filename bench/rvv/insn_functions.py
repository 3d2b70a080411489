#!/usr/bin/env python3
# Retired guest instructions per function, from the blocks file of runtime/tools/insn_count.c
# (qemu-riscv64 / qemu-aarch64 / qemu-x86_64 -plugin insn_count.so,blocks=FILE) and the symbol
# table of the binary that ran (a static run_export: every address is in it). A block is
# charged to the function whose symbol starts at or before its address.
# Usage: insn_functions.py BINARY BLOCKS_FILE [--top N] [--nm riscv64-linux-gnu-nm]
import argparse
import bisect
import collections
import subprocess

ap = argparse.ArgumentParser()
ap.add_argument("binary")
ap.add_argument("blocks")
ap.add_argument("--top", type=int, default=30)
ap.add_argument("--nm", default="nm")
args = ap.parse_args()

symbols = []
out = subprocess.run([args.nm, "-C", "--defined-only", args.binary], capture_output=True, text=True, check=True).stdout
for line in out.splitlines():
    parts = line.split(" ", 2)
    if len(parts) == 3 and parts[1] in "tTwW":
        symbols.append((int(parts[0], 16), parts[2]))
symbols.sort()
starts = [a for a, _ in symbols]

per_function = collections.Counter()
total = 0
for line in open(args.blocks):
    address, insns, executions = line.split()
    count = int(insns) * int(executions)
    total += count
    i = bisect.bisect_right(starts, int(address, 16)) - 1
    per_function[symbols[i][1] if i >= 0 else "?"] += count

print("%12s %6s  %s" % ("instructions", "share", "function"))
for name, count in per_function.most_common(args.top):
    print("%12d %5.1f%%  %s" % (count, 100.0 * count / max(total, 1), name[:150]))
print("%12d total" % total)

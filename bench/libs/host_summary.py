#!/usr/bin/env python3
# Folds bench_libs_host.sh's rounds into one table per model: the median over the rounds of
# each run's median latency (fastest iteration in brackets) for every library at 1 and 2
# threads, and each library's ratio to upstream XNNPACK (below 1: faster than upstream).
# Usage: host_summary.py rounds.txt    ("model lib threads round median_ms min_ms iterations")
import statistics
import sys

ORDER = ["portable", "xnnpack-upstream", "xnnpack-debian", "onnxruntime"]
runs = {}
for line in open(sys.argv[1]):
    model, lib, threads, rnd, median, fastest, _ = line.split()
    runs.setdefault((model, lib, int(threads)), []).append((float(median), float(fastest)))

models = []
for (model, _, _) in runs:
    if model not in models:
        models.append(model)
print("%-13s %-17s %17s %17s %9s %9s %7s" % ("model", "library", "1T ms (min)", "2T ms (min)", "1T ratio", "2T ratio", "2T gain"))
for model in models:
    med = {}
    for lib in ORDER:
        for t in (1, 2):
            v = runs.get((model, lib, t))
            if v:
                med[(lib, t)] = (statistics.median(x[0] for x in v), min(x[1] for x in v))
    for lib in ORDER:
        cells, ratios = [], []
        for t in (1, 2):
            m = med.get((lib, t))
            cells.append("%7.2f (%6.2f)" % m if m else "%17s" % "-")
            up = med.get(("xnnpack-upstream", t))
            ratios.append("%8.2fx" % (m[0] / up[0]) if m and up else "%9s" % "-")
        gain = "%6.2fx" % (med[(lib, 1)][0] / med[(lib, 2)][0]) if (lib, 1) in med and (lib, 2) in med else "      -"
        if (lib, 1) in med or (lib, 2) in med:
            print("%-13s %-17s %s %s %s %s %s" % (model, lib, cells[0], cells[1], ratios[0], ratios[1], gain))
print("ratio = library / xnnpack-upstream at the same thread count (goal for portable: <= 1.00x)")

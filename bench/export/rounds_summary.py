#!/usr/bin/env python3
# Folds bench_export.sh's rounds into its results table, one line per model, library and
# thread count: "model lib threads median_ms build_s ref_ms min_ms gain_lo gain_hi", where
# median_ms is the median over the rounds of each run's median, min_ms the fastest iteration
# of any round, and gain_lo/gain_hi the lowest and highest 1T/2T ratio within one round
# (written on the 1-thread line).
# Usage: rounds_summary.py builds.txt rounds.txt
#   builds.txt: "model lib build_s ref_ms" per export
#   rounds.txt: "model lib threads round median_ms min_ms iterations" per run
import statistics
import sys

builds = {}
with open(sys.argv[1]) as f:
    for line in f:
        model, lib, build_s, ref = line.split()
        builds[(model, lib)] = (build_s, ref)

runs = {}  # (model, lib, threads) -> {round: (median, min)}
with open(sys.argv[2]) as f:
    for line in f:
        model, lib, threads, rnd, median, fastest, _ = line.split()
        runs.setdefault((model, lib, int(threads)), {})[int(rnd)] = (float(median), float(fastest))

for (model, lib), (build_s, ref) in builds.items():
    one, two = runs.get((model, lib, 1), {}), runs.get((model, lib, 2), {})
    gains = [one[r][0] / two[r][0] for r in one if r in two and two[r][0] > 0]
    lo = "%.2f" % min(gains) if gains else "n/a"
    hi = "%.2f" % max(gains) if gains else "n/a"
    for threads, by_round in ((1, one), (2, two)):
        if not by_round:
            continue
        median = statistics.median(v[0] for v in by_round.values())
        fastest = min(v[1] for v in by_round.values())
        extra = " %s %s" % (lo, hi) if threads == 1 else " - -"
        print("%s %s %d %.3f %s %s %.3f%s" % (model, lib, threads, median, build_s, ref, fastest, extra))

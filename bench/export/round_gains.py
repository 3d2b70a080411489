#!/usr/bin/env python3
# Prints bench_export.sh's 2-thread gain of every round beside the core-to-core round trip
# measured just before that round (bench/export/core_latency.cpp), one line per model and
# round: "resnet18 round 3: portable 1.79x xnnpack 1.70x | core round trip 148 ns".
# Usage: round_gains.py rounds.txt probes.txt
#   rounds.txt: "model lib threads round median_ms min_ms iterations" per run
#   probes.txt: "model round ns" per round ("n/a" when it could not be measured)
import sys

runs = {}  # (model, round) -> {(lib, threads): median}
with open(sys.argv[1]) as f:
    for line in f:
        model, lib, threads, rnd, median = line.split()[:5]
        runs.setdefault((model, int(rnd)), {})[(lib, int(threads))] = float(median)
probes = {}
with open(sys.argv[2]) as f:
    for line in f:
        model, rnd, ns = line.split()
        probes[(model, int(rnd))] = ns

for (model, rnd), by_run in runs.items():
    gains = []
    for lib in ("portable", "xnnpack"):
        one, two = by_run.get((lib, 1)), by_run.get((lib, 2))
        if one and two:
            gains.append("%s %.2fx" % (lib, one / two))
    ns = probes.get((model, rnd), "n/a")
    print("%s round %d: %s | core round trip %s%s" % (model, rnd, " ".join(gains), ns, "" if ns == "n/a" else " ns"))

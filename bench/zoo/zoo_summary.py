#!/usr/bin/env python3
"""Summarises bench_zoo.sh's rounds file ("model lib threads round median min count" lines):
per model and thread count the median over rounds of each library's latency, the ratios to
ONNX Runtime, and the geometric mean of each ratio over the models that have both.
Usage: zoo_summary.py ROUNDS_FILE [--min]   (--min: each run's fastest iteration instead of its
median; the steadier figure on a loaded machine)"""
import math
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)  # (model, lib, threads) -> [median ms]
models, libs = [], []
for line in open(sys.argv[1]):  # noqa: SIM115
    f = line.split()
    if len(f) < 5:
        continue
    model, lib, threads, median = f[0], f[1], int(f[2]), float(f[5] if "--min" in sys.argv else f[4])
    runs[(model, lib, threads)].append(median)
    if model not in models:
        models.append(model)
    if lib not in libs:
        libs.append(lib)

others = [l for l in libs if l != "onnxruntime"]
# Column widths: 13 (ms) and 16 (ratio), wider for a longer library name (portable_base).
wms = {l: max(13, len(l) + 1) for l in libs}
wr = {l: max(16, len(l) + 5) for l in others}
for threads in (1, 2):
    what = "fastest iteration" if "--min" in sys.argv else "median"
    print(f"\n== {threads} thread(s): latency in ms (median over rounds of each run's {what}), ratio to ONNX Runtime ==")
    head = f"{'model':22s}" + "".join(f"{l:>{wms[l]}s}" for l in libs)
    head += "".join(f"{l + '/ort':>{wr[l]}s}" for l in others)
    print(head)
    ratios = defaultdict(list)
    for m in models:
        row = f"{m:22s}"
        med = {}
        for l in libs:
            v = runs.get((m, l, threads))
            med[l] = statistics.median(v) if v else None
            row += f"{med[l]:{wms[l]}.2f}" if med[l] else f"{'-':>{wms[l]}s}"
        for l in others:
            if med.get(l) and med.get("onnxruntime"):
                r = med[l] / med["onnxruntime"]
                ratios[l].append(r)
                row += f"{r:{wr[l] - 1}.2f}x"
            else:
                row += f"{'-':>{wr[l]}s}"
        print(row)
    geo = f"{'geometric mean':22s}" + " " * sum(wms.values())
    for l in others:
        v = ratios[l]
        geo += f"{math.exp(sum(map(math.log, v)) / len(v)):{wr[l] - 1}.2f}x" if v else f"{'-':>{wr[l]}s}"
    print(geo)
    for l in others:
        worst = [(r, m) for r, m in zip(ratios[l], [m for m in models if runs.get((m, l, threads)) and runs.get((m, "onnxruntime", threads))])]
        if worst:
            r, m = max(worst)
            print(f"  {l}: worst {m} {r:.2f}x, {sum(1 for x, _ in worst if x > 1.25)} model(s) above 1.25x")

#!/usr/bin/python3
# Reads run_export's JSON lines (run with --layers) on stdin and prints "MEDIAN MIN" in
# milliseconds of each iteration's layer times summed without the layout conversions the
# exporter added at the model's edges (layers named *_to_nhwc / *_to_nchw): the op as it runs
# inside a model (bench_ops.sh --in-model). Exits 1 when there is no layer line.
import collections
import json
import statistics
import sys

per_iteration = collections.defaultdict(int)
for line in sys.stdin:
    line = line.strip()
    if not line.startswith("{"):
        continue
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        continue
    if obj.get("type") != "layer" or obj["node"].endswith(("_to_nhwc", "_to_nchw")):
        continue
    per_iteration[obj["iteration"]] += obj["ns"]
if not per_iteration:
    sys.exit(1)
ns = list(per_iteration.values())
print("%.3f %.3f" % (statistics.median(ns) / 1e6, min(ns) / 1e6))

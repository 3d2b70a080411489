#!/usr/bin/env python3
# Reads run_export's JSON lines on stdin and prints the median latency in milliseconds
# then the minimum and the iteration count, e.g. "12.345 11.987 20" (on a busy machine the
# minimum is the steadier figure); exits 1 when there is no latency line.
# With --op-layers (a run with --layers) each iteration's figure is instead the sum of its layer
# times without the layout conversions the exporter added at the model's edges (layers named
# *_to_nhwc / *_to_nchw): the op as it runs inside a model (bench/ops/bench_ops.sh --in-model).
import collections
import json
import statistics
import sys

op_layers = "--op-layers" in sys.argv[1:]
latency = []
layers = collections.defaultdict(int)  # iteration -> ns of its layers
for line in sys.stdin:
    line = line.strip()
    if not line.startswith("{"):
        continue
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        continue
    if obj.get("type") == "latency":
        latency.append(obj["ns"])
    elif obj.get("type") == "layer" and not obj["node"].endswith(("_to_nhwc", "_to_nchw")):
        layers[obj["iteration"]] += obj["ns"]
ns = list(layers.values()) if op_layers else latency
if not ns:
    sys.exit(1)
print("%.3f %.3f %d" % (statistics.median(ns) / 1e6, min(ns) / 1e6, len(ns)))

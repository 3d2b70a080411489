#!/usr/bin/python3
# Reads an ONNX Runtime profile (ort_run.js --profile) and prints "MEDIAN MIN" of its model_run
# durations in milliseconds, the first SKIP runs (the warm-up) left out: ORT's own wall clock of
# each run, without the JavaScript binding's hand-off to and from its worker thread (on a loaded
# machine that hand-off waits for the scheduler and would count against ORT).
# With --nodes, each run's figure is instead the sum of its node kernel times except ORT's own
# layout reorders (ReorderInput/ReorderOutput of its NCHWc transformer): the op as it runs inside
# a model whose neighbours keep ORT's blocked layout (bench_ops.sh --in-model).
#   ort_profile_ms.py PROFILE.json SKIP [--nodes]
import json
import statistics
import sys

events = json.load(open(sys.argv[1]))
nodes_only = "--nodes" in sys.argv[3:]
runs = [e for e in events if e.get("cat") == "Session" and e.get("name") == "model_run"]
if nodes_only:
    kernels = [e for e in events if e.get("cat") == "Node" and e.get("name", "").endswith("_kernel_time") and
               not e.get("args", {}).get("op_name", "").startswith("Reorder")]
    durs = [sum(k["dur"] for k in kernels if r["ts"] <= k["ts"] <= r["ts"] + r["dur"]) for r in runs]
else:
    durs = [e["dur"] for e in runs]
durs = durs[int(sys.argv[2]):]
if not durs:
    sys.exit(1)
print("%.4f %.4f" % (statistics.median(durs) / 1e3, min(durs) / 1e3))

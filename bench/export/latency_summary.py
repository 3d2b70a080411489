#!/usr/bin/env python3
# Reads run_export's JSON lines on stdin and prints the median latency in milliseconds
# then the minimum and the iteration count, e.g. "12.345 11.987 20" (on a busy machine the
# minimum is the steadier figure); exits 1 when there is no latency line.
import json
import statistics
import sys

ns = []
for line in sys.stdin:
    line = line.strip()
    if not line.startswith("{"):
        continue
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        continue
    if obj.get("type") == "latency":
        ns.append(obj["ns"])
if not ns:
    sys.exit(1)
print("%.3f %.3f %d" % (statistics.median(ns) / 1e6, min(ns) / 1e6, len(ns)))

#!/usr/bin/python3
# Reads an ONNX Runtime profile (ort_run.js --profile) and prints "MEDIAN MIN" of its model_run
# durations in milliseconds, the first SKIP runs (the warm-up) left out: ORT's own wall clock of
# each run, without the JavaScript binding's hand-off to and from its worker thread (on a loaded
# machine that hand-off waits for the scheduler and would count against ORT).
#   ort_profile_ms.py PROFILE.json SKIP
import json
import statistics
import sys

events = json.load(open(sys.argv[1]))
runs = [e["dur"] for e in events if e.get("cat") == "Session" and e.get("name") == "model_run"]
runs = runs[int(sys.argv[2]):]
if not runs:
    sys.exit(1)
print("%.4f %.4f" % (statistics.median(runs) / 1e3, min(runs) / 1e3))

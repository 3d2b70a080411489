#!/usr/bin/env python3
# Reads `embark-cli run --json` on stdin and prints reference_ms.
import json
import sys

print("%.3f" % json.load(sys.stdin)["reference_ms"])

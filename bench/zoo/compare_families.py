#!/usr/bin/python3
"""Helpers of check_families.sh (issue 31).

  compare_families.py ref RUN.json                  reference: `embark-cli run --json` with --expect
  compare_families.py export RUN.jsonl DATA_DIR     an export: run_export's output lines against
                                                    DATA_DIR/output_K.pb (ONNX Runtime's outputs)
  compare_families.py table RESULTS.tsv TARGETS...  the table (model, target, status, detail lines)

The first two print one cell: `ok <max_rel>` or `FAIL <max_rel or reason>`, where max_rel is
max|diff| / max|expected| over the outputs (float) and integer or bool outputs count only when
identical (0 or `FAIL not identical`). The tolerance is TOL (default 1e-4) or the model's
documented one in TOLERANCES.
"""
import glob
import json
import os
import sys

import numpy as np
from onnx import numpy_helper, TensorProto

# Documented tolerances (bench/README.md): a model whose quantization rounds at run-time ties
# may land one quantum away from ONNX Runtime.
TOLERANCES = {}


def tolerance(model):
    return TOLERANCES.get(model, float(os.environ.get("TOL", "1e-4")))


def cell(errs, model):
    if any(e is None for e in errs):
        return "FAIL not identical"
    worst = max(errs) if errs else 0.0
    return f"{'ok' if worst <= tolerance(model) else 'FAIL'} {worst:.1e}"


def ref(path, model):
    j = json.load(open(path))
    outs = j.get("accuracy", {}).get("outputs", [])
    if not outs:
        return "FAIL no comparison"
    errs = []
    for o in outs:
        if o.get("exact"):
            errs.append(0.0 if o.get("ok") else None)
        elif not o.get("shape_matches", True):
            return "FAIL shape differs"
        else:
            errs.append(float(o.get("max_rel", 0.0)))
    return cell(errs, model)


DT = {"float32": np.float32, "float16": np.float16, "int64": np.int64, "int32": np.int32, "int8": np.int8,
      "uint8": np.uint8, "bool": np.bool_}


def export(path, data, model):
    lines = [json.loads(s) for s in open(path) if s.startswith("{")]
    outs = [o for o in lines if o.get("type") == "output"]
    errors = [o for o in lines if o.get("type") == "error"]
    if errors:
        return "FAIL " + errors[0].get("message", "")[:60]
    expected = []
    for f in sorted(glob.glob(os.path.join(data, "output_*.pb")), key=lambda p: int(p.rsplit("_", 1)[1][:-3])):
        t = TensorProto()
        t.ParseFromString(open(f, "rb").read())
        expected.append((t.name, numpy_helper.to_array(t)))
    if len(outs) != len(expected):
        return f"FAIL {len(outs)} outputs, {len(expected)} expected"
    errs = []
    for o, (name, e) in zip(outs, expected):
        got = np.fromfile(o["file"], dtype=DT[o["dtype"]])
        if got.size != e.size or list(o["shape"]) != list(e.shape):
            return f"FAIL {name}: shape {o['shape']} != {list(e.shape)}"
        got = got.reshape(e.shape)
        if e.dtype.kind in "iub":
            errs.append(0.0 if got.dtype == e.dtype and np.array_equal(got, e) else None)
        else:
            scale = float(np.abs(e).max()) or 1.0
            errs.append(float(np.abs(got.astype(np.float64) - e).max()) / scale)
    return cell(errs, model)


def table(path, targets):
    rows = {}
    for line in open(path):
        parts = line.rstrip("\n").split("\t")
        if len(parts) >= 3:
            rows.setdefault(parts[0], {})[parts[1]] = parts[2]
    head = ["model"] + targets
    body = [[m] + [rows[m].get(t, "-") for t in targets] for m in rows]
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    fmt = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"
    print(fmt(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in body:
        print(fmt(r))
    cells = [c for r in body for c in r[1:]]
    print(f"\n{len(body)} models; cells ok: {sum(c.startswith('ok') for c in cells)} of {len(cells)}, "
          f"failed: {sum(c.startswith('FAIL') for c in cells)}, refused: {sum(c.startswith('refused') for c in cells)}")


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "ref":
        print(ref(sys.argv[2], sys.argv[3]))
    elif what == "export":
        print(export(sys.argv[2], sys.argv[3], sys.argv[4]))
    elif what == "table":
        table(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(f"compare_families: unknown command {what}")

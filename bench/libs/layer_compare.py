#!/usr/bin/env python3
# Per-layer comparison of two exports of one model (bench_libs_host.sh: wall-clock ns from
# `run_export --layers`; bench_libs_qemu.sh: retired instructions from marks.py), matched by
# node name: a table sorted by how much the first export loses on each layer, then the same
# summed per kind of layer (7x7/2 stem, 3x3, 1x1, depthwise 3x3, ...), then the totals.
# A value is the median over all iterations of all runs given for that export.
# Usage: layer_compare.py --key ns|insns [--inspect INSPECT.json] [--top N]
#            LABEL_A EXPORT_DIR_A RUNS_A LABEL_B EXPORT_DIR_B RUNS_B
#   RUNS_*: comma-separated files of JSON lines with {"type":"layer","node":..,KEY:..}
#   INSPECT.json: `embark-cli inspect MODEL --json` (MACs per node, for the kind and GFLOP/s)
import argparse
import json
import statistics


def load_runs(files, key):
    values, libs = {}, {}
    for path in files.split(","):
        for line in open(path):
            if not line.startswith("{"):
                continue
            obj = json.loads(line)
            if obj.get("type") == "layer" and key in obj:
                values.setdefault(obj["node"], []).append(obj[key])
                libs[obj["node"]] = obj.get("lib", "?")
    return {n: statistics.median(v) for n, v in values.items()}, libs


def load_schedule(export_dir):
    """node name -> (op, input shape, output shape) from export.json."""
    manifest = json.load(open(export_dir + "/export.json"))
    shapes = {v["name"]: v["shape"] for v in manifest.get("inputs", [])}
    layers = {}
    for node in manifest.get("schedule", []):
        outs = node.get("outputs", [])
        for o in outs:
            shapes[o["name"]] = o["shape"]
        first_in = next((shapes[i] for i in node.get("inputs", []) if i in shapes), None)
        layers[node["name"]] = (node["op"], first_in, outs[0]["shape"] if outs else None)
    return layers


def kind(op, in_shape, out_shape, macs):
    """A short name for the layer's shape: conv 7x7/2, conv 3x3, conv 1x1, dw 3x3/2, fc, ..."""
    if op != "Conv" or not in_shape or not out_shape or len(out_shape) != 4 or not macs:
        return op.lower()
    cin, hin = in_shape[1], in_shape[2]
    cout, hout, wout = out_shape[1], out_shape[2], out_shape[3]
    per_output = macs / float(cout * hout * wout)  # (cin / groups) * kh * kw
    stride = "/2" if hout * 2 <= hin else ""
    if cin == cout and per_output < cin and round(per_output) in (9, 25):
        k = {9: 3, 25: 5}[round(per_output)]
        return "dw %dx%d%s" % (k, k, stride)
    area = per_output / cin
    for k in (1, 3, 5, 7):
        if abs(area - k * k) < 0.01:
            return "conv %dx%d%s" % (k, k, stride)
    return "conv"


def fmt(v, key):
    if v is None:
        return "-"
    return "%.1f" % (v / 1e3) if key == "ns" else "%.2f" % (v / 1e6)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--key", choices=("ns", "insns"), required=True)
    ap.add_argument("--inspect")
    ap.add_argument("--top", type=int, default=0, help="print only the N layers that lose most (0: all)")
    ap.add_argument("label_a")
    ap.add_argument("export_a")
    ap.add_argument("runs_a")
    ap.add_argument("label_b")
    ap.add_argument("export_b")
    ap.add_argument("runs_b")
    a = ap.parse_args()
    key = a.key
    unit = "us" if key == "ns" else "Minsn"
    va, la = load_runs(a.runs_a, key)
    vb, lb = load_runs(a.runs_b, key)
    sched = load_schedule(a.export_a)
    macs = {}
    if a.inspect:
        for n in json.load(open(a.inspect)).get("nodes", []):
            macs[n["name"]] = n.get("macs", 0)
    rows = []
    for node, x in va.items():
        if node not in vb:
            continue
        op, ins, outs = sched.get(node, ("?", None, None))
        m = macs.get(node, 0)
        rows.append((x - vb[node], node, op, ins, outs, m, x, vb[node]))
    rows.sort(reverse=True)
    shown = rows[: a.top] if a.top else rows
    print("%-46s %-11s %-16s %7s %10s %10s %6s %9s" % ("node (matched by name)", "kind", "output", "MMAC",
                                                     "%s %s" % (a.label_a[:8], unit), "%s %s" % (a.label_b[:8], unit),
                                                     "ratio", "delta"))
    for delta, node, op, ins, outs, m, x, y in shown:
        shape = "x".join(str(d) for d in outs[1:]) if outs else "?"
        libs = "" if la.get(node) == a.label_a or lb.get(node) != "portable" else " (b on portable)"
        print("%-46s %-11s %-16s %7.1f %10s %10s %6.2f %9s%s" % (node[-46:], kind(op, ins, outs, m), shape, m / 1e6,
                                                                fmt(x, key), fmt(y, key), x / y if y else 0,
                                                                fmt(delta, key), libs))
    if a.top and len(rows) > a.top:
        print("... %d more matched layers" % (len(rows) - a.top))
    kinds = {}
    for delta, node, op, ins, outs, m, x, y in rows:
        k = kind(op, ins, outs, m)
        s = kinds.setdefault(k, [0, 0.0, 0.0, 0])
        s[0] += 1
        s[1] += x
        s[2] += y
        s[3] += m
    print()
    print("per kind of layer (sums over the matched layers):")
    print("%-12s %6s %8s %12s %12s %6s %10s" % ("kind", "layers", "MMAC", "%s %s" % (a.label_a[:8], unit),
                                                 "%s %s" % (a.label_b[:8], unit), "ratio", "delta"))
    for k, (count, x, y, m) in sorted(kinds.items(), key=lambda kv: kv[1][2] - kv[1][1]):
        print("%-12s %6d %8.1f %12s %12s %6.2f %10s" % (k, count, m / 1e6, fmt(x, key), fmt(y, key), x / y if y else 0,
                                                      fmt(x - y, key)))
    ta, tb = sum(r[6] for r in rows), sum(r[7] for r in rows)
    ua = sum(v for n, v in va.items() if n not in vb)
    ub = sum(v for n, v in vb.items() if n not in va)
    print("matched %d layers: %s %s %s, %s %s %s (%.2fx); unmatched: %s %s %s in %d layers, %s %s %s in %d layers" % (
        len(rows), a.label_a, fmt(ta, key), unit, a.label_b, fmt(tb, key), unit, ta / tb if tb else 0,
        a.label_a, fmt(ua, key), unit, len(va) - len(rows), a.label_b, fmt(ub, key), unit, len(vb) - len(rows)))


if __name__ == "__main__":
    main()

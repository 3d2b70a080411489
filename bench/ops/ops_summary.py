#!/usr/bin/python3
# Reads bench_ops.sh's results (NAME<TAB>description<TAB>portable MEDIAN:MIN ms per round<TAB>ORT
# MEDIAN:MIN ms per round<TAB>status[<TAB>base portable MEDIAN:MIN ms per round]) and prints the
# table: the median over rounds of the medians, the ratio portable / ORT of those, the ratio of the
# minimums beside it, with BASE_RUNTIME the base export's median ratio to ORT ("before"), a flag on
# every config whose median ratio is above 1.25x or whose check failed, then the geomeans.
#   ops_summary.py RESULTS        the whole table
#   ops_summary.py --row RESULTS  its last row only (printed as the benchmark goes)
import math
import statistics
import sys

FLAG = 1.25


def parse(line):
    fields = line.rstrip("\n").split("\t")
    name, desc, p, o, status = fields[:5]
    base = fields[5] if len(fields) > 5 else "-"
    def fig(text):
        if text in ("", "-"):
            return None, None
        pairs = [v.split(":") for v in text.split()]
        return statistics.median(float(a) for a, _ in pairs), min(float(b) for _, b in pairs)
    pm, pmin = fig(p)
    om, omin = fig(o)
    bm, _ = fig(base)
    return name, desc, pm, om, status, (pmin / omin if pmin and omin else None), (bm / om if bm and om else None)


def row(name, desc, pm, om, status, min_ratio, before=None, pad=False):
    ratio = pm / om if pm and om else None
    flag = ""
    if status != "ok":
        flag = "FAIL " + status
    elif ratio is not None and ratio > FLAG:
        flag = "SLOW"
    fmt = lambda v: "%10.3f" % v if v is not None else "%10s" % "-"
    r = "%7.2fx" % ratio if ratio is not None else "%8s" % "-"
    rm = "%7.2fx" % min_ratio if min_ratio is not None else "%8s" % "-"
    b = "%7.2fx " % before if before is not None else ("%8s " % "-" if pad else "")
    return ("%-22s %-50s %s%s %s %s %s  %s" % (name, desc[:50], b, fmt(pm), fmt(om), r, rm, flag), (ratio, min_ratio, before),
            status == "ok")


def main():
    args = sys.argv[1:]
    only_last = args and args[0] == "--row"
    path = args[-1]
    lines = [l for l in open(path) if l.strip()]
    if only_last:
        parsed = parse(lines[-1])
        print(row(*parsed, pad=parsed[6] is not None)[0], flush=True)
        return 0
    has_base = any(parse(l)[6] is not None for l in lines)
    b1, b2 = ("%8s " % "before", "%8s " % "ratio") if has_base else ("", "")
    print("%-22s %-50s %s%10s %10s %8s %8s" % ("config", "what", b1, "portable", "ORT", "ratio", "min"))
    print("%-22s %-50s %s%10s %10s %8s %8s" % ("", "", b2, "ms", "ms", "medians", "ratio"))
    ratios, min_ratios, befores, slow, failed = [], [], [], [], []
    for l in lines:
        text, (ratio, min_ratio, before), ok = row(*parse(l), pad=has_base)
        if before is not None:
            befores.append(before)
        print(text)
        if min_ratio is not None:
            min_ratios.append(min_ratio)
        if ratio is not None:
            ratios.append(ratio)
            if ratio > FLAG:
                slow.append(l.split("\t")[0])
        if not ok:
            failed.append(l.split("\t")[0])
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        geo_min = math.exp(sum(math.log(r) for r in min_ratios) / len(min_ratios))
        print("\n%d configs timed, geomean %.2fx ORT (of the minimums %.2fx), worst %.2fx, %d above %.2fx: %s" %
              (len(ratios), geo, geo_min, max(ratios), len(slow), FLAG, " ".join(slow) or "none"))
    if befores:
        geo_b = math.exp(sum(math.log(r) for r in befores) / len(befores))
        print("before (BASE_RUNTIME, same run): geomean %.2fx ORT, worst %.2fx, %d above %.2fx" %
              (geo_b, max(befores), sum(1 for r in befores if r > FLAG), FLAG))
    print("%d of %d configs correct within 1e-4%s" % (len(lines) - len(failed), len(lines),
                                                     (" (failed: " + " ".join(failed) + ")") if failed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

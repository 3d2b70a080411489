#!/bin/sh
# `--lib auto` against the single libraries on the host (issue 32): each model is exported with
# --lib portable, --lib xnnpack (Debian's or the resolved XNNPACK) and --lib auto (each node on
# the library measured fastest for its shape, bench/README.md), built, checked once with
# run_export --check, then timed in ROUNDS rounds (a round runs every library in turn, --warmup 3
# --iterations 20 --threads 1, each run's median kept); the table gives the median of the rounds
# and auto's ratio to the better single library (goal: <= 1.0).
# The measurements of --lib auto go to a cache of this run's own (MEASURE_CACHE, default
# $work/lib-auto.json), so the first model pays them and later models with the same layers
# reuse them; the time the export with --lib auto took (measurements included) is printed.
# Usage: bench/libs/bench_auto.sh [model...]   (default: lenet5 squeezenet1_1 mobilenet_v2 resnet18)
#   EMBARK_CLI=path/to/embark-cli  BENCH_DIR=/tmp/embark-bench-auto  ROUNDS=3
#   EMBARK_SHARED_MODELS=../shared/models  MEASURE_CACHE=$BENCH_DIR/lib-auto.json
#   REUSE=1 (keep the portable and xnnpack builds of an earlier run; auto is always exported again)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$(dirname "$here")")
cli=${EMBARK_CLI:-"$root/build/app/cli/embark-cli"}
shared=${EMBARK_SHARED_MODELS:-"$root/../shared/models"}
work=${BENCH_DIR:-/tmp/embark-bench-auto}
rounds=${ROUNDS:-3}
[ -x "$cli" ] || { echo "bench_auto: no embark-cli at $cli (set EMBARK_CLI)" >&2; exit 2; }
[ -d "$shared" ] || { echo "bench_auto: no shared models at $shared (set EMBARK_SHARED_MODELS)" >&2; exit 2; }
[ $# -gt 0 ] || set -- lenet5 squeezenet1_1 mobilenet_v2 resnet18
mkdir -p "$work"
export EMBARK_LIB_AUTO_CACHE="${MEASURE_CACHE:-$work/lib-auto.json}"
echo "bench_auto: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg); cache $EMBARK_LIB_AUTO_CACHE"

median() { # JSONL file -> median latency in ns of its latency lines
    /usr/bin/python3 -c '
import json, statistics, sys
ns = [json.loads(l)["ns"] for l in open(sys.argv[1]) if l.startswith("{\"type\":\"latency\"")]
print(int(statistics.median(ns)) if ns else 0)' "$1"
}

: > "$work/models.txt"
for model in "$@"; do
    [ -f "$shared/$model.onnx" ] || { echo "bench_auto: $shared/$model.onnx is missing" >&2; exit 2; }
    ok=""
    for lib in portable xnnpack auto; do
        dir="$work/${model}_$lib"
        if [ "${REUSE:-0}" = 1 ] && [ "$lib" != auto ] && [ -x "$dir/build/run_export" ]; then
            ok="$ok $lib"
            continue
        fi
        start=$(date +%s)
        if ! "$cli" export "$shared/$model.onnx" --board host --lib "$lib" -o "$dir" --force \
            > "$work/export.log" 2>&1; then
            echo "bench_auto: export $model --lib $lib failed:" >&2
            tail -5 "$work/export.log" >&2
            continue
        fi
        [ "$lib" = auto ] && echo "bench_auto: $model --lib auto exported in $(($(date +%s) - start)) s" \
            "($(/usr/bin/python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["auto"]; print(a["measured"], "measured,", a["cached"], "cached;", ", ".join(json.load(open(sys.argv[1]))["libraries"]))' "$dir/export.json"))"
        "$cli" build "$dir" --jobs 2 --quiet > "$work/build.log" 2>&1 ||
            { echo "bench_auto: build $model --lib $lib failed:" >&2; tail -20 "$work/build.log" >&2; continue; }
        "$dir/build/run_export" --warmup 0 --iterations 1 --check 1e-3 --out "$work/out" > "$work/check.jsonl" 2>&1 ||
            { echo "bench_auto: $model --lib $lib: run_export --check failed" >&2; continue; }
        ok="$ok $lib"
    done
    echo "$model$ok" >> "$work/models.txt"
done

: > "$work/rounds.txt"
round=1
while [ "$round" -le "$rounds" ]; do
    while read -r model ok; do
        for lib in $ok; do
            # Into a file, never a pipe: a reader started beside the run would take a core.
            "$work/${model}_$lib/build/run_export" --threads 1 --warmup 3 --iterations 20 --out "$work/out" \
                > "$work/run.jsonl"
            echo "$model $lib $(median "$work/run.jsonl")" >> "$work/rounds.txt"
        done
    done < "$work/models.txt"
    round=$((round + 1))
done

/usr/bin/python3 - "$work/rounds.txt" <<'EOF'
import collections, math, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    model, lib, ns = line.split()
    runs[(model, lib)].append(int(ns))
models = list(dict.fromkeys(m for m, _ in runs))
print(f"{'model':<16}{'portable ms':>13}{'xnnpack ms':>12}{'auto ms':>10}{'auto/best':>11}")
ratios = []
for m in models:
    ms = {lib: statistics.median(runs[(m, lib)]) / 1e6 for (mm, lib) in runs if mm == m}
    singles = [ms[l] for l in ("portable", "xnnpack") if l in ms]
    ratio = ms["auto"] / min(singles) if "auto" in ms and singles else float("nan")
    if not math.isnan(ratio):
        ratios.append(ratio)
    cell = lambda l: f"{ms[l]:.3f}" if l in ms else "-"
    print(f"{m:<16}{cell('portable'):>13}{cell('xnnpack'):>12}{cell('auto'):>10}{ratio:>10.2f}x")
if ratios:
    print(f"geomean auto/best {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}x over {len(ratios)} models")
EOF
echo "bench_auto: load after: $(cut -d' ' -f1-3 /proc/loadavg)"

#!/bin/sh
# Host benchmark of the export (issue 4): for each model, the reference interpreter
# (`embark-cli run`), the portable export and the XNNPACK export at 1 and 2 threads, side by
# side from one run, with ratios, plus the wall time of `embark-cli build` for each export (a
# fresh build folder).
# Each export is timed in ROUNDS rounds; a round runs `run_export --warmup 3 --iterations 20`
# for every library and thread count in turn and keeps each run's median. The table gives the
# median of the rounds (and the fastest iteration). A machine whose speed drifts (shared
# virtual CPUs) then shifts all four runs of a round alike instead of one column, and the
# spread of the per-round 2-thread gains shows how steady the machine was. Each run writes its
# JSON lines to a file that is read once the run has ended: nothing else runs beside it.
# Usage: bench/bench_export.sh [model...]        (default: resnet18 mobilenet_v2)
#   EMBARK_CLI=path/to/embark-cli  BENCH_DIR=/tmp/embark-bench-export  JOBS=2  ROUNDS=5
#   REUSE=1: keep the exports and builds of a previous run (timings only; build s is then 0)
# The machine should be quiet: the load average is printed before and after. Before each round
# the round trip of a cache line between CPU 0 and CPU 1 is measured (core_latency.cpp) and
# printed beside that round's 2-thread gains: on a virtual machine whose vCPUs move between
# dies it changes several-fold between rounds, and the gains of memory-bound models follow it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cli=${EMBARK_CLI:-"$root/build-export/app/cli/embark-cli"}
shared=${EMBARK_SHARED_MODELS:-"$root/../shared/models"}
work=${BENCH_DIR:-/tmp/embark-bench-export}
jobs=${JOBS:-2}
rounds=${ROUNDS:-5}
[ -x "$cli" ] || { echo "bench_export: no embark-cli at $cli (set EMBARK_CLI)" >&2; exit 2; }
[ -d "$shared" ] || { echo "bench_export: no shared models at $shared (set EMBARK_SHARED_MODELS)" >&2; exit 2; }
[ $# -gt 0 ] || set -- resnet18 mobilenet_v2
mkdir -p "$work"

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "n/a" }'; }

echo "bench_export: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
results="$work/results.txt"
: > "$results"
: > "$work/builds.txt"
: > "$work/rounds.txt"
: > "$work/probes.txt"
probe="$work/core_latency"
${CXX:-c++} -O2 -pthread "$here/export/core_latency.cpp" -o "$probe" 2> "$work/probe.log" || probe=""
for model in "$@"; do
    onnx="$shared/$model.onnx"
    data="$shared/$model/test_data_set_0"
    [ -f "$onnx" ] || { echo "bench_export: $onnx is missing" >&2; exit 2; }
    # The reference is single-threaded: three runs, the median.
    refs=""
    for i in 1 2 3; do
        "$cli" run "$onnx" --expect "$data" --json > "$work/reference.jsonl"
        refs="$refs $(python3 "$here/export/reference_ms.py" < "$work/reference.jsonl")"
    done
    ref=$(echo $refs | tr ' ' '\n' | sort -g | sed -n 2p)
    for lib in portable xnnpack; do
        dir="$work/${model}_$lib"
        build_s=0
        if [ "${REUSE:-0}" != 1 ] || [ ! -x "$dir/build/run_export" ]; then
            "$cli" export "$onnx" --lib "$lib" -o "$dir" --force --input "$data/input_0.pb" > "$work/export.log"
            t0=$(now)
            "$cli" build "$dir" --jobs "$jobs" --quiet > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 5; }
            build_s=$(seconds "$t0" "$(now)")
        fi
        echo "$model $lib $build_s $ref" >> "$work/builds.txt"
    done
    round=1
    while [ "$round" -le "$rounds" ]; do
        echo "$model $round $([ -n "$probe" ] && "$probe" || echo n/a)" >> "$work/probes.txt"
        for lib in portable xnnpack; do
            for threads in 1 2; do
                # Into a file first, never a pipe: a reader started beside the run (python3's
                # start-up is CPU-heavy) would take one of the two cores from it and spoil the
                # 2-thread figures.
                "$work/${model}_$lib/build/run_export" --warmup 3 --iterations 20 --threads "$threads" > "$work/run.jsonl"
                summary=$(python3 "$here/export/latency_summary.py" < "$work/run.jsonl")
                echo "$model $lib $threads $round $summary" >> "$work/rounds.txt"
            done
        done
        round=$((round + 1))
    done
done
python3 "$here/export/rounds_summary.py" "$work/builds.txt" "$work/rounds.txt" > "$results"

echo
echo "median over $rounds rounds of each run's median of 20 iterations (fastest iteration in brackets);"
echo "2T gain: of those medians, and the lowest and highest gain within one round"
printf '%-13s %-9s %20s %20s %8s %13s %10s %8s\n' model library "1T ms" "2T ms" "2T gain" "round gains" "ref ms" "build s"
while read -r model lib threads ms build ref min gain_lo gain_hi; do
    [ "$threads" = 1 ] || continue
    ms2=$(awk -v m="$model" -v l="$lib" '$1 == m && $2 == l && $3 == 2 { print $4 }' "$results")
    min2=$(awk -v m="$model" -v l="$lib" '$1 == m && $2 == l && $3 == 2 { print $7 }' "$results")
    printf '%-13s %-9s %9s (%8s) %9s (%8s) %7sx %13s %10s %8s\n' "$model" "$lib" "$ms" "$min" "$ms2" "$min2" \
        "$(ratio "$ms" "$ms2")" "$gain_lo-${gain_hi}x" "$ref" "$build"
done < "$results"
echo
for model in $(cut -d' ' -f1 "$results" | uniq); do
    for threads in 1 2; do
        p=$(awk -v m="$model" -v t="$threads" '$1 == m && $2 == "portable" && $3 == t { print $4 }' "$results")
        x=$(awk -v m="$model" -v t="$threads" '$1 == m && $2 == "xnnpack" && $3 == t { print $4 }' "$results")
        r=$(awk -v m="$model" '$1 == m { print $6; exit }' "$results")
        echo "$model ${threads}T: portable/xnnpack $(ratio "$p" "$x")x, reference/portable $(ratio "$r" "$p")x, reference/xnnpack $(ratio "$r" "$x")x"
    done
done
# ONNX Runtime is not packaged for Debian 12: its CPU provider's ResNet-18 latency on this kind of
# machine is the figure quoted in issue 4 (15.8 ms with 1 thread, 8.3 ms with 2), not measured here.
if grep -q '^resnet18 ' "$results"; then
    for threads in 1 2; do
        ort=$([ "$threads" = 1 ] && echo 15.8 || echo 8.3)
        best=$(awk -v t="$threads" '$1 == "resnet18" && $3 == t { print $4 }' "$results" | sort -g | head -1)
        echo "resnet18 ${threads}T: faster export $best ms vs ONNX Runtime (quoted) $ort ms: $(ratio "$best" "$ort")x"
    done
fi
echo
echo "2-thread gain of each round, and the core-to-core round trip measured before it:"
python3 "$here/export/round_gains.py" "$work/rounds.txt" "$work/probes.txt"
echo "bench_export: load after: $(cut -d' ' -f1-3 /proc/loadavg)"

#!/usr/bin/env bash
# Op-level benchmark (issue 32): single-op ONNX models over a grid of shapes and attributes
# (bench/ops/make_models.py), each exported with the portable library on the host, built, checked
# against Embark's reference interpreter (`run_export --check 1e-4`) and timed beside ONNX Runtime
# 1.30's CPU provider (npm's onnxruntime-node through runtime/ort/ort_run.js), both at 1 thread.
# Prints one row per config: medians of both, the ratio portable / ORT, and a flag on every config
# above 1.25x (and on every failed check); then the geomean. Never run by the test suite.
#   bench/ops/bench_ops.sh [--quick] [--only NAME,NAME...] [--rounds R] [--in-model]
# --in-model times each op as it runs inside a model, not as a one-op model: the models carry
# "embark.stands_for_inner_nodes" (make_models.py), so the portable node takes its in-model kernel
# and layout; its figure is its own layer time (run_export --layers, without the layout
# conversions at the model's edges, latency_summary.py --op-layers), ORT's the sum of its node kernel times
# without its NCHWc reorders (ort_profile_ms.py --nodes). A single-op model otherwise measures
# shortcuts a model's inner nodes never take (a lone pool or a 1-channel conv run in NCHW).
# How: ROUNDS rounds (default 3) per config, alternating portable and ORT; each round is one run
# of W warm-up + N timed iterations (N chosen from the checked run's latency so a round takes
# ~0.3 s, 5 to 50). Portable: run_export's wall clock per forward(). ORT: the model_run durations
# of its profile (ORT's own clock per run, see ort_profile_ms.py). A side's figure is the median
# over rounds of each run's median; the minimum over all runs is printed beside it (on a loaded
# machine the steadier figure).
# The default grid (~90 configs) takes about 15 minutes on 2 cores; --quick (~27) about 5.
# Environment: EMBARK_CLI=path/to/embark-cli  BENCH_DIR=/tmp/embark-bench-ops (exports, builds,
#   results; reused by REUSE=1)  ORT_CACHE=~/.cache/embark/onnxruntime-node-1.30  ROUNDS=3
#   BASE_RUNTIME=DIR: a second portable export of each config with the kernels of DIR (a copy of
#   runtime/ from an older commit, given to embark-cli as EMBARK_RUNTIME_DIR), timed in the same
#   rounds, so the table shows the ratios before and after side by side from one run.
#   BASE_CLI=path/to/older/embark-cli: the same, with an older embark-cli (its emitters and its
#   own runtime/, or BASE_RUNTIME's) for the base exports: changes of the emitters or the layout
#   assignment show up before/after too.
# Builds go through ccache when it is installed (the kernels are the same in every export).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cli=${EMBARK_CLI:-"$root/build/app/cli/embark-cli"}
work=${BENCH_DIR:-/tmp/embark-bench-ops}
rounds=${ROUNDS:-3}
base_rt=${BASE_RUNTIME:-}
base_cli=${BASE_CLI:-}
ort_cache=${ORT_CACHE:-"${XDG_CACHE_HOME:-$HOME/.cache}/embark/onnxruntime-node-1.30"}
py=/usr/bin/python3
gen_args=()
in_model=0
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) gen_args+=(--quick) ;;
    --only) gen_args+=(--only "$2"); shift ;;
    --rounds) rounds=$2; shift ;;
    --in-model) gen_args+=(--in-model); in_model=1 ;;
    *) echo "usage: bench_ops.sh [--quick] [--only NAME,NAME...] [--rounds R] [--in-model]" >&2; exit 2 ;;
    esac
    shift
done
[ -x "$cli" ] || { echo "bench_ops: no embark-cli at $cli (set EMBARK_CLI)" >&2; exit 2; }
command -v node > /dev/null && command -v npm > /dev/null ||
    { echo "bench_ops: node/npm missing (apt-get install nodejs npm)" >&2; exit 2; }
if [ ! -d "$ort_cache/node_modules/onnxruntime-node" ]; then
    mkdir -p "$ort_cache"
    echo "bench_ops: installing onnxruntime-node@1.30 into $ort_cache"
    (cd "$ort_cache" && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund onnxruntime-node@1.30 \
        > "$work.npm.log" 2>&1) || { echo "bench_ops: npm install failed (see $work.npm.log)" >&2; exit 2; }
fi
ort="$ort_cache/node_modules"
mkdir -p "$work"
if command -v ccache > /dev/null; then
    export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
    # Each export compiles from its own build/ folder: relative paths make the kernels' objects hit.
    export CCACHE_BASEDIR="$work" CCACHE_NOHASHDIR=true
fi

"$py" "$here/make_models.py" "$work/models" "${gen_args[@]}" > "$work/configs.txt"
echo "bench_ops: $(wc -l < "$work/configs.txt") configs, $rounds rounds, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bench_ops: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
: > "$work/results.txt"

layers=() ort_nodes=() summary_args=()
if [ "$in_model" = 1 ]; then layers=(--layers) ort_nodes=(--nodes) summary_args=(--op-layers); fi
summary() { "$py" "$root/bench/export/latency_summary.py" "${summary_args[@]}" < "$1" | cut -d' ' -f1,2 | tr ' ' :; }

while IFS=$'\t' read -r name desc; do
    m="$work/models/$name"
    dir="$work/exports/$name"
    inputs=() cli_inputs=()
    for f in "$m"/input_*.pb; do inputs+=(--input "$f"); done
    if [ ${#inputs[@]} -gt 2 ]; then # several inputs: embark-cli takes NAME=FILE (make_models.py names them x0, x1, ...)
        for f in "$m"/input_*.pb; do k=${f##*input_}; cli_inputs+=(--input "x${k%.pb}=$f"); done
    else
        cli_inputs=("${inputs[@]}")
    fi
    status=ok
    if [ "${REUSE:-0}" != 1 ] || [ ! -x "$dir/build/run_export" ]; then
        if ! "$cli" export "$m/model.onnx" --lib portable -o "$dir" --force "${cli_inputs[@]}" > "$work/export.log" 2>&1; then
            status="export-failed: $(grep -m1 -i error "$work/export.log" | cut -c1-120)"
        elif ! "$cli" build "$dir" --jobs 2 --quiet > "$work/build.log" 2>&1; then
            status="build-failed"
            tail -5 "$work/build.log" >&2
        fi
    fi
    if [ "$status" = ok ] && { [ -n "$base_rt" ] || [ -n "$base_cli" ]; } &&
        { [ "${REUSE:-0}" != 1 ] || [ ! -x "$dir-base/build/run_export" ]; }; then
        if ! env ${base_rt:+EMBARK_RUNTIME_DIR="$base_rt"} "${base_cli:-$cli}" export "$m/model.onnx" --lib portable -o "$dir-base" --force \
            "${cli_inputs[@]}" > "$work/export.log" 2>&1 ||
            ! "${base_cli:-$cli}" build "$dir-base" --jobs 2 --quiet > "$work/build.log" 2>&1; then
            status="base-failed"
        fi
    fi
    if [ "$status" != ok ]; then
        printf '%s\t%s\t-\t-\t%s\t-\n' "$name" "$desc" "$status" >> "$work/results.txt"
        echo "bench_ops: $name: $status" >&2
        continue
    fi
    # Correctness against the reference interpreter's outputs for the same input, within 1e-4.
    if ! "$dir/build/run_export" --threads 1 --warmup 0 --iterations 1 "${layers[@]}" --check 1e-4 --out "$work/out" \
        > "$work/check.jsonl" 2> "$work/check.err"; then
        status="check-failed: $(grep -h '"check"\|"error"' "$work/check.jsonl" | head -1 | cut -c1-120)"
    fi
    first_ms=$(summary "$work/check.jsonl" | cut -d: -f1 || echo 10)
    iters=$("$py" -c "import sys; print(max(5, min(50, int(300 / max(float(sys.argv[1]), 1e-3)))))" "$first_ms")
    warm=$(( iters / 5 + 1 ))
    p=() o=() b=()
    for r in $(seq "$rounds"); do
        if [ -n "$base_rt" ] || [ -n "$base_cli" ]; then
            "$dir-base/build/run_export" --threads 1 --warmup "$warm" --iterations "$iters" "${layers[@]}" > "$work/run.jsonl"
            b+=("$(summary "$work/run.jsonl")")
        fi
        # Into files, never a pipe: a reader started beside the run would take a core.
        "$dir/build/run_export" --threads 1 --warmup "$warm" --iterations "$iters" "${layers[@]}" > "$work/run.jsonl"
        p+=("$(summary "$work/run.jsonl")")
        # ORT's figure is its profile's model_run (ort_profile_ms.py): the profiled session runs
        # after the plain one, warm-up included, and its warm-up runs are left out.
        rm -f "$work"/ortprof*.json
        (cd "$work" && NODE_PATH="$ort" node "$root/runtime/ort/ort_run.js" "$m/model.onnx" "${inputs[@]}" --out "$work/ort-out" \
            --threads 1 --warmup "$warm" --iterations "$iters" --profile ortprof > "$work/ort.jsonl" 2> "$work/ort.err") ||
            { status="ort-failed: $(head -c 120 "$work/ort.err")"; break; }
        o+=("$("$py" "$here/ort_profile_ms.py" "$(ls "$work"/ortprof*.json | head -1)" "$warm" "${ort_nodes[@]}" | tr ' ' :)")
    done
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$desc" "${p[*]:-}" "${o[*]:-}" "$status" "${b[*]:--}" \
        >> "$work/results.txt"
    "$py" "$here/ops_summary.py" --row "$work/results.txt"
done < "$work/configs.txt"

echo
"$py" "$here/ops_summary.py" "$work/results.txt"
echo "bench_ops: load after: $(cut -d' ' -f1-3 /proc/loadavg)"
